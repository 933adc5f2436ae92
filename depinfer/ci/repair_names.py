"""Names a failed run's messages point at, read the way each tool means them: a program a
test calls (the executables tables), a JavaScript binding whose import says which package it
is, the packages a resolver's conflict report names, the other distributions that ship a
Python module. Used by the verify loop (`depinfer.ci.repair`)."""

from __future__ import annotations

import ast
import re
import subprocess
from functools import lru_cache
from pathlib import Path

from depinfer.data import load_table
from depinfer.mapping.javascript_names import package_name
from depinfer.mapping.python_index import canonical, load_index


@lru_cache(maxsize=1)
def _python_executables() -> dict[str, str]:
    return dict(load_table("python/executables.toml")["executables"])


@lru_cache(maxsize=1)
def _derives() -> tuple[dict, ...]:
    return tuple(e for e in load_table("rust/derives.json")["entries"] if e["kind"] == "derive")


def derive_crates(derive: str) -> list[tuple[str, list[str]]]:
    """The crates (and the features of each) that bring `#[derive(<derive>)]`, from the
    derives table: `Serialize` → serde with its `derive` feature."""
    return [(e["crate"], list(e["features"])) for e in _derives() if e["name"] == derive]


@lru_cache(maxsize=1)
def _npm_bins() -> dict[str, list[str]]:
    return dict(load_table("javascript/bins.toml")["bins"])


def tool_package(language: str, tool: str) -> str | None:
    """The package whose install provides the program `tool`, from the language's table of
    executables; None for a program no package of the table provides (a system program)."""
    tool = tool.rsplit("/", 1)[-1]
    if language == "python":
        return _python_executables().get(tool)
    if language == "javascript":
        found = _npm_bins().get(tool)
        return found[0] if found else None
    return None


def python_providers(module: str) -> list[str]:
    """Every distribution the shipped import index says provides `module` (its longest
    known prefix), best first."""
    match = load_index().lookup(module)
    return list(match.providers) if match else []


def same_distribution(a: str, b: str) -> bool:
    return canonical(a) == canonical(b)


# How a JavaScript binding is bound in a source file: default, namespace, named (also
# renamed) imports, and CommonJS `require`.
_BINDINGS = (
    r"import\s+{b}\s*(?:,\s*\{{[^}}]*\}}\s*)?from\s*['\"]([^'\"]+)['\"]",
    r"import\s+\*\s+as\s+{b}\s+from\s*['\"]([^'\"]+)['\"]",
    r"import\s*\{{[^}}]*\b(?:\w+\s+as\s+)?{b}\b[^}}]*\}}\s*from\s*['\"]([^'\"]+)['\"]",
    r"(?:const|let|var)\s+{b}\s*=\s*require\(\s*['\"]([^'\"]+)['\"]\s*\)",
    r"(?:const|let|var)\s*\{{[^}}]*\b{b}\b[^}}]*\}}\s*=\s*require\(\s*['\"]([^'\"]+)['\"]\s*\)",
)


def binding_name(expression: str) -> str:
    """The local name an error's expression calls: `(0 , _chalk.default)` → chalk (Babel's
    interop), `lodash_1.default` → lodash (TypeScript's), `got` → got."""
    first = re.split(r"[.\[(]", expression.strip("() "), maxsplit=1)[0]
    first = re.sub(r"^0\s*,\s*", "", first).strip()
    return re.sub(r"_\d+$", "", first.lstrip("_")) or first


@lru_cache(maxsize=64)
def js_runtime_global(name: str) -> bool:
    """`name` is a global of the machine's JavaScript runtime (`Promise`, `structuredClone`),
    as the runtime itself answers (`typeof globalThis[name]`): no import binds it, so a
    member it lacks is the runtime's version, not a package's."""
    if not re.fullmatch(r"[A-Za-z_$][\w$]*", name):
        return False
    script = f"process.stdout.write(typeof globalThis[{name!r}])"
    try:
        out = subprocess.run(
            ["node", "-e", script], capture_output=True, text=True, timeout=30
        ).stdout.strip()
    except (OSError, subprocess.TimeoutExpired):
        return False
    return out not in ("", "undefined")


