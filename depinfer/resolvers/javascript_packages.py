"""Facts about a published version, read from its package.json fields as the registry serves
them (`VersionInfo.extra`):
does it offer CommonJS, does it ship type declarations, what is its DefinitelyTyped name."""

from __future__ import annotations


def esm_only(fields: dict) -> bool:
    """The version's package.json offers no CommonJS entry: `type: module` and no `require`
    export condition or .cjs target."""
    if fields.get("type") != "module":
        return False
    main = fields.get("main")
    if isinstance(main, str) and main.endswith(".cjs") and "exports" not in fields:
        return False

    def walk(node) -> bool:
        if isinstance(node, dict):
            return any(k in ("require", "node-addons") or walk(v) for k, v in node.items())
        if isinstance(node, list):
            return any(walk(v) for v in node)
        return isinstance(node, str) and node.endswith(".cjs")

    return not walk(fields.get("exports"))


def ships_types(fields: dict) -> bool:
    """The version's package.json declares types (`types`/`typings`, a `types` export
    condition or .d.ts export)."""
    if fields.get("types") or fields.get("typings"):
        return True

    def walk(node) -> bool:
        if isinstance(node, dict):
            return any(k == "types" or walk(v) for k, v in node.items())
        if isinstance(node, list):
            return any(walk(v) for v in node)
        return isinstance(node, str) and node.endswith((".d.ts", ".d.mts", ".d.cts"))

    return walk(fields.get("exports"))


def types_package(name: str) -> str:
    """DefinitelyTyped's name for a package's types: @types/x, @types/scope__x."""
    if name.startswith("@"):
        return "@types/" + name[1:].replace("/", "__")
    return "@types/" + name
