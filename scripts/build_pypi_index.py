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
     the RECORD files of the distributions installed in the interpreter running this
     script, and the file lists of the latest wheels of the distributions under each
     candidate namespace root (see 5).
  5. Namespace file lists (`--namespaces`, also the last step of a full build): a candidate
     root is a top-level import name that at least two distributions provide by sources
     2-3 (`azure`, `google`, `sphinxcontrib`, `zope`, `airflow`, …; --wheel-roots
     restricts the set). Read are those providers, the providers of keys under the root
     (matplotlib for `mpl_toolkits.mplot3d`), and the ranked distributions whose top
     levels no source knows and whose name holds the root as a word
     (`opentelemetry-api`, `apache-airflow-providers-amazon`) — only distributions the
     index already names, no guessed names. For each, the registry's JSON API (the endpoint
     pip is configured with) names the latest wheel; only the zip's central directory
     (its file list, the RECORD's paths) is read, by HTTP range requests, and cached under
     --cache. A root is a namespace when the file lists ship different sub-packages
     (variants of one package — `opencv-python` / `opencv-python-headless` — are not).
     Each sub-package only one group of distributions ships becomes a key of its own, down
     to the depth where the distributions part (at most NS_MAX_DEPTH parts):
     `azure.storage.blob` → azure-storage-blob, `opentelemetry.trace` → opentelemetry-api;
     `namespaces` records, per namespace root, its core — the one group of distributions
     that ships modules directly in it (`airflow` → apache-airflow-core), whose own
     sub-packages need no keys — and whoever else ships a file (an `__init__.py`, a
     module) directly in it; often nobody (PEP 420). The mapper drops, at the root, every
     provider whose file list is known and that is none of these. `installs` records,
     per namespace root, which of its distributions the root's namesake distribution
     requires (promptflow → promptflow-devkit, …): the namesake installs their modules.
  6. Wheel top levels (`--wheel-tops`, also the last step of a full build): the top-level
     modules and packages the latest wheel of each ranked distribution ships, from its
     file list read as in 5, added to what sources 2-4 give (pigar's database misses
     modules the releases ship now: pex's `pex`, pywin32's `win32`); namespace roots stay
     source 5's.

Bounded: only the ranked distributions (N = size of the ranking, 15,000 here) and the
pipreqs entries are kept; no registry-wide scan. Runtime here: about 2-5 minutes, plus
about 5 minutes for the namespace file lists (3,133 wheels) on a cold cache.

Usage:
  python scripts/build_pypi_index.py [--ranking FILE] [--pigar-wheel W] [--pipreqs-wheel W]
                                     [--wheel-roots azure,google]
  python scripts/build_pypi_index.py --namespaces [--wheel-roots …]   # update the table
  python scripts/build_pypi_index.py --wheel-tops                      # update the table
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
import urllib.parse
import urllib.request
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


# -- namespace file lists ----------------------------------------------------------------
NS_MAX_DEPTH = 5  # dotted parts: azure.mgmt.x, opentelemetry.exporter.otlp.proto.grpc
SAME_PACKAGE = 0.5  # file lists this similar (overlap) are variants of one package
BULK_CHILDREN = 20  # a group with more sub-packages of its own in a folder co-owns it
CODE_EXTS = (".py", ".pyi", ".so", ".pyd")
DEFAULT_CACHE = Path.home() / ".cache/depinfer/build-pypi-index/wheel-files"


class RangeFile(io.RawIOBase):
    """A remote file read by HTTP range requests: enough for zipfile to list a wheel's
    members from its central directory without downloading the archive."""

    TAIL = 1 << 17

    def __init__(self, url: str, size: int) -> None:
        super().__init__()
        self.url, self.size, self.pos = url, size, 0
        self.start = max(0, size - self.TAIL)
        self.buf = self._get(self.start, size)

    def _get(self, a: int, b: int) -> bytes:
        req = urllib.request.Request(self.url, headers={"Range": f"bytes={a}-{b - 1}"})
        with urllib.request.urlopen(req, timeout=120) as resp:
            data = resp.read()
            return data if resp.status == 206 else data[a:b]

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def tell(self) -> int:
        return self.pos

    def seek(self, offset: int, whence: int = 0) -> int:
        base = {0: 0, 1: self.pos, 2: self.size}[whence]
        self.pos = max(0, base + offset)
        return self.pos

    def readinto(self, b) -> int:  # type: ignore[override]
        n = min(len(b), self.size - self.pos)
        if n <= 0:
            return 0
        if self.pos < self.start:  # extend the buffer down to the read's start
            self.buf = self._get(self.pos, self.start) + self.buf
            self.start = self.pos
        off = self.pos - self.start
        b[:n] = self.buf[off : off + n]
        self.pos += n
        return n


def pick_wheel(files: list[dict]) -> dict | None:
    """The wheel whose file list stands for the release: pure Python first, then Linux."""
    wheels = [f for f in files if f.get("packagetype") == "bdist_wheel" and not f.get("yanked")]

    def pref(f: dict) -> tuple[int, str]:
        name = f["filename"]
        if name.endswith("-none-any.whl"):
            return (0, name)
        if "manylinux" in name and "x86_64" in name:
            return (1, name)
        return (2, name)

    return min(wheels, key=pref, default=None)


def wheel_files(dist: str, json_base: str, cache: Path) -> dict | None:
    """{"wheel", "files", "requires"} of the latest release of `dist`: the code files
    (.py/.pyi/.so/.pyd) its wheel ships (None without a wheel) and the distributions it
    requires unconditionally; None when the registry does not answer. Cached."""
    cached = cache / f"{dist}.json"
    entry = json.loads(cached.read_text(encoding="utf-8")) if cached.is_file() else {}
    if "requires" in entry:
        return entry
    try:
        url = f"{json_base}/{dist}/json"
        with urllib.request.urlopen(url, timeout=120) as resp:
            meta = json.load(resp)
        wheel = pick_wheel(meta.get("urls", []))
        if "files" in entry:  # cached before requirements were recorded
            pass
        elif wheel is None:
            entry = {"wheel": None, "files": None}
        else:  # the index may answer with URLs relative to the JSON document
            where = urllib.parse.urljoin(url, wheel["url"])
            with zipfile.ZipFile(RangeFile(where, wheel["size"])) as zf:
                names = sorted(n for n in zf.namelist() if n.endswith(CODE_EXTS))
            entry = {"wheel": wheel["filename"], "files": names}
    except (OSError, ValueError, zipfile.BadZipFile) as exc:
        print(f"   {dist}: {exc}")
        return None
    entry["requires"] = requirements(meta.get("info", {}).get("requires_dist") or [])
    cache.mkdir(parents=True, exist_ok=True)
    cached.write_text(json.dumps(entry), encoding="utf-8")
    return entry


def requirements(requires_dist: list[str]) -> list[str]:
    """Canonical names of the requirements no extra conditions."""
    out = []
    for req in requires_dist:
        spec, _, marker = req.partition(";")
        if "extra" in marker:
            continue
        name = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", spec)
        if name:
            out.append(canon(name.group(1)))
    return sorted(set(out))


def namespace_candidates(
    modules: dict[str, list[str]], ranks: dict[str, int], unknown_tops: set[str]
) -> dict[str, list[str]]:
    """root → distributions to read: the providers of a top-level name two or more
    distributions of the index provide (and of the index's keys under it: matplotlib for
    mpl_toolkits.mplot3d), and the ranked distributions no source knows the
    top levels of whose name holds the root as a word (opentelemetry-api for
    opentelemetry)."""
    deeper: dict[str, set[str]] = defaultdict(set)  # providers of keys under each root
    for key, dists in modules.items():
        if "." in key:
            deeper[key.split(".", 1)[0]].update(dists)
    out: dict[str, list[str]] = {}
    for root, dists in modules.items():
        if "." in root or len(dists) < 2:
            continue
        dists = [*dists, *sorted(deeper.get(root, set()) - set(dists))]
        word = canon(root).strip("-").split("-")
        more = [
            u
            for u in unknown_tops
            if any(u.split("-")[i : i + len(word)] == word for i in range(len(u.split("-"))))
        ]
        out[root] = sorted(set(dists) | set(more), key=lambda d: (ranks.get(d, 10**6), d))
    return out


def code_paths(files: list[str], root: str) -> set[tuple[str, ...]]:
    """Module paths under `root` in a file list, as tuples (`__init__` kept as a part)."""
    out: set[tuple[str, ...]] = set()
    for f in files:
        parts = f.split("/")
        if parts[0] != root or len(parts) < 2 or not f.endswith(CODE_EXTS):
            continue
        path = (*parts[:-1], parts[-1].split(".")[0])[: NS_MAX_DEPTH + 1]
        if all(p.isidentifier() for p in path):
            out.add(path)
    return out


def _content(paths: set[tuple[str, ...]]) -> set[tuple[str, ...]]:
    """The modules of a file list, without the `__init__.py` files namespaces share."""
    return {t for t in paths if not t or t[-1] != "__init__"}


def _groups(ships: dict[str, set[tuple[str, ...]]]) -> list[set[str]]:
    """Distributions whose modules under a folder are mostly the same (variants, forks,
    renames, an edition that adds modules): overlap / the smaller list ≥ SAME_PACKAGE."""
    groups: list[tuple[set[str], set[tuple[str, ...]]]] = []
    for d in sorted(ships):
        mine = _content(ships[d])
        for dists, other in groups:
            if mine and other and len(mine & other) / min(len(mine), len(other)) >= SAME_PACKAGE:
                dists.add(d)
                other |= mine
                break
        else:
            groups.append(({d}, set(mine)))
    return [dists for dists, _ in groups]


def _exclusive(group: set[str], holders: dict[str, set[str]]) -> int:
    return sum(1 for ds in holders.values() if ds <= group)


def split_namespace(
    node: tuple[str, ...],
    ships: dict[str, set[tuple[str, ...]]],
    keys: dict[str, set[str]],
    cores: dict[str, set[str]],
) -> None:
    """Record which distributions ship what under `node` (paths relative to it).

    One group of alike distributions → `node` is theirs (a key). Several → a shared
    folder: its key lists who ships modules directly in it, and when a single group does
    and no other group ships its `__init__.py` (a regular package's owner:
    apache-airflow-core for `airflow`) that group is its core, whose own children need no
    keys; so is a group with over BULK_CHILDREN sub-packages of its own there (aws-cdk-lib
    for `aws_cdk`: a key each would only repeat it). Every other child is split in turn.
    `cores[node]`: the core and whoever ships a file directly in the folder (its
    `__init__.py` or a module) — who may provide a name imported from the folder."""
    ships = {d: s for d, s in ships.items() if s}
    name = ".".join(node)
    groups = _groups(ships)
    if len(groups) <= 1 or len(node) >= NS_MAX_DEPTH:
        if len(node) > 1 and ships:
            keys.setdefault(name, set()).update(ships)
        return
    here = {d for d, s in ships.items() if any(len(t) <= 1 and t != ("__init__",) for t in s)}
    holders: dict[str, set[str]] = {}
    for d, s in ships.items():
        for t in s:
            if t and t != ("__init__",):
                holders.setdefault(t[0], set()).add(d)
    children = sorted(holders)
    owned = [g for g in groups if g & here]
    inits = [g for g in groups if any(("__init__",) in ships[d] for d in g)]
    # a second group declaring the folder's __init__.py: a pkgutil-style namespace (or a
    # squatter), no single owner
    owners = list(owned) if len(owned) == 1 and all(g is owned[0] for g in inits) else []
    # a group with many sub-packages of its own here is an owner too (aws-cdk-lib, itk-core)
    owners += [g for g in groups if g not in owners and _exclusive(g, holders) > BULK_CHILDREN]
    core = set().union(*owners)
    # who may provide `from <node> import <attribute>`: whoever ships a file right here
    cores[name] = core | {d for d, s in ships.items() if any(len(t) <= 1 for t in s)}
    inits_at = {d for d, s in ships.items() if ("__init__",) in s}
    if len(node) > 1 and (here or core or inits_at):
        # who ships modules here; else who declares the folder (google-gax: google.gapic)
        keys.setdefault(name, set()).update(here | core or inits_at)
    for child in children:
        if any(holders[child] <= g for g in owners):
            continue  # an owner's own sub-package: the folder's key (or core) covers it
        sub = {d: {t[1:] for t in s if t and t[0] == child} for d, s in ships.items()}
        split_namespace((*node, child), sub, keys, cores)


def namespace_table(
    candidates: dict[str, list[str]], files: dict[str, list[str]]
) -> tuple[dict[str, set[str]], dict[str, set[str]], dict[str, set[str]]]:
    """(keys, cores, read): dotted key → distributions, namespace root → its core and the
    distributions shipping files directly in it (often none: PEP 420), namespace root →
    the distributions whose file lists were read for it."""
    keys: dict[str, set[str]] = {}
    cores: dict[str, set[str]] = {}
    read: dict[str, set[str]] = {}
    for root, dists in sorted(candidates.items()):
        ships = {d: code_paths(files[d], root) for d in dists if files.get(d)}
        ships = {d: {t[1:] for t in s} for d, s in ships.items() if s}
        if len(_groups(ships)) < 2:
            continue  # one package (or its variants), not a namespace
        node_cores: dict[str, set[str]] = {}
        split_namespace((root,), ships, keys, node_cores)
        cores[root] = node_cores[root]
        read[root] = set(ships)
    return keys, cores, read


def read_file_lists(dists: list[str], cache: Path, jobs: int = 8) -> tuple[dict, dict]:
    """({dist: code files}, {dist: requirements}) of the latest releases of `dists`."""
    from concurrent.futures import ThreadPoolExecutor

    sys.path.insert(0, str(ROOT))
    from depinfer.registries.endpoints import pypi_indexes

    indexes = [i for i in pypi_indexes() if i.json_base]
    if not indexes:
        raise SystemExit("no package index with a JSON API is configured")
    base = indexes[0].json_base
    files: dict[str, list[str]] = {}
    requires: dict[str, list[str]] = {}
    with ThreadPoolExecutor(jobs) as pool:
        for i, (d, entry) in enumerate(
            zip(dists, pool.map(lambda d: wheel_files(d, base, cache), dists), strict=True), 1
        ):
            if entry and entry["files"]:
                files[d] = entry["files"]
            if entry:
                requires[d] = entry["requires"]
            if i % 200 == 0 or i == len(dists):
                print(f"  file lists: {i}/{len(dists)} ({len(files)} with code)")
    return files, requires


def installers(
    candidates: dict[str, list[str]], read: dict[str, set[str]], requires: dict[str, list[str]]
) -> dict[str, list[str]]:
    """namespace root → the distributions of the root that its namesake distribution
    requires (promptflow → promptflow-core, promptflow-devkit): a module one of them ships
    is installed by the namesake too, the name its users declare."""
    out: dict[str, list[str]] = {}
    for root, dists in candidates.items():
        namesake = canon(root)
        if root in read and namesake in dists:
            installed = sorted(set(requires.get(namesake, ())) & read[root] - {namesake})
            if installed:
                out[root] = installed
    return out


def add_namespaces(data: dict, roots: list[str] | None, cache: Path) -> dict[str, int]:
    """Replace the namespace keys of the table `data` by those the file lists give."""
    modules = data["modules"]
    candidates = namespace_candidates(modules, data["ranks"], set(data.get("unknown_tops", ())))
    if roots:
        candidates = {r: ds for r, ds in candidates.items() if r in roots}
    wanted = sorted({d for ds in candidates.values() for d in ds})
    print(f"namespace candidates: {len(candidates)} roots, {len(wanted)} distributions")
    files, requires = read_file_lists(wanted, cache)
    keys, cores, read = namespace_table(candidates, files)
    installs = {k: v for k, v in data.get("installs", {}).items() if k not in read}
    data["installs"] = dict(sorted({**installs, **installers(candidates, read, requires)}.items()))
    for key in [k for k in modules if "." in k and k.split(".", 1)[0] in read]:
        kept = [d for d in modules[key] if d not in read[key.split(".", 1)[0]]]
        if kept:
            modules[key] = kept
        else:
            del modules[key]
    ranks = data["ranks"]
    for key, dists in keys.items():
        have = modules.get(key, [])
        modules[key] = sorted(set(have) | dists, key=lambda d: (ranks.get(d, 10**6), d))
    namespaces = {k: v for k, v in data.get("namespaces", {}).items() if k not in read}
    for root, dists in cores.items():
        namespaces[root] = sorted(dists, key=lambda d: (ranks.get(d, 10**6), d))
        have = modules.get(root, [])  # they provide the root
        modules[root] = sorted(set(have) | dists, key=lambda d: (ranks.get(d, 10**6), d))
    data["modules"] = dict(sorted(modules.items()))
    data["namespaces"] = dict(sorted(namespaces.items()))
    data["sources"]["namespaces"] = (
        f"central directories (file lists) of the latest wheels of {len(files)} "
        f"distributions under {len(candidates)} candidate roots; {len(read)} are namespaces; "
        "installs: the requirements (JSON API requires_dist) of each root's namesake"
    )
    return {"roots": len(read), "keys": len(keys), "read": len(files)}


def add_wheel_tops(data: dict, cache: Path) -> dict[str, int]:
    """Source 6: the top-level import names each ranked distribution's latest wheel ships,
    beside those sources 2-5 give (pigar's database knows pex only by a `colors` module,
    pywin32 without `win32`; their wheels ship `pex` and `win32`). A name that already has
    providers keeps them first (a rank says how popular a distribution is, not whose
    module a name is); a new name's providers are ordered by rank. Namespace roots are
    source 5's. Distributions whose wheel was read leave `unknown_tops`: the name
    convention is no longer their only evidence."""
    ranks = data["ranks"]
    dists = sorted(ranks, key=lambda d: (ranks[d], d))
    print(f"wheel top levels: {len(dists)} ranked distributions")
    files, _ = read_file_lists(dists, cache)
    modules = data["modules"]
    not_keys = JUNK_TOPS | set(data.get("namespaces", {}))
    added = 0
    for dist in dists:
        tops = {m.split(".", 1)[0] for m in packages_from_record(files.get(dist, []))}
        for top in sorted(tops - not_keys):
            have = modules.get(top)
            if have is None:
                modules[top] = [dist]
                added += 1
            elif dist not in have:
                have.append(dist)
    data["modules"] = dict(sorted(modules.items()))
    data["unknown_tops"] = sorted(d for d in data.get("unknown_tops", ()) if d not in files)
    data["sources"]["wheel_tops"] = (
        f"top levels in the central directories (file lists) of the latest wheels of "
        f"{len(files)} ranked distributions"
    )
    return {"read": len(files), "new_names": added, "left": len(data["unknown_tops"])}


# Import names none of the sources above records, each from the distribution's own
# documentation. PyGObject ships no wheel for most platforms (it builds against the system's
# GObject introspection), so neither pigar's database nor the wheels list its `gi` package:
# PyGObject's "Getting Started" page imports `gi` (`gi.require_version("Gtk", "4.0")`).
DOCUMENTED = {"gi": ["pygobject"]}


def apply_documented(modules: dict[str, list[str]]) -> None:
    for module, dists in DOCUMENTED.items():
        modules[module] = list(dict.fromkeys([*modules.get(module, []), *dists]))


def write_table(out: Path, data: dict) -> None:
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(data, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"wrote {out}: {len(data['modules'])} import names, {out.stat().st_size // 1024} kB")


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
    ap.add_argument(
        "--namespaces",
        action="store_true",
        help="only redo the namespace file lists of the existing table (source 5)",
    )
    ap.add_argument(
        "--wheel-tops",
        action="store_true",
        help="only add the ranked distributions' wheel top levels to the table (source 6)",
    )
    ap.add_argument("--wheel-roots", default="", help="comma-separated: only these roots")
    ap.add_argument("--cache", type=Path, default=DEFAULT_CACHE, help="file-list cache")
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args()
    roots = [r for r in args.wheel_roots.split(",") if r] or None
    if args.namespaces:
        data = json.loads(args.out.read_text(encoding="utf-8"))
        print(add_namespaces(data, roots, args.cache))
        write_table(args.out, data)
        return
    if args.wheel_tops:
        data = json.loads(args.out.read_text(encoding="utf-8"))
        print(add_wheel_tops(data, args.cache))
        write_table(args.out, data)
        return
    if args.documented_only:
        data = json.loads(args.out.read_text(encoding="utf-8"))
        apply_documented(data["modules"])
        data["sources"]["documented"] = "DOCUMENTED in scripts/build_pypi_index.py"
        write_table(args.out, data)
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
                "records": "RECORD of locally installed distributions",
                "documented": "DOCUMENTED in scripts/build_pypi_index.py",
            },
            "ranks": dict(sorted(ranks.items(), key=lambda kv: kv[1])),
            # ranked distributions whose top-level names no source knew: the mapper may
            # match them by name convention alone
            "unknown_tops": sorted(d for d in ranks if d not in dist_tops),
            "modules": modules,
        }
        print(add_namespaces(data, roots, args.cache))
        print(add_wheel_tops(data, args.cache))
        write_table(args.out, data)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
