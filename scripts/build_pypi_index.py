"""Rebuild depinfer/data/python/pypi_modules.json: import names → PyPI distributions.

Why: an import name often differs from the distribution that provides it (`yaml` → PyYAML,
`PIL` → Pillow, `google.cloud.storage` → google-cloud-storage). The mapper needs that
knowledge offline, with a popularity figure to choose between several providers.

Sources (all public, named here, nothing copied into the project but the derived table):
  1. Download rank: the "top PyPI packages" 30-day download ranking (Hugo van Kemenade's
     "Top PyPI Packages" dataset, hugovk/top-pypi-packages on GitHub, CC0). Pass its JSON/CSV with --ranking, or
     a TSV with columns `name` and `rank_among_15000_most_downloaded` (the machine's package
     list at /work/.library/env/packages/pypi.tsv carries that ranking). The rank is the
     popularity figure; the ranked names are also known to exist in the registry.
  2. pigar's module database: the `pigar` distribution (BSD-3-Clause,
     https://github.com/damnever/pigar) ships `pigar/.db.sqlite3`, top-level module names
     per distribution. Fetched with `pip download --no-deps pigar==2.2.0` (one package).
  3. pipreqs's mapping: the `pipreqs` distribution (Apache-2.0,
     https://github.com/bndr/pipreqs) ships `pipreqs/mapping` (`import:distribution` lines).
     Fetched with `pip download --no-deps pipreqs==0.5.0`.
  4. Namespace sub-packages (`google.cloud.storage`, `azure.storage.blob`, `zope.interface`):
     the RECORD files of (a) the distributions installed in the interpreter running this
     script, and (b) the wheels of the highest-ranked distributions under the namespace
     roots named by --wheel-roots (default: google), downloaded with
     `pip download --no-deps --only-binary :all:` (at most --wheel-limit of them) and read
     from the zip without installing. Other namespace roots are matched at lookup time by
     the distribution-name convention (`azure-storage-blob` ↔ `azure.storage.blob`).

Bounded: only the ranked distributions (N = size of the ranking, 15,000 here) and the
pipreqs entries are kept; no registry-wide scan. Runtime here: about 2-5 minutes.

Usage:
  python scripts/build_pypi_index.py [--ranking FILE] [--pigar-wheel W] [--pipreqs-wheel W]
                                     [--wheel-roots google] [--wheel-limit 150]
"""

from __future__ import annotations

import argparse
import csv
import importlib.metadata as md
import io
import json
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import zipfile
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "depinfer/data/python/pypi_modules.json"
DEFAULT_RANKING = Path("/work/.library/env/packages/pypi.tsv")
PIGAR = "pigar==2.2.0"
PIPREQS = "pipreqs==0.5.0"

# Top-level names that packaging mistakes put into wheels (a `tests/` folder shipped at the
# top level); they never identify the distribution.
JUNK_TOPS = {
    "tests",
    "test",
    "testing",
    "docs",
    "doc",
    "examples",
    "example",
    "samples",
    "dist",
    "build",
    "scripts",
    "script",
    "wheelhouse",
    "benchmarks",
    "benchmark",
    "tools",
    "bin",
    "requirements",
    "resources",
    "third_party",
    "misc",
    "utils",
    "util",
    "core",
    "common",
    "node_modules",
    "src",
    "lib",
    "setup",
    "conftest",
    "__init__",
    "__main__",
    "demo",
    "data",
    "config",
    "app",
    "main",
    "tasks",
    "helpers",
}


def canon(name: str) -> str:
    """PEP 503 normalised distribution name."""
    return re.sub(r"[-_.]+", "-", name).lower()


def load_ranking(path: Path) -> dict[str, int]:
    text = path.read_text(encoding="utf-8")
    ranks: dict[str, int] = {}
    if path.suffix == ".json":
        rows = json.loads(text).get("rows", [])
        for i, row in enumerate(rows, 1):
            ranks.setdefault(canon(row["project"]), i)
        return ranks
    delim = "\t" if path.suffix == ".tsv" else ","
    reader = csv.DictReader(
        io.StringIO(text),
        delimiter=delim,
        quoting=csv.QUOTE_NONE if delim == "\t" else csv.QUOTE_MINIMAL,
    )
    for i, row in enumerate(reader, 1):
        name = row.get("name") or row.get("project")
        if not name:
            continue
        if "rank_among_15000_most_downloaded" in row:
            r = row["rank_among_15000_most_downloaded"]
            if r and r.isdigit():
                ranks.setdefault(canon(name), int(r))
        else:
            ranks.setdefault(canon(name), i)
    return ranks


