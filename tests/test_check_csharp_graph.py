"""`--check` on C#: what a project compiles against beyond its written PackageReferences
(issue 25) — dependencies of declared packages, the ASP.NET Core 2.x metapackage, project
SDKs nothing describes, protoc-generated code, the Windows Desktop shared framework, and a
namespace the framework shares with a package."""

from __future__ import annotations

from conftest import write_tree

from depinfer.check import run_check


def _codes(root) -> list[tuple[str, str]]:
    _, findings = run_check(str(root))
    return sorted((f.code, f.name) for f in findings)


def _project(sdk: str = "Microsoft.NET.Sdk", tfm: str = "net8.0", props: str = "", items=""):
    return (
        f'<Project Sdk="{sdk}"><PropertyGroup><TargetFramework>{tfm}</TargetFramework>'
        f"{props}</PropertyGroup><ItemGroup>{items}</ItemGroup></Project>"
    )


def _ref(pid: str, version: str = "1.0.0") -> str:
    return f'<PackageReference Include="{pid}" Version="{version}" />'


def test_the_aspnetcore_2_metapackage_brings_json_net_ef_core_and_identity(tmp_path):
    code = (
        "using Newtonsoft.Json;\nusing Microsoft.EntityFrameworkCore;\n"
        "using System.Text.Encodings.Web;\nusing Microsoft.AspNetCore.Identity.UI.Services;\n"
        "namespace App;\npublic class C { public string S(object o) => "
        "JsonConvert.SerializeObject(o); public void D(DbContextOptionsBuilder b) => "
        'b.UseSqlServer("x"); HtmlEncoder E; IEmailSender F; }\n'
    )
    items = _ref("Microsoft.AspNetCore.App", "2.2.0")
    root = write_tree(
        tmp_path,
        {
            "App/App.csproj": _project("Microsoft.NET.Sdk.Web", "netcoreapp2.2", items=items),
            "App/C.cs": code,
        },
    )
    assert [c for c in _codes(root) if c[0] == "DEP001"] == []


def test_a_package_of_a_family_brings_the_familys_core(tmp_path):
    # AWSSDK.DynamoDBv2 depends on AWSSDK.Core (`Amazon`, `Amazon.Runtime`)
    code = "using Amazon;\nusing Amazon.DynamoDBv2;\nnamespace B;\npublic class C { RegionEndpoint R; AmazonDynamoDBClient D; }\n"
    root = write_tree(
        tmp_path,
        {"B/B.csproj": _project(items=_ref("AWSSDK.DynamoDBv2", "3.7.0")), "B/C.cs": code},
    )
    assert _codes(root) == []


def test_a_declared_packages_dependency_list_provides_the_namespace(tmp_path):
    # Hangfire.Mongo depends on MongoDB.Driver and Hangfire.Core (`Hangfire.Logging`)
    code = (
        "using MongoDB.Driver;\nusing Hangfire.Logging;\nnamespace T;\n"
        "public class F { MongoClient M; ILog L; }\n"
    )
    root = write_tree(
        tmp_path,
        {"T/T.csproj": _project(items=_ref("Hangfire.Mongo", "1.11.0")), "T/F.cs": code},
    )
    assert [c for c in _codes(root) if c[0] == "DEP001"] == []


def test_an_msbuild_sdk_nothing_describes_may_bring_packages(tmp_path):
    code = "using JetBrains.Annotations;\nnamespace R;\n[PublicAPI]\npublic class C { }\n"
    files = {"R/R.csproj": _project("Acme.Build.Sdk/1.0.0"), "R/C.cs": code}
    assert _codes(write_tree(tmp_path / "opaque", files)) == []
    files["R/R.csproj"] = _project()
    assert _codes(write_tree(tmp_path / "plain", files)) == [("DEP001", "JetBrains.Annotations")]


