"""Read GitHub Actions workflows and find the job that runs the tests.

Only what a local run needs: the runtime versions the job asks for (first matrix entry
that runs on Linux), the `run:` lines in order, and the job's env. `uses:` steps are kept
by name so the plan can translate setup actions and skip the rest.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from depinfer.model import Diagnostic

# Words in run lines that mark a test job, best first (a data table of test runners).
TEST_COMMANDS = [
    r"\bpytest\b",
    r"\btox\b",
    r"\bnox\b",
    r"python -m unittest",
    r"\bcargo (?:test|nextest)\b",
    r"\bdotnet test\b",
    r"\bnpm (?:run )?test",
    r"\bpnpm (?:run )?test",
    r"\byarn (?:run )?test",
    r"\bvitest\b",
    r"\bjest\b",
    r"\bmocha\b",
    r"scripts/test\b",
    r"\bmake test\b",
    r"\bhatch (?:run )?test",
]
LINT_WORDS = re.compile(
    r"\b(lint|ruff|flake8|mypy|pyright|eslint|prettier|clippy|fmt|format|typecheck|docs?)\b"
)


@dataclass
class Step:
    name: str = ""
    run: str | None = None
    uses: str | None = None
    with_: dict[str, str] = field(default_factory=dict)
    env: dict[str, str] = field(default_factory=dict)
    working_directory: str | None = None


@dataclass
class TestJob:
    workflow: str
    job: str
    steps: list[Step]
    matrix: dict[str, str]  # one Linux matrix combination, values as strings
    env: dict[str, str]
    score: int = 0

    def runtime(self, key: str) -> str | None:
        """Version asked for a runtime (python-version / node-version / toolchain)."""
        for step in self.steps:
            if step.uses and key in step.with_:
                return substitute(step.with_[key], self.matrix)
        return None


def substitute(text: str, matrix: dict[str, str]) -> str:
    """Replace `${{ matrix.x }}` with this job's values; drop other expressions."""

    def repl(m: re.Match[str]) -> str:
        expr = m.group(1).strip()
        mm = re.match(r"matrix\.([\w-]+)", expr)
        if mm and mm.group(1) in matrix:
            return matrix[mm.group(1)]
        mm = re.match(r"matrix\.([\w-]+)\s*\|\|\s*'([^']*)'", expr)
        if mm:
            return matrix.get(mm.group(1), mm.group(2))
        return ""

    return re.sub(r"\$\{\{(.*?)\}\}", repl, str(text))


def _first_linux_combo(strategy: object) -> dict[str, str]:
    if not isinstance(strategy, dict):
        return {}
    matrix = strategy.get("matrix")
    if not isinstance(matrix, dict):
        return {}
    base = {k: v for k, v in matrix.items() if k not in ("include", "exclude")}
    combo: dict[str, str] = {}
    for k, v in base.items():
        if isinstance(v, list) and v:
            linux = [x for x in v if not re.search(r"windows|macos", str(x))]
            combo[k] = str((linux or v)[0])
        elif not isinstance(v, list):
            combo[k] = str(v)
    if not combo and isinstance(matrix.get("include"), list):
        for entry in matrix["include"]:
            if isinstance(entry, dict) and not re.search(
                r"windows|macos", str(entry.get("os", ""))
            ):
                combo = {k: str(v) for k, v in entry.items()}
                break
    return combo


def read_workflows(root: Path, ci_files: list[str], diagnostics: list[Diagnostic]) -> list[TestJob]:
    jobs: list[TestJob] = []
    for rel in ci_files:
        try:
            data = yaml.safe_load((root / rel).read_text(encoding="utf-8", errors="replace"))
        except (OSError, yaml.YAMLError) as exc:
            diagnostics.append(Diagnostic(f"workflow not read: {str(exc).splitlines()[0]}", rel))
            continue
        if not isinstance(data, dict) or not isinstance(data.get("jobs"), dict):
            continue
        for name, job in data["jobs"].items():
            if not isinstance(job, dict) or not isinstance(job.get("steps"), list):
                continue
            matrix = _first_linux_combo(job.get("strategy"))
            steps = []
            for raw in job["steps"]:
                if not isinstance(raw, dict):
                    continue
                steps.append(
                    Step(
                        name=str(raw.get("name", "")),
                        run=substitute(raw["run"], matrix) if "run" in raw else None,
                        uses=str(raw.get("uses")) if raw.get("uses") else None,
                        with_={str(k): str(v) for k, v in (raw.get("with") or {}).items()},
                        env={
                            str(k): substitute(str(v), matrix)
                            for k, v in (raw.get("env") or {}).items()
                        },
                        working_directory=raw.get("working-directory"),
                    )
                )
            env = {str(k): substitute(str(v), matrix) for k, v in (job.get("env") or {}).items()}
            tj = TestJob(rel, str(name), steps, matrix, env)
            tj.score = _score(tj)
            if tj.score > 0:
                jobs.append(tj)
    jobs.sort(key=lambda j: -j.score)
    return jobs


def _score(job: TestJob) -> int:
    text = "\n".join(s.run or "" for s in job.steps)
    score = 0
    for rank, pat in enumerate(TEST_COMMANDS):
        if re.search(pat, text):
            score = max(score, 100 - rank)
    if score and re.search(r"test", job.job, re.I):
        score += 10
    if LINT_WORDS.search(job.job.lower()) and not re.search(r"test", job.job, re.I):
        score -= 50
    return score
