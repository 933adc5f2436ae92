"""Python analyzer: what each kind of import becomes as an `ImportRef`."""

from __future__ import annotations

import json
import textwrap

import pytest
from conftest import FIXTURES, offline_context
from packaging.markers import Marker

from depinfer.analyzers.python import MAX_ATTRS, analyze, analyze_text, package_of
from depinfer.analyzers.python_notebook import pip_requirements
from depinfer.context import Context
from depinfer.facts.python import import_facts
from depinfer.model import FileKind, ImportRef
from depinfer.scan import scan


def run_fixture(name: str) -> tuple[list[ImportRef], Context]:
    ctx = offline_context()
    refs = analyze(scan(FIXTURES / "python" / name), ctx)
    return refs, ctx


def refs_of(source: str, path: str = "pkg/mod.py", package: list[str] | None = None):
    return analyze_text(textwrap.dedent(source), path, package)


def by_module(refs: list[ImportRef]) -> dict[str, ImportRef]:
    return {r.module: r for r in refs}


# --- plain import forms ------------------------------------------------------------------


def test_import_statement_keeps_the_full_dotted_module():
    refs = refs_of("import a.b.c\nimport os, yaml\n")
    assert [r.module for r in refs] == ["a.b.c", "os", "yaml"]
    assert all(r.names == () and not r.relative for r in refs)


def test_aliased_import_records_the_module_not_the_alias():
    (ref,) = refs_of("import numpy.linalg as la\n")
    assert ref.module == "numpy.linalg"


def test_from_import_records_module_and_imported_names():
    refs = refs_of("from a.b import c, d as e\nfrom x import (y,\n    z)\nfrom w import *\n")
    assert [(r.module, r.names) for r in refs] == [
        ("a.b", ("c", "d")),
        ("x", ("y", "z")),
        ("w", ("*",)),
    ]


def test_future_imports_are_not_recorded():
    refs = refs_of("from __future__ import annotations\nimport attr\n")
    assert [r.module for r in refs] == ["attr"]


def test_imports_inside_functions_and_classes_count():
    refs = refs_of(
        """
        class A:
            import yaml

            def f(self):
                from lxml import etree
                return etree
        """
    )
    assert [r.module for r in refs] == ["yaml", "lxml"]


def test_lines_are_one_based_and_kind_defaults_to_source():
    refs = refs_of("\n\nimport yaml\n")
    assert refs[0].line == 3
    assert refs[0].kind == FileKind.SOURCE
    assert refs[0].language == "python"


def test_kind_comes_from_the_scanned_file():
    refs, _ = run_fixture("an-dynamic-imports")
    numpy = next(r for r in refs if r.module == "numpy")
    assert numpy.file == "tests/test_loader.py"
    assert numpy.kind == FileKind.TEST


# --- relative imports ----------------------------------------------------------------------


def test_relative_imports_resolve_through_the_init_chain():
    refs, _ = run_fixture("an-relative-imports")
    readers = [(r.module, r.names) for r in refs if r.file == "src/relpkg/io/readers.py"]
    assert readers[:3] == [
        ("relpkg", ("core",)),
        ("relpkg.core", ("run",)),
        ("relpkg.io", ("writers",)),
    ]
    init = [(r.module, r.names) for r in refs if r.file == "src/relpkg/__init__.py"]
    assert init == [("relpkg", ("core",)), ("relpkg.core", ("run",))]
    assert all(r.relative for r in refs)


def test_relative_imports_in_a_folder_without_init_inside_a_package_resolve():
    refs, _ = run_fixture("an-relative-imports")
    app = [(r.module, r.names) for r in refs if r.file == "src/relpkg/sansio/app.py"]
    assert app == [("relpkg.core", ("run",)), ("relpkg.sansio", ("helpers",))]


def test_relative_import_beyond_the_known_package_keeps_its_relative_text():
    refs, _ = run_fixture("an-relative-imports")
    modules = {(r.file, r.module) for r in refs}
    assert ("src/relpkg/io/readers.py", "...outside") in modules
    # a folder without __init__.py: the package cannot be named
    assert ("scripts/nspkg/tool.py", ".helpers") in modules


