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
import subprocess
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from packaging.specifiers import InvalidSpecifier, SpecifierSet

from depinfer import toml_compat
from depinfer.ci.constraints import to_pep440
from depinfer.ci.node_tools import (
    install_line,
    node_runtime,
    node_tool,
    runtime_env,
    tool_env,
    use_tool,
)
from depinfer.ci.rust_tools import needs_nextest, nextest_folder, without_lock_flags
from depinfer.ci.workflow import (
    Step,
    TestJob,
    is_test_line,
    logical_lines,
    simple_commands,
    test_commands,
)
from depinfer.data import load_table
from depinfer.model import Ecosystem, Project
from depinfer.runtime import rust_runtime
from depinfer.toml_compat import tomllib

TEST_EXTRAS = ("test", "tests", "testing", "dev", "develop", "all")


@lru_cache(maxsize=1)
def wrappers() -> dict[tuple[str, ...], tuple[frozenset[str], bool]]:
    """Runners that wrap a command in their own environment (data/python/ci_tools.toml):
    prefix words → (their options taking a value, whether the command is `env:script`)."""
    return {
        tuple(row["command"]): (frozenset(row["value_flags"]), bool(row.get("env_script")))
        for row in load_table("python/ci_tools.toml")["wrapper"]
    }


@lru_cache(maxsize=1)
def job_tooling() -> frozenset[str]:
    """Python tooling a CI job installs for itself; the test environment gets it from us."""
    return frozenset(row["name"] for row in load_table("python/ci_tools.toml")["job_tooling"])


