"""`--check` on C#: forms of use and dependency the compiler sees that earlier check mode
reported as problems (session-11 causes: dependency lists, framework carriers, assembly
references, uses the inference gives to a depending package, packages the index cannot
judge)."""

from __future__ import annotations

from conftest import write_tree

from depinfer.check import run_check

LIB = (
    '<Project Sdk="Microsoft.NET.Sdk"><PropertyGroup><TargetFramework>net8.0'
    "</TargetFramework></PropertyGroup><ItemGroup>{items}</ItemGroup></Project>"
)
WEB = LIB.replace("Microsoft.NET.Sdk", "Microsoft.NET.Sdk.Web")


def _codes(root) -> list[tuple[str, str]]:
    _, findings = run_check(str(root))
    return sorted((f.code, f.name) for f in findings)


def _ref(name: str) -> str:
    return f'<PackageReference Include="{name}" Version="1.0.0" />'


def test_a_dependency_listed_on_the_gallery_page_compiles(tmp_path):
    # Pomelo's MySQL provider depends on EF Core Relational (`ToTable`); the ASP.NET Web
    # API client on Newtonsoft.Json, through a referenced project
    root = write_tree(
        tmp_path,
        {
            "Data/Data.csproj": LIB.format(items=_ref("Pomelo.EntityFrameworkCore.MySql")),
            "Data/Db.cs": "using Microsoft.EntityFrameworkCore;\n\nnamespace Data;\n\n"
            "public class Db : DbContext {\n  protected override void OnModelCreating("
            'ModelBuilder b) { b.Entity<Db>().ToTable("x"); b.UseMySql(); }\n}\n',
            "Core/Core.csproj": LIB.format(items=_ref("Microsoft.AspNet.WebApi.Core")),
            "Core/C.cs": "using System.Web.Http;\n\nnamespace Core;\n\n"
            "public class C : ApiController { }\n",
            "App/App.csproj": LIB.format(
                items='<ProjectReference Include="..\\Core\\Core.csproj" />'
            ),
            "App/E.cs": "using Newtonsoft.Json;\n\nnamespace App;\n\n"
            "public class E { public string S() => JsonConvert.SerializeObject(1); }\n",
        },
    )
    assert _codes(root) == []


def test_a_package_declaring_the_aspnetcore_framework_reference_brings_the_framework(tmp_path):
    # prometheus-net.AspNetCore references Microsoft.AspNetCore.App itself, and a project
    # referencing the one that declares it compiles against the shared framework too
    root = write_tree(
        tmp_path,
        {
            "Metrics/Metrics.csproj": LIB.format(items=_ref("prometheus-net.AspNetCore")),
            "Metrics/M.cs": "namespace Metrics;\n\npublic class M { }\n",
            "Jobs/Jobs.csproj": LIB.format(
                items='<ProjectReference Include="..\\Metrics\\Metrics.csproj" />'
            ),
            "Jobs/J.cs": "using Microsoft.Extensions.Configuration;\n"
            "using Microsoft.Extensions.Hosting;\n\nnamespace Jobs;\n\n"
            "public class J { public IConfiguration? C; public IHostEnvironment? E; }\n",
        },
    )
    assert ("DEP002", "prometheus-net.AspNetCore") in _codes(root)
    assert [c for c in _codes(root) if c[0] == "DEP001"] == []


def test_an_assembly_reference_with_a_hint_path_provides_its_namespaces(tmp_path):
    items = (
        '<Reference Include="Microsoft.Extensions.Hosting.Abstractions">'
        "<HintPath>..\\libs\\Microsoft.Extensions.Hosting.Abstractions.dll</HintPath></Reference>"
    )
    root = write_tree(
        tmp_path,
        {
            "Log/Log.csproj": LIB.format(items=items),
            "Log/L.cs": "using Microsoft.Extensions.Hosting;\n\nnamespace Log;\n\n"
            "public class L { public IHostEnvironment? E; }\n",
        },
    )
    assert _codes(root) == []


