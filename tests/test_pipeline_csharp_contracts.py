"""C# inference: a family's contract package (`X.Abstractions`, `X.Core`) that another chosen
package of the project depends on is not written beside it (issue 25: the implied-by rows
built from the dependency lists by scripts/build_nuget_index.py)."""

from __future__ import annotations

from conftest import CSPROJ_LIB, manifest_names, write_tree

from depinfer.context import Options
from depinfer.pipeline import infer


def test_mediatr_brings_the_dependency_injection_abstractions(tmp_path):
    write_tree(
        tmp_path,
        {
            "App/App.csproj": CSPROJ_LIB,
            "App/Setup.cs": (
                "using MediatR;\nusing Microsoft.Extensions.DependencyInjection;\n"
                "namespace App;\npublic static class Setup {\n"
                "  public static IServiceCollection Add(IServiceCollection s) => s;\n"
                "  public static IMediator M;\n}\n"
            ),
        },
    )
    names = manifest_names(infer(tmp_path, Options(offline=True)), "App/App.csproj")
    assert "MediatR" in names
    assert "Microsoft.Extensions.DependencyInjection.Abstractions" not in names


def test_the_contracts_alone_are_written_when_nothing_brings_them(tmp_path):
    write_tree(
        tmp_path,
        {
            "App/App.csproj": CSPROJ_LIB,
            "App/Setup.cs": (
                "using Microsoft.Extensions.DependencyInjection;\nnamespace App;\n"
                "public static class Setup {\n"
                "  public static IServiceCollection Add(IServiceCollection s) => s;\n}\n"
            ),
        },
    )
    names = manifest_names(infer(tmp_path, Options(offline=True)), "App/App.csproj")
    assert "Microsoft.Extensions.DependencyInjection.Abstractions" in names
