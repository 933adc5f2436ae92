"""Rust rules: feature gates read from a crate's source, derive table, [features]
references, crates the code generated for an attribute needs."""

from __future__ import annotations

import io
import tarfile
from pathlib import Path

import pytest
import rust_registry
from conftest import CARGO_X, FIXTURES, load_script, write_tree
from rust_registry import RecordedRegistry

from depinfer.analyzers.rust_gates import (
    TRAIT_PREFIX,
    crate_features,
    external_globs,
    features_for,
    gates_refusal,
    minimal_features,
    read_gates,
    required_features,
    top_level_names,
)
from depinfer.context import Context, Options
from depinfer.facts.rust import CrateFacts, RustUse
from depinfer.mapping.rust import feature_references
from depinfer.registries.crate_sources import unpack_crate
from depinfer.rules.rust import derive_table

MINITOK = FIXTURES / "rust" / "crate-src" / "minitok-0.1.0"

# crate sources come from the shipped snapshots, not whatever this machine's cargo has
pytestmark = pytest.mark.usefixtures("private_cargo_home")


def test_gates_follow_cfg_attributes_and_gating_macros():
    gates = read_gates(str(MINITOK))
    assert gates["net"] == ["net"]  # inside cfg_net! { .. }
    assert gates["net::TcpListener"] == ["net"]
    assert gates["spawn"] == ["rt"]  # the not(rt) fallback is not a requirement
    assert gates["main"] == ["macros", "rt-multi-thread"]
    assert gates["sync::Mutex"] == ["rt"]
    assert gates["Builder::listen_on"] == ["net"]  # a doc comment after the cfg keeps it


def test_a_docs_only_alternative_does_not_lift_a_feature_gate():
    from depinfer.analyzers.rust_gates import required_features

    assert required_features('any(docsrs, feature = "actix-compat")') == ["actix-compat"]
    assert required_features('any(unix, feature = "x")') == []


def test_features_for_used_paths_then_minimal():
    gates = read_gates(str(MINITOK))
    features = crate_features(str(MINITOK))
    needed = features_for(gates, ["net::TcpListener::bind", "main", "spawn"])
    assert needed == ["net", "macros", "rt-multi-thread", "rt"]
    # rt is on by default; rt-multi-thread implies it anyway
    assert minimal_features(needed, features) == ["net", "macros", "rt-multi-thread"]


def test_optional_dependency_gate_becomes_its_enabling_feature():
    features = crate_features(str(MINITOK))
    assert minimal_features(["minitok-macros"], features) == ["macros"]


def test_required_features_of_cfg_expressions():
    assert required_features('feature = "a"') == ["a"]
    assert required_features('all(feature = "a", unix)') == ["a"]
    assert required_features('any(feature = "a", feature = "b")') == ["a"]
    assert required_features('not(feature = "a")') is None


def test_derive_table_names_crate_and_feature():
    table = derive_table()
    serde = [e for e in table[("derive", "Serialize")] if e["crate"] == "serde"]
    assert serde and serde[0]["features"] == ["derive"] and serde[0]["source"]
    assert any(e["crate"] == "thiserror" for e in table[("derive", "Error")])
    assert any(e["crate"] == "clap" for e in table[("helper", "arg")])


def test_feature_references_name_optional_dependencies():
    refs = feature_references(
        {
            "default": ["json"],
            "json": ["dep:serde_json"],
            "tls": ["reqwest?/rustls"],
            "x": ["bytes/std"],
            "old": ["chrono"],
        }
    )
    assert refs["serde_json"]["optional"] and refs["reqwest"]["optional"]
    assert refs["reqwest"]["features"] == ["rustls"]
    assert not refs["bytes"]["optional"]
    assert refs["chrono"]["optional"]  # an implicit feature of an optional dependency
    assert "json" not in refs


