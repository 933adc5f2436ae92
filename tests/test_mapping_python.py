"""Python mapping: internal names, stdlib per target, backports, the shipped index."""

from __future__ import annotations

from pathlib import Path

from conftest import FIXTURES, copy_fixture, infer_offline, offline_context, placements, write_tree

from depinfer.check import run_check
from depinfer.mapping.python_hosts import hosts, runner
from depinfer.mapping.python_index import canonical, load_index
from depinfer.mapping.python_stdlib import (
    backport_for,
    is_stdlib,
    needed_on,
)
from depinfer.model import Section
from depinfer.runtime import target_from_requires_python


def _runtime_markers(path: Path, **opts) -> dict[str, str | None]:
    result = infer_offline(path, **opts)
    return {r.name: r.markers for r in result.requirements if r.section == Section.RUNTIME}


def test_index_maps_import_names_that_differ_from_distributions():
    index = load_index()
    assert index.lookup("yaml").chosen == "pyyaml"
    assert index.lookup("PIL.Image").chosen == "pillow"
    assert index.lookup("dateutil.parser").chosen == "python-dateutil"
    assert index.lookup("sklearn").chosen == "scikit-learn"
    # a documented row: PyGObject's `gi` is in no wheel-derived source
    assert index.lookup("gi.repository").chosen == "pygobject"


def test_index_maps_namespace_subpackages_by_longest_prefix():
    index = load_index()
    assert index.lookup("google.cloud.storage.blob").chosen == "google-cloud-storage"
    assert index.lookup("google.auth.transport.requests").chosen == "google-auth"
    assert index.lookup("azure.storage.blob").chosen == "azure-storage-blob"
    assert index.lookup("zope.interface").chosen == "zope-interface"


def test_index_keeps_alternatives_and_prefers_popular_provider():
    match = load_index().lookup("cv2")
    assert match.chosen == "opencv-python"
    assert "opencv-python-headless" in match.alternatives
    assert match.ambiguous


def test_stdlib_depends_on_target_version():
    assert is_stdlib("tomllib", "3.11")
    assert not is_stdlib("tomllib", "3.10")
    assert is_stdlib("distutils.version", "3.11")
    assert not is_stdlib("distutils", "3.12")


def test_backports_carry_python_version_markers():
    bp = backport_for("typing", ("Self",), "3.10")
    assert bp.dist == "typing-extensions" and bp.marker == 'python_version < "3.11"'
    assert backport_for("typing", ("Self",), "3.11") is None
    assert backport_for("tomllib", (), "3.10").dist == "tomli"
    assert backport_for("distutils", (), "3.12").dist == "setuptools"


def test_marker_that_never_holds_on_target_is_not_needed():
    assert not needed_on('python_version < "3.9"', "3.10")
    assert needed_on('python_version < "3.11"', "3.10")


def test_target_is_lowest_allowed_minor():
    assert target_from_requires_python(">=3.9") == "3.9"
    assert target_from_requires_python(">=3.10,<4") == "3.10"
    assert target_from_requires_python(None) is None


def test_quickstart_example_maps_differing_names_and_backport_marker():
    names = _runtime_markers(FIXTURES / "python" / "quickstart")
    assert set(names) == {"pyyaml", "pillow", "python-dateutil", "tomli"}
    assert names["tomli"] == 'python_version < "3.11"'


def test_local_modules_are_never_mapped_to_pypi():
    names = _runtime_markers(FIXTURES / "python" / "map-local-shadow")
    assert "requests" not in names  # the repository's own requests.py
    assert "attrs" in names  # `import attr`


def test_namespace_package_is_internal_but_its_siblings_are_not():
    names = _runtime_markers(FIXTURES / "python" / "map-namespace")
    assert {"google-auth", "google-cloud-storage", "dnspython"} <= set(names)
    assert not any(n.startswith("google-cloud-sql") for n in names)
    assert "asyncpg" not in names  # lazy import declared in the `pg` extra