def test_package_of_follows_init_files_upwards():
    dirs = {"src/pkg", "src/pkg/sub"}
    assert package_of("src/pkg/sub/mod.py", dirs) == ["pkg", "sub"]
    assert package_of("src/pkg/sub/__init__.py", dirs) == ["pkg", "sub"]
    assert package_of("tools/x.py", dirs) == []
    # a folder without __init__.py inside a regular package is a namespace portion of it
    assert package_of("src/pkg/sansio/app.py", dirs) == ["pkg", "sansio"]


# --- optional imports ----------------------------------------------------------------------


def test_imports_under_import_error_handlers_are_optional():
    refs, _ = run_fixture("an-optional-imports")
    found = by_module(refs)
    for name in ("ujson", "lxml", "yaml", "orjson", "numpy", "regex", "tomllib", "msgpack"):
        assert found[name].optional, name


def test_handlers_that_do_not_catch_import_errors_leave_imports_required():
    refs, _ = run_fixture("an-optional-imports")
    found = by_module(refs)
    assert not found["requests"].optional  # except ValueError
    assert not found["json"].optional
    assert not found["click"].optional  # suppress(KeyError)


def test_fallback_in_the_except_handler_is_required_and_names_what_it_replaces():
    refs, _ = run_fixture("an-optional-imports")
    tomli = by_module(refs)["tomli"]
    assert not tomli.optional
    assert list(import_facts(tomli).fallback_for) == ["tomllib"]


def test_contextlib_suppress_import_error_marks_optional():
    refs, _ = run_fixture("an-optional-imports")
    assert by_module(refs)["colorama"].optional


def test_handler_that_raises_again_keeps_optional_but_says_reraised():
    refs = refs_of(
        """
        try:
            import pyarrow
        except ImportError as exc:
            raise RuntimeError("pip install pyarrow") from exc
        try:
            import fastparquet
        except ImportError:
            fastparquet = None
        """
    )
    found = by_module(refs)
    assert found["pyarrow"].optional and import_facts(found["pyarrow"]).reraised is True
    assert found["fastparquet"].optional and not import_facts(found["fastparquet"]).reraised


def test_try_else_runs_only_when_the_guarded_import_worked_so_is_optional():
    refs = refs_of(
        "try:\n    import matplotlib\nexcept ImportError:\n    pass\n"
        "else:\n    import matplotlib.pyplot\nfinally:\n    import gc\n"
    )
    assert [(r.module, r.optional) for r in refs] == [
        ("matplotlib", True),
        ("matplotlib.pyplot", True),
        ("gc", False),
    ]


def test_python2_comma_handler_still_counts_as_catching_import_error():
    refs = refs_of("try:\n    import simplejson\nexcept ImportError, e:\n    pass\n")
    assert refs[0].optional


# --- TYPE_CHECKING -------------------------------------------------------------------------


def test_type_checking_blocks_are_type_only_and_their_else_is_not():
    refs, _ = run_fixture("an-type-checking")
    found = {r.module: r for r in refs if r.file == "tcdemo/models.py"}
    for name in ("pandas", "numpy.typing", "sqlalchemy.orm", "polars", "orjson"):
        assert found[name].type_only, name
    for name in ("attrs", "msgpack", "ujson", "typing"):
        assert not found[name].type_only, name


def test_stub_files_are_type_only():
    refs, _ = run_fixture("an-type-checking")
    stub = [r for r in refs if r.file == "tcdemo/models.pyi"]
    assert stub and all(r.type_only for r in stub)


