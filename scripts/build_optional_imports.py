"""Rebuild depinfer/data/python/optional_imports.json: modules that need an optional dependency.

Why: `from fastapi.testclient import TestClient` fails with "No module named 'httpx'" when
only fastapi is installed: starlette's test client imports httpx at its top, and httpx is
in starlette's `full` extra only. The code names fastapi; what the tests need is httpx. The
fact is in the distributions themselves: a module that imports, unguarded and at module
level, a distribution its own distribution requires only under an extra.

Sources (public; only the derived facts are kept):
  1. The distributions: the `top` most-downloaded PyPI distributions of the ranking that
     build_pypi_index.py reads (Hugo van Kemenade's "Top PyPI Packages", or the machine's
     package list /work/.library/env/packages/pypi.tsv), each at its latest release: its
     `Requires-Dist` (the registry's JSON API, the endpoint pip is configured with) and
     its wheel's Python modules (a pure-Python wheel first, else a Linux one; wheels over
     MAX_WHEEL_MB are skipped).
  2. The optional requirements' import names: the file lists of their latest wheels
     (build_pypi_index.wheel_files: only the zip's central directory is read).

A module M of distribution A gets a row (dist X, extra E) when M's module-level code
(not under `try`, not under `if TYPE_CHECKING`/`if` at all, not in a function) imports a
top-level name of X, where A requires X only under extra E. Rows spread along unguarded
module-level imports: to M's importers inside A, and to modules of a distribution that
requires A unconditionally (fastapi.testclient imports starlette.testclient → httpx).
Test and example modules of a wheel are left out.

Usage: python scripts/build_optional_imports.py [--top 400] [--cache DIR]
"""

from __future__ import annotations

import argparse
import ast
import io
import json
import re
import sys
import urllib.parse
import urllib.request
import zipfile
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from packaging.requirements import InvalidRequirement, Requirement

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT))

from build_pypi_index import (  # noqa: E402 - a sibling script
    DEFAULT_RANKING,
    canon,
    load_ranking,
    pick_wheel,
    wheel_files,
)

OUT = ROOT / "depinfer" / "data" / "python" / "optional_imports.json"
MAX_WHEEL_MB = 30
SKIP_PARTS = {"tests", "test", "testing", "examples", "_vendor", "vendor", "vendored", "benchmarks"}


def json_base() -> str:
    from depinfer.registries.endpoints import pypi_indexes

    indexes = [i for i in pypi_indexes() if i.json_base]
    if not indexes:
        raise SystemExit("no package index with a JSON API is configured")
    return indexes[0].json_base


def metadata(dist: str, base: str, cache: Path) -> dict | None:
    path = cache / "meta" / f"{dist}.json"
    if path.is_file():
        return json.loads(path.read_text(encoding="utf-8"))
    try:
        with urllib.request.urlopen(f"{base}/{dist}/json", timeout=120) as resp:
            meta = json.load(resp)
    except (OSError, ValueError) as exc:
        print(f"   {dist}: {exc}")
        return None
    keep = {
        "url": f"{base}/{dist}/json",
        "info": {"requires_dist": meta["info"].get("requires_dist")},
    }
    keep["urls"] = meta.get("urls", [])
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(keep), encoding="utf-8")
    return keep


class Requires:
    """A release's Requires-Dist: what it installs always (with the extras it asks of
    them: `mashumaro[msgpack]`), and what only under one of its own extras."""

    def __init__(self, lines: list[str]) -> None:
        self.required: dict[str, set[str]] = {}
        self.by_extra: dict[str, set[str]] = defaultdict(set)
        first_extra: dict[str, str] = {}
        for line in lines:
            try:
                req = Requirement(line)
            except InvalidRequirement:
                continue
            name = canon(req.name)
            m = re.search(r"extra\s*==\s*['\"]([^'\"]+)['\"]", str(req.marker or ""))
            if m:
                extra = canon(m.group(1))
                self.by_extra[extra].add(name)
                first_extra.setdefault(name, extra)
            else:
                self.required.setdefault(name, set()).update(canon(e) for e in req.extras)
        # required only under an extra: {name: the first extra that asks for it}
        self.optional = {n: e for n, e in first_extra.items() if n not in self.required}


