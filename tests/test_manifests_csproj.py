"""The .csproj / Directory.*.props reader and the by-position writer."""

from __future__ import annotations

import pytest

from depinfer.facts.csharp import CsDepFacts
from depinfer.manifests import ManifestError, csproj
from depinfer.model import Ecosystem, Manifest, Requirement

PROJECT = """<Project Sdk="Microsoft.NET.Sdk.Web">
  <PropertyGroup>
    <TargetFrameworks>net8.0;netstandard2.0</TargetFrameworks>
    <ImplicitUsings>enable</ImplicitUsings>
    <IsTestProject>true</IsTestProject>
  </PropertyGroup>
  <ItemGroup>
    <PackageReference Include="Serilog" Version="4.0.0" />
    <PackageReference Include="StyleCop.Analyzers">
      <PrivateAssets>all</PrivateAssets>
    </PackageReference>
    <ProjectReference Include="..\\Core\\Core.csproj" />
    <Using Include="Xunit" />
    <Compile Remove="Old/**" />
    <FrameworkReference Include="Microsoft.AspNetCore.App" />
  </ItemGroup>
</Project>
"""


def _manifest(text: str, path: str = "src/App/App.csproj", fmt: str = "csproj") -> Manifest:
    declared, data = csproj.read(text, path)
    return Manifest(path, Ecosystem.NUGET, fmt, declared=declared, data=data)


def _req(name: str, manifest: str = "src/App/App.csproj", **kw) -> Requirement:
    return Requirement(Ecosystem.NUGET, name, manifest, **kw)


def test_read_declares_references_and_project_facts():
    declared, data = csproj.read(PROJECT, "src/App/App.csproj")
    assert declared["PackageReference"] == ["Serilog", "StyleCop.Analyzers"]
    assert declared["ProjectReference"] == ["..\\Core\\Core.csproj"]
    assert data["sdk"] == "Microsoft.NET.Sdk.Web"
    assert data["target_frameworks"] == ["net8.0", "netstandard2.0"]
    assert data["implicit_usings"] and data["is_test_project"]
    assert data["package_reference_versions"]["Serilog"] == "4.0.0"
    assert data["private_assets"] == ["StyleCop.Analyzers"]
    assert data["usings"] == [{"namespace": "Xunit"}]
    assert data["compile_remove"] == ["Old/**"]
    assert data["framework_references"] == ["Microsoft.AspNetCore.App"]


def test_read_props_collects_central_versions():
    text = """<Project>
  <PropertyGroup><ManagePackageVersionsCentrally>true</ManagePackageVersionsCentrally></PropertyGroup>
  <ItemGroup>
    <PackageVersion Include="xunit" Version="2.9.3" />
    <GlobalPackageReference Include="MinVer" Version="6.0.0" />
  </ItemGroup>
</Project>"""
    declared, data = csproj.read(text, "Directory.Packages.props")
    assert declared["PackageVersion"] == ["xunit"]
    assert data["manage_package_versions_centrally"]
    assert data["package_versions"] == {"xunit": "2.9.3", "MinVer": "6.0.0"}
    assert data["global_package_references"] == ["MinVer"]


def test_broken_xml_is_a_manifest_error():
    with pytest.raises(ManifestError):
        csproj.read("<Project><ItemGroup></Project>", "a.csproj")
    with pytest.raises(ManifestError):
        csproj.read("<Other/>", "a.csproj")


