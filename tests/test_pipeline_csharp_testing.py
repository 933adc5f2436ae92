"""C# end to end: test projects get their test framework, runner and test SDK
(VSTest or the testing platform, xUnit v2/v3, TUnit, the platform extensions)."""

from __future__ import annotations

import pytest
from conftest import CSPROJ_LIB, FIXTURES, copy_fixture, manifest_names, write_tree

from depinfer.context import Options
from depinfer.pipeline import infer


def test_a_testing_platform_runner_project_needs_no_vstest_sdk():
    inference = infer(FIXTURES / "csharp" / "nunitrunner", Options(offline=True))
    names = manifest_names(inference, "tests/Parser.Tests/Parser.Tests.csproj")
    assert names == ["NUnit", "NUnit3TestAdapter"]


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


def test_a_program_named_like_a_test_with_no_test_in_it_gets_no_test_framework():
    # Greeter.AotTest is an executable smoke test (native AOT publish), not a test project:
    # the repository's dominant framework (xunit, from Greeter.Tests) is not pushed on it
    result = infer(FIXTURES / "csharp" / "smokeapp", Options(offline=True))
    assert manifest_names(result, "tests/Greeter.AotTest/Greeter.AotTest.csproj") == []
    assert "xunit" in manifest_names(result, "tests/Greeter.Tests/Greeter.Tests.csproj")


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
            "V2.Tests/V2.Tests.csproj": CSPROJ_LIB,
            "V2.Tests/T.cs": "using Xunit;\npublic class T { [Fact] public void F() {} }\n",
        },
    )
    found = infer(tmp_path, Options(offline=True))
    assert "xunit.v3.mtp-off" in manifest_names(found, "V3.Tests/V3.Tests.csproj")
    assert "xunit" not in manifest_names(found, "V3.Tests/V3.Tests.csproj")
    assert "xunit" in manifest_names(found, "V2.Tests/V2.Tests.csproj")


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


def test_roslyn_testing_packages_are_told_apart_by_the_test_type(tmp_path):
    write_tree(
        tmp_path,
        {
            "tests/Fix.Tests/Fix.Tests.csproj": CSPROJ_LIB,
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
            "N.Tests/N.Tests.csproj": CSPROJ_LIB,
            "N.Tests/T.cs": "using NUnit.Framework;\npublic class T { [Test] public void F() {} }\n",
            "X.Tests/X.Tests.csproj": CSPROJ_LIB,
            "X.Tests/T.cs": "using Xunit;\npublic class T { [Fact] public void F() {} }\n",
            "F.Tests/F.Tests.csproj": CSPROJ_LIB,
            "F.Tests/T.cs": "public class T { public void Should_work() {} }\n",
        },
    )
    found = infer(tmp_path, Options(offline=True))
    trx = "Microsoft.Testing.Extensions.TrxReport"
    assert trx in manifest_names(found, "N.Tests/N.Tests.csproj")
    # xunit v3 writes TRX itself; a framework the analysis cannot tell gets no guess
    assert trx not in manifest_names(found, "X.Tests/X.Tests.csproj")
    assert trx not in manifest_names(found, "F.Tests/F.Tests.csproj")