def download(spec: str, dest: str, binary: bool = False) -> list[Path]:
    cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "-q", "-d", dest]
    if binary:
        cmd += ["--only-binary", ":all:"]
    subprocess.run(cmd + [spec], check=False, timeout=600, capture_output=True)
    return sorted(Path(dest).glob("*.whl"))


def pigar_tops(wheel: Path, workdir: str) -> dict[str, set[str]]:
    with zipfile.ZipFile(wheel) as zf:
        member = next(n for n in zf.namelist() if n.endswith(".db.sqlite3"))
        target = Path(workdir) / "pigar.sqlite3"
        with zf.open(member) as src, target.open("wb") as dst:
            shutil.copyfileobj(src, dst)
    tops: dict[str, set[str]] = defaultdict(set)
    con = sqlite3.connect(target)
    query = (
        "select d.name, t.name from distributions d "
        "join top_level_module_names t on t.distribution_id = d.id"
    )
    for dist, module in con.execute(query):
        tops[canon(dist)].add(module)
    con.close()
    return tops


def pipreqs_mapping(wheel: Path) -> list[tuple[str, str]]:
    with zipfile.ZipFile(wheel) as zf:
        text = zf.read("pipreqs/mapping").decode("utf-8")
    pairs = []
    for line in text.splitlines():
        if ":" in line:
            module, dist = line.strip().split(":", 1)
            if module and dist:
                pairs.append((module, canon(dist)))
    return pairs


def packages_from_record(paths: list[str]) -> set[str]:
    """Dotted import paths a distribution provides, descending through namespace folders.

    A folder without `__init__.py` (a PEP 420 namespace) is descended into until a regular
    package or a module is found; that dotted path is what identifies the distribution.
    """
    files = {p for p in paths if p.endswith((".py", ".so", ".pyd", ".pyi"))}
    files = {p for p in files if ".dist-info/" not in p and ".data/" not in p}
    dirs_with_init = {p.rsplit("/", 1)[0] for p in files if p.endswith("/__init__.py")}
    out: set[str] = set()
    for p in files:
        parts = p.split("/")
        if parts[0].endswith("-stubs") or "-" in parts[0]:
            continue
        for depth in range(1, len(parts) + 1):
            prefix = "/".join(parts[:depth])
            if depth == len(parts):  # a module file
                mod = parts[-1].split(".")[0]
                if len(parts) >= 3:  # inside nested namespace folders: the folder identifies
                    out.add(".".join(parts[:-1]))
                elif mod != "__init__":
                    out.add(".".join(parts[:-1] + [mod]))
                break
            if prefix in dirs_with_init:
                out.add(".".join(parts[:depth]))
                break
    return {m for m in out if all(s.isidentifier() for s in m.split("."))}


def record_of_wheel(wheel: Path) -> list[str]:
    with zipfile.ZipFile(wheel) as zf:
        return zf.namelist()


# Import names none of the sources above records, each from the distribution's own
# documentation. PyGObject ships no wheel for most platforms (it builds against the system's
# GObject introspection), so neither pigar's database nor the wheels list its `gi` package:
# PyGObject's "Getting Started" page imports `gi` (`gi.require_version("Gtk", "4.0")`).
DOCUMENTED = {"gi": ["pygobject"]}


