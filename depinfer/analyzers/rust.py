"""Rust analyzer: `.rs` files → `ImportRef`s naming the crates the code uses.

Since edition 2018 a crate is used without any `use` (`serde_json::to_string(..)`), so every
path is read, not only `use` trees: `use`/`extern crate`, paths in expressions, types and
patterns, macro invocations (`foo::bar!`), attribute macros (`#[tokio::main]`) and paths
inside macro token trees. Derives and bare attributes (`#[derive(Serialize)]`, `#[serde(..)]`)
name no crate; they are emitted as `how="derive"`/`"attr"` refs for the rule tables.

Each ref's `module` is the first path segment as the code spells it (`serde_json`). The
analyzer already drops what is local to the file's crate: `crate`/`self`/`super`, modules
declared with `mod`, items and names brought in by `use` (uniform paths), generic
parameters and primitive types; the mapping stage drops std/core/alloc and the crate itself.

Context travels with every ref in its facts (`RustUse`):
- `target`: which Cargo target the file belongs to — "runtime" (lib/bins), "dev" (tests,
  benches, examples, `#[cfg(test)]` code) or "build" (build.rs);
- `marker`: a `cfg(...)` made only of target predicates (`unix`, `target_os = ..`) → target table;
- `features`: `cfg(feature = "..")` gates around the use → the dependency may be optional.
`#[cfg(..)] mod foo;` passes its context on to the file `foo.rs`.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Collection
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import PurePosixPath
from typing import Any

from depinfer.context import Context
from depinfer.data import load_table
from depinfer.facts.rust import RustUse
from depinfer.filecache import content_key
from depinfer.model import Diagnostic, Ecosystem, FileKind, ImportRef, Manifest, Project
from depinfer.scan import nearest_directory, read_source

PRIMITIVES = frozenset(
    "bool char str u8 u16 u32 u64 u128 usize i8 i16 i32 i64 i128 isize f32 f64 f16 f128".split()
)
KEYWORDS = frozenset({"crate", "self", "super", "Self"})
# `#[test]`, `#[bench]` and test-harness attributes (`#[tokio::test]`, `#[rstest]`) mark
# functions compiled only by `cargo test`/`cargo bench`.
TEST_ATTRIBUTES = frozenset(
    a["name"] for a in load_table("rust/test_attributes.json")["attributes"]
)
# Macros whose token trees are code for another crate (generated code), not this crate's uses.
QUOTING_MACROS = frozenset(m["name"] for m in load_table("rust/quoting_macros.json")["macros"])
TARGET_PREDICATES = frozenset(
    {
        "unix",
        "windows",
        "target_os",
        "target_family",
        "target_arch",
        "target_env",
        "target_vendor",
        "target_pointer_width",
        "target_endian",
        "target_abi",
        "target_has_atomic",
    }
)
ITEM_NAMES = {
    "function_item",
    "struct_item",
    "enum_item",
    "union_item",
    "type_item",
    "trait_item",
    "const_item",
    "static_item",
    "macro_definition",
    "function_signature_item",
}
_CRATE_LIKE = re.compile(r"^[a-z_][a-z0-9_]*$")
# std's shared pointers: serde implements its traits for them only behind its `rc` feature, so
# a field of this type in a serde item is reported (`how: serde-std-type`) for the rules.
# (data/rust/serde.json)
SERDE = load_table("rust/serde.json")
SHARED_POINTERS = frozenset(row["type"] for row in SERDE["std_impls"])
_SERDE_DERIVE = re.compile(
    rb"derive\([^)]*\b(" + "|".join(SERDE["derives"]["names"]).encode() + rb")\b"
)
# std's derivable traits: a crate may implement them for its types only behind a feature
# (syn's Debug/Eq/PartialEq/Hash behind `extra-traits`), which a derive on an item holding
# such a type needs.
STD_DERIVABLE = frozenset("Debug Clone Copy PartialEq Eq PartialOrd Ord Hash Default".split())


def _names_its_item(node: Any) -> bool:
    """`struct Error { .. }`: the item's own name, not a type it uses (a `use notify::Error`
    elsewhere in the file does not make it notify's)."""
    parent = node.parent
    if parent is None:
        return False
    name = parent.child_by_field_name("name")
    return name is not None and (name.start_byte, name.end_byte) == (node.start_byte, node.end_byte)


_DERIVE_LIST = re.compile(rb"derive\(([^)]*)\)")
# Attribute keys whose string value is a path (serde's field/container attributes, serde.rs
# "Field attributes"/"Container attributes"; the same spelling is used by clap and others).
STRING_PATH_KEYS = frozenset(
    {
        "with",
        "serialize_with",
        "deserialize_with",
        "default",
        "crate",
        "remote",
        "from",
        "try_from",
        "into",
        "skip_serializing_if",
        "getter",
        "value_parser",
    }
)
_STRING_PATH = re.compile(r"^(::)?[A-Za-z_][A-Za-z0-9_]*(::[A-Za-z_][A-Za-z0-9_]*)*$")


@lru_cache(maxsize=1)
def rust_parser() -> Any:
    import tree_sitter as ts
    import tree_sitter_rust as tsr

    return ts.Parser(ts.Language(tsr.language()))


@dataclass(frozen=True)
class Scope:
    """Conditions under which a piece of code is compiled."""

    target: str = "runtime"  # runtime | dev | build
    marker: str | None = None  # cfg(...) of target predicates only
    features: tuple[str, ...] = ()  # cfg(feature = "...") gates
    serde_item: bool = False  # inside an item deriving Serialize/Deserialize
    derives: tuple[str, ...] = ()  # std traits the enclosing item derives (Debug, PartialEq, ..)


@dataclass
class Cfg:
    test: bool = False
    target: str | None = None
    features: tuple[str, ...] = ()


# ---------------------------------------------------------------- cfg expressions


def cfg_tokens(text: str) -> list[str]:
    """The tokens of a `cfg(..)` body: string literals, identifiers and punctuation."""
    return re.findall(r'"(?:[^"\\]|\\.)*"|[A-Za-z_][A-Za-z0-9_]*|[(),=!]', text)


def cfg_tree(tokens: list[str], pos: int = 0) -> tuple[Any, int]:
    """Parse one cfg predicate: ident | ident = "lit" | ident(pred, ...)."""
    if pos >= len(tokens):
        return None, pos
    name = tokens[pos]
    pos += 1
    if pos < len(tokens) and tokens[pos] == "=":
        value = tokens[pos + 1].strip('"') if pos + 1 < len(tokens) else ""
        return ("kv", name, value), pos + 2
    if pos < len(tokens) and tokens[pos] == "(":
        pos += 1
        args = []
        while pos < len(tokens) and tokens[pos] != ")":
            if tokens[pos] == ",":
                pos += 1
                continue
            sub, pos = cfg_tree(tokens, pos)
            if sub is None:
                break
            args.append(sub)
        return ("fn", name, args), pos + 1
    return ("id", name), pos


