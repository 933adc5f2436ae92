"""The curated tables name their sources; their package names are checked against a
registry (scripts/check_tables.py, here offline: the registry is a fake)."""

from __future__ import annotations

import importlib.util
import sys

import pytest
from conftest import REPO

from depinfer.model import Ecosystem


def _load_script():
    path = REPO / "scripts" / "check_tables.py"
    spec = importlib.util.spec_from_file_location("check_tables", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["check_tables"] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


ct = _load_script()


class FakeRegistry:
    """Knows `known` names, cannot be asked about `unreachable` registries; records asks."""

    def __init__(self, known: set[tuple[Ecosystem, str]], unreachable=()) -> None:
        self.known = known
        self.unreachable = set(unreachable)
        self.asked: list[tuple[Ecosystem, str]] = []

    def exists(self, ecosystem: Ecosystem, name: str) -> bool | None:
        self.asked.append((ecosystem, name))
        if ecosystem in self.unreachable:
            return None
        return (ecosystem, name) in self.known

    def close(self) -> None:
        pass


# ---------------------------------------------------------------- the shipped tables


def test_every_curated_table_names_its_source():
    problems, count = ct.check_sources()
    assert count >= 40
    assert problems == []


def test_every_shipped_table_is_curated_or_built_and_listed_in_the_data_readme():
    assert ct.registration_problems() == []


def test_the_script_passes_offline_on_the_shipped_tables(capsys):
    assert ct.main([]) == 0
    assert "0 problems" in capsys.readouterr().out


def test_package_names_are_taken_only_where_the_map_says():
    names = {(eco, name) for eco, name, _ in ct.all_package_names()}
    assert (Ecosystem.CRATES, "tokio") in names  # a key of umbrella_features' crates
    assert (Ecosystem.NPM, "@types/estree") in names  # types_only: @types/<module>
    assert (Ecosystem.NPM, "@vueuse/integrations") in names  # module:<entry point>
    assert (Ecosystem.PYPI, "pytest-cov") in names  # repair row of language python
    assert (Ecosystem.NUGET, "MinVer") in names
    assert not [n for _, n in names if "*" in n or ":" in n]  # no glob, no tsconfig: option
    assert (Ecosystem.NPM, "vscode") not in names  # an engine module is not a package


# ---------------------------------------------------------------- (a) sources, reported


def test_a_row_without_its_source_field_is_reported_by_file_and_row():
    spec = ct.Spec(rows={"host.*": ("docs",)})
    data = {"host": [{"name": "react", "docs": "https://react.dev"}, {"name": "vue", "docs": ""}]}
    assert ct.source_problems("javascript/hosts.toml", data, "", spec) == [
        'javascript/hosts.toml host[1] (name = "vue"): no docs'
    ]


def test_rows_in_a_map_and_any_of_several_fields_count():
    spec = ct.Spec(rows={"backports.*": ("source", "why")})
    data = {
        "about": "backports",
        "backports": {"tomllib": {"dist": "tomli", "why": "3.11"}, "graphlib": {"dist": "g"}},
    }
    assert ct.source_problems("t.json", data, "", spec) == [
        't.json backports.graphlib (dist = "g"): no source or why'
    ]


def test_data_outside_rows_needs_a_file_level_source():
    rows_only = ct.Spec(rows={"rule.*": ("why",)})
    data = {"rule": [{"why": "docs"}], "extra": ["x"]}
    assert ct.source_problems("t.toml", data, "", rows_only) == [
        "t.toml extra: neither rows with sources nor a file-level source"
    ]
    with_file = ct.Spec(file=("_source",), rows={"rule.*": ("why",)})
    assert ct.source_problems("t.json", {**data, "_source": "the docs"}, "", with_file) == []
    assert ct.source_problems("t.json", data, "", with_file) == [
        "t.json: no file-level source (_source)"
    ]


def test_a_toml_leading_comment_names_the_source_on_a_source_line():
    spec = ct.Spec(file=("#",))
    good = "# Modules imported for types.\n# Source: DefinitelyTyped\n\nnames = []\n"
    vague = "# Modules imported for types.\n\nnames = []\n# Source: too late\n"
    assert ct.source_problems("t.toml", {"names": []}, good, spec) == []
    assert ct.source_problems("t.toml", {"names": []}, vague, spec) == [
        "t.toml: no file-level source (a leading '# Source:' comment)"
    ]


def test_a_row_that_is_not_a_table_is_reported():
    spec = ct.Spec(rows={"macros.*": ("source",)})
    assert ct.source_problems("t.json", {"macros": ["quote"]}, "", spec) == [
        "t.json macros[0]: not a row (expected a table with source)"
    ]


def test_an_unregistered_or_unlisted_table_is_reported(tmp_path):
    (tmp_path / "python").mkdir()
    (tmp_path / "python" / "new.json").write_text("{}")
    (tmp_path / "python" / "implicit.json").write_text("{}")
    readme = tmp_path / "README.md"
    readme.write_text("| `python/implicit.json` | … |\n")
    found = ct.registration_problems(tmp_path, readme)
    assert any(p.startswith("python/new.json: must be either curated") for p in found)
    assert any(p.startswith("python/new.json: not listed") for p in found)
    assert not [p for p in found if p.startswith("python/implicit.json")]


# ---------------------------------------------------------------- (b) names, fake registry


def test_names_are_read_by_kind_and_by_the_row_language():
    spec = ct.Spec(
        names=(
            ct.Names("companion.*.when", "npm", "specifier"),
            ct.Names("names.*", "npm", "types"),
            ct.Names("pattern.*.package", "@language"),
            ct.Names("globs.*", "npm"),
            ct.Names("crates.~", "crates"),
        )
    )
    data = {
        "companion": [
            {"when": "module:@vueuse/integrations/useAxios"},
            {"when": "tsconfig:importHelpers"},
            {"when": "lodash/fp"},
        ],
        "names": ["estree"],
        "pattern": [{"language": "python", "package": "pytest-cov"}, {"language": "x"}],
        "globs": ["@types/*", "tslib"],
        "crates": {"tokio": {"feature": "full"}},
    }
    assert [(e, n) for e, n, _ in ct.package_names("t", data, spec)] == [
        (Ecosystem.NPM, "@vueuse/integrations"),
        (Ecosystem.NPM, "lodash"),
        (Ecosystem.NPM, "@types/estree"),
        (Ecosystem.PYPI, "pytest-cov"),
        (Ecosystem.NPM, "tslib"),
        (Ecosystem.CRATES, "tokio"),
    ]


def test_unknown_names_are_reported_and_unreachable_ones_not_checked():
    names = [
        (Ecosystem.NPM, "react", "a.toml host[0].name"),
        (Ecosystem.NPM, "react", "b.toml default.runtime"),
        (Ecosystem.NPM, "reactt", "c.toml host[1].name"),
        (Ecosystem.NUGET, "MinVer", "d.json tag_versioning[0].package"),
    ]
    registry = FakeRegistry({(Ecosystem.NPM, "react")}, unreachable={Ecosystem.NUGET})
    report = ct.check_names(names, registry)
    assert sorted(registry.asked) == [  # each name once, nothing else
        (Ecosystem.NPM, "react"),
        (Ecosystem.NPM, "reactt"),
        (Ecosystem.NUGET, "MinVer"),
    ]
    assert report.unknown[Ecosystem.NPM] == [("reactt", "c.toml host[1].name")]
    assert report.unchecked[Ecosystem.NUGET] == ["MinVer"]
    lines = report.lines()
    assert "npm: 2 names, 1 unknown" in lines
    assert "  unknown to npm: reactt (c.toml host[1].name)" in lines
    assert "NuGet: 1 names, 0 unknown, 1 not checked" in lines


@pytest.mark.parametrize("unknown", [False, True])
def test_online_run_fails_only_on_a_name_the_registry_does_not_know(monkeypatch, unknown):
    names = {(e, n) for e, n, _ in ct.all_package_names()}
    if unknown:
        names.discard((Ecosystem.CRATES, "tokio"))
    registry = FakeRegistry(names, unreachable={Ecosystem.NUGET})
    monkeypatch.setattr(ct, "Registries", lambda offline: registry)
    assert ct.main(["--online"]) == (1 if unknown else 0)
    assert {e for e, _ in registry.asked} == set(Ecosystem)
