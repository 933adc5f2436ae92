"""The standard library of the *target* Python, and the backports that stand in for it.

The table (data/python/python_stdlib.json, built by scripts/build_python_stdlib.py)
lists the stdlib per CPython minor version, since the running interpreter's
`sys.stdlib_module_names` says nothing about the version the analysed project targets.
Backports (data/python/python_backports.json) turn a stdlib module that is newer than the
target (`tomllib` on 3.10) into its PyPI stand-in with a `python_version` marker.
A fallback imported where a `try` of stdlib names fails gets the marker of the Pythons that
lack what the `try` wanted (`lacking_marker`: the module's arrival, the names' arrival —
api_since, typing_since —, its removal). The table starts at 3.8; older arrivals come from
python_backports.json's since_before_table, and `floor_below_table` lets a requires-python
older than the table (`>=3.7`) count when judging whether a marker can hold.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from depinfer.data import load_table
from depinfer.runtime import known_versions, minor, specifier_contains

DEFAULT_TARGET = "3.10"


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
    """First minor version whose stdlib has `module` (dotted); None when every Python 3 has it.

    The stdlib table starts at 3.8; older arrivals (dataclasses 3.7) come from
    python_backports.json's since_before_table."""
    table = _table()["since"]
    found = table.get(module) or table.get(module.split(".")[0])
    if found:
        return found
    older = _backports()["since_before_table"]["modules"]
    parts = module.split(".")
    for i in range(len(parts), 0, -1):
        hit = older.get(".".join(parts[:i]))
        if hit:
            return hit
    return None


def removed_in(module: str) -> str | None:
    """First minor version whose stdlib no longer has `module` (distutils → 3.12)."""
    root = module.split(".")[0]
    present = False
    for version in known_versions():
        if root in stdlib_of(version):
            present = True
        elif present:
            return version
    return None


def name_since(dotted: str) -> str | None:
    """First minor version whose stdlib module has the name (`typing.Self` → 3.11,
    `functools.cached_property` → 3.8); None when the tables do not say."""
    module, _, name = dotted.rpartition(".")
    if module == "typing":
        return typing_since(name)
    return _backports()["api_since"]["names"].get(dotted)


def lacking_marker(wanted: list[str]) -> str:
    """The marker of the Python versions that lack one of `wanted` (stdlib modules and
    `module.name`s a `try` imported): where its `except ImportError` fallback runs.
    `python_version < "3"` when every Python 3 has them all (a Python 2 fallback)."""
    first: str | None = None
    gone: str | None = None
    for item in wanted:
        for arrived in (since(item), name_since(item) if "." in item else None):
            if arrived and (first is None or minor(arrived) > minor(first)):
                first = arrived
        left = removed_in(item)
        if left and (gone is None or minor(left) < minor(gone)):
            gone = left
    parts = [f'python_version < "{first}"'] if first else []
    parts += [f'python_version >= "{gone}"'] if gone else []
    return " or ".join(parts) if parts else 'python_version < "3"'


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


def floor_below_table(requires_python: list[str], target: str) -> str:
    """The oldest Python 3 minor the project's `requires-python` admits, when that is older
    than the oldest version the stdlib table knows (which the target is clamped to):
    `>=3.7` → "3.7", so that `python_version < "3.8"` markers still count. Else `target`."""
    oldest = minor(known_versions()[0])
    if minor(target) > oldest or not requires_python:
        return target
    found: int | None = None
    for text in requires_python:
        contains = specifier_contains(text)
        if contains is None:
            return target
        admitted = [m for m in range(oldest) if contains(f"3.{m}.0") or contains(f"3.{m}.99")]
        if not admitted:
            return target  # one manifest says the table's versions: that is the floor
        found = admitted[0] if found is None else min(found, admitted[0])
    return f"3.{found}" if found is not None else target


def needed_on(marker: str | None, target: str) -> bool:
    """Whether a `python_version` marker can hold on `target` or any newer known version."""
    if not marker or "python" not in marker:
        return True
    from packaging.markers import InvalidMarker, Marker

    try:
        parsed = Marker(marker)
    except InvalidMarker:
        return True
    versions = [v for v in known_versions() if minor(v) >= minor(target)]
    if minor(target) < minor(known_versions()[0]):
        versions.insert(0, target)  # older than the table: the target itself counts
    for v in versions:
        env = {"python_version": v, "python_full_version": f"{v}.0"}
        try:
            if parsed.evaluate(env):
                return True
        except Exception:  # markers naming variables we did not set
            return True
    return False
