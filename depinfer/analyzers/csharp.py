"""C# analyzer: .cs files → `ImportRef`s, with tree-sitter-c-sharp.

What it records, each as an ImportRef whose typed facts (depinfer/facts/csharp.py) say
which (`CsRefFacts.kind`):
- "using": `using N;`, `global using N;`, `using static N.T;`, `using A = N.T;` and the
  `<Using Include>` items of the project and its Directory.Build.props;
- "qualified": fully-qualified names written in code (`Newtonsoft.Json.JsonConvert`);
- "attribute": attribute names (`[Fact]`, `[TestMethod]`, `[ApiController]`);
- a `CsFileFacts` summary per file: identifiers used, `A.B` member pairs, namespaces and
  types it declares. Mapping and rules use these to tell split packages apart
  (`UseSqlite` → the Sqlite provider) and to find which project's types another uses.
Every ref's facts name `project`, the .csproj that compiles the file. Razor files
(.razor, .cshtml) give their `@using` lines, the names they use and their component class.
"""

from __future__ import annotations

import re
from functools import lru_cache

from depinfer.analyzers.csharp_layout import CsProject, build_layout
from depinfer.context import Context
from depinfer.facts.csharp import CsFileFacts, CsRefFacts, ref_kind
from depinfer.filecache import content_key
from depinfer.model import FileKind, ImportRef, Project
from depinfer.scan import read_source

_TYPE_DECLS = {
    "class_declaration",
    "struct_declaration",
    "interface_declaration",
    "enum_declaration",
    "record_declaration",
    "record_struct_declaration",
    "delegate_declaration",
}


# Syntax of newer C# versions that compiles for older targets only with polyfilled types
# (IsExternalInit, RequiredMemberAttribute, Index/Range): C# language reference.
_LANGUAGE_FEATURES = {
    "record_declaration": "record",
    "record_struct_declaration": "record",
    "range_expression": "range",
    "tuple_type": "tuple",
    "tuple_expression": "tuple",
    "tuple_pattern": "tuple",
}


# Declarations whose `name` is a member (not a type): `Context` in `ResilienceContext
# Context => …` names a property, and later `Context.X` most likely reads it.
_MEMBER_DECLS = {
    "property_declaration",
    "method_declaration",
    "event_declaration",
    "variable_declarator",
    "enum_member_declaration",
    "parameter",
    "local_function_statement",
}
# Parents under which an identifier can only be a type.
_TYPE_PARENTS = {
    "type_argument_list",
    "base_list",
    "generic_name",
    "array_type",
    "nullable_type",
    "pointer_type",
    "type_parameter_constraint",
    "qualified_name",
}


# the only fields whose role the analyzer asks about
_ROLES = ("name", "type", "returns", "function", "left")


def _role(node) -> str | None:
    """The field (`name`, `type`, `returns`, `function`) under which `node` sits in its
    parent; asked by field, so a long argument list is not scanned for every name."""
    parent = node.parent
    if parent is None:
        return None
    for field_name in _ROLES:
        child = parent.child_by_field_name(field_name)
        if child is not None and child.id == node.id:
            return field_name
    return None


_MANY = 99  # a `params` array takes any number of arguments


def _arity(params) -> tuple[int, int]:
    """(fewest, most) arguments an extension method takes at a call, `this` excluded."""
    fewest = most = 0
    for p in params.named_children[1:]:
        if p.type != "parameter":
            if p.type != "comment":
                most = _MANY  # `params T[] rest`
            continue
        if any(c.type == "modifier" and c.text == b"params" for c in p.children):
            most = _MANY
            continue
        most += 1
        if not any(c.type == "=" or c.type == "equals_value_clause" for c in p.children):
            fewest += 1
    return fewest, max(most, fewest)


