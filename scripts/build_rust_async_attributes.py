"""Rebuild depinfer/data/rust/async_attributes.json: attribute macros whose code for an
`async fn` names a crate of its own, which the user's manifest must then list.

`#[wasm_bindgen] pub async fn run()` expands to `wasm_bindgen_futures::future_to_promise(..)`
(exports) and `wasm_bindgen_futures::JsFuture::from(..)` (async imports in an `extern "C"`
block): the wasm-bindgen Guide, "Working with a JS Promise and a Rust Future", says so, and the
macro's code generator spells it out. This script reads that generator:

1. a throw-away Cargo project depends on each code-generating crate in SEEDS; `cargo fetch`
   (cargo's own registry configuration, nothing hard-coded) brings its `.crate` source into
   Cargo's registry cache;
2. the crate's `parse_quote! { ident }` defaults name the crates its output refers to
   (`wasm_bindgen_futures: syn::parse_quote! { wasm_bindgen_futures }`);
3. an entry is written only when the generator interpolates that path (`#wasm_bindgen_futures::`)
   in code it emits; file, line and version are recorded as the entry's source.

Run: python scripts/build_rust_async_attributes.py  (needs cargo and network to the registry).
"""

from __future__ import annotations

import json
import re
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from build_rust_derives import crate_dir, fetch, locked_versions  # noqa: E402

from depinfer.data import DATA_DIR  # noqa: E402

OUT = DATA_DIR / "rust/async_attributes.json"

# (attribute name, the crate that provides it, the crate generating its code, the crate
# the generated async code needs, as published)
SEEDS = [
    ("wasm_bindgen", "wasm-bindgen", "wasm-bindgen-backend", "wasm-bindgen-futures"),
]

DEFAULT_PATH = re.compile(r"(\w+)\s*:\s*syn::parse_quote!\s*\{\s*(\w+)\s*\}")


def evidence(src: Path, ident: str) -> str | None:
    """`file:line` of the first place the generator emits `#ident::…`, after checking that
    `ident`'s default path is the crate of that name."""
    defaults = {}
    files = sorted((src / "src").rglob("*.rs"))
    for f in files:
        for field, path in DEFAULT_PATH.findall(f.read_text(errors="replace")):
            defaults[field] = path
    if defaults.get(ident) != ident:
        return None
    for f in files:
        for n, line in enumerate(f.read_text(errors="replace").splitlines(), 1):
            if f"#{ident}::" in line:
                return f"{f.relative_to(src).as_posix()}:{n}"
    return None


def main() -> None:
    entries = []
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp) / "probe"
        fetch(sorted({s[2] for s in SEEDS}), work)
        versions = locked_versions(work)
        for attribute, crate, generator, needs in SEEDS:
            version = versions.get(generator, "")
            src = crate_dir(generator, version)
            where = evidence(src, needs.replace("-", "_")) if src else None
            if where is None:
                print(f"skip {attribute}: {generator} does not emit {needs}", file=sys.stderr)
                continue
            entries.append(
                {
                    "attribute": attribute,
                    "crate": crate,
                    "needs": needs,
                    "why": f"#[{attribute}] on an async fn expands to {needs.replace('-', '_')}"
                    f"::… calls (future_to_promise, spawn_local, JsFuture)",
                    "source": f"{generator}-{version} {where}; the wasm-bindgen Guide, "
                    '"Working with a JS Promise and a Rust Future"',
                }
            )
    OUT.write_text(
        json.dumps(
            {
                "_source": "code generators of the crates in scripts/build_rust_async_attributes.py",
                "entries": entries,
            },
            indent=1,
            ensure_ascii=False,
        )
        + "\n"
    )
    print(f"{len(entries)} entries -> {OUT}")


if __name__ == "__main__":
    main()
