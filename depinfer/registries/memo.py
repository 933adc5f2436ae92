"""Per-run memory of parsed registry documents, shared safely by worker threads.

The HTTP cache spares the network; this spares re-parsing (a large packument is megabytes
of JSON) and makes concurrent look-ups of one name — `exists` and `versions` from two
stages at once — wait for one fetch instead of starting two.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import datetime, timezone
from typing import Any, Generic, TypeVar

T = TypeVar("T")
_MISSING = object()


class Memo(Generic[T]):
    def __init__(self) -> None:
        self._values: dict[Any, T] = {}
        self._locks: dict[Any, threading.Lock] = {}
        self._guard = threading.Lock()

    def peek(self, key: Any) -> T | None:
        return self._values.get(key)

    def has(self, key: Any) -> bool:
        return key in self._values

    def get(self, key: Any, compute: Callable[[], T]) -> T:
        """The value for `key`, computing it once; exceptions are not remembered."""
        value = self._values.get(key, _MISSING)
        if value is not _MISSING:
            return value  # type: ignore[return-value]
        with self._guard:
            lock = self._locks.setdefault(key, threading.Lock())
        with lock:
            value = self._values.get(key, _MISSING)
            if value is not _MISSING:
                return value  # type: ignore[return-value]
            result = compute()
            self._values[key] = result
            return result


def parse_time(value: Any) -> datetime | None:
    """An ISO 8601 timestamp from a registry as an aware datetime (None when absent/bad)."""
    if not isinstance(value, str) or not value:
        return None
    text = value.strip()
    if text.endswith("Z"):
        text = text[:-1] + "+00:00"
    try:
        parsed = datetime.fromisoformat(text)
    except ValueError:
        # Python 3.10 fromisoformat rejects some fractional-second widths; trim them.
        head, dot, rest = text.partition(".")
        if not dot:
            return None
        digits = "".join(ch for ch in rest if ch.isdigit())
        tz = rest[len(digits) :]
        try:
            parsed = datetime.fromisoformat(f"{head}.{digits[:6].ljust(6, '0')}{tz}")
        except ValueError:
            return None
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=timezone.utc)
    return parsed
