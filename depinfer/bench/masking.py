"""Masking as ../shared/benchmark/README.md (and DI-Bench) define it, on a scratch copy.

Per build file the runtime dependency section is removed — Python: `[project].dependencies`
emptied and `[tool.poetry.dependencies]` reduced to `python`, a requirements file emptied;
Rust: the `[dependencies]` table emptied (its header kept); JavaScript: the `dependencies`
object deleted; C#: every `<ItemGroup>` holding a PackageReference or ProjectReference
deleted — and the lock files that pin them are deleted. Everything else stays byte-identical:
TOML is edited with tomlkit (format-preserving), csproj files by source position. What was
removed is returned as the gold, read by the same readers that later read the prediction.

`mask()` refuses to touch anything but a copy: callers pass the scratch directory.
"""

from __future__ import annotations

import json
import posixpath
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import tomlkit

from depinfer.bench.sections import (
    PROJECT,
    Dep,
    SectionError,
    build_file_format,
    read_deps,
)

LOCK_FILES: dict[str, tuple[str, ...]] = {
    "python": ("poetry.lock", "Pipfile.lock", "pdm.lock", "uv.lock"),
    "rust": ("Cargo.lock",),
    "javascript": (
        "package-lock.json",
        "yarn.lock",
        "pnpm-lock.yaml",
        "npm-shrinkwrap.json",
        "bun.lockb",
        "bun.lock",
    ),
    "csharp": ("packages.lock.json",),
}


@dataclass
class MaskedFile:
    path: str
    format: str
    gold: list[Dep] = field(default_factory=list)
    error: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "format": self.format,
            "gold": [d.to_json() for d in self.gold],
            **({"error": self.error} if self.error else {}),
        }


@dataclass
class MaskResult:
    files: list[MaskedFile] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)  # lock files removed

    @property
    def gold(self) -> dict[str, list[Dep]]:
        return {f.path: f.gold for f in self.files}

    @property
    def errors(self) -> list[str]:
        return [f"{f.path}: {f.error}" for f in self.files if f.error]

    def to_json(self) -> dict[str, Any]:
        return {"files": [f.to_json() for f in self.files], "deleted": self.deleted}


# ---------------------------------------------------------------- per-format text edits


def mask_pyproject(text: str) -> str:
    doc = tomlkit.parse(text)
    project = doc.get("project")
    if isinstance(project, dict) and "dependencies" in project:
        project["dependencies"] = tomlkit.array()
    tool = doc.get("tool")
    poetry = tool.get("poetry") if isinstance(tool, dict) else None
    if isinstance(poetry, dict) and isinstance(poetry.get("dependencies"), dict):
        table = poetry["dependencies"]
        for key in list(table.keys()):
            if str(key).lower() != "python":
                del table[key]
    return tomlkit.dumps(doc)


def mask_requirements(text: str) -> str:
    return ""


_TOML_HEADER = re.compile(r"^\[\[?\s*([^\[\]#]+?)\s*\]\]?\s*(#.*)?$")


def _dependency_header(line: str) -> bool:
    m = _TOML_HEADER.match(line)
    if m is None:
        return False
    name = m.group(1).replace(" ", "")
    return name == "dependencies" or name.startswith("dependencies.")


def mask_cargo(text: str) -> str:
    """Empty `[dependencies]`, including `[dependencies.x]` sub-tables wherever they sit,
    line by line: the rest of the file stays byte for byte (tomlkit fails to delete from a
    table whose sub-tables come after other tables)."""
    doc = tomlkit.parse(text)  # a broken manifest is reported, never masked
    if "dependencies" not in doc:
        return text
    out: list[str] = []
    dropping = False
    kept_header = False
    for line in text.splitlines(keepends=True):
        if _TOML_HEADER.match(line):
            dropping = _dependency_header(line)
            if dropping and not kept_header:
                out.append("[dependencies]\n\n")
                kept_header = True
            if dropping:
                continue
        if not dropping:
            out.append(line)
    new = "".join(out)
    if not kept_header:  # `dependencies = {...}` written inline at the top level
        doc["dependencies"] = tomlkit.table()
        new = tomlkit.dumps(doc)
    return new


def mask_package_json(text: str) -> str:
    doc = json.loads(text)
    if not isinstance(doc, dict) or "dependencies" not in doc:
        return text
    del doc["dependencies"]
    indent: str | int = 2
    m = re.search(r"\n([ \t]+)\"", text)
    if m:
        indent = m.group(1)
    newline = "\r\n" if "\r\n" in text else "\n"
    body = json.dumps(doc, indent=indent, ensure_ascii=False)
    if newline != "\n":
        body = body.replace("\n", newline)
    return body + (newline if text.endswith(("\n", "\r\n")) else "")


_COMMENT = re.compile(r"<!--.*?-->", re.S)
_ITEM_GROUP = re.compile(r"<ItemGroup\b[^>]*?(/?)>")


