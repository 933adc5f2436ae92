"""Python placement: runtime, optional, dev groups, extras."""

from __future__ import annotations

import json

from conftest import REPO, copy_fixture, infer_offline, runtime_names, write_tree

from depinfer.context import Options
from depinfer.model import Section
from depinfer.pipeline import infer


def test_optional_import_is_not_runtime(tmp_path):
    write_tree(
        tmp_path,
        {
            "pyproject.toml": '[project]\nname = "p"\nversion = "1"\ndependencies = []\n',
            "p/__init__.py": "import yaml\ntry:\n    import ujson\nexcept ImportError:\n    ujson = None\n",
        },
    )
    names = {r.name for r in infer_offline(tmp_path).requirements if r.section == Section.RUNTIME}
    assert names == {"pyyaml"}


def test_test_imports_go_to_the_existing_test_extra(tmp_path):
    write_tree(
        tmp_path,
        {
            "pyproject.toml": '[project]\nname = "p"\nversion = "1"\ndependencies = []\n'
            '[project.optional-dependencies]\ntest = ["pytest"]\n',
            "p/__init__.py": "",
            "tests/test_p.py": "import pytest\nimport hypothesis\n",
        },
    )
    reqs = infer_offline(tmp_path).requirements
    assert [(r.name, r.section, r.group) for r in reqs] == [
        ("hypothesis", Section.DEV, "optional-dependencies.test")
    ]


def test_dev_imports_without_a_group_are_not_written(tmp_path):
    write_tree(
        tmp_path,
        {
            "pyproject.toml": '[project]\nname = "p"\nversion = "1"\ndependencies = []\n',
            "p/__init__.py": "",
            "tests/test_p.py": "import hypothesis\n",
        },
    )
    result = infer_offline(tmp_path)
    assert result.requirements == []
    assert any("hypothesis" in d.message for d in result.diagnostics)


def test_poetry_extras_list_makes_an_optional_dependency(tmp_path):
    write_tree(
        tmp_path,
        {
            "pyproject.toml": '[tool.poetry]\nname = "p"\nversion = "1"\ndescription = ""\n'
            'authors = []\n[tool.poetry.dependencies]\npython = ">=3.9"\n'
            '[tool.poetry.extras]\njupyter = ["ipywidgets"]\n',
            "p/__init__.py": "import pygments\ntry:\n    import ipywidgets\nexcept ImportError:\n    pass\n",
        },
    )
    got = {(r.name, r.optional, r.group) for r in infer_offline(tmp_path).requirements}
    assert ("ipywidgets", True, "extras.jupyter") in got
    assert ("pygments", False, None) in got


def test_runtime_list_goes_to_every_runtime_manifest_of_the_folder(tmp_path):
    write_tree(
        tmp_path,
        {
            "pyproject.toml": '[project]\nname = "p"\nversion = "1"\ndependencies = []\n',
            "requirements.txt": "",
            "p/__init__.py": "import numpy\n",
        },
    )
    assert {(r.manifest, r.name) for r in infer_offline(tmp_path).requirements} == {
        ("pyproject.toml", "numpy"),
        ("requirements.txt", "numpy"),
    }


def test_environment_requirements_file_is_not_a_runtime_list(tmp_path):
    write_tree(
        tmp_path,
        {
            "pyproject.toml": '[project]\nname = "p"\nversion = "1"\ndependencies = []\n',
            "requirements.txt": "-e .[dev]\npytest==8.0\n",
            "p/__init__.py": "import numpy\n",
        },
    )
    assert {r.manifest for r in infer_offline(tmp_path).requirements} == {"pyproject.toml"}


