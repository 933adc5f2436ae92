"""Version helpers below every stage: version tuples, Cargo's compatibility groups, the
as-of date and the release a requirement is written for.

They sit below the stages so that mapping and rules, which run before the resolvers, pick
the same release the resolver will (resolvers/common.py re-exports them for the
resolvers); `pick_crate_version` is cargo's ordering of them.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from functools import lru_cache
from typing import Any

from depinfer.patterns import lazy
from depinfer.registries.base import VersionInfo


@lru_cache(maxsize=65536)  # asked for every release of a crate, by each pick over it
def vtuple(v: str) -> tuple[int, ...]:
    """`1.2.3-rc.1+meta` → (1, 2, 3); missing components are 0."""
    nums = re.findall(r"\d+", v.split("-")[0].split("+")[0])
    return tuple(int(x) for x in nums[:3]) + (0,) * (3 - min(3, len(nums)))


def compat_key(version: str) -> tuple[int, ...]:
    """Cargo's compatibility group: the major, or `0.minor` for 0.x releases."""
    v = vtuple(version)
    return (v[0],) if v[0] else (0, v[1])


def parse_as_of(value: str | None, last_commit: str | None) -> datetime | None:
    """The newest publish date allowed: None means now (no bound)."""
    if value in (None, "", "now"):
        return None
    if value == "last-commit":
        value = last_commit
        if not value:
            return None
    try:
        when = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError as exc:
        raise ValueError(
            f"--as-of: not a date: {value!r} (use now, last-commit or YYYY-MM-DD)"
        ) from exc
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    if len(value) == 10:  # a bare date includes that whole day
        when = when.replace(hour=23, minute=59, second=59)
    return when


def pick_version(
    versions: list[VersionInfo],
    as_of: datetime | None = None,
    runtime_ok: Callable[[VersionInfo], bool] | None = None,
    sort_key: Callable[[str], Any] | None = None,
    yanked_ok: Callable[[VersionInfo], bool] | None = None,
) -> VersionInfo | None:
    """Newest version that exists, is not yanked, deprecated or a pre-release, was published
    by `as_of`, and fits the runtime; falls back to pre-releases only when nothing else is.
    `yanked_ok` admits a yanked release that a requirement written for it can still reach
    (cargo's `^0.3.24` also matches an unyanked 0.3.31)."""

    def ok(v: VersionInfo, allow_pre: bool) -> bool:
        if v.deprecated or (v.prerelease and not allow_pre):
            return False
        if v.yanked and not (yanked_ok is not None and yanked_ok(v)):
            return False
        if as_of is not None and v.published is not None and v.published > as_of:
            return False
        return runtime_ok(v) if runtime_ok else True

    key = sort_key or default_version_key
    for allow_pre in (False, True):
        good = [v for v in versions if ok(v, allow_pre)]
        if good:
            return settled(good, versions, as_of, key)
    return None


# A breaking line (a new major; a new minor below 1.0) first released less than this long
# before the as-of date is passed over for the newest release of the line before it: code
# written up to that date was written against the older API (darling 0.24 and syn 3 came
# out in the three weeks before a snapshot still written for darling 0.23 and syn 2).
# Measured on the dev repositories' textual benchmark, share of written constraints
# admitting gold's release (cF1): 14 days JS 77.0 / Rust 93.7; 30 days 77.0 / 94.3;
# 45 days 76.4 / 94.3; 60 days 75.0 / 94.1; none 74.4 / 93.6.
SETTLE_DAYS = 30


@lru_cache(maxsize=65536)
def breaking_line(version: str) -> tuple[int, ...]:
    """The part of a version that changes on breaking releases: the major, or `0.minor`."""
    nums = [int(x) for x in re.findall(r"\d+", version.split("+")[0])[:2]]
    if not nums:
        return ()
    return (0, nums[1]) if nums[0] == 0 and len(nums) > 1 else (nums[0],)


