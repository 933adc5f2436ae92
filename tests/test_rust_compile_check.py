"""scripts/rust_compile_check.py: cargo's failures sorted into causes, counts over countable."""

from conftest import load_script

API = """error[E0433]: cannot find `Advice` in `memmap`
  --> src/mmap.rs:89:37
error[E0599]: no method named `advise` found for struct `Mmap` in the current scope
error: could not compile `grep-searcher` (lib) due to 2 previous errors
"""
DERIVE = """error: cannot find derive macro `Serialize` in this scope
 --> src/lib.rs:3:10
"""
MANIFEST = """error: failed to parse manifest at `/x/Cargo.toml`

Caused by:
  feature `cli` includes `clap`, but `clap` is not a dependency
"""


def test_each_error_block_gets_one_cause():
    check = load_script("rust_compile_check")
    assert check.classify(API) == ["api (item/path)", "api (method/field)"]
    assert check.classify(DERIVE) == ["derive/attribute macro"]
    assert check.classify(MANIFEST) == ["manifest"]
    assert check.classify("warning: unused\n") == ["other"]


def test_only_instances_whose_gold_compiles_count():
    check = load_script("rust_compile_check")
    records = [
        {"gold": {"ok": False}, "inferred": None},
        {"gold": {"ok": True}, "inferred": {"ok": True}},
        {"gold": {"ok": True}, "inferred": {"ok": False, "causes": ["manifest"]}},
    ]
    text = check.summary(records)
    assert "countable 2  inferred compiles 1 (50%)" in text
    assert "manifest 1" in text