def wheel_modules(meta: dict, cache: Path) -> tuple[dict[str, str], set[str]] | None:
    """({dotted module: source}, names the wheel ships vendored copies of) of the release's
    wheel, or None (no wheel, too large)."""
    wheel = pick_wheel(meta.get("urls", []))
    if wheel is None or wheel.get("size", 0) > MAX_WHEEL_MB * 1_000_000:
        return None
    path = cache / "wheels" / wheel["filename"]
    if not path.is_file():
        url = urllib.parse.urljoin(meta["url"], wheel["url"])
        try:
            with urllib.request.urlopen(url, timeout=300) as resp:
                data = resp.read()
        except OSError as exc:
            print(f"   {wheel['filename']}: {exc}")
            return None
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    out: dict[str, str] = {}
    vendored: set[str] = set()
    with zipfile.ZipFile(io.BytesIO(path.read_bytes())) as zf:
        for name in zf.namelist():
            m = re.search(r"/_?vendor(?:ed)?/([A-Za-z_]\w*)", name)
            if m:  # a vendored copy satisfies the import (setuptools puts it on sys.path)
                vendored.add(m.group(1))
            parts = name[:-3].split("/") if name.endswith(".py") else None
            if not parts or ".dist-info" in name or ".data/" in name:
                continue
            if SKIP_PARTS & set(parts[:-1]) or parts[-1].startswith("test_"):
                continue
            if parts[-1] == "__init__":
                parts = parts[:-1]
            if parts and all(p.isidentifier() for p in parts):
                out[".".join(parts)] = zf.read(name).decode("utf-8", "replace")
    return out, vendored


def _names(node: ast.stmt, package: list[str]) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if not isinstance(node, ast.ImportFrom):
        return []
    if node.level:
        base = package[: len(package) - (node.level - 1)] if node.level > 1 else package
        stem = ".".join(base + ([node.module] if node.module else []))
    else:
        stem = node.module or ""
    if not stem:
        return []
    return [stem] + [f"{stem}.{a.name}" for a in node.names if a.name != "*"]


def _type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _raises(body: list[ast.stmt]) -> bool:
    """A handler that ends the import anyway: its last statement raises, or is a `try`
    whose handlers all do (`try: import new / except: try: import old / except: raise`)."""
    if not body:
        return False
    last = body[-1]
    if isinstance(last, ast.Raise):
        return True
    return isinstance(last, ast.Try) and all(_raises(h.body) for h in last.handlers)


def _alternatives(node: ast.Try, package: list[str]) -> list[str]:
    """The modules a re-raising `try` imports, first choice first, fallbacks after."""
    out = [n for stmt in node.body for n in _names(stmt, package)]
    for handler in node.handlers:
        for stmt in handler.body:
            if isinstance(stmt, ast.Try):
                out += _alternatives(stmt, package)
            else:
                out += _names(stmt, package)
    return out