def parse_cfg(text: str) -> Cfg:
    """The parts of a `cfg(...)` body that decide where a dependency goes."""
    tree, _ = cfg_tree(cfg_tokens(text))
    out = Cfg()
    if tree is None:
        return out

    def has_test(t: Any) -> bool:
        if t[0] == "id":
            return t[1] == "test"
        if t[0] == "fn" and t[1] == "all":
            return any(has_test(a) for a in t[2])
        return False

    def features(t: Any, negated: bool = False) -> list[str]:
        if t[0] == "kv" and t[1] == "feature" and not negated:
            return [t[2]]
        if t[0] == "fn":
            neg = negated or t[1] == "not"
            return [f for a in t[2] for f in features(a, neg)]
        return []

    def only_target(t: Any) -> bool:
        if t[0] in ("id", "kv"):
            return t[1] in TARGET_PREDICATES
        if t[0] == "fn" and t[1] in ("all", "any", "not"):
            return bool(t[2]) and all(only_target(a) for a in t[2])
        return False

    out.test = has_test(tree)
    out.features = tuple(features(tree))
    if only_target(tree):
        out.target = "cfg(" + _cfg_text(tree) + ")"
    elif tree[0] == "fn" and tree[1] == "all":
        parts = [a for a in tree[2] if only_target(a)]
        if parts:
            out.target = (
                "cfg("
                + (_cfg_text(parts[0]) if len(parts) == 1 else _cfg_text(("fn", "all", parts)))
                + ")"
            )
    return out


def _cfg_text(t: Any) -> str:
    if t[0] == "id":
        return t[1]
    if t[0] == "kv":
        return f'{t[1]} = "{t[2]}"'
    return f"{t[1]}(" + ", ".join(_cfg_text(a) for a in t[2]) + ")"


# items an attribute on which may expand to async code: the function, or the block holding it
ASYNC_HOLDERS = frozenset({"function_item", "impl_item", "foreign_mod_item"})


def _has_async_fn(node: Any, src: bytes) -> bool:
    """An `async fn` at this item or directly in its body (methods, extern declarations)."""
    items = [node]
    body = node.child_by_field_name("body")
    if node.type != "function_item" and body is not None:
        items = [c for c in body.named_children if c.type.startswith("function")]
    for item in items:
        for c in item.children:
            if c.type == "function_modifiers" and b"async" in src[c.start_byte : c.end_byte]:
                return True
    return False


# refs a glob import cannot have brought in: `::x`, `extern crate x`, and refs already
# followed through a glob or a method call
NOT_THROUGH_GLOBS = frozenset({"rooted", "extern", "via-glob", "methods", "async-attr"})


# ---------------------------------------------------------------- per-file facts


def _inherit_includer_scope(
    rel: str, ff: FileFacts, facts: dict[str, FileFacts], reached: set[str]
) -> None:
    """A file no `mod` reaches, beside a module that `include!`s code, is most likely that
    code (directly, or a template build.rs renders into OUT_DIR: tokei's
    language_type.tera.rs and `include!(concat!(env!("OUT_DIR"), "/language_type.rs"))`).
    `include!` pastes it into the includer's scope (the Rust Reference, "include!"), so the
    includer's `use` names (`fmt`, `fsutils` for `crate::utils::fs`) are not crates there."""
    folder = PurePosixPath(rel).parent
    for other in sorted(reached):
        if PurePosixPath(other).parent == folder and b"include!" in facts[other].text:
            for name, path in facts[other].uses.items():
                ff.uses.setdefault(name, path)


@dataclass
class FileFacts:
    rel: str
    tree: Any
    text: bytes
    mods: set[str] = field(default_factory=set)  # modules declared here (also inside macros)
    types: set[str] = field(default_factory=set)  # types, traits, macros: can start a path
    values: set[str] = field(default_factory=set)  # fns, consts, statics: cannot
    uses: dict[str, str] = field(default_factory=dict)  # local name -> full use path
    generics: set[str] = field(default_factory=set)
    local_globs: bool = False  # `use super::*` / `use crate::x::*`
    glob_modules: set[str] = field(default_factory=set)  # `x` of `use crate::a::x::*`
    # `use other_crate::a::*` bases: a capitalised name with no other source comes from one
    extern_globs: list[list[str]] = field(default_factory=list)
    pub_extern_globs: list[list[str]] = field(default_factory=list)  # `pub use x::*`
    # `mod tests { use proptest::prelude::*; … prop::collection }`: a glob of another crate
    # inside an inline module; a path root there may be a name it brings (`prop`), but its
    # capitalised names are not followed (they would tie the crate to the file's other code)
    inline_extern_globs: list[list[str]] = field(default_factory=list)
    child_mods: list[tuple[str, Scope, str | None]] = field(default_factory=list)
    inline_glob_mods: set[int] = field(default_factory=set)  # `mod x {}` with `use super::*`

    @property
    def locals(self) -> set[str]:
        """Names in this file's scope that a path can start with and that are not crates."""
        imported = {k for k, v in self.uses.items() if v.split("::")[0] != k or "::" in v}
        return self.mods | self.types | imported | self.generics


_MOD_TEXT = re.compile(rb"\bmod\s+(?:r#)?([A-Za-z_][A-Za-z0-9_]*)\s*[;{]")
# `use crate::unix as sys;` inside `cfg_if! { .. }` is a token tree, not a use declaration
_USE_ALIAS_TEXT = re.compile(
    rb"\buse\s+(?:crate|self|super)\b[^;{}]*\bas\s+([A-Za-z_][A-Za-z0-9_]*)\s*;"
)
_MACRO_TEXT = re.compile(rb"\bmacro_rules!\s*([A-Za-z_][A-Za-z0-9_]*)")
# Item macros that generate a module named after the table they declare (Diesel's
# `table! { users (id) { .. } }` → `users::table`; data/rust/module_macros.json)
_MODULE_MACROS = "|".join(
    re.escape(m["macro"]) for m in load_table("rust/module_macros.json")["macros"]
)
_MODULE_MACRO_TEXT = re.compile(
    rb"\b(?:"
    + _MODULE_MACROS.encode()
    + rb")!\s*[{(]\s*(?:#\[[^\]]*\]\s*)*(?:pub(?:\([^)]*\))?\s+)?(?:[A-Za-z_]\w*\s*\.\s*)?"
    rb"([A-Za-z_]\w*)\s*[({\"]"
)


