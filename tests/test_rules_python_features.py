"""The declare model's features (rules/python_features.py) and the tool candidates made
from evidence without an import (rules/python_tools.py)."""

from __future__ import annotations

from conftest import copy_fixture, infer_offline, write_tree

from depinfer.facts.python import dependency_facts
from depinfer.rules import python_tools


def _features(inference, name: str, manifest: str = "requirements.txt"):
    for c in inference.candidates:
        if c.name == name and c.manifest == manifest:
            return dependency_facts(c).declare
    raise AssertionError(f"no candidate {name} for {manifest}")


def test_features_say_where_and_how_each_candidate_is_used(tmp_path):
    root = copy_fixture("python", "model-guarded-requirements", tmp_path / "repo")
    result = infer_offline(root)
    requests = _features(result, "requests")
    assert requests.where == ("source",) and requests.how == ("top",)
    openai = _features(result, "openai")
    assert openai.how == ("guarded",) and openai.files == 1
    assert openai.manifest_format == "requirements" and not openai.sole_list
    pytest_ = _features(result, "pytest")
    assert set(pytest_.where) == {"ci", "test"} and pytest_.how == ()
    flake8 = _features(result, "flake8")
    assert set(flake8.where) == {"ci", "tool-config"} and flake8.tooling  # CI installs it
    assert _features(result, "sphinx").where == ("docs-config",)
    assert _features(result, "myst-parser").where == ("docs-config",)
    assert _features(result, "sphinx-rtd-theme").where == ("docs-config",)


def test_offline_runs_leave_the_required_by_feature_unknown(tmp_path):
    root = copy_fixture("python", "model-guarded-requirements", tmp_path / "repo")
    openai = _features(infer_offline(root), "openai")
    assert openai.required_known is False and openai.required_by is None


def test_project_kind_and_sole_list(tmp_path):
    root = write_tree(
        tmp_path / "repo",
        {
            "requirements.txt": "",
            "app.py": "import yaml\n",
            "tests/test_app.py": "import pytest\n",
        },
    )
    result = infer_offline(root)
    pytest_ = _features(result, "pytest")
    assert pytest_.sole_list and pytest_.project_kind == "application"
    assert pytest_.where == ("test",)
    lib = write_tree(
        tmp_path / "lib",
        {
            "pyproject.toml": '[project]\nname = "lib"\nversion = "1"\n',
            "lib/__init__.py": "import yaml\n",
        },
    )
    assert _features(infer_offline(lib), "pyyaml", "pyproject.toml").project_kind == "library"


def test_command_lines_name_the_tools_they_run():
    assert python_tools.command_tools("flake8 . --count") == ["flake8"]
    assert python_tools.command_tools("coverage run -m pytest tests") == ["coverage", "pytest"]
    assert python_tools.command_tools("poetry run black --check .") == ["black"]
    assert python_tools.command_tools("python -m mypy src && echo ok") == ["mypy"]
    assert python_tools.command_tools("FOO=1 isort --check .") == ["isort"]
    assert python_tools.command_tools("cd docs; make html") == []
    assert python_tools.command_tools("git diff --exit-code") == []


def test_tool_configuration_names_the_tool():
    texts = {
        "pyproject.toml": "[tool.black]\nline-length = 100\n[tool.coverage.run]\nbranch = true\n",
        "setup.cfg": "[flake8]\nmax-line-length = 100\n[tool:pytest]\naddopts = -q\n",
        ".coveragerc": "[run]\n",
        "broken.cfg": "[unclosed\n",
    }
    found = python_tools.from_tool_config(list(texts), texts.get)
    assert {(dist, rel) for dist, _, rel, _, _ in found} == {
        ("black", "pyproject.toml"),
        ("coverage", "pyproject.toml"),
        ("flake8", "setup.cfg"),
        ("pytest", "setup.cfg"),
        ("coverage", ".coveragerc"),
    }


def test_docs_conf_names_sphinx_its_extensions_and_theme():
    text = (
        'extensions = ["sphinx.ext.autodoc", "myst_parser"]\n'
        'html_theme = "furo"\n'
        "extensions += ['sphinx_copybutton']\n"
    )
    found = python_tools.from_docs_conf(["docs/conf.py"], {"docs/conf.py": text}.get)
    assert [f[0] for f in found] == ["sphinx", "myst-parser", "furo", "sphinx-copybutton"]
    assert python_tools.from_docs_conf(["docs/conf.py"], {"docs/conf.py": "def (:"}.get) == [
        ("sphinx", "docs-config", "docs/conf.py", 1, "builds the documentation")
    ]


def test_a_dev_rule_counts_where_it_fired():
    from depinfer.facts.python import DependencyFacts
    from depinfer.model import Candidate, Ecosystem, Section
    from depinfer.rules.python_features import where_used

    def rule(kinds):
        return Candidate(
            Ecosystem.PYPI, "x", "requirements.txt", section=Section.DEV, kinds=kinds,
            facts=DependencyFacts(rule="some-rule"),
        )  # fmt: skip

    assert where_used([rule(("test",))]) == ("test",)  # a pytest plugin the tests use
    assert where_used([rule(("config",))]) == ("test",)  # `--cov` in the pytest options
    assert where_used([rule(("example",))]) == ("example",)  # a driver URL in a sample
