"""Which Cargo features a crate's public items need, read from the crate's own source.

A dependency's features are decided by what the code uses: `tokio::net::TcpStream` exists only
with tokio's `net` feature because tokio wraps `pub mod net` in `#[cfg(feature = "net")]`
(often through a helper macro such as `cfg_net! { .. }` whose body adds that attribute).
This module walks a crate's `src/lib.rs` and the module files it declares, follows
`#[cfg(..)]` attributes and such gating macros, and returns, for each public path
(`net`, `io::AsyncReadExt`, `main`, `select`), the features that must be on.

The source comes from Cargo's own download cache (`$CARGO_HOME/registry/src/*/name-version`)
or from a directory a test hands in; nothing is fetched here.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Any, NamedTuple

from depinfer.analyzers.rust import STD_DERIVABLE, cfg_tokens, cfg_tree, rust_parser

MAX_DEPTH = 4
# generated API crates (windows, objc2-*) have thousands of files; their gates are per item.
# tokio has ~380: its runtime builder (`Builder::new_multi_thread` needs `rt-multi-thread`) sits
# deep enough that a lower limit stops before it.
MAX_FILES = 600
MAX_BYTES = 4_000_000


def build_cfg_features(root: Path) -> dict[str, str]:
    """Custom cfgs a build script sets for a feature: proc-macro2's build.rs prints
    `cargo:rustc-cfg=span_locations` under `if cfg!(feature = "span-locations")`."""
    try:
        lines = (root / "build.rs").read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return {}
    out: dict[str, str] = {}
    for i, line in enumerate(lines):
        m = re.search(r"rustc-cfg=([A-Za-z_][A-Za-z0-9_]*)", line)
        if not m or "check-cfg" in line:
            continue
        for back in range(i, max(-1, i - 6), -1):
            f = re.search(r'feature\s*=\s*"([^"]+)"', lines[back]) or re.search(
                r"CARGO_FEATURE_([A-Z0-9_]+)", lines[back]
            )
            if f:
                name = f.group(1)
                out[m.group(1)] = name.lower().replace("_", "-") if name.isupper() else name
                break
    return out


_DOC_CFGS = ("docsrs", "doc")


def required_features(cfg_text: str, custom: dict[str, str] | None = None) -> list[str] | None:
    """Features a `cfg(..)` body needs; None when it can only be false-able by a negation
    (`not(feature = ..)`), which means "this item is the fallback, not the feature's"."""
    tree, _ = cfg_tree(cfg_tokens(cfg_text))
    if tree is None:
        return []

    def need(t: Any) -> list[str] | None:
        if t[0] == "kv":
            return [t[2]] if t[1] == "feature" else []
        if t[0] == "id":
            return [custom[t[1]]] if custom and t[1] in custom else []
        if t[1] == "not":
            inner = [need(a) for a in t[2]]
            return None if any(x for x in inner) else []
        if t[1] == "all":
            out: list[str] = []
            for a in t[2]:
                sub = need(a)
                if sub is None:
                    return None
                out += [f for f in sub if f not in out]
            return out
        if t[1] == "any":
            # `any(docsrs, feature = "x")` shows the item in the docs; users still need x
            real = [a for a in t[2] if not (a[0] == "id" and a[1] in _DOC_CFGS)]
            for a in real or t[2]:  # the first alternative is enough
                sub = need(a)
                if sub is not None:
                    return sub
            return None
        return []

    return need(tree)


ANY_PREFIX = "<any>"


def any_features(cfg_text: str) -> list[str] | None:
    """`any(feature = "a", feature = "b")` → ["a", "b"]; None for any other shape."""
    tree, _ = cfg_tree(cfg_tokens(cfg_text))
    if tree is None or tree[0] == "kv" or tree[0] == "id" or tree[1] != "any":
        return None
    out = []
    for t in tree[2]:
        if t[0] != "kv" or t[1] != "feature":
            return None
        out.append(t[2])
    return out if len(out) > 1 else None


def _text(node: Any, src: bytes) -> str:
    return src[node.start_byte : node.end_byte].decode("utf-8", "replace")


# std's derivable traits, whose impls for a crate's types are recorded (see `trait_gates`)
DERIVABLE = STD_DERIVABLE
IMPL_PREFIX = "<impl>"
# `<trait>Sink/UnboundedSender::poll_flush`: a trait's method on the crate's type, behind
# features the type itself does not need (its name alone is no evidence: other crates' traits
# share it; a call needs the trait in scope, so the calling file imports it)
TRAIT_PREFIX = "<trait>"


def trait_gates(gates: dict[str, list[str]], trait: str, type_name: str) -> list[str] | None:
    """Features the crate needs to implement `trait` for its type (None: not known)."""
    return gates.get(f"{IMPL_PREFIX}{trait}::{type_name}")


# A gating macro whose condition comes from its invocation (tracing-subscriber's
# `feature! { #![all(feature = "env-filter", feature = "std")] pub use filter::EnvFilter; }`,
# defined as `#![$meta:meta] $($item:item)*` → `#[cfg($meta)] $item`).
FROM_INVOCATION = "$meta"
_INNER_CFG = re.compile(r"^\s*#!\[(.*?)\]\s*(?=\S)", re.DOTALL)
# in a macro's body, a `#[cfg(..)]` put on the items it is given
_GATING_CFG = re.compile(r"#\[cfg\((.*?)\)\]\s*(?:#\[cfg_attr|\$)", re.DOTALL)


def _gating_macros(
    files: list[Path], custom: dict[str, str] | None = None
) -> tuple[dict[str, list[str] | None], set[str]]:
    """`macro_rules! cfg_x { .. #[cfg(feature = "x")] $item .. }` → {"cfg_x": ["x"]}, and the
    wrapper macros that put `#[macro_export]` on the item they are given. A macro that puts
    `#[cfg($m)]` on its items, `$m` being an inner attribute of the invocation, is listed
    with [FROM_INVOCATION]: each invocation says its own condition."""
    out: dict[str, list[str] | None] = {}
    exporting: set[str] = set()
    pattern = re.compile(r"macro_rules!\s+(\w+)\s*\{")
    for f in files:
        try:
            text = f.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        for m in pattern.finditer(text):
            body = text[m.end() : m.end() + 40000]
            end = body.find("macro_rules!")
            body = body if end < 0 else body[:end]
            if "#[macro_export]" in body:
                exporting.add(m.group(1))
            first = _GATING_CFG.search(body)  # the first one decides
            if first is None:
                continue
            cfg = first.group(1)
            meta = re.fullmatch(r"\s*\$(\w+)\s*", cfg)
            if meta and re.search(r"#!\[\s*\$" + meta.group(1) + r"\s*:\s*meta\s*\]", body):
                out[m.group(1)] = [FROM_INVOCATION]
                continue
            out[m.group(1)] = required_features(cfg, custom)
    return out, exporting


# An array literal that opens at the end of its line after `=` or `:` (`= &[`, `field: [`),
# as generated tables are written (unicode ranges, code pages): its closing bracket is the
# first one at the start of a line as deep as the opening line.
_DATA_OPENER = re.compile(rb"\[[ \t]*\n")
# a quote or slash may start or end a string or comment; a `;` may make it an array type
_NOT_DATA = re.compile(rb'["/;]')
_BRACKETS = bytes(range(256)).translate(None, b"[]")  # every byte but the brackets
_SPACES = bytes.maketrans(bytes(range(256)), b" " * 10 + b"\n" + b" " * 245)
DATA_MIN = 256  # bytes: a smaller table parses about as fast as it is checked


def without_data(src: bytes) -> bytes:
    """`src` with the elements of its array literals turned to spaces (same length, same
    lines). Tree-sitter parses generated tables several times slower than code, and the
    reader never looks inside an initializer: the items it reads, and where they sit, stay
    the same. Only an inside that stays in one lexical context is blanked — no quote or
    slash (a string or comment cannot start or end there), brackets nested in pairs and
    no character literal beside them (so the closing bracket found is the matching one) —
    so an opening bracket inside a comment or string blanks only that comment's or
    string's text."""
    out: bytearray | None = None
    done = 0
    for m in _DATA_OPENER.finditer(src):
        start = m.end()
        if start < done:
            continue
        line = src.rfind(b"\n", 0, m.start()) + 1
        head = src[line : m.start()].rstrip(b" \t")
        if not head.removesuffix(b"&").rstrip(b" \t").endswith((b"=", b":")) or b"//" in head:
            continue
        indent = head[: len(head) - len(head.lstrip(b" \t"))]
        close = src.find(b"\n" + indent + b"]", start - 1)
        if close - start < DATA_MIN:
            continue
        inside = src[start:close]
        if _NOT_DATA.search(inside) or b"," not in inside or not _paired(inside):
            continue
        if out is None:
            out = bytearray(src)
        out[start:close] = inside.translate(_SPACES)
        done = close
    return src if out is None else bytes(out)


