"""C# end to end: build tools, analyzers and source generators, and the projects
they go to (analyzer references, generator builds, EF Core and gRPC tooling)."""

from __future__ import annotations

import shutil

from conftest import (
    CSPROJ_LIB,
    CSPROJ_WEB,
    FIXTURES,
    copy_fixture,
    manifest_names,
    manifest_projects,
    write_tree,
)

from depinfer.context import Options
from depinfer.facts.csharp import dep_facts
from depinfer.pipeline import infer


def test_projects_applying_a_generators_attributes_reference_it_as_an_analyzer():
    # src/Api.Generator finds "Api.GetAttribute" by metadata name; samples/Client applies
    # [Get], so it references the generator, written as an analyzer reference
    result = infer(FIXTURES / "csharp" / "sourcegenerator", Options(offline=True))
    assert manifest_projects(result, "samples/Client/Client.csproj") == [
        "src/Api.Generator/Api.Generator.csproj",
        "src/Api/Api.csproj",
    ]
    # the library the generator is named after packs it (an analyzer reference, which
    # passes nothing on: Client still names the generator itself); the generator, a
    # compiler plug-in, references no runtime library even though it names GetAttribute
    assert manifest_projects(result, "src/Api/Api.csproj") == [
        "src/Api.Generator/Api.Generator.csproj"
    ]
    api = next(r for r in result.requirements if r.manifest == "src/Api/Api.csproj")
    assert dep_facts(api).analyzer
    assert manifest_projects(result, "src/Api.Generator/Api.Generator.csproj") == []
    # a centrally listed `.Testing` harness is no variant of Microsoft.CodeAnalysis.CSharp,
    # and a plug-in takes no Workspaces package to bring the compiler (RS1038): it pins
    # the compiler package itself, listed or not; the listed analyzers for analyzer
    # authors go to the plug-in
    assert manifest_names(result, "src/Api.Generator/Api.Generator.csproj") == [
        "Microsoft.CodeAnalysis.Analyzers",
        "Microsoft.CodeAnalysis.CSharp",
    ]
    # the generator's tests reach the compiler through the listed Workspaces package
    assert manifest_names(result, "tests/Api.Generator.Tests/Api.Generator.Tests.csproj") == [
        "Microsoft.CodeAnalysis.CSharp.Workspaces"
    ]
    edit = next(e for e in result.edits if e.path == "samples/Client/Client.csproj")
    assert (
        'Api.Generator.csproj" OutputItemType="Analyzer" ReferenceOutputAssembly="false" />'
        in edit.new_text
    )


def test_an_analyzers_input_file_in_the_folder_names_the_analyzer():
    # PublicAPI.Shipped.txt is what Microsoft.CodeAnalysis.PublicApiAnalyzers checks the
    # project's public surface against
    found = infer(FIXTURES / "csharp" / "publicapi", Options(offline=True))
    assert "Microsoft.CodeAnalysis.PublicApiAnalyzers" in manifest_names(
        found, "src/Lib/Lib.csproj"
    )


def test_build_tool_settings_in_the_project_file_name_their_packages():
    found = infer(FIXTURES / "csharp" / "packagetools", Options(offline=True))
    # MinVer's and SourceLink's documented settings; the repository is on GitHub
    assert manifest_names(found, "src/Lib/Lib.csproj") == ["Microsoft.SourceLink.GitHub", "MinVer"]
    assert manifest_names(found, "src/Lib.Internal/Lib.Internal.csproj") == []
    edit = next(e for e in found.edits if e.path == "src/Lib/Lib.csproj")
    assert '<PackageReference Include="MinVer"' in edit.new_text
    assert "<PrivateAssets>all</PrivateAssets>" in edit.new_text  # a build tool flows nowhere


def test_a_project_named_for_one_roslyn_build_uses_that_build_of_the_generator(tmp_path):
    root = copy_fixture("csharp", "sourcegenerator", tmp_path / "gen")
    gen = root / "src" / "Api.Generator"
    for version in ("Roslyn4001", "Roslyn4120"):
        variant = root / "src" / f"Api.Generator.{version}"
        shutil.copytree(gen, variant)
        (variant / "Api.Generator.csproj").rename(variant / f"Api.Generator.{version}.csproj")
    shutil.rmtree(gen)
    client = root / "samples" / "Client.Roslyn4001"
    shutil.copytree(root / "samples" / "Client", client)
    (client / "Client.csproj").rename(client / "Client.Roslyn4001.csproj")
    found = infer(root, Options(offline=True))
    assert manifest_projects(found, "samples/Client.Roslyn4001/Client.Roslyn4001.csproj") == [
        "src/Api.Generator.Roslyn4001/Api.Generator.Roslyn4001.csproj",
        "src/Api/Api.csproj",
    ]