def test_backport_fallbacks_follow_the_target():
    # tzdata comes from the zoneinfo rule (data/python/implicit.json), on any target
    assert _runtime_markers(FIXTURES / "python" / "map-backports") == {
        "backports-zoneinfo": 'python_version < "3.9"',
        "typing-extensions": 'python_version < "3.11"',
        "tzdata": None,
    }
    assert _runtime_markers(FIXTURES / "python" / "map-backports", python="3.12") == {
        "setuptools": 'python_version >= "3.12"',
        "tzdata": None,
    }


def test_unknown_import_offline_is_reported_not_written(tmp_path):
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "x"\nversion = "1"\ndependencies = []\n'
    )
    (tmp_path / "x.py").write_text("import zzqq_not_a_known_module\n")
    result = infer_offline(tmp_path)
    assert result.requirements == []
    assert any("zzqq_not_a_known_module" in d.message for d in result.diagnostics)


def test_target_python_falls_back_to_ci_matrix_when_requires_python_is_missing(tmp_path):
    from depinfer.mapping.python import target_python
    from depinfer.scan import scan

    (tmp_path / "setup.py").write_text("from setuptools import setup\nsetup(name='x')\n")
    wf = tmp_path / ".github" / "workflows"
    wf.mkdir(parents=True)
    (wf / "ci.yml").write_text(
        "jobs:\n  t:\n    strategy:\n      matrix:\n        python-version: ['3.12', '3.9']\n"
    )
    ctx = offline_context()
    assert target_python(scan(tmp_path), ctx) == "3.9"


def test_test_fixture_apps_and_modules_written_by_tests_are_not_dependencies():
    result = infer_offline(FIXTURES / "python" / "map-test-fixture-apps")
    names = {r.name: r.section for r in result.requirements}
    assert names == {"pyyaml": Section.RUNTIME, "pytest": Section.DEV}
    unknown = [d.message for d in result.diagnostics if "no distribution" in d.message]
    assert not unknown


def test_notebook_imports_stay_out_of_the_dev_group_but_fill_an_examples_group(tmp_path):
    repo = copy_fixture("python", "an-notebooks", tmp_path / "nb")
    (repo / "pyproject.toml").write_text(
        '[project]\nname = "nbdemo"\nversion = "0.1.0"\ndependencies = []\n\n'
        '[project.optional-dependencies]\ndev = ["pytest"]\n'
    )
    result = infer_offline(repo)
    assert [r.name for r in result.requirements] == []
    assert any("notebooks/examples only" in d.message for d in result.diagnostics)
    (repo / "pyproject.toml").write_text(
        '[project]\nname = "nbdemo"\nversion = "0.1.0"\ndependencies = []\n\n'
        '[project.optional-dependencies]\ndev = ["pytest"]\nnotebooks = []\n'
    )
    result = infer_offline(repo)
    groups = {r.group for r in result.requirements}
    assert {"pandas", "numpy", "matplotlib"} <= {r.name for r in result.requirements}
    assert groups == {"optional-dependencies.notebooks"}


def test_a_requirements_file_installing_the_project_itself_is_its_dev_environment(tmp_path):
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "webkit"\nversion = "1.0"\ndependencies = []\n'
    )
    (tmp_path / "requirements.txt").write_text("-e .[cli]\n\n# tests\npytest==8.4.1\n")
    (tmp_path / "webkit").mkdir()
    (tmp_path / "webkit" / "__init__.py").write_text("import yaml\n")
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_x.py").write_text("import pytest\nimport six\n")
    result = infer_offline(tmp_path)
    placed = {r.name: (r.manifest, r.section) for r in result.requirements}
    assert placed == {
        "pyyaml": ("pyproject.toml", Section.RUNTIME),
        "six": ("requirements.txt", Section.DEV),
    }


