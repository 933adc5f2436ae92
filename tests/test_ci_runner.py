"""CI runner: a plan's steps run in order with a log and a time limit, and the test
outcomes parsed from what the test tools print."""

import os

from depinfer.ci.plan import Plan
from depinfer.ci.runner import RunResult, parse_outcomes, run_plan


def test_outcomes_parsed_from_pytest_cargo_and_tap():
    out = parse_outcomes(
        "PASSED tests/test_a.py::test_one\nFAILED tests/test_a.py::test_two - assert\n"
        "test parse::works ... ok\ntest parse::breaks ... FAILED\nok 1 - adds numbers\nnot ok 2 - subtracts\n"
    )
    assert out == {
        "tests/test_a.py::test_one": "passed",
        "tests/test_a.py::test_two": "failed",
        "parse::works": "passed",
        "parse::breaks": "failed",
        "adds numbers": "passed",
        "subtracts": "failed",
    }


def test_outcomes_parsed_from_spec_reporters_and_not_from_log_records():
    out = parse_outcomes(
        "  parser\n    ✔ reads flags (12ms)\n    ✕ rejects junk (3 ms)\n✖ node test (1.5ms)\n"
        "ERROR    app:app.py:962 Exception on / [GET]\nERROR tests/test_x.py\n"
        " \x1b[32m✓\x1b[39m tests/cli.test.ts \x1b[2m (11 tests)\x1b[22m 145ms\n"
    )
    assert out == {
        "reads flags": "passed",
        "rejects junk": "failed",
        "node test": "failed",
        "tests/test_x.py": "failed",
        "tests/cli.test.ts": "passed",
    }


def test_outcome_ids_are_relative_to_the_tree_that_ran():
    out = parse_outcomes("✔ /tmp/a/repo/test/x.test.js (3ms)\n", "/tmp/a/repo")
    assert out == {"test/x.test.js": "passed"}


def test_relative_verdict_compares_with_baseline():
    gold = RunResult("failed", {"a": "passed", "b": "failed"})
    assert RunResult("failed", {"a": "passed", "b": "failed"}).relative_pass(gold) is True
    assert RunResult("failed", {"a": "failed"}).relative_pass(gold) is False
    assert RunResult("failed").relative_pass(RunResult("failed")) is None


def test_run_plan_stops_at_failed_install_and_logs(tmp_path):
    plan = Plan("other", None, install=["echo installing", "exit 3"], test=["echo never"])
    result = run_plan(plan, tmp_path, tmp_path / "log.txt")
    assert result.status == "install-failed" and result.failed_step == "exit 3"
    assert "never" not in (tmp_path / "log.txt").read_text()


def test_python_steps_call_the_real_uv_whatever_shim_comes_first(tmp_path, monkeypatch):
    # a version manager's shim first on PATH fails where the checkout pins another Python
    shims = tmp_path / "shims"
    shims.mkdir()
    (shims / "uv").write_text("#!/bin/sh\necho 'pyenv: uv: command not found' >&2\nexit 127\n")
    (shims / "uv").chmod(0o755)
    monkeypatch.setenv("PATH", f"{shims}{os.pathsep}{os.environ.get('PATH', '')}")
    work = tmp_path / "checkout"
    work.mkdir()
    result = run_plan(Plan("python", None, test=["uv --version"]), work, tmp_path / "log.txt")
    assert "command not found" not in (tmp_path / "log.txt").read_text()
    assert result.status == "passed"
    # uv alone: not the folder it lives in (depinfer's own environment, with its python
    # and pytest, must not stand in for what the checkout's environment lacks)
    from depinfer.ci.runner import _plan_env

    path = _plan_env(Plan("python", None), work)["PATH"].split(os.pathsep)
    assert path[0] == str(work / ".venv" / "bin")
    assert sorted(os.listdir(path[1])) == ["uv"]


def test_run_plan_times_out_per_step(tmp_path):
    result = run_plan(Plan("other", None, test=["sleep 5"]), tmp_path, step_timeout=1)
    assert result.status == "timeout"


