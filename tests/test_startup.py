"""Start-up: `--check` and `--offline --names-only` load only what they use (issue 27)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from conftest import REPO, write_tree

from depinfer import runtime

# what the offline Python runs never need: the HTTP stack and registry clients, the
# version stage, pathspec (while no ignore line can match), process pools, tempfile
NOT_LOADED = (
    "depinfer.registries.http",
    "depinfer.registries.clients",
    "depinfer.registries.endpoints",
    "depinfer.resolvers.python_versions",
    "requests",
    "requests_cache",
    "pathspec",
    "packaging.requirements",
    "packaging.specifiers",
    "concurrent.futures.thread",
    "multiprocessing",
)

PROBE = """
import json, runpy, sys
sys.argv = ["depinfer", *sys.argv[1:]]
try:
    runpy.run_module("depinfer", run_name="__main__")
except SystemExit:
    pass
sys.__stderr__.write(json.dumps(sorted(sys.modules)))
"""


@pytest.mark.parametrize("flags", [["--check"], ["--offline", "--names-only"]])
def test_offline_runs_load_only_what_they_use(tmp_path, flags):
    tree = write_tree(
        tmp_path / "t",
        {
            "pyproject.toml": "[project]\nname = 'a'\nrequires-python = '>=3.9'\n"
            "dependencies = ['requests>=2; python_version>\"3\"']\n",
            "requirements-dev.txt": "pytest==8.0\n",
            ".gitignore": "*.log\nbuild/\n",
            "a.py": "import requests\nimport yaml\n",
        },
    )
    env = {**os.environ, "PYTHONPATH": str(REPO), "DEPINFER_CACHE_DIR": str(tmp_path / "c")}
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(tree), *flags],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        cwd=tmp_path,
    )
    loaded = set(json.loads(done.stderr.strip().splitlines()[-1]))
    assert "depinfer.rules.python" in loaded  # it did run
    assert not [m for m in NOT_LOADED if m in loaded]


@pytest.mark.parametrize(
    "spec",
    [">=3.8", ">=3.8, <4", "~=3.9", "==3.*", "!=3.0.*,>=3.7", ">3.9", "<3.10", "<=3.7.99", ">=3.8,"]
    + ["~=3", ">=3.*", "==3.8.0.*", ">=v3.8", "3.8", ">=3.13", "===3.9", ">=3.10.1,<3.10.5"],
)
def test_requires_python_reads_as_packaging_reads_it(spec):
    from packaging.specifiers import InvalidSpecifier, SpecifierSet

    try:
        allowed = SpecifierSet(spec)
    except InvalidSpecifier:
        expected = None
    else:
        expected = next(
            (
                v
                for v in runtime.known_versions()
                if allowed.contains(f"{v}.0", prereleases=True)
                or allowed.contains(f"{v}.99", prereleases=True)
            ),
            None,
        )
    assert runtime.target_from_requires_python(spec) == expected


def test_a_workflow_is_parsed_once_however_often_the_versions_are_asked(tmp_path, monkeypatch):
    import yaml

    from depinfer.scan import scan

    tree = write_tree(
        tmp_path / "t",
        {
            "setup.py": "",
            "a.py": "import os\n",
            ".github/workflows/ci.yml": f"# {tmp_path}\njobs:\n  t:\n    strategy:\n"
            "      matrix:\n        python-version: ['3.9', '3.12']\n",
        },
    )
    parsed = []
    real = yaml.safe_load
    monkeypatch.setattr(yaml, "safe_load", lambda text: parsed.append(1) or real(text))
    project = scan(tree)
    answers = {runtime.python_runtime(project).minimum for _ in range(3)}
    assert answers == {"3.9"} and len(parsed) == 1
