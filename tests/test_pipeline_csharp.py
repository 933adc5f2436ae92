"""The C# path end to end on the fixture solutions (offline, shipped index only)."""

from __future__ import annotations

import shutil

import pytest
from conftest import FIXTURES, copy_fixture, manifest_names, write_tree

from depinfer.analyzers.csharp_layout import build_layout
from depinfer.context import Options
from depinfer.facts.csharp import CsDepFacts, dep_facts
from depinfer.mapping import nuget_index as nx
from depinfer.pipeline import infer, write_edits
from depinfer.registries.base import VersionInfo
from depinfer.scan import scan


def _projects(inference, manifest):
    return sorted(r.path for r in inference.requirements if r.manifest == manifest and r.internal)


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
    assert _projects(shop, "src/Shop.Web/Shop.Web.csproj") == [
        "src/Shop.Infrastructure/Shop.Infrastructure.csproj"
    ]
    assert _projects(shop, "src/Shop.Infrastructure/Shop.Infrastructure.csproj") == [
        "src/Shop.Core/Shop.Core.csproj"
    ]
    assert _projects(shop, "tests/Shop.Core.Tests/Shop.Core.Tests.csproj") == [
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
    assert _projects(inference, "tests/Parsing.Tests/Parsing.Tests.csproj") == [
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


@pytest.fixture(scope="module")
def layers():
    return infer(FIXTURES / "csharp" / "layers", Options(offline=True))


def test_a_transitive_project_is_repeated_only_when_used_more_than_its_carrier(layers):
    # Web uses Application's types more than Domain's: Domain flows through Application
    assert _projects(layers, "src/Layers.Web/Layers.Web.csproj") == [
        "src/Layers.Application/Layers.Application.csproj"
    ]
    # Worker is written against Domain and only calls one Application service: both listed
    assert _projects(layers, "src/Layers.Worker/Layers.Worker.csproj") == [
        "src/Layers.Application/Layers.Application.csproj",
        "src/Layers.Domain/Layers.Domain.csproj",
    ]


def test_all_evidence_keeps_every_used_project_unreduced():
    # the evidence ceiling: Web uses Domain too, so Domain is written beside Application
    inference = infer(FIXTURES / "csharp" / "layers", Options(offline=True, all_evidence=True))
    assert _projects(inference, "src/Layers.Web/Layers.Web.csproj") == [
        "src/Layers.Application/Layers.Application.csproj",
        "src/Layers.Domain/Layers.Domain.csproj",
    ]


def test_a_pascal_case_test_project_names_its_subject_and_the_layers_it_uses_more(layers):
    # named after Web, written against Application and Domain: Web carries both, but the
    # tests use each more than Web, so each is named, as an application project would
    manifest = "tests/Layers.WebIntegrationTests/Layers.WebIntegrationTests.csproj"
    assert _projects(layers, manifest) == [
        "src/Layers.Application/Layers.Application.csproj",
        "src/Layers.Domain/Layers.Domain.csproj",
        "src/Layers.Web/Layers.Web.csproj",
    ]
    assert "Microsoft.NET.Test.Sdk" in manifest_names(layers, manifest)


def test_unit_tests_named_after_no_project_list_each_layer_they_use_most(layers):
    # `Layers.UnitTests` names no project: it uses Domain more than Application (which
    # brings Domain), so both are listed, as an application project would
    assert _projects(layers, "tests/Layers.UnitTests/Layers.UnitTests.csproj") == [
        "src/Layers.Application/Layers.Application.csproj",
        "src/Layers.Domain/Layers.Domain.csproj",
    ]


def test_a_test_project_holding_only_global_usings_references_nothing(layers):
    manifest = "tests/Layers.Domain.IntegrationTests/Layers.Domain.IntegrationTests.csproj"
    assert _projects(layers, manifest) == []
    assert "Microsoft.NET.Test.Sdk" in manifest_names(layers, manifest)


def test_a_type_only_one_project_declares_is_found_through_the_enclosing_namespace(layers):
    assert _projects(layers, "tools/Layers.Benchmarks/Layers.Benchmarks.csproj") == [
        "src/Layers.Domain/Layers.Domain.csproj"
    ]


def test_target_frameworks_rule_out_references_and_embedded_outputs_add_them(layers):
    # a net35 tool cannot reference net8.0 libraries, whatever names it shares with them
    assert _projects(layers, "tools/Layers.Signal/Layers.Signal.csproj") == []
    # the library embeds the tool's build output, so it references it for build order
    assert "tools/Layers.Signal/Layers.Signal.csproj" in _projects(
        layers, "src/Layers.Application/Layers.Application.csproj"
    )


def test_target_framework_compatibility_table():
    from depinfer.mapping.csharp_projects import can_reference

    assert can_reference(["net8.0"], ["netstandard2.0"])
    assert can_reference(["net472"], ["netstandard2.0", "net8.0"])
    assert not can_reference(["net35"], ["netstandard2.0"])
    assert not can_reference(["netstandard2.0"], ["net8.0"])
    assert not can_reference(["net6.0", "net48"], ["net6.0"])
    assert can_reference(["net8.0"], ["net472"]) and not can_reference(["net472"], ["net8.0"])
    assert can_reference(["net8.0"], ["net6.0"]) and not can_reference(["net6.0"], ["net8.0"])
    assert can_reference([], ["net8.0"])


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
    assert _projects(found, manifest) == []


def test_a_test_project_referenced_for_its_fixtures_does_not_carry_the_subject():
    import networkx

    from depinfer.model import Candidate, Ecosystem
    from depinfer.rules.csharp import reduce_transitive

    def ref(src, dst, weight):
        return Candidate(
            ecosystem=Ecosystem.NUGET,
            name=dst,
            manifest=src,
            internal=True,
            path=dst,
            facts=CsDepFacts(weight=weight),
        )

    cands = [ref("It", "Unit", 3.0), ref("It", "Infra", 6.0), ref("Unit", "Web", 10.0)]
    cands.append(ref("Web", "Infra", 20.0))
    graph = networkx.DiGraph()
    for c in cands:
        graph.add_edge(c.manifest, c.path, weight=dep_facts(c).weight)
    kept = reduce_transitive(cands, graph, tests={"It", "Unit"})
    # Infra reaches It through the Unit test project only: It still names it
    assert sorted((c.manifest, c.path) for c in kept) == [
        ("It", "Infra"),
        ("It", "Unit"),
        ("Unit", "Web"),
        ("Web", "Infra"),
    ]


def test_an_ambiguous_type_name_goes_to_the_strongest_reading(layers):
    # Layers.Samples declares its own OrderLine in the enclosing `Layers` namespace;
    # the files importing Layers.Domain mean Layers.Domain's
    samples = "src/Layers.Samples/Layers.Samples.csproj"
    assert not any(r.internal and r.path == samples for r in layers.requirements)


def test_disabled_transitive_project_references_are_all_listed(tmp_path):
    root = copy_fixture("csharp", "layers", tmp_path / "layers")
    web = root / "src/Layers.Web/Layers.Web.csproj"
    web.write_text(
        web.read_text().replace(
            "<ImplicitUsings>",
            "<DisableTransitiveProjectReferences>true</DisableTransitiveProjectReferences>\n"
            "    <ImplicitUsings>",
        )
    )
    found = infer(root, Options(offline=True))
    assert _projects(found, "src/Layers.Web/Layers.Web.csproj") == [
        "src/Layers.Application/Layers.Application.csproj",
        "src/Layers.Domain/Layers.Domain.csproj",
    ]


def test_a_sample_of_the_repositorys_own_package_does_not_list_its_dependencies():
    found = infer(FIXTURES / "csharp" / "ownpackage", Options(offline=True))
    # UseSerilog is Serilog.Extensions.Hosting's entry point too, but the referenced
    # project builds Serilog.AspNetCore, which depends on it
    assert manifest_names(found, "samples/Sample/Sample.csproj") == ["Serilog"]
    assert _projects(found, "samples/Sample/Sample.csproj") == [
        "src/Serilog.AspNetCore/Serilog.AspNetCore.csproj"
    ]


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


def test_aspire_testing_projects_reference_their_apphost():
    inference = infer(FIXTURES / "csharp" / "aspiretests", Options(offline=True))
    manifest = "tests/Shop.AspireTests/Shop.AspireTests.csproj"
    assert _projects(inference, manifest) == ["src/Shop.AppHost/Shop.AppHost.csproj"]
    assert "Aspire.Hosting.Testing" in manifest_names(inference, manifest)


def test_a_testing_platform_runner_project_needs_no_vstest_sdk():
    inference = infer(FIXTURES / "csharp" / "nunitrunner", Options(offline=True))
    names = manifest_names(inference, "tests/Parser.Tests/Parser.Tests.csproj")
    assert names == ["NUnit", "NUnit3TestAdapter"]


def test_a_property_running_another_projects_build_output_references_it():
    inference = infer(FIXTURES / "csharp" / "buildoutput", Options(offline=True))
    assert _projects(inference, "src/Lib.Tests/Lib.Tests.csproj") == ["src/Gen/Gen.csproj"]
    # built for its output, not its API: nothing of it is compiled against or flows on
    edit = next(e for e in inference.edits if e.path == "src/Lib.Tests/Lib.Tests.csproj")
    assert 'Gen.csproj" ReferenceOutputAssembly="false" />' in edit.new_text


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


def test_a_source_generator_does_not_stand_in_for_its_abstractions():
    inference = infer(FIXTURES / "csharp" / "splitpackages", Options(offline=True))
    names = manifest_names(inference, "src/Worker/Worker.csproj")
    assert "Mediator.SourceGenerator" in names and "Mediator.Abstractions" in names


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


def test_each_central_package_list_places_its_tools_in_its_own_projects():
    inference = infer(FIXTURES / "csharp" / "twosolutions", Options(offline=True))
    for sol in ("app", "sample"):
        names = manifest_names(inference, f"{sol}/src/Web/Web.csproj")
        assert "Microsoft.EntityFrameworkCore.Design" in names, sol


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
    assert _projects(result, "tests/Clock.Tests/Clock.Tests.csproj") == ["src/Clock/Clock.csproj"]


@pytest.fixture(scope="module")
def testing_platform():
    return infer(FIXTURES / "csharp" / "testingplatform", Options(offline=True))


def test_global_json_testing_platform_runner_takes_xunit_v3_for_platform_v2(testing_platform):
    # global.json's test runner is Microsoft.Testing.Platform: no VSTest host or adapter,
    # and `using Xunit` means the v3 package built for testing platform v2
    assert manifest_names(testing_platform, "tests/Shapes.Tests/Shapes.Tests.csproj") == [
        "xunit.v3.mtp-v2"
    ]


def test_a_project_imports_own_props_packages(testing_platform):
    # Shouldly comes from tests/Assertions.props, which the project file imports itself
    assert "Shouldly" not in manifest_names(
        testing_platform, "tests/Shapes.Tests/Shapes.Tests.csproj"
    )


def test_tunit_is_told_by_its_implicit_usings_property(testing_platform):
    # [Test] alone could be NUnit; TUnitImplicitUsings names the framework (and hides its
    # namespaces); TUnit runs itself, so no Microsoft.NET.Test.Sdk
    assert manifest_names(testing_platform, "tests/Shapes.Specs/Shapes.Specs.csproj") == ["TUnit"]


def test_central_testing_platform_extensions_go_to_test_projects():
    result = infer(FIXTURES / "csharp" / "mtpextensions", Options(offline=True))
    assert manifest_names(result, "tests/Calc.Tests/Calc.Tests.csproj") == [
        "Microsoft.Testing.Extensions.CodeCoverage",
        "Microsoft.Testing.Extensions.TrxReport",
        "xunit.v3",
    ]


def test_tests_name_their_subject_even_when_a_test_helper_project_brings_it():
    # tests/TestCommon (sources only in test folders) references Orders; Orders.Tests still
    # lists Orders, the project its name says it tests
    result = infer(FIXTURES / "csharp" / "testhelpers", Options(offline=True))
    assert _projects(result, "tests/Orders.Tests/Orders.Tests.csproj") == [
        "src/Orders/Orders.csproj",
        "tests/TestCommon/TestCommon.csproj",
    ]


def test_projects_applying_a_generators_attributes_reference_it_as_an_analyzer():
    # src/Api.Generator finds "Api.GetAttribute" by metadata name; samples/Client applies
    # [Get], so it references the generator, written as an analyzer reference
    result = infer(FIXTURES / "csharp" / "sourcegenerator", Options(offline=True))
    assert _projects(result, "samples/Client/Client.csproj") == [
        "src/Api.Generator/Api.Generator.csproj",
        "src/Api/Api.csproj",
    ]
    # the library the generator is named after packs it (an analyzer reference, which
    # passes nothing on: Client still names the generator itself); the generator, a
    # compiler plug-in, references no runtime library even though it names GetAttribute
    assert _projects(result, "src/Api/Api.csproj") == ["src/Api.Generator/Api.Generator.csproj"]
    api = next(r for r in result.requirements if r.manifest == "src/Api/Api.csproj")
    assert dep_facts(api).analyzer
    assert _projects(result, "src/Api.Generator/Api.Generator.csproj") == []
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


def test_a_program_named_like_a_test_with_no_test_in_it_gets_no_test_framework():
    # Greeter.AotTest is an executable smoke test (native AOT publish), not a test project:
    # the repository's dominant framework (xunit, from Greeter.Tests) is not pushed on it
    result = infer(FIXTURES / "csharp" / "smokeapp", Options(offline=True))
    assert manifest_names(result, "tests/Greeter.AotTest/Greeter.AotTest.csproj") == []
    assert "xunit" in manifest_names(result, "tests/Greeter.Tests/Greeter.Tests.csproj")


def test_an_analyzers_input_file_in_the_folder_names_the_analyzer():
    # PublicAPI.Shipped.txt is what Microsoft.CodeAnalysis.PublicApiAnalyzers checks the
    # project's public surface against
    found = infer(FIXTURES / "csharp" / "publicapi", Options(offline=True))
    assert "Microsoft.CodeAnalysis.PublicApiAnalyzers" in manifest_names(
        found, "src/Lib/Lib.csproj"
    )


def test_member_names_and_opt_in_usings_do_not_make_references():
    """Two projects share the root namespace: the new core names its `Context` property
    and reads `args.Context`; only the legacy project opts in to the usings of its own
    namespaces. The legacy project references the core, never the other way round."""
    inference = infer(FIXTURES / "csharp" / "sharednamespace", Options(offline=True))
    assert _projects(inference, "src/Retry.Core/Retry.Core.csproj") == []
    assert _projects(inference, "src/Retry/Retry.csproj") == ["src/Retry.Core/Retry.Core.csproj"]


def test_a_project_outside_the_librarys_solution_takes_its_published_package():
    """samples/Samples.slnx builds the sample alone; the central list holds the library's
    own package ids: the sample references the package (the one that brings the other),
    while the tests, in the library's solution, reference the project."""
    found = infer(FIXTURES / "csharp" / "samplessolution", Options(offline=True))
    assert _projects(found, "samples/Intro/Intro.csproj") == []
    assert manifest_names(found, "samples/Intro/Intro.csproj") == [
        "Acme.Extensions",
        "Microsoft.Extensions.DependencyInjection",
    ]
    assert _projects(found, "tests/Acme.Core.Tests/Acme.Core.Tests.csproj") == [
        "src/Acme.Core/Acme.Core.csproj"
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


def test_sources_compiled_in_through_compile_include_are_the_projects_own():
    """Lib.Json.Tests compiles Lib.Tests' Samples.cs in: using Samples (by simple or
    qualified name) references nothing, and its target frameworks, written through
    nested properties, put System.Text.Json in the box."""
    found = infer(FIXTURES / "csharp" / "linkedsources", Options(offline=True))
    manifest = "tests/Lib.Json.Tests/Lib.Json.Tests.csproj"
    assert _projects(found, manifest) == ["src/Lib/Lib.csproj"]
    assert manifest_names(found, manifest) == [
        "Microsoft.NET.Test.Sdk",
        "xunit",
        "xunit.runner.visualstudio",
    ]
    # a shared-source folder no project owns, compiled in by one project only, is that
    # project's code: the tests using its type reference it
    assert _projects(found, "tests/Rules.Tests/Rules.Tests.csproj") == [
        "src/Lib.Analyzers/Lib.Analyzers.csproj"
    ]


def test_property_references_in_target_frameworks_are_expanded():
    from depinfer.analyzers.csharp_layout import build_layout

    layout = {cs.name: cs for cs in build_layout(scan(FIXTURES / "csharp" / "linkedsources"))}
    assert layout["Lib.Json.Tests"].target_frameworks == ["net8.0", "net9.0"]


def test_references_a_directory_build_file_makes_by_condition_are_not_written_again():
    """src/Directory.Build.targets gives every `*Application` project of the Orders
    module its Domain (`$(MSBuildProjectName.EndsWith(...))`, a glob Include): the
    Application project needs nothing written, and Domain reaches the API through it."""
    found = infer(FIXTURES / "csharp" / "inheritedreferences", Options(offline=True))
    assert _projects(found, "src/Orders/Application/Orders.Application.csproj") == []
    assert _projects(found, "src/Orders/Api/Orders.Api.csproj") == [
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
    assert _projects(found, "tests/Paint.Tests/Paint.Tests.csproj") == [
        "src/Paint.Styles/Paint.Styles.csproj",
        "src/Paint/Paint.csproj",
    ]


def test_build_tool_settings_in_the_project_file_name_their_packages():
    found = infer(FIXTURES / "csharp" / "packagetools", Options(offline=True))
    # MinVer's and SourceLink's documented settings; the repository is on GitHub
    assert manifest_names(found, "src/Lib/Lib.csproj") == ["Microsoft.SourceLink.GitHub", "MinVer"]
    assert manifest_names(found, "src/Lib.Internal/Lib.Internal.csproj") == []
    edit = next(e for e in found.edits if e.path == "src/Lib/Lib.csproj")
    assert '<PackageReference Include="MinVer"' in edit.new_text
    assert "<PrivateAssets>all</PrivateAssets>" in edit.new_text  # a build tool flows nowhere


def test_a_namespace_the_repository_builds_is_not_its_published_package():
    # the index maps `Humanizer` to Humanizer.Core; this repository is that library
    found = infer(FIXTURES / "csharp" / "ownnamespace", Options(offline=True))
    manifest = "tests/Humanizer.Tests/Humanizer.Tests.csproj"
    assert "Humanizer.Core" not in manifest_names(found, manifest)
    assert _projects(found, manifest) == ["src/Humanizer/Humanizer.csproj"]


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


LIB = '<Project Sdk="Microsoft.NET.Sdk"><PropertyGroup><TargetFramework>net8.0</TargetFramework></PropertyGroup></Project>'
WEB = (
    '<Project Sdk="Microsoft.NET.Sdk.Web"><PropertyGroup><TargetFramework>net8.0'
    "</TargetFramework></PropertyGroup></Project>"
)
EXE = (
    '<Project Sdk="Microsoft.NET.Sdk"><PropertyGroup><OutputType>Exe</OutputType>'
    "<TargetFramework>net8.0</TargetFramework></PropertyGroup></Project>"
)


def test_traversal_and_trimmer_roots_name_projects_without_code(tmp_path):
    write_tree(
        tmp_path,
        {
            "build/Build.csproj": '<Project Sdk="Microsoft.Build.Traversal/4.1.0"></Project>',
            "build/src/A/A.csproj": LIB,
            "build/src/A/A.cs": "namespace A;\npublic class Alpha {}\n",
            "build/src/B/B.csproj": LIB,
            "build/src/B/B.cs": "namespace B;\npublic class Beta : A.Alpha {}\n",
            "build/tests/Aot/Aot.csproj": (
                '<Project Sdk="Microsoft.NET.Sdk"><PropertyGroup><OutputType>Exe</OutputType>'
                "<TargetFramework>net8.0</TargetFramework><PublishAot>true</PublishAot>"
                '</PropertyGroup><ItemGroup><TrimmerRootAssembly Include="A" />'
                '<TrimmerRootAssembly Include="B" /></ItemGroup></Project>'
            ),
            "build/tests/Aot/Program.cs": "System.Console.WriteLine(new B.Beta());\n",
        },
    )
    found = infer(tmp_path, Options(offline=True))
    assert _projects(found, "build/Build.csproj") == [
        "build/src/A/A.csproj",
        "build/src/B/B.csproj",
        "build/tests/Aot/Aot.csproj",
    ]
    # B brings A, but a trimmer root is named by the project file: both are kept
    assert _projects(found, "build/tests/Aot/Aot.csproj") == [
        "build/src/A/A.csproj",
        "build/src/B/B.csproj",
    ]


def test_an_executable_xunit_project_takes_the_v3_variant_the_repository_lists(tmp_path):
    write_tree(
        tmp_path,
        {
            "Directory.Packages.props": (
                "<Project><PropertyGroup><ManagePackageVersionsCentrally>true"
                "</ManagePackageVersionsCentrally></PropertyGroup><ItemGroup>"
                '<PackageVersion Include="xunit" Version="2.9.3" />'
                '<PackageVersion Include="xunit.v3.mtp-off" Version="3.2.0" />'
                '<PackageVersion Include="Microsoft.NET.Test.Sdk" Version="17.14.1" />'
                '<PackageVersion Include="xunit.runner.visualstudio" Version="3.1.4" />'
                "</ItemGroup></Project>"
            ),
            "V3.Tests/V3.Tests.csproj": (
                '<Project Sdk="Microsoft.NET.Sdk"><PropertyGroup><OutputType>Exe</OutputType>'
                "<TargetFramework>net8.0</TargetFramework></PropertyGroup></Project>"
            ),
            "V3.Tests/T.cs": "using Xunit;\npublic class T { [Fact] public void F() {} }\n",
            "V2.Tests/V2.Tests.csproj": LIB,
            "V2.Tests/T.cs": "using Xunit;\npublic class T { [Fact] public void F() {} }\n",
        },
    )
    found = infer(tmp_path, Options(offline=True))
    assert "xunit.v3.mtp-off" in manifest_names(found, "V3.Tests/V3.Tests.csproj")
    assert "xunit" not in manifest_names(found, "V3.Tests/V3.Tests.csproj")
    assert "xunit" in manifest_names(found, "V2.Tests/V2.Tests.csproj")


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
    assert _projects(found, "samples/Client.Roslyn4001/Client.Roslyn4001.csproj") == [
        "src/Api.Generator.Roslyn4001/Api.Generator.Roslyn4001.csproj",
        "src/Api/Api.csproj",
    ]


def test_a_shared_projects_files_are_compiled_by_each_project_importing_it(tmp_path):
    write_tree(
        tmp_path,
        {
            "tests/Shared.Tests/Shared.Tests.projitems": (
                '<Project><ItemGroup><Compile Include="$(MSBuildThisFileDirectory)Json.cs" />'
                "</ItemGroup></Project>"
            ),
            "tests/Shared.Tests/Json.cs": (
                "using Newtonsoft.Json;\npublic class JsonTests { "
                "public string F() => JsonConvert.SerializeObject(1); }\n"
            ),
            "tests/Net8.Tests/Net8.Tests.csproj": (
                '<Project Sdk="Microsoft.NET.Sdk"><PropertyGroup><TargetFramework>net8.0'
                "</TargetFramework></PropertyGroup>"
                '<Import Project="..\\Shared.Tests\\Shared.Tests.projitems" Label="Shared" />'
                "</Project>"
            ),
        },
    )
    found = infer(tmp_path, Options(offline=True))
    assert "Newtonsoft.Json" in manifest_names(found, "tests/Net8.Tests/Net8.Tests.csproj")


def test_architecture_tests_reference_each_layer_they_inspect(tmp_path):
    write_tree(
        tmp_path,
        {
            "src/Domain/Domain.csproj": LIB,
            "src/Domain/Order.cs": "namespace Shop.Domain;\npublic class Order {}\n",
            "src/Web/Web.csproj": LIB,
            "src/Web/Home.cs": (
                "using Shop.Domain;\nnamespace Shop.Web;\n"
                "public class Home { public Order O = new Order(); }\n"
            ),
            "tests/Arch.Tests/Arch.Tests.csproj": LIB,
            "tests/Arch.Tests/LayerTests.cs": (
                "using NetArchTest.Rules;\nusing Mono.Cecil;\nusing Shop.Domain;\nusing Shop.Web;\n"
                "using Xunit;\npublic class LayerTests { [Fact] public void F() { "
                "Types.InAssembly(typeof(Order).Assembly); "
                "Types.InAssembly(typeof(Home).Assembly); } }\n"
            ),
        },
    )
    found = infer(tmp_path, Options(offline=True))
    # Web brings Domain, but the rules load each assembly: both are named
    assert _projects(found, "tests/Arch.Tests/Arch.Tests.csproj") == [
        "src/Domain/Domain.csproj",
        "src/Web/Web.csproj",
    ]
    # NetArchTest's custom rules take Mono.Cecil types: the package brings it
    names = manifest_names(found, "tests/Arch.Tests/Arch.Tests.csproj")
    assert "NetArchTest.Rules" in names and "Mono.Cecil" not in names


def test_an_application_is_not_referenced_for_a_call_named_like_its_extension_method(tmp_path):
    exe = EXE
    write_tree(
        tmp_path,
        {
            "a/HostA/HostA.csproj": exe,
            "a/HostA/Extensions.cs": (
                "namespace Shared.Hosting;\npublic static class Extensions {\n"
                "  public static T WithReference<T>(this T b, string n) => b; }\n"
            ),
            "b/HostB/HostB.csproj": exe,
            "b/HostB/Program.cs": (
                'using Shared.Hosting;\nvar x = new object().WithReference("db");\n'
            ),
            "b/HostB.Tests/HostB.Tests.csproj": LIB,
            "b/HostB.Tests/T.cs": (
                "using Shared.Hosting;\npublic class T { object F() => "
                'new object().WithReference("db"); }\n'
            ),
        },
    )
    found = infer(tmp_path, Options(offline=True))
    assert _projects(found, "b/HostB/HostB.csproj") == []


def test_a_central_flag_with_no_version_list_manages_nothing(tmp_path):
    write_tree(
        tmp_path,
        {
            "Directory.Build.props": (
                '<Project><PropertyGroup><ManagePackageVersionsCentrally Condition="Exists('
                "'$(MSBuildThisFileDirectory)Directory.Packages.props')\">true"
                "</ManagePackageVersionsCentrally></PropertyGroup></Project>"
            ),
            "Lib.Tests/Lib.Tests.csproj": LIB,
            "Lib.Tests/T.cs": "using Xunit;\npublic class T { [Fact] public void F() {} }\n",
        },
    )
    found = infer(tmp_path, Options(offline=True))
    names = manifest_names(found, "Lib.Tests/Lib.Tests.csproj")
    assert {"xunit", "Microsoft.NET.Test.Sdk", "xunit.runner.visualstudio"} <= set(names)


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


def test_an_extension_call_goes_to_the_overload_taking_that_many_arguments(tmp_path):
    write_tree(
        tmp_path,
        {
            "Core/Core.csproj": LIB,
            "Core/Ext.cs": ("namespace Kit;\npublic class Builder { public int Make() => 0; }\n"),
            "Seeds/Seeds.csproj": LIB,
            "Seeds/SeedExt.cs": (
                "namespace Kit;\npublic static class SeedExt {\n"
                "  public static int Make(this Builder b, int seed) => seed; }\n"
            ),
            "App/App.csproj": LIB,
            "App/Use.cs": ("using Kit;\npublic class Use { int F(Builder b) => b.Make(); }\n"),
        },
    )
    found = infer(tmp_path, Options(offline=True))
    assert _projects(found, "App/App.csproj") == ["Core/Core.csproj"]


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
    assert _projects(found, "App/App.csproj") == ["Kit/Kit.csproj"]


def test_a_centrally_listed_test_sdk_stays_on_the_testing_platform(tmp_path):
    copy_fixture("csharp", "mtpextensions", tmp_path / "r")
    props = tmp_path / "r" / "Directory.Packages.props"
    text = props.read_text()
    props.write_text(
        text.replace(
            "</ItemGroup>",
            '  <PackageVersion Include="Microsoft.NET.Test.Sdk" Version="17.14.1" />\n  </ItemGroup>',
            1,
        )
    )
    result = infer(tmp_path / "r", Options(offline=True))
    assert "Microsoft.NET.Test.Sdk" in manifest_names(result, "tests/Calc.Tests/Calc.Tests.csproj")


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
            "App/App.csproj": LIB,
            "App/Use.cs": ("using Kit.Gen;\npublic class Use { string T = Template.Text; }\n"),
        },
    )
    found = infer(tmp_path, Options(offline=True))
    (ref,) = [r for r in found.requirements if r.manifest == "App/App.csproj" and r.internal]
    assert ref.path == "Gen/Gen.csproj" and dep_facts(ref).analyzer


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
            "Core/Core.csproj": LIB,
            "Core/Thing.cs": "namespace Kit;\npublic class Thing {}\n",
            "Extra/Extra.csproj": LIB,
            "Extra/More.cs": "namespace Kit.Extra;\npublic class More : Kit.Thing {}\n",
        },
    )
    found = infer(tmp_path, Options(offline=True))
    # Extra references Core, yet the SBOM tool works in each package's own pack
    assert manifest_names(found, "Core/Core.csproj") == ["Microsoft.Sbom.Targets"]
    assert manifest_names(found, "Extra/Extra.csproj") == ["Microsoft.Sbom.Targets"]


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


