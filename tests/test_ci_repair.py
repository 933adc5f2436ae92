"""CI repair: what a failing test log says is missing, and the verify loop that adds it."""

import pytest
from conftest import FIXTURES, offline_context, write_tree

from depinfer.ci.repair import diagnose, patterns
from depinfer.ci.runner import RunResult

LOGS = FIXTURES / "ci" / "logs"

PYPROJECT_WITH_TEST_EXTRA = (
    '[project]\nname = "pkg"\nversion = "0"\ndependencies = []\n\n'
    '[project.optional-dependencies]\ntest = ["pytest"]\n'
)


def _package_with_tests(root, test_source: str, pyproject: str) -> None:
    """A package pkg whose tests are tests/test_config.py (test_source), in root."""
    files = {"pkg/__init__.py": "x = 1\n", "tests/test_config.py": test_source}
    write_tree(root, {**files, "pyproject.toml": pyproject})


def _fails_until_pyyaml():
    """A stand-in for run_tests: the recorded ModuleNotFoundError for yaml until the tree's
    pyproject.toml names pyyaml, then a pass."""
    failing = (LOGS / "python-module-not-found-traceback.log").read_text()

    def fake_run(root, language, test_cmd=None, log_path=None, as_of=None, **kw):
        if "pyyaml" in (root / "pyproject.toml").read_text():
            return RunResult("passed")
        return RunResult("failed", log=failing.replace("/tmp/scratch/repo", str(root)))

    return fake_run


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
        ("python-module-attribute.log", "python", ("version", "numpy")),
        ("python-uv-build-failed.log", "python", ("version", "llvmlite")),
        ("node-cannot-find-module.log", "javascript", ("module", "lodash")),
        ("node-require-esm.log", "javascript", ("version", "chalk")),
        ("rust-unresolved.log", "rust", ("module", "serde_json")),
        ("rust-unlinked-crate.log", "rust", ("module", "h2")),
        ("rust-missing-item.log", "rust", ("version", "syn")),
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
    from depinfer.pipeline import plan_edits, stage
    from depinfer.resolvers.common import merge_candidates
    from depinfer.scan import scan

    _package_with_tests(tmp_path, "import pkg\n", PYPROJECT_WITH_TEST_EXTRA)
    actions = diagnose((LOGS / "python-module-not-found-traceback.log").read_text(), "python")
    assert [(a.kind, a.name, a.file) for a in actions] == [
        ("module", "yaml", "tests/test_config.py")
    ]
    ctx = offline_context()
    project = scan(tmp_path)
    cands = _new_candidates(project, "python", actions, ctx, stage("mapping", "python"))
    assert [(c.name, c.section.value) for c in cands] == [("pyyaml", "dev")]
    reqs = stage("resolvers", "python").resolve(project, merge_candidates(cands), ctx)
    (edit,) = plan_edits(project, reqs, ctx)
    assert 'test = ["pytest", "pyyaml"]' in edit.new_text


class _Versions:
    """Registry answers for the bound tests (offline)."""

    def __init__(self, versions):
        self._versions = versions

    def versions(self, ecosystem, name):
        from datetime import datetime, timezone

        from depinfer.registries.base import VersionInfo

        when = datetime(2024, 1, 1, tzinfo=timezone.utc)
        return [VersionInfo(v, published=when) for v in self._versions.get(name, [])]

    def exists(self, ecosystem, name):
        return name in self._versions


def _bound(tmp_path, log, versions, language="python", direction="auto"):
    from depinfer.ci.repair import Action, _version_moves
    from depinfer.context import Context, Options
    from depinfer.model import Ecosystem, Requirement, Section
    from depinfer.pipeline import stage
    from depinfer.scan import scan

    pyproject = '[project]\nname = "pkg"\nversion = "0"\n'
    write_tree(tmp_path, {"pkg/__init__.py": "import pydantic\n", "pyproject.toml": pyproject})
    ctx = Context(Options(offline=True), _Versions(versions))
    eco = Ecosystem.PYPI if language == "python" else Ecosystem.NPM
    reqs = [Requirement(eco, "pydantic", "pyproject.toml", Section.RUNTIME, spec=">=1.10,<2")]
    action = Action("version", "pydantic", "why", "the line", "pkg/__init__.py", direction)
    mapper = stage("mapping", language)
    return _version_moves(
        scan(tmp_path), language, [action], log, tmp_path, reqs, ctx, None, mapper
    )


def test_a_missing_name_moves_the_bound_to_the_next_published_major(tmp_path):
    log = " + pydantic==1.10.13\n"
    moves = _bound(tmp_path, log, {"pydantic": ["1.10.13", "2.0", "2.5.3"]})
    assert moves["pydantic"][0] == ">=2.0"


def test_a_missing_name_in_the_newest_major_moves_the_bound_down(tmp_path):
    log = "Successfully installed pydantic-2.5.3 typing-extensions-4.9\n"
    moves = _bound(tmp_path, log, {"pydantic": ["1.10.13", "2.0", "2.5.3"]})
    assert moves["pydantic"][0] == "<2"
    forced = _bound(
        tmp_path, " + pydantic==1.10.13\n", {"pydantic": ["1.10.13", "2.0"]}, direction="down"
    )
    assert forced == {}  # nothing older than 1.x was published: no move


