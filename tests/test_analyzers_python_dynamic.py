"""Dynamic imports whose module names fold from the file's own constants (python_constants)."""

from __future__ import annotations

import textwrap

from conftest import FIXTURES, infer_offline

from depinfer.analyzers.python import analyze, analyze_text
from depinfer.context import Context, Options
from depinfer.model import ImportRef, Section
from depinfer.registries import Registries
from depinfer.scan import scan

FIXTURE = FIXTURES / "python" / "an-constant-imports"


def _fixture_refs() -> list[ImportRef]:
    ctx = Context(Options(offline=True), Registries(offline=True))
    return [r for r in analyze(scan(FIXTURE), ctx) if r.dynamic]


def _dynamic(source: str) -> dict[str, ImportRef]:
    refs = analyze_text(textwrap.dedent(source), "pkg/mod.py", ["pkg"])
    return {r.module: r for r in refs if r.dynamic}


def test_fromlist_of_a_module_level_list_imports_each_submodule():
    modules = {r.module for r in _fixture_refs() if r.module.startswith("plugins.")}
    assert modules == {"plugins.pkg", "plugins.pkg.csv_fmt", "plugins.pkg.json_fmt"}


def test_loops_over_constant_and_inline_lists_fold_into_required_imports():
    refs = {r.module: r for r in _fixture_refs()}
    for module in ("yaml", "toml", "pygments", "jinja2"):
        assert module in refs and not refs[module].optional, module


def test_a_choice_from_a_dict_and_a_find_spec_probe_are_optional():
    refs = {r.module: r for r in _fixture_refs()}
    assert refs["psycopg2"].optional and refs["MySQLdb"].optional  # DRIVERS[kind]
    assert refs["markdown"].optional and refs["docutils"].optional  # find_spec over a set


def test_string_defaults_and_lists_changed_at_run_time_are_not_folded():
    modules = {r.module for r in _fixture_refs()}
    assert not modules & {"simplejson", "ujson", "orjson"}


def test_constant_imports_map_to_distributions_and_internal_plugins_stay_internal():
    result = infer_offline(FIXTURE)
    runtime = {r.name for r in result.requirements if r.section == Section.RUNTIME}
    assert runtime == {"pyyaml", "toml", "pygments", "jinja2"}
    assert not any("plugins" in d.message for d in result.diagnostics)


def test_dict_keys_values_and_concatenation_fold():
    found = _dynamic(
        """
        from importlib import import_module
        BACKENDS = {"redis": "myredis_backend", "memcache": "pymemcache"}
        for key in BACKENDS:
            import_module("cache_" + key)
        for module in BACKENDS.values():
            import_module(module + ".client")
        """
    )
    assert {"cache_redis", "cache_memcache"} <= set(found)
    assert {"myredis_backend.client", "pymemcache.client"} <= set(found)


def test_positional_fromlist_and_importorskip_fold():
    found = _dynamic(
        """
        import pytest
        NAMES = ["csv_fmt"]
        OPTIONAL = ("lxml",)
        fmt = __import__("plugins.pkg", globals(), locals(), NAMES)
        for name in OPTIONAL:
            pytest.importorskip(name)
        """
    )
    assert {"plugins.pkg", "plugins.pkg.csv_fmt", "lxml"} <= set(found)
    assert found["lxml"].optional


def test_comprehension_and_relative_names_fold():
    found = _dynamic(
        """
        import importlib
        PARTS = ("alpha", "beta")
        mods = [importlib.import_module(f".{p}", package=__package__) for p in PARTS]
        """
    )
    assert {"pkg.alpha", "pkg.beta"} <= set(found)
    assert found["pkg.alpha"].relative


def test_what_is_not_a_constant_is_not_folded():
    found = _dynamic(
        """
        from importlib import import_module
        NAMES = ["a_mod", "b_mod"]
        LATER = ["c_mod"]
        MIXED = ["d_mod", some_call()]

        def load(x):
            import_module(f"x.{x}")  # a parameter
            for n in NAMES:
                import_module(f"conv.{n!r}")  # a conversion changes the text
            for n in MIXED:
                import_module(n)

        def reset():
            global LATER
            LATER = []

        for n in LATER:
            import_module(n)
        """
    )
    assert set(found) == set()


def test_rebinding_a_name_anywhere_stops_folding():
    found = _dynamic(
        """
        from importlib import import_module
        MODS = ["a_mod"]
        if flag:
            MODS = ["b_mod"]
        for n in MODS:
            import_module(n)
        """
    )
    assert not found


def test_folding_is_bounded():
    names = ", ".join(f'"m{i}"' for i in range(20))
    source = "from importlib import import_module\n" + f"A = [{names}]\n"
    source += 'for a in A:\n    for b in A:\n        import_module(f"{a}.{b}")\n'
    assert not _dynamic(source)  # 400 names: not a list of modules the code loads
