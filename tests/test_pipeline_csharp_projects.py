"""C# end to end: which of the repository's own projects each project references
(project references by type use, layers, test subjects, shared and sibling projects)."""

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

from depinfer.context import Options
from depinfer.facts.csharp import CsDepFacts, dep_facts
from depinfer.pipeline import infer


@pytest.fixture(scope="module")
def layers():
    return infer(FIXTURES / "csharp" / "layers", Options(offline=True))


def test_a_transitive_project_is_repeated_only_when_used_more_than_its_carrier(layers):
    # Web uses Application's types more than Domain's: Domain flows through Application
    assert manifest_projects(layers, "src/Layers.Web/Layers.Web.csproj") == [
        "src/Layers.Application/Layers.Application.csproj"
    ]
    # Worker is written against Domain and only calls one Application service: both listed
    assert manifest_projects(layers, "src/Layers.Worker/Layers.Worker.csproj") == [
        "src/Layers.Application/Layers.Application.csproj",
        "src/Layers.Domain/Layers.Domain.csproj",
    ]


def test_all_evidence_keeps_every_used_project_unreduced():
    # the evidence ceiling: Web uses Domain too, so Domain is written beside Application
    inference = infer(FIXTURES / "csharp" / "layers", Options(offline=True, all_evidence=True))
    assert manifest_projects(inference, "src/Layers.Web/Layers.Web.csproj") == [
        "src/Layers.Application/Layers.Application.csproj",
        "src/Layers.Domain/Layers.Domain.csproj",
    ]


def test_a_pascal_case_test_project_names_its_subject_and_the_layers_it_uses_more(layers):
    # named after Web, written against Application and Domain: Web carries both, but the
    # tests use each more than Web, so each is named, as an application project would
    manifest = "tests/Layers.WebIntegrationTests/Layers.WebIntegrationTests.csproj"
    assert manifest_projects(layers, manifest) == [
        "src/Layers.Application/Layers.Application.csproj",
        "src/Layers.Domain/Layers.Domain.csproj",
        "src/Layers.Web/Layers.Web.csproj",
    ]
    assert "Microsoft.NET.Test.Sdk" in manifest_names(layers, manifest)


def test_unit_tests_named_after_no_project_list_each_layer_they_use_most(layers):
    # `Layers.UnitTests` names no project: it uses Domain more than Application (which
    # brings Domain), so both are listed, as an application project would
    assert manifest_projects(layers, "tests/Layers.UnitTests/Layers.UnitTests.csproj") == [
        "src/Layers.Application/Layers.Application.csproj",
        "src/Layers.Domain/Layers.Domain.csproj",
    ]


def test_a_test_project_holding_only_global_usings_references_nothing(layers):
    manifest = "tests/Layers.Domain.IntegrationTests/Layers.Domain.IntegrationTests.csproj"
    assert manifest_projects(layers, manifest) == []
    assert "Microsoft.NET.Test.Sdk" in manifest_names(layers, manifest)


def test_a_type_only_one_project_declares_is_found_through_the_enclosing_namespace(layers):
    assert manifest_projects(layers, "tools/Layers.Benchmarks/Layers.Benchmarks.csproj") == [
        "src/Layers.Domain/Layers.Domain.csproj"
    ]


