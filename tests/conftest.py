"""Keep the suite offline and deterministic.

- Every test run gets its own empty depinfer cache, so a warm user cache can neither hide
  a network access nor change an answer; uv (the resolve gate) runs with UV_OFFLINE.
- Outside tests marked `live`, in-process network connections are refused except to
  loopback (pytest-httpserver serves the recorded registry responses there). Subprocesses
  (the pre-commit test's own pip) are not affected.

Shared helpers for the test modules (`from conftest import ...`):
- where things are: `REPO`, `FIXTURES`; the benchmark's fixture dataset (`BENCH_TREES`,
  `BENCH_DATASET`, `BENCH_ARGS`, `bench_instances`); scripts/ as modules (`load_script`)
- building a repository in tmp_path: `write_tree`, `copy_fixture`; C# project files
  (`CSPROJ_LIB`, `CSPROJ_WEB`, `CSPROJ_EXE`) and the smallest Cargo.toml (`CARGO_X`)
- running stages by hand: `offline_context`; made-up publish dates: `utc_date`
- what an offline run places: `infer_offline`, `placements`, `runtime_names`,
  `names_by_manifest`, `manifest_names`, `manifest_projects`
Fixtures: `private_cargo_home` (an empty CARGO_HOME), `registry_server` (the recorded
registry answers served on loopback, see registry_server.py), `registries` (a
`Registries` asking it), `metadata_context`. The Rust tests' recorded crates registry is
rust_registry.py.
"""

from __future__ import annotations

import importlib.util
import ipaddress
import os
import shutil
import socket
import sys
from datetime import datetime, timezone
from pathlib import Path

import pytest

from depinfer.context import Context, Options
from depinfer.model import Inference
from depinfer.pipeline import infer

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "fixtures"  # fixtures/<language>/<repository>
# the benchmark harness's tiny dataset: its instances and their trees/<language>/<id>
BENCH_TREES = FIXTURES / "bench" / "trees"
BENCH_DATASET = FIXTURES / "bench" / "tiny.jsonl"
# `depinfer bench` arguments naming them
BENCH_ARGS = ("--dataset", str(BENCH_DATASET), "--trees", str(BENCH_TREES))


# C# project files the tests build repositories from: a library, a web app, an executable
CSPROJ_LIB = '<Project Sdk="Microsoft.NET.Sdk"><PropertyGroup><TargetFramework>net8.0</TargetFramework></PropertyGroup></Project>'
CSPROJ_WEB = (
    '<Project Sdk="Microsoft.NET.Sdk.Web"><PropertyGroup><TargetFramework>net8.0'
    "</TargetFramework></PropertyGroup></Project>"
)
CSPROJ_EXE = (
    '<Project Sdk="Microsoft.NET.Sdk"><PropertyGroup><OutputType>Exe</OutputType>'
    "<TargetFramework>net8.0</TargetFramework></PropertyGroup></Project>"
)

# the smallest Cargo.toml a Rust test repository starts from
CARGO_X = '[package]\nname = "x"\nedition = "2021"\n'


def write_tree(root: Path, files: dict[str, str]) -> Path:
    """Write {relative path: text} under root (folders made as needed); return root."""
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def fixture_crate(name: str, version: str) -> bytes | None:
    """The `.crate` (a gzipped tar) of fixtures/rust/crate-src/<name>-<version>, as a
    registry serves it to `download_crate`; None when the fixture has no such release."""
    import io
    import tarfile

    src = FIXTURES / "rust" / "crate-src" / f"{name}-{version}"
    if not src.is_dir():
        return None
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        tar.add(src, arcname=f"{name}-{version}")
    return buf.getvalue()


def copy_fixture(language: str, name: str, dest: Path) -> Path:
    """Copy the fixture repository fixtures/<language>/<name> to dest; return dest.
    (language is a folder under fixtures/: "rust", or "bench/trees/python" for a
    benchmark tree.)"""
    shutil.copytree(FIXTURES / language / name, dest)
    return dest


