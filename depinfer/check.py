"""Check mode: compare what the code needs with what the manifests declare (pre-commit).

Findings are data with deptry's codes, where deptry has one; the reporters
(depinfer/check_formats.py) are thin layers over them:
  DEP001 missing     imported, declared nowhere the project declares what it installs
  DEP002 unused      declared as a runtime dependency, never used (exemptions: data table)
  DEP003 transitive  imported and not declared, but installed only because a declared
                     dependency requires it (registry metadata with --online; offline,
                     the framework parts depinfer ships; else reported as DEP001)
  DEP004 misplaced   used by shipped code, declared only for development (a dev/test
                     group, or a tooling environment: tox, nox, hatch, CI, pixi features)
  DEP005 stdlib      a standard-library module declared as a dependency
depinfer's own findings, numbered after deptry's:
  DEP101 test-only   declared as a runtime dependency, used only by tests or tooling

Inference and check agree on what needs an entry: for a Python test/tooling import, check
asks the inference (the resolver's dev placement) whether it would write one.
"""

from __future__ import annotations

import argparse
import fnmatch
import re
import sys
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import PurePosixPath
from typing import TYPE_CHECKING

from depinfer.check_formats import render
from depinfer.context import Options
from depinfer.data import load_table
from depinfer.facts.python import dependency_facts
from depinfer.filecache import FileCache
from depinfer.mapping.python import target_python
from depinfer.mapping.python_index import canonical
from depinfer.mapping.python_stdlib import is_stdlib
from depinfer.mapping.python_tooling import tooling_declarations
from depinfer.model import (
    LANGUAGE_ECOSYSTEM,
    Candidate,
    Ecosystem,
    FileKind,
    Manifest,
    Project,
    Section,
)
from depinfer.patterns import lazy
from depinfer.pipeline import infer, make_context
from depinfer.registries.names import comparable
from depinfer.resolvers.python import framework_parts
from depinfer.scan import classify, in_test_data, scan

if TYPE_CHECKING:  # C# projects only: loaded by the functions that need it
    from depinfer.mapping import csharp_check

MESSAGES = {
    "DEP001": "'{name}' is imported but not declared in {manifest}",
    "DEP002": "'{name}' is declared in {manifest} but never used",
    "DEP003": "'{name}' is imported but not declared; it is installed only because "
    "{parent} requires it",
    "DEP004": "'{name}' is used by shipped code but declared only as a dev dependency in {manifest}",
    "DEP005": "'{name}' is declared in {manifest} but is part of the standard library",
    "DEP101": "'{name}' is used only by tests or tooling but declared as a runtime dependency",
}

# Manifest keys (the readers' shared vocabulary) that make a package available at run time.
RUNTIME_KEYS = {
    Ecosystem.PYPI: ("dependencies",),
    Ecosystem.NPM: ("dependencies", "peerDependencies", "optionalDependencies"),
    Ecosystem.CRATES: ("dependencies", "build-dependencies", "workspace.dependencies"),
    Ecosystem.NUGET: ("PackageReference", "PackageVersion"),
}
# Keys that only name other keys' packages (Poetry extras lists) or build tooling.
NOT_DEPENDENCY_KEYS = ("extras.", "build-system.")


@dataclass
class Finding:
    code: str
    name: str
    manifest: str
    file: str
    line: int
    message: str
    column: int = 1
    modules: tuple[str, ...] = ()  # the import names behind it (deptry ignores by module)


def normalise(ecosystem: Ecosystem, name: str) -> str:
    return comparable(ecosystem.value, name)


def _is_runtime_key(
    ecosystem: Ecosystem,
    key: str,
    manifest: Manifest | None = None,
    project: Project | None = None,
) -> bool:
    if (
        manifest is not None
        and manifest.format == "requirements"
        and not _runtime_requirements(manifest, project)
    ):
        return False
    if ecosystem == Ecosystem.CRATES and key.startswith("target."):
        return not key.endswith("dev-dependencies")
    return key in RUNTIME_KEYS[ecosystem]


_NAME_START = lazy(r"^@?[A-Za-z0-9]")  # every ecosystem's names start so (npm: @scope)
_DEV_WORDS = lazy(
    r"(^|[-_./])(dev|devel|test|tests|testing|docs?|lint|ci|tox|typing|bench)([-_.]|$)", re.I
)


