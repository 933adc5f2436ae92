"""Readers and writers for Python manifests: what they declare, and edits that touch only
the dependency sections (comments, spacing, CRLF, BOM and order elsewhere kept)."""

from __future__ import annotations

import dataclasses
import difflib

import pytest
from conftest import FIXTURES, copy_fixture

from depinfer.manifests import (
    ManifestError,
    pyproject,
    read_manifest,
    render_manifest,
    requirements,
    setup_cfg,
    setup_py,
)
from depinfer.manifests.pep508 import format_requirement, requirement_name
from depinfer.manifests.pyproject import poetry_constraint
from depinfer.model import Ecosystem, Manifest, Requirement, Section

ALL_MANIFESTS = [
    ("mf-pep621-hatch", "pyproject.toml", "pyproject"),
    ("mf-pep621-flit", "pyproject.toml", "pyproject"),
    ("mf-setuptools-dynamic", "pyproject.toml", "pyproject"),
    ("mf-setuptools-dynamic", "requirements/base.txt", "requirements"),
    ("mf-setuptools-dynamic", "requirements/test.txt", "requirements"),
    ("mf-poetry", "pyproject.toml", "pyproject"),
    ("mf-requirements", "requirements.txt", "requirements"),
    ("mf-requirements", "requirements-dev.txt", "requirements"),
    ("mf-setup-cfg", "setup.cfg", "setup_cfg"),
    ("mf-setup-cfg", "setup.py", "setup_py"),
    ("mf-setup-py", "setup.py", "setup_py"),
    ("mf-tool-only", "pyproject.toml", "pyproject"),
    ("mf-tool-only", "setup.py", "setup_py"),
]
MODULES = {
    "pyproject": pyproject,
    "requirements": requirements,
    "setup_cfg": setup_cfg,
    "setup_py": setup_py,
}


def text_of(fixture: str, rel: str) -> str:
    return (FIXTURES / "python" / fixture / rel).read_text(encoding="utf-8")


def manifest(rel: str, fmt: str) -> Manifest:
    return Manifest(path=rel, ecosystem=Ecosystem.PYPI, format=fmt)


def req(name: str, **kw: object) -> Requirement:
    return Requirement(Ecosystem.PYPI, name, kw.pop("manifest", "pyproject.toml"), **kw)  # type: ignore[arg-type]


def diff(old: str, new: str) -> tuple[list[str], list[str]]:
    """(removed lines, added lines) between two texts."""
    removed, added = [], []
    for line in difflib.ndiff(old.splitlines(keepends=True), new.splitlines(keepends=True)):
        if line.startswith("- "):
            removed.append(line[2:])
        elif line.startswith("+ "):
            added.append(line[2:])
    return removed, added


def render(fmt: str, text: str, rel: str, reqs: list[Requirement]) -> str:
    return MODULES[fmt].render(text, manifest(rel, fmt), reqs)


# ----------------------------------------------------------------------------- readers


def test_pep621_reader_lists_every_section_with_names_as_written():
    declared, data = pyproject.read(text_of("mf-pep621-hatch", "pyproject.toml"), "pyproject.toml")
    assert declared == {
        "dependencies": ["attrs", "httpx", "rich"],
        "optional-dependencies.yaml": ["PyYAML"],
        "optional-dependencies.test": ["pytest", "pytest-cov"],
        "dependency-groups.dev": ["ruff"],
        "dependency-groups.typing": ["mypy"],
        "build-system.requires": ["hatchling", "hatch-vcs"],
    }
    assert data["style"] == "pep621"
    assert data["name"] == "weather-cli"
    assert data["requires_python"] == ">=3.9"
    assert data["classifiers"] == ["3.9", "3.12"]
    assert data["dynamic_dependencies_files"] == []


def test_pep621_without_dependencies_declares_no_runtime_section():
    declared, data = pyproject.read(text_of("mf-pep621-flit", "pyproject.toml"), "pyproject.toml")
    assert "dependencies" not in declared
    assert declared["build-system.requires"] == ["flit_core"]
    assert data["style"] == "pep621"
    assert data["requires_python"] == ">=3.8"


def test_dynamic_dependencies_name_their_files_relative_to_the_repository():
    text = text_of("mf-setuptools-dynamic", "pyproject.toml")
    declared, data = pyproject.read(text, "sub/pyproject.toml")
    assert "dependencies" not in declared
    assert data["dynamic_dependencies_files"] == ["sub/requirements/base.txt"]
    assert data["dynamic_optional_dependencies_files"] == {"test": ["sub/requirements/test.txt"]}


