"""Rebuild depinfer/data/rust/macro_syntax.json: attribute syntax a derive macro accepted
until one major release and rejects from then on, so code written with it needs the line
before (a manifest asking for the newer major does not build).

Each entry in SEEDS names the derive's crate, the crate whose code parses the attribute, the
compile error that code raises for the old syntax, and the check depinfer runs on the user's
attributes. This script reads the parsing crate's releases (through depinfer's own registry
client: cargo's registry configuration, nothing hard-coded), finds the first release whose
source holds that error, and records it as `since`, with the file and line as the source.

thiserror 2.0.0's release notes list the change ("Tuple structs and tuple variants can no
longer use numerical {0} {1} access at the same time as supplying extra positional arguments
for a format message"); thiserror-impl's src/fmt.rs raises the error quoted below.

Run: python scripts/build_rust_macro_syntax.py  (needs network to the registry).
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from depinfer.data import DATA_DIR  # noqa: E402
from depinfer.model import Ecosystem  # noqa: E402
from depinfer.registries import Registries  # noqa: E402
from depinfer.registries.crate_sources import unpack_crate  # noqa: E402
from depinfer.versions import vtuple  # noqa: E402

OUT = DATA_DIR / "rust/macro_syntax.json"


SEEDS = [
    {
        "crate": "thiserror",
        "attribute": "error",
        "parser": "thiserror-impl",
        "marker": "ambiguous reference to positional arguments by number",
        "check": "numbered-field-with-positional-args",
        "why": '#[error("{0} ..", arg)]: a numbered field beside extra positional arguments '
        "is rejected as ambiguous",
    },
]


def first_release_with(reg: Registries, crate: str, marker: str) -> tuple[str, str] | None:
    """(version, file:line) of the first release of a major line whose source has `marker`."""
    firsts: dict[int, str] = {}
    for v in reg.versions(Ecosystem.CRATES, crate):
        if v.prerelease:
            continue
        major = vtuple(v.version)[0]
        if major not in firsts or vtuple(v.version) < vtuple(firsts[major]):
            firsts[major] = v.version
    with tempfile.TemporaryDirectory() as tmp:
        for major in sorted(firsts):
            data = reg.download_crate(crate, firsts[major])
            root = unpack_crate(data, Path(tmp)) if data else None
            if root is None:
                continue
            for f in sorted(root.rglob("*.rs")):
                for i, line in enumerate(f.read_text(errors="replace").splitlines(), 1):
                    if marker in line:
                        where = f"{crate}-{firsts[major]} {f.relative_to(root)}:{i}"
                        return firsts[major], where
    return None


def main() -> None:
    reg = Registries()
    entries = []
    for seed in SEEDS:
        found = first_release_with(reg, seed["parser"], seed["marker"])
        if found is None:
            print(f"{seed['parser']}: marker not found", file=sys.stderr)
            continue
        since, where = found
        entries.append(
            {
                "crate": seed["crate"],
                "attribute": seed["attribute"],
                "check": seed["check"],
                "since": since,
                "why": seed["why"],
                "source": f'{where}: "{seed["marker"]}"',
            }
        )
    OUT.write_text(
        json.dumps({"_source": "scripts/build_rust_macro_syntax.py", "entries": entries}, indent=1)
        + "\n"
    )
    print(f"{len(entries)} entries -> {OUT}")


if __name__ == "__main__":
    main()
