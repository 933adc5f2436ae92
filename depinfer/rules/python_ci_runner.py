"""The test runner a CI workflow needs from the one requirements file it installs.

A workflow job whose only installs are `pip install -r requirements.txt` and that then runs
a test runner (`pytest`, `python -m pytest --cov`: data/python/ci_test_runners.toml) gets
the runner, and the plugins its command line's options need (`--cov`, `--timeout`: the
pytest plugin table), from that file or from nowhere: a fresh runner has neither. That is
a fact of the workflow, not a habit, so the runner is written into the file (corpus train
split: 22 of 26 such files list pytest; the other 4 get it from a package that depends on
it, or their CI cannot run the tests).

The rule stays out wherever the workflow could get pytest another way: a pip line naming
a package or installing the project (`pip install pytest`, `-e .[test]`), a second
requirements file, or an environment manager (tox, nox, poetry, uv sync, pipenv, hatch,
pdm, conda) or an action that sets one up.
"""

from __future__ import annotations

import posixpath
import re
import shlex
from functools import lru_cache

from depinfer import yaml_compat
from depinfer.data import load_table
from depinfer.facts.python import DependencyFacts
from depinfer.mapping.python_manifests import ManifestLayout
from depinfer.mapping.python_tooling import ENVIRONMENT_MANAGERS
from depinfer.model import Candidate, Ecosystem, Evidence, FileKind, Project, Section
from depinfer.patterns import lazy
from depinfer.rules import python_pytest
from depinfer.scan import source_text

RULE = "ci-test-runner"
_PIP_INSTALL = lazy(r"^(?:python3?\s+-m\s+)?(?:uv\s+)?pip3?\s+install\b(.*)$")
# every way `_needs` reads a requirements file off an install line starts so
_REQUIREMENT_OPTION = lazy(r"(?<!\S)(?:-r|--requirement)")
_ENVIRONMENTS = lazy(rf"(?:^|[\s;&|])(?:{'|'.join(ENVIRONMENT_MANAGERS)})\s|\buv\s+(?:sync|run)\b")
_SETUP_ENVIRONMENT = lazy(r"poetry|conda|mamba|setup-uv|pdm|hatch|pixi|rye|tox|nox", re.I)
# what upgrading the installer itself names (`pip install --upgrade pip setuptools wheel`)
_INSTALLER = frozenset({"pip", "setuptools", "wheel", "uv"})
_PROJECT_ITSELF = frozenset({".", "./"})  # `pip install .`, `pip install -e .`


def candidates(project: Project, layout: ManifestLayout) -> list[Candidate]:
    """The runner, and the plugins its options need, for each requirements file a workflow
    job that runs tests installs alone."""
    requirements = {
        m.path: m for m in project.manifests_of(Ecosystem.PYPI) if m.format == "requirements"
    }
    out: list[Candidate] = []
    seen: set[tuple[str, str]] = set()
    for rel in project.ci_files:
        if not rel.startswith(".github/workflows/"):
            continue
        for target, line, runner, options in _workflow_needs(project, rel):
            manifest = requirements.get(target)
            declared = (
                {n.lower() for n in manifest.declared.get("dependencies", [])}
                if manifest
                else set()
            )
            if manifest is None or runner["dist"] in declared:
                continue
            folder = layout.folder_of(manifest.path)
            why = (
                f"the workflow's test job installs only {manifest.path} "
                f"and runs {runner['command']}"
            )
            needs = [(runner["dist"], why)] + [
                (dist, f"{why} {option}") for option, dist in options
            ]
            for name, detail in needs:
                if (manifest.path, name) in seen:
                    continue
                seen.add((manifest.path, name))
                out.append(
                    Candidate(
                        ecosystem=Ecosystem.PYPI,
                        name=name,
                        manifest=manifest.path,
                        section=Section.RUNTIME,
                        evidence=[
                            Evidence(f"rule:{RULE}", rel, line, f"{detail} ({runner['source']})")
                        ],
                        confidence=0.8,
                        verified=True,
                        kinds=(FileKind.CONFIG.value,),
                        facts=DependencyFacts(
                            folder=folder.directory if folder else "",
                            rule=RULE,
                            layer_bases=tuple(folder.layer_bases(manifest)) if folder else (),
                        ),
                    )
                )
    return out


