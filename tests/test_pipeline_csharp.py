"""The C# path end to end on the fixture solutions (offline, shipped index only): which
packages and frameworks each project gets. Project references, test projects and build
tools have their own test_pipeline_csharp_*.py."""

from __future__ import annotations

import pytest
from conftest import (
    CSPROJ_EXE,
    CSPROJ_LIB,
    FIXTURES,
    copy_fixture,
    manifest_names,
    manifest_projects,
    write_tree,
)

from depinfer.analyzers.csharp_layout import build_layout
from depinfer.context import Options
from depinfer.facts.csharp import dep_facts
from depinfer.mapping import nuget_index as nx
from depinfer.pipeline import infer, write_edits
from depinfer.registries.base import VersionInfo
from depinfer.scan import scan


@pytest.fixture(scope="module")
def shop():
    return infer(FIXTURES / "csharp" / "shop", Options(offline=True))


def test_namespaces_map_to_the_central_packages(shop):
    assert manifest_names(shop, "src/Shop.Core/Shop.Core.csproj") == [
        "Ardalis.GuardClauses",
        "Polly",
        "StyleCop.Analyzers",
    ]
    # UseSqlite picks the provider; Microsoft.EntityFrameworkCore itself is not listed centrally
    assert "Microsoft.EntityFrameworkCore.Sqlite" in manifest_names(
        shop, "src/Shop.Infrastructure/Shop.Infrastructure.csproj"
    )


def test_web_sdk_has_aspnetcore_in_the_box_and_sinks_come_from_their_entry_points(shop):
    web = manifest_names(shop, "src/Shop.Web/Shop.Web.csproj")
    # Serilog.AspNetCore brings the console sink, but the repository lists the sink
    # centrally and no other project would take it, so it stays where WriteTo.Console is
    assert "Serilog.AspNetCore" in web and "Serilog.Sinks.Console" in web
    # an analyzer placed by the file it reads
    assert "NsDepCop" in web
    assert "NsDepCop" not in manifest_names(shop, "src/Shop.Core/Shop.Core.csproj")
    assert not any(n.startswith("Microsoft.AspNetCore") for n in web)
    # design-time EF tools go to the startup project whose references use EF Core
    assert "Microsoft.EntityFrameworkCore.Design" in web


def test_test_project_conventions(shop):
    tests = manifest_names(shop, "tests/Shop.Core.Tests/Shop.Core.Tests.csproj")
    for pid in (
        "xunit",
        "xunit.runner.visualstudio",
        "Microsoft.NET.Test.Sdk",
        "FluentAssertions",
        "NSubstitute",
    ):
        assert pid in tests
    # tests/Directory.Build.props already references it for test projects
    assert "coverlet.collector" not in tests


def test_project_references_follow_type_use(shop):
    assert manifest_projects(shop, "src/Shop.Web/Shop.Web.csproj") == [
        "src/Shop.Infrastructure/Shop.Infrastructure.csproj"
    ]
    assert manifest_projects(shop, "src/Shop.Infrastructure/Shop.Infrastructure.csproj") == [
        "src/Shop.Core/Shop.Core.csproj"
    ]
    assert manifest_projects(shop, "tests/Shop.Core.Tests/Shop.Core.Tests.csproj") == [
        "src/Shop.Core/Shop.Core.csproj"
    ]
    # a library already brought by a referenced project is not repeated
    assert "Ardalis.GuardClauses" not in manifest_names(
        shop, "tests/Shop.Core.Tests/Shop.Core.Tests.csproj"
    )


def test_central_management_writes_versionless_references(shop, tmp_path):
    edits = {e.path: e for e in shop.edits}
    web = edits["src/Shop.Web/Shop.Web.csproj"]
    assert web.new_text.startswith("\ufeff")  # BOM kept
    assert '<PackageReference Include="Serilog.AspNetCore" />' in web.new_text
    assert (
        '<ProjectReference Include="..\\Shop.Infrastructure\\Shop.Infrastructure.csproj" />'
        in web.new_text
    )
    infra = edits["src/Shop.Infrastructure/Shop.Infrastructure.csproj"]
    assert infra.new_text.count("\r\n") == infra.new_text.count("\n")  # CRLF kept


def test_multitarget_polyfills_and_tfm_aligned_versions():
    inference = infer(FIXTURES / "csharp" / "multitarget", Options(offline=True))
    lib = {
        r.name: r.spec for r in inference.requirements if r.manifest == "src/Parsing/Parsing.csproj"
    }
    assert set(lib) == {
        "Newtonsoft.Json",
        "System.Memory",
        "System.Text.Json",
        "System.Threading.Tasks.Extensions",
    }
    assert lib["System.Text.Json"] == "8.0.0"  # versions with .NET: the newest target is net8.0
    tfms = {
        r.name: list(dep_facts(r).tfms) or None
        for r in inference.requirements
        if r.manifest == "src/Parsing/Parsing.csproj"
    }
    assert tfms["System.Memory"] == ["netstandard2.0"] and not tfms["Newtonsoft.Json"]
    tests = manifest_names(inference, "tests/Parsing.Tests/Parsing.Tests.csproj")
    assert {"NUnit", "NUnit3TestAdapter", "Microsoft.NET.Test.Sdk", "coverlet.collector"} <= set(
        tests
    )
    assert manifest_projects(inference, "tests/Parsing.Tests/Parsing.Tests.csproj") == [
        "src/Parsing/Parsing.csproj"
    ]
    # the removed file's namespace is never looked at
    assert not any("Some.Removed" in str(d) for d in inference.diagnostics)


def test_written_files_parse_again(tmp_path):
    root = copy_fixture("csharp", "shop", tmp_path / "shop")
    inference = infer(root, Options(offline=True))
    from depinfer.pipeline import make_context

    written = write_edits(root, inference.edits, make_context(Options(offline=True)))
    assert "src/Shop.Web/Shop.Web.csproj" in written
    again = infer(root, Options(offline=True))
    assert all(not e.changed for e in again.edits)


class _FakeRegistries:
    """Answers like the NuGet client would, from a fixed table."""

    offline = False
    unverified: set = set()

    def versions(self, ecosystem, name):
        table = {
            "System.Text.Json": ["8.0.4", "8.0.5", "9.0.1"],
            "Newtonsoft.Json": ["13.0.1", "13.0.3", "14.0.1-beta1"],
        }
        return [VersionInfo(v, prerelease="-" in v) for v in table.get(name, [])]

    def exists(self, ecosystem, name):
        return None