def _initialized_member(node, parent, role: str | None) -> bool:
    """`new Options { LoggerFactory = f }`: the name set in an object initializer is a
    member of the created object, not a type."""
    return (
        role == "left"
        and parent.type == "assignment_expression"
        and parent.parent is not None
        and parent.parent.type == "initializer_expression"
    )


@lru_cache(maxsize=1)
def _parser():
    import tree_sitter_c_sharp
    from tree_sitter import Language, Parser

    return Parser(Language(tree_sitter_c_sharp.language()))


_DOTTED = re.compile(rb"[A-Za-z_@][A-Za-z0-9_]*(?:\.[A-Za-z_@][A-Za-z0-9_]*)*")


def _name(node) -> str:
    """Dotted text of a name node without generic arguments or whitespace."""
    if node is None:
        return ""
    if node.type == "identifier":
        return node.text.decode("utf-8", "replace")
    if node.type in ("qualified_name", "member_access_expression"):
        raw = node.text
        if _DOTTED.fullmatch(raw):  # the common case, without walking the children
            return raw.decode("utf-8", "replace").replace("@", "")
    if node.type == "generic_name":
        for c in node.children:
            if c.type == "identifier":
                return c.text.decode("utf-8", "replace")
        return ""
    if node.type in ("qualified_name", "alias_qualified_name"):
        parts = [_name(c) for c in node.named_children]
        return ".".join(p for p in parts if p and p != "global")
    if node.type == "member_access_expression":
        parts = [_name(c) for c in node.named_children]
        if any(not p for p in parts):
            return ""
        return ".".join(parts)
    return ""


# `Namespace.NameAttribute` as a generator spells an attribute's metadata name
_ATTRIBUTE_METADATA = re.compile(r"[A-Z]\w*(?:\.[A-Z]\w*)*\.[A-Z]\w*Attribute")