def test_unpack_crate_skips_unsafe_members(tmp_path):
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        for name, data in [
            ("c-0.1.0/Cargo.toml", b'[package]\nname = "c"\n'),
            ("c-0.1.0/src/lib.rs", b"pub fn f() {}\n"),
            ("../evil.rs", b"x"),
            ("c-0.1.0/README.md", b"no"),
        ]:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    root = unpack_crate(buf.getvalue(), tmp_path / "out")
    assert root == tmp_path / "out" / "c-0.1.0"
    assert (root / "src" / "lib.rs").is_file()
    assert not (tmp_path / "evil.rs").exists() and not (root / "README.md").exists()
    assert unpack_crate(b"not a tarball", tmp_path / "bad") is None


def test_inherent_methods_and_type_aliases_carry_gates():
    gates = read_gates(str(MINITOK))
    assert gates["Builder::bind"] == ["net"]
    assert gates["Builder::new"] == []
    assert gates["Alias::bind"] == ["net"]  # `pub type Alias = Builder;`


def test_custom_cfgs_set_by_the_build_script_map_to_features():
    assert read_gates(str(MINITOK))["turbo"] == ["net"]


def test_gated_methods_called_on_values_switch_features_on():
    from depinfer.model import Candidate, Ecosystem, ImportRef
    from depinfer.rules.rust import _method_gates

    gates = read_gates(str(MINITOK))
    known = {"minitok": (gates, crate_features(str(MINITOK)))}
    common = {"manifest": "Cargo.toml", "target": "runtime"}
    refs = [
        ImportRef(
            "minitok",
            "src/a.rs",
            1,
            "rust",
            facts=RustUse(how="use", path="minitok::Builder", **common),
        ),
        ImportRef(
            "",
            "src/a.rs",
            1,
            "rust",
            facts=RustUse(how="methods", methods=("listen_all", "new"), **common),
        ),
    ]
    cand = Candidate(Ecosystem.CRATES, "minitok", "Cargo.toml")
    _method_gates(refs, [cand], known)
    assert cand.features == ["net"]


def test_gates_of_a_macro_that_takes_its_condition_from_the_invocation():
    gates = read_gates(str(MINITOK))
    assert gates["Resolver"] == ["net", "rt"]  # feature! { #![all(..)] pub struct Resolver; }


def test_restricted_visibility_items_are_not_api():
    gates = read_gates(str(MINITOK))
    assert "Buf" not in gates and "Buf::copy_from_bufs" not in gates


def test_inherent_method_reached_through_a_module_path():
    gates = read_gates(str(MINITOK))
    # `runtime::Builder::new_multi_thread` in tokio: impl methods are read as `Builder::…`
    assert features_for(gates, ["runtime::Builder::bind"]) == ["net"]


def test_private_feature_becomes_the_public_one_that_enables_it():
    features = crate_features(str(MINITOK))
    gates = read_gates(str(MINITOK))
    needed = features_for(gates, ["Builder::use_native_tls"])
    assert needed == ["__tls"]
    assert minimal_features(needed, features) == ["tls"]


def _method_refs(methods: list[str], target: str = "runtime") -> list:
    from depinfer.model import ImportRef

    common = {"manifest": "Cargo.toml", "target": target}
    return [
        ImportRef(
            "minitok", "src/a.rs", 1, "rust", facts=RustUse(how="use", path="minitok::B", **common)
        ),
        ImportRef(
            "",
            "src/a.rs",
            1,
            "rust",
            facts=RustUse(how="methods", methods=tuple(methods), **common),
        ),
    ]


def test_method_names_std_defines_or_opt_in_features_switch_nothing_on():
    from depinfer.model import Candidate, Ecosystem
    from depinfer.rules.rust import _method_gates, std_methods

    assert "is_empty" in std_methods() and "json" not in std_methods()
    known = {"minitok": (read_gates(str(MINITOK)), crate_features(str(MINITOK)))}
    cand = Candidate(Ecosystem.CRATES, "minitok", "Cargo.toml")
    _method_gates(_method_refs(["experimental_hook", "new", "is_empty"]), [cand], known)
    assert cand.features == []  # unstable-ext is asked for by name only
    _method_gates(_method_refs(["use_native_tls"]), [cand], known)
    assert cand.features == []  # a private (`__`) feature is not reached from a name alone


