"""Solutions (.sln, .slnx, .slnf): which projects a repository builds together.

A project reaches another of the repository by ProjectReference only when they build
together; a project kept in a solution that leaves the other out (a samples solution
beside the library's) uses what the repository publishes instead: the other project's
NuGet package. The central package list says so outright when it holds that package id
(`<PackageVersion Include="Polly.Core">` beside `src/Polly.Core`).
"""

from __future__ import annotations

import json
import posixpath
import re
import xml.etree.ElementTree as ET
from collections import defaultdict

import networkx as nx

from depinfer.analyzers.csharp_layout import CsProject
from depinfer.context import Context
from depinfer.facts.csharp import CsDepFacts, dep_facts
from depinfer.mapping import nuget_index
from depinfer.model import Candidate, Ecosystem, Evidence, Project, Section

# Project("{type guid}") = "Name", "relative\path.csproj", "{guid}"
_SLN_PROJECT = re.compile(r'^Project\("[^"]*"\)\s*=\s*"[^"]*",\s*"([^"]+)"', re.M)
_MAX_BYTES = 2_000_000


def _join(base: str, rel: str) -> str:
    path = posixpath.normpath(posixpath.join(base, rel.replace("\\", "/")))
    return "" if path.startswith("..") else path


def read_solution(text: str, rel: str) -> set[str] | None:
    """Repository-relative project paths a solution lists; None when it cannot be read
    (a broken solution tells nothing, it never rules a reference out)."""
    base = posixpath.dirname(rel)
    paths: list[str] = []
    try:
        if rel.endswith(".sln"):
            paths = _SLN_PROJECT.findall(text)
        elif rel.endswith(".slnx"):
            root = ET.fromstring(text)
            paths = [e.get("Path") or "" for e in root.iter() if e.tag.endswith("Project")]
        else:  # .slnf: a filter over another solution, paths relative to that solution
            data = json.loads(text)
            solution = data.get("solution", {})
            base = posixpath.dirname(_join(base, solution.get("path", "")))
            paths = [p for p in solution.get("projects", []) if isinstance(p, str)]
    except (ET.ParseError, ValueError, AttributeError):
        return None
    out = {_join(base, p) for p in paths if p.lower().endswith("proj")}
    out.discard("")
    return out


def solutions(project: Project, ctx: Context | None = None) -> list[set[str]]:
    """Every readable solution of the repository, as sets of project paths."""
    out = []
    for rel in project.solution_files:
        path = project.abspath(rel)
        try:
            if path.stat().st_size > _MAX_BYTES:
                continue
            text = path.read_text(encoding="utf-8-sig", errors="replace")
        except OSError:
            continue
        listed = read_solution(text, rel)
        if listed is None:
            if ctx is not None:
                ctx.info("solution file could not be read; ignored", rel)
            continue
        if listed:
            out.append(listed)
    return out


def _packable(cs: CsProject) -> bool:
    """A library the repository can publish: not a test, an executable or IsPackable=false."""
    props = cs.properties
    return not (
        cs.is_test
        or props.get("IsPackable", "").strip().lower() == "false"
        or props.get("OutputType", "").strip().lower() in ("exe", "winexe")
    )


def package_id(cs: CsProject) -> str:
    """The id a project packs under: PackageId, else its assembly name, else its name."""
    for key in ("PackageId", "AssemblyName"):
        value = cs.properties.get(key, "").strip()
        if value and "$(" not in value:
            return value
    return cs.name


