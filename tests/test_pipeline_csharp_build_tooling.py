"""C# build tooling from build evidence (data/csharp/build_evidence.json): Source Link from
Directory.Build.props, coverlet from CI or a runsettings file, analyzers from the rule ids
an .editorconfig enforces or from the rule set a project names, .NET Framework reference
assemblies for Linux CI."""

from __future__ import annotations

from types import SimpleNamespace

from conftest import CSPROJ_LIB, FIXTURES, copy_fixture, manifest_names, write_tree

from depinfer.context import Options
from depinfer.pipeline import infer
from depinfer.rules.csharp_build import build_rules, ruleset_of

LIB = "src/Shapes/Shapes.csproj"
TESTS = "tests/Shapes.Tests/Shapes.Tests.csproj"
DEMO = "samples/Demo/Demo.csproj"
SOURCELINK = "Microsoft.SourceLink.GitHub"


def _names(root, manifest):
    return set(manifest_names(infer(root, Options(offline=True)), manifest))


NUNIT_TESTS = """using NUnit.Framework;
using Shapes;

namespace Shapes.Tests;

public class CircleTests
{
    [Test]
    public void Area_of_unit_circle_is_pi() => Assert.That(new Circle(1).Area, Is.EqualTo(System.Math.PI));
}
"""


def _nunit_tests(root):
    """The fixture's test project on NUnit: a framework whose test projects the corpus
    mostly leaves without the template's coverlet.collector (the declare model drops it)."""
    (root / "tests/Shapes.Tests/CircleTests.cs").write_text(NUNIT_TESTS)
    return root


def _rule_of(inference, manifest, name):
    return next(
        e.rule
        for r in inference.requirements
        if r.manifest == manifest and r.name == name
        for e in r.evidence
    )


def test_sourcelink_coverlet_and_analyzers_from_build_evidence(tmp_path):
    root = copy_fixture("csharp", "buildtooling", tmp_path / "repo")
    inference = infer(root, Options(offline=True))
    lib = set(manifest_names(inference, LIB))
    tests = set(manifest_names(inference, TESTS))
    demo = set(manifest_names(inference, DEMO))
    # Directory.Build.props publishes the repository URL, the repository is on GitHub and
    # global.json pins an SDK older than 8: the packable library gets Source Link
    assert SOURCELINK in lib and SOURCELINK not in tests | demo
    assert _rule_of(inference, LIB, SOURCELINK) == "rule:build-evidence:properties"
    # CI collects "XPlat Code Coverage": the test project gets the collector
    assert "coverlet.collector" in tests and "coverlet.collector" not in lib
    # .editorconfig enforces RCS (warning) and xUnit (error) rules; SA is off, MA only a
    # suggestion: neither StyleCop nor Meziantou is added
    assert "Roslynator.Analyzers" in lib & tests & demo
    assert "xunit.analyzers" in tests and "xunit.analyzers" not in lib
    assert not {"StyleCop.Analyzers", "Meziantou.Analyzer"} & (lib | tests | demo)


def test_no_sourcelink_when_the_sdk_brings_it(tmp_path):
    root = copy_fixture("csharp", "buildtooling", tmp_path / "repo")
    (root / "global.json").write_text('{"sdk": {"version": "8.0.100"}}')
    assert SOURCELINK not in _names(root, LIB)
    (root / "global.json").unlink()  # with no SDK pinned the evidence decides…
    assert SOURCELINK in _names(root, LIB)
    # …unless a target needs an SDK that brings Source Link (net8.0 builds with SDK 8+)
    csproj = root / "samples" / "Demo" / "Demo.csproj"
    csproj.write_text(csproj.read_text().replace("net7.0", "net8.0"))
    assert SOURCELINK not in _names(root, LIB)


def test_no_sourcelink_off_github(tmp_path):
    root = copy_fixture("csharp", "buildtooling", tmp_path / "repo")
    for f in sorted((root / ".github").rglob("*"), reverse=True):
        f.unlink() if f.is_file() else f.rmdir()
    (root / ".github").rmdir()
    assert SOURCELINK not in _names(root, LIB)


def test_coverlet_from_a_runsettings_file(tmp_path):
    root = _nunit_tests(copy_fixture("csharp", "buildtooling", tmp_path / "repo"))
    (root / ".github" / "workflows" / "ci.yml").write_text("jobs: {}\n")
    assert "coverlet.collector" not in _names(root, TESTS)
    (root / "coverage.runsettings").write_text(
        "<RunSettings><DataCollectionRunSettings><DataCollectors>"
        '<DataCollector friendlyName="XPlat code coverage" /></DataCollectors>'
        "</DataCollectionRunSettings></RunSettings>"
    )
    assert "coverlet.collector" in _names(root, TESTS)


