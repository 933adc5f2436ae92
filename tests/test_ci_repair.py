"""CI repair: what a failing test log says is missing, and the verify loop that adds it."""

import shutil
from types import SimpleNamespace

import pytest
from conftest import FIXTURES, offline_context, utc_date, write_tree

from depinfer.ci.repair import diagnose, patterns
from depinfer.ci.runner import RunResult
from depinfer.model import FileKind

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
        # a program is read through the executables tables: a package, or a system program
        kinds = ("package", "stop") if pat["action"] == "tool" else (pat["action"],)
        assert actions and actions[0].kind in kinds, pat["log"]


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
        ("npm-install-script-failed.log", "javascript", ("version", "socket-plugin")),
        ("rust-unresolved.log", "rust", ("module", "serde_json")),
        ("rust-unlinked-crate.log", "rust", ("module", "h2")),
        ("rust-missing-item.log", "rust", ("version", "syn")),
        ("rust-derive.log", "rust", ("derive", "Serialize")),
        ("python-command-not-found.log", "python", ("package", "black")),
        ("python-jupyter-command.log", "python", ("package", "nbconvert")),
        ("python-no-such-kernel.log", "python", ("package", "ipykernel")),
        ("python-missing-optional.log", "python", ("package", "tabulate")),
        ("python-install-extra.log", "python", ("package", "dask")),
        ("python-pip-install-hint.log", "python", ("package", "kaleido")),
        ("python-please-install.log", "python", ("package", "openpyxl")),
        ("python-uv-conflict.log", "python", ("relax", None)),
        ("python-system-tool.log", "python", ("stop", "ffmpeg")),
        ("node-no-export.log", "javascript", ("version", "chalk-template")),
        ("node-eresolve.log", "javascript", ("relax", None)),
        ("ts-no-exported-member.log", "javascript", ("version", "openai")),
        ("vite-missing-specifier.log", "javascript", ("version", "@noble/hashes")),
        ("node-subpath-not-exported.log", "javascript", ("version", "uuid")),
        ("rust-cannot-find-in-crate.log", "rust", ("version", "tokio")),
        ("rust-gated-item.log", "rust", ("feature", "tokio")),
        ("rust-unresolved-item.log", "rust", ("version", "rand")),
        ("rust-cannot-find-module.log", "rust", ("version", "bitcoin")),
        ("rust-feature-neither.log", "rust", ("module", "serde")),
        ("rust-feature-dep-not-listed.log", "rust", ("module", "serde_json")),
        ("rust-feature-not-dependency.log", "rust", ("module", "serde")),
        ("rust-no-such-feature.log", "rust", ("feature-line", "serde")),
        ("rust-two-versions.log", "rust", ("align", "rand_core")),
        ("rust-no-matching-version.log", "rust", ("relax", None)),
        ("rust-gated-import.log", "rust", ("feature", "time")),
        ("rust-missing-method-trimmed.log", "rust", ("version", None)),
        ("rust-defined-here.log", "rust", ("version", "tiny-http-kit")),
        ("rust-not-a-member-of-trait.log", "rust", ("version", None)),
    ],
)
def test_failures_name_the_repair(log, language, expected):
    actions = diagnose((LOGS / log).read_text(), language)
    assert (actions[0].kind, actions[0].name) == expected


def test_typescript_names_each_package_whose_declarations_lack_a_name_once():
    actions = diagnose((LOGS / "ts-no-exported-member.log").read_text(), "javascript")
    assert [(a.kind, a.name, a.member) for a in actions] == [
        ("version", "openai", "Configuration"),
        ("version", "@scope/fmt", None),  # a subpath's default export: its package
    ]
    assert actions[0].file == "src/client.ts"


def test_an_export_a_subpath_lacks_names_the_package():
    log = "SyntaxError: The requested module 'lodash-es/fp' does not provide an export named 'x'"
    assert [(a.kind, a.name) for a in diagnose(log, "javascript")] == [("version", "lodash-es")]


def test_jest_meeting_an_esm_only_release_moves_that_package_down():
    actions = diagnose((LOGS / "jest-esm-only-package.log").read_text(), "javascript")
    assert [(a.kind, a.name) for a in actions] == [("version", "chalk")]
    # the project's own ES module file is a transform problem, not a package's major
    own = "    /repo/src/index.js:1\n    import x from 'y'\n\n    SyntaxError: Cannot use import statement outside a module\n"
    assert all(a.name != "src" for a in diagnose(own, "javascript"))


@pytest.mark.parametrize(
    ("log", "expected"),
    [
        ("vite-failed-to-resolve-import.log", [("module", "dayjs/plugin/utc")]),
        ("webpack-cannot-resolve.log", [("module", "react-router-dom")]),
        ("esbuild-could-not-resolve.log", [("module", "zod")]),
        ("jest-missing-preset.log", [("module", "ts-jest"), ("module", "jest-environment-jsdom")]),
        ("node-named-export-commonjs.log", [("version", "csv-parse-lite")]),
        ("node-command-not-found.log", [("package", "cross-env")]),
        ("pnpm-install-script-failed.log", [("version", "sharp-prebuilt")]),
        ("yarn-install-script-failed.log", [("version", "node-sass")]),
    ],
)
def test_bundlers_runners_and_package_managers_name_the_package(log, expected):
    actions = diagnose((LOGS / log).read_text(), "javascript")
    assert [(a.kind, a.name) for a in actions] == expected


def test_a_relative_import_vite_cannot_resolve_names_no_package():
    log = 'Error: Failed to resolve import "./missing" from "src/a.ts". Does the file exist?'
    assert not any(a.kind == "module" for a in diagnose(log, "javascript"))


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

    def exists_many(self, ecosystem, names):
        return {n: n in self._versions for n in names}

    def mentions(self, ecosystem, name, version, identifier):
        return None  # no wheel read: the plain move


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


def test_rustc_names_the_missing_member_in_both_message_forms():
    for log in ("rust-cannot-find-module.log", "rust-cannot-find-in-crate.log"):
        (action,) = [a for a in diagnose((LOGS / log).read_text(), "rust") if a.kind == "version"]
        assert action.member in ("key", "spawn_blocking")


def test_an_item_behind_a_feature_asks_the_feature_not_another_major():
    actions = diagnose((LOGS / "rust-gated-item.log").read_text(), "rust")
    features = [(a.name, a.extras) for a in actions if a.kind == "feature"]
    assert features == [("tokio", ("net",)), ("tokio", ("rt",))]
    # `cannot find function `spawn` in crate `tokio`` is the same gate, not a version move
    assert not [a for a in actions if a.kind == "version"]
    assert ("derive", "Serialize") in [(a.kind, a.name) for a in actions]


