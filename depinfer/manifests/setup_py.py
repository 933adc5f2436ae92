"""setup.py: `install_requires`, `extras_require`, `tests_require`, wherever they are defined.

setup.py is code and is never run; `ast` locates the `setup(...)` call, and
`setup_py_values` follows its arguments through module-level names (`REQS = [...]`,
`base + extra`, `.append`/`.extend`, dicts grown by `d["x"] = [...]`, `setup(**kwargs)`)
to the literals that define them, or to the requirements files the script reads. The
writer inserts text at those literals' source positions, so everything else keeps its
bytes; a list read from a file is written in that file (its own manifest). A value built
at run time (a function's result, a comprehension over something computed) cannot be
edited safely: the file is left untouched and one `NotWritable` names each such value,
its line, and what to add by hand.
"""

from __future__ import annotations

import ast
import posixpath
from dataclasses import dataclass

from depinfer.manifests import ManifestError, NotWritable
from depinfer.manifests.pep508 import (
    canonical,
    format_requirement,
    guarded,
    insert_index,
    is_sorted,
    new_requirements,
    newline_of,
    python_versions_from_classifiers,
    requirement_name,
    target_key,
)
from depinfer.manifests.setup_py_values import Listing, Mapping, Values
from depinfer.model import Manifest, Requirement

MAX_LINE = 99  # a single-line setup() call longer than this gets its new keywords wrapped
KEYWORDS = {"dependencies": "install_requires", "tests_require": "tests_require"}


def _parse(text: str) -> ast.Module:
    try:
        return ast.parse(text)
    except SyntaxError as exc:
        raise ManifestError(f"syntax error at line {exc.lineno}: {exc.msg}") from None
    except ValueError as exc:  # e.g. NUL bytes
        raise ManifestError(f"cannot parse: {exc}") from None


def _setup_call(tree: ast.Module) -> ast.Call | None:
    calls = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and (
            (isinstance(node.func, ast.Name) and node.func.id == "setup")
            or (isinstance(node.func, ast.Attribute) and node.func.attr == "setup")
        )
    ]
    for call in calls:
        if any(k.arg == "install_requires" for k in call.keywords):
            return call
    return calls[0] if calls else None


def _values(tree: ast.Module, call: ast.Call) -> Values:
    """The names setup()'s arguments can refer to: the module's, and those of the function
    the call is in (`def main(): reqs = [...]; setup(install_requires=reqs)`)."""
    values = Values(tree)
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and any(
            n is call for n in ast.walk(node)
        ):
            values.scope(node)
    return values


def _names(strings: list[str]) -> list[str]:
    return [n for n in (requirement_name(s) for s in strings) if n]


def _keyword(call: ast.Call, name: str) -> ast.keyword | None:
    return next((k for k in call.keywords if k.arg == name), None)


def _located(files: list[str], path: str) -> list[str]:
    base = posixpath.dirname(path)
    return [posixpath.normpath(posixpath.join(base, f)) for f in files]


@guarded
def read(text: str, path: str) -> tuple[dict[str, list[str]], dict]:
    tree = _parse(text)
    call = _setup_call(tree)
    declared: dict[str, list[str]] = {}
    data: dict = {
        "style": "setuptools",
        "name": None,
        "requires_python": None,
        "dynamic_dependencies_files": [],
        "classifiers": [],
        "shim": call is None,
        "setup_call": call is not None,
    }
    if call is None:
        return declared, data
    # A shim (`setup()`, `setup(name="rich")`) only hands over to setup.cfg or pyproject.toml.
    data["shim"] = not call.args and all(k.arg in ("name", "version") for k in call.keywords)
    data["dynamic_extras_files"] = {}
    values = _values(tree, call)
    args = values.arguments(call)
    if "install_requires" in args.entries:
        listing = values.listing_of(args.entries["install_requires"])
        declared["dependencies"] = _names(listing.strings)
        data["dynamic_dependencies_files"] = _located(listing.files, path)
    extras = values.mapping_of(args.entries.get("extras_require"))
    for extra, exprs in extras.entries.items():
        listing = values.listing_of(exprs)
        declared[f"optional-dependencies.{extra}"] = _names(listing.strings)
        if listing.files:  # `extras('redis.txt')`: the extra's list lives in that file
            data["dynamic_extras_files"][extra] = _located(listing.files, path)
    if "tests_require" in args.entries:
        declared["tests_require"] = _names(values.listing_of(args.entries["tests_require"]).strings)
    for field_name, keyword in (("name", "name"), ("requires_python", "python_requires")):
        value = _single(values, args.entries.get(keyword))
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            data[field_name] = value.value
    data["classifiers"] = python_versions_from_classifiers(
        values.listing_of(args.entries.get("classifiers") or []).strings
    )
    return declared, data


