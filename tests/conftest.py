"""Keep the suite offline and deterministic.

- Every test run gets its own empty depinfer cache, so a warm user cache can neither hide
  a network access nor change an answer; uv (the joint resolve) runs with UV_OFFLINE.
- Outside tests marked `live`, in-process network connections are refused except to
  loopback (pytest-httpserver serves the recorded registry responses there). Subprocesses
  (the pre-commit test's own pip) are not affected.
"""

from __future__ import annotations

import ipaddress
import os
import socket

import pytest


@pytest.fixture(autouse=True, scope="session")
def _private_cache(tmp_path_factory):
    # uv, run by the joint resolve, must not reach an index from the suite either
    values = {
        "DEPINFER_CACHE_DIR": str(tmp_path_factory.mktemp("depinfer-cache")),
        "UV_OFFLINE": "1",
    }
    previous = {k: os.environ.get(k) for k in values}
    os.environ.update(values)
    yield
    for key, value in previous.items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value


def _loopback(address) -> bool:
    if not isinstance(address, tuple):
        return True  # AF_UNIX and friends
    host = address[0]
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.split("%")[0]).is_loopback
    except ValueError:
        return False


@pytest.fixture(autouse=True)
def _no_network(request, monkeypatch):
    if request.node.get_closest_marker("live"):
        return
    real_connect = socket.socket.connect
    real_connect_ex = socket.socket.connect_ex

    def guard(address):
        if not _loopback(address):
            raise ConnectionRefusedError(f"tests are offline: refused connection to {address!r}")

    def connect(self, address):
        guard(address)
        return real_connect(self, address)

    def connect_ex(self, address):
        guard(address)
        return real_connect_ex(self, address)

    monkeypatch.setattr(socket.socket, "connect", connect)
    monkeypatch.setattr(socket.socket, "connect_ex", connect_ex)


@pytest.fixture
def metadata_context():
    """A Context whose registry answers `metadata` from recorded responses
    ({name: metadata}), or, with offline=True, an offline one that answers nothing."""
    from depinfer.context import Context, Options

    def make(recorded=None, offline=False):
        class Registry:
            def metadata(self, ecosystem, name, version=None):
                return (recorded or {}).get(name, {})

        registry = Registry()
        registry.offline = offline
        return Context(options=Options(offline=offline), registries=registry)

    return make
