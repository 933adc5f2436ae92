"""The benchmark's masked dependency sections: where they are in each build file, and what
they hold.

The same readers serve both sides of the comparison — the gold taken out by masking and the
prediction depinfer wrote back — so a difference in the score is a difference in the
dependencies, never in how two readers understood a file. Names are normalised the way
../shared/benchmark/README.md compares them: Python per PEP 503; Rust lower-case with `-` →
`_`; npm and NuGet ids lower-case; C# ProjectReferences as the repository-relative path of
the target project.
"""

from __future__ import annotations

import json
import posixpath
import re
import xml.etree.ElementTree as ET
from dataclasses import asdict, dataclass, field
from pathlib import PurePosixPath
from typing import Any

import tomlkit
from packaging.requirements import InvalidRequirement
from packaging.requirements import Requirement as Pep508
from tomlkit.exceptions import TOMLKitError

from depinfer.model import LANGUAGE_ECOSYSTEM
from depinfer.registries.names import comparable
from depinfer.scan import walk_repository

PACKAGE = "package"
PROJECT = "project"  # an internal reference (C# ProjectReference, Cargo path dependency)


class SectionError(Exception):
    """A build file that cannot be parsed, so its sections cannot be read or masked."""


@dataclass(frozen=True)
class Dep:
    """One dependency of a masked section, in the benchmark's comparable form."""

    name: str  # normalised (the comparison key)
    raw: str = ""  # as written in the file
    version: str = ""  # the constraint as written ("" = none)
    features: tuple[str, ...] = ()  # Rust features / Python extras
    kind: str = PACKAGE
    package: str = (
        ""  # the registry's name when the key is an alias (Cargo `package =`, npm `npm:`)
    )

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["features"] = list(self.features)
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Dep:
        return cls(
            name=data["name"],
            raw=data.get("raw", ""),
            version=data.get("version", "") or "",
            features=tuple(data.get("features") or ()),
            kind=data.get("kind", PACKAGE),
            package=data.get("package", ""),
        )


@dataclass
class FileDeps:
    path: str
    format: str
    deps: list[Dep] = field(default_factory=list)
    error: str | None = None


# ---------------------------------------------------------------- name normalisation


def normalise_name(language: str, name: str) -> str:
    return comparable(LANGUAGE_ECOSYSTEM[language].value, name)


def normalise_version(language: str, version: str) -> str:
    """A constraint in a canonical spelling, so `>=1.0,<2` and `<2, >=1.0` compare equal."""
    version = (version or "").strip()
    if not version:
        return ""
    if version == "*":  # "any version" in Poetry and Cargo
        return ""
    if language == "python":
        parts = sorted(p.strip() for p in version.split(",") if p.strip())
        return ",".join(parts)
    return re.sub(r"\s+", " ", version)


def build_file_format(rel: str) -> str | None:
    name = PurePosixPath(rel).name
    if name == "pyproject.toml":
        return "pyproject"
    if name == "Cargo.toml":
        return "cargo"
    if name == "package.json":
        return "package_json"
    if name.endswith(".csproj"):
        return "csproj"
    if name.endswith((".txt", ".in")):
        return "requirements"
    return None


# ---------------------------------------------------------------- Python


def pep508_dep(text: str) -> Dep | None:
    text = text.strip()
    if not text:
        return None
    try:
        req = Pep508(text)
    except InvalidRequirement:
        m = re.match(r"[A-Za-z0-9][A-Za-z0-9._-]*", text)
        if not m:
            return None
        return Dep(normalise_name("python", m.group(0)), m.group(0), "")
    return Dep(
        normalise_name("python", req.name),
        req.name,
        normalise_version("python", str(req.specifier)),
        tuple(sorted(req.extras)),
    )


def poetry_dep(name: str, value: Any) -> Dep:
    version = ""
    extras: tuple[str, ...] = ()
    kind = PACKAGE
    if isinstance(value, str):
        version = value
    elif isinstance(value, dict):
        version = str(value.get("version", "") or "")
        extras = tuple(sorted(str(e) for e in value.get("extras", []) or []))
        if "path" in value:
            kind = PROJECT
    elif isinstance(value, list):  # multiple-constraint dependency
        version = " || ".join(str(v.get("version", "")) for v in value if isinstance(v, dict))
    return Dep(normalise_name("python", name), name, version.strip(), extras, kind)


