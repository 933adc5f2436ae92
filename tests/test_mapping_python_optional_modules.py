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


def test_a_module_imported_only_for_type_checking_has_type_only_imports(tmp_path):
    from depinfer.context import Options
    from depinfer.model import Section
    from depinfer.pipeline import infer

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
    for rel, text in files.items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    result = infer(tmp_path, Options(offline=True, versions=False))
    runtime = {r.name for r in result.requirements if r.section == Section.RUNTIME}
    assert {"attrs", "deprecation"} <= runtime
    assert "typing-extensions" not in runtime


def test_a_gunicorn_worker_class_the_docs_run_makes_gunicorn_the_host(tmp_path):
    from depinfer.context import Options
    from depinfer.model import Section
    from depinfer.pipeline import infer

    files = {
        "pyproject.toml": '[project]\nname = "srv"\nversion = "1"\ndependencies = []\n',
        "srv/__init__.py": "import click\n",
        "srv/workers.py": (
            "from gunicorn.workers.base import Worker\n\n\nclass SrvWorker(Worker):\n    pass\n"
        ),
        "docs/deployment.md": "Run `gunicorn app:app -w 4 -k srv.workers.SrvWorker`.\n",
    }
    for rel, text in files.items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    result = infer(tmp_path, Options(offline=True, versions=False))
    runtime = {r.name for r in result.requirements if r.section == Section.RUNTIME}
    assert "click" in runtime and "gunicorn" not in runtime
    # without the documented worker class, the module's gunicorn import is a need
    (tmp_path / "docs/deployment.md").write_text("Run the server.\n")
    result = infer(tmp_path, Options(offline=True, versions=False))
    assert "gunicorn" in {r.name for r in result.requirements if r.section == Section.RUNTIME}


def test_every_host_row_says_why_where_and_how_its_files_are_found():
    from depinfer.mapping.python_hosts import hosts, runner
    from depinfer.model import Section

    rows = hosts()
    assert rows and len({h.dist for h in rows}) == len(rows)
    for host in rows:
        assert host.modules and host.section in Section
        assert host.entry_point_groups or host.docs_pattern is not None
    assert runner().command and dict(runner().config_sections)
