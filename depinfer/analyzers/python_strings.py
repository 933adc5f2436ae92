"""Extension modules that library calls name in strings: the library imports them.

Why: `Environment(extensions=["jinja2_humanize_extension.HumanizeExtension"])` (Jinja) or
`markdown.markdown(text, extensions=["pymdownx.superfences"])` (Python-Markdown) load those
modules by import path; the code never imports them, yet the project must install them.
The calls and arguments come from data/python/extension_arguments.json (its sources
named there). Only dotted strings count: a bare name is an installed entry point (Markdown's
built-in `toc`). Each string becomes a dynamic ImportRef of the dotted path; the mapping
stage takes the longest known prefix (`jinja2.ext.do` stays jinja2).
"""

from __future__ import annotations

import ast
import re
import unicodedata
from functools import lru_cache

from depinfer.analyzers.python_django import string_items
from depinfer.data import load_table
from depinfer.facts.python import ImportFacts
from depinfer.model import FileKind, ImportRef
from depinfer.patterns import compile_kept, lazy

_DOTTED = lazy(r"^[A-Za-z_]\w*(\.[A-Za-z_]\w*)+$")


@lru_cache(maxsize=1)
def _table() -> tuple[dict[str, frozenset[str]], frozenset[str]]:
    doc = load_table("python/extension_arguments.json")
    keywords = {k: frozenset(v) for k, v in doc["keywords"].items()}
    return keywords, frozenset(doc["methods"])


@lru_cache(maxsize=1)
def _mark() -> re.Pattern[str]:
    keywords, methods = _table()
    kws = sorted({k for ks in keywords.values() for k in ks})
    words = [*(re.escape(k) + r"\s*=" for k in kws), *(re.escape(m) + r"\s*\(" for m in methods)]
    return compile_kept("|".join(words))


@lru_cache(maxsize=1)
def _words() -> tuple[str, ...]:
    """The keywords and methods `_mark` looks for: one must be in the text (a substring
    test is far cheaper than the expression over a text that names none)."""
    keywords, methods = _table()
    return tuple(sorted({k for ks in keywords.values() for k in ks} | set(methods)))


@lru_cache(maxsize=1)
def _callees() -> tuple[str, ...]:
    """The call names the walk in `refs` reads (a keyword's owner or a method)."""
    keywords, methods = _table()
    return tuple(sorted({*keywords, *methods}))


def _names_a_callee(text: str) -> bool:
    """Whether one of the calls `refs` reads can be in `text`: its name is. Python reads
    identifiers NFKC-normalised, so a text with other than ASCII is normalised first."""
    if not text.isascii():
        text = unicodedata.normalize("NFKC", text)
    return any(name in text for name in _callees())


def refs(path: str, text: str, kind: FileKind) -> list[ImportRef]:
    """Dynamic refs for the extension modules a file's library calls name."""
    if not any(word in text for word in _words()) or not _mark().search(text):
        return []
    if not _names_a_callee(text):  # `extensions=` alone is common (httpx's own argument)
        return []
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return []
    keywords, methods = _table()
    found: list[tuple[str, int]] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
        if name in keywords:
            for kw in node.keywords:
                if kw.arg in keywords[name]:
                    found += string_items(kw.value)
        if name in methods and isinstance(func, ast.Attribute):
            for arg in node.args:
                found += string_items(arg)
    out: list[ImportRef] = []
    seen: set[str] = set()
    for module, line in found:
        if module in seen or not _DOTTED.match(module):
            continue
        seen.add(module)
        out.append(
            ImportRef(
                module, path, line, "python", kind, dynamic=True, facts=ImportFacts(named_in="call")
            )
        )
    return out
