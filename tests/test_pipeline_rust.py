"""Rust end to end: fixture crates and workspace → Cargo.toml edits, with the recorded
registry of rust_registry.py (real versions, yanks, rust_version and publish times)."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

import pytest
import tomlkit
from conftest import copy_fixture, fixture_crate, write_tree
from rust_registry import RecordedRegistry

from depinfer.context import Context, Options
from depinfer.model import Ecosystem
from depinfer.pipeline import infer
from depinfer.registries import Registries
from depinfer.registries.base import VersionInfo

# crate sources come from the shipped snapshot, not whatever this machine's cargo has
pytestmark = pytest.mark.usefixtures("private_cargo_home")


def infer_rust(root: Path, registry: Registries | None = None, **opts):
    """The pipeline on root for Rust, answered by registry (by default the recorded one):
    the inference and {path: parsed new text} of its manifest edits."""
    registry = RecordedRegistry() if registry is None else registry
    ctx = Context(Options(languages=("rust",), **opts), registries=registry)
    result = infer(root, ctx.options, ctx=ctx)
    return result, {e.path: tomlkit.parse(e.new_text) for e in result.edits}


def run(tmp_path: Path, fixture: str, registry: Registries | None = None, **opts):
    """infer_rust on a copy of the fixture crate fixtures/rust/<fixture>."""
    return infer_rust(copy_fixture("rust", fixture, tmp_path / fixture), registry, **opts)


@pytest.fixture
def app(tmp_path):
    return run(tmp_path, "app")


def test_runtime_dependencies_of_the_app(app):
    _, edits = app
    deps = edits["Cargo.toml"]["dependencies"]
    assert set(deps) >= {
        "anyhow",
        "clap",
        "serde",
        "serde_json",
        "tokio",
        "regex",
        "itertools",
        "log",
    }
    assert "humantime-serde" in deps  # `#[serde(with = "humantime_serde")]`, dashed in the registry
    assert "winapi" not in deps  # declared in the kept cfg(windows) table
    assert "nix" in deps  # cfg(unix) use, and the manifest has no cfg(unix) table
    assert "tempfile" not in deps  # the kept [dev-dependencies] lists it


def test_features_from_derives_and_sources(app):
    _, edits = app
    deps = edits["Cargo.toml"]["dependencies"]
    assert list(deps["serde"]["features"]) == ["derive"]
    assert list(deps["clap"]["features"]) == ["derive"]
    # the app needs macros, net and rt-multi-thread: an application writes tokio's `full`
    assert list(deps["tokio"]["features"]) == ["full"]


def test_optional_dependencies_from_features_table(app):
    _, edits = app
    deps = edits["Cargo.toml"]["dependencies"]
    assert (
        deps["serde_json"]["optional"] is True
    )  # dep:serde_json, used under cfg(feature = "json")
    assert deps["reqwest"]["optional"] is True  # only `reqwest?/rustls-tls` names it
    assert "anyhow" in deps and not isinstance(deps["anyhow"], dict)


def test_test_crates_the_kept_dev_table_lacks_and_build_dependencies(app):
    # [dependencies] is being restored beside a kept [dev-dependencies] (tempfile) and a kept
    # cfg(windows) table: the tests built from both tables, so the crates only they use that
    # the dev table does not list were in [dependencies]
    _, edits = app
    doc = edits["Cargo.toml"]
    assert {"assert_cmd", "owo-colors", "pretty_assertions"} <= set(doc["dependencies"])
    assert set(doc["dev-dependencies"]) == {"tempfile"}
    assert list(doc["build-dependencies"]) == ["version_check"]


def test_versions_are_caret_shorthand_fitting_rust_version(app):
    _, edits = app
    deps = edits["Cargo.toml"]["dependencies"]
    # the repository writes `tempfile = "3"` and `winapi = "0.3"`: major only, 0.x to the minor
    assert deps["anyhow"] == "1"
    # serde's newest recorded releases need a newer rust than... the project's 1.70 allows them
    assert deps["serde"]["version"] == "1"
    assert deps["itertools"].startswith("0.")
    assert deps["itertools"].count(".") == 1


def test_as_of_date_bounds_versions(tmp_path):
    releases = RecordedRegistry().versions(Ecosystem.CRATES, "anyhow")
    older, newer = sorted(releases, key=lambda v: v.published)[-3:-1]
    as_of = older.published.isoformat()
    _, edits = run(tmp_path, "app", as_of=as_of)
    spec = edits["Cargo.toml"]["dependencies"]["anyhow"]
    assert spec == older.version.split(".")[0]  # in the repository's major-only style
    assert newer.published > older.published


def test_crates_without_a_fitting_version_are_reported_not_written(tmp_path):
    root = copy_fixture("rust", "app", tmp_path / "app")
    toml = root / "Cargo.toml"
    toml.write_text(toml.read_text().replace('rust-version = "1.85"', 'rust-version = "1.30"'))
    result, edits = infer_rust(root)
    # [features] names serde_json and reqwest, which no release fits either: the resolve gate
    # leaves the manifest unwritten rather than writing one cargo refuses
    assert "Cargo.toml" not in edits
    assert any("'tokio'" in d.message and "rust-version" in d.message for d in result.diagnostics)
    assert any("`serde_json` is not a dependency" in d.message for d in result.diagnostics)


def test_workspace_members_inherit_and_link(tmp_path):
    result, edits = run(tmp_path, "workspace")
    core = edits["crates/core/Cargo.toml"]["dependencies"]
    cli = edits["crates/cli/Cargo.toml"]["dependencies"]
    assert dict(core["serde"]) == {"workspace": True}  # derive already in the workspace entry
    assert "thiserror" in core
    assert dict(cli["anyhow"]) == {"workspace": True}
    assert dict(cli["ws-core"]) == {"path": "../core", "version": "0.1.0"}
    assert "ws-cli" not in core  # no cycle
    # workspace crates `[features]` names (used under the feature, or not at all in code)
    # are path dependencies, optional, never registry crates of the same name
    for key, folder in (("ws-index", "../index"), ("ws-extra", "../extra")):
        assert dict(cli[key]) == {"path": folder, "version": "0.1.0", "optional": True}
    # `#[ws_core(crate = "::core2")]`: the tests' `core2` is the core crate renamed
    dev = edits["crates/cli/Cargo.toml"]["dev-dependencies"]
    assert dict(dev["core2"]) == {"package": "ws-core", "path": "../core", "version": "0.1.0"}


def test_renamed_dependency_from_features(tmp_path):
    _, edits = run(tmp_path, "renamed")
    entry = edits["Cargo.toml"]["dependencies"]["chrono_0_4"]
    assert entry["package"] == "chrono"
    assert entry["optional"] is True
    assert entry["version"].startswith("0.4")


def test_offline_uses_repository_versions_or_skips(tmp_path):
    result, edits = run(tmp_path, "workspace", offline=True)
    # workspace inheritance needs no version; nothing else is guessed
    assert dict(edits["crates/cli/Cargo.toml"]["dependencies"]["anyhow"]) == {"workspace": True}


def test_names_only_run_writes_star(tmp_path):
    _, edits = run(tmp_path, "app", offline=True, versions=False)
    assert edits["Cargo.toml"]["dependencies"]["anyhow"] == "*"
    # entries with features get their "*" too: cargo refuses an entry without a version
    tables = [edits["Cargo.toml"]["dependencies"], edits["Cargo.toml"]["dev-dependencies"]]
    for table in tables:
        for name, entry in table.items():
            if not isinstance(entry, str) and "path" not in entry and "workspace" not in entry:
                assert entry["version"] == "*", name


def test_second_run_changes_nothing(tmp_path):
    result, _ = run(tmp_path, "app")
    root = tmp_path / "app"
    for e in result.edits:
        (root / e.path).write_text(e.new_text)
    again, _ = infer_rust(root)
    assert all(not e.changed for e in again.edits)


class OldApiRegistry(RecordedRegistry):
    """Two releases of `oldapi`; the newer one dropped the function the code calls."""

    def versions(self, ecosystem: Ecosystem, name: str) -> list[VersionInfo]:
        if name != "oldapi":
            return super().versions(ecosystem, name)
        return [
            VersionInfo(
                "1.0.0", extra={"name": "oldapi", "features": {"default": ["std"], "std": []}}
            ),
            VersionInfo(
                "2.0.0", extra={"name": "oldapi", "features": {"default": ["std"], "std": []}}
            ),
        ]

    def exists(self, ecosystem: Ecosystem, name: str) -> bool | None:
        return True if name == "oldapi" else super().exists(ecosystem, name)

    def download_crate(self, name: str, version: str) -> bytes | None:
        return fixture_crate(name, version)


def test_api_the_code_uses_caps_the_version(tmp_path):
    _, edits = run(tmp_path, "apiuse", OldApiRegistry())
    deps = edits["Cargo.toml"]["dependencies"]
    assert deps["oldapi"] == "1.0"  # 2.0 has no `serialize`; glob-lifted `Options` is in 1.0


class GlobLogRegistry(OldApiRegistry):
    """`globlog` 0.1 (re-exports `Vec` beside its macro) and 0.4 (the macro and a function)."""

    def versions(self, ecosystem: Ecosystem, name: str) -> list[VersionInfo]:
        if name != "globlog":
            return super().versions(ecosystem, name)
        return [
            VersionInfo(v, extra={"name": "globlog", "features": {}}) for v in ("0.1.0", "0.4.0")
        ]

    def exists(self, ecosystem: Ecosystem, name: str) -> bool | None:
        return True if name == "globlog" else super().exists(ecosystem, name)


def test_prelude_names_after_a_glob_import_do_not_pick_an_old_major(tmp_path):
    # `use globlog::*; Vec::new()`: `Vec` is the prelude's, not a name 0.4 lacks
    _, edits = run(tmp_path, "globprelude", GlobLogRegistry())
    assert edits["Cargo.toml"]["dependencies"]["globlog"] == "0.4.0"


def test_member_cycles_are_broken(tmp_path):
    root = copy_fixture("rust", "workspace", tmp_path / "workspace")
    lib = root / "crates" / "core" / "src" / "lib.rs"
    lib.write_text(
        lib.read_text() + "\npub fn back() { let _ = ws_cli_marker(); }\nfn ws_cli_marker() {}\n"
    )
    # core now names the cli crate once (weaker than cli's use of core)
    lib.write_text(lib.read_text() + "pub type Back = ws_cli::Marker;\n")
    (root / "crates" / "cli" / "src" / "lib.rs").write_text("pub struct Marker;\n")
    result, edits = infer_rust(root)
    core = edits["crates/core/Cargo.toml"]["dependencies"]
    cli = edits["crates/cli/Cargo.toml"]["dependencies"]
    assert ("ws-cli" in core) != ("ws-core" in cli)
    assert any("cycle" in d.message for d in result.diagnostics)


def test_runtime_use_of_a_dev_dependency_reuses_its_version(tmp_path):
    root = copy_fixture("rust", "app", tmp_path / "app")
    main = root / "src" / "main.rs"
    main.write_text(main.read_text() + "\npub fn scratch() { let _ = tempfile::tempdir(); }\n")
    _, edits = infer_rust(root)
    deps = edits["Cargo.toml"]["dependencies"]
    assert deps["tempfile"] == "3"  # as [dev-dependencies] has it: one copy of the crate


def test_broken_manifest_is_reported_and_left_alone(tmp_path):
    root = copy_fixture("rust", "workspace", tmp_path / "workspace")
    broken = root / "crates" / "core" / "Cargo.toml"
    broken.write_text('[package\nname = "ws-core"\n')
    result, _ = infer_rust(root)
    assert "crates/core/Cargo.toml" not in {e.path for e in result.edits}
    assert any(d.file == "crates/core/Cargo.toml" for d in result.diagnostics)
    assert "crates/cli/Cargo.toml" in {e.path for e in result.edits}


def test_test_only_features_ride_on_dependencies_without_a_dev_entry(tmp_path):
    _, edits = run(tmp_path, "shared-serde")
    deps = edits["Cargo.toml"]["dependencies"]
    tokio = list(deps["tokio"]["features"])
    assert "sync" in tokio and "macros" in tokio  # #[tokio::test] builds against this entry
    assert "full" not in tokio  # a library keeps the minimal list
    assert sorted(deps["serde"]["features"]) == ["derive", "rc"]  # Arc<str> field


def test_test_only_features_stay_in_the_dev_entry_the_manifest_has(tmp_path):
    root = copy_fixture("rust", "shared-serde", tmp_path / "src")
    toml = root / "Cargo.toml"
    toml.write_text(
        toml.read_text() + '\n[dev-dependencies]\ntokio = { version = "1", features = ["full"] }\n'
    )
    _, edits = infer_rust(root)
    deps = edits["Cargo.toml"]["dependencies"]
    assert "macros" not in list(deps["tokio"]["features"])


def test_renames_of_one_crate_keep_the_version_each_key_names(tmp_path):
    _, edits = run(tmp_path, "renamed-majors")
    deps = edits["Cargo.toml"]["dependencies"]
    assert (deps["schemars_0_8"]["package"], deps["schemars_0_8"]["version"]) == (
        "schemars",
        "0.8.16",
    )
    assert (deps["schemars_0_9"]["package"], deps["schemars_0_9"]["version"]) == (
        "schemars",
        "0.9.0",
    )


def test_a_feature_naming_a_crate_the_dev_dependencies_list_still_needs_it_optional(tmp_path):
    _, edits = run(tmp_path, "optional-in-tests")
    entry = edits["Cargo.toml"]["dependencies"]["serde"]
    assert entry["optional"] is True


def test_path_roots_a_glob_import_brings_in_are_not_crates(tmp_path):
    # `use engine::prelude::*;` brings `chrono` (a module, through `pub use crate::window::*`)
    # and `regex` (`pub use log as regex`): names in scope come before the extern prelude,
    # though the registry has crates of those names
    _, edits = run(tmp_path, "glob-reexports")
    game = edits["game/Cargo.toml"]["dependencies"]
    assert dict(game["engine"]) == {"path": "../engine", "version": "0.2.0"}
    assert "itertools" in game
    assert "chrono" not in game and "regex" not in game
    # the same glob inside an inline `mod tests` only (game/src/scores.rs)
    assert "chrono" not in edits["game/Cargo.toml"].get("dev-dependencies", {})


def test_a_key_features_name_keeps_its_spelling_and_renames_the_published_crate(tmp_path):
    _, edits = run(tmp_path, "feature-key-spelling")
    entry = edits["Cargo.toml"]["dependencies"]["humantime_serde"]
    assert entry["package"] == "humantime-serde"
    assert entry["optional"] is True


def test_a_crate_a_facade_reexports_under_an_alias_takes_its_features_through_the_facade(
    tmp_path,
):
    # `pub use facade_timers as timers;` + `futures = ["facade-timers/futures"]`: the app's
    # `facade::timers::future` needs the facade's `futures` feature
    _, edits = run(tmp_path, "facade-reexports")
    entry = edits["app/Cargo.toml"]["dependencies"]["facade"]
    assert list(entry["features"]) == ["futures"]
    assert entry["path"] == "../facade"


def test_an_unpublished_package_without_a_dev_table_lists_its_test_crates_as_dependencies(
    tmp_path,
):
    _, edits = run(tmp_path, "unpublished-harness")
    doc = edits["Cargo.toml"]
    assert {"log", "itertools"} <= set(doc["dependencies"])
    assert "dev-dependencies" not in doc


def test_an_unpublished_package_with_a_dev_table_keeps_test_crates_there(tmp_path):
    root = copy_fixture("rust", "unpublished-harness", tmp_path / "unpublished-harness")
    manifest = root / "Cargo.toml"
    manifest.write_text(manifest.read_text() + "\n[dev-dependencies]\n")
    _, edits = infer_rust(root)
    doc = edits["Cargo.toml"]
    assert "itertools" in doc["dev-dependencies"]
    assert "itertools" not in doc["dependencies"]


def test_a_published_package_being_restored_without_a_dev_table_uses_dependencies(tmp_path):
    # no [dev-dependencies] table was kept beside the [dependencies] being restored: the
    # tests built from [dependencies] alone, published or not
    root = copy_fixture("rust", "unpublished-harness", tmp_path / "published")
    manifest = root / "Cargo.toml"
    manifest.write_text(manifest.read_text().replace("publish = false\n", ""))
    result, edits = infer_rust(root)
    doc = edits["Cargo.toml"]
    assert {"log", "itertools"} <= set(doc["dependencies"])
    assert "dev-dependencies" not in doc
    itertools = next(c for c in result.candidates if c.name == "itertools")
    assert any(e.rule == "rule:no-dev-table" for e in itertools.evidence)


@pytest.mark.parametrize(
    "kept",
    [
        "[target.'cfg(windows)'.dependencies]\nwinapi = \"0.3\"\n",
        '[workspace]\n\n[workspace.dependencies]\nlibc = "0.2"\n',
    ],
)
def test_kept_target_and_workspace_tables_do_not_stop_a_restore(tmp_path, kept):
    # the masking keeps target-specific and [workspace.dependencies] tables: a package whose
    # plain [dependencies] is empty is still being restored beside them
    root = copy_fixture("rust", "kept-dev-table", tmp_path / "kept-dev-table")
    manifest = root / "Cargo.toml"
    manifest.write_text(manifest.read_text() + "\n" + kept)
    _, edits = infer_rust(root)
    doc = edits["Cargo.toml"]
    assert {"log", "itertools"} <= set(doc["dependencies"])
    assert set(doc["dev-dependencies"]) == {"tempfile"}


class NewLineRegistry(RecordedRegistry):
    """`newapi` 1.0.0 (settled) and 2.0.0, released ten days before the snapshot."""

    def versions(self, ecosystem: Ecosystem, name: str) -> list[VersionInfo]:
        if name != "newapi":
            return super().versions(ecosystem, name)
        return [
            VersionInfo("1.0.0", published=datetime(2023, 1, 1, tzinfo=timezone.utc)),
            VersionInfo("2.0.0", published=datetime(2024, 1, 10, tzinfo=timezone.utc)),
        ]

    def exists(self, ecosystem: Ecosystem, name: str) -> bool | None:
        return True if name == "newapi" else super().exists(ecosystem, name)

    download_crate = OldApiRegistry.download_crate


def test_names_only_a_new_unsettled_major_has_choose_it(tmp_path):
    _, edits = run(tmp_path, "newer-line", NewLineRegistry(), as_of="2024-01-20")
    deps = edits["Cargo.toml"]["dependencies"]
    # 2.0 had been out ten days (too new to settle), but only it has `ReceiverKind`; 1.0's
    # `pub use crate::gen::*` re-exports its own modules, not any name of another crate
    assert deps["newapi"] == "2.0"


class ChanRegistry(RecordedRegistry):
    """`chan` 0.3.0, whose Sink impl for its sender is behind the `sink` feature."""

    def versions(self, ecosystem: Ecosystem, name: str) -> list[VersionInfo]:
        if name != "chan":
            return super().versions(ecosystem, name)
        features = {"default": ["std"], "std": [], "sink": []}
        return [VersionInfo("0.3.0", extra={"name": "chan", "features": features})]

    def exists(self, ecosystem: Ecosystem, name: str) -> bool | None:
        return True if name == "chan" else super().exists(ecosystem, name)

    download_crate = OldApiRegistry.download_crate


def test_a_trait_method_called_on_a_type_whose_impl_is_gated_switches_the_feature_on(tmp_path):
    _, edits = run(tmp_path, "trait-impl-gate", ChanRegistry())
    deps = edits["Cargo.toml"]["dependencies"]
    assert list(deps["chan"]["features"]) == ["sink"]


def test_a_trait_method_counts_only_in_a_file_importing_the_trait(tmp_path):
    root = copy_fixture("rust", "trait-impl-gate", tmp_path / "trait-impl-gate")
    (root / "src" / "lib.rs").write_text(
        "use chan::mpsc;\n\npub fn flush(tx: &mpsc::UnboundedSender) {\n    tx.poll_flush();\n}\n"
    )
    _, edits = infer_rust(root, ChanRegistry())
    deps = edits["Cargo.toml"]["dependencies"]
    assert isinstance(deps["chan"], str)  # no features


class ThiserrorOneRegistry(RecordedRegistry):
    """The recorded thiserror 2 releases and the last 1.x one."""

    def versions(self, ecosystem: Ecosystem, name: str) -> list[VersionInfo]:
        out = super().versions(ecosystem, name)
        if name == "thiserror":
            published = datetime(2024, 11, 6, tzinfo=timezone.utc)
            out = [VersionInfo("1.0.69", published=published), *out]
        return out


def test_attribute_syntax_a_new_major_rejects_keeps_the_line_before(tmp_path):
    _, edits = run(tmp_path, "error-syntax", ThiserrorOneRegistry())
    deps = edits["Cargo.toml"]["dependencies"]
    assert str(deps["thiserror"]).startswith("1.0")


def test_named_arguments_beside_a_numbered_field_take_the_newest_major(tmp_path):
    root = copy_fixture("rust", "error-syntax", tmp_path / "src")
    lib = root / "src" / "lib.rs"
    text = lib.read_text()
    assert '({:?})",\n        PREFIX' in text
    lib.write_text(text.replace('({:?})",\n        PREFIX', '({p:?})", p = PREFIX'))
    _, edits = infer_rust(root, ThiserrorOneRegistry())
    deps = edits["Cargo.toml"]["dependencies"]
    assert str(deps["thiserror"]).startswith("2")


def test_the_release_is_chosen_from_the_names_every_manifest_uses(tmp_path):
    # one member names nothing of the crate's API; the other names what only 1.x has
    root = tmp_path / "two"
    for member, code in (
        ("a", "extern crate oldapi;\n"),
        ("b", "pub fn b() -> Vec<u8> { oldapi::serialize() }\n"),
    ):
        manifest = (
            f'[package]\nname = "{member}"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n'
        )
        write_tree(root / member, {"Cargo.toml": manifest, "src/lib.rs": code})
    (root / "Cargo.toml").write_text('[workspace]\nmembers = ["a", "b"]\n')
    _, edits = infer_rust(root, OldApiRegistry())
    assert edits["a/Cargo.toml"]["dependencies"]["oldapi"] == "1.0"
    assert edits["b/Cargo.toml"]["dependencies"]["oldapi"] == "1.0"


def test_feature_dep_declared_only_in_a_target_table_gets_its_optional_entry(tmp_path):
    # `dep:serde_json` needs an optional entry; the plain one in a target table is not it,
    # so the manifest would be refused without a `[dependencies]` entry
    root = tmp_path / "t"
    write_tree(
        root,
        {
            "Cargo.toml": (
                '[package]\nname = "t"\nversion = "0.1.0"\nedition = "2021"\n\n'
                '[features]\njson = ["dep:serde_json"]\n\n'
                "[target.'cfg(target_arch = \"wasm32\")'.dependencies]\n"
                'serde_json = { version = "1", features = ["std"] }\n'
            ),
            "src/lib.rs": (
                '#[cfg(feature = "json")]\n'
                "pub fn f() -> serde_json::Value { serde_json::Value::Null }\n"
            ),
        },
    )
    result, edits = infer_rust(root)
    entry = edits["Cargo.toml"]["dependencies"]["serde_json"]
    assert entry["optional"] is True
    assert not [d for d in result.diagnostics if "refuse" in str(d)]


def test_a_newest_release_the_gate_reader_refuses_is_unknown_not_lacking(tmp_path, monkeypatch):
    # oldapi 2.0 lacks `serialize` as read; were 2.0's source over the reader's size cap,
    # nothing would be known of it: the newest line stands (no step back to 1.0 for it)
    from depinfer.mapping import rust_sources

    real = rust_sources.gates_refusal
    monkeypatch.setattr(
        rust_sources,
        "gates_refusal",
        lambda root: "source over the size cap" if "2.0.0" in root else real(root),
    )
    _, edits = run(tmp_path, "apiuse", OldApiRegistry())
    assert edits["Cargo.toml"]["dependencies"]["oldapi"] == "2.0"


def test_an_older_release_the_gate_reader_refuses_is_never_stepped_back_to(tmp_path, monkeypatch):
    from depinfer.mapping import rust_sources

    real = rust_sources.gates_refusal
    monkeypatch.setattr(
        rust_sources,
        "gates_refusal",
        lambda root: "no src/lib.rs" if "1.0.0" in root else real(root),
    )
    _, edits = run(tmp_path, "apiuse", OldApiRegistry())
    assert edits["Cargo.toml"]["dependencies"]["oldapi"] == "2.0"


def test_a_test_crate_the_kept_dev_table_does_not_list_is_restored_to_dependencies(tmp_path):
    _, edits = run(tmp_path, "kept-dev-table")
    doc = edits["Cargo.toml"]
    assert {"log", "itertools"} <= set(doc["dependencies"])
    assert set(doc["dev-dependencies"]) == {"tempfile"}


def test_a_package_that_still_declares_dependencies_gets_new_test_crates_in_its_dev_table(
    tmp_path,
):
    root = copy_fixture("rust", "kept-dev-table", tmp_path / "kept-dev-table")
    manifest = root / "Cargo.toml"
    manifest.write_text(
        manifest.read_text().replace("[dependencies]\n", '[dependencies]\nlog = "0.4"\n')
    )
    _, edits = infer_rust(root)
    doc = edits["Cargo.toml"]
    assert "itertools" in doc["dev-dependencies"]
    assert "itertools" not in doc["dependencies"]


@pytest.mark.parametrize("fixture", ["kept-dev-table", "unpublished-harness"])
def test_a_package_whose_code_needs_no_crate_gets_new_test_crates_in_its_dev_table(
    tmp_path, fixture
):
    # with a kept dev table, or none and published: the package is being extended
    root = copy_fixture("rust", fixture, tmp_path / fixture)
    manifest = root / "Cargo.toml"
    manifest.write_text(manifest.read_text().replace("publish = false\n", ""))
    (root / "src" / "lib.rs").write_text(
        "pub fn record(message: &str) -> usize {\n    message.len()\n}\n"
    )
    _, edits = infer_rust(root)
    doc = edits["Cargo.toml"]
    assert "itertools" in doc["dev-dependencies"]
    assert "itertools" not in doc.get("dependencies", {})