def _runtime_requirements(manifest: Manifest, project: Project | None = None) -> bool:
    """requirements-dev.txt, docs/requirements.txt, requirements/test.txt … are tooling, and
    so is a file that installs a project of the repository (`-e .[test]` beside
    pyproject.toml: httpx's requirements.txt builds the working environment, as the
    inference's dev placement also reads it)."""
    folders = set((manifest.data or {}).get("local_installs") or [])
    if project is not None and any(
        m.directory in folders and m.format != "requirements"
        for m in project.manifests_of(Ecosystem.PYPI)
    ):
        return False
    return classify(manifest.path) == FileKind.SOURCE and not _DEV_WORDS.search(manifest.path)


@dataclass
class Known:
    """What check mode knows beyond the manifests (all optional: tests build it by hand)."""

    # Python: canonical name -> the tooling file that installs it (tox, nox, hatch, CI, …)
    tooling: dict[str, str] = field(default_factory=dict)
    # Python: names the inference would write into a dev group (None: not asked)
    needed_dev: set[str] | None = None
    # Python: canonical name -> the declared dependencies that require it (DEP003)
    brought: dict[str, tuple[str, ...]] = field(default_factory=dict)
    python: str = "3.10"  # target Python, for DEP005


def _uses_that_count(
    uses: list[Candidate], has_dev_group: bool, dev_needed: bool | None = None
) -> list[Candidate]:
    """Imports the manifests are expected to cover: shipped code always; tests when the
    inference would write them into a dev group (`dev_needed`; without that answer: when
    the project keeps a test/dev group, else they live in tox/nox/CI config); never build
    scripts, examples, docs or tooling scripts."""
    out = []
    for u in uses:
        if u.section == Section.BUILD:
            continue
        if u.section == Section.DEV:
            if dev_needed is not None:
                if not dev_needed:
                    continue
            else:
                files = [e.file for e in u.evidence if e.file]
                if (
                    not has_dev_group
                    or not files
                    or any(classify(f) != FileKind.TEST for f in files)
                ):
                    continue
        out.append(u)
    return out


@lru_cache(maxsize=1)
def _exemptions() -> dict[str, list[str]]:
    data = load_table("common/unused_exceptions.toml")
    return {eco: [e["glob"] for e in entries] for eco, entries in data.items()}


def _exempt(ecosystem: Ecosystem, name: str) -> bool:
    return any(fnmatch.fnmatch(name, g) for g in _exemptions().get(ecosystem.value, []))


def _scope(project: Project, manifest: Manifest) -> list[Manifest]:
    """Manifests whose declarations satisfy imports owned by `manifest`: same ecosystem,
    in its directory or an ancestor (a root dev-requirements file covers a subpackage)."""
    here = PurePosixPath(manifest.directory)
    out = []
    for m in project.manifests_of(manifest.ecosystem):
        d = PurePosixPath(m.directory)
        if m.directory == manifest.directory or str(d) in ("", ".") or d in here.parents:
            out.append(m)
    return out


def _line_of(project: Project, manifest: str, name: str) -> int:
    lines = _lines(project, manifest)
    low = name.lower()
    for i, line in enumerate(lines, 1):
        if low in line.lower():
            return i
    return 1


def find_problems(
    project: Project, candidates: list[Candidate], known: Known | None = None
) -> list[Finding]:
    known = known or Known()
    findings: list[Finding] = []
    manifests = {m.path: m for m in project.manifests}
    view = None
    if project.manifests_of(Ecosystem.NUGET):
        from depinfer.mapping import csharp_check  # lazy: C# projects only

        view = csharp_check.compile_view(project)
    for mpath, names in _uses_by_manifest(project, candidates).items():
        if in_test_data(mpath):
            continue  # a sample project the tests read, not the repository's
        manifest = manifests[mpath]
        runtime, dev, has_dev_group = _declared_where(project, manifest)
        python = manifest.ecosystem == Ecosystem.PYPI
        if python:
            for name, where in known.tooling.items():
                dev.setdefault(name, where)
        for norm, all_uses in sorted(names.items()):
            needed = (norm in known.needed_dev) if python and known.needed_dev is not None else None
            # a runtime declaration used only by tests is misplaced whatever groups exist
            uses = (
                all_uses if norm in runtime else _uses_that_count(all_uses, has_dev_group, needed)
            )
            finding = _use_finding(project, mpath, norm, uses, runtime, dev) if uses else None
            if finding is not None and finding.code == "DEP001" and python:
                # a test import that a dev dependency brings is transitive too (sphinx's
                # docutils in docs/conf.py); a runtime one needs a runtime parent
                runtime_use = any(_needs_runtime(u) for u in uses)
                parents = runtime if runtime_use else {**dev, **runtime}
                finding = _transitive(finding, norm, parents, known)
            if finding is not None and manifest.ecosystem == Ecosystem.NUGET:
                finding = _csharp_missing(finding, view, mpath, uses)
            if finding is not None:
                findings.append(finding)
    findings.extend(_unused(project, candidates, known, view))
    return _unique(findings)