def test_a_pyproject_of_tool_settings_leaves_the_requirements_file_the_runtime_list(tmp_path):
    """A pyproject.toml holding only [tool.*] settings holds no dependency list: the
    requirements file beside it is the runtime list, not a dev environment."""
    write_tree(
        tmp_path,
        {
            "pyproject.toml": "[tool.black]\nline-length = 100\n[tool.ruff]\nline-length = 100\n",
            "requirements.txt": "fastapi==0.112.0\npydantic==2.9.2\n",
            "app/server.py": "import fastapi\nimport pydantic\nimport httpx\n",
        },
    )
    result = infer_offline(tmp_path)
    assert {(r.manifest, r.name) for r in result.requirements} == {
        ("requirements.txt", "fastapi"),
        ("requirements.txt", "pydantic"),
        ("requirements.txt", "httpx"),
    }
    assert not [d for d in result.diagnostics if d.level == "error"]


def test_an_empty_setup_py_beside_a_requirements_file_is_no_list(tmp_path):
    """A setup.py with no setup() call (empty, or a script) cannot hold dependencies: the
    requirements file is the list, and no error is reported for the setup.py."""
    write_tree(
        tmp_path,
        {
            "setup.py": "",
            "requirements.txt": "pandas==2.3.1\n",
            "src/scan.py": "import pandas\nimport openpyxl\n",
        },
    )
    result = infer_offline(tmp_path)
    assert {r.manifest for r in result.requirements} == {"requirements.txt"}
    assert not [d for d in result.diagnostics if d.level == "error"]


def test_feature_extra_keeps_its_distribution_out_of_runtime(tmp_path):
    write_tree(
        tmp_path,
        {
            "pyproject.toml": '[project]\nname = "p"\nversion = "1"\ndependencies = []\n'
            '[project.optional-dependencies]\ncli = ["click"]\n',
            "p/__init__.py": "import numpy\n",
            "p/_main.py": "import click\n",
        },
    )
    assert {r.name for r in infer_offline(tmp_path).requirements} == {"numpy"}


def test_pins_in_example_projects_are_not_evidence_for_the_package(tmp_path):
    from depinfer.resolvers.python import pinned_elsewhere
    from depinfer.scan import scan

    (tmp_path / "pyproject.toml").write_text(
        "[project]\nname = 'x'\nversion = '1'\ndependencies = []\n"
    )
    (tmp_path / "examples" / "celery").mkdir(parents=True)
    (tmp_path / "examples" / "celery" / "requirements.txt").write_text("werkzeug==2.3.3\n")
    (tmp_path / "requirements-dev.txt").write_text("pytest==8.0.0\n")
    project = scan(tmp_path)
    pins = pinned_elsewhere(project, {m.path: m for m in project.manifests})
    assert "werkzeug" not in pins and pins["pytest"] == ("requirements-dev.txt", "==8.0.0")


_SETUP_WITH_HELPERS = """import os
from setuptools import setup


def reqs(*f):
    with open(os.path.join(os.getcwd(), "requirements", *f)) as fh:
        return [line.strip() for line in fh if line.strip()]


def extras(*p):
    return reqs("extras", *p)


setup(
    name="msgbus",
    install_requires=reqs("default.txt"),
    tests_require=reqs("test.txt"),
    extras_require={"redis": extras("redis.txt")},
)
"""


def test_setup_py_helpers_reading_requirement_files(tmp_path):
    """setup.py reads install_requires through a helper that prefixes requirements/: the
    runtime list is requirements/default.txt (setup.py and a settings-only setup.cfg are
    not); the extra's file declares redis, so the transport importing it writes nothing;
    a top-level t/ holds the tests."""
    write_tree(
        tmp_path,
        {
            "setup.py": _SETUP_WITH_HELPERS,
            "setup.cfg": "[tool:pytest]\ntestpaths = t/unit\n",
            "requirements/default.txt": "",
            "requirements/test.txt": "pytest\n",
            "requirements/extras/redis.txt": "redis>=4.5\n",
            "msgbus/__init__.py": "import vine\n",
            "msgbus/transport/redis.py": "import redis\n",
            "t/unit/test_bus.py": "import pytest\nimport msgbus\n",
            "t/helpers.py": "import pytest\n",
        },
    )
    reqs = infer_offline(tmp_path).requirements
    runtime = {(r.manifest, r.name) for r in reqs if r.section == Section.RUNTIME}
    assert runtime == {("requirements/default.txt", "vine")}