def test_poetry_reader_separates_python_groups_extras_and_dev():
    declared, data = pyproject.read(text_of("mf-poetry", "pyproject.toml"), "pyproject.toml")
    assert declared["dependencies"] == ["fastapi", "sqlalchemy", "uvloop"]
    assert declared["extras.speed"] == ["uvloop"]
    assert declared["group.dev"] == ["pytest", "black"]
    assert declared["group.docs"] == ["mkdocs"]
    assert data["style"] == "poetry"
    assert data["requires_python"] == "^3.9"
    assert data["name"] == "inventory"
    assert data["classifiers"] == ["3.11"]


def test_legacy_poetry_dev_dependencies_key():
    text = '[tool.poetry]\nname = "x"\n\n[tool.poetry.dev-dependencies]\npytest = "*"\n'
    declared, _ = pyproject.read(text, "pyproject.toml")
    assert declared == {"dev-dependencies": ["pytest"]}


def test_tool_only_pyproject_declares_nothing():
    declared, data = pyproject.read(text_of("mf-tool-only", "pyproject.toml"), "pyproject.toml")
    assert declared == {}
    assert data["style"] == "tool-only"


def test_requirements_reader_keeps_includes_and_skips_options():
    text = text_of("mf-requirements", "requirements.txt")
    declared, data = requirements.read(text, "requirements.txt")
    assert declared == {
        "dependencies": ["Django", "celery", "psycopg2-binary", "acme-widgets"],
    }
    assert data["style"] == "requirements"
    dev_declared, dev = requirements.read(
        text_of("mf-requirements", "requirements-dev.txt"), "app/requirements-dev.txt"
    )
    assert dev_declared["dependencies"] == ["coverage", "pytest", "pytest-django"]
    assert dev["includes"] == ["app/requirements.txt", "app/constraints.txt"]
    assert dev["constraints"] == ["app/constraints.txt"]


def test_setup_cfg_reader():
    declared, data = setup_cfg.read(text_of("mf-setup-cfg", "setup.cfg"), "setup.cfg")
    assert declared == {
        "dependencies": ["numpy", "pillow"],
        "optional-dependencies.test": ["pytest"],
    }
    assert data["style"] == "setuptools"
    assert data["name"] == "colorkit"
    assert data["requires_python"] == ">=3.8"
    assert data["classifiers"] == ["3.8", "3.10"]


def test_setup_cfg_install_requires_from_a_file():
    text = "[metadata]\nname = x\n\n[options]\ninstall_requires = file: requirements.in\n"
    declared, data = setup_cfg.read(text, "pkg/setup.cfg")
    assert declared["dependencies"] == []
    assert data["dynamic_dependencies_files"] == ["pkg/requirements.in"]


def test_setup_cfg_with_only_tool_settings_is_tool_only():
    _, data = setup_cfg.read("[flake8]\nmax-line-length = 88\n", "setup.cfg")
    assert data["style"] == "tool-only"


def test_setup_py_reader():
    declared, data = setup_py.read(text_of("mf-setup-py", "setup.py"), "setup.py")
    assert declared == {
        "dependencies": ["numpy", "pyproj", "shapely"],
        "optional-dependencies.plot": ["matplotlib"],
    }
    assert data["name"] == "geotools"
    assert data["requires_python"] == ">=3.7"
    assert data["classifiers"] == ["3.7"]


@pytest.mark.parametrize(
    "text, shim",
    [
        ("from setuptools import setup\nsetup()\n", True),
        ('import setuptools\nsetuptools.setup(name="rich")\n', True),
        ('setup(name="x", packages=["x"])\n', False),
    ],
)
def test_setup_py_shim_is_flagged(text, shim):
    assert setup_py.read(text, "setup.py")[1]["shim"] is shim


def test_setup_py_reads_a_module_level_list_and_files_it_opens():
    text = 'from setuptools import setup\nREQS = ["six", "attrs"]\nsetup(install_requires=REQS)\n'
    assert setup_py.read(text, "setup.py")[0] == {"dependencies": ["six", "attrs"]}
    text = 'setup(install_requires=open("requirements.txt").read().splitlines())\n'
    declared, data = setup_py.read(text, "lib/setup.py")
    assert data["dynamic_dependencies_files"] == ["lib/requirements.txt"]