class _FileWalk:
    """What one walk over a C# syntax tree gathers; `HANDLERS` decide per node type."""

    def __init__(self, ref) -> None:
        self.ref = ref  # records a `using` as soon as it is seen
        self.identifiers: set[str] = set()
        self.features: set[str] = set()  # language features older targets need polyfills for
        # extension method (namespace, name) -> [(fewest, most arguments)] of its overloads
        self.arity: dict[tuple[str, str], list[tuple[int, int]]] = {}
        self.call_arity: dict[str, set[int]] = {}  # member call name -> argument counts seen
        self.pairs: set[str] = set()
        self.declared_ns: set[str] = set()
        self.types: list[tuple[str, str, bool]] = []  # (namespace, name, public)
        self.qualified: dict[str, int] = {}
        self.attributes: dict[str, int] = {}
        self.extensions: set[tuple[str, str]] = set()  # (namespace, extension method name)
        self.attribute_names: set[str] = set()  # "Ns.NameAttribute" string literals
        self.members: set[str] = set()  # properties, fields, methods... this file declares
        self.typed: set[str] = set()  # names written where only a type can stand
        self.accessed: set[str] = set()  # `x.Name`: a member of something (or an extension)
        self.standalone: set[str] = set()  # names written anywhere else
        self.called: set[str] = set()  # `x.Name(…)`
        self.nested: set[str] = set()  # types declared inside other types
        self.stack: list[tuple[object, str]] = []

    def run(self, root) -> None:
        """Walk the tree depth-first, in source order, with each node's namespace."""
        # A file-scoped namespace applies to the top-level siblings that follow it.
        current = ""
        for child in root.children:
            if child.type == "file_scoped_namespace_declaration":
                current = _name(child.child_by_field_name("name"))
                if current:
                    self.declared_ns.add(current)
                continue
            self.stack.append((child, current))
        self.stack.reverse()
        while self.stack:
            node, ns = self.stack.pop()
            if node.type not in ("using_directive", "namespace_declaration"):
                self.feature(node)
            handler = HANDLERS.get(node.type)
            if handler is not None and handler(self, node, ns):
                continue  # the handler took the node and whatever it needed below it
            for c in reversed(node.children):
                self.stack.append((c, ns))

    def feature(self, node) -> None:
        """Newer-language syntax (records, ranges, init, required …) the node spells."""
        t = node.type
        if t in _LANGUAGE_FEATURES:
            self.features.add(_LANGUAGE_FEATURES[t])
        elif t == "accessor_declaration" and any(c.type == "init" for c in node.children):
            self.features.add("init")
        elif t == "modifier" and node.text == b"required":
            self.features.add("required")
        elif t == "prefix_unary_expression" and node.children and node.children[0].type == "^":
            self.features.add("index")

    def using(self, node, ns: str) -> bool:
        """`using …;`: recorded as its own ref, with the namespace it sits in."""
        _using(node, self.ref, ns)
        return True

    def namespace(self, node, ns: str) -> bool:
        """`namespace A.B { … }`: its members are walked inside the joined namespace."""
        inner = _name(node.child_by_field_name("name"))
        full = f"{ns}.{inner}" if ns and inner else inner or ns
        if full:
            self.declared_ns.add(full)
        name_node = node.child_by_field_name("name")
        for c in reversed(node.children):
            if name_node is None or c.id != name_node.id:
                self.stack.append((c, full))
        return True

    def type_decl(self, node, ns: str) -> bool:
        """A class, struct, record …: a top-level type of the file or a nested one."""
        name_node = node.child_by_field_name("name")
        if name_node is not None:
            mods = {c.text.decode() for c in node.children if c.type == "modifier"}
            is_nested = (
                node.parent is not None
                and node.parent.type == "declaration_list"
                and (node.parent.parent is not None and node.parent.parent.type in _TYPE_DECLS)
            )
            name = name_node.text.decode("utf-8", "replace")
            if not is_nested:
                self.types.append((ns, name, "public" in mods))
            else:
                # a test class's own `Source`/`Dest`: uses in this file mean it
                self.nested.add(name)
        return False

    def method(self, node, ns: str) -> bool:
        """A non-private `this`-parameter method: an extension method, with its arities."""
        params = node.child_by_field_name("parameters")
        first = params.named_children[0] if params is not None and params.named_children else None
        mods = {c.text for c in node.children if c.type == "modifier"}
        if (
            first is not None
            and b"private" not in mods
            and any(c.type == "modifier" and c.text == b"this" for c in first.children)
        ):
            name_node = node.child_by_field_name("name")
            if name_node is not None:
                name = name_node.text.decode("utf-8", "replace")
                self.extensions.add((ns, name))
                self.arity.setdefault((ns, name), []).append(_arity(params))
        return False

    def attribute(self, node, ns: str) -> bool:
        """`[Name(args)]`: the attribute, its qualified name, then only its arguments."""
        name = _name(node.child_by_field_name("name"))
        if not name:
            return False
        short = name.rsplit(".", 1)[-1]
        if short not in self.attributes:
            self.attributes[short] = node.start_point[0] + 1
        if "." in name:
            self.qualified.setdefault(name, node.start_point[0] + 1)
        # `[Command]` names CommandAttribute: the bare name is not a use of `Command`
        self.identifiers.add(f"{short}Attribute")
        args = node.child_by_field_name("arguments") or next(
            (c for c in node.children if c.type == "attribute_argument_list"), None
        )
        if args is not None:
            self.stack.append((args, ns))
        return True

    def qualified_name(self, node, ns: str) -> bool:
        """`A.B.C` in a type position: a qualified name, nothing below it."""
        name = _name(node)
        if name:
            self.qualified.setdefault(name, node.start_point[0] + 1)
        return True

    def string_literal(self, node, ns: str) -> bool:
        """A string spelling an attribute's metadata name ("Refit.GetAttribute")."""
        # a source generator finds the attributes it acts on by metadata name: which of
        # this repository's attributes it reads
        m = _ATTRIBUTE_METADATA.fullmatch(node.text.decode("utf-8", "replace").strip('@"'))
        if m:
            self.attribute_names.add(m.group(0))
        return True

    def member_access(self, node, ns: str) -> bool:
        """`X.Y.Z` in code: a qualified name when capitalised, and its `Y.Z` pair."""
        name = _name(node)
        if name and name[0].isupper():
            self.qualified.setdefault(name, node.start_point[0] + 1)
        nm = node.child_by_field_name("name")
        ex = node.child_by_field_name("expression")
        if nm is not None and ex is not None:
            if ex.type == "member_access_expression":
                last = _name(ex.child_by_field_name("name"))
            elif ex.type == "invocation_expression":
                last = ""
            else:
                last = _name(ex).rsplit(".", 1)[-1] if _name(ex) else ""
            if last:
                self.pairs.add(f"{last}.{_name(nm)}")
        return False

    def invocation(self, node, ns: str) -> bool:
        """`x.Name(a, b)` / `x.Name<T>(a)`: how many arguments a member call passes."""
        fn = node.child_by_field_name("function")
        args = node.child_by_field_name("arguments")
        if fn is not None and fn.type == "member_access_expression" and args is not None:
            nm = fn.child_by_field_name("name")
            if nm is not None and nm.type == "generic_name":
                nm = next((c for c in nm.children if c.type == "identifier"), None)
            if nm is not None:
                n = sum(1 for c in args.named_children if c.type == "argument")
                self.call_arity.setdefault(nm.text.decode("utf-8", "replace"), set()).add(n)
        return False

    def identifier(self, node, ns: str) -> bool:
        """A capitalised name: declared member, member use, call, type or plain use."""
        txt = node.text.decode("utf-8", "replace")
        if not txt[:1].isupper():
            return True
        parent = node.parent
        role = _role(node)
        if role == "name" and parent is not None and parent.type in _MEMBER_DECLS:
            self.members.add(txt)  # declares a member: no use of anything
            return True
        if parent is not None and _initialized_member(node, parent, role):
            return True  # sets a member of the created object: no use of anything
        self.identifiers.add(txt)
        if parent is not None and (
            (role == "name" and parent.type == "member_access_expression")
            or (role == "function" and parent.type == "invocation_expression")
        ):
            self.accessed.add(txt)  # `x.Name`, `Name(…)`: a member, never a type
            grand = parent.parent
            if (
                parent.type == "member_access_expression"
                and grand is not None
                and grand.type == "invocation_expression"
                and _role(parent) == "function"
            ):
                self.called.add(txt)  # `x.Name(…)`: an extension method may be meant
        else:
            self.standalone.add(txt)
        if role in ("type", "returns") or (parent is not None and parent.type in _TYPE_PARENTS):
            self.typed.add(txt)
        return True

    def summary(self, project_path: str | None) -> CsFileFacts:
        """The file's summary facts, once the walk is done."""
        # `Context.IsSynchronous` next to a declared `Context` property reads the property:
        # a name this file declares as a member counts as a type only where a type must stand
        identifiers = self.identifiers - (self.members - self.typed)
        return CsFileFacts(
            project=project_path,
            identifiers=tuple(sorted(identifiers)),
            pairs=tuple(sorted(self.pairs)),
            namespaces=tuple(sorted(self.declared_ns)),
            types=tuple(self.types),
            extensions=tuple(sorted(self.extensions)),
            member_only=tuple(sorted(self.accessed - self.standalone - self.members - self.called)),
            called_only=tuple(sorted(self.called - self.standalone - self.members)),
            called=tuple(sorted(self.called)),
            nested=tuple(sorted(self.nested)),
            attribute_names=tuple(sorted(self.attribute_names)),
            features=tuple(sorted(self.features)),
            extension_arity=tuple((ns, n, tuple(a)) for (ns, n), a in sorted(self.arity.items())),
            call_arity=tuple((k, tuple(sorted(v))) for k, v in self.call_arity.items()),
        )


