"""One cached, retrying HTTP session per registry, and the rule for giving up on it.

Why a layer of its own: every client needs the same four things — a persistent cache
(requests-cache over SQLite in the user cache directory, so a second run asks nothing),
connection reuse (one `Session` with a pooled adapter per registry, shared by the worker
threads of `exists_many`), retries with backoff for the failures worth retrying
(urllib3 `Retry` on timeouts, 5xx and 429), and a circuit breaker: after a few failures
that survived the retries the registry is treated as offline for the rest of the run, so a
dead network costs seconds once instead of a timeout per package.
"""

from __future__ import annotations

import json
import os
import sqlite3
import sys
import threading
import time
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any

from depinfer.registries.base import RegistryError
from depinfer.registries.cache import enforce_cap, max_bytes
from depinfer.registries.facts import FactStore
from depinfer.runcache import note_fresh_until

if TYPE_CHECKING:  # requests and urllib3 load on the first session: offline runs skip them
    import requests

# Statuses a registry answers for "no such package". Cargo's sparse-index protocol also
# treats 410 and 451 that way.
NOT_FOUND = frozenset({404, 410, 451})
RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
CACHEABLE = (200, 404, 410)
DEFAULT_EXPIRY = timedelta(hours=24)
MAX_RETRY_AFTER = 5.0  # seconds: a rate limit asking for longer is a failure, not a wait


class RegistryOffline(RegistryError):
    """The registry failed too often in this run; it is no longer asked."""


def _capped_retry(**kwargs: Any) -> Any:
    """urllib3 Retry whose wait for `Retry-After` never exceeds MAX_RETRY_AFTER seconds."""
    from urllib3.util.retry import Retry  # lazy: only a run that goes online needs it

    class CappedRetry(Retry):
        def get_retry_after(self, response: Any) -> float | None:
            value = super().get_retry_after(response)
            return None if value is None else min(value, MAX_RETRY_AFTER)

    return CappedRetry(**kwargs)


# Optional back-ends requests-cache imports when they are installed, none of which depinfer
# uses (it keeps responses in SQLite) nor loads elsewhere: boto3 alone took a second of a
# cold run. Hidden while requests-cache loads, so it finds them missing.
UNUSED_BY_CACHE = (  # package literal: the modules requests-cache tries to import
    *("boto3", "botocore", "pymongo", "bson", "gridfs", "redis"),  # package literal: (same)
)
_import_lock = threading.Lock()


def requests_cache_module() -> Any:
    """requests_cache, loaded without the back-ends depinfer never uses (UNUSED_BY_CACHE);
    a module another part of the process loaded already is left as it is."""
    with _import_lock:  # registries make their sessions in parallel threads
        if "requests_cache" in sys.modules:
            return sys.modules["requests_cache"]
        hidden = [n for n in UNUSED_BY_CACHE if n not in sys.modules]
        for name in hidden:
            sys.modules[name] = None  # type: ignore[assignment]  # import raises ImportError
        try:
            import requests_cache
        finally:
            for name in hidden:
                if name in sys.modules and sys.modules[name] is None:
                    del sys.modules[name]
        return requests_cache


def default_cache_dir() -> Path:
    """DEPINFER_CACHE_DIR, else the platform's user cache directory for depinfer."""
    env = os.environ.get("DEPINFER_CACHE_DIR")
    if env:
        return Path(env).expanduser()
    import platformdirs

    return Path(platformdirs.user_cache_dir("depinfer", appauthor=False))


@dataclass
class HttpSettings:
    """What every registry session shares in one run."""

    cache_dir: Path | None = None  # None: no persistent cache (tests of raw behaviour)
    refresh: bool = False  # --refresh: ask the registry again, overwrite the cache
    expire_after: timedelta = DEFAULT_EXPIRY
    connect_timeout: float = 5.0
    read_timeout: float = 15.0
    retries: int = 2
    backoff: float = 0.3
    max_failures: int = 3  # failures (after retries) before the registry counts as offline
    pool_size: int = 16
    user_agent: str = ""  # empty: "depinfer/<installed version>"
    _backend: Any = field(default=None, repr=False)
    _facts: Any = field(default=None, repr=False)
    _backend_lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def facts(self) -> Any:
        """The store of reduced documents shared by every client (see facts.py)."""
        with self._backend_lock:
            if self._facts is None:
                path = self.cache_dir / "facts.sqlite" if self.cache_dir else None
                self._facts = FactStore(path, self.expire_after.total_seconds(), self.refresh)
            return self._facts

    def backend(self) -> Any:
        """One SQLite cache backend shared by every session (None when caching is off)."""
        if self.cache_dir is None:
            return None
        with self._backend_lock:
            if self._backend is None:
                cache = requests_cache_module()
                self.cache_dir.mkdir(parents=True, exist_ok=True)
                # fast_save: no fsync per stored response. A cache may lose its last
                # entries on power loss; it must not cost a disk flush per package.
                self._backend = cache.SQLiteCache(
                    str(self.cache_dir / "http_cache.sqlite"),
                    wal=True,
                    busy_timeout=10_000,
                    fast_save=True,
                )
                enforce_cap(self.cache_dir, self._backend, max_bytes())
            return self._backend