def _paired(inside: bytes) -> bool:
    """Brackets nested in pairs, and none beside a character literal (`'['`)."""
    brackets = inside.translate(None, _BRACKETS)
    if not brackets:
        return True
    if b"'" in inside:
        return False
    while b"[]" in brackets:
        brackets = brackets.replace(b"[]", b"")
    return not brackets


_CFG_ATTR = re.compile(r"#\[\s*cfg\((.*)\)\s*\]$", re.DOTALL)
_DERIVE_ATTR = re.compile(r"#\[\s*proc_macro_derive\(\s*([A-Za-z_]\w*)")


class _Reader:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.parser = rust_parser()
        files = list((root / "src").rglob("*.rs"))
        self.custom = build_cfg_features(root)
        self.gating, self.exporting = _gating_macros(files, self.custom)
        self.paths: dict[str, list[list[str]]] = {}
        self.aliases: dict[str, str] = {}  # `pub type A = B;`, `pub use b::B as A;` → A: B
        # `pub use gloo_timers as timers;` / `pub use log;`: public path → the crate it names
        self.crate_reexports: dict[str, str] = {}
        self.files_read = 0
        self.impl_types: set[str] = set()  # types whose inherent methods were read
        # `Type::method` of trait impls, kept only when the impl needs more than the type
        self.trait_methods: dict[str, list[list[str]]] = {}
        # `#[cfg(any(feature = "formatting", feature = "parsing"))]`: the gate records the first
        # feature; the alternatives are kept so a use can settle for one already chosen
        self.any_of: dict[str, list[str]] = {}
        self.pending_any: list[str] | None = None

    def record(self, path: str, gates: list[str]) -> None:
        self.paths.setdefault(path, []).append(list(dict.fromkeys(gates)))
        if self.pending_any and path not in self.any_of:
            self.any_of[path] = self.pending_any

    def module(self, file: Path, prefix: str, gates: list[str], public: bool, depth: int) -> None:
        self.files_read += 1
        if self.files_read > MAX_FILES:
            return
        try:
            src = file.read_bytes()
        except OSError:
            return
        tree = self.parser.parse(without_data(src))
        self.items(tree.root_node, src, file, prefix, gates, public, depth)

    def items(
        self,
        node: Any,
        src: bytes,
        file: Path,
        prefix: str,
        gates: list[str],
        public: bool,
        depth: int,
        export_all: bool = False,
    ) -> None:
        attrs: list[Any] = []
        for child in node.children:
            if child.type == "attribute_item":
                attrs.append(child)
                continue
            if child.type in ("line_comment", "block_comment"):
                continue  # a doc comment between `#[cfg(..)]` and its item keeps the gate
            here = list(gates)
            negated = False
            exported = export_all
            alternatives = None
            for a in attrs:
                text = _text(a, src)
                m = _CFG_ATTR.match(text)
                if m:
                    need = required_features(m.group(1), self.custom)
                    if need is None:
                        negated = True
                    else:
                        here += [f for f in need if f not in here]
                        alternatives = any_features(m.group(1)) or alternatives
                if "macro_export" in text:
                    exported = True
                derive = _DERIVE_ATTR.match(text)
                if derive and not prefix:  # a proc-macro crate's derive is named at its root
                    self.record(derive.group(1), here)
            attrs = []
            if negated:
                continue
            self.pending_any = alternatives
            try:
                self.item(child, src, file, prefix, here, public, depth, exported)
            finally:
                self.pending_any = None

    def item(
        self,
        node: Any,
        src: bytes,
        file: Path,
        prefix: str,
        gates: list[str],
        public: bool,
        depth: int,
        exported: bool,
    ) -> None:
        """Record one item's public paths, and read what it holds (macro bodies, impls, modules)."""
        # only plain `pub`: `pub(crate)` / `pub(super)` items are not the crate's API (tokio's
        # private `Buf::copy_from` is gated by `io-std` and must not be mistaken for a method
        # the user calls)
        is_pub = any(
            c.type == "visibility_modifier" and _text(c, src).strip() == "pub"
            for c in node.children
        )
        if node.type == "expression_statement" and node.named_children:
            inner = node.named_children[0]
            if inner.type == "macro_invocation":  # `crate_root!();` at item level
                node = inner
        it = _Item(node, src, file, prefix, gates, public, depth, exported, is_pub)
        if node.type == "impl_item":
            trait = node.child_by_field_name("trait") is not None
            (self._trait_impl if trait else self._inherent_impl)(it)
        elif node.type in _ITEM_READERS:
            getattr(self, _ITEM_READERS[node.type])(it)
        elif is_pub:
            self._public_item(it)

    def _macro_items(self, it: _Item) -> None:
        """`cfg_net! { .. }`: the items a gating macro wraps take its features; any other
        item macro (`crate_root!()`) may define any public name."""
        node, src = it.node, it.src
        mac = node.child_by_field_name("macro")
        name = _text(mac, src) if mac is not None else ""
        need = self.gating.get(name, [])
        if need is None:
            return
        if name not in self.gating and name.split("::")[-1] != "compile_error":
            self.record(it.prefix + "*!", it.gates)
        for tt in node.children:
            if tt.type != "token_tree":
                continue
            inner = src[tt.start_byte + 1 : tt.end_byte - 1]
            if need == [FROM_INVOCATION]:
                text = inner.decode("utf-8", "replace")
                m = _INNER_CFG.match(text)
                cond = required_features(m.group(1), self.custom) if m else []
                if cond is None:
                    return  # `not(feature = ..)`: the fallback, not the feature's
                need = cond
                inner = inner[len(text[: m.end()].encode()) :] if m else inner
            sub = self.parser.parse(inner)
            self.items(
                sub.root_node,
                inner,
                it.file,
                it.prefix,
                it.gates + need,
                it.public,
                it.depth,
                export_all=name in self.exporting,
            )

    def _trait_impl(self, it: _Item) -> None:
        """`impl Debug for crate::Meta` behind `extra-traits`: recorded as `<impl>Debug::Meta`
        for std's derivable traits (a derive on an item holding a Meta needs it); another
        trait's methods on the type as `<trait>`-keyed methods (futures-channel's
        `impl Sink for UnboundedSender` behind `sink`: `.poll_flush()` on it needs `sink`)."""
        node, src = it.node, it.src
        trait = re.sub(r"<.*", "", _text(node.child_by_field_name("trait"), src))
        trait = trait.split("::")[-1].strip()
        ty = node.child_by_field_name("type")
        tname = re.sub(r"<.*", "", _text(ty, src)).split("::")[-1].strip() if ty else ""
        if trait in DERIVABLE and tname[:1].isupper():
            self.record(f"{IMPL_PREFIX}{trait}::{tname}", it.gates)
        body = node.child_by_field_name("body")
        if trait in DERIVABLE or not tname[:1].isupper() or body is None:
            return
        for fn in body.named_children:
            name = fn.child_by_field_name("name") if fn.type == "function_item" else None
            if name is not None:
                key = f"{trait}/{tname}::{_text(name, src)}"
                self.trait_methods.setdefault(key, []).append(list(dict.fromkeys(it.gates)))

    def _inherent_impl(self, it: _Item) -> None:
        """Inherent methods, recorded as `Type::method` (clap's `Arg::env` needs `env`)."""
        ty = it.node.child_by_field_name("type")
        body = it.node.child_by_field_name("body")
        if ty is None or body is None:
            return
        tname = re.sub(r"<.*", "", _text(ty, it.src)).split("::")[-1].strip()
        if tname:
            self.impl_types.add(tname)
            self.items(body, it.src, it.file, f"{tname}::", it.gates, True, it.depth + 1)

    def _macro_definition(self, it: _Item) -> None:
        """A `#[macro_export]` macro is public at the crate root."""
        name = it.node.child_by_field_name("name")
        if it.exported and name is not None:
            self.record(_text(name, it.src), it.gates)

    def _module(self, it: _Item) -> None:
        """`mod x { .. }` or `mod x;` (its file read, up to MAX_DEPTH): private modules too,
        since `pub use features::*` lifts their items."""
        name_node = it.node.child_by_field_name("name")
        if name_node is None:
            return
        name = _text(name_node, it.src)
        child_prefix = f"{it.prefix}{name}::"
        if it.is_pub:
            self.record(it.prefix + name, it.gates)
        file = it.file
        base = file.parent if file.name in ("lib.rs", "mod.rs") else file.parent / file.stem
        body = it.node.child_by_field_name("body")
        if body is not None:
            # `mod gen { mod debug; }` in lib.rs: debug.rs lives in src/gen/
            inline = base / name / "mod.rs"
            self.items(body, it.src, inline, child_prefix, it.gates, it.is_pub, it.depth + 1)
            return
        if it.depth >= MAX_DEPTH:
            return
        for cand in (base / f"{name}.rs", base / name / "mod.rs"):
            if cand.is_file():
                self.module(cand, child_prefix, it.gates, it.is_pub, it.depth + 1)
                break

    def _public_item(self, it: _Item) -> None:
        """A `pub` item: `pub use` names (and crates it re-exports whole), type aliases, and
        any other named item."""
        node, src = it.node, it.src
        if node.type == "use_declaration":
            arg = node.child_by_field_name("argument")
            if arg is not None:
                self._pub_use(arg, src, it.prefix, it.gates)
            return
        if node.type == "type_item":
            name, ty = node.child_by_field_name("name"), node.child_by_field_name("type")
            if name is not None and ty is not None:
                target = re.sub(r"<.*", "", _text(ty, src)).split("::")[-1].strip()
                self.aliases[_text(name, src)] = target
        name = node.child_by_field_name("name")
        if name is not None:
            self.record(it.prefix + _text(name, src), it.gates)

    def _pub_use(self, arg: Any, src: bytes, prefix: str, gates: list[str]) -> None:
        """`pub use a::{B, C as D};`, `pub use gloo_timers as timers;`."""
        for local in _use_names(arg, src):
            self.record(prefix + local, gates)
        whole = arg.child_by_field_name("path") if arg.type == "use_as_clause" else arg
        alias = arg.child_by_field_name("alias") if arg.type == "use_as_clause" else None
        crate = _text(whole, src).removeprefix("::") if whole is not None else ""
        if re.fullmatch(r"[a-z_][a-z0-9_]*", crate) and crate not in _PATH_KEYWORDS:
            local = _text(alias, src) if alias is not None else crate
            self.crate_reexports[prefix + local] = crate
        for clause in _descendants(arg, "use_as_clause"):
            path, alias = clause.child_by_field_name("path"), clause.child_by_field_name("alias")
            if path is not None and alias is not None:
                self.aliases[_text(alias, src)] = _text(path, src).split("::")[-1]