def apply_documented(modules: dict[str, list[str]]) -> None:
    for module, dists in DOCUMENTED.items():
        modules[module] = list(dict.fromkeys([*modules.get(module, []), *dists]))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--documented-only",
        action="store_true",
        help="only add the DOCUMENTED rows to the existing table (no downloads)",
    )
    ap.add_argument("--ranking", type=Path, default=DEFAULT_RANKING)
    ap.add_argument("--pigar-wheel", type=Path)
    ap.add_argument("--pipreqs-wheel", type=Path)
    ap.add_argument("--wheel-roots", default="google")
    ap.add_argument("--wheel-limit", type=int, default=150)
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args()
    if args.documented_only:
        data = json.loads(args.out.read_text(encoding="utf-8"))
        apply_documented(data["modules"])
        data["sources"]["documented"] = "DOCUMENTED in scripts/build_pypi_index.py"
        args.out.write_text(json.dumps(data, separators=(",", ":")) + "\n", encoding="utf-8")
        return

    ranks = load_ranking(args.ranking)
    print(f"ranking: {len(ranks)} distributions from {args.ranking}")
    work = tempfile.mkdtemp(prefix="pypi-index-")
    try:
        pigar_wheel = args.pigar_wheel or download(PIGAR, f"{work}/pigar")[0]
        pipreqs_wheel = args.pipreqs_wheel or download(PIPREQS, f"{work}/pipreqs")[0]
        tops = pigar_tops(pigar_wheel, work)
        print(f"pigar: {len(tops)} distributions")

        providers: dict[str, set[str]] = defaultdict(set)
        dist_tops: dict[str, list[str]] = {}
        for dist in ranks:
            names = sorted(t for t in tops.get(dist, ()) if t not in JUNK_TOPS and t.isidentifier())
            if dist in tops:
                dist_tops[dist] = names
            for t in names:
                providers[t].add(dist)
        for module, dist in pipreqs_mapping(pipreqs_wheel):
            if module not in JUNK_TOPS:
                providers[module].add(dist)
        print(f"pipreqs + pigar: {len(providers)} import names")

        # Exact namespace sub-packages from RECORD files.
        deep: dict[str, set[str]] = defaultdict(set)
        for d in md.distributions():
            name = canon(d.metadata["Name"] or "")
            if name and d.files:
                for m in packages_from_record([str(f) for f in d.files]):
                    deep[m].add(name)
        roots = [r for r in args.wheel_roots.split(",") if r]
        wanted = sorted(
            (d for d, ts in dist_tops.items() if any(t in roots for t in ts)),
            key=lambda d: ranks[d],
        )[: args.wheel_limit]
        print(f"reading {len(wanted)} wheels under roots {roots}")
        for i in range(0, len(wanted), 25):
            batch = wanted[i : i + 25]
            dest = tempfile.mkdtemp(dir=work)
            cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "-q"]
            cmd += ["--only-binary", ":all:", "-d", dest, *batch]
            proc = subprocess.run(cmd, timeout=900, capture_output=True, text=True)
            if proc.returncode != 0:
                print(
                    "   batch failed:", proc.stderr.strip().splitlines()[-1:]
                )  # one bad name fails the batch: retry one by one
                for dist in batch:
                    download(dist, dest, binary=True)
            for wheel in Path(dest).glob("*.whl"):
                dist = canon(wheel.name.split("-")[0])
                for m in packages_from_record(record_of_wheel(wheel)):
                    deep[m].add(dist)
                wheel.unlink()
            print(f"  {min(i + 25, len(wanted))}/{len(wanted)}")
        for module, dists in deep.items():
            if "." in module:  # top levels are already covered by pigar for ranked dists
                providers[module].update(dists)
            else:
                providers[module].update(d for d in dists if d in ranks)

        def order(d: str) -> tuple[int, str]:
            return (ranks.get(d, 10**6), d)

        modules = {
            m: sorted(ds, key=order)
            for m, ds in sorted(providers.items())
            if ds and m not in JUNK_TOPS
        }
        apply_documented(modules)
        data = {
            "about": "import name -> PyPI distributions (best-ranked first); "
            "built by scripts/build_pypi_index.py",
            "sources": {
                "ranking": f"top-pypi-packages download rank ({len(ranks)} names) via {args.ranking.name}",
                "pigar": f"{PIGAR} .db.sqlite3 top_level_module_names",
                "pipreqs": f"{PIPREQS} pipreqs/mapping",
                "records": f"RECORD of locally installed distributions and of {len(wanted)} "
                f"wheels under {roots}",
                "documented": "DOCUMENTED in scripts/build_pypi_index.py",
            },
            "ranks": dict(sorted(ranks.items(), key=lambda kv: kv[1])),
            # ranked distributions whose top-level names no source knew: the mapper may
            # match them by name convention alone
            "unknown_tops": sorted(d for d in ranks if d not in dist_tops),
            "modules": modules,
        }
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(data, separators=(",", ":")) + "\n", encoding="utf-8")
        print(
            f"wrote {args.out}: {len(modules)} import names, {args.out.stat().st_size // 1024} kB"
        )
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