# node type -> the walk's handler; it returns True when the node's children are done
HANDLERS = {
    "using_directive": _FileWalk.using,
    "namespace_declaration": _FileWalk.namespace,
    **dict.fromkeys(_TYPE_DECLS, _FileWalk.type_decl),
    "method_declaration": _FileWalk.method,
    "attribute": _FileWalk.attribute,
    "qualified_name": _FileWalk.qualified_name,
    "string_literal": _FileWalk.string_literal,
    "member_access_expression": _FileWalk.member_access,
    "invocation_expression": _FileWalk.invocation,
    "identifier": _FileWalk.identifier,
}


def analyze_text(text: str, rel: str, kind: FileKind, project_path: str | None) -> list[ImportRef]:
    """ImportRefs of one C# source text (the unit the tests exercise)."""
    tree = _parser().parse(text.encode("utf-8"))
    refs: list[ImportRef] = []

    def ref(module: str, line: int, facts: CsRefFacts | CsFileFacts) -> None:
        refs.append(ImportRef(module, rel, line, "csharp", kind, facts=facts))

    def use(module: str, line: int, use_kind: str, **more) -> None:
        ref(module, line, CsRefFacts(kind=use_kind, project=project_path, **more))

    walk = _FileWalk(use)
    walk.run(tree.root_node)
    if any(c.type == "global_statement" for c in tree.root_node.children):
        # top-level statements compile into a `Program` class in the global namespace
        walk.types.append(("", "Program", True))
    for name, line in walk.qualified.items():
        use(name, line, "qualified")
    for name, line in walk.attributes.items():
        use(name, line, "attribute")
    if tree.root_node.has_error:
        use("", 1, "syntax_error")
    ref("", 0, walk.summary(project_path))
    return refs