def test_a_module_named_like_a_distribution_inside_a_package_does_not_hide_it(tmp_path):
    root = tmp_path / "proj"
    pkg = root / "settings" / "providers"
    pkg.mkdir(parents=True)
    (root / "pyproject.toml").write_text("[project]\nname = 'settings'\ndependencies = []\n")
    (root / "settings" / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("")
    # Python 3 has no implicit relative imports: this is the python-dotenv distribution
    (pkg / "dotenv.py").write_text("from dotenv import dotenv_values\n")
    # a script's own folder is on sys.path: its sibling module is local
    (root / "scripts").mkdir()
    (root / "scripts" / "helpers.py").write_text("X = 1\n")
    (root / "scripts" / "run.py").write_text("import helpers\n")
    names = _runtime_markers(root)
    assert "python-dotenv" in names
    assert "helpers" not in names


def test_a_namespace_package_named_like_the_project_leaves_its_siblings_external(tmp_path):
    from depinfer.mapping.python_internal import InternalModules
    from depinfer.scan import scan

    files = {
        "pyproject.toml": '[project]\nname = "poet"\nversion = "1"\ndependencies = []\n',
        # src/poet has no __init__.py: poet.core comes from another distribution
        "src/poet/utils/__init__.py": "",
        "src/poet/utils/build.py": "from poet.core.version import Version\nfrom build import env\n",
        "src/poet/poet.py": "",
        # a project that the tests use as data: its build.py is not `build` elsewhere
        "tests/fixtures/demo/pyproject.toml": '[project]\nname = "demo"\nversion = "1"\n',
        "tests/fixtures/demo/build.py": "",
        "tests/fixtures/demo/src/demo/__init__.py": "import build\n",
    }
    write_tree(tmp_path, files)
    internal = InternalModules(scan(tmp_path))
    here = "src/poet/utils/build.py"
    assert not internal.is_internal("poet.core.version", here)
    assert not internal.is_internal("build", here)
    assert internal.is_internal("poet.utils", here)
    assert internal.is_internal("poet.poet", here)
    assert internal.is_internal("build", "tests/fixtures/demo/src/demo/__init__.py")


def test_importing_a_sibling_project_depends_on_its_distribution(tmp_path):
    files = {
        "pyproject.toml": '[project]\nname = "frontapp"\nversion = "1"\ndependencies = []\n',
        "src/frontapp/__init__.py": "import corelib\nfrom corelib.build import make\n",
        "backend/pyproject.toml": '[project]\nname = "corelib"\nversion = "1"\ndependencies = []\n',
        "backend/src/corelib/__init__.py": "from corelib.build import make\n",
        "backend/src/corelib/build.py": "def make():\n    pass\n",
    }
    write_tree(tmp_path, files)
    result = infer_offline(tmp_path)
    placed = {(r.manifest, r.name) for r in result.requirements}
    assert ("pyproject.toml", "corelib") in placed
    assert not any(m == "backend/pyproject.toml" for m, _ in placed)


def test_a_django_project_in_a_subfolder_imports_its_apps_from_the_manage_py_folder(tmp_path):
    from depinfer.mapping.python_internal import InternalModules
    from depinfer.scan import scan

    files = {
        # the subfolder is named like the project: its apps are still local, because
        # `python manage.py` runs from there
        "pyproject.toml": '[project]\nname = "site"\nversion = "1"\n',
        "site/manage.py": "import os\n",
        "site/site/__init__.py": "",
        "site/site/settings.py": "",
        "site/orders/__init__.py": "",
        "site/orders/models.py": "from core.models import Base\nimport utilities\n",
        "site/core/__init__.py": "",
        "site/core/models.py": "",
        "site/utilities/__init__.py": "",
    }
    write_tree(tmp_path, files)
    internal = InternalModules(scan(tmp_path))
    here = "site/orders/models.py"
    assert internal.is_internal("core.models", here)
    assert internal.is_internal("utilities", here)
    assert internal.is_internal("site.settings", "site/core/models.py")
    assert not internal.is_internal("requests", here)


def test_a_provider_the_project_declares_wins_over_a_more_popular_one(tmp_path):
    root = tmp_path / "tagger"
    (root / "tagger").mkdir(parents=True)
    (root / "pyproject.toml").write_text(
        '[project]\nname = "tagger"\nversion = "1"\ndependencies = []\n'
        "[project.optional-dependencies]\n"
        'thumbnails = ["pyxdg"]\ndiscogs = ["python3-discogs-client"]\n'
    )
    (root / "tagger" / "__init__.py").write_text("")
    # xdg is shipped by both xdg and pyxdg; discogs_client is not in the index
    (root / "tagger" / "thumbs.py").write_text("import xdg.BaseDirectory\nimport discogs_client\n")
    result = infer_offline(root)
    names = {canonical(c.name) for c in result.candidates}
    assert {"pyxdg", "python3-discogs-client"} <= names
    assert not names & {"xdg", "discogs-client"}


def test_a_shipped_pytest_plugin_lists_pytest_at_run_time(tmp_path):
    # as published plugins do (49 of the 55 in pytest_plugins.toml list it in Requires-Dist)
    root = tmp_path / "dataserve"
    (root / "dataserve").mkdir(parents=True)
    (root / "pyproject.toml").write_text(
        '[project]\nname = "dataserve"\nversion = "1"\ndependencies = []\n'
        '[project.entry-points.pytest11]\ndataserve = "dataserve._pytest_plugin"\n'
    )
    (root / "dataserve" / "__init__.py").write_text("import click\n")
    (root / "dataserve" / "_pytest_plugin.py").write_text("import pytest\nimport click\n")
    names = _runtime_markers(root)
    assert "click" in names
    assert "pytest" in names
    # pytest is there whenever it loads the plugin: a test extra holding it is no finding
    (root / "pyproject.toml").write_text(
        '[project]\nname = "dataserve"\nversion = "1"\ndependencies = ["click"]\n'
        '[project.optional-dependencies]\ntest = ["pytest"]\n'
        '[project.entry-points.pytest11]\ndataserve = "dataserve._pytest_plugin"\n'
    )
    assert run_check(str(root))[1] == []


def test_a_guarded_import_under_a_platform_check_is_declared_with_its_marker(tmp_path):
    root = tmp_path / "cli"
    (root / "cli").mkdir(parents=True)
    (root / "pyproject.toml").write_text('[project]\nname = "cli"\nversion = "1"\n')
    (root / "cli" / "__init__.py").write_text(
        "import sys\n\n"
        'if sys.platform == "win32":\n'
        "    try:\n        import colorama\n    except ImportError:\n        pass\n\n"
        "try:\n    import ujson as json\nexcept ImportError:\n    import json\n"
    )
    names = _runtime_markers(root)
    assert names.get("colorama") and "win32" in names["colorama"]
    assert "ujson" not in names  # a guard without a platform check stays optional


def test_a_project_in_an_examples_folder_has_runtime_dependencies_of_its_own():
    # examples/weather keeps its own pyproject.toml: its package is that project's shipped
    # code (click, requests and the repository's own corelib), not a demo of corelib; in
    # examples/pyproject.toml, which ships stories/, the loose/ scripts stay demos (numpy)
    result = infer_offline(FIXTURES / "python" / "map-example-projects")
    placed = {(r.manifest, r.name) for r in result.requirements if r.section == Section.RUNTIME}
    weather = {n for m, n in placed if m == "examples/weather/pyproject.toml"}
    assert weather == {"click", "requests", "corelib"}
    stories = {n for m, n in placed if m == "examples/pyproject.toml"}
    assert stories == {"pyyaml", "corelib"}
    assert {n for m, n in placed if m == "pyproject.toml"} == {"attrs"}
    # an example app with only a requirements.txt: its package (named `example`, beside its
    # manage.py) is its code, and the repository's package it imports is a sibling project
    webapp = {n for m, n in placed if m == "examples/webapp/requirements.txt"}
    assert webapp == {"django", "corelib"}


def test_packages_the_wheel_does_not_ship_are_not_the_projects_runtime_needs():
    # packages.find.include names what the wheel ships: addons/gpu is run from a
    # checkout, so its triton is no runtime need; appplugins (no __init__.py, a namespace
    # package the pattern includes) is shipped
    names = _runtime_markers(FIXTURES / "python" / "map-unshipped-packages")
    assert set(names) == {"requests", "pyyaml"}


def test_shipped_packages_are_read_from_setuptools_hatch_and_poetry():
    from depinfer.scan import shipped_packages

    assert shipped_packages({"tool": {"setuptools": {"packages": ["a", "a.b"]}}}) == (
        ["a", "a.b"],
        [""],
    )
    find = {"find": {"include": ["pkg*"], "where": ["src"]}}
    assert shipped_packages({"tool": {"setuptools": {"packages": find}}}) == (["pkg*"], ["src"])
    hatch = {"hatch": {"build": {"targets": {"wheel": {"packages": ["src/foo"]}}}}}
    assert shipped_packages({"tool": hatch}) == (["foo"], ["src"])
    poetry = {"poetry": {"packages": [{"include": "bar", "from": "lib"}]}}
    assert shipped_packages({"tool": poetry}) == (["bar"], ["lib"])
    assert shipped_packages({"tool": {"setuptools": {"packages": {"find": {}}}}}) is None


def test_a_setup_py_that_lists_its_packages_leaves_its_other_packages_unshipped(tmp_path):
    from depinfer.scan import setup_py_packages

    setup = (
        "from setuptools import setup, find_packages\n"
        "setup(name='searchapp', install_requires=[],\n"
        "      packages=find_packages(include=['searchapp', 'searchapp.*']))\n"
    )
    assert setup_py_packages(setup) == (["searchapp", "searchapp.*"], [""])
    assert setup_py_packages("setup(packages=['a', 'a.b'])") == (["a", "a.b"], [""])
    assert setup_py_packages("setup(packages=find_packages('src', include=['x*']))") == (
        ["x*"],
        ["src"],
    )
    assert setup_py_packages("setup(packages=find_packages())") is None
    files = {
        "setup.py": setup,
        "searchapp/__init__.py": "import flask\n",
        # a maintainer's update script in a package of its own, never installed
        "searchapp_extra/__init__.py": "",
        "searchapp_extra/update.py": "#!/usr/bin/env python\nimport requests\n",
    }
    write_tree(tmp_path, files)
    assert set(_runtime_markers(tmp_path)) == {"flask"}


def test_an_integration_named_after_a_library_leaves_that_library_to_the_user(tmp_path):
    files = {
        "pyproject.toml": '[project]\nname = "authkit"\nversion = "1"\ndependencies = []\n',
        "authkit/__init__.py": "import django\n",
        "authkit/contrib/__init__.py": "",
        # contrib/ninja and integrations/rest_framework.py: one per library they serve
        "authkit/contrib/ninja/__init__.py": "from ninja.security import HttpBearer\n",
        "authkit/integrations/rest_framework.py": "from rest_framework import authentication\n"
        "import jwt\n",
    }
    write_tree(tmp_path, files)
    # the integration's other imports stay the package's (pyjwt)
    assert set(_runtime_markers(tmp_path)) == {"django", "pyjwt"}


def test_behave_sibling_modules_are_internal(tmp_path):
    placed = placements(copy_fixture("python", "map-behave-steps", tmp_path / "map-behave-steps"))
    names = {n for n, _ in placed}
    assert ("pexpect", "optional-dependencies.dev") in placed
    assert not names & {"db-utils", "wrappers", "steps", "db_utils"}


def test_a_gunicorn_worker_class_the_docs_run_makes_gunicorn_the_host(tmp_path):
    files = {
        "pyproject.toml": '[project]\nname = "srv"\nversion = "1"\ndependencies = []\n',
        "srv/__init__.py": "import click\n",
        "srv/workers.py": (
            "from gunicorn.workers.base import Worker\n\n\nclass SrvWorker(Worker):\n    pass\n"
        ),
        "docs/deployment.md": "Run `gunicorn app:app -w 4 -k srv.workers.SrvWorker`.\n",
    }
    write_tree(tmp_path, files)
    result = infer_offline(tmp_path)
    runtime = {r.name for r in result.requirements if r.section == Section.RUNTIME}
    assert "click" in runtime and "gunicorn" not in runtime
    # without the documented worker class, the module's gunicorn import is a need
    (tmp_path / "docs/deployment.md").write_text("Run the server.\n")
    result = infer_offline(tmp_path)
    assert "gunicorn" in {r.name for r in result.requirements if r.section == Section.RUNTIME}


def test_every_host_row_says_why_where_and_how_its_files_are_found():
    rows = hosts()
    assert rows and len({h.dist for h in rows}) == len(rows)
    for host in rows:
        assert host.modules and (host.section is None or host.section in Section)
        assert host.entry_point_groups or host.docs_pattern is not None
    assert runner().command and dict(runner().config_sections)


def test_a_dotted_import_of_a_folder_above_the_file_is_local(tmp_path):
    from depinfer.mapping.python_internal import InternalModules
    from depinfer.scan import scan

    files = {
        "requirements.txt": "",
        "project/__init__.py": "",
        "project/data/__init__.py": "",
        "project/data/cards.py": "",
        "project/tests/__init__.py": "",
        "project/tests/test_pay.py": "from data.cards import Card\nimport requests\n",
        # code copied from a project where layers/ was top level
        "src/pkg/__init__.py": "",
        "src/pkg/layers/__init__.py": "",
        "src/pkg/layers/attention.py": "",
        "src/pkg/layers/block.py": "from layers.attention import A\n",
        # a module of the file's own package named like a distribution stays external
        "src/pkg/dotenv.py": "from dotenv import load_dotenv\n",
    }
    write_tree(tmp_path, files)
    internal = InternalModules(scan(tmp_path))
    assert internal.is_internal("data.cards", "project/tests/test_pay.py")
    assert internal.is_internal("layers.attention", "src/pkg/layers/block.py")
    assert not internal.is_internal("data.other", "project/tests/test_pay.py")
    assert not internal.is_internal("requests", "project/tests/test_pay.py")
    assert not internal.is_internal("dotenv", "src/pkg/dotenv.py")


def test_a_module_the_repository_holds_off_the_import_roots_is_its_own(tmp_path):
    write_tree(
        tmp_path,
        {
            "requirements.txt": "",
            "src/core/etl_steps.py": "X = 1\n",
            "src/reporting/report.py": "import sys\nsys.path.insert(0, 'src/core')\n"
            "from etl_steps import X\nimport mystery_dist\n",
        },
    )
    result = infer_offline(tmp_path)
    messages = [d.message for d in result.diagnostics]
    assert any("etl_steps" in m and "repository's own src/core/etl_steps.py" in m for m in messages)
    assert not any("etl_steps" in m and "unknown import" in m for m in messages)
    assert any("mystery_dist" in m and "unknown import" in m for m in messages)


def test_a_wrapper_module_named_like_its_library_imports_the_library(tmp_path):
    write_tree(
        tmp_path,
        {
            "pyproject.toml": "[project]\nname = 'p'\nversion = '1'\ndependencies = []\n",
            "p/__init__.py": "",
            "p/sampler_lib.py": "from sampler_lib import Sampler\n",
        },
    )
    messages = [d.message for d in infer_offline(tmp_path).diagnostics]
    assert any("sampler_lib" in m and "unknown import" in m for m in messages)