def test_registry_versions_respect_the_runtime_family():
    from depinfer.analyzers.csharp_layout import build_layout
    from depinfer.context import Context
    from depinfer.resolvers.csharp import choose_version
    from depinfer.scan import scan

    project = scan(FIXTURES / "csharp" / "multitarget")
    cs = next(c for c in build_layout(project) if c.name == "Parsing")
    ctx = Context(options=Options(), registries=_FakeRegistries())
    assert choose_version("System.Text.Json", cs, ctx, project, {}) == "8.0.5"
    assert choose_version("Newtonsoft.Json", cs, ctx, project, {}) == "13.0.3"
    assert (
        choose_version("Newtonsoft.Json", cs, ctx, project, {"newtonsoft.json": "12.0.1"})
        == "12.0.1"
    )


def test_index_lookup_is_longest_prefix():
    prefix, entries = nx.lookup("Serilog.Sinks.SystemConsole.Output")
    assert prefix == "Serilog.Sinks.SystemConsole"
    assert [e.package for e in entries] == ["Serilog.Sinks.Console"]
    assert nx.lookup("Nothing.Known.Here") == ("", [])


def test_unknown_namespace_is_checked_with_the_registry_when_online():
    from depinfer.analyzers.csharp_layout import build_layout
    from depinfer.context import Context
    from depinfer.mapping.csharp import _online_guess
    from depinfer.model import FileKind, ImportRef
    from depinfer.scan import scan

    class Registry(_FakeRegistries):
        asked: list = []

        def exists(self, ecosystem, name):
            self.asked.append(name)
            return name == "Acme.Widgets"

    project = scan(FIXTURES / "csharp" / "multitarget")
    cs = next(c for c in build_layout(project) if c.name == "Parsing")
    ctx = Context(options=Options(), registries=Registry())
    ref = ImportRef("Acme.Widgets.Layout", "a.cs", 1, "csharp", FileKind.SOURCE)
    guess = _online_guess("Acme.Widgets.Layout", cs, ref, ctx)
    assert guess is not None and guess.name == "Acme.Widgets" and guess.verified
    assert Registry.asked == ["Acme.Widgets.Layout", "Acme.Widgets"]
    # offline nothing is guessed
    offline = Context(options=Options(offline=True), registries=_FakeRegistries())
    assert _online_guess("Acme.Widgets.Layout", cs, ref, offline) is None


def test_a_package_missing_from_central_versions_is_added_there(shop):
    edits = {e.path: e for e in shop.edits}
    props = edits["Directory.Packages.props"].new_text
    assert '<PackageVersion Include="Polly" Version="8.6.1" />' in props
    assert props.count("<PackageVersion ") == 14
    core = edits["src/Shop.Core/Shop.Core.csproj"].new_text
    assert '<PackageReference Include="Polly" />' in core


def test_a_library_using_aspnetcore_gets_the_shared_framework_not_packages():
    inference = infer(FIXTURES / "csharp" / "aspnetlib", Options(offline=True))
    reqs = [r for r in inference.requirements if r.manifest == "src/Middleware/Middleware.csproj"]
    assert [(r.name, bool(dep_facts(r).framework_reference)) for r in reqs] == [
        ("Microsoft.AspNetCore.App", True)
    ]
    (edit,) = [e for e in inference.edits if e.path == "src/Middleware/Middleware.csproj"]
    assert '<FrameworkReference Include="Microsoft.AspNetCore.App" />' in edit.new_text
    assert "PackageReference" not in edit.new_text


def test_a_broken_project_file_is_reported_and_never_written(tmp_path):
    (tmp_path / "App").mkdir()
    (tmp_path / "App" / "App.csproj").write_text("<Project Sdk='Microsoft.NET.Sdk'><ItemGroup>")
    (tmp_path / "App" / "Program.cs").write_text("using Newtonsoft.Json;\nclass P {}\n")
    (tmp_path / "Lib").mkdir()
    (tmp_path / "Lib" / "Lib.csproj").write_text('<Project Sdk="Microsoft.NET.Sdk" />\n')
    (tmp_path / "Lib" / "Bad.cs").write_bytes(b"using Polly;\nclass \x00\xff {")
    inference = infer(tmp_path, Options(offline=True))
    assert any(d.file == "App/App.csproj" for d in inference.diagnostics)
    assert all(e.path != "App/App.csproj" for e in inference.edits)
    assert any(d.file == "Lib/Bad.cs" for d in inference.diagnostics)


def test_private_compile_assets_make_each_project_list_the_packages_it_uses(tmp_path):
    found = infer(FIXTURES / "csharp" / "privatecompile", Options(offline=True))
    assert manifest_names(found, "src/Scan.App/Scan.App.csproj") == ["Newtonsoft.Json"]
    # without the ItemDefinitionGroup the package flows from Scan.Core and is not repeated
    root = copy_fixture("csharp", "privatecompile", tmp_path / "flowing")
    props = root / "Directory.Packages.props"
    text = props.read_text()
    start, end = text.index("<ItemDefinitionGroup>"), text.index("</ItemDefinitionGroup>")
    props.write_text(text[:start] + text[end + len("</ItemDefinitionGroup>") :])
    flowing = infer(root, Options(offline=True))
    assert manifest_names(flowing, "src/Scan.App/Scan.App.csproj") == []


def test_central_ids_found_from_namespaces_that_spell_them_differently():
    found = infer(FIXTURES / "csharp" / "privatecompile", Options(offline=True))
    # PackageUrl → packageurl-dotnet, EnumsNET → Enums.NET,
    # Microsoft.Build.Logging.StructuredLogger → MSBuild.StructuredLogger
    assert manifest_names(found, "src/Scan.Core/Scan.Core.csproj") == [
        "Enums.NET",
        "MSBuild.StructuredLogger",
        "Newtonsoft.Json",
        "packageurl-dotnet",
    ]


def test_an_old_format_project_keeps_its_assembly_references_and_target():
    found = infer(FIXTURES / "csharp" / "legacy", Options(offline=True))
    manifest = "Legacy.Specs/Legacy.Specs.csproj"
    # nunit.framework.dll comes from a HintPath: no NUnit package, no test SDK or adapter
    assert manifest_names(found, manifest) == []
    # TargetFrameworkVersion v4.0 is net40, which cannot use a netstandard2.0 project,
    # even though the test project's name says it tests it
    assert manifest_projects(found, manifest) == []


@pytest.fixture(scope="module")
def sharedframework():
    return infer(FIXTURES / "csharp" / "sharedframework", Options(offline=True))


