"""The persistent cache on disk: where it is, how big it may grow, what it holds, emptying it.

Location: `DEPINFER_CACHE_DIR` when set, else the platform's user cache directory for
depinfer (platformdirs: ~/.cache/depinfer on Linux, ~/Library/Caches/depinfer on macOS,
%LOCALAPPDATA%\\depinfer\\Cache on Windows). It holds the HTTP cache (requests-cache over
SQLite), the reduced registry records (facts.sqlite), the tooling probes, the LLM answers
and downloaded tools.

Size cap: `DEPINFER_CACHE_MAX_MB` (default 1024, a GB; 0 means no cap). When a run opens the cache
and finds it over the cap, it first drops expired responses (requests-cache's own
`delete(expired=True)`), then the oldest responses and records until the cache is back
under 80% of the cap, so the trim does not run again on the next look-up.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DEFAULT_MAX_MB = 1024  # one benchmark of the four dev sets fills ~600 MB
LOW_WATER = 0.8  # a trim goes down to this fraction of the cap
HTTP_DB = "http_cache.sqlite"
FACTS_DB = "facts.sqlite"
# Everything depinfer keeps in its cache directory; `clean` removes these and nothing else
# (DEPINFER_CACHE_DIR may point at a directory that also holds other things).
OWN_FILES = (HTTP_DB, FACTS_DB, "tooling.json", "llm-answers.json")
# analysis: the per-file analysis cache (filecache.py); tables: decoded tables (data/)
OWN_DIRS = ("tools", "analysis", "tables")  # package literal: folder names, not packages
RESPONSES = "responses"  # package literal: the table requests-cache keeps responses in
SQLITE_SIDE = ("", "-wal", "-shm", "-journal")


def max_bytes() -> int | None:
    """The cap in bytes from DEPINFER_CACHE_MAX_MB (default 1 GB); None: no cap."""
    raw = os.environ.get("DEPINFER_CACHE_MAX_MB", "").strip()
    try:
        mb = float(raw) if raw else DEFAULT_MAX_MB
    except ValueError:
        mb = DEFAULT_MAX_MB
    return None if mb <= 0 else int(mb * 1024 * 1024)


def _own_paths(directory: Path) -> list[Path]:
    paths = [directory / (name + side) for name in OWN_FILES for side in SQLITE_SIDE]
    paths += [directory / name for name in OWN_DIRS]
    return [p for p in paths if p.exists()]


def _size(path: Path) -> int:
    if path.is_dir():
        return sum(f.stat().st_size for f in path.rglob("*") if f.is_file())
    try:
        return path.stat().st_size
    except OSError:
        return 0


def disk_size(directory: Path) -> int:
    """Bytes used by depinfer's own files in `directory`."""
    return sum(_size(p) for p in _own_paths(directory))


def answers_size(directory: Path) -> int:
    """Bytes of the registry answers in `directory` (responses, records, probes, LLM
    answers), what the cap trims. The analysis packs, decoded tables and the verify loop's
    toolchains are not counted: the cap cannot trim them, and counting them (1.4 GB of
    Node toolchains after a few verify runs) put the folder over the cap on every run,
    so every run dropped all the registry answers and no run was ever warm."""
    return sum(_size(directory / (name + side)) for name in OWN_FILES for side in SQLITE_SIDE)


def _count(db: Path, table: str) -> int:
    if not db.exists():
        return 0
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5) as con:
            return int(con.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0])
    except sqlite3.Error:
        return 0


@dataclass
class CacheInfo:
    location: Path
    size: int  # bytes
    responses: int  # HTTP responses kept by requests-cache
    records: int  # reduced registry records (facts.sqlite)
    limit: int | None  # the cap in bytes; None: no cap

    @property
    def entries(self) -> int:
        return self.responses + self.records