def test_test_attribute_features_go_to_the_dev_candidate():
    from depinfer.model import Candidate, Ecosystem, ImportRef, Section
    from depinfer.rules.rust import _derives

    runtime = Candidate(Ecosystem.CRATES, "tokio", "Cargo.toml")
    dev = Candidate(Ecosystem.CRATES, "tokio", "Cargo.toml", section=Section.DEV)
    ref = ImportRef(
        "tokio",
        "src/lib.rs",
        9,
        "rust",
        facts=RustUse(how="attr", path="tokio::test", manifest="Cargo.toml", target="dev"),
    )
    _derives([ref], [runtime, dev], None)  # type: ignore[arg-type]
    assert runtime.features == [] and "macros" in dev.features


def test_trait_impls_in_an_inline_modules_files_carry_their_gates():
    from depinfer.analyzers.rust_gates import trait_gates

    gates = read_gates(str(MINITOK))
    assert trait_gates(gates, "Debug", "Builder") == ["net"]  # src/gen/debug.rs under mod gen
    assert trait_gates(gates, "Hash", "Builder") is None


def test_derive_over_a_field_of_a_crate_type_needs_the_trait_impl_feature():
    from depinfer.model import Candidate, Ecosystem, ImportRef
    from depinfer.rules.rust import _derived_trait_impls

    known = {"minitok": (read_gates(str(MINITOK)), crate_features(str(MINITOK)))}
    ref = ImportRef(
        "minitok",
        "src/lib.rs",
        3,
        "rust",
        facts=RustUse(
            how="type-use",
            path="minitok::Builder",
            derives=("Clone", "Debug"),
            manifest="Cargo.toml",
            target="runtime",
        ),
    )
    cand = Candidate(Ecosystem.CRATES, "minitok", "Cargo.toml")
    _derived_trait_impls([ref], [cand], known)
    assert cand.features == ["net"]


def test_an_any_gate_settles_for_a_feature_another_use_switches_on():
    gates = read_gates(str(MINITOK))
    assert features_for(gates, ["either_way"]) == ["net"]  # the first, when nothing else
    assert "net" not in features_for(gates, ["either_way", "main"])  # main: rt-multi-thread
    assert features_for(gates, ["either_way"], frozenset({"rt-multi-thread"})) == []


def test_methods_recorded_by_type_name_are_not_root_names():
    from depinfer.analyzers.rust_gates import top_level_names

    gates = {
        "decoding": [],
        "decoding::FrameDecoder": [],
        "FrameDecoder::new": [],
        "<impl>Default::FrameDecoder": [],
        "Error": [],
    }
    # ruzstd 0.8 moved FrameDecoder into `decoding`: the root no longer offers it
    assert top_level_names(gates) == {"decoding", "Error"}


def test_items_of_a_generated_api_crate_switch_on_the_features_named_after_them():
    from depinfer.rules.rust import _item_named_features

    web_sys = {f: [] for f in ("default", "Window", "Document", "HtmlElement", "console")}
    used = ["Window", "HtmlElement::set_inner_text", "console::log_1", "window"]
    assert _item_named_features(used, web_sys) == ["Window", "HtmlElement", "console"]
    windows = {"Win32": [], "Win32_Foundation": ["Win32"], "Win32_System_Threading": ["Win32"]}
    used = ["Win32::Foundation::HANDLE", "Win32::System::Threading::CreateEventW"]
    assert _item_named_features(used, windows) == [
        "Win32",
        "Win32_Foundation",
        "Win32_System_Threading",
    ]


