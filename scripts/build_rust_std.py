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


def main() -> None:
    version = subprocess.run(["rustc", "--version"], capture_output=True, text=True).stdout.strip()
    data = {
        "_source": "Rust Reference 'Extern prelude'; rlibs of the toolchain sysroot ("
        + version
        + ")",
        "extern_prelude": PRELUDE,
        "tool_attributes": TOOL_ATTRIBUTES,
        "sysroot_private": sysroot_crates(),
    }
    OUT.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