@dataclass
class Plan:
    language: str
    runtime: str | None  # python / node / rust version asked for
    setup: list[list[str]] = field(default_factory=list)  # commands that build the environment
    install: list[str] = field(default_factory=list)  # shell lines run in the environment
    test: list[str] = field(default_factory=list)
    env: dict[str, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    # install lines taken from the job beside the manifest's: a failure is logged, not fatal
    # (they may name indexes or pins this machine cannot reach)
    best_effort: set[str] = field(default_factory=set)
    # best-effort lines that install what was written (the project itself, a requirements
    # file of the tree): the CI installs the written manifests this way, so their failure
    # is the manifests' failure (`strict_status`), not the machine's
    installs_written: set[str] = field(default_factory=set)
    path_python: bool = False  # put the local interpreters on PATH (tools that pick their own)
    as_job: bool = False  # strict: the job's own install lines are the whole install
    # the folder (relative to the tree) the job's install and test lines run in: its
    # `working-directory`, or a `cd DIR &&` leading its test line
    subdir: str | None = None


def unwrap(line: str) -> str:
    """`uv run --locked --group dev pytest -x` → `pytest -x`."""
    try:
        words = shlex.split(line.strip())
    except ValueError:
        return line.strip()
    wrapper = wrappers().get(tuple(words[:2]))
    if wrapper is None:
        return line.strip()
    value_flags, env_script = wrapper
    i = 2
    while i < len(words) and words[i].startswith("-"):
        i += 2 if words[i] in value_flags else 1
    if env_script and i < len(words) and ":" in words[i]:
        words[i] = words[i].split(":", 1)[1]  # hatch run env:script
    return shlex.join(words[i:])


def test_lines(job: TestJob | None) -> list[str]:
    if job is None:
        return []
    out = []
    for step in job.steps:
        for line in logical_lines(step.run or ""):
            if is_test_line(line):
                out.append(unwrap(line))
    return out


def job_directory(root: Path, job: TestJob | None, test: str) -> tuple[str | None, str]:
    """Where the job runs its test line, and the line as run there: the test step's
    `working-directory` (else the job's `defaults.run.working-directory`), or a leading
    `cd DIR &&` of the line itself. A JavaScript front end in `web/` installs and tests
    there: at the top of the tree there is no package.json to install."""
    folder = None
    if job is not None:
        step = next(
            (s for s in job.steps if s.run and test in map(unwrap, logical_lines(s.run))), None
        )
        defaults = job.raw.get("defaults") if isinstance(job.raw, dict) else None
        run_defaults = defaults.get("run") if isinstance(defaults, dict) else None
        folder = (step.working_directory if step else None) or (
            run_defaults.get("working-directory") if isinstance(run_defaults, dict) else None
        )
    m = re.match(r"^cd\s+([^\s&;|]+)\s*&&\s*(.+)$", test.strip())
    if not folder and m:
        folder, test = m.group(1), m.group(2)
    if not isinstance(folder, str) or "${{" in folder:
        return None, test
    folder = os.path.normpath(folder.strip())
    inside = folder not in (".", "") and not folder.startswith("..") and not os.path.isabs(folder)
    return (folder if inside and (root / folder).is_dir() else None), test


def pyenv_pythons() -> dict[tuple[int, int], str]:
    """Local CPython interpreters by (major, minor): pyenv's versions, then pythonX.Y on PATH."""
    found: dict[tuple[int, int], str] = {}
    root = os.environ.get("PYENV_ROOT", os.path.expanduser("~/.pyenv"))
    candidates = sorted(glob.glob(root + "/versions/*/bin/python3"))
    for minor in range(8, 16):
        exe = shutil.which(f"python3.{minor}")
        if exe:
            candidates.append(exe)
    for exe in candidates:
        m = re.search(r"(?:versions/|python)(\d+)\.(\d+)", exe)
        if m and os.access(exe, os.X_OK):
            found.setdefault((int(m.group(1)), int(m.group(2))), exe)
    return found


def find_python(version: str | None, requires: str | None = None) -> str | None:
    """A local interpreter for `version` ("3.12"); the nearest one when that is missing.

    `requires` (the project's requires-python) rules out interpreters it excludes, so a job
    asking for a Python this machine lacks falls back to one the project still supports."""
    want = re.search(r"(\d+)\.(\d+)", version or "")
    found = pyenv_pythons()
    if requires:
        try:
            spec = SpecifierSet(requires)
            allowed = {k: v for k, v in found.items() if spec.contains(f"{k[0]}.{k[1]}.0")}
            found = allowed or found
        except InvalidSpecifier:
            pass
    found = {k: v for k, v in found.items() if k >= (3, 0)} or found
    if not found:
        return shutil.which("python3")
    if want:
        key = (int(want.group(1)), int(want.group(2)))
        if key in found:
            return found[key]
        nearest = min(found, key=lambda k: (abs(k[1] - key[1]) if k[0] == key[0] else 99, -k[1]))
        return found[nearest]
    return found[max(found)]


def newest_combo(job: TestJob, requires: str | None) -> TestJob:
    """The job's matrix combination with the newest Python this machine has (and the project
    allows): inferred requirements take current releases, which drop old interpreters first."""
    key = job.runtime_key("python-version") or next(
        (k for k in ("python-version", "python") if k in job.matrix), None
    )
    if not key or not job.combos:
        return job
    have = pyenv_pythons()
    best = None
    for combo in job.combos:
        text = combo.get(key, "")
        m = re.search(r"(\d+)\.(\d+)", text)
        if not m or "pypy" in text or "dev" in text:
            continue
        ver = (int(m.group(1)), int(m.group(2)))
        exe = have.get(ver)
        if exe and find_python(text, requires) == exe and (best is None or ver > best[0]):
            best = (ver, combo)
    return job.with_matrix(best[1]) if best else job


def requires_python(root: Path) -> str | None:
    try:
        data = toml_compat.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError):
        return None
    req = data.get("project", {}).get("requires-python")
    if isinstance(req, str):
        return req
    poetry = data.get("tool", {}).get("poetry", {}).get("dependencies", {}).get("python")
    if isinstance(poetry, str):
        alts = to_pep440("python", poetry)
        return alts[0] if alts else None
    return None


PIP_INSTALL = re.compile(r"^\s*(?:\S*python3?(?:\.\d+)?\s+-m\s+)?pip3?\s+install\s+(.*)$")