def test_an_unreadable_crate_takes_the_features_its_used_items_name(tmp_path, monkeypatch):
    from depinfer.model import Candidate, Ecosystem
    from depinfer.rules import rust as rules

    manifest = (
        '[package]\nname = "web-sys"\nversion = "0.3.0"\n\n'
        '[features]\nWindow = ["EventTarget"]\nEventTarget = []\nDocument = []\n'
    )
    crate = write_tree(
        tmp_path / "web-sys-0.3.0", {"Cargo.toml": manifest, "src/lib.rs": "// generated\n"}
    )
    monkeypatch.setattr(rules, "read_gates", lambda root: {})  # too large to read
    monkeypatch.setattr(rules, "cargo_source_dir", lambda name, version=None: crate)
    monkeypatch.setattr(rules, "registry_source", lambda *a: (None, None))
    c = Candidate(
        ecosystem=Ecosystem.CRATES,
        name="web-sys",
        manifest="Cargo.toml",
        facts=CrateFacts(paths=("web_sys::Window", "web_sys::EventTarget", "web_sys::window")),
    )
    rules._source_gates([c], Context(Options(offline=True), registries=None), None)
    assert c.features == ["Window"]  # EventTarget comes with Window


def test_lib_name_table_keeps_libraries_named_unlike_their_package():
    module = load_script("build_rust_lib_names")
    entries = [
        {"name": "md-5", "version": "0.11.0", "id": "md5"},
        {"name": "md-5", "version": "0.10.6", "id": "md5_0_10_6"},  # the older of two
        {"name": "aho-corasick", "version": "1.1.4", "id": "aho_corasick"},
        {"name": "syn", "version": "1.0.109", "id": "syn_1_0_109"},
    ]
    assert module.lib_names(entries) == {"md5": ["md-5"]}


def test_a_path_glob_over_the_crates_own_module_lifts_its_names_and_is_no_foreign_glob():
    gates = read_gates(str(FIXTURES / "rust" / "crate-src" / "newapi-1.0.0"))
    assert "visit::run" in gates  # `pub use crate::gen::*` lifts gen's modules to the root
    assert external_globs(gates) == []
    tops = top_level_names(gates)
    assert {"visit", "Receiver"} <= tops and not any(t.startswith("*") for t in tops)


def test_trait_impl_methods_are_kept_only_where_the_impl_needs_more_than_the_type():
    gates = read_gates(str(FIXTURES / "rust" / "crate-src" / "chan-0.3.0"))
    assert gates[TRAIT_PREFIX + "Sink/UnboundedSender::poll_flush"] == ["std", "sink"]
    assert TRAIT_PREFIX + "Clone/UnboundedSender::clone" not in gates  # gated like the type


def _candidates(root: Path) -> dict[tuple[str, str], object]:
    from depinfer.analyzers.rust import analyze
    from depinfer.mapping.rust import map_imports
    from depinfer.rules.rust import infer as rules_infer
    from depinfer.scan import scan

    project = scan(root)
    ctx = Context(Options(offline=True), registries=RecordedRegistry())
    refs = analyze(project, ctx)
    cands = rules_infer(project, refs, map_imports(project, refs, ctx), ctx)
    return {(c.manifest, c.name): c for c in cands}


@pytest.mark.parametrize(
    "item",
    [
        "pub async fn run() -> Result<JsValue, JsValue> { Ok(JsValue::NULL) }",
        "impl Client { pub async fn get(&self) {} }",
        'extern "C" { async fn fetch_json(url: &str) -> JsValue; }',
    ],
)
def test_wasm_bindgen_on_an_async_fn_needs_wasm_bindgen_futures(tmp_path, monkeypatch, item):
    # the code #[wasm_bindgen] generates for async functions calls wasm_bindgen_futures
    monkeypatch.setattr(rust_registry, "KNOWN_NAMES", {"wasm-bindgen", "wasm-bindgen-futures"})
    lib = f"use wasm_bindgen::prelude::*;\n\n#[wasm_bindgen]\n{item}\n"
    write_tree(tmp_path, {"Cargo.toml": CARGO_X, "src/lib.rs": lib})
    found = _candidates(tmp_path)
    assert ("Cargo.toml", "wasm-bindgen") in found
    assert ("Cargo.toml", "wasm-bindgen-futures") in found


