"""Local CI runner shared by verify mode and the benchmark: find the repository's test job,
build a fresh environment from its (inferred) manifests, run it, parse per-test outcomes."""

from __future__ import annotations

import re
from difflib import SequenceMatcher
from pathlib import Path

from depinfer.ci.plan import Plan, make_plan
from depinfer.ci.runner import RunResult, run_plan
from depinfer.ci.workflow import TestJob, command_language, logical_lines, read_workflows
from depinfer.model import Diagnostic
from depinfer.scan import scan

__all__ = ["Plan", "RunResult", "TestJob", "plan_for", "run_tests"]


def plan_for(
    root: Path,
    language: str,
    test_cmd: str | None = None,
    runtime: str | None = None,
    diagnostics: list[Diagnostic] | None = None,
    strict: bool = False,
) -> Plan | None:
    project = scan(root)
    jobs = read_workflows(
        project.root, project.ci_files, diagnostics if diagnostics is not None else []
    )
    job = pick_job(jobs, test_cmd, language)
    return make_plan(project, language, job, test_cmd, runtime, strict)


def _runs_other_language(job: TestJob, language: str) -> bool:
    """Every test line the job has runs another ecosystem's tests: a repository's pytest job
    is not its JavaScript front end's test job."""
    langs = {command_language(ln) for s in job.steps for ln in logical_lines(s.run or "")}
    langs.discard(None)
    return bool(langs) and language not in langs


def pick_job(
    jobs: list[TestJob], test_cmd: str | None, language: str | None = None
) -> TestJob | None:
    """The best-scored test job of the language (when another ecosystem's jobs are all the
    workflows have, the best of those); with a known test command, the job whose run line is
    most like it (a workflow often has unit, integration and coverage jobs running the same
    tool)."""
    if language:
        own = [j for j in jobs if not _runs_other_language(j, language)]
        jobs = own or jobs
    if not jobs:
        return None
    if not test_cmd:
        return jobs[0]

    def likeness(job: TestJob) -> float:
        lines = [ln.strip() for s in job.steps for ln in logical_lines(s.run or "")]
        return max((SequenceMatcher(None, test_cmd, ln).ratio() for ln in lines), default=0.0)

    return max(jobs, key=lambda j: (round(likeness(j), 2), j.score))


def exclude_newer_env(language: str, as_of: str) -> dict[str, str]:
    """The package managers' own "nothing newer than" setting: uv's exclude-newer (npm's is
    a flag: `with_npm_before`; cargo has none, its runs take what the requirements allow)."""
    if language == "python":
        return {"UV_EXCLUDE_NEWER": as_of}
    return {}


_NPM_INSTALL = re.compile(r"^npm (?:install|i|ci)\b(?!.*--before)")


def with_npm_before(line: str, as_of: str) -> str:
    """`npm install` limited to releases published by `as_of` (npm's `--before`), so a
    snapshot's unlocked tooling (linters whose newer rules fail the job) is the one of its
    time; when the registry serves no publish times (some mirrors: ETARGET), the plain
    install runs last."""
    if not _NPM_INSTALL.match(line.strip()) or "&&" in line or "||" in line:
        return line
    # the instant, not the day: a release published that morning is older than the snapshot.
    # When the project's own lifecycle scripts stop the install (`prepare: husky install`
    # needs hook folders a source snapshot may lack), the same install without scripts.
    before = f"{line} --before={as_of}"
    return f"{before} || {before} --ignore-scripts || {line}"


def run_tests(
    root: Path,
    language: str,
    test_cmd: str | None = None,
    runtime: str | None = None,
    log_path: Path | None = None,
    step_timeout: int = 900,
    as_of: str | None = None,
    env: dict[str, str] | None = None,
    strict: bool = False,
) -> RunResult:
    """Run the repository's tests in `root` (a scratch copy the caller owns).

    `as_of` (an ISO date or timestamp) keeps the package managers to releases published by
    then, so a snapshot of a repository is tested with the packages of its time. `env`:
    variables the steps get besides the plan's (the verify loop's test selection). `strict`:
    install exactly as the job does (`make_plan`), as verify does."""
    plan = plan_for(root, language, test_cmd, runtime, strict=strict)
    if plan is None:
        return RunResult("not-run", log=f"no local runner for {language}")
    plan.env.update(env or {})
    if as_of:
        plan.env.update(exclude_newer_env(language, as_of))
        if language == "javascript":
            plan.install = [with_npm_before(line, as_of) for line in plan.install]
    return run_plan(plan, Path(root), log_path, step_timeout)