class _Item(NamedTuple):
    """One item as `_Reader.item` hands it to the reader of its kind."""

    node: Any
    src: bytes
    file: Path
    prefix: str  # the module path it sits in, `net::` (or `Type::` inside an impl)
    gates: list[str]  # features the item needs
    public: bool  # its module is public
    depth: int  # module depth
    exported: bool  # `#[macro_export]` (or inside an exporting macro)
    is_pub: bool  # the item is plain `pub`


# item node type → the `_Reader` method that reads it (impls go by whether they name a trait)
_ITEM_READERS = {
    "macro_invocation": "_macro_items",
    "macro_definition": "_macro_definition",
    "mod_item": "_module",
}


_PATH_KEYWORDS = frozenset({"crate", "self", "super", "std", "core", "alloc"})
# `<crate>timers` → ["gloo_timers"]: a public name that re-exports a whole crate (read by
# `crate_reexports`; never a path a user writes)
CRATE_PREFIX = "<crate>"


def crate_reexports(gates: dict[str, list[str]]) -> dict[str, str]:
    """Public paths that re-export another crate whole → that crate's code name."""
    return {k[len(CRATE_PREFIX) :]: v[0] for k, v in gates.items() if k.startswith(CRATE_PREFIX)}


def _descendants(node: Any, kind: str) -> list[Any]:
    out, stack = [], [node]
    while stack:
        n = stack.pop()
        if n.type == kind:
            out.append(n)
        stack.extend(n.children)
    return out


