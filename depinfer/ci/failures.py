"""What a failed test run's log says per test: each failed test's message, which of them fail
for the machine rather than for the manifests (network, services, display, timing — the
table common/environment_failures.toml), and whether the runner can rerun only them.

pytest's output gives both: the short summary (`-rA`: `FAILED id - message`) and one section
per failure (`____ test_name ____` … up to the next header). Other runners' logs give no
per-test messages here; they are read as a whole.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from depinfer.ci.plan import PYTEST
from depinfer.data import load_table


@dataclass(frozen=True)
class EnvironmentFailure:
    test: str
    kind: str  # network | service | display | timing | permission
    why: str


@lru_cache(maxsize=1)
def environment_patterns() -> tuple[tuple[str, re.Pattern[str], str, str], ...]:
    """(language, regex, kind, why) rows of common/environment_failures.toml."""
    return tuple(
        (row["language"], re.compile(row["regex"]), row["kind"], row["why"])
        for row in load_table("common/environment_failures.toml")["failure"]
    )


def environment_cause(text: str, language: str) -> tuple[str, str] | None:
    """(kind, why) when `text` (one failure's output) shows a machine-made failure."""
    for lang, regex, kind, why in environment_patterns():
        if lang in ("any", language) and regex.search(text):
            return kind, why
    return None


_SUMMARY = re.compile(r"^(FAILED|ERROR) (\S+)(?: - (.*))?$", re.M)
_HEADER = re.compile(
    r"^_{3,} (?:ERROR at (?:setup|teardown) of |ERROR collecting )?(.+?) _{3,}$", re.M
)
_SECTION_END = re.compile(r"^={5,}", re.M)


def failure_messages(log: str) -> dict[str, str]:
    """Failed pytest test id → its output (summary message and its section, when found)."""
    sections: dict[str, str] = {}
    headers = list(_HEADER.finditer(log))
    for i, m in enumerate(headers):
        end = headers[i + 1].start() if i + 1 < len(headers) else len(log)
        stop = _SECTION_END.search(log, m.end(), end)
        sections[m.group(1).strip()] = log[m.end() : stop.start() if stop else end]
    out: dict[str, str] = {}
    for _, test, message in _SUMMARY.findall(log):
        parts = test.split("::")
        keys = (test, parts[-1], ".".join(parts[1:]))
        section = next((sections[k] for k in keys if k in sections), "")
        out[test] = (message or "") + "\n" + section
    return out


def environment_failures(
    log: str, outcomes: dict[str, str], language: str
) -> list[EnvironmentFailure]:
    """The failed tests whose own output shows a machine-made failure (empty when a failed
    test's message cannot be found: nothing is forgiven blindly)."""
    messages = failure_messages(log)
    out = []
    for test, outcome in outcomes.items():
        if outcome != "failed":
            continue
        cause = environment_cause(messages.get(test, ""), language)
        if cause:
            out.append(EnvironmentFailure(test, *cause))
    return out


def only_environment_left(
    log: str, outcomes: dict[str, str], language: str
) -> list[EnvironmentFailure] | None:
    """Every failed test fails for the machine: those failures (None when some other failure
    is left, or no per-test outcome says what failed)."""
    failed = [t for t, o in outcomes.items() if o == "failed"]
    if not failed:
        return None
    found = environment_failures(log, outcomes, language)
    return found if len(found) == len(failed) else None


# pytest's own selection of the tests that failed last time (its cache plugin, on by
# default): `--lf` reruns them and nothing else, wherever pytest is started from
RERUN_FAILED = "--lf"


def can_rerun_failed(command: str, outcomes: dict[str, str], status: str, addopts: str) -> bool:
    """The last run was pytest's, ran tests (some passed: not stopped at collection) and
    failed some; its cache plugin is on, so `--lf` can select them."""
    if status != "failed" or PYTEST not in command or "no:cacheprovider" in addopts:
        return False
    values = set(outcomes.values())
    return "passed" in values and "failed" in values