def _single(values: Values, exprs: list[ast.expr] | None) -> ast.expr | None:
    """A scalar argument's value: a literal, or the module-level name's literal."""
    if not exprs:
        return None
    value = exprs[0]
    if isinstance(value, ast.Name):
        return values.value(value.id) or value
    return value


# ---------------------------------------------------------------------------- writing


@dataclass
class _Source:
    """Character offsets for ast positions (ast columns count UTF-8 bytes)."""

    text: str

    def __post_init__(self) -> None:
        self.lines = self.text.splitlines(keepends=True)
        self.starts = [0]
        for line in self.lines:
            self.starts.append(self.starts[-1] + len(line))

    def offset(self, lineno: int, col: int) -> int:
        line = self.lines[lineno - 1] if lineno - 1 < len(self.lines) else ""
        return self.starts[lineno - 1] + len(line.encode("utf-8")[:col].decode("utf-8", "replace"))

    def start(self, node: ast.AST) -> int:
        return self.offset(node.lineno, node.col_offset)  # type: ignore[attr-defined]

    def end(self, node: ast.AST) -> int:
        return self.offset(node.end_lineno, node.end_col_offset)  # type: ignore[attr-defined]

    def indent_at(self, offset: int) -> str:
        line_start = self.text.rfind("\n", 0, offset) + 1
        line = self.text[line_start:offset]
        return line[: len(line) - len(line.lstrip())]

    def line_end(self, offset: int) -> int:
        """Offset just past the newline that ends the line holding `offset`."""
        nl = self.text.find("\n", offset)
        return len(self.text) if nl < 0 else nl + 1


def _quote(src: _Source, elts: list[ast.expr], default: str = '"') -> str:
    for e in elts:
        raw = src.text[src.start(e) : src.start(e) + 1]
        if raw in ("'", '"'):
            return raw
    return default


def _literal(value: str, quote: str) -> str:
    if quote == '"' and '"' in value and "'" not in value:
        value = value.replace('"', "'")
    if quote in value:
        quote = "'" if quote == '"' else '"'
    return quote + value.replace("\\", "\\\\") + quote


def _requirement_literal(req: Requirement, quote: str) -> str:
    return _literal(format_requirement(req), quote)


@dataclass
class _Edit:
    at: int
    text: str


def _has_comma_after(src: _Source, offset: int, limit: int) -> int | None:
    """Offset just past a comma that follows `offset` (before `limit`), skipping spaces."""
    i = offset
    while i < limit and src.text[i] in " \t":
        i += 1
    return i + 1 if i < limit and src.text[i] == "," else None


def _insert_items(
    src: _Source,
    node: ast.expr,
    items: list[tuple[str, str]],
    nl: str,
    step: str,
    expand_empty: bool,
) -> list[_Edit]:
    """Edits that add `items` ((sort name, source text)) to a list/dict literal `node`."""
    spans, names = _literal_entries(src, node)
    open_at, close_at = src.start(node), src.end(node) - 1  # the brackets
    multiline = "\n" in src.text[open_at:close_at]
    if not spans:
        return _into_empty(src, node, items, nl, step, expand_empty, multiline)
    if multiline:
        return _into_multiline(src, node, items, nl, spans, names)
    return _into_single_line(items, spans, names)


