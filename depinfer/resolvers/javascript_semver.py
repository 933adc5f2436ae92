"""npm version ranges, as far as the resolver needs them: does a package's `engines.node`
admit the project's Node, and which of two version strings is newer."""

from __future__ import annotations

import re
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


def _comparator(version: tuple[int, int, int], comp: str) -> bool:
    m = re.match(r"^(\^|~>?|>=|<=|>|<|=)?\s*(.*)$", comp)
    if not m:
        return True
    op, rest = m.group(1) or "", m.group(2)
    if rest in ("", "*", "x", "X"):
        return True
    nums, given = _parts(rest)
    low = tuple(n or 0 for n in nums)
    if op in (">=", ">", "<=", "<"):
        return {
            ">=": version >= low,
            ">": version > low,
            "<=": version <= low,
            "<": version < low,
        }[op]
    if op == "^":
        first = next((i for i, n in enumerate(nums) if n), min(given, 2) if given else 0)
        first = min(first, max(given - 1, 0))
        high = list(low[: first + 1])
        high[first] += 1
        upper = tuple(high + [0] * (3 - len(high)))
        return low <= version < upper
    if op.startswith("~"):
        idx = 1 if given >= 2 else 0
        upper = tuple(list(low[:idx]) + [low[idx] + 1] + [0] * (2 - idx))
        return low <= version < upper
    # bare or `=`: a partial version is a range over what is left out (14 → 14.x.x)
    if given == 0:
        return True
    idx = given - 1
    upper = tuple(list(low[:idx]) + [low[idx] + 1] + [0] * (2 - idx))
    return low <= version < upper if given < 3 else version == low


def satisfies(version: tuple[int, int, int], spec: str) -> bool:
    """npm range semantics, enough for `engines.node` (`>=14.16`, `^12.17 || >=14`, `14 - 18`)."""
    if isinstance(spec, str):
        return _satisfies(tuple(version), spec)  # type: ignore[arg-type]
    return _satisfies.__wrapped__(version, spec)


@lru_cache(maxsize=65536)  # the pre-check asks the same pairs for every release, often
def _satisfies(version: tuple[int, int, int], spec: str) -> bool:
    for alt in spec.split("||"):
        alt = re.sub(r"(>=|<=|>|<|=|\^|~)\s+", r"\1", alt.strip())
        hyphen = re.match(r"^(\S+)\s+-\s+(\S+)$", alt)
        if hyphen:
            alt = f">={hyphen.group(1)} <={hyphen.group(2)}"
        if all(_comparator(version, c) for c in alt.split()):
            return True
    return False


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
