"""`--check` on C#: only what the compiler would fail on or what is truly unused."""

from __future__ import annotations

from conftest import FIXTURES, manifest_names, write_tree

from depinfer.check import run_check
from depinfer.context import Options
from depinfer.pipeline import infer


def _codes(root) -> list[tuple[str, str]]:
    _, findings = run_check(str(root))
    return sorted((f.code, f.name) for f in findings)


def test_relative_usings_in_file_scoped_and_block_namespaces_are_the_repositorys_own():
    # `using Wrappers;` in `namespace Acme;`, `using static Internal.Guard;`, an alias to
    # `Wrappers.Box<string>`, and `using Wrappers;` inside `namespace Acme.Web { }`
    assert _codes(FIXTURES / "csharp" / "relativeusings") == []


def test_a_relative_using_resolves_to_a_package_namespace(tmp_path):
    root = write_tree(
        tmp_path,
        {
            "Lib/Lib.csproj": '<Project Sdk="Microsoft.NET.Sdk"><PropertyGroup>'
            "<TargetFramework>net8.0</TargetFramework></PropertyGroup></Project>",
            "Lib/Setup.cs": "namespace Microsoft.Extensions\n{\n    using DependencyInjection;\n"
            "    public static class Setup { public static IServiceCollection Add("
            "IServiceCollection s) => s; }\n}\n",
        },
    )
    names = manifest_names(infer(root, Options(offline=True)), "Lib/Lib.csproj")
    assert names == ["Microsoft.Extensions.DependencyInjection.Abstractions"]


LIB = (
    '<Project Sdk="Microsoft.NET.Sdk"><PropertyGroup><TargetFramework>net8.0'
    "</TargetFramework></PropertyGroup><ItemGroup>{items}</ItemGroup></Project>"
)


def test_build_time_packages_are_not_unused_but_an_unused_library_is(tmp_path):
    items = (
        '<PackageReference Include="CSharpier.MsBuild" Version="1.0.0" PrivateAssets="all" />'
        '<PackageReference Include="Roslynator.Analyzers" Version="4.13.1" />'
        '<PackageReference Include="Newtonsoft.Json" Version="13.0.3" />'
    )
    root = write_tree(
        tmp_path,
        {
            "Lib/Lib.csproj": LIB.format(items=items),
            "Lib/A.cs": "namespace Lib;\n\npublic class A { }\n",
        },
    )
    assert _codes(root) == [("DEP002", "Newtonsoft.Json")]


def test_the_namespace_maps_to_its_own_package_unless_an_extension_is_called(tmp_path):
    code = (
        "using Microsoft.Extensions.DependencyInjection;\n\nnamespace Lib;\n\n"
        "public static class Setup\n{{\n    public static IServiceCollection Add("
        "this IServiceCollection services) => services{call};\n}}\n"
    )
    files = {"Lib/Lib.csproj": LIB.format(items="")}
    root = write_tree(tmp_path / "a", {**files, "Lib/Setup.cs": code.format(call="")})
    names = manifest_names(infer(root, Options(offline=True)), "Lib/Lib.csproj")
    assert names == ["Microsoft.Extensions.DependencyInjection.Abstractions"]
    root = write_tree(
        tmp_path / "b", {**files, "Lib/Setup.cs": code.format(call=".AddHttpClient()")}
    )
    names = manifest_names(infer(root, Options(offline=True)), "Lib/Lib.csproj")
    assert "Microsoft.Extensions.Http" in names


def test_a_global_qualified_using_is_never_relative():
    from depinfer.analyzers.csharp import analyze_text
    from depinfer.facts.csharp import ref_facts
    from depinfer.model import FileKind

    text = "namespace Acme.AutoFixture\n{\n    using global::AutoFixture;\n    using Tools;\n}\n"
    refs = [r for r in analyze_text(text, "a.cs", FileKind.SOURCE, "p.csproj") if r.line == 3]
    assert [(r.module, ref_facts(r).enclosing) for r in refs] == [("AutoFixture", "")]
    tools = next(r for r in analyze_text(text, "a.cs", FileKind.SOURCE, "p.csproj") if r.line == 4)
    assert ref_facts(tools).enclosing == "Acme.AutoFixture"


def test_a_package_only_adding_extensions_to_a_used_namespace_stays_unused(tmp_path):
    # Options.ConfigurationExtensions adds `Configure<T>(IConfiguration)` into the DI
    # namespace; the code imports the namespace but calls none of it: truly unused. The
    # code calls BuildServiceProvider, which only the undeclared DI package has.
    items = (
        '<PackageReference Include="Microsoft.Extensions.Options.ConfigurationExtensions"'
        ' Version="8.0.0" />'
    )
    code = (
        "using System;\nusing Microsoft.Extensions.DependencyInjection;\n\nnamespace Lib;\n\n"
        "public static class Setup\n{\n    public static IServiceProvider Build("
        "IServiceCollection services) => services.BuildServiceProvider();\n}\n"
    )
    root = write_tree(tmp_path, {"Lib/Lib.csproj": LIB.format(items=items), "Lib/Setup.cs": code})
    assert _codes(root) == [
        ("DEP001", "Microsoft.Extensions.DependencyInjection"),
        ("DEP002", "Microsoft.Extensions.Options.ConfigurationExtensions"),
    ]