def _use_names(node: Any, src: bytes) -> list[str]:
    t = node.type
    if t == "use_as_clause":
        alias = node.child_by_field_name("alias")
        return [_text(alias, src)] if alias is not None else []
    if t == "use_wildcard":
        inner = node.named_children
        return ["*" + (_text(inner[0], src) if inner else "")]  # glob re-export, resolved later
    if t in ("identifier",):
        return [_text(node, src)]
    if t == "scoped_identifier":
        name = node.child_by_field_name("name")
        return [_text(name, src)] if name is not None else []
    if t == "scoped_use_list":
        lst = node.child_by_field_name("list")
        out = _use_names(lst, src) if lst is not None else []
        path = node.child_by_field_name("path")
        if lst is not None and path is not None and any(c.type == "self" for c in lst.children):
            # `pub use blockdata::script::{self, Script}` names `script` too
            out += _use_names(path, src)
        return out
    if t == "use_list":
        return [n for c in node.named_children for n in _use_names(c, src)]
    return []


@lru_cache(maxsize=256)
def gates_refusal(crate_root: str) -> str | None:
    """Why `read_gates` does not read a crate's source (it then returns nothing): no
    `src/lib.rs`, source over MAX_BYTES, a file it cannot stat. None when it reads it. An
    empty answer with a refusal is unknown (the crate may offer anything); without one it
    is what the source offers (a deliberately empty release offers nothing)."""
    root = Path(crate_root)
    if not (root / "src" / "lib.rs").is_file():
        return "no src/lib.rs"
    try:
        total = sum(f.stat().st_size for f in (root / "src").rglob("*.rs"))
    except OSError as exc:
        return f"source unreadable ({exc.strerror or exc})"
    if total > MAX_BYTES:
        return f"source over the size cap ({total} > {MAX_BYTES} bytes)"
    return None


