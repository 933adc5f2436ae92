"""Regular expressions compiled on first use (issue 27: start-up).

A module-level `re.compile` costs its compile in every process that imports the module,
though most runs use few of a module's patterns. `lazy(pattern, flags)` stands for
`re.compile(pattern, flags)`: the compile happens at the first method call, after which the
compiled pattern's methods are this object's own attributes (no per-call indirection).

Compiling is mostly Python code (the `re` parser), so a short run spends more on compiling
the patterns it uses than on matching with them. Once a command-line run names a cache
folder (`use_cache_folder`), `compile_kept` keeps each compiled program there, as Python keeps
its bytecode: `tables/regex-<digest>.marshal`, one file per Python version and `re`
engine, holding for each (pattern, flags) the program `re` built. A later process hands
the kept program to the engine without parsing the pattern again. A program is kept only
when the engine, given it, made a pattern equal to `re.compile`'s (same flags and code);
anything that cannot be read, built or written falls back to `re.compile`. Only patterns
written in depinfer's code and tables go through it, not patterns made from a tree's files,
and those that a module's or class's body compiles (a library's, at import: PyYAML's reader
and resolver compile theirs, 8–10 ms of every run that reads a workflow; packaging's
tokenizer and specifiers, 5 ms).
"""

from __future__ import annotations

import atexit
import contextlib
import marshal
import re
import sys
from pathlib import Path
from typing import Any

from depinfer import kept_marshal

_compile = re.compile  # the original, whatever `use_cache_folder` puts in its place
_programs: dict[tuple[str, int], tuple] = {}  # (pattern, flags) → program, as kept
_state: dict[str, Any] = {"file": None, "loaded": False, "new": {}}


def use_cache_folder(folder: Path | None) -> None:
    """Keep compiled programs under `folder`/tables (None: compile in every process)."""
    from depinfer.data import TABLES_SUBDIR  # lazy: beside the decoded tables

    _state["file"] = None if folder is None else Path(folder) / TABLES_SUBDIR / _file_name()
    _state["loaded"] = False
    _programs.clear()
    re.compile = _compile if folder is None else _static_compile  # type: ignore[assignment]


def _file_name() -> str:
    from depinfer.filecache import blake2b  # lazy: only runs that keep programs need it

    engine = getattr(re._compiler, "MAGIC", "") if hasattr(re, "_compiler") else ""
    key = f"{sys.version}:{engine}:{marshal.version}"
    return "regex-" + blake2b(key.encode(), digest_size=10).hexdigest() + ".marshal"


def compile_kept(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """`re.compile(pattern, flags)`, from the kept program when there is one."""
    if _state["file"] is None:
        return _compile(pattern, flags)
    if not _state["loaded"]:
        _load()
    key = (pattern, int(flags))  # re.M is an int to marshal only as a plain int
    program = _programs.get(key)
    if program is not None:
        with contextlib.suppress(Exception):  # a damaged entry: compile as usual
            return _build(pattern, program)
    compiled = _compile(pattern, flags)
    program = _program(pattern, flags)
    if program is not None and _rebuilds(pattern, program, compiled):
        _programs[key] = _state["new"][key] = program
        if len(_state["new"]) == 1:
            atexit.register(_keep)
    return compiled


def _static_compile(pattern: Any, flags: int = 0) -> re.Pattern:
    """`re.compile` while a cache folder is named: a call from a module's or a class's body
    (a library's import-time pattern, text fixed in its code) goes through `compile_kept`;
    a call from a function, where a pattern may be made from a tree's files, compiles as
    `re.compile` always did."""
    caller = sys._getframe(1).f_code.co_flags  # noqa: SLF001 - one frame up, read only
    if isinstance(pattern, str) and not caller & _NEW_LOCALS and _state["file"] is not None:
        return compile_kept(pattern, flags)
    return _compile(pattern, flags)


_NEW_LOCALS = 0x2  # inspect.CO_NEWLOCALS: set on functions' code, not on modules' or classes'


def _rebuilds(pattern: str, program: tuple, compiled: re.Pattern[str]) -> bool:
    """The engine, given `program`, makes `compiled` again (an engine whose entry point
    takes other arguments, in another Python, raises: nothing is kept)."""
    try:
        return _build(pattern, program) == compiled
    except Exception:  # noqa: BLE001 - another Python's internals
        return False


def _build(pattern: str, program: tuple) -> re.Pattern[str]:
    import _sre

    flags, code, groups, groupindex, indexgroup = program
    return _sre.compile(pattern, flags, code, groups, groupindex, indexgroup)


def _program(pattern: str, flags: int) -> tuple | None:
    """What re.compile hands the engine for `pattern` (as re/_compiler.py's compile does);
    None where this Python's `re` is built otherwise."""
    try:
        parsed = re._parser.parse(pattern, flags)  # type: ignore[attr-defined]
        code = re._compiler._code(parsed, flags)  # type: ignore[attr-defined]
        state = parsed.state
        groupindex = dict(state.groupdict)
        indexgroup = [None] * state.groups
        for name, index in groupindex.items():
            indexgroup[index] = name
        codes = [int(c) for c in code]  # the named constants are ints to the engine
        return (int(flags | state.flags), codes, state.groups - 1, groupindex, tuple(indexgroup))
    except Exception:  # noqa: BLE001 - another Python's internals: no program kept
        return None


def _load() -> None:
    _state["loaded"] = True
    kept = kept_marshal.read(_state["file"])
    if kept:
        _programs.update(kept)


def _keep() -> None:
    """Add this process's new programs to the file (read again: another process may have
    added its own), atomically."""
    path = _state["file"]
    if path is None or not _state["new"]:
        return
    new, _state["new"] = _state["new"], {}
    kept_marshal.add(path, new)


# what a compiled pattern offers besides `pattern` and `flags` (kept without compiling)
_MEMBERS = (
    "match",
    "search",
    "fullmatch",
    "finditer",
    "findall",
    "sub",
    "subn",
    "split",
    "groups",
    "groupindex",
    "scanner",
)


class LazyPattern:
    """`re.compile(pattern, flags)`, compiled when first used."""

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self.pattern = pattern
        self.flags = flags

    def compiled(self) -> re.Pattern[str]:
        """The compiled pattern (for APIs that want a real `re.Pattern`)."""
        return compile_kept(self.pattern, self.flags)

    def __getattr__(self, name: str) -> Any:
        if name not in _MEMBERS:
            raise AttributeError(name)
        compiled = self.compiled()
        for member in _MEMBERS:
            setattr(self, member, getattr(compiled, member))
        return getattr(compiled, name)

    def __repr__(self) -> str:
        return f"lazy({self.pattern!r}, {self.flags!r})"


def lazy(pattern: str, flags: int = 0) -> Any:
    """A pattern compiled on its first use; typed `Any` so callers keep `re.Pattern`'s API."""
    return LazyPattern(pattern, flags)
