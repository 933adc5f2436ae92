"""The standard library of the *target* Python, and the backports that stand in for it.

The table (data/python/python_stdlib.json, built by scripts/build_python_stdlib.py)
lists the stdlib per CPython minor version, since the running interpreter's
`sys.stdlib_module_names` says nothing about the version the analysed project targets.
Backports (data/python/python_backports.json) turn a stdlib module that is newer than the
target (`tomllib` on 3.10) into its PyPI stand-in with a `python_version` marker.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from depinfer.data import load_table
from depinfer.runtime import known_versions, minor, target_from_requires_python

DEFAULT_TARGET = "3.10"
__all__ = ["known_versions", "minor", "target_from_requires_python"]  # moved to depinfer.runtime


@cache
def _table() -> dict:
    return load_table("python/python_stdlib.json")


@cache
def _backports() -> dict:
    return load_table("python/python_backports.json")


@cache
def _version_sets() -> dict[str, frozenset[str]]:
    return {v: frozenset(names) for v, names in _table()["versions"].items()}


@cache
def _ever_stdlib() -> frozenset[str]:
    out: set[str] = set()
    for names in _version_sets().values():
        out |= names
    return frozenset(out)


def stdlib_of(version: str) -> frozenset[str]:
    """Top-level stdlib names of `version` (nearest known version when outside the table)."""
    sets = _version_sets()
    if version in sets:
        return sets[version]
    versions = known_versions()
    m = minor(version)
    nearest = versions[0] if m < minor(versions[0]) else versions[-1]
    return sets[nearest]


def is_stdlib(module: str, version: str) -> bool:
    return module.split(".")[0] in stdlib_of(version)


def ever_stdlib(module: str) -> bool:
    """True for names that are the stdlib's in some version: never the same-named PyPI dist."""
    return module.split(".")[0] in _ever_stdlib()


def since(module: str) -> str | None:
    """First minor version whose stdlib has `module` (dotted), when after the oldest known."""
    table = _table()["since"]
    return table.get(module) or table.get(module.split(".")[0])


def typing_since(name: str) -> str | None:
    return _table()["typing_since"].get(name)


@dataclass(frozen=True)
class Backport:
    dist: str
    module: str  # the backport's import name
    marker: str | None  # python_version marker under which it is needed
    why: str
    source: str


def backport_for(module: str, names: tuple[str, ...], target: str) -> Backport | None:
    """The backport a stdlib-looking import needs on `target`, or None when none is needed.

    `from typing import Self` on 3.10 → typing-extensions; `import tomllib` on 3.10 → tomli;
    `import distutils` on 3.12 → setuptools. The marker limits it to the versions that lack
    the stdlib module.
    """
    data = _backports()
    t = minor(target)
    if module == "typing":
        newest = None
        for n in names:
            s = typing_since(n)
            if s and minor(s) > t and (newest is None or minor(s) > minor(newest)):
                newest = s
        if newest is None:
            return None
        entry = data["backports"]["typing"]
        return Backport(
            entry["dist"],
            entry["module"],
            f'python_version < "{newest}"',
            entry["why"],
            entry["source"],
        )
    parts = module.split(".")
    for i in range(len(parts), 0, -1):
        key = ".".join(parts[:i])
        entry = data["backports"].get(key)
        if entry and key != "typing":
            s = since(key)
            if s and minor(s) > t:
                marker = f'python_version < "{s}"'
                return Backport(
                    entry["dist"], entry["module"], marker, entry["why"], entry["source"]
                )
            return None
        removed = data["removed"].get(key)
        if removed and t >= minor(removed["removed"]):
            marker = f'python_version >= "{removed["removed"]}"'
            return Backport(removed["dist"], key, marker, removed["why"], removed["source"])
    return None


def needed_on(marker: str | None, target: str) -> bool:
    """Whether a `python_version` marker can hold on `target` or any newer known version."""
    if not marker or "python" not in marker:
        return True
    from packaging.markers import InvalidMarker, Marker

    try:
        parsed = Marker(marker)
    except InvalidMarker:
        return True
    for v in known_versions():
        if minor(v) < minor(target):
            continue
        env = {"python_version": v, "python_full_version": f"{v}.0"}
        try:
            if parsed.evaluate(env):
                return True
        except Exception:  # markers naming variables we did not set
            return True
    return False
