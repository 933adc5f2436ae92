"""A repository module imported only where it may be missing makes its imports optional."""

from __future__ import annotations

import shutil
from pathlib import Path

from depinfer.context import Options
from depinfer.pipeline import infer

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "python" / "map-optional-modules"


def _runtime(root: Path) -> set[str]:
    result = infer(root, Options(offline=True, versions=False))
    return {r.name for r in result.requirements if r.group is None and not r.optional}


def _copy(tmp_path: Path) -> Path:
    root = tmp_path / "p"
    shutil.copytree(FIXTURE, root)
    return root


def test_guarded_repository_modules_make_their_imports_optional(tmp_path):
    assert _runtime(_copy(tmp_path)) == {"rich"}


def test_one_unguarded_importer_keeps_the_module_required(tmp_path):
    root = _copy(tmp_path)
    (root / "logkit" / "cli.py").write_text("from logkit._greenlets import GreenLocal\n")
    assert _runtime(root) == {"rich", "greenlet"}


def test_reraising_guard_keeps_the_module_required(tmp_path):
    root = _copy(tmp_path)
    (root / "logkit" / "cli.py").write_text(
        "try:\n    from logkit import twisted\n"
        "except ImportError as e:\n    raise SystemExit('install twisted') from e\n"
    )
    assert {"twisted", "zope-interface", "msgpack"} <= _runtime(root)


def test_ipython_extension_module_imports_are_optional_but_do_not_spread(tmp_path):
    root = _copy(tmp_path)
    init = root / "logkit" / "__init__.py"  # render.py is then imported by magic.py only
    init.write_text(init.read_text().replace("from logkit.render import render\n", ""))
    assert _runtime(root) == {"rich"}


def test_every_module_of_a_from_import_counts(tmp_path):
    root = _copy(tmp_path)
    (root / "logkit" / "cli.py").write_text("from logkit import render, _greenlets\n")
    assert _runtime(root) == {"rich", "greenlet"}