def job_installs(job: TestJob | None) -> tuple[list[str], list[str], list[str]]:
    """What the job's own run lines install: pip argument lists (translated to `uv pip`),
    extras and dependency groups (`uv sync/run --extra/--group`, `poetry install --with`)."""
    pip_args: list[str] = []
    extras: list[str] = []
    groups: list[str] = []
    for step in job.steps if job else []:
        for line in simple_commands(step.run or ""):
            m = PIP_INSTALL.match(line)
            if m:
                try:
                    words = shlex.split(m.group(1), comments=True)
                except ValueError:
                    continue
                keep = [
                    w
                    for w in words
                    if w.startswith("-") or _req_name(w) not in job_tooling() or w.startswith(".")
                ]
                if any(not w.startswith("-") for w in keep) or "-r" in keep:
                    pip_args.append(shlex.join(keep))
                continue
            try:
                words = shlex.split(line)
            except ValueError:
                continue
            if words[:2] in (["uv", "sync"], ["uv", "run"], ["poetry", "install"]):
                for i, w in enumerate(words[:-1]):
                    if w == "--extra":
                        extras.append(words[i + 1])
                    elif w in ("--group", "--with", "--only-group", "--only"):
                        groups.extend(words[i + 1].split(","))
    return pip_args, extras, groups


def _req_name(word: str) -> str:
    return re.split(r"[\[<>=!~;@ ]", word, maxsplit=1)[0].lower().replace("_", "-")


def poetry_groups(root: Path, wanted: list[str]) -> list[str]:
    """Requirements of Poetry's dev sections as PEP 508 strings: the legacy dev-dependencies
    and every group `poetry install` installs (non-optional ones, plus those asked for)."""
    try:
        data = toml_compat.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError):
        return []
    poetry = data.get("tool", {}).get("poetry", {})
    tables = [poetry.get("dev-dependencies") or {}]
    for name, group in (poetry.get("group") or {}).items():
        if isinstance(group, dict) and (not group.get("optional") or name in wanted):
            tables.append(group.get("dependencies") or {})
    out = []
    for table in tables:
        for name, spec in table.items():
            if name.lower() == "python" or (isinstance(spec, dict) and "path" in spec):
                continue
            version = spec.get("version", "") if isinstance(spec, dict) else str(spec)
            alts = to_pep440("python", version) if isinstance(version, str) else None
            extras = spec.get("extras") if isinstance(spec, dict) else None
            name_part = name + (f"[{','.join(extras)}]" if extras else "")
            out.append(name_part + (alts[0] if alts else ""))
    return out


def python_plan(
    project: Project,
    job: TestJob | None,
    test_cmd: str | None,
    runtime: str | None,
    strict: bool = False,
) -> Plan:
    """The plan of a Python test job. `strict` (verify): when the job's own pip lines install
    the written manifests, they are the install, as in CI — nothing else is added (neither
    the test extras guessed from their names nor pytest and its plug-ins)."""
    root = project.root
    requires = requires_python(root)
    job, version = _python_version(job, runtime, requires)
    plan = Plan("python", version)
    exe = find_python(version, requires)
    m = re.search(r"python(\d+\.\d+)|versions/(\d+\.\d+)", exe or "")
    plan.runtime = (m.group(1) or m.group(2)) if m else version
    # --clear: each run (each repair round) starts from an empty environment
    plan.setup.append(
        ["uv", "venv", "--quiet", "--clear", "--seed", ".venv", "--python", exe or "python3"]
    )
    pip_args, job_extras, job_groups = job_installs(job)
    tests = [test_cmd] if test_cmd else test_lines(job)
    for line in (test_lines(job) if job else []) + tests:
        _, e, g = job_installs(TestJob("", "", [Step(run=line)], {}, {}))
        job_extras += e
        job_groups += g
    extras, groups = _test_extras_and_groups(project, job_extras, job_groups)
    as_ci = strict and any(_names_written(a) for a in pip_args)
    if as_ci:
        plan.as_job = True
        plan.notes.append("installed as the job installs it: " + "; ".join(pip_args))
    else:
        skip_project = _installs_files_not_project(pip_args)
        if skip_project:
            plan.notes.append("the project itself is not installed: the job never installs it")
        _install_manifests(plan, root, extras, groups, job_groups, skip_project)
    _install_job_pip_lines(plan, pip_args, as_ci)
    plan.test = [_python_test(t, root, plan) for t in tests[:1]] or ["python -m pytest"]
    if any(PYTEST in t for t in plan.test) and not as_ci:
        plugins = pytest_plugins(root, plan.test[0])
        plan.install.append(
            f"uv pip install {PYTEST}" + "".join(" " + shlex.quote(p) for p in plugins)
        )
        if plugins:
            plan.notes.append("pytest plugins from the pytest config: " + ", ".join(plugins))
    if not (strict and (root / ".git").exists()):  # a tree without git metadata must build
        plan.env["SETUPTOOLS_SCM_PRETEND_VERSION"] = "0.0.0"
    plan.env.update(CI_ENV)
    plan.env.update({k: v for k, v in (job.env if job else {}).items() if not v.startswith("${{")})
    return plan