def js_binding_package(root: Path, files: list[str], binding: str) -> str | None:
    """The package the first of `files` (the failing one first) imports as `binding`."""
    b = re.escape(binding)
    for rel in files:
        try:
            text = (root / rel).read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        for pattern in _BINDINGS:
            m = re.search(pattern.format(b=b), text)
            if m:
                return package_name(m.group(1))
    return None


def python_binding_module(root: Path, rel: str, binding: str) -> str | None:
    """The module the file `rel` takes `binding` from (`from wetterdienst import Settings`
    → wetterdienst for `Settings`; `import numpy as np` → numpy for `np.ndarray`). None when
    the file defines the name itself, imports it relatively (its own package's), or cannot
    be read: the call is then not into an installed package's API."""
    try:
        tree = ast.parse((root / rel).read_text(encoding="utf-8", errors="replace"))
    except (OSError, SyntaxError, ValueError):
        return None
    head = binding.split(".", 1)[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and not node.level and node.module:
            for alias in node.names:
                if (alias.asname or alias.name) == head:
                    return node.module
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname == head or (not alias.asname and alias.name.split(".")[0] == head):
                    return alias.name if alias.asname else head
    return None


# the path roots that name no dependency: the crate itself, its modules, the standard library
_NOT_CRATES = {"crate", "self", "super", "std", "core", "alloc", "proc_macro", "test"}
_USE = re.compile(r"\buse\s+(?:::)?([a-z_][a-z0-9_]*)\s*::([^;]*);", re.S)


def _used_from(text: str, name: str) -> list[str]:
    """The path roots of the `use` declarations that bring `name` into the file."""
    word = re.compile(rf"\b{re.escape(name)}\b")
    return [m.group(1) for m in _USE.finditer(text) if word.search(m.group(2))]


def rust_binding_crate(root: Path, files: list[str], binding: str) -> str | None:
    """The crate the first of `files` (the failing one first) takes the type `binding`
    from: a `use` declaration naming it (`use c::m::Script;`, `use c::{m::Script, Tx};`),
    else a path spelled in the code (`c::m::Script`). None when the files name no crate
    for it (its own type, or one from the standard library)."""
    spelled = re.compile(rf"\b([a-z_][a-z0-9_]*)::(?:[a-z_][a-z0-9_]*::)*{re.escape(binding)}\b")
    for rel in files:
        try:
            text = (root / rel).read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        text = re.sub(r"//[^\n]*", "", text)
        found = _used_from(text, binding)
        # a spelled path's root is a crate, or a module the file imports (`use c::m;` … `m::T`)
        found += [(_used_from(text, m.group(1)) or [m.group(1)])[0] for m in spelled.finditer(text)]
        crates = [c for c in found if c not in _NOT_CRATES]
        if crates:
            return crates[0]
    return None


# the names a resolver's conflict report gives: uv/pip (`you require X`, `X==1 depends on
# Y>=2`, `Because X ... depends on Y`) and npm's ERESOLVE report (`Found: x@1`, `peer x@"^2"
# from y@3`, `Could not resolve dependency: ... x@`)
_CONFLICT_NAMES = {
    "python": re.compile(
        r"(?:require|depends on|Because|and|requires|of)\s+(?:all versions of |only )?"
        r"([A-Za-z0-9][\w.-]*?)(?:\[[\w,-]+\])?(?=[<>=!~]=?|\s+(?:depends|==|>=|<=|>|<|\*)|\s*$|,)",
        re.M,
    ),
    "javascript": re.compile(r"(?:Found:|peer|from|dependency:)\s+((?:@[\w.-]+/)?[\w.-]+)@"),
    # cargo: "failed to select a version for `x`" / "for the requirement `x = "=1.0.9"`",
    # "previously selected package `y v0.4.1`"
    "rust": re.compile(
        r"(?:failed to select a version for (?:the requirement )?|previously selected package )"
        r"`([A-Za-z0-9][\w-]*)"
    ),
}


def conflict_names(language: str, report: str) -> list[str]:
    """The packages a resolver's conflict report names, in order of first mention."""
    pattern = _CONFLICT_NAMES.get(language)
    if pattern is None:
        return []
    return list(dict.fromkeys(m.group(1) for m in pattern.finditer(report)))
