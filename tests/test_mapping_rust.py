"""Rust mapping: which crate a name the code uses is (renames, library names unlike the
package's, the names a crate's glob re-exports bring into scope)."""

from __future__ import annotations

from pathlib import Path

import pytest
import rust_registry
from conftest import CARGO_X, write_tree
from rust_registry import RecordedRegistry

from depinfer.analyzers.rust import analyze
from depinfer.context import Context, Options
from depinfer.facts.rust import crate_of
from depinfer.mapping.rust import map_imports
from depinfer.mapping.rust_globs import names_at
from depinfer.scan import scan

# crate sources come from the shipped snapshot, not whatever this machine's cargo has
pytestmark = pytest.mark.usefixtures("private_cargo_home")


def test_names_at_follows_a_crates_own_glob_reexports():
    gates = {
        "prelude::*crate::window": [],
        "prelude::glam": [],
        "window::miniquad": [],
        "window::timer::now": [],
        "window::Conf": [],
    }
    assert names_at(gates, "prelude") == {"glam", "miniquad", "timer", "Conf"}


def test_a_crate_attribute_names_a_registry_crate_renamed(tmp_path):
    write_tree(
        tmp_path,
        {
            "Cargo.toml": CARGO_X,
            "src/lib.rs": "use serde::Deserialize;\n\n"
            "#[derive(Deserialize)]\npub struct Plain { a: u8 }\n\n"
            '#[derive(::s::Serialize)]\n#[serde(crate = "::s")]\npub struct Renamed { b: u8 }\n',
        },
    )
    project = scan(tmp_path)
    ctx = Context(Options(offline=True), registries=RecordedRegistry())
    found = {c.name: c for c in map_imports(project, analyze(project, ctx), ctx)}
    assert crate_of(found["s"]).package == "serde"


def test_a_folder_named_like_the_code_s_crate_holds_the_prefixed_member(tmp_path):
    """`prover/` holds miden-prover and the code says `prover::`: a path dependency on the
    member under its folder's name, never the registry's unrelated `prover`."""
    write_tree(
        tmp_path,
        {
            "Cargo.toml": '[workspace]\nmembers = ["prover", "cli", "air"]\n',
            "prover/Cargo.toml": '[package]\nname = "miden-prover"\nversion = "0.4.0"\n',
            "prover/src/lib.rs": "pub fn prove() {}\n",
            "air/Cargo.toml": '[package]\nname = "air"\nversion = "0.1.0"\n',
            "air/src/lib.rs": "pub fn a() {}\n",
            "cli/Cargo.toml": '[package]\nname = "miden"\nversion = "0.4.0"\n'
            '[features]\nconcurrent = ["prover/concurrent"]\n',
            "cli/src/lib.rs": "pub fn run() { prover::prove(); air::a(); }\n",
        },
    )
    project = scan(tmp_path)
    ctx = Context(Options(offline=True), registries=RecordedRegistry())
    found = {c.name: c for c in map_imports(project, analyze(project, ctx), ctx)}
    assert found["prover"].internal and found["prover"].path == "../prover"
    assert crate_of(found["prover"]).package == "miden-prover"
    assert found["air"].internal and crate_of(found["air"]).package is None  # its own name


def test_a_prefixed_member_that_lacks_the_names_is_not_the_crate_the_code_means(tmp_path):
    """`serde/` holds app-serde, an integration crate; `serde::Serialize` is the real serde."""
    write_tree(
        tmp_path,
        {
            "Cargo.toml": '[workspace]\nmembers = ["serde", "cli"]\n',
            "serde/Cargo.toml": '[package]\nname = "app-serde"\nversion = "0.1.0"\n',
            "serde/src/lib.rs": "pub fn to_text() {}\n",
            "cli/Cargo.toml": '[package]\nname = "app"\nversion = "0.1.0"\n',
            "cli/src/lib.rs": "use serde::Serialize;\n#[derive(Serialize)]\npub struct A;\n",
        },
    )
    project = scan(tmp_path)
    ctx = Context(Options(offline=True), registries=RecordedRegistry())
    found = {c.name: c for c in map_imports(project, analyze(project, ctx), ctx)}
    assert "serde" in found and not found["serde"].internal