def test_cargo_logs_tell_the_installed_crate_version(tmp_path):
    from depinfer.ci.repair import installed_version

    log = (LOGS / "rust-missing-item.log").read_text()
    assert installed_version("rust", "syn", log, tmp_path) == "3.0.1"
    assert installed_version("rust", "quote", log, tmp_path) is None


def test_a_quiet_cargo_log_leaves_the_installed_version_to_the_lock_file(tmp_path):
    from depinfer.ci.repair import installed_version

    # `cargo test --quiet` prints no `Compiling x v1.2.3`: the lock the run wrote has it
    log = (LOGS / "rust-method-moved-trait.log").read_text()
    lock = (
        'version = 4\n\n[[package]]\nname = "rand_chacha"\nversion = "0.10.0"\n'
        'source = "registry+x"\n\n[[package]]\nname = "rand_chacha"\nversion = "0.3.1"\n'
    )
    write_tree(tmp_path, {"Cargo.lock": lock})
    assert installed_version("rust", "rand_chacha", log, tmp_path) == "0.10.0"
    assert installed_version("rust", "rand", log, tmp_path) is None


def test_a_method_that_moved_to_another_trait_names_the_crate_rustc_offers_to_import():
    actions = diagnose((LOGS / "rust-method-moved-trait.log").read_text(), "rust")
    # the trait's crate (rand) and the type's crate through the file's import (binding)
    assert ("version", "rand") in [(a.kind, a.name) for a in actions]
    assert ("version", "ChaCha8Rng") in [(a.kind, a.binding) for a in actions]


def test_cli_verify_asks_the_pipeline_and_records_the_rounds(tmp_path, monkeypatch, capsys):
    import json

    import depinfer.ci.repair as repair
    from depinfer.cli import main

    _package_with_tests(tmp_path, "import pkg\n", PYPROJECT_WITH_TEST_EXTRA)
    monkeypatch.setattr(repair, "run_tests", _fails_until_pyyaml())
    args = [str(tmp_path), "--offline", "--names-only", "--verify", "--test-cmd", "pytest"]
    assert main([*args, "--json"]) == 0
    captured = capsys.readouterr()
    assert "verify round 1: all tests: tests failed" in captured.err
    assert "changed: pyyaml" in captured.err
    assert "verify: tests pass — tests pass" in captured.err
    record = json.loads(captured.out)["llm"]["verify"]
    assert (record["passed"], record["rounds"], record["stopped_because"]) == (
        True,
        2,
        "tests pass",
    )
    assert [r["added"] for r in record["runs"]] == [["pyyaml"], []]
    assert record["runs"][0]["actions"][0]["kind"] == "module"


def test_an_extra_named_in_the_message_is_asked_of_the_package():
    (action,) = diagnose((LOGS / "python-install-extra.log").read_text(), "python")
    assert (action.name, action.extras) == ("dask", ("distributed",))


def test_a_binding_that_is_not_a_function_names_its_package_through_its_import(tmp_path):
    from depinfer.ci.repair_names import binding_name, js_binding_package

    (action,) = diagnose((LOGS / "node-not-a-function.log").read_text(), "javascript")
    expected = ("version", "(0 , _got.default)", "src/fetch.js")
    assert (action.kind, action.binding, action.file) == expected
    write_tree(tmp_path, {"src/fetch.js": "import got from 'got';\nexport const x = 1;\n"})
    assert js_binding_package(tmp_path, ["src/fetch.js"], binding_name(action.binding)) == "got"
    assert binding_name("lodash_1.default") == "lodash"
    write_tree(tmp_path, {"src/b.js": "const { parse } = require('@scope/pkg/sub');\n"})
    assert js_binding_package(tmp_path, ["src/b.js"], "parse") == "@scope/pkg"


def test_a_conflict_report_names_the_packages_whose_bounds_go():
    from depinfer.ci.repair_names import conflict_names

    (uv,) = diagnose((LOGS / "python-uv-conflict.log").read_text(), "python")
    assert conflict_names("python", uv.report) == ["pandas", "numpy"]
    (npm,) = diagnose((LOGS / "node-eresolve.log").read_text(), "javascript")
    assert {"react", "react-modal"} <= set(conflict_names("javascript", npm.report))


def test_a_program_no_package_installs_stops_and_one_a_package_installs_is_added():
    from depinfer.ci.repair_names import tool_package

    assert tool_package("python", "/usr/bin/jupyter-nbconvert") == "nbconvert"
    assert tool_package("python", "ffmpeg") is None
    assert tool_package("javascript", "jest") == "jest"


def _pytest_log(outcomes: dict[str, tuple[str, str]]) -> str:
    """A pytest `-rA` summary: test id → (outcome, message)."""
    lines = ["=========================== short test summary info ============================"]
    for test, (outcome, message) in outcomes.items():
        lines.append(f"{outcome} {test}" + (f" - {message}" if message else ""))
    return "\n".join(lines) + "\n[exit 1]\n"


def _run(status: str, outcomes: dict[str, tuple[str, str]]) -> RunResult:
    parsed = {t: "passed" if o == "PASSED" else "failed" for t, (o, _) in outcomes.items()}
    return RunResult(status, outcomes=parsed, log=_pytest_log(outcomes),
                     failed_step="python -m pytest" if status == "failed" else None)  # fmt: skip


def _verify(tmp_path, fake_run, monkeypatch, rounds=3, env=None):
    import depinfer.ci.repair as repair
    from depinfer.pipeline import infer

    monkeypatch.setattr(repair, "run_tests", fake_run)
    ctx = offline_context(versions=False)
    request = repair.VerifyRequest(
        "python", test_cmd="pytest", max_rounds=rounds, env=dict(env or {})
    )
    return infer(tmp_path, ctx.options, ctx=ctx, verify=request)


def test_a_bound_already_tried_is_not_asked_for_again(tmp_path, monkeypatch):
    # neither line of the written package ships the module the tests import: the loop
    # moves the bound down, then up, and stops instead of moving it down once more
    import depinfer.ci.repair as repair

    _package_with_tests(tmp_path, "import pkg\nimport yaml\n", PYPROJECT_WITH_TEST_EXTRA)
    asked = iter([("<6", "down"), (">=6", "up"), ("<6", "down again"), (">=6", "up again")])
    monkeypatch.setattr(repair, "_version_moves", lambda *a, **k: {"pyyaml": next(asked)})

    def fake_run(root, language, test_cmd=None, env=None, **kw):
        missing = "ImportError: cannot import name 'safe_load' from 'yaml'"
        return _run("failed", {"tests/test_config.py::test_a": ("FAILED", missing)})

    outcome = _verify(tmp_path, fake_run, monkeypatch, rounds=6).verification
    added = [a for r in outcome.rounds for a in r.added]
    assert added.count("pyyaml<6") == 1 and added.count("pyyaml>=6") == 1
    assert outcome.stopped_because.startswith("nothing new to add")


