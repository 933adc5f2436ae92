"""Run a `Plan` in a scratch copy: fresh environment, per-step timeouts, one log per run.

Nothing runs in the user's tree: callers pass a directory they own (a copy). Per-test
outcomes are parsed from the runners' own output so a run can be judged relative to a
baseline (the gold manifests' run) as well as by its exit code.
"""

from __future__ import annotations

import atexit
import os
import re
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path

from depinfer.ci.plan import Plan, pyenv_pythons
from depinfer.ci.workflow import is_install_command
from depinfer.resolvers.python_versions import find_uv

STEP_TIMEOUT = 900  # seconds per install/test step


@dataclass
class RunResult:
    status: str  # passed | failed | install-failed | timeout | not-run
    outcomes: dict[str, str] = field(default_factory=dict)  # test id -> passed/failed/skipped
    log: str = ""
    seconds: float = 0.0
    failed_step: str | None = None

    @property
    def passed(self) -> bool:
        return self.status == "passed"

    def strict(self) -> RunResult:
        """This run as the CI judges it: a passing run in which the job's own install of the
        written manifests failed (a best-effort step, continued past) did not pass — the CI
        stops there. The log keeps the failing step's output for the repair to read."""
        if not self.passed:
            return self
        m = _WRITTEN_FAILED.search(self.log)
        if m is None:
            return self
        return replace(self, status="install-failed", failed_step=m.group(1))

    def relative_pass(self, baseline: RunResult) -> bool | None:
        """Every test that passed in the baseline passes here too (None: nothing to compare)."""
        good = {t for t, o in baseline.outcomes.items() if o == "passed"}
        if not good:
            return None
        return all(self.outcomes.get(t) == "passed" for t in good)


# the marker `_run_steps` logs when the job's install of the written manifests fails
WRITTEN_FAILED = "[the job's install of the written manifests failed: {}; continuing]"
_WRITTEN_FAILED = re.compile(
    r"^\[the job's install of the written manifests failed: (.*); continuing\]$", re.M
)
_PYTEST = re.compile(
    r"^(PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS) (\S+)", re.M
)  # one space: not a log record
_CARGO = re.compile(r"^test (\S+) \.\.\. (ok|FAILED|ignored)", re.M)
_TAP = re.compile(r"^\s*(not ok|ok) \d+ - (.+?)(?:\s+#.*)?$", re.M)
# Spec-style reporters (mocha, jest, vitest, node --test): a check or a cross before the name.
_PASS_MARKS = ("✓", "✔", "√")
_MARKS = (*_PASS_MARKS, "✕", "✗", "✖", "×")
_MARKED = re.compile(rf"^\s*([{''.join(_MARKS)}])\s+(.+?)(?:\s+\(\d+(?:\.\d+)?\s*m?s\))?\s*$", re.M)
# vitest's default (non-TTY) reporter: a line per test file, `✓ src/a.test.ts (7 tests) 2006ms`,
# and under it, indented, only the tests slower than `slowTestThreshold` (300 ms by default;
# vitest.dev/config, slowTestThreshold) and the failed ones
_VITEST_FILE = re.compile(r"^\s*\S+\s+\S.*?\s\(\d+ tests?(?: \| [^)]*)?\)")
_UNITTEST = re.compile(r"^(\w+) \(([\w.]+)\)[^\n]*? \.\.\. (ok|FAIL|ERROR|skipped)", re.M)


_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def parse_outcomes(output: str, root: Path | str | None = None) -> dict[str, str]:
    """Test id → passed/failed/skipped. Ids are made relative to `root` (the tree the run
    used) so runs in different scratch copies compare."""
    output = _ANSI.sub("", output)  # colour codes would hide the marks and names
    output = _without_installs(output)
    if root:
        for prefix in {str(root), str(Path(root).resolve())}:
            output = output.replace(prefix.rstrip("/") + "/", "")
    out: dict[str, str] = {}
    for status, test in _PYTEST.findall(output):
        out[test] = {
            "PASSED": "passed",
            "XFAIL": "passed",
            "XPASS": "passed",
            "SKIPPED": "skipped",
        }.get(status, "failed")
    for test, status in _CARGO.findall(output):
        out[test] = {"ok": "passed", "ignored": "skipped"}.get(status, "failed")
    for status, test in _TAP.findall(output):
        out.setdefault(test, "passed" if status == "ok" else "failed")
    slow = _vitest_slow_lines(output)
    for m in _MARKED.finditer(output):
        mark, test = m.group(1), m.group(2)
        if m.start(1) in slow:
            continue
        # vitest's per-file lines carry a count and a duration: the file is the test id
        test = re.sub(r"\s+\(\d+ tests?[^)]*\).*$|\s+\d+(?:\.\d+)?\s*m?s$", "", test)
        out.setdefault(test, "passed" if mark in _PASS_MARKS else "failed")
    for name, cls, status in _UNITTEST.findall(output):
        out[f"{cls}.{name}"] = {"ok": "passed", "skipped": "skipped"}.get(status, "failed")
    return out