def _literal_entries(src: _Source, node: ast.expr) -> tuple[list[tuple[int, int]], list[str]]:
    """(source span, requirement name or "") of each entry of a list/tuple/dict literal."""
    if isinstance(node, ast.Dict):
        keys = [k for k in node.keys if k is not None]
        spans = [
            (src.start(k), src.end(v))
            for k, v in zip(node.keys, node.values, strict=False)
            if k is not None
        ]
        return spans, [k.value if isinstance(k, ast.Constant) else "" for k in keys]
    elts = list(node.elts)  # type: ignore[attr-defined]
    names = [(requirement_name(e.value) or "") if isinstance(e, ast.Constant) else "" for e in elts]
    return [(src.start(e), src.end(e)) for e in elts], [str(n) for n in names]


def _into_empty(
    src: _Source,
    node: ast.expr,
    items: list[tuple[str, str]],
    nl: str,
    step: str,
    expand_empty: bool,
    multiline: bool,
) -> list[_Edit]:
    """An empty literal: one item a line when it spans lines (or `expand_empty`), else inline."""
    open_at, close_at = src.start(node), src.end(node) - 1
    if multiline:
        inner = src.indent_at(close_at) + step
        body = "".join(f"{nl}{inner}{text}," for _, text in items)
        return [_Edit(open_at + 1, body)]
    if not expand_empty:
        # `("a")` is no tuple: an inline tuple keeps a trailing comma
        comma = "," if isinstance(node, ast.Tuple) else ""
        return [_Edit(open_at + 1, ", ".join(text for _, text in items) + comma)]
    outer = src.indent_at(open_at)
    body = "".join(f"{nl}{outer}{step}{text}," for _, text in items) + nl + outer
    return [_Edit(open_at + 1, body)]


def _into_multiline(
    src: _Source,
    node: ast.expr,
    items: list[tuple[str, str]],
    nl: str,
    spans: list[tuple[int, int]],
    names: list[str],
) -> list[_Edit]:
    """A literal of one entry a line: each item on its own line, in sorted place when the
    entries are sorted, else after the last entry (keeping its comma style)."""
    open_at, close_at = src.start(node), src.end(node) - 1
    sorted_names = is_sorted(names)
    indent = src.indent_at(spans[0][0])
    if src.text.rfind("\n", 0, spans[0][0]) < open_at:  # first item on the bracket line
        indent = " " * (spans[0][0] - (src.text.rfind("\n", 0, spans[0][0]) + 1))
    edits: list[_Edit] = []
    tail: list[str] = []
    for name, text in items:
        pos = insert_index(names, name) if sorted_names else len(names)
        if pos < len(spans):
            line_start = src.text.rfind("\n", 0, spans[pos][0]) + 1
            if line_start > open_at and not src.text[line_start : spans[pos][0]].strip():
                edits.append(_Edit(line_start, f"{indent}{text},{nl}"))
                continue
        tail.append(text)
    if tail:
        edits += _after_last(src, spans[-1][1], close_at, tail, indent, nl)
    return edits


def _after_last(
    src: _Source, last_end: int, close_at: int, tail: list[str], indent: str, nl: str
) -> list[_Edit]:
    """Items appended after a multi-line literal's last entry."""
    comma = _has_comma_after(src, last_end, close_at)
    if "\n" not in src.text[last_end:close_at]:  # the closing bracket is on the last line
        at = comma if comma is not None else last_end
        lead = "" if comma is not None else ","
        body = lead + "".join(f"{nl}{indent}{t}," for t in tail)
        if comma is None:
            body = body[:-1]
        return [_Edit(at, body)]
    edits = [] if comma is not None else [_Edit(last_end, ",")]
    body = "".join(f"{indent}{t},{nl}" for t in tail)
    if comma is None:
        body = body[: -len("," + nl)] + nl
    return [*edits, _Edit(src.line_end(last_end), body)]


