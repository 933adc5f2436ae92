"""Check mode speaks deptry's codes, reads `[tool.deptry]`, and looks in every place a
project declares what it installs before calling a name missing."""

import json
import os
import subprocess
import sys
from pathlib import Path

from conftest import write_tree

from depinfer.check import Known, find_problems, run_check
from depinfer.config import load_config
from depinfer.mapping.python_tooling import tooling_declarations
from depinfer.model import Candidate, Ecosystem, Evidence, Manifest, Project, Section
from depinfer.scan import scan

ROOT = Path(__file__).resolve().parent.parent


def _project(tmp_path: Path, declared: dict[str, list[str]], text: str = "") -> Project:
    (tmp_path / "pyproject.toml").write_text(text or "[project]\nname='x'\n")
    m = Manifest("pyproject.toml", Ecosystem.PYPI, "pyproject", declared=declared)
    return Project(root=tmp_path, manifests=[m])


def _cand(name: str, section=Section.RUNTIME, file=None, modules=()) -> Candidate:
    file = file or ("tests/test_mod.py" if section == Section.DEV else "pkg/mod.py")
    return Candidate(
        Ecosystem.PYPI,
        name,
        "pyproject.toml",
        section=section,
        import_names=list(modules) or [name],
        evidence=[Evidence("import", file, 3)],
    )


def codes(findings):
    return sorted((f.code, f.name) for f in findings)


