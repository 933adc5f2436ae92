"""What setup.py's dependency arguments hold, followed through module-level names.

setup.py is code and is never run. This module follows, with `ast` only, the module-level
names a `setup()` argument refers to, back to the literals that define them:

- `REQS = [...]` then `setup(install_requires=REQS)` (also `NAME: list[str] = [...]`);
- lists joined with `+` (`base + extra`, `[*base, "x"]`), grown by `.append("x")`,
  `.insert(i, "x")`, `.extend([...])` or `+= [...]` at module level (in `if`/`try`/`with`
  blocks too; in a loop the growth is computed, the literal stays writable);
- dicts: `extras_require = {...}` or `dict(...)`, grown by `d["x"] = [...]`, `d["x"] += [...]`
  and `d.update({...})`, and `setup(**kwargs)` from such a dict;
- requirements files read by a literal path: `open("requirements.txt").read().splitlines()`,
  `with open(...) as f:` then `f.read().splitlines()` / `f.readlines()` / `[l for l in f]`,
  and local helpers (`def parse_requirements(path): ...` called with the path, or a
  function whose own body opens the file).

Each value comes back as a `Listing` (a requirement list: its literal strings, the list
literals that hold them, the files it reads, and the first part built at run time) or a
`Mapping` (a dict: its literal node and the expressions of each key). The writer inserts
into the first list literal (the definition) or leaves the list to the file it reads; a
value with neither is computed and cannot be written (`NotWritable`).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

REQUIREMENT_FILE_SUFFIXES = (".txt", ".in")
_MAX_DEPTH = 24  # name chains deeper than this are treated as computed
_MAX_STEPS = 20_000  # expressions looked at per file: a pathological script stays cheap
_LIST_WRAPPERS = frozenset({"list", "tuple", "sorted", "set"})
_ADDS_ONE = frozenset({"append", "insert"})


@dataclass
class Listing:
    """A requirement list as the script builds it."""

    strings: list[str] = field(default_factory=list)  # literal requirement strings, in order
    literals: list[ast.List | ast.Tuple] = field(default_factory=list)  # definition first
    files: list[str] = field(default_factory=list)  # requirement files read, as written
    computed: ast.AST | None = None  # the first part built at run time
    # where new entries go: the defining literal; one per alternative definition
    # (`if PY2: R = [...]` / `else: R = [...]`)
    targets: list[ast.List | ast.Tuple] = field(default_factory=list)

    def add(self, other: Listing) -> None:
        self.strings += other.strings
        self.literals += [x for x in other.literals if x not in self.literals]
        if not self.targets:
            self.targets = list(other.targets)
        self.files += [f for f in other.files if f not in self.files]
        if self.computed is None:
            self.computed = other.computed


@dataclass
class Mapping:
    """A dict as the script builds it: the literal new keys go into, and each key's
    expressions (its value first, then what `+=` adds)."""

    node: ast.Dict | ast.Call | None = None
    entries: dict[str, list[ast.expr]] = field(default_factory=dict)
    computed: ast.AST | None = None


def _string(node: ast.AST | None) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


def _is_open(call: ast.Call) -> bool:
    """`open(...)`, `io.open(...)`, `codecs.open(...)`."""
    func = call.func
    return (isinstance(func, ast.Name) and func.id == "open") or (
        isinstance(func, ast.Attribute) and func.attr == "open"
    )


def _keeps_items(comp: ast.ListComp | ast.GeneratorExp | ast.SetComp) -> bool:
    """`[r for r in R if ...]`, `[r.strip() for r in R]`: the items are R's (filtered or
    tidied), so an entry added to R's literal is one of them; `[r + "x" for r in R]` is not."""
    target = comp.generators[0].target
    if len(comp.generators) != 1 or not isinstance(target, ast.Name):
        return False
    elt = comp.elt
    if isinstance(elt, ast.Call) and isinstance(elt.func, ast.Attribute) and not elt.args:
        elt = elt.func.value
    return isinstance(elt, ast.Name) and elt.id == target.id


def _requirement_file(path: str) -> bool:
    return path.endswith(REQUIREMENT_FILE_SUFFIXES)