def _without_installs(output: str) -> str:
    """The log without what its install commands printed (the runner writes `$ command`
    before each): pnpm's `✓ Lockfile passes supply-chain policies` reads like a passing
    test, and only a run installing from a lock file prints it."""
    kept: list[str] = []
    skipping = False
    for line in output.splitlines(keepends=True):
        if line.startswith("$ "):
            skipping = is_install_command(line)
        if not skipping:
            kept.append(line)
    return "".join(kept)


def _vitest_slow_lines(output: str) -> set[int]:
    """Where the passing tests listed under a passing vitest file line start: vitest names
    those only when they ran slower than its threshold, so whether one shows up is timing
    (the file line stands for them; a failed test or a failing file's lines are kept)."""
    slow: set[int] = set()
    under: int | None = None  # the indent of the passing file line above, while under it
    pos = 0
    for line in output.splitlines(keepends=True):
        body = line.lstrip()
        indent = len(line) - len(body)
        if _VITEST_FILE.search(line):
            under = indent if body.startswith(_PASS_MARKS) else None
        elif under is not None and body.strip():
            if indent <= under or not body.startswith(_MARKS):
                under = None  # the file's block ends: back at its indent, or other output
            elif body.startswith(_PASS_MARKS):
                slow.add(pos + indent)
        pos += len(line)
    return slow


# pytest reads these from the environment wherever it is started (directly, from a script, from
# tox commands): a line per test outcome. A module that cannot be imported still interrupts
# the session, as it does in CI: its error names the missing package at once, where running
# the rest first can hang on tests that need it and hide the error behind a timeout.
PYTEST_REPORTS = "-rA"


def _with_reports(cmd: str) -> str:
    """Ask runners for per-test lines without changing what they run."""
    if re.search(r"\bcargo test\b", cmd) and "--no-fail-fast" not in cmd:
        # every test binary runs (not only those before the first failure): the same tests,
        # all of their outcomes
        return re.sub(r"\bcargo test\b", "cargo test --no-fail-fast", cmd, count=1)
    if re.search(r"python -m unittest\b", cmd) and " -v" not in cmd:
        return cmd + " -v"
    return cmd


