"""The declare model's features of every Python candidate (facts/python.DeclareFeatures).

One value per (manifest, distribution), computed from all the candidates the earlier
stages made for it: where the project uses it (file roles, and for tools named without an
import the CI, command files, tool configuration or docs/conf.py), how shipped code
imports it (top level, inside a function, guarded by try/except ImportError, type-only, a
platform or version marker), how many files use it, whether a distribution the code
imports unguarded requires it (registry Requires-Dist; unknown offline), how many
distributions provide its import, and the project's kind, runtime and manifest format.
The declare model (python_declare.py) turns them into P(the maintainers declare it).
"""

from __future__ import annotations

import re
from dataclasses import replace

from depinfer.context import Context
from depinfer.facts.python import DeclareFeatures, dependency_facts
from depinfer.mapping.python import target_python
from depinfer.mapping.python_index import canonical
from depinfer.mapping.python_manifests import ManifestLayout
from depinfer.mapping.python_tooling import tooling_declarations
from depinfer.model import Candidate, Ecosystem, FileKind, ImportRef, Manifest, Project, Section
from depinfer.patterns import lazy

_PLATFORM = lazy(r"sys_platform|platform_system|os_name|platform_machine")
_VERSION = lazy(r"python_version|python_full_version")


def annotate(
    project: Project,
    refs: list[ImportRef],
    candidates: list[Candidate],
    layout: ManifestLayout,
    ctx: Context,
) -> list[Candidate]:
    """The candidates, each Python one with its DeclareFeatures in its facts."""
    groups: dict[tuple[str, str], list[Candidate]] = {}
    for c in candidates:
        if c.ecosystem == Ecosystem.PYPI and not c.internal:
            groups.setdefault((c.manifest, canonical(c.name)), []).append(c)
    required, known = required_by_chosen(candidates, ctx)
    common = {
        "project_kind": project_kind(project),
        "runtime": target_python(project, ctx),
    }
    tooling = {canonical(n) for n in tooling_declarations(project)}
    manifests = {m.path: m for m in project.manifests_of(Ecosystem.PYPI)}
    for (path, name), group in groups.items():
        manifest = manifests.get(path)
        parents = sorted(required.get(name, set()) - {name})
        features = DeclareFeatures(
            where=where_used(group),
            how=how_imported(group),
            files=len({e.file for c in group for e in c.evidence if e.file}),
            required_by=parents[0] if parents else None,
            required_known=known,
            providers=1 + max(len(c.alternatives) for c in group),
            manifest_format=manifest.format if manifest else "",
            sole_list=bool(manifest) and sole_list(manifest, layout, group),
            tooling=name in tooling,
            tested=any(_tested(c) for c in group),
            **common,
        )
        for c in group:
            c.facts = replace(dependency_facts(c), declare=features)
    return candidates


def where_used(group: list[Candidate]) -> tuple[str, ...]:
    """The file roles the candidates come from; `rule` for an implicit rule's, and the
    tool evidence's own place (ci, commands, tool-config, docs-config); a dev rule's
    (pytest plugins, test tools) counts as a test use."""
    out: set[str] = set()
    for c in group:
        rule = dependency_facts(c).rule or ""
        if rule.startswith("tool:"):
            out.add(rule.split(":", 1)[1])
        elif rule and c.section == Section.DEV:
            # a pytest plugin the tests use (python_pytest), a test tool the pytest
            # options or CI name (`--cov`: found in a config file) are test uses; a rule
            # that fired in an example or a script is that file's
            kinds = set(c.kinds) - {FileKind.CONFIG.value}
            out.update(kinds or {FileKind.TEST.value})
        elif rule:
            out.add("rule")
        else:
            out.update(c.kinds or (FileKind.SOURCE.value,))
    return tuple(sorted(out))


def how_imported(group: list[Candidate]) -> tuple[str, ...]:
    """How shipped code imports it (empty when it does not)."""
    out: set[str] = set()
    for c in group:
        facts = dependency_facts(c)
        if facts.rule or c.section not in (Section.RUNTIME, Section.OPTIONAL):
            continue
        if facts.type_only:
            out.add("type-only")
        elif c.section == Section.OPTIONAL or c.optional:
            out.add("guarded")
        elif facts.lazy or facts.lazy_module:
            out.add("function")
        else:
            out.add("top")
        if c.markers and _PLATFORM.search(c.markers):
            out.add("platform")
        if c.markers and _VERSION.search(c.markers):
            out.add("version")
    return tuple(sorted(out))


def _tested(c: Candidate) -> bool:
    """A module the tests load imports it at top level, unguarded."""
    facts = dependency_facts(c)
    return (
        facts.tested
        and c.section == Section.RUNTIME
        and not c.optional
        and not (facts.rule or facts.type_only or facts.lazy)
    )


def required_by_chosen(
    candidates: list[Candidate], ctx: Context
) -> tuple[dict[str, set[str]], bool]:
    """name → the distributions shipped code imports unguarded at top level that require
    it (registry Requires-Dist, extras left out), and whether the registry was asked.
    The look-ups run concurrently, as the registry layer's own batch questions do."""
    if ctx.registries.offline:
        return {}, False
    chosen = sorted(
        {
            canonical(c.name)
            for c in candidates
            if c.ecosystem == Ecosystem.PYPI
            and c.section == Section.RUNTIME
            and not c.optional
            and not dependency_facts(c).rule
        }
    )
    out: dict[str, set[str]] = {}
    metadata = ctx.registries.metadata_many(Ecosystem.PYPI, chosen)
    for parent in chosen:
        for spec in metadata.get(parent, {}).get("requires_dist") or []:
            head, _, marker = spec.partition(";")
            if "extra" in marker:
                continue
            m = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", head)
            if m:
                out.setdefault(canonical(m.group(1)), set()).add(parent)
    return out, True


def project_kind(project: Project) -> str:
    """library (package metadata names it), sample (no shipped code, only examples and
    notebooks), test (only tests), else application."""
    for m in project.manifests_of(Ecosystem.PYPI):
        if m.format in ("pyproject", "setup_cfg", "setup_py") and (m.data or {}).get("name"):
            return "library"
    kinds = {f.kind for f in project.files if f.language == "python"}
    if FileKind.SOURCE in kinds:
        return "application"
    if kinds & {FileKind.EXAMPLE, FileKind.DOCS} or any(
        f.path.endswith(".ipynb") for f in project.files
    ):
        return "sample"
    return "test" if FileKind.TEST in kinds else "application"


def sole_list(manifest: Manifest, layout: ManifestLayout, group: list[Candidate]) -> bool:
    """The folder's only dependency list is this one requirements file (a setup.cfg or
    pyproject.toml that only configures tools does not count)."""
    if manifest.format != "requirements":
        return False
    files = [e.file for c in group for e in c.evidence if e.file]
    folder = layout.folder_of(files[0]) if files else None
    others = folder.all if folder else [manifest]
    return all(
        m is manifest
        or m.path == manifest.path
        or (m.format != "requirements" and not m.declared and not (m.data or {}).get("name"))
        for m in others
    )