@lru_cache(maxsize=64)
def read_gates(crate_root: str) -> dict[str, list[str]]:
    """Public path → features it needs. A name defined twice (the trait `serde::Serialize` and,
    behind `derive`, the derive macro of the same name) needs only its least-gated definition;
    derives and attribute macros get their features from the derive table instead. Nothing
    when `gates_refusal` names a reason not to read the source."""
    root = Path(crate_root)
    lib = root / "src" / "lib.rs"
    if gates_refusal(crate_root) is not None:
        return {}
    reader = _Reader(root)
    reader.module(lib, "", [], True, 0)
    out: dict[str, list[str]] = {}
    _add_trait_methods(reader)
    # methods of a type that is nowhere public (`pub(crate) struct Buf`) are not the API
    public = {p.rsplit("::", 1)[-1] for p in reader.paths} | set(reader.aliases)
    for path, alternatives in reader.paths.items():
        head = path.split("::", 1)[0]
        if "::" in path and head in reader.impl_types and head not in public:
            continue
        out[path] = min(alternatives, key=len)
        if path in reader.any_of and reader.any_of[path][0] in out[path]:
            out[ANY_PREFIX + path] = reader.any_of[path]
    for path, crate in reader.crate_reexports.items():
        out[CRATE_PREFIX + path] = [crate]
    by_head: dict[str, list[str]] = {}
    for path in out:
        head, sep, _ = path.partition("::")
        if sep:
            by_head.setdefault(head, []).append(path)
    for alias, target in reader.aliases.items():
        if alias == target:
            continue
        for path in by_head.get(target, []):
            out.setdefault(alias + path[len(target) :], out[path])
    return _resolve_globs(out)