def test_reference_assemblies_for_net_framework_on_linux_ci_with_an_old_sdk(tmp_path):
    files = {
        "Lib/Lib.csproj": CSPROJ_LIB.replace(
            "<TargetFramework>net8.0</TargetFramework>",
            "<TargetFrameworks>net472;netstandard2.0</TargetFrameworks>",
        ),
        "Lib/A.cs": "namespace Lib; public class A {}",
        ".github/workflows/ci.yml": "jobs:\n  build:\n    runs-on: ubuntu-latest\n",
        "global.json": '{"sdk": {"version": "3.1.426"}}',
    }
    root = write_tree(tmp_path, files)
    assert "net472" in (root / "Lib/Lib.csproj").read_text()
    assert "Microsoft.NETFramework.ReferenceAssemblies" in _names(root, "Lib/Lib.csproj")
    # the .NET 5 SDK onwards references them itself, and an unpinned SDK is such a one
    (root / "global.json").write_text('{"sdk": {"version": "8.0.100"}}')
    assert "Microsoft.NETFramework.ReferenceAssemblies" not in _names(root, "Lib/Lib.csproj")
    (root / "global.json").unlink()
    assert "Microsoft.NETFramework.ReferenceAssemblies" not in _names(root, "Lib/Lib.csproj")


def test_every_build_rule_names_its_evidence_and_source():
    rules = build_rules()
    assert {r["evidence"] for r in rules} == {
        "properties",
        "runsettings",
        "rule_ids",
        "ruleset",
        "netfx_on_unix_ci",
    }
    prefixes = {r["prefix"]: r["package"] for r in rules if r["evidence"] == "rule_ids"}
    assert prefixes == {
        "RCS": "Roslynator.Analyzers",
        "IDISP": "IDisposableAnalyzers",
        "NUnit": "NUnit.Analyzers",
        "xUnit": "xunit.analyzers",
        "SA": "StyleCop.Analyzers",
        "MA": "Meziantou.Analyzer",
        "VSTHRD": "Microsoft.VisualStudio.Threading.Analyzers",
    }
    analyzer_ids = {r["analyzer_id"]: r["package"] for r in rules if r["evidence"] == "ruleset"}
    assert analyzer_ids == {
        "StyleCop.Analyzers": "StyleCop.Analyzers",
        "SonarAnalyzer.CSharp": "SonarAnalyzer.CSharp",
        "Roslynator.CSharp.Analyzers": "Roslynator.Analyzers",
    }
    assert all(r["source"] for r in rules)


def test_coverlet_for_a_test_project_written_from_the_dotnet_new_template(tmp_path):
    root = _nunit_tests(copy_fixture("csharp", "buildtooling", tmp_path / "repo"))
    (root / ".github" / "workflows" / "ci.yml").write_text("jobs: {}\n")
    assert "coverlet.collector" not in _names(root, TESTS)
    # the `dotnet new xunit|nunit|mstest` templates set IsTestProject and reference the
    # collector; a project keeping the property was written from one
    csproj = root / TESTS
    text = csproj.read_text()
    csproj.write_text(
        text.replace("</PropertyGroup>", "<IsTestProject>true</IsTestProject></PropertyGroup>", 1)
    )
    assert "coverlet.collector" in _names(root, TESTS)
    assert "coverlet.collector" not in _names(root, LIB)


def test_analyzers_from_the_rule_set_a_project_names():
    # lint/team.ruleset configures StyleCop and Sonar rules (even when none is enforced);
    # Billing names it with a relative path, Billing.Web through $(MSBuildProjectDirectory);
    # Seed names no rule set; the .NET analyzers the rule set also configures ship with
    # the SDK and get no package
    inference = infer(FIXTURES / "csharp" / "rulesetanalyzers", Options(offline=True))
    analyzers = {"StyleCop.Analyzers", "SonarAnalyzer.CSharp"}
    for manifest in ("src/Billing/Billing.csproj", "src/Billing.Web/Billing.Web.csproj"):
        assert analyzers <= set(manifest_names(inference, manifest))
        assert _rule_of(inference, manifest, "StyleCop.Analyzers") == (
            "rule:build-evidence:ruleset"
        )
    assert not analyzers & set(manifest_names(inference, "tools/Seed/Seed.csproj"))
    assert not any(
        "NetAnalyzers" in n for n in manifest_names(inference, "src/Billing/Billing.csproj")
    )


def test_ruleset_paths_resolve_as_msbuild_reads_them():
    rulesets = {"lint/team.ruleset": frozenset({"stylecop.analyzers"})}

    def project(value: str) -> SimpleNamespace:  # what ruleset_of reads of a CsProject
        return SimpleNamespace(directory="src/A", properties={"CodeAnalysisRuleSet": value})

    assert ruleset_of(project(r"..\..\lint\team.ruleset"), rulesets) == "lint/team.ruleset"
    assert ruleset_of(project("/lint/team.ruleset"), rulesets) == "lint/team.ruleset"
    # a folder property depinfer cannot read: the only rule set of that name
    assert ruleset_of(project("$(SolutionDir)lint/Team.ruleset"), rulesets) == "lint/team.ruleset"
    assert ruleset_of(project("other.ruleset"), rulesets) is None
    assert ruleset_of(project(""), rulesets) is None
