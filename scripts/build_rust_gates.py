"""Rebuild depinfer/data/rust/gates.json: for common crates, which public paths need
which Cargo features, and each crate's own `[features]` table.

At run time depinfer reads these facts from the crate's source in Cargo's download cache when
it is there (depinfer.analyzers.rust_gates); this snapshot covers the same crates when it is not.
Sources: the crates' published sources (fetched by `cargo fetch` through cargo's own registry
configuration), read by depinfer.analyzers.rust_gates.read_gates / crate_features; the version
read is recorded per crate.
Run: python scripts/build_rust_gates.py
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from build_rust_derives import crate_dir, fetch, locked_versions  # noqa: E402

from depinfer.analyzers.rust_gates import crate_features, read_gates  # noqa: E402
from depinfer.data import DATA_DIR  # noqa: E402

OUT = DATA_DIR / "rust/gates.json"


CRATES = [
    "tokio",
    "tokio-util",
    "tokio-stream",
    "futures",
    "futures-util",
    "hyper",
    "hyper-util",
    "http-body-util",
    "reqwest",
    "axum",
    "tower",
    "tower-http",
    "tonic",
    "tracing-subscriber",
    "chrono",
    "time",
    "uuid",
    "rand",
    "serde_json",
    "indexmap",
    "semver",
    "regex",
    "regex-automata",
    "bstr",
    "rusqlite",
    "quinn",
    "hickory-resolver",
    "ratatui",
    "crossterm",
    "clap",
    "clap_builder",
    "syn",
    "proc-macro2",
    "nix",
    "bytes",
    "url",
    "base64",
    "flate2",
    "zip",
    "image",
    "toml",
    "toml_edit",
    "similar",
    "blake3",
    "sha2",
    "rustls",
    "tokio-rustls",
    "notify",
    "walkdir",
    "globset",
    "itertools",
    "smallvec",
    "hashbrown",
    "parking_lot",
    "once_cell",
    "log",
    "env_logger",
    "anyhow",
    "thiserror",
    "color-eyre",
    "git2",
    "async-std",
]


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp) / "probe"
        fetch(CRATES, work)
        versions = locked_versions(work)
    out: dict[str, dict] = {}
    for name in CRATES:
        version = versions.get(name)
        d = crate_dir(name, version) if version else None
        if d is None:
            print(f"skip {name}: not fetched", file=sys.stderr)
            continue
        gates = {p: f for p, f in read_gates(str(d)).items() if f}
        out[name.replace("-", "_")] = {
            "version": version,
            "features": crate_features(str(d)),
            "gates": gates,
        }
    OUT.write_text(
        json.dumps(
            {
                "_source": "published crate sources, read by depinfer.analyzers.rust_gates",
                "crates": out,
            },
            indent=0,
            sort_keys=True,
        )
        + "\n"
    )
    print(f"wrote {len(out)} crates to {OUT}")


if __name__ == "__main__":
    main()
