"""What tests/test_architecture.py checks, as functions that list the offenders.

Run `python tests/architecture.py [PATH-PREFIX]` to print them (e.g. `depinfer/rules/rust`).
Each check states one of the house rules of DESIGN.md and issue #21:

- no function in depinfer/ over MAX_LINES lines;
- no module imports another module's private (underscore) name;
- no import cycle between depinfer's modules;
- product modules name no package in a string literal: package knowledge lives in the
  tables under depinfer/data/; a line that must keep one says why in a comment that
  starts with `# package literal:`.
"""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "depinfer"
MAX_LINES = 80
LITERAL_PRAGMA = "# package literal:"
# Modules that are about packages by design, not stages deciding by branches: the benchmark
# harness (peer tools it runs), the CLI's help texts and the data loader itself.
LITERAL_EXEMPT = ("depinfer/bench/", "depinfer/data/", "depinfer/cli.py")
# Words that name a package somewhere but are the code's own vocabulary here: file roles,
# manifest keys, section names, languages, formats.
GENERIC_WORDS = frozenset(
    """
    api app base build cli client common config core data default dev docs example examples
    file files format http json lib main name node none package path python runtime rust
    script scripts server setup src test tests text toml tools types util utils version web
    yaml xml csharp javascript typescript module modules source target release debug error
    log logging options install run start serve watch lint clean test-utils utf-8 id summary
    list doc spec exports notebook schema frameworks plugins plugin polyfill nullable markdown
    decorator deprecated deprecation regex sh py tap module-or-keys node-flags jsconfig
    babel-plugin babel-preset eslint-plugin eslint-config jest-environment vitest-environment
    edge-runtime frameworks features workspace private public manifest wheel rules
    """.split()
)
# The build tools and installers whose own manifest sections, lock files and commands
# depinfer reads or runs: their names are the vocabulary of manifest formats, not package
# knowledge (`[tool.poetry]`, `uv pip compile`, `tox.ini`).
MANIFEST_TOOLS = frozenset(
    "poetry hatch hatchling pdm setuptools flit flit-core tox nox uv pip pipenv pixi npm yarn pnpm "
    "cargo dotnet msbuild".split()
)


def modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@cache
def tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), str(path))


