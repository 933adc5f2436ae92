"""Shared steps every language's resolver uses before choosing versions."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from typing import Any

from depinfer.model import Candidate, Requirement, Section
from depinfer.registries.base import VersionInfo

# When one package is needed in several places, the stronger placement wins.
SECTION_RANK = {
    Section.RUNTIME: 0,
    Section.PEER: 1,
    Section.BUILD: 2,
    Section.OPTIONAL: 3,
    Section.DEV: 4,
}


def merge_candidates(
    candidates: list[Candidate], key: Callable[[str], str] = str.lower
) -> list[Candidate]:
    """One candidate per (manifest, name, section); evidence and features merged.

    A package needed at runtime is not repeated in the dev section of the same manifest, and
    an optional use does not make a required one optional.
    """
    merged: dict[tuple[str, str], Candidate] = {}
    for c in candidates:
        k = (c.manifest, key(c.name))
        have = merged.get(k)
        if have is None:
            merged[k] = Candidate(
                **{
                    **c.__dict__,
                    "evidence": list(c.evidence),
                    "features": list(c.features),
                    "import_names": list(c.import_names),
                    "alternatives": list(c.alternatives),
                    "extra": dict(c.extra),
                }
            )
            continue
        if SECTION_RANK[c.section] < SECTION_RANK[have.section]:
            have.section = c.section
        have.optional = have.optional and c.optional
        if have.markers != c.markers:
            have.markers = None if (not have.markers or not c.markers) else have.markers
        have.evidence.extend(e for e in c.evidence if e not in have.evidence)
        have.features.extend(f for f in c.features if f not in have.features)
        have.import_names.extend(n for n in c.import_names if n not in have.import_names)
        have.alternatives.extend(a for a in c.alternatives if a not in have.alternatives)
        have.confidence = max(have.confidence, c.confidence)
        have.spec = have.spec or c.spec
        if have.verified is None:
            have.verified = c.verified
        if c.kinds:  # the file roles it is used from: all of them count
            have.kinds = have.kinds + tuple(k for k in c.kinds if k not in have.kinds)
        if c.extra.get("kinds"):  # the file roles it is used from: all of them count
            kinds = list(have.extra.get("kinds") or [])
            have.extra["kinds"] = kinds + [k for k in c.extra["kinds"] if k not in kinds]
    return list(merged.values())


def to_requirement(c: Candidate, spec: str = "") -> Requirement:
    return Requirement(
        ecosystem=c.ecosystem,
        name=c.name,
        manifest=c.manifest,
        section=c.section,
        spec=spec or (c.spec or ""),
        features=list(c.features),
        markers=c.markers,
        optional=c.optional,
        internal=c.internal,
        path=c.path,
        verified=c.verified,
        evidence=list(c.evidence),
        alternatives=list(c.alternatives),
        group=c.group or c.extra.get("group"),
        facts=c.facts,
        extra=dict(c.extra),
    )


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

    key = sort_key or _default_version_key
    for allow_pre in (False, True):
        good = [v for v in versions if ok(v, allow_pre)]
        if good:
            return _settled(good, versions, as_of, key)
    return None


# A breaking line (a new major; a new minor below 1.0) first released less than this long
# before the as-of date is passed over for the newest release of the line before it: code
# written up to that date was written against the older API (darling 0.24 and syn 3 came
# out in the three weeks before a snapshot still written for darling 0.23 and syn 2).
# Measured on the dev repositories' textual benchmark, share of written constraints
# admitting gold's release (cF1): 14 days JS 77.0 / Rust 93.7; 30 days 77.0 / 94.3;
# 45 days 76.4 / 94.3; 60 days 75.0 / 94.1; none 74.4 / 93.6.
SETTLE_DAYS = 30


def breaking_line(version: str) -> tuple[int, ...]:
    """The part of a version that changes on breaking releases: the major, or `0.minor`."""
    nums = [int(x) for x in re.findall(r"\d+", version.split("+")[0])[:2]]
    if not nums:
        return ()
    return (0, nums[1]) if nums[0] == 0 and len(nums) > 1 else (nums[0],)


def _settled(
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


def _default_version_key(version: str) -> Any:
    from packaging.version import InvalidVersion, Version

    try:
        return (1, Version(version))
    except InvalidVersion:
        return (0, Version("0"))
