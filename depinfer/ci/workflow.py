"""Read GitHub Actions workflows and find the job that runs the tests.

Only what a local run needs: the runtime versions the job asks for (first matrix entry
that runs on Linux), the `run:` lines in order, and the job's env. `uses:` steps are kept
by name so the plan can translate setup actions and skip the rest.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from depinfer import yaml_compat
from depinfer.data import load_table
from depinfer.model import Diagnostic
from depinfer.runtime import without_comment


@lru_cache(maxsize=1)
def test_commands() -> tuple[str, ...]:
    """Patterns of run lines that run tests, best first (data/common/ci_commands.toml)."""
    return tuple(row["pattern"] for row in load_table("common/ci_commands.toml")["test_command"])


@lru_cache(maxsize=1)
def _test_command_languages() -> tuple[tuple[re.Pattern[str], str], ...]:
    rows = load_table("common/ci_commands.toml")["test_command"]
    return tuple((re.compile(r["pattern"]), r["language"]) for r in rows if r.get("language"))


def command_language(line: str) -> str | None:
    """The ecosystem whose tests a run line runs (`cargo nextest run` → rust), or None when
    the line is language-neutral (`make test`) or not a known runner."""
    for pattern, language in _test_command_languages():
        if pattern.search(line):
            return language
    return None


@lru_cache(maxsize=1)
def install_commands() -> tuple[str, ...]:
    """Patterns of run lines that install tools or packages, never the tests themselves."""
    rows = load_table("common/ci_commands.toml").get("install_command", [])
    return tuple(row["pattern"] for row in rows)


def is_install_command(text: str) -> bool:
    """A command (or the runner's `$ command` line) that installs tools or packages."""
    return any(re.search(p, text) for p in install_commands())


_SHELL_SEPARATORS = re.compile(r"&&|\|\||;")
_SHELL_KEYWORDS = re.compile(r"^(?:then|do|else|fi|done)\b\s*")


def logical_lines(run: str) -> list[str]:
    """The script's lines with backslash-newline continuations joined, as the shell reads
    them: `pip install a \\` then `  b` is one command installing both."""
    return re.sub(r"[ \t]*\\\r?\n[ \t]*", " ", run).splitlines()


def simple_commands(run: str) -> list[str]:
    """The simple commands of a step's script: lines split at `&&`, `||` and `;`, with the
    shell's `then`/`do`/`else` words taken off, so `if [ -f requirements.txt ]; then pip
    install -r requirements.txt; fi` yields the pip command."""
    out = []
    for line in logical_lines(run):
        for part in _SHELL_SEPARATORS.split(without_comment(line)):
            part = part.strip()
            while _SHELL_KEYWORDS.match(part):
                part = _SHELL_KEYWORDS.sub("", part, count=1).strip()
            if part:
                out.append(part)
    return out


def is_test_line(line: str) -> bool:
    """A run line that runs tests: one of its commands (split at `&&`, `||`, `;`)
    matches a test command and installs nothing (`pip install pytest` names the runner but
    runs no test)."""
    for part in simple_commands(line):
        if is_install_command(part):
            continue
        if any(re.search(p, part) for p in test_commands()):
            return True
    return False


def lint_words() -> re.Pattern[str]:
    """Words in a job's name that mark a lint, format or docs job."""
    words = "|".join(row["word"] for row in load_table("common/ci_commands.toml")["lint_word"])
    return re.compile(rf"\b({words})\b")


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
    combos: list[dict[str, str]] = field(default_factory=list)  # every Linux combination
    raw: dict = field(default_factory=dict)  # the job as the workflow writes it

    def runtime_key(self, key: str) -> str | None:
        """The matrix key a runtime version comes from (`${{ matrix.python }}` → python)."""
        for step in self.steps:
            if step.uses and key in step.with_:
                m = re.search(r"matrix\.([\w-]+)", step.with_[key])
                return m.group(1) if m else None
        return None

    def with_matrix(self, combo: dict[str, str]) -> TestJob:
        """The same job for another matrix combination."""
        steps = job_steps(self.raw.get("steps") or [], combo)
        env = {str(k): substitute(str(v), combo) for k, v in _mapping(self.raw.get("env")).items()}
        job = TestJob(self.workflow, self.job, steps, combo, env, self.score)
        job.combos, job.raw = self.combos, self.raw
        return job

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


def linux_combos(strategy: object, limit: int = 256) -> list[dict[str, str]]:
    """Every matrix combination that runs on Linux, as GitHub Actions expands it: the product
    of the lists, excludes removed, includes extending the combinations they match (or
    added as their own)."""
    matrix = strategy.get("matrix") if isinstance(strategy, dict) else None
    if not isinstance(matrix, dict):
        return []
    base = {
        str(k): [str(x) for x in (v if isinstance(v, list) else [v])]
        for k, v in matrix.items()
        if k not in ("include", "exclude") and not (isinstance(v, str) and "${{" in v)
    }
    combos: list[dict[str, str]] = [{}] if base else []
    for k, values in base.items():
        combos = [{**c, k: v} for c in combos for v in values][:limit]
    for ex in matrix.get("exclude") or []:
        if isinstance(ex, dict):
            combos = [c for c in combos if any(c.get(str(k)) != str(v) for k, v in ex.items())]
    for inc in matrix.get("include") or []:
        if not isinstance(inc, dict):
            continue
        inc = {str(k): str(v) for k, v in inc.items()}
        matched = False
        for c in combos:
            if all(c[k] == v for k, v in inc.items() if k in base):
                matched = True
                for k, v in inc.items():
                    if k not in base:
                        c[k] = v
        if not matched:
            combos.append(dict(inc))
    return [c for c in combos if not any(re.search(r"windows|macos", v) for v in c.values())]


def _mapping(value: object) -> dict:
    """A step's or job's `env`/`with` as a mapping: GitHub Actions also accepts an expression
    there (`env: ${{ matrix.platform.env }}`), which names nothing this reader can expand."""
    return value if isinstance(value, dict) else {}


def job_steps(raw_steps: list, matrix: dict[str, str]) -> list[Step]:
    steps = []
    for raw in raw_steps:
        if not isinstance(raw, dict):
            continue
        steps.append(
            Step(
                name=str(raw.get("name", "")),
                run=substitute(raw["run"], matrix) if "run" in raw else None,
                uses=str(raw.get("uses")) if raw.get("uses") else None,
                with_={str(k): str(v) for k, v in _mapping(raw.get("with")).items()},
                env={
                    str(k): substitute(str(v), matrix) for k, v in _mapping(raw.get("env")).items()
                },
                working_directory=raw.get("working-directory"),
            )
        )
    return steps


def read_workflows(root: Path, ci_files: list[str], diagnostics: list[Diagnostic]) -> list[TestJob]:
    jobs: list[TestJob] = []
    for rel in ci_files:
        try:
            data = yaml_compat.safe_load((root / rel).read_text(encoding="utf-8", errors="replace"))
        except (OSError, yaml_compat.YAMLError) as exc:
            diagnostics.append(Diagnostic(f"workflow not read: {str(exc).splitlines()[0]}", rel))
            continue
        if not isinstance(data, dict) or not isinstance(data.get("jobs"), dict):
            continue
        for name, job in data["jobs"].items():
            if not isinstance(job, dict) or not isinstance(job.get("steps"), list):
                continue
            combos = linux_combos(job.get("strategy"))
            matrix = combos[0] if combos else _first_linux_combo(job.get("strategy"))
            steps = job_steps(job["steps"], matrix)
            env = {str(k): substitute(str(v), matrix) for k, v in _mapping(job.get("env")).items()}
            tj = TestJob(rel, str(name), steps, matrix, env)
            tj.combos, tj.raw = combos, job
            tj.score = _score(tj)
            if tj.score > 0:
                jobs.append(tj)
    jobs.sort(key=lambda j: -j.score)
    return jobs


def _score(job: TestJob) -> int:
    lines = [ln for s in job.steps for ln in logical_lines(s.run or "")]
    text = "\n".join(ln for ln in lines if is_test_line(ln))
    score = 0
    for rank, pat in enumerate(test_commands()):
        if re.search(pat, text):
            score = max(score, 100 - rank)
    if score and re.search(r"test", job.job, re.I):
        score += 10
    if lint_words().search(job.job.lower()) and not re.search(r"test", job.job, re.I):
        score -= 50
    return score