def test_a_library_using_aspnetcore_gets_the_framework_reference_not_extension_packages(
    sharedframework,
):
    # `using Microsoft.AspNetCore.Builder` alone does not mean Swashbuckle (its index row is
    # marked by UseSwagger), so the library needs the shared framework, which holds logging
    reqs = [r for r in sharedframework.requirements if r.manifest == "src/Defaults/Defaults.csproj"]
    assert [(r.name, bool(dep_facts(r).framework_reference)) for r in reqs] == [
        ("Microsoft.AspNetCore.App", True)
    ]


def test_a_package_carrying_the_framework_reference_puts_aspnetcore_in_the_box(sharedframework):
    names = manifest_names(sharedframework, "tests/Api.Tests/Api.Tests.csproj")
    assert "Microsoft.AspNetCore.Mvc.Testing" in names
    assert not any(n.startswith("Microsoft.Extensions.Hosting") for n in names)
    assert "Microsoft.AspNetCore.Hosting.Abstractions" not in names


def test_packages_a_chosen_package_depends_on_are_not_repeated():
    inference = infer(FIXTURES / "csharp" / "impliedpackages", Options(offline=True))
    app = manifest_names(inference, "src/App/App.csproj")
    assert "Serilog.AspNetCore" in app
    assert "Serilog.Sinks.Console" not in app and "Serilog.Settings.Configuration" not in app
    # appsettings.json names a sink and an enricher; a commented-out sink is not read
    assert "Serilog.Sinks.Seq" in app and "Serilog.Enrichers.Thread" in app
    assert "Serilog.Sinks.ApplicationInsights" not in app
    tests = manifest_names(inference, "tests/App.Tests/App.Tests.csproj")
    assert "Aspire.Hosting.Testing" in tests and "Aspire.Hosting.AppHost" not in tests


def test_fully_qualified_names_spell_out_centrally_listed_ids():
    inference = infer(FIXTURES / "csharp" / "qualifiednames", Options(offline=True))
    assert manifest_names(inference, "bench/Bench/Bench.csproj") == ["MedallionShell", "ProcessX"]


def test_a_centrally_listed_package_of_the_box_is_referenced_where_its_namespace_is():
    inference = infer(FIXTURES / "csharp" / "listedinbox", Options(offline=True))
    assert manifest_names(inference, "src/Api/Api.csproj") == ["System.Text.Json"]


def test_a_split_package_is_chosen_by_the_types_used():
    inference = infer(FIXTURES / "csharp" / "splitpackages", Options(offline=True))
    assert manifest_names(inference, "src/Domain/Domain.csproj") == ["MediatR.Contracts"]
    assert manifest_names(inference, "src/Application/Application.csproj") == ["MediatR"]
    # a type name is not an entry point call: the package flows from Application
    assert manifest_names(inference, "src/Web/Web.csproj") == []


def test_aspire_integrations_go_to_the_apphosts_calling_them():
    inference = infer(FIXTURES / "csharp" / "aspirecentral", Options(offline=True))
    assert manifest_names(inference, "src/AppHost/AppHost.csproj") == [
        "Aspire.Hosting.AppHost",
        "Aspire.Hosting.Azure.PostgreSQL",
        "Aspire.Hosting.JavaScript",
    ]
    assert manifest_names(inference, "tests/TestAppHost/TestAppHost.csproj") == [
        "Aspire.Hosting.AppHost",
        "Aspire.Hosting.Azure.PostgreSQL",
    ]


def test_serilog_sinks_configured_inside_other_sinks_are_found():
    inference = infer(FIXTURES / "csharp" / "serilogsinks", Options(offline=True))
    assert manifest_names(inference, "src/Cli/Cli.csproj") == [
        "Serilog",
        "Serilog.Sinks.Async",
        "Serilog.Sinks.File",
        "Serilog.Sinks.Map",
    ]


def test_dependencies_of_chosen_packages_on_older_targets_are_not_repeated():
    inference = infer(FIXTURES / "csharp" / "impliedpackages", Options(offline=True))
    names = manifest_names(inference, "src/Logging/Logging.csproj")
    assert "Microsoft.AspNetCore.Http.Abstractions" in names
    assert "Serilog.Extensions.Hosting" in names
    assert "Microsoft.AspNetCore.Http.Features" not in names
    assert "Microsoft.Extensions.DependencyInjection.Abstractions" not in names


def test_source_only_polyfills_go_to_each_older_target_project_using_newer_syntax():
    inference = infer(FIXTURES / "csharp" / "sourcepolyfills", Options(offline=True))
    assert manifest_names(inference, "src/Lib/Lib.csproj") == ["PolyShim"]
    assert manifest_names(inference, "src/Legacy/Legacy.csproj") == ["PolyShim"]
    assert manifest_names(inference, "src/App/App.csproj") == []


def test_a_listed_id_closer_to_the_namespace_than_the_index_row_wins():
    inference = infer(FIXTURES / "csharp" / "qualifiednames", Options(offline=True))
    assert manifest_names(inference, "tools/Screens/Screens.csproj") == [
        "Spectre.Console",
        "Spectre.Console.Testing",
    ]


def test_packages_from_files_the_directory_build_files_import_are_inherited():
    # Directory.Build.props imports eng/Common.props (MinVer, StyleCop); Directory.Build.targets
    # imports eng/$(ProjectType).targets, so the test project's xunit comes from eng/Test.targets
    result = infer(FIXTURES / "csharp" / "importedtargets", Options(offline=True))
    assert manifest_names(result, "src/Clock/Clock.csproj") == ["Newtonsoft.Json"]
    assert manifest_names(result, "tests/Clock.Tests/Clock.Tests.csproj") == []
    assert manifest_projects(result, "tests/Clock.Tests/Clock.Tests.csproj") == [
        "src/Clock/Clock.csproj"
    ]


def test_dependency_injection_containers_map_from_their_namespaces_and_entry_points():
    result = infer(FIXTURES / "csharp" / "dicontainers", Options(offline=True))
    names = manifest_names(result, "src/Host/Host.csproj")
    for pid in (
        "Castle.Windsor",  # Castle.Windsor / Castle.MicroKernel.Registration
        "Lamar",
        "LightInject",
        "LightInject.Microsoft.DependencyInjection",
        "Stashbox",  # Stashbox.Configuration
        "SimpleInjector.Integration.ServiceCollection",  # AddSimpleInjector on services
    ):
        assert pid in names