# --- environment markers -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("condition", "marker"),
    [
        ('sys.platform == "win32"', 'sys_platform == "win32"'),
        ('"win32" == sys.platform', 'sys_platform == "win32"'),
        ('sys.platform != "win32"', 'sys_platform != "win32"'),
        ('sys.platform.startswith("linux")', 'sys_platform == "linux"'),
        ('sys.platform.startswith("win")', 'sys_platform == "win32"'),
        ('sys.platform.startswith("freebsd")', '"freebsd" in sys_platform'),
        ('os.name == "nt"', 'os_name == "nt"'),
        ('platform.system() == "Windows"', 'platform_system == "Windows"'),
        ('platform.system().lower() == "darwin"', 'platform_system == "Darwin"'),
        ('platform.python_implementation() == "PyPy"', 'platform_python_implementation == "PyPy"'),
        ('sys.implementation.name == "cpython"', 'implementation_name == "cpython"'),
        ("sys.version_info >= (3, 11)", 'python_version >= "3.11"'),
        ("sys.version_info < (3, 11)", 'python_version < "3.11"'),
        ("sys.version_info > (3, 10)", 'python_version >= "3.10"'),
        ("sys.version_info <= (3, 10)", 'python_version < "3.10"'),
        ("sys.version_info[:2] > (3, 10)", 'python_version > "3.10"'),
        ("sys.version_info >= (3, 8, 1)", 'python_full_version >= "3.8.1"'),
        ("sys.version_info[0] == 2", 'python_version < "3"'),
        ("sys.version_info.major >= 3", 'python_version >= "3"'),
        ("six.PY2", 'python_version < "3"'),
        (
            "(3, 8) <= sys.version_info < (3, 11)",
            'python_version >= "3.8" and python_version < "3.11"',
        ),
        (
            'sys.platform not in ("win32", "cygwin")',
            'sys_platform != "win32" and sys_platform != "cygwin"',
        ),
        (
            'sys.platform in ("win32", "cygwin")',
            'sys_platform == "win32" or sys_platform == "cygwin"',
        ),
        (
            'not (sys.platform == "win32" or os.name == "nt")',
            'sys_platform != "win32" and os_name != "nt"',
        ),
        ('sys.platform == "win32" and other_flag', 'sys_platform == "win32"'),
        ('platform == "darwin"', 'sys_platform == "darwin"'),  # from sys import platform
        ("version_info < (3, 9)", 'python_version < "3.9"'),  # from sys import version_info
        ("some_function()", None),
    ],
)
def test_guard_conditions_become_pep508_markers(condition, marker):
    (ref,) = refs_of(f"if {condition}:\n    import dep\n")
    assert ref.marker == marker
    if marker is not None:
        Marker(marker)  # valid PEP 508


def test_else_branch_gets_the_negated_marker():
    refs = refs_of(
        """
        if sys.version_info >= (3, 11):
            import tomllib
        else:
            import tomli as tomllib
        """
    )
    assert [(r.module, r.marker) for r in refs] == [
        ("tomllib", 'python_version >= "3.11"'),
        ("tomli", 'python_version < "3.11"'),
    ]


def test_else_of_a_partly_unknown_condition_has_no_marker():
    refs = refs_of('if sys.platform == "win32" and flag:\n    import a\nelse:\n    import b\n')
    assert [r.marker for r in refs] == ['sys_platform == "win32"', None]


def test_elif_and_else_carry_the_negation_of_earlier_branches():
    refs, _ = run_fixture("an-platform-guards")
    found = by_module(refs)
    assert found["pyudev"].marker == 'sys_platform == "linux"'  # `!= "win32"` is implied
    assert found["appnope"].marker == 'sys_platform != "win32" and sys_platform != "linux"'


def test_elif_marker_drops_an_alternative_its_own_condition_implies():
    refs = refs_of(
        """
        if (3, 4) <= sys.version_info < (3, 9):
            import a
        elif sys.version_info >= (3, 9):
            import b
        """
    )
    assert refs[1].marker == 'python_version >= "3.9"'


def test_nested_guards_are_joined_with_and_outermost_first():
    refs, _ = run_fixture("an-platform-guards")
    found = by_module(refs)
    assert found["pywin32_ctypes"].marker == 'sys_platform == "win32" and python_version < "3.8"'
    assert found["uvloop"].marker == 'sys_platform != "win32" and python_version >= "3.10"'


def test_module_level_flags_are_read_as_their_condition():
    refs, _ = run_fixture("an-platform-guards")
    assert by_module(refs)["pexpect"].marker == 'sys_platform != "win32"'


def test_backport_guards_give_version_markers():
    refs, _ = run_fixture("an-platform-guards")
    found = by_module(refs)
    assert found["tomli"].marker == 'python_version < "3.11"'
    assert found["backports.zoneinfo"].marker == 'python_version < "3.9"'
    assert found["zoneinfo"].marker == 'python_version >= "3.9"'
    assert found["colorama"].marker == 'os_name == "nt"'
    assert found["objc"].marker == 'platform_system == "Darwin"'
    for ref in refs:
        if ref.marker:
            Marker(ref.marker)


def test_markers_and_optional_combine():
    (ref,) = refs_of(
        'if sys.platform == "win32":\n    try:\n        import winshell\n    except ImportError:\n'
        "        pass\n"
    )
    assert ref.optional
    assert ref.marker == 'sys_platform == "win32"'


# --- dynamic imports -----------------------------------------------------------------------