def test_wasm_bindgen_on_plain_functions_needs_no_futures_crate(tmp_path, monkeypatch):
    monkeypatch.setattr(rust_registry, "KNOWN_NAMES", {"wasm-bindgen", "wasm-bindgen-futures"})
    lib = (
        "use wasm_bindgen::prelude::*;\n\n#[wasm_bindgen]\npub fn add(a: u8) -> u8 { a }\n\n"
        "async fn helper() {}\n"
    )
    write_tree(tmp_path, {"Cargo.toml": CARGO_X, "src/lib.rs": lib})
    found = _candidates(tmp_path)
    assert ("Cargo.toml", "wasm-bindgen") in found
    assert ("Cargo.toml", "wasm-bindgen-futures") not in found


def test_self_in_a_reexported_use_list_names_the_module(tmp_path):
    # bitcoin 0.32: `pub use crate::blockdata::script::{self, Script};` offers `script` at
    # the root; missed, the code's `bitcoin::script` looked like an older line's
    write_tree(
        tmp_path,
        {
            "Cargo.toml": '[package]\nname = "b"\nversion = "0.32.0"\n',
            "src/lib.rs": "mod blockdata;\npub use crate::blockdata::script::{self, Script};\n",
            "src/blockdata/mod.rs": "pub mod script;\n",
            "src/blockdata/script.rs": "pub struct Script;\n",
        },
    )
    names = top_level_names(read_gates(str(tmp_path)))
    assert {"script", "Script"} <= names
    assert "self" not in names


def test_a_proc_macro_crates_derives_are_named_at_its_root(tmp_path):
    """`#[derive(serde_derive::Deserialize)]` names a derive the release offers: without
    it, every release lacked the name and two older lines were downloaded for nothing."""
    write_tree(
        tmp_path,
        {
            "Cargo.toml": '[package]\nname = "d"\nversion = "1.0.0"\n[lib]\nproc-macro = true\n',
            "src/lib.rs": "#[proc_macro_derive(Deserialize, attributes(serde))]\n"
            "pub fn derive_deserialize(input: TokenStream) -> TokenStream { input }\n"
            "mod de {\n#[proc_macro_derive(Hidden)]\npub fn h() {}\n}\n",
        },
    )
    names = top_level_names(read_gates(str(tmp_path)))
    assert {"Deserialize", "derive_deserialize"} <= names
    assert "Hidden" not in names


def test_the_gate_reader_says_why_it_read_nothing(tmp_path, monkeypatch):
    from depinfer.analyzers import rust_gates

    write_tree(tmp_path / "binonly", {"src/main.rs": "fn main() {}\n"})
    write_tree(tmp_path / "empty", {"src/lib.rs": "// nothing here\n"})
    write_tree(tmp_path / "big", {"src/lib.rs": "pub fn f() {}\n" * 10})
    assert gates_refusal(str(tmp_path / "binonly")) == "no src/lib.rs"
    assert read_gates(str(tmp_path / "binonly")) == {}
    # a crate read and found empty is no refusal: it offers nothing
    assert gates_refusal(str(tmp_path / "empty")) is None
    assert read_gates(str(tmp_path / "empty")) == {}
    gates_refusal.cache_clear()
    monkeypatch.setattr(rust_gates, "MAX_BYTES", 50)
    assert gates_refusal(str(tmp_path / "big")).startswith("source over the size cap")
    gates_refusal.cache_clear()


def _table(rows: int) -> str:
    return "".join(f"    ('\\u{{{i:x}}}', '\\u{{{i + 1:x}}}'),\n" for i in range(rows))