PYTEST = "pytest"  # package literal: the test runner depinfer runs itself (its default)
# PEP 735's table of dependency groups in pyproject.toml
DEPENDENCY_GROUPS = "dependency-groups"  # package literal: a manifest table, not a package


def _python_version(
    job: TestJob | None, runtime: str | None, requires: str | None
) -> tuple[TestJob | None, str | None]:
    """The Python to test with: the one asked for, else the job's (its newest matrix
    combination the project allows), and the job as narrowed to that combination."""
    version = (
        runtime
        or (job.runtime("python-version") if job else None)
        or (job.matrix.get("python") if job else None)
        or (job.matrix.get("python-version") if job else None)
    )
    if not runtime and job:
        job = newest_combo(job, requires)
        version = (
            job.runtime("python-version")
            or job.matrix.get("python")
            or job.matrix.get("python-version")
            or version
        )
    return job, version


def _test_extras_and_groups(
    project: Project, job_extras: list[str], job_groups: list[str]
) -> tuple[list[str], list[str]]:
    """The root manifest's extras and dependency groups a test run installs: those named
    like test extras and those the job asks for."""
    extras: list[str] = []
    groups: list[str] = []
    for man in project.manifests_of(Ecosystem.PYPI):
        if man.directory:
            continue
        for key in man.declared:
            kind, _, name = key.partition(".")
            if kind == "optional-dependencies" and (
                name.lower() in TEST_EXTRAS or name in job_extras
            ):
                extras.append(name)
            if kind == DEPENDENCY_GROUPS and (name.lower() in TEST_EXTRAS or name in job_groups):
                groups.append(name)
    return extras, groups


def _installs_files_not_project(pip_args: list[str]) -> bool:
    """The job installs requirements files (`-r …`) and never the project (`.`, `-e .[x]`):
    its CI never builds the project, so neither do we — a project whose packaging is broken
    still passes its CI that way."""
    words = [w for a in pip_args for w in a.split()]
    return any(_names_written(a) for a in pip_args) and not any(w.startswith(".") for w in words)


def _install_manifests(
    plan: Plan,
    root: Path,
    extras: list[str],
    groups: list[str],
    job_groups: list[str],
    skip_project: bool = False,
) -> None:
    """Install lines from the (inferred) manifests: the project with its test extras, its
    dependency groups, Poetry's dev groups and the requirements files a test run needs."""
    if is_installable(root) and not skip_project:
        target = "." + (f"[{','.join(dict.fromkeys(extras))}]" if extras else "")
        plan.install.append(f"uv pip install -e {shlex.quote(target)}")
    for g in dict.fromkeys(groups):
        plan.install.append(f"uv pip install --group {shlex.quote(g)}")
    dev = poetry_groups(root, job_groups)
    if dev:
        plan.install.append("uv pip install " + " ".join(shlex.quote(d) for d in dev))
    reqs = sorted(
        glob.glob(str(root / "requirements*.txt")) + glob.glob(str(root / "requirements/*.txt"))
    )
    for req in reqs:
        rel = os.path.relpath(req, root)
        if re.search(r"doc|lint|typ|mypy|release|publish|build", rel.lower()):
            continue
        plan.install.append(f"uv pip install -r {shlex.quote(rel)}")


