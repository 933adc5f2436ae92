"""scripts/select_corpus.py step 5: the CI test command is one of the repository's language."""

from pathlib import Path

from conftest import load_script, write_tree

TWO_JOBS = """\
on: push
jobs:
  rust:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: cargo test --verbose
  web:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: npm ci
      - run: npm test
"""


def _ci(tmp_path: Path, workflow: str, lang: str, monkeypatch):
    sc = load_script("select_corpus", monkeypatch)
    root = write_tree(tmp_path / "r", {".github/workflows/ci.yml": workflow})
    return sc.ci_test(root, sc.walk(root), lang)


def test_test_command_runs_the_decided_language(tmp_path, monkeypatch):
    assert _ci(tmp_path, TWO_JOBS, "javascript", monkeypatch)[0] == "npm test"
    assert _ci(tmp_path / "b", TWO_JOBS, "rust", monkeypatch)[0] == "cargo test --verbose"


def test_only_another_languages_test_job_is_no_test_command(tmp_path, monkeypatch):
    only_cargo = TWO_JOBS.split("  web:")[0]
    assert _ci(tmp_path, only_cargo, "python", monkeypatch) == (None, None)


def test_language_neutral_test_line_still_counts(tmp_path, monkeypatch):
    neutral = """\
on: push
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - run: make test
"""
    assert _ci(tmp_path, neutral, "python", monkeypatch)[0] == "make test"