def test_a_module_the_written_distribution_lacks_is_taken_from_another_provider(
    tmp_path, monkeypatch
):
    _package_with_tests(tmp_path, "import pkg\nimport jwt\n", PYPROJECT_WITH_TEST_EXTRA)
    seen = []

    def fake_run(root, language, test_cmd=None, env=None, **kw):
        seen.append((root / ".git").is_dir())
        text = (root / "pyproject.toml").read_text()
        if '"jwt"' in text and "pyjwt" not in text:
            return RunResult("passed")
        missing = "ModuleNotFoundError: No module named 'jwt'"
        return _run("failed", {"tests/test_config.py::test_a": ("FAILED", missing)})

    result = _verify(tmp_path, fake_run, monkeypatch)
    outcome = result.verification
    assert outcome.passed, outcome.stopped_because
    assert {"jwt", "jwt instead of pyjwt"} <= set(outcome.rounds[0].added)
    assert seen == [True, True]  # every run in a git checkout of the copy


def test_only_failed_tests_rerun_then_all_confirm_and_machine_failures_do_not_count(
    tmp_path, monkeypatch
):
    _package_with_tests(tmp_path, "import pkg\n", PYPROJECT_WITH_TEST_EXTRA)
    network = "requests.exceptions.ConnectionError: Temporary failure in name resolution"
    missing = "ModuleNotFoundError: No module named 'yaml'"
    envs = []

    def fake_run(root, language, test_cmd=None, env=None, **kw):
        envs.append(env)
        fixed = "pyyaml" in (root / "pyproject.toml").read_text()
        tests = {
            "tests/test_config.py::test_a": ("PASSED", ""),
            "tests/test_config.py::test_b": ("PASSED", "") if fixed else ("FAILED", missing),
            "tests/test_config.py::test_c": ("FAILED", network),
        }
        if env and "PYTEST_ADDOPTS" in env:  # --lf: only those that failed
            tests.pop("tests/test_config.py::test_a")
        return _run("failed", tests)

    outcome = _verify(tmp_path, fake_run, monkeypatch).verification
    assert [r.scope for r in outcome.rounds] == ["all tests", "the 2 failed tests", "all tests"]
    assert envs == [None, {"PYTEST_ADDOPTS": "--lf"}, None]

    # the caller's variables (the benchmark's shared cargo folder) reach every run
    envs.clear()
    _verify(tmp_path, fake_run, monkeypatch, env={"CARGO_TARGET_DIR": "/t"})
    assert envs == [{"CARGO_TARGET_DIR": "/t"}, {"CARGO_TARGET_DIR": "/t", "PYTEST_ADDOPTS": "--lf"},
                    {"CARGO_TARGET_DIR": "/t"}]  # fmt: skip
    assert outcome.rounds[0].added == ["pyyaml"]
    assert outcome.passed and [e.test for e in outcome.environment] == [
        "tests/test_config.py::test_c"
    ]
    assert "fails for the machine (network)" in outcome.stopped_because
    assert outcome.final.outcomes["tests/test_config.py::test_b"] == "passed"


def test_a_failed_install_of_what_was_written_is_not_a_pass(tmp_path, monkeypatch):
    from depinfer.ci.runner import WRITTEN_FAILED

    _package_with_tests(tmp_path, "import pkg\n", PYPROJECT_WITH_TEST_EXTRA)
    conflict = (LOGS / "python-uv-conflict.log").read_text()
    line = "uv pip install -e '.[test]'"

    def fake_run(root, language, test_cmd=None, env=None, **kw):
        return RunResult("passed", log=conflict + WRITTEN_FAILED.format(line) + "\n$ pytest\n")

    outcome = _verify(tmp_path, fake_run, monkeypatch).verification
    assert not outcome.passed
    assert outcome.rounds[0].status == "install-failed"
    assert outcome.stopped_because.startswith("nothing new to add for: relax")


def test_a_conflict_drops_the_written_bounds_it_names(tmp_path):
    from types import SimpleNamespace

    from depinfer.ci.repair import _overrides, _relax
    from depinfer.model import Ecosystem, Requirement

    reqs = [
        Requirement(Ecosystem.PYPI, "numpy", "pyproject.toml", spec="==1.19.5"),
        Requirement(Ecosystem.PYPI, "pandas", "pyproject.toml", spec="==2.2.3"),
        Requirement(Ecosystem.PYPI, "rich", "pyproject.toml", spec=">=13"),
    ]
    loop = SimpleNamespace(
        request=SimpleNamespace(language="python"),
        result=SimpleNamespace(requirements=reqs),
        bounds={},
        relaxed={},
        dropped={},
        placed={},
        extras={"rich": ({"jupyter"}, "the line")},
    )
    actions = diagnose((LOGS / "python-uv-conflict.log").read_text(), "python")
    assert _relax(loop, actions) == ["pandas", "numpy"]
    assert _relax(loop, actions) == []  # nothing new the second time
    out = _overrides(loop, reqs)
    assert [(r.name, r.spec, r.features) for r in out] == [
        ("numpy", "", []),
        ("pandas", "", []),
        ("rich", ">=13", ["jupyter"]),
    ]


def test_failure_messages_are_read_per_test():
    from depinfer.ci.failures import environment_failures, failure_messages

    log = (LOGS / "python-missing-optional.log").read_text()
    messages = failure_messages(log)
    assert "tabulate" in messages["tests/test_report.py::test_markdown_table"]
    outcomes = {"tests/test_report.py::test_markdown_table": "failed"}
    assert environment_failures(log, outcomes, "python") == []


def test_a_derive_asks_the_written_crate_for_its_derive_feature():
    from types import SimpleNamespace

    from depinfer.ci.repair import _new_extras
    from depinfer.model import Ecosystem, Requirement

    loop = SimpleNamespace(
        request=SimpleNamespace(language="rust"),
        result=SimpleNamespace(requirements=[Requirement(Ecosystem.CRATES, "serde", "Cargo.toml")]),
        extras={},
    )
    actions = diagnose((LOGS / "rust-derive.log").read_text(), "rust")
    assert _new_extras(loop, actions) == {"serde": {"derive"}}
    assert _new_extras(loop, actions) == {}


