"""A persistent store of *reduced* registry documents, next to the HTTP cache.

Why a second cache: the HTTP cache (requests-cache) keeps whole responses, and a warm run
would still decode megabytes of JSON (a popular npm packument carries every version's
manifest and the readme; a PyPI project lists thousands of wheel files). Each client
reduces a document to the few fields depinfer reads (versions with dates, runtime,
yank/deprecation, and the per-version fields mapping needs) and keeps that here, pickled,
with the same expiry as the HTTP cache. A warm run reads only these small records; a
missing or expired record falls through to the HTTP cache and then the network.

Keys carry a schema number, so a change in what clients keep never reads stale shapes.
"""

from __future__ import annotations

import gc
import pickle
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from depinfer.runcache import note_fresh_until

T = TypeVar("T")
SCHEMA = 3  # 3: PyPI documents keep absolute file URLs and each release's wheel


class FactStore:
    def __init__(self, path: Path | None, ttl: float, refresh: bool = False) -> None:
        self.ttl = ttl
        self.refresh = refresh
        self._lock = threading.Lock()
        self._db: sqlite3.Connection | None = None
        if path is not None:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                db = sqlite3.connect(str(path), check_same_thread=False, timeout=10)
                db.execute("PRAGMA journal_mode=WAL")
                db.execute("PRAGMA synchronous=NORMAL")  # no fsync per record (a cache)
                db.execute(
                    "CREATE TABLE IF NOT EXISTS facts "
                    "(key TEXT PRIMARY KEY, stored REAL NOT NULL, value BLOB NOT NULL)"
                )
                db.commit()
                self._db = db
            except (OSError, sqlite3.Error):
                self._db = None  # no persistent facts; the HTTP cache still works

    def get(self, key: str, compute: Callable[[], T], keep: Callable[[T], bool] | None = None) -> T:
        """The stored value for `key` if fresh, else `compute()` (stored when it returns,
        and `keep`, when given, says the value is an answer worth keeping)."""
        full = f"{SCHEMA}|{key}"
        if not self.refresh:
            found = self._read(full)
            if found is not None:
                return found[0]
        value = compute()
        if keep is None or keep(value):
            self._write(full, value)
        return value

    def has(self, key: str) -> bool:
        """A fresh value is kept for `key` (nothing is computed)."""
        return not self.refresh and self._read(f"{SCHEMA}|{key}") is not None

    def _read(self, key: str) -> tuple[Any] | None:
        if self._db is None:
            return None
        try:
            with self._lock:
                row = self._db.execute(
                    "SELECT stored, value FROM facts WHERE key = ?", (key,)
                ).fetchone()
        except sqlite3.Error:
            return None
        if row is None or time.time() - row[0] > self.ttl:
            return None
        note_fresh_until(row[0] + self.ttl)
        # Unpickling creates many small containers; pausing the cyclic GC meanwhile avoids
        # repeated full collections (it more than halves a warm run's time).
        enabled = gc.isenabled()
        gc.disable()
        try:
            return (pickle.loads(row[1]),)
        except Exception:
            return None  # unreadable record: recompute
        finally:
            if enabled:
                gc.enable()

    def _write(self, key: str, value: Any) -> None:
        if self._db is None:
            return
        try:
            blob = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
            with self._lock:
                self._db.execute(
                    "INSERT OR REPLACE INTO facts (key, stored, value) VALUES (?, ?, ?)",
                    (key, time.time(), blob),
                )
                self._db.commit()
            note_fresh_until(time.time() + self.ttl)
        except (sqlite3.Error, pickle.PicklingError, TypeError):
            pass

    def forget(self, key: str) -> None:
        if self._db is None:
            return
        try:
            with self._lock:
                self._db.execute("DELETE FROM facts WHERE key = ?", (f"{SCHEMA}|{key}",))
                self._db.commit()
        except sqlite3.Error:
            pass

    def close(self) -> None:
        if self._db is not None:
            with self._lock:
                self._db.close()
            self._db = None
