"""Local CI runner shared by verify mode and the benchmark: find the repository's test job,
build a fresh environment from its (inferred) manifests, run it, parse per-test outcomes."""

from __future__ import annotations

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
    return make_plan(project, language, jobs[0] if jobs else None, test_cmd, runtime)


def run_tests(
    root: Path,
    language: str,
    test_cmd: str | None = None,
    runtime: str | None = None,
    log_path: Path | None = None,
    step_timeout: int = 900,
) -> RunResult:
    """Run the repository's tests in `root` (a scratch copy the caller owns)."""
    plan = plan_for(root, language, test_cmd, runtime)
    if plan is None:
        return RunResult("not-run", log=f"no local runner for {language}")
    return run_plan(plan, Path(root), log_path, step_timeout)