def test_openapi_build_properties_bring_the_document_generator(tmp_path):
    web = (
        '<Project Sdk="Microsoft.NET.Sdk.Web"><PropertyGroup><TargetFramework>net9.0'
        "</TargetFramework>{}</PropertyGroup></Project>"
    )
    write_tree(
        tmp_path,
        {
            "Directory.Packages.props": (
                "<Project><PropertyGroup><ManagePackageVersionsCentrally>true"
                "</ManagePackageVersionsCentrally></PropertyGroup><ItemGroup>"
                '<PackageVersion Include="Microsoft.Extensions.ApiDescription.Server" '
                'Version="9.0.0" /></ItemGroup></Project>'
            ),
            "Api/Api.csproj": web.format(
                "<OpenApiDocumentsDirectory>wwwroot</OpenApiDocumentsDirectory>"
            ),
            "Api/Program.cs": "var app = WebApplication.Create(args);\napp.Run();\n",
            "Admin/Admin.csproj": web.format(""),
            "Admin/Program.cs": "var app = WebApplication.Create(args);\napp.Run();\n",
        },
    )
    found = infer(tmp_path, Options(offline=True))
    assert manifest_names(found, "Api/Api.csproj") == ["Microsoft.Extensions.ApiDescription.Server"]
    assert manifest_names(found, "Admin/Admin.csproj") == []


def test_a_reference_to_a_compiler_plugin_is_an_analyzer_reference(tmp_path):
    write_tree(
        tmp_path,
        {
            "Gen/Gen.csproj": (
                '<Project Sdk="Microsoft.NET.Sdk"><PropertyGroup><TargetFramework>netstandard2.0'
                "</TargetFramework><IsRoslynComponent>true</IsRoslynComponent></PropertyGroup>"
                "</Project>"
            ),
            "Gen/Emitter.cs": (
                "using Microsoft.CodeAnalysis;\nnamespace Kit.Gen;\n"
                "[Generator] public class Emitter : IIncrementalGenerator {\n"
                "  public void Initialize(IncrementalGeneratorInitializationContext c) {} }\n"
                'public static class Template { public const string Text = "x"; }\n'
            ),
            "App/App.csproj": CSPROJ_LIB,
            "App/Use.cs": ("using Kit.Gen;\npublic class Use { string T = Template.Text; }\n"),
        },
    )
    found = infer(tmp_path, Options(offline=True))
    (ref,) = [r for r in found.requirements if r.manifest == "App/App.csproj" and r.internal]
    assert ref.path == "Gen/Gen.csproj" and dep_facts(ref).analyzer


def test_a_placed_build_tool_goes_to_each_project_it_serves(tmp_path):
    write_tree(
        tmp_path,
        {
            "Directory.Packages.props": (
                "<Project><PropertyGroup><ManagePackageVersionsCentrally>true"
                "</ManagePackageVersionsCentrally></PropertyGroup><ItemGroup>"
                '<PackageVersion Include="Microsoft.Sbom.Targets" Version="4.1.5" />'
                "</ItemGroup></Project>"
            ),
            "Core/Core.csproj": CSPROJ_LIB,
            "Core/Thing.cs": "namespace Kit;\npublic class Thing {}\n",
            "Extra/Extra.csproj": CSPROJ_LIB,
            "Extra/More.cs": "namespace Kit.Extra;\npublic class More : Kit.Thing {}\n",
        },
    )
    found = infer(tmp_path, Options(offline=True))
    # Extra references Core, yet the SBOM tool works in each package's own pack
    assert manifest_names(found, "Core/Core.csproj") == ["Microsoft.Sbom.Targets"]
    assert manifest_names(found, "Extra/Extra.csproj") == ["Microsoft.Sbom.Targets"]


def test_the_scaffolding_tool_goes_to_mvc_apps_not_minimal_apis(tmp_path):
    web = CSPROJ_WEB
    write_tree(
        tmp_path,
        {
            "Directory.Packages.props": (
                "<Project><PropertyGroup><ManagePackageVersionsCentrally>true"
                "</ManagePackageVersionsCentrally></PropertyGroup><ItemGroup>"
                '<PackageVersion Include="Microsoft.VisualStudio.Web.CodeGeneration.Design"'
                ' Version="8.0.7" /></ItemGroup></Project>'
            ),
            "Minimal/Minimal.csproj": web,
            "Minimal/Program.cs": (
                'var app = WebApplication.Create(args);\napp.MapGet("/", () => "hi");\napp.Run();\n'
            ),
            "Mvc/Mvc.csproj": web,
            "Mvc/Program.cs": "var app = WebApplication.Create(args);\napp.Run();\n",
            "Mvc/Views/Home/Index.cshtml": "<h1>Home</h1>\n",
            "Api/Api.csproj": web,
            "Api/Program.cs": "var app = WebApplication.Create(args);\napp.Run();\n",
            "Api/Orders.cs": (
                "using Microsoft.AspNetCore.Mvc;\n[ApiController]\n"
                "public class Orders : ControllerBase { [HttpGet] public int Get() => 1; }\n"
            ),
        },
    )
    found = infer(tmp_path, Options(offline=True))
    tool = "Microsoft.VisualStudio.Web.CodeGeneration.Design"
    assert tool in manifest_names(found, "Mvc/Mvc.csproj")
    assert tool in manifest_names(found, "Api/Api.csproj")
    assert tool not in manifest_names(found, "Minimal/Minimal.csproj")


