"""Dataclass methods from kept code (issue 27: start-up).

`dataclasses` writes each class's `__init__`, `__repr__`, `__eq__` … as source text and
hands the text to `exec`: every process that imports depinfer's modules parses and compiles
some two hundred such texts (Python 3.11: an eighth of the CPU of an offline `--check` of a
small tree, more than its analysis). Once a command-line run names a cache folder
(`use_cache_folder`), the code each text compiles to is kept there, as Python keeps its
bytecode: `tables/dataclass-<digest>.marshal`, one file per Python version (and
optimisation level), holding for each text its code object. A later process executes the
kept code instead of compiling the text again.

The kept code is what `exec` compiles from the same text in `dataclasses` (file name
"<string>", no `__future__` flag inherited: that module has none, and nothing of the caller
here is passed on), so the methods made are the same; a text not kept yet is compiled so
and kept at exit. Only `dataclasses`' own `exec` is redirected (its module-level name), and
only texts are looked up: anything else goes to the builtin unchanged. A file that cannot be
read or written is ignored (the texts are compiled as before).
"""

from __future__ import annotations

import atexit
import builtins
import marshal
import sys
from pathlib import Path
from typing import Any

from depinfer import kept_marshal

_code: dict[str, Any] = {}  # text → code object, as kept
_state: dict[str, Any] = {"file": None, "loaded": False, "new": {}}


def use_cache_folder(folder: Path | None) -> None:
    """Keep the code of dataclass methods under `folder`/tables (None: compile each text in
    every process, as `dataclasses` does)."""
    import dataclasses

    from depinfer.data import TABLES_SUBDIR  # beside the decoded tables

    _state["file"] = None if folder is None else Path(folder) / TABLES_SUBDIR / _file_name()
    _state["loaded"] = False
    _code.clear()
    if folder is None:
        vars(dataclasses).pop("exec", None)
    else:
        dataclasses.exec = _exec  # type: ignore[attr-defined]  # shadows the builtin there


def _file_name() -> str:
    from depinfer.filecache import blake2b  # lazy: only runs that keep code need it

    key = f"{sys.version}:{sys.flags.optimize}:{marshal.version}"
    return "dataclass-" + blake2b(key.encode(), digest_size=10).hexdigest() + ".marshal"


def _exec(source: Any, globals: Any = None, locals: Any = None, /) -> None:  # noqa: A002
    """`exec` as `dataclasses` calls it (text, globals, namespace), the text's code kept."""
    if not isinstance(source, str) or globals is None or _state["file"] is None:
        frame = sys._getframe(1)
        return builtins.exec(
            source,
            frame.f_globals if globals is None else globals,
            (frame.f_locals if globals is None else globals) if locals is None else locals,
        )
    if not _state["loaded"]:
        _load()
    code = _code.get(source)
    if code is None:
        code = compile(source, "<string>", "exec", dont_inherit=True)
        _code[source] = _state["new"][source] = code
        if len(_state["new"]) == 1:
            atexit.register(_keep)
    return builtins.exec(code, globals, globals if locals is None else locals)


def _load() -> None:
    _state["loaded"] = True
    kept = kept_marshal.read(_state["file"])
    if kept:
        _code.update(
            (text, code)
            for text, code in kept.items()
            if isinstance(text, str) and type(code) is type(_load.__code__)
        )


def _keep() -> None:
    """Add this process's new code to the file (read again: another process may have added
    its own), atomically."""
    path = _state["file"]
    if path is None or not _state["new"]:
        return
    new, _state["new"] = _state["new"], {}
    kept_marshal.add(path, new)