_RAZOR_USING = re.compile(r"^\s*@using\s+(?:static\s+)?(?:\w+\s*=\s*)?([A-Za-z_][\w.]*)", re.M)
_RAZOR_NAMESPACE = re.compile(r"^\s*@namespace\s+([A-Za-z_][\w.]*)", re.M)
_RAZOR_NAME = re.compile(r"\b[A-Z][A-Za-z0-9_]*\b")


def analyze_razor(text: str, rel: str, kind: FileKind, cs: CsProject) -> list[ImportRef]:
    """Razor components and views: `@using` lines (in `_Imports.razor` they apply to the
    folder, taken here as the project), the names they use, and the component class a
    `.razor` file declares (named after the file, in its `@namespace` or folder namespace).
    The C# inside `@code` blocks is read for names only."""
    refs: list[ImportRef] = []
    for m in _RAZOR_USING.finditer(text):
        line = text.count("\n", 0, m.start()) + 1
        facts = CsRefFacts(
            kind="using", project=cs.path, global_using=rel.endswith("_Imports.razor")
        )
        refs.append(ImportRef(m.group(1), rel, line, "csharp", kind, facts=facts))
    types = []
    namespaces = []
    if rel.endswith(".razor") and not rel.endswith("_Imports.razor"):
        m = _RAZOR_NAMESPACE.search(text)
        if m:
            ns = m.group(1)
        else:
            folder = rel[len(cs.directory) + 1 :] if cs.directory else rel
            parts = [p for p in folder.split("/")[:-1] if p.isidentifier()]
            ns = ".".join([cs.root_namespace, *parts]) if cs.root_namespace else ""
        stem = rel.rsplit("/", 1)[-1].split(".", 1)[0]
        if stem.isidentifier():
            types.append((ns, stem, True))
            if ns:
                namespaces.append(ns)
    summary = CsFileFacts(
        project=cs.path,
        identifiers=tuple(sorted(set(_RAZOR_NAME.findall(text)))),
        namespaces=tuple(namespaces),
        types=tuple(types),
    )
    refs.append(ImportRef("", rel, 0, "csharp", kind, facts=summary))
    return refs