def test_member_names_and_opt_in_usings_do_not_make_references():
    """Two projects share the root namespace: the new core names its `Context` property
    and reads `args.Context`; only the legacy project opts in to the usings of its own
    namespaces. The legacy project references the core, never the other way round."""
    inference = infer(FIXTURES / "csharp" / "sharednamespace", Options(offline=True))
    assert manifest_projects(inference, "src/Retry.Core/Retry.Core.csproj") == []
    assert manifest_projects(inference, "src/Retry/Retry.csproj") == [
        "src/Retry.Core/Retry.Core.csproj"
    ]


def test_solution_files_of_every_format():
    from depinfer.mapping.csharp_solutions import read_solution

    sln = (
        'Project("{FAE04EC0-301F-11D3-BF4B-00C04F79EFBC}") = "A", "src\\A\\A.csproj", "{1}"\n'
        'Project("{2150E333-8FDC-42A3-9474-1A3956D46DE8}") = "src", "src", "{2}"\n'
    )
    assert read_solution(sln, "All.sln") == {"src/A/A.csproj"}
    slnx = '<Solution><Folder Name="/x/"><Project Path="B/B.csproj" /></Folder></Solution>'
    assert read_solution(slnx, "samples/S.slnx") == {"samples/B/B.csproj"}
    slnf = '{"solution": {"path": "../All.sln", "projects": ["src\\\\A\\\\A.csproj"]}}'
    assert read_solution(slnf, "build/ci.slnf") == {"src/A/A.csproj"}
    # unreadable: tells nothing (never rules a reference out)
    assert read_solution("<Solution><Project", "bad.slnx") is None
    assert read_solution("{not json", "bad.slnf") is None


def test_property_references_in_target_frameworks_are_expanded():
    from depinfer.analyzers.csharp_layout import build_layout

    layout = {cs.name: cs for cs in build_layout(scan(FIXTURES / "csharp" / "linkedsources"))}
    assert layout["Lib.Json.Tests"].target_frameworks == ["net8.0", "net9.0"]


def test_references_a_directory_build_file_makes_by_condition_are_not_written_again():
    """src/Directory.Build.targets gives every `*Application` project of the Orders
    module its Domain (`$(MSBuildProjectName.EndsWith(...))`, a glob Include): the
    Application project needs nothing written, and Domain reaches the API through it."""
    found = infer(FIXTURES / "csharp" / "inheritedreferences", Options(offline=True))
    assert manifest_projects(found, "src/Orders/Application/Orders.Application.csproj") == []
    assert manifest_projects(found, "src/Orders/Api/Orders.Api.csproj") == [
        "src/Orders/Application/Orders.Application.csproj"
    ]
    layout = {cs.name: cs for cs in build_layout(scan(FIXTURES / "csharp" / "inheritedreferences"))}
    assert layout["Orders.Application"].inherited_projects == {
        "src/Orders/Domain/Orders.Domain.csproj"
    }
    assert layout["Orders.Api"].inherited_projects == set()


def test_msbuild_conditions_with_property_functions():
    from depinfer.analyzers.msbuild_conditions import evaluate

    props = {"msbuildprojectname": "Shop.Web.Tests", "msbuildprojectfullpath": "/src/Shop/x.csproj"}
    assert evaluate("$(MSBuildProjectName.EndsWith('Tests'))", props) is True
    assert evaluate("!$(MSBuildProjectName.StartsWith('Shop'))", props) is False
    assert (
        evaluate(
            "$(MSBuildProjectFullPath.Contains('src$([System.IO.Path]::DirectorySeparatorChar)Shop'))"
            " and ('$(IsPackable)' == 'false' or $(MSBuildProjectName.Contains('Web')))",
            props,
        )
        is True
    )
    # unknown parts stay unknown (the item may apply)
    assert evaluate("'$(TargetFramework)' == 'net48'", props) is None
    assert evaluate("$([MSBuild]::IsOSPlatform('Windows'))", props) is None
    assert evaluate("'$(TargetFramework)' == 'net48' and false", props) is False


def test_without_a_central_list_the_registry_decides_the_published_package(tmp_path):
    from depinfer.context import Context
    from depinfer.mapping.csharp_solutions import published_instead, solutions
    from depinfer.model import Candidate, Ecosystem, Section

    root = copy_fixture("csharp", "samplessolution", tmp_path / "repo")
    (root / "Directory.Packages.props").unlink()
    project = scan(root)
    layout = build_layout(project)
    ref = Candidate(
        ecosystem=Ecosystem.NUGET,
        name="Acme.Extensions",
        manifest="samples/Intro/Intro.csproj",
        section=Section.RUNTIME,
        internal=True,
        path="src/Acme.Extensions/Acme.Extensions.csproj",
    )

    class Registry(_FakeRegistries):
        def exists(self, ecosystem, name):
            return name == "Acme.Extensions"

    online = Context(options=Options(), registries=Registry())
    (pkg,) = published_instead([ref], layout, solutions(project), online)
    assert not pkg.internal and pkg.name == "Acme.Extensions" and pkg.verified
    # offline (or unknown to the registry) the project reference stays
    offline = Context(options=Options(offline=True), registries=_FakeRegistries())
    assert published_instead([ref], layout, solutions(project), offline) == [ref]
    # ... unless the shipped index records the package the project packs as
    csproj = root / "src/Acme.Extensions/Acme.Extensions.csproj"
    csproj.write_text(
        csproj.read_text().replace("<PropertyGroup>", "<PropertyGroup><PackageId>Bogus</PackageId>")
    )
    layout = build_layout(scan(root))
    (pkg,) = published_instead([ref], layout, solutions(project), offline)
    assert not pkg.internal and pkg.name == "Bogus"


def test_type_names_extension_methods_and_emitted_generator_copies():
    """`new Color(…)` / `Color.FromRgb` name Paint's type, not Paint.Styles' `Color(this
    Style …)` extension; `Color` qualified from `Paint.Tests.Unit` is no type of the legacy
    tests (they declare it in another namespace); Paint's committed generator output
    (`Compile Remove="$(CompilerGeneratedFilesOutputPath)/**"`) declares nothing, so
    `Palette` is Paint.Styles' alone; the tests' nested `Swatch` is theirs (not the
    sample's global one), and a private `Count(this …)` extension is no one else's."""
    found = infer(FIXTURES / "csharp" / "extensionnames", Options(offline=True))
    assert manifest_projects(found, "tests/Paint.Tests/Paint.Tests.csproj") == [
        "src/Paint.Styles/Paint.Styles.csproj",
        "src/Paint/Paint.csproj",
    ]


@pytest.fixture(scope="module")
def aspireservices():
    return infer(FIXTURES / "csharp" / "aspireservices", Options(offline=True))