def test_target_frameworks_rule_out_references_and_embedded_outputs_add_them(layers):
    # a net35 tool cannot reference net8.0 libraries, whatever names it shares with them
    assert manifest_projects(layers, "tools/Layers.Signal/Layers.Signal.csproj") == []
    # the library embeds the tool's build output, so it references it for build order
    assert "tools/Layers.Signal/Layers.Signal.csproj" in manifest_projects(
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
    assert manifest_projects(found, "src/Layers.Web/Layers.Web.csproj") == [
        "src/Layers.Application/Layers.Application.csproj",
        "src/Layers.Domain/Layers.Domain.csproj",
    ]


def test_a_sample_of_the_repositorys_own_package_does_not_list_its_dependencies():
    found = infer(FIXTURES / "csharp" / "ownpackage", Options(offline=True))
    # UseSerilog is Serilog.Extensions.Hosting's entry point too, but the referenced
    # project builds Serilog.AspNetCore, which depends on it
    assert manifest_names(found, "samples/Sample/Sample.csproj") == ["Serilog"]
    assert manifest_projects(found, "samples/Sample/Sample.csproj") == [
        "src/Serilog.AspNetCore/Serilog.AspNetCore.csproj"
    ]


def test_a_property_running_another_projects_build_output_references_it():
    inference = infer(FIXTURES / "csharp" / "buildoutput", Options(offline=True))
    assert manifest_projects(inference, "src/Lib.Tests/Lib.Tests.csproj") == ["src/Gen/Gen.csproj"]
    # built for its output, not its API: nothing of it is compiled against or flows on
    edit = next(e for e in inference.edits if e.path == "src/Lib.Tests/Lib.Tests.csproj")
    assert 'Gen.csproj" ReferenceOutputAssembly="false" />' in edit.new_text


def test_aspire_testing_projects_reference_their_apphost():
    inference = infer(FIXTURES / "csharp" / "aspiretests", Options(offline=True))
    manifest = "tests/Shop.AspireTests/Shop.AspireTests.csproj"
    assert manifest_projects(inference, manifest) == ["src/Shop.AppHost/Shop.AppHost.csproj"]
    assert "Aspire.Hosting.Testing" in manifest_names(inference, manifest)


def test_tests_name_their_subject_even_when_a_test_helper_project_brings_it():
    # tests/TestCommon (sources only in test folders) references Orders; Orders.Tests still
    # lists Orders, the project its name says it tests
    result = infer(FIXTURES / "csharp" / "testhelpers", Options(offline=True))
    assert manifest_projects(result, "tests/Orders.Tests/Orders.Tests.csproj") == [
        "src/Orders/Orders.csproj",
        "tests/TestCommon/TestCommon.csproj",
    ]


def test_a_project_outside_the_librarys_solution_takes_its_published_package():
    """samples/Samples.slnx builds the sample alone; the central list holds the library's
    own package ids: the sample references the package (the one that brings the other),
    while the tests, in the library's solution, reference the project."""
    found = infer(FIXTURES / "csharp" / "samplessolution", Options(offline=True))
    assert manifest_projects(found, "samples/Intro/Intro.csproj") == []
    assert manifest_names(found, "samples/Intro/Intro.csproj") == [
        "Acme.Extensions",
        "Microsoft.Extensions.DependencyInjection",
    ]
    assert manifest_projects(found, "tests/Acme.Core.Tests/Acme.Core.Tests.csproj") == [
        "src/Acme.Core/Acme.Core.csproj"
    ]


def test_sources_compiled_in_through_compile_include_are_the_projects_own():
    """Lib.Json.Tests compiles Lib.Tests' Samples.cs in: using Samples (by simple or
    qualified name) references nothing, and its target frameworks, written through
    nested properties, put System.Text.Json in the box."""
    found = infer(FIXTURES / "csharp" / "linkedsources", Options(offline=True))
    manifest = "tests/Lib.Json.Tests/Lib.Json.Tests.csproj"
    assert manifest_projects(found, manifest) == ["src/Lib/Lib.csproj"]
    # coverlet.collector: the declare model keeps the template's companion of an xunit
    # test project in a repository that publishes no packages
    assert manifest_names(found, manifest) == [
        "Microsoft.NET.Test.Sdk",
        "coverlet.collector",
        "xunit",
        "xunit.runner.visualstudio",
    ]
    # a shared-source folder no project owns, compiled in by one project only, is that
    # project's code: the tests using its type reference it
    assert manifest_projects(found, "tests/Rules.Tests/Rules.Tests.csproj") == [
        "src/Lib.Analyzers/Lib.Analyzers.csproj"
    ]


def test_a_namespace_the_repository_builds_is_not_its_published_package():
    # the index maps `Humanizer` to Humanizer.Core; this repository is that library
    found = infer(FIXTURES / "csharp" / "ownnamespace", Options(offline=True))
    manifest = "tests/Humanizer.Tests/Humanizer.Tests.csproj"
    assert "Humanizer.Core" not in manifest_names(found, manifest)
    assert manifest_projects(found, manifest) == ["src/Humanizer/Humanizer.csproj"]


def test_traversal_and_trimmer_roots_name_projects_without_code(tmp_path):
    write_tree(
        tmp_path,
        {
            "build/Build.csproj": '<Project Sdk="Microsoft.Build.Traversal/4.1.0"></Project>',
            "build/src/A/A.csproj": CSPROJ_LIB,
            "build/src/A/A.cs": "namespace A;\npublic class Alpha {}\n",
            "build/src/B/B.csproj": CSPROJ_LIB,
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
    assert manifest_projects(found, "build/Build.csproj") == [
        "build/src/A/A.csproj",
        "build/src/B/B.csproj",
        "build/tests/Aot/Aot.csproj",
    ]
    # B brings A, but a trimmer root is named by the project file: both are kept
    assert manifest_projects(found, "build/tests/Aot/Aot.csproj") == [
        "build/src/A/A.csproj",
        "build/src/B/B.csproj",
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
            "src/Domain/Domain.csproj": CSPROJ_LIB,
            "src/Domain/Order.cs": "namespace Shop.Domain;\npublic class Order {}\n",
            "src/Web/Web.csproj": CSPROJ_LIB,
            "src/Web/Home.cs": (
                "using Shop.Domain;\nnamespace Shop.Web;\n"
                "public class Home { public Order O = new Order(); }\n"
            ),
            "tests/Arch.Tests/Arch.Tests.csproj": CSPROJ_LIB,
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
    assert manifest_projects(found, "tests/Arch.Tests/Arch.Tests.csproj") == [
        "src/Domain/Domain.csproj",
        "src/Web/Web.csproj",
    ]
    # NetArchTest's custom rules take Mono.Cecil types: the package brings it
    names = manifest_names(found, "tests/Arch.Tests/Arch.Tests.csproj")
    assert "NetArchTest.Rules" in names and "Mono.Cecil" not in names


def test_an_application_is_not_referenced_for_a_call_named_like_its_extension_method(tmp_path):
    exe = CSPROJ_EXE
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
            "b/HostB.Tests/HostB.Tests.csproj": CSPROJ_LIB,
            "b/HostB.Tests/T.cs": (
                "using Shared.Hosting;\npublic class T { object F() => "
                'new object().WithReference("db"); }\n'
            ),
        },
    )
    found = infer(tmp_path, Options(offline=True))
    assert manifest_projects(found, "b/HostB/HostB.csproj") == []


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
            "tests/Kit.Tests/Kit.Tests.csproj": CSPROJ_LIB,
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
    assert manifest_projects(found, "tests/Kit.Tests/Kit.Tests.csproj") == ["src/Kit/Kit.csproj"]


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
    assert manifest_projects(found, "src/Url.Http/Url.Http.csproj") == ["src/Url/Url.csproj"]
