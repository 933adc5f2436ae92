"""Constant folding for dynamic imports: the module names a call builds from literals.

Why: plug-in loaders name their modules in a module-level list and import them by a
computed name — `__import__("plugins.pkg", fromlist=MOD_NAMES)`,
`for n in BACKENDS: import_module(f"myapp.backends.{n}")`, `import_module(DRIVERS[kind])`.
The names are constants of the file even though the call's argument is not a literal, and
the modules they name must be installed (or are the repository's own).

What is folded (everything else is not: the name is computed at run time):
- a string literal, and f-strings and `+` concatenations of folded parts;
- `NAME[...]` where NAME is a module-level literal list/tuple/set of strings (any item) or
  a dict literal whose values are strings (any value);
- a loop variable of an enclosing `for n in ITERABLE` (statement or comprehension) where
  ITERABLE is such a module-level NAME (a dict gives its keys), `NAME.keys()`,
  `NAME.values()`, or an inline literal list/tuple/set of strings.
A module-level NAME counts only when the module assigns it once and never changes it
(`NAME.append(...)`, `NAME += ...`, `NAME[k] = ...`, `global NAME`): then its value at any
call is the literal. A bare string constant (`BACKEND = "simplejson"`) is not folded: such
a name is a default that settings override, not a list of modules the code loads.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import product

from tree_sitter import Node

MAX_FOLDED = 64  # values one expression may fold to; beyond that it is not a constant
_CONTAINERS = {"list", "tuple", "set"}
# builtins that iterate their one argument in some order: same values
_ORDERING = {b"sorted", b"list", b"tuple", b"set", b"reversed", b"frozenset"}


@dataclass(frozen=True)
class Constants:
    """A file's module-level literal containers of strings, by name."""

    items: dict[str, tuple[str, ...]]  # what `NAME[...]` gives: items, or a dict's values
    iterated: dict[str, tuple[str, ...]]  # what `for n in NAME` gives: items, or dict keys
    values: dict[str, tuple[str, ...]]  # a dict's values (`NAME.values()`)


def literal_text(node: Node) -> str | None:
    """The value of a plain string literal (no interpolation, no escapes), else None."""
    if node.type != "string":
        return None
    value = ""
    for child in node.children:
        if child.type == "string_content":
            value += (child.text or b"").decode("utf-8", "replace")
        elif child.type not in ("string_start", "string_end"):
            return None
    return value


def string_items(node: Node | None) -> tuple[str, ...] | None:
    """The strings of an inline literal list/tuple/set, when every item is one."""
    if node is None or node.type not in _CONTAINERS:
        return None
    out: list[str] = []
    for item in node.named_children:
        if item.type == "comment":
            continue
        text = literal_text(item)
        if text is None:
            return None
        out.append(text)
    return tuple(out)


def _dict_strings(node: Node) -> tuple[tuple[str, ...] | None, tuple[str, ...] | None]:
    keys: list[str] | None = []
    values: list[str] | None = []
    for pair in node.named_children:
        if pair.type == "comment":
            continue
        if pair.type != "pair":
            return None, None  # `**other`: not a literal
        key = pair.child_by_field_name("key")
        value = pair.child_by_field_name("value")
        key_text = literal_text(key) if key is not None else None
        value_text = literal_text(value) if value is not None else None
        keys = None if keys is None or key_text is None else [*keys, key_text]
        values = None if values is None or value_text is None else [*values, value_text]
    return (
        tuple(keys) if keys is not None else None,
        tuple(values) if values is not None else None,
    )


def _changed(name: str, src: bytes) -> bool:
    word = re.escape(name.encode())
    pattern = (
        rb"\b" + word + rb"\s*(?:\.\s*(?:append|extend|insert|update|add|setdefault|remove|pop"
        rb"|clear|discard)\s*\(|[+|&-]=|\[[^\]\n]*\]\s*=[^=])"
        rb"|\bglobal\s+[\w\s,]*\b" + word + rb"\b"
    )
    if re.search(pattern, src) is not None:
        return True
    # bound again anywhere (inside an `if`, a `try`, a function): not one value
    rebinding = rb"(?m)^[ \t]*" + word + rb"\s*(?::[^=\n]*)?=[^=]"
    return len(re.findall(rebinding, src)) > 1


def module_constants(root: Node, src: bytes) -> Constants:
    """The module-level names bound once to a literal container of strings."""
    found: dict[str, Node] = {}
    seen: set[str] = set()
    for statement in root.named_children:
        if statement.type != "expression_statement" or not statement.named_children:
            continue
        assignment = statement.named_children[0]
        if assignment.type not in ("assignment", "augmented_assignment"):
            continue
        left = assignment.child_by_field_name("left")
        right = assignment.child_by_field_name("right")
        if left is None or left.type != "identifier":
            continue
        name = (left.text or b"").decode()
        if name in seen or assignment.type == "augmented_assignment":
            found.pop(name, None)
        elif right is not None:
            found[name] = right
        seen.add(name)
    items: dict[str, tuple[str, ...]] = {}
    iterated: dict[str, tuple[str, ...]] = {}
    values: dict[str, tuple[str, ...]] = {}
    for name, node in found.items():
        if _changed(name, src):
            continue
        if node.type in _CONTAINERS:
            strings = string_items(node)
            if strings is not None:
                items[name] = iterated[name] = strings
        elif node.type == "dictionary":
            keys, dict_values = _dict_strings(node)
            if keys is not None:
                iterated[name] = keys
            if dict_values is not None:
                items[name] = values[name] = dict_values
    return Constants(items, iterated, values)


