"""npm client against recorded packuments (full and abbreviated)."""

from __future__ import annotations

from depinfer.model import Ecosystem

NPM = Ecosystem.NPM


def test_exists_asks_for_the_abbreviated_packument(registries, registry_server):
    assert registries.exists(NPM, "chalk") is True
    assert registry_server.hits == [("/chalk", registry_server.hits[0][1])]
    assert "application/vnd.npm.install-v1+json" in registry_server.hits[0][1]


def test_fake_name_does_not_exist(registries):
    assert registries.exists(NPM, "chalk-not-really-zz9") is False
    assert registries.exists(NPM, "Not Valid") is False


def test_versions_use_the_full_packument_with_publish_times(registries, registry_server):
    by = {v.version: v for v in registries.versions(NPM, "chalk")}
    assert registry_server.hits[-1][1] == "application/json"
    assert by["5.3.0"].published is not None
    assert by["5.3.0"].published.isoformat().startswith("2024-03-27T22:53:09")
    assert by["5.3.0"].runtime == "^12.17.0 || ^14.13 || >=16.0.0"
    assert by["5.3.0"].extra["type"] == "module"
    assert by["4.1.2"].extra.get("type") is None and by["4.1.2"].runtime == ">=10"


def test_prereleases_and_peer_dependencies(registries):
    by = {v.version: v for v in registries.versions(NPM, "node-fetch")}
    assert by["2.0.0-alpha.1"].prerelease and not by["2.7.0"].prerelease
    assert by["2.7.0"].extra["peerDependencies"] == {"encoding": "^0.1.0"}
    assert by["2.7.0"].extra["peerDependenciesMeta"] == {"encoding": {"optional": True}}


def test_metadata_defaults_to_the_latest_dist_tag(registries):
    meta = registries.metadata(NPM, "chalk")
    assert meta["version"] == "6.0.1"
    assert meta["type"] == "module"
    assert meta["exports"] == {"default": "./source/index.js", "types": "./source/index.d.ts"}
    assert meta["engines"] == {"node": ">=22"}
    assert meta["summary"]
    old = registries.metadata(NPM, "chalk", "4.1.2")
    assert old["main"] == "source" and "type" not in old


def test_scoped_names_escape_the_slash(registries, registry_server):
    assert registries.exists(NPM, "@sindresorhus/is") is True
    assert registry_server.count("/@sindresorhus%2fis") == 1
    assert registries.metadata(NPM, "@sindresorhus/is")["version"] == "8.1.0"


def test_scope_registry_is_used_for_its_scope(registry_server, tmp_path):
    from depinfer.registries.endpoints import Endpoint, NpmEndpoints
    from depinfer.registries.http import HttpSettings, RegistryHttp
    from depinfer.registries.npm import NpmClient

    client = NpmClient(
        NpmEndpoints(
            Endpoint("http://127.0.0.1:9/", "unreachable default"),
            {"@sindresorhus": Endpoint(registry_server.url("/"), "scope")},
        ),
        RegistryHttp("npm", HttpSettings(cache_dir=None)),
    )
    assert client.exists("@sindresorhus/is") is True


def test_a_deprecated_version_is_marked(registry_server, tmp_path):
    import json

    from werkzeug import Response

    doc = {
        "name": "old-thing",
        "dist-tags": {"latest": "1.0.0"},
        "versions": {
            "1.0.0": {"name": "old-thing", "version": "1.0.0", "deprecated": "use new-thing"}
        },
        "time": {"1.0.0": "2020-01-01T00:00:00.000Z"},
    }
    registry_server.overrides["/old-thing"] = lambda r: Response(
        json.dumps(doc), content_type="application/json"
    )
    reg = registry_server.registries(tmp_path / "c")
    (info,) = reg.versions(NPM, "old-thing")
    assert info.deprecated and info.extra["deprecated"] == "use new-thing"