def test_a_declared_package_whose_namespace_the_project_names_is_used(tmp_path):
    # EF Core's SQL Server provider depends on Microsoft.Data.SqlClient, so the inference
    # writes only the provider; the project's own `using Microsoft.Data.SqlClient` still
    # uses the package it declares
    items = _ref("Microsoft.Data.SqlClient") + _ref("Microsoft.EntityFrameworkCore.SqlServer")
    root = write_tree(
        tmp_path,
        {
            "Db/Db.csproj": LIB.format(items=items),
            "Db/D.cs": "using Microsoft.Data.SqlClient;\nusing Microsoft.EntityFrameworkCore;\n\n"
            "namespace Db;\n\npublic class D : DbContext {\n  public SqlParameter P = new();\n"
            "  protected override void OnConfiguring(DbContextOptionsBuilder o) => "
            'o.UseSqlServer("x");\n}\n',
            "Other/Other.csproj": LIB.format(items=_ref("Newtonsoft.Json")),
            "Other/O.cs": "namespace Other;\n\npublic class O { }\n",
        },
    )
    assert _codes(root) == [("DEP002", "Newtonsoft.Json")]


def test_a_package_the_index_gives_no_namespace_is_not_judged_unused(tmp_path):
    # System.Net.Http and Microsoft.Bcl.TimeProvider put their types into namespaces
    # the framework has too (a version pin, a polyfill); the SPA proxy is started by a
    # launch profile, not named in code: the index cannot tell
    items = _ref("System.Net.Http") + _ref("Microsoft.Bcl.TimeProvider")
    items += _ref("Microsoft.AspNetCore.SpaProxy")
    root = write_tree(
        tmp_path,
        {
            "Lib/Lib.csproj": LIB.format(items=items),
            "Lib/A.cs": "namespace Lib;\n\npublic class A { public TimeProvider? T; }\n",
        },
    )
    assert _codes(root) == []


def test_a_using_in_a_file_the_project_does_not_compile_uses_nothing(tmp_path):
    items = _ref("Newtonsoft.Json") + '<Compile Remove="Old\\**\\*.cs" />'
    root = write_tree(
        tmp_path,
        {
            "Lib/Lib.csproj": LIB.format(items=items),
            "Lib/A.cs": "namespace Lib;\n\npublic class A { }\n",
            "Lib/Old/B.cs": "using Newtonsoft.Json;\n\nnamespace Lib.Old;\n\npublic class B { }\n",
        },
    )
    assert _codes(root) == [("DEP002", "Newtonsoft.Json")]


def test_a_theme_an_avalonia_view_names_is_used(tmp_path):
    root = write_tree(
        tmp_path,
        {
            "Ui/Ui.csproj": LIB.format(items=_ref("Avalonia") + _ref("Avalonia.Themes.Fluent")),
            "Ui/App.axaml.cs": "using Avalonia;\n\nnamespace Ui;\n\npublic class App : Application { }\n",
            "Ui/App.axaml": '<Application xmlns="https://github.com/avaloniaui" x:Class="Ui.App">'
            "<Application.Styles><FluentTheme /></Application.Styles></Application>\n",
        },
    )
    assert _codes(root) == []


def test_a_meta_package_passes_its_published_dependencies_on(tmp_path):
    # Serilog.AspNetCore's gallery page lists the sinks it brings its users; the project
    # that builds it declares them without calling them
    items = _ref("Serilog.Sinks.File") + _ref("Serilog.Sinks.Debug")
    root = write_tree(
        tmp_path,
        {
            "src/Serilog.AspNetCore/Serilog.AspNetCore.csproj": LIB.format(items=items),
            "src/Serilog.AspNetCore/A.cs": "namespace Serilog.AspNetCore;\n\npublic class A { }\n",
            "src/Other/Other.csproj": LIB.format(items=_ref("Serilog.Sinks.File")),
            "src/Other/B.cs": "namespace Other;\n\npublic class B { }\n",
        },
    )
    assert _codes(root) == [("DEP002", "Serilog.Sinks.File")]
