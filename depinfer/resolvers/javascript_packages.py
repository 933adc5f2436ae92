"""Facts about a published version, read from its package.json as the registry serves it:
does it offer CommonJS, does it ship type declarations, what is its DefinitelyTyped name."""

from __future__ import annotations


def esm_only(extra: dict) -> bool:
    """The version's package.json offers no CommonJS entry: `type: module` and no `require`
    export condition or .cjs target."""
    if extra.get("type") != "module":
        return False
    main = extra.get("main")
    if isinstance(main, str) and main.endswith(".cjs") and "exports" not in extra:
        return False

    def walk(node) -> bool:
        if isinstance(node, dict):
            return any(k in ("require", "node-addons") or walk(v) for k, v in node.items())
        if isinstance(node, list):
            return any(walk(v) for v in node)
        return isinstance(node, str) and node.endswith(".cjs")

    return not walk(extra.get("exports"))


def ships_types(extra: dict) -> bool:
    """The version's package.json declares types (`types`/`typings`, a `types` export
    condition or .d.ts export)."""
    if extra.get("types") or extra.get("typings"):
        return True

    def walk(node) -> bool:
        if isinstance(node, dict):
            return any(k == "types" or walk(v) for k, v in node.items())
        if isinstance(node, list):
            return any(walk(v) for v in node)
        return isinstance(node, str) and node.endswith((".d.ts", ".d.mts", ".d.cts"))

    return walk(extra.get("exports"))


def types_package(name: str) -> str:
    """DefinitelyTyped's name for a package's types: @types/x, @types/scope__x."""
    if name.startswith("@"):
        return "@types/" + name[1:].replace("/", "__")
    return "@types/" + name