def test_a_sibling_released_on_its_own_version_line_is_taken_as_its_package(tmp_path):
    write_tree(
        tmp_path,
        {
            "src/Kit.Contracts/Kit.Contracts.csproj": (
                '<Project Sdk="Microsoft.NET.Sdk"><PropertyGroup><TargetFramework>'
                "netstandard2.0</TargetFramework><Version>2.0.1</Version></PropertyGroup>"
                "</Project>"
            ),
            "src/Kit.Contracts/IRequest.cs": "namespace Kit;\npublic interface IRequest {}\n",
            "src/Kit/Kit.csproj": (
                '<Project Sdk="Microsoft.NET.Sdk"><PropertyGroup><TargetFramework>'
                "net8.0</TargetFramework><MinVerTagPrefix>v</MinVerTagPrefix></PropertyGroup>"
                "</Project>"
            ),
            "src/Kit/Mediator.cs": (
                "namespace Kit;\npublic class Mediator { public void Send(IRequest r) {} }\n"
            ),
            "tests/Kit.Tests/Kit.Tests.csproj": LIB,
            "tests/Kit.Tests/T.cs": (
                "using Kit;\npublic class T { void F(Mediator m, IRequest r) => m.Send(r); }\n"
            ),
        },
    )
    found = infer(tmp_path, Options(offline=True))
    reqs = [r for r in found.requirements if r.manifest == "src/Kit/Kit.csproj"]
    assert [(r.name, r.spec, r.internal) for r in reqs if r.name != "MinVer"] == [
        ("Kit.Contracts", "2.0.1", False)
    ]
    # the tests get the contracts through Kit, as the package would bring them
    assert _projects(found, "tests/Kit.Tests/Kit.Tests.csproj") == ["src/Kit/Kit.csproj"]


