"""package.json: read the dependency sections and facts, write them back as npm would.

Reading keeps only what later stages need (names per section, package name/version, module
type, workspaces, entry points, scripts). Writing edits the text in place: the top-level
members are located by position, a changed dependency object is re-rendered with the
file's own indentation and newline style, keys sorted as npm sorts them, and a new section
is appended after the last member — where `npm install --save` puts it (npm re-serialises
the whole object, appending new keys; we only touch the dependency sections).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from depinfer.manifests import ManifestError
from depinfer.model import Manifest, Requirement, Section

DEPENDENCY_KEYS = ("dependencies", "devDependencies", "peerDependencies", "optionalDependencies")
SECTION_KEYS: dict[Section, str] = {
    Section.RUNTIME: "dependencies",
    Section.BUILD: "devDependencies",
    Section.DEV: "devDependencies",
    Section.PEER: "peerDependencies",
    Section.OPTIONAL: "optionalDependencies",
}
DATA_KEYS = (
    "name",
    "version",
    "type",
    "engines",
    "main",
    "module",
    "browser",
    "exports",
    "imports",
    "bin",
    "files",
    "types",
    "typings",
    "scripts",
    "private",
    "packageManager",
    "publishConfig",  # entry points rewritten for publishing
    "build",  # electron-builder's settings (a desktop app)
    "config",  # npm config values; Electron Forge's settings
)


def read(text: str, path: str) -> tuple[dict[str, list[str]], dict[str, Any]]:
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ManifestError(f"invalid JSON at line {exc.lineno}: {exc.msg}") from exc
    if not isinstance(doc, dict):
        raise ManifestError("package.json is not a JSON object")
    declared: dict[str, list[str]] = {}
    for key in DEPENDENCY_KEYS:
        value = doc.get(key)
        if isinstance(value, dict):
            declared[key] = list(value)
    data: dict[str, Any] = {k: doc[k] for k in DATA_KEYS if k in doc}
    data["workspaces"] = _workspaces(doc.get("workspaces"))
    data["specs"] = {
        key: {n: v for n, v in doc[key].items() if isinstance(v, str)}
        for key in DEPENDENCY_KEYS
        if isinstance(doc.get(key), dict)
    }
    return declared, data


def _workspaces(value: Any) -> list[str]:
    """npm/yarn `workspaces`: a list of globs or `{packages: [...]}` (yarn classic)."""
    if isinstance(value, dict):
        value = value.get("packages")
    if isinstance(value, list):
        return [v for v in value if isinstance(v, str)]
    return []


@dataclass
class _Member:
    key: str
    key_start: int
    value_start: int
    value_end: int


def _skip_ws(text: str, i: int) -> int:
    while i < len(text) and text[i] in " \t\r\n":
        i += 1
    return i


def _members(text: str, start: int) -> tuple[list[_Member], int]:
    """Members of the object starting at `start` ('{'), and the index of its closing '}'."""
    decoder = json.JSONDecoder()
    members: list[_Member] = []
    i = _skip_ws(text, start + 1)
    if i < len(text) and text[i] == "}":
        return members, i
    while True:
        if i >= len(text) or text[i] != '"':
            raise ManifestError("unexpected text where a key was expected")
        key, after = decoder.raw_decode(text, i)
        j = _skip_ws(text, after)
        if j >= len(text) or text[j] != ":":
            raise ManifestError("missing ':' after a key")
        v = _skip_ws(text, j + 1)
        _, end = decoder.raw_decode(text, v)
        members.append(_Member(key, i, v, end))
        i = _skip_ws(text, end)
        if i < len(text) and text[i] == ",":
            i = _skip_ws(text, i + 1)
            continue
        if i < len(text) and text[i] == "}":
            return members, i
        raise ManifestError("missing ',' or '}' in an object")


def _indent_unit(text: str) -> str:
    m = re.search(r"\n([ \t]+)\S", text)
    return m.group(1) if m else "  "


def _sort_key(name: str) -> tuple[str, str]:
    # npm sorts dependency keys with localeCompare('en'): case-insensitive first.
    return (name.lower(), name)


def _render_object(entries: dict[str, str], unit: str, nl: str, depth: int) -> str:
    if not entries:
        return "{}"
    inner = unit * (depth + 1)
    lines = [f"{inner}{json.dumps(k, ensure_ascii=False)}: {v}" for k, v in entries.items()]
    return "{" + nl + ("," + nl).join(lines) + nl + unit * depth + "}"


def render(text: str, manifest: Manifest, requirements: list[Requirement]) -> str:
    try:
        json.loads(text)
    except json.JSONDecodeError as exc:
        raise ManifestError(f"invalid JSON at line {exc.lineno}: {exc.msg}") from exc
    start = _skip_ws(text, 0)
    if start >= len(text) or text[start] != "{":
        raise ManifestError("package.json is not a JSON object")
    members, close = _members(text, start)
    by_key = {m.key: m for m in members}
    nl = "\r\n" if "\r\n" in text else "\n"
    unit = _indent_unit(text)

    wanted: dict[str, dict[str, str]] = {}
    for req in requirements:
        key = req.group if req.group in DEPENDENCY_KEYS else SECTION_KEYS[req.section]
        wanted.setdefault(key, {})[req.name] = json.dumps(req.spec or "*", ensure_ascii=False)

    edits: list[tuple[int, int, str]] = []  # (start, end, replacement)
    appended: list[str] = []
    for key in DEPENDENCY_KEYS:
        new = wanted.get(key)
        if not new:
            continue
        member = by_key.get(key)
        if member is not None and text[member.value_start] == "{":
            inner, _ = _members(text, member.value_start)
            entries = {m.key: text[m.value_start : m.value_end] for m in inner}
            added = {k: v for k, v in new.items() if k not in entries}
            if not added:
                continue
            entries.update(added)
            entries = dict(sorted(entries.items(), key=lambda kv: _sort_key(kv[0])))
            edits.append(
                (member.value_start, member.value_end, _render_object(entries, unit, nl, 1))
            )
        elif member is None:
            entries = dict(sorted(new.items(), key=lambda kv: _sort_key(kv[0])))
            appended.append(f'{unit}"{key}": {_render_object(entries, unit, nl, 1)}')
        else:
            raise ManifestError(f'"{key}" is not an object; not edited')

    if appended:
        if members:
            pos = members[-1].value_end
            edits.append((pos, pos, "," + nl + ("," + nl).join(appended)))
        else:
            edits.append((start + 1, close, nl + ("," + nl).join(appended) + nl))
    out = text
    for s, e, rep in sorted(edits, reverse=True):
        out = out[:s] + rep + out[e:]
    return out