def test_what_an_extras_distributions_require_comes_with_the_extra(metadata_context):
    from depinfer.resolvers.python import _brought_by_extras

    recorded = {
        "boto3": {
            "requires_dist": [
                "botocore<1.40,>=1.39",
                "s3transfer<0.14,>=0.13",
                "botocore[crt]<2.0a0,>=1.21.0; extra == 'crt'",
            ]
        }
    }

    ctx = metadata_context(recorded)
    assert _brought_by_extras({"boto3"}, ctx) == {"botocore", "s3transfer"}
    offline = metadata_context(offline=True)
    assert _brought_by_extras({"boto3"}, offline) == set()


def test_a_part_its_parent_pins_to_one_release_is_not_written_on_its_own(metadata_context):
    from depinfer.model import Ecosystem, Requirement
    from depinfer.resolvers.python import _drop_lockstep_parts

    recorded = {
        # recorded Requires-Dist of pydantic 2.11 and typing-extensions (none)
        "pydantic": {
            "requires_dist": [
                "annotated-types>=0.6.0",
                "pydantic-core==2.33.2",
                "typing-extensions>=4.12.2",
                "email-validator>=2.0.0; extra == 'email'",
            ]
        },
    }

    def req(name, manifest="pyproject.toml", section=Section.RUNTIME):
        return Requirement(Ecosystem.PYPI, name, manifest, section=section)

    reqs = [
        req("pydantic"),
        req("pydantic-core"),
        req("annotated-types"),
        req("pydantic-core", "other/pyproject.toml"),  # no pydantic there
    ]
    ctx = metadata_context(recorded)
    kept = {(r.manifest, r.name) for r in _drop_lockstep_parts(reqs, ctx)}
    assert kept == {
        ("pyproject.toml", "pydantic"),
        ("pyproject.toml", "annotated-types"),  # a range, not a lockstep pin
        ("other/pyproject.toml", "pydantic-core"),
    }
    offline = metadata_context(offline=True)
    assert len(_drop_lockstep_parts(reqs, offline)) == 4


def test_a_name_a_feature_extra_brings_is_the_features_only_where_it_is_imported_with_it(
    metadata_context,
):
    from depinfer.model import Ecosystem, Manifest
    from depinfer.resolvers.python import _installed_with_a_group

    # recorded Requires-Dist: scikit-learn needs scipy, ipywidgets needs ipython
    recorded = {
        "scikit-learn": {"requires_dist": ["numpy>=1.22", "scipy>=1.8"]},
        "ipywidgets": {"requires_dist": ["ipython>=6.1.0", "traitlets>=4.3.1"]},
    }

    pyproject = Manifest(
        "pyproject.toml",
        Ecosystem.PYPI,
        "pyproject",
        declared={
            "dependencies": [],
            "optional-dependencies.extra": ["scikit-learn>=1.3"],
            "optional-dependencies.widgets": ["ipywidgets"],
        },
    )
    ctx = metadata_context(recorded)
    # scipy: lazily imported by a dozen stats modules, scikit-learn by two of them
    stats = {f"pkg/stats/s{i}.py" for i in range(12)}
    files = {
        "scipy": stats,
        "scikit-learn": {"pkg/stats/s0.py", "pkg/stats/s1.py"},
        "ipython": {"pkg/widgets/a.py", "pkg/widgets/b.py", "pkg/report.py"},
        "ipywidgets": {"pkg/widgets/a.py", "pkg/widgets/b.py", "pkg/widgets/c.py"},
    }
    assert not _installed_with_a_group("scipy", [pyproject], ctx, {}, files)
    assert _installed_with_a_group("ipython", [pyproject], ctx, {}, files)
    # one lazy import in a module of its own, fewer places than the extra's distribution:
    # still left to the extra that brings it
    files["urllib3"] = {"pkg/socks.py"}
    files["sentry-sdk"] = {"pkg/a.py", "pkg/b.py"}
    pyproject.declared["optional-dependencies.sentry"] = ["sentry-sdk"]
    recorded["sentry-sdk"] = {"requires_dist": ["urllib3>=1.26.11", "certifi"]}
    assert _installed_with_a_group("urllib3", [pyproject], ctx, {}, files)