def mask_csproj(text: str) -> str:
    """Delete each ItemGroup that holds a reference, with its own line(s); nothing else moves."""
    clean = _COMMENT.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)
    spans: list[tuple[int, int]] = []
    for m in _ITEM_GROUP.finditer(clean):
        if m.group(1):
            continue
        close = clean.find("</ItemGroup>", m.end())
        if close < 0:
            break
        end = close + len("</ItemGroup>")
        body = clean[m.end() : close]
        if not re.search(r"<(PackageReference|ProjectReference)\b", body):
            continue
        start = m.start()
        line_start = clean.rfind("\n", 0, start) + 1
        if not clean[line_start:start].strip():
            start = line_start
        rest = re.match(r"[ \t]*(\r?\n)?", clean[end:])
        if rest and rest.group(1):
            end += rest.end()
        spans.append((start, end))
    out = []
    pos = 0
    for start, end in spans:
        out.append(text[pos:start])
        pos = end
    out.append(text[pos:])
    return "".join(out)


MASKERS = {
    "pyproject": mask_pyproject,
    "requirements": mask_requirements,
    "cargo": mask_cargo,
    "package_json": mask_package_json,
    "csproj": mask_csproj,
}


def _read_text(path: Path) -> tuple[str, bool]:
    raw = path.read_bytes()
    bom = raw.startswith(b"\xef\xbb\xbf")
    return raw.decode("utf-8-sig"), bom


def mask_file(root: Path, rel: str) -> MaskedFile:
    """Mask one build file in place (in the scratch copy) and return what it removed."""
    fmt = build_file_format(rel) or "unknown"
    result = MaskedFile(rel, fmt)
    path = root / rel
    if fmt not in MASKERS:
        result.error = "not a build file the benchmark masks"
        return result
    try:
        text, bom = _read_text(path)
    except FileNotFoundError:
        result.error = "build file not found"
        return result
    except (OSError, UnicodeDecodeError) as exc:
        result.error = f"cannot read: {exc}"
        return result
    try:
        result.gold = read_deps(text, rel, fmt)
        new = MASKERS[fmt](text)
        left = read_deps(new, rel, fmt)
    except (SectionError, ValueError, Exception) as exc:  # noqa: B014 - any parse failure
        result.error = f"not masked: {exc}"
        result.gold = []
        return result
    if left:
        result.error = "masking left dependencies: " + ", ".join(d.raw for d in left)
        return result
    if new != text:
        path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + new.encode("utf-8"))
    return result


def lock_files(root: Path, language: str, build_files: list[str]) -> list[str]:
    """The lock files that pin the masked manifests: in the root and beside each build file."""
    names = LOCK_FILES.get(language, ())
    dirs = {""} | {posixpath.dirname(b.replace("\\", "/")) for b in build_files}
    found = []
    for d in sorted(dirs):
        for name in names:
            rel = posixpath.join(d, name) if d else name
            if rel not in found and (root / rel).is_file():
                found.append(rel)
    return found


def _expand_project_references(root: Path, files: list[MaskedFile]) -> None:
    """Gold ProjectReferences written with MSBuild properties (`$(RepoRoot)\\src\\A.csproj`)
    or wildcards (`..\\WebSites\\**\\*.csproj`) compared as the projects they name: the
    properties are evaluated as MSBuild would, from the (unmasked) property groups and the
    files they import, and a wildcard stands for every project it matches but its own."""
    todo = [
        f
        for f in files
        if any(d.kind == PROJECT and ("$(" in d.raw or "*" in d.raw) for d in f.gold)
    ]
    if not todo:
        return
    from dataclasses import replace

    from depinfer.analyzers.csharp_layout import build_layout, resolve_include  # lazy: C# only
    from depinfer.mapping.javascript_layout import glob_regex  # lazy: with the C# layout
    from depinfer.scan import scan  # lazy: with the C# layout

    project = scan(root)
    layout = {cs.path: cs for cs in build_layout(project)}
    for f in todo:
        cs = layout.get(f.path)
        out: list[Dep] = []
        for d in f.gold:
            if d.kind != PROJECT or cs is None or not ("$(" in d.raw or "*" in d.raw):
                out.append(d)
                continue
            target = resolve_include(project, cs, d.raw)
            if not target:
                out.append(d)
            elif "*" in target:
                pattern = glob_regex(target.lower())
                hits = sorted(p for p in layout if p != f.path and pattern.fullmatch(p.lower()))
                out.extend(replace(d, name=p.lower()) for p in hits)
                if not hits:
                    out.append(d)
            else:
                out.append(replace(d, name=target.lower()))
        f.gold = out


def mask(root: Path, language: str, build_files: list[str]) -> MaskResult:
    """Mask the scratch copy at `root`; returns the gold per build file and the deleted locks."""
    result = MaskResult()
    for rel in build_files:
        result.files.append(mask_file(root, rel))
    if language == "csharp":
        _expand_project_references(root, result.files)
    for rel in lock_files(root, language, build_files):
        (root / rel).unlink()
        result.deleted.append(rel)
    return result


def copy_tree(src: Path, dest: Path) -> None:
    """A scratch copy of a repository tree (symlinks copied as links; the source is never written)."""
    shutil.copytree(src, dest, symlinks=True, ignore=shutil.ignore_patterns(".git"))