def module_level_imports(
    module: str, source: str, is_package: bool
) -> tuple[set[str], list[list[str]]]:
    """(absolute module names the module imports at its top level, unguarded; groups of
    alternatives a `try` imports whose handlers re-raise: one of each group is needed)."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return set(), []
    package = module.split(".") if is_package else module.split(".")[:-1]
    found: set[str] = set()
    groups: list[list[str]] = []
    body = list(tree.body)
    while body:  # only direct statements: if/def bodies are conditional or lazy
        node = body.pop(0)
        if isinstance(node, ast.If) and _type_checking(node.test):
            body[:0] = node.orelse  # `else:` of `if TYPE_CHECKING:` is what runs
            continue
        if isinstance(node, ast.Try):
            if node.handlers and all(_raises(h.body) for h in node.handlers):
                groups.append(_alternatives(node, package))
            continue
        found.update(_names(node, package))
    return found, groups


def parsed_wheel(meta: dict, cache: Path) -> dict | None:
    """{"vendored": [...], "modules": {module: [imports, alternative groups]}} of the
    release's wheel, cached beside it (parsing thousands of modules is the slow part)."""
    wheel = pick_wheel(meta.get("urls", []))
    if wheel is None:
        return None
    path = cache / "parsed" / (wheel["filename"] + ".json")
    if path.is_file():
        return json.loads(path.read_text(encoding="utf-8"))
    read = wheel_modules(meta, cache)
    if read is None:
        return None
    modules, vendored = read
    packages = {m.rsplit(".", 1)[0] for m in modules if "." in m}
    out: dict[str, list] = {}
    for name, source in modules.items():
        found, groups = module_level_imports(name, source, name in packages)
        out[name] = [sorted(found), groups]
    entry = {"vendored": sorted(vendored), "modules": out}
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(entry), encoding="utf-8")
    return entry


def closure(dist: str, reqs: dict[str, Requires]) -> set[str]:
    """Everything `dist` installs unconditionally, the extras it asks of its requirements
    included, as far as the read metadata knows."""
    seen: set[str] = set()
    asked: set[tuple[str, frozenset[str]]] = set()
    todo: list[tuple[str, set[str]]] = [(dist, set())]
    while todo:
        name, extras = todo.pop()
        if (name, frozenset(extras)) in asked:
            continue
        asked.add((name, frozenset(extras)))
        known = reqs.get(name)
        if known is None:
            continue
        wanted = [(r, ex) for r, ex in known.required.items()]
        wanted += [(r, set()) for e in extras for r in known.by_extra.get(e, ())]
        for r, ex in wanted:
            seen.add(r)
            todo.append((r, ex))
    return seen


def public(module: str) -> bool:
    """A module users import: no part private (`_x`) and no test helpers."""
    return not any(p.startswith("_") or p in ("conftest",) for p in module.split("."))


def import_keys(dist: str, base: str, cache: Path) -> set[str]:
    """The module names a distribution's wheel provides, as prefixes: for each file, the
    shortest package path holding an `__init__.py` of this wheel (`httpx`,
    `google.cloud.bigquery_storage`, `ruamel.yaml.jinja2` under the namespace roots), or the
    module itself where no such package holds it (`six`, a module in a namespace folder)."""
    entry = wheel_files(dist, base, cache / "lists")
    files = [
        f for f in (entry or {}).get("files") or [] if ".dist-info/" not in f and ".data/" not in f
    ]
    inits = {f.rsplit("/", 1)[0] for f in files if f.endswith("/__init__.py")}
    keys: set[str] = set()
    for name in files:
        parts = re.sub(r"\.(py|pyi|so|pyd)$", "", name).split("/")
        parts[-1] = parts[-1].split(".")[0]  # extension modules: `_x.cpython-311-…`
        key = next(
            ("/".join(parts[:i]) for i in range(1, len(parts)) if "/".join(parts[:i]) in inits),
            None,
        )
        keys.add((key or "/".join(parts)).replace("/", "."))
    return keys


def _provides(found: set[str], keys: set[str]) -> bool:
    return any(i == k or i.startswith(k + ".") for i in found for k in keys)