def test_run_plan_passes_and_collects_outcomes(tmp_path):
    plan = Plan("other", None, test=["printf 'ok 1 - works\\n'"])
    result = run_plan(plan, tmp_path)
    assert result.passed and result.outcomes == {"works": "passed"}


def test_a_failing_install_line_from_the_job_is_not_fatal(tmp_path):
    plan = Plan("other", None, install=["exit 4", "echo ok"], test=["echo tested"])
    plan.best_effort.add("exit 4")
    result = run_plan(plan, tmp_path)
    assert result.passed and "continuing" in result.log


def test_cargo_runs_every_test_binary():
    from depinfer.ci.runner import _with_reports

    assert _with_reports("cargo test --workspace -- --test-threads 1") == (
        "cargo test --no-fail-fast --workspace -- --test-threads 1"
    )
    assert _with_reports("cargo test --no-fail-fast") == "cargo test --no-fail-fast"


def test_a_failing_install_of_the_written_manifests_is_a_failure_when_judged_as_ci(tmp_path):
    plan = Plan("other", None, install=["exit 4", "echo ok"], test=["echo tested"])
    plan.best_effort.add("exit 4")
    plan.installs_written.add("exit 4")
    result = run_plan(plan, tmp_path)
    assert result.passed  # the run itself goes on (the benchmark's runs are unchanged) …
    strict = result.strict()  # … but the CI stops there, and so does verify
    assert (strict.status, strict.failed_step) == ("install-failed", "exit 4")
    assert "[exit 4]" in strict.log


def test_the_scratch_copy_becomes_a_git_checkout(tmp_path):
    import shutil
    import subprocess

    from depinfer.ci.runner import make_checkout

    if shutil.which("git") is None:
        return
    (tmp_path / "a.py").write_text("x = 1\n")
    assert make_checkout(tmp_path) is None
    head = subprocess.run(
        ["git", "ls-files"], cwd=tmp_path, capture_output=True, text=True, check=True
    )
    assert head.stdout.split() == ["a.py"]


def test_vitest_slow_test_lines_under_a_passing_file_do_not_count_as_tests():
    # vitest's default reporter lists a passing file's tests only when they ran slower than
    # its threshold: one run names "renders the button" (319ms), the next does not (290ms)
    slow = (
        " ✓ src/app/layout.test.tsx (7 tests) 2006ms\n"
        "     ✓ logo links to the page  967ms\n"
        "     ✓ renders the button  319ms\n"
        " ✓ src/app/login.test.tsx (1 test) 2ms\n"
    )
    quick = (
        " ✓ src/app/layout.test.tsx (7 tests) 1804ms\n"
        "     ✓ logo links to the page  985ms\n"
        " ✓ src/app/login.test.tsx (1 test) 18ms\n"
    )
    gold = RunResult("passed", parse_outcomes(slow))
    assert gold.outcomes == {
        "src/app/layout.test.tsx": "passed",
        "src/app/login.test.tsx": "passed",
    }
    assert RunResult("passed", parse_outcomes(quick)).relative_pass(gold) is True


def test_vitest_failed_tests_and_a_failing_file_s_lines_still_count():
    out = parse_outcomes(
        " ❯ src/a.test.ts (3 tests | 1 failed) 40ms\n"
        "     ✓ adds  12ms\n"
        "     × subtracts 3ms\n"
        " ✓ src/b.test.ts (2 tests) 5ms\n"
        "   parser\n"
        "     ✔ reads flags (12ms)\n"
    )
    assert out["adds"] == "passed" and out["subtracts"] == "failed"
    assert out["src/b.test.ts"] == "passed" and "src/a.test.ts" not in out
    # a spec reporter's block after the file line is no longer under it (its indent is back)
    assert out["reads flags"] == "passed"


def test_what_an_install_prints_is_no_test_outcome():
    log = (
        "$ pnpm install --no-frozen-lockfile\n"
        "✓ Lockfile passes supply-chain policies (1545 entries in 17.1s)\n"
        "[exit 0]\n"
        "$ pnpm test\n"
        " ✓ src/a.test.ts (2 tests) 5ms\n"
        "[exit 0]\n"
    )
    assert parse_outcomes(log) == {"src/a.test.ts": "passed"}
