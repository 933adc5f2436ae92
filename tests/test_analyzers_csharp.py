"""What the C# analyzer records from one source text, and how files find their project."""

from __future__ import annotations

from conftest import FIXTURES

from depinfer.analyzers.csharp import analyze_text
from depinfer.analyzers.csharp_layout import build_layout, tfm_major
from depinfer.facts.csharp import ref_facts, ref_kind, ref_project
from depinfer.model import FileKind
from depinfer.scan import scan

SOURCE = """global using Xunit;
using static System.Math;
using Json = Newtonsoft.Json.JsonConvert;
using System.Text;

namespace Acme.Orders;

[ApiController, Route("orders")]
public class OrdersController : Microsoft.AspNetCore.Mvc.ControllerBase
{
    [Fact]
    public void Run() => Serilog.Log.Logger.Information("x");
}

internal record struct Line(int Qty);

public static class Extensions
{
    public static IServiceCollection AddOrders(this IServiceCollection services) => services;
}
"""


def _by_kind(refs, kind):
    return [r for r in refs if ref_kind(r) == kind]


def test_usings_of_every_form():
    refs = analyze_text(SOURCE, "a.cs", FileKind.SOURCE, "a.csproj")
    usings = {r.module: ref_facts(r) for r in _by_kind(refs, "using")}
    assert usings["Xunit"].global_using is True
    assert usings["System.Math"].static is True
    assert usings["Newtonsoft.Json.JsonConvert"].alias == "Json"
    assert "System.Text" in usings
    assert all(ref_project(r) == "a.csproj" for r in refs)


def test_declared_namespaces_types_and_extension_methods():
    refs = analyze_text(SOURCE, "a.cs", FileKind.SOURCE, "a.csproj")
    (summary,) = _by_kind(refs, "file")
    assert summary.facts.namespaces == ("Acme.Orders",)
    types = {(ns, name): public for ns, name, public in summary.facts.types}
    assert types[("Acme.Orders", "OrdersController")] is True
    assert types[("Acme.Orders", "Line")] is False
    assert ("Acme.Orders", "AddOrders") in summary.facts.extensions
    assert "Information" in summary.facts.identifiers


MEMBERS = """namespace Retry;

public sealed class Execution
{
    public Options Options { get; }

    public ResilienceContext Context => Make();

    public bool Run(Arguments args) => Context.IsSynchronous && args.Outcome.Ok && Options.On;
}
"""


def test_member_names_are_not_type_uses():
    (summary,) = _by_kind(analyze_text(MEMBERS, "a.cs", FileKind.SOURCE, "a.csproj"), "file")
    idents = set(summary.facts.identifiers)
    # `Context` is only a property here; `Options` is also written as a type
    assert "Context" not in idents
    assert {"ResilienceContext", "Options", "Arguments"} <= idents
    # `args.Outcome` names a member of something: kept for extension-method matching,
    # marked so the project graph does not read it as a type
    assert {"Outcome", "Make"} <= set(summary.facts.member_only)
    assert "Options" not in summary.facts.member_only


def test_item_conditions_read_with_the_projects_properties():
    from depinfer.analyzers.csharp_layout import _condition_applies

    props = {"IncludeLegacyUsings": "true"}
    assert _condition_applies("'$(IncludeLegacyUsings)' == 'true'", False, props)
    assert not _condition_applies("'$(IncludeLegacyUsings)' == 'true'", False, {})
    assert not _condition_applies("'$(IsTestProject)' == 'true'", False, {})
    assert _condition_applies("'$(IsTestProject)' != 'true' and '$(X)' == ''", False, {})
    assert _condition_applies("'$(A)' == 'yes' or '$(B)' == 'true'", False, {"B": "True"})
    # set per build by the SDK, or not a plain comparison: the item may apply
    assert _condition_applies("'$(TargetFramework)' == 'net48'", False, {})
    assert _condition_applies("$([MSBuild]::IsOSPlatform('Windows'))", False, {})


def test_attributes_and_fully_qualified_names():
    refs = analyze_text(SOURCE, "a.cs", FileKind.SOURCE, "a.csproj")
    attributes = {r.module for r in _by_kind(refs, "attribute")}
    assert {"ApiController", "Route", "Fact"} <= attributes
    qualified = {r.module for r in _by_kind(refs, "qualified")}
    assert "Microsoft.AspNetCore.Mvc.ControllerBase" in qualified
    assert "Serilog.Log.Logger" in qualified


def test_block_namespaces_nest():
    refs = analyze_text("namespace A { namespace B { class C {} } }", "a.cs", FileKind.SOURCE, None)
    (summary,) = _by_kind(refs, "file")
    assert summary.facts.namespaces == ("A", "A.B")
    assert summary.facts.types == (("A.B", "C", False),)