def test_render_adds_package_and_project_groups_after_the_last_group():
    text = '<Project Sdk="Microsoft.NET.Sdk">\n\n  <PropertyGroup>\n    <X>1</X>\n  </PropertyGroup>\n\n</Project>\n'
    m = _manifest(text)
    reqs = [
        _req("Serilog", spec="4.3.0"),
        _req("Core", internal=True, path="src/Core/Core.csproj"),
        _req("Ardalis.GuardClauses", spec="5.0.0"),
    ]
    out = csproj.render(text, m, reqs)
    assert out == (
        '<Project Sdk="Microsoft.NET.Sdk">\n\n  <PropertyGroup>\n    <X>1</X>\n  </PropertyGroup>\n\n'
        "  <ItemGroup>\n"
        '    <PackageReference Include="Ardalis.GuardClauses" Version="5.0.0" />\n'
        '    <PackageReference Include="Serilog" Version="4.3.0" />\n'
        "  </ItemGroup>\n\n"
        "  <ItemGroup>\n"
        '    <ProjectReference Include="..\\Core\\Core.csproj" />\n'
        "  </ItemGroup>\n\n"
        "</Project>\n"
    )


def test_render_keeps_crlf_and_tabs_and_extends_existing_group():
    text = (
        '<Project Sdk="Microsoft.NET.Sdk">\r\n\t<ItemGroup>\r\n'
        '\t\t<PackageReference Include="Serilog" Version="4.0.0" />\r\n'
        "\t</ItemGroup>\r\n</Project>\r\n"
    )
    m = _manifest(text)
    out = csproj.render(text, m, [_req("serilog", spec="1"), _req("Polly", spec="8.6.1")])
    assert out == (
        '<Project Sdk="Microsoft.NET.Sdk">\r\n\t<ItemGroup>\r\n'
        '\t\t<PackageReference Include="Serilog" Version="4.0.0" />\r\n'
        '\t\t<PackageReference Include="Polly" Version="8.6.1" />\r\n'
        "\t</ItemGroup>\r\n</Project>\r\n"
    )


def test_render_central_management_and_private_assets():
    text = "<Project>\n  <PropertyGroup />\n</Project>\n"
    m = _manifest(text)
    out = csproj.render(
        text,
        m,
        [
            _req("xunit", spec="2.9.3", facts=CsDepFacts(central=True)),
            _req(
                "StyleCop.Analyzers",
                spec="1.1.118",
                facts=CsDepFacts(central=True, private_assets=True),
            ),
        ],
    )
    assert '<PackageReference Include="xunit" />' in out
    assert "Version=" not in out
    assert "<PrivateAssets>all</PrivateAssets>" in out


def test_render_props_adds_package_versions_once():
    text = '<Project>\n  <ItemGroup>\n    <PackageVersion Include="xunit" Version="2.9.3" />\n  </ItemGroup>\n</Project>\n'
    m = _manifest(text, "Directory.Packages.props", "props")
    out = csproj.render(
        text,
        m,
        [
            _req("xunit", "Directory.Packages.props", spec="9"),
            _req(
                "Moq",
                "Directory.Packages.props",
                spec="4.20.72",
                facts=CsDepFacts(package_version=True),
            ),
        ],
    )
    assert out.count("PackageVersion Include=") == 2
    assert '    <PackageVersion Include="Moq" Version="4.20.72" />\n  </ItemGroup>' in out


def test_render_follows_forward_slashes_when_the_file_uses_them():
    text = '<Project>\n  <ItemGroup>\n    <ProjectReference Include="../A/A.csproj" />\n  </ItemGroup>\n</Project>\n'
    m = _manifest(text, "src/B/B.csproj")
    out = csproj.render(
        text, m, [_req("C", "src/B/B.csproj", internal=True, path="src/C/C.csproj")]
    )
    assert '<ProjectReference Include="../C/C.csproj" />' in out


def test_comments_do_not_count_as_groups():
    text = '<Project>\n  <!-- <ItemGroup><PackageReference Include="X" /></ItemGroup> -->\n</Project>\n'
    m = _manifest(text)
    out = csproj.render(text, m, [_req("Polly", spec="8.6.1")])
    assert out.startswith(text.split("</Project>")[0])
    assert '<PackageReference Include="Polly" Version="8.6.1" />' in out


