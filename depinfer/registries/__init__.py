"""Registry clients behind one facade; see base.py for the interface.

`Registries.exists()` is the single fake-name check: everything depinfer writes passes
through it when online and is marked unverified when offline.

The facade owns what the clients share in one run: the HTTP settings and cache
(http.py), which endpoints to use (injected, or discovered by endpoints.py), and the
bookkeeping of what could not be checked, which `warnings` turns into one message per
registry (why it could not be asked, and which names stayed unverified).
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

from depinfer.model import Ecosystem
from depinfer.registries.base import (
    RegistryClient,
    RegistryError,
    RegistryUnavailable,
    VersionInfo,
)
from depinfer.registries.status import stage

if TYPE_CHECKING:  # the HTTP stack loads on the first look-up: offline runs never need it
    from depinfer.registries.http import HttpSettings

__all__ = [
    "Registries",
    "RegistryClient",
    "RegistryError",
    "RegistryUnavailable",
    "VersionInfo",
]

MAX_WORKERS = 16
LABELS = {
    Ecosystem.PYPI: "PyPI",
    Ecosystem.NPM: "npm",
    Ecosystem.CRATES: "crates",
    Ecosystem.NUGET: "NuGet",
}


class Registries:
    def __init__(
        self,
        offline: bool = False,
        refresh: bool = False,
        endpoints: dict[Ecosystem, str] | None = None,
        cache_dir: str | None = None,
        project_root: str | Path | None = None,
        timeout: float | None = None,
        max_failures: int = 3,
        retries: int = 2,
        use_cache: bool = True,
    ) -> None:
        self.offline = offline
        self.refresh = refresh
        self.endpoints = endpoints or {}
        self.cache_dir = cache_dir
        # Where project-level registry configuration (.npmrc, NuGet.Config, uv.toml,
        # .cargo/config.toml) is looked up; None: only user and global configuration.
        self.project_root = project_root
        self.timeout = timeout
        self.max_failures = max_failures
        self.retries = retries
        self.use_cache = use_cache
        self._clients: dict[Ecosystem, RegistryClient] = {}
        self._unavailable: dict[Ecosystem, str] = {}
        self._errors: dict[Ecosystem, str] = {}
        self.unverified: set[tuple[Ecosystem, str]] = set()
        self._lock = threading.RLock()
        self._eco_locks: dict[Ecosystem, threading.Lock] = {}
        self._settings: Any = None

    def use_project(self, root: str | Path) -> bool:
        """Also honour registry configuration inside the analysed project (.npmrc,
        NuGet.Config, uv.toml, .cargo/config.toml), as its own tools would.

        Takes effect only before the first client is built (and when no project was given
        at construction); returns whether it did.
        """
        with self._lock:
            if self.project_root is not None or self._clients or self._unavailable:
                return False
            self.project_root = root
            return True

    # -- shared plumbing -------------------------------------------------------------------
    def resolved_cache_dir(self) -> Path | None:
        """Where the HTTP cache lives: cache_dir, else DEPINFER_CACHE_DIR, else the user's."""
        if not self.use_cache:
            return None
        if self.cache_dir:
            return Path(self.cache_dir)
        from depinfer.registries.http import default_cache_dir  # lazy (above)

        return default_cache_dir()

    def http_settings(self) -> HttpSettings:
        with self._lock:
            if self._settings is None:
                from depinfer.registries.http import HttpSettings  # lazy (above)

                settings = HttpSettings(
                    cache_dir=self.resolved_cache_dir(),
                    refresh=self.refresh,
                    max_failures=self.max_failures,
                    retries=self.retries,
                )
                if self.timeout is not None:
                    settings.connect_timeout = settings.read_timeout = self.timeout
                self._settings = settings
            return self._settings

    def tooling_store(self) -> Path | None:
        """The small file remembering tooling probes (npm/cargo defaults) between runs."""
        cache = self.resolved_cache_dir()
        return cache / "tooling.json" if cache else None

    def client(self, ecosystem: Ecosystem) -> RegistryClient | None:
        """The client for an ecosystem; None when offline or no endpoint can be found."""
        if self.offline:
            return None
        known = self._clients.get(ecosystem)
        if known is not None:
            return known
        # One lock per ecosystem: discovering npm's registry (which may start npm) must not
        # hold up PyPI look-ups running meanwhile.
        with self._lock:
            lock = self._eco_locks.setdefault(ecosystem, threading.Lock())
        with lock:
            if ecosystem in self._unavailable:
                return None
            if ecosystem not in self._clients:
                from depinfer.registries.clients import make_client  # lazy (above)

                try:
                    self._clients[ecosystem] = make_client(ecosystem, self)
                except (RegistryUnavailable, NotImplementedError) as exc:
                    self._unavailable[ecosystem] = str(exc)
                    return None
            return self._clients[ecosystem]

    def _degraded(self, client: RegistryClient) -> bool:
        http = getattr(client, "http", None)
        return bool(http is not None and http.offline)

    def _call(self, ecosystem: Ecosystem, name: str, fn: Any, default: Any) -> Any:
        client = self.client(ecosystem)
        if client is None or self._degraded(client):
            self.unverified.add((ecosystem, name))
            return default
        try:
            return fn(client)
        except RegistryError as exc:
            self._errors[ecosystem] = str(exc)
            self.unverified.add((ecosystem, name))
            return default
        except Exception as exc:  # a client bug must never become a traceback for users
            self._errors[ecosystem] = f"{type(exc).__name__}: {exc}"
            self.unverified.add((ecosystem, name))
            return default

    # -- questions -------------------------------------------------------------------------
    def exists(self, ecosystem: Ecosystem, name: str) -> bool | None:
        """True/False as the registry says; None when it could not be asked."""
        answer = self._call(ecosystem, name, lambda c: c.exists(name), None)
        if answer is None:
            self.unverified.add((ecosystem, name))
        return answer

    def exists_many(self, ecosystem: Ecosystem, names: list[str]) -> dict[str, bool | None]:
        """Concurrent `exists` for several names over the client's pooled connections."""
        return self._many(ecosystem, names, self.exists)

    def versions(self, ecosystem: Ecosystem, name: str) -> list[VersionInfo]:
        return self._call(ecosystem, name, lambda c: c.versions(name), [])

    def versions_many(self, ecosystem: Ecosystem, names: list[str]) -> dict[str, list[VersionInfo]]:
        return self._many(ecosystem, names, self.versions)

    def metadata(self, ecosystem: Ecosystem, name: str, version: str | None = None) -> dict:
        """Version (default: latest) metadata; {} when unknown or not reachable."""
        return self._call(ecosystem, name, lambda c: c.metadata(name, version), {})

    def modules(
        self, ecosystem: Ecosystem, name: str, version: str | None = None
    ) -> frozenset[str] | None:
        """The module paths a release installs (PyPI: its wheel's file list), the newest
        one's unless `version` is given; None when unknown (no wheel, another ecosystem,
        offline)."""
        return self._call(
            ecosystem,
            name,
            lambda c: c.modules(name, version) if hasattr(c, "modules") else None,
            None,
        )

    def mentions(
        self, ecosystem: Ecosystem, name: str, version: str, identifier: str
    ) -> bool | None:
        """Whether the release's code has `identifier` as a word (PyPI: its wheel's Python
        files); None when that cannot be told (no wheel, another ecosystem, offline)."""
        return self._call(
            ecosystem,
            name,
            lambda c: c.mentions(name, version, identifier) if hasattr(c, "mentions") else None,
            None,
        )

    def metadata_many(self, ecosystem: Ecosystem, names: list[str]) -> dict[str, dict]:
        """Concurrent `metadata` (latest versions) for several names: a loop asking one
        name at a time waits a round trip per name on a cold cache."""
        return self._many(ecosystem, names, self.metadata)

    def download_crate(self, name: str, version: str) -> bytes | None:
        """A crate version's `.crate` tarball (for reading its cfg(feature) gates)."""
        return self._call(Ecosystem.CRATES, name, lambda c: c.download(name, version), None)

    def _many(self, ecosystem: Ecosystem, names: list[str], fn: Any) -> dict[str, Any]:
        unique = list(dict.fromkeys(names))
        if not unique:
            return {}
        self.client(ecosystem)  # discover the endpoint once, before the workers start
        if len(unique) == 1:
            return {unique[0]: fn(ecosystem, unique[0])}
        from concurrent.futures import ThreadPoolExecutor  # lazy: offline runs start none

        what = "checking" if fn == self.exists else "fetching releases of"
        what = "fetching metadata of" if fn == self.metadata else what
        with stage(f"{what} {len(unique)} names with {LABELS[ecosystem]}"):
            with ThreadPoolExecutor(max_workers=min(MAX_WORKERS, len(unique))) as pool:
                results = pool.map(lambda n: fn(ecosystem, n), unique)
                return dict(zip(unique, results, strict=True))

    # -- reporting -------------------------------------------------------------------------
    def describe(self, ecosystem: Ecosystem) -> str:
        """Which registry an ecosystem's questions go to, and why (for messages, --explain)."""
        client = self.client(ecosystem)
        if client is None:
            return self._unavailable.get(ecosystem, "offline")
        http = getattr(client, "http", None)
        return getattr(http, "label", LABELS[ecosystem])

    @property
    def warnings(self) -> list[str]:
        """One message per registry that could not answer everything asked of it."""
        if self.offline:
            return []
        out = []
        for eco in Ecosystem:
            names = sorted(n for e, n in self.unverified if e is eco)
            reason = self._unavailable.get(eco)
            client = self._clients.get(eco)
            http = getattr(client, "http", None) if client is not None else None
            if reason:
                head = f"{LABELS[eco]}: {reason}; working from shipped data only"
            elif http is not None and http.offline:
                head = (
                    f"{LABELS[eco]}: {http.label} failed {http.total_failures} times "
                    f"(last: {http.last_error}); not asked again in this run"
                )
            elif names:
                head = f"{LABELS[eco]}: {self._errors.get(eco, 'registry errors')}"
            else:
                continue
            if names:
                shown = ", ".join(names[:20]) + (" …" if len(names) > 20 else "")
                head += f"; could not verify: {shown}"
            out.append(head)
        return out

    def close(self) -> None:
        for client in self._clients.values():
            http = getattr(client, "http", None)
            if http is not None:
                http.close()
