"""setup.py: `install_requires=[...]`, `extras_require={...}`, `tests_require=[...]` literals.

setup.py is code and is never run; `ast` locates the `setup(...)` call and its literal
arguments, and the writer inserts text at those source positions, so everything else in
the file keeps its bytes. A value that is not a literal (a variable, a function call
reading a file) cannot be edited safely and is refused.
"""

from __future__ import annotations

import ast
import posixpath
from dataclasses import dataclass

from depinfer.manifests import ManifestError
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


def _assignments(tree: ast.Module) -> dict[str, ast.expr]:
    """Module-level `NAME = value` (the last one wins), to read `install_requires=REQS`."""
    out: dict[str, ast.expr] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    out[target.id] = node.value
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value:
            out[node.target.id] = node.value
    return out


def _resolve(value: ast.expr | None, names: dict[str, ast.expr]) -> ast.expr | None:
    if isinstance(value, ast.Name) and value.id in names:
        return names[value.id]
    return value


def _strings(value: ast.expr | None) -> list[str]:
    if isinstance(value, ast.List | ast.Tuple):
        return [
            e.value for e in value.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)
        ]
    if isinstance(value, ast.Constant) and isinstance(value.value, str):
        return value.value.splitlines()
    return []


def _names(value: ast.expr | None) -> list[str]:
    return [n for n in (requirement_name(s) for s in _strings(value)) if n]


def _keyword(call: ast.Call, name: str) -> ast.keyword | None:
    return next((k for k in call.keywords if k.arg == name), None)


def _files_read(value: ast.expr | None) -> list[str]:
    """Requirement files a non-literal `install_requires` reads (`open("requirements.txt")`)."""
    if value is None or isinstance(value, ast.List | ast.Tuple):
        return []
    return [
        node.value
        for node in ast.walk(value)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and node.value.endswith((".txt", ".in"))
    ]


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
    }
    if call is None:
        return declared, data
    # A shim (`setup()`, `setup(name="rich")`) only hands over to setup.cfg or pyproject.toml.
    data["shim"] = not call.args and all(k.arg in ("name", "version") for k in call.keywords)
    names = _assignments(tree)

    def value_of(keyword: str) -> ast.expr | None:
        kw = _keyword(call, keyword)
        return _resolve(kw.value, names) if kw else None

    install = _keyword(call, "install_requires")
    if install is not None:
        value = value_of("install_requires")
        declared["dependencies"] = _names(value)
        base = posixpath.dirname(path)
        files = _files_read(value)
        if isinstance(install.value, ast.Name) and install.value.id not in names:
            files = []
        data["dynamic_dependencies_files"] = [
            posixpath.normpath(posixpath.join(base, f)) for f in files
        ]
    extras = value_of("extras_require")
    data["dynamic_extras_files"] = {}
    if isinstance(extras, ast.Dict):
        for key, value in zip(extras.keys, extras.values, strict=False):
            if isinstance(key, ast.Constant) and isinstance(key.value, str):
                resolved = _resolve(value, names)
                declared[f"optional-dependencies.{key.value}"] = _names(resolved)
                files = _files_read(resolved)
                if files:  # `extras('redis.txt')`: the extra's list lives in that file
                    data["dynamic_extras_files"][key.value] = [
                        posixpath.normpath(posixpath.join(posixpath.dirname(path), f))
                        for f in files
                    ]
    if _keyword(call, "tests_require") is not None:
        declared["tests_require"] = _names(value_of("tests_require"))
    for field_name, keyword in (("name", "name"), ("requires_python", "python_requires")):
        value = value_of(keyword)
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            data[field_name] = value.value
    data["classifiers"] = python_versions_from_classifiers(_strings(value_of("classifiers")))
    return declared, data


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
    if any(k.arg is None for k in call.keywords) and not all(
        _keyword(call, KEYWORDS.get(k, "extras_require")) for k in by_key
    ):
        raise ManifestError("setup() takes **kwargs; its dependency arguments are not literal")
    src = _Source(text)
    nl = newline_of(text)
    step = "    "
    call_multiline = "\n" in text[src.start(call) : src.end(call)]
    call_quote = _quote(src, [k.value for k in call.keywords])
    edits: list[_Edit] = []
    new_keywords: list[tuple[str, list[str]]] = []
    extras_new: dict[str, list[Requirement]] = {}
    for key, reqs in by_key.items():
        adds = sorted(
            new_requirements(reqs, declared.get(key, [])), key=lambda r: canonical(r.name)
        )
        if key in KEYWORDS:
            keyword = KEYWORDS[key]
            kw = _keyword(call, keyword)
            if kw is None:
                texts = [_requirement_literal(r, call_quote) for r in adds]
                new_keywords.append((keyword, _list_lines(texts, call_multiline, step)))
            elif not isinstance(kw.value, ast.List | ast.Tuple):
                raise ManifestError(f"{keyword} is not a literal list")
            else:
                quote = _quote(src, kw.value.elts, call_quote)
                items = [(r.name, _requirement_literal(r, quote)) for r in adds]
                edits += _insert_items(src, kw.value, items, nl, step, call_multiline)
        elif key.startswith("optional-dependencies."):
            extras_new[key.split(".", 1)[1]] = adds
        else:
            raise ManifestError(f"setup.py has no place for {key!r}")
    if extras_new:
        edits += _extras_edits(src, call, extras_new, nl, step, call_multiline, new_keywords)
    if new_keywords:
        edits += _new_keywords(src, call, new_keywords, nl)
    new = _apply(text, edits)
    try:
        read(new, manifest.path)
    except ManifestError as exc:
        raise ManifestError(f"edit would break the file ({exc}); left untouched") from None
    return new


def _extras_edits(
    src: _Source,
    call: ast.Call,
    extras: dict[str, list[Requirement]],
    nl: str,
    step: str,
    call_multiline: bool,
    new_keywords: list[tuple[str, list[str]]],
) -> list[_Edit]:
    call_quote = _quote(src, [k.value for k in call.keywords])
    kw = _keyword(call, "extras_require")
    if kw is None:
        entries = []
        for extra, reqs in sorted(extras.items()):
            texts = ", ".join(_requirement_literal(r, call_quote) for r in reqs)
            entries.append(f"{_literal(extra, call_quote)}: [{texts}]")
        if call_multiline:
            lines = ["{", *[f"{step}{e}," for e in entries], "}"]
        else:
            lines = ["{" + ", ".join(entries) + "}"]
        new_keywords.append(("extras_require", lines))
        return []
    if not isinstance(kw.value, ast.Dict):
        raise ManifestError("extras_require is not a literal dict")
    edits: list[_Edit] = []
    missing: list[tuple[str, str]] = []
    quote = _quote(src, [k for k in kw.value.keys if k is not None], call_quote)
    for extra, reqs in extras.items():
        value = next(
            (
                v
                for k, v in zip(kw.value.keys, kw.value.values, strict=False)
                if isinstance(k, ast.Constant) and k.value == extra
            ),
            None,
        )
        if value is None:
            texts = ", ".join(_requirement_literal(r, quote) for r in reqs)
            missing.append((extra, f"{_literal(extra, quote)}: [{texts}]"))
        elif isinstance(value, ast.List | ast.Tuple):
            inner = _quote(src, value.elts, call_quote)
            items = [(r.name, _requirement_literal(r, inner)) for r in reqs]
            edits += _insert_items(src, value, items, nl, step, call_multiline)
        else:
            raise ManifestError(f"extras_require[{extra!r}] is not a literal list")
    if missing:
        edits += _insert_items(src, kw.value, missing, nl, step, call_multiline)
    return edits
