"""Local CI runner shared by verify mode and the benchmark: find the repository's test job,
build a fresh environment from its (inferred) manifests, run it, parse per-test outcomes."""

from __future__ import annotations

from difflib import SequenceMatcher
from pathlib import Path

from depinfer.ci.plan import Plan, make_plan
from depinfer.ci.runner import RunResult, run_plan
from depinfer.ci.workflow import TestJob, read_workflows
from depinfer.model import Diagnostic
from depinfer.scan import scan

__all__ = ["Plan", "RunResult", "TestJob", "plan_for", "run_tests"]


def plan_for(
    root: Path,
    language: str,
    test_cmd: str | None = None,
    runtime: str | None = None,
    diagnostics: list[Diagnostic] | None = None,
) -> Plan | None:
    project = scan(root)
    jobs = read_workflows(
        project.root, project.ci_files, diagnostics if diagnostics is not None else []
    )
    return make_plan(project, language, pick_job(jobs, test_cmd), test_cmd, runtime)


def pick_job(jobs: list[TestJob], test_cmd: str | None) -> TestJob | None:
    """The best-scored test job; with a known test command, the job whose run line is most
    like it (a workflow often has unit, integration and coverage jobs running the same tool)."""
    if not jobs:
        return None
    if not test_cmd:
        return jobs[0]

    def likeness(job: TestJob) -> float:
        lines = [ln.strip() for s in job.steps for ln in (s.run or "").splitlines()]
        return max((SequenceMatcher(None, test_cmd, ln).ratio() for ln in lines), default=0.0)

    return max(jobs, key=lambda j: (round(likeness(j), 2), j.score))


def exclude_newer_env(language: str, as_of: str) -> dict[str, str]:
    """The package managers' own "nothing newer than" setting: uv's exclude-newer. npm's
    `before` is not used: it fails outright (ETARGET) when the registry serves a package
    without publish times, which mirrors do; cargo has none. Those runs take what the
    requirements allow."""
    if language == "python":
        return {"UV_EXCLUDE_NEWER": as_of}
    return {}


def run_tests(
    root: Path,
    language: str,
    test_cmd: str | None = None,
    runtime: str | None = None,
    log_path: Path | None = None,
    step_timeout: int = 900,
    as_of: str | None = None,
) -> RunResult:
    """Run the repository's tests in `root` (a scratch copy the caller owns).

    `as_of` (an ISO date or timestamp) keeps the package managers to releases published by
    then, so a snapshot of a repository is tested with the packages of its time."""
    plan = plan_for(root, language, test_cmd, runtime)
    if plan is None:
        return RunResult("not-run", log=f"no local runner for {language}")
    if as_of:
        plan.env.update(exclude_newer_env(language, as_of))
    return run_plan(plan, Path(root), log_path, step_timeout)