@pytest.mark.parametrize(
    "module, text",
    [
        (pyproject, '[project]\nname = "x"\ndependencies = ["a",\n'),
        (pyproject, '[project]\nname = "x"\nname = "y"\n'),
        (pyproject, "[project]\n[project]\n"),
        (setup_cfg, "install_requires = x\n"),
        (setup_py, 'print "python 2"\n'),
        (setup_py, "setup(\x00)\n"),
        (requirements, "abc\x00def\n"),
    ],
)
def test_unparsable_manifests_raise_manifest_error(module, text):
    with pytest.raises(ManifestError):
        module.read(text, "x")
    with pytest.raises(ManifestError):
        module.render(text, manifest("x", "x"), [req("requests")])


def test_oversized_manifest_is_refused_by_every_reader():
    huge = "requests\n" * 700_000
    for module in MODULES.values():
        with pytest.raises(ManifestError, match="limit for manifests"):
            module.read(huge, "x")


def test_read_manifest_reports_a_broken_pyproject_instead_of_raising(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[project\nname = "x"\n')
    m = read_manifest(tmp_path, "pyproject.toml", "pyproject")
    assert m.parse_error and "invalid TOML" in m.parse_error
    with pytest.raises(ManifestError):
        render_manifest(tmp_path, m, [req("requests")])


@pytest.mark.parametrize(
    "text, name",
    [
        ("requests>=2", "requests"),
        ("Foo.Bar[x] ; python_version<'3'", "Foo.Bar"),
        ("pkg @ https://example.invalid/pkg.zip", "pkg"),
        ("git+https://example.invalid/r.git#egg=thing", "thing"),
        ("oldstyle (>=1.0)", "oldstyle"),
        ("# comment", None),
    ],
)
def test_requirement_name(text, name):
    assert requirement_name(text) == name


def test_format_requirement_with_extras_spec_and_marker():
    r = req("uvicorn", features=["standard"], spec=">=0.20", markers='sys_platform != "win32"')
    assert format_requirement(r) == 'uvicorn[standard]>=0.20; sys_platform != "win32"'
    assert format_requirement(r, single_quote_markers=True).endswith("sys_platform != 'win32'")


# ----------------------------------------------------------------------------- writers


@pytest.mark.parametrize("fixture, rel, fmt", ALL_MANIFESTS)
def test_every_fixture_reads_and_renders_unchanged_without_requirements(fixture, rel, fmt):
    text = text_of(fixture, rel)
    MODULES[fmt].read(text, rel)
    assert render(fmt, text, rel, []) == text
    crlf = text.replace("\n", "\r\n")
    MODULES[fmt].read(crlf, rel)
    assert render(fmt, crlf, rel, []) == crlf


@pytest.mark.parametrize("fixture, rel, fmt", ALL_MANIFESTS)
def test_rendering_twice_adds_nothing_twice(fixture, rel, fmt):
    text = text_of(fixture, rel)
    if fmt == "setup_cfg" or (fixture, fmt) == ("mf-setup-cfg", "setup_py"):
        reqs = [req("Requests", manifest=rel)]
    else:
        reqs = [req("Requests", manifest=rel), req("zope.interface", spec=">=5", manifest=rel)]
    data = MODULES[fmt].read(text, rel)[1]
    if data["style"] == "tool-only" or data.get("dynamic_dependencies_files"):
        # no runtime list in this file: a dependency group is what it can hold
        reqs = [req("ruff", section=Section.DEV, group="dependency-groups.dev")]
    once = render(fmt, text, rel, reqs)
    assert once != text
    again = [dataclasses.replace(reqs[0], name=reqs[0].name.upper())] + reqs
    assert render(fmt, once, rel, again) == once


def test_pep621_inserts_alphabetically_into_a_sorted_list_and_keeps_comments():
    text = text_of("mf-pep621-hatch", "pyproject.toml")
    new = pyproject.render(
        text,
        manifest("pyproject.toml", "pyproject"),
        [req("click", spec=">=8"), req("tomli", markers='python_version < "3.11"')],
    )
    removed, added = diff(text, new)
    assert removed == []
    assert added == ['  "click>=8",\n', "  \"tomli; python_version < '3.11'\",\n"]
    block = new.split("dependencies = [\n", 1)[1].split("]", 1)[0]
    assert block.splitlines() == [
        '  "attrs>=22.1",',
        '  "click>=8",',
        "  # HTTP client",
        '  "httpx>=0.24",',
        '  "rich",',
        "  \"tomli; python_version < '3.11'\",",
    ]


def test_pep621_groups_extras_and_build_requirements():
    text = text_of("mf-pep621-hatch", "pyproject.toml")
    new = pyproject.render(
        text,
        manifest("pyproject.toml", "pyproject"),
        [
            req("pytest-mock", section=Section.DEV, group="optional-dependencies.test"),
            req("orjson", section=Section.OPTIONAL, group="optional-dependencies.fast"),
            req("pre-commit", section=Section.DEV, group="dependency-groups.dev"),
            req("sphinx", section=Section.DEV, group="dependency-groups.docs"),
            req("setuptools-scm", section=Section.BUILD),
        ],
    )
    declared, _ = pyproject.read(new, "pyproject.toml")
    assert declared["optional-dependencies.test"] == ["pytest", "pytest-cov", "pytest-mock"]
    assert declared["optional-dependencies.fast"] == ["orjson"]
    assert declared["dependency-groups.dev"] == ["ruff", "pre-commit"]
    assert declared["dependency-groups.docs"] == ["sphinx"]
    assert declared["build-system.requires"][-1] == "setuptools-scm"
    removed, added = diff(text, new)
    # only list lines change; the one removal is a line that gained a trailing comma
    assert all(line.strip().startswith(("{include-group", '"', "requires")) for line in removed)
    assert "# Build with hatch; versions come from git tags.\n" in new
    assert "line-length = 100   # keep in sync with editorconfig\n" in new
    assert 'fast = [\n  "orjson",\n]\n' in new


def test_pep621_without_dependencies_gets_a_list_after_requires_python():
    text = text_of("mf-pep621-flit", "pyproject.toml")
    new = pyproject.render(
        text, manifest("pyproject.toml", "pyproject"), [req("regex"), req("attrs")]
    )
    assert 'requires-python = ">=3.8"\ndependencies = [\n    "attrs",\n    "regex",\n]\n' in new
    removed, added = diff(text, new)
    assert removed == []
    assert added == ["dependencies = [\n", '    "attrs",\n', '    "regex",\n', "]\n"]


def test_empty_dependency_list_becomes_multiline_in_the_files_indentation():
    text = (
        '[project]\nname = "x"\ndependencies = []  # masked\n'
        'classifiers = [\n  "A",\n]\n\n[tool.x]\ny = 1\n'
    )
    new = pyproject.render(
        text, manifest("pyproject.toml", "pyproject"), [req("b"), req("a", spec=">=1")]
    )
    assert new == (
        '[project]\nname = "x"\ndependencies = [\n  "a>=1",\n  "b",\n]  # masked\n'
        'classifiers = [\n  "A",\n]\n\n[tool.x]\ny = 1\n'
    )


@pytest.mark.parametrize(
    "masked, filled",
    [
        (
            "dependencies = [\n    # filled by hand\n]\n",
            'dependencies = [\n    # filled by hand\n    "a",\n    "b",\n]\n',
        ),
        ("dependencies = [  # none yet\n]\n", 'dependencies = [  # none yet\n  "a",\n  "b",\n]\n'),
    ],
)
def test_empty_list_with_comments_keeps_them(masked, filled):
    text = '[project]\nname = "x"\n' + masked + 'classifiers = [\n  "A",\n]\n'
    new = pyproject.render(text, manifest("pyproject.toml", "pyproject"), [req("b"), req("a")])
    assert new == '[project]\nname = "x"\n' + filled + 'classifiers = [\n  "A",\n]\n'


def test_inline_list_stays_inline_and_without_trailing_comma_style_is_kept():
    text = '[project]\nname = "x"\ndependencies = ["flask", "celery[redis]"]\n'
    new = pyproject.render(text, manifest("pyproject.toml", "pyproject"), [req("redis")])
    assert 'dependencies = ["flask", "celery[redis]", "redis"]\n' in new
    text = '[project]\nname = "x"\ndependencies = [\n    "b",\n    "c"\n]\n'
    new = pyproject.render(text, manifest("pyproject.toml", "pyproject"), [req("d")])
    assert new.endswith('    "c",\n    "d"\n]\n')


def test_project_table_split_by_other_tables_gets_dependencies_under_its_header():
    text = (
        '[project]\nname = "x"\nrequires-python = ">=3.8"\n\n[project.urls]\nH = "u"\n\n'
        '[tool.flit.sdist]\ninclude = ["a"]\n\n[project.optional-dependencies]\nt = ["pytest"]\n'
    )
    new = pyproject.render(text, manifest("pyproject.toml", "pyproject"), [req("idna")])
    assert new == text.replace(
        'requires-python = ">=3.8"\n',
        'requires-python = ">=3.8"\ndependencies = [\n    "idna",\n]\n',
    )


def test_an_unforeseen_writer_error_becomes_a_manifest_error(monkeypatch):
    def boom(*args, **kwargs):
        raise KeyError("surprise")

    monkeypatch.setattr(pyproject, "_write", boom)
    text = text_of("mf-pep621-hatch", "pyproject.toml")
    with pytest.raises(ManifestError, match="cannot handle this file safely"):
        pyproject.render(text, manifest("pyproject.toml", "pyproject"), [req("click")])


def test_literal_string_lists_get_literal_entries():
    text = "[project]\nname = 'x'\ndependencies = [\n  'a',\n  'c',\n]\n"
    new = pyproject.render(
        text,
        manifest("pyproject.toml", "pyproject"),
        [req("b", markers='python_version < "3.11"')],
    )
    assert new == (
        "[project]\nname = 'x'\ndependencies = [\n  'a',\n"
        "  'b; python_version < \"3.11\"',\n  'c',\n]\n"
    )


def test_inline_list_growing_too_long_is_laid_out_one_entry_a_line():
    text = (
        '[project]\nname = "x"\n'
        'dependencies = [\'flask\', "celery[redis]", "sqlalchemy>=2", "alembic"]  # web\n'
    )
    new = pyproject.render(
        text,
        manifest("pyproject.toml", "pyproject"),
        [req("pydantic-settings", spec=">=2.0,<3"), req("python-multipart")],
    )
    assert new.endswith(
        'dependencies = [\n    \'flask\',\n    "celery[redis]",\n    "sqlalchemy>=2",\n'
        '    "alembic",\n    "pydantic-settings>=2.0,<3",\n    "python-multipart",\n]  # web\n'
    )


def test_dynamic_dependencies_are_not_written_into_pyproject():
    text = text_of("mf-setuptools-dynamic", "pyproject.toml")
    with pytest.raises(ManifestError, match="dynamic"):
        pyproject.render(text, manifest("pyproject.toml", "pyproject"), [req("click")])


def test_tool_only_pyproject_refuses_runtime_dependencies():
    text = text_of("mf-tool-only", "pyproject.toml")
    with pytest.raises(ManifestError):
        pyproject.render(text, manifest("pyproject.toml", "pyproject"), [req("six")])


def test_poetry_runtime_entries_use_poetrys_idiom_after_python():
    text = text_of("mf-poetry", "pyproject.toml")
    new = pyproject.render(
        text,
        manifest("pyproject.toml", "pyproject"),
        [
            req("httpx", spec=">=0.27,<0.28"),
            req("pydantic", spec=">=2.0,<3"),
            req("anyio"),
            req("tzdata", markers='sys_platform == "win32"'),
            req("passlib", features=["bcrypt"]),
        ],
    )
    block = new.split("[tool.poetry.dependencies]\n", 1)[1].split("\n\n", 1)[0]
    assert block.splitlines() == [
        'python = "^3.9"',
        'anyio = "*"',
        "# the web layer",
        'fastapi = "^0.110"',
        'httpx = "^0.27"',
        'passlib = { version = "*", extras = ["bcrypt"] }',
        'pydantic = "^2.0"',
        'sqlalchemy = { version = "^2.0", extras = ["asyncio"] }',
        'tzdata = { version = "*", markers = "sys_platform == \'win32\'" }',
        'uvloop = { version = "^0.19", optional = true }',
    ]
    removed, _ = diff(text, new)
    assert removed == []


def test_poetry_extras_groups_and_new_group_tables():
    text = text_of("mf-poetry", "pyproject.toml")
    new = pyproject.render(
        text,
        manifest("pyproject.toml", "pyproject"),
        [
            req("orjson", section=Section.OPTIONAL, optional=True, group="extras.speed"),
            req("pytest-asyncio", section=Section.DEV, group="group.dev"),
            req("mkdocs-material", section=Section.DEV, group="group.docs"),
            req("hypothesis", section=Section.DEV, group="group.test"),
        ],
    )
    declared, _ = pyproject.read(new, "pyproject.toml")
    assert declared["extras.speed"] == ["uvloop", "orjson"]
    assert "orjson" in declared["dependencies"]
    assert 'orjson = { version = "*", optional = true }' in new
    assert declared["group.dev"] == ["pytest", "black", "pytest-asyncio"]
    assert declared["group.docs"] == ["mkdocs", "mkdocs-material"]
    assert declared["group.test"] == ["hypothesis"]
    assert '[tool.poetry.group.test.dependencies]\nhypothesis = "*"\n\n' in new
    assert new.endswith('build-backend = "poetry.core.masonry.api"\n')
    removed, _ = diff(text, new)
    assert removed == ['speed = ["uvloop"]\n']


def test_poetry_without_dependency_table_gets_one():
    text = (
        '[tool.poetry]\nname = "x"\nversion = "1"\n\n[build-system]\nrequires = ["poetry-core"]\n'
    )
    assert pyproject.read(text, "pyproject.toml")[1]["style"] == "poetry"
    new = pyproject.render(text, manifest("pyproject.toml", "pyproject"), [req("click")])
    assert '[tool.poetry.dependencies]\nclick = "*"\n\n[build-system]' in new


def test_poetry_2_layout_with_a_project_table_writes_pep621_dependencies():
    text = (
        '[project]\nname = "x"\nrequires-python = ">=3.10"\n\n'
        '[tool.poetry]\npackages = [{include = "x"}]\n\n'
        '[build-system]\nrequires = ["poetry-core"]\n'
    )
    assert pyproject.read(text, "pyproject.toml")[1]["style"] == "pep621"
    new = pyproject.render(text, manifest("pyproject.toml", "pyproject"), [req("click")])
    assert 'requires-python = ">=3.10"\ndependencies = [\n    "click",\n]\n\n[tool.poetry]' in new


def test_tight_inline_tables_stay_tight():
    text = '[tool.poetry.dependencies]\npython = "^3.9"\nrich = {version = "*", optional = true}\n'
    new = pyproject.render(
        text,
        manifest("pyproject.toml", "pyproject"),
        [req("tqdm", optional=True, group="extras.x")],
    )
    assert 'tqdm = {version = "*", optional = true}\n' in new
    assert new.endswith('\n\n[tool.poetry.extras]\nx = ["tqdm"]\n')


def test_group_keys_are_translated_to_what_the_file_can_hold():
    pep621 = '[project]\nname = "x"\ndependencies = []\n'
    new = pyproject.render(
        pep621,
        manifest("pyproject.toml", "pyproject"),
        [req("pytest", section=Section.DEV, group="group.test")],
    )
    assert pyproject.read(new, "pyproject.toml")[0]["dependency-groups.test"] == ["pytest"]
    poetry = text_of("mf-poetry", "pyproject.toml")
    new = pyproject.render(
        poetry,
        manifest("pyproject.toml", "pyproject"),
        [req("ruff", section=Section.DEV, group="dependency-groups.lint")],
    )
    assert pyproject.read(new, "pyproject.toml")[0]["group.lint"] == ["ruff"]


def test_legacy_poetry_dev_section_is_used_when_present():
    text = '[tool.poetry]\nname = "x"\n\n[tool.poetry.dev-dependencies]\npytest = "*"\n'
    new = pyproject.render(
        text, manifest("pyproject.toml", "pyproject"), [req("coverage", section=Section.DEV)]
    )
    assert new.endswith('pytest = "*"\ncoverage = "*"\n')


@pytest.mark.parametrize(
    "spec, poetry",
    [
        ("", "*"),
        (">=2.0", ">=2.0"),
        (">=2.0,<3", "^2.0"),
        (">=0.5.1,<0.6", "^0.5.1"),
        (">=1.2,<1.3", "~1.2"),
        ("==1.4.2", "1.4.2"),
        (">=1.0,<4", ">=1.0,<4"),
        ("~=1.4", "~=1.4"),
    ],
)
def test_poetry_constraint(spec, poetry):
    assert poetry_constraint(spec) == poetry


def test_crlf_pyproject_stays_crlf():
    text = text_of("mf-pep621-hatch", "pyproject.toml").replace("\n", "\r\n")
    new = pyproject.render(
        text,
        manifest("pyproject.toml", "pyproject"),
        [req("click"), req("sphinx", section=Section.DEV, group="dependency-groups.docs")],
    )
    assert new.count("\n") == new.count("\r\n")
    assert '  "click",\r\n' in new
    crlf_poetry = text_of("mf-poetry", "pyproject.toml").replace("\n", "\r\n")
    new = pyproject.render(
        crlf_poetry,
        manifest("pyproject.toml", "pyproject"),
        [req("hypothesis", group="group.test")],
    )
    assert new.count("\n") == new.count("\r\n")


def test_bom_is_kept_by_render_manifest(tmp_path):
    raw = "\ufeff" + text_of("mf-pep621-hatch", "pyproject.toml")
    (tmp_path / "pyproject.toml").write_bytes(raw.replace("\n", "\r\n").encode("utf-8"))
    m = read_manifest(tmp_path, "pyproject.toml", "pyproject")
    assert m.parse_error is None and m.declared["dependencies"] == ["attrs", "httpx", "rich"]
    old, new = render_manifest(tmp_path, m, [req("click")])
    assert old == raw.replace("\n", "\r\n")
    assert new.startswith("\ufeff# Build with hatch")
    assert new.count("\n") == new.count("\r\n")


def test_requirements_append_sorted_and_keep_options_and_comments():
    text = text_of("mf-requirements", "requirements.txt")
    new = requirements.render(
        text,
        manifest("requirements.txt", "requirements"),
        [req("redis", spec=">=5"), req("attrs", markers='python_version < "3.12"')],
    )
    assert new == text + 'attrs; python_version < "3.12"\nredis>=5\n'


def test_requirements_sorted_file_gets_alphabetical_insertion_and_keeps_continuations():
    text = text_of("mf-requirements", "requirements-dev.txt")
    new = requirements.render(
        text, manifest("requirements-dev.txt", "requirements"), [req("mock"), req("tox")]
    )
    assert new.splitlines() == [
        "-r requirements.txt",
        "-c constraints.txt",
        "coverage",
        "mock",
        "pytest",
        "pytest-django \\",
        "    >=4.5",
        "tox",
    ]


def test_optional_import_in_a_requirements_file_becomes_a_comment_once():
    m = manifest("requirements.txt", "requirements")
    optional = req("ujson", section=Section.OPTIONAL, optional=True)
    new = requirements.render("flask\n", m, [optional])
    assert new == "flask\n# optional: ujson\n"
    assert requirements.read(new, "requirements.txt")[0]["dependencies"] == ["flask"]
    assert requirements.render(new, m, [optional]) == new


def test_requirements_without_trailing_newline_and_crlf():
    m = manifest("requirements.txt", "requirements")
    assert requirements.render("flask", m, [req("gunicorn")]) == "flask\ngunicorn\n"
    assert requirements.render("# masked\r\n", m, [req("b")]) == "# masked\r\nb\r\n"
    assert requirements.render("", m, [req("b")]) == "b\n"


def test_setup_cfg_adds_lines_with_the_values_indentation():
    text = text_of("mf-setup-cfg", "setup.cfg")
    new = setup_cfg.render(
        text,
        manifest("setup.cfg", "setup_cfg"),
        [
            req("matplotlib"),
            req("pytest-cov", section=Section.DEV, group="optional-dependencies.test"),
            req("sphinx", section=Section.DEV, group="optional-dependencies.docs"),
            req("mock", section=Section.DEV, group="tests_require"),
        ],
    )
    removed, added = diff(text, new)
    assert removed == []
    assert "    matplotlib\n    numpy>=1.20\n    ; a comment line\n    pillow\nzip_safe" in new
    assert "test =\n    pytest\n    pytest-cov\ndocs =\n    sphinx\n\n[flake8]" in new
    assert "tests_require =\n    mock\n" in new
    declared, _ = setup_cfg.read(new, "setup.cfg")
    assert declared["dependencies"] == ["matplotlib", "numpy", "pillow"]


def test_setup_cfg_without_options_gets_a_section_after_metadata():
    text = "[metadata]\r\nname = x\r\n\r\n[bdist_wheel]\r\nuniversal = 1\r\n"
    new = setup_cfg.render(text, manifest("setup.cfg", "setup_cfg"), [req("requests")])
    assert new == (
        "[metadata]\r\nname = x\r\n\r\n[options]\r\ninstall_requires =\r\n    requests\r\n"
        "\r\n[bdist_wheel]\r\nuniversal = 1\r\n"
    )


def test_setup_cfg_install_requires_from_file_is_refused():
    text = "[options]\ninstall_requires = file: requirements.txt\n"
    with pytest.raises(ManifestError, match="file"):
        setup_cfg.render(text, manifest("setup.cfg", "setup_cfg"), [req("x")])


def test_setup_py_inserts_into_the_literal_by_source_position():
    text = text_of("mf-setup-py", "setup.py")
    new = setup_py.render(
        text,
        manifest("setup.py", "setup_py"),
        [
            req("affine"),
            req("rtree", markers='platform_system != "Windows"'),
            req("pytest", section=Section.DEV, group="tests_require"),
            req("contextily", section=Section.OPTIONAL, group="optional-dependencies.plot"),
            req("fiona", section=Section.OPTIONAL, group="optional-dependencies.io"),
        ],
    )
    removed, added = diff(text, new)
    assert removed == ['        "plot": ["matplotlib"],\n']
    assert '        "affine",\n        "numpy>=1.19",  # arrays\n' in new
    assert '        "rtree; platform_system != \'Windows\'",\n        "shapely>=1.8",\n' in new
    assert '"plot": ["matplotlib", "contextily"],\n        "io": ["fiona"],\n' in new
    assert '    tests_require=[\n        "pytest",\n    ],\n)\n' in new
    declared, _ = setup_py.read(new, "setup.py")
    assert declared["dependencies"] == ["affine", "numpy", "pyproj", "rtree", "shapely"]


def test_setup_py_adds_install_requires_to_a_call_without_it():
    text = 'import setuptools\n\nif __name__ == "__main__":\n    setuptools.setup(name="rich")\n'
    new = setup_py.render(text, manifest("setup.py", "setup_py"), [req("pygments")])
    assert new.endswith('setuptools.setup(name="rich", install_requires=["pygments"])\n')
    text = 'setup(\n    name="x",\n    version="1"\n)\n'
    new = setup_py.render(text, manifest("setup.py", "setup_py"), [req("a"), req("b")])
    assert (
        new
        == 'setup(\n    name="x",\n    version="1",\n    install_requires=[\n        "a",\n        "b",\n    ],\n)\n'
    )


def test_setup_py_tuples_and_single_quotes():
    text = "setup(name='x', install_requires=())\n"
    new = setup_py.render(text, manifest("setup.py", "setup_py"), [req("a")])
    assert new == "setup(name='x', install_requires=('a',))\n"
    text = "setup(name='x', install_requires=('a', 'c'))\n"
    new = setup_py.render(text, manifest("setup.py", "setup_py"), [req("b")])
    assert new == "setup(name='x', install_requires=('a', 'b', 'c'))\n"


def test_setup_cfg_value_on_the_key_line_gets_continuation_lines():
    text = "[options]\ninstall_requires = requests\n[mypy]\nstrict = True\n"
    new = setup_cfg.render(text, manifest("setup.cfg", "setup_cfg"), [req("click")])
    assert new == "[options]\ninstall_requires = requests\n    click\n[mypy]\nstrict = True\n"
    assert setup_cfg.read(new, "setup.cfg")[0]["dependencies"] == ["requests", "click"]


def test_setup_py_long_single_line_call_wraps_new_keywords_under_the_first_argument():
    text = "if True:\n    setup(configuration=configuration)\n"
    reqs = [req("a" * 40), req("b" * 40)]
    new = setup_py.render(text, manifest("setup.py", "setup_py"), reqs)
    assert new == (
        "if True:\n    setup(configuration=configuration,\n"
        f'          install_requires=["{"a" * 40}", "{"b" * 40}"])\n'
    )


@pytest.mark.parametrize(
    "text",
    [
        "from setuptools import setup\nsetup(install_requires=get_requirements())\n",
        "setup(install_requires=open('requirements.txt').read().splitlines())\n",
    ],
)
def test_setup_py_non_literal_install_requires_is_refused(text):
    with pytest.raises(ManifestError, match="not a literal list"):
        setup_py.render(text, manifest("setup.py", "setup_py"), [req("b")])


def test_unchanged_bytes_outside_dependency_sections_on_a_copied_tree(tmp_path):
    """Render through the package facade on copies of every fixture, as the pipeline does."""
    for fixture, rel, fmt in ALL_MANIFESTS:
        root = tmp_path / fixture
        if not root.exists():
            copy_fixture("python", fixture, root)
        m = read_manifest(root, rel, fmt)
        assert m.parse_error is None, (fixture, rel, m.parse_error)
        old, new = render_manifest(root, m, [])
        assert old == new == (root / rel).read_text(encoding="utf-8")