def test_packages_only_some_frameworks_need_go_in_a_conditional_group():
    text = "<Project>\n  <PropertyGroup />\n</Project>\n"
    m = _manifest(text)
    out = csproj.render(
        text,
        m,
        [
            _req("System.Memory", spec="4.6.3", facts=CsDepFacts(tfms=("netstandard2.0",))),
            _req("Polly", spec="8.6.1"),
        ],
    )
    assert (
        "  <ItemGroup Condition=\"'$(TargetFramework)' == 'netstandard2.0'\">\n"
        '    <PackageReference Include="System.Memory" Version="4.6.3" />\n'
        "  </ItemGroup>\n"
    ) in out
    assert out.index("Polly") < out.index("System.Memory")


def test_groups_inside_targets_are_not_the_projects_own():
    text = (
        "<Project>\n  <PropertyGroup />\n"
        '  <Target Name="X">\n    <ItemGroup>\n      <PackageReference Include="A" />\n'
        "    </ItemGroup>\n  </Target>\n</Project>\n"
    )
    m = _manifest(text)
    out = csproj.render(text, m, [_req("Polly", spec="8.6.1")])
    assert out == (
        "<Project>\n  <PropertyGroup />\n\n  <ItemGroup>\n"
        '    <PackageReference Include="Polly" Version="8.6.1" />\n  </ItemGroup>\n'
        '  <Target Name="X">\n    <ItemGroup>\n      <PackageReference Include="A" />\n'
        "    </ItemGroup>\n  </Target>\n</Project>\n"
    )


def test_read_notes_items_taken_from_another_projects_build_output():
    text = (
        '<Project Sdk="Microsoft.NET.Sdk"><ItemGroup>'
        '<EmbeddedResource Include="..\\Tool\\bin\\$(Configuration)\\net35\\Tool.exe" />'
        '<None Include="../favicon.png" Pack="true" />'
        '<Content Include="$(OutDir)/bin/x.dll" />'
        "</ItemGroup></Project>"
    )
    _, data = csproj.read(text, "Lib/Lib.csproj")
    assert data["output_items"] == ["..\\Tool\\bin\\$(Configuration)\\net35\\Tool.exe"]


def test_read_item_definition_defaults_for_package_references():
    text = (
        "<Project><ItemDefinitionGroup><PackageReference>"
        "<PrivateAssets>Compile</PrivateAssets>"
        "</PackageReference></ItemDefinitionGroup></Project>"
    )
    _, data = csproj.read(text, "Directory.Packages.props")
    assert data["package_private_assets_default"] == "Compile"


def test_read_tells_old_format_projects_and_their_dll_references():
    old = (
        '<Project ToolsVersion="4.0" xmlns="http://schemas.microsoft.com/developer/msbuild/2003">'
        "<ItemGroup>"
        '<Reference Include="nunit.framework, Version=2.5.0.9122, Culture=neutral">'
        "<HintPath>..\\lib\\nunit.framework.dll</HintPath></Reference>"
        '<Reference Include="System" />'
        "</ItemGroup></Project>"
    )
    _, data = csproj.read(old, "A/A.csproj")
    assert data["sdk_style"] is False
    assert data["hinted_references"] == ["nunit.framework"]
    _, data = csproj.read('<Project Sdk="Microsoft.NET.Sdk" />', "B/B.csproj")
    assert data["sdk_style"] is True
    _, data = csproj.read('<Project><Import Project="Sdk.props" Sdk="X" /></Project>', "C.csproj")
    assert data["sdk_style"] is True


def test_read_properties_pointing_into_another_projects_build_output():
    text = """<Project Sdk="Microsoft.NET.Sdk">
  <PropertyGroup>
    <TargetFramework>net8.0</TargetFramework>
    <GenTool>$(MSBuildProjectDirectory)\\..\\Gen\\bin\\$(Configuration)\\$(TargetFramework)\\Gen.dll</GenTool>
    <OutputPath>$(SolutionDir)bin\\</OutputPath>
  </PropertyGroup>
</Project>
"""
    _, data = csproj.read(text, "src/Tests/Tests.csproj")
    assert data["output_items"] == ["..\\Gen\\bin\\$(Configuration)\\$(TargetFramework)\\Gen.dll"]
