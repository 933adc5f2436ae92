"""Rebuild depinfer/data/rust/rust_lib_names.json: crates whose library is not named
after the package (`md-5` builds the library `md5`, `utf-8` builds `utf8`).

Code names a crate by its library name (`use md5::Md5;`); the manifest needs the package
(`md-5`). A different crate may even be published under the library's name (`md5`), so
the table only says which popular package builds that library; the mapping decides between
the two from the names the code uses.

Source: the Rust Playground's crate list, `crate-information.json` of the rust-playground
repository (compiler/base/), written by its top-crates tool: the most downloaded crates,
the Rust Cookbook's crates and their dependencies, each with its library's crate name as
cargo reads it from the crate's own published manifest (`id`; a crate listed in two versions
gets the version appended to the older one's id, `md5_0_10_6`).
Run: python scripts/build_rust_lib_names.py PATH/TO/crate-information.json
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from depinfer.data import DATA_DIR  # noqa: E402

OUT = DATA_DIR / "rust/rust_lib_names.json"


def lib_names(entries: list[dict]) -> dict[str, list[str]]:
    """Library name → packages building it, for packages whose library has another name."""
    out: dict[str, list[str]] = {}
    for e in entries:
        name, lib = e["name"], e["id"]
        suffix = "_" + e["version"].replace(".", "_").replace("-", "_")
        if lib.endswith(suffix):
            lib = lib[: -len(suffix)]
        if lib == name.replace("-", "_"):
            continue
        if name not in out.setdefault(lib, []):
            out[lib].append(name)
    return dict(sorted(out.items()))


def main() -> None:
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    path = Path(sys.argv[1])
    table = lib_names(json.loads(path.read_text(encoding="utf-8")))
    OUT.write_text(
        json.dumps(
            {
                "_source": "The Rust Playground's crate list (crate-information.json, "
                "rust-playground compiler/base), built by scripts/build_rust_lib_names.py",
                "lib_names": table,
            },
            indent=1,
        )
        + "\n"
    )
    print(f"{len(table)} library names -> {OUT}")


if __name__ == "__main__":
    main()