def _install_job_pip_lines(plan: Plan, pip_args: list[str], as_ci: bool = False) -> None:
    """The job's own pip installs, through uv, best effort (they may name indexes or pins
    this machine cannot reach); the project itself is not installed twice. `as_ci`: they
    are the whole install, and those of the written manifests must succeed."""
    installs_project = not as_ci and any(
        a.split()[0:1] and a.split()[-1].startswith(".") for a in pip_args
    )
    for args in pip_args:
        line = f"uv pip install {args}"
        line = re.sub(r"(-r|--requirement)\s+", "-r ", line)
        if "--extra-index-url" in line:  # pip picks the best match across all its indexes
            line += " --index-strategy unsafe-best-match"
        if line not in plan.install and not (installs_project and args.strip() in (".", "-e .")):
            plan.install.append(line)
            if as_ci and _names_written(args):
                continue  # the CI's install of what was written: it must succeed
            plan.best_effort.add(line)
            if _names_written(args) and "index-url" not in line:
                plan.installs_written.add(line)


def _names_written(args: str) -> bool:
    """pip arguments that install the project itself (`.`, `-e .[test]`) or a requirements
    file (`-r requirements-dev.txt`): what was written, not a package the job names."""
    try:
        words = shlex.split(args)
    except ValueError:
        return False
    return any(
        w.startswith(".") or w in ("-r", "--requirement") or w.startswith("--requirement=")
        for w in words
    )


def is_installable(root: Path) -> bool:
    """A project pip can install: setup.py, or a pyproject.toml that declares a project or a
    build system (one holding only tool settings is not a project). A setup.cfg alone is not
    one: pip asks for setup.py or pyproject.toml (flake8 and pytest keep settings there)."""
    if (root / "setup.py").exists():
        return True
    try:
        data = toml_compat.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError):
        return False
    return "project" in data or "build-system" in data or "poetry" in data.get("tool", {})


# What a GitHub-hosted runner sets: scripts that branch on it take their CI path.
CI_ENV = {"CI": "true", "GITHUB_ACTIONS": "true"}


@lru_cache(maxsize=1)
def _pytest_options() -> list[dict]:
    return load_table("python/pytest_plugins.toml")["plugin"]


def pytest_config(root: Path) -> tuple[str, dict[str, str]]:
    """pytest's addopts and the other ini keys, from whichever file pytest reads
    (pytest.ini, pyproject [tool.pytest.ini_options], tox.ini [pytest], setup.cfg [tool:pytest])."""
    for name, section in (
        ("pytest.ini", "pytest"),  # package literal: pytest's config files, read as pytest does
        ("pyproject.toml", None),
        ("tox.ini", "pytest"),  # package literal: pytest's section of tox.ini
        ("setup.cfg", "tool:pytest"),
    ):
        path = root / name
        if not path.exists():
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        if section is None:
            try:
                opts = toml_compat.loads(text).get("tool", {}).get(PYTEST, {})  # [tool.pytest]
            except tomllib.TOMLDecodeError:
                continue
            opts = opts.get("ini_options", opts)
            if not isinstance(opts, dict) or not opts:
                continue
            flat = {k: " ".join(v) if isinstance(v, list) else str(v) for k, v in opts.items()}
            return flat.get("addopts", ""), flat
        parser = configparser.ConfigParser(interpolation=None, strict=False)
        try:
            parser.read_string(text)
        except configparser.Error:
            continue
        if parser.has_section(section):
            flat = dict(parser[section])
            return " ".join(flat.get("addopts", "").split()), flat
    return "", {}


