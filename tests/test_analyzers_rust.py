"""Rust analyzer: which crate names the code uses, in which target and under which cfg."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import CARGO_X, FIXTURES, offline_context, write_tree

from depinfer.analyzers.rust import analyze, parse_cfg
from depinfer.facts.rust import use_of
from depinfer.model import FileKind
from depinfer.scan import scan


def refs_in(root: Path):
    """What the analyzer reports for the repository at root, and the context it wrote to."""
    ctx = offline_context()
    return analyze(scan(root), ctx), ctx


def refs_of(name: str):
    """refs_in the fixture crate fixtures/rust/<name>."""
    return refs_in(FIXTURES / "rust" / name)


@pytest.fixture(scope="module")
def app():
    refs, _ = refs_of("app")
    return refs


def crates(refs, **where):
    out = set()
    for r in refs:
        if use_of(r).how in ("derive", "attr") and "::" not in use_of(r).path:
            continue
        if use_of(r).how == "type-use":
            continue
        if all(
            getattr(use_of(r), k) == v if k != "marker" else r.marker == v for k, v in where.items()
        ):
            out.add(r.module)
    return out


def test_use_trees_paths_macros_and_attributes_name_crates(app):
    runtime = crates(app, target="runtime")
    for name in ("anyhow", "clap", "serde", "tokio", "itertools", "log", "regex"):
        assert name in runtime, name


def test_string_paths_in_serde_attributes(app):
    assert "humantime_serde" in crates(app, how="attr-string")


def test_local_modules_aliases_and_std_helpers_are_not_crates(app):
    names = crates(app)
    assert "net" not in names and "re" not in names and "serde_support" not in names
    # `serde_json::ok()` inside net/ names the local module net/serde_json.rs
    assert not [r for r in app if r.module == "serde_json" and r.file == "src/net/mod.rs"]


def test_build_script_and_dev_targets(app):
    assert crates(app, target="build") == {"version_check"}
    dev = crates(app, target="dev")
    assert {"assert_cmd", "tempfile", "owo_colors", "pretty_assertions"} <= dev
    assert "pretty_assertions" not in crates(app, target="runtime")
    # a #[test] function outside any cfg(test) module is test code too
    assert "similar_asserts" in dev and "similar_asserts" not in crates(app, target="runtime")


def test_paths_through_imported_types_keep_the_crate_path(app):
    paths = {use_of(r).path for r in app if use_of(r).how == "via-use"}
    assert "chrono::Utc::now" in paths


def test_cfg_target_predicates_become_markers(app):
    assert "nix" in crates(app, marker="cfg(unix)")
    assert "winapi" in crates(app, marker="cfg(windows)")


def test_cfg_feature_gates_are_recorded(app):
    gated = [r for r in app if r.module == "serde_json"]
    assert gated and all(use_of(r).features == ("json",) and r.optional for r in gated)


def test_derives_carry_their_imported_path(app):
    derives = {r.module: use_of(r).resolved for r in app if use_of(r).how == "derive"}
    assert derives["Serialize"] == "serde::Serialize"
    assert derives["Parser"] == "clap::Parser"


def test_parse_cfg():
    assert parse_cfg("test").test
    assert parse_cfg("all(test, unix)").target == "cfg(unix)"
    assert parse_cfg('target_os = "linux"').target == 'cfg(target_os = "linux")'
    assert parse_cfg('feature = "a"').features == ("a",)
    assert parse_cfg('not(feature = "a")').features == ()
    assert parse_cfg('any(windows, feature = "x")').target is None


def test_syntax_errors_and_binary_files_do_not_crash(tmp_path):
    write_tree(
        tmp_path,
        {"Cargo.toml": CARGO_X, "src/lib.rs": "use serde::{;\nfn main( { regex::Regex::new("},
    )
    (tmp_path / "src" / "bin.rs").write_bytes(b"\x00\x01binary")
    refs, ctx = refs_in(tmp_path)
    assert "regex" in {r.module for r in refs}
    assert any(d.file == "src/bin.rs" for d in ctx.diagnostics)


def test_helper_attribute_keys_are_recorded(app):
    keys = [use_of(r).keys for r in app if use_of(r).how == "attr" and r.module == "arg"]
    assert ("long",) in keys


def test_derives_inside_cfg_attr_are_gated(app):
    refs = [r for r in app if use_of(r).how == "derive" and use_of(r).path == "serde::Serialize"]
    assert refs and use_of(refs[0]).features == ("json",)


def test_derived_std_traits_and_shared_pointers_of_items_are_reported():
    refs, _ = refs_of("shared-serde")
    held = [r for r in refs if use_of(r).derives == ("Debug",) and r.module == "tokio"]
    assert held and use_of(held[0]).path.startswith("tokio::sync::mpsc::Sender")
    pointers = [r for r in refs if use_of(r).how == "serde-std-type"]
    assert [use_of(r).path for r in pointers] == ["Arc"]


def test_local_types_and_item_names_are_not_taken_for_imported_ones():
    refs, _ = refs_of("shared-serde")
    in_schema = [r for r in refs if r.file.endswith("schema.rs") and use_of(r).how == "type-use"]
    assert not [r for r in in_schema if use_of(r).serde_item]


def test_paths_in_a_local_macro_rules_body_are_uses_but_metavariable_paths_are_not(tmp_path):
    lib = (
        "macro_rules! with_client {\n"
        "    ($client:ident, $body:expr) => {\n"
        "        #[allow(clippy::redundant_closure)]\n"
        "        match $body { Err(e) if e.is::<h2::Error>() => $crate::retry(), _ => {} }\n"
        "        $client::connect();\n"
        "    };\n"
        "}\n"
        "pub fn retry() {}\n"
    )
    manifest = "[package]\nname = 'conn'\nversion = '0.1.0'\n"
    refs, _ = refs_in(write_tree(tmp_path, {"Cargo.toml": manifest, "src/lib.rs": lib}))
    found = {r.module for r in refs if use_of(r).how == "macro-def"}
    assert "h2" in found and "conn" not in found and "client" not in found


PROBE = "[package]\nname = 'probe'\nversion = '0.1.0'\nedition = '2021'\n"


def _crates_of_tree(tmp_path, files):
    refs, _ = refs_in(write_tree(tmp_path, {"Cargo.toml": PROBE, **files}))
    return {r.module for r in refs}


def test_names_imported_inside_a_cfg_macro_are_local(tmp_path):
    found = _crates_of_tree(
        tmp_path,
        {
            "src/lib.rs": "pub fn size() -> usize {\n"
            "    cfg_select! {\n"
            "        unix => {\n"
            "            use std::{mem, ptr};\n"
            "            let _p: *const u8 = ptr::null();\n"
            "            mem::size_of::<libc::c_int>()\n"
            "        }\n"
            "        _ => { 0 }\n"
            "    }\n"
            "}\n"
        },
    )
    assert "libc" in found
    assert not {"mem", "ptr"} & found


def test_a_glob_import_of_a_local_module_brings_the_modules_declared_in_it(tmp_path):
    found = _crates_of_tree(
        tmp_path,
        {
            "src/lib.rs": "pub mod app;\npub mod options;\n",
            "src/app.rs": "pub mod data;\n",
            "src/app/data.rs": "pub struct Temperature;\n",
            "src/options.rs": "use crate::app::*;\nuse data::Temperature;\n"
            "use serde::Serialize;\npub fn t() -> Temperature { Temperature }\n",
        },
    )
    assert "serde" in found and "data" not in found


def test_names_reached_through_a_glob_of_another_crate_keep_that_crates_path(tmp_path):
    write_tree(
        tmp_path,
        {
            "Cargo.toml": PROBE,
            "src/input.rs": "pub use crossterm::event::*;\n",
            "src/main.rs": "mod input;\nmod keys;\nfn main() { let _s = input::EventStream::new(); }\n",
            "src/keys.rs": "use termion::event::*;\npub fn k() { let _ = Key::Char('q'); }\n",
        },
    )
    refs, _ = refs_in(tmp_path)
    paths = {use_of(r).path for r in refs if use_of(r).how == "via-glob"}
    assert "crossterm::event::EventStream::new" in paths
    assert "termion::event::Key::Char" in paths


def test_another_crates_glob_in_an_inline_module_ties_no_other_code_to_it(tmp_path):
    # the glob makes `prop::` a name it may bring (the mapping asks the crate), yet the
    # runtime code's `Vec::from` is not read as proptest's
    lib = (
        'pub fn f() -> Vec<u8> { Vec::from(&b"x"[..]) }\n\n'
        "#[cfg(test)]\nmod tests {\n    use proptest::prelude::*;\n"
        "    #[test]\n    fn t() { let _ = prop::collection::vec(0u8..1, 1); }\n}\n"
    )
    write_tree(tmp_path, {"Cargo.toml": CARGO_X, "src/lib.rs": lib})
    refs, _ = refs_in(tmp_path)
    assert {r.kind for r in refs if r.module == "proptest"} == {FileKind.TEST}
    prop = [r for r in refs if r.module == "prop"]
    assert prop and all("proptest::prelude" in use_of(r).globs for r in prop)


def test_a_glob_import_in_an_inline_test_module_stays_in_that_module(tmp_path):
    # `config::Config` in src/config.rs is the config crate: the module is not in scope in
    # itself, and the tests module's `use super::*` brings the crate's modules into the
    # tests module only (where `helpers::` is the local module)
    config = (
        "pub fn load() -> config::Config {\n"
        "    config::Config::builder().build().unwrap()\n"
        "}\n\n"
        "#[cfg(test)]\nmod tests {\n    use super::*;\n\n"
        "    #[test]\n    fn loads() { let _ = helpers::tmp(); let _ = load(); }\n}\n"
    )
    write_tree(
        tmp_path,
        {
            "Cargo.toml": CARGO_X,
            "src/lib.rs": "pub mod config;\npub mod helpers;\n",
            "src/helpers.rs": "pub fn tmp() -> u8 { 1 }\n",
            "src/config.rs": config,
        },
    )
    refs, _ = refs_in(tmp_path)
    names = {r.module for r in refs}
    assert "config" in names
    assert "helpers" not in names


def test_diesel_tables_are_local_modules(tmp_path):
    main = (
        "diesel::table! {\n    users (id) {\n        id -> Integer,\n    }\n}\n"
        "fn main() { let q = users::table; let c = users::dsl::id; }\n"
    )
    refs, _ = refs_in(write_tree(tmp_path, {"Cargo.toml": CARGO_X, "src/main.rs": main}))
    modules = {r.module for r in refs}
    assert "diesel" in modules and "users" not in modules


def test_cfg_attr_with_a_target_predicate_gives_its_paths_that_target(tmp_path):
    test = (
        '#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]\n'
        "#[test]\nfn works() {}\n"
    )
    found, _ = refs_in(write_tree(tmp_path, {"Cargo.toml": CARGO_X, "tests/t.rs": test}))
    refs = [r for r in found if r.module == "wasm_bindgen_test"]
    assert refs and all(r.marker == 'cfg(target_arch = "wasm32")' for r in refs)


def test_attributes_on_async_functions_are_recorded_for_the_rule_table(tmp_path):
    lib = "#[wasm_bindgen]\npub async fn run() {}\n\n#[wasm_bindgen]\npub fn plain() {}\n"
    found, _ = refs_in(write_tree(tmp_path, {"Cargo.toml": CARGO_X, "src/lib.rs": lib}))
    refs = [r for r in found if use_of(r).how == "async-attr"]
    assert [(r.line, use_of(r).path) for r in refs] == [(1, "wasm_bindgen")]


def test_a_file_no_mod_reaches_beside_an_includer_uses_the_includers_names():
    # kinds.tmpl.rs is rendered by build.rs and `include!`d into kinds.rs: its `fmt::` and
    # `fsutils::` are kinds.rs's `use std::fmt` and `use crate::util as fsutils`
    refs, _ = refs_of("include-template")
    found = crates(refs, target="runtime")
    assert "regex" in found
    assert not {"fmt", "fsutils"} & found


def test_analysis_kept_per_tree_and_replayed_with_its_notes(tmp_path):
    """A second run over the same files reads the uses from the analysis cache: the same
    refs and the same notes (syntax errors) in the same order; an edited file is read again."""
    from depinfer.filecache import FileCache

    root = tmp_path / "tree"
    write_tree(
        root,
        {
            "Cargo.toml": CARGO_X,
            "src/main.rs": "mod a;\nuse serde::Serialize;\nfn main() {}\n",
            "src/a.rs": "use regex::Regex;\nfn f( {\n",
        },
    )

    def run():
        ctx = offline_context()
        ctx.files = FileCache(tmp_path / "cache", root)
        refs = analyze(scan(root), ctx)
        ctx.files.save()
        return refs, [str(d) for d in ctx.diagnostics], ctx.files

    refs, notes, cache = run()
    assert cache.misses == 1 and "src/a.rs: syntax errors; read what could be parsed" in notes
    again, notes_again, cache = run()
    assert cache.hits == 1 and cache.misses == 0
    assert again == refs and notes_again == notes
    (root / "src/a.rs").write_text("use regex::Regex;\nfn f() {}\n")
    edited, notes_edited, cache = run()
    assert cache.misses == 1 and not notes_edited
    assert {r.module for r in edited} == {r.module for r in refs}


def test_a_glob_of_a_module_declared_beside_it_is_local_not_a_crate(tmp_path):
    # tests/common/mod.rs: `pub mod fixtures; pub use fixtures::*;` re-exports its own module
    found = _crates_of_tree(
        tmp_path,
        {
            "src/lib.rs": "pub fn f() {}\n",
            "tests/common/mod.rs": "pub mod fixtures;\n\npub use fixtures::*;\n",
            "tests/common/fixtures.rs": "pub const A: u8 = 1;\n",
            "tests/a.rs": "mod common;\n#[test]\nfn t() { assert_eq!(common::A, 1); }\n",
        },
    )
    assert "fixtures" not in found


def test_a_primitive_type_inside_a_macro_path_does_not_start_a_new_path(tmp_path):
    found = _crates_of_tree(
        tmp_path,
        {"src/lib.rs": "pub fn v() -> Vec<f32> {\n    vec![std::f32::consts::E, f32::MAX]\n}\n"},
    )
    assert "consts" not in found and "f32" not in found


def test_a_use_group_inside_a_macro_body_continues_its_path(tmp_path):
    """A test macro's closure body: `use std::{thread::sleep, time::Duration};` names std's
    modules, not the crates `thread` and `time`; a group under a crate names that crate."""
    found = _crates_of_tree(
        tmp_path,
        {
            "tests/feature.rs": "rgtest!(f1, |dir: Dir| {\n"
            "    use std::{thread::sleep, time::Duration};\n"
            "    use serde_json::{json, Value as V};\n"
            "    sleep(Duration::from_millis(1));\n"
            "});\n"
        },
    )
    assert "thread" not in found and "time" not in found
    assert "serde_json" in found


def test_a_helper_attribute_of_the_functions_attribute_macro_is_not_a_crate(tmp_path):
    # rstest: `#[case]` on the parameters; `#[case::below(..)]` names one case, not a path
    write_tree(
        tmp_path,
        {
            "Cargo.toml": PROBE,
            "src/lib.rs": "pub fn f() {}\n",
            "tests/a.rs": "use rstest::rstest;\n\n#[rstest]\n#[case::below(0.5, true)] // low\n"
            "/// A threshold.\n"
            "fn t(#[case] c: f64, #[case] e: bool) {\n    assert_eq!(c < 0.7, e);\n}\n",
        },
    )
    refs, _ = refs_in(tmp_path)
    assert not [r for r in refs if use_of(r).path.startswith("case::")]
    assert "rstest" in {r.module for r in refs}


def test_a_comment_between_cfg_test_and_its_module_keeps_the_module_test_code(tmp_path):
    write_tree(
        tmp_path,
        {
            "Cargo.toml": PROBE,
            "src/lib.rs": "pub fn f() -> u8 { 1 }\n\n#[cfg(test)] // unit tests\n"
            "/// The tests.\nmod tests {\n"
            "    pub fn scratch() { let _d = tempfile::tempdir(); }\n}\n",
        },
    )
    refs, _ = refs_in(tmp_path)
    assert "tempfile" in crates(refs, target="dev")
    assert "tempfile" not in crates(refs, target="runtime")


def test_a_module_serde_withs_prefix_macro_generates_is_local(tmp_path):
    # `with_prefix!(foo "foo_")` generates the module `foo` that `with = "foo"` names
    found = _crates_of_tree(
        tmp_path,
        {
            "src/lib.rs": "use serde::{Deserialize, Serialize};\nuse serde_with::with_prefix;\n\n"
            "#[derive(Serialize, Deserialize)]\npub struct Data {\n"
            '    #[serde(flatten, with = "foo")]\n    pub foo: Inner,\n}\n\n'
            "#[derive(Serialize, Deserialize)]\npub struct Inner {\n    pub a: u8,\n}\n\n"
            'with_prefix!(foo "foo_");\nwith_prefix!(pub(crate) bar "bar_");\n'
            "pub fn f() -> u8 { bar::X }\n",
        },
    )
    assert "serde_with" in found and "foo" not in found and "bar" not in found
