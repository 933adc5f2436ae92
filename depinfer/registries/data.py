"""Read the offline tables shipped in depinfer/registries/data/ (and other data/ folders).

The tables (PyPI import-name index, Python stdlib, Node builtins, Rust standard crates,
NuGet namespace index) are what depinfer knows without a network; each is rebuilt by a
script in scripts/ that names its sources. Loading is cached so every stage can call
`load_json` freely without re-reading the file.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

DATA_DIR = Path(__file__).resolve().parent / "data"


class DataError(Exception):
    """A shipped data file is missing or unreadable (a packaging mistake, not user input)."""


def data_path(name: str, package_dir: Path | None = None) -> Path:
    """Where a data file lives: `name` may omit `.json`; other packages pass their own dir."""
    base = package_dir if package_dir is not None else DATA_DIR
    path = base / name
    if not path.suffix:
        path = path.with_suffix(".json")
    return path


@lru_cache(maxsize=64)
def _load(path: str) -> Any:
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except FileNotFoundError as exc:
        raise DataError(f"shipped data file missing: {path}") from exc
    except (OSError, ValueError) as exc:
        raise DataError(f"shipped data file unreadable: {path}: {exc}") from exc


def load_json(name: str, package_dir: str | Path | None = None) -> Any:
    """The parsed JSON table `name` from registries/data/ (or from `package_dir`).

    Cached per path: callers get the same object back, so they must not mutate it.
    """
    base = Path(package_dir) if package_dir is not None else None
    return _load(str(data_path(name, base)))


def load_json_or(name: str, default: Any, package_dir: str | Path | None = None) -> Any:
    """Like `load_json` but `default` when the table is missing or broken."""
    try:
        return load_json(name, package_dir)
    except DataError:
        return default