def pytest_plugins(root: Path, command: str = "") -> list[str]:
    """Plugins the pytest configuration and the test command cannot run without (options in
    addopts or on the command line, ini keys)."""
    addopts, ini = pytest_config(root)
    words = addopts.split() + command.split()
    out = []
    for plugin in _pytest_options():
        opts = plugin.get("options", [])
        keys = plugin.get("ini", [])
        hit = any(w == o or w.startswith(o + "=") for w in words for o in opts)
        hit = hit or any(k in ini for k in keys)
        hit = hit or any(
            w == f"-p{plugin['entry']}" or (w == plugin["entry"] and i and words[i - 1] == "-p")
            for i, w in enumerate(words)
            if plugin.get("entry")
        )
        if hit:
            out.append(plugin["package"])
    return out


def _python_test(line: str, root: Path, plan: Plan) -> str:
    """tox runs its own environments; its test commands run here instead, so the packages
    come from the manifest we wrote. nox runs itself (its sessions install from the same
    manifest) with the interpreter we have instead of the one the session name asks for."""
    words = line.split()
    if words and words[0] == "nox":
        return _nox_line(words, plan)
    if words and words[0] == "tox":
        cmds = _tox_env(root, plan)
        if cmds:
            plan.notes.append("tox replaced by its test commands")
            return " && ".join(cmds)
        plan.notes.append("tox config not understood; running pytest")
        return "python -m pytest"
    if words and words[0] in ("pytest", "py.test"):  # package literal: pytest's own commands
        return "python -m pytest" + line[len(words[0]) :]
    return line


NOX_WITH_UV = "2024.3.2"  # the first nox with `--default-venv-backend uv`


def _nox_line(words: list[str], plan: Plan) -> str:
    """`nox -s unit-3.14` → `nox -s unit --force-python 3.13 -db uv` (uv backend, our Python)."""
    out = ["nox"]
    i = 1
    while i < len(words):
        w = words[i]
        if w in ("-s", "--session", "--sessions", "-e") and i + 1 < len(words):
            out += ["-s", re.sub(r"-\d+(?:\.\d+)*$", "", words[i + 1])]
            i += 2
            continue
        if w in ("-p", "--python", "-P", "--force-python") and i + 1 < len(words):
            i += 2
            continue
        out.append(w)
        i += 1
    out += ["--force-python", plan.runtime or "3", "--default-venv-backend", "uv"]
    # the uv back-end came with nox 2024.03.02: nox is the job's tool, not the project's
    # dependency, so it is not held to the snapshot's date (the sessions' installs still are)
    plan.install.append(f"env -u UV_EXCLUDE_NEWER uv pip install 'nox>={NOX_WITH_UV}'")
    plan.notes.append("nox sessions run with the local interpreter " + (plan.runtime or ""))
    plan.path_python = True
    return shlex.join(out)


def _tox_text(root: Path) -> str | None:
    ini = root / "tox.ini"
    if ini.exists():
        return ini.read_text(encoding="utf-8", errors="replace")
    pp = root / "pyproject.toml"
    if pp.exists():
        try:
            legacy = (
                toml_compat.loads(pp.read_text(encoding="utf-8")).get("tool", {}).get("tox", {})
            )
        except tomllib.TOMLDecodeError:
            return None
        text = legacy.get("legacy_tox_ini")
        return text if isinstance(text, str) else None
    return None