def test_generated_tables_are_read_as_blanks_with_the_same_answer(tmp_path, monkeypatch):
    """Tree-sitter parses data tables several times slower than code; the reader never
    looks inside one, so its elements are parsed as spaces and the answer stays."""
    from depinfer.analyzers import rust_gates

    lib = (
        "pub mod tables;\n"
        '#[cfg(feature = "unicode")]\n'
        "pub const RANGES: &'static [(char, char)] = &[\n" + _table(40) + "];\n"
        "pub struct Set { pub low: &'static [u16] }\n"
        "pub static SET: Set = Set {\n    low: &[\n" + _table(40) + "    ],\n};\n"
        '#[cfg(feature = "after")]\npub fn after() {}\n'
    )
    tables = "pub static NESTED: [[i16; 2]; 40] = [\n" + "    [0x1F, -2],\n" * 40 + "];\n"
    write_tree(
        tmp_path,
        {
            "Cargo.toml": '[package]\nname = "t"\nversion = "1.0.0"\n',
            "src/lib.rs": lib,
            "src/tables.rs": tables + "pub fn tail() {}\n",
        },
    )
    blank = rust_gates.without_data(lib.encode())
    assert len(blank) == len(lib.encode()) and blank.count(b"\n") == lib.count("\n")
    assert b"\\u{" not in blank and b"pub fn after() {}" in blank
    assert b"0x1F" not in rust_gates.without_data(tables.encode())
    gates = read_gates(str(tmp_path))
    assert gates["RANGES"] == ["unicode"] and gates["after"] == ["after"]
    assert {"SET", "Set", "tables::NESTED", "tables::tail"} <= set(gates)
    read_gates.cache_clear()
    monkeypatch.setattr(rust_gates, "DATA_MIN", 10**9)  # nothing blanked
    assert read_gates(str(tmp_path)) == gates
    read_gates.cache_clear()


@pytest.mark.parametrize(
    "text",
    [
        'static A: &[&str] = &[\n{rows}    "]",\n];\n',  # a string may hold a bracket
        "// let x = [\n{rows}]\n",  # the opening bracket is in a comment
        "#[\n{rows}]\nfn f() {}\n",  # an attribute, not an array
        "pub x: [\n{rows}    u8; 4\n]\n",  # an array type
        "static A: &[char] = &[\n{rows}    '[',\n];\n",  # a bracket in a character literal
        "static A: &[u8] = &[\n{rows}    ], b = [\n];\n",  # brackets not nested in pairs
    ],
)
def test_no_array_that_may_not_be_data_is_blanked(text):
    from depinfer.analyzers.rust_gates import without_data

    rows = "    1, 2, 3, 4, 5, 6, 7, 8,\n" * 20
    src = text.replace("{rows}", rows).encode()
    assert without_data(src) == src
    plain = f"static A: &[u8] = &[\n{rows}];\n".encode()
    assert without_data(plain) != plain  # the same rows in a plain table are blanked


def test_modules_that_glob_each_other_stay_bounded(tmp_path):
    """Two modules that `pub use` each other's items (goblin's compression headers): each
    glob step copied every earlier copy again (18.7 million paths for goblin 0.8); lifted
    paths stop at MAX_PATH_PARTS segments, and the names users reach stay."""
    from conftest import write_tree

    from depinfer.analyzers import rust_gates

    root = write_tree(
        tmp_path / "mutual-0.1.0",
        {
            "Cargo.toml": '[package]\nname = "mutual"\nversion = "0.1.0"\n',
            "src/lib.rs": "pub mod h32;\npub mod h64;\npub mod a;\npub mod b;\n",
            "src/h32.rs": "pub struct Header32;\npub mod inner { pub use crate::h64::*; }\n",
            "src/h64.rs": "pub struct Header64;\npub mod inner { pub use crate::h32::*; }\n",
            "src/a.rs": "pub use crate::b::*;\npub struct A;\npub mod x { pub use crate::b::*; }\n",
            "src/b.rs": "pub use crate::a::*;\npub struct B;\npub mod y { pub use crate::a::*; }\n",
        },
    )
    gates = read_gates(str(root))
    assert {"h32::Header32", "h64::Header64", "a::A", "b::B", "a::B", "b::A"} <= set(gates)
    assert max(k.count("::") for k in gates) < rust_gates.MAX_PATH_PARTS
    assert len(gates) < 2000  # 8 segments deep at most: bounded, not millions