def _kill_tree(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        proc.kill()
    proc.wait()


def run_plan(
    plan: Plan, workdir: Path, log_path: Path | None = None, step_timeout: int = STEP_TIMEOUT
) -> RunResult:
    start = time.monotonic()
    env = _plan_env(plan, workdir)
    log: list[str] = []

    here = workdir / plan.subdir if plan.subdir and (workdir / plan.subdir).is_dir() else workdir

    def run(cmd: list[str] | str) -> int | None:
        # setup builds the environment at the top; the job's lines run where the job runs them
        return _run_step(cmd, workdir if isinstance(cmd, list) else here, env, step_timeout, log)

    result = RunResult("not-run")
    _run_steps(plan, run, log, result)
    result.log = "\n".join(log)
    result.outcomes = parse_outcomes(result.log, workdir)
    result.seconds = time.monotonic() - start
    if log_path is not None:
        log_path.parent.mkdir(parents=True, exist_ok=True)
        log_path.write_text(result.log, encoding="utf-8")
    return result


def _plan_env(plan: Plan, workdir: Path) -> dict[str, str]:
    """The steps' environment: the plan's variables, and for Python the fresh virtual
    environment in `workdir` first on PATH (none of the caller's)."""
    env = {**os.environ, **plan.env}
    env.pop("VIRTUAL_ENV", None)
    env.pop("PYTHONPATH", None)
    if plan.language == "python":
        env["PYTEST_ADDOPTS"] = (PYTEST_REPORTS + " " + env.get("PYTEST_ADDOPTS", "")).strip()
    venv = workdir / ".venv"
    if plan.language == "python":
        env["VIRTUAL_ENV"] = str(venv)
        # the steps call `uv` by name: the real one, next after the environment's own
        # programs. A PATH entry is often a version manager's shim, which looks uv up in the
        # Python a checkout's `.python-version` names and fails there ("uv: command not
        # found" under pyenv, for every repository that pins another Python)
        uv = _uv_alone()
        ours = [str(venv / "bin")] + ([uv] if uv else [])
        env["PATH"] = os.pathsep.join([*ours, env.get("PATH", "")])
        env["UV_PYTHON"] = str(venv / "bin" / "python")
    if plan.path_python:  # tools that look interpreters up by name (nox, tox) find ours
        dirs = sorted({str(Path(exe).parent) for exe in pyenv_pythons().values()})
        env["PATH"] = os.pathsep.join([env["PATH"], *dirs])
    return env


@lru_cache(maxsize=1)
def _uv_alone() -> str | None:
    """A folder holding only a link to the uv depinfer uses. Not uv's own folder: that is
    often depinfer's virtual environment, whose python and pytest must not stand in for
    programs the checkout's environment lacks. Removed when the process ends."""
    uv = find_uv()
    if not uv:
        return None
    folder = tempfile.mkdtemp(prefix="depinfer-uv-")
    try:
        os.symlink(uv, os.path.join(folder, "uv"))
    except OSError:  # no links here: uv's own folder, as the next best
        shutil.rmtree(folder, ignore_errors=True)
        return str(Path(uv).parent)
    atexit.register(shutil.rmtree, folder, True)
    return folder


def _run_step(
    cmd: list[str] | str, workdir: Path, env: dict[str, str], step_timeout: int, log: list[str]
) -> int | None:
    """Run one step, its output appended to `log`; its exit code, None on timeout."""
    log.append(f"$ {cmd if isinstance(cmd, str) else ' '.join(cmd)}")
    try:
        # a session of its own: on timeout the whole tree goes (test workers, servers)
        proc = subprocess.Popen(
            cmd,
            cwd=workdir,
            env=env,
            shell=isinstance(cmd, str),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            errors="replace",
            stdin=subprocess.DEVNULL,
            executable="/bin/bash" if isinstance(cmd, str) else None,
            start_new_session=True,
        )
    except OSError as exc:
        log.append(f"[cannot run: {exc}]")
        return 127
    try:
        stdout, stderr = proc.communicate(timeout=step_timeout)
    except subprocess.TimeoutExpired:
        _kill_tree(proc)
        stdout, stderr = proc.communicate()
        log.append(f"[timeout after {step_timeout}s]")
        log.append((stdout or "")[-2_000_000:])
        log.append((stderr or "")[-50000:])
        return None
    finally:
        _kill_tree(proc)  # whatever the step left running in its session goes too
    log.append(stdout[-2_000_000:])
    log.append(stderr[-50000:])
    log.append(f"[exit {proc.returncode}]")
    return proc.returncode


def _run_steps(
    plan: Plan, run: Callable[[list[str] | str], int | None], log: list[str], result: RunResult
) -> None:
    """Setup, install and test steps in order, until one fails; sets the result's status."""
    for cmd in plan.setup:
        if run(cmd) != 0:
            result.status, result.failed_step = "install-failed", " ".join(cmd)
            return
    for line in plan.install:
        code = run(line)
        if code != 0 and line in plan.installs_written:
            log.append(WRITTEN_FAILED.format(line))
            continue
        if code != 0 and line in plan.best_effort:
            log.append("[a step the job adds failed; continuing with the manifest's install]")
            continue
        if code != 0:
            result.status = "timeout" if code is None else "install-failed"
            result.failed_step = line
            return
    result.status = "passed"
    for line in plan.test:
        code = run(_with_reports(line))
        if code != 0:
            result.status = "timeout" if code is None else "failed"
            result.failed_step = line
            return


# git's identity for the scratch commit, given on the command line: no user config needed
_GIT_IDENTITY = ["-c", "user.name=depinfer", "-c", "user.email=depinfer@localhost"]


def make_checkout(root: Path, timeout: int = 300) -> str | None:
    """Make the scratch copy `root` a git checkout of itself (init, add, one commit): version
    plug-ins (setuptools-scm, versioneer) and tests that ask git need one, as in CI. None when
    done, else why not (no git, a step failed): the run goes on without it."""
    steps = [
        ["git", "init", "-q"],
        ["git", "add", "-A"],
        ["git", *_GIT_IDENTITY, "-c", "commit.gpgsign=false", "commit", "-q", "--no-verify",
         "--allow-empty", "-m", "scratch copy"],
    ]  # fmt: skip
    for cmd in steps:
        try:
            done = subprocess.run(
                cmd, cwd=root, capture_output=True, text=True, timeout=timeout, check=False
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            return f"{' '.join(cmd[:2])}: {exc}"
        if done.returncode != 0:
            return f"{' '.join(cmd[:2])}: {(done.stderr or done.stdout).strip()[:200]}"
    return None