def _tox_env(root: Path, plan: Plan) -> list[str]:
    """The [testenv] section translated for our environment: deps (factor-conditional lines
    only for the Python we run), extras, setenv, changedir, and its test commands (linters
    listed beside them are left out)."""
    text = _tox_text(root)
    if not text:
        return []
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    try:
        parser.read_string(text)
    except configparser.Error:
        return []
    if not parser.has_section("testenv"):
        return []
    sec = parser["testenv"]
    pyfactor = "py" + (plan.runtime or "").replace(".", "")

    def lines(key: str) -> list[str]:
        out = []
        for ln in sec.get(key, "").splitlines():
            ln = re.sub(r"\{posargs[^}]*\}", "", ln).replace("{toxinidir}", str(root))
            # the env's own interpreter and scripts are ours: the plan runs in its venv
            ln = ln.replace("{envpython}", "python").replace("{envbindir}/", "").strip()
            factor = re.match(r"^([\w,.-]+):\s+(.*)$", ln)
            if factor:
                if pyfactor not in re.split(r"[,-]", factor.group(1)):
                    continue
                ln = factor.group(2)
            if ln and not ln.startswith("#") and "{" not in ln:
                out.append(ln)
        return out

    deps = lines("deps")
    plain = [d for d in deps if not d.startswith(("-r", "-c", "-e"))]
    if plain:
        plan.install.append("uv pip install " + " ".join(shlex.quote(d) for d in plain))
    for d in deps:
        if d.startswith(("-r", "-c", "-e")):
            plan.install.append("uv pip install " + d)
    extras = [e.strip() for e in re.split(r"[,\s]+", sec.get("extras", "")) if e.strip()]
    if extras:
        plan.install.append(f"uv pip install -e {shlex.quote('.[' + ','.join(extras) + ']')}")
    for ln in lines("setenv"):
        k, _, v = ln.partition("=")
        if k.strip() and "{" not in v:
            plan.env[k.strip()] = v.strip()
    cmds = [
        "python -m " + c if c.startswith(PYTEST) else c
        for c in lines("commands")
        if any(re.search(p, c) for p in test_commands()) or c.startswith("python")
    ]
    changedir = sec.get("changedir", "").replace("{toxinidir}", str(root)).strip()
    if cmds and changedir and "{" not in changedir:
        cmds[0] = f"mkdir -p {shlex.quote(changedir)} && cd {shlex.quote(changedir)} && " + cmds[0]
    return cmds


_QUIET = ["--no-audit", "--no-fund"]


def node_plan(
    project: Project,
    job: TestJob | None,
    test_cmd: str | None,
    runtime: str | None,
    strict: bool = False,  # npm's and cargo's installs are the manifest's own already
) -> Plan:
    plan = Plan("javascript", runtime or (job.runtime("node-version") if job else None))
    root = project.root
    tests = [test_cmd] if test_cmd else test_lines(job)
    plan.subdir, cmd = job_directory(root, job, tests[0] if tests else "npm test")
    tool = node_tool(root / plan.subdir if plan.subdir else root, job)
    # a fresh tree each run (each repair round): nothing left over from the last install
    plan.setup.append(
        ["rm", "-rf", "node_modules"] + ([f"{plan.subdir}/node_modules"] if plan.subdir else [])
    )
    if not (root / ".git").exists():
        # a tree without git metadata must still install: `prepare` scripts run git hooks
        # installers (husky install, simple-git-hooks) that stop outside a repository
        plan.setup.append(["git", "init", "-q"])
        plan.env["HUSKY"] = "0"
    if tool:
        # installed into a tool folder outside the tree: `npx` run inside it reads the root
        # package.json's "workspaces" and stops on duplicate member names pnpm accepts
        plan.setup.append(
            [
                "npm",
                "install",
                "--prefix",
                str(tool.folder),
                *_QUIET,
                tool.package,
            ]
        )
        plan.install.append(install_line(tool))
        plan.env.update(tool_env(tool))
    else:
        plan.install.append("npm install --no-audit --no-fund")
    plan.test = [use_tool(cmd, tool) if tool else cmd]
    runtime = node_runtime(plan.runtime)
    if runtime:  # the job's newer Node, from the registry's binary package, first on PATH
        plan.setup.insert(1, ["npm", "install", "--prefix", str(runtime.folder), *_QUIET,
                              runtime.package])  # fmt: skip
        plan.env.update(runtime_env(runtime, plan.env))
        plan.notes.append(f"node {plan.runtime}: {runtime.package} (this machine's is older)")
    plan.env.update(CI_ENV)
    plan.env.update({"NO_COLOR": "1", "FORCE_COLOR": "0"})  # plain reporter lines to parse
    return plan


