"""Rebuild depinfer/data/rust/derives.json: derive / attribute macro names → crate + features.

`#[derive(Serialize)]`, `#[serde(...)]` or `#[tokio::main]` name no crate the way a path does,
so the analyzer hands them to a table. The table is read from the crates' published sources:

1. a throw-away Cargo project depends on each facade crate in SEEDS; `cargo fetch` (cargo's
   own registry configuration, nothing hard-coded) brings their `.crate` sources into Cargo's
   registry cache;
2. each facade's Cargo.toml names its proc-macro companion (`serde` → `serde_derive`) and the
   feature that enables it (`derive = ["serde_derive"]`); the companions are fetched too;
3. each companion that declares `proc-macro = true` is scanned for
   `#[proc_macro_derive(Name, attributes(helper, ...))]` and `#[proc_macro_attribute] fn name`.

Sources: the fetched crates themselves (file and version recorded in each entry), and the
Cargo Book, "Features" / "Optional dependencies" for how features enable dependencies.
Run: python scripts/build_rust_derives.py  (needs cargo and network access to the registry).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]

from depinfer.data import DATA_DIR  # noqa: E402

OUT = DATA_DIR / "rust/derives.json"

# Facade crates whose derives/attributes show up without a path in user code.
SEEDS = [
    "serde",
    "clap",
    "thiserror",
    "snafu",
    "strum",
    "derive_more",
    "async-trait",
    "tokio",
    "tracing",
    "pest_derive",
    "askama",
    "ouroboros",
    "schemars",
    "serde_with",
    "serde_repr",
    "prost",
    "num_enum",
    "bytemuck",
    "zerocopy",
    "derive_builder",
    "typed-builder",
    "getset",
    "educe",
    "darling",
    "rstest",
    "test-case",
    "actix-web",
    "actix-rt",
    "sqlx",
    "validator",
    "utoipa",
    "wasm-bindgen",
    "pyo3",
    "enum_dispatch",
    "num-derive",
    "smart-default",
    "tabled",
    "argh",
    "miette",
    "arbitrary",
    "zeroize",
    "pin-project",
    "ctor",
    "serial_test",
    "test-log",
    "bincode",
    "borsh",
    "rkyv",
    "enumflags2",
    "async-stream",
    "futures",
    "rocket",
    "axum",
    "ts-rs",
    "napi-derive",
    "macro_rules_attribute",
    "parse-display",
    "derive-new",
    "enum-iterator",
    "ref-cast",
    "documented",
    "self_cell",
    "deku",
    "binrw",
    "ambassador",
    "proptest-derive",
    "tracing-test",
    "maud",
    "strum_macros",
    "include_dir",
    "rust-embed",
    "static_assertions",
]

DERIVE = re.compile(
    r"#\[proc_macro_derive\(\s*(\w+)\s*(?:,\s*attributes\(([^)]*)\))?\s*\)\]", re.MULTILINE
)
ATTRIBUTE = re.compile(
    r"#\[proc_macro_attribute\]\s*(?:#\[[^\]]*\]\s*)*(?:pub(?:\([^)]*\))?\s+)?fn\s+(r#)?(\w+)",
    re.MULTILINE,
)


def cargo(args: list[str], cwd: Path) -> None:
    subprocess.run(["cargo", *args], cwd=cwd, check=True, timeout=900)


def registry_sources() -> list[Path]:
    home = Path(os.environ.get("CARGO_HOME", Path.home() / ".cargo"))
    return sorted((home / "registry" / "src").glob("*"))


def fetch(crates: list[str], work: Path) -> None:
    """Let cargo resolve and download `crates` (newest compatible versions)."""
    work.mkdir(parents=True, exist_ok=True)
    (work / "src").mkdir(exist_ok=True)
    (work / "src" / "lib.rs").write_text("")
    lines = [
        "[package]",
        'name = "derive-table-probe"',
        'version = "0.0.0"',
        'edition = "2021"',
        "",
    ]
    lines.append("[dependencies]")
    for c in crates:
        lines.append(f'{c} = "*"')
    (work / "Cargo.toml").write_text("\n".join(lines) + "\n")
    cargo(["generate-lockfile"], work)
    cargo(["fetch"], work)


def locked_versions(work: Path) -> dict[str, str]:
    lock = tomllib.loads((work / "Cargo.lock").read_text())
    out: dict[str, str] = {}
    for p in lock.get("package", []):
        prev = out.get(p["name"])
        if prev is None or _vkey(p["version"]) > _vkey(prev):
            out[p["name"]] = p["version"]
    return out


def _vkey(v: str) -> tuple[int, ...]:
    return tuple(int(x) for x in re.findall(r"\d+", v.split("-")[0])[:3])


def crate_dir(name: str, version: str) -> Path | None:
    for base in registry_sources():
        d = base / f"{name}-{version}"
        if d.is_dir():
            return d
    return None


def companions(facade_dir: Path) -> dict[str, list[str]]:
    """Dependencies of a facade crate → the features that switch them on ([] = always)."""
    manifest = tomllib.loads((facade_dir / "Cargo.toml").read_text())
    deps = manifest.get("dependencies", {})
    features = manifest.get("features", {})
    out: dict[str, list[str]] = {}
    for key, value in deps.items():
        package = value.get("package", key) if isinstance(value, dict) else key
        optional = isinstance(value, dict) and value.get("optional", False)
        enabling: list[str] = []
        if optional:
            for feature, items in features.items():
                if any(i in (key, f"dep:{key}") or i.startswith(f"{key}/") for i in items):
                    enabling.append(feature)
            if not enabling:
                enabling = [key]  # implicit feature named after the optional dependency
        # a feature that is on by default needs no mention in the user's manifest
        default = _expand(features, features.get("default", []))
        out[package] = [] if any(f in default for f in enabling) else enabling
    return out


def _expand(features: dict[str, list[str]], names: list[str]) -> set[str]:
    seen: set[str] = set()
    todo = list(names)
    while todo:
        f = todo.pop()
        if f in seen or f not in features:
            continue
        seen.add(f)
        todo.extend(features[f])
    return seen


def macros_of(src_dir: Path) -> tuple[list[dict], list[str]]:
    derives: list[dict] = []
    attributes: list[str] = []
    for f in sorted((src_dir / "src").rglob("*.rs")):
        text = f.read_text(errors="replace")
        for m in DERIVE.finditer(text):
            helpers = [h.strip() for h in (m.group(2) or "").split(",") if h.strip()]
            derives.append({"name": m.group(1), "helpers": helpers})
        for m in ATTRIBUTE.finditer(text):
            attributes.append(m.group(2))
    return derives, sorted(set(attributes))


def is_proc_macro(src_dir: Path) -> bool:
    manifest = tomllib.loads((src_dir / "Cargo.toml").read_text())
    lib = manifest.get("lib", {})
    return bool(lib.get("proc-macro") or lib.get("proc_macro"))


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp) / "probe"
        fetch(SEEDS, work)
        versions = locked_versions(work)
        pairs: dict[str, dict[str, list[str]]] = {}
        second: set[str] = set()
        for facade in SEEDS:
            d = crate_dir(facade, versions.get(facade, ""))
            if d is None:
                print(f"skip {facade}: not fetched", file=sys.stderr)
                continue
            comp = companions(d)
            pairs[facade] = comp
            second.update(comp)
        fetch(sorted(set(SEEDS) | second), Path(tmp) / "probe2")
        versions = locked_versions(Path(tmp) / "probe2")
        entries: list[dict] = []
        for facade in SEEDS:
            fdir = crate_dir(facade, versions.get(facade, ""))
            if fdir is None:
                continue
            providers = {facade: []} if is_proc_macro(fdir) else {}
            for dep, feats in pairs.get(facade, {}).items():
                ddir = crate_dir(dep, versions.get(dep, ""))
                if ddir is not None and is_proc_macro(ddir):
                    providers[dep] = feats
            for provider, feats in providers.items():
                pdir = crate_dir(provider, versions[provider])
                derives, attributes = macros_of(pdir)
                source = f"{provider}-{versions[provider]} (src/**/*.rs)"
                via = f"{facade}-{versions[facade]} Cargo.toml" + (
                    f" [features] {', '.join(feats)}" if feats else " (always)"
                )
                for d in derives:
                    entries.append(
                        {
                            "kind": "derive",
                            "name": d["name"],
                            "helpers": d["helpers"],
                            "crate": facade,
                            "features": feats[:1],
                            "macro_crate": provider,
                            "why": f"#[derive({d['name']})] comes from {provider}, re-exported by {facade}",
                            "source": f"{source}; {via}",
                        }
                    )
                for a in attributes:
                    entries.append(
                        {
                            "kind": "attribute",
                            "name": a,
                            "helpers": [],
                            "crate": facade,
                            "features": feats[:1],
                            "macro_crate": provider,
                            "why": f"#[{a}] is an attribute macro of {provider}, re-exported by {facade}",
                            "source": f"{source}; {via}",
                        }
                    )
    entries.sort(key=lambda e: (e["name"], e["crate"]))
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(
        json.dumps(
            {
                "_source": "proc-macro sources of the crates listed in scripts/build_rust_derives.py",
                "entries": entries,
            },
            indent=1,
        )
        + "\n"
    )
    print(f"wrote {len(entries)} entries to {OUT}")


if __name__ == "__main__":
    main()