def _add_trait_methods(reader: _Reader) -> None:
    """A trait impl's methods are the type's methods gated by the impl's features, but only
    where the impl asks for a feature the type itself does not: AllowStdIo's `write_all`
    (std's Write, gated like the type) says nothing, UnboundedSender's `poll_flush` (Sink,
    behind `sink` while the type needs only `std`) does."""
    own: dict[str, list[str]] = {}
    ambiguous: set[str] = set()  # two public items of one name gated apart (io::Sink, Sink)
    for path, alternatives in reader.paths.items():
        last = path.rsplit("::", 1)[-1]
        if last[:1].isupper():
            best = sorted(set(min(alternatives, key=len)))
            if last in own and own[last] != best:
                ambiguous.add(last)
            own.setdefault(last, best)
    for key, alternatives in reader.trait_methods.items():
        tname = key.split("::", 1)[0].partition("/")[2]
        if tname not in own or tname in ambiguous:
            continue
        if f"{tname}::{key.rpartition('::')[2]}" in reader.paths:
            continue  # an inherent method of that name: the call may be it
        gates = min(alternatives, key=len)
        if set(gates) - set(own[tname]):
            reader.paths.setdefault(TRAIT_PREFIX + key, []).append(gates)


def _resolve_globs(paths: dict[str, list[str]]) -> dict[str, list[str]]:
    """`pub use self::atomic::*` copies the local module's names up; a glob over another crate
    (`pub use clap_builder::*`) stays as `*`: any name may come through it. A glob over one of
    the crate's own modules that the reader did not see (`*crate::x`, a module made by a macro)
    stays too, and may likewise provide any name. Chains of globs are followed a few steps."""
    for _ in range(MAX_GLOB_STEPS):
        out, changed = _resolve_globs_once(paths)
        if not changed:
            return out
        paths = out
    return paths