def test_namespaces_protoc_generates_from_protobuf_items_are_no_missing_package(tmp_path):
    # the .proto files sit in a submodule that is not checked out: their namespaces are
    # unknown, and the project compiles code generated into them
    items = _ref("Google.Protobuf", "3.27.0") + _ref("Grpc.Net.Client", "2.64.0")
    items += '<Protobuf Include="..\\contracts\\mailer\\v1\\mailer.proto" GrpcServices="Client" />'
    code = "using Acme.Mailer.V1;\nnamespace Api;\npublic class C { MailerClient M; }\n"
    root = write_tree(tmp_path, {"Api/Api.csproj": _project(items=items), "Api/C.cs": code})
    assert [c for c in _codes(root) if c[0] == "DEP001"] == []


def test_the_windows_desktop_framework_ships_drawing_and_configuration(tmp_path):
    code = (
        "using System.Configuration;\nusing System.Drawing;\nnamespace Gui;\n"
        'public class C { Bitmap B; string S => ConfigurationManager.AppSettings["a"]; }\n'
    )
    wpf = "<UseWPF>true</UseWPF>"
    files = {"Gui/Gui.csproj": _project(tfm="net8.0-windows", props=wpf), "Gui/C.cs": code}
    assert _codes(write_tree(tmp_path / "wpf", files)) == []
    files["Gui/Gui.csproj"] = _project()
    found = _codes(write_tree(tmp_path / "console", files))
    assert ("DEP001", "System.Drawing.Common") in found


def test_a_namespace_the_framework_shares_needs_the_package_only_for_its_types(tmp_path):
    primitives = "using System.Drawing;\nnamespace L;\npublic class C { Color K; Point P; }\n"
    files = {"L/L.csproj": _project(tfm="netstandard2.0"), "L/C.cs": primitives}
    assert _codes(write_tree(tmp_path / "primitives", files)) == []
    files["L/C.cs"] = "using System.Drawing;\nnamespace L;\npublic class C { Bitmap B; }\n"
    found = _codes(write_tree(tmp_path / "bitmap", files))
    assert found == [("DEP001", "System.Drawing.Common")]
    files["L/C.cs"] = "global using Size = System.Drawing.Size;\nnamespace L;\npublic class C { }\n"
    assert _codes(write_tree(tmp_path / "alias", files)) == []


def test_a_fully_qualified_name_uses_a_declared_package(tmp_path):
    code = (
        "namespace G;\npublic static class H { public static byte[] X(byte[] b) => "
        "System.IO.Hashing.XxHash64.Hash(b); }\n"
    )
    root = write_tree(
        tmp_path, {"G/G.csproj": _project(items=_ref("System.IO.Hashing", "8.0.0")), "G/H.cs": code}
    )
    assert _codes(root) == []


def test_a_package_namespace_the_code_is_declared_in_is_used(tmp_path):
    # extension classes declared in the package's namespace see its types without a using
    code = (
        "namespace Microsoft.Extensions.DependencyInjection\n{\n    public static class X\n"
        "    {\n        public static IServiceCollection AddLib(this IServiceCollection s) => s;"
        "\n    }\n}\n"
    )
    items = _ref("Microsoft.Extensions.DependencyInjection.Abstractions", "8.0.0")
    root = write_tree(tmp_path, {"L/L.csproj": _project(items=items), "L/X.cs": code})
    assert _codes(root) == []


def test_a_dotnet_framework_project_has_the_compatibility_packs_apis(tmp_path):
    legacy = (
        '<Project ToolsVersion="15.0"><PropertyGroup><OutputType>Exe</OutputType>'
        "<TargetFrameworkVersion>v4.8</TargetFrameworkVersion></PropertyGroup>"
        '<ItemGroup><Compile Include="P.cs" /></ItemGroup></Project>'
    )
    code = "using System.CodeDom.Compiler;\nnamespace T;\nclass P { CompilerErrorCollection E; }\n"
    root = write_tree(tmp_path, {"T/T.csproj": legacy, "T/P.cs": code})
    assert _codes(root) == []
