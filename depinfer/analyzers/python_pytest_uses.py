"""Where a repository's Python files use or define pytest fixtures, markers and plugins.

The reading half of rules/python_pytest.py (which looks the uses up in the plugin table): a
test's fixture parameters, `pytest.mark.NAME`, `pytest_plugins = [...]`, `usefixtures` /
`getfixturevalue`, and what the repository defines itself (`@pytest.fixture`, markers
registered by `config.addinivalue_line`, `parametrize` names). It sits beside the import
analyzer so that the analyzer can read these facts from the tree it has just parsed, in the
same pass (and the same worker process): each file is parsed once per run (issue 27), and
the answer is kept in the per-file analysis cache under PYTEST_SCAN for the rules stage.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import PurePosixPath

from tree_sitter import Node, Query, QueryCursor

from depinfer.analyzers.python_constants import literal_text as string_literal
from depinfer.analyzers.python_trees import LANGUAGE, parse_source
from depinfer.filecache import content_key
from depinfer.model import FileKind

FIXTURE_DECORATORS = {"fixture", "yield_fixture"}
NOT_FIXTURES = {"self", "cls", "request"}
PYTEST_SCAN = "pytest-uses"  # its entries' name in the per-file analysis cache
# words that make a file that is not a test worth reading (it may define fixtures, markers)
PYTEST_WORDS = ("fixture", "addinivalue_line")
_PYTEST_BYTES = tuple(word.encode() for word in PYTEST_WORDS)


@dataclass(frozen=True)
class Use:
    """A place where a test names something a plugin may provide."""

    kind: str  # marker | fixture | plugin | ini | option
    name: str
    file: str
    line: int


@dataclass
class Found:
    """What the repository's files say: uses, and what it defines itself."""

    uses: list[Use] = field(default_factory=list)
    fixtures: set[str] = field(default_factory=set)
    markers: set[str] = field(default_factory=set)
    parametrized: set[str] = field(default_factory=set)


def is_test_file(rel: str, kind: FileKind) -> bool:
    return kind in (FileKind.TEST, FileKind.BENCH) or PurePosixPath(rel).name == "conftest.py"


def worth_reading(text: str | bytes, uses_wanted: bool) -> bool:
    """`scan_python` finds something only in a test file or one that may define fixtures or
    register markers; the others are not read (nor kept in the cache)."""
    words = _PYTEST_BYTES if isinstance(text, bytes) else PYTEST_WORDS
    return uses_wanted or any(word in text for word in words)  # type: ignore[operator]


def scan_key(rel: str, text: str, uses_wanted: bool) -> str:
    """The per-file analysis cache key of one file's `scan_python` answer."""
    return content_key(PYTEST_SCAN, text, rel, uses_wanted)


def scan_one(rel: str, text: str, uses_wanted: bool) -> Found:
    """One file's answer, as the cache keeps it."""
    part = Found()
    scan_python(rel, text, uses_wanted, part)
    return part


def scan_python(rel: str, text: str, uses_wanted: bool, found: Found) -> None:
    """Definitions from any Python file; uses only from test files (`uses_wanted`)."""
    if not worth_reading(text, uses_wanted):
        return
    src = text.encode("utf-8", "replace")
    root = parse_source(src, keep=False).root_node  # the analyzer's tree, when kept
    mark_alias = bool(re.search(r"from\s+pytest\s+import[^\n]*\bmark\b", text))
    for node in _read_nodes(root, text, src):
        if node.type == "function_definition":
            _function(node, rel, uses_wanted, found)
        elif node.type == "call":
            _call(node, rel, uses_wanted, found)
        elif node.type == "attribute" and uses_wanted:
            name = _marker_name(node, mark_alias)
            if name:
                found.uses.append(Use("marker", name, rel, _line(node)))
        elif node.type == "assignment" and uses_wanted and _at_module_level(node):
            if _text(node.child_by_field_name("left")) == "pytest_plugins":
                for value in _strings(node.child_by_field_name("right")):
                    found.uses.append(Use("plugin", value, rel, _line(node)))


def _at_module_level(node: Node) -> bool:
    statement = node.parent
    return (
        statement is not None
        and statement.parent is not None
        and (statement.parent.type == "module")
    )


