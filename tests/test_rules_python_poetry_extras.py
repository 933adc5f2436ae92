"""Names a Poetry extras list holds come back as optional Poetry dependencies."""

from __future__ import annotations

import shutil
from pathlib import Path

from depinfer.context import Options
from depinfer.pipeline import infer

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "python" / "rules-poetry-extras"


def _placed(root: Path) -> set[tuple[str, str | None, bool]]:
    result = infer(root, Options(offline=True, versions=False))
    return {(r.name, r.group, r.optional) for r in result.requirements}


def test_extras_names_become_optional_poetry_dependencies(tmp_path):
    root = tmp_path / "p"
    shutil.copytree(FIXTURE, root)
    placed = _placed(root)
    for name in ("tree-sitter", "tree-sitter-python", "tree-sitter-json"):
        assert (name, "extras.grammars", True) in placed, placed
    assert not any(group is None for _, group, _ in placed)


def test_pep621_extras_are_not_poetry_extras(tmp_path):
    root = tmp_path / "p"
    (root / "p").mkdir(parents=True)
    (root / "p" / "__init__.py").write_text("")
    (root / "pyproject.toml").write_text(
        '[project]\nname = "p"\nversion = "1"\ndependencies = []\n'
        '[project.optional-dependencies]\nfast = ["uvloop"]\n'
    )
    assert _placed(root) == set()
