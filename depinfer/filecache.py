"""Persistent per-file analysis cache: what an analyzer found in one file, kept on disk.

A second run over an unchanged tree re-parses nothing (as ruff and mypy keep theirs). An
entry is keyed by the file's content hash, what else the answer depends on (its path, its
role, its package), the analyzer's name and a fingerprint of depinfer itself (its version
and the size and time of every module and shipped table, so an edited checkout never
reads answers of older code). Entries live under `<cache folder>/analysis/<fingerprint>/`
(the folder `depinfer cache info` names; `depinfer cache clean` empties it); folders of
other fingerprints unused for PRUNE_AFTER are removed when a new one is made.

Safe by construction: an entry that cannot be read, unpickled, or whose stored key is not
the one asked for is ignored (and recomputed); only depinfer's own classes and plain
containers are unpickled; entries are written to a temporary file and renamed into place,
so concurrent runs never see half an entry. A cache folder that cannot be written makes
the cache a no-op, never an error.
"""

from __future__ import annotations

import hashlib
import io
import os
import pickle
import shutil
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")

FORMAT = 1  # bump when the entry layout changes
SUBDIR = "analysis"
PRUNE_AFTER = 7 * 24 * 3600  # seconds: other fingerprints' folders unused this long go
_PACKAGE = Path(__file__).resolve().parent
# Plain containers pickle through these; everything else must be one of depinfer's classes.
_SAFE_GLOBALS = {
    ("builtins", "set"),
    ("builtins", "frozenset"),
    ("builtins", "tuple"),
    ("builtins", "list"),
    ("builtins", "dict"),
    ("builtins", "getattr"),
    ("copyreg", "_reconstructor"),
    ("builtins", "object"),
}


class _Unpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        if (
            module == "depinfer"
            or module.startswith("depinfer.")
            or (module, name) in _SAFE_GLOBALS
        ):
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f"refused global {module}.{name}")


_fingerprint: str | None = None


def fingerprint() -> str:
    """depinfer's version and the size and modification time of its code and tables."""
    global _fingerprint
    if _fingerprint is None:
        from depinfer import __version__

        h = hashlib.blake2b(f"{FORMAT}:{__version__}".encode(), digest_size=8)
        for folder, _dirs, files in sorted(os.walk(_PACKAGE)):
            if "__pycache__" in folder:
                continue
            for name in sorted(files):
                if name.endswith((".pyc", ".pyo")):
                    continue
                try:
                    st = os.stat(os.path.join(folder, name))
                except OSError:
                    continue
                h.update(f"{folder}/{name}:{st.st_size}:{st.st_mtime_ns}\n".encode())
        _fingerprint = h.hexdigest()
    return _fingerprint


def content_key(analyzer: str, text: str | bytes, *context: Any) -> str:
    """The key of one answer: the analyzer, the content and what else the answer reads."""
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    h = hashlib.blake2b(data, digest_size=20)
    h.update(repr((analyzer, context)).encode("utf-8", "surrogatepass"))
    return h.hexdigest()


class FileCache:
    """Answers per (analyzer, content, context). `FileCache(None)` keeps nothing."""

    def __init__(self, directory: Path | None) -> None:
        self.root = None if directory is None else Path(directory) / SUBDIR / fingerprint()
        self.hits = 0
        self.misses = 0
        self._made: set[Path] = set()
        self._ready = False

    @classmethod
    def default(cls, enabled: bool = True) -> FileCache:
        """The cache in the documented cache folder, or a disabled one."""
        if not enabled or os.environ.get("DEPINFER_NO_CACHE"):
            return cls(None)
        env = os.environ.get("DEPINFER_CACHE_DIR")
        if env:
            return cls(Path(env).expanduser())
        import platformdirs

        return cls(Path(platformdirs.user_cache_dir("depinfer", appauthor=False)))

    @property
    def enabled(self) -> bool:
        return self.root is not None

    def _path(self, analyzer: str, key: str) -> Path:
        assert self.root is not None
        return self.root / analyzer / key[:2] / f"{key[2:]}.pickle"

    def get(self, analyzer: str, key: str) -> tuple[bool, Any]:
        """(True, answer) when a sound entry is stored, else (False, None)."""
        if self.root is None:
            return False, None
        try:
            with open(self._path(analyzer, key), "rb") as fh:
                stored = _Unpickler(io.BytesIO(fh.read())).load()
        except FileNotFoundError:
            self.misses += 1
            return False, None
        except Exception:  # noqa: BLE001 - a damaged entry is a miss, never a failure
            self.misses += 1
            return False, None
        if not (isinstance(stored, tuple) and len(stored) == 3 and stored[:2] == (FORMAT, key)):
            self.misses += 1
            return False, None
        self.hits += 1
        return True, stored[2]

    def put(self, analyzer: str, key: str, value: Any) -> None:
        """Store an answer atomically (write beside, then rename); errors are ignored."""
        if self.root is None:
            return
        target = self._path(analyzer, key)
        try:
            data = pickle.dumps((FORMAT, key, value), protocol=pickle.HIGHEST_PROTOCOL)
            self._prepare(target.parent)
            fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=target.parent)
            try:
                with os.fdopen(fd, "wb") as fh:
                    fh.write(data)
                os.replace(tmp, target)
            except BaseException:
                _unlink(tmp)
                raise
        except (OSError, pickle.PicklingError, TypeError, AttributeError, RecursionError):
            pass

    def memo(self, analyzer: str, key: str, compute: Callable[[], T]) -> T:
        """The stored answer for `key`, else `compute()`'s, stored."""
        found, value = self.get(analyzer, key)
        if found:
            return value
        value = compute()
        self.put(analyzer, key, value)
        return value

    def _prepare(self, folder: Path) -> None:
        if folder in self._made:
            return
        if not self._ready and self.root is not None:
            self._ready = True
            fresh = not self.root.exists()
            self.root.mkdir(parents=True, exist_ok=True)
            if fresh:
                prune(self.root.parent, keep=self.root.name)
            else:
                _touch(self.root)
        folder.mkdir(parents=True, exist_ok=True)
        self._made.add(folder)


def prune(parent: Path, keep: str, older_than: float = PRUNE_AFTER) -> None:
    """Remove other fingerprints' folders not used for `older_than` seconds."""
    now = time.time()
    try:
        entries = list(os.scandir(parent))
    except OSError:
        return
    for entry in entries:
        try:
            if entry.name != keep and entry.is_dir() and now - entry.stat().st_mtime > older_than:
                shutil.rmtree(entry.path, ignore_errors=True)
        except OSError:
            continue


def _touch(path: Path) -> None:
    try:
        os.utime(path)
    except OSError:
        pass


def _unlink(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass
