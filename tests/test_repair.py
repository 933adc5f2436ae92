from pathlib import Path

import pytest

from depinfer.ci.repair import diagnose, patterns

LOGS = Path(__file__).parents[1] / "fixtures" / "ci" / "logs"


def test_every_pattern_has_a_fixture_log_that_it_matches():
    for pat in patterns():
        log = (LOGS / pat["log"]).read_text()
        actions = diagnose(log, pat["language"])
        assert actions and actions[0].kind == pat["action"], pat["log"]


@pytest.mark.parametrize(
    ("log", "language", "expected"),
    [
        ("python-module-not-found.log", "python", ("module", "yaml")),
        ("python-unrecognized-cov.log", "python", ("package", "pytest-cov")),
        ("python-mocker.log", "python", ("package", "pytest-mock")),
        ("python-cannot-import-name.log", "python", ("version", "pydantic")),
        ("node-cannot-find-module.log", "javascript", ("module", "lodash")),
        ("node-require-esm.log", "javascript", ("version", "chalk")),
        ("rust-unresolved.log", "rust", ("module", "serde_json")),
        ("rust-derive.log", "rust", ("derive", "Serialize")),
    ],
)
def test_failures_name_the_repair(log, language, expected):
    actions = diagnose((LOGS / log).read_text(), language)
    assert (actions[0].kind, actions[0].name) == expected


def test_an_assertion_failure_is_not_a_dependency_problem():
    actions = diagnose((LOGS / "python-assertion.log").read_text(), "python")
    assert [a.kind for a in actions] == ["stop"]


def test_a_missing_module_beats_a_later_assertion():
    log = (LOGS / "python-module-not-found.log").read_text() + (
        LOGS / "python-assertion.log"
    ).read_text()
    assert [a.kind for a in diagnose(log, "python")] == ["module"]
