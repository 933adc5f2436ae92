"""NuGet v3 client against responses written in NuGet's documented formats."""

from __future__ import annotations

from depinfer.model import Ecosystem

NUGET = Ecosystem.NUGET


def test_service_index_then_flat_container(registries, registry_server):
    assert registries.exists(NUGET, "Newtonsoft.Json") is True
    assert [p for p, _ in registry_server.hits] == [
        "/nuget/index.json",
        "/nuget/v3-flatcontainer/newtonsoft.json/index.json",
    ]


def test_ids_are_case_insensitive_and_fakes_do_not_exist(registries):
    assert registries.exists(NUGET, "NEWTONSOFT.JSON") is True
    assert registries.exists(NUGET, "Newtonsoft.Json.NotReally") is False


def test_versions_from_inline_registration_pages(registries, registry_server):
    by = {v.version: v for v in registries.versions(NUGET, "Newtonsoft.Json")}
    assert list(by) == ["12.0.1", "12.0.2", "12.0.3", "13.0.1", "13.0.2", "13.0.3"]
    v = by["13.0.3"]
    assert v.published is not None and v.published.year == 2023
    assert "net6.0" in v.runtime.split(",") and ".NETStandard2.0" in v.runtime.split(",")
    deps = v.extra["dependency_groups"][".NETStandard1.0"]
    assert {"id": "Microsoft.CSharp", "range": "4.3.0"} in deps
    assert (
        registry_server.count("/nuget/v3/registration5-gz-semver2/newtonsoft.json/index.json") == 1
    )


def test_registration_pages_are_fetched_when_not_inline(registries, registry_server):
    by = {v.version: v for v in registries.versions(NUGET, "xunit")}
    assert (
        registry_server.count("/nuget/v3/registration5-gz-semver2/xunit/page/2.4.1/2.9.2.json") == 1
    )
    unlisted = by["2.4.2-pre.12"]
    assert unlisted.yanked and unlisted.prerelease and unlisted.published is None
    assert by["2.9.2"].extra["dependency_groups"][""][2] == {"id": "xunit.core", "range": "[2.9.2]"}


def test_deprecation_is_reported(registries):
    (old, new) = registries.versions(NUGET, "WindowsAzure.Storage")
    assert old.deprecated and new.deprecated
    assert new.extra["deprecation"]["alternatePackage"]["id"] == "Azure.Storage.Blobs"


def test_metadata_of_latest_listed_stable(registries):
    meta = registries.metadata(NUGET, "xunit")
    assert meta["version"] == "2.9.2" and meta["listed"]
    assert meta["name"] == "xunit"
    assert "testing" in meta["tags"]
    assert registries.metadata(NUGET, "Newtonsoft.Json", "12.0.1")["version"] == "12.0.1"