def _unique(findings: list[Finding]) -> list[Finding]:
    """One finding per code, name and place (a conditional PackageReference per target
    framework names the package on one line twice)."""
    seen: set[tuple] = set()
    out = []
    for f in findings:
        key = (f.code, f.name, f.file, f.line)
        if key not in seen:
            seen.add(key)
            out.append(f)
    return out


def _csharp_missing(
    finding: Finding, view: csharp_check.CsView | None, mpath: str, uses: list[Candidate]
) -> Finding | None:
    """C#: missing only when code names it (a `using`, a qualified name; not what a build
    rule would add) and nothing the project compiles against provides it."""
    if finding.code != "DEP001" or view is None:
        return finding
    from depinfer.mapping import csharp_check  # lazy: C# projects only

    code = [
        u
        for u in uses
        if any(e.file and e.file.endswith(csharp_check.CODE_SUFFIXES) for e in u.evidence)
    ]
    if not code:
        return None
    namespaces = sorted({n for u in code for n in u.import_names})
    if csharp_check.compiles(view, mpath, code[0].name, namespaces):
        return None
    return finding


def _transitive(finding: Finding, norm: str, scope: dict[str, str], known: Known) -> Finding:
    """A missing name that a dependency declared in `scope` requires is DEP003."""
    found = known.brought.get(norm, ())
    parents = [p for p in ((found,) if isinstance(found, str) else found) if p in scope]
    if not parents:
        return finding
    parent = parents[0]
    finding.code = "DEP003"
    finding.message = MESSAGES["DEP003"].format(name=finding.name, parent=parent)
    return finding


def _uses_by_manifest(
    project: Project, candidates: list[Candidate]
) -> dict[str, dict[str, list[Candidate]]]:
    """manifest → normalised name → the candidates that use it (internal ones left out)."""
    manifests = {m.path for m in project.manifests}
    used: dict[str, dict[str, list[Candidate]]] = {}
    for c in candidates:
        if c.internal or c.manifest not in manifests or not _NAME_START.match(c.name):
            continue  # a module no distribution can be named after (`_typeshed`) is no need
        used.setdefault(c.manifest, {}).setdefault(normalise(c.ecosystem, c.name), []).append(c)
    return used


def _declared_where(
    project: Project, manifest: Manifest
) -> tuple[dict[str, str], dict[str, str], bool]:
    """The names a manifest (and its scope) declares at runtime and for development, each
    with the manifest that declares it, and whether it has a development group at all."""
    eco = manifest.ecosystem
    runtime: dict[str, str] = {}
    dev: dict[str, str] = {}
    for m in _scope(project, manifest):
        for key, declared in m.declared.items():
            if key.startswith(NOT_DEPENDENCY_KEYS):
                continue
            target = runtime if _is_runtime_key(eco, key, m, project) else dev
            for n in declared:
                target.setdefault(normalise(eco, n), m.path)
    has_dev_group = bool(dev) or any(
        not _is_runtime_key(eco, k, m, project) and not k.startswith(NOT_DEPENDENCY_KEYS)
        for m in _scope(project, manifest)
        for k in m.declared
    )
    return runtime, dev, has_dev_group


def _use_finding(
    project: Project,
    mpath: str,
    norm: str,
    uses: list[Candidate],
    runtime: dict[str, str],
    dev: dict[str, str],
) -> Finding | None:
    """What is wrong with how one used name is declared: misplaced as runtime (DEP003) or as
    development (DEP004), or not declared (DEP001); None when nothing is."""
    first = uses[0]
    ev = next((e for e in first.evidence if e.file), None)
    file, line = (ev.file, ev.line or 1) if ev else (mpath, 1)
    column, modules = _column_of(project, file, line), tuple(first.import_names)
    needs_runtime = any(_needs_runtime(u) for u in uses)
    if norm in runtime:
        if needs_runtime or norm in dev or not all(u.section == Section.DEV for u in uses):
            return None
        mf = runtime[norm]
        message = MESSAGES["DEP101"].format(name=first.name)
        line = _line_of(project, mf, first.name)
        return Finding("DEP101", first.name, mf, mf, line, message, 1, modules)
    if norm in dev:
        if not needs_runtime:
            return None
        message = MESSAGES["DEP004"].format(name=first.name, manifest=dev[norm])
        return Finding("DEP004", first.name, dev[norm], file, line, message, column, modules)
    if all(u.optional for u in uses):
        return None  # guarded imports (try/except ImportError) may stay undeclared
    message = MESSAGES["DEP001"].format(name=first.name, manifest=mpath)
    return Finding("DEP001", first.name, mpath, file, line, message, column, modules)


