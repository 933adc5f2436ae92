"""setup.cfg (setuptools declarative config): `[options] install_requires` and extras.

configparser only reads: writing it back would drop every comment, so the writer edits the
text by position instead — it finds the key's multi-line value and inserts whole lines with
the value's own indentation, leaving all other bytes alone.
"""

from __future__ import annotations

import configparser
import posixpath
import re
from dataclasses import dataclass, field

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
from depinfer.patterns import lazy

_HEADER = lazy(r"^\[([^\]]+)\]\s*$")
_KEY = lazy(r"^([A-Za-z0-9_.\-]+)\s*[=:]\s?(.*)$")


def _norm_key(key: str) -> str:
    return key.strip().lower().replace("-", "_")


def _parse(text: str) -> configparser.RawConfigParser:
    parser = configparser.RawConfigParser(strict=False, interpolation=None)
    try:
        parser.read_string(text)
    except configparser.Error as exc:
        message = str(exc).splitlines()[0]
        raise ManifestError(f"invalid setup.cfg: {message}") from None
    return parser


def _get(parser: configparser.RawConfigParser, section: str, key: str) -> str | None:
    if not parser.has_section(section):
        return None
    for option in parser.options(section):
        if _norm_key(option) == key:
            return parser.get(section, option)
    return None


def _value_lines(value: str) -> list[str]:
    out = []
    for line in value.splitlines():
        line = re.sub(r"(^|\s+)#.*$", "", line).strip()
        if line:
            out.append(line)
    return out


def _names(value: str | None) -> list[str]:
    if value is None or value.strip().startswith("file:"):
        return []
    return [n for n in (requirement_name(line) for line in _value_lines(value)) if n]


@guarded
def read(text: str, path: str) -> tuple[dict[str, list[str]], dict]:
    parser = _parse(text)
    declared: dict[str, list[str]] = {}
    install = _get(parser, "options", "install_requires")
    files: list[str] = []
    if install is not None:
        declared["dependencies"] = _names(install)
        if install.strip().startswith("file:"):
            refs = install.strip()[len("file:") :]
            for ref in re.split(r"[,\s]+", refs):
                if ref:
                    files.append(posixpath.normpath(posixpath.join(posixpath.dirname(path), ref)))
    if parser.has_section("options.extras_require"):
        for extra in parser.options("options.extras_require"):
            value = parser.get("options.extras_require", extra)
            declared[f"optional-dependencies.{extra}"] = _names(value)
    tests = _get(parser, "options", "tests_require")
    if tests is not None:
        declared["tests_require"] = _names(tests)
    classifiers = _get(parser, "metadata", "classifiers") or ""
    # A setup.cfg holding only tool settings (flake8, mypy, ...) is no package manifest.
    packaged = parser.has_section("metadata") or parser.has_section("options")
    data = {
        "style": "setuptools" if packaged else "tool-only",
        "name": _get(parser, "metadata", "name"),
        "requires_python": _get(parser, "options", "python_requires"),
        "dynamic_dependencies_files": files,
        "classifiers": python_versions_from_classifiers(classifiers.splitlines()),
    }
    return declared, data


# ---------------------------------------------------------------------------- writing


@dataclass
class _Section:
    name: str
    header: int  # line index of the [header]
    end: int  # line index one past the section's last line
    keys: dict[str, tuple[int, int]] = field(default_factory=dict)  # key -> (first, last)


def _sections(lines: list[str]) -> list[_Section]:
    sections: list[_Section] = []
    current: _Section | None = None
    key: str | None = None
    for i, raw in enumerate(lines):
        line = raw.rstrip("\r\n")
        header = _HEADER.match(line)
        if header:
            if current:
                current.end = i
            current = _Section(header.group(1).strip(), i, len(lines))
            sections.append(current)
            key = None
            continue
        if current is None:
            continue
        if line[:1] in (" ", "\t") and key is not None:
            if line.strip():
                first, _ = current.keys[key]
                current.keys[key] = (first, i)
            continue
        match = _KEY.match(line)
        if match and not line.startswith(("#", ";")):
            key = _norm_key(match.group(1))
            current.keys.setdefault(key, (i, i))
        elif line.strip() and not line.lstrip().startswith(("#", ";")):
            key = None
    return sections


# declared-section key -> (section, option)
def _place(key: str) -> tuple[str, str]:
    if key == "dependencies":
        return "options", "install_requires"
    if key == "tests_require":
        return "options", "tests_require"
    head, _, rest = key.partition(".")
    if head in ("optional-dependencies", "extras") and rest:
        return "options.extras_require", rest
    raise ManifestError(f"setup.cfg has no place for {key!r}")