# The only nodes scan_python reads; the query finds them in C, not node by node. Calls,
# attributes and assignments are asked for only when the file's text has a word their
# readers look for, and kept only when their callee / object / target's text contains it
# (a superset of what the readers accept: a node left out would have changed nothing).
# The query walks the whole tree; `_nodes_at_words` finds the same nodes from where their
# words are (as the analyzer finds imports), and is used unless the tree has errors.
_READ_PATTERNS = (
    ((), "(function_definition) @n"),
    (
        ("parametrize", "addinivalue_line", "usefixtures", "getfixturevalue"),
        '(call function: (_) @f (#match? @f "parametrize|addinivalue_line|usefixtures|getfixturevalue")) @n',
    ),
    (("mark",), '(attribute object: (_) @o (#match? @o "mark")) @n'),
    (("pytest_plugins",), '(assignment left: (_) @l (#match? @l "pytest_plugins")) @n'),
)
# per pattern after the first: the node type and the field whose text holds the word
_WORD_FIELDS = (("call", "function"), ("attribute", "object"), ("assignment", "left"))


@cache
def _read_query(wanted: tuple[bool, ...]) -> Query:
    """The query of the patterns `wanted` says (built on first use, ~1 ms each)."""
    return Query(
        LANGUAGE, " ".join(p for (_, p), w in zip(_READ_PATTERNS, wanted, strict=True) if w)
    )


def _read_nodes(root: Node, text: str, src: bytes) -> list[Node] | Iterator[Node]:
    """The nodes of `_READ_PATTERNS` in the order `_walk` meets them (parents first, then
    document order; two of them never share a span, or `_walk` itself decides)."""
    wanted = tuple(not words or any(w in text for w in words) for words, _ in _READ_PATTERNS)
    if root.has_error:
        nodes = QueryCursor(_read_query(wanted)).captures(root).get("n", [])
    else:
        nodes = _nodes_at_words(root, src, wanted)
    nodes.sort(key=lambda n: (n.start_byte, -n.end_byte))
    for a, b in zip(nodes, nodes[1:], strict=False):
        if a.start_byte == b.start_byte and a.end_byte == b.end_byte:
            return (n for n in _walk(root) if n.type in _READ_KINDS)
    return nodes


def _nodes_at_words(root: Node, src: bytes, wanted: tuple[bool, ...]) -> list[Node]:
    """What `_read_query(wanted)` captures as `n`, found from the words' offsets: each
    function definition's `def`, and every call / attribute / assignment above an
    occurrence of one of its pattern's words that its field (callee, object, target)
    spans. A node the query keeps has its field's text contain a word, so it is above
    that occurrence; a tree without errors has no zero-width `def`."""
    found: dict[int, Node] = {}
    for start in _offsets(src, b"def"):
        keyword = root.descendant_for_byte_range(start, start + 3)
        if keyword is not None and keyword.type == "def":
            parent = keyword.parent
            if parent is not None and parent.type == "function_definition":
                found[parent.id] = parent
    for (words, _), (kind, field_name), want in zip(
        _READ_PATTERNS[1:], _WORD_FIELDS, wanted[1:], strict=True
    ):
        if not want:
            continue
        for word in words:
            encoded = word.encode()
            for start in _offsets(src, encoded):
                end = start + len(encoded)
                node = root.descendant_for_byte_range(start, end)
                while node is not None:
                    if node.type == kind and node.id not in found:
                        part = node.child_by_field_name(field_name)
                        if part is not None and part.start_byte <= start and end <= part.end_byte:
                            found[node.id] = node
                    node = node.parent
    return list(found.values())


def _offsets(src: bytes, word: bytes) -> Iterator[int]:
    position = src.find(word)
    while position >= 0:
        yield position
        position = src.find(word, position + 1)


_READ_KINDS = frozenset({"function_definition", "call", "attribute", "assignment"})


def _walk(root: Node) -> Iterator[Node]:
    stack = [root]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(reversed(node.children))