def test_a_member_built_only_as_a_cdylib_is_no_crate_another_can_use(tmp_path):
    """A Python extension member (`[lib] name = "engine"`, crate-type cdylib) shares its
    library name with the code's `engine::`; Cargo cannot link it into another crate, so
    the other member's `engine::` is not a path dependency on it. A cdylib that is also an
    rlib stays linkable."""
    files = {
        "Cargo.toml": '[workspace]\nmembers = ["py", "app"]\n',
        "py/Cargo.toml": '[package]\nname = "engine-py"\nversion = "0.1.0"\n'
        '[lib]\nname = "engine"\ncrate-type = ["cdylib"]\n',
        "py/src/lib.rs": "pub fn run() {}\n",
        "app/Cargo.toml": '[package]\nname = "app"\nversion = "0.1.0"\n',
        "app/src/lib.rs": "pub fn go() { engine::run(); }\n",
    }
    write_tree(tmp_path, files)
    project = scan(tmp_path)
    ctx = Context(Options(offline=True), registries=RecordedRegistry())
    found = [c for c in map_imports(project, analyze(project, ctx), ctx) if c.internal]
    assert found == []
    files["py/Cargo.toml"] = files["py/Cargo.toml"].replace('["cdylib"]', '["cdylib", "rlib"]')
    write_tree(tmp_path, files)
    project = scan(tmp_path)
    found = [c for c in map_imports(project, analyze(project, ctx), ctx) if c.internal]
    assert [(c.name, c.path) for c in found] == [("engine-py", "../py")]


def _mapped(root: Path, offline: bool = False) -> set[str]:
    project = scan(root)
    ctx = Context(Options(offline=offline), registries=RecordedRegistry())
    return {c.name for c in map_imports(project, analyze(project, ctx), ctx)}


def test_a_library_name_maps_to_the_popular_package_that_builds_it(tmp_path, monkeypatch):
    # md-5 builds the library md5 (data/rust_lib_names.json, from the Rust Playground's list)
    monkeypatch.setattr(rust_registry, "KNOWN_NAMES", {"md-5"})
    code = "use md5::{Digest, Md5};\npub fn h(b: &[u8]) { Md5::digest(b); }\n"
    write_tree(tmp_path, {"Cargo.toml": CARGO_X, "src/lib.rs": code})
    assert _mapped(tmp_path) == {"md-5"}


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        ("use md5::{Digest, Md5};\npub fn h(b: &[u8]) { Md5::digest(b); }\n", "md-5"),
        ("pub fn h(b: &[u8]) { md5::compute(b); }\n", "md5"),
    ],
)
def test_the_names_the_code_uses_decide_between_the_library_and_a_crate_of_its_name(
    tmp_path, monkeypatch, code, expected
):
    from depinfer.mapping import rust as mapping

    monkeypatch.setattr(rust_registry, "KNOWN_NAMES", {"md-5", "md5"})
    sources = {
        "md-5": "pub use digest::Digest;\npub type Md5 = u8;\n",
        "md5": "pub struct Digest;\npub struct Context;\npub fn compute() {}\n",
    }
    for crate, lib in sources.items():
        write_tree(
            tmp_path / crate, {"Cargo.toml": f'[package]\nname = "{crate}"\n', "src/lib.rs": lib}
        )
    monkeypatch.setattr(mapping, "registry_source", lambda name, *a: (tmp_path / name, None))
    user = write_tree(tmp_path / "user", {"Cargo.toml": CARGO_X, "src/lib.rs": code})
    assert _mapped(user) == {expected}
    assert _mapped(user, offline=True) == {"md5"}  # nothing to compare: the crate of that name