def _text(node: Any, src: bytes) -> str:
    return src[node.start_byte : node.end_byte].decode("utf-8", "replace")


def _use_leaves(
    node: Any, src: bytes, prefix: list[str]
) -> list[tuple[list[str], str | None, bool]]:
    """Flatten a use tree into (path segments, alias, is_glob)."""
    t = node.type
    if t in ("identifier", "crate", "self", "super", "metavariable"):
        return [(prefix + [_text(node, src)], None, False)]
    if t == "scoped_identifier":
        return [(prefix + _path_segments(node, src), None, False)]
    if t == "use_as_clause":
        path = node.child_by_field_name("path")
        alias = node.child_by_field_name("alias")
        segs = prefix + (_path_segments(path, src) if path is not None else [])
        return [(segs, _text(alias, src) if alias is not None else None, False)]
    if t == "use_wildcard":
        inner = [c for c in node.named_children]
        segs = prefix + (_path_segments(inner[0], src) if inner else [])
        return [(segs, None, True)]
    if t == "scoped_use_list":
        path = node.child_by_field_name("path")
        lst = node.child_by_field_name("list")
        base = prefix + (_path_segments(path, src) if path is not None else ["::"])
        if path is None and not prefix:
            base = ["::"]
        return _use_leaves(lst, src, base) if lst is not None else []
    if t == "use_list":
        out = []
        for child in node.named_children:
            out.extend(_use_leaves(child, src, prefix))
        return out
    return []


def _path_segments(node: Any, src: bytes) -> list[str]:
    """`a::b::c` → ["a", "b", "c"]; a leading `::` gives "::" as first segment."""
    if node is None:
        return []
    if node.type == "scoped_identifier" or node.type == "scoped_type_identifier":
        path = node.child_by_field_name("path")
        name = node.child_by_field_name("name")
        head = _path_segments(path, src) if path is not None else ["::"]
        return head + ([_text(name, src)] if name is not None else [])
    if node.type == "generic_type":
        return _path_segments(node.child_by_field_name("type"), src)
    return [_text(node, src)]


VALUE_ITEMS = {"function_item", "const_item", "static_item", "function_signature_item"}


_USE_IN_TOKENS = re.compile(rb"(?<![A-Za-z0-9_$])use\s+[A-Za-z_:{][^;]*;")


def _use_arguments(node: Any, src: bytes) -> list[tuple[Any, bytes]]:
    """The use trees of a `use` declaration, or of the `use` statements spelled inside a
    macro's token tree (`cfg_if!`/`cfg_select!` branches), parsed on their own: the names
    they import are local there, not crates."""
    if node.type == "use_declaration":
        arg = node.child_by_field_name("argument")
        return [(arg, src)] if arg is not None else []
    out = []
    for m in _USE_IN_TOKENS.finditer(src[node.start_byte : node.end_byte]):
        snippet = m.group(0)
        root = rust_parser().parse(snippet).root_node
        for decl in root.children:
            if decl.type == "use_declaration" and not decl.has_error:
                arg = decl.child_by_field_name("argument")
                if arg is not None:
                    out.append((arg, snippet))
    return out


def _collect_file_facts(rel: str, tree: Any, src: bytes) -> FileFacts:
    facts = FileFacts(rel, tree, src)
    facts.mods.update(m.decode() for m in _MOD_TEXT.findall(src))
    facts.types.update(m.decode() for m in _MACRO_TEXT.findall(src))
    facts.mods.update(m.decode() for m in _USE_ALIAS_TEXT.findall(src))
    facts.mods.update(m.decode() for m in _MODULE_MACRO_TEXT.findall(src))
    glob_roots: set[str] = set()
    # (node, the inline `mod x { … }` it sits in): a glob import inside one brings names
    # into that module only (`mod tests { use super::*; }`), not into the whole file
    stack: list[tuple[Any, Any]] = [(tree.root_node, None)]
    while stack:
        node, inline_mod = stack.pop()
        t = node.type
        if t in ITEM_NAMES or t == "mod_item":
            name = node.child_by_field_name("name")
            if name is not None:
                n = _text(name, src)
                if t == "mod_item":
                    facts.mods.add(n)
                elif t in VALUE_ITEMS:
                    facts.values.add(n)
                else:
                    facts.types.add(n)
        elif t == "use_declaration" or (
            t == "token_tree"
            and node.parent is not None
            and node.parent.type == "macro_invocation"
            and b"use" in src[node.start_byte : node.end_byte]
        ):
            for arg, arg_src in _use_arguments(node, src):
                for segs, alias, glob in _use_leaves(arg, arg_src, []):
                    if glob:
                        if segs and inline_mod is not None:
                            if segs[0] in ("crate", "self", "super") or segs[0] in facts.mods:
                                facts.inline_glob_mods.add(inline_mod.start_byte)
                            elif segs[0] not in KEYWORDS and _CRATE_LIKE.match(segs[0]):
                                facts.inline_extern_globs.append([x for x in segs if x != "::"])
                            continue
                        if segs:
                            glob_roots.add(segs[0])
                            if segs[0] in ("crate", "self", "super") and len(segs) > 1:
                                facts.glob_modules.add(segs[-1])
                            elif (
                                segs[0] not in KEYWORDS
                                and segs[0] not in facts.mods  # `mod x; pub use x::*;`
                                and _CRATE_LIKE.match(segs[0])
                            ):
                                base = [x for x in segs if x != "::"]
                                facts.extern_globs.append(base)
                                if any(c.type == "visibility_modifier" for c in node.children):
                                    facts.pub_extern_globs.append(base)
                        continue
                    if not segs:
                        continue
                    local = alias or segs[-1]
                    if local == "self":
                        local = alias or (segs[-2] if len(segs) > 1 else "")
                    if local and local != "_":
                        path = [s for s in segs if s != "::"]
                        if path and path[-1] == "self":
                            path = path[:-1]
                        facts.uses[local] = "::".join(path)
        elif t == "extern_crate_declaration":
            alias = node.child_by_field_name("alias")
            name = node.child_by_field_name("name")
            if alias is not None and name is not None:
                facts.uses[_text(alias, src)] = _text(name, src)
        elif t == "type_parameters":
            for child in node.named_children:
                if child.type in ("type_identifier", "type_parameter", "lifetime"):
                    facts.generics.add(_text(child, src).split(":")[0].strip())
        if t == "mod_item" and node.child_by_field_name("body") is not None:
            stack.extend((c, node) for c in node.children)
        else:
            stack.extend((c, inline_mod) for c in node.children)
    facts.local_globs = any(r in ("crate", "self", "super") or r in facts.mods for r in glob_roots)
    return facts