def test_protobuf_items_bring_the_grpc_compiler(tmp_path):
    web = (
        '<Project Sdk="Microsoft.NET.Sdk.Web"><PropertyGroup><TargetFramework>net8.0'
        "</TargetFramework></PropertyGroup><ItemGroup>"
        '<Protobuf Include="Protos\\basket.proto" GrpcServices="{}" /></ItemGroup></Project>'
    )
    write_tree(
        tmp_path,
        {
            "Basket/Basket.csproj": web.format("Server"),
            "Basket/Program.cs": "var app = WebApplication.Create(args);\napp.Run();\n",
            "Basket/Protos/basket.proto": 'syntax = "proto3";\n',
            "Shop/Shop.csproj": web.format("Client"),
            "Shop/Program.cs": "var app = WebApplication.Create(args);\napp.Run();\n",
            "Shop/Protos/basket.proto": 'syntax = "proto3";\n',
        },
    )
    found = infer(tmp_path, Options(offline=True))
    # the service's web app: the ASP.NET Core gRPC server package (it brings the compiler)
    assert "Grpc.AspNetCore" in manifest_names(found, "Basket/Basket.csproj")
    # a client compiles the .proto itself: the compiler and the message runtime
    shop = manifest_names(found, "Shop/Shop.csproj")
    assert {"Grpc.Tools", "Google.Protobuf"} <= set(shop) and "Grpc.AspNetCore" not in shop


def test_ef_core_tools_go_where_migrations_are_made(tmp_path):
    web = CSPROJ_WEB
    write_tree(
        tmp_path,
        {
            "Data/Data.csproj": CSPROJ_LIB,
            "Data/ShopContext.cs": (
                "using Microsoft.EntityFrameworkCore;\nnamespace Data;\n"
                "public class ShopContext : DbContext { }\n"
            ),
            "Data/Migrations/20240101_Init.cs": (
                "using Microsoft.EntityFrameworkCore.Infrastructure;\n"
                "using Microsoft.EntityFrameworkCore.Migrations;\nnamespace Data.Migrations;\n"
                '[DbContext(typeof(ShopContext))]\n[Migration("20240101_Init")]\n'
                "public partial class Init : Migration { }\n"
            ),
            "Web/Web.csproj": web,
            "Web/Program.cs": (
                "using Data;\nusing Microsoft.EntityFrameworkCore;\n"
                "var builder = WebApplication.CreateBuilder(args);\n"
                'builder.Services.AddDbContext<ShopContext>(o => o.UseSqlServer("x"));\n'
            ),
            "Reports/Reports.csproj": web,
            "Reports/Program.cs": (
                "using Microsoft.EntityFrameworkCore;\n"
                "var builder = WebApplication.CreateBuilder(args);\n"
                'builder.Services.AddDbContext<DbContext>(o => o.UseSqlServer("x"));\n'
            ),
        },
    )
    found = infer(tmp_path, Options(offline=True))
    tools = "Microsoft.EntityFrameworkCore.Tools"
    # the startup project that reaches the migrations, and the project holding them
    assert tools in manifest_names(found, "Web/Web.csproj")
    assert tools in manifest_names(found, "Data/Data.csproj")
    # an app that only queries a database never ran the tools
    assert tools not in manifest_names(found, "Reports/Reports.csproj")


def test_a_roslyn_generator_gets_the_immutable_collections_from_the_compiler(tmp_path):
    write_tree(
        tmp_path,
        {
            "Gen/Gen.csproj": (
                '<Project Sdk="Microsoft.NET.Sdk"><PropertyGroup><TargetFramework>'
                "netstandard2.0</TargetFramework></PropertyGroup></Project>"
            ),
            "Gen/Generator.cs": (
                "using System.Collections.Immutable;\nusing Microsoft.CodeAnalysis;\n"
                "namespace Gen;\n[Generator]\npublic class G : IIncrementalGenerator {\n"
                "  public void Initialize(IncrementalGeneratorInitializationContext c) {\n"
                "    var names = ImmutableArray.Create(1);\n  }\n}\n"
            ),
        },
    )
    found = infer(tmp_path, Options(offline=True))
    names = manifest_names(found, "Gen/Gen.csproj")
    # Microsoft.CodeAnalysis.CSharp's dependency group holds System.Collections.Immutable
    assert "Microsoft.CodeAnalysis.CSharp" in names
    assert "System.Collections.Immutable" not in names


def test_each_central_package_list_places_its_tools_in_its_own_projects():
    inference = infer(FIXTURES / "csharp" / "twosolutions", Options(offline=True))
    for sol in ("app", "sample"):
        names = manifest_names(inference, f"{sol}/src/Web/Web.csproj")
        assert "Microsoft.EntityFrameworkCore.Design" in names, sol


def test_a_source_generator_does_not_stand_in_for_its_abstractions():
    inference = infer(FIXTURES / "csharp" / "splitpackages", Options(offline=True))
    names = manifest_names(inference, "src/Worker/Worker.csproj")
    assert "Mediator.SourceGenerator" in names and "Mediator.Abstractions" in names
