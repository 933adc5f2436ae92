"""`--explain NAME`: every outcome for the name, once, with the reason the run recorded."""

from __future__ import annotations

from conftest import infer_offline, write_tree

from depinfer.model import Diagnostic, Inference, Project
from depinfer.report import explain_report

PYPROJECT = '[project]\nname = "ex"\nversion = "0.1"\ndependencies = []\n'
OPTIONAL = "try:\n    import ujson\nexcept ImportError:\n    ujson = None\nimport requests\n"


def _tree(tmp_path):
    files = {"pyproject.toml": PYPROJECT}
    files["pkg/__init__.py"] = (
        "from typing import TYPE_CHECKING\nimport yaml\n"
        "if TYPE_CHECKING:\n    import pandas\n" + OPTIONAL
    )
    for i in range(7):
        files[f"pkg/m{i}.py"] = OPTIONAL
    return infer_offline(write_tree(tmp_path, files))


def test_optional_import_gives_its_reason_once(tmp_path):
    text = explain_report(_tree(tmp_path), "ujson")
    assert text.count("ujson: not written to pyproject.toml") == 1
    assert "because: ujson: imported only where it may be missing (optional)" in text
    assert "considered" not in text
    assert "used in 8 places: pkg/__init__.py:" in text and "and 3 more" in text
    assert len(text.splitlines()) == len(set(text.splitlines()))


def test_typing_only_import_says_so(tmp_path):
    text = explain_report(_tree(tmp_path), "pandas")
    assert "pandas: not written to pyproject.toml" in text
    assert "imported only for type checking" in text


def test_written_names_the_deciding_strategy_and_groups_uses(tmp_path):
    text = explain_report(_tree(tmp_path), "requests")
    assert text.startswith("requests: written to pyproject.toml [dependencies] as requests")
    assert "decided by: placement:runtime_list" in text
    assert text.count("used in 8 places") == 1


def test_import_name_finds_the_distribution(tmp_path):
    text = explain_report(_tree(tmp_path), "yaml")
    assert text.startswith("pyyaml: written to pyproject.toml")
    assert "yaml → pyyaml" in text


def test_dev_placement_says_where_and_why(tmp_path):
    root = write_tree(
        tmp_path,
        {
            "pyproject.toml": PYPROJECT + '\n[dependency-groups]\ntest = ["pytest"]\n',
            "pkg/__init__.py": "import requests\n",
            "tests/test_x.py": "import pytest\nimport responses\n",
        },
    )
    text = explain_report(infer_offline(root), "responses")
    assert "written to pyproject.toml [dependency-groups.test]" in text
    assert "placed in dependency-groups.test, not the runtime list" in text
    assert "decided by: placement:dev_group" in text


def test_unknown_name(tmp_path):
    assert "no code in the repository uses it" in explain_report(_tree(tmp_path), "flask")


def test_a_name_only_the_run_s_messages_mention(tmp_path):
    result = Inference(
        Project(tmp_path),
        diagnostics=[Diagnostic("`lxml`: no distribution of that name; not written", "a.py")],
    )
    text = explain_report(result, "lxml")
    assert (
        text == "lxml: not written\n  because: `lxml`: no distribution of that name; not written\n"
    )