# the compiler's own attributes that name no crate (cfg, lints, docs, a module's file)
BUILTIN_INERT_ATTRIBUTES = frozenset(
    {"cfg", "cfg_attr", "doc", "allow", "warn", "deny", "forbid", "path"}
)


def _parameter_attributes(function: Any, src: bytes) -> tuple[str, ...]:
    """Single-name attributes on a function's parameters (`fn t(#[case] c: f64)`). The
    compiler accepts no other attribute there than cfg and lint ones, so these are helpers
    of an attribute macro on the function, which consumes them."""
    params = function.child_by_field_name("parameters")
    names: list[str] = []
    for item in params.children if params is not None else ():
        attr = item.named_children[0] if item.type == "attribute_item" else None
        head = attr.named_children[0] if attr is not None and attr.named_children else None
        if head is not None and head.type == "identifier":
            names.append(_text(head, src))
    return tuple(n for n in names if n not in BUILTIN_INERT_ATTRIBUTES)


# ---------------------------------------------------------------- the walk


@dataclass
class PackageNames:
    """Names declared somewhere in a package that can start a path but are not crates."""

    mods: set[str] = field(default_factory=set)
    scope: set[str] = field(default_factory=set)  # types and imported names (glob imports)
    # module name (its file's stem, or its directory for mod.rs) -> modules declared in it
    children: dict[str, set[str]] = field(default_factory=dict)
    # module name -> other crates' paths it glob-imports (`pub use crossterm::event::*;`)
    reexports: dict[str, list[list[str]]] = field(default_factory=dict)


