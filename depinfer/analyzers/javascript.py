"""JavaScript/TypeScript analyzer: module specifiers used by .js/.ts/.jsx/.tsx/.vue/.svelte files.

Why tree-sitter queries rather than regular expressions: strings that only look like imports
(in comments, template text, `declare module 'x'` blocks) must not count, and `import type`,
`typeof import('x')` and `import { type X }` must be told apart from runtime imports so the
resolver can place type-only packages correctly.

What is reported (one `ImportRef` per use):
- ESM `import … from 'x'`, side-effect `import 'x'`, `export … from 'x'`;
- CommonJS `require('x')`, `require.resolve('x')`, `module.require('x')`, and test-runner
  module mocks (`jest.mock('x')`, `vi.mock('x')`, `jest.requireActual('x')`);
- dynamic `import('x')` and `import.meta.resolve('x')` with a literal (`dynamic=True`);
- TypeScript `import x = require('x')`, `import type`, `export type`, `typeof import('x')`
  (`type_only=True`) and `/// <reference types="x" />`;
- JSX: one ref per file with `JsImportFacts(jsx=True)` (module "" or the file's
  `@jsxImportSource` pragma) — the mapping stage decides which runtime package it implies.

Each ref carries `JsImportFacts` (depinfer/facts/javascript.py): how the specifier was used.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import cache
from pathlib import PurePosixPath

from tree_sitter import Language, Node, Parser, Query, QueryCursor

from depinfer.context import Context
from depinfer.data import load_table
from depinfer.facts.javascript import JsImportFacts
from depinfer.filecache import content_key
from depinfer.model import FileKind, ImportRef, Project, SourceFile
from depinfer.scan import classify, read_source

LANGUAGE = "javascript"

# Which grammar parses which extension. Plain .js may hold JSX, which the JS grammar reads.
GRAMMAR_BY_EXT = {
    ".js": "javascript",
    ".mjs": "javascript",
    ".cjs": "javascript",
    ".jsx": "javascript",
    ".ts": "typescript",
    ".mts": "typescript",
    ".cts": "typescript",
    ".tsx": "tsx",
}
# Files that embed scripts in markup: their <script> blocks (and Astro frontmatter) are parsed.
EMBEDDED_EXTS = {".vue", ".svelte", ".astro", ".mdx"}
# ...and compile to modules that import their framework's runtime (vue, svelte/internal,
# astro/runtime), so the framework is needed even when no <script> imports it.


@cache
def component_runtimes() -> dict[str, str]:
    """Component file extension → the framework package its compiled module imports."""
    return {
        r["extension"]: r["runtime"] for r in load_table("javascript/components.toml")["component"]
    }


# Call targets whose first literal argument is a module specifier.
CALL_FUNCTIONS = {"require"}
# Helpers that load or locate a package by name (`resolveBin('jest')`, `importFrom(dir,
# 'x')`, `resolveFrom(cwd, 'x')`, `realRequire(name)`): their literal arguments that look like
# bare package names are reported as `heuristic` uses, checked against the registry later.
HELPER_NAME = re.compile(
    r"^_*(?:realRequire|(?:[Rr]equire|[Ii]mport|[Rr]esolve)"
    r"(?:Bin|From|Module|Package|Pkg|Esm|ESM|Fresh|Lazy|Cwd|Global|Silent|Optional|Peer|Dep))$"
)
_FILE_LIKE = re.compile(r"\.(?:[cm]?[jt]sx?|json|css|scss|html|md|node|wasm|d\.ts)$")


@cache
def member_calls() -> frozenset[tuple[str, str]]:
    """`object.method` calls whose first literal argument is a module the code loads, locates
    or mocks (`require.resolve('x')`, `jest.mock('x')`): data table module_loaders.toml."""
    rows = load_table("javascript/module_loaders.toml")["member_call"]
    return frozenset((r["object"], r["method"]) for r in rows)


_QUERY = """
(import_statement source: (string) @src) @stmt
(export_statement source: (string) @src) @stmt
(call_expression
  function: (identifier) @fn
  arguments: (arguments [(string) (template_string)] @arg)) @call
(call_expression
  function: (import)
  arguments: (arguments . [(string) (template_string)] @arg)) @dyn
(call_expression
  function: (member_expression object: (_) @obj property: (property_identifier) @prop)
  arguments: (arguments [(string) (template_string)] @arg)) @member
