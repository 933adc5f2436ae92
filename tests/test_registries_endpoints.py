"""Endpoint discovery: the user's configuration first, then the installed tool's default."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import write_tree

from depinfer.registries import endpoints as ep
from depinfer.registries import tooling

DEFAULT = ("https://index.example.test/simple", "https://index.example.test/pypi")


@pytest.fixture(autouse=True)
def _no_real_tools(monkeypatch):
    """Tool defaults are faked so these tests never depend on what is installed."""
    monkeypatch.setattr(tooling, "pip_default_index", lambda: DEFAULT)
    monkeypatch.setattr(tooling, "npm_default_registry", lambda store=None, refresh=False: None)
    monkeypatch.setattr(tooling, "cargo_default_index", lambda store=None, refresh=False: None)
    monkeypatch.setattr(tooling, "nuget_default_source", lambda store=None, refresh=False: None)


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    """An environment whose config locations all point inside tmp_path."""
    return {
        "XDG_CONFIG_HOME": str(tmp_path / "xdg"),
        "XDG_CONFIG_DIRS": str(tmp_path / "etcxdg"),
        "PIP_CONFIG_FILE": str(tmp_path / "none.conf"),
        "CARGO_HOME": str(tmp_path / "cargo"),
        **extra,
    }


# -- PyPI --------------------------------------------------------------------------------
def test_pip_default_index_pairs_with_its_json_api(tmp_path):
    (index,) = ep.pypi_indexes(None, _env(tmp_path), tmp_path)
    assert index.url == DEFAULT[0]
    assert index.json_base == DEFAULT[1] and index.json_verified
    assert index.source == "pip's default index"


def test_env_index_urls_win_and_extras_follow(tmp_path):
    env = _env(
        tmp_path,
        PIP_INDEX_URL="https://mirror.example.test/simple/",
        PIP_EXTRA_INDEX_URL="https://extra.example.test/simple https://x2.example.test/+simple",
    )
    indexes = ep.pypi_indexes(None, env, tmp_path)
    assert [i.url for i in indexes] == [
        "https://mirror.example.test/simple",
        "https://extra.example.test/simple",
        "https://x2.example.test/+simple",
    ]
    # a Warehouse-style /simple gets a sibling /pypi JSON base, checked at first use
    assert indexes[0].json_base == "https://mirror.example.test/pypi"
    assert not indexes[0].json_verified
    assert indexes[2].json_base is None  # simple API only
    env["UV_DEFAULT_INDEX"] = "https://uv.example.test/simple"
    assert ep.pypi_indexes(None, env, tmp_path)[0].source == "UV_DEFAULT_INDEX"


def test_pip_conf_index_url_and_install_section(tmp_path):
    conf = tmp_path / "pip.conf"
    conf.write_text(
        "[global]\nindex-url = https://global.example.test/simple\n"
        "extra-index-url =\n    https://e1.example.test/simple\n    https://e2.example.test/simple\n"
        "[install]\nindex-url = https://install.example.test/simple\n"
    )
    indexes = ep.pypi_indexes(None, _env(tmp_path, PIP_CONFIG_FILE=str(conf)), tmp_path)
    assert indexes[0].url == "https://install.example.test/simple"
    assert indexes[0].source == str(conf)
    assert [i.url for i in indexes[1:]] == [
        "https://e1.example.test/simple",
        "https://e2.example.test/simple",
    ]


def test_user_pip_conf_under_xdg_config_home(tmp_path):
    pip_conf = "[global]\nindex_url = https://user.example.test/simple\n"
    write_tree(tmp_path, {"xdg/pip/pip.conf": pip_conf})
    assert ep.pypi_indexes(None, _env(tmp_path), tmp_path)[0].url == (
        "https://user.example.test/simple"
    )


def test_project_uv_toml_default_index_and_extra_indexes(tmp_path):
    uv_toml = (
        '[[index]]\nname = "corp"\nurl = "https://corp.example.test/simple"\n\n'
        '[[index]]\nname = "pinned"\nurl = "https://pinned.example.test/simple"\nexplicit = true\n\n'
        '[[index]]\nurl = "https://main.example.test/simple"\ndefault = true\n'
    )
    project = write_tree(tmp_path / "proj", {"uv.toml": uv_toml})
    indexes = ep.pypi_indexes(project, _env(tmp_path), tmp_path)
    assert [i.url for i in indexes] == [
        "https://main.example.test/simple",
        "https://corp.example.test/simple",
    ]


def test_pyproject_tool_uv_index_url(tmp_path):
    pyproject = '[project]\nname = "x"\n[tool.uv]\nindex-url = "https://pp.example.test/simple"\n'
    project = write_tree(tmp_path / "proj", {"pyproject.toml": pyproject})
    assert ep.pypi_indexes(project, _env(tmp_path), tmp_path)[0].url == (
        "https://pp.example.test/simple"
    )


def test_injected_json_base(tmp_path):
    index = ep.pypi_index_from_url("http://127.0.0.1:1/pypi/")
    assert index.json_base == "http://127.0.0.1:1/pypi" and index.json_verified


# -- npm -----------------------------------------------------------------------------------
def test_npm_config_registry_env_is_case_insensitive(tmp_path):
    found = ep.npm_endpoints(None, {"NPM_CONFIG_REGISTRY": "https://npm.example.test"}, tmp_path)
    assert found.registry.url == "https://npm.example.test/"
    assert found.registry.source == "npm_config_registry"


def test_project_npmrc_registry_scopes_and_env_references(tmp_path):
    npmrc = (
        "; comment\nregistry = https://proj.example.test/npm/\n"
        "@corp:registry=${CORP_NPM}\n//proj.example.test/:_authToken=${TOKEN}\n"
    )
    project = write_tree(tmp_path / "proj", {".npmrc": npmrc})
    (tmp_path / ".npmrc").write_text(
        "registry=https://user.example.test/\n@other:registry=https://o.example.test\n"
    )
    found = ep.npm_endpoints(project, {"CORP_NPM": "https://corp.example.test/"}, tmp_path)
    assert found.registry.url == "https://proj.example.test/npm/"
    assert found.scopes["@corp"].url == "https://corp.example.test/"
    assert found.scopes["@other"].url == "https://o.example.test/"


def test_user_npmrc_then_npm_default(tmp_path, monkeypatch):
    (tmp_path / ".npmrc").write_text("registry=https://user.example.test/\n")
    assert ep.npm_endpoints(None, {}, tmp_path).registry.url == "https://user.example.test/"
    (tmp_path / ".npmrc").unlink()
    monkeypatch.setattr(
        tooling, "npm_default_registry", lambda store=None, refresh=False: "https://d.example.test/"
    )
    found = ep.npm_endpoints(None, {"npm_config_prefix": str(tmp_path / "none")}, tmp_path)
    assert found.registry.url == "https://d.example.test/"
    assert found.registry.source == "npm config get registry"


# -- cargo ---------------------------------------------------------------------------------
def test_cargo_source_replacement_to_a_sparse_mirror(tmp_path):
    config = (
        '[source.crates-io]\nreplace-with = "mirror"\n'
        '[source.mirror]\nregistry = "sparse+https://mirror.example.test/index/"\n'
    )
    home = write_tree(tmp_path / "cargo", {"config.toml": config})
    found = ep.crates_index(None, _env(tmp_path), tmp_path)
    assert found.url == "https://mirror.example.test/index/"
    assert found.source == str(home / "config.toml")


def test_project_cargo_config_overrides_cargo_home(tmp_path):
    config = '[source.crates-io]\nreplace-with = "a"\n[source.a]\nregistry = "sparse+https://a.example.test/"\n'
    write_tree(tmp_path / "cargo", {"config.toml": config})
    project = tmp_path / "proj" / "sub"
    project.mkdir(parents=True)
    write_tree(
        tmp_path / "proj",
        {".cargo/config.toml": '[source.a]\nregistry = "sparse+https://b.example.test/"\n'},
    )
    assert ep.crates_index(project, _env(tmp_path), tmp_path).url == "https://b.example.test/"


def test_git_index_replacement_is_reported_unsupported(tmp_path):
    config = '[source.crates-io]\nreplace-with = "g"\n[source.g]\nregistry = "https://git.example.test/index"\n'
    write_tree(tmp_path / "cargo", {"config.toml": config})
    with pytest.raises(ep.Unsupported, match="git index"):
        ep.crates_index(None, _env(tmp_path), tmp_path)


def test_cargo_default_comes_from_the_tool_or_nothing(tmp_path, monkeypatch):
    assert ep.crates_index(None, _env(tmp_path), tmp_path) is None
    monkeypatch.setattr(
        tooling,
        "cargo_default_index",
        lambda store=None, refresh=False: "sparse+https://idx.example.test/",
    )
    found = ep.crates_index(None, _env(tmp_path), tmp_path)
    assert found.url == "https://idx.example.test/" and found.source == "cargo's default index"


def test_alternate_registries_are_listed(tmp_path):
    config = (
        '[registries.corp]\nindex = "sparse+https://corp.example.test/"\n'
        '[registries.old]\nindex = "https://git.example.test/"\n'
    )
    write_tree(tmp_path / "cargo", {"config.toml": config})
    found = ep.cargo_registries(None, _env(tmp_path), tmp_path)
    assert list(found) == ["corp"] and found["corp"].url == "https://corp.example.test/"


# -- NuGet -----------------------------------------------------------------------------------
NUGET_USER = """<?xml version="1.0" encoding="utf-8"?>
<configuration>
  <packageSources>
    <add key="public" value="https://public.example.test/v3/index.json" protocolVersion="3" />
    <add key="legacy" value="https://legacy.example.test/api/v2" />
  </packageSources>