def _needs_runtime(use: Candidate) -> bool:
    """A shipped pytest plugin's pytest import is written at run time, as plugins declare
    it, but pytest is there whenever it loads the plugin: a test group holding it is no
    misplacement."""
    return (
        use.section in (Section.RUNTIME, Section.PEER)
        and not use.optional
        and not dependency_facts(use).hosted
    )


def _column_of(project: Project, file: str, line: int) -> int:
    """1-based column where the statement on `line` starts (its indentation + 1)."""
    text = _lines(project, file)
    if 0 < line <= len(text):
        return len(text[line - 1]) - len(text[line - 1].lstrip()) + 1
    return 1


def _lines(project: Project, rel: str) -> list[str]:
    try:
        return project.abspath(rel).read_text(encoding="utf-8-sig", errors="replace").splitlines()
    except OSError:
        return []


def _unused(
    project: Project,
    candidates: list[Candidate],
    known: Known,
    view: csharp_check.CsView | None = None,
) -> list[Finding]:
    """Runtime declarations no code uses (DEP002), unless exempt; standard-library modules
    declared as dependencies (DEP005) instead of DEP002."""
    findings: list[Finding] = []
    all_used = {(c.ecosystem, normalise(c.ecosystem, c.name)) for c in candidates}
    # used packages nothing declares directly: a declared package bringing one is needed
    written = {
        n.lower()
        for m in project.manifests_of(Ecosystem.NUGET)
        for n in m.declared.get("PackageReference", [])
    }
    cs_used = {n.lower() for eco, n in all_used if eco == Ecosystem.NUGET} - written
    cs_namespaces = {
        n
        for c in candidates
        if c.ecosystem == Ecosystem.NUGET and not c.internal
        for n in c.import_names
    }
    for m in project.manifests:
        if m.parse_error or in_test_data(m.path) or _compiled_lock(project, m):
            continue
        for key, declared in m.declared.items():
            if key.startswith(NOT_DEPENDENCY_KEYS):
                continue
            # npm's optionalDependencies: the code copes without them, and often loads them
            # by a computed name (a platform's binary package): no use seen is no evidence
            runtime = _is_runtime_key(m.ecosystem, key, m, project) and key not in (
                "workspace.dependencies",
                "optionalDependencies",
            )
            for name in declared:
                norm = normalise(m.ecosystem, name)
                line = _line_of(project, m.path, name)
                if m.ecosystem == Ecosystem.PYPI and _stdlib(project, m, name, line, known):
                    message = MESSAGES["DEP005"].format(name=name, manifest=m.path)
                    findings.append(Finding("DEP005", name, m.path, m.path, line, message))
                    continue
                if not runtime or (m.ecosystem, norm) in all_used or _exempt(m.ecosystem, norm):
                    continue
                if m.ecosystem == Ecosystem.NUGET and not _csharp_unused(
                    key, name, cs_namespaces, view, cs_used, m.path
                ):
                    continue
                message = MESSAGES["DEP002"].format(name=name, manifest=m.path)
                findings.append(Finding("DEP002", name, m.path, m.path, line, message))
    return findings


def _compiled_lock(project: Project, m: Manifest) -> bool:
    """A requirements file pip-compile or uv compiled (its header says so) pins what the
    file it is compiled from declares and everything that brings: its transitive pins are
    not declarations no code uses (the source file is judged instead)."""
    if m.ecosystem != Ecosystem.PYPI or m.format != "requirements":
        return False
    from depinfer.mapping.python_tooling import is_compiled  # lazy: Python projects only

    return is_compiled(project, m.path)


