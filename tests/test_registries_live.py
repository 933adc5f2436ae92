"""Live checks against the real registries, through the endpoints depinfer discovers.

Not run by default or in CI (`-m live` selects them): they need network and answer what
the registries say today. NuGet checks skip when no NuGet source can be found.
"""

from __future__ import annotations

import gzip
import hashlib

import pytest

from depinfer.model import Ecosystem
from depinfer.registries import Registries

pytestmark = pytest.mark.live

PYPI, NPM, CRATES, NUGET = Ecosystem.PYPI, Ecosystem.NPM, Ecosystem.CRATES, Ecosystem.NUGET


@pytest.fixture
def live(tmp_path):
    reg = Registries(cache_dir=str(tmp_path / "cache"))
    yield reg
    assert not any("failed" in w for w in reg.warnings), reg.warnings
    reg.close()


@pytest.mark.parametrize(
    ("ecosystem", "real", "fake"),
    [
        (PYPI, "requests", "requests-definitely-not-a-project-zq9"),
        (NPM, "chalk", "chalk-definitely-not-a-package-zq9"),
        (CRATES, "serde", "serde-definitely-not-a-crate-zq9"),
    ],
)
def test_real_names_exist_and_fake_ones_do_not(live, ecosystem, real, fake):
    assert live.exists(ecosystem, real) is True
    assert live.exists(ecosystem, fake) is False


def test_pypi_versions_have_dates_and_the_known_yank(live):
    by = {v.version: v for v in live.versions(PYPI, "requests")}
    assert by["2.32.0"].yanked
    assert by["2.31.0"].published is not None and by["2.31.0"].runtime == ">=3.7"
    assert live.metadata(PYPI, "requests", "2.31.0")["requires_dist"]


def test_npm_versions_have_dates_and_module_type(live):
    by = {v.version: v for v in live.versions(NPM, "chalk")}
    assert by["5.0.0"].published is not None and by["5.0.0"].extra["type"] == "module"
    assert live.exists(NPM, "@types/node") is True


def test_crates_versions_features_and_download(live):
    by = {v.version: v for v in live.versions(CRATES, "serde")}
    assert "derive" in by["1.0.200"].extra["features"]
    body = live.download_crate("itoa", "1.0.11")
    assert body is not None and gzip.decompress(body)
    entry = next(v for v in live.versions(CRATES, "itoa") if v.version == "1.0.11")
    assert hashlib.sha256(body).hexdigest() == entry.extra["cksum"]


def test_nuget_when_a_source_is_configured(live):
    if live.client(NUGET) is None:
        pytest.skip(f"NuGet unavailable here: {live.describe(NUGET)}")
    assert live.exists(NUGET, "Newtonsoft.Json") is True
    assert live.exists(NUGET, "Newtonsoft.Json.NotReal.Zq9") is False
    assert any(v.version == "13.0.3" for v in live.versions(NUGET, "Newtonsoft.Json"))