def _using(node, ref, enclosing: str = "") -> None:
    is_global = any(c.type == "global" for c in node.children)
    is_static = any(c.type == "static" for c in node.children)
    alias = None
    target = None
    named = [c for c in node.named_children if c.type != "global"]
    has_eq = any(c.type == "=" for c in node.children)
    if has_eq and len(named) >= 2:
        alias = _name(named[0])
        target = named[-1]
    elif named:
        target = named[-1]
    module = _name(target) if target is not None else ""
    if not module:
        return
    guard = _guard(node)
    # `using global::N;` names N from the global namespace, never relative to the enclosing one
    rooted = target is not None and target.text.lstrip().startswith(b"global::")
    if rooted:
        enclosing = ""
    ref(
        module,
        node.start_point[0] + 1,
        "using",
        global_using=is_global,
        static=is_static,
        alias=alias or None,
        guard=tuple((symbol, wanted) for symbol, wanted in guard),
        **({"enclosing": enclosing} if enclosing and not is_global else {}),
    )


def _guard(node) -> list[list]:
    """The `#if SYMBOL` / `#if !SYMBOL` branches a directive sits in, as [symbol, defined]
    pairs (`#else` negates its `#if`); conditions of any other shape, and `#elif` chains,
    are left out: the directive then counts as it always did."""
    out: list[list] = []
    child, parent = node, node.parent
    while parent is not None:
        if parent.type == "preproc_if":
            # every #elif chain ends at its #if through a preproc_elif child
            simple = _simple_condition(parent.child_by_field_name("condition"))
            if simple is None or child.type == "preproc_elif":
                return []
            symbol, wanted = simple
            out.append([symbol, wanted != (child.type == "preproc_else")])
        child, parent = parent, parent.parent
    return out


def _simple_condition(cond):
    if cond is None:
        return None
    if cond.type == "identifier":
        return cond.text.decode("utf-8", "replace"), True
    if cond.type in ("unary_expression", "prefix_unary_expression") and cond.text.startswith(b"!"):
        inner = cond.named_children[0] if cond.named_children else None
        if inner is not None and inner.type == "identifier":
            return inner.text.decode("utf-8", "replace"), False
    return None


ANALYZER = "csharp-refs"  # its entries' name in the per-file analysis cache


def analyze(project: Project, ctx: Context) -> list[ImportRef]:
    layout = build_layout(project)
    refs: list[ImportRef] = []
    for cs in layout:
        refs.extend(_project_refs(cs))
        for f in cs.files:
            text = read_source(project, f.path, ctx.diagnostics)
            if text is None:
                continue
            if f.path.endswith((".razor", ".cshtml")):
                file_refs = analyze_razor(text, f.path, f.kind, cs)
            else:
                key = content_key(ANALYZER, text, f.path, f.kind.value, cs.path)
                file_refs = ctx.files.memo(
                    ANALYZER, key, lambda t=text, f=f, p=cs.path: analyze_text(t, f.path, f.kind, p)
                )
            for r in file_refs:
                if ref_kind(r) == "syntax_error":
                    ctx.info("C# syntax errors; analysed what could be parsed", f.path)
            refs.extend(r for r in file_refs if ref_kind(r) != "syntax_error")
    return refs


def _project_refs(cs: CsProject) -> list[ImportRef]:
    """`<Using Include>` items of the project and its props, as global usings."""
    out = []
    for entry in cs.inherited_usings:
        ns = entry.get("namespace", "")
        if not ns or ns in cs.using_removes:
            continue
        facts = CsRefFacts(
            kind="using",
            project=cs.path,
            global_using=True,
            static=bool(entry.get("static")),
            msbuild=True,
        )
        out.append(ImportRef(ns, cs.path, 0, "csharp", FileKind.CONFIG, facts=facts))
    return out


def layout_of(project: Project) -> list[CsProject]:
    """The C# project layout (the same one `analyze` used)."""
    return build_layout(project)