def _user_agent_default() -> str:
    try:
        from importlib.metadata import version

        return f"depinfer/{version('depinfer')}"
    except Exception:
        return "depinfer"


class RegistryHttp:
    """GETs for one registry: cached, pooled, retried, and cut off after repeated failures."""

    def __init__(self, label: str, settings: HttpSettings) -> None:
        self.label = label
        self.settings = settings
        self.failures = 0  # in a row; `max_failures` of them end look-ups for the run
        self.total_failures = 0
        self.last_error: str | None = None
        self._lock = threading.Lock()
        self._session: requests.Session | None = None
        self.facts = settings.facts()

    # -- session -----------------------------------------------------------------------
    @property
    def session(self) -> requests.Session:
        """The pooled, cached session, made on the first request: a warm run whose every
        answer is in the fact store never loads requests, requests-cache or their HTTP
        cache (loading them costs more than the rest of such a run)."""
        if self._session is None:
            with self._lock:
                if self._session is None:
                    self._session = self._make_session(cached=True)
        return self._session

    @session.setter
    def session(self, value: requests.Session) -> None:
        self._session = value

    def _make_session(self, cached: bool) -> requests.Session:
        import requests  # lazy: only a run that goes online needs it
        from requests.adapters import HTTPAdapter

        s = self.settings
        session: requests.Session
        backend = None
        if cached:
            try:
                backend = s.backend()
            except (OSError, sqlite3.Error):
                backend = None  # unwritable cache dir: work uncached rather than fail
        if backend is not None:
            session = requests_cache_module().CachedSession(
                backend=backend,
                expire_after=s.expire_after,
                allowable_codes=CACHEABLE,
                match_headers=["Accept"],  # npm's abbreviated and full packuments differ
                cache_control=False,
                stale_if_error=True,
                autoclose=False,
            )
        else:
            session = requests.Session()
        retry = _capped_retry(
            total=s.retries,
            connect=min(1, s.retries),  # a dead host is not worth several connect timeouts
            read=s.retries,
            status=s.retries,
            backoff_factor=s.backoff,
            status_forcelist=RETRY_STATUSES,
            allowed_methods=frozenset({"GET", "HEAD"}),
            raise_on_status=False,
            respect_retry_after_header=True,
        )
        adapter = HTTPAdapter(
            max_retries=retry, pool_connections=4, pool_maxsize=s.pool_size, pool_block=False
        )
        session.mount("https://", adapter)
        session.mount("http://", adapter)
        session.headers["User-Agent"] = s.user_agent or _user_agent_default()
        return session

    @property
    def offline(self) -> bool:
        return self.failures >= self.settings.max_failures

    def _fail(self, message: str, unreachable: bool = False, counts: bool = True) -> RegistryError:
        """Count a failure; a host that cannot be reached at all ends the registry's run.

        `counts=False`: an answer about one package (a 401/403/451 for its URL) is that
        package's failure, not the registry's. Counting it towards `max_failures` made the
        output depend on thread order: whether the breaker tripped, and for which names,
        followed how those answers interleaved with good ones."""
        note_fresh_until(0.0)  # an answer missing for a failure is not one to keep (runcache)
        with self._lock:
            self.total_failures += 1
            if counts:
                self.failures = self.settings.max_failures if unreachable else self.failures + 1
            self.last_error = message
        return RegistryError(message)

    def _succeed(self) -> None:
        """An answer resets the count: only failures in a row switch a registry off."""
        if self.failures and not self.offline:
            with self._lock:
                if not self.offline:
                    self.failures = 0

    # -- requests ------------------------------------------------------------------------
    def get(
        self,
        url: str,
        accept: str | None = None,
        expire_after: Any = None,
        headers: dict[str, str] | None = None,
    ) -> requests.Response | None:
        """The response for `url`, None when the registry says the package does not exist.

        Raises RegistryError for everything else (network, 5xx after retries, 401/403),
        and RegistryOffline without touching the network once the registry has failed
        `max_failures` times in this run.
        """
        if self.offline:
            raise RegistryOffline(f"{self.label}: offline after repeated failures")
        sent = {**(headers or {}), **({"Accept": accept} if accept else {})}
        kwargs: dict[str, Any] = {
            "headers": sent,
            "timeout": (self.settings.connect_timeout, self.settings.read_timeout),
        }
        if hasattr(self.session, "cache"):
            if self.settings.refresh:
                kwargs["force_refresh"] = True
            if expire_after is not None:
                kwargs["expire_after"] = expire_after
        import requests  # loaded by the session already

        try:
            response = self.session.get(url, **kwargs)
        except requests.RequestException as exc:
            raise self._fail(f"{self.label}: {_short(exc)} ({url})", _unreachable(exc)) from None
        except (sqlite3.Error, OSError):
            # The cache itself broke (locked, corrupt, disk full): carry on without it.
            self.session = self._make_session(cached=False)
            return self.get(url, accept, expire_after, headers)
        self._note_freshness(response)
        if response.status_code in NOT_FOUND:
            self._succeed()
            return None
        if response.status_code >= 400:
            self._forget(response)
            status = response.status_code
            raise self._fail(
                f"{self.label}: HTTP {status} for {url}",
                counts=not 400 <= status < 500 or status == 429,  # a refusal of one package
            )
        self._succeed()
        return response

    def _note_freshness(self, response: Any) -> None:
        """Until when this answer is the cache's answer (runcache keeps a run's output no
        longer): its cache expiry; for an answer the cache does not keep (no cache, a 404
        it does not store), the settings' expiry. A kept answer without one never expires."""
        expires = getattr(response, "expires", None)
        if isinstance(expires, datetime):
            if expires.tzinfo is None:  # requests-cache keeps UTC without a zone
                expires = expires.replace(tzinfo=timezone.utc)
            note_fresh_until(expires.timestamp())
        elif not getattr(response, "from_cache", False):
            note_fresh_until(time.time() + self.settings.expire_after.total_seconds())

    def get_json(self, url: str, accept: str | None = None) -> Any | None:
        """Parsed JSON for `url` (None: not found); malformed JSON is a RegistryError."""
        response = self.get(url, accept)
        if response is None:
            return None
        try:
            return json.loads(response.content)
        except ValueError:
            raise self.reject(response, f"malformed JSON from {url}") from None

    def reject(self, response: requests.Response, reason: str) -> RegistryError:
        """A response that turned out unusable: dropped from the cache, counted as a failure."""
        self._forget(response)
        return self._fail(f"{self.label}: {reason}")

    def get_range(self, url: str, first: int, last: int | None = None) -> bytes | None:
        """Bytes `first`..`last` of `url` (a negative `first`: the last -first bytes), by an
        HTTP range request, never cached (a partial answer must not stand for the file). A
        server that ignores the range sends the whole file, which is cut here."""
        wanted = f"bytes={first}" if first < 0 else f"bytes={first}-{'' if last is None else last}"
        cache = requests_cache_module() if hasattr(self.session, "cache") else None
        never = getattr(cache, "DO_NOT_CACHE", None) if cache is not None else None
        response = self.get(url, expire_after=never, headers={"Range": wanted})
        if response is None:
            return None
        body = response.content
        if response.status_code == 206:
            return body
        return body[first:] if first < 0 else body[first : None if last is None else last + 1]

    def get_bytes(self, url: str, expire_after: Any = None) -> bytes | None:
        response = self.get(url, expire_after=expire_after)
        return None if response is None else response.content

    def forget(self, url: str, accept: str | None = None) -> None:
        """Drop a cached answer (e.g. one that turned out inconsistent)."""
        cache = getattr(self.session, "cache", None)
        if cache is None:
            return
        import requests  # loaded by the session already

        try:
            req = requests.Request("GET", url, headers={"Accept": accept} if accept else {})
            cache.delete(requests=[self.session.prepare_request(req)])
        except Exception:
            pass

    def _forget(self, response: requests.Response) -> None:
        """Never keep a bad answer in the persistent cache."""
        cache = getattr(self.session, "cache", None)
        if cache is None:
            return
        try:
            key = getattr(response, "cache_key", None) or cache.create_key(response.request)
            cache.delete(key)
        except Exception:
            pass  # nothing cached under that key

    def close(self) -> None:
        if self._session is not None:
            self._session.close()


def _unreachable(exc: BaseException) -> bool:
    """DNS failure, refused connection or connect timeout (after urllib3's retries).

    Asking such a host again only repeats the wait, so it ends look-ups for the run at
    once; read timeouts and dropped responses stay ordinary (counted) failures.
    """
    import requests
    from urllib3.exceptions import ConnectTimeoutError, NewConnectionError

    if isinstance(exc, requests.ConnectTimeout):
        return True
    reason = getattr(exc.args[0], "reason", None) if exc.args else None
    return isinstance(reason, (NewConnectionError, ConnectTimeoutError))


def _short(exc: BaseException) -> str:
    """A one-line reason for a network failure (no URL soup, no traceback)."""
    import requests

    if isinstance(exc, requests.Timeout):
        return "timed out"
    if isinstance(exc, requests.exceptions.RetryError):
        return "too many retries"
    if isinstance(exc, requests.ConnectionError):
        text = str(exc)
        if "Name or service not known" in text or "getaddrinfo" in text or "resolve" in text:
            return "host name did not resolve"
        if "timed out" in text or "Timeout" in text:
            return "timed out"
        return "connection failed"
    return type(exc).__name__