class _Walker:
    def __init__(
        self, facts: FileFacts, scope: Scope, pkg: PackageNames, edition: str = "2021"
    ) -> None:
        self.f = facts
        self.pkg = pkg
        self.src = facts.text
        self.refs: list[tuple[str, int, Scope, RustUse]] = []
        # Since edition 2018 a module is in scope only where it is declared or imported; a
        # glob import of a local module (`use super::*`, `pub use generated::*`) may bring in
        # any name the package declares (even the file's own module, declared in its parent).
        self.internal = set(facts.locals)
        self.defined = facts.mods | facts.types
        if facts.local_globs:
            self.internal |= pkg.scope
        # a glob import of a named local module brings in the modules declared in it
        # (`use crate::app::*;` brings `app::data`, so `use data::X;` is local)
        brought = set().union(*(pkg.children.get(m, set()) for m in facts.glob_modules))
        self.internal |= brought
        self.defined = self.defined | brought
        # Edition 2015: `use` paths start at the crate root, so a crate module is not a crate.
        self.use_internal = pkg.mods if edition == "2015" else set()
        self.reexports = pkg.reexports
        self.start = scope
        self.methods: set[str] = set()

    def emit(self, name: str, node: Any, scope: Scope, how: str, path: list[str]) -> None:
        if name == "::" and len(path) > 1:
            name, path = path[1], path[1:]
            how = "use" if how == "use" else "rooted"
        if name in KEYWORDS or name in PRIMITIVES or not _CRATE_LIKE.match(name):
            return
        if how not in ("use", "extern", "rooted") and name in self.internal:
            return
        if how == "use":
            imported = self.f.uses.get(name)
            if name in self.defined or name in self.use_internal:
                return
            if imported is not None and imported.split("::")[0] != name:
                return  # `use a as b; use b::x;`
        self.refs.append(
            (name, node.start_point[0] + 1, scope, RustUse(how=how, path="::".join(path)))
        )

    def apply_attrs(self, attrs: list[Any], scope: Scope) -> Scope:
        for attr in attrs:
            a = attr.named_children[0] if attr.named_children else None
            if a is None or a.type != "attribute":
                continue
            head = a.named_children[0] if a.named_children else None
            if head is None:
                continue
            head_text = _text(head, self.src)
            if head_text.split("::")[-1] in TEST_ATTRIBUTES and scope.target == "runtime":
                # `#[test] fn ..` outside a cfg(test) module is compiled only for tests
                scope = replace(scope, target="dev")
                continue
            if head_text != "cfg":
                continue
            args = a.child_by_field_name("arguments")
            if args is None:
                continue
            cfg = parse_cfg(_text(args, self.src)[1:-1])
            if cfg.test:
                scope = replace(scope, target="dev")
            if cfg.target and scope.target != "build":
                scope = replace(scope, marker=cfg.target)
            if cfg.features:
                scope = replace(scope, features=scope.features + cfg.features)
        return scope

    def _async_attrs(self, attrs: list[Any], scope: Scope) -> None:
        """Attributes on an `async fn` (or on an impl / extern block holding one): the code an
        attribute macro generates for async functions may need a crate of its own
        (`#[wasm_bindgen] async fn` → wasm-bindgen-futures; data/rust/async_attributes)."""
        for attr in attrs:
            a = attr.named_children[0] if attr.named_children else None
            head = a.named_children[0] if a is not None and a.named_children else None
            if a is None or a.type != "attribute" or head is None:
                continue
            path = _text(head, self.src)
            use = RustUse(how="async-attr", path=path)
            self.refs.append(("", attr.start_point[0] + 1, scope, use))

    def attribute(self, attr_item: Any, scope: Scope, helpers: Collection[str] = ()) -> None:
        """`helpers`: the names of the attributes on the function's parameters, which only an
        attribute macro's helpers can be (rstest's `#[case]`): the function's own attribute of
        that name (`#[case::below(..)]`) is the same helper, not a path into a crate."""
        a = attr_item.named_children[0] if attr_item.named_children else None
        if a is None or a.type != "attribute":
            return
        head = a.named_children[0] if a.named_children else None
        if head is None:
            return
        args = a.child_by_field_name("arguments")
        value = a.child_by_field_name("value")
        if value is not None:  # `#[doc = include_str!(..)]`, `#![doc = document_features::..!()]`
            self.node(value, scope)
        line_node = attr_item
        if args is not None:
            self.string_paths(
                args, scope, _text(head, self.src) if head.type == "identifier" else ""
            )
        if head.type == "scoped_identifier":
            segs = _path_segments(head, self.src)
            if segs[0] not in helpers:
                self.emit(segs[0], line_node, scope, "attr", segs)
            if args is not None:
                self.token_tree(args, scope)
            return
        name = _text(head, self.src)
        if name == "derive" and args is not None:
            self.derives(args, line_node, scope)
            return
        if name in BUILTIN_INERT_ATTRIBUTES:
            if name == "cfg_attr" and args is not None:
                # `cfg_attr(feature = "x", doc = a::b!())`: what follows is used under the cfg
                body = _text(args, self.src)[1:-1]
                depth, cut = 0, len(body)
                for i, ch in enumerate(body):
                    depth += ch in "([{"
                    depth -= ch in ")]}"
                    if ch == "," and depth == 0:
                        cut = i
                        break
                cfg = parse_cfg(body[:cut])
                inner = replace(scope, features=scope.features + cfg.features)
                if cfg.test:
                    inner = replace(inner, target="dev")
                if cfg.target and inner.target != "build":
                    # `cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)`:
                    # the crate is needed on that target only, as under `#[cfg(..)]`
                    inner = replace(inner, marker=cfg.target)
                toks = args.children
                for i, tok in enumerate(toks[:-1]):
                    # `cfg_attr(feature = "serde", derive(serde::Serialize))`
                    if tok.type == "identifier" and _text(tok, self.src) == "derive":
                        if toks[i + 1].type == "token_tree":
                            self.derives(toks[i + 1], line_node, inner)
                self.token_tree(args, inner)
            return
        self.refs.append(
            (
                name,
                line_node.start_point[0] + 1,
                scope,
                RustUse(
                    how="attr",
                    path=name,
                    resolved=self.f.uses.get(name),
                    keys=tuple(self._attr_keys(args)),
                ),
            )
        )
        if args is not None:
            self.token_tree(args, scope)

    def _token_paths(self, tt: Any, keep_single: bool = False) -> list[list[str]]:
        """Paths spelled inside a token tree: `a::b::c`, `::a::b`, and (optionally) lone idents."""
        out: list[list[str]] = []
        toks = tt.children
        i = 0
        n = len(toks)
        while i < n:
            tok = toks[i]
            if tok.type == "token_tree":
                out.extend(self._token_paths(tok, keep_single))
                i += 1
                continue
            if tok.type in ("identifier", "::", "crate", "self", "super"):
                prev = toks[i - 1].type if i > 0 else None
                # (`f32::MAX`, `std::f32::consts::E`: a primitive type's `::` continues a path)
                if prev in ("$", ".", "::", "metavariable", "primitive_type") or (
                    prev == "identifier" and tok.type == "::"
                ):
                    i += 1
                    continue
                segs: list[str] = []
                j = i
                if toks[j].type == "::":
                    segs.append("::")
                    j += 1
                while j < n and toks[j].type in (
                    "identifier", "crate", "self", "super", "primitive_type"
                ):  # fmt: skip
                    segs.append(_text(toks[j], self.src))
                    if j + 1 < n and toks[j + 1].type == "::":
                        j += 2
                    else:
                        j += 1
                        break
                if j < n and toks[j].type == "token_tree" and toks[j - 1].type == "::" and segs:
                    # `use std::{thread::sleep, time::Duration};` in a macro's body: the
                    # group's paths continue this one (`thread` is std's, not a crate)
                    for inner in self._token_paths(toks[j], keep_single=True):
                        out.append(segs + inner)
                    i = j + 1
                    continue
                if (
                    (len(segs) > 1 and segs[0] != "::")
                    or len(segs) > 2
                    or (keep_single and len(segs) == 1)
                ):
                    out.append(segs)
                i = max(j, i + 1)
                continue
            i += 1
        return out

    def derives(self, args: Any, line_node: Any, scope: Scope) -> None:
        """`derive(A, b::C)`: bare names go to the derive table, paths name their crate."""
        for path in self._token_paths(args, keep_single=True):
            if len(path) == 1:
                use = RustUse(how="derive", path=path[0], resolved=self.f.uses.get(path[0]))
                self.refs.append((path[0], line_node.start_point[0] + 1, scope, use))
            else:
                self.emit(path[0], line_node, scope, "derive", path)

    def _attr_keys(self, tt: Any) -> list[str]:
        """Top-level keys of `#[arg(long, env = "X", value_parser = ..)]` → long, env, value_parser."""
        if tt is None:
            return []
        keys: list[str] = []
        toks = tt.children
        for i, tok in enumerate(toks):
            if tok.type != "identifier":
                continue
            prev = toks[i - 1].type if i else None
            nxt = toks[i + 1].type if i + 1 < len(toks) else None
            if prev in ("(", ",") and nxt in ("=", ",", ")", "token_tree"):
                keys.append(_text(tok, self.src))
        return keys

    def string_paths(self, tt: Any, scope: Scope, owner: str = "") -> None:
        """Paths written as strings in attribute arguments: `#[serde(with = "humantime_serde")]`.
        `#[serde_with(crate = "::s_with")]` says which crate the path is: a rename of the
        attribute's own crate (recorded as `crate_of`)."""
        toks = tt.children
        for i in range(2, len(toks)):
            tok = toks[i]
            if tok.type == "token_tree":
                self.string_paths(tok, scope, owner)
                continue
            if tok.type != "string_literal" or toks[i - 1].type != "=":
                continue
            key = _text(toks[i - 2], self.src)
            if key not in STRING_PATH_KEYS:
                continue
            value = _text(tok, self.src)[1:-1].strip()
            if not _STRING_PATH.match(value):
                continue
            segs = value.split("::")
            if segs[0] == "":
                segs = ["::"] + segs[1:]
            if len(segs) == 1 and key != "with":
                continue  # `default = "make_default"` names a function, not a module
            before = len(self.refs)
            self.emit(segs[0], tok, scope, "attr-string", segs)
            if key == "crate" and owner and len(self.refs) > before:
                name, line, at, use = self.refs[-1]
                self.refs[-1] = (name, line, at, replace(use, crate_of=owner))

    def token_tree(self, tt: Any, scope: Scope) -> None:
        for path in self._token_paths(tt):
            self.path_ref(path, tt, scope, "macro")

    def path_ref(self, segs: list[str], node: Any, scope: Scope, how: str) -> None:
        """A path `a::b::c`; one starting with a `use`-imported type is followed through it."""
        if not segs:
            return
        imported = self.f.uses.get(segs[0])
        if segs[0] == "::":
            self.emit("::", node, scope, how, segs)
        elif imported and "::" in imported and imported.split("::")[0] not in KEYWORDS:
            # `use uuid::Uuid; Uuid::new_v4()` → uuid::Uuid::new_v4 (its gates count)
            full = imported.split("::") + segs[1:]
            if _CRATE_LIKE.match(full[0]):
                self.emit(full[0], node, scope, "via-use", full)
        elif _CRATE_LIKE.match(segs[0]) and len(segs) > 1:
            self.emit(segs[0], node, scope, how, segs)
        if imported is None and len(segs) > 1 and segs[0] != "::":
            # reached through a glob import of another crate's module, the name's path there
            # counts for that crate's feature gates: `input::EventStream` where the local
            # module `input` does `pub use crossterm::event::*;`, or `EventStream::new()`
            # below `use crossterm::event::*;`
            bases: list[list[str]] = []
            if segs[0] in self.f.mods or segs[0] in self.reexports:
                bases = [b + segs[1:] for b in self.reexports.get(segs[0], [])]
            elif segs[0][:1].isupper() and segs[0] not in self.defined:
                bases = [b + segs for b in self.f.extern_globs]
            for full in bases:
                self.emit(full[0], node, scope, "via-glob", full)

    def walk(self) -> list[tuple[str, int, Scope, RustUse]]:
        root = self.f.tree.root_node
        scope = self.start
        inner = [c for c in root.children if c.type == "inner_attribute_item"]
        scope = self.apply_attrs(inner, scope)
        for attr in inner:
            self.attribute(attr, scope)
        self.block(root, scope)
        if self.methods:
            # method names called in this file: a crate's gated methods (similar's
            # `TextDiff::iter_inline_changes` needs `inline`) are called on values, not paths
            use = RustUse(how="methods", methods=tuple(sorted(self.methods)))
            self.refs.append(("", 1, scope, use))
        return self.refs

    def block(self, node: Any, scope: Scope) -> None:
        pending: list[Any] = []
        for child in node.children:
            t = child.type
            if t == "attribute_item":
                pending.append(child)
                continue
            if pending and t in ("line_comment", "block_comment"):
                continue  # `#[cfg(test)] // why` and doc comments: the attributes are the item's
            child_scope = self.apply_attrs(pending, scope) if pending else scope
            helpers = _parameter_attributes(child, self.src) if t == "function_item" else ()
            for attr in pending:
                self.attribute(attr, child_scope, helpers)
            if (
                pending
                and t in ("struct_item", "enum_item")
                and _SERDE_DERIVE.search(
                    b" ".join(self.src[a.start_byte : a.end_byte] for a in pending)
                )
            ):
                child_scope = replace(child_scope, serde_item=True)
            if pending and t in ("struct_item", "enum_item"):
                text = b" ".join(self.src[a.start_byte : a.end_byte] for a in pending)
                names = {
                    n.strip().decode("utf-8", "replace").split("::")[-1]
                    for m in _DERIVE_LIST.finditer(text)
                    for n in m.group(1).split(b",")
                }
                derives = tuple(sorted(names & STD_DERIVABLE))
                if derives:
                    child_scope = replace(child_scope, derives=derives)
            if pending and t in ASYNC_HOLDERS and _has_async_fn(child, self.src):
                self._async_attrs(pending, child_scope)
            pending = []
            self.node(child, child_scope)
        for attr in pending:
            self.attribute(attr, scope)

    def node(self, node: Any, scope: Scope) -> None:
        t = node.type
        if (scope.serde_item or scope.derives) and t == "type_identifier":
            self._item_field_type(node, scope)
        reader = _NODE_READERS.get(t)
        if reader is not None:
            getattr(self, reader)(node, scope)
            return
        if t == "call_expression":
            fn = node.child_by_field_name("function")
            if fn is not None and fn.type == "field_expression":
                field_node = fn.child_by_field_name("field")
                if field_node is not None:
                    self.methods.add(_text(field_node, self.src))
        if t in ("scoped_identifier", "scoped_type_identifier") and not _is_path_of_parent(node):
            # the outermost path node: `tokio::net::TcpListener::bind` as a whole, so the
            # feature gates of every segment can be looked up
            self.path_ref(_path_segments(node, self.src), node, scope, "path")
        if t in ("declaration_list", "block", "field_declaration_list", "source_file") or any(
            c.type == "attribute_item" for c in node.children
        ):
            self.block(node, scope)
            return
        for child in node.children:
            self.node(child, scope)

    def _item_field_type(self, node: Any, scope: Scope) -> None:
        """A type named inside a serde item or one deriving std traits: `chrono::DateTime`
        imported with `use` and used as a field type (`type-use`), and std's `Arc`/`Rc` in a
        serde item (`serde-std-type`)."""
        src = self.src
        name = _text(node, src)
        if _names_its_item(node) or name in self.defined:  # a local type of the same name
            return
        full = self.f.uses.get(name)
        if (
            scope.serde_item
            and name in SHARED_POINTERS
            and (full is None or full.split("::")[0] in ("std", "alloc", "core"))
        ):
            use = RustUse(how="serde-std-type", path=name)
            self.refs.append(("", node.start_point[0] + 1, scope, use))
        if full and "::" in full:
            segs = full.split("::")
            if segs[0] not in KEYWORDS and _CRATE_LIKE.match(segs[0]):
                use = RustUse(how="type-use", path=full)
                self.refs.append((segs[0], node.start_point[0] + 1, scope, use))

    def _inner_attribute(self, node: Any, scope: Scope) -> None:
        """`#![..]` inside a module or block (file-level ones were read in walk())."""
        if node.parent is not None and node.parent.type != "source_file":
            self.attribute(node, scope)

    def _use(self, node: Any, scope: Scope) -> None:
        """`use a::{b, c::d};`: each leaf's root."""
        arg = node.child_by_field_name("argument")
        if arg is None:
            return
        for segs, _alias, _glob in _use_leaves(arg, self.src, []):
            if segs:
                self.emit(segs[0], node, scope, "use", segs)

    def _extern_crate(self, node: Any, scope: Scope) -> None:
        """`extern crate x;`."""
        name = node.child_by_field_name("name")
        if name is not None:
            self.emit(_text(name, self.src), node, scope, "extern", [_text(name, self.src)])

    def _mod(self, node: Any, scope: Scope) -> None:
        """`mod x;` is walked in its own file (with this scope); `mod x { .. }` here."""
        body = node.child_by_field_name("body")
        name = node.child_by_field_name("name")
        if body is None and name is not None:
            self.f.child_mods.append((_text(name, self.src), scope, _path_attr(node, self.src)))
        elif body is not None:
            if node.start_byte in self.f.inline_glob_mods:
                saved = self.internal
                self.internal = saved | self.pkg.scope
                self.block(body, scope)
                self.internal = saved
            else:
                self.block(body, scope)

    def _macro_definition(self, node: Any, scope: Scope) -> None:
        """A local `macro_rules!` body is code of this crate once invoked: its paths to other
        crates are uses (`h2::Error` in tokio-console's `with_client!`); `$crate::…` and
        `$x::…` paths are not."""
        for rule in node.children:
            if rule.type == "macro_rule":
                body = rule.child_by_field_name("right")
                if body is not None and body.type == "token_tree":
                    for path in self._token_paths(body):
                        self.path_ref(path, body, scope, "macro-def")

    def _macro_invocation(self, node: Any, scope: Scope) -> None:
        """`a::m!(..)` names crate a; paths in the tokens count, except in quoting macros."""
        mac = node.child_by_field_name("macro")
        macro_name = ""
        if mac is not None:
            if mac.type == "scoped_identifier":
                segs = _path_segments(mac, self.src)
                self.emit(segs[0], node, scope, "macro", segs)
                macro_name = segs[-1]
            else:
                macro_name = _text(mac, self.src)
        if macro_name in QUOTING_MACROS:
            return
        for child in node.children:
            if child.type == "token_tree":
                self.token_tree(child, scope)


