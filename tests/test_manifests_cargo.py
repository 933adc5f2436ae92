"""Cargo.toml reading and writing: declared tables, facts, format-preserving edits."""

from __future__ import annotations

import pytest

from depinfer.facts.rust import CargoEntry
from depinfer.manifests import ManifestError
from depinfer.manifests.cargo import read, render
from depinfer.model import Ecosystem, Manifest, Requirement, Section

TEXT = """\
[package]
name = "my-tool"  # the binary
version = "0.2.0"
edition = "2021"
rust-version = "1.70"

[lib]
path = "src/lib.rs"

[[bin]]
name = "tool"
path = "src/bin/tool.rs"

[features]
default = ["json"]
json = ["dep:serde_json", "serde/std"]

[dependencies]

[dev-dependencies]
tempfile = { version = "3", features = ["nightly"] }

[target.'cfg(unix)'.dependencies]
nix = "0.29"

[build-dependencies]
cc = "1"
"""


def manifest(text: str = TEXT, path: str = "Cargo.toml") -> Manifest:
    declared, data = read(text, path)
    return Manifest(path, Ecosystem.CRATES, "cargo", declared=declared, data=data)


def req(name: str, **kw) -> Requirement:
    return Requirement(Ecosystem.CRATES, name, "Cargo.toml", **kw)


def test_read_declares_every_dependency_table():
    m = manifest()
    assert m.declared == {
        "dependencies": [],
        "dev-dependencies": ["tempfile"],
        "target.cfg(unix).dependencies": ["nix"],
        "build-dependencies": ["cc"],
    }


def test_read_collects_package_facts():
    data = manifest().data
    assert data["name"] == "my-tool"
    assert data["lib_name"] == "my_tool"
    assert data["edition"] == "2021"
    assert data["rust_version"] == "1.70"
    assert data["virtual"] is False
    assert data["features"]["json"] == ["dep:serde_json", "serde/std"]
    assert data["targets"]["bin"] == [{"name": "tool", "path": "src/bin/tool.rs"}]
    assert data["deps"]["dev-dependencies"]["tempfile"]["features"] == ["nightly"]


def test_read_virtual_workspace():
    text = '[workspace]\nmembers = ["crates/*"]\n\n[workspace.dependencies]\nserde = { version = "1", features = ["derive"] }\nmine = { package = "their-crate", version = "2" }\n'
    m = manifest(text)
    assert m.data["virtual"] is True
    assert m.data["workspace"]["members"] == ["crates/*"]
    assert m.declared["workspace.dependencies"] == ["serde", "mine"]
    assert m.data["workspace"]["dependencies"]["mine"]["package"] == "their-crate"


def test_read_inherited_fields_mark_the_workspace():
    m = manifest('[package]\nname = "a"\nedition.workspace = true\n')
    assert m.data["edition"] == "workspace"


def test_broken_toml_raises_manifest_error():
    with pytest.raises(ManifestError):
        read("[package\nname = 1", "Cargo.toml")


def test_render_fills_the_empty_table_and_keeps_everything_else():
    m = manifest()
    new = render(
        TEXT,
        m,
        [
            req("serde", spec="1.0", features=["derive"]),
            req("anyhow", spec="1.0"),
            req("serde_json", spec="1.0", optional=True),
        ],
    )
    assert (
        '[dependencies]\nanyhow = "1.0"\nserde = { version = "1.0", features = ["derive"] }\nserde_json = { version = "1.0", optional = true }\n'
        in new
    )
    assert "# the binary" in new
    # nothing outside [dependencies] moved
    assert (
        new.replace(
            'anyhow = "1.0"\nserde = { version = "1.0", features = ["derive"] }\nserde_json = { version = "1.0", optional = true }\n',
            "",
        )
        == TEXT
    )


def test_render_is_idempotent():
    m = manifest()
    reqs = [req("anyhow", spec="1.0"), req("tempfile", spec="3", section=Section.DEV)]
    once = render(TEXT, m, reqs)
    again = render(once, manifest(once), reqs)
    assert again == once


def test_render_existing_entries_are_never_touched():
    m = manifest()
    new = render(TEXT, m, [req("tempfile", spec="9", section=Section.DEV)])
    assert new == TEXT


def test_render_creates_tables_in_cargo_order():
    text = '[package]\nname = "a"\n\n[dev-dependencies]\nx = "1"\n'
    new = render(
        text,
        manifest(text),
        [req("anyhow", spec="1.0"), req("cc", spec="1.0", section=Section.BUILD)],
    )
    assert new.index("[dependencies]") < new.index("[dev-dependencies]")
    assert new.rstrip().endswith('[build-dependencies]\ncc = "1.0"')


def test_render_target_table_for_cfg_markers():
    m = manifest()
    new = render(
        TEXT,
        m,
        [
            req("libc", spec="0.2", markers="cfg(unix)"),
            req("winapi", spec="0.3", markers="cfg(windows)"),
        ],
    )
    assert 'nix = "0.29"\nlibc = "0.2"' in new
    assert "[target.'cfg(windows)'.dependencies]\nwinapi = \"0.3\"" in new


def test_render_workspace_inheritance_and_path_and_rename():
    m = manifest()
    new = render(
        TEXT,
        m,
        [
            req("serde", features=["rc"], facts=CargoEntry(workspace=True)),
            req("my-core", spec="0.2.0", path="../core", internal=True),
            req("chrono_0_4", spec="0.4", optional=True, facts=CargoEntry(package="chrono")),
        ],
    )
    assert 'serde = { workspace = true, features = ["rc"] }' in new
    assert 'my-core = { path = "../core", version = "0.2.0" }' in new
    assert 'chrono_0_4 = { package = "chrono", version = "0.4", optional = true }' in new


def test_render_follows_tight_inline_tables():
    text = '[package]\nname = "a"\n\n[dependencies]\n\n[dev-dependencies]\nx = {version = "1", features = ["y"]}\n'
    new = render(text, manifest(text), [req("serde", spec="1.0", features=["derive"])])
    assert 'serde = {version = "1.0", features = ["derive"]}' in new


def test_render_without_version_writes_star():
    m = manifest()
    assert 'anyhow = "*"' in render(TEXT, m, [req("anyhow")])