def _iterable(node: Node | None, consts: Constants) -> tuple[str, ...] | None:
    """What a `for` loop over `node` binds its variable to, when that is constant."""
    if node is None:
        return None
    if node.type == "identifier":
        return consts.iterated.get((node.text or b"").decode())
    if node.type == "call":
        function = node.child_by_field_name("function")
        arguments = node.child_by_field_name("arguments")
        if function is None or arguments is None:
            return None
        if function.type == "identifier" and function.text in _ORDERING:
            inner = [a for a in arguments.named_children if a.type != "comment"]
            return _iterable(inner[0], consts) if len(inner) == 1 else None
        if function.type != "attribute" or arguments.named_children:
            return None
        owner = function.child_by_field_name("object")
        method = (function.child_by_field_name("attribute") or function).text or b""
        name = (owner.text or b"").decode() if owner is not None else ""
        if method == b"values":
            return consts.values.get(name)
        if method == b"keys" and name in consts.values:
            return consts.iterated.get(name)
        return None
    return string_items(node)


def _loop_values(identifier: Node, consts: Constants) -> tuple[str, ...] | None:
    """The values a loop variable takes, from the nearest enclosing loop binding it."""
    name = identifier.text or b""
    node: Node | None = identifier.parent
    while node is not None:
        loops = [node] if node.type == "for_statement" else []
        loops += [c for c in node.named_children if c.type == "for_in_clause"]
        for loop in loops:
            left = loop.child_by_field_name("left")
            if left is not None and left.type == "identifier" and left.text == name:
                if loop.type == "for_statement" and not _inside(identifier, loop, "body"):
                    continue
                return _iterable(loop.child_by_field_name("right"), consts)
        if node.type in ("function_definition", "class_definition", "module"):
            return None
        node = node.parent
    return None


def _inside(node: Node, holder: Node, field_name: str) -> bool:
    part = holder.child_by_field_name(field_name)
    return part is not None and part.start_byte <= node.start_byte < part.end_byte


def _combine(parts: list[tuple[str, ...]]) -> tuple[str, ...] | None:
    size = 1
    for part in parts:
        size *= len(part)
    if size > MAX_FOLDED:
        return None
    return tuple(dict.fromkeys("".join(p) for p in product(*parts)))


def fold(node: Node | None, consts: Constants) -> tuple[str, ...] | None:
    """Every string `node` can evaluate to, when the file's constants decide it."""
    if node is None:
        return None
    kind = node.type
    if kind == "parenthesized_expression" and len(node.named_children) == 1:
        return fold(node.named_children[0], consts)
    if kind == "string":
        return _fold_string(node, consts)
    if kind == "identifier":
        return _loop_values(node, consts)
    if kind == "subscript":
        owner = node.child_by_field_name("value")
        if owner is not None and owner.type == "identifier":
            return consts.items.get((owner.text or b"").decode())
        return None
    if kind == "binary_operator":
        operator = node.child_by_field_name("operator")
        if operator is None or operator.type != "+":
            return None
        left = fold(node.child_by_field_name("left"), consts)
        right = fold(node.child_by_field_name("right"), consts)
        return _combine([left, right]) if left is not None and right is not None else None
    return None


def _fold_string(node: Node, consts: Constants) -> tuple[str, ...] | None:
    parts: list[tuple[str, ...]] = []
    for child in node.children:
        if child.type in ("string_start", "string_end"):
            continue
        if child.type == "string_content":
            parts.append(((child.text or b"").decode("utf-8", "replace"),))
        elif child.type == "interpolation":
            inner = [c for c in child.named_children if c.type != "comment"]
            if len(inner) != 1:
                return None  # a conversion (`!r`) or format spec changes the text
            folded = fold(inner[0], consts)
            if folded is None:
                return None
            parts.append(folded)
        else:
            return None  # escape sequences and the like: not a plain name
    return _combine(parts)


class FileConstants:
    """A file's constants, read on first use (most files never need them)."""

    def __init__(self, root: Node, src: bytes) -> None:
        self.root = root
        self.src = src
        self._value: Constants | None = None

    def get(self) -> Constants:
        if self._value is None:
            self._value = module_constants(self.root, self.src)
        return self._value

    def fold(self, node: Node | None) -> tuple[str, ...] | None:
        return fold(node, self.get())

    def names(self, node: Node | None) -> tuple[str, ...] | None:
        """A `fromlist=`: an inline literal list of strings or a module-level one."""
        if node is not None and node.type == "identifier":
            return self.get().iterated.get((node.text or b"").decode())
        return string_items(node)


def chooses(node: Node) -> bool:
    """The expression picks one value of a constant (`DRIVERS[kind]`): each module it
    folds to is one choice, loaded only when the run-time key asks for it."""
    if node.type == "subscript":
        return True
    return any(chooses(child) for child in node.named_children)