def _into_single_line(
    items: list[tuple[str, str]], spans: list[tuple[int, int]], names: list[str]
) -> list[_Edit]:
    """A literal on one line: each item inline, in sorted place when the entries are sorted."""
    sorted_names = is_sorted(names)
    edits: list[_Edit] = []
    for name, text in items:
        pos = insert_index(names, name) if sorted_names else len(names)
        if pos < len(spans):
            edits.append(_Edit(spans[pos][0], f"{text}, "))
        else:
            edits.append(_Edit(spans[-1][1], f", {text}"))
    return edits


def _new_keywords(
    src: _Source, call: ast.Call, keywords: list[tuple[str, list[str]]], nl: str
) -> list[_Edit]:
    """Edits adding `keyword=<value>` arguments after the last argument of `call`."""
    args: list[ast.AST] = [*call.args, *call.keywords]
    close_at = src.end(call) - 1
    inline = ", ".join(f"{k}={''.join(v)}" for k, v in keywords)
    if not args:
        return [_Edit(close_at, inline)]
    last = max(args, key=lambda a: src.end(a.value if isinstance(a, ast.keyword) else a))
    last_end = src.end(last.value if isinstance(last, ast.keyword) else last)
    comma = _has_comma_after(src, last_end, close_at)
    start_of_last = src.start(last if not isinstance(last, ast.keyword) else last.value)
    multiline = "\n" in src.text[src.start(call) : close_at]
    if multiline and "\n" in src.text[last_end:close_at]:
        indent = src.indent_at(start_of_last)
        body = ""
        for keyword, value_lines in keywords:
            rest = "".join(nl + indent + line for line in value_lines[1:])
            body += f"{indent}{keyword}={value_lines[0]}{rest},{nl}"
        edits = [] if comma is not None else [_Edit(last_end, ",")]
        return [*edits, _Edit(src.line_end(last_end), body)]
    at = comma if comma is not None else last_end
    lead = " " if comma is not None else ", "
    line_start = src.text.rfind("\n", 0, at) + 1
    line_end = src.line_end(at)
    width = len(src.text[line_start:line_end].rstrip("\r\n")) + len(lead) + len(inline)
    if width <= MAX_LINE:
        return [_Edit(at, f"{lead}{inline}")]
    # too long for one line: one keyword a line, aligned with the call's first argument
    first_at = min(src.start(a) for a in args)  # keywords carry positions since 3.9
    align = " " * (first_at - (src.text.rfind("\n", 0, first_at) + 1))
    pieces = ",".join(f"{nl}{align}{k}={''.join(v)}" for k, v in keywords)
    return [_Edit(at, pieces if comma is not None else "," + pieces)]


def _list_lines(texts: list[str], multiline: bool, step: str) -> list[str]:
    if not multiline:
        return ["[" + ", ".join(texts) + "]"]
    return ["[", *[f"{step}{t}," for t in texts], "]"]


def _apply(text: str, edits: list[_Edit]) -> str:
    for edit in sorted(edits, key=lambda e: e.at, reverse=True):
        text = text[: edit.at] + edit.text + text[edit.at :]
    return text