def rust_plan(
    project: Project,
    job: TestJob | None,
    test_cmd: str | None,
    runtime: str | None,
    strict: bool = False,  # npm's and cargo's installs are the manifest's own already
) -> Plan:
    plan = Plan("rust", runtime)
    tests = [test_cmd] if test_cmd else test_lines(job)
    plan.subdir, cmd = job_directory(project.root, job, tests[0] if tests else "cargo test")
    plan.test = [cmd]
    plan.env.update(CI_ENV)
    plan.env["CARGO_TERM_COLOR"] = "never"
    stand_in = nextest_folder() if needs_nextest(plan.test, project.root) else None
    if stand_in:
        plan.env["PATH"] = os.pathsep.join([str(stand_in), os.environ.get("PATH", "")])
        plan.notes.append("cargo-nextest is not installed: its `run` ran as `cargo test`")
    pinned = _pinned_toolchain(project.root)
    if pinned and not _toolchain_installed(pinned):
        # toolchains cannot be downloaded everywhere; the installed default is the best try
        plan.env["RUSTUP_TOOLCHAIN"] = "stable"
        plan.notes.append(f"rust-toolchain pins {pinned}, which is not installed: ran on stable")
    unlocked = [without_lock_flags(line) for line in plan.test]
    if not (project.root / "Cargo.lock").is_file() and unlocked != plan.test:
        # `--locked` / `--frozen` ask cargo to keep Cargo.lock as it is; with none in the
        # tree (manifests written afresh), cargo refuses to start: the lock is made instead
        plan.test = unlocked
        plan.notes.append("no Cargo.lock in the tree: ran without --locked / --frozen")
    wanted = rust_runtime(project).maximum
    have = _rustc_version(plan.env.get("RUSTUP_TOOLCHAIN"))
    if wanted and have and _release(wanted) > _release(have):
        # toolchains cannot be downloaded everywhere: the installed one tries the code anyway
        plan.test = [_CARGO_SUB.sub(r"\g<0> --ignore-rust-version", line) for line in plan.test]
        plan.notes.append(f"rust-version {wanted} is newer than the installed rustc {have}")
    return plan


_CARGO_SUB = re.compile(r"\bcargo(?:\s+\+\S+)?\s+(?:test|build|check|run|bench)\b")


def _release(version: str) -> tuple[int, ...]:
    return tuple(int(x) for x in re.findall(r"\d+", version)[:3])


def _rustc_version(toolchain: str | None = None) -> str | None:
    env = {**os.environ, **({"RUSTUP_TOOLCHAIN": toolchain} if toolchain else {})}
    try:
        out = subprocess.run(
            ["rustc", "--version"], capture_output=True, text=True, timeout=30, env=env
        ).stdout
    except (OSError, subprocess.TimeoutExpired):
        return None
    m = re.search(r"rustc (\d+\.\d+(?:\.\d+)?)", out)
    return m.group(1) if m else None


def _pinned_toolchain(root: Path) -> str | None:
    for name in ("rust-toolchain.toml", "rust-toolchain"):
        path = root / name
        if not path.is_file():
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        m = re.search(r'channel\s*=\s*"([^"]+)"', text) or re.match(r"\s*([\w.-]+)\s*$", text)
        return m.group(1) if m else None
    return None


def _toolchain_installed(channel: str) -> bool:
    try:
        out = subprocess.run(
            ["rustup", "toolchain", "list"], capture_output=True, text=True, timeout=30
        )
    except (OSError, subprocess.TimeoutExpired):
        return True  # no rustup: nothing to switch
    return any(
        line.split()[0].startswith(channel + "-") or line.split()[0] == channel
        for line in out.stdout.splitlines()
        if line.strip()
    )


PLANNERS = {"python": python_plan, "javascript": node_plan, "rust": rust_plan}


def make_plan(
    project: Project,
    language: str,
    job: TestJob | None,
    test_cmd: str | None = None,
    runtime: str | None = None,
    strict: bool = False,
) -> Plan | None:
    """The language's plan; `strict`: install as the job does and nothing besides (verify)."""
    planner = PLANNERS.get(language)
    return planner(project, job, test_cmd, runtime, strict) if planner else None
