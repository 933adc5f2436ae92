"""The one loader of the tables depinfer ships, all kept under depinfer/data/<language>/.

Each table is a public fact table (import name → distribution, namespace → NuGet id, API
lifecycles, derive → crate, tool → config files, …) rebuilt by a script in scripts/ that
names its sources; knowledge lives here rather than in branches of the stages' code.
Folders: python/, javascript/, rust/, csharp/, and common/ for tables every language reads.
Loading is cached, so any stage may call `load_table` freely; callers must not mutate
what they get back.

Decoding the larger tables (JSON, and TOML with the slow pure-Python parser) costs a
short run more than its analysis: once a command-line run names a cache folder
(`use_cache_folder`), each decoded table is also kept there in marshal form
(`tables/<digest>.marshal`, the digest of the table's path, size and modification time and
of the Python version), which loads several times faster, as Python keeps its bytecode.
An entry that cannot be read or written is ignored (the table is decoded as before).
"""

from __future__ import annotations

import json
import marshal
import os
import sys
from functools import cache
from pathlib import Path
from typing import Any

from depinfer import kept_marshal
from depinfer.filecache import blake2b

DATA_DIR = Path(__file__).resolve().parent
TABLES_SUBDIR = "tables"
_cache_dir: list[Path | None] = [None]  # where decoded tables are kept; None: nowhere


class DataError(Exception):
    """A shipped table is missing or unreadable (a packaging mistake, not user input)."""


def table_path(name: str) -> Path:
    """Where the shipped table `name` ("python/implicit.json") lives."""
    return DATA_DIR / name


def use_cache_folder(folder: Path | None) -> None:
    """Keep decoded tables under `folder`/tables (None: decode each table every run)."""
    _cache_dir[0] = None if folder is None else Path(folder) / TABLES_SUBDIR


@cache
def _load(path: Path) -> Any:
    try:
        kept = _kept_path(path)
        if kept is not None:
            found = _read_kept(kept)
            if found is not None:
                return found[0]
        data = _decode(path)
        if kept is not None:
            kept_marshal.write(kept, data)  # a TOML date: not kept
        return data
    except FileNotFoundError as exc:
        raise DataError(f"shipped data file missing: {path}") from exc
    except (OSError, ValueError) as exc:
        raise DataError(f"shipped data file unreadable: {path}: {exc}") from exc


def _decode(path: Path) -> Any:
    if path.suffix == ".toml":
        from depinfer.toml_compat import tomllib  # lazy: most runs read kept tables only

        with open(path, "rb") as fh:
            return tomllib.load(fh)
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)


def _kept_path(path: Path) -> Path | None:
    """Where the decoded form of the table at `path` is kept, None when nowhere; the name
    changes with the table's size and time and with the Python version (raises
    FileNotFoundError for a missing table, as decoding it would)."""
    folder = _cache_dir[0]
    if folder is None:
        return None
    st = os.stat(path)
    key = f"{path}:{st.st_size}:{st.st_mtime_ns}:{sys.version}:{marshal.version}"
    return folder / (
        blake2b(key.encode("utf-8", "surrogatepass"), digest_size=12).hexdigest() + ".marshal"
    )


def _read_kept(kept: Path) -> tuple[Any] | None:
    try:
        with open(kept, "rb") as fh:
            blob = fh.read()
        return (marshal.loads(blob),)  # marshal.load(fh) reads the file piece by piece
    except (OSError, EOFError, ValueError, TypeError):
        return None


def load_table(name: str, base: Path | None = None) -> Any:
    """The parsed table `name` (JSON or TOML by its suffix), from depinfer/data/ or `base`."""
    return _load((base if base is not None else DATA_DIR) / name)


def table_names(folder: str, pattern: str = "*") -> list[str]:
    """The shipped tables in `folder` whose file names match `pattern`, sorted."""
    return sorted(f"{folder}/{p.name}" for p in (DATA_DIR / folder).glob(pattern))


def load_table_or(name: str, default: Any, base: Path | None = None) -> Any:
    """Like `load_table`, but `default` when the table is missing or broken."""
    try:
        return load_table(name, base)
    except DataError:
        return default