def test_syntax_errors_still_give_what_parses():
    refs = analyze_text("using Polly;\nclass {{{", "a.cs", FileKind.SOURCE, None)
    assert any(r.module == "Polly" for r in refs)
    assert any(ref_kind(r) == "syntax_error" for r in refs)


def test_files_belong_to_the_nearest_project_and_compile_remove_applies():
    project = scan(FIXTURES / "csharp" / "multitarget")
    layout = {cs.name: cs for cs in build_layout(project)}
    parsing = layout["Parsing"]
    assert [f.path for f in parsing.files] == ["src/Parsing/Tokenizer.cs"]
    assert parsing.target_frameworks == ["netstandard2.0", "net8.0"]
    assert layout["Parsing.Tests"].is_test


def test_props_give_frameworks_and_central_versions():
    project = scan(FIXTURES / "csharp" / "shop")
    layout = {cs.name: cs for cs in build_layout(project)}
    web = layout["Shop.Web"]
    assert web.target_frameworks == ["net8.0"]
    assert web.implicit_usings and web.central
    assert web.pool["Serilog.AspNetCore"] == "8.0.3"
    assert layout["Shop.Core.Tests"].is_test and not layout["Shop.Core"].is_test


def test_target_framework_monikers():
    assert tfm_major("net8.0") == ("netcore", 8.0)
    assert tfm_major("net8.0-windows") == ("netcore", 8.0)
    assert tfm_major("netstandard2.0") == ("netstandard", 2.0)
    assert tfm_major("net472") == ("netfx", 4.72)
    assert tfm_major("netcoreapp3.1") == ("netcore", 3.1)
    assert tfm_major("net6") == ("netcore", 6.0)


def test_razor_files_give_usings_names_and_their_component(tmp_path):
    (tmp_path / "Ui" / "Pages").mkdir(parents=True)
    (tmp_path / "Ui" / "Ui.csproj").write_text(
        '<Project Sdk="Microsoft.NET.Sdk.Razor"><PropertyGroup>'
        "<TargetFramework>net8.0</TargetFramework></PropertyGroup></Project>"
    )
    (tmp_path / "Ui" / "_Imports.razor").write_text("@using MudBlazor\n@using Ui.Shared\n")
    (tmp_path / "Ui" / "Pages" / "Counter.razor").write_text(
        '@page "/counter"\n<MudButton OnClick="Go">Go</MudButton>\n@code { void Go() {} }\n'
    )
    from depinfer.analyzers.csharp import analyze
    from depinfer.context import Options
    from depinfer.pipeline import make_context

    refs = analyze(scan(tmp_path), make_context(Options(offline=True)))
    usings = {r.module: ref_facts(r).global_using for r in refs if ref_kind(r) == "using"}
    assert usings == {"MudBlazor": True, "Ui.Shared": True}
    (counter,) = [r for r in refs if ref_kind(r) == "file" and r.file.endswith("Counter.razor")]
    assert counter.facts.types == (("Ui.Pages", "Counter", True),)
    assert "MudButton" in counter.facts.identifiers


def test_object_initializer_members_and_member_reads_are_no_type_uses():
    from depinfer.analyzers.csharp import analyze_text
    from depinfer.model import FileKind

    text = (
        "class C { void M(ILoggerFactory f, Options o) {\n"
        "  var a = new TelemetryOptions { LoggerFactory = f };\n"
        "  var b = o.ServiceCollection.Count; } }\n"
    )
    (summary,) = [
        r for r in analyze_text(text, "C.cs", FileKind.SOURCE, None) if ref_kind(r) == "file"
    ]
    assert "LoggerFactory" not in summary.facts.identifiers
    # read as a member only: kept apart so entry-point markers do not match it
    assert "ServiceCollection" in summary.facts.member_only


def test_usings_carry_the_if_symbols_they_are_compiled_under():
    src = (
        "using System;\n#if POMELO\nusing MySqlConnector;\n#else\nusing MySql.Data;\n#endif\n"
        "#if !LEGACY\nusing Modern;\n#endif\n#if A && B\nusing Both;\n#endif\nclass C {}\n"
    )
    guards = {
        r.module: [list(g) for g in ref_facts(r).guard] or None
        for r in _by_kind(analyze_text(src, "a.cs", FileKind.SOURCE, "a.csproj"), "using")
    }
    assert guards == {
        "System": None,
        "MySqlConnector": [["POMELO", True]],
        "MySql.Data": [["POMELO", False]],
        "Modern": [["LEGACY", False]],
        # a condition of another shape is not read: the using counts as before
        "Both": None,
    }
