"""Version choice shared by every resolver: as-of date, runtime, settled breaking lines."""

from datetime import datetime, timedelta, timezone

from depinfer.registries.base import VersionInfo
from depinfer.versions import SETTLE_DAYS, breaking_line, pick_version

T0 = datetime(2026, 1, 1, tzinfo=timezone.utc)


def _v(version: str, days: int, **kw) -> VersionInfo:
    return VersionInfo(version=version, published=T0 + timedelta(days=days), **kw)


def test_breaking_lines():
    assert breaking_line("2.3.1") == (2,)
    assert breaking_line("0.24.1") == (0, 24)
    assert breaking_line("1.0.0-rc.1") == (1,)


def test_a_major_out_for_less_than_the_settle_period_is_passed_over():
    versions = [_v("1.4.0", 0), _v("1.5.0", 100), _v("2.0.0", 200), _v("2.0.1", 205)]
    soon = T0 + timedelta(days=200 + SETTLE_DAYS - 5)
    later = T0 + timedelta(days=200 + SETTLE_DAYS + 1)
    assert pick_version(versions, soon).version == "1.5.0"
    assert pick_version(versions, later).version == "2.0.1"


def test_zero_minor_lines_and_a_single_young_line():
    versions = [_v("0.23.0", 0), _v("0.24.0", 300)]
    assert pick_version(versions, T0 + timedelta(days=309)).version == "0.23.0"
    # nothing older to fall back on: the newest is taken
    assert pick_version([_v("0.1.0", 10)], T0 + timedelta(days=12)).version == "0.1.0"


def test_runtime_filter_applies_before_the_settle_period():
    versions = [_v("1.0.0", 0), _v("2.0.0", 100, runtime=">=3.12")]

    def fits(v):
        return v.runtime is None

    assert pick_version(versions, T0 + timedelta(days=300), fits).version == "1.0.0"


def test_a_yanked_release_dates_the_line_when_a_caret_requirement_still_reaches_a_live_one():
    from depinfer.versions import pick_crate_version

    def v(version: str, day: str, yanked: bool = False) -> VersionInfo:
        return VersionInfo(version, published=datetime.fromisoformat(day), yanked=yanked)

    versions = [
        v("0.2.1", "2018-04-19T00:00:00+00:00"),
        v("0.3.0", "2019-11-06T00:00:00+00:00", yanked=True),
        v("0.3.24", "2022-08-29T00:00:00+00:00", yanked=True),
        v("0.3.31", "2024-10-05T00:00:00+00:00"),
    ]
    as_of = datetime.fromisoformat("2022-09-27T00:00:00+00:00")
    # every 0.3 release out by then was yanked later; `^0.3.24` still resolves to 0.3.31
    assert pick_crate_version(versions, as_of=as_of).version == "0.3.24"
    # a yanked line with nothing live above it is not chosen
    assert pick_crate_version(versions[:3], as_of=as_of).version == "0.2.1"
