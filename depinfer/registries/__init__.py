"""Registry clients behind one facade; see base.py for the interface.

`Registries.exists()` is the single fake-name check: everything depinfer writes passes
through it when online and is marked unverified when offline.
"""

from __future__ import annotations

from depinfer.model import Ecosystem
from depinfer.registries.base import RegistryClient, RegistryError, VersionInfo

__all__ = ["Registries", "RegistryClient", "RegistryError", "VersionInfo"]


class Registries:
    def __init__(
        self,
        offline: bool = False,
        refresh: bool = False,
        endpoints: dict[Ecosystem, str] | None = None,
        cache_dir: str | None = None,
    ) -> None:
        self.offline = offline
        self.refresh = refresh
        self.endpoints = endpoints or {}
        self.cache_dir = cache_dir
        self._clients: dict[Ecosystem, RegistryClient] = {}
        self.unverified: set[tuple[Ecosystem, str]] = set()

    def client(self, ecosystem: Ecosystem) -> RegistryClient | None:
        """The client for an ecosystem, or None when offline."""
        if self.offline:
            return None
        if ecosystem not in self._clients:
            from depinfer.registries.clients import make_client

            try:
                self._clients[ecosystem] = make_client(ecosystem, self)
            except NotImplementedError:
                return None
        return self._clients[ecosystem]

    def exists(self, ecosystem: Ecosystem, name: str) -> bool | None:
        client = self.client(ecosystem)
        if client is None:
            self.unverified.add((ecosystem, name))
            return None
        try:
            answer = client.exists(name)
        except RegistryError:
            answer = None
        if answer is None:
            self.unverified.add((ecosystem, name))
        return answer

    def exists_many(self, ecosystem: Ecosystem, names: list[str]) -> dict[str, bool | None]:
        """Concurrent `exists` for several names (clients may override with a batch call)."""
        from concurrent.futures import ThreadPoolExecutor

        unique = list(dict.fromkeys(names))
        if not unique:
            return {}
        with ThreadPoolExecutor(max_workers=min(16, len(unique))) as pool:
            return dict(
                zip(unique, pool.map(lambda n: self.exists(ecosystem, n), unique), strict=True)
            )

    def versions(self, ecosystem: Ecosystem, name: str) -> list[VersionInfo]:
        client = self.client(ecosystem)
        if client is None:
            return []
        try:
            return client.versions(name)
        except RegistryError:
            return []