# where a missing section conventionally goes: after this one
_AFTER = {"options": "metadata", "options.extras_require": "options"}


def _entries(lines: list[str], first: int, last: int) -> list[tuple[int, str]]:
    out = []
    for i in range(first, last + 1):
        text = lines[i].rstrip("\r\n")
        if i == first:
            match = _KEY.match(text)
            text = match.group(2) if match else ""
        text = re.sub(r"(^|\s+)#.*$", "", text).strip()
        name = requirement_name(text) if text else None
        if name:
            out.append((i, name))
    return out


def _insert_into_key(
    lines: list[str], first: int, last: int, reqs: list[Requirement], nl: str
) -> None:
    head = _KEY.match(lines[first].rstrip("\r\n"))
    if head and head.group(2).strip().startswith("file:"):
        raise ManifestError(f"{head.group(1)} is read from a file; that file is edited instead")
    entries = _entries(lines, first, last)
    names = [n for _, n in entries]
    indent = "    "
    for i in range(first + 1, last + 1):
        if lines[i].strip():
            indent = lines[i][: len(lines[i]) - len(lines[i].lstrip())]
            break
    adds = new_requirements(reqs, names)
    placed: list[tuple[int, int, str]] = []
    for order, req in enumerate(sorted(adds, key=lambda r: canonical(r.name))):
        at = last + 1
        if is_sorted(names):
            pos = insert_index(names, req.name)
            if pos < len(entries) and entries[pos][0] != first:
                at = entries[pos][0]
        placed.append((at, order, indent + format_requirement(req) + nl))
    if not lines[last].endswith(("\n", "\r")):
        lines[last] += nl
    for at, _, line in sorted(placed, key=lambda p: (p[0], p[1]), reverse=True):
        lines.insert(at, line)


def _file_indent(lines: list[str]) -> str:
    """The indentation this file uses for multi-line values (default four spaces)."""
    for prev, line in zip(lines, lines[1:], strict=False):
        if line[:1] in (" ", "\t") and line.strip() and _KEY.match(prev.rstrip("\r\n")):
            return line[: len(line) - len(line.lstrip())]
    return "    "


def _add_key(lines: list[str], section: str, option: str, reqs: list[Requirement], nl: str) -> None:
    indent = _file_indent(lines)
    block = [f"{option} ={nl}"] + [
        indent + format_requirement(r) + nl
        for r in sorted(new_requirements(reqs, []), key=lambda r: canonical(r.name))
    ]
    found = {s.name: s for s in _sections(lines)}
    if section in found:
        s = found[section]
        at = s.end
        while at - 1 > s.header and not lines[at - 1].strip():
            at -= 1
        if at > 0 and not lines[at - 1].endswith(("\n", "\r")):
            lines[at - 1] += nl
        lines[at:at] = block
        return
    block = [f"[{section}]{nl}"] + block
    parent = found.get(_AFTER.get(section, ""))
    if parent is not None:
        at = parent.end
        while at - 1 > parent.header and not lines[at - 1].strip():
            at -= 1
        lines[at:at] = [nl] + block
        return
    if lines and not lines[-1].endswith(("\n", "\r")):
        lines[-1] += nl
    if lines and lines[-1].strip():
        block = [nl] + block
    lines.extend(block)


@guarded
def render(text: str, manifest: Manifest, requirements: list[Requirement]) -> str:
    declared, _ = read(text, manifest.path)
    by_place: dict[tuple[str, str], list[Requirement]] = {}
    for req in requirements:
        key = target_key(req, "setuptools")
        if new_requirements([req], declared.get(key, [])):
            by_place.setdefault(_place(key), []).append(req)
    if not by_place:
        return text
    nl = newline_of(text)
    lines = text.splitlines(keepends=True)
    for (section, option), reqs in by_place.items():
        s = next((s for s in _sections(lines) if s.name == section), None)
        if s is not None and _norm_key(option) in s.keys:
            first, last = s.keys[_norm_key(option)]
            _insert_into_key(lines, first, last, reqs, nl)
        else:
            _add_key(lines, section, option, reqs, nl)
    new = "".join(lines)
    try:
        read(new, manifest.path)
    except ManifestError as exc:
        raise ManifestError(f"edit would break the file ({exc}); left untouched") from None
    return new