def _function(node: Node, rel: str, uses_wanted: bool, found: Found) -> None:
    name = _text(node.child_by_field_name("name"))
    decorators = _decorators(node)
    fixture = False
    for deco in decorators:
        callee = deco.child_by_field_name("function") if deco.type == "call" else deco
        if _text(callee).split(".")[-1] in FIXTURE_DECORATORS:
            fixture = True
            found.fixtures.add(name)
            for key, value in _keywords(deco):
                if key == "name":
                    found.fixtures.update(_strings(value))
    if not uses_wanted or not (fixture or (name.startswith("test") and _collected(node))):
        return
    params = _params(node.child_by_field_name("parameters"))
    supplied: set[str] = set()
    for deco in decorators + _class_decorators(node):
        if deco.type != "call":
            continue
        callee = _text(deco.child_by_field_name("function")).split(".")[-1]
        if callee == "given":
            positional = [a for a in _args(deco) if a.type != "keyword_argument"]
            supplied.update(params[len(params) - len(positional) :] if positional else [])
        supplied.update(k for k, _ in _keywords(deco) if callee == "given")
    for param in params:
        if param not in supplied and param not in NOT_FIXTURES:
            found.uses.append(Use("fixture", param, rel, _line(node)))


def _collected(node: Node) -> bool:
    """pytest collects `test*` functions at module level and in `Test*` classes, not
    functions nested in other functions or in helper classes."""
    parent = node.parent
    while parent is not None:
        if parent.type == "function_definition":
            return False
        if parent.type == "class_definition":
            if not _text(parent.child_by_field_name("name")).startswith("Test"):
                return False
        parent = parent.parent
    return True


def _call(node: Node, rel: str, uses_wanted: bool, found: Found) -> None:
    callee = _text(node.child_by_field_name("function")).split(".")[-1]
    args = _args(node)
    if callee == "parametrize" and args:
        for value in _strings(args[0]):
            found.parametrized.update(n.strip() for n in value.split(",") if n.strip())
    elif callee == "addinivalue_line" and len(args) >= 2:
        if _strings(args[0]) == ["markers"]:
            for value in _strings(args[1]):
                m = re.match(r"\s*(\w+)", value)
                if m:
                    found.markers.add(m.group(1))
    elif callee in ("usefixtures", "getfixturevalue") and uses_wanted:
        for arg in args:
            for value in _strings(arg):
                found.uses.append(Use("fixture", value, rel, _line(node)))


def _marker_name(node: Node, mark_alias: bool) -> str | None:
    """`pytest.mark.NAME` (or `mark.NAME` after `from pytest import mark`)."""
    obj = _text(node.child_by_field_name("object"))
    if obj == "pytest.mark" or (mark_alias and obj == "mark"):
        return _text(node.child_by_field_name("attribute")) or None
    return None


def _decorators(node: Node) -> list[Node]:
    parent = node.parent
    if parent is None or parent.type != "decorated_definition":
        return []
    out = []
    for child in parent.children:
        if child.type == "decorator":
            expr = next((c for c in child.children if c.is_named), None)
            if expr is not None:
                out.append(expr)
    return out


def _class_decorators(node: Node) -> list[Node]:
    out: list[Node] = []
    parent = node.parent
    while parent is not None:
        if parent.type == "class_definition":
            out += _decorators(parent)
        parent = parent.parent
    return out


def _params(node: Node | None) -> list[str]:
    """Parameter names a fixture could fill: plain and annotated, not defaulted or starred."""
    out: list[str] = []
    for child in node.named_children if node is not None else []:
        if child.type == "identifier":
            out.append(_text(child))
        elif child.type == "typed_parameter":
            first = child.named_children[0] if child.named_children else None
            if first is not None and first.type == "identifier":
                out.append(_text(first))
    return out


def _args(call: Node) -> list[Node]:
    arguments = call.child_by_field_name("arguments")
    return list(arguments.named_children) if arguments is not None else []


def _keywords(call: Node) -> list[tuple[str, Node | None]]:
    if call.type != "call":
        return []
    return [
        (_text(a.child_by_field_name("name")), a.child_by_field_name("value"))
        for a in _args(call)
        if a.type == "keyword_argument"
    ]


def _strings(node: Node | None) -> list[str]:
    """A string literal's value, or the literal strings of a list/tuple."""
    if node is None:
        return []
    if node.type == "string":
        value = string_literal(node)
        return [value] if value is not None else []
    if node.type in ("list", "tuple", "parenthesized_expression"):
        return [v for child in node.named_children for v in _strings(child)]
    if node.type == "concatenated_string":
        parts = [string_literal(c) for c in node.named_children]
        return (
            ["".join(p for p in parts if p is not None)]
            if all(p is not None for p in parts)
            else []
        )
    return []


def _text(node: Node | None) -> str:
    if node is None:
        return ""
    return "".join((node.text or b"").decode("utf-8", "replace").split())


def _line(node: Node) -> int:
    return node.start_point[0] + 1