# node type → the `_Walker` method that reads it whole
_NODE_READERS = {
    "inner_attribute_item": "_inner_attribute",
    "use_declaration": "_use",
    "extern_crate_declaration": "_extern_crate",
    "mod_item": "_mod",
    "macro_definition": "_macro_definition",
    "macro_invocation": "_macro_invocation",
}


# ---------------------------------------------------------------- packages and targets


@dataclass
class Package:
    manifest: Manifest
    directory: str
    roots: dict[str, str] = field(default_factory=dict)  # file -> target kind of its root


def packages(project: Project) -> dict[str, Package]:
    """Cargo packages (not virtual workspace roots) by directory."""
    out: dict[str, Package] = {}
    for m in project.manifests_of(Ecosystem.CRATES):
        if m.parse_error or not m.data.get("name"):
            continue
        out[m.directory] = Package(m, m.directory)
    return out


def _target_of(pkg: Package, rel: str) -> str | None:
    """Target role of a file from Cargo's layout conventions and the manifest's target paths."""
    inner = rel[len(pkg.directory) + 1 :] if pkg.directory else rel
    data = pkg.manifest.data
    targets = data.get("targets", {})
    for kind in ("test", "bench", "example"):
        for t in targets.get(kind, []):
            if t.get("path") and PurePosixPath(t["path"]).as_posix() == inner:
                return "dev"
    for kind in ("lib", "bin"):
        for t in targets.get(kind, []):
            if t.get("path") and PurePosixPath(t["path"]).as_posix() == inner:
                return "runtime"
    first = inner.split("/", 1)[0]
    if inner == "build.rs":
        return "build"
    if first in ("tests", "benches", "examples"):
        return "dev"
    if first == "src":
        return "runtime"
    return None


