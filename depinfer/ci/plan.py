"""Turn a repository's test job into a local plan: fresh environment, install, test.

The install comes from the (inferred) manifest, never from a lock file; tooling wrappers in
the job's run lines (`uv run`, `poetry run`, `pdm run`, `hatch run`, `npx`) are unwrapped so
the command runs inside the fresh environment we built.
"""

from __future__ import annotations

import configparser
import glob
import os
import re
import shlex
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from depinfer.ci.workflow import TEST_COMMANDS, TestJob
from depinfer.model import Ecosystem, Project
from depinfer.toml_compat import tomllib

TEST_EXTRAS = ("test", "tests", "testing", "dev", "develop", "all")
# Runners that wrap a command in their own environment: (prefix words, flags taking a value).
WRAPPERS = {
    ("uv", "run"): {
        "--extra",
        "--group",
        "--with",
        "--python",
        "-p",
        "--package",
        "--env-file",
        "--with-requirements",
        "--index",
        "--only-group",
        "--no-group",
    },
    ("poetry", "run"): set(),
    ("pdm", "run"): set(),
    ("pipenv", "run"): set(),
    ("rye", "run"): set(),
    ("hatch", "run"): set(),
}


@dataclass
class Plan:
    language: str
    runtime: str | None  # python / node / rust version asked for
    setup: list[list[str]] = field(default_factory=list)  # commands that build the environment
    install: list[str] = field(default_factory=list)  # shell lines run in the environment
    test: list[str] = field(default_factory=list)
    env: dict[str, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


def unwrap(line: str) -> str:
    """`uv run --locked --group dev pytest -x` → `pytest -x`."""
    try:
        words = shlex.split(line.strip())
    except ValueError:
        return line.strip()
    value_flags = WRAPPERS.get(tuple(words[:2]))  # type: ignore[arg-type]
    if value_flags is None:
        return line.strip()
    i = 2
    while i < len(words) and words[i].startswith("-"):
        i += 2 if words[i] in value_flags else 1
    if words[:2] == ["hatch", "run"] and i < len(words) and ":" in words[i]:
        words[i] = words[i].split(":", 1)[1]  # hatch run env:script
    return shlex.join(words[i:])


def test_lines(job: TestJob | None) -> list[str]:
    if job is None:
        return []
    out = []
    for step in job.steps:
        for line in (step.run or "").splitlines():
            if any(re.search(p, line) for p in TEST_COMMANDS):
                out.append(unwrap(line))
    return out


def find_python(version: str | None) -> str | None:
    """A local interpreter for `version` ("3.12"); the nearest one when that is missing."""
    want = re.match(r"(\d+)\.(\d+)", version or "")
    found: dict[tuple[int, int], str] = {}
    roots = [
        os.environ.get("PYENV_ROOT", os.path.expanduser("~/.pyenv")) + "/versions/*/bin/python3"
    ]
    candidates = [p for r in roots for p in glob.glob(r)]
    for minor in range(8, 16):
        exe = shutil.which(f"python3.{minor}")
        if exe:
            candidates.append(exe)
    for exe in candidates:
        m = re.search(r"(?:versions/|python)(\d+)\.(\d+)", exe)
        if m and os.access(exe, os.X_OK):
            found.setdefault((int(m.group(1)), int(m.group(2))), exe)
    if not found:
        return shutil.which("python3")
    if want:
        key = (int(want.group(1)), int(want.group(2)))
        if key in found:
            return found[key]
        newer = sorted(k for k in found if k >= key)
        if newer:
            return found[newer[0]]
    return found[max(found)]


def python_plan(
    project: Project, job: TestJob | None, test_cmd: str | None, runtime: str | None
) -> Plan:
    version = (
        runtime
        or (job.runtime("python-version") if job else None)
        or (job.matrix.get("python") if job else None)
    )
    plan = Plan("python", version)
    exe = find_python(version)
    plan.setup.append(["uv", "venv", "--quiet", "--seed", ".venv", "--python", exe or "python3"])
    root = project.root
    extras: list[str] = []
    groups: list[str] = []
    for m in project.manifests_of(Ecosystem.PYPI):
        if m.directory:
            continue
        for key in m.declared:
            kind, _, name = key.partition(".")
            if kind == "optional-dependencies" and name.lower() in TEST_EXTRAS:
                extras.append(name)
            if kind in ("dependency-groups", "group") and name.lower() in TEST_EXTRAS + ("lint",):
                groups.append(name)
    if any((root / f).exists() for f in ("pyproject.toml", "setup.py", "setup.cfg")):
        target = "." + (f"[{','.join(dict.fromkeys(extras))}]" if extras else "")
        plan.install.append(f"uv pip install -e {shlex.quote(target)}")
    for g in dict.fromkeys(groups):
        plan.install.append(f"uv pip install --group {shlex.quote(g)}")
    for req in sorted(
        glob.glob(str(root / "requirements*.txt")) + glob.glob(str(root / "requirements/*.txt"))
    ):
        plan.install.append(f"uv pip install -r {shlex.quote(os.path.relpath(req, root))}")
    tests = [test_cmd] if test_cmd else test_lines(job)
    plan.test = [_python_test(t, root, plan) for t in tests[:1]] or ["python -m pytest"]
    if any("pytest" in t for t in plan.test):
        plan.install.append("uv pip install pytest")
    plan.env["SETUPTOOLS_SCM_PRETEND_VERSION"] = "0.0.0"  # a tree without git metadata must build
    plan.env.update({k: v for k, v in (job.env if job else {}).items() if not v.startswith("${{")})
    return plan


def _python_test(line: str, root: Path, plan: Plan) -> str:
    """tox/nox run their own environments from lock-free config; run their test commands
    here instead so the packages come from the manifest we wrote."""
    words = line.split()
    if words and words[0] in ("tox", "nox"):
        cmds, deps = _tox_commands(root)
        if deps:
            plan.install.append("uv pip install " + " ".join(shlex.quote(d) for d in deps))
        if cmds:
            plan.notes.append(f"{words[0]} replaced by its test commands")
            return " && ".join(cmds)
        plan.notes.append(f"{words[0]} config not understood; running pytest")
        return "python -m pytest"
    if words and words[0] == "pytest":
        return "python -m " + line
    return line


def _tox_commands(root: Path) -> tuple[list[str], list[str]]:
    ini = root / "tox.ini"
    text = None
    if ini.exists():
        text = ini.read_text(encoding="utf-8", errors="replace")
    else:
        pp = root / "pyproject.toml"
        if pp.exists():
            try:
                legacy = (
                    tomllib.loads(pp.read_text(encoding="utf-8")).get("tool", {}).get("tox", {})
                )
            except tomllib.TOMLDecodeError:
                legacy = {}
            text = legacy.get("legacy_tox_ini")
    if not text:
        return [], []
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    try:
        parser.read_string(text)
    except configparser.Error:
        return [], []
    if not parser.has_section("testenv"):
        return [], []
    sec = parser["testenv"]

    def lines(key: str) -> list[str]:
        out = []
        for ln in sec.get(key, "").splitlines():
            ln = re.sub(r"\{posargs[^}]*\}", "", ln).strip()
            ln = re.sub(r"^\S+:\s*", "", ln) if re.match(r"^[\w,-]+:\s", ln) else ln
            if ln and not ln.startswith("#") and "{" not in ln:
                out.append(ln)
        return out

    deps = [d for d in lines("deps") if not d.startswith(("-r", "-c", "-e"))]
    cmds = ["python -m " + c if c.startswith("pytest") else c for c in lines("commands")]
    return cmds, deps


def node_plan(
    project: Project, job: TestJob | None, test_cmd: str | None, runtime: str | None
) -> Plan:
    plan = Plan("javascript", runtime or (job.runtime("node-version") if job else None))
    root = project.root
    uses_pnpm = (root / "pnpm-workspace.yaml").exists() or any(
        "pnpm" in (s.run or "") or "pnpm" in (s.uses or "") for s in (job.steps if job else [])
    )
    if uses_pnpm:
        plan.install.append("npx --yes pnpm@latest install --no-frozen-lockfile")
    else:
        plan.install.append("npm install --no-audit --no-fund")
    tests = [test_cmd] if test_cmd else test_lines(job)
    cmd = tests[0] if tests else "npm test"
    if uses_pnpm and cmd.startswith("pnpm"):
        cmd = "npx --yes pnpm@latest" + cmd[len("pnpm") :]
    plan.test = [cmd]
    plan.env["CI"] = "true"
    return plan


def rust_plan(
    project: Project, job: TestJob | None, test_cmd: str | None, runtime: str | None
) -> Plan:
    plan = Plan("rust", runtime)
    tests = [test_cmd] if test_cmd else test_lines(job)
    plan.test = [tests[0] if tests else "cargo test"]
    return plan


PLANNERS = {"python": python_plan, "javascript": node_plan, "rust": rust_plan}


def make_plan(
    project: Project,
    language: str,
    job: TestJob | None,
    test_cmd: str | None = None,
    runtime: str | None = None,
) -> Plan | None:
    planner = PLANNERS.get(language)
    return planner(project, job, test_cmd, runtime) if planner else None
