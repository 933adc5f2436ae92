"""Backports imported as fallbacks or under version guards carry the marker of the Pythons
that lack the standard module (python_stdlib, data/python/python_backports.json)."""

from __future__ import annotations

from pathlib import Path

from conftest import FIXTURES, copy_fixture, infer_offline

from depinfer.mapping.python_stdlib import (
    backport_for,
    floor_below_table,
    lacking_marker,
    name_since,
    needed_on,
    since,
)
from depinfer.model import Section

FIXTURE = FIXTURES / "python" / "map-backport-markers"


def _runtime(path: Path, **opts) -> dict[str, str | None]:
    result = infer_offline(path, **opts)
    return {r.name: r.markers for r in result.requirements if r.section == Section.RUNTIME}


def _with_requires_python(tmp_path: Path, spec: str) -> Path:
    root = copy_fixture("python", "map-backport-markers", tmp_path / "repo")
    pyproject = root / "pyproject.toml"
    pyproject.write_text(pyproject.read_text().replace('">=3.7"', f'"{spec}"'))
    return root


def test_each_backport_gets_the_marker_of_the_pythons_that_lack_the_module():
    assert _runtime(FIXTURE) == {
        "tomli": 'python_version < "3.11"',
        "typing-extensions": 'python_version < "3.11"',  # typing.Self, not typing
        "importlib-metadata": 'python_version < "3.10"',  # the guard's, wider than 3.8
        "importlib-resources": 'python_version < "3.9"',  # files(), not the module
        "backports-zoneinfo": 'python_version < "3.9"',
        "backports-cached-property": 'python_version < "3.8"',  # below the stdlib table
        "exceptiongroup": 'python_version < "3.11"',
        "tzdata": None,  # the zoneinfo rule: on every Python
    }


def test_no_entry_when_requires_python_excludes_every_python_that_lacks_the_module(tmp_path):
    assert _runtime(_with_requires_python(tmp_path, ">=3.11")) == {"tzdata": None}


def test_requires_python_drops_only_the_backports_it_never_needs(tmp_path):
    assert _runtime(_with_requires_python(tmp_path, ">=3.9")) == {
        "tomli": 'python_version < "3.11"',
        "typing-extensions": 'python_version < "3.11"',
        "importlib-metadata": 'python_version < "3.10"',
        "exceptiongroup": 'python_version < "3.11"',
        "tzdata": None,
    }


def test_a_python2_fallback_is_never_written():
    assert "simplejson" not in _runtime(FIXTURE)
    assert lacking_marker(["json"]) == 'python_version < "3"'
    assert not needed_on('python_version < "3"', "3.7")


def test_lacking_marker_takes_the_newest_arrival_and_the_removal():
    assert lacking_marker(["typing", "typing.Self"]) == 'python_version < "3.11"'
    assert lacking_marker(["importlib.resources", "importlib.resources.files"]) == (
        'python_version < "3.9"'
    )
    assert lacking_marker(["distutils.version"]) == 'python_version >= "3.12"'
    # 3.8 is the stdlib table's oldest version: its own arrivals come from the backports table
    assert lacking_marker(["importlib.metadata"]) == 'python_version < "3.8"'
    assert lacking_marker(["importlib", "importlib.metadata"]) == 'python_version < "3.8"'
    assert lacking_marker(["tomllib", "distutils"]) == (
        'python_version < "3.11" or python_version >= "3.12"'
    )


def test_arrivals_before_the_stdlib_table_come_from_the_backports_table():
    assert since("dataclasses") == "3.7"
    assert since("importlib.resources") == "3.7"
    assert since("tomllib") == "3.11"
    assert since("json") is None
    assert name_since("functools.cached_property") == "3.8"
    assert name_since("typing.Self") == "3.11"
    assert name_since("functools.reduce") is None


def test_floor_below_the_table_follows_requires_python():
    assert floor_below_table([">=3.7"], "3.8") == "3.7"
    assert floor_below_table([">=3.6, <4"], "3.8") == "3.6"
    assert floor_below_table([">=3.9"], "3.9") == "3.9"
    assert floor_below_table([], "3.8") == "3.8"
    assert needed_on('python_version < "3.8"', "3.7")
    assert not needed_on('python_version < "3.8"', "3.8")


def test_same_named_backport_below_the_table(tmp_path):
    root = tmp_path / "repo"
    (root / "app").mkdir(parents=True)
    (root / "pyproject.toml").write_text(
        '[project]\nname = "app"\nversion = "1"\nrequires-python = ">=3.6"\ndependencies = []\n'
    )
    (root / "app" / "__init__.py").write_text("import dataclasses\nimport importlib.resources\n")
    # `import dataclasses` on 3.6 finds the backport; `importlib.resources` has no
    # same-named one, so a plain import of it asks for nothing
    assert _runtime(root) == {"dataclasses": 'python_version < "3.7"'}
    assert backport_for("dataclasses", (), "3.6").dist == "dataclasses"


def test_a_fallback_the_registry_names_keeps_the_marker_of_its_try(tmp_path):
    # `except ImportError: import tomlreaderz` after `import tomllib`: a name no shipped
    # index knows, confirmed by the registry's same-name look-up, is still the fallback of
    # its `try` (the marker of the Pythons that lack tomllib), not an unconditional entry;
    # and a Python 2 fallback is not written even where classifiers still list Python 2
    from conftest import write_tree

    from depinfer.context import Context, Options
    from depinfer.pipeline import infer
    from depinfer.registries import Registries

    class Knows(Registries):
        def exists_many(self, ecosystem, names):
            return {n: True for n in names}

    code = (
        "try:\n    import tomllib\nexcept ImportError:\n    import tomlreaderz as tomllib\n"
        "try:\n    import xml.etree.cElementTree as ET\nexcept ImportError:\n"
        "    import cElementTreeZ as ET\n"
    )
    setup_cfg = (
        "[metadata]\nname = app\nclassifiers =\n    Programming Language :: Python :: 2.6\n"
        "    Programming Language :: Python :: 3.12\n"
    )
    files = {"app/__init__.py": "", "app/codec.py": code, "setup.cfg": setup_cfg}
    root = write_tree(tmp_path / "repo", files)
    options = Options(versions=False)
    result = infer(root, options, ctx=Context(options, Knows(use_cache=False)))
    marks = {r.name: r.markers for r in result.requirements}
    assert marks == {"tomlreaderz": 'python_version < "3.11"'}