MAX_GLOB_STEPS = 4
# segments of a path a glob may lift a name to: goblin's `elf` modules glob each other
# (`compression_header32` ↔ `compression_header64`), and each step copied every copy again,
# to 18.7 million paths; public paths users write are far shorter
MAX_PATH_PARTS = 8


def _glob_parts(key: str) -> tuple[str, str] | None:
    """(module, target) of a glob key: the glob is the segment that starts with `*` and runs to
    the end of the key, its target may be a path (`pub use crate::gen::*` is `*crate::gen`)."""
    star = key.find("*")
    if star < 0 or (star and key[star - 2 : star] != "::"):
        return None
    return key[: max(star - 2, 0)], key[star + 1 :]


def _resolve_globs_once(paths: dict[str, list[str]]) -> tuple[dict[str, list[str]], bool]:
    out = {k: v for k, v in paths.items() if "*" not in k}
    changed = False
    for key, gates in paths.items():
        parts = _glob_parts(key)
        if parts is None or parts[1] in ("", "!"):
            out.setdefault(key, gates)
            continue
        prefix, target = parts
        own = target.startswith(("self::", "crate::", "super::"))
        if target.startswith("super::"):
            parent = prefix.rsplit("::", 1)[0] + "::" if "::" in prefix else ""
            target = parent + target.removeprefix("super::")
            looks = [target]
        elif target.startswith("crate::"):
            looks = [target[len("crate::") :]]
        else:
            rel = target.removeprefix("self::")
            looks = [f"{prefix}::{rel}", rel] if prefix else [rel]
        base = f"{prefix}::" if prefix else ""
        for look in looks:
            local = f"{look}::"
            if look == prefix or not any(p.startswith(local) for p in paths):
                continue
            for p, g in paths.items():
                if p.startswith(local) and not p.endswith("*!"):
                    # an item of the module shadows a glob's name; of two globs bringing one
                    # name, the one asking for fewer features is what a user reaches
                    lifted, merged = base + p[len(local) :], list(dict.fromkeys(gates + g))
                    if lifted.count("::") >= MAX_PATH_PARTS:
                        continue  # modules that glob each other copy each other without end
                    if lifted not in paths and (
                        lifted not in out or len(merged) < len(out[lifted])
                    ):
                        out[lifted] = merged
            changed = True
            break
        else:
            # not seen: another crate's names (`*clap_builder`), or own ones the reader missed
            out.setdefault(key if own else base + "*" + target, gates)
    return out, changed


def external_globs(gates: dict[str, list[str]]) -> list[str]:
    """Crates a crate re-exports whole at its root (`pub use clap_builder::*`)."""
    return [
        k[1:].split("::")[0]
        for k in gates
        if k.startswith("*") and k[1:] and k != "*!" and not is_own_glob(k)
    ]


def is_own_glob(key: str) -> bool:
    """`*crate::gen`, `*self::x`, `*super::y`: a glob over the crate's own modules."""
    return key.startswith(("*crate::", "*self::", "*super::"))


def _published_manifest(crate_root: str) -> dict:
    """A published crate's Cargo.toml, read only (tomllib: the same values as tomlkit's
    unwrapped document, about ten times faster; tomli on Python 3.10)."""
    from depinfer.toml_compat import tomllib

    return tomllib.loads((Path(crate_root) / "Cargo.toml").read_text(encoding="utf-8"))


def dependency_requirement(crate_root: str, name: str) -> str | None:
    """The version requirement a crate's Cargo.toml puts on one of its dependencies."""
    try:
        doc = _published_manifest(crate_root)
    except Exception:
        return None
    for key, value in (doc.get("dependencies") or {}).items():
        package = value.get("package", key) if isinstance(value, dict) else key
        if package.replace("-", "_") == name.replace("-", "_"):
            return value if isinstance(value, str) else value.get("version")
    return None


