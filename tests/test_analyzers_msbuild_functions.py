"""MSBuild path property functions, evaluated over the repository only."""

from __future__ import annotations

from depinfer.analyzers.msbuild_functions import Evaluator

FILES = {"/Repo.slnx", "/props/Common.props", "/src/Directory.Build.props"}


def _ev(props=None, this_dir="props", project_dir="src/A"):
    return Evaluator(props or {}, this_dir, project_dir, FILES.__contains__)


def test_parent_of_this_file_directory_chained_to_the_root():
    value = "$([System.IO.Directory]::GetParent($(MSBuildThisFileDirectory)).Parent.FullName)"
    assert _ev().value(value) == "/"


def test_directory_name_of_file_above_the_project():
    value = "$([MSBuild]::GetDirectoryNameOfFileAbove($(MSBuildProjectDirectory), 'Repo.slnx'))"
    assert _ev().value(value + "\\props\\Common.props") == "/\\props\\Common.props"


def test_path_of_file_above_and_path_combination():
    assert (
        _ev(this_dir="src").value(
            "$([MSBuild]::GetPathOfFileAbove('Directory.Build.props', '$(MSBuildThisFileDirectory)'))"
        )
        == "/src/Directory.Build.props"
    )
    assert (
        _ev().value("$([System.IO.Path]::Combine($(MSBuildThisFileDirectory), '..', 'src'))")
        == "/src"
    )
    assert _ev({"Root": "/"}).value("$([MSBuild]::NormalizeDirectory($(Root), 'eng'))") == "/eng/"


def test_what_cannot_be_evaluated_stays_unevaluated():
    assert _ev().value("$([System.DateTime]::Now.Year)") is None
    assert _ev().value("$(Unknown)\\x.props") is None
    # above the repository root
    assert (
        _ev(this_dir="").value(
            "$([System.IO.Directory]::GetParent($(MSBuildThisFileDirectory)).Parent.FullName)"
        )
        is None
    )
