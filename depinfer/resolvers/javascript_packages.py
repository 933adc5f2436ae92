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


def exports_subpath(fields: dict, subpath: str) -> bool:
    """Whether the version's `exports` lets code import `<pkg>/<subpath>` (Node and the
    bundlers refuse a path an `exports` map does not list: ERR_PACKAGE_PATH_NOT_EXPORTED,
    "Missing specifier"). No `exports`: every file is reachable."""
    exports = fields.get("exports")
    if exports is None:
        return True
    if not isinstance(exports, dict) or not any(str(k).startswith(".") for k in exports):
        return False  # one entry (a string, a list or conditions): only the package itself
    want = "./" + subpath
    if want in exports:
        return exports[want] is not None
    for key, target in exports.items():
        key = str(key)
        if target is None:
            continue
        if "*" in key:
            head, _, tail = key.partition("*")
            if want.startswith(head) and want.endswith(tail) and len(want) >= len(head + tail):
                return True
        elif key.endswith("/") and want.startswith(key):
            return True  # the folder mapping of older Node releases
    return False