def test_extension_methods_show_packages_in_namespaces_the_framework_has(aspireservices):
    # Microsoft.Extensions.DependencyInjection is in the shared framework, yet
    # AddServiceDiscovery / AddStandardResilienceHandler come from packages
    names = manifest_names(aspireservices, "Shop.ServiceDefaults/Shop.ServiceDefaults.csproj")
    assert "Microsoft.Extensions.ServiceDiscovery" in names
    assert "Microsoft.Extensions.Http.Resilience" in names
    # the OpenTelemetry SDK comes with its hosting package, it is not listed beside it
    assert "OpenTelemetry.Extensions.Hosting" in names
    assert "OpenTelemetry" not in names


def test_aspire_client_integrations_replace_the_clients_they_register(aspireservices):
    assert manifest_names(aspireservices, "Shop.Api/Shop.Api.csproj") == [
        "Aspire.Azure.Storage.Blobs"
    ]


def test_an_aspire_13_apphost_sdk_brings_the_apphost_package(aspireservices):
    assert manifest_names(aspireservices, "Shop.AppHost/Shop.AppHost.csproj") == [
        "Aspire.Hosting.Azure.Storage"
    ]


def test_syntax_polyfills_go_only_where_older_targets_compile_newer_syntax(tmp_path):
    files = {
        "Directory.Packages.props": (
            "<Project><PropertyGroup><ManagePackageVersionsCentrally>true"
            "</ManagePackageVersionsCentrally></PropertyGroup><ItemGroup>"
            '<PackageVersion Include="PolySharp" Version="1.15.0" />'
            "</ItemGroup></Project>"
        ),
        "Records/Records.csproj": (
            '<Project Sdk="Microsoft.NET.Sdk"><PropertyGroup>'
            "<TargetFramework>netstandard2.0</TargetFramework></PropertyGroup></Project>"
        ),
        "Records/Point.cs": "namespace Records;\npublic record Point(int X, int Y);\n",
        "Plain/Plain.csproj": (
            '<Project Sdk="Microsoft.NET.Sdk"><PropertyGroup>'
            "<TargetFramework>netstandard2.0</TargetFramework></PropertyGroup></Project>"
        ),
        "Plain/Point.cs": "namespace Plain;\npublic class Point { public int X { get; set; } }\n",
        "Own/Own.csproj": (
            '<Project Sdk="Microsoft.NET.Sdk"><PropertyGroup>'
            "<TargetFramework>netstandard2.0</TargetFramework></PropertyGroup></Project>"
        ),
        "Own/Point.cs": "namespace Own;\npublic record Point(int X);\n",
        "Own/IsExternalInit.cs": (
            "namespace System.Runtime.CompilerServices;\ninternal static class IsExternalInit {}\n"
        ),
    }
    write_tree(tmp_path, files)
    found = infer(tmp_path, Options(offline=True))
    assert manifest_names(found, "Records/Records.csproj") == ["PolySharp"]
    assert manifest_names(found, "Plain/Plain.csproj") == []
    # a project declaring the support type itself needs no package for it
    assert manifest_names(found, "Own/Own.csproj") == []


def test_a_central_flag_with_no_version_list_manages_nothing(tmp_path):
    write_tree(
        tmp_path,
        {
            "Directory.Build.props": (
                '<Project><PropertyGroup><ManagePackageVersionsCentrally Condition="Exists('
                "'$(MSBuildThisFileDirectory)Directory.Packages.props')\">true"
                "</ManagePackageVersionsCentrally></PropertyGroup></Project>"
            ),
            "Lib.Tests/Lib.Tests.csproj": CSPROJ_LIB,
            "Lib.Tests/T.cs": "using Xunit;\npublic class T { [Fact] public void F() {} }\n",
        },
    )
    found = infer(tmp_path, Options(offline=True))
    names = manifest_names(found, "Lib.Tests/Lib.Tests.csproj")
    assert {"xunit", "Microsoft.NET.Test.Sdk", "xunit.runner.visualstudio"} <= set(names)


def test_an_extension_call_goes_to_the_overload_taking_that_many_arguments(tmp_path):
    write_tree(
        tmp_path,
        {
            "Core/Core.csproj": CSPROJ_LIB,
            "Core/Ext.cs": ("namespace Kit;\npublic class Builder { public int Make() => 0; }\n"),
            "Seeds/Seeds.csproj": CSPROJ_LIB,
            "Seeds/SeedExt.cs": (
                "namespace Kit;\npublic static class SeedExt {\n"
                "  public static int Make(this Builder b, int seed) => seed; }\n"
            ),
            "App/App.csproj": CSPROJ_LIB,
            "App/Use.cs": ("using Kit;\npublic class Use { int F(Builder b) => b.Make(); }\n"),
        },
    )
    found = infer(tmp_path, Options(offline=True))
    assert manifest_projects(found, "App/App.csproj") == ["Core/Core.csproj"]


def test_a_call_of_the_repositorys_own_extension_method_is_no_package_entry_point(tmp_path):
    web = (
        '<Project Sdk="Microsoft.NET.Sdk.Web"><PropertyGroup><TargetFramework>net9.0'
        "</TargetFramework></PropertyGroup></Project>"
    )
    write_tree(
        tmp_path,
        {
            "Kit/Kit.csproj": web.replace("Sdk.Web", "Sdk").replace(
                "</Project>",
                '<ItemGroup><FrameworkReference Include="Microsoft.AspNetCore.App" />'
                "</ItemGroup></Project>",
            ),
            "Kit/Discovery.cs": (
                "namespace Microsoft.Extensions.DependencyInjection;\n"
                "public static class Discovery {\n"
                "  public static IServiceCollection AddServiceDiscovery(this IServiceCollection s)"
                " => s; }\n"
            ),
            "App/App.csproj": web,
            "App/Program.cs": (
                "using Microsoft.Extensions.DependencyInjection;\n"
                "var b = WebApplication.CreateBuilder(args);\nb.Services.AddServiceDiscovery();\n"
            ),
        },
    )
    found = infer(tmp_path, Options(offline=True))
    assert "Microsoft.Extensions.ServiceDiscovery" not in manifest_names(found, "App/App.csproj")
    assert manifest_projects(found, "App/App.csproj") == ["Kit/Kit.csproj"]


