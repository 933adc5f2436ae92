"""requirements*.txt (pip's requirements file format): reader and line-appending writer.

pip's format is line based, so the writer never re-serialises: it inserts whole lines
(alphabetically when the file's requirements are already sorted, else at the end) and
keeps comments, options and `-r`/`-c` lines exactly as they were.
"""

from __future__ import annotations

import posixpath
import re
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
    requirement_name,
)
from depinfer.model import Manifest, Requirement
from depinfer.patterns import lazy

# pip: a comment starts at `#` at the line start or after whitespace.
_COMMENT = lazy(r"(^|\s+)#.*$")
# Per-requirement options pip allows after a requirement.
_PER_REQ_OPTION = lazy(r"\s+--(hash|global-option|config-settings)[= ]\S+")
_INCLUDE = lazy(r"^(-r|--requirement|-c|--constraint)(?:\s*=\s*|\s+|(?=[^\s-]))(\S+)")
_EDITABLE = lazy(r"^(-e|--editable)(?:\s*=\s*|\s+)(\S+)")


@dataclass
class _Entry:
    name: str
    first: int  # first physical line (0-based)
    last: int  # last physical line (continuations included)


def _logical_lines(text: str) -> list[tuple[int, int, str]]:
    """(first line, last line, joined text) for each logical line (`\\` continuations joined)."""
    out: list[tuple[int, int, str]] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        start = i
        parts = [lines[i]]
        while parts[-1].endswith("\\") and i + 1 < len(lines):
            parts[-1] = parts[-1][:-1]
            i += 1
            parts.append(lines[i])
        out.append((start, i, " ".join(parts)))
        i += 1
    return out


def _local_dir(target: str, base: str) -> str | None:
    """The folder a local install line points at (`-e .[test]`, `./`, `file:..`), relative
    to the repository; None for anything else."""
    target = re.sub(r"\[.*\]$", "", target.split("#", 1)[0].strip())
    if target.startswith("file:"):
        target = target[5:]
    if not target.startswith((".", "/")) or target.endswith((".whl", ".tar.gz", ".zip")):
        return None
    rel = posixpath.normpath(posixpath.join(base, target))
    return "" if rel == "." else rel


def _parse(text: str, path: str) -> tuple[list[_Entry], list[str], list[str], list[str]]:
    """Entries, included files, constraint files, and the folders the file installs from
    the repository itself (`-e .` beside a pyproject: such a file sets up a working
    environment for the project — its dev requirements)."""
    if "\x00" in text:
        raise ManifestError("binary file, not a requirements file")
    entries: list[_Entry] = []
    includes: list[str] = []
    constraints: list[str] = []
    local: list[str] = []
    base = posixpath.dirname(path)
    for first, last, raw in _logical_lines(text):
        line = _COMMENT.sub("", raw).strip()
        if not line:
            continue
        inc = _INCLUDE.match(line)
        if inc:
            ref = inc.group(2)
            if "://" not in ref:
                ref = posixpath.normpath(posixpath.join(base, ref))
            includes.append(ref)
            if inc.group(1) in ("-c", "--constraint"):
                constraints.append(ref)
            continue
        editable = _EDITABLE.match(line)
        folder = _local_dir(editable.group(2) if editable else line, base)
        if folder is not None and (editable or not line.startswith("-")):
            local.append(folder)
        if editable:
            name = requirement_name(editable.group(2)) if "egg=" in editable.group(2) else None
            if name:
                entries.append(_Entry(name, first, last))
            continue
        if line.startswith("-"):
            continue  # --index-url, --find-links, --pre, ...: options, not requirements
        line = _PER_REQ_OPTION.sub("", line)
        if line.startswith((".", "/", "~")) or line.endswith((".whl", ".tar.gz", ".zip")):
            if "egg=" not in line:
                continue  # a local path or archive: no distribution name to compare
        name = requirement_name(line)
        if name:
            entries.append(_Entry(name, first, last))
    return entries, includes, constraints, local


@guarded
def read(text: str, path: str) -> tuple[dict[str, list[str]], dict]:
    entries, includes, constraints, local = _parse(text, path)
    declared = {"dependencies": [e.name for e in entries]}
    data = {
        "style": "requirements",
        "name": None,
        "requires_python": None,
        "includes": includes,
        "constraints": constraints,
        "local_installs": local,
    }
    return declared, data


# pip files have no extras: an optional import (try/except ImportError) is recorded as a
# comment naming it, so readers see it and pip does not install it.
OPTIONAL_PREFIX = "# optional: "
_OPTIONAL = lazy(r"^#\s*optional:\s*(\S.*)$")


def _line(req: Requirement) -> str:
    if req.internal and req.path:
        return f"-e {req.path}"
    if req.optional and req.group is None:
        return OPTIONAL_PREFIX + format_requirement(req)
    return format_requirement(req)


def _optional_names(text: str) -> list[str]:
    out = []
    for line in text.splitlines():
        match = _OPTIONAL.match(line.strip())
        name = requirement_name(match.group(1)) if match else None
        if name:
            out.append(name)
    return out


# the header pip-compile and `uv pip compile` write on their output
_COMPILED = lazy(r"^#.*\bautogenerated by (?:pip-compile|uv)\b", re.M | re.I)


def is_compiled(text: str) -> bool:
    """The requirements text carries a compiler's header: a lock, not a hand-written list."""
    return bool(_COMPILED.search(text[:2000]))


@guarded
def render(text: str, manifest: Manifest, requirements: list[Requirement]) -> str:
    entries, _, _, _ = _parse(text, manifest.path)
    adds = new_requirements(requirements, [e.name for e in entries] + _optional_names(text))
    if not adds:
        return text
    if is_compiled(text):
        # a line added by hand is gone at the next compile, and one without a pin breaks
        # the lock's promise: what to add goes to the file it is compiled from
        raise NotWritable(
            "a lock its header says pip-compile or uv compiled; add "
            + ", ".join(sorted(canonical(r.name) for r in adds))
            + " to the file it is compiled from and compile it again"
        )
    nl = newline_of(text)
    lines = text.splitlines(keepends=True)
    if lines and not lines[-1].endswith(("\n", "\r")):
        lines[-1] += nl
    # Insert bottom-up so earlier line numbers stay valid. A sorted file gets each new
    # line at its alphabetical place; any other file gets them at the end, sorted.
    names = [e.name for e in entries]
    placed: list[tuple[int, int, str]] = []  # (line index to insert before, order, text)
    for order, req in enumerate(sorted(adds, key=lambda r: canonical(r.name))):
        if is_sorted(names):
            pos = insert_index(names, req.name)
            at = entries[pos].first if pos < len(entries) else entries[-1].last + 1
        else:
            at = len(lines)
        placed.append((at, order, _line(req) + nl))
    for at, _, line in sorted(placed, key=lambda p: (p[0], p[1]), reverse=True):
        lines.insert(at, line)
    new = "".join(lines)
    read(new, manifest.path)  # must still parse
    return new