def long_functions(prefix: str = "") -> list[str]:
    out = []
    for path in modules():
        if not rel(path).startswith(prefix):
            continue
        for node in ast.walk(tree(path)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                n = node.end_lineno - node.lineno + 1
                if n > MAX_LINES:
                    out.append(f"{rel(path)}:{node.lineno}: {node.name} has {n} lines")
    return out


def _imports(path: Path) -> Iterator[tuple[int, str, list[str]]]:
    """(line, imported module, names) for each `from depinfer... import names`."""
    here = module_name(path).split(".")
    is_pkg = path.name == "__init__.py"
    for node in ast.walk(tree(path)):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = here if is_pkg else here[:-1]
                base = base[: len(base) - (node.level - 1)]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            if mod.split(".")[0] == "depinfer":
                yield node.lineno, mod, [a.name for a in node.names]
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name.split(".")[0] == "depinfer":
                    yield node.lineno, a.name, []


def private_imports(prefix: str = "") -> list[str]:
    out = []
    for path in modules():
        if not rel(path).startswith(prefix):
            continue
        for line, mod, names in _imports(path):
            for name in names:
                if name.startswith("_") and not name.startswith("__"):
                    out.append(f"{rel(path)}:{line}: imports {mod}.{name}")
    return out


def import_graph() -> dict[str, set[str]]:
    known = {module_name(p) for p in modules()}
    graph: dict[str, set[str]] = {m: set() for m in known}
    for path in modules():
        me = module_name(path)
        for _line, mod, names in _imports(path):
            targets = [f"{mod}.{n}" for n in names if f"{mod}.{n}" in known] or [mod]
            for t in targets:
                while t not in known and "." in t:
                    t = t.rsplit(".", 1)[0]
                if t in known and t != me:
                    graph[me].add(t)
    return graph


def cycles(prefix: str = "") -> list[str]:
    """Strongly connected groups of modules (Tarjan), in-function imports included."""
    graph = import_graph()
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[str] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(" <-> ".join(sorted(group)))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return [
        c
        for c in out
        if any(m.replace(".", "/").startswith(prefix.removesuffix(".py")) for m in c.split(" <-> "))
    ]


@cache
def package_vocabulary() -> frozenset[str]:
    """Names of real packages, from depinfer's own tables: the 3,000 most downloaded PyPI
    distributions, the NuGet index, the crates the Rust tables name, and the npm packages
    the JavaScript tool tables name. Standard-library names are not packages."""
    sys.path.insert(0, str(ROOT))
    from depinfer.data import load_table, table_names

    names: set[str] = set()
    ranks = load_table("python/pypi_modules.json")["ranks"]
    names |= {k for k, r in ranks.items() if r <= 3000}
    names |= set(load_table("csharp/nuget_index.json")["packages"])
    for entries in load_table("rust/rust_lib_names.json")["lib_names"].values():
        names |= set(entries)
    names |= {e["crate"] for e in load_table("rust/derives.json")["entries"] if e.get("crate")}
    names |= set(load_table("rust/gates.json")["crates"])

    def strings(o: object) -> Iterator[str]:
        if isinstance(o, dict):
            for v in o.values():
                yield from strings(v)
        elif isinstance(o, list):
            for v in o:
                yield from strings(v)
        elif isinstance(o, str):
            yield o

    npm_name = re.compile(r"(?:@[a-z0-9][\w.~-]*/)?[a-z0-9][\w~-]*(?:[.-][a-z0-9]+)*")
    for t in table_names("javascript/tools", "*.toml") + [
        "javascript/companions.toml",
        "javascript/hosts.toml",
    ]:
        for s in strings(load_table(t)):
            if npm_name.fullmatch(s) and not re.search(r"\.(?:c?m?[jt]sx?|json|ya?ml|rc)$", s):
                names.add(s)
    stdlib = load_table("python/python_stdlib.json")
    std: set[str] = set()
    for mods in stdlib["versions"].values():
        std |= set(mods)
    std |= set(load_table("javascript/node_builtins.json")["builtins"])
    std |= set(load_table("rust/rust_std.json")["extern_prelude"])
    skip = GENERIC_WORDS | MANIFEST_TOOLS
    return frozenset(n for n in names if n not in std and n.lower() not in skip)


def _docstring_nodes(module: ast.Module) -> set[int]:
    ids = set()
    for node in ast.walk(module):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                ids.add(id(body[0].value))
    return ids


def package_literals(prefix: str = "") -> list[str]:
    vocab = package_vocabulary()
    lowered = {n.lower() for n in vocab}
    out = []
    for path in modules():
        r = rel(path)
        if not r.startswith(prefix) or r.startswith(LITERAL_EXEMPT):
            continue
        lines = path.read_text(encoding="utf-8").splitlines()
        module = tree(path)
        docs = _docstring_nodes(module)
        for node in ast.walk(module):
            if not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
                continue
            if id(node) in docs:
                continue
            value = node.value
            if value.lower() not in lowered:
                continue
            span = lines[node.lineno - 1 : (node.end_lineno or node.lineno)]
            if any(LITERAL_PRAGMA in s for s in span):
                continue
            out.append(f"{r}:{node.lineno}: names package {value!r}")
    return out


CHECKS = {
    "long functions": long_functions,
    "private imports": private_imports,
    "import cycles": cycles,
    "package literals": package_literals,
}

if __name__ == "__main__":
    prefix = sys.argv[1] if len(sys.argv) > 1 else ""
    for title, check in CHECKS.items():
        found = check(prefix)
        print(f"== {title}: {len(found)}")
        for line in found:
            print("  ", line)