def test_an_item_behind_a_feature_asks_the_written_crate_for_that_feature():
    from types import SimpleNamespace

    from depinfer.ci.repair import _new_extras
    from depinfer.model import Ecosystem, Requirement

    reqs = [Requirement(Ecosystem.CRATES, n, "Cargo.toml") for n in ("tokio", "serde")]
    loop = SimpleNamespace(
        request=SimpleNamespace(language="rust"),
        result=SimpleNamespace(requirements=reqs),
        extras={},
    )
    actions = diagnose((LOGS / "rust-gated-item.log").read_text(), "rust")
    assert _new_extras(loop, actions) == {"tokio": {"net", "rt"}, "serde": {"derive"}}
    assert _new_extras(loop, actions) == {}


def test_pips_own_upgrade_notice_is_not_a_missing_package():
    log = "[notice] To update, run: pip install --upgrade pip\n"
    assert diagnose(log, "python") == []


def test_a_module_written_where_the_job_does_not_install_it_moves_where_it_does(tmp_path):
    from types import SimpleNamespace

    from depinfer.ci.repair import Action, _misplaced
    from depinfer.model import Candidate, Ecosystem, Section

    workflow = (
        "jobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n"
        "      - run: pip install -e '.[testing]'\n      - run: pytest\n"
    )
    pyproject = PYPROJECT_WITH_TEST_EXTRA.replace("test = ", "testing = ")
    write_tree(tmp_path, {".github/workflows/ci.yml": workflow, "pyproject.toml": pyproject})
    loop = SimpleNamespace(
        request=SimpleNamespace(language="python", test_cmd=None), scratch=tmp_path, placed={}
    )
    written = [Candidate(Ecosystem.PYPI, "pyyaml", "pyproject.toml", section=Section.DEV)]
    action = Action("module", "yaml", "why", "No module named 'yaml'")
    log = " + pytest==8.3.4\n + pkg==0 (from file:///x)\n"
    assert _misplaced(loop, action, written, log)
    assert loop.placed["pyyaml"][:2] == (Section.DEV, "testing")
    assert not _misplaced(loop, action, written, log)  # nothing new the second time
    assert not _misplaced(loop, action, written, log + " + pyyaml==6.0.2\n")  # it was installed


def test_a_module_written_beside_the_requirements_file_the_job_installs_moves_into_it(tmp_path):
    """A Poetry project whose workflow installs requirements-dev.txt (which pulls in
    requirements.txt): a package written to the Poetry group is never installed; it moves
    into the file the job installs, once even when it was written to two manifests."""
    from types import SimpleNamespace

    from depinfer.ci.repair import Action, _misplaced, _overrides
    from depinfer.model import Candidate, Ecosystem, Requirement, Section
    from depinfer.scan import scan

    workflow = (
        "jobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n"
        "      - run: pip install -r requirements-dev.txt\n      - run: pytest\n"
    )
    pyproject = (
        '[tool.poetry]\nname = "p"\nversion = "1"\n[tool.poetry.dependencies]\n'
        'python = "^3.10"\n[tool.poetry.group.dev.dependencies]\npytest = "^8.0"\n'
    )
    files = {
        ".github/workflows/ci.yml": workflow,
        "pyproject.toml": pyproject,
        "requirements.txt": "",
        "requirements-dev.txt": "-r requirements.txt\npytest>=8.0\n",
    }
    write_tree(tmp_path, files)
    loop = SimpleNamespace(
        request=SimpleNamespace(language="python", test_cmd=None),
        scratch=tmp_path,
        project=scan(tmp_path),
        placed={},
        dropped={},
        relaxed={},
        bounds={},
        extras={},
    )
    written = [Candidate(Ecosystem.PYPI, "mcp", "pyproject.toml", section=Section.DEV)]
    action = Action("module", "mcp", "why", "No module named 'mcp'")
    log = " + pytest==8.3.4\n"
    assert _misplaced(loop, action, written, log)
    assert loop.placed["mcp"][0] == Section.DEV and loop.placed["mcp"][3] == "requirements-dev.txt"
    assert not _misplaced(loop, action, written, log)  # nothing new the second time
    reqs = [
        Requirement(Ecosystem.PYPI, "mcp", "pyproject.toml", Section.DEV, group="dev"),
        Requirement(Ecosystem.PYPI, "mcp", "requirements.txt", Section.RUNTIME),
    ]
    moved = _overrides(loop, reqs)
    assert [(r.manifest, r.group) for r in moved] == [("requirements-dev.txt", None)]


def test_a_js_function_that_moved_moves_its_package_to_the_next_major(tmp_path):
    from types import SimpleNamespace

    from depinfer.ci.repair import _bind_packages, _version_moves
    from depinfer.context import Context, Options
    from depinfer.model import Ecosystem, Requirement, Section
    from depinfer.scan import scan

    files = {
        "package.json": '{"name": "demo", "dependencies": {"got": "^9.6.0"}}',
        "src/fetch.js": "import got from 'got';\nexport const page = (u) => got(u);\n",
        "node_modules/got/package.json": '{"name": "got", "version": "9.6.0"}',
    }
    write_tree(tmp_path, files)
    project = scan(tmp_path)
    loop = SimpleNamespace(
        project=project, scratch=tmp_path, request=SimpleNamespace(language="javascript")
    )
    actions = diagnose((LOGS / "node-not-a-function.log").read_text(), "javascript")
    _bind_packages(loop, actions)
    assert actions[0].name == "got"
    ctx = Context(Options(offline=True), _Versions({"got": ["9.6.0", "11.8.6", "12.0.0"]}))
    reqs = [Requirement(Ecosystem.NPM, "got", "package.json", Section.RUNTIME, spec="^9.6.0")]
    moves = _version_moves(project, "javascript", actions, "", tmp_path, reqs, ctx, None, None)
    assert moves["got"][0] == ">=11.8.6"


def test_a_runtime_global_that_is_not_a_function_is_the_node_version_not_a_package(
    tmp_path, monkeypatch
):
    # `Promise.withResolvers` (Node 22) on an older Node: no import binds `Promise`, so no
    # package is to be moved; the loop says why it stops instead of "nothing new to add"
    from types import SimpleNamespace

    from depinfer.ci import repair
    from depinfer.scan import scan

    monkeypatch.setattr(repair, "js_runtime_global", lambda name: name == "Promise")
    write_tree(tmp_path, {"package.json": '{"name": "demo"}', "src/a.js": "export const x = 1;\n"})
    loop = SimpleNamespace(
        project=scan(tmp_path), scratch=tmp_path, request=SimpleNamespace(language="javascript")
    )
    log = "TypeError: Promise.withResolvers is not a function\n    at load (src/a.js:3:9)\n"
    actions = diagnose(log, "javascript")
    assert [(a.kind, a.binding) for a in actions] == [("version", "Promise.withResolvers")]
    repair._bind_packages(loop, actions)
    assert actions[0].kind == "stop" and "global of the JavaScript runtime" in actions[0].why
    other = diagnose(log.replace("Promise", "helper"), "javascript")
    repair._bind_packages(loop, other)
    assert other[0].kind == "version"  # neither imported nor a global: left as it was