def info(directory: Path) -> CacheInfo:
    return CacheInfo(
        location=directory,
        size=disk_size(directory),
        responses=_count(directory / HTTP_DB, RESPONSES),
        records=_count(directory / FACTS_DB, "facts"),
        limit=max_bytes(),
    )


def clean(directory: Path) -> int:
    """Remove depinfer's files from `directory`; the bytes freed."""
    freed = 0
    for path in _own_paths(directory):
        size = _size(path)
        try:
            if path.is_dir():
                shutil.rmtree(path)
            else:
                path.unlink()
        except OSError:
            continue
        freed += size
    return freed


def human(size: float) -> str:
    """1536 -> '1.5 KB', 12 -> '12 B'."""
    for unit in ("B", "KB", "MB", "GB"):
        if size < 1024 or unit == "GB":
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024
    return f"{size:.1f} GB"  # pragma: no cover


def enforce_cap(directory: Path, backend: Any, limit: int | None) -> int:
    """Trim the registry answers when they are over `limit` bytes (`answers_size`); the
    bytes freed (0: nothing to do).

    Expired responses go first (requests-cache's own clean-up), then the oldest responses
    (earliest expiry: every response is stored with the same lifetime) and the oldest
    reduced records, until the cache is under LOW_WATER of the cap. Errors (another run
    holding the database) leave the cache as it is: a cap is housekeeping, not a failure.
    """
    before = answers_size(directory)
    if limit is None or before <= limit:
        return 0
    for name in (HTTP_DB, FACTS_DB):  # a write-ahead log is not cached data: fold it first
        checkpoint(directory / name)
    if answers_size(directory) <= limit:
        return max(0, before - answers_size(directory))
    try:
        backend.delete(expired=True)
        target = int(limit * LOW_WATER)
        excess = answers_size(directory) - target
        if excess > 0:
            excess -= _trim_records(directory / FACTS_DB, excess // 2)
            keys = _oldest(backend, excess)
            if keys:
                backend.delete(*keys, vacuum=True)
    except Exception:  # noqa: BLE001 - housekeeping must never fail a run
        pass
    for name in (HTTP_DB, FACTS_DB):  # the trim's own writes went to the log
        checkpoint(directory / name)
    return max(0, before - answers_size(directory))


def checkpoint(db: Path) -> None:
    """Fold SQLite's write-ahead log into the database and truncate it. Parallel runs (a
    benchmark's jobs) keep readers open, so SQLite's automatic checkpoints never reset the
    log: it grew to 1.7 GB beside an 11 MB database, put the cache over its cap on every
    run, and the trim then dropped the cached responses themselves. Best effort: a run
    holding the database leaves the log as it is."""
    if not db.exists():
        return
    try:
        with sqlite3.connect(str(db), timeout=5) as con:
            con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    except sqlite3.Error:
        pass


def _oldest(backend: Any, excess: int) -> list[str]:
    """Keys of the oldest responses whose bodies add up to at least `excess` bytes."""
    keys: list[str] = []
    freed = 0
    responses = backend.responses
    with responses.connection() as con:
        rows = con.execute(
            f"SELECT key, LENGTH(value) FROM {responses.table_name} ORDER BY expires ASC"
        )
        for key, length in rows:
            if freed >= excess:
                break
            keys.append(key)
            freed += length or 0
    return keys


def _trim_records(db: Path, excess: int) -> int:
    """Drop the oldest reduced records worth about `excess` bytes; the bytes dropped."""
    if excess <= 0 or not db.exists():
        return 0
    dropped = 0
    with sqlite3.connect(str(db), timeout=10) as con:
        cut = None
        for stored, length in con.execute(
            "SELECT stored, LENGTH(value) FROM facts ORDER BY stored ASC"
        ):
            dropped += length or 0
            cut = stored
            if dropped >= excess:
                break
        if cut is not None:
            con.execute("DELETE FROM facts WHERE stored <= ?", (cut,))
    with sqlite3.connect(str(db), timeout=10) as con:
        con.execute("VACUUM")
    return dropped