def test_a_frameworks_documented_parts_are_not_written_beside_it(tmp_path):
    # FastAPI's documentation imports starlette directly; the project declares fastapi
    files = {
        "pyproject.toml": '[project]\nname = "p"\nversion = "1"\ndependencies = []\n',
        "p/__init__.py": "",
        "p/main.py": (
            "from fastapi import FastAPI\n"
            "from starlette.middleware.cors import CORSMiddleware\n\n"
            "app = FastAPI()\napp.add_middleware(CORSMiddleware)\n"
        ),
    }
    runtime = {
        r.name
        for r in infer_offline(write_tree(tmp_path / "api", files)).requirements
        if r.section == Section.RUNTIME
    }
    assert "fastapi" in runtime and "starlette" not in runtime
    # without the framework the library is the project's own choice
    alone = {**files, "p/main.py": "from starlette.applications import Starlette\n"}
    runtime = {
        r.name
        for r in infer_offline(write_tree(tmp_path / "bare", alone)).requirements
        if r.section == Section.RUNTIME
    }
    assert "starlette" in runtime


def test_framework_parts_table_names_its_sources():
    from depinfer.resolvers.python import framework_parts

    assert "starlette" in framework_parts()["fastapi"]
    data = json.loads((REPO / "depinfer/data/python/framework_parts.json").read_text())
    assert all(entry["source"] and entry["parts"] for entry in data["frameworks"].values())


def test_a_feature_import_inside_a_function_does_not_make_its_module_the_features(tmp_path):
    from depinfer.context import Context
    from depinfer.registries import Registries

    class Recorded(Registries):
        """Offline registries, except the recorded Requires-Dist of the extra's distribution."""

        def __init__(self):
            super().__init__(offline=True)
            self.offline = False

        def metadata(self, ecosystem, name, version=None):
            if name == "soundfile":  # recorded: soundfile requires cffi and numpy
                return {"requires_dist": ["cffi>=1.0", "numpy"]}
            if name == "gradio":
                return {"requires_dist": ["numpy<3,>=1.0", "requests", "pillow<12,>=8.0"]}
            return {}

        def exists(self, ecosystem, name):
            return None

    files = {
        "pyproject.toml": '[project]\nname = "p"\nversion = "1"\ndependencies = []\n'
        '[project.optional-dependencies]\naudio = ["soundfile"]\nui = ["gradio"]\n',
        "p/__init__.py": "",
        # module-level requests and numpy; soundfile only inside a function
        "p/types.py": (
            "import numpy as np\nimport requests\n\n\n"
            "def save(data):\n    import soundfile as sf\n\n    sf.write('a.wav', np.asarray(data))\n"
            "    return requests.get('x')\n"
        ),
    }
    root = write_tree(tmp_path / "p", files)
    options = Options(versions=False)
    result = infer(root, options, ctx=Context(options=options, registries=Recorded()))
    runtime = {r.name for r in result.requirements if r.section == Section.RUNTIME}
    assert {"numpy", "requests"} <= runtime


def test_a_lazy_import_a_pixi_feature_environment_installs_is_that_features(tmp_path):
    files = {
        "pyproject.toml": '[project]\nname = "arr"\nversion = "1"\ndependencies = []\n',
        "pixi.toml": "[package.run-dependencies]\ntoolz = '>=0.12'\n\n"
        "[feature.optional.dependencies]\nh5py = '*'\n\n"
        "[feature.gpu.target.linux-64.dependencies]\nnumba = '*'\n\n"
        "[feature.mindeps.dependencies]\ntoolz = '=0.12.0'\n",
        "arr/__init__.py": "import toolz\n\n\ndef save(x):\n    import h5py\n    import numba\n"
        "    import yaml\n    return h5py, numba, yaml, toolz\n",
    }
    write_tree(tmp_path, files)
    result = infer_offline(tmp_path)
    runtime = {r.name for r in result.requirements if r.section == Section.RUNTIME}
    # h5py and numba are tested in feature environments; toolz is the package's own
    # (run-dependencies), however a minimum-versions feature repeats it; yaml is no feature
    assert runtime == {"toolz", "pyyaml"}