def test_aspire_integrations_take_the_version_of_the_apphost_sdk(aspireservices):
    specs = {
        r.name: r.spec
        for r in aspireservices.requirements
        if r.name in ("Aspire.Azure.Storage.Blobs", "Aspire.Hosting.Azure.Storage")
    }
    assert specs == {
        "Aspire.Azure.Storage.Blobs": "13.1.0",
        "Aspire.Hosting.Azure.Storage": "13.1.0",
    }


def test_an_sdk_element_keeps_its_version():
    from depinfer.manifests.csproj import read

    _, data = read(
        '<Project Sdk="Microsoft.NET.Sdk"><Sdk Name="Aspire.AppHost.Sdk" Version="9.5.2" />'
        "</Project>",
        "A.csproj",
    )
    assert data["extra_sdks"] == ["Aspire.AppHost.Sdk/9.5.2"]


def test_a_web_app_calling_add_http_client_needs_no_package(tmp_path):
    write_tree(
        tmp_path,
        {
            "Web/Web.csproj": (
                '<Project Sdk="Microsoft.NET.Sdk.Web"><PropertyGroup><TargetFramework>net9.0'
                "</TargetFramework><ImplicitUsings>enable</ImplicitUsings></PropertyGroup></Project>"
            ),
            "Web/Program.cs": (
                "var b = WebApplication.CreateBuilder(args);\n"
                'b.Services.AddHttpClient("api");\nvar app = b.Build();\n'
                "var f = app.Services.GetRequiredService<IHttpClientFactory>();\napp.Run();\n"
            ),
        },
    )
    found = infer(tmp_path, Options(offline=True))
    # Microsoft.Extensions.Http ships in the shared framework; System.Net.Http is the base's
    assert manifest_names(found, "Web/Web.csproj") == []


def test_tuples_on_targets_before_net47_need_the_value_tuple_package(tmp_path):
    multi = (
        '<Project Sdk="Microsoft.NET.Sdk"><PropertyGroup><TargetFrameworks>{}'
        "</TargetFrameworks></PropertyGroup></Project>"
    )
    write_tree(
        tmp_path,
        {
            "Old/Old.csproj": multi.format("net462;net8.0"),
            "Old/Pair.cs": "public static class Pair { public static (int, int) Get() => (1, 2); }\n",
            "New/New.csproj": multi.format("net472;netstandard2.0"),
            "New/Pair.cs": "public static class Pair { public static (int, int) Get() => (1, 2); }\n",
        },
    )
    found = infer(tmp_path, Options(offline=True))
    (old,) = [r for r in found.requirements if r.manifest == "Old/Old.csproj"]
    assert old.name == "System.ValueTuple"
    # .NET Framework 4.7 and .NET Standard 2.0 have the tuple types in the box
    assert manifest_names(found, "New/New.csproj") == []


def test_a_nested_class_named_like_a_package_is_no_qualified_use(tmp_path):
    write_tree(
        tmp_path,
        {
            "Directory.Packages.props": (
                "<Project><PropertyGroup><ManagePackageVersionsCentrally>true"
                "</ManagePackageVersionsCentrally></PropertyGroup><ItemGroup>"
                '<PackageVersion Include="Hangfire.Core" Version="1.8.20" /></ItemGroup></Project>'
            ),
            "src/Perms/Perms.csproj": CSPROJ_LIB,
            "src/Perms/Permissions.cs": (
                "namespace Perms;\npublic static class Permissions {\n"
                '  public static class Hangfire { public const string Resource = "h"; }\n'
                "  public static string[] All = { Hangfire.Resource };\n}\n"
            ),
        },
    )
    found = infer(tmp_path, Options(offline=True))
    # `Hangfire.Resource` is the nested class's member, not the Hangfire namespace
    assert manifest_names(found, "src/Perms/Perms.csproj") == []


def test_add_serilog_is_told_apart_by_its_receiver(tmp_path):
    console = CSPROJ_EXE
    write_tree(
        tmp_path,
        {
            "Logs/Logs.csproj": console,
            "Logs/Program.cs": (
                "using Microsoft.Extensions.Logging;\nusing Serilog;\n"
                "var f = LoggerFactory.Create(logging => logging.AddSerilog());\n"
            ),
            "Host/Host.csproj": console,
            "Host/Program.cs": (
                "using Microsoft.Extensions.Hosting;\nusing Serilog;\n"
                "var b = Host.CreateApplicationBuilder(args);\nb.Services.AddSerilog();\n"
            ),
        },
    )
    found = infer(tmp_path, Options(offline=True))
    # on an ILoggingBuilder: the logging provider; on the service collection: hosting
    assert "Serilog.Extensions.Logging" in manifest_names(found, "Logs/Logs.csproj")
    host = manifest_names(found, "Host/Host.csproj")
    assert "Serilog.Extensions.Logging" not in host
    assert {"Serilog.Extensions.Hosting", "Serilog.AspNetCore"} & set(host)


def test_a_blazor_webassembly_app_with_root_components_gets_the_development_server():
    found = infer(FIXTURES / "csharp" / "blazor-wasm", Options(offline=True))
    app = manifest_names(found, "Shop.App/Shop.App.csproj")
    assert "Microsoft.AspNetCore.Components.WebAssembly.DevServer" in app
    # Components.Web and Components come with the WebAssembly package
    assert app == [
        "Microsoft.AspNetCore.Components.WebAssembly",
        "Microsoft.AspNetCore.Components.WebAssembly.DevServer",
    ]
    # a Blazor Web App's client project adds no root components: no development server
    assert manifest_names(found, "Shop.Web.Client/Shop.Web.Client.csproj") == [
        "Microsoft.AspNetCore.Components.WebAssembly"
    ]


def test_a_logging_provider_brings_the_logging_factory(tmp_path):
    exe = CSPROJ_EXE
    write_tree(
        tmp_path,
        {
            "App/App.csproj": exe,
            "App/Program.cs": (
                "using Microsoft.Extensions.Logging;\n"
                "using var factory = LoggerFactory.Create(b => b.AddConsole());\n"
                'factory.CreateLogger("app").LogInformation("hi");\n'
            ),
        },
    )
    found = infer(tmp_path, Options(offline=True))
    # the console provider depends on Microsoft.Extensions.Logging: listed alone
    assert manifest_names(found, "App/App.csproj") == ["Microsoft.Extensions.Logging.Console"]


