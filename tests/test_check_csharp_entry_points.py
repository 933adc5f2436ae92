"""`--check` on C#: a declared package is used when the code calls an entry point its own
documentation shows, even where inference does not choose the package by that name (the
declared-entry-points table, issue 25), unless the repository declares a newer major version
of the package that ships the entry point itself; and the index's marker rows for entry
points only one package has (`EnableAnnotations`, `UseMultiTenant`)."""

from __future__ import annotations

from conftest import write_tree

from depinfer.check import run_check


def _codes(root) -> list[tuple[str, str]]:
    _, findings = run_check(str(root))
    return sorted((f.code, f.name) for f in findings)


def _tree(tmp_path, refs: dict[str, str], code: str, sdk: str = "Microsoft.NET.Sdk"):
    items = "".join(f'<PackageReference Include="{p}" Version="{v}" />' for p, v in refs.items())
    csproj = (
        f'<Project Sdk="{sdk}"><PropertyGroup><TargetFramework>net8.0</TargetFramework>'
        f"</PropertyGroup><ItemGroup>{items}</ItemGroup></Project>"
    )
    return write_tree(tmp_path, {"App/App.csproj": csproj, "App/C.cs": code})


MEDIATR_CODE = (
    "using MediatR;\nusing Microsoft.Extensions.DependencyInjection;\nnamespace App;\n"
    "public static class C { public static void R(IServiceCollection s) => "
    "s.AddMediatR(typeof(C)); public static IMediator M; }\n"
)


def test_the_mediatr_11_extension_package_is_used_by_add_mediatr(tmp_path):
    refs = {"MediatR": "9.0.0", "MediatR.Extensions.Microsoft.DependencyInjection": "9.0.0"}
    root = _tree(tmp_path, refs, MEDIATR_CODE)
    assert _codes(root) == []


def test_beside_mediatr_12_the_extension_package_is_unused(tmp_path):
    refs = {"MediatR": "12.5.0", "MediatR.Extensions.Microsoft.DependencyInjection": "11.1.0"}
    root = _tree(tmp_path, refs, MEDIATR_CODE)
    assert _codes(root) == [("DEP002", "MediatR.Extensions.Microsoft.DependencyInjection")]


def test_api_version_attributes_use_mvc_versioning(tmp_path):
    code = (
        "using Microsoft.AspNetCore.Mvc;\nnamespace App;\n"
        '[ApiVersion("1.0")]\npublic class V : ControllerBase { }\n'
    )
    refs = {"Microsoft.AspNetCore.Mvc.Versioning": "5.1.0"}
    root = _tree(tmp_path, refs, code, "Microsoft.NET.Sdk.Web")
    assert _codes(root) == []


def test_async_linq_uses_system_linq_async(tmp_path):
    code = (
        "using System.Linq;\nusing System.Collections.Generic;\nusing System.Threading.Tasks;\n"
        "namespace App;\npublic static class C { public static async Task<List<int>> L("
        "IAsyncEnumerable<int> e) => await e.ToListAsync(); }\n"
    )
    root = _tree(tmp_path, {"System.Linq.Async": "6.0.1"}, code)
    assert _codes(root) == []


def test_enable_annotations_uses_swashbuckle_annotations(tmp_path):
    code = (
        "using Microsoft.Extensions.DependencyInjection;\nnamespace App;\n"
        "public static class C { public static void R(IServiceCollection s) => "
        "s.AddSwaggerGen(o => o.EnableAnnotations()); }\n"
    )
    refs = {"Swashbuckle.AspNetCore": "6.5.0", "Swashbuckle.AspNetCore.Annotations": "6.5.0"}
    root = _tree(tmp_path, refs, code, "Microsoft.NET.Sdk.Web")
    assert _codes(root) == []


def test_use_multi_tenant_uses_the_finbuckle_aspnetcore_package(tmp_path):
    code = (
        "using Microsoft.AspNetCore.Builder;\nnamespace App;\n"
        "public static class C { public static void R(WebApplication a) => a.UseMultiTenant(); }\n"
    )
    root = _tree(
        tmp_path, {"Finbuckle.MultiTenant.AspNetCore": "7.0.0"}, code, "Microsoft.NET.Sdk.Web"
    )
    assert _codes(root) == []


def test_a_contract_package_whose_namespace_a_carrier_serves_elsewhere_is_used(tmp_path):
    # App's use of Microsoft.Extensions.DependencyInjection goes to MediatR, which brings
    # the abstractions; Lib declares them for App, which references it
    lib = (
        '<Project Sdk="Microsoft.NET.Sdk"><PropertyGroup><TargetFramework>net8.0'
        "</TargetFramework></PropertyGroup><ItemGroup>"
        '<PackageReference Include="Microsoft.Extensions.DependencyInjection.Abstractions" '
        'Version="8.0.0" /></ItemGroup></Project>'
    )
    app = (
        '<Project Sdk="Microsoft.NET.Sdk"><PropertyGroup><TargetFramework>net8.0'
        "</TargetFramework></PropertyGroup><ItemGroup>"
        '<PackageReference Include="MediatR" Version="12.5.0" />'
        '<ProjectReference Include="../Lib/Lib.csproj" /></ItemGroup></Project>'
    )
    root = write_tree(
        tmp_path,
        {
            "Lib/Lib.csproj": lib,
            "Lib/L.cs": "namespace Lib;\npublic class L { }\n",
            "App/App.csproj": app,
            "App/C.cs": MEDIATR_CODE.replace("typeof(C)", "cfg => { }"),
        },
    )
    assert _codes(root) == []