@guarded
def render(text: str, manifest: Manifest, requirements: list[Requirement]) -> str:
    tree = _parse(text)
    declared, _ = read(text, manifest.path)
    for key, names in (manifest.declared or {}).items():  # extras read from files, too
        declared[key] = [*declared.get(key, []), *names]
    call = _setup_call(tree)
    by_key: dict[str, list[Requirement]] = {}
    for req in requirements:
        key = target_key(req, "setuptools")
        if key.startswith("extras."):
            key = "optional-dependencies." + key.split(".", 1)[1]
        if new_requirements([req], declared.get(key, [])):
            by_key.setdefault(key, []).append(req)
    if not by_key:
        return text
    if call is None:
        raise ManifestError("no setup() call to hold dependencies")
    plan = _Plan(_Source(text), call, _values(tree, call))
    extras: dict[str, list[Requirement]] = {}
    for key, reqs in by_key.items():
        adds = sorted(
            new_requirements(reqs, declared.get(key, [])), key=lambda r: canonical(r.name)
        )
        if key in KEYWORDS:
            plan.add_list(KEYWORDS[key], adds)
        elif key.startswith("optional-dependencies."):
            extras[key.split(".", 1)[1]] = adds
        else:
            raise ManifestError(f"setup.py has no place for {key!r}")
    if extras:
        plan.add_extras(extras)
    new = _apply(text, plan.finish())
    try:
        read(new, manifest.path)
    except ManifestError as exc:
        raise ManifestError(f"edit would break the file ({exc}); left untouched") from None
    return new


