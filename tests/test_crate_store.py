"""The crate store: a `.crate` unpacked once and what the readers find in it kept."""

from __future__ import annotations

import io
import tarfile

from depinfer.registries import crate_sources
from depinfer.registries.crate_sources import crate_source, remembered


def _crate(files: dict[str, str]) -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        for name, text in files.items():
            data = text.encode()
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return buf.getvalue()


class _Registry:
    def __init__(self, data: bytes) -> None:
        self.data = data

    def download_crate(self, name, version):  # noqa: ARG002
        return self.data


def test_a_crate_is_unpacked_once_into_the_store(tmp_path, monkeypatch):
    data = _crate({"foo-1.0.0/Cargo.toml": "[package]\nname='foo'\n", "foo-1.0.0/src/lib.rs": ""})
    monkeypatch.setattr(crate_sources, "cargo_source_dir", lambda *a: None)
    store = tmp_path / "crates"
    work: list = []
    root = crate_source("foo", "1.0.0", _Registry(data), False, work, "", store)
    assert root is not None and (root / "src" / "lib.rs").is_file()
    assert not work  # nothing unpacked into the run's work directory

    def refuse(*args):
        raise AssertionError("unpacked again")

    monkeypatch.setattr(crate_sources, "unpack_crate", refuse)
    assert crate_source("foo", "1.0.0", _Registry(data), False, work, "", store) == root
    calls = []
    compute = lambda: calls.append(1) or {"a::b": ["x"]}  # noqa: E731
    assert remembered(str(root), "gates", compute) == {"a::b": ["x"]}
    assert remembered(str(root), "gates", compute) == {"a::b": ["x"]}
    assert calls == [1]


def test_a_folder_outside_the_store_is_kept_by_its_files_state(tmp_path):
    root = tmp_path / "src-crate"
    (root / "src").mkdir(parents=True)
    lib = root / "src" / "lib.rs"
    lib.write_text("pub fn a() {}\n")
    store = tmp_path / "store"
    calls = []

    def compute():
        calls.append(1)
        return {"n": [str(len(calls))]}

    assert remembered(str(root), "gates", compute, store) == {"n": ["1"]}
    assert remembered(str(root), "gates", compute, store) == {"n": ["1"]}
    lib.write_text("pub fn a() {}\npub fn b() {}\n")  # changed: read again
    assert remembered(str(root), "gates", compute, store) == {"n": ["2"]}
    assert remembered(str(root), "gates", compute) == {"n": ["3"]}  # no store: each time
    assert remembered(str(root), "other", lambda: ("a",), store) == ("a",)  # not JSON-exact
    assert not list((store / "local").glob("*.other.json"))


class _IndexedRegistry(_Registry):
    """A registry facade whose crates client names its index (as the real one does)."""

    def __init__(self, data: bytes, url: str = "sparse+https://index.example/") -> None:
        super().__init__(data)
        self.url = url
        self.downloads = 0

    def client(self, ecosystem):  # noqa: ARG002
        return type("Client", (), {"index": type("Index", (), {"url": self.url})()})()

    def download_crate(self, name, version):
        self.downloads += 1
        return super().download_crate(name, version)


def test_a_release_unpacked_once_is_not_downloaded_again(tmp_path, monkeypatch):
    data = _crate({"foo-1.0.0/Cargo.toml": "[package]\nname='foo'\n", "foo-1.0.0/src/lib.rs": ""})
    monkeypatch.setattr(crate_sources, "cargo_source_dir", lambda *a: None)
    store = tmp_path / "crates"
    registry = _IndexedRegistry(data)
    root = crate_source("foo", "1.0.0", registry, False, [], "", store)
    assert root is not None and registry.downloads == 1
    assert crate_source("foo", "1.0.0", registry, False, [], "", store) == root
    assert registry.downloads == 1  # the store's note of the release answered
    other = _IndexedRegistry(data, url="sparse+https://mirror.example/")
    assert crate_source("foo", "1.0.0", other, False, [], "", store) == root
    assert other.downloads == 1  # another index: its own release, downloaded


class _VersionedRegistry(_IndexedRegistry):
    """Releases and `.crate` files per crate name; downloads counted by thread."""

    def __init__(self) -> None:
        super().__init__(b"")
        import threading

        self.threads: set[int] = set()
        self.current = threading.get_ident

    def versions_many(self, ecosystem, names):  # noqa: ARG002
        from depinfer.registries.base import VersionInfo

        return {n: [VersionInfo("1.0.0"), VersionInfo("1.1.0")] for n in names}

    def download_crate(self, name, version):
        self.downloads += 1
        self.threads.add(self.current())
        return _crate({f"{name}-{version}/Cargo.toml": f"[package]\nname='{name}'\n"})


def test_releases_are_prefetched_into_the_store_and_read_from_it_after(tmp_path, monkeypatch):
    from depinfer.context import Context, Options
    from depinfer.filecache import FileCache
    from depinfer.mapping.rust_sources import prefetch_sources, release_source
    from depinfer.model import Project

    monkeypatch.setattr(crate_sources, "cargo_source_dir", lambda *a: None)
    registry = _VersionedRegistry()
    ctx = Context(Options(), registries=registry)  # type: ignore[arg-type]
    ctx.files = FileCache(tmp_path / "cache", tmp_path)
    project = Project(root=tmp_path, files=[])
    prefetch_sources(["aa", "bb", "cc"], project, ctx)
    assert registry.downloads == 3
    for name in ("aa", "bb", "cc"):
        root = release_source(name, "1.1.0", ctx, [])  # the newest: what was prefetched
        assert root is not None and root.name == f"{name}-1.1.0"
    assert registry.downloads == 3  # each read found its release in the store
    offline = Context(Options(offline=True), registries=registry)  # type: ignore[arg-type]
    offline.files = ctx.files
    prefetch_sources(["dd", "ee"], project, offline)
    assert registry.downloads == 3  # offline: nothing asked