def test_literal_dynamic_imports_are_recorded_and_computed_ones_are_not():
    refs, _ = run_fixture("an-dynamic-imports")
    dynamic = {r.module: r for r in refs if r.dynamic}
    assert {"yaml", "sqlalchemy.dialects.postgresql", "six", "rich"} <= set(dynamic)
    assert "simplejson" not in dynamic
    assert not any("BACKEND" in m or "{" in m for m in dynamic)
    assert not dynamic["yaml"].optional


def test_relative_dynamic_import_resolves_against_the_package():
    refs, _ = run_fixture("an-dynamic-imports")
    formats = next(r for r in refs if r.dynamic and r.relative)
    assert formats.module == "plugins.formats"


def test_importorskip_is_optional_and_dynamic_with_its_minversion():
    refs, _ = run_fixture("an-dynamic-imports")
    numpy = next(r for r in refs if r.module == "numpy")
    assert numpy.dynamic and numpy.optional
    assert import_facts(numpy).minversion == "1.20"
    assert "numpy.mean" in import_facts(numpy).attrs  # bound by `np = pytest.importorskip(...)`


def test_find_spec_is_an_optional_probe_and_guards_optional_imports():
    refs, _ = run_fixture("an-dynamic-imports")
    rich = next(r for r in refs if r.module == "rich")
    assert rich.dynamic and rich.optional
    colorama = next(r for r in refs if r.module == "colorama" and not r.dynamic)
    assert colorama.optional


def test_methods_named_like_import_functions_are_not_dynamic_imports():
    assert refs_of('self.import_module("x")\nobj.find_spec("y")\n') == []


def test_run_module_runs_an_installed_module_by_name():
    src = 'import runpy\nfrom runpy import run_module\nrun_module("pip", run_name="__main__")\n'
    src += 'runpy.run_module("black")\nself.run_module("nope")\n'
    found = {r.module for r in refs_of(src) if r.dynamic}
    assert found == {"pip", "black"}


# --- attribute chains ----------------------------------------------------------------------


def test_attribute_chains_on_imported_names_are_recorded_from_the_module():
    refs = refs_of(
        """
        import numpy as np
        import pandas as pd
        from pydantic import BaseModel
        import os.path

        x = np.float(1) + np.random.rand()
        df = pd.DataFrame.append
        BaseModel.model_validate
        os.path.join("a")
        """
    )
    found = by_module(refs)
    assert list(import_facts(found["numpy"]).attrs) == ["numpy.float", "numpy.random.rand"]
    assert list(import_facts(found["pandas"]).attrs) == ["pandas.DataFrame.append"]
    assert list(import_facts(found["pydantic"]).attrs) == ["pydantic.BaseModel.model_validate"]
    assert list(import_facts(found["os.path"]).attrs) == ["os.path.join"]


def test_attribute_chains_ignore_comments_strings_and_other_objects():
    refs = refs_of(
        """
        import numpy as np
        # np.comment
        s = "np.string"
        other.np.thing
        np.real
        """
    )
    assert list(import_facts(refs[0]).attrs) == ["numpy.real"]


def test_attribute_chains_are_deduplicated_and_capped():
    lines = ["import big"] + [f"big.f{i % (MAX_ATTRS + 50)}()" for i in range(2 * MAX_ATTRS)]
    (ref,) = refs_of("\n".join(lines) + "\n")
    assert len(import_facts(ref).attrs) == MAX_ATTRS
    assert len(set(import_facts(ref).attrs)) == MAX_ATTRS


# --- notebooks -----------------------------------------------------------------------------


def test_notebook_code_cells_are_read_and_other_cells_ignored():
    refs, _ = run_fixture("an-notebooks")
    imports = [
        (r.module, import_facts(r).cell, r.line) for r in refs if not import_facts(r).pip_install
    ]
    assert imports == [
        ("pandas", 2, 4),
        ("numpy", 2, 5),
        ("sklearn.linear_model", 3, 6),
        ("matplotlib.pyplot", 6, 4),
    ]
    assert all(r.language == "python" for r in refs)


def test_notebook_pip_install_lines_become_refs():
    refs, _ = run_fixture("an-notebooks")
    pips = [(r.module, import_facts(r).requirement) for r in refs if import_facts(r).pip_install]
    assert pips == [
        ("seaborn", "seaborn"),
        ("scikit-learn", "scikit-learn>=1.2"),
        ("polars", "polars[pyarrow]"),
        ("tqdm", "tqdm"),
    ]


