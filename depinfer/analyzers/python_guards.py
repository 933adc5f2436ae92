"""Turn the condition of an `if` around an import into what it means for dependencies.

Why: `if sys.version_info < (3, 11): import tomli` means the project needs tomli only on old
Pythons, and `if TYPE_CHECKING:` means it needs nothing at runtime. The manifest can say the
first one exactly with a PEP 508 environment marker (`tomli; python_version < "3.11"`).

A condition is read into a `Guard`: what is necessarily true when the branch runs (`pos`)
and when it does not (`neg`, for `else`). Parts we cannot read (`x is not None`) simply add
nothing, so `A and unknown` still tells us `A` holds in the body, while its `else` says
nothing. Markers are small trees (`Atom`, ("and", …), ("or", …)) so negation follows
De Morgan exactly and rendering adds parentheses only where `or` sits inside `and`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Union

from tree_sitter import Node

from depinfer.data import load_table

# A PEP 508 comparison: (left, op, right), both sides already rendered ("sys_platform", '"win32"').
Atom = tuple[str, str, str]
Expr = Union[Atom, tuple[str, tuple["Expr", ...]]]  # noqa: UP007 (recursive alias)

_NEGATE_OP = {
    "==": "!=",
    "!=": "==",
    "<": ">=",
    ">=": "<",
    ">": "<=",
    "<=": ">",
    "in": "not in",
    "not in": "in",
}
_FLIP_OP = {"<": ">", ">": "<", "<=": ">=", ">=": "<=", "==": "==", "!=": "!="}
_COMPARE_OPS = {"<", "<=", "==", "!=", ">=", ">", "<>", "in", "not in", "is", "is not"}

# Expressions (whitespace removed) naming an environment fact → the PEP 508 variable.
_STRING_SUBJECTS = {
    "sys.platform": "sys_platform",
    "platform": "sys_platform",  # `from sys import platform` (the module never equals a str)
    "os.name": "os_name",
    "platform.system()": "platform_system",
    "platform.machine()": "platform_machine",
    "platform.python_implementation()": "platform_python_implementation",
    "sys.implementation.name": "implementation_name",
}
# `platform.system().lower() == "windows"`: the marker compares the real spelling.
_PLATFORM_SYSTEM_NAMES = {
    "windows": "Windows",
    "linux": "Linux",
    "darwin": "Darwin",
    "java": "Java",
    "freebsd": "FreeBSD",
    "openbsd": "OpenBSD",
    "netbsd": "NetBSD",
    "sunos": "SunOS",
    "aix": "AIX",
}
_IMPLEMENTATION_NAMES = {"cpython": "CPython", "pypy": "PyPy", "jython": "Jython"}
# `sys.platform.startswith(p)`: the values sys.platform really takes on Python 3.3+.
_PLATFORM_PREFIX_VALUE = {
    "linux": "linux",
    "win": "win32",
    "win32": "win32",
    "darwin": "darwin",
    "cygwin": "cygwin",
    "msys": "msys",
    "emscripten": "emscripten",
    "wasi": "wasi",
    "ios": "ios",
}
_VERSION_INFO = {"sys.version_info", "_sys.version_info", "version_info"}
_MAJOR_ONLY = {f"{v}{part}" for v in _VERSION_INFO for part in ("[0]", ".major")}
_TYPE_CHECKING = {"TYPE_CHECKING", "MYPY", "False"}  # package literal: a flag name


@lru_cache(maxsize=1)
def version_flags() -> dict[str, Atom]:
    """Python 2/3 flags of six and of projects that copy its names → the marker atom of
    their true branch (data/python/version_flags.json)."""
    rows = load_table("python/version_flags.json")["flags"]
    return {r["name"]: ("python_version", r["op"], f'"{r["version"]}"') for r in rows}


_MAX_DEPTH = 40


@dataclass(frozen=True)
class Guard:
    """What a condition says about the environment in its true and its false branch."""

    pos: Expr | None = None
    neg: Expr | None = None
    pos_type_checking: bool = False  # the true branch only runs under a type checker
    neg_type_checking: bool = False

    def negated(self) -> Guard:
        return Guard(self.neg, self.pos, self.neg_type_checking, self.pos_type_checking)


UNKNOWN = Guard()


def negate(expr: Expr) -> Expr:
    if len(expr) == 3:
        left, op, right = expr  # type: ignore[misc]
        return (left, _NEGATE_OP[op], right)
    kind, parts = expr  # type: ignore[misc]
    return ("or" if kind == "and" else "and", tuple(negate(p) for p in parts))


def conjoin(parts: list[Expr | None]) -> Expr | None:
    """`and` of the known parts (unknown parts are dropped: they only weaken the guard)."""
    known: list[Expr] = []
    for p in parts:
        if p is None:
            continue
        for q in p[1] if len(p) == 2 and p[0] == "and" else (p,):  # flatten nested and
            if q not in known:
                known.append(q)
    # `x != "a" and x == "b"` is just `x == "b"` (an elif after an if on the same variable)
    equal = {(q[0], q[2]) for q in known if len(q) == 3 and q[1] == "=="}
    known = [
        q
        for q in known
        if not (
            len(q) == 3 and q[1] == "!=" and any(v == q[0] and w != q[2] for v, w in equal)  # type: ignore[misc]
        )
    ]
    # absorption: `X and (X or Y)` is `X`
    known = [
        q for q in known if not (len(q) == 2 and q[0] == "or" and any(p in known for p in q[1]))
    ]
    if not known:
        return None
    return known[0] if len(known) == 1 else ("and", tuple(known))


def disjoin(parts: list[Expr | None]) -> Expr | None:
    """`or` of the parts; unknown when any part is unknown."""
    if not parts or any(p is None for p in parts):
        return None
    flat: list[Expr] = []
    for p in parts:
        assert p is not None
        for q in p[1] if len(p) == 2 and p[0] == "or" else (p,):
            if q not in flat:
                flat.append(q)
    return flat[0] if len(flat) == 1 else ("or", tuple(flat))


def render(expr: Expr, inside_and: bool = False) -> str:
    if len(expr) == 3:
        return " ".join(expr)  # type: ignore[arg-type]
    kind, parts = expr  # type: ignore[misc]
    if kind == "and":
        return " and ".join(render(p, True) for p in parts)
    text = " or ".join(render(p) for p in parts)
    return f"({text})" if inside_and else text


def _compact(node: Node) -> str:
    return "".join((node.text or b"").decode("utf-8", "replace").split())


def _string_value(node: Node) -> str | None:
    if node.type != "string":
        return None
    content = ""
    for child in node.children:
        if child.type == "string_content":
            content += (child.text or b"").decode("utf-8", "replace")
        elif child.type not in ("string_start", "string_end"):
            return None  # interpolation or escapes: not a plain literal
    return content


def _int_value(node: Node) -> int | None:
    if node.type != "integer":
        return None
    try:
        return int((node.text or b"").decode())
    except ValueError:
        return None


def _int_tuple(node: Node) -> tuple[int, ...] | None:
    if node.type not in ("tuple", "list"):
        return None
    values = []
    for child in node.named_children:
        if child.type == "comment":
            continue
        value = _int_value(child)
        if value is None:
            return None
        values.append(value)
    return tuple(values) if values else None


def _string_items(node: Node) -> list[str] | None:
    if node.type not in ("tuple", "list", "set"):
        single = _string_value(node)
        return None if single is None else [single]
    items = []
    for child in node.named_children:
        if child.type == "comment":
            continue
        value = _string_value(child)
        if value is None:
            return None
        items.append(value)
    return items or None


def _version_subject(node: Node) -> int | None:
    """0 for the whole `sys.version_info`, k for `sys.version_info[:k]`, 1 for the major."""
    text = _compact(node)
    if text in _VERSION_INFO:
        return 0
    if text in _MAJOR_ONLY:
        return 1
    for prefix in _VERSION_INFO:
        for lead in (f"{prefix}[:", f"{prefix}[0:"):
            if text.startswith(lead) and text.endswith("]") and text[len(lead) : -1].isdigit():
                return int(text[len(lead) : -1])
    return None


def _version_text(values: tuple[int, ...]) -> tuple[str, str]:
    variable = "python_full_version" if len(values) >= 3 else "python_version"
    return variable, '"' + ".".join(str(v) for v in values[:3]) + '"'


def _version_atom(width: int, op: str, values: tuple[int, ...]) -> Expr | None:
    """`sys.version_info[:width] op values` as a marker (width 0 = the full 5-tuple)."""
    if op not in _FLIP_OP:
        return None
    if width == 1 and len(values) == 1:  # sys.version_info[0] / .major against an int
        # Only majors 2 and 3 exist, so `== 3` is `>= "3"` and `== 2` is `< "3"`.
        major = values[0]
        at_least: Atom = ("python_version", ">=", f'"{major}"')
        below: Atom = ("python_version", "<", f'"{major}"')
        at_least_next: Atom = ("python_version", ">=", f'"{major + 1}"')
        below_next: Atom = ("python_version", "<", f'"{major + 1}"')
        if op == "==":
            return at_least if major >= 3 else below_next
        if op == "!=":
            return below if major >= 3 else at_least_next
        return {"<": below, ">=": at_least, ">": at_least_next, "<=": below_next}[op]
    if width == 0 or len(values) < width:
        # A longer tuple compares greater than its own prefix: version_info > (3, 11) holds
        # on 3.11.0 already, and version_info <= (3, 11) never holds on 3.11.
        op = {">": ">=", "<=": "<"}.get(op, op)
        if op in ("==", "!="):
            return None
    elif len(values) > width:
        return None
    variable, value = _version_text(values)
    return (variable, op, value)


def _string_atom(variable: str, op: str, values: list[str], lower: bool) -> Expr | None:
    if lower and variable == "platform_system":
        values = [_PLATFORM_SYSTEM_NAMES.get(v.lower(), v) for v in values]
    elif lower and variable == "platform_python_implementation":
        values = [_IMPLEMENTATION_NAMES.get(v.lower(), v) for v in values]
    if op in ("==", "!="):
        if len(values) != 1:
            return None
        return (variable, op, f'"{values[0]}"')
    if op in ("in", "not in"):
        atoms: list[Expr | None] = [(variable, "==", f'"{v}"') for v in values]
        either = disjoin(atoms)
        if either is None:
            return None
        return either if op == "in" else negate(either)
    return None


def _string_subject(node: Node) -> tuple[str, bool] | None:
    text = _compact(node)
    lower = False
    for suffix in (".lower()", ".casefold()"):
        if text.endswith(suffix):
            text, lower = text[: -len(suffix)], True
    variable = _STRING_SUBJECTS.get(text)
    return (variable, lower) if variable else None


def _comparison(node: Node) -> Expr | None:
    operands: list[Node] = []
    ops: list[str] = []
    for child in node.children:
        if child.type in _COMPARE_OPS:
            ops.append(child.type)
        elif child.type != "comment":
            operands.append(child)
    if len(operands) != len(ops) + 1:
        return None
    parts: list[Expr | None] = []
    for i, op in enumerate(ops):
        parts.append(_pair(operands[i], op, operands[i + 1]))
    if all(p is None for p in parts):
        return None
    if len(parts) == 1:
        return parts[0]
    return conjoin(parts)


def _pair(left: Node, op: str, right: Node) -> Expr | None:
    if op == "<>":
        op = "!="
    # subject on the left
    for subject, other, operator in ((left, right, op), (right, left, _FLIP_OP.get(op))):
        if operator is None:
            continue
        width = _version_subject(subject)
        if width is not None:
            values = _int_tuple(other)
            if values is None:
                single = _int_value(other)
                values = (single,) if single is not None else None
            return None if values is None else _version_atom(width, operator, values)
        named = _string_subject(subject)
        if named is not None:
            items = _string_items(other)
            if items is None:
                return None
            return _string_atom(named[0], operator, items, named[1])
    # "win" in sys.platform: PEP 508 has the same substring test
    if op in ("in", "not in"):
        needle = _string_value(left)
        named = _string_subject(right)
        if needle is not None and named is not None and not named[1]:
            return (f'"{needle}"', op, named[0])
    return None


def _startswith(node: Node) -> Expr | None:
    function = node.child_by_field_name("function")
    arguments = node.child_by_field_name("arguments")
    if function is None or arguments is None or function.type != "attribute":
        return None
    method = function.child_by_field_name("attribute")
    target = function.child_by_field_name("object")
    if method is None or target is None or (method.text or b"") != b"startswith":
        return None
    named = _string_subject(target)
    args = [a for a in arguments.named_children if a.type != "comment"]
    if named is None or len(args) != 1:
        return None
    prefixes = _string_items(args[0])
    if not prefixes:
        return None
    variable = named[0]
    atoms: list[Expr | None] = []
    for prefix in prefixes:
        if variable == "sys_platform" and prefix in _PLATFORM_PREFIX_VALUE:
            atoms.append((variable, "==", f'"{_PLATFORM_PREFIX_VALUE[prefix]}"'))
        else:
            atoms.append((f'"{prefix}"', "in", variable))
    return disjoin(atoms)


def evaluate(node: Node | None, names: dict[str, Guard] | None = None, depth: int = 0) -> Guard:
    """Read a condition expression; `names` holds module-level flags (`WINDOWS = ...`)."""
    if node is None or depth > _MAX_DEPTH:
        return UNKNOWN
    kind = node.type
    if kind == "parenthesized_expression":
        inner = [c for c in node.named_children if c.type != "comment"]
        return evaluate(inner[0], names, depth + 1) if len(inner) == 1 else UNKNOWN
    if kind == "not_operator":
        return evaluate(node.child_by_field_name("argument"), names, depth + 1).negated()
    if kind == "boolean_operator":
        left = evaluate(node.child_by_field_name("left"), names, depth + 1)
        right = evaluate(node.child_by_field_name("right"), names, depth + 1)
        operator = node.child_by_field_name("operator")
        if operator is not None and operator.type == "or":
            return Guard(
                disjoin([left.pos, right.pos]),
                conjoin([left.neg, right.neg]),
                left.pos_type_checking and right.pos_type_checking,
                left.neg_type_checking or right.neg_type_checking,
            )
        return Guard(
            conjoin([left.pos, right.pos]),
            disjoin([left.neg, right.neg]),
            left.pos_type_checking or right.pos_type_checking,
            left.neg_type_checking and right.neg_type_checking,
        )
    if kind in ("identifier", "attribute", "false"):
        text = _compact(node)
        if text in _TYPE_CHECKING or text.endswith(".TYPE_CHECKING"):
            return Guard(pos_type_checking=True)
        if text in version_flags():
            atom = version_flags()[text]
            return Guard(atom, negate(atom))
        if names and text in names:
            return names[text]
        return UNKNOWN
    expr: Expr | None = None
    if kind == "comparison_operator":
        expr = _comparison(node)
    elif kind == "call":
        expr = _startswith(node)
    if expr is None:
        return UNKNOWN
    return Guard(expr, negate(expr))


def module_flags(root: Node) -> dict[str, Guard]:
    """Top-level `NAME = <environment test>` assignments, so `if NAME:` reads as the test."""
    flags: dict[str, Guard] = {}
    for statement in root.named_children:
        if statement.type != "expression_statement" or statement.named_child_count != 1:
            continue
        assignment = statement.named_children[0]
        if assignment.type != "assignment":
            continue
        left = assignment.child_by_field_name("left")
        right = assignment.child_by_field_name("right")
        if left is None or right is None or left.type != "identifier":
            continue
        if right.type not in ("comparison_operator", "boolean_operator", "not_operator", "call"):
            continue
        guard = evaluate(right, flags)
        if guard.pos is not None or guard.neg is not None:
            flags[(left.text or b"").decode()] = guard
    return flags
