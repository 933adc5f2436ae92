"""The one loader of the tables depinfer ships, all kept under depinfer/data/<language>/.

Each table is a public fact table (import name → distribution, namespace → NuGet id, API
lifecycles, derive → crate, tool → config files, …) rebuilt by a script in scripts/ that
names its sources; knowledge lives here rather than in branches of the stages' code.
Folders: python/, javascript/, rust/, csharp/, and common/ for tables every language reads.
Loading is cached, so any stage may call `load_table` freely; callers must not mutate
what they get back.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from depinfer.toml_compat import tomllib

DATA_DIR = Path(__file__).resolve().parent


class DataError(Exception):
    """A shipped table is missing or unreadable (a packaging mistake, not user input)."""


def table_path(name: str) -> Path:
    """Where the shipped table `name` ("python/implicit.json") lives."""
    return DATA_DIR / name


@cache
def _load(path: Path) -> Any:
    try:
        if path.suffix == ".toml":
            with open(path, "rb") as fh:
                return tomllib.load(fh)
        with open(path, encoding="utf-8") as fh:
            return json.load(fh)
    except FileNotFoundError as exc:
        raise DataError(f"shipped data file missing: {path}") from exc
    except (OSError, ValueError) as exc:
        raise DataError(f"shipped data file unreadable: {path}: {exc}") from exc


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
