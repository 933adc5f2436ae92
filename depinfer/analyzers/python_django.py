"""Modules a Django settings file names in strings: Django imports them, the code never does.

Why: `INSTALLED_APPS = ["corsheaders", ...]`, `MIDDLEWARE.append("csp.middleware.
CSPMiddleware")` or `CACHES = {"default": {"BACKEND": "django_redis.cache.RedisCache"}}`
make Django import those modules at start-up (Django's documentation, "Settings"
reference — INSTALLED_APPS, MIDDLEWARE,
AUTHENTICATION_BACKENDS, PASSWORD_HASHERS, TEMPLATES, CACHES, STORAGES, EMAIL_BACKEND,
SESSION_ENGINE, TEST_RUNNER; Django REST framework's settings name classes the same way).
Only the settings whose values are import paths are read, so host names and file names in
other settings are never taken for modules. Each string becomes a dynamic ImportRef of the
dotted path (the mapping stage takes the longest known prefix: `csp` → django-csp).
"""

from __future__ import annotations

import ast
import re
from functools import lru_cache

from depinfer.data import load_table
from depinfer.facts.python import ImportFacts
from depinfer.model import FileKind, ImportRef
from depinfer.patterns import compile_kept, lazy


@lru_cache(maxsize=1)
def _table() -> dict[str, frozenset[str] | tuple[str, ...]]:
    """The settings table (its source named in the file)."""
    doc = load_table("python/django_settings.json")
    out: dict[str, frozenset[str] | tuple[str, ...]] = {
        k: frozenset(doc[k])
        for k in ("app_lists", "path_lists", "path_values", "dicts", "path_keys")
    }
    out["path_key_suffixes"] = tuple(doc["path_key_suffixes"])
    return out


_DOTTED = lazy(r"^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*$")
_MARK = lazy(r"\b(INSTALLED_APPS|MIDDLEWARE)\b")


@lru_cache(maxsize=1)
def _assigned_mark() -> re.Pattern[str]:
    """`NAME =` of a setting whose value is an import path: settings split over several
    modules (config/settings/files_and_storages.py sets DEFAULT_FILE_STORAGE alone)."""
    table = _table()
    names = sorted(table["path_values"] | table["path_lists"])
    return compile_kept(rf"(?m)^\s*({'|'.join(map(re.escape, names))})\s*(?::[^=\n]*)?\+?=")


@lru_cache(maxsize=1)
def _setting_words() -> tuple[str, ...]:
    table = _table()
    return ("INSTALLED_APPS", "MIDDLEWARE", *sorted(table["path_values"] | table["path_lists"]))


def _mentions_setting(text: str) -> bool:
    """`_MARK` or `_assigned_mark()` matches; a substring test first (the expressions
    start with `\\b` or `^`, which makes the regular-expression engine try every offset)."""
    if not any(word in text for word in _setting_words()):
        return False
    return bool(_MARK.search(text) or _assigned_mark().search(text))


def refs(path: str, text: str, kind: FileKind) -> list[ImportRef]:
    """Dynamic refs for the import paths a Django settings module names (empty otherwise)."""
    if not _mentions_setting(text):
        return []
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return []
    table = _table()
    found: list[tuple[str, int, str]] = []
    for node in ast.walk(tree):
        name, value = _setting(node)
        if name is None or value is None:
            continue
        if name in table["app_lists"]:
            found += [(s, n, name) for s, n in string_items(value) if _DOTTED.match(s)]
        elif name in table["path_lists"] or name in table["path_values"]:
            found += [(s, n, name) for s, n in string_items(value) if _is_path(s)]
        elif name in table["dicts"]:
            found += [(s, n, name) for s, n in _dict_paths(value) if _is_path(s)]
    out: list[ImportRef] = []
    seen: set[str] = set()
    for module, line, setting in found:
        if module in seen:
            continue
        seen.add(module)
        out.append(
            ImportRef(
                module,
                path,
                line,
                "python",
                kind,
                dynamic=True,
                facts=ImportFacts(django_setting=setting),
            )
        )
    return out


def _setting(node: ast.AST) -> tuple[str | None, ast.AST | None]:
    """(setting name, value) of `NAME = v`, `NAME += v`, `NAME.append/extend/insert(v)`."""
    if isinstance(node, ast.Assign):
        for target in node.targets:
            if isinstance(target, ast.Name) and target.id.isupper():
                return target.id, node.value
    elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
        if isinstance(node.target, ast.Name) and node.value is not None:
            return node.target.id, node.value
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        owner = node.func.value
        if (
            isinstance(owner, ast.Name)
            and node.func.attr in ("append", "extend", "insert")
            and node.args
        ):
            return owner.id, ast.Tuple(elts=list(node.args[-1:]), ctx=ast.Load())
    return None, None


def string_items(value: ast.AST) -> list[tuple[str, int]]:
    """String items of a list/tuple/concatenation (or a single string)."""
    if isinstance(value, ast.Constant) and isinstance(value.value, str):
        return [(value.value, value.lineno)]
    if isinstance(value, (ast.List, ast.Tuple, ast.Set)):
        out: list[tuple[str, int]] = []
        for item in value.elts:
            out += string_items(item)
        return out
    if isinstance(value, ast.BinOp):
        return string_items(value.left) + string_items(value.right)
    if isinstance(value, ast.Starred):
        return string_items(value.value)
    return []


def _dict_paths(value: ast.AST) -> list[tuple[str, int]]:
    """Strings under BACKEND/ENGINE/context_processors/loaders/*_CLASSES keys, at any depth."""
    out: list[tuple[str, int]] = []
    if isinstance(value, ast.Dict):
        for key, item in zip(value.keys, value.values, strict=False):
            k = key.value if isinstance(key, ast.Constant) and isinstance(key.value, str) else ""
            if _path_key(k):
                out += string_items(item)
            out += _dict_paths(item)
    elif (
        isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "dict"
    ):
        for kw in value.keywords:
            if kw.arg and _path_key(kw.arg):
                out += string_items(kw.value)
            out += _dict_paths(kw.value)
    elif isinstance(value, (ast.List, ast.Tuple)):
        for item in value.elts:
            out += _dict_paths(item)
    return out


def _path_key(key: str) -> bool:
    table = _table()
    return key in table["path_keys"] or key.endswith(table["path_key_suffixes"])


def _is_path(text: str) -> bool:
    return "." in text and bool(_DOTTED.match(text))
