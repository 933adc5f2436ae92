"""Network failures: retries, giving up for the run with one warning, never a traceback."""

from __future__ import annotations

import socket

from depinfer.model import Ecosystem
from depinfer.registries import Registries

PYPI, NPM, CRATES, NUGET = Ecosystem.PYPI, Ecosystem.NPM, Ecosystem.CRATES, Ecosystem.NUGET


def test_a_passing_5xx_is_retried(registries, registry_server):
    registry_server.fail("/pypi/requests/json", 503, times=2)
    assert registries.exists(PYPI, "requests") is True
    assert registry_server.count("/pypi/requests/json") == 3
    assert registries.warnings == []


def test_rate_limit_with_retry_after_is_retried(registries, registry_server):
    registry_server.fail("/chalk", 429, times=1, **{"Retry-After": "0"})
    assert registries.exists(NPM, "chalk") is True
    assert registry_server.count("/chalk") == 2


def test_repeated_failures_degrade_to_offline_with_one_warning(registry_server, tmp_path):
    reg = registry_server.registries(tmp_path / "c", retries=1, max_failures=2)
    registry_server.fail_everything(500)
    assert reg.exists(PYPI, "requests") is None
    assert reg.exists(PYPI, "pydantic") is None
    asked = len(registry_server.hits)
    assert reg.exists(PYPI, "idna") is None
    assert reg.versions(PYPI, "idna") == []
    assert len(registry_server.hits) == asked  # not asked again in this run
    (warning,) = reg.warnings
    assert "failed 2 times" in warning and "HTTP 500" in warning
    assert "idna, pydantic, requests" in warning
    # the other registries are unaffected by PyPI's trouble
    registry_server.everywhere = None
    assert reg.exists(NPM, "chalk") is True


def test_timeouts_are_failures_not_hangs(registry_server, tmp_path):
    reg = registry_server.registries(tmp_path / "c", timeout=0.3, retries=0)
    registry_server.delay("/pypi/requests/json", 1.0)
    assert reg.exists(PYPI, "requests") is None
    assert (PYPI, "requests") in reg.unverified
    assert "timed out" in reg.warnings[0]


def test_unreachable_host_is_unverified(tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    reg = Registries(
        endpoints={NPM: f"http://127.0.0.1:{port}/"}, cache_dir=str(tmp_path), retries=0, timeout=1
    )
    assert reg.exists(NPM, "chalk") is None
    assert "could not verify: chalk" in reg.warnings[0]


def test_truncated_json_is_an_error_and_is_not_cached(registry_server, tmp_path):
    registry_server.truncate("/pypi/requests/json")
    reg = registry_server.registries(tmp_path / "c")
    assert reg.exists(PYPI, "requests") is None
    assert "malformed JSON" in reg.warnings[0]
    registry_server.overrides.clear()
    again = registry_server.registries(tmp_path / "c")
    assert again.exists(PYPI, "requests") is True
    assert registry_server.count("/pypi/requests/json") == 2


def test_truncated_index_file_is_an_error(registry_server, tmp_path):
    registry_server.truncate("/se/rd/serde")
    reg = registry_server.registries(tmp_path / "c")
    assert reg.exists(CRATES, "serde") is None
    assert reg.versions(CRATES, "serde") == []


def test_unexpected_document_shape_is_an_error(registry_server, tmp_path):
    from werkzeug import Response

    registry_server.overrides["/chalk"] = lambda r: Response(
        "[1, 2]", content_type="application/json"
    )
    reg = registry_server.registries(tmp_path / "c")
    assert reg.exists(NPM, "chalk") is None


def test_a_client_bug_never_becomes_a_traceback(registries, monkeypatch):
    from depinfer.registries.pypi import PypiClient

    def broken(self, name):
        raise KeyError("oops")

    monkeypatch.setattr(PypiClient, "exists", broken)
    assert registries.exists(PYPI, "requests") is None
    assert "KeyError" in registries.warnings[0]


def test_offline_never_touches_the_network(registry_server, tmp_path):
    reg = registry_server.registries(tmp_path / "c", offline=True)
    assert reg.exists(PYPI, "requests") is None
    assert reg.versions(NPM, "chalk") == []
    assert registry_server.hits == []
    assert reg.warnings == []  # the user asked for offline: nothing to warn about


def test_nuget_without_any_source_says_so_once(tmp_path, monkeypatch):
    from depinfer.registries import tooling

    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setattr(tooling, "_nuget_library_candidates", lambda: [])
    reg = Registries(cache_dir=str(tmp_path / "c"), project_root=str(tmp_path))
    assert reg.exists(NUGET, "Newtonsoft.Json") is None
    assert reg.exists(NUGET, "xunit") is None
    (warning,) = reg.warnings
    assert warning.startswith("NuGet: no NuGet v3 package source is configured")
    assert "shipped data" in warning and "Newtonsoft.Json, xunit" in warning


def test_many_lookups_run_concurrently(registries, registry_server):
    names = ["requests", "pydantic", "nope-zz1", "nope-zz2", "Requests"]
    assert registries.exists_many(PYPI, names) == {
        "requests": True,
        "pydantic": True,
        "nope-zz1": False,
        "nope-zz2": False,
        "Requests": True,
    }
    got = registries.versions_many(CRATES, ["serde", "tokio", "nope-zz"])
    assert got["serde"] and got["tokio"] and got["nope-zz"] == []


def test_an_unreachable_host_ends_lookups_at_once(tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    reg = Registries(
        endpoints={PYPI: f"http://127.0.0.1:{port}/pypi"}, cache_dir=str(tmp_path), timeout=1
    )
    assert reg.exists(PYPI, "requests") is None
    client = reg.client(PYPI)
    assert client.http.offline  # no second connection attempt for the next names
    assert reg.exists_many(PYPI, ["a", "b"]) == {"a": None, "b": None}
    assert "connection failed" in reg.warnings[0] and "a, b, requests" in reg.warnings[0]


def test_only_failures_in_a_row_switch_a_registry_off(registry_server, tmp_path):
    reg = registry_server.registries(None, retries=0, max_failures=2)  # no cache: always ask
    registry_server.fail("/pypi/requests/json", 500)
    for _ in range(3):  # each failure is followed by a good answer
        assert reg.exists(PYPI, "requests") is None
        assert reg.exists(PYPI, "pydantic") is True
        reg.client(PYPI)._projects = type(reg.client(PYPI)._projects)()  # ask again
    assert not reg.client(PYPI).http.offline
    assert "HTTP 500" in reg.warnings[0] and "requests" in reg.warnings[0]


def test_a_refused_package_never_switches_the_registry_off(registry_server, tmp_path):
    # a registry that answers 403 for some names (a blocked or held package) answers the
    # others: the breaker would otherwise trip or not depending on the threads' order
    reg = registry_server.registries(None, retries=0, max_failures=2)
    for name in ("requests", "idna", "numpy"):
        registry_server.fail(f"/pypi/{name}/json", 403)
    for name in ("requests", "idna", "numpy"):  # more refusals in a row than max_failures
        assert reg.exists(PYPI, name) is None
    assert not reg.client(PYPI).http.offline
    assert reg.exists(PYPI, "pydantic") is True
    assert "HTTP 403" in reg.warnings[0]
