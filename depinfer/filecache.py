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

import io
import os
import pickle
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

try:  # hashlib.blake2b itself, without hashlib's load of OpenSSL (about 2 ms of a short run)
    from _blake2 import blake2b
except ImportError:  # a Python built without it
    from hashlib import blake2b

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
# Installed packages whose version changes what an analysis finds (found, not imported)
_PARSING_PACKAGES = (
    "tree_sitter",
    "tree_sitter_python",
    "tree_sitter_javascript",
    "tree_sitter_typescript",
    "tree_sitter_rust",
    "tree_sitter_c_sharp",
    "packaging",  # package literal: the requirement parser the manifest readers use
)


def _installed(name: str) -> str:
    """Where a package is installed and when its folder last changed ("" if absent)."""
    import importlib.util

    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return ""
    if spec is None or not spec.origin:
        return ""
    folder = os.path.dirname(spec.origin)
    try:
        return f"{folder}:{os.stat(folder).st_mtime_ns}"
    except OSError:
        return folder


def fingerprint() -> str:
    """depinfer's version and the size and modification time of its code and tables."""
    global _fingerprint
    if _fingerprint is None:
        from depinfer import __version__

        h = blake2b(f"{FORMAT}:{__version__}".encode(), digest_size=8)
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
        for name in _PARSING_PACKAGES:  # a new grammar or parser may read code differently
            h.update(f"{name}:{_installed(name)}\n".encode())
        _fingerprint = h.hexdigest()
    return _fingerprint


def content_key(analyzer: str, text: str | bytes, *context: Any) -> str:
    """The key of one answer: the analyzer, the content and what else the answer reads."""
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    h = blake2b(data, digest_size=20)
    h.update(repr((analyzer, context)).encode("utf-8", "surrogatepass"))
    return h.hexdigest()


def cache_folder() -> Path:
    """DEPINFER_CACHE_DIR, else the platform's user cache directory for depinfer (as
    registries.http.default_cache_dir, without loading the registries)."""
    env = os.environ.get("DEPINFER_CACHE_DIR")
    if env:
        return Path(env).expanduser()
    import platformdirs

    return Path(platformdirs.user_cache_dir("depinfer", appauthor=False))


class FileCache:
    """Answers per (analyzer, content, context) for one tree. `FileCache(None)` keeps
    nothing.

    The answers of one tree live in one pack file (one read on a warm run, one write when
    something changed: thousands of small files cost more system time than the parsing
    they save). Each answer is pickled on its own when it is stored, so a later stage that
    changes the objects it was handed never changes what is kept, and one damaged answer
    costs only itself. The pack written at the end holds the answers this run used or made:
    those of deleted or changed files drop out by themselves."""

    def __init__(self, directory: Path | None, tree: str | os.PathLike[str] = "") -> None:
        self.root = None if directory is None else Path(directory) / SUBDIR / fingerprint()
        self.tree = os.path.abspath(tree) if tree else ""
        self.hits = 0
        self.misses = 0
        self._stored: dict[tuple[str, str], bytes] | None = None
        self._keep: dict[tuple[str, str], bytes] = {}
        self._changed = False
        self.workers = 1  # processes for `answers` (the command line sets the CPU count)

    @classmethod
    def default(cls, enabled: bool = True, tree: str | os.PathLike[str] = "") -> FileCache:
        """The cache of `tree` in the documented cache folder, or a disabled one."""
        if not enabled or os.environ.get("DEPINFER_NO_CACHE"):
            return cls(None)
        cache = cls(cache_folder(), tree)
        cache.workers = min(os.cpu_count() or 1, MAX_WORKERS)
        return cache

    @property
    def enabled(self) -> bool:
        return self.root is not None

    @property
    def pack(self) -> Path:
        assert self.root is not None
        name = blake2b(self.tree.encode("utf-8", "surrogatepass"), digest_size=10)
        return self.root / f"{name.hexdigest()}.pickle"

    def _load(self) -> dict[tuple[str, str], bytes]:
        if self._stored is None:
            self._stored = {}
            try:
                with open(self.pack, "rb") as fh:
                    stored = _Unpickler(io.BytesIO(fh.read())).load()
                if (
                    isinstance(stored, tuple)
                    and len(stored) == 3
                    and stored[:2] == (FORMAT, self.tree)
                    and isinstance(stored[2], dict)
                ):
                    self._stored = stored[2]
                    _touch(self.root)  # in use: not pruned as another version's
            except Exception:  # noqa: BLE001 - a missing or damaged pack is an empty one
                pass
        return self._stored

    def get(self, analyzer: str, key: str) -> tuple[bool, Any]:
        """(True, answer) when a sound answer is stored, else (False, None)."""
        if self.root is None:
            return False, None
        data = self._keep.get((analyzer, key))  # made this run (a companion), or used
        if data is None:
            data = self._load().get((analyzer, key))
        if isinstance(data, bytes):
            try:
                value = _Unpickler(io.BytesIO(data)).load()
            except Exception:  # noqa: BLE001 - a damaged answer is a miss, never a failure
                value = _MISSING
            if value is not _MISSING:
                self.hits += 1
                self._keep[(analyzer, key)] = data
                return True, value
        self.misses += 1
        return False, None

    def put(self, analyzer: str, key: str, value: Any) -> None:
        """Keep an answer for `save` (an answer that cannot be pickled is not kept)."""
        if self.root is None:
            return
        try:
            data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
        except (pickle.PicklingError, TypeError, AttributeError, RecursionError):
            return
        self._keep[(analyzer, key)] = data
        self._changed = True

    def memo(self, analyzer: str, key: str, compute: Callable[[], T]) -> T:
        """The stored answer for `key`, else `compute()`'s, kept."""
        found, value = self.get(analyzer, key)
        if found:
            return value
        value = compute()
        self.put(analyzer, key, value)
        return value

    def answers(
        self,
        analyzer: str,
        jobs: list[tuple[str, tuple]],
        compute: Callable[..., Any],
        companions: bool = False,
    ) -> list[tuple[bool, Any]]:
        """`compute(*args)` for each (key, args) of `jobs`, in order, as (True, answer) or
        (False, the exception it raised): stored answers first, the others computed —
        across `workers` processes when there are at least PARALLEL_MIN of them — and
        kept. `compute` must be a module-level function (the workers import it).

        `companions`: `compute` returns (answer, [(analyzer, key, value), …]), the answers
        of a later stage that it found from the same parse; they are kept for that stage's
        own lookups, not returned."""
        out: list[tuple[bool, Any] | None] = []
        todo: list[int] = []
        for i, (key, _args) in enumerate(jobs):
            found, value = self.get(analyzer, key)
            out.append((True, value) if found else None)
            if not found:
                todo.append(i)
        done = _run_all(compute, [jobs[i][1] for i in todo], self.workers)
        for i, answer in zip(todo, done, strict=True):
            if answer[0] and companions:
                value, others = answer[1]
                answer = (True, value)
                for other, key, kept in others:
                    self.put(other, key, kept)
            out[i] = answer
            if answer[0]:
                self.put(analyzer, jobs[i][0], answer[1])
        return out  # type: ignore[return-value]

    def save(self) -> None:
        """Write the pack (atomically: beside it, then renamed) when it changed; errors
        leave the cache as it was."""
        if self.root is None or self._stored is None and not self._changed:
            return
        if not self._changed and len(self._keep) == len(self._stored or {}):
            return  # every stored answer was used, none added: nothing to write
        try:
            fresh = not self.root.exists()
            self.root.mkdir(parents=True, exist_ok=True)
            if fresh:
                prune(self.root.parent, keep=self.root.name)
            data = pickle.dumps((FORMAT, self.tree, self._keep), protocol=pickle.HIGHEST_PROTOCOL)
            write_atomically(self.pack, data)
        except OSError:
            pass
        self._stored, self._changed = dict(self._keep), False