def test_notebook_magic_lines_do_not_cause_syntax_errors():
    _, ctx = run_fixture("an-notebooks")
    assert not any("syntax" in d.message for d in ctx.diagnostics)


def test_notebook_with_bad_json_gives_a_diagnostic_naming_it():
    _, ctx = run_fixture("an-notebooks")
    (diag,) = [d for d in ctx.diagnostics if d.file == "notebooks/broken.ipynb"]
    assert "invalid JSON" in diag.message


def test_guards_are_judged_per_notebook_cell(tmp_path):
    cells = [
        "try:\n    import ujson\nexcept ImportError:\n    pass\n",
        "try:\n    import requests\nexcept ValueError:\n    raise\n",
    ]
    notebook = {"cells": [{"cell_type": "code", "source": c} for c in cells]}
    (tmp_path / "nb.ipynb").write_text(json.dumps(notebook))
    ctx = offline_context()
    refs = analyze(scan(tmp_path), ctx)
    assert [(r.module, r.optional, import_facts(r).cell) for r in refs] == [
        ("ujson", True, 1),
        ("requests", False, 2),
    ]


@pytest.mark.parametrize(
    ("command", "requirements"),
    [
        ("pip install -q a b==1", ["a", "b==1"]),
        ("python -m pip install -U 'c[x]>=2' -r req.txt", ["c[x]>=2"]),
        ("{sys.executable} -m pip install d > /dev/null", ["d"]),
        ("pip3 install -e . && pip install e", ["e"]),
        ("uv pip install f", ["f"]),
        ("pip install git+https://example.invalid/x.git ./local g", ["g"]),
        ("conda install h", []),
        ("pipx install black", []),
        ("pip uninstall -y i", []),
    ],
)
def test_pip_install_commands_yield_their_requirements(command, requirements):
    assert pip_requirements(command) == requirements


def test_pip_installs_in_notebooks_exported_to_python_are_recorded():
    refs = refs_of(
        """
        get_ipython().system('pip install -q torch "transformers>=4"')
        get_ipython().run_line_magic('pip', 'install polars')
        """
    )
    assert [(r.module, import_facts(r).requirement, r.line) for r in refs] == [
        ("torch", "torch", 2),
        ("transformers", "transformers>=4", 2),
        ("polars", "polars", 3),
    ]
    assert all(import_facts(r).pip_install for r in refs)


# --- bad input -----------------------------------------------------------------------------


def test_syntax_errors_keep_the_imports_that_parse_with_an_info_diagnostic():
    refs, ctx = run_fixture("an-syntax-errors")
    broken = [r.module for r in refs if r.file == "legacy/broken.py"]
    assert broken == ["requests", "yaml", "attrs"]
    assert any(
        d.file == "legacy/broken.py" and d.level == "info" and "syntax" in d.message
        for d in ctx.diagnostics
    )


def test_python2_files_are_read_with_an_info_diagnostic():
    refs, ctx = run_fixture("an-syntax-errors")
    py2 = by_module([r for r in refs if r.file == "legacy/py2.py"])
    assert set(py2) == {"urllib2", "StringIO", "simplejson", "json"}
    assert py2["simplejson"].optional
    assert any(d.file == "legacy/py2.py" and d.level == "info" for d in ctx.diagnostics)


def test_binary_file_with_py_suffix_is_skipped_with_a_diagnostic():
    refs, ctx = run_fixture("an-syntax-errors")
    assert not any(r.file == "legacy/blob.py" for r in refs)
    assert any(d.file == "legacy/blob.py" and "binary" in d.message for d in ctx.diagnostics)


def test_undecodable_file_is_still_read():
    refs, ctx = run_fixture("an-syntax-errors")
    assert any(r.file == "legacy/latin1.py" and r.module == "chardet" for r in refs)
    assert any(d.file == "legacy/latin1.py" for d in ctx.diagnostics)


def test_import_lines_swallowed_by_parse_errors_are_recovered():
    refs = refs_of('print("a"\nimport requests\nfrom a import (b,\n')
    assert [(r.module, r.names, r.line) for r in refs] == [("requests", (), 2), ("a", ("b",), 3)]


def test_no_fixture_produces_internal_errors():
    for fixture in sorted((FIXTURES / "python").glob("an-*")):
        _, ctx = run_fixture(fixture.name)
        assert not any("could not analyse" in d.message for d in ctx.diagnostics), fixture