def test_what_a_referenced_projects_package_brings_is_not_repeated(tmp_path):
    write_tree(
        tmp_path,
        {
            "Data/Data.csproj": CSPROJ_LIB,
            "Data/Setup.cs": (
                "using Microsoft.EntityFrameworkCore;\nnamespace Data;\n"
                "public static class Setup {\n"
                '  public static void Use(DbContextOptionsBuilder b) => b.UseNpgsql("x");\n}\n'
            ),
            "Catalog/Catalog.csproj": CSPROJ_LIB,
            "Catalog/CatalogContext.cs": (
                "using Data;\nusing Microsoft.EntityFrameworkCore;\nnamespace Catalog;\n"
                "public class CatalogContext : DbContext {\n"
                "  protected override void OnModelCreating(ModelBuilder m) =>\n"
                '    m.HasDefaultSchema("catalog");\n'
                "  protected override void OnConfiguring(DbContextOptionsBuilder b) => Setup.Use(b);\n"
                "}\n"
            ),
        },
    )
    found = infer(tmp_path, Options(offline=True))
    assert "Npgsql.EntityFrameworkCore.PostgreSQL" in manifest_names(found, "Data/Data.csproj")
    # HasDefaultSchema is EF Core's relational layer, which the Npgsql provider of the
    # referenced project brings
    assert manifest_projects(found, "Catalog/Catalog.csproj") == ["Data/Data.csproj"]
    assert "Microsoft.EntityFrameworkCore.Relational" not in manifest_names(
        found, "Catalog/Catalog.csproj"
    )


def test_a_grpc_client_package_brings_the_grpc_api(tmp_path):
    write_tree(
        tmp_path,
        {
            "Client/Client.csproj": CSPROJ_LIB,
            "Client/Api.cs": (
                "using Grpc.Core;\nusing Grpc.Net.Client;\nnamespace Client;\n"
                "public static class Api {\n"
                '  public static GrpcChannel Open() => GrpcChannel.ForAddress("http://x");\n'
                "  public static Metadata Headers() => new Metadata();\n}\n"
            ),
        },
    )
    found = infer(tmp_path, Options(offline=True))
    assert manifest_names(found, "Client/Client.csproj") == ["Grpc.Net.Client"]


def test_swagger_ui_over_the_aspnetcore_openapi_document_is_the_ui_package_alone(tmp_path):
    web = (
        '<Project Sdk="Microsoft.NET.Sdk.Web"><PropertyGroup><TargetFramework>net9.0'
        "</TargetFramework><ImplicitUsings>enable</ImplicitUsings></PropertyGroup></Project>"
    )
    write_tree(
        tmp_path,
        {
            "Api/Api.csproj": web,
            "Api/Program.cs": (
                "var builder = WebApplication.CreateBuilder(args);\n"
                "builder.Services.AddOpenApi();\nvar app = builder.Build();\n"
                'app.MapOpenApi();\napp.UseSwaggerUI(o => o.SwaggerEndpoint("/openapi/v1.json", "v1"));\n'
            ),
            "Classic/Classic.csproj": web,
            "Classic/Program.cs": (
                "var builder = WebApplication.CreateBuilder(args);\n"
                "builder.Services.AddSwaggerGen();\nvar app = builder.Build();\n"
                "app.UseSwagger();\napp.UseSwaggerUI();\n"
            ),
        },
    )
    found = infer(tmp_path, Options(offline=True))
    api = manifest_names(found, "Api/Api.csproj")
    assert "Swashbuckle.AspNetCore.SwaggerUI" in api and "Swashbuckle.AspNetCore" not in api
    # the generator and middleware bring the UI with the metapackage
    classic = manifest_names(found, "Classic/Classic.csproj")
    assert "Swashbuckle.AspNetCore" in classic
    assert "Swashbuckle.AspNetCore.SwaggerUI" not in classic


def test_the_openapi_model_comes_with_the_generator_that_takes_it(tmp_path):
    web = (
        '<Project Sdk="Microsoft.NET.Sdk.Web"><PropertyGroup><TargetFramework>net8.0'
        "</TargetFramework><ImplicitUsings>enable</ImplicitUsings></PropertyGroup></Project>"
    )
    write_tree(
        tmp_path,
        {
            "Api/Api.csproj": web,
            "Api/Program.cs": (
                "using Microsoft.OpenApi.Models;\n"
                "var builder = WebApplication.CreateBuilder(args);\n"
                'builder.Services.AddSwaggerGen(o => o.SwaggerDoc("v1", new OpenApiInfo()));\n'
                "var app = builder.Build();\napp.UseSwagger();\napp.UseSwaggerUI();\n"
            ),
            "Docs/Docs.csproj": CSPROJ_LIB,
            "Docs/Spec.cs": (
                "using Microsoft.OpenApi.Models;\nnamespace Docs;\n"
                "public static class Spec { public static OpenApiDocument Empty() => new(); }\n"
            ),
        },
    )
    found = infer(tmp_path, Options(offline=True))
    # Swashbuckle's generator depends on the OpenAPI object model its options take
    api = manifest_names(found, "Api/Api.csproj")
    assert "Swashbuckle.AspNetCore" in api and "Microsoft.OpenApi" not in api
    # with no generator the model is the project's own dependency
    assert manifest_names(found, "Docs/Docs.csproj") == ["Microsoft.OpenApi"]


def test_options_the_corpus_leaves_to_their_carriers_are_not_repeated(tmp_path):
    pump = (
        "using Microsoft.Extensions.Hosting;\nusing Microsoft.Extensions.Options;\n"
        "namespace Worker;\npublic sealed class PumpOptions { public int Every { get; set; } }\n"
        "public sealed class Pump(IOptions<PumpOptions> options) : BackgroundService\n{\n"
        "    protected override System.Threading.Tasks.Task ExecuteAsync(\n"
        "        System.Threading.CancellationToken t) =>\n"
        "        System.Threading.Tasks.Task.Delay(options.Value.Every, t);\n}\n"
    )
    write_tree(
        tmp_path,
        {
            "Worker/Worker.csproj": CSPROJ_LIB,
            "Worker/Pump.cs": pump,
            "Worker/Program.cs": (
                "using Microsoft.Extensions.DependencyInjection;\n"
                "using Microsoft.Extensions.Hosting;\nnamespace Worker;\n"
                "public static class Program {\n  public static void Main(string[] args) {\n"
                "    var builder = Host.CreateApplicationBuilder(args);\n"
                "    builder.Services.AddHostedService<Pump>();\n    builder.Build().Run();\n  }\n}\n"
            ),
            "Settings/Settings.csproj": CSPROJ_LIB,
            "Settings/Read.cs": (
                "using Microsoft.Extensions.Options;\nnamespace Settings;\n"
                "public static class Read { public static T Value<T>(IOptions<T> o) "
                "where T : class => o.Value; }\n"
            ),
        },
    )
    found = infer(tmp_path, Options(offline=True))
    # the generic host brings the options package (HABIT_IMPLIED in
    # scripts/build_nuget_index.py: the corpus never lists it beside a carrier)
    assert manifest_names(found, "Worker/Worker.csproj") == ["Microsoft.Extensions.Hosting"]
    # a project with no carrier names it itself
    assert manifest_names(found, "Settings/Settings.csproj") == ["Microsoft.Extensions.Options"]