def _check(path: Path, *args: str, env_extra: dict | None = None):
    env = {**os.environ, "PYTHONPATH": str(ROOT), **(env_extra or {})}
    return subprocess.run(
        [sys.executable, "-m", "depinfer", str(path), "--check", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )


# --- codes ---------------------------------------------------------------------------


def test_dep003_transitive_when_a_declared_dependency_brings_it(tmp_path):
    project = _project(tmp_path, {"dependencies": ["fastapi"]})
    known = Known(brought={"starlette": ("fastapi",)})
    found = find_problems(project, [_cand("fastapi"), _cand("starlette")], known)
    assert codes(found) == [("DEP003", "starlette")]
    assert "fastapi requires it" in found[0].message


def test_transitive_needs_the_parent_declared_else_missing(tmp_path):
    project = _project(tmp_path, {"dependencies": []})
    found = find_problems(project, [_cand("starlette")], Known(brought={"starlette": ("fastapi",)}))
    assert codes(found) == [("DEP001", "starlette")]


def test_offline_transitive_from_shipped_framework_parts(tmp_path):
    write_tree(
        tmp_path,
        {
            "pyproject.toml": "[project]\nname='app'\ndependencies=['fastapi']\n",
            "app/__init__.py": "import fastapi\nfrom starlette.requests import Request\n",
        },
    )
    _, findings = run_check(str(tmp_path))
    assert codes(findings) == [("DEP003", "starlette")]


def test_dep005_standard_library_declared(tmp_path):
    (tmp_path / "pyproject.toml").write_text(
        "[project]\nname='x'\ndependencies = [\n  'argparse',\n"
        "  'dataclasses; python_version < \"3.7\"',\n]\n"
    )
    project = Project(
        root=tmp_path,
        manifests=[
            Manifest(
                "pyproject.toml",
                Ecosystem.PYPI,
                "pyproject",
                declared={"dependencies": ["argparse", "dataclasses"]},
            )
        ],
    )
    found = find_problems(project, [], Known(python="3.10"))
    # the backport limited to old Pythons is left alone; it is not unused either
    assert codes(found) == [("DEP002", "dataclasses"), ("DEP005", "argparse")]
    assert found[0].line == 4 or found[1].line == 4


def test_depinfer_own_finding_is_dep101(tmp_path):
    project = _project(tmp_path, {"dependencies": ["pytest"]})
    assert codes(find_problems(project, [_cand("pytest", Section.DEV)])) == [("DEP101", "pytest")]


def test_findings_carry_a_column(tmp_path):
    write_tree(tmp_path, {"pkg/mod.py": "\n\nif True:\n    import requests\n"})
    project = _project(tmp_path, {"dependencies": []})
    cand = _cand("requests")
    cand.evidence = [Evidence("import", "pkg/mod.py", 4)]
    (f,) = find_problems(project, [cand])
    assert (f.file, f.line, f.column) == ("pkg/mod.py", 4, 5)


# --- [tool.deptry] -----------------------------------------------------------------------


DEPTRY = """[project]
name = "app"
dependencies = ["attrs"]

[tool.deptry]
ignore = ["DEP002"]
per_rule_ignores = { DEP001 = ["yaml"] }
known_first_party = ["helpers"]
exclude = ["scratch"]
extend_exclude = ["notebooks/.*"]

[tool.deptry.package_module_name_map]
pillow-simd = "PIL"
"""


def test_deptry_settings_are_read_when_depinfer_has_none(tmp_path):
    (tmp_path / "pyproject.toml").write_text(DEPTRY)
    cfg = load_config(tmp_path, [])
    assert cfg.ignored("DEP002", "anything") and not cfg.ignored("DEP001", "anything")
    assert cfg.ignored("DEP001", "yaml")
    assert cfg.known_first_party == {"helpers"}
    assert cfg.mapping == {"PIL": "pillow-simd"}
    assert cfg.deptry_excludes == ["scratch", "notebooks/.*"]
    assert cfg.sources == ["pyproject.toml [tool.deptry]"]


def test_depinfer_settings_win_over_deptry(tmp_path):
    (tmp_path / "pyproject.toml").write_text(DEPTRY + "\n[tool.depinfer]\nignore = ['x']\n")
    cfg = load_config(tmp_path, [])
    assert not cfg.ignore_codes and not cfg.known_first_party and cfg.ignore_all == {"x"}


def test_deptry_ignores_apply_to_check_findings(tmp_path):
    write_tree(
        tmp_path,
        {
            "pyproject.toml": DEPTRY,
            "app/__init__.py": "import yaml\nimport helpers\nimport requests\nimport PIL\n",
        },
    )
    _, findings = run_check(str(tmp_path))
    # yaml ignored by module name for DEP001, attrs' DEP002 by the whole rule, helpers is
    # first-party, PIL maps to pillow-simd
    assert codes(findings) == [("DEP001", "pillow-simd"), ("DEP001", "requests")]


# --- every place a project declares dependencies ---------------------------------------


def test_tooling_places_are_read(tmp_path):
    write_tree(
        tmp_path,
        {
            "pyproject.toml": "[project]\nname='x'\n"
            "[tool.hatch.envs.lint]\ndependencies = ['ruff>=0.1']\n",
            "tox.ini": "[tox]\nenvlist = py\n\n[testenv]\ndeps =\n    pytest>=7\n"
            "    -r requirements.d/dev.txt\n    cov: coverage\ncommands = pytest\n",
            "requirements.d/dev.txt": "-r more.txt\nhypothesis\n",
            "requirements.d/more.txt": "freezegun==1.0\n",
            "noxfile.py": "import nox\n@nox.session\ndef t(session):\n"
            "    session.install('mypy', 'types-requests')\n",
            "hatch.toml": "[envs.docs]\nextra-dependencies = ['sphinx']\n",
            ".github/workflows/ci.yml": "jobs:\n  t:\n    steps:\n"
            "      - run: python -m pip install -U pip build twine  # release\n",
            "pixi.toml": "[feature.test.pypi-dependencies]\nrespx = '*'\n",
        },
    )
    names = tooling_declarations(scan(tmp_path))
    for name in (
        "pytest",
        "coverage",
        "hypothesis",
        "freezegun",
        "mypy",
        "types-requests",
        "ruff",
        "sphinx",
        "twine",
        "build",
        "respx",
    ):
        assert name in names, name
    assert names["freezegun"] == "requirements.d/more.txt"


ISSUE_TREE = {
    "pyproject.toml": "[project]\nname='app'\ndependencies=['requests']\n"
    "[project.optional-dependencies]\ndocs=['sphinx']\n",
    "app/__init__.py": "import requests\n",
    "tests/test_app.py": "import pytest\nimport hypothesis\n",
    "requirements.d/dev.txt": "pytest\n",
    "tox.ini": "[testenv]\ndeps = hypothesis\ncommands = pytest\n",
}


def test_pytest_declared_in_requirements_d_or_tox_is_not_missing(tmp_path):
    write_tree(tmp_path, ISSUE_TREE)
    result, findings = run_check(str(tmp_path))
    assert findings == []
    # with a test group the inference could write to, the other places still count
    tree = dict(ISSUE_TREE)
    tree["pyproject.toml"] += "test=['coverage']\n"
    write_tree(tmp_path, tree)
    result, findings = run_check(str(tmp_path))
    assert findings == []


def test_check_and_inference_agree_on_test_imports(tmp_path):
    """A test import the inference would not write (no test group to hold it) is not
    missing; one it would write (a test extra exists) is."""
    tree = dict(ISSUE_TREE)
    tree["tests/test_app.py"] = "import pytest\nimport hypothesis\nimport respx\n"
    write_tree(tmp_path, tree)
    result, findings = run_check(str(tmp_path))
    assert findings == []
    assert not [r for r in result.requirements if r.name == "respx"]
    tree["pyproject.toml"] += "test=['pytest']\n"
    write_tree(tmp_path, tree)
    result, findings = run_check(str(tmp_path))
    assert codes(findings) == [("DEP001", "respx")]
    assert [r.section for r in result.requirements if r.name == "respx"] == [Section.DEV]


def test_runtime_import_declared_only_in_tox_is_misplaced(tmp_path):
    write_tree(
        tmp_path,
        {
            "pyproject.toml": "[project]\nname='app'\ndependencies=[]\n",
            "app/__init__.py": "import yaml\n",
            "tox.ini": "[testenv]\ndeps =\n    pyyaml\n",
        },
    )
    _, findings = run_check(str(tmp_path))
    assert [(f.code, f.manifest) for f in findings] == [("DEP004", "tox.ini")]


def test_cli_json_shows_new_codes(tmp_path):
    write_tree(
        tmp_path,
        {
            "pyproject.toml": "[project]\nname='app'\ndependencies=['pytest']\n",
            "app/__init__.py": "\n",
            "tests/test_a.py": "import pytest\n",
        },
    )
    proc = _check(tmp_path, "--format", "json")
    assert proc.returncode == 1, proc.stderr
    data = json.loads(proc.stdout)
    assert [(f["code"], f["name"]) for f in data["findings"]] == [("DEP101", "pytest")]


def test_requirements_file_installing_the_project_is_a_dev_environment(tmp_path):
    """httpx's requirements.txt (`-e .[extras]` plus tooling) is no runtime list: its
    tools are not unused runtime dependencies."""
    write_tree(
        tmp_path,
        {
            "pyproject.toml": "[project]\nname='app'\ndependencies=['idna']\n",
            "app/__init__.py": "import idna\n",
            "requirements.txt": "-e .[cli]\nmkdocs==1.6.1\ntwine\n",
        },
    )
    _, findings = run_check(str(tmp_path))
    assert findings == []


def test_a_module_no_distribution_is_named_after_is_not_missing(tmp_path):
    write_tree(
        tmp_path,
        {
            "pyproject.toml": "[project]\nname='app'\ndependencies=[]\n"
            "[dependency-groups]\ndev=['ruff']\n",
            "app/__init__.py": "import typing\nif typing.TYPE_CHECKING:\n"
            "    from _typeshed.wsgi import StartResponse\n",
        },
    )
    _, findings = run_check(str(tmp_path))
    assert findings == []


class _Registries:
    offline = False

    def metadata(self, ecosystem, name, version=None):
        return {
            "sphinx": {"requires_dist": ["docutils>=0.20", "pytest; extra == 'test'"]},
        }.get(name, {})


class _Ctx:
    registries = _Registries()


def test_online_transitive_from_requires_dist_of_a_group_dependency(tmp_path):
    from depinfer.check import _brought  # noqa: PLC2701 (the unit under test)

    write_tree(
        tmp_path,
        {
            "pyproject.toml": "[project]\nname='app'\ndependencies=[]\n"
            "[dependency-groups]\ndocs=['sphinx']\n",
        },
    )
    project = scan(tmp_path)
    brought = _brought(project, _Ctx(), online=True)
    assert brought["docutils"] == ("sphinx",)
    assert "pytest" not in brought  # an extra's requirement comes only with the extra
    assert _brought(project, _Ctx(), online=False) == {}


def test_a_nested_projects_requirements_are_its_own(tmp_path):
    write_tree(
        tmp_path,
        {
            "pyproject.toml": "[project]\nname='x'\n",
            "examples/celery/pyproject.toml": "[project]\nname='task'\n",
            "examples/celery/requirements.txt": "kombu\n",
            "requirements.d/dev.txt": "pytest\n",
        },
    )
    names = tooling_declarations(scan(tmp_path))
    assert "pytest" in names and "kombu" not in names


def test_deptry_exclude_regexes_leave_paths_out_of_the_scan(tmp_path):
    write_tree(
        tmp_path,
        {
            "pyproject.toml": '[project]\nname = "app"\nversion = "1"\ndependencies = []\n'
            '[tool.deptry]\nextend_exclude = ["scratch/.*", "notes\\\\.py"]\n',
            "app/__init__.py": "",
            "scratch/try.py": "import pandas\n",
            "notes.py": "import numpy\n",
            "tools/keep.py": "import yaml\n",
        },
    )
    files = {f.path for f in scan(tmp_path).files}
    assert "scratch/try.py" not in files and "notes.py" not in files
    assert "tools/keep.py" in files


def test_inference_and_check_agree_on_a_test_dependency_tox_installs(tmp_path):
    from depinfer.context import Options
    from depinfer.pipeline import infer

    write_tree(
        tmp_path,
        {
            "pyproject.toml": '[project]\nname = "app"\nversion = "1"\ndependencies = []\n'
            '[project.optional-dependencies]\ntest = ["coverage"]\n',
            "tox.ini": "[testenv]\ndeps =\n    pytest\ncommands = pytest\n",
            "app/__init__.py": "",
            "tests/test_app.py": "import pytest\n\n\ndef test_x():\n    assert pytest\n",
        },
    )
    written = infer(tmp_path, Options(offline=True, versions=False)).requirements
    assert "pytest" not in {r.name for r in written}  # tox installs it: no entry needed
    _, findings = run_check(str(tmp_path))
    assert "pytest" not in {f.name for f in findings}  # and check does not call it missing
