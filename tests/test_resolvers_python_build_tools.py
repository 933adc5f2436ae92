"""Where the resolver places build tools and the optional imports tests exercise (offline,
names only): a packager or freezer is never a runtime dependency; an optional import the
tests import unguarded goes to the test group the CI installs."""

from __future__ import annotations

from conftest import placements, write_tree

from depinfer.resolvers import python as python_resolver
from depinfer.resolvers.python import build_tool_platforms

WITH_GROUPS = """[project]
name = "app"
version = "0.1"
dependencies = []

[project.optional-dependencies]
test = []
dev = []
"""
NO_GROUPS = '[project]\nname = "app"\nversion = "0.1"\ndependencies = []\n'


def test_a_freezer_imported_by_shipped_code_goes_to_the_dev_group(tmp_path):
    root = write_tree(
        tmp_path,
        {
            "pyproject.toml": WITH_GROUPS,
            "app/__init__.py": "import requests\n",
            "app/build_exe.py": "import PyInstaller.__main__\n",
        },
    )
    assert placements(root) == {
        ("requests", None),
        ("pyinstaller", "optional-dependencies.dev"),
    }


def test_without_a_dev_group_a_packager_is_not_written(tmp_path):
    root = write_tree(
        tmp_path,
        {
            "pyproject.toml": NO_GROUPS,
            "app/__init__.py": "import requests\n",
            "app/release.py": "import twine\nimport py2exe\n",
        },
    )
    assert placements(root) == {("requests", None)}


def test_pkg_resources_still_needs_setuptools_at_run_time(tmp_path):
    root = write_tree(
        tmp_path,
        {"pyproject.toml": NO_GROUPS, "app/__init__.py": "import pkg_resources\n"},
    )
    assert placements(root) == {("setuptools", None)}


def test_an_optional_import_the_tests_import_goes_to_the_test_group(tmp_path):
    guarded = "try:\n    import yaml\nexcept ImportError:\n    yaml = None\n"
    root = write_tree(
        tmp_path,
        {
            "pyproject.toml": WITH_GROUPS,
            "app/__init__.py": guarded,
            "tests/test_app.py": "import yaml\n",
        },
    )
    assert placements(root) == {("pyyaml", "optional-dependencies.test")}


def test_tests_that_guard_the_import_themselves_do_not_need_it(tmp_path):
    guarded = "try:\n    import yaml\nexcept ImportError:\n    yaml = None\n"
    root = write_tree(
        tmp_path,
        {
            "pyproject.toml": WITH_GROUPS,
            "app/__init__.py": guarded,
            "tests/test_app.py": guarded.replace("ImportError", "(ValueError, ImportError)"),
        },
    )
    assert placements(root) == set()


def test_one_guarded_test_import_shows_the_tests_run_without_it(tmp_path):
    guarded = "try:\n    import yaml\nexcept ImportError:\n    yaml = None\n"
    inside = "import pytest\n\n\ndef test_dump():\n    import yaml\n    assert yaml\n"
    root = write_tree(
        tmp_path,
        {
            "pyproject.toml": WITH_GROUPS,
            "app/__init__.py": guarded,
            "tests/test_guard.py": guarded,
            "tests/test_dump.py": inside,
        },
    )
    assert ("pyyaml", "optional-dependencies.test") not in placements(root)


def test_py2exe_installs_on_windows_alone():
    assert build_tool_platforms()["py2exe"] == "win32"


def test_a_one_platform_build_tool_in_the_dev_group_gets_its_marker(tmp_path, monkeypatch):
    # the offline index knows PyInstaller's module; stand it in for a Windows-only freezer
    monkeypatch.setattr(python_resolver, "build_tool_platforms", lambda: {"pyinstaller": "win32"})
    root = write_tree(
        tmp_path,
        {
            "pyproject.toml": WITH_GROUPS,
            "app/__init__.py": "import requests\n",
            "app/build_exe.py": "import PyInstaller.__main__\n",
        },
    )
    assert placements(root, "name", "group", "markers") == {
        ("requests", None, None),
        ("pyinstaller", "optional-dependencies.dev", 'sys_platform == "win32"'),
    }