def _path_attr(node: Any, src: bytes) -> str | None:
    """`#[path = "x.rs"] mod foo;` — the attribute sits just before the item."""
    prev = node.prev_named_sibling
    while prev is not None and prev.type == "attribute_item":
        m = re.match(r'#\[\s*path\s*=\s*"([^"]+)"\s*\]', _text(prev, src))
        if m:
            return m.group(1)
        prev = prev.prev_named_sibling
    return None


def _edition(pkg: Package) -> str:
    edition = pkg.manifest.data.get("edition")
    if edition == "workspace":
        return "2021"  # inherited from the workspace root, which is never older in practice
    return str(edition) if isinstance(edition, str | int) else "2015"


def _is_path_of_parent(node: Any) -> bool:
    parent = node.parent
    return (
        parent is not None
        and parent.type in ("scoped_identifier", "scoped_type_identifier")
        and parent.child_by_field_name("path") == node
    )


def _root_target(pkg: Package, rel: str) -> str | None:
    """The target kind when `rel` is the root file of a Cargo target (lib, bin, test, ...)."""
    inner = rel[len(pkg.directory) + 1 :] if pkg.directory else rel
    data = pkg.manifest.data
    for kind, target in (
        ("lib", "runtime"),
        ("bin", "runtime"),
        ("test", "dev"),
        ("bench", "dev"),
        ("example", "dev"),
    ):
        for t in data.get("targets", {}).get(kind, []):
            if t.get("path") and PurePosixPath(t["path"]).as_posix() == inner:
                return target
    build = data.get("build")
    if inner == (build if isinstance(build, str) else "build.rs"):
        return "build"
    parts = inner.split("/")
    if inner in ("src/lib.rs", "src/main.rs"):
        return "runtime"
    if parts[0] == "src" and len(parts) >= 3 and parts[1] == "bin":
        if len(parts) == 3 or (len(parts) == 4 and parts[3] == "main.rs"):
            return "runtime"
    if parts[0] in ("tests", "benches", "examples"):
        if len(parts) == 2 or (len(parts) == 3 and parts[2] == "main.rs"):
            return "dev"
    return None


def _child_files(parent: str, name: str, path_attr: str | None) -> list[str]:
    p = PurePosixPath(parent)
    base = p.parent
    if path_attr:
        return [(base / path_attr).as_posix()]
    if p.name not in ("mod.rs", "lib.rs", "main.rs", "build.rs"):
        base = base / p.stem
    return [(base / f"{name}.rs").as_posix(), (base / name / "mod.rs").as_posix()]


# (file, target) → the uses the walk found there
_Walked = dict[tuple[str, str], list[tuple[str, int, Scope, RustUse]]]


@dataclass
class _Files:
    """The parsed `.rs` files of a project, each with its package and file kind."""

    facts: dict[str, FileFacts] = field(default_factory=dict)
    owner: dict[str, Package] = field(default_factory=dict)
    kinds: dict[str, FileKind] = field(default_factory=dict)


ANALYZER = "rust-refs"  # its entries' name in the per-file analysis cache


def analyze(project: Project, ctx: Context) -> list[ImportRef]:
    """The crate uses of every `.rs` file. A file's uses depend on its whole package (the
    names its other files declare, the walk from the targets' roots), so the answer is
    kept in the analysis cache for all the files at once, keyed by their contents and the
    packages' layout."""
    files = [f for f in project.files_of("rust")]
    if not files:
        return []
    pkgs = packages(project)
    texts, read_notes = _read_texts(project, pkgs)
    key = content_key(ANALYZER, _texts_digest(texts), _layout_key(pkgs))
    found, value = ctx.files.get(ANALYZER, key)
    if found:
        refs, notes = value
    else:
        notes = {}
        read = _read_files(texts, pkgs, notes)
        pkg_names = _package_names(read, set(pkgs))
        results, reached = _walk_targets(read, pkg_names)
        _walk_unreached(read, pkg_names, results, reached)
        refs = _import_refs(read, results)
        ctx.files.put(ANALYZER, key, (refs, notes))
    for f in files:  # in the order a plain read-and-parse pass reports them
        ctx.diagnostics.extend(read_notes.get(f.path, ()))
        ctx.diagnostics.extend(notes.get(f.path, ()))
    return refs