def write_atomically(path: Path, data: bytes) -> None:
    """Write `data` to a new file beside `path` (private to this user), then rename it over
    `path`: readers see the old file or the new one, never half of one. (tempfile's
    mkstemp would do; importing it costs a short run more than the write.)"""
    for attempt in range(100):
        tmp = path.with_name(f".tmp-{os.getpid()}-{time.monotonic_ns()}-{attempt}")
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            continue
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
            os.replace(tmp, path)
        except BaseException:
            _unlink(str(tmp))
            raise
        return
    raise FileExistsError(f"no free temporary name beside {path}")


_MISSING = object()
MAX_WORKERS = 8
PARALLEL_MIN = 200  # answers to compute before more processes pay (measured: bench perf)


def _guarded(compute: Callable[..., Any], args: tuple) -> tuple[bool, Any]:
    try:
        return True, compute(*args)
    except Exception as exc:  # noqa: BLE001 - the caller reports it, naming the file
        return False, exc


def _guarded_chunk(compute: Callable[..., Any], chunk: list[tuple]) -> list[tuple[bool, Any]]:
    return [_guarded(compute, args) for args in chunk]


def _idle_workers(workers: int) -> int:
    """At most as many processes as the machine has idle cores (its load average says how
    many are busy): on a busy machine more processes only queue, and pay the transfer."""
    try:
        busy = os.getloadavg()[0]
    except (AttributeError, OSError):
        return workers
    return max(1, min(workers, round((os.cpu_count() or 1) - busy) + 1))


def _run_all(compute: Callable[..., Any], jobs: list[tuple], workers: int) -> list:
    """Each job's (ok, answer), in order: in this process, or in `workers` forked ones
    when there are enough jobs (fork only: the workers inherit the loaded modules)."""
    if len(jobs) < PARALLEL_MIN:
        return [_guarded(compute, args) for args in jobs]
    workers = _idle_workers(workers)
    if workers < 2:
        return [_guarded(compute, args) for args in jobs]
    import multiprocessing  # lazy: only trees with enough files to parse in parallel

    if "fork" not in multiprocessing.get_all_start_methods():
        return [_guarded(compute, args) for args in jobs]
    from concurrent.futures import ProcessPoolExecutor

    size = max(1, len(jobs) // (workers * 8))  # a few chunks per worker: even shares
    chunks = [jobs[i : i + size] for i in range(0, len(jobs), size)]
    try:
        context = multiprocessing.get_context("fork")
        with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
            parts = list(pool.map(_guarded_chunk, [compute] * len(chunks), chunks))
    except (OSError, RuntimeError, pickle.PicklingError):  # no processes here: serially
        return [_guarded(compute, args) for args in jobs]
    return [answer for part in parts for answer in part]


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
                import shutil

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
