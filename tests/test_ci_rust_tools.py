"""Rust test lines as they can run here: lock-file flags dropped (the benchmark deletes the
lock file), and nextest run through `cargo test` when cargo-nextest is not installed."""

import subprocess

from conftest import write_tree

from depinfer.ci import plan_for, rust_tools
from depinfer.ci.nextest_shim import translate
from depinfer.ci.rust_tools import needs_nextest, without_lock_flags


def test_lock_flags_are_dropped_from_cargo_commands_only():
    assert without_lock_flags("cargo test --locked --workspace") == "cargo test --workspace"
    assert (
        without_lock_flags("cargo +nightly test --frozen && cargo build --locked")
        == "cargo +nightly test && cargo build"
    )
    assert without_lock_flags("make test --locked") == "make test --locked"


def test_nextest_arguments_become_cargo_test_arguments():
    assert translate("run --cargo-profile ci --features a,b --no-run".split()) == [
        "test", "--profile", "ci", "--features", "a,b", "--no-run",
    ]  # fmt: skip
    # nextest's own profile, filters and reporting mean nothing to cargo test; -j is threads
    assert translate("run -p core --profile ci -E test(x) -j 4 --no-capture name".split()) == [
        "test", "-p", "core", "--", "--test-threads", "4", "--nocapture", "name",
    ]  # fmt: skip
    assert translate(["list"]) is None


def test_a_makefile_that_runs_nextest_gets_the_stand_in(tmp_path, monkeypatch):
    monkeypatch.setattr(rust_tools.shutil, "which", lambda name: None)
    monkeypatch.setattr(rust_tools, "default_cache_dir", lambda: tmp_path / "cache")
    write_tree(
        tmp_path / "repo",
        {
            "Cargo.toml": '[package]\nname = "x"\nversion = "0.1.0"\n',
            "Makefile": "test:\n\tcargo nextest run --workspace\n",
        },
    )
    root = tmp_path / "repo"
    assert needs_nextest(["make test"], root) and not needs_nextest(["cargo test"], root)
    plan = plan_for(root, "rust", "make test")
    stand_in = tmp_path / "cache" / "tools" / "nextest-stand-in"
    assert plan.env["PATH"].startswith(str(stand_in))
    # the stand-in execs cargo with the translated arguments
    out = subprocess.run(
        [str(stand_in / "cargo-nextest"), "nextest", "run", "--workspace", "--retries", "2"],
        capture_output=True,
        text=True,
        env={"CARGO": "echo", "PATH": "/usr/bin:/bin"},
    )
    assert out.stdout.strip() == "test --workspace"
