"""The persistent HTTP cache: a second run asks nothing; --refresh asks again."""

from __future__ import annotations

from depinfer.model import Ecosystem
from depinfer.registries import Registries
from depinfer.registries.http import default_cache_dir

PYPI, NPM, CRATES, NUGET = Ecosystem.PYPI, Ecosystem.NPM, Ecosystem.CRATES, Ecosystem.NUGET


def _ask_everything(reg: Registries) -> None:
    assert reg.exists(PYPI, "requests") is True
    assert reg.exists(PYPI, "fake-zz9") is False
    assert reg.exists(NPM, "chalk") is True
    assert reg.versions(NPM, "chalk")
    assert reg.versions(CRATES, "serde")
    assert reg.versions(NUGET, "xunit")


def test_second_run_is_served_from_the_cache(registry_server, tmp_path):
    _ask_everything(registry_server.registries(tmp_path / "c"))
    first = len(registry_server.hits)
    _ask_everything(registry_server.registries(tmp_path / "c"))
    assert len(registry_server.hits) == first
    assert (tmp_path / "c" / "http_cache.sqlite").is_file()


def test_abbreviated_and_full_packuments_are_cached_apart(registry_server, tmp_path):
    reg = registry_server.registries(tmp_path / "c")
    reg.exists(NPM, "chalk")
    reg.versions(NPM, "chalk")
    accepts = [a for p, a in registry_server.hits if p == "/chalk"]
    assert len(accepts) == 2 and accepts[0] != accepts[1]
    warm = registry_server.registries(tmp_path / "c")
    assert warm.versions(NPM, "chalk")[-1].published is not None


def test_refresh_bypasses_the_cache(registry_server, tmp_path):
    _ask_everything(registry_server.registries(tmp_path / "c"))
    first = len(registry_server.hits)
    _ask_everything(registry_server.registries(tmp_path / "c", refresh=True))
    assert len(registry_server.hits) == 2 * first


def test_cache_dir_comes_from_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("DEPINFER_CACHE_DIR", str(tmp_path / "x"))
    assert default_cache_dir() == tmp_path / "x"
    assert Registries().resolved_cache_dir() == tmp_path / "x"
    assert Registries(cache_dir=str(tmp_path / "y")).resolved_cache_dir() == tmp_path / "y"
    monkeypatch.delenv("DEPINFER_CACHE_DIR")
    assert "depinfer" in str(default_cache_dir())


def test_unusable_cache_dir_means_uncached_not_broken(registry_server, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    reg = registry_server.registries(blocker / "cache")
    assert reg.exists(PYPI, "requests") is True
