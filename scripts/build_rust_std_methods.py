"""Rebuild depinfer/data/rust/std_methods.json: method names the Rust standard library
defines (inherent and trait methods of std, core and alloc types).

Why: a dependency's method that exists only behind a feature (reqwest's `RequestBuilder::json`
needs `json`) is recognised by its name at a call site (`.json(..)`), without types. A name the
standard library also defines (`.is_empty()`, `.duration_since()`, `.parse()`) says nothing
about which type is called, so such names never switch a feature on.

Source: the installed toolchain's `rust-docs` component (`rustup component add rust-docs`;
`rustc --print sysroot`/share/doc/rust/html/{std,core,alloc}): every `id="method.NAME"` and
`id="tymethod.NAME"` anchor of the generated API pages.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

from depinfer.data import DATA_DIR  # noqa: E402

OUT = DATA_DIR / "rust/std_methods.json"
ANCHOR = re.compile(r'id="(?:ty)?method\.([a-z_][a-z0-9_]*)"')


def main() -> None:
    sysroot = subprocess.run(
        ["rustc", "--print", "sysroot"], capture_output=True, text=True, check=True
    ).stdout.strip()
    version = subprocess.run(
        ["rustc", "--version"], capture_output=True, text=True, check=True
    ).stdout.strip()
    html = Path(sysroot) / "share" / "doc" / "rust" / "html"
    names: set[str] = set()
    for crate in ("std", "core", "alloc"):
        for page in (html / crate).rglob("*.html"):
            names.update(ANCHOR.findall(page.read_text(encoding="utf-8", errors="replace")))
    if not names:
        raise SystemExit(f"no API pages under {html}: install the rust-docs component")
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(
        json.dumps(
            {
                "source": f"rust-docs of {version}: method anchors of std, core and alloc",
                "methods": sorted(names),
            },
            indent=0,
        )
        + "\n",
        encoding="utf-8",
    )
    print(f"{len(names)} method names → {OUT}")


if __name__ == "__main__":
    main()