def build(top: int, cache: Path, ranking: Path) -> dict:
    base = json_base()
    ranks = load_ranking(ranking)
    dists = [d for d, _ in sorted(ranks.items(), key=lambda kv: kv[1])][:top]
    with ThreadPoolExecutor(8) as pool:
        metas = dict(zip(dists, pool.map(lambda d: metadata(d, base, cache), dists), strict=True))
    reqs = {
        d: Requires((m or {}).get("info", {}).get("requires_dist") or []) for d, m in metas.items()
    }
    # every distribution whose modules matter: those with optional-only requirements, and
    # those that require one of them unconditionally (their modules re-export)
    wanted = {d for d, r in reqs.items() if r.optional}
    wanted |= {d for d, r in reqs.items() if set(r.required) & wanted}
    with ThreadPoolExecutor(4) as pool:
        mods = dict(
            zip(
                sorted(wanted),
                pool.map(lambda d: parsed_wheel(metas[d], cache), sorted(wanted)),
                strict=True,
            )
        )
    installs = {d: closure(d, reqs) for d in wanted}
    optional_names = sorted({x for d in wanted for x in reqs[d].optional})
    with ThreadPoolExecutor(8) as pool:
        keys_of = dict(
            zip(
                optional_names,
                pool.map(lambda x: import_keys(x, base, cache), optional_names),
                strict=True,
            )
        )
    owner: dict[str, str] = {}  # module → distribution (for re-exports across distributions)
    imports: dict[str, set[str]] = {}
    groups: dict[str, list[list[str]]] = {}
    vendored: dict[str, set[str]] = {}
    for d, parsed in mods.items():
        vendored[d] = set((parsed or {}).get("vendored", []))
        for name, (found, alternatives) in ((parsed or {}).get("modules") or {}).items():
            owner.setdefault(name, d)
            imports[name], groups[name] = set(found), alternatives
    rows: dict[str, dict[str, tuple[str, str]]] = defaultdict(dict)  # module → {dist: (extra, via)}
    for name, found in imports.items():
        d = owner[name]
        optional = {
            x: e
            for x, e in reqs[d].optional.items()
            if x != d
            and x not in installs[d]  # another requirement installs it anyway
            and not {k.split(".")[0] for k in keys_of.get(x, set())} & vendored[d]
        }
        for x, extra in optional.items():
            if _provides(found, keys_of.get(x, set())):
                rows[name][x] = (extra, d)
        for group in groups[name]:
            # one of the alternatives is needed: the last fallback, the long-standing name
            # (`try: import httpx2 / except: import httpx / except: raise` → httpx)
            for alternative in reversed(group):
                x = next(
                    (x for x in optional if _provides({alternative}, keys_of.get(x, set()))), None
                )
                if x:
                    rows[name][x] = (optional[x], d)
                    break
    changed = True
    while changed:  # spread along unguarded imports: inside a distribution and to dependents
        changed = False
        for name, found in imports.items():
            d = owner[name]
            for target in found:
                if target not in rows or target == name:
                    continue
                t_owner = owner.get(target)
                if t_owner != d and t_owner not in reqs[d].required:
                    continue
                for x, (extra, via) in rows[target].items():
                    if x != d and x not in rows[name] and x not in installs[d]:
                        rows[name][x] = (extra, via)
                        changed = True
    return {
        "about": (
            "module -> distributions it needs that its distribution requires only under an "
            "extra (imported unguarded at module level); built by "
            "scripts/build_optional_imports.py"
        ),
        "sources": {
            "distributions": f"latest wheels and Requires-Dist of the top {top} of the download ranking ({ranking.name})",
            "import names": "file lists of the optional requirements' latest wheels",
        },
        "modules": {
            m: [{"dist": x, "extra": e, "via": v} for x, (e, v) in sorted(found.items())]
            for m, found in sorted(rows.items())
            if public(m)
        },
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--top", type=int, default=400)
    ap.add_argument("--ranking", type=Path, default=DEFAULT_RANKING)
    ap.add_argument(
        "--cache", type=Path, default=Path.home() / ".cache" / "depinfer-optional-imports"
    )
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args()
    data = build(args.top, args.cache, args.ranking)
    args.out.write_text(json.dumps(data, indent=1, sort_keys=False) + "\n", encoding="utf-8")
    print(f"{len(data['modules'])} modules -> {args.out}")


if __name__ == "__main__":
    main()