@pytest.mark.skipif(shutil.which("node") is None, reason="no node on this machine")
def test_the_runtime_itself_says_which_names_are_its_globals():
    from depinfer.ci.repair_names import js_runtime_global

    assert js_runtime_global("Promise") and js_runtime_global("JSON")
    assert not js_runtime_global("got") and not js_runtime_global("a-b; process.exit(0)")


def test_a_patched_name_a_guarded_import_did_not_bind_is_the_missing_module(tmp_path):
    from types import SimpleNamespace

    from depinfer.ci.repair import _patched_imports
    from depinfer.scan import scan

    guarded = "try:\n    import yaml\nexcept ImportError:\n    pass\n\nhelper = 1\n"
    write_tree(tmp_path, {"src/pkg/__init__.py": "", "src/pkg/export.py": guarded})
    loop = SimpleNamespace(project=scan(tmp_path), scratch=tmp_path)
    (action,) = diagnose((LOGS / "python-patched-guarded.log").read_text(), "python")
    assert (action.kind, action.owner, action.name) == ("patched", "pkg.export", "yaml")
    _patched_imports(loop, [action])
    assert (action.kind, action.name, action.file) == ("module", "yaml", "src/pkg/export.py")
    log = (LOGS / "python-patched-guarded.log").read_text().replace("'yaml'", "'helper2'")
    (other,) = diagnose(log, "python")
    _patched_imports(loop, [other])
    assert other.kind == "patched"  # not an import of that file: nothing to add


def test_a_step_that_runs_out_of_time_says_so(tmp_path, monkeypatch):
    _package_with_tests(tmp_path, "import pkg\n", PYPROJECT_WITH_TEST_EXTRA)

    def fake_run(root, language, test_cmd=None, env=None, **kw):
        return RunResult("timeout", log="$ python -m pytest\n[timeout after 900s]\n",
                         failed_step="python -m pytest")  # fmt: skip

    outcome = _verify(tmp_path, fake_run, monkeypatch).verification
    assert outcome.stopped_because == "a step ran out of time (900s): python -m pytest"


def test_a_rust_name_a_major_lacks_moves_to_the_nearest_line_that_has_it(tmp_path, monkeypatch):
    # `use oldapi::serialize;` against oldapi 2 (which dropped it): the loop reads the
    # sources of the other lines and asks for 1.0.0, not for "a newer one if any"
    from types import SimpleNamespace

    from conftest import fixture_crate

    from depinfer.ci.repair import _version_moves
    from depinfer.context import Context, Options
    from depinfer.model import Ecosystem, Requirement
    from depinfer.registries import Registries
    from depinfer.registries.base import VersionInfo

    monkeypatch.setenv("CARGO_HOME", str(tmp_path / "cargo-home"))

    class Sources(Registries):
        def versions(self, ecosystem, name):
            return [VersionInfo(v) for v in ("1.0.0", "2.0.0", "3.0.0")]

        def download_crate(self, name, version):
            return fixture_crate(name, version)

    ctx = Context(Options(languages=("rust",)), registries=Sources(use_cache=False))
    log = "   Compiling oldapi v2.0.0\nerror[E0432]: unresolved import `oldapi::serialize`\n"
    (action,) = [a for a in diagnose(log, "rust") if a.kind == "version"]
    assert (action.name, action.member) == ("oldapi", "serialize")
    reqs = [Requirement(Ecosystem.CRATES, "oldapi", "Cargo.toml", spec="2")]
    moves = _version_moves(
        SimpleNamespace(), "rust", [action], log, tmp_path, reqs, ctx, None, None
    )
    assert moves["oldapi"][0] == "1.0.0"  # 3.0.0 is newer but has no source offering it


def test_a_method_moved_between_traits_moves_both_crates_of_the_family_down(tmp_path):
    # rand 0.10 moved `random_range` from `Rng` to `RngExt`; the quiet log names no build
    # and the reused run left no lock: the written lines are the ones built, and the trait's
    # crate and the generator's crate (the file's import of the trimmed type) both step down
    from types import SimpleNamespace

    from depinfer.ci.repair import _bind_packages, _version_moves
    from depinfer.context import Context, Options
    from depinfer.model import Ecosystem, FileKind, Requirement
    from depinfer.registries import Registries
    from depinfer.registries.base import VersionInfo

    class Lines(Registries):
        def versions(self, ecosystem, name):
            return [VersionInfo(v) for v in ("0.8.5", "0.9.2", "0.10.0", "0.10.1")]

    write_tree(tmp_path, {"src/sample.rs": "use rand::Rng;\nuse rand_chacha::ChaCha8Rng;\n"})
    log = (LOGS / "rust-method-moved-trait.log").read_text()
    actions = [a for a in diagnose(log, "rust") if a.kind == "version"]
    project = SimpleNamespace(
        root=tmp_path, files=[SimpleNamespace(path="src/sample.rs", kind=FileKind.SOURCE)]
    )
    loop = SimpleNamespace(
        project=project, scratch=tmp_path, request=SimpleNamespace(language="rust")
    )
    _bind_packages(loop, actions)
    ctx = Context(Options(languages=("rust",)), registries=Lines(use_cache=False))
    reqs = [
        Requirement(Ecosystem.CRATES, "rand", "Cargo.toml", spec="0.10.0"),
        Requirement(Ecosystem.CRATES, "rand_chacha", "Cargo.toml", spec="0.10.0"),
    ]
    moves = _version_moves(project, "rust", actions, log, tmp_path, reqs, ctx, None, None)
    assert {n: m[0] for n, m in moves.items()} == {"rand": "<0.10", "rand-chacha": "<0.10"}


