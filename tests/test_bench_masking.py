"""Masking removes exactly the benchmark's dependency sections and lock files, on a copy."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import BENCH_TREES, copy_fixture, write_tree

from depinfer.bench.masking import mask, mask_csproj
from depinfer.bench.sections import read_deps


def copy(tmp_path: Path, language: str, ident: str) -> Path:
    """A copy of the benchmark tree fixtures/bench/trees/<language>/<ident> in tmp_path."""
    return copy_fixture(f"bench/trees/{language}", ident, tmp_path / ident)


def names(result, path: str) -> list[str]:
    return sorted(d.name for d in result.gold[path])


def test_pep621_dependencies_emptied_rest_kept(tmp_path: Path) -> None:
    root = copy(tmp_path, "python", "acme__pep621")
    before = (root / "pyproject.toml").read_text()
    result = mask(root, "python", ["pyproject.toml", "requirements.txt"])
    assert result.errors == []
    assert names(result, "pyproject.toml") == ["pyyaml", "requests", "typing-extensions"]
    assert names(result, "requirements.txt") == ["pyyaml", "requests"]
    after = (root / "pyproject.toml").read_text()
    assert "dependencies = []" in after
    # everything outside the masked array is byte-identical
    assert before.split("dependencies = [")[0] == after.split("dependencies = []")[0]
    assert after.endswith('[project.optional-dependencies]\ntest = ["pytest"]\n')
    assert (root / "requirements.txt").read_text() == ""
    assert (root / "extra.txt").read_text() == "numpy\n"  # not a masked build file
    assert result.deleted == ["uv.lock"] and not (root / "uv.lock").exists()
    # the source tree is untouched
    assert (BENCH_TREES / "python" / "acme__pep621" / "uv.lock").exists()


def test_gold_keeps_versions_and_markers_out_of_the_name(tmp_path: Path) -> None:
    root = copy(tmp_path, "python", "acme__pep621")
    result = mask(root, "python", ["pyproject.toml"])
    by_name = {d.name: d for d in result.gold["pyproject.toml"]}
    assert by_name["requests"].version == ">=2.31"
    assert by_name["pyyaml"].raw == "PyYAML"


def test_poetry_reduced_to_python(tmp_path: Path) -> None:
    root = copy(tmp_path, "python", "acme__poetry")
    result = mask(root, "python", ["pyproject.toml"])
    assert names(result, "pyproject.toml") == ["markdown-it-py", "pygments"]
    pyg = next(d for d in result.gold["pyproject.toml"] if d.name == "pygments")
    assert pyg.version == "^2.13.0" and pyg.features == ("plugins",)
    text = (root / "pyproject.toml").read_text()
    assert 'python = "^3.10"' in text and "markdown-it-py" not in text
    assert '[tool.poetry.group.dev.dependencies]\npytest = "^8"' in text
    assert result.deleted == ["poetry.lock"]


def test_cargo_dependencies_emptied_header_kept(tmp_path: Path) -> None:
    root = copy(tmp_path, "rust", "acme__workspace")
    result = mask(root, "rust", ["Cargo.toml", "crates/core/Cargo.toml"])
    assert result.errors == []
    assert names(result, "Cargo.toml") == ["acme_core", "anyhow", "serde", "tokio"]
    gold = {d.name: d for d in result.gold["Cargo.toml"]}
    assert gold["serde"].features == ("derive",)
    assert gold["acme_core"].kind == "project"
    assert gold["tokio"].version == "1"
    text = (root / "Cargo.toml").read_text()
    assert "[dependencies]" in text and "[dependencies.tokio]" not in text
    assert '[dev-dependencies]\ntempfile = "3"' in text
    assert "[target.'cfg(unix)'.dependencies]\nlibc = \"0.2\"" in text
    assert names(result, "crates/core/Cargo.toml") == ["regex"]
    assert "[features]\ndefault = []" in (root / "crates/core/Cargo.toml").read_text()
    assert result.deleted == ["Cargo.lock"]


def test_package_json_dependencies_deleted(tmp_path: Path) -> None:
    root = copy(tmp_path, "javascript", "acme__web")
    result = mask(root, "javascript", ["package.json"])
    assert names(result, "package.json") == ["express", "lodash"]
    text = (root / "package.json").read_text()
    assert '"dependencies"' not in text
    assert '  "devDependencies": {\n    "eslint": "^9.0.0"\n  }' in text
    assert text.endswith("}\n")
    assert result.deleted == ["package-lock.json"]


def test_csproj_reference_groups_deleted_textually(tmp_path: Path) -> None:
    root = copy(tmp_path, "csharp", "acme__app")
    before = (root / "src/App/App.csproj").read_text()
    result = mask(root, "csharp", ["src/App/App.csproj", "src/Lib/Lib.csproj"])
    assert result.errors == []
    gold = {d.name: d for d in result.gold["src/App/App.csproj"]}
    assert sorted(gold) == ["newtonsoft.json", "serilog", "src/lib/lib.csproj"]
    assert gold["serilog"].version == "3.1.1"
    assert gold["src/lib/lib.csproj"].kind == "project"
    after = (root / "src/App/App.csproj").read_text()
    assert "PackageReference" not in after and "ProjectReference" not in after
    assert '<Compile Remove="Generated\\**" />' in after
    assert "<!-- packages: <ItemGroup> in a comment is not an element -->" in after
    # the PropertyGroup part is byte-identical
    assert after.startswith(before.split("  <!--")[0])
    assert read_deps((root / "src/Lib/Lib.csproj").read_text(), "src/Lib/Lib.csproj") == []
    assert result.deleted == ["src/App/packages.lock.json"]


def test_csproj_mask_keeps_crlf_and_other_groups() -> None:
    text = (
        "<Project>\r\n  <ItemGroup>\r\n    <None Include='a' />\r\n  </ItemGroup>\r\n"
        "  <ItemGroup>\r\n    <PackageReference Include='X' />\r\n  </ItemGroup>\r\n</Project>\r\n"
    )
    assert mask_csproj(text) == (
        "<Project>\r\n  <ItemGroup>\r\n    <None Include='a' />\r\n  </ItemGroup>\r\n</Project>\r\n"
    )


@pytest.mark.parametrize(
    ("rel", "content"),
    [("pyproject.toml", "[project\nname="), ("package.json", "{"), ("A.csproj", "<Project>")],
)
def test_broken_build_file_is_reported_not_masked(tmp_path: Path, rel: str, content: str) -> None:
    (tmp_path / rel).write_text(content)
    result = mask(tmp_path, "python", [rel])
    assert result.errors and rel in result.errors[0]
    assert (tmp_path / rel).read_text() == content


def test_missing_build_file_is_reported(tmp_path: Path) -> None:
    result = mask(tmp_path, "rust", ["Cargo.toml"])
    assert result.errors == ["Cargo.toml: build file not found"]


def test_aliases_and_local_specs() -> None:
    cargo = '[dependencies]\nschemars_0_8 = { package = "schemars", version = "0.8" }\n'
    (dep,) = read_deps(cargo, "Cargo.toml")
    assert (dep.name, dep.package) == ("schemars_0_8", "schemars")
    pkg = '{"dependencies": {"a": "workspace:*", "b": "npm:@x/real@^1", "c": "^2"}}'
    deps = {d.name: d for d in read_deps(pkg, "package.json")}
    assert deps["a"].kind == "project"
    assert deps["b"].package == "@x/real" and deps["b"].kind == "package"
    assert deps["c"].kind == "package" and deps["c"].package == ""


def test_cargo_masking_empties_dependency_sub_tables_placed_after_other_tables():
    from depinfer.bench.masking import mask_cargo

    text = (
        "[package]\nname = 'x'\nversion = '0.1.0'\n\n"
        "[dependencies]\nserde = '1'\n\n"
        "[target.'cfg(unix)'.dependencies]\nlibc = '0.2'\n\n"
        "[dependencies.clap]\nversion = '4'\nfeatures = [\n  'derive',\n]\n\n"
        "[dev-dependencies]\ninsta = '1'\n"
    )
    masked = mask_cargo(text)
    assert "serde" not in masked and "clap" not in masked and "derive" not in masked
    assert "[dependencies]" in masked
    assert "libc = '0.2'" in masked and "insta = '1'" in masked


ROOTED = {
    "Repo.slnx": "<Solution />",
    "props/Common.props": (
        "<Project><PropertyGroup><RepoRoot>$([System.IO.Directory]::GetParent("
        "$(MSBuildThisFileDirectory)).Parent.FullName)</RepoRoot></PropertyGroup>"
        '<ItemGroup><Using Include="System.Net.Http" /></ItemGroup></Project>'
    ),
    "test/Directory.Build.props": (
        '<Project><Import Project="$([MSBuild]::GetDirectoryNameOfFileAbove('
        "$(MSBuildProjectDirectory), 'Repo.slnx'))\\props\\Common.props\" /></Project>"
    ),
    "src/A/A.csproj": '<Project Sdk="Microsoft.NET.Sdk"></Project>',
    "test/A.Tests/A.Tests.csproj": (
        '<Project Sdk="Microsoft.NET.Sdk"><ItemGroup>'
        '<ProjectReference Include="$(RepoRoot)\\src\\A\\A.csproj" />'
        "</ItemGroup></Project>"
    ),
}


def test_project_references_through_msbuild_properties_are_scored_as_their_target(
    tmp_path: Path,
) -> None:
    write_tree(tmp_path, ROOTED)
    result = mask(tmp_path, "csharp", ["test/A.Tests/A.Tests.csproj"])
    assert names(result, "test/A.Tests/A.Tests.csproj") == ["src/a/a.csproj"]


def test_imports_found_with_property_functions_bring_their_usings(tmp_path: Path) -> None:
    from depinfer.analyzers.csharp_layout import build_layout
    from depinfer.scan import scan

    write_tree(tmp_path, ROOTED)
    layout = {cs.path: cs for cs in build_layout(scan(tmp_path))}
    tests = layout["test/A.Tests/A.Tests.csproj"]
    assert tests.properties["RepoRoot"] == "/"
    assert "System.Net.Http" in str(tests.inherited_usings)


def test_wildcard_project_references_are_scored_as_each_project_they_match(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "Build.csproj": (
                '<Project Sdk="Microsoft.Build.Traversal/4.1.0"><ItemGroup>'
                '<ProjectReference Include="src/**/*.csproj" /></ItemGroup></Project>'
            ),
            "src/A/A.csproj": '<Project Sdk="Microsoft.NET.Sdk"></Project>',
            "src/deep/B/B.csproj": '<Project Sdk="Microsoft.NET.Sdk"></Project>',
        },
    )
    result = mask(tmp_path, "csharp", ["Build.csproj"])
    assert names(result, "Build.csproj") == ["src/a/a.csproj", "src/deep/b/b.csproj"]
