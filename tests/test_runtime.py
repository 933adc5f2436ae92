"""Runtime detection: the Python, Node, Rust and .NET versions a project states."""

from pathlib import Path

from conftest import write_tree

from depinfer.model import Ecosystem, Manifest, Project
from depinfer.runtime import (
    dotnet_runtime,
    lower_bound_of_specifier,
    node_runtime,
    python_runtime,
    rust_runtime,
)
from depinfer.runtime import tested_python as newest_tested  # not a test: pytest collects test*


def test_lower_bounds_from_pep440_and_poetry_specifiers():
    assert lower_bound_of_specifier(">=3.8,<4") == "3.8"
    assert lower_bound_of_specifier("^3.9") == "3.9"
    assert lower_bound_of_specifier(">3.7") == "3.8"
    assert lower_bound_of_specifier("*") is None


def _project(tmp_path: Path, manifests=(), files=None, ci=None) -> Project:
    write_tree(tmp_path, files or {})
    return Project(root=tmp_path, manifests=list(manifests), ci_files=list(ci or []))


def test_python_runtime_prefers_requires_python_over_ci(tmp_path):
    m = Manifest("pyproject.toml", Ecosystem.PYPI, "pyproject", data={"requires_python": ">=3.9"})
    rt = python_runtime(_project(tmp_path, [m]))
    assert rt.minimum == "3.9" and "requires-python" in rt.sources[0]


def test_requires_python_bounds_classifiers_from_below(tmp_path):
    data = {
        "requires_python": ">=3.8, !=3.9.0",
        "classifiers": ["3.6", "3.7", "3.8", "3.12"],
    }
    m = Manifest("pyproject.toml", Ecosystem.PYPI, "pyproject", data=data)
    rt = python_runtime(_project(tmp_path, [m]))
    assert (rt.minimum, rt.maximum) == ("3.8", "3.12")
    # classifiers alone decide when requires-python is absent
    m = Manifest("setup.py", Ecosystem.PYPI, "setup_py", data={"classifiers": ["3.7", "3.9"]})
    assert python_runtime(_project(tmp_path, [m])).minimum == "3.7"


def test_python_runtime_from_ci_matrix_then_python_version_file(tmp_path):
    wf = ".github/workflows/t.yml"
    files = {
        wf: "jobs:\n  t:\n    strategy:\n      matrix:\n        python-version: ['3.11', '3.10', '3.12']\n",
        ".python-version": "3.12.1\n",
    }
    assert python_runtime(_project(tmp_path, files=files, ci=[wf])).minimum == "3.10"
    assert python_runtime(_project(tmp_path), override="3.13").minimum == "3.13"


def test_node_runtime_from_engines_and_nvmrc(tmp_path):
    assert (
        node_runtime(_project(tmp_path), {"engines": {"node": ">=18.12"}, "type": "module"}).minimum
        == "18"
    )
    rt = node_runtime(_project(tmp_path, files={".nvmrc": "v20.11.0\n"}), {})
    assert rt.minimum == "20" and rt.facts["type"] == "commonjs"
    # `||` joins alternatives: the oldest one is the floor (Jest 29 supports 16.10 but not 17)
    either = {"engines": {"node": "^16.10.0 || >=17.0.0"}}
    assert node_runtime(_project(tmp_path), either).minimum == "16"


def test_rust_runtime_from_rust_version_and_toolchain(tmp_path):
    m = Manifest(
        "Cargo.toml", Ecosystem.CRATES, "cargo", data={"rust_version": "1.70", "edition": "2021"}
    )
    rt = rust_runtime(_project(tmp_path, [m]))
    assert rt.minimum == "1.70" and rt.facts["edition"] == "2021"
    rt = rust_runtime(
        _project(tmp_path, files={"rust-toolchain.toml": "[toolchain]\nchannel = '1.74.0'\n"})
    )
    assert rt.minimum == "1.74.0"


def test_dotnet_runtime_lists_target_frameworks(tmp_path):
    m = Manifest(
        "a.csproj",
        Ecosystem.NUGET,
        "csproj",
        data={"TargetFrameworks": "net8.0;net6.0;netstandard2.0"},
    )
    rt = dotnet_runtime(
        _project(tmp_path, [m], files={"global.json": '{"sdk": {"version": "8.0.100"}}'})
    )
    assert rt.minimum == "6.0" and rt.facts["sdk"] == "8.0.100"


def test_the_tested_python_is_the_newest_the_ci_and_metadata_name(tmp_path):
    ci = {
        ".github/workflows/ci.yml": 'jobs:\n  t:\n    strategy:\n      matrix:\n        python-version: ["3.9", "3.12"]\n'
    }
    m = Manifest("pyproject.toml", Ecosystem.PYPI, "pyproject", data={"requires_python": ">=3.9"})
    assert newest_tested(_project(tmp_path / "a", [m], ci, list(ci))) == "3.12"
    # requires-python has the last word: a matrix entry it excludes is not tested on
    capped = Manifest(
        "pyproject.toml", Ecosystem.PYPI, "pyproject", data={"requires_python": ">=3.9,<3.12"}
    )
    assert newest_tested(_project(tmp_path / "b", [capped], ci, list(ci))) == "3.9"
    classified = Manifest(
        "pyproject.toml", Ecosystem.PYPI, "pyproject", data={"classifiers": ["3.10", "3.11"]}
    )
    assert newest_tested(_project(tmp_path / "c", [classified])) == "3.11"
    assert newest_tested(_project(tmp_path / "d", [], {".python-version": "3.13.1\n"})) == "3.13"
    assert newest_tested(_project(tmp_path / "e", [])) is None
