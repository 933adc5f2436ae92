"""Crates client against a recorded sparse index and one recorded .crate download."""

from __future__ import annotations

import gzip
import io
import tarfile

from depinfer.model import Ecosystem
from depinfer.registries.names import crate_index_path

CRATES = Ecosystem.CRATES


def test_index_paths_follow_cargo_rules():
    assert crate_index_path("a") == "1/a"
    assert crate_index_path("cc") == "2/cc"
    assert crate_index_path("log") == "3/l/log"
    assert crate_index_path("Serde") == "se/rd/serde"
    assert crate_index_path("tokio") == "to/ki/tokio"


def test_config_json_is_read_first_then_the_crate_file(registries, registry_server):
    assert registries.exists(CRATES, "serde") is True
    assert [p for p, _ in registry_server.hits] == ["/config.json", "/se/rd/serde"]


def test_names_are_case_insensitive_but_dash_and_underscore_differ(registries, registry_server):
    assert registries.exists(CRATES, "Serde") is True
    assert registries.exists(CRATES, "serde_json-not-here") is False
    assert registries.exists(CRATES, "1bad") is False
    assert registries.exists(CRATES, "cc") is True and registries.exists(CRATES, "log") is True


def test_versions_have_yank_features_rust_version_and_dates(registries):
    by = {v.version: v for v in registries.versions(CRATES, "tokio")}
    assert by["1.54.0"].yanked
    latest = by["1.54.1"]
    assert latest.runtime == "1.85"
    assert latest.published is not None and latest.published.year >= 2025
    assert "io-uring" in latest.extra["features"]  # from features2
    assert "full" in latest.extra["features"]
    deps = registries.metadata(CRATES, "tokio", "1.54.1")["deps"]
    assert any(d["name"] == "tokio-macros" and d["optional"] for d in deps)
    order = [v.version for v in registries.versions(CRATES, "tokio")]
    assert order.index("1.54.0") < order.index("1.54.1")


def test_metadata_picks_the_newest_unyanked_release(registries):
    meta = registries.metadata(CRATES, "serde")
    assert meta["version"] == "1.0.229"
    assert meta["features"]["derive"] == ["serde_derive"]
    assert meta["rust_version"] == "1.56"
    assert meta["download_url"].endswith("/dl/serde/1.0.229/download")


def test_download_returns_the_checked_crate_tarball(registries):
    body = registries.download_crate("itoa", "1.0.11")
    assert body is not None
    with tarfile.open(fileobj=io.BytesIO(gzip.decompress(body))) as tar:
        assert "itoa-1.0.11/Cargo.toml" in tar.getnames()
    assert registries.download_crate("itoa", "9.9.9") is None


def test_checksum_mismatch_is_an_error_not_a_result(registries, registry_server):
    from werkzeug import Response

    registry_server.overrides["/dl/itoa/1.0.11/download"] = lambda r: Response(b"tampered")
    assert registries.download_crate("itoa", "1.0.11") is None
    assert (CRATES, "itoa") in registries.unverified
