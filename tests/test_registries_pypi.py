"""PyPI client against recorded JSON API and simple API (PEP 691/658) answers."""

from __future__ import annotations

from datetime import datetime, timezone

from depinfer.model import Ecosystem

PYPI = Ecosystem.PYPI


def test_existing_project_exists_and_fake_name_does_not(registries, registry_server):
    assert registries.exists(PYPI, "requests") is True
    assert registries.exists(PYPI, "requests-but-not-really-zz9") is False
    assert registries.unverified == set()


def test_names_are_pep503_normalised_before_asking(registries, registry_server):
    assert registries.exists(PYPI, "Requests") is True
    assert registries.exists(PYPI, "REQUESTS") is True
    assert registry_server.count("/pypi/requests/json") == 1  # one fetch for all spellings


def test_invalid_name_is_answered_without_a_request(registries, registry_server):
    assert registries.exists(PYPI, "not a name!") is False
    assert registry_server.hits == []


def test_versions_carry_upload_time_requires_python_and_yank(registries):
    versions = registries.versions(PYPI, "requests")
    by = {v.version: v for v in versions}
    assert [v.version for v in versions][:3] == sorted(
        [v.version for v in versions],
        key=lambda s: tuple(int(p) for p in s.split(".")[:3] if p.isdigit()),
    )[:3]
    yanked = by["2.32.0"]
    assert yanked.yanked and "CVE-2024-35195" in yanked.extra["yanked_reason"]
    assert not by["2.31.0"].yanked
    assert by["2.31.0"].runtime == ">=3.7"
    assert by["2.31.0"].published == datetime(2023, 5, 22, 15, 12, 42, 313790, tzinfo=timezone.utc)


def test_prereleases_are_marked(registries):
    by = {v.version: v for v in registries.versions(PYPI, "pydantic")}
    assert by["2.9.0b2"].prerelease
    assert not by["2.9.2"].prerelease
    assert by["2.9.2"].runtime == ">=3.8"


def test_metadata_of_latest_comes_from_the_project_document(registries):
    meta = registries.metadata(PYPI, "requests")
    assert meta["summary"] == "Python HTTP for Humans."
    assert any(r.startswith("urllib3") for r in meta["requires_dist"])
    assert meta["requires_python"]


def test_metadata_of_an_older_version_falls_back_to_pep658_file(registries, registry_server):
    meta = registries.metadata(PYPI, "requests", "2.31.0")
    assert meta["version"] == "2.31.0"
    assert "idna (<4,>=2.5)" in meta["requires_dist"]
    assert meta["requires_python"] == ">=3.7"
    assert registry_server.count("/files/requests-2.31.0-py3-none-any.whl.metadata") == 1


def test_simple_only_index_is_read_through_pep691(registry_server, tmp_path):
    reg = registry_server.registries(
        tmp_path / "cache", endpoints={PYPI: registry_server.url("/simple")}
    )
    assert reg.exists(PYPI, "idna") is True
    versions = reg.versions(PYPI, "idna")
    assert [v.version for v in versions] == ["3.6", "3.7", "3.8", "3.9"]
    assert all(v.published is not None and v.runtime for v in versions)
    # The JSON API beside it answered 404 once; the index is now known to be simple-only.
    assert registry_server.count("/pypi/idna/json") == 1
    assert reg.exists(PYPI, "no-such-project-zz9") is False
    assert registry_server.count("/pypi/no-such-project-zz9/json") == 0
    meta = reg.metadata(PYPI, "idna")
    assert meta["version"] == "3.9" and meta["requires_python"] == ">=3.6"


def test_simple_html_pages_are_understood(registry_server, tmp_path):
    from werkzeug import Response

    html = (
        '<html><body><a href="../../files/demo-1.0.tar.gz#sha256=00" '
        'data-requires-python="&gt;=3.8">demo-1.0.tar.gz</a>'
        '<a href="../../files/demo-1.1-py3-none-any.whl" data-yanked="">'
        "demo-1.1-py3-none-any.whl</a></body></html>"
    )
    registry_server.overrides["/simple/demo/"] = lambda r: Response(html, content_type="text/html")
    reg = registry_server.registries(
        tmp_path / "cache", endpoints={PYPI: registry_server.url("/simple")}
    )
    by = {v.version: v for v in reg.versions(PYPI, "demo")}
    assert by["1.0"].runtime == ">=3.8" and not by["1.0"].yanked
    assert by["1.1"].yanked