class Values:
    """The module-level names of one setup.py and what they hold."""

    def __init__(self, tree: ast.Module) -> None:
        # each name's values: one, or the alternatives `if`/`try` branches assign; empty:
        # assigned in a way not followed (a loop, unpacking)
        self.names: dict[str, list[ast.expr]] = {}
        self.changes: dict[str, list[tuple[str, ast.AST]]] = {}  # growth after the value
        self.handles: dict[str, list[ast.expr]] = {}  # `with open(...) as f`: f -> open args
        self.functions: dict[str, ast.FunctionDef] = {}
        self._steps = 0
        self._branches = 0  # inside how many `if`/`try` blocks the walk is
        self._walk(tree.body, in_loop=False)

    def value(self, name: str) -> ast.expr | None:
        """The value a name holds last (None when it is not followed)."""
        values = self.names.get(name)
        return values[-1] if values else None

    def scope(self, function: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        """Add the local names of the function setup() is called in (`def main(): ...`)."""
        self._walk(function.body, in_loop=False)

    def _spent(self) -> bool:
        self._steps += 1
        return self._steps > _MAX_STEPS

    # ------------------------------------------------------------------ statements

    def _walk(self, body: list[ast.stmt], in_loop: bool) -> None:
        for stmt in body:
            if isinstance(stmt, ast.FunctionDef):
                self.functions[stmt.name] = stmt
            elif isinstance(stmt, ast.Assign | ast.AnnAssign | ast.AugAssign):
                self._assignment(stmt, in_loop)
            elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
                self._method_call(stmt.value, in_loop)
            elif isinstance(stmt, ast.With):
                for item in stmt.items:
                    ctx, var = item.context_expr, item.optional_vars
                    if isinstance(ctx, ast.Call) and _is_open(ctx) and isinstance(var, ast.Name):
                        self.handles[var.id] = list(ctx.args)
                self._walk(stmt.body, in_loop)
            elif isinstance(stmt, ast.If | ast.Try):
                self._branches += 1
                self._walk(stmt.body, in_loop)
                for handler in getattr(stmt, "handlers", ()):
                    self._walk(handler.body, in_loop)
                self._walk(stmt.orelse, in_loop)
                self._walk(getattr(stmt, "finalbody", []), in_loop)
                self._branches -= 1
            elif isinstance(stmt, ast.For | ast.While):
                self._walk(stmt.body, in_loop=True)
                self._walk(stmt.orelse, in_loop=True)

    def _assignment(self, stmt: ast.Assign | ast.AnnAssign | ast.AugAssign, in_loop: bool) -> None:
        if isinstance(stmt, ast.AugAssign):
            if isinstance(stmt.op, ast.Add):
                self._grow(stmt.target, stmt.value, stmt, in_loop)
            else:
                self._grow(stmt.target, None, stmt, in_loop)
            return
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
        for target in targets:
            if isinstance(target, ast.Name):
                if stmt.value is None:
                    continue  # `NAME: list[str]`, a bare annotation
                if self._refers_to(stmt.value, target.id):
                    self._regrow(target.id, stmt.value, in_loop)
                    continue
                self._assign(target.id, stmt.value, in_loop)
            elif isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name):
                key = _string(target.slice)
                name = target.value.id
                if key is None or in_loop:
                    self._record(name, "computed", stmt)
                else:
                    self._record(name, "key=" + key, stmt.value)  # type: ignore[arg-type]
            else:  # `a, b = ...`, `obj.attr = ...`
                for node in ast.walk(target):
                    if isinstance(node, ast.Name):
                        self.names[node.id], self.changes[node.id] = [], []

    def _assign(self, name: str, value: ast.expr, in_loop: bool) -> None:
        if in_loop:
            self.names[name], self.changes[name] = [], []
        elif self._branches and self.names.get(name):
            self.names[name].append(value)  # an alternative: either may hold at run time
        else:
            self.names[name], self.changes[name] = [value], []

    @staticmethod
    def _refers_to(value: ast.expr, name: str) -> bool:
        return any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(value))

    def _regrow(self, name: str, value: ast.expr, in_loop: bool) -> None:
        """`R = R + [...]` grows R; any other value built from R itself is computed."""
        if (
            isinstance(value, ast.BinOp)
            and isinstance(value.op, ast.Add)
            and isinstance(value.left, ast.Name)
            and value.left.id == name
            and not self._refers_to(value.right, name)
            and not in_loop
        ):
            self._record(name, "extend", value.right)
        else:
            self._record(name, "computed", value)

    def _grow(self, target: ast.expr, value: ast.expr | None, stmt: ast.AST, in_loop: bool) -> None:
        """`target += value` (value None: an operator that is not `+`)."""
        if isinstance(target, ast.Name):
            if value is None or in_loop:
                self._record(target.id, "computed", stmt)
            else:
                self._record(target.id, "extend", value)
        elif isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name):
            key = _string(target.slice)
            if key is None or value is None or in_loop:
                self._record(target.value.id, "computed", stmt)
            else:
                self._record(target.value.id, "key+" + key, value)

    def _method_call(self, call: ast.Call, in_loop: bool) -> None:
        func = call.func
        if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)):
            return
        name, method = func.value.id, func.attr
        if method not in ("append", "insert", "extend", "update", "setdefault", "pop", "remove"):
            return
        if in_loop or method in ("setdefault", "pop", "remove") or not call.args:
            self._record(name, "computed", call)
        elif method in _ADDS_ONE:
            self._record(name, "one", call.args[-1])
        else:  # extend (a list) or update (a dict)
            self._record(name, method, call.args[0])

    def _record(self, name: str, kind: str, node: ast.AST) -> None:
        if name in self.names:
            self.changes.setdefault(name, []).append((kind, node))

    # ------------------------------------------------------------------ lists

    def listing(self, expr: ast.expr | None, depth: int = 0) -> Listing:
        """What a requirement-list expression holds."""
        out = Listing()
        if expr is None:
            return out
        if depth > _MAX_DEPTH or self._spent():
            out.computed = expr
        elif isinstance(expr, ast.List | ast.Tuple | ast.Set):
            self._literal(expr, out, depth)
        elif isinstance(expr, ast.Name):
            out.add(self._name_listing(expr, depth))
        elif isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Add):
            out.add(self.listing(expr.left, depth + 1))
            out.add(self.listing(expr.right, depth + 1))
        elif isinstance(expr, ast.Subscript) and isinstance(expr.value, ast.Name):
            out.add(self._item_listing(expr, depth))
        elif isinstance(expr, ast.ListComp | ast.GeneratorExp | ast.SetComp):
            inner = self.listing(expr.generators[0].iter, depth + 1)
            if inner.files or (inner.literals and _keeps_items(expr)):
                out.add(inner)
            else:
                out.add(self._read_or_computed(expr, depth))
        elif (
            isinstance(expr, ast.Call)
            and isinstance(expr.func, ast.Name)
            and expr.func.id in _LIST_WRAPPERS
            and len(expr.args) == 1
        ):
            inner = self.listing(expr.args[0], depth + 1)
            if not inner.literals and not inner.files:
                inner.computed = expr  # `sorted(set(x))` is the value built, not `x`
            out.add(inner)
        elif isinstance(expr, ast.IfExp):  # both branches are declared; neither is the place
            out.add(self.listing(expr.body, depth + 1))
            out.add(self.listing(expr.orelse, depth + 1))
            out.literals, out.targets, out.computed = [], [], expr
        elif _string(expr) is not None:  # a string of lines: readable, not a list to edit
            out.strings = str(_string(expr)).splitlines()
            out.computed = expr
        else:
            out.add(self._read_or_computed(expr, depth))
        return out

    def _literal(self, expr: ast.List | ast.Tuple | ast.Set, out: Listing, depth: int) -> None:
        if not isinstance(expr, ast.Set):
            out.literals.append(expr)
            out.targets.append(expr)
        for element in expr.elts:
            text = _string(element)
            if text is not None:
                out.strings.append(text)
            elif isinstance(element, ast.Starred):
                out.add(self.listing(element.value, depth + 1))
            elif isinstance(element, ast.Name):
                text = _string(self.value(element.id))
                if text is not None:
                    out.strings.append(text)

    def _name_listing(self, expr: ast.Name, depth: int) -> Listing:
        out = Listing()
        values = self.names.get(expr.id)
        if not values:  # not defined here (imported, a parameter) or not followed
            out.computed = expr
            return out
        targets: list[ast.List | ast.Tuple] = []
        for value in values:
            inner = self.listing(value, depth + 1)
            targets += [t for t in inner.targets[:1] if t not in targets]
            out.add(inner)
        out.targets = targets
        for kind, node in self.changes.get(expr.id, []):
            if kind == "one":
                text = _string(node)
                if text is not None:
                    out.strings.append(text)
                elif out.computed is None:
                    out.computed = node
            elif kind == "extend":
                out.add(self.listing(node, depth + 1))  # type: ignore[arg-type]
            elif out.computed is None:
                out.computed = node
        return out

    def _item_listing(self, expr: ast.Subscript, depth: int) -> Listing:
        """`extras_require["test"]`: the listing that key of a followed dict holds."""
        key = _string(expr.slice)
        mapping = self.mapping(expr.value, depth + 1)
        if key is None or key not in mapping.entries:
            return Listing(computed=expr)
        return self.listing_of(mapping.entries[key], depth + 1)

    def listing_of(self, exprs: list[ast.expr], depth: int = 0) -> Listing:
        """A dict entry's listing: its value, then what `+=` added."""
        out = Listing()
        for expr in exprs:
            out.add(self.listing(expr, depth))
        return out

    def _read_or_computed(self, expr: ast.expr, depth: int) -> Listing:
        files = self.files_read(expr, depth)
        return Listing(files=files) if files else Listing(computed=expr)

    # ------------------------------------------------------------------ files

    def files_read(self, expr: ast.AST, depth: int = 0, seen: frozenset = frozenset()) -> list[str]:
        """Requirement files an expression reads, by the literal paths it (or the names and
        local functions it uses) holds: `open("requirements.txt")`, a `with open(...)` handle,
        `parse_requirements("requirements/base.txt")`, a helper that opens its own file."""
        out: list[str] = []
        if depth > _MAX_DEPTH or self._spent():
            return out
        for node in ast.walk(expr):
            found: list[str] = []
            text = _string(node)
            if text is not None and _requirement_file(text):
                found = [text]
            elif isinstance(node, ast.Name) and node.id not in seen:
                inner = seen | {node.id}
                if node.id in self.handles:
                    found = self._strings_in(self.handles[node.id], depth, inner)
                else:
                    for value in self.names.get(node.id, []):
                        found += self.files_read(value, depth + 1, inner)
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                found = self._helper_files(node, depth, seen)
            out += [f for f in found if f not in out]
        return out

    def _strings_in(self, exprs: list[ast.expr], depth: int, seen: frozenset) -> list[str]:
        """Requirement file paths among `open()` arguments (literals or names of literals)."""
        out: list[str] = []
        for expr in exprs:
            out += self.files_read(expr, depth + 1, seen)
        return out

    def _helper_files(self, call: ast.Call, depth: int, seen: frozenset) -> list[str]:
        """A local function's call: the files its body opens by a literal path (its
        arguments are walked by the caller: a helper that opens its argument reads them)."""
        name = call.func.id  # type: ignore[attr-defined]
        function = self.functions.get(name)
        if function is None or name in seen:
            return []
        out: list[str] = []
        for stmt in function.body:
            out += self.files_read(stmt, depth + 1, seen | {name})
        return out

    # ------------------------------------------------------------------ dicts

    def mapping(self, expr: ast.expr | None, depth: int = 0) -> Mapping:
        """What a dict expression holds (`{...}`, `dict(...)`, a name of one, grown later)."""
        out = Mapping()
        if expr is None:
            return out
        if depth > _MAX_DEPTH or self._spent():
            out.computed = expr
        elif isinstance(expr, ast.Dict):
            out.node = expr
            for key, value in zip(expr.keys, expr.values, strict=False):
                self._entry(out, key, value, depth)
        elif (
            isinstance(expr, ast.Call)
            and isinstance(expr.func, ast.Name)
            and expr.func.id == "dict"
            and not expr.args
        ):
            out.node = expr
            for kw in expr.keywords:
                self._entry(out, None if kw.arg is None else ast.Constant(kw.arg), kw.value, depth)
        elif isinstance(expr, ast.Name) and self.names.get(expr.id):
            out = self.mapping(self.names[expr.id][0], depth + 1)
            for value in self.names[expr.id][1:]:  # alternatives: their keys too
                other = self.mapping(value, depth + 1)
                for key, exprs in other.entries.items():
                    out.entries.setdefault(key, exprs)
                out.computed = out.computed or other.computed
            for kind, node in self.changes.get(expr.id, []):
                self._change(out, kind, node, depth)
        else:
            out.computed = expr
        return out

    def mapping_of(self, exprs: list[ast.expr] | None) -> Mapping:
        """An argument's dict (`extras_require=...`); empty when there is no such argument."""
        if not exprs:
            return Mapping()
        out = self.mapping(exprs[0])
        if len(exprs) > 1:  # `kwargs["extras_require"] += ...`: not a dict to edit
            out.computed = out.computed or exprs[1]
        return out

    def _entry(self, out: Mapping, key: ast.expr | None, value: ast.expr, depth: int) -> None:
        if key is None:  # `{**other}`
            inner = self.mapping(value, depth + 1)
            out.entries.update(inner.entries)
            out.computed = out.computed or inner.computed
            return
        text = _string(key)
        if text is None:
            out.computed = out.computed or key
        else:
            out.entries[text] = [value]

    def _change(self, out: Mapping, kind: str, node: ast.AST, depth: int) -> None:
        if kind.startswith("key="):
            out.entries[kind[4:]] = [node]  # type: ignore[list-item]
        elif kind.startswith("key+"):
            out.entries.setdefault(kind[4:], []).append(node)  # type: ignore[arg-type]
        elif kind == "update":
            inner = self.mapping(node, depth + 1)  # type: ignore[arg-type]
            out.entries.update(inner.entries)
            out.computed = out.computed or inner.computed
        else:
            out.computed = out.computed or node

    def arguments(self, call: ast.Call) -> Mapping:
        """setup()'s keyword arguments, `**kwargs` from a followed dict included. `node` is
        where a new keyword goes: the call, or the dict `**kwargs` spreads (the last one)."""
        out = Mapping(node=call)
        for kw in call.keywords:
            if kw.arg is not None:
                out.entries[kw.arg] = [kw.value]
                continue
            inner = self.mapping(kw.value)
            out.entries.update(inner.entries)
            out.computed = out.computed or inner.computed
            out.node = inner.node
        return out
