"""The whole answer of a run over an unchanged tree, kept beside the analysis cache.

`depinfer --check` (offline) and `depinfer --offline --names-only` read nothing but the
tree, depinfer's own code and tables and a few environment variables, so the same inputs
give the same output. A printing online run reads more: registry answers (kept in the HTTP
and facts caches, each fresh for a while), the user's registry settings (pip, uv, npm,
cargo and NuGet configuration files) and tools on PATH. Its answer is kept with what it
read besides the tree — each such file's stamp, and the moment the first registry answer
it used goes stale — and a later run uses it only while every stamp is unchanged and that
moment has not come (as the registry caches themselves would answer; `--refresh` asks
again). This cache keeps the last output (stdout, stderr, exit code) per
tree and command line, keyed by a digest of every file and folder below the tree (path,
size, modification and change times; the change time cannot be set back by a tool), of
depinfer's fingerprint, the Python version, the command line and the environment that
shapes the output. A hit prints the kept output without loading the stages; anything else
runs normally. Walked like scan walks: version-control folders, virtual environments and
folder symlinks are not entered; a tree of more than MAX_ENTRIES entries is not cached
(walking it would cost what the cache saves). An answer is never kept while a file's
times are within RACY_SECONDS of now (a change in the same clock tick would go unseen).
"""

from __future__ import annotations

import io
import os
import pickle
import sys
import time
from pathlib import Path
from typing import Any, TextIO

from depinfer.filecache import FORMAT, SUBDIR, blake2b, fingerprint, write_atomically

RESULTS = "results"
MAX_ENTRIES = 50_000
RACY_SECONDS = 2.0
# Folders scan never enters, whatever the settings say (selection.VCS_DIRS; kept here so a
# hit loads nothing of scan: tests check they agree)
UNREAD_DIRS = frozenset({".git", ".hg", ".svn"})
# Environment variables the output may depend on (colour, settings, locations)
_ENV_PREFIXES = ("DEPINFER_",)
_ENV_NAMES = ("NO_COLOR", "TERM", "PYTHONHASHSEED", "PYTHONIOENCODING", "LANG", "LC_ALL")
# ... and, online, the registry settings and tools: the package managers' variables (upper
# case or npm's lower case), where config and tools are found
_ONLINE_PREFIXES = ("UV_", "PIP_", "NPM_CONFIG_", "CARGO", "NUGET", "XDG_", "APPDATA")
_ONLINE_NAMES = ("PATH", "HOME", "VIRTUAL_ENV", "CONDA_PREFIX", "RUSTUP_HOME", "DOTNET_ROOT")

# What this process's run read besides the tree (online runs; see note_inputs)
_inputs: set[str] = set()
_stale_at: list[float] = []  # the earliest moment noted, alone (a long process notes many)


def note_inputs(paths: Any) -> None:
    """Files outside the tree whose content (or absence) the answer depends on: the
    registry settings consulted, tools found (None: a tool not found, nothing to note)."""
    _inputs.update(str(p) for p in paths if p)


def note_fresh_until(moment: float | None) -> None:
    """A registry answer the run used stays current until `moment` (None: forever, as a
    published file's bytes)."""
    if moment is not None and (not _stale_at or moment < _stale_at[0]):
        _stale_at[:] = [moment]


def forget_inputs() -> None:
    _inputs.clear()
    _stale_at.clear()


def _stamp(path: str) -> str:
    try:
        st = os.stat(path)
    except OSError:
        return "-"
    return f"{st.st_size}:{st.st_mtime_ns}:{st.st_ino}"


def _git_files(tree: str) -> list[str]:
    """The files naming the tree's HEAD commit (an online answer may be dated by it): HEAD,
    the branch it names and packed-refs; for a worktree (`.git` a file naming its git
    folder), those of that folder and of the repository it belongs to."""
    git = os.path.join(tree, ".git")
    folders = [git]
    try:
        with open(git, encoding="utf-8") as fh:  # a worktree or submodule: `gitdir: PATH`
            line = fh.read(4096).strip()
        if line.startswith("gitdir:"):
            git = os.path.normpath(os.path.join(tree, line[7:].strip()))
            folders = [git]
            with open(os.path.join(git, "commondir"), encoding="utf-8") as fh:
                folders.append(os.path.normpath(os.path.join(git, fh.read(4096).strip())))
    except OSError:
        pass
    files = [os.path.join(git, "HEAD"), *(os.path.join(f, "packed-refs") for f in folders)]
    try:
        with open(files[0], encoding="utf-8") as fh:
            head = fh.read(4096).strip()
    except OSError:
        return files
    if head.startswith("ref: "):
        ref = head[5:].strip().split("/")
        files += [os.path.join(f, *ref) for f in folders]
    return files