def published_instead(
    candidates: list[Candidate],
    layout: list[CsProject],
    sols: list[set[str]],
    ctx: Context | None = None,
) -> list[Candidate]:
    """References to a project that no solution of the referencing project builds become
    that project's package, when the referencing project's central list holds it or (no
    central list) the registry knows it (offline: the shipped index records it); unknown
    and unlisted, the reference stays."""
    if not sols:
        return candidates
    by_path = {cs.path: cs for cs in layout}
    graph = nx.DiGraph(
        (c.manifest, c.path) for c in candidates if c.internal and c.path and c.path in by_path
    )
    out = []
    published: dict[str, set[str]] = defaultdict(set)  # project -> projects it takes as packages
    for c in candidates:
        src, dst = by_path.get(c.manifest), by_path.get(c.path or "")
        if not (c.internal and src is not None and dst is not None):
            out.append(c)
            continue
        mine = [s for s in sols if src.path in s]
        if not mine or any(dst.path in s for s in mine) or not _packable(dst):
            out.append(c)
            continue
        pid = package_id(dst)
        listed = {k.lower(): k for k in src.pool} if src.central else {}
        holder = "the central list holds"
        if pid.lower() not in listed:
            known = (
                None if src.central or ctx is None else ctx.registries.exists(Ecosystem.NUGET, pid)
            )
            holder = "the registry has"
            if known is None and not src.central:
                # offline, the shipped index's public record of the package stands in
                known = nuget_index.package_info(pid) is not None
                holder = "the shipped index records"
            if not known:
                out.append(c)
                continue
            listed[pid.lower()] = pid
        published[src.path].add(dst.path)
        why = f"{dst.path} is in none of this project's solutions; {holder} its package {pid}"
        out.append(
            _as_package(c, src, dst, listed[pid.lower()], Evidence("solution", src.path, None, why))
        )
    # a package of the repository brings the packages of the projects it references

    def brought(c: Candidate) -> bool:
        mine = dep_facts(c).published
        return mine is not None and any(
            other != mine and mine in nx.descendants(graph, other)
            for other in published.get(c.manifest, ())
            if other in graph
        )

    return [c for c in out if not brought(c)]


_LITERAL_VERSION = re.compile(r"^\d+(?:\.\d+){1,3}(?:-[0-9A-Za-z.-]+)?$")


def _own_version(cs: CsProject) -> str | None:
    """A version the project file itself fixes (`<Version>2.0.1</Version>`), not one it
    inherits from a shared Directory.Build file."""
    value = cs.manifest.data.get("properties", {}).get("Version", "").strip()
    return value if _LITERAL_VERSION.match(value) else None


def separately_released(candidates: list[Candidate], layout: list[CsProject]) -> list[Candidate]:
    """A library referencing a sibling library that its own project file releases at a fixed
    version of its own (a contracts package: `<Version>2.0.1</Version>` beside a library
    versioned by its tags) takes the sibling's published package at that version: the two
    ship on different release lines, and the reference becomes a package dependency.
    Siblings that each fix their own version in their project files are one family
    released together by hand (Flurl and Flurl.Http): their references stay references."""
    by_path = {cs.path: cs for cs in layout}
    out = []
    for c in candidates:
        src, dst = by_path.get(c.manifest), by_path.get(c.path or "")
        pinned = _own_version(dst) if dst is not None else None
        if (
            not (c.internal and src is not None and dst is not None and pinned)
            or not _packable(src)
            or not _packable(dst)
            or _own_version(src) is not None
            or not _tag_versioned(src)
        ):
            out.append(c)
            continue
        why = f"{dst.name} is released on its own at {pinned}"
        evidence = Evidence("release-line", dst.path, None, why)
        out.append(_as_package(c, src, dst, package_id(dst), evidence, pinned=pinned))
    return out


def _as_package(
    c: Candidate,
    src: CsProject,
    dst: CsProject,
    pid: str,
    why: Evidence,
    pinned: str | None = None,
) -> Candidate:
    """The reference `c` from `src` to `dst`, taken as `dst`'s published package `pid`."""
    return Candidate(
        ecosystem=Ecosystem.NUGET,
        name=pid,
        manifest=src.path,
        section=Section.RUNTIME,
        evidence=[*c.evidence, why],
        verified=True,
        confidence=c.confidence,
        facts=CsDepFacts(kind="lib", direct=True, published=dst.path, pinned=pinned),
    )


def _tag_versioned(cs: CsProject) -> bool:
    """Versioned from git tags (MinVer, Nerdbank.GitVersioning's version.json aside): a
    tool of data/csharp/frameworks.json's `tag_versioning` set up or inherited."""
    return any(
        any(k.startswith(row["property_prefix"]) for k in cs.properties)
        or row["package"].lower() in cs.inherited_packages
        for row in nuget_index.app_frameworks()["tag_versioning"]
    )