# (file, its text, its kind, its package directory) of each `.rs` file a package holds
_Texts = list[tuple[str, str, FileKind, str]]


def _read_texts(project: Project, pkgs: dict[str, Package]) -> tuple[_Texts, dict]:
    """The text of every `.rs` file that belongs to a package, and per file what reading
    it reported."""
    dirs = set(pkgs)
    texts: _Texts = []
    notes: dict[str, list[Diagnostic]] = {}
    for f in project.files_of("rust"):
        d = nearest_directory(f.path, dirs)
        if d is None:
            continue
        said: list[Diagnostic] = []
        text = read_source(project, f.path, said)
        if said:
            notes[f.path] = said
        if text is not None:
            texts.append((f.path, text, f.kind, d))
    return texts, notes


def _texts_digest(texts: _Texts) -> bytes:
    h = hashlib.blake2b(digest_size=20)
    for rel, text, kind, d in texts:
        h.update(repr((rel, kind.value, d, len(text))).encode("utf-8", "surrogatepass"))
        h.update(text.encode("utf-8", "surrogatepass"))
    return h.digest()


def _layout_key(pkgs: dict[str, Package]) -> tuple:
    """What the walk reads of each package's manifest."""
    return tuple(
        (d, p.manifest.path)
        + tuple(repr(p.manifest.data.get(k)) for k in ("name", "edition", "targets", "build"))
        for d, p in sorted(pkgs.items())
    )


def _read_files(texts: _Texts, pkgs: dict[str, Package], notes: dict) -> _Files:
    """Parse every `.rs` file that belongs to a package (syntax errors are reported in
    `notes`, per file, and what could be parsed is read)."""
    parser = rust_parser()
    out = _Files()
    for rel, text, kind, d in texts:
        src = text.encode("utf-8")
        try:
            tree = parser.parse(src)
        except Exception as exc:  # tree-sitter does not raise on syntax errors; be safe anyway
            notes.setdefault(rel, []).append(Diagnostic(f"cannot parse: {exc}", rel))
            continue
        if tree.root_node.has_error:
            message = "syntax errors; read what could be parsed"
            notes.setdefault(rel, []).append(Diagnostic(message, rel, "info"))
        out.facts[rel] = _collect_file_facts(rel, tree, src)
        out.owner[rel] = pkgs[d]
        out.kinds[rel] = kind
    return out


def _package_names(read: _Files, dirs: set[str]) -> dict[str, PackageNames]:
    """Per package directory: the names its files declare, module by module."""
    pkg_names: dict[str, PackageNames] = {d: PackageNames() for d in dirs}
    for rel, ff in read.facts.items():
        names = pkg_names[read.owner[rel].directory]
        names.mods.update(ff.mods)
        names.scope.update(n for n in ff.locals if _CRATE_LIKE.match(n))
        path = PurePosixPath(rel)
        module = path.parent.name if path.stem == "mod" else path.stem
        names.children.setdefault(module, set()).update(ff.mods)
        if ff.pub_extern_globs:
            names.reexports.setdefault(module, []).extend(ff.pub_extern_globs)
    return pkg_names


def _walk_targets(read: _Files, pkg_names: dict[str, PackageNames]) -> tuple[_Walked, set[str]]:
    """Walk from each target's root file along `mod x;` declarations, so `#[cfg(test)] mod x;`
    and `#[cfg(feature = "f")] mod x;` pass their scope on; a file two targets include
    (`#[path = "src/cli.rs"] mod cli;` in build.rs) is read once per target."""
    facts, owner = read.facts, read.owner
    results: _Walked = {}
    queue: list[tuple[str, Scope]] = []
    for rel in facts:
        target = _root_target(owner[rel], rel)
        if target is not None:
            queue.append((rel, Scope(target=target)))
    reached: set[str] = set()
    while queue:
        rel, scope = queue.pop(0)
        key = (rel, scope.target)
        if key in results:
            continue
        reached.add(rel)
        ff = facts[rel]
        ff.child_mods.clear()
        walker = _Walker(ff, scope, pkg_names[owner[rel].directory], _edition(owner[rel]))
        results[key] = walker.walk()
        for name, child_scope, path_attr in ff.child_mods:
            for child in _child_files(rel, name, path_attr):
                if child in facts:
                    queue.append((child, child_scope))
                    break
    return results, reached


def _walk_unreached(
    read: _Files, pkg_names: dict[str, PackageNames], results: _Walked, reached: set[str]
) -> None:
    """Files no target reaches (declared through macros, #[path] we could not follow,
    stray): their place in the layout decides."""
    facts, owner = read.facts, read.owner
    for rel, ff in facts.items():
        if rel in reached:
            continue
        target = _target_of(owner[rel], rel)
        if target is None:
            kind = read.kinds[rel]
            dev = kind in (FileKind.TEST, FileKind.EXAMPLE, FileKind.BENCH)
            target = "dev" if dev else "runtime"
        _inherit_includer_scope(rel, ff, facts, reached)
        walker = _Walker(
            ff, Scope(target=target), pkg_names[owner[rel].directory], _edition(owner[rel])
        )
        refs = walker.walk()
        results[(rel, target)] = [
            (n, line, s, replace(e, unreached=True)) for n, line, s, e in refs
        ]


def _import_refs(read: _Files, results: _Walked) -> list[ImportRef]:
    """The walk's uses as ImportRefs, each with its scope in its facts."""
    out: list[ImportRef] = []
    for (rel, _target), refs in results.items():
        pkg = read.owner[rel]
        # `use other_crate::*` (at any depth of the file): a path root there may be a module
        # that glob brings in (macroquad's `use miniquad::*; date::now()`), not a crate
        ff = read.facts[rel]
        globs = tuple("::".join(b) for b in ff.extern_globs + ff.inline_extern_globs)
        for name, line, scope, use in refs:
            if globs and use.how not in NOT_THROUGH_GLOBS:
                use = replace(use, globs=globs)
            kind = {"dev": FileKind.TEST, "build": FileKind.BUILD}.get(
                scope.target, FileKind.SOURCE
            )
            out.append(
                ImportRef(
                    module=name,
                    file=rel,
                    line=line,
                    language="rust",
                    kind=kind,
                    optional=bool(scope.features),
                    marker=scope.marker,
                    names=tuple(use.path.split("::")[1:2]),
                    facts=replace(
                        use,
                        target=scope.target,
                        features=tuple(scope.features),
                        serde_item=scope.serde_item,
                        derives=tuple(scope.derives),
                        manifest=pkg.manifest.path,
                    ),
                )
            )
    return out