def load_script(name: str, monkeypatch=None):
    """scripts/<name>.py imported as a module; with monkeypatch it is in sys.modules while
    the test runs (dataclasses defined in it look their module up there)."""
    spec = importlib.util.spec_from_file_location(name, REPO / "scripts" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    if monkeypatch is not None:
        monkeypatch.setitem(sys.modules, name, module)
    spec.loader.exec_module(module)
    return module


def bench_instances() -> dict:
    """{id: Instance} of the benchmark's fixture dataset (a fresh copy for each caller)."""
    from depinfer.bench.dataset import load_dataset

    return {i.id: i for i in load_dataset(BENCH_DATASET)}


def offline_context(**options) -> Context:
    """A Context for running stages by hand: offline options (plus those given) and
    registries that answer nothing."""
    from depinfer.registries import Registries

    return Context(Options(offline=True, **options), Registries(offline=True))


def utc_date(year: int, month: int = 1) -> datetime:
    """The first of the month, UTC (publish dates of made-up releases)."""
    return datetime(year, month, 1, tzinfo=timezone.utc)


def infer_offline(root: Path, **options) -> Inference:
    """The pipeline on root, offline and without version look-ups."""
    return infer(root, Options(offline=True, versions=False, **options))


def placements(root: Path, *fields: str) -> set[tuple]:
    """(name, group) of every requirement an offline run writes, or the fields given."""
    fields = fields or ("name", "group")
    return {tuple(getattr(r, f) for f in fields) for r in infer_offline(root).requirements}


def runtime_names(root: Path) -> set[str]:
    """Names an offline run writes as required runtime dependencies (no group, not optional)."""
    return {r.name for r in infer_offline(root).requirements if r.group is None and not r.optional}


def names_by_manifest(root: Path, runtime_only: bool = True) -> dict[str, set[str]]:
    """{manifest: names} an offline run writes; by default only required runtime ones."""
    out: dict[str, set[str]] = {}
    for r in infer_offline(root).requirements:
        if not runtime_only or (r.group is None and not r.optional):
            out.setdefault(r.manifest, set()).add(r.name)
    return out


def manifest_projects(inference: Inference, manifest: str) -> list[str]:
    """Sorted paths of the repository's projects one manifest references."""
    return sorted(r.path for r in inference.requirements if r.manifest == manifest and r.internal)


def manifest_names(inference: Inference, manifest: str) -> list[str]:
    """Sorted package names (not project references) written to one manifest."""
    return sorted(
        r.name for r in inference.requirements if r.manifest == manifest and not r.internal
    )


@pytest.fixture(autouse=True, scope="session")
def _private_cache(tmp_path_factory):
    # uv, run by the resolve gate, must not reach an index from the suite either
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
def private_cargo_home(tmp_path_factory, monkeypatch):
    """An empty CARGO_HOME: crate sources come from the shipped snapshots in fixtures/rust,
    not from whatever this machine's cargo has downloaded."""
    monkeypatch.setenv("CARGO_HOME", str(tmp_path_factory.mktemp("cargo-home")))


@pytest.fixture
def registry_server(httpserver):
    """The recorded answers in fixtures/registry served on loopback (registry_server.py)."""
    from registry_server import RegistryServer

    return RegistryServer(httpserver)


@pytest.fixture
def registries(registry_server, tmp_path):
    """`Registries` asking registry_server, with a private cache in tmp_path."""
    return registry_server.registries(tmp_path / "cache")


@pytest.fixture
def metadata_context():
    """A Context whose registry answers `metadata` from recorded responses
    ({name: metadata}), or, with offline=True, an offline one that answers nothing."""
    from depinfer.context import Context, Options

    def make(recorded=None, offline=False):
        class Registry:
            def metadata(self, ecosystem, name, version=None):
                return (recorded or {}).get(name, {})

            def metadata_many(self, ecosystem, names):
                return {name: self.metadata(ecosystem, name) for name in names}

        registry = Registry()
        registry.offline = offline
        return Context(options=Options(offline=offline), registries=registry)

    return make