def _workflow_needs(
    project: Project, rel: str
) -> list[tuple[str, int, dict, list[tuple[str, str]]]]:
    """Per job of the workflow: (the requirements file it installs alone, the line its
    test runner runs on, the runner's table row, the plugin options that run uses)."""
    text = source_text(project, rel)  # the run reads each workflow once (scan.read_source)
    if "install" not in text or not _REQUIREMENT_OPTION.search(text):
        return []  # no job installs a requirements file: nothing to parse the YAML for
    try:
        doc = yaml_compat.safe_load(text)
    except yaml_compat.YAMLError:
        return []
    jobs = doc.get("jobs") if isinstance(doc, dict) else None
    if not isinstance(jobs, dict):
        return []
    lines = text.splitlines()
    out: list[tuple[str, int, dict, list[tuple[str, str]]]] = []
    for job in jobs.values():
        if not isinstance(job, dict) or not isinstance(job.get("steps"), list):
            continue
        base = _directory(job.get("defaults"))
        runs: list[tuple[str, str]] = []
        for step in job["steps"]:
            if not isinstance(step, dict):
                continue
            if isinstance(step.get("uses"), str) and _SETUP_ENVIRONMENT.search(step["uses"]):
                runs = []
                break  # an action that installs an environment manager (poetry, conda, uv)
            if isinstance(step.get("run"), str):
                here = step.get("working-directory")
                runs.append((step["run"], here if isinstance(here, str) else base))
        found = _needs(runs)
        if found is not None:
            target, command, runner, options = found
            number = next((i for i, t in enumerate(lines, 1) if command in t), 0)
            out.append((target, number, runner, options))
    return out


def _directory(defaults: object) -> str:
    run = defaults.get("run") if isinstance(defaults, dict) else None
    wd = run.get("working-directory") if isinstance(run, dict) else None
    return wd if isinstance(wd, str) else ""


def _needs(
    runs: list[tuple[str, str]],
) -> tuple[str, str, dict, list[tuple[str, str]]] | None:
    """(the one requirements file the job installs, its test command line, the runner's
    row, the (option, plugin) pairs its runs use), or None when the job runs no test
    runner of the table or may get it elsewhere."""
    files: set[str] = set()
    command, runner = "", None
    options: dict[str, str] = {}
    for run, directory in runs:
        if _ENVIRONMENTS.search(run):
            return None
        for raw in run.replace("\\\n", " ").splitlines():  # continued lines joined
            line = raw.split(" #", 1)[0].strip()
            m = _PIP_INSTALL.match(line)
            if m:
                try:
                    words = shlex.split(m.group(1))
                except ValueError:
                    return None
                it = iter(words)
                for w in it:
                    target = None
                    if w in ("-r", "--requirement"):
                        target = next(it, "")
                    elif w.startswith("--requirement="):
                        target = w.split("=", 1)[1]
                    elif w.startswith("-r") and len(w) > 2:
                        target = w[2:]
                    elif w.startswith("-") or w in _PROJECT_ITSELF:
                        # the project without extras brings only its runtime needs, which
                        # never hold the runner the tests need (an extra, `.[test]`, may)
                        continue
                    elif w.lower() not in _INSTALLER:
                        return None  # a package or the project's extra: it may bring pytest
                    if target:
                        files.add(posixpath.normpath(posixpath.join(directory, target)))
                continue
            for row, regex in _runner_commands():
                p = regex.search(line)
                if p and (runner is None or row is runner):
                    command, runner = command or line, row
                    if row.get("plugin_options"):
                        for option in python_pytest.options_in(p.group(1)):
                            plugins = python_pytest.providers(
                                "option", option, python_pytest.table()
                            )
                            if len(plugins) == 1:  # an option two plugins add decides nothing
                                options.setdefault(option, plugins[0].package)
    if runner is None or len(files) != 1:
        return None
    return next(iter(files)), command, runner, sorted(options.items())


@lru_cache(maxsize=1)
def _runner_commands() -> tuple[tuple[dict, re.Pattern[str]], ...]:
    """Each runner row of data/python/ci_test_runners.toml with the regex that finds its
    command (`pytest …`, `python -m pytest …`), capturing the rest of the line."""
    out = []
    for row in load_table("python/ci_test_runners.toml")["runner"]:
        cmd = re.escape(row["command"])
        regex = re.compile(rf"(?:^|[\s;&|(])(?:python3?\s+-m\s+)?{cmd}\b(?![-\w])(.*)$")
        out.append((row, regex))
    return tuple(out)
