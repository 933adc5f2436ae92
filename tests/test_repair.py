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


def test_a_missing_module_becomes_a_written_requirement_where_the_import_failed(tmp_path):
    from depinfer.ci.repair import _new_candidates
    from depinfer.context import Context, Options
    from depinfer.pipeline import _stage, plan_edits
    from depinfer.registries import Registries
    from depinfer.resolvers.common import merge_candidates
    from depinfer.scan import scan

    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("x = 1\n")
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_config.py").write_text("import pkg\n")
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "pkg"\nversion = "0"\ndependencies = []\n\n'
        '[project.optional-dependencies]\ntest = ["pytest"]\n'
    )
    actions = diagnose((LOGS / "python-module-not-found-traceback.log").read_text(), "python")
    assert [(a.kind, a.name, a.file) for a in actions] == [
        ("module", "yaml", "tests/test_config.py")
    ]
    ctx = Context(Options(offline=True), Registries(offline=True))
    project = scan(tmp_path)
    cands = _new_candidates(project, "python", actions, ctx)
    assert [(c.name, c.section.value) for c in cands] == [("pyyaml", "dev")]
    reqs = _stage("resolvers", "python").resolve(project, merge_candidates(cands), ctx)
    (edit,) = plan_edits(project, reqs, ctx)
    assert 'test = ["pytest", "pyyaml"]' in edit.new_text