def _toml(text: str) -> tomlkit.TOMLDocument:
    try:
        return tomlkit.parse(text)
    except (TOMLKitError, ValueError) as exc:
        raise SectionError(f"invalid TOML: {exc}") from exc


def pyproject_deps(text: str) -> list[Dep]:
    """[project].dependencies and [tool.poetry.dependencies] (without `python`)."""
    doc = _toml(text).unwrap()
    deps: list[Dep] = []
    project = doc.get("project")
    if isinstance(project, dict) and isinstance(project.get("dependencies"), list):
        for item in project["dependencies"]:
            dep = pep508_dep(str(item))
            if dep:
                deps.append(dep)
    poetry = (doc.get("tool") or {}).get("poetry") if isinstance(doc.get("tool"), dict) else None
    if isinstance(poetry, dict) and isinstance(poetry.get("dependencies"), dict):
        for name, value in poetry["dependencies"].items():
            if name.lower() != "python":
                deps.append(poetry_dep(name, value))
    return deps


def requirements_lines(text: str) -> list[str]:
    """Requirement lines of a requirements file: continuations joined, comments and options dropped."""
    joined = re.sub(r"\\\r?\n", " ", text)
    out = []
    for line in joined.splitlines():
        line = re.sub(r"(^|\s)#.*$", "", line).strip()
        if not line:
            continue
        if line.startswith("-e ") or line.startswith("--editable"):
            m = re.search(r"#egg=([A-Za-z0-9._-]+)", line)
            if m:
                out.append(m.group(1))
            continue
        if line.startswith("-"):
            continue  # -r/-c includes, index options, hashes
        out.append(line)
    return out


def requirements_deps(text: str) -> list[Dep]:
    deps = []
    for line in requirements_lines(text):
        dep = pep508_dep(line.split(" --")[0])
        if dep:
            deps.append(dep)
    return deps


# ---------------------------------------------------------------- Rust


def cargo_deps(text: str) -> list[Dep]:
    """The top-level [dependencies] table (target tables and dev/build tables are not masked)."""
    doc = _toml(text).unwrap()
    table = doc.get("dependencies")
    deps = []
    if not isinstance(table, dict):
        return deps
    for key, value in table.items():
        version = ""
        features: tuple[str, ...] = ()
        kind = PACKAGE
        if isinstance(value, str):
            version = value
        elif isinstance(value, dict):
            if value.get("workspace") is True:
                version = "workspace"
            else:
                version = str(value.get("version", "") or "")
            features = tuple(sorted(str(f) for f in value.get("features", []) or []))
            if "path" in value:
                kind = PROJECT
        package = str(value.get("package", "")) if isinstance(value, dict) else ""
        deps.append(Dep(normalise_name("rust", key), key, version.strip(), features, kind, package))
    return deps


# ---------------------------------------------------------------- JavaScript


def package_json_deps(text: str) -> list[Dep]:
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SectionError(f"invalid JSON at line {exc.lineno}: {exc.msg}") from exc
    if not isinstance(doc, dict):
        raise SectionError("package.json is not a JSON object")
    table = doc.get("dependencies")
    if not isinstance(table, dict):
        return []
    return [npm_dep(name, str(spec).strip() if spec else "") for name, spec in table.items()]


# Specs that point inside the repository (or at a local path) rather than at the registry.
_NPM_LOCAL = ("workspace:", "file:", "link:", "portal:")


def npm_dep(name: str, spec: str) -> Dep:
    kind = PROJECT if spec.startswith(_NPM_LOCAL) else PACKAGE
    package = ""
    if spec.startswith("npm:"):  # "alias": "npm:real-name@^1"
        target = spec[4:]
        package = target.rsplit("@", 1)[0] if target.rfind("@") > 0 else target
    return Dep(normalise_name("javascript", name), name, spec, (), kind, package)