def test_an_install_script_that_fails_moves_the_package_below_the_written_major(tmp_path):
    # npm removed what it unpacked: the written range says which release it took (5.1.0,
    # the newest ^5 by a date that admits none of the registry's dates), so the move is
    # to the majors before it
    from types import SimpleNamespace

    from depinfer.ci.repair import _version_moves
    from depinfer.context import Context, Options
    from depinfer.model import Ecosystem, Requirement
    from depinfer.registries import Registries
    from depinfer.registries.base import VersionInfo

    class Lines(Registries):
        def versions(self, ecosystem, name):
            when = utc_date(2024, 3)
            return [VersionInfo(v, published=when) for v in ("3.0.0", "4.2.1", "5.0.0", "5.1.0")]

    log = (LOGS / "npm-install-script-failed.log").read_text()
    actions = [a for a in diagnose(log, "javascript") if a.kind == "version"]
    ctx = Context(Options(languages=("javascript",)), registries=Lines(use_cache=False))
    reqs = [Requirement(Ecosystem.NPM, "socket-plugin", "package.json", spec="^5.0.0")]
    moves = _version_moves(
        SimpleNamespace(), "javascript", actions, log, tmp_path, reqs, ctx, "2021-09-15", None
    )
    assert moves["socket-plugin"][0] == "<5"
    assert "5.1.0 lacks it" in moves["socket-plugin"][1]


def test_cargo_refusing_a_feature_names_the_line_that_has_it():
    # cargo's resolver: the newest release of the written line (the first listed) lacks
    # the feature; the nearest other line whose index entry offers it is asked for
    from depinfer.ci.repair import rust_feature_lines
    from depinfer.context import Context, Options
    from depinfer.model import Ecosystem, Requirement
    from depinfer.registries import Registries
    from depinfer.registries.base import VersionInfo

    log = (LOGS / "rust-no-such-feature.log").read_text()
    actions = diagnose(log, "rust")
    assert [(a.kind, a.name, a.extras, a.installed) for a in actions] == [
        ("feature-line", "serde", ("derives",), "1.0.229")
    ]  # the "failed to select a version" it explains is not a conflict to relax

    def entry(version, features, deps="[]"):
        return VersionInfo(version, extra={"features": features, "deps_json": deps})

    class Index(Registries):
        def versions(self, ecosystem, name):
            return [
                entry("0.9.0", {"derives": []}),
                entry("1.0.229", {"derive": []}),
                entry("2.0.0", {}, '[{"name": "derives", "optional": true}]'),
                entry("2.1.0", {"x": ["dep:derives"]}, '[{"name": "derives", "optional": true}]'),
            ]

    ctx = Context(Options(languages=("rust",)), registries=Index(use_cache=False))
    reqs = [Requirement(Ecosystem.CRATES, "serde", "Cargo.toml", spec="1")]
    moves = rust_feature_lines(actions, reqs, ctx, None)
    # 2.x is newer; its optional dependency is an implicit feature until `dep:` hides it
    assert moves["serde"][0] == "2.0.0"


def test_a_crate_built_on_two_lines_moves_to_the_line_its_dependency_uses():
    from depinfer.ci.repair import rust_alignments
    from depinfer.model import Ecosystem, Requirement

    log = (LOGS / "rust-two-versions.log").read_text()
    actions = diagnose(log, "rust")
    reqs = [Requirement(Ecosystem.CRATES, "rand_core", "Cargo.toml", spec="0.6")]
    assert rust_alignments(actions, log, reqs)["rand-core"][0] == "0.9.5"
    old = log.replace(
        "note: there are multiple different versions of crate `rand_core` in the dependency graph",
        "help: perhaps two different versions of crate `rand_core` are being used?",
    )
    assert [(a.kind, a.name) for a in diagnose(old, "rust")] == [("align", "rand_core")]


def test_cargo_conflicts_name_the_crates_to_relax():
    from depinfer.ci.repair_names import conflict_names

    log = (LOGS / "rust-no-matching-version.log").read_text()
    (action,) = diagnose(log, "rust")
    assert conflict_names("rust", action.report) == ["serde"]
    report = (
        "error: failed to select a version for `rand_core`.\n"
        "previously selected package `rand_core v0.9.5`\n"
    )
    assert conflict_names("rust", report) == ["rand_core"]


def test_a_gated_module_an_import_names_asks_for_its_feature():
    (action,) = diagnose((LOGS / "rust-gated-import.log").read_text(), "rust")
    assert (action.kind, action.name, action.extras) == ("feature", "time", ("macros",))


def test_a_rust_type_printed_without_its_path_names_the_crate_the_file_imports_it_from(
    tmp_path,
):
    from depinfer.ci.repair import _bind_packages
    from depinfer.ci.repair_names import rust_binding_crate

    log = (LOGS / "rust-missing-method-trimmed.log").read_text()
    actions = diagnose(log, "rust")
    # the method missing on a primitive (`u64`) names no crate; the struct's does
    assert [(a.kind, a.binding, a.file) for a in actions] == [("version", "Script", "src/input.rs")]
    write_tree(
        tmp_path,
        {
            "src/input.rs": "// use other::Script;\nuse crate::util::Helper;\n"
            "use chainkit::{\n    blockdata::script::Script,\n    Sequence,\n};\n",
            "src/output.rs": "fn f() -> std::fmt::Result { let s = chainkit::x::Script::new(); }\n",
            "src/own.rs": "struct Script;\nuse crate::Script;\n",
            "src/alias.rs": "use chainkit::blockdata::script;\nfn f(i: script::Script) {}\n",
        },
    )
    assert rust_binding_crate(tmp_path, ["src/input.rs"], "Script") == "chainkit"
    assert rust_binding_crate(tmp_path, ["src/output.rs"], "Script") == "chainkit"
    assert rust_binding_crate(tmp_path, ["src/own.rs", "src/missing.rs"], "Script") is None
    assert rust_binding_crate(tmp_path, ["src/alias.rs"], "Script") == "chainkit"
    project = SimpleNamespace(
        root=tmp_path, files=[SimpleNamespace(path="src/input.rs", kind=FileKind.SOURCE)]
    )
    loop = SimpleNamespace(
        project=project, scratch=tmp_path, request=SimpleNamespace(language="rust")
    )
    _bind_packages(loop, actions)
    assert actions[0].name == "chainkit"


def test_a_rust_call_that_misfits_a_crate_definition_names_the_crate_and_release():
    (action,) = diagnose((LOGS / "rust-defined-here.log").read_text(), "rust")
    assert (action.kind, action.name, action.installed) == ("version", "tiny-http-kit", "2.1.0")
    # the error's own location inside a crate's source: not the project's code
    inside = (
        (LOGS / "rust-defined-here.log")
        .read_text()
        .replace("--> src/server.rs", "--> /root/.cargo/registry/src/idx/other-1.0.0/src/a.rs")
    )
    assert [a for a in diagnose(inside, "rust") if a.kind == "version"] == []


