from pathlib import Path

from depinfer.check import find_problems
from depinfer.config import Config, apply_config, load_config
from depinfer.model import Candidate, Ecosystem, Evidence, Manifest, Project, Section


def _project(tmp_path: Path, declared: dict[str, list[str]]) -> Project:
    (tmp_path / "pyproject.toml").write_text("[project]\nname='x'\n")
    m = Manifest("pyproject.toml", Ecosystem.PYPI, "pyproject", declared=declared)
    return Project(root=tmp_path, manifests=[m])


def _cand(name: str, section=Section.RUNTIME, optional=False, file=None) -> Candidate:
    file = file or ("tests/test_mod.py" if section == Section.DEV else "pkg/mod.py")
    return Candidate(
        Ecosystem.PYPI,
        name,
        "pyproject.toml",
        section=section,
        optional=optional,
        evidence=[Evidence("import", file, 3)],
    )


def codes(findings):
    return sorted((f.code, f.name) for f in findings)


def test_undeclared_import_is_missing_with_its_location(tmp_path):
    found = find_problems(_project(tmp_path, {"dependencies": []}), [_cand("requests")])
    assert codes(found) == [("DEP001", "requests")]
    assert (found[0].file, found[0].line) == ("pkg/mod.py", 3)


def test_declared_names_match_after_pep503_normalisation(tmp_path):
    found = find_problems(
        _project(tmp_path, {"dependencies": ["Python_Dateutil"]}), [_cand("python-dateutil")]
    )
    assert found == []


def test_runtime_import_declared_only_in_test_extra_is_dev_only(tmp_path):
    project = _project(tmp_path, {"dependencies": [], "optional-dependencies.test": ["requests"]})
    assert codes(find_problems(project, [_cand("requests")])) == [("DEP004", "requests")]


def test_test_only_package_in_runtime_dependencies_is_misplaced(tmp_path):
    project = _project(tmp_path, {"dependencies": ["pytest-mock", "hypothesis"]})
    found = find_problems(
        project, [_cand("hypothesis", Section.DEV), _cand("pytest-mock", Section.DEV)]
    )
    assert codes(found) == [("DEP101", "hypothesis"), ("DEP101", "pytest-mock")]


def test_unused_runtime_dependency_except_stub_and_plugin_packages(tmp_path):
    project = _project(
        tmp_path, {"dependencies": ["requests", "types-requests", "pytest-cov", "attrs"]}
    )
    assert codes(find_problems(project, [_cand("requests")])) == [("DEP002", "attrs")]


def test_optional_imports_may_stay_undeclared(tmp_path):
    assert (
        find_problems(_project(tmp_path, {"dependencies": []}), [_cand("ujson", optional=True)])
        == []
    )


def test_config_from_pyproject_ignores_and_maps(tmp_path):
    (tmp_path / "pyproject.toml").write_text(
        "[project]\nname='x'\n[tool.depinfer]\nignore = { DEP002 = ['Attrs'] }\n"
        "known-first-party = ['helpers']\nmapping = { cv2 = 'opencv-python-headless' }\n"
    )
    cfg = load_config(tmp_path, [])
    assert cfg.ignored("DEP002", "attrs") and not cfg.ignored("DEP001", "attrs")
    cands = [
        Candidate(Ecosystem.PYPI, "helpers", "pyproject.toml", import_names=["helpers"]),
        Candidate(Ecosystem.PYPI, "opencv-python", "pyproject.toml", import_names=["cv2"]),
    ]
    out = apply_config(cands, cfg)
    assert [c.name for c in out] == ["opencv-python-headless"]
    assert out[0].alternatives == ["opencv-python"]


def test_broken_config_is_reported_not_raised(tmp_path):
    (tmp_path / "depinfer.toml").write_text("ignore = [")
    diags = []
    assert load_config(tmp_path, diags) == Config()
    assert diags and diags[0].file == "depinfer.toml"


def test_examples_tools_and_build_scripts_are_not_held_to_the_manifest(tmp_path):
    project = _project(tmp_path, {"dependencies": [], "optional-dependencies.test": ["pytest"]})
    cands = [
        _cand("click", Section.DEV, file="examples/demo.py"),
        _cand("emoji", Section.DEV, file="tools/make.py"),
        _cand("setuptools", Section.BUILD, file="setup.py"),
        _cand("hypothesis", Section.DEV),
    ]
    assert codes(find_problems(project, cands)) == [("DEP001", "hypothesis")]


def test_test_imports_are_not_required_when_the_project_keeps_no_dev_group(tmp_path):
    assert (
        find_problems(_project(tmp_path, {"dependencies": []}), [_cand("hypothesis", Section.DEV)])
        == []
    )


def test_docs_requirements_file_is_not_a_runtime_manifest(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "requirements.txt").write_text("sphinx\n")
    project = _project(tmp_path, {"dependencies": []})
    project.manifests.append(
        Manifest(
            "docs/requirements.txt",
            Ecosystem.PYPI,
            "requirements",
            declared={"dependencies": ["sphinx"]},
        )
    )
    assert find_problems(project, []) == []