def test_a_using_under_a_symbol_the_project_does_not_define_is_not_compiled():
    found = infer(FIXTURES / "csharp" / "conditional-usings", Options(offline=True))
    # one shared file, two drivers: each project compiles the branch its symbols select
    assert manifest_names(found, "Classifier.MySql/Classifier.MySql.csproj") == ["MySql.Data"]
    assert manifest_names(found, "Classifier.Pomelo/Classifier.Pomelo.csproj") == ["MySqlConnector"]


def test_if_symbols_only_the_repository_defines_are_decided():
    from depinfer.mapping.csharp_use import guard_active as _active

    # POMELO is defined by some project here: off where this project lacks it
    assert not _active([["POMELO", True]], set(), {"POMELO"})
    assert _active([["POMELO", False]], set(), {"POMELO"})
    # a symbol no project file defines may come from the command line: kept
    assert _active([["BENCHMARKS", True]], set(), {"POMELO"})
    # the SDK's own symbols depend on the target framework: kept
    assert _active([["NET8_0_OR_GREATER", False]], set(), {"NET8_0_OR_GREATER"})


def test_ef_cores_relational_metadata_extensions_need_the_relational_package(tmp_path):
    write_tree(
        tmp_path,
        {
            "Audit/Audit.csproj": CSPROJ_LIB,
            "Audit/Tables.cs": (
                "using Microsoft.EntityFrameworkCore;\nnamespace Audit;\n"
                "public static class Tables {\n"
                "  public static string Of(DbContext db, System.Type t) =>\n"
                "    db.Model.FindEntityType(t).GetSchemaQualifiedTableName();\n}\n"
            ),
        },
    )
    found = infer(tmp_path, Options(offline=True))
    assert manifest_names(found, "Audit/Audit.csproj") == [
        "Microsoft.EntityFrameworkCore.Relational"
    ]


def test_a_package_reference_in_directory_packages_props_is_inherited(tmp_path):
    # MSBuild imports Directory.Packages.props into every project: a PackageReference item
    # there (conditions included) is the project's as much as one in Directory.Build.props
    write_tree(
        tmp_path,
        {
            "Directory.Packages.props": (
                "<Project><PropertyGroup><ManagePackageVersionsCentrally>true"
                "</ManagePackageVersionsCentrally></PropertyGroup><ItemGroup>"
                '<PackageVersion Include="Nerdbank.GitVersioning" Version="3.9.50" />'
                '<PackageVersion Include="Moq" Version="4.20.72" />'
                '<PackageVersion Include="Newtonsoft.Json" Version="13.0.3" />'
                '</ItemGroup><ItemGroup><PackageReference Include="Nerdbank.GitVersioning" />'
                '</ItemGroup><ItemGroup Condition="$([System.String]::Copy('
                "'$(MSBuildProjectName)').EndsWith('.Tests'))\">"
                '<PackageReference Include="Moq" /></ItemGroup></Project>'
            ),
            "version.json": '{"version": "1.0"}',
            "Lib/Lib.csproj": CSPROJ_LIB,
            "Lib/A.cs": "using Newtonsoft.Json;\nnamespace Lib;\npublic class A {}\n",
            "Lib.Tests/Lib.Tests.csproj": CSPROJ_LIB,
            "Lib.Tests/T.cs": (
                "using Moq;\nusing Xunit;\nnamespace Lib.Tests;\n"
                "public class T { [Fact] public void F() { var m = new Mock<object>(); } }\n"
            ),
        },
    )
    found = infer(tmp_path, Options(offline=True))
    assert manifest_names(found, "Lib/Lib.csproj") == ["Newtonsoft.Json"]
    names = manifest_names(found, "Lib.Tests/Lib.Tests.csproj")
    assert "Moq" not in names and "Nerdbank.GitVersioning" not in names
    assert "xunit" in names


def test_a_binding_package_variant_follows_the_projects_test_framework(tmp_path):
    # Reqnroll.NUnit and Reqnroll.xUnit are marked alike (the bindings' attributes): the
    # project takes the one for the test framework its code uses
    steps = (
        "using Reqnroll;\nusing {fw};\n\nnamespace {ns};\n\n[Binding]\n"
        'public class Steps {{ [Given("x")] public void G() {{ }} }}\n'
    )
    write_tree(
        tmp_path,
        {
            "X.Specs/X.Specs.csproj": CSPROJ_LIB,
            "X.Specs/Steps.cs": steps.format(fw="Xunit", ns="X.Specs"),
            "N.Specs/N.Specs.csproj": CSPROJ_LIB,
            "N.Specs/Steps.cs": steps.format(fw="NUnit.Framework", ns="N.Specs"),
        },
    )
    found = infer(tmp_path, Options(offline=True))
    x = manifest_names(found, "X.Specs/X.Specs.csproj")
    n = manifest_names(found, "N.Specs/N.Specs.csproj")
    assert "Reqnroll.xUnit" in x and "Reqnroll.NUnit" not in x
    assert "Reqnroll.NUnit" in n and "Reqnroll.xUnit" not in n


def test_health_checks_and_prometheus_client_packages_from_their_entry_points(tmp_path):
    write_tree(
        tmp_path,
        {
            "Api/Api.csproj": CSPROJ_LIB.replace("Microsoft.NET.Sdk", "Microsoft.NET.Sdk.Web"),
            "Api/Program.cs": "using Prometheus.Client.AspNetCore;\n"
            "using Microsoft.Extensions.DependencyInjection;\n\n"
            "var builder = WebApplication.CreateBuilder(args);\n"
            "builder.Services.AddHealthChecks()\n    .AddRabbitMQ()\n"
            '    .AddMongoDb("mongodb://x");\nvar app = builder.Build();\n'
            "app.UsePrometheusServer();\napp.Run();\n",
        },
    )
    names = manifest_names(infer(tmp_path, Options(offline=True)), "Api/Api.csproj")
    assert {
        "Prometheus.Client.AspNetCore",
        "AspNetCore.HealthChecks.Rabbitmq",
        "AspNetCore.HealthChecks.MongoDb",
    } <= set(names)
