"""A repository module imported only where it may be missing makes its imports optional."""

from __future__ import annotations

from conftest import copy_fixture, infer_offline, runtime_names, write_tree


def test_guarded_repository_modules_make_their_imports_optional(tmp_path):
    assert runtime_names(copy_fixture("python", "map-optional-modules", tmp_path / "p")) == {"rich"}


def test_one_unguarded_importer_keeps_the_module_required(tmp_path):
    root = copy_fixture("python", "map-optional-modules", tmp_path / "p")
    (root / "logkit" / "cli.py").write_text("from logkit._greenlets import GreenLocal\n")
    assert runtime_names(root) == {"rich", "greenlet"}


def test_reraising_guard_keeps_the_module_required(tmp_path):
    root = copy_fixture("python", "map-optional-modules", tmp_path / "p")
    (root / "logkit" / "cli.py").write_text(
        "try:\n    from logkit import twisted\n"
        "except ImportError as e:\n    raise SystemExit('install twisted') from e\n"
    )
    assert {"twisted", "zope-interface", "msgpack"} <= runtime_names(root)


def test_ipython_extension_module_imports_are_optional_but_do_not_spread(tmp_path):
    root = copy_fixture("python", "map-optional-modules", tmp_path / "p")
    init = root / "logkit" / "__init__.py"  # render.py is then imported by magic.py only
    init.write_text(init.read_text().replace("from logkit.render import render\n", ""))
    assert runtime_names(root) == {"rich"}


def test_every_module_of_a_from_import_counts(tmp_path):
    root = copy_fixture("python", "map-optional-modules", tmp_path / "p")
    (root / "logkit" / "cli.py").write_text("from logkit import render, _greenlets\n")
    assert runtime_names(root) == {"rich", "greenlet"}


def test_a_module_imported_only_for_type_checking_has_type_only_imports(tmp_path):
    from depinfer.model import Section

    files = {
        "pyproject.toml": '[project]\nname = "p"\nversion = "1"\ndependencies = []\n'
        '[project.optional-dependencies]\ntest = ["pytest"]\n',
        "p/__init__.py": "",
        # plotnine's layout: aliases in p/typing.py, imported under TYPE_CHECKING only
        "p/typing.py": "from typing_extensions import TypeAlias\n\nFloat: TypeAlias = float\n",
        "p/core.py": (
            "from __future__ import annotations\n\nfrom typing import TYPE_CHECKING\n\n"
            "import attrs\n\nif TYPE_CHECKING:\n    from p.typing import Float\n"
            "    from p.styled import Styled\n"
        ),
        # public API the tests import at run time: its imports stay runtime
        "p/styled.py": "import deprecation\n\nclass Styled:\n    pass\n",
        "tests/test_styled.py": "from p.styled import Styled\n\ndef test_it():\n    assert Styled\n",
    }
    write_tree(tmp_path, files)
    result = infer_offline(tmp_path)
    runtime = {r.name for r in result.requirements if r.section == Section.RUNTIME}
    assert {"attrs", "deprecation"} <= runtime
    assert "typing-extensions" not in runtime