def test_a_rust_reference_to_a_crate_type_names_the_crate():
    log = (
        "error[E0599]: no method named `compute_txid` found for reference "
        "`&chainkit::Transaction` in the current scope\n   --> src/tx.rs:9:9\n"
    )
    assert [(a.kind, a.name) for a in diagnose(log, "rust")] == [("version", "chainkit")]


def test_a_method_a_crate_trait_does_not_declare_names_the_trait_by_the_file_import(tmp_path):
    from depinfer.ci.repair_names import rust_binding_crate

    (action,) = diagnose((LOGS / "rust-not-a-member-of-trait.log").read_text(), "rust")
    assert (action.kind, action.binding, action.file) == ("version", "Service", "src/layer.rs")
    write_tree(tmp_path, {"src/layer.rs": "use wirekit::Service;\nimpl Service<R> for L {}\n"})
    assert rust_binding_crate(tmp_path, [action.file], action.binding) == "wirekit"


def test_a_module_no_index_knows_comes_from_a_distribution_the_readme_names(tmp_path):
    """The verify loop's last provider for a missing module: a distribution the
    repository's documents name whose wheel installs it (only when online)."""
    from depinfer.ci.repair import _named_provider

    write_tree(tmp_path, {"README.md": "Requirements:\n - pytest\n - pytruth\n"})
    asked = []

    class Registries:
        def modules(self, ecosystem, name):
            asked.append(name)
            return frozenset({"truth", "truth.truth"}) if name == "pytruth" else None

    ctx = SimpleNamespace(options=SimpleNamespace(offline=False), registries=Registries())
    loop = SimpleNamespace(project=SimpleNamespace(root=tmp_path))
    assert _named_provider(loop, "truth.truth", set(), ctx) == "pytruth"
    assert asked == ["pytruth"]  # only words holding the module's name are looked up
    assert _named_provider(loop, "truth.truth", {"pytruth"}, ctx) is None  # tried already
    ctx.options.offline = True
    assert _named_provider(loop, "truth.truth", set(), ctx) is None


def test_a_moved_rust_bound_keeps_the_line_the_resolver_pinned():
    """`pyo3 >= 0.26.0` (0.25 lacks `Python::attach`), with 0.26 the newest line by the
    date: the entry stays `0.26.0`, which Cargo reads as ^0.26.0; written as the bound it
    would take the newest line of all (0.30, where `downcast` is gone). A pin outside the
    bound's lines still gives way to the bound."""
    from types import SimpleNamespace

    from depinfer.ci.repair import _overrides
    from depinfer.model import Ecosystem, Requirement

    reqs = [
        Requirement(Ecosystem.CRATES, "pyo3", "Cargo.toml", spec="0.26.0"),
        Requirement(Ecosystem.CRATES, "rand", "Cargo.toml", spec="0.8.5"),
        Requirement(Ecosystem.PYPI, "numpy", "pyproject.toml", spec=">=1.0"),
    ]
    loop = SimpleNamespace(
        bounds={
            "pyo3": (">=0.26.0", "pyo3 0.25.1 lacks it"),
            "rand": (">=0.9.0", "rand 0.8.5 lacks it"),
            "numpy": ("<2", "numpy 2.0 lacks it"),
        },
        relaxed={},
        dropped={},
        placed={},
        extras={},
    )
    out = _overrides(loop, reqs)
    assert [(r.name, r.spec) for r in out] == [
        ("pyo3", "0.26.0"),
        ("rand", ">=0.9.0"),
        ("numpy", "<2"),
    ]
    assert all(any(e.rule == "repair" for e in r.evidence) for r in out)


@pytest.mark.parametrize(
    ("log", "binding", "file"),
    [
        ("python-unexpected-keyword.log", "Table", "report/render.py"),
        ("python-pydantic-extra-forbidden.log", "Settings", "weather/station.py"),
    ],
)
def test_a_python_call_an_installed_release_rejects_moves_the_package_it_imports(
    tmp_path, log, binding, file
):
    # the message names the class the project called (`Table._setup()`, `… for Settings`);
    # the innermost frame of the project's own code (not the installed package's) imports it
    from depinfer.ci.repair import _bind_packages, _version_moves
    from depinfer.context import Context, Options
    from depinfer.model import Ecosystem, Requirement, Section
    from depinfer.pipeline import stage
    from depinfer.scan import scan

    actions = diagnose((LOGS / log).read_text(), "python")
    assert [(a.kind, a.binding, a.file) for a in actions] == [("version", binding, file)]
    package = "tablekit" if binding == "Table" else "wxsettings"
    write_tree(
        tmp_path,
        {
            "pyproject.toml": '[project]\nname = "pkg"\nversion = "0"\n',
            file: f"import os\nfrom {package}.core import {binding} as {binding}\n",
        },
    )
    project = scan(tmp_path)
    loop = SimpleNamespace(
        project=project, scratch=tmp_path, request=SimpleNamespace(language="python")
    )
    _bind_packages(loop, actions)
    assert actions[0].name == f"{package}.core"
    ctx = Context(Options(offline=True), _Versions({package: ["0.95.1", "0.113.0", "0.114.0"]}))
    reqs = [Requirement(Ecosystem.PYPI, package, "pyproject.toml", Section.RUNTIME, spec=">=0.114")]
    log_text = f"Successfully installed {package}-0.114.0\n"
    moves = _version_moves(
        project, "python", actions, log_text, tmp_path, reqs, ctx, None, stage("mapping", "python")
    )
    assert moves[package][0] == "<0.114"


def test_a_python_call_into_the_projects_own_or_the_standard_librarys_code_is_a_stop(tmp_path):
    from depinfer.ci.repair import _bind_packages
    from depinfer.ci.repair_names import python_binding_module
    from depinfer.scan import scan

    write_tree(
        tmp_path,
        {
            "report/render.py": "from .table import Table\nimport json as js\nimport a.b\n",
            "report/table.py": "class Table: pass\n",
        },
    )
    assert python_binding_module(tmp_path, "report/render.py", "Table") is None  # relative
    assert python_binding_module(tmp_path, "report/render.py", "js.loads") == "json"
    assert python_binding_module(tmp_path, "report/render.py", "a.b.C") == "a"
    assert python_binding_module(tmp_path, "report/missing.py", "Table") is None
    loop = SimpleNamespace(
        project=scan(tmp_path), scratch=tmp_path, request=SimpleNamespace(language="python")
    )
    actions = diagnose((LOGS / "python-unexpected-keyword.log").read_text(), "python")
    _bind_packages(loop, actions)
    assert actions[0].kind == "stop" and "not a dependency problem" in actions[0].why
    stdlib = diagnose("E   TypeError: js() got an unexpected keyword argument 'x'\n", "python")
    _bind_packages(loop, stdlib)  # no frame of the project's: nothing imports it there
    assert stdlib[0].kind == "stop"