</configuration>
"""

NUGET_REPO = """<?xml version="1.0" encoding="utf-8"?>
<configuration>
  <packageSources>
    <add key="corp" value="https://corp.example.test/nuget/index.json" />
    <add key="off" value="https://off.example.test/v3/index.json" />
    <add key="local" value="./packages" />
  </packageSources>
  <disabledPackageSources>
    <add key="off" value="true" />
  </disabledPackageSources>
</configuration>
"""


def test_nuget_config_sources_merge_user_and_repository(tmp_path):
    files = {".nuget/NuGet/NuGet.Config": NUGET_USER, "repo/nuget.config": NUGET_REPO}
    repo = write_tree(tmp_path, files) / "repo"
    found = ep.nuget_sources(repo, {}, tmp_path)
    assert [e.url for e in found] == [
        "https://public.example.test/v3/index.json",
        "https://corp.example.test/nuget/index.json",
    ]


def test_nuget_clear_drops_inherited_sources(tmp_path):
    cleared = NUGET_REPO.replace("<packageSources>", "<packageSources><clear />")
    files = {".nuget/NuGet/NuGet.Config": NUGET_USER, "repo/NuGet.Config": cleared}
    repo = write_tree(tmp_path, files) / "repo"
    assert [e.url for e in ep.nuget_sources(repo, {}, tmp_path)] == [
        "https://corp.example.test/nuget/index.json"
    ]


def test_nuget_without_config_or_client_has_no_source(tmp_path):
    assert ep.nuget_sources(tmp_path, {}, tmp_path) == []


def test_broken_config_files_are_skipped(tmp_path):
    (tmp_path / "nuget.config").write_text("<configuration><packageSources>")
    (tmp_path / "uv.toml").write_text("index-url = [unclosed")
    (tmp_path / ".npmrc").write_bytes(b"\xff\xfe\x00garbage")
    assert ep.nuget_sources(tmp_path, {}, tmp_path) == []
    assert ep.pypi_indexes(tmp_path, _env(tmp_path), tmp_path)[0].url == DEFAULT[0]
    assert ep.npm_endpoints(tmp_path, {}, tmp_path).registry is None


def test_project_configuration_is_honoured_when_set_before_first_use(tmp_path, monkeypatch):
    from depinfer.model import Ecosystem
    from depinfer.registries import Registries

    project = write_tree(tmp_path / "proj", {".npmrc": "registry=https://proj.example.test/\n"})
    monkeypatch.setenv("HOME", str(tmp_path))
    reg = Registries(cache_dir=str(tmp_path / "c"))
    assert reg.use_project(project) is True
    assert reg.describe(Ecosystem.NPM).startswith("npm registry https://proj.example.test/")
    assert reg.use_project(tmp_path) is False  # clients exist: too late to change
