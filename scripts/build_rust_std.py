"""Rebuild depinfer/data/rust/rust_std.json: the crates a Rust program names without a
Cargo dependency.

Sources:
- The Rust Reference, "Extern prelude" (doc.rust-lang.org/reference/names/preludes.html):
  `std`, `core` (always), `alloc`, `proc_macro`, `test` (sysroot crates named in code).
- The Rust Reference, "Tool attributes" and "The diagnostic tool attribute namespace"
  (doc.rust-lang.org/reference/attributes.html#tool-attributes, .../attributes/diagnostics.html):
  `#[rustfmt::skip]`, `#[clippy::..]`, `#[diagnostic::..]`, `#[rust_analyzer::..]` name tools.
- The installed toolchain's sysroot (`rustc --print sysroot`, lib/rustlib/<host>/lib): every
  other rlib there is a sysroot-internal crate, usable only with `#![feature(rustc_private)]`;
  several (libc, memchr, hashbrown, ...) are also ordinary registry crates, so they are
  recorded separately and never treated as built in.
- The installed toolchain's documentation (rust-docs component, share/doc/rust/html): the
  names the standard prelude brings into every module (std::prelude::v1 and the edition
  preludes core::prelude::rust_2021 / rust_2024, their "Re-exports"): `Vec`, `Option`,
  `TryFrom`, ... A glob import of a crate (`use log::*;`) does not bring these in.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

PRELUDE = ["std", "core", "alloc", "proc_macro", "test"]
TOOL_ATTRIBUTES = ["clippy", "diagnostic", "rust_analyzer", "rustfmt"]
from depinfer.data import DATA_DIR  # noqa: E402

OUT = DATA_DIR / "rust/rust_std.json"


def sysroot_crates() -> list[str]:
    sysroot = subprocess.run(
        ["rustc", "--print", "sysroot"], capture_output=True, text=True, check=True
    ).stdout.strip()
    host = re.search(
        r"^host: (\S+)$",
        subprocess.run(["rustc", "-vV"], capture_output=True, text=True, check=True).stdout,
        re.MULTILINE,
    ).group(1)
    names = set()
    for f in (Path(sysroot) / "lib" / "rustlib" / host / "lib").glob("lib*.rlib"):
        names.add(re.sub(r"-[0-9a-f]+$", "", f.stem)[3:])
    return sorted(names - set(PRELUDE))


def std_prelude() -> list[str]:
    """The names the std prelude and the edition preludes re-export, from the toolchain's
    own documentation pages (empty when the rust-docs component is not installed)."""
    sysroot = subprocess.run(
        ["rustc", "--print", "sysroot"], capture_output=True, text=True, check=True
    ).stdout.strip()
    html = Path(sysroot) / "share" / "doc" / "rust" / "html"
    pages = [
        html / "std" / "prelude" / "v1" / "index.html",
        html / "core" / "prelude" / "rust_2021" / "index.html",
        html / "core" / "prelude" / "rust_2024" / "index.html",
    ]
    names: set[str] = set()
    for page in pages:
        if page.is_file():
            names |= set(re.findall(r'id="reexport\.(\w+)"', page.read_text(encoding="utf-8")))
    return sorted(names)


def main() -> None:
    version = subprocess.run(["rustc", "--version"], capture_output=True, text=True).stdout.strip()
    data = {
        "_source": "Rust Reference 'Extern prelude'; rlibs of the toolchain sysroot and its "
        "std/core prelude documentation pages (" + version + ")",
        "extern_prelude": PRELUDE,
        "tool_attributes": TOOL_ATTRIBUTES,
        "sysroot_private": sysroot_crates(),
        "std_prelude": std_prelude(),
    }
    OUT.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