def features_for(
    gates: dict[str, list[str]], used_paths: list[str], enabled: frozenset[str] = frozenset()
) -> list[str]:
    """Features needed by `used_paths` (without the crate segment): longest gated prefix wins,
    and every gated prefix on the way counts (`sync::mpsc` needs `sync`). An item gated by
    `any(feature = "a", feature = "b")` is satisfied by whichever another use (or `enabled`,
    e.g. the crate's defaults) already switches on, else by the first."""
    out: list[str] = []
    either: list[list[str]] = []

    def add(key: str) -> None:
        alternatives = gates.get(ANY_PREFIX + key)
        for f in gates.get(key, []):
            if alternatives and f == alternatives[0]:
                either.append(alternatives)
            elif f not in out:
                out.append(f)

    for path in used_paths:
        segs = [s for s in path.split("::") if s]
        # `runtime::Builder::new_multi_thread`: inherent methods are read as `Builder::…`
        for i in range(len(segs) - 1):
            if segs[i][:1].isupper() and segs[i + 1][:1].islower():
                add(f"{segs[i]}::{segs[i + 1]}")
        for i in range(1, len(segs) + 1):
            prefix = "::".join(segs[: i - 1])
            if gates.get((prefix + "::" if prefix else "") + "*!") is not None:
                continue  # an item macro there may define this name ungated (serde's traits)
            add("::".join(segs[:i]))
    for alternatives in either:
        if not any(a in out or a in enabled for a in alternatives):
            out.append(alternatives[0])
    return out


def crate_features(crate_root: str) -> dict[str, list[str]]:
    """The `[features]` table of a crate's own Cargo.toml, with optional dependencies added
    as their implicit features (unless a `dep:` entry hides them)."""
    try:
        doc = _published_manifest(crate_root)
    except Exception:
        return {}
    features = {k: [str(x) for x in v] for k, v in (doc.get("features") or {}).items()}
    hidden = {i[4:] for items in features.values() for i in items if i.startswith("dep:")}
    for key, value in (doc.get("dependencies") or {}).items():
        if isinstance(value, dict) and value.get("optional") and key not in hidden:
            features.setdefault(key, [f"dep:{key}"])
    return features


def expand(features: dict[str, list[str]], names: list[str]) -> set[str]:
    """Every feature `names` switch on, transitively (dependency features excluded)."""
    seen: set[str] = set()
    todo = list(names)
    while todo:
        f = todo.pop()
        if f in seen or f not in features:
            continue
        seen.add(f)
        todo.extend(i for i in features[f] if "/" not in i and not i.startswith("dep:"))
    return seen


def minimal_features(needed: list[str], features: dict[str, list[str]]) -> list[str]:
    """What a user writes for `needed`: gates that name an optional dependency become the
    feature that enables it (`serde_derive` → `derive`), features the crate turns on by
    default are dropped, and so is any feature another chosen one already implies."""
    if not features:
        return list(needed)
    default = expand(features, ["default"])
    chosen: list[str] = []
    for f in needed:
        if f.startswith("_") and f in features and f not in default:
            # `__native-tls` is private by convention: the public feature that switches it on
            public = [k for k in features if not k.startswith("_") and f in expand(features, [k])]
            public.sort(key=lambda k: (k not in default, len(expand(features, [k])), k))
            if public:
                f = public[0]
        if f not in features or features[f] == [f"dep:{f}"]:
            enabling = [
                k for k, items in features.items() if k != f and (f"dep:{f}" in items or f in items)
            ]
            enabling.sort(key=lambda k: (k in default, len(features[k])))
            if enabling:
                f = enabling[0]
        if f in default or f in chosen:
            continue
        chosen.append(f)
    out = []
    for f in chosen:
        others = [o for o in chosen if o != f]
        if f not in expand(features, others):
            out.append(f)
    return out


def top_level_names(gates: dict[str, list[str]]) -> set[str]:
    """Names a crate offers at its root: items recorded there and the modules paths start
    with. Inherent methods are recorded as `Type::method` whatever module the type is in
    (`FrameDecoder::new` while the type is `decoding::FrameDecoder`), so they do not count."""
    out = set()
    for key in gates:
        head = key.split("::")[0]
        if "::" not in key or head[:1].islower() or head.startswith("*"):
            out.add(head)
    return {n for n in out if not n.startswith("<")}
