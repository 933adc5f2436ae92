"""`--check` on C# sees what the compiler sees: packages of referenced projects, of imported
MSBuild files and the dependencies of declared packages; a central PackageVersion is no
dependency; a package whose entry point the code calls is used."""

from __future__ import annotations

from conftest import write_tree

from depinfer.check import run_check

LIB = (
    '<Project Sdk="Microsoft.NET.Sdk"><PropertyGroup><TargetFramework>net8.0'
    "</TargetFramework></PropertyGroup><ItemGroup>{items}</ItemGroup></Project>"
)
WEB = LIB.replace("Microsoft.NET.Sdk", "Microsoft.NET.Sdk.Web")


def _codes(root, languages=()) -> list[tuple[str, str]]:
    _, findings = run_check(str(root), languages=languages)
    return sorted((f.code, f.name) for f in findings)


def _ref(name: str) -> str:
    return f'<PackageReference Include="{name}" Version="1.0.0" />'


def test_a_package_of_a_referenced_project_compiles_in_the_referencing_one(tmp_path):
    root = write_tree(
        tmp_path,
        {
            "Core/Core.csproj": LIB.format(items=_ref("Newtonsoft.Json")),
            "Core/A.cs": "using Newtonsoft.Json;\n\nnamespace Core;\n\npublic class A { }\n",
            "App/App.csproj": LIB.format(
                items='<ProjectReference Include="..\\Core\\Core.csproj" />'
            ),
            "App/B.cs": "using Newtonsoft.Json;\nusing Core;\n\nnamespace App;\n\n"
            "public class B { public string S() => JsonConvert.SerializeObject(new A()); }\n",
        },
    )
    assert _codes(root) == []


def test_packages_of_an_imported_msbuild_file_and_central_versions(tmp_path):
    # build/Common.props (imported) references the package; Directory.Packages.props
    # pins versions, one for a package nobody references: a pin is no dependency
    root = write_tree(
        tmp_path,
        {
            "Directory.Packages.props": "<Project><PropertyGroup>"
            "<ManagePackageVersionsCentrally>true</ManagePackageVersionsCentrally>"
            "</PropertyGroup><ItemGroup>"
            '<PackageVersion Include="Newtonsoft.Json" Version="13.0.3" />'
            '<PackageVersion Include="Polly" Version="8.0.0" />'
            "</ItemGroup></Project>",
            "build/Common.props": '<Project><ItemGroup><PackageReference Include="Newtonsoft.Json"'
            " /></ItemGroup></Project>",
            "Lib/Lib.csproj": '<Project Sdk="Microsoft.NET.Sdk"><Import Project="..\\build\\'
            'Common.props" /><PropertyGroup><TargetFramework>net8.0</TargetFramework>'
            "</PropertyGroup></Project>",
            "Lib/A.cs": "using Newtonsoft.Json.Linq;\n\nnamespace Lib;\n\n"
            "public class A { public JObject O = new(); }\n",
        },
    )
    assert _codes(root) == []


def test_a_dependency_of_a_declared_package_compiles_and_keeps_its_parent_used(tmp_path):
    # JwtBearer brings System.IdentityModel.Tokens.Jwt (the brought-by table)
    code = (
        "using System.IdentityModel.Tokens.Jwt;\n\nnamespace Api;\n\n"
        "public class T { public JwtSecurityTokenHandler H = new(); }\n"
    )
    root = write_tree(
        tmp_path,
        {
            "Api/Api.csproj": WEB.format(
                items=_ref("Microsoft.AspNetCore.Authentication.JwtBearer")
            ),
            "Api/T.cs": code,
        },
    )
    assert _codes(root) == []


def test_an_entry_point_the_code_calls_makes_the_package_used(tmp_path):
    # Swashbuckle's UI package only adds `UseSwaggerUI` into Microsoft.AspNetCore.Builder
    items = _ref("Swashbuckle.AspNetCore.SwaggerUI") + _ref("Serilog.Sinks.File")
    root = write_tree(
        tmp_path,
        {
            "Api/Api.csproj": WEB.format(items=items),
            "Api/Program.cs": "var app = WebApplication.CreateBuilder(args).Build();\n"
            "app.UseSwaggerUI();\napp.Run();\n",
        },
    )
    assert _codes(root) == [("DEP002", "Serilog.Sinks.File")]


def test_a_build_rule_suggestion_is_no_finding_and_lang_limits_the_manifests(tmp_path):
    # the test project lacks Microsoft.NET.Test.Sdk (a rule would add it; the compiler
    # does not fail); the package.json beside it is another language's
    root = write_tree(
        tmp_path,
        {
            "Tests/Tests.csproj": LIB.format(items=_ref("xunit")),
            "Tests/T.cs": "using Xunit;\n\nnamespace Tests;\n\n"
            "public class T { [Fact] public void F() { } }\n",
            "web/package.json": '{"name": "w", "dependencies": {"left-pad": "1.0.0"}}',
        },
    )
    assert ("DEP002", "left-pad") in _codes(root)
    assert _codes(root, languages=("csharp",)) == []


def test_a_package_brings_its_core_package(tmp_path):
    # Microsoft.Data.Sqlite is the Sqlite.Core API plus the native bundle: a project
    # referencing it compiles against Microsoft.Data.Sqlite.Core's namespace
    root = write_tree(
        tmp_path,
        {
            "Lib/Lib.csproj": LIB.format(items=_ref("Microsoft.Data.Sqlite")),
            "Lib/Store.cs": "using Microsoft.Data.Sqlite;\n\nnamespace Lib;\n\n"
            "public class Store { public SqliteConnection C = new(); }\n",
        },
    )
    assert _codes(root) == []


def test_the_dynamic_keyword_uses_microsoft_csharp(tmp_path):
    # `dynamic` binds through Microsoft.CSharp's runtime binder (the package's
    # description: "support for ... dynamic, using the C# language")
    lib = LIB.replace("net8.0", "netstandard2.0").format(items=_ref("Microsoft.CSharp"))
    root = write_tree(
        tmp_path,
        {
            "Lib/Lib.csproj": lib,
            "Lib/A.cs": "namespace Lib;\n\npublic class A { public object F(dynamic d) => d.X; }\n",
        },
    )
    assert _codes(root) == []