# ---------------------------------------------------------------- C#


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def csproj_deps(text: str, rel: str) -> list[Dep]:
    """PackageReference ids and ProjectReference targets of every ItemGroup."""
    try:
        root = ET.fromstring(text.lstrip("\ufeff"))
    except ET.ParseError as exc:
        raise SectionError(f"not well-formed XML: {exc}") from exc
    base = posixpath.dirname(rel)
    deps = []
    for group in root.iter():
        if _local(group.tag) != "ItemGroup":
            continue
        for item in group:
            kind = _local(item.tag)
            include = item.get("Include") or ""
            if kind not in ("PackageReference", "ProjectReference") or not include:
                continue
            for one in (p.strip() for p in include.split(";")):
                if not one:
                    continue
                if kind == "PackageReference":
                    version = item.get("Version") or item.get("VersionOverride") or ""
                    for sub in item:
                        if _local(sub.tag) in ("Version", "VersionOverride") and sub.text:
                            version = version or sub.text.strip()
                    deps.append(Dep(normalise_name("csharp", one), one, version.strip()))
                else:
                    target = project_reference_path(base, one)
                    deps.append(Dep(target.lower(), one, "", (), PROJECT))
    return deps


def project_reference_path(base: str, include: str) -> str:
    """A ProjectReference's Include, relative to its .csproj, as a repository-relative path."""
    include = include.replace("\\", "/").replace("$(MSBuildThisFileDirectory)", "")
    return posixpath.normpath(posixpath.join(base, include) if base else include)


# ---------------------------------------------------------------- dispatch

LANGUAGE_OF_FORMAT = {
    "pyproject": "python",
    "requirements": "python",
    "cargo": "rust",
    "package_json": "javascript",
    "csproj": "csharp",
}


def read_deps(text: str, rel: str, fmt: str | None = None) -> list[Dep]:
    """The masked section(s) of one build file; raises SectionError when it cannot be parsed."""
    fmt = fmt or build_file_format(rel)
    if fmt == "pyproject":
        return pyproject_deps(text)
    if fmt == "requirements":
        return requirements_deps(text)
    if fmt == "cargo":
        return cargo_deps(text)
    if fmt == "package_json":
        return package_json_deps(text)
    if fmt == "csproj":
        return csproj_deps(text, rel)
    raise SectionError(f"not a build file the benchmark masks: {rel}")


# ---------------------------------------------------------------- the repository's own names

_OWN_MANIFESTS = {
    "rust": ("Cargo.toml", ("package", "name")),
    "javascript": ("package.json", ("name",)),
    "python": ("pyproject.toml", ("project", "name")),
}


def own_package_names(root: Any, language: str) -> set[str]:
    """Names of the packages the repository defines itself (every Cargo.toml's
    [package].name, every package.json's name, every pyproject's [project].name),
    normalised. A written dependency on one of them is a sibling of the same workspace
    (`webclaw-core = { workspace = true }`, `"@acme/core": "*"`), which the registry
    need not know: it is internal, never fake."""
    spec = _OWN_MANIFESTS.get(language)
    if spec is None:
        return set()
    filename, keys = spec
    found: set[str] = set()
    paths = [
        root / folder / filename for folder, _, names in walk_repository(root) if filename in names
    ]
    for path in paths:
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
            doc: Any = json.loads(text) if filename.endswith(".json") else _toml(text).unwrap()
        except (OSError, ValueError, SectionError, TOMLKitError):
            continue
        for key in keys:
            doc = doc.get(key) if isinstance(doc, dict) else None
        if isinstance(doc, str) and doc.strip():
            found.add(normalise_name(language, doc.strip()))
    if language == "rust":
        found |= _workspace_non_registry(root)
    return found


def _workspace_non_registry(root: Any) -> set[str]:
    """Keys of the root's [workspace.dependencies] that a member's `{ workspace = true }`
    takes from a path or a git repository, or under another package name: the registry is
    not asked for the key (a renamed one is judged by its member's `package`, when the
    member names it)."""
    try:
        doc = _toml((root / "Cargo.toml").read_text(encoding="utf-8", errors="replace")).unwrap()
    except (OSError, SectionError):
        return set()
    table = (doc.get("workspace") or {}).get("dependencies") or {}
    return {
        normalise_name("rust", key)
        for key, value in table.items()
        if isinstance(value, dict) and ({"path", "git", "package"} & set(value))
    }