def test_no_wheels_for_this_python_runs_the_tests_on_the_next_older_one(tmp_path, monkeypatch):
    from depinfer.ci import plan as plan_mod
    from depinfer.ci.repair import _older_runtime

    actions = diagnose((LOGS / "python-uv-no-wheels.log").read_text(), "python")
    assert [(a.kind, a.name) for a in actions] == [("runtime", "torch")]
    monkeypatch.setattr(
        plan_mod,
        "pyenv_pythons",
        lambda: {(3, 7): "/p/3.7/python3", (3, 8): "/p/3.8/python3", (3, 9): "/p/3.9/python3"},
    )
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\nrequires-python = ">=3.8"\n')
    assert _older_runtime(tmp_path, "python", None, actions, "3.9") == "3.8"
    assert _older_runtime(tmp_path, "python", None, actions, "3.8") is None


def test_the_failing_file_is_read_from_rustc_and_node_locations():
    rust = diagnose((LOGS / "rust-unresolved.log").read_text(), "rust")
    node = diagnose((LOGS / "node-cannot-find-module.log").read_text(), "javascript")
    assert rust[0].file == "src/main.rs"
    assert node[0].file == "/tmp/x/src/index.js"


def test_verify_loop_adds_what_the_log_names_and_runs_again(tmp_path, monkeypatch):
    import depinfer.ci.repair as repair
    from depinfer.pipeline import infer

    _package_with_tests(tmp_path, "import pkg\n", PYPROJECT_WITH_TEST_EXTRA)
    monkeypatch.setattr(repair, "run_tests", _fails_until_pyyaml())
    ctx = offline_context(versions=False)
    request = repair.VerifyRequest("python", test_cmd="pytest", max_rounds=2)
    result = infer(tmp_path, ctx.options, ctx=ctx, verify=request)
    outcome = result.verification
    assert outcome.passed and [r.status for r in outcome.rounds] == ["failed", "passed"]
    assert outcome.rounds[0].added == ["pyyaml"]
    assert "pyyaml" not in (tmp_path / "pyproject.toml").read_text()  # the user's tree untouched
    assert any("pyyaml" in e.new_text for e in result.edits)


def test_scratch_copies_drop_installed_dependencies_but_keep_fixture_node_modules(tmp_path):
    from depinfer.ci.repair import COPY_IGNORE

    assert COPY_IGNORE(str(tmp_path), ["package.json", "node_modules", ".git", "src"]) == {
        "node_modules",
        ".git",
    }
    assert COPY_IGNORE(str(tmp_path / "test" / "fixtures"), ["node_modules", "a.js"]) == set()
    assert COPY_IGNORE(str(tmp_path), ["Cargo.toml", "target"]) == {"target"}


def test_verify_writes_a_needed_test_import_as_a_dependency_when_no_dev_section_exists(
    tmp_path, monkeypatch
):
    import depinfer.ci.repair as repair
    from depinfer.pipeline import infer

    pyproject = '[project]\nname = "pkg"\nversion = "0"\ndependencies = []\n'
    _package_with_tests(tmp_path, "import pkg\nimport yaml\n", pyproject)
    monkeypatch.setattr(repair, "run_tests", _fails_until_pyyaml())
    ctx = offline_context(versions=False)
    request = repair.VerifyRequest("python", test_cmd="pytest", max_rounds=2)
    result = infer(tmp_path, ctx.options, ctx=ctx, verify=request)
    outcome = result.verification
    assert outcome.passed and outcome.rounds[0].added == ["pyyaml"]
    (edit,) = result.edits
    assert 'dependencies = ["pyyaml"]' in edit.new_text or '"pyyaml",' in edit.new_text


@pytest.mark.parametrize("log", ["python-network.log", "python-system-tool.log"])
def test_network_and_system_tools_are_not_dependency_problems(log):
    assert {a.kind for a in diagnose((LOGS / log).read_text(), "python")} == {"stop"}


def test_cargo_logs_tell_the_installed_crate_version(tmp_path):
    from depinfer.ci.repair import installed_version

    log = (LOGS / "rust-missing-item.log").read_text()
    assert installed_version("rust", "syn", log, tmp_path) == "3.0.1"
    assert installed_version("rust", "quote", log, tmp_path) is None


def test_cli_verify_asks_the_pipeline_and_records_the_rounds(tmp_path, monkeypatch, capsys):
    import json

    import depinfer.ci.repair as repair
    from depinfer.cli import main

    _package_with_tests(tmp_path, "import pkg\n", PYPROJECT_WITH_TEST_EXTRA)
    monkeypatch.setattr(repair, "run_tests", _fails_until_pyyaml())
    args = [str(tmp_path), "--offline", "--names-only", "--verify", "--test-cmd", "pytest"]
    assert main([*args, "--json"]) == 0
    captured = capsys.readouterr()
    assert "verify round 1: tests failed" in captured.err and "added pyyaml" in captured.err
    assert "verify: tests pass — tests pass" in captured.err
    record = json.loads(captured.out)["llm"]["verify"]
    assert (record["passed"], record["rounds"], record["stopped_because"]) == (
        True,
        2,
        "tests pass",
    )
    assert [r["added"] for r in record["runs"]] == [["pyyaml"], []]
    assert record["runs"][0]["actions"][0]["kind"] == "module"