def test_lazy_import_in_a_function_whose_callers_catch_import_error_is_optional():
    refs = refs_of(
        """
        class Clusterer:
            def _linkage_fast(self):
                import fastcluster
                return fastcluster.linkage(self.data)

            def _linkage_plain(self):
                from scipy.cluster import hierarchy
                return hierarchy.linkage(self.data)

            @property
            def linkage(self):
                try:
                    return self._linkage_fast()
                except ImportError:
                    pass
                return self._linkage_plain()


        def plot(data):
            import matplotlib.pyplot as plt  # called unguarded below: required
            return plt.plot(data)


        def safe_plot(data):
            try:
                return plot(data)
            except ImportError:
                return None


        def show(data):
            return plot(data)
        """
    )
    found = by_module(refs)
    assert found["fastcluster"].optional
    assert import_facts(found["fastcluster"]).guarded_by_caller == "_linkage_fast"
    assert not found["scipy.cluster"].optional
    assert not found["matplotlib.pyplot"].optional


def test_a_broad_handler_guards_imports_only_around_import_only_bodies():
    refs = refs_of(
        """
        try:
            import ujson as json
        except Exception:
            import json

        def parse(text):
            try:
                from dateutil.parser import parse as dateparse
                value = dateparse(text)
                return value.timetuple()
            except Exception as exc:
                return None
        """
    )
    found = by_module(refs)
    assert found["ujson"].optional  # an import-only body: the handler is the import's
    assert not found["dateutil.parser"].optional  # the handler is about parsing


def test_a_guarded_call_of_an_imported_name_does_not_guard_a_function_of_that_name():
    src = (
        "from runpy import run_module\n\n"
        "try:\n    from rich.traceback import install\n\n    install()\nexcept ImportError:\n"
        '    pass\n\n\ndef install(packages):\n    run_module("pip")\n'
    )
    pip = next(r for r in refs_of(src) if r.module == "pip")
    assert not pip.optional


def test_facts_are_replaced_not_changed_and_default_when_absent():
    from depinfer.facts.python import NO_IMPORT_FACTS, ImportFacts, mark

    ref = ImportRef("numpy", "a.py", 1, "python")
    assert import_facts(ref) is NO_IMPORT_FACTS
    mark(ref, lazy=True)
    first = ref.facts
    mark(ref, core=True)
    assert isinstance(first, ImportFacts) and first.lazy and not first.core
    assert import_facts(ref).lazy and import_facts(ref).core


def test_isinstance_checks_do_not_make_a_probe_real_work():
    path = FIXTURES / "python" / "an-probe-guards" / "probe" / "console.py"
    refs = {r.module: r.optional for r in analyze_text(path.read_text(), "probe/console.py")}
    assert refs["ipykernel"] is True and refs["IPython"] is True
    assert refs["dateutil.parser"] is False


# --- Cython sources ------------------------------------------------------------------------


def test_cython_sources_give_their_imports_and_cimports():
    refs, ctx = run_fixture("an-cython")
    found = sorted((r.file, r.module, r.line) for r in refs if not r.relative)
    assert found == [
        ("fastpack/codec.pyx", "msgpack", 7),
        ("fastpack/codec.pyx", "numpy", 5),
        ("fastpack/codec.pyx", "numpy", 6),
        ("fastpack/helpers.pxd", "numpy", 1),
        ("fastpack/helpers.pyx", "lz4.frame", 1),
    ]
    assert not any("syntax" in d.message for d in ctx.diagnostics)


def test_cython_own_cimports_are_not_dependencies():
    refs, _ = run_fixture("an-cython")
    tops = {r.module.split(".")[0] for r in refs}
    assert not tops & {"libc", "cpython", "cython"}


def test_cython_relative_cimport_is_internal():
    refs, _ = run_fixture("an-cython")
    relative = [r for r in refs if r.relative and r.file.endswith(".pyx")]
    assert [(r.file, r.names) for r in relative] == [("fastpack/codec.pyx", ("checksum",))]


def test_cython_view_keeps_line_numbers_and_multiline_imports():
    from depinfer.analyzers.python_cython import import_view

    text = "cdef int x = 1\n    from a cimport (\n        b,\n        c)\ncdef f():\n    pass\n"
    view = import_view(text)
    assert view.split("\n") == ["", "from a import (", "        b,", "        c)", "", "", ""]
