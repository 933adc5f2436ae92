"""Modules a Django settings file names in strings: Django imports them, the code never does.

Why: `INSTALLED_APPS = ["corsheaders", ...]`, `MIDDLEWARE.append("csp.middleware.
CSPMiddleware")` or `CACHES = {"default": {"BACKEND": "django_redis.cache.RedisCache"}}`
make Django import those modules at start-up (Django settings reference:
https://docs.djangoproject.com/en/stable/ref/settings/ — INSTALLED_APPS, MIDDLEWARE,
AUTHENTICATION_BACKENDS, PASSWORD_HASHERS, TEMPLATES, CACHES, STORAGES, EMAIL_BACKEND,
SESSION_ENGINE, TEST_RUNNER; Django REST framework's settings name classes the same way).
Only the settings whose values are import paths are read, so host names and file names in
other settings are never taken for modules. Each string becomes a dynamic ImportRef of the
dotted path (the mapping stage takes the longest known prefix: `csp` → django-csp).
"""

from __future__ import annotations

import ast
import re

from depinfer.model import FileKind, ImportRef

# settings whose value is a list of app names (one word allowed) or import paths
_APPS = {"INSTALLED_APPS", "SHARED_APPS", "TENANT_APPS", "THIRD_PARTY_APPS", "DJANGO_APPS"}
_PATH_LISTS = {
    "MIDDLEWARE",
    "MIDDLEWARE_CLASSES",
    "AUTHENTICATION_BACKENDS",
    "PASSWORD_HASHERS",
    "FILE_UPLOAD_HANDLERS",
    "STATICFILES_FINDERS",
}
_PATH_VALUES = {
    "EMAIL_BACKEND",
    "SESSION_ENGINE",
    "SESSION_SERIALIZER",
    "TEST_RUNNER",
    "DEFAULT_FILE_STORAGE",
    "STATICFILES_STORAGE",
    "MESSAGE_STORAGE",
    "CSRF_FAILURE_VIEW",
}
# dict-valued settings: only values under these keys are import paths
_DICTS = {"TEMPLATES", "CACHES", "STORAGES", "DATABASES", "REST_FRAMEWORK", "CHANNEL_LAYERS"}
_PATH_KEYS = {"BACKEND", "ENGINE", "context_processors", "loaders"}
_PATH_KEY_SUFFIXES = ("_CLASS", "_CLASSES", "_BACKENDS", "_BACKEND")
_DOTTED = re.compile(r"^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*$")
_MARK = re.compile(r"\b(INSTALLED_APPS|MIDDLEWARE)\b")


def refs(path: str, text: str, kind: FileKind) -> list[ImportRef]:
    """Dynamic refs for the import paths a Django settings module names (empty otherwise)."""
    if not _MARK.search(text):
        return []
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return []
    found: list[tuple[str, int, str]] = []
    for node in ast.walk(tree):
        name, value = _setting(node)
        if name is None or value is None:
            continue
        if name in _APPS:
            found += [(s, n, name) for s, n in _strings(value) if _DOTTED.match(s)]
        elif name in _PATH_LISTS or name in _PATH_VALUES:
            found += [(s, n, name) for s, n in _strings(value) if _is_path(s)]
        elif name in _DICTS:
            found += [(s, n, name) for s, n in _dict_paths(value) if _is_path(s)]
    out: list[ImportRef] = []
    seen: set[str] = set()
    for module, line, setting in found:
        if module in seen:
            continue
        seen.add(module)
        out.append(
            ImportRef(
                module, path, line, "python", kind, dynamic=True, extra={"django_setting": setting}
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


def _strings(value: ast.AST) -> list[tuple[str, int]]:
    """String items of a list/tuple/concatenation (or a single string)."""
    if isinstance(value, ast.Constant) and isinstance(value.value, str):
        return [(value.value, value.lineno)]
    if isinstance(value, (ast.List, ast.Tuple, ast.Set)):
        out: list[tuple[str, int]] = []
        for item in value.elts:
            out += _strings(item)
        return out
    if isinstance(value, ast.BinOp):
        return _strings(value.left) + _strings(value.right)
    if isinstance(value, ast.Starred):
        return _strings(value.value)
    return []


def _dict_paths(value: ast.AST) -> list[tuple[str, int]]:
    """Strings under BACKEND/ENGINE/context_processors/loaders/*_CLASSES keys, at any depth."""
    out: list[tuple[str, int]] = []
    if isinstance(value, ast.Dict):
        for key, item in zip(value.keys, value.values, strict=False):
            k = key.value if isinstance(key, ast.Constant) and isinstance(key.value, str) else ""
            if k in _PATH_KEYS or k.endswith(_PATH_KEY_SUFFIXES):
                out += _strings(item)
            out += _dict_paths(item)
    elif (
        isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "dict"
    ):
        for kw in value.keywords:
            if kw.arg and (kw.arg in _PATH_KEYS or kw.arg.endswith(_PATH_KEY_SUFFIXES)):
                out += _strings(kw.value)
            out += _dict_paths(kw.value)
    elif isinstance(value, (ast.List, ast.Tuple)):
        for item in value.elts:
            out += _dict_paths(item)
    return out


def _is_path(text: str) -> bool:
    return "." in text and bool(_DOTTED.match(text))
