"""C# polyfills by target framework: the shipped table (data/csharp/polyfills.json) says
which frameworks have an API in the box; the package goes only to the others."""

from __future__ import annotations

import re

from conftest import FIXTURES, manifest_names, write_tree

from depinfer.analyzers.csharp_layout import build_layout
from depinfer.context import Options
from depinfer.facts.csharp import dep_facts
from depinfer.mapping import nuget_index as nxi
from depinfer.pipeline import infer
from depinfer.scan import scan

FIXTURE = FIXTURES / "csharp" / "polyfilltfms"
LIB = "src/Buffers/Buffers.csproj"
CONDITION = "'$(TargetFramework)' == 'netstandard2.0'"


def test_a_multi_targeting_library_gets_polyfills_only_for_netstandard2_0():
    inference = infer(FIXTURE, Options(offline=True))
    tfms = {r.name: dep_facts(r).tfms for r in inference.requirements if r.manifest == LIB}
    assert tfms == {
        "System.Memory": ("netstandard2.0",),
        "Microsoft.Bcl.HashCode": ("netstandard2.0",),
    }
    text = {e.path: e.new_text for e in inference.edits}[LIB]
    group = re.search(r'<ItemGroup Condition="([^"]*)">(.*?)</ItemGroup>', text, re.S)
    assert group is not None and group.group(1) == CONDITION
    assert 'Include="System.Memory"' in group.group(2)
    assert 'Include="Microsoft.Bcl.HashCode"' in group.group(2)
    assert text.count("System.Memory") == 1  # not also unconditionally


def test_a_project_whose_frameworks_all_have_the_api_gets_no_polyfill():
    # net8.0 has Span<T> and System.Text.Json in the box
    inference = infer(FIXTURE, Options(offline=True))
    assert manifest_names(inference, "src/Modern/Modern.csproj") == []


def test_the_table_gives_the_frameworks_lacking_each_api(tmp_path):
    root = write_tree(
        tmp_path,
        {
            "Old/Old.csproj": '<Project Sdk="Microsoft.NET.Sdk"><PropertyGroup>'
            "<TargetFrameworks>net462;net47;netstandard2.0;netstandard2.1;netcoreapp3.1;net8.0"
            "</TargetFrameworks></PropertyGroup></Project>",
            "Old/A.cs": "namespace Old; public class A {}",
        },
    )
    cs = build_layout(scan(root))[0]
    assert nxi.missing_tfms("System.ValueTuple", cs) == ["net462"]
    assert nxi.missing_tfms("System.Memory", cs) == ["net462", "net47", "netstandard2.0"]
    assert nxi.missing_tfms("System.Text.Json", cs) == [
        "net462",
        "net47",
        "netstandard2.0",
        "netstandard2.1",
    ]
    assert nxi.missing_tfms("Microsoft.Bcl.AsyncInterfaces", cs) == [
        "net462",
        "net47",
        "netstandard2.0",
    ]


def test_every_polyfill_row_names_its_source_and_in_box_frameworks():
    rows = nxi.polyfills()
    assert {
        "System.Memory",
        "Microsoft.Bcl.HashCode",
        "Microsoft.Bcl.AsyncInterfaces",
        "System.Text.Json",
        "System.Text.Encodings.Web",
        "System.ValueTuple",
        "System.Threading.Tasks.Extensions",
    } <= set(rows)
    for row in rows.values():
        assert row["source"] and set(row["inbox"]) <= {"netcore", "netstandard", "netfx"}
