"""Names a Poetry extras list holds come back as optional Poetry dependencies."""

from __future__ import annotations

from conftest import copy_fixture, placements


def test_extras_names_become_optional_poetry_dependencies(tmp_path):
    root = copy_fixture("python", "rules-poetry-extras", tmp_path / "p")
    placed = placements(root, "name", "group", "optional")
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
    assert placements(root, "name", "group", "optional") == set()
