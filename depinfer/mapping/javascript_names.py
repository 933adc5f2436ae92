"""What an npm module specifier names: a package, a Node builtin, or nothing at all.

Also loads the shipped tables the JavaScript stages share (Node builtins, framework virtual
modules, framework config files) through depinfer.data.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from depinfer.data import load_table

_NAME = re.compile(r"^(?:@[a-z0-9][\w.~-]*/)?[a-z0-9~][\w.~-]*$", re.I)


@lru_cache(maxsize=1)
def node_builtins() -> frozenset[str]:
    data = load_table("javascript/node_builtins.json")
    return frozenset(data["builtins"]) | frozenset(data.get("prefix_only", []))


@lru_cache(maxsize=1)
def virtual_prefixes() -> tuple[str, ...]:
    """Specifier prefixes that frameworks and bundlers resolve themselves (data table)."""
    data = load_table("javascript/virtual_modules.toml")
    return tuple(e["prefix"] for e in data["virtual"])


@lru_cache(maxsize=1)
def engine_modules() -> dict[str, str]:
    """module → the `engines` key of a host that provides it (data table: a VS Code
    extension's `vscode`)."""
    data = load_table("javascript/virtual_modules.toml")
    return {e["module"]: e["engine"] for e in data.get("engine_module", [])}


@lru_cache(maxsize=1)
def app_runtime_configs() -> tuple[str, ...]:
    """Config file patterns a framework's server loads at run time (rules data, frameworks)."""
    data = load_table("javascript/tools/frameworks.toml")
    return tuple(
        p for u in data.get("units", []) if u.get("app_runtime") for p in u["config_files"]
    )


@lru_cache(maxsize=1)
def types_only_modules() -> frozenset[str]:
    """Names imported only for types whose declarations are @types/<name> (data table)."""
    return frozenset(load_table("javascript/types_only.toml")["names"])


@dataclass(frozen=True)
class JsxRuntimes:
    """Where JSX compiles to imports from when no pragma or tsconfig says (data table)."""

    default: str  # the runtime JSX compiles for unless told otherwise
    by_extension: dict[str, str]  # file extension → its framework's JSX runtime
    declared: tuple[str, ...]  # runtimes a project that declares them (not the default) uses


@lru_cache(maxsize=1)
def jsx_runtimes() -> JsxRuntimes:
    data = load_table("javascript/jsx_runtimes.toml")
    return JsxRuntimes(
        default=data["default"]["runtime"],
        by_extension={e["extension"]: e["runtime"] for e in data.get("extension", [])},
        declared=tuple(d["runtime"] for d in data.get("declared", [])),
    )


@lru_cache(maxsize=1)
def node_types() -> str:
    """The package of Node's own API declarations (data table types_only.toml)."""
    return load_table("javascript/types_only.toml")["node"]


def is_builtin(spec: str) -> bool:
    if spec.startswith("node:"):
        return True
    if spec.endswith("/"):
        return False  # `punycode/` asks for the npm package of a builtin's name
    return spec in node_builtins() or spec.split("/")[0] in node_builtins()


def package_name(spec: str) -> str | None:
    """npm package named by a bare specifier, or None when it cannot be a package."""
    if spec.startswith("npm:"):
        spec = spec[4:]
        at = spec.find("@", 1)
        if at > 0 and "/" not in spec[at:]:
            spec = spec[:at]
    parts = spec.split("/")
    name = "/".join(parts[:2]) if spec.startswith("@") else parts[0]
    if not name or not _NAME.match(name) or (spec.startswith("@") and len(parts) < 2):
        return None
    return name