def test_each_requirement_names_the_placement_that_decided(tmp_path):
    write_tree(
        tmp_path,
        {
            "pyproject.toml": '[project]\nname = "p"\nversion = "1"\ndependencies = []\n'
            '[project.optional-dependencies]\ntest = ["pytest"]\n',
            "p/__init__.py": "import yaml\n",
            "tests/test_p.py": "import hypothesis\n",
        },
    )
    placed = {
        r.name: [e.rule for e in r.evidence if e.rule.startswith("placement:")]
        for r in infer_offline(tmp_path).requirements
    }
    assert placed == {
        "pyyaml": ["placement:runtime_list"],
        "hypothesis": ["placement:dev_group"],
    }


def test_featured_extra_entry_keeps_its_distribution_runtime(tmp_path):
    root = copy_fixture("python", "res-featured-extras", tmp_path / "crawler")
    assert runtime_names(root) == {"twisted", "huggingface-hub"}


def test_an_extra_named_for_a_dependencys_feature_holds_what_that_feature_requires(
    metadata_context,
):
    from depinfer.model import Ecosystem, Manifest
    from depinfer.resolvers.python import _feature_names

    # recorded Requires-Dist of Twisted and visions (trimmed)
    recorded = {
        "twisted": {
            "requires_dist": [
                "attrs>=22.2.0",
                'h2<5.0,>=3.2; extra == "http2"',
                'priority<2.0,>=1.1.0; extra == "http2"',
                'pyopenssl>=21.0.0; extra == "tls"',
            ]
        },
        "visions": {"requires_dist": ['imagehash; extra == "type-image-path"']},
    }

    pyproject = Manifest(
        "pyproject.toml",
        Ecosystem.PYPI,
        "pyproject",
        declared={
            "optional-dependencies.twisted-http2": ["Twisted"],
            "optional-dependencies.spark": ["visions"],
        },
        data={
            "featured_extras": [
                ["twisted-http2", "Twisted", ["http2"]],
                ["spark", "visions", ["type_image_path"]],
            ]
        },
    )
    names = _feature_names([pyproject], metadata_context(recorded), {})
    # h2 and priority come with the extra; twisted's own requirements and its other
    # features do not, and the spark extra is not named for visions' image feature
    assert {"h2", "priority"} <= names
    assert not {"attrs", "pyopenssl", "imagehash", "twisted"} & names


def test_a_sole_requirements_file_holds_what_the_tests_import(tmp_path):
    files = {
        "requirements.txt": "",
        "app/__init__.py": "import yaml\n",
        "tests/test_app.py": "import hypothesis\nimport requests\n",
    }
    write_tree(tmp_path, files)
    placed = {(r.name, r.manifest, r.section) for r in infer_offline(tmp_path).requirements}
    assert placed == {
        ("pyyaml", "requirements.txt", Section.RUNTIME),
        ("hypothesis", "requirements.txt", Section.RUNTIME),
        ("requests", "requirements.txt", Section.RUNTIME),
    }
    # beside a pyproject.toml the requirements file is not the tests' only list
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "app"\nversion = "1"\ndependencies = []\n'
    )
    names = {r.name for r in infer_offline(tmp_path).requirements}
    assert "hypothesis" not in names


def test_a_sole_requirements_file_holds_the_pytest_plugins_the_config_names(tmp_path):
    files = {
        "requirements.txt": "",
        # tool settings only: no dependency list of its own
        "setup.cfg": "[flake8]\nmax-line-length = 99\n\n[tool:pytest]\n"
        "DJANGO_SETTINGS_MODULE = site.settings\n",
        "site/__init__.py": "",
        "site/settings.py": "import yaml\n",
        "tests/test_site.py": "def test_x():\n    pass\n",
    }
    write_tree(tmp_path, files)
    placed = {(r.name, r.manifest) for r in infer_offline(tmp_path).requirements}
    assert ("pytest-django", "requirements.txt") in placed
