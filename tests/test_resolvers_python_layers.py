"""Requirements layers stacked with `-r`; extras that pin the lowest supported versions."""

from __future__ import annotations

from conftest import copy_fixture, names_by_manifest, write_tree

from depinfer.resolvers.python import _installed_with_a_group
from depinfer.scan import scan


def test_shared_runtime_list_goes_to_the_base_the_stacks_pull_in(tmp_path):
    root = copy_fixture("python", "res-requirements-layers", tmp_path / "site")
    by_file = names_by_manifest(root)
    assert set(by_file) == {"requirements/common.txt"}
    assert {"flask", "flask-login"} <= by_file["requirements/common.txt"]
    assert "coverage" not in by_file["requirements/common.txt"]  # dev.txt declares it


def test_min_versions_extra_does_not_make_the_runtime_list_optional(tmp_path):
    root = copy_fixture("python", "res-min-versions-extra", tmp_path / "sitegen")
    assert names_by_manifest(root) == {"pyproject.toml": {"click", "markdown"}}


def test_lazy_imports_kept_in_an_extra_or_group_stay_out_of_the_runtime_list(tmp_path):
    root = copy_fixture("python", "res-lazy-extras", tmp_path / "charts")
    assert names_by_manifest(root) == {"pyproject.toml": {"jinja2", "httpcore"}}


def test_what_importing_the_package_needs_is_runtime_whatever_extras_list_it(tmp_path):
    root = copy_fixture("python", "res-core-feature-extra", tmp_path / "profiler")
    runtime = names_by_manifest(root)["pyproject.toml"]
    assert "pandas" in runtime
    assert not runtime & {"pyspark", "ipywidgets"}


def test_a_lazy_import_that_a_feature_extra_brings_is_not_runtime(tmp_path, metadata_context):
    recorded = {
        "ipywidgets": {
            "requires_dist": ["ipython>=6.1.0", "comm>=0.1.3", "pytest; extra == 'test'"]
        }
    }

    root = copy_fixture("python", "res-core-feature-extra", tmp_path / "profiler")
    manifests = [m for m in scan(root).manifests if m.path == "pyproject.toml"]
    ctx = metadata_context(recorded)
    assert _installed_with_a_group("ipython", manifests, ctx, {})
    assert not _installed_with_a_group("pytest", manifests, ctx, {})
    offline = metadata_context(offline=True)
    assert not _installed_with_a_group("ipython", manifests, offline, {})


def test_extras_of_core_names_alone_pick_a_variant_and_keep_them(tmp_path):
    files = {
        "pyproject.toml": (
            '[project]\nname = "voice"\nversion = "1"\ndependencies = []\n\n'
            '[project.optional-dependencies]\ncpu = ["torch==1.10.*"]\ncuda = ["torch==1.10.*"]\n'
        ),
        "voice/__init__.py": "from voice.model import Encoder\n",
        "voice/model.py": "import numpy as np\nimport torch\n\n\nclass Encoder(torch.nn.Module):\n    pass\n",
    }
    root = tmp_path / "voice"
    write_tree(root, files)
    assert names_by_manifest(root) == {"pyproject.toml": {"numpy"}}


def test_a_console_script_module_is_not_lazy_because_another_module_imports_it_lazily(tmp_path):
    files = {
        "pyproject.toml": (
            '[project]\nname = "runner"\nversion = "1"\ndependencies = []\n\n'
            '[project.scripts]\nrunner = "runner.cli:main"\n\n'
            '[project.optional-dependencies]\ndev = ["click", "pytest"]\n'
        ),
        "runner/__init__.py": "",
        "runner/__main__.py": "def run():\n    from runner.cli import main\n\n    main()\n",
        "runner/cli.py": "import click\n\n\n@click.command()\ndef main():\n    pass\n",
    }
    root = tmp_path / "runner"
    write_tree(root, files)
    assert names_by_manifest(root) == {"pyproject.toml": {"click"}}


def test_a_runtime_word_before_or_after_requirements_names_a_runtime_list(tmp_path):
    root = tmp_path / "app"
    root.mkdir()
    (root / "requirements.txt").write_text("")
    (root / "base_requirements.txt").write_text("")
    (root / "dev-requirements.txt").write_text("pytest\n")
    (root / "main.py").write_text("import requests\n")
    paths = {m.path for m in scan(root).manifests}
    assert {"requirements.txt", "base_requirements.txt", "dev-requirements.txt"} <= paths
    by_file = names_by_manifest(root)
    assert by_file == {"requirements.txt": {"requests"}, "base_requirements.txt": {"requests"}}


def test_an_environment_layer_takes_what_only_that_environments_settings_use(tmp_path):
    root = copy_fixture("python", "res-environment-layers", tmp_path / "site")
    by_file = names_by_manifest(root)
    assert set(by_file) == {"requirements/base.txt", "requirements/production.txt"}
    assert {"django", "dj-database-url", "python-dotenv", "django-extensions"} <= by_file[
        "requirements/base.txt"
    ]
    assert by_file["requirements/production.txt"] == {"whitenoise", "django-redis", "elasticsearch"}


def test_settings_dependencies_go_to_the_base_of_the_stack(tmp_path):
    root = copy_fixture("python", "an-django-settings", tmp_path / "site")
    by_file = names_by_manifest(root, runtime_only=False)
    base = by_file.get("requirements/base.txt", set())
    assert {"django", "django-cors-headers", "django-csp", "django-redis"} <= base
    assert "whitenoise" not in base
    assert not by_file.get("requirements.txt")
    assert not by_file.get("requirements/production.txt")