def _csharp_unused(
    key: str,
    name: str,
    namespaces: set[str],
    view: csharp_check.CsView | None,
    used: set[str],
    manifest: str = "",
) -> bool:
    """C#: a PackageReference (a central PackageVersion only pins a version) of a library
    the index knows, none of whose namespaces the code uses; a build, analyzer or test
    tool, or a package the index does not know, may be used where no `using` shows it."""
    from depinfer.mapping import csharp_check  # lazy: C# projects only
    from depinfer.mapping.nuget_index import kind_of

    if key != "PackageReference" or not csharp_check.judged(name):
        return False
    if kind_of(name) != "lib" or csharp_check.uses_any(name, namespaces):
        return False
    if csharp_check.brings_used(name, used):
        return False
    if view is None:
        return True
    if csharp_check.uses_any(name, csharp_check.named_namespaces(view, manifest)):
        return False
    if csharp_check.published_dependency(view, manifest, name):
        return False
    if csharp_check.carried_use(view, name):
        return False
    return not csharp_check.marker_used(view, name)


def _stdlib(project: Project, m: Manifest, name: str, line: int, known: Known) -> bool:
    """The declared name is a standard-library module of the target Python, and the
    declaration is not limited to older Pythons (a backport behind `python_version<…`)."""
    module = normalise(Ecosystem.PYPI, name).replace("-", "_")
    if not is_stdlib(module, known.python):
        return False
    text = _lines(project, m.path)
    return not (0 < line <= len(text) and "python_version" in text[line - 1])


def run_check(
    path: str,
    online: bool = False,
    languages: tuple[str, ...] = (),
    exclude: tuple[str, ...] = (),
    cache: bool = False,
):
    options = Options(offline=not online, keep_unverified=True, versions=False, languages=languages)
    project = scan(path, exclude=exclude, commit_date=False)
    ctx = make_context(options)
    ctx.files = FileCache.default(cache, project.root)
    result = infer(path, options, ctx=ctx, project=project, edits=False)
    ctx.files.save()
    known = Known(
        tooling=tooling_declarations(project),
        needed_dev={
            canonical(r.name)
            for r in result.requirements
            if r.ecosystem == Ecosystem.PYPI and r.section == Section.DEV
        },
        brought=_brought(project, ctx, online),
        python=target_python(project, ctx),
    )
    ecosystems = {m.path: m.ecosystem for m in project.manifests}
    wanted = {LANGUAGE_ECOSYSTEM[lang] for lang in languages if lang in LANGUAGE_ECOSYSTEM}
    findings = [
        f
        for f in find_problems(project, result.candidates, known)
        if not any(ctx.config.ignored(f.code, n) for n in (f.name, *f.modules))
        # --lang: the chosen languages' manifests only
        and (not wanted or ecosystems.get(f.manifest) in wanted)
    ]
    return result, findings


def _brought(project: Project, ctx, online: bool) -> dict[str, tuple[str, ...]]:
    """canonical name -> a declared Python dependency (any group) that requires it: the framework parts
    depinfer ships (offline), and with --online each declared dependency's Requires-Dist
    (extras left out)."""
    out: dict[str, set[str]] = {}
    declared = sorted(
        {
            canonical(n)
            for m in project.manifests_of(Ecosystem.PYPI)
            for key, names in m.declared.items()
            if not key.startswith(NOT_DEPENDENCY_KEYS)
            for n in names
        }
    )
    parts = framework_parts()
    for parent in declared:
        for part in sorted(parts.get(parent, ())):
            out.setdefault(canonical(part), set()).add(parent)
    if not online:
        return {name: tuple(sorted(parents)) for name, parents in out.items()}
    for parent in declared:
        meta = ctx.registries.metadata(Ecosystem.PYPI, parent) or {}
        for spec in meta.get("requires_dist") or []:
            head, _, marker = str(spec).partition(";")
            match = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", head)
            if match and "extra" not in marker:
                out.setdefault(canonical(match.group(1)), set()).add(parent)
    return {name: tuple(sorted(parents)) for name, parents in out.items()}


def main(args: argparse.Namespace) -> int:
    try:
        result, findings = run_check(
            args.path,
            online=args.online,
            languages=tuple(args.lang or ()),
            exclude=tuple(getattr(args, "exclude", None) or ()),
            cache=not getattr(args, "no_cache", False),
        )
    except (FileNotFoundError, NotADirectoryError, PermissionError) as exc:
        print(f"depinfer: {exc}", file=sys.stderr)
        return 2
    errors = [d for d in result.diagnostics if d.level == "error"]
    fmt = "json" if args.json else (args.format or "text")
    findings = sorted(findings, key=lambda f: (f.file, f.line, f.column, f.code, f.name))
    sys.stdout.write(render(fmt, findings, [str(d) for d in errors], sys.stdout))
    if errors and not args.quiet and fmt == "text":
        for d in errors:
            print(f"depinfer: error: {d}", file=sys.stderr)
    if errors:
        return 2
    return 1 if findings else 0