class _Plan:
    """The edits of one render: into the literals the arguments' values are defined by,
    new keywords into the call (or the dict `**kwargs` spreads). Values built at run time
    are collected and reported together, once, with the file left untouched."""

    def __init__(self, src: _Source, call: ast.Call, values: Values) -> None:
        self.src, self.call, self.values = src, call, values
        self.args = values.arguments(call)
        self.nl = newline_of(src.text)
        self.step = "    "
        self.call_multiline = "\n" in src.text[src.start(call) : src.end(call)]
        holder = self.args.node  # new keywords: multi-line values only in a multi-line call
        self.new_multiline = (
            isinstance(holder, ast.Call) and "\n" in src.text[src.start(holder) : src.end(holder)]
        )
        quoted: list[ast.expr] = [k.value for k in call.keywords]
        if isinstance(holder, ast.Dict):  # `setup(**ARGS)`: the dict's quotes
            quoted = [k for k in holder.keys if k is not None] + quoted
        elif isinstance(holder, ast.Call) and holder is not call:
            quoted = [k.value for k in holder.keywords] + quoted
        self.call_quote = _quote(src, quoted)
        self.edits: list[_Edit] = []
        self.new_keywords: list[tuple[str, list[str]]] = []
        self.problems: list[str] = []
        self.line: int | None = None

    def add_list(self, keyword: str, adds: list[Requirement]) -> None:
        exprs = self.args.entries.get(keyword)
        if exprs is None:
            texts = [_requirement_literal(r, self.call_quote) for r in adds]
            self._new_keyword(keyword, adds, _list_lines(texts, self.new_multiline, self.step))
        else:
            self._into_listing(keyword, self.values.listing_of(exprs), exprs[0], adds)

    def _into_listing(
        self, what: str, listing: Listing, where: ast.expr, adds: list[Requirement]
    ) -> None:
        if listing.files:
            files = ", ".join(listing.files)
            self._problem(f"{what} is not a literal list: it is read from {files}", where, adds)
            return
        if not listing.targets:
            node = listing.computed or where
            self._problem(f"{what} is not a literal list: it is built at run time", node, adds)
            return
        for target in listing.targets:  # the definition (each alternative's)
            quote = _quote(self.src, target.elts, self.call_quote)
            items = [(r.name, _requirement_literal(r, quote)) for r in adds]
            start = self.src.start(target)
            inside = self.src.start(self.call) <= start < self.src.end(self.call)
            expand = self.call_multiline and inside
            self.edits += _insert_items(self.src, target, items, self.nl, self.step, expand)

    def _problem(self, what: str, node: ast.AST, adds: list[Requirement]) -> None:
        line = getattr(node, "lineno", None)
        segment = ast.get_source_segment(self.src.text, node) or ""
        first = segment.strip().splitlines()[0] if segment.strip() else ""
        shown = first if len(first) <= 60 else first[:57] + "..."
        at = f" (line {line}: `{shown}`)" if line else ""
        names = ", ".join(format_requirement(r) for r in adds)
        self.problems.append(f"{what}{at}; add {names} by hand")
        if self.line is None:
            self.line = line

    def _new_keyword(self, keyword: str, adds: list[Requirement], lines: list[str]) -> None:
        if self.args.node is None:
            node = self.args.computed or self.call
            self._problem("setup()'s **kwargs is built at run time", node, adds)
        elif self.args.computed is not None:  # the part built at run time may hold it
            what = f"setup()'s **kwargs (which may hold {keyword}) is built at run time"
            self._problem(what, self.args.computed, adds)
        else:
            self.new_keywords.append((keyword, lines))

    def add_extras(self, extras: dict[str, list[Requirement]]) -> None:
        exprs = self.args.entries.get("extras_require")
        if exprs is None:
            entries = []
            for extra, reqs in sorted(extras.items()):
                texts = ", ".join(_requirement_literal(r, self.call_quote) for r in reqs)
                entries.append(f"{_literal(extra, self.call_quote)}: [{texts}]")
            if self.new_multiline:
                lines = ["{", *[f"{self.step}{e}," for e in entries], "}"]
            else:
                lines = ["{" + ", ".join(entries) + "}"]
            self._new_keyword("extras_require", [r for v in extras.values() for r in v], lines)
            return
        mapping = self.values.mapping_of(exprs)
        missing: dict[str, list[Requirement]] = {}
        for extra, reqs in extras.items():
            entry = mapping.entries.get(extra)
            if entry is None:
                missing[extra] = reqs
            else:
                listing = self.values.listing_of(entry)
                self._into_listing(f"extras_require[{extra!r}]", listing, entry[0], reqs)
        if missing:
            self._new_entries(mapping, exprs[0], missing)

    def _new_entries(
        self, mapping: Mapping, where: ast.expr, extras: dict[str, list[Requirement]]
    ) -> None:
        """New keys of a dict (extras_require): into its literal, `{...}` or `dict(...)`."""
        node = mapping.node
        adds = [r for v in extras.values() for r in v]
        if isinstance(node, ast.Dict):
            keys = [k for k in node.keys if k is not None]
            quote = _quote(self.src, keys, self.call_quote)
            items = []
            for extra, reqs in extras.items():
                texts = ", ".join(_requirement_literal(r, quote) for r in reqs)
                items.append((extra, f"{_literal(extra, quote)}: [{texts}]"))
            expand = self.call_multiline and node is where
            self.edits += _insert_items(self.src, node, items, self.nl, self.step, expand)
        elif isinstance(node, ast.Call) and all(e.isidentifier() for e in extras):
            quote = _quote(self.src, [k.value for k in node.keywords], self.call_quote)
            keywords = [
                (e, ["[" + ", ".join(_requirement_literal(r, quote) for r in reqs) + "]"])
                for e, reqs in extras.items()
            ]
            self.edits += _new_keywords(self.src, node, keywords, self.nl)
        else:
            node = mapping.computed or where
            self._problem(
                "extras_require is not a literal dict: it is built at run time", node, adds
            )

    def finish(self) -> list[_Edit]:
        if self.problems:
            raise NotWritable("; ".join(self.problems), self.line)
        edits = list(self.edits)
        if not self.new_keywords:
            return edits
        holder = self.args.node
        if isinstance(holder, ast.Dict):  # `setup(**kwargs)`: the kwargs literal takes them
            quote = _quote(self.src, [k for k in holder.keys if k is not None], self.call_quote)
            items = [(k, f"{_literal(k, quote)}: {''.join(v)}") for k, v in self.new_keywords]
            return edits + _insert_items(self.src, holder, items, self.nl, self.step, False)
        return edits + _new_keywords(self.src, holder, self.new_keywords, self.nl)  # type: ignore[arg-type]
