"""Record sparse-index entries for the Rust test fixtures (fixtures/rust/registry/*.jsonl).

Source: Cargo's own cache of the registry's sparse index ($CARGO_HOME/registry/index/*/.cache),
filled by any `cargo fetch`/`cargo generate-lockfile` (e.g. scripts/build_rust_derives.py).
Each cache file holds the index's JSON lines, one per published version; the newest
KEEP versions of each crate are kept, with `deps` dropped to keep the fixtures small.
Run: python scripts/record_rust_registry_fixtures.py
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "fixtures" / "rust" / "registry"
KEEP = 6
CRATES = [
    "anyhow",
    "clap",
    "serde",
    "serde_json",
    "tokio",
    "regex",
    "itertools",
    "log",
    "nix",
    "humantime-serde",
    "thiserror",
    "version_check",
    "assert_cmd",
    "owo-colors",
    "pretty_assertions",
    "chrono",
    "tempfile",
    "winapi",
    "reqwest",
]


def index_path(name: str) -> str:
    n = name.lower()
    if len(n) <= 2:
        return f"{len(n)}/{n}"
    if len(n) == 3:
        return f"3/{n[0]}/{n}"
    return f"{n[:2]}/{n[2:4]}/{n}"


def warm_cache() -> None:
    """Let cargo resolve the crates once, so its index cache holds their entries."""
    import subprocess
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        (work / "src").mkdir()
        (work / "src" / "lib.rs").write_text("")
        deps = "\n".join(f'{c} = "*"' for c in CRATES)
        (work / "Cargo.toml").write_text(
            f'[package]\nname = "fixture-probe"\nversion = "0.0.0"\nedition = "2021"\n\n[dependencies]\n{deps}\n'
        )
        subprocess.run(["cargo", "generate-lockfile"], cwd=work, check=True, timeout=600)


def main() -> None:
    warm_cache()
    home = Path(os.environ.get("CARGO_HOME") or Path.home() / ".cargo")
    OUT.mkdir(parents=True, exist_ok=True)
    for name in CRATES:
        found = None
        for base in (home / "registry" / "index").glob("*"):
            f = base / ".cache" / index_path(name)
            if f.is_file():
                found = f
        if found is None:
            print(f"skip {name}: not in cargo's index cache", file=sys.stderr)
            continue
        lines = []
        for part in found.read_bytes().split(b"\x00"):
            if part.startswith(b"{"):
                entry = json.loads(part)
                entry.pop("deps", None)
                entry.pop("cksum", None)
                lines.append(entry)
        lines = lines[-KEEP:]
        (OUT / f"{name}.jsonl").write_text("".join(json.dumps(e) + "\n" for e in lines))
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
