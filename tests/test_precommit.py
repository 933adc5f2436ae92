"""The hook as users run it: real `pre-commit try-repo` against temporary git repositories.

pre-commit builds its own environment for the hook (pip installs depinfer from this
checkout), so this is the slowest test; it shares one PRE_COMMIT_HOME across both cases.
"""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.skipif(
    shutil.which("pre-commit") is None, reason="pre-commit not installed"
)


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    home = tmp_path_factory.mktemp("pre-commit-home")
    return {
        **os.environ,
        "PRE_COMMIT_HOME": str(home),
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@t",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@t",
    }


def _repo(path: Path, declared: list[str]) -> Path:
    path.mkdir()
    deps = ", ".join(f'"{d}"' for d in declared)
    (path / "pyproject.toml").write_text(
        f'[project]\nname = "app"\nversion = "1"\ndependencies = [{deps}]\n'
    )
    (path / "app").mkdir()
    (path / "app" / "__init__.py").write_text("import requests\nimport yaml\n")
    subprocess.run(["git", "init", "-q"], cwd=path, check=True)
    subprocess.run(["git", "add", "-A"], cwd=path, check=True)
    return path


def _try(repo: Path, env) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["pre-commit", "try-repo", str(ROOT), "depinfer-check", "--all-files"],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )


def test_hook_fails_naming_the_undeclared_import(tmp_path, env):
    proc = _try(_repo(tmp_path / "missing", ["requests"]), env)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert (
        "app/__init__.py:2:1: DEP001 'pyyaml' is imported but not declared in pyproject.toml"
        in proc.stdout
    )


def test_hook_passes_when_everything_is_declared(tmp_path, env):
    proc = _try(_repo(tmp_path / "clean", ["requests", "PyYAML>=6"]), env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Passed" in proc.stdout