def test_siblings_each_fixing_their_own_version_stay_project_references(tmp_path):
    def lib(version: str) -> str:
        return (
            '<Project Sdk="Microsoft.NET.Sdk"><PropertyGroup><TargetFramework>'
            f"netstandard2.0</TargetFramework><Version>{version}</Version></PropertyGroup>"
            "</Project>"
        )

    write_tree(
        tmp_path,
        {
            "src/Url/Url.csproj": lib("4.0.0"),
            "src/Url/Url.cs": "namespace Url;\npublic class Link {}\n",
            "src/Url.Http/Url.Http.csproj": lib("4.0.2"),
            "src/Url.Http/Client.cs": (
                "using Url;\nnamespace Url.Http;\npublic class Client { public Link L; }\n"
            ),
        },
    )
    found = infer(tmp_path, Options(offline=True))
    # one family released together by hand: no release line of its own for either
    assert manifest_names(found, "src/Url.Http/Url.Http.csproj") == []
    assert _projects(found, "src/Url.Http/Url.Http.csproj") == ["src/Url/Url.csproj"]


def test_a_nested_class_named_like_a_package_is_no_qualified_use(tmp_path):
    write_tree(
        tmp_path,
        {
            "Directory.Packages.props": (
                "<Project><PropertyGroup><ManagePackageVersionsCentrally>true"
                "</ManagePackageVersionsCentrally></PropertyGroup><ItemGroup>"
                '<PackageVersion Include="Hangfire.Core" Version="1.8.20" /></ItemGroup></Project>'
            ),
            "src/Perms/Perms.csproj": LIB,
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


def test_roslyn_testing_packages_are_told_apart_by_the_test_type(tmp_path):
    write_tree(
        tmp_path,
        {
            "tests/Fix.Tests/Fix.Tests.csproj": LIB,
            "tests/Fix.Tests/T.cs": (
                "using Microsoft.CodeAnalysis.CSharp.Testing;\nusing Microsoft.CodeAnalysis.Testing;\n"
                "using Xunit;\npublic class T {\n"
                "  [Fact] public void F() { var t = new CSharpCodeFixTest<A, B, DefaultVerifier>(); }\n}\n"
            ),
        },
    )
    found = infer(tmp_path, Options(offline=True))
    names = manifest_names(found, "tests/Fix.Tests/Fix.Tests.csproj")
    # the code-fix harness, which brings the analyzer-testing base the other using names
    assert "Microsoft.CodeAnalysis.CSharp.CodeFix.Testing" in names
    assert "Microsoft.CodeAnalysis.CSharp.Analyzer.Testing" not in names
    assert "Microsoft.CodeAnalysis.Analyzer.Testing" not in names


def test_the_trx_report_extension_goes_to_mstest_and_nunit_projects_only(tmp_path):
    write_tree(
        tmp_path,
        {
            "Directory.Packages.props": (
                "<Project><PropertyGroup><ManagePackageVersionsCentrally>true"
                "</ManagePackageVersionsCentrally></PropertyGroup><ItemGroup>"
                '<PackageVersion Include="Microsoft.Testing.Extensions.TrxReport" Version="1.7.3" />'
                '<PackageVersion Include="NUnit" Version="4.3.2" />'
                '<PackageVersion Include="xunit.v3" Version="2.0.3" /></ItemGroup></Project>'
            ),
            "N.Tests/N.Tests.csproj": LIB,
            "N.Tests/T.cs": "using NUnit.Framework;\npublic class T { [Test] public void F() {} }\n",
            "X.Tests/X.Tests.csproj": LIB,
            "X.Tests/T.cs": "using Xunit;\npublic class T { [Fact] public void F() {} }\n",
            "F.Tests/F.Tests.csproj": LIB,
            "F.Tests/T.cs": "public class T { public void Should_work() {} }\n",
        },
    )
    found = infer(tmp_path, Options(offline=True))
    trx = "Microsoft.Testing.Extensions.TrxReport"
    assert trx in manifest_names(found, "N.Tests/N.Tests.csproj")
    # xunit v3 writes TRX itself; a framework the analysis cannot tell gets no guess
    assert trx not in manifest_names(found, "X.Tests/X.Tests.csproj")
    assert trx not in manifest_names(found, "F.Tests/F.Tests.csproj")


def test_the_scaffolding_tool_goes_to_mvc_apps_not_minimal_apis(tmp_path):
    web = WEB
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


def test_add_serilog_is_told_apart_by_its_receiver(tmp_path):
    console = EXE
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


def test_ef_core_tools_go_where_migrations_are_made(tmp_path):
    web = WEB
    write_tree(
        tmp_path,
        {
            "Data/Data.csproj": LIB,
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


def test_a_logging_provider_brings_the_logging_factory(tmp_path):
    exe = EXE
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
            "Data/Data.csproj": LIB,
            "Data/Setup.cs": (
                "using Microsoft.EntityFrameworkCore;\nnamespace Data;\n"
                "public static class Setup {\n"
                '  public static void Use(DbContextOptionsBuilder b) => b.UseNpgsql("x");\n}\n'
            ),
            "Catalog/Catalog.csproj": LIB,
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
    assert _projects(found, "Catalog/Catalog.csproj") == ["Data/Data.csproj"]
    assert "Microsoft.EntityFrameworkCore.Relational" not in manifest_names(
        found, "Catalog/Catalog.csproj"
    )


def test_a_grpc_client_package_brings_the_grpc_api(tmp_path):
    write_tree(
        tmp_path,
        {
            "Client/Client.csproj": LIB,
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
            "Audit/Audit.csproj": LIB,
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