"""
_TS_EXTRA = """
(import_require_clause source: (string) @src) @req
"""
# Scoped package names written as plain strings (`addNamed(path, "x", "@scope/pkg/runtime")`,
# default plugin lists): code generators and plugin loaders name packages this way. The
# mapping keeps them only when they name a sibling workspace package or the package's own
# scope, so arbitrary strings never become dependencies.
_SCOPED_STRING_QUERY = """
((string (string_fragment) @frag)
 (#match? @frag "^@[a-z0-9][a-z0-9._-]*/[a-z0-9][a-z0-9._-]*(/[a-zA-Z0-9._/-]*)?$"))
"""
_JSX_QUERY = """
(jsx_element) @jsx
(jsx_self_closing_element) @jsx
"""

# JSDoc type imports in JS files checked by TypeScript: `@import {X} from 'y'` (TS 5.5) and
# `{import('y').X}` in @type/@typedef/@param tags. Type-only uses of the package.
_JSDOC_IMPORT = re.compile(
    r"""@import\s+(?:\{[^}]*\}|\*\s+as\s+\w+|\w+)\s+from\s+['"]([^'"]+)['"]"""
    r"""|@(?:type|typedef|param|arg|argument|returns?|template|callback|property|prop|satisfies)"""
    r"""\s*\{[^}\n]*?import\(\s*['"]([^'"]+)['"]\s*\)"""
)
_TRIPLE_SLASH = re.compile(r"^\s*///\s*<reference\s+types\s*=\s*[\"']([^\"']+)[\"']", re.M)
_JSX_PRAGMA = re.compile(r"@jsxImportSource\s+(\S+)")
_SCRIPT_BLOCK = re.compile(r"<script\b([^>]*)>(.*?)</script\s*>", re.S | re.I)
_ASTRO_FRONTMATTER = re.compile(r"\A\s*---\r?\n(.*?)\r?\n---", re.S)
_TYPE_CONTEXTS = {
    "type_query",
    "type_annotation",
    "type_alias_declaration",
    "interface_declaration",
    "generic_type",
    "type_arguments",
}


@cache
def _language(name: str) -> Language:
    if name == "javascript":
        import tree_sitter_javascript as grammar

        return Language(grammar.language())
    import tree_sitter_typescript as grammar

    if name == "tsx":
        return Language(grammar.language_tsx())
    return Language(grammar.language_typescript())


@cache
def _queries(name: str) -> tuple[Query, Query, Query]:
    lang = _language(name)
    text = _QUERY + (_TS_EXTRA if name != "javascript" else "")
    jsx = Query(lang, _JSX_QUERY) if name != "typescript" else Query(lang, "(program) @none")
    return Query(lang, text), jsx, Query(lang, _SCOPED_STRING_QUERY)


def _literal(node: Node) -> str | None:
    """The text of a string or substitution-free template literal."""
    if node.type == "template_string":
        if any(c.type == "template_substitution" for c in node.named_children):
            return None
    raw = node.text.decode("utf-8", errors="replace") if node.text else ""
    if len(raw) < 2:
        return None
    return raw[1:-1]


_TEMPLATE_PACKAGE = re.compile(r"^((?:@[a-z0-9][\w.-]*/)?[a-z0-9][\w.-]*)/")


def _template_package(node: Node) -> str | None:
    """The package a template literal's fixed start names in full, before its first
    substitution: `require.resolve(`@scope/wasms/out/${lang}.wasm`)` loads a file of
    @scope/wasms whatever `lang` is. Only the name is kept: the path is not known."""
    if node.type != "template_string":
        return None
    subs = [c for c in node.named_children if c.type == "template_substitution"]
    if not subs or not node.text:
        return None
    head = node.text[1 : subs[0].start_byte - node.start_byte].decode("utf-8", "replace")
    m = _TEMPLATE_PACKAGE.match(head)
    return m.group(1) if m else None


def _bare_name(spec: str) -> bool:
    """A literal that can only be a package name: no path below it, no file extension."""
    if spec.startswith((".", "/", "#", "@/")) or _FILE_LIKE.search(spec) or " " in spec:
        return False
    parts = spec.split("/")
    return len(parts) == (2 if spec.startswith("@") else 1) and all(parts)


def _has_type_token(node: Node) -> bool:
    return any(not c.is_named and c.type == "type" for c in node.children)


def _type_only_import(stmt: Node) -> bool:
    """`import type …`, `export type …` or an import whose every named binding is a type."""
    if _has_type_token(stmt):
        return True
    clause = next((c for c in stmt.named_children if c.type == "import_clause"), None)
    if clause is None:
        return False
    specs: list[Node] = []
    for c in clause.named_children:
        if c.type != "named_imports":
            return False  # a default or namespace binding is a value
        specs.extend(s for s in c.named_children if s.type == "import_specifier")
    return bool(specs) and all(_has_type_token(s) for s in specs)


def _in_type_context(node: Node) -> bool:
    parent = node.parent
    depth = 0
    while parent is not None and depth < 8:
        if parent.type in _TYPE_CONTEXTS:
            return True
        parent = parent.parent
        depth += 1
    return False


def _in_ambient_module(node: Node) -> bool:
    parent = node.parent
    while parent is not None:
        if parent.type == "ambient_declaration":
            return True
        parent = parent.parent
    return False


_VALUE_NODES = {"identifier", "shorthand_property_identifier"}


def _value_names(root: Node) -> set[str]:
    """Names a TypeScript file uses as values, outside its import statements (a qualified
    type's namespace, `ns.Type`, is a type use)."""
    out: set[str] = set()
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type == "import_statement":
            continue
        if node.type in _VALUE_NODES:
            parent = node.parent
            if not (parent is not None and parent.type == "nested_type_identifier"):
                out.add(_node_text(node))
            continue
        stack.extend(node.children)
    return out


def _bindings_unused_as_values(stmt: Node, value_names: set[str]) -> bool:
    """An import with bindings none of which the file uses as a value: TypeScript elides
    it from the output (TypeScript handbook, Modules reference, "Type-only imports and
    export elision"), so the module is needed only for its types."""
    if stmt.type != "import_statement":
        return False
    clause = next((c for c in stmt.named_children if c.type == "import_clause"), None)
    if clause is None:
        return False
    names: list[str] = []
    for c in clause.named_children:
        if c.type == "identifier":
            names.append(_node_text(c))
        elif c.type == "namespace_import":
            names.extend(_node_text(i) for i in c.named_children if i.type == "identifier")
        elif c.type == "named_imports":
            for spec in c.named_children:
                if spec.type != "import_specifier":
                    continue
                local = spec.child_by_field_name("alias") or spec.child_by_field_name("name")
                if local is not None:
                    names.append(_node_text(local))
    return bool(names) and not any(n in value_names for n in names)


def _augmentation_anchor(stmt: Node, spec: str, root: Node) -> bool:
    """`import '@vue/runtime-core'` with no bindings in a file that goes on to `declare
    module '@vue/runtime-core' { … }`: the import only turns the declaration into an
    augmentation of that module's types (TypeScript handbook, Declaration Merging, "Module
    augmentation"; unplugin-vue-components' generated components.d.ts), nothing runs."""
    if stmt.type != "import_statement" or any(c.type == "import_clause" for c in stmt.children):
        return False
    for node in root.named_children:
        if node.type != "ambient_declaration":
            continue
        for mod in node.named_children:
            name = mod.child_by_field_name("name") if mod.type == "module" else None
            if name is not None and _literal(name) == spec:
                return True
    return False


def _declared_global_value(node: Node) -> bool:
    """`declare global { const ref: typeof import('vue')['ref'] }`: a global *value* typed as
    a package's export is one a build plugin injects from that package (unplugin-auto-import's
    generated auto-imports.d.ts), so the package runs — unlike a type in `declare module`."""
    in_query = in_variable = False
    parent = node.parent
    while parent is not None:
        if parent.type == "type_query":
            in_query = True
        elif parent.type == "variable_declarator":
            in_variable = in_query
        elif parent.type == "ambient_declaration":
            return in_variable and not any(c.type == "module" for c in parent.named_children)
        elif parent.type in (
            "interface_declaration",
            "type_alias_declaration",
            "class_declaration",
        ):
            return False
        parent = parent.parent
    return False


def _names_a_key(string: Node | None) -> bool:
    """A string that is a property's name (`plugins['@scope/x']`, `{ '@scope/x': opts }`) or
    one side of an equality test names a key or a value compared against, nothing loaded."""
    parent = string.parent if string is not None else None
    if parent is None:
        return False
    if parent.type == "subscript_expression":
        return parent.child_by_field_name("index") == string
    if parent.type == "pair":
        return parent.child_by_field_name("key") == string
    if parent.type == "binary_expression":
        op = parent.child_by_field_name("operator")
        return op is not None and _node_text(op) in ("===", "==", "!==", "!=")
    if parent.type == "arguments" and parent.parent is not None:
        fn = parent.parent.child_by_field_name("function")
        if fn is not None and fn.type == "member_expression":
            prop = fn.child_by_field_name("property")
            return prop is not None and _node_text(prop) in _STRING_TESTS
    return False


# methods that test or search a text for a string (`params.includes('@scope/x')`)
_STRING_TESTS = {"includes", "startsWith", "endsWith", "indexOf", "lastIndexOf", "has"}


def _resolves_elsewhere(arg: Node) -> bool:
    """`require.resolve('x', { paths: [cwd] })` / `import.meta.resolve('x', parentURL)` look
    the name up from the given directories (the user's project), not from the package's own
    dependencies (Node's require.resolve options.paths and import.meta.resolve parent)."""
    nxt = arg.next_named_sibling
    while nxt is not None and nxt.type == "comment":
        nxt = nxt.next_named_sibling
    if nxt is None:
        return False
    if nxt.type != "object":  # import.meta.resolve(x, parent) / require.resolve(x, opts)
        return _node_text(nxt) not in ("import.meta.url", "__filename", "__dirname")
    for pair in nxt.named_children:
        if pair.type == "pair":
            key = pair.child_by_field_name("key")
            if key is not None and _node_text(key).strip("'\"") == "paths":
                return True
    return False


def _in_try(node: Node) -> bool:
    """Inside the block of a `try` statement: a load that may fail (optional dependency)."""
    child, parent = node, node.parent
    while parent is not None:
        if parent.type == "try_statement" and parent.child_by_field_name("body") == child:
            return True
        if parent.type in ("function_declaration", "program"):
            return False
        child, parent = parent, parent.parent
    return False


def _node_text(node: Node) -> str:
    return node.text.decode("utf-8", errors="replace") if node.text else ""


@dataclass(frozen=True)
class Use:
    """One module specifier a script uses, as `parse_source` reports it."""

    module: str
    line: int
    type_only: bool = False
    dynamic: bool = False  # `import()`/`require()` and other loads by a literal at run time
    optional: bool = False  # a dynamic load inside a `try` block
    facts: JsImportFacts = JsImportFacts()


def parse_source(text: str, grammar: str, line_offset: int = 0) -> list[Use]:
    """Raw uses in one script.

    A .js file the JavaScript grammar cannot read cleanly (Flow or TypeScript-like type
    annotations) is read again with the TSX grammar and the uses of both readings merged.
    """
    uses, has_error = _parse_uses(text, grammar, line_offset)
    if has_error and grammar == "javascript":
        seen = {(u.module, u.line) for u in uses}
        again, _ = _parse_uses(text, "tsx", line_offset)
        uses.extend(u for u in again if (u.module, u.line) not in seen)
    return uses


class _Script:
    """One parsed script and what reading its uses collects on the way."""

    def __init__(self, text: str, grammar: str, line_offset: int) -> None:
        self.text = text
        self.grammar = grammar
        self.line_offset = line_offset
        self.tree = Parser(_language(grammar)).parse(text.encode("utf-8"))
        self.elsewhere: set[tuple[str, int]] = set()  # names looked up from other directories
        self._value_names: set[str] | None = None

    def line_of(self, node: Node) -> int:
        return node.start_point[0] + 1 + self.line_offset

    def value_names(self) -> set[str]:
        """Identifiers the file uses as values (computed on first need)."""
        if self._value_names is None:
            self._value_names = _value_names(self.tree.root_node)
        return self._value_names


def _parse_uses(text: str, grammar: str, line_offset: int) -> tuple[list[Use], bool]:
    script = _Script(text, grammar, line_offset)
    query, _, _ = _queries(grammar)
    uses: list[Use] = []
    for _, caps in QueryCursor(query).matches(script.tree.root_node):
        use = _query_use(script, caps)
        if use is not None:
            uses.append(use)
    seen = {(u.module, u.line) for u in uses} | script.elsewhere
    uses.extend(_scoped_strings(script, seen))
    uses.extend(_jsdoc_imports(script, seen))
    uses.extend(_type_references(script))
    uses.extend(_jsx_use(script))
    uses.extend(_named_at_run_time(text, script.tree, line_offset))
    return _split_inline_loaders(uses), script.tree.root_node.has_error


def _query_use(script: _Script, caps: dict[str, list[Node]]) -> Use | None:
    """The use one match of the import query stands for, by the strategy of its capture."""
    arg = (caps.get("src") or caps.get("arg") or [None])[0]
    if arg is None:
        return None
    spec = _literal(arg) or _template_package(arg)
    if not spec:
        return None
    base = Use(module=spec, line=script.line_of(arg))
    for capture, strategy in _USE_STRATEGIES:
        if capture in caps:
            use = strategy(script, caps, arg, base)
            break
    else:
        use = base
    if use is not None and use.dynamic:
        use = replace(use, optional=_in_try(arg))
    return use


def _static_import(script: _Script, caps, arg: Node, base: Use) -> Use | None:
    """`import … from 'x'`, `import 'x'`, `export … from 'x'` (not inside `declare module`)."""
    stmt = caps["stmt"][0]
    if _in_ambient_module(stmt):
        return None
    elidable = script.grammar != "javascript" and _bindings_unused_as_values(
        stmt, script.value_names()
    )
    facts = JsImportFacts(
        augmentation=_augmentation_anchor(stmt, base.module, script.tree.root_node),
        elidable=elidable,
    )
    return replace(base, type_only=_type_only_import(stmt), facts=facts)


def _import_require(script: _Script, caps, arg: Node, base: Use) -> Use | None:
    """TypeScript's `import x = require('x')`: a plain value import."""
    return base


def _dynamic_import(script: _Script, caps, arg: Node, base: Use) -> Use | None:
    """`import('x')`: a type when written in a type position (`typeof import('x')`), unless
    that type declares a global value a build plugin injects."""
    node = caps["dyn"][0]
    type_only = _in_type_context(node)
    if type_only and _in_ambient_module(node):
        if not _declared_global_value(node):
            return None  # a type inside `declare module` augmentation: the user's to add
        return replace(base, dynamic=True, facts=JsImportFacts(global_value=True))
    return replace(base, dynamic=True, type_only=type_only)


def _function_call(script: _Script, caps, arg: Node, base: Use) -> Use | None:
    """`require('x')`, or a loader helper's bare package name (`resolveBin('jest')`)."""
    fn = _node_text(caps["fn"][0])
    if fn in CALL_FUNCTIONS:
        if arg.prev_named_sibling is not None:
            return None  # require's module is its first argument
        return replace(base, dynamic=True, facts=JsImportFacts(require=True))
    if HELPER_NAME.match(fn) and _bare_name(base.module):
        return replace(base, dynamic=True, facts=JsImportFacts(heuristic=True))
    return None


def _member_call(script: _Script, caps, arg: Node, base: Use) -> Use | None:
    """`require.resolve('x')`, `import.meta.resolve('x')`, test-runner module mocks, or a
    loader helper object's bare package name; a lookup from other directories is none."""
    obj = _node_text(caps["obj"][0])
    prop = _node_text(caps["prop"][0])
    if (obj, prop) in member_calls() or (obj == "import.meta" and prop == "resolve"):
        if arg.prev_named_sibling is not None:
            return None
        if prop == "resolve" and _resolves_elsewhere(arg):
            script.elsewhere.add((base.module, base.line))
            return None
        return replace(base, dynamic=True)
    if HELPER_NAME.match(obj) and "." not in obj and _bare_name(base.module):
        return replace(base, dynamic=True, facts=JsImportFacts(heuristic=True))
    return None


# capture name of the import query → the strategy that reads its match, tried in order
_USE_STRATEGIES = (
    ("stmt", _static_import),
    ("req", _import_require),
    ("dyn", _dynamic_import),
    ("call", _function_call),
    ("member", _member_call),
)


def _scoped_strings(script: _Script, seen: set[tuple[str, int]]) -> list[Use]:
    """Scoped package names written as plain strings (kept only as the mapping allows)."""
    _, _, scoped_query = _queries(script.grammar)
    out: list[Use] = []
    for node in QueryCursor(scoped_query).captures(script.tree.root_node).get("frag", []):
        spec = _node_text(node)
        line = script.line_of(node)
        if (spec, line) in seen or _in_ambient_module(node):
            continue
        seen.add((spec, line))
        # a value handed on (call argument, variable, property) rather than one entry of a
        # list of names the code compares against (`new Set(["@scope/a", "@scope/b"])`)
        string = node.parent
        if _names_a_key(string):
            continue
        in_call = bool(string and string.parent and string.parent.type != "array")
        facts = JsImportFacts(string_literal=True, single_value=in_call)
        out.append(Use(spec, line, dynamic=True, facts=facts))
    return out


def _jsdoc_imports(script: _Script, seen: set[tuple[str, int]]) -> list[Use]:
    """JSDoc type imports of a JavaScript file."""
    text = script.text
    if script.grammar != "javascript" or "@" not in text:
        return []
    out: list[Use] = []
    for m in _JSDOC_IMPORT.finditer(text):
        spec = m.group(1) or m.group(2)
        line = text.count("\n", 0, m.start()) + 1 + script.line_offset
        if (spec, line) not in seen:
            seen.add((spec, line))
            # counts only where TypeScript checks this JS (see the mapping)
            facts = JsImportFacts(jsdoc="@ts-check" not in text)
            out.append(Use(spec, line, type_only=True, facts=facts))
    return out


def _type_references(script: _Script) -> list[Use]:
    """`/// <reference types="x" />` directives."""
    text = script.text
    return [
        Use(
            m.group(1),
            text.count("\n", 0, m.start()) + 1 + script.line_offset,
            type_only=True,
            facts=JsImportFacts(types_reference=True),
        )
        for m in _TRIPLE_SLASH.finditer(script.text)
    ]


def _jsx_use(script: _Script) -> list[Use]:
    """One use for a file's JSX: its `@jsxImportSource` pragma, or "" for the mapping."""
    if script.grammar == "typescript":
        return []
    _, jsx_query, _ = _queries(script.grammar)
    for _, caps in QueryCursor(jsx_query).matches(script.tree.root_node):
        pragma = _JSX_PRAGMA.search(script.text)
        module = pragma.group(1) if pragma else ""
        return [Use(module, script.line_of(caps["jsx"][0]), facts=JsImportFacts(jsx=True))]
    return []


_NODE_MODULES_IN_STRING = re.compile(
    rb"(?:^|[/'\"`])node_modules/((?:@[a-z0-9][\w.-]*/)?[a-z0-9][\w.-]*)/[^'\"`\s*]"
)  # a file inside the package: a bare 'node_modules/vue/' prefix is a pattern to match
_VIEW_ENGINE = re.compile(
    rb"""\.set\(\s*['"]view engine['"]\s*,\s*['"]([a-z0-9][\w.-]*)['"]\s*\)"""
)
_STRING_NODES = {"string_fragment", "string", "template_string"}
# pino loads a transport's `target` by module name in a worker thread (pino documentation,
# Transports: `transport: { target: 'pino-pretty' }`, `targets: [{ target: ... }]`,
# `pino.transport({ target })`); Fastify hands its `logger` options to pino.
_TRANSPORT_TARGET = re.compile(
    rb"""\btarget\s*:\s*['"]((?:@[a-z0-9][\w.-]*/)?[a-z0-9][\w.-]*(?:/[\w.-]+)*)['"]"""
)


def _named_at_run_time(text: str, tree, line_offset: int) -> list[Use]:
    """Packages the code reaches by name without importing them (heuristic uses):
    - a path into node_modules in a string (an Express app serving
      'node_modules/bootstrap/dist/js/bootstrap.min.js' to browsers);
    - Express's `app.set('view engine', 'pug')`, whose renderer Express require()s by that
      name (Express guide, "Using template engines"), unless `app.engine()` registers one;
    - a pino transport's `target` module."""
    data = text.encode("utf-8")
    out: list[Use] = []
    for pattern, marker in (
        (_NODE_MODULES_IN_STRING, b"node_modules/"),
        (_VIEW_ENGINE, b"view engine"),
        (_TRANSPORT_TARGET, b"transport"),
    ):
        if marker not in data:
            continue
        for m in pattern.finditer(data):
            node = tree.root_node.descendant_for_byte_range(m.start(1), m.end(1))
            if node is None or node.type not in _STRING_NODES:
                continue
            if pattern is _TRANSPORT_TARGET and not _in_transport(node):
                continue
            if pattern is _VIEW_ENGINE and _engine_registered(data, m.group(1)):
                continue
            out.append(
                Use(
                    m.group(1).decode("utf-8", errors="replace"),
                    node.start_point[0] + 1 + line_offset,
                    dynamic=True,
                    facts=JsImportFacts(heuristic=True),
                )
            )
    return out


def _engine_registered(data: bytes, ext: bytes) -> bool:
    """`app.engine('.html', ejs.__express)` registers the renderer for that extension, so
    Express require()s nothing by the view engine's name (Express API, app.engine: "By
    default, Express will require() the engine based on the file extension")."""
    return re.search(rb"\.engine\(\s*['\"]\.?" + re.escape(ext) + rb"['\"]", data) is not None


def _in_transport(node) -> bool:
    """The string is the `target` of a pino transport: an object that is the value of a
    `transport` key or assigned to one, an entry of a `targets` list, or the argument of
    `….transport(…)`."""
    while node is not None and node.type != "pair":
        node = node.parent
    obj = node.parent if node is not None else None
    holder = obj.parent if obj is not None and obj.type == "object" else None
    if holder is None:
        return False
    if holder.type == "array" and holder.parent is not None and holder.parent.type == "pair":
        return _pair_key(holder.parent) == "targets"
    if holder.type == "pair":
        return _pair_key(holder) == "transport"
    if holder.type == "assignment_expression":  # `opts.logger.transport = { target }`
        left = holder.child_by_field_name("left")
        return left is not None and _node_text(left).split(".")[-1] == "transport"
    if holder.type == "arguments" and holder.parent is not None:
        fn = holder.parent.child_by_field_name("function")
        return fn is not None and _node_text(fn).split(".")[-1] == "transport"
    return False


def _pair_key(pair) -> str:
    key = pair.child_by_field_name("key")
    return _node_text(key).strip("'\"") if key is not None else ""


def _split_inline_loaders(uses: list[Use]) -> list[Use]:
    """webpack's inline loader syntax (`require('script-loader!jsonlint')`,
    `import '!!raw-loader?esModule=false!./a.txt'`) names each loader and the resource:
    one use per segment (webpack docs, "Loaders: inline")."""
    out: list[Use] = []
    for use in uses:
        spec = use.module
        if "!" not in spec or ":" in spec or use.facts.jsx:
            out.append(use)
            continue
        for part in spec.lstrip("-!").split("!"):
            part = part.split("?", 1)[0].strip()
            if part:
                out.append(replace(use, module=part))
    return out


_FENCE = re.compile(r"^\s{0,3}(```|~~~)")
_ESM_LINE = re.compile(r"^(import|export)\b")


def _mdx_blocks(text: str) -> list[tuple[str, str, int]]:
    """MDX's ESM: paragraphs that start with `import`/`export` at the margin, outside
    fenced code (where an import is an example shown to the reader, not code)."""
    out: list[tuple[str, str, int]] = []
    fence: str | None = None
    block: list[str] = []
    start = 0
    for i, line in enumerate([*text.splitlines(), ""]):
        m = _FENCE.match(line)
        if fence is not None:
            if m and m.group(1) == fence:
                fence = None
            continue
        if block:
            if line.strip():
                block.append(line)
                continue
            out.append(("\n".join(block), "tsx", start))
            block = []
        if m:
            fence = m.group(1)
        elif _ESM_LINE.match(line):
            block, start = [line], i
    return out


def _embedded_scripts(text: str, ext: str) -> list[tuple[str, str, int]]:
    """(script text, grammar, line offset) for each script block of a Vue/Svelte/Astro
    file, and the ESM paragraphs of an MDX file."""
    if ext == ".mdx":
        return _mdx_blocks(text)
    out: list[tuple[str, str, int]] = []
    if ext == ".astro":
        fm = _ASTRO_FRONTMATTER.match(text)
        if fm:
            out.append((fm.group(1), "tsx", text.count("\n", 0, fm.start(1))))
    for m in _SCRIPT_BLOCK.finditer(text):
        attrs = m.group(1)
        lang = re.search(r"\blang\s*=\s*[\"']?(\w+)", attrs)
        kind = (lang.group(1).lower() if lang else "js") if lang else "js"
        if ext == ".astro" and not lang:
            kind = "ts"  # Astro processes <script> as TypeScript
        grammar = {"ts": "typescript", "tsx": "tsx", "jsx": "javascript"}.get(kind, "javascript")
        if kind not in ("js", "ts", "tsx", "jsx", "javascript", "typescript"):
            continue
        out.append((m.group(2), grammar, text.count("\n", 0, m.start(2))))
    return out


_BUNDLE_MARKERS = ("__webpack_require__", "/******/", "//# sourceMappingURL=data:")


def looks_generated(text: str) -> bool:
    """Minified or bundled output (a committed dist file, a vendored library): its imports
    are the bundle's own, not the project's. Told by very long lines or bundler markers."""
    if len(text) < 2000:
        return False
    lines = text.count("\n") + 1
    if len(text) / lines > 300:
        return True
    head = text[:4000]
    return any(m in head for m in _BUNDLE_MARKERS[:2])


ANALYZER = "js-uses"  # its entries' name in the per-file analysis cache


def _kept_uses(ctx: Context, script: str, grammar: str, offset: int) -> list[Use]:
    """`parse_source` through the per-file analysis cache (a warm run parses nothing);
    a script the grammar fails on raises again, never kept."""
    key = content_key(ANALYZER, script, grammar, offset)
    found, uses = ctx.files.get(ANALYZER, key)
    if found:
        return uses
    uses = parse_source(script, grammar, offset)
    ctx.files.put(ANALYZER, key, uses)
    return uses


def analyze_file(
    project: Project, file: SourceFile, ctx: Context, grammar: str | None = None
) -> list[ImportRef]:
    text = read_source(project, file.path, ctx.diagnostics)
    if text is None:
        return []
    ext = PurePosixPath(file.path).suffix.lower()
    if looks_generated(text):
        ctx.info("minified or bundled code, skipped", file.path)
        return []
    if grammar is not None:
        blocks = [(text, grammar, 0)]
    elif ext in EMBEDDED_EXTS:
        blocks = _embedded_scripts(text, ext)
    elif ext == ".html":
        blocks = _html_module_scripts(text)
    else:
        grammar = GRAMMAR_BY_EXT.get(ext)
        if grammar is None:
            return []
        blocks = [(text, grammar, 0)]
    refs: list[ImportRef] = []
    if ext in component_runtimes():
        # a component file compiles to code that imports its framework's runtime
        refs.append(
            ImportRef(
                module=component_runtimes()[ext],
                file=file.path,
                line=1,
                language=LANGUAGE,
                kind=file.kind,
                facts=JsImportFacts(component=True),
            )
        )
    typescript = file.path.endswith((".ts", ".tsx", ".mts", ".cts"))
    for script, grammar, offset in blocks:
        try:
            uses = _kept_uses(ctx, script, grammar, offset)
        except (ValueError, RuntimeError) as exc:  # a grammar failure, never a traceback
            ctx.warn(f"could not parse: {exc}", file.path)
            continue
        for use in uses:
            facts = use.facts
            if facts.elidable and not typescript:
                # a component file's template uses its imports too (Vue, Svelte, Astro)
                facts = replace(facts, elidable=False)
            refs.append(
                ImportRef(
                    module=use.module,
                    file=file.path,
                    line=use.line,
                    language=LANGUAGE,
                    kind=file.kind,
                    type_only=use.type_only,
                    dynamic=use.dynamic,
                    optional=use.optional,
                    relative=use.module.startswith("."),
                    facts=facts,
                )
            )
    return refs


def _bin_scripts(project: Project) -> list[tuple[SourceFile, str]]:
    """Executables package.json `bin` names that scan did not list: extension-less scripts
    (`bin/cli` with a `#!/usr/bin/env node` line) and files in a `bin/` folder, which scan
    skips as build output. Returned with the grammar that reads them."""
    known = {f.path for f in project.files}
    out: list[tuple[SourceFile, str]] = []
    for m in project.manifests:
        if m.format != "package_json" or m.parse_error:
            continue
        bin_ = m.data.get("bin")
        targets = [bin_] if isinstance(bin_, str) else list((bin_ or {}).values())
        for target in targets:
            if not isinstance(target, str):
                continue
            rel = str(PurePosixPath(str(PurePosixPath(m.directory or ".") / target)))
            rel = rel.removeprefix("./")
            if rel in known or ".." in PurePosixPath(rel).parts:
                continue
            grammar = GRAMMAR_BY_EXT.get(PurePosixPath(rel).suffix.lower())
            try:
                with open(project.abspath(rel), "rb") as fh:
                    first = fh.readline(200)
            except OSError:
                continue
            if grammar is None and first.startswith(b"#!") and b"node" in first:
                grammar = "javascript"
            if grammar is not None:
                known.add(rel)
                out.append((SourceFile(rel, LANGUAGE, FileKind.SOURCE), grammar))
    return out


def analyze(project: Project, ctx: Context) -> list[ImportRef]:
    refs: list[ImportRef] = []
    for file in project.files_of(LANGUAGE):
        refs.extend(analyze_file(project, file, ctx))
    for file, grammar in _bin_scripts(project):
        refs.extend(analyze_file(project, file, ctx, grammar=grammar))
    for file in _html_entries(project):
        refs.extend(analyze_file(project, file, ctx))
    return refs


def _html_entries(project: Project) -> list[SourceFile]:
    """The index.html beside a package.json: the entry point Vite (and Parcel) build the
    app from, whose inline `<script type="module">` is bundled like any module (Vite guide,
    "index.html and Project Root")."""
    known = {f.path for f in project.files}
    out: list[SourceFile] = []
    for m in project.manifests:
        if m.format != "package_json" or m.parse_error:
            continue
        rel = f"{m.directory}/index.html" if m.directory else "index.html"
        if rel not in known and project.abspath(rel).is_file():
            known.add(rel)
            out.append(SourceFile(rel, LANGUAGE, classify(rel)))
    return out


_MODULE_TYPE = re.compile(r"""\btype\s*=\s*["']?module\b""", re.I)
_SRC_ATTR = re.compile(r"\bsrc\s*=", re.I)
_IMPORT_MAP = re.compile(r"""<script\b[^>]*\btype\s*=\s*["']?importmap""", re.I)


def _html_module_scripts(text: str) -> list[tuple[str, str, int]]:
    """Inline module scripts of an HTML entry. A bare specifier there resolves only through
    a bundler; a page with an import map resolves its names to URLs instead, and so needs
    no package."""
    if _IMPORT_MAP.search(text):
        return []
    return [
        (m.group(2), "javascript", text.count("\n", 0, m.start(2)))
        for m in _SCRIPT_BLOCK.finditer(text)
        if _MODULE_TYPE.search(m.group(1)) and not _SRC_ATTR.search(m.group(1))
    ]
