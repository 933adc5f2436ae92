"""npm version ranges, as far as the resolver needs them: does a package's `engines.node`
admit the project's Node, and which of two version strings is newer."""

from __future__ import annotations

import operator
import re
from collections.abc import Callable
from functools import lru_cache


def node_ok_for(target: str | None):
    """A version fits when its `engines.node` admits the oldest Node major the project
    supports (its own `engines.node` floor), at that major's latest release."""
    if not target:
        return None
    m = re.search(r"(\d+)", target)
    if not m:
        return None
    probe = (int(m.group(1)), 999, 999)

    def ok(v) -> bool:
        return not v.runtime or satisfies(probe, v.runtime)

    return ok


def _parts(text: str) -> tuple[list[int | None], int]:
    """'14.13' → ([14, 13, None], 2): the numbers given and how many there are."""
    nums: list[int | None] = []
    for piece in text.lstrip("v=").split("-")[0].split("+")[0].split(".")[:3]:
        nums.append(int(piece) if piece.isdigit() else None)
    given = len([n for n in nums if n is not None])
    while len(nums) < 3:
        nums.append(None)
    return nums, given


_COMPARATOR = re.compile(r"^(\^|~>?|>=|<=|>|<|=)?\s*(.*)$")
_OP_SPACE = re.compile(r"(>=|<=|>|<|=|\^|~)\s+")
_HYPHEN = re.compile(r"^(\S+)\s+-\s+(\S+)$")
Version = tuple[int, int, int]
_ORDER = {">=": operator.ge, ">": operator.gt, "<=": operator.le, "<": operator.lt}


def _always(version: Version) -> bool:
    return True


def _between(low: tuple, upper: tuple) -> Callable[[Version], bool]:
    return lambda version: low <= version < upper


def _test(comp: str) -> Callable[[Version], bool]:
    """One comparator (`>=14.16`, `^12.17`, `~1.2`, `14`) as a test of a version."""
    m = _COMPARATOR.match(comp)
    if not m:
        return _always
    op, rest = m.group(1) or "", m.group(2)
    if rest in ("", "*", "x", "X"):
        return _always
    nums, given = _parts(rest)
    low = tuple(n or 0 for n in nums)
    if op in _ORDER:
        compare = _ORDER[op]
        return lambda version: compare(version, low)
    if op == "^":
        first = next((i for i, n in enumerate(nums) if n), min(given, 2) if given else 0)
        first = min(first, max(given - 1, 0))
        high = list(low[: first + 1])
        high[first] += 1
        return _between(low, tuple(high + [0] * (3 - len(high))))
    if op.startswith("~"):
        idx = 1 if given >= 2 else 0
        return _between(low, tuple(list(low[:idx]) + [low[idx] + 1] + [0] * (2 - idx)))
    # bare or `=`: a partial version is a range over what is left out (14 → 14.x.x)
    if given == 0:
        return _always
    if given == 3:
        return lambda version: version == low
    idx = given - 1
    return _between(low, tuple(list(low[:idx]) + [low[idx] + 1] + [0] * (2 - idx)))


@lru_cache(maxsize=4096)
def _range(spec: str) -> tuple[tuple[Callable[[Version], bool], ...], ...]:
    """A range's alternatives (`||`), each the tests all of which a version must pass: read
    once per range, then applied to every release the pre-check weighs."""
    out = []
    for alt in spec.split("||"):
        alt = _OP_SPACE.sub(r"\1", alt.strip())
        hyphen = _HYPHEN.match(alt)
        if hyphen:
            alt = f">={hyphen.group(1)} <={hyphen.group(2)}"
        out.append(tuple(_test(c) for c in alt.split()))
    return tuple(out)


def satisfies(version: tuple[int, int, int], spec: str) -> bool:
    """npm range semantics, enough for `engines.node` (`>=14.16`, `^12.17 || >=14`, `14 - 18`)."""
    version = tuple(version)  # type: ignore[assignment]
    return any(all(test(version) for test in alt) for alt in _range(spec))


def semver_key(version: str):
    m = re.match(r"^v?(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?", version)
    if not m:
        return (0, 0, 0, 0, "")
    return (
        int(m.group(1)),
        int(m.group(2)),
        int(m.group(3)),
        0 if m.group(4) else 1,
        m.group(4) or "",
    )