def tree_state(root: str) -> tuple[str, float] | None:
    """Digest of every entry below `root` and the newest time seen; None when the tree is
    too large to be worth it or cannot be walked."""
    h = blake2b(digest_size=20)
    newest = 0.0
    count = 0
    stack = [root]
    while stack:
        folder = stack.pop()
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError:
            return None
        if any(e.name == "pyvenv.cfg" for e in entries) and folder != root:
            h.update(f"venv:{folder}\n".encode("utf-8", "surrogatepass"))
            continue  # scan skips virtual environments
        for entry in entries:
            count += 1
            if count > MAX_ENTRIES:
                return None
            try:
                if entry.is_dir(follow_symlinks=False):
                    if entry.name not in UNREAD_DIRS:
                        stack.append(entry.path)
                    h.update(f"d:{entry.path}\n".encode("utf-8", "surrogatepass"))
                    continue
                st = entry.stat()  # through a file symlink: its target's content counts
            except OSError:
                h.update(f"?:{entry.path}\n".encode("utf-8", "surrogatepass"))
                continue
            newest = max(newest, st.st_mtime, st.st_ctime)
            line = f"f:{entry.path}:{st.st_size}:{st.st_mtime_ns}:{st.st_ctime_ns}:{st.st_ino}\n"
            h.update(line.encode("utf-8", "surrogatepass"))
    return h.hexdigest(), newest


def _environment(online: bool = False) -> list[tuple[str, str]]:
    def shapes(name: str) -> bool:
        if name.startswith(_ENV_PREFIXES) or name in _ENV_NAMES:
            return True
        return online and (name.upper().startswith(_ONLINE_PREFIXES) or name in _ONLINE_NAMES)

    return sorted((k, v) for k, v in os.environ.items() if shapes(k))


class RunCache:
    """The kept output of one command line over one tree."""

    def __init__(self, directory: Path, tree: str, argv: list[str], online: bool = False) -> None:
        self.tree = os.path.abspath(tree)
        self.online = online
        ttys = tuple(_isatty(s) for s in (sys.stdout, sys.stderr))
        ident = repr((FORMAT, self.tree, argv, sys.version, ttys, _environment(online), online))
        name = blake2b(ident.encode("utf-8", "surrogatepass"), digest_size=16)
        self.path = directory / SUBDIR / fingerprint() / RESULTS / f"{name.hexdigest()}.pickle"
        self.ident = ident
        self.state: tuple[str, float] | None = None

    def lookup(self) -> tuple[str, str, int] | None:
        """The kept (stdout, stderr, exit code) when the tree is as it was, else None."""
        self.state = tree_state(self.tree)
        if self.state is None:
            return None
        try:
            kept = pickle.loads(self.path.read_bytes())
        except Exception:  # noqa: BLE001 - missing or damaged: run normally
            return None
        if (
            isinstance(kept, tuple)
            and len(kept) == 7
            and kept[:2] == (self.ident, self.state[0])
            and isinstance(kept[2], str)
            and isinstance(kept[3], str)
            and isinstance(kept[4], int)
            and self._still_holds(kept[5], kept[6])
        ):
            return kept[2], kept[3], kept[4]
        return None

    def _still_holds(self, stamps: Any, stale_at: Any) -> bool:
        """What an online answer read besides the tree is as it was, and still current."""
        if not isinstance(stamps, tuple) or not isinstance(stale_at, (float, type(None))):
            return False
        if stale_at is not None and time.time() >= stale_at:
            return False
        return all(
            isinstance(item, tuple) and len(item) == 2 and _stamp(item[0]) == item[1]
            for item in stamps
        )

    def begin(self) -> None:
        """The run starts: what it reads besides the tree is noted from here on."""
        forget_inputs()
        if self.online:
            note_inputs(_git_files(self.tree))

    def keep(self, out: str, err: str, code: int) -> None:
        """Keep this run's output, unless the tree changed while it ran or is too fresh."""
        before = self.state
        if before is None or time.time() - before[1] < RACY_SECONDS:
            return
        if tree_state(self.tree) != before:
            return
        stamps: tuple[tuple[str, str], ...] = ()
        stale_at: float | None = None
        if self.online:
            stamps = tuple((p, _stamp(p)) for p in sorted(_inputs))
            stale_at = min(_stale_at, default=None)
            if stale_at is None or stale_at - time.time() < RACY_SECONDS:
                return  # no registry answer was noted (none asked, or not cached): run again
        data = pickle.dumps((self.ident, before[0], out, err, code, stamps, stale_at))
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            write_atomically(self.path, data)
        except OSError:
            pass


def _isatty(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


class Tee(io.TextIOBase):
    """Writes through to `stream` and keeps a copy; answers isatty() as `stream` does, so
    what is printed (colours) is what a later hit prints again."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.copy = io.StringIO()

    def write(self, text: str) -> int:
        self.copy.write(text)
        return self.stream.write(text)

    def flush(self) -> None:
        self.stream.flush()

    def isatty(self) -> bool:
        return _isatty(self.stream)

    def fileno(self) -> int:
        return self.stream.fileno()

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return getattr(self.stream, "encoding", "utf-8")