class _Wheels(_Versions):
    """Registry answers for the line search: which releases' wheels have the name."""

    def __init__(self, versions, having):
        super().__init__(versions)
        self.having, self.read = having, []

    def mentions(self, ecosystem, name, version, identifier):
        self.read.append(version)
        return version in self.having


@pytest.mark.parametrize(
    ("having", "direction", "expected"),
    [
        # a keyword removed after 0.95: the newest older line that still takes it
        ({f"0.{m}.1" for m in range(80, 96)}, "auto", (">=0.95,<0.96", "0.95.1")),
        # a name added in 0.116 (after the installed line): the oldest newer line
        ({"0.116.1", "0.117.1"}, "auto", (">=0.116.0", "0.116.1")),
        ({"0.116.1", "0.117.1"}, "down", "NO_LINE"),  # only older lines are asked for
        (set(), "auto", "NO_LINE"),  # no line has it (a member's plain move then stands)
    ],
)
def test_a_python_version_move_reads_a_few_wheels_for_the_line_with_the_name(
    having, direction, expected
):
    from depinfer.ci.repair import WHEELS_READ, python_line_with
    from depinfer.context import Context, Options

    if expected == "NO_LINE":
        from depinfer.ci.repair import NO_LINE as expected
    versions = [f"0.{m}.{p}" for m in range(60, 118) for p in (0, 1)]
    ctx = Context(Options(offline=True), _Wheels({"wx": versions}, having))
    releases = [(tuple(int(x) for x in v.split(".")), v) for v in versions]
    got = python_line_with("wx", "ts_si_units", (0, 114, 1), releases, direction, ctx)
    assert got == expected
    assert len(ctx.registries.read) <= WHEELS_READ


class _Files(_Versions):
    """Registry answers for a module search: the modules each release's wheel installs."""

    def __init__(self, versions, shipping):
        super().__init__(versions)
        self.shipping, self.read = shipping, []

    def modules(self, ecosystem, name, version=None):
        self.read.append(version)
        return frozenset(
            {"kit", "kit.io"} | ({"kit.legacy"} if version in self.shipping else set())
        )


@pytest.mark.parametrize(
    ("shipping", "expected"),
    [
        # a module the 1.x line removed: the newest older line that still ships it
        ({"0.9.2", "0.8.2"}, (">=0.9,<0.10", "0.9.2")),
        # a module only 3.x ships: the oldest newer line that has it
        ({"3.0.2"}, (">=3.0.0", "3.0.2")),
        # no line ships it: no move (before, the loop moved down a major, then back up)
        (set(), None),
    ],
)
def test_a_module_the_installed_release_does_not_ship_moves_to_a_line_that_does(
    tmp_path, shipping, expected
):
    """`No module named 'kit.legacy'` with kit 2.0.1 installed: the written distribution's
    wheels (file lists only) say which line ships the module; none does: nothing to move."""
    from depinfer.ci.repair import Action, _version_moves
    from depinfer.context import Context, Options
    from depinfer.model import Ecosystem, Requirement, Section
    from depinfer.pipeline import stage
    from depinfer.scan import scan

    write_tree(
        tmp_path,
        {
            "pyproject.toml": '[project]\nname = "pkg"\nversion = "0"\n',
            "pkg/__init__.py": "import kit.legacy\n",
        },
    )
    versions = ["0.8.2", "0.9.1", "0.9.2", "1.0.0", "2.0.1", "3.0.0", "3.0.2"]
    ctx = Context(Options(offline=True), _Files({"kit": versions}, shipping))
    reqs = [Requirement(Ecosystem.PYPI, "kit", "pyproject.toml", Section.RUNTIME, spec=">=2")]
    why = "its distribution is written, so the installed release lacks the module"
    action = Action(
        "version", "kit.legacy", why, "E   No module named 'kit.legacy'", "pkg/__init__.py"
    )
    action.module = "kit.legacy"
    moves = _version_moves(
        scan(tmp_path), "python", [action], "Successfully installed kit-2.0.1\n", tmp_path,
        reqs, ctx, None, stage("mapping", "python"),
    )  # fmt: skip
    if expected is None:
        assert moves == {}
    else:
        spec, reason = moves["kit"]
        assert spec == expected[0]
        assert f"{expected[1]} ships `kit.legacy`" in reason
    assert len(ctx.registries.read) <= 4  # file lists of a few releases, not every one


def test_a_submodule_another_line_ships_is_a_version_move_before_another_provider(tmp_path):
    """`No module named 'kit.legacy'` while kit 2.0.1 is installed: when an older line of
    kit ships it, the loop moves kit's line instead of trying the next distribution the
    index names for `kit`; offline, or when no line ships it, it does not."""
    from depinfer.ci.repair import _written_line_shipping
    from depinfer.context import Context, Options
    from depinfer.model import Candidate, Ecosystem

    versions = ["0.9.2", "1.0.0", "2.0.1"]
    loop = SimpleNamespace(request=SimpleNamespace(language="python"), scratch=tmp_path, as_of=None)
    written = [Candidate(Ecosystem.PYPI, "kit", "pyproject.toml")]
    log = "Successfully installed kit-2.0.1\n"
    ctx = Context(Options(offline=False), _Files({"kit": versions}, {"0.9.2"}))
    assert _written_line_shipping(loop, written, "kit.legacy", log, ctx) == "kit 0.9.2"
    ctx = Context(Options(offline=False), _Files({"kit": versions}, set()))
    assert _written_line_shipping(loop, written, "kit.legacy", log, ctx) is None
    ctx = Context(Options(offline=True), _Files({"kit": versions}, {"0.9.2"}))
    assert _written_line_shipping(loop, written, "kit.legacy", log, ctx) is None


def test_a_wheel_mentions_a_name_as_a_word_of_its_python_files(tmp_path):
    import io
    import zipfile

    from depinfer.registries.wheel_files import mentions

    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("wx/settings.py", "class Settings:\n    ts_si_units: bool = True\n")
        z.writestr("wx-0.95.1.dist-info/METADATA", "Name: wx\nts_humanize\n")
    wheel = buf.getvalue()
    assert mentions(wheel, "ts_si_units") is True
    assert mentions(wheel, "si_units") is False  # a word, not a part of one
    assert mentions(wheel, "ts_humanize") is False  # only Python files count
    assert mentions(b"not a zip", "x") is None