def settled(
    good: list[VersionInfo],
    versions: list[VersionInfo],
    as_of: datetime | None,
    key: Callable[[str], Any],
) -> VersionInfo:
    """The newest of `good`, from the newest breaking line that had been out SETTLE_DAYS by
    `as_of` (now, when unset; the newest overall when no line had)."""
    newest = max(good, key=lambda v: key(v.version))
    as_of = as_of or datetime.now(timezone.utc)
    first: dict[tuple[int, ...], datetime] = {}
    for v in versions:
        if v.published is not None and not v.prerelease:
            line = breaking_line(v.version)
            first[line] = min(first.get(line, v.published), v.published)
    lines: dict[tuple[int, ...], VersionInfo] = {}
    for v in good:
        line = breaking_line(v.version)
        if line not in lines or key(v.version) > key(lines[line].version):
            lines[line] = v
    for best in sorted(lines.values(), key=lambda v: key(v.version), reverse=True):
        started = first.get(breaking_line(best.version))
        if started is None or as_of - started >= timedelta(days=SETTLE_DAYS):
            return best
    return newest


def default_version_key(version: str) -> Any:
    """PEP 440 ordering; a version it cannot read sorts first."""
    from packaging.version import InvalidVersion, Version

    try:
        return (1, Version(version))
    except InvalidVersion:
        return (0, Version("0"))


def reachable_if_yanked(versions: list[VersionInfo]) -> Callable[[VersionInfo], bool]:
    """A yanked release still dates the code: what a snapshot was written against when all
    of its line's releases up to that day were later yanked (futures-util 0.3.0 to 0.3.30),
    not the line before it (0.2). A caret requirement on it is kept when an unyanked release
    of the same line at or above it exists, which cargo then resolves to (the Cargo Book,
    Specifying Dependencies: caret requirements; cargo yank: a yanked version is not used
    for new resolutions)."""
    top: dict[tuple[int, ...], tuple[int, ...]] = {}
    for v in versions:
        if not v.yanked and not v.prerelease:
            key = compat_key(v.version)
            top[key] = max(top.get(key, ()), vtuple(v.version))
    return lambda v: top.get(compat_key(v.version), ()) >= vtuple(v.version)


def pick_crate_version(
    versions: list[VersionInfo],
    as_of: Any = None,
    runtime_ok: Callable[[VersionInfo], bool] | None = None,
) -> VersionInfo | None:
    """`pick_version` with cargo's ordering, and yanked releases a caret requirement reaches."""
    return pick_version(
        versions,
        as_of=as_of,
        runtime_ok=runtime_ok,
        sort_key=vtuple,
        yanked_ok=reachable_if_yanked(versions),
    )


_COMPARATOR = lazy(r"^\s*(\^|~|=|>=|<=|>|<)?\s*v?(\d+(?:\.(?:\d+|\*|x))*)")


def crate_req_admits_line(req: str, version: str) -> bool:
    """Whether Cargo's requirement `req` (`^0.8.3`, `0.7`, `>=1.2, <3`, `*`) admits some
    release of `version`'s compatibility group: the question two crates that both depend
    on a framework ask of each other (cargo unifies within a group, never across)."""
    line = compat_key(version)
    for part in req.split(","):
        part = part.strip()
        if part in ("", "*"):
            continue
        m = _COMPARATOR.match(part)
        if m is None:
            return True  # a form we do not read: do not judge
        op, bound = m.group(1) or "^", m.group(2)
        nums = [n for n in bound.split(".") if n.isdigit()]
        v = vtuple(".".join(nums))
        if op in ("^", "~", "="):
            if nums and (len(nums) == 1 or v[0] != 0):
                ok = v[0] == line[0] if line[0] else v[0] == 0 and len(nums) == 1
            else:
                ok = compat_key(".".join(nums)) == line
        elif op in (">=", ">"):
            ok = _line_top(line) >= v
        else:  # "<", "<="
            ok = _line_bottom(line) < v or (op == "<=" and _line_bottom(line) <= v)
        if not ok:
            return False
    return True


def _line_bottom(line: tuple[int, ...]) -> tuple[int, ...]:
    return (line[0], 0, 0) if line[0] else (0, line[1], 0)


def _line_top(line: tuple[int, ...]) -> tuple[int, ...]:
    big = 10**9
    return (line[0], big, big) if line[0] else (0, line[1], big)
