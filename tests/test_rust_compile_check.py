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


def test_the_time_one_check_may_take_is_an_option(tmp_path, monkeypatch, capsys):
    import argparse
    import subprocess
    from types import SimpleNamespace

    import pytest

    check = load_script("rust_compile_check")
    seen = {}

    def run(cmd, **kw):
        seen["timeout"] = kw["timeout"]
        raise subprocess.TimeoutExpired(cmd, kw["timeout"])

    monkeypatch.setattr(check.subprocess, "run", run)
    monkeypatch.setattr(check, "workspace_dir", lambda root, inst: root)
    args = argparse.Namespace(
        target_dir=tmp_path, toolchain="stable", command="check", jobs=1, timeout=1500
    )
    result = check.cargo_check(tmp_path, SimpleNamespace(), args)
    assert seen["timeout"] == 1500
    assert (result["ok"], result["errors"]) == (False, ["error: timed out"])
    with pytest.raises(SystemExit):
        check.main(["--dataset", "d", "--trees", "t", "--results", "r", "--out", "o",
                    "--timeout", "0"])  # fmt: skip
    assert "not a positive number of seconds" in capsys.readouterr().err
