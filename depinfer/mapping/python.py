"""Python imports → PyPI distribution candidates.

Order of questions for each imported module:
1. relative or provided by the repository itself (python_internal) → dropped;
2. standard library of the target Python (python_stdlib) → dropped, unless the target lacks
   it and a backport stands in (`tomllib` on 3.10 → tomli; `from typing import Self` on
   3.10 → typing-extensions), each with its `python_version` marker;
3. the analysed project's own environment, when it is the active one (VIRTUAL_ENV inside
   the repository): `importlib.metadata.packages_distributions()` of that environment;
4. the shipped index (python_index), longest dotted prefix, popularity to choose — but a
   provider the project's own manifests already declare (an extra, a dependency group, a
   dev requirements file: what masking leaves) wins over a more popular one: the project
   has told which of the distributions that ship the module it installs (pyxdg, not xdg);
5. anything else: a distribution the manifests declare whose name ends in the module's
   (`discogs_client` → python3-discogs-client, a maintained fork under a prefixed name),
   else the same-named distribution, only when the registry confirms it exists; offline
   it is reported as unverified and not written.

Each candidate goes to the manifests that own the importing file (python_manifests); the
section comes from the file's role and the import's guards (see resolvers.python); a
repository module that the code only imports under such a guard makes its own imports
optional too (python_optional_modules).
"""

from __future__ import annotations

import json
import os
import re
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path, PurePosixPath
from typing import Any

from depinfer.context import Context
from depinfer.facts.python import DependencyFacts, dependency_facts, import_facts, mark
from depinfer.mapping.python_hosts import Host, hosts
from depinfer.mapping.python_index import Match, canonical, load_index
from depinfer.mapping.python_internal import InternalModules
from depinfer.mapping.python_manifests import ManifestLayout
from depinfer.mapping.python_optional_modules import (
    hosted_files,
    mark_core_modules,
    mark_lazy_modules,
    mark_optional_modules,
    mark_type_only_modules,
)
from depinfer.mapping.python_stdlib import (
    DEFAULT_TARGET,
    backport_for,
    ever_stdlib,
    floor_below_table,
    is_stdlib,
    lacking_marker,
    needed_on,
)
from depinfer.model import (
    Candidate,
    Ecosystem,
    Evidence,
    FileKind,
    ImportRef,
    Project,
    Section,
)
from depinfer.runtime import python_runtime
from depinfer.scan import classify, source_text

# Import names that are never distributions of their own.
_NOT_DISTRIBUTIONS = {"__main__", "__future__", "__builtin__", "builtins"}


def target_python(project: Project, ctx: Context) -> str:
    """The oldest Python the project supports (runtime.python_runtime: --python,
    requires-python, then classifiers, CI matrix, .python-version, runtime.txt, Dockerfile)."""
    detected = python_runtime(project, ctx.options.python).minimum
    return ".".join(detected.split(".")[:2]) if detected else DEFAULT_TARGET


# Folders that hold copies of other projects' code inside the package (seaborn/external,
# setuptools/_vendor, pkg/extern): their imports are the copied code's, guarded or unused.
VENDORED_DIRS = {"external", "externals", "extern", "_external", "_extern", "_vendored", "vendored"}


def _is_notebook(ref: ImportRef) -> bool:
    return ref.language == "notebook" or ref.file.endswith(".ipynb")


def section_of(ref: ImportRef) -> Section:
    """Where an import's distribution belongs, from the file's role and the import's guards.

    Notebooks are never shipped code (tutorials, analyses): their imports are dev-only.
    An import indented inside a function (lazy, `facts.lazy`) in shipped code is how
    libraries import optional features (`IPython` in rich, DB drivers in connectors), so it
    counts as optional unless the same distribution is imported eagerly somewhere.
    A guarded import (try/except ImportError) under a platform check (`if sys.platform ==
    "win32"`) at module level is declared with that platform's marker: the guard spares the
    other platforms, not the one the check names (colorama on Windows).
    """
    if ref.kind == FileKind.BUILD:
        return Section.BUILD
    if ref.kind != FileKind.SOURCE or _is_notebook(ref):
        return Section.DEV
    if ref.type_only:
        return Section.DEV
    if import_facts(ref).vendored:
        return Section.OPTIONAL
    if ref.optional:
        if (
            ref.marker
            and ("sys_platform" in ref.marker or "platform_system" in ref.marker)
            and not import_facts(ref).optional_module
            and not import_facts(ref).lazy
        ):
            # `if sys.platform == "win32": try: import colorama`: the guard only spares
            # other platforms; where the marker holds, the project installs it
            return Section.RUNTIME
        return Section.OPTIONAL
    return Section.RUNTIME


class _Lines:
    """Source lines, read once per file, to tell top-level imports from lazy ones."""

    def __init__(self, project: Project) -> None:
        self.project = project
        self.cache: dict[str, list[str]] = {}
        self.texts: dict[str, str] = {}

    def indented(self, ref: ImportRef) -> bool:
        if ref.language != "python" or ref.line < 1:
            return False
        lines = self.cache.get(ref.file)
        if lines is None:
            text = self.texts[ref.file] = source_text(self.project, ref.file)
            lines = self.cache[ref.file] = text.splitlines()
        if ref.line > len(lines):
            return False
        line = lines[ref.line - 1]
        return line[:1] in (" ", "\t") and bool(line.strip())

    def made_by_test(self, ref: ImportRef) -> bool:
        """A test that writes a module and then imports it (`(tmp_path / "site_app.py")
        .write_text(…)`, `project / "namespace" / pkg`): the name is built at run time,
        not installed. Judged from the test file naming it as a path part."""
        if ref.kind != FileKind.TEST or not self.indented(ref):
            return False
        name = ref.module.split(".")[0]
        text = self.texts.get(ref.file, "")
        # every match below has the name then a quote, `.py` or `/__init__.py`
        if not any(name + tail in text for tail in ('"', "'", ".py", "/__init__.py")):
            return False
        root = re.escape(name)
        path_part = (
            rf"(?:/\s*|(?:joinpath|mkdir|makedirs|touch)\(\s*|join\([^)]*,\s*)"
            rf"[\"']{root}(?:\.py)?[\"']"
            rf"|[\"'](?:[^\"'\n]*/)?{root}(?:\.py|/__init__\.py)[\"']"
        )
        return re.search(path_part, text) is not None


# Folders that hold a package's integrations with other libraries, one sub-package or
# module per library, named after it (allauth/headless/contrib/ninja,
# sentry_sdk/integrations/django): the user who installs that library enables it
_INTEGRATION_DIRS = {"contrib", "integrations", "integration"}


def _integration_with(rel_file: str, root: str) -> bool:
    """`root` is imported by the integration named after it (contrib/ninja/security.py
    importing ninja): the library is the user's choice, not the package's runtime need."""
    lowered = rel_file.lower()
    if not any(d in lowered for d in _INTEGRATION_DIRS):
        return False  # the common case, without building a path
    parts = PurePosixPath(rel_file).parts
    for i, part in enumerate(parts[:-1]):
        if part.lower() in _INTEGRATION_DIRS:
            name = PurePosixPath(parts[i + 1]).stem
            if name.lower() == root.lower():
                return True
    return False


# Roles a folder gives files of the repository's own project but not of a project it holds
_NESTED_PROJECT_ROLES = {FileKind.EXAMPLE, FileKind.DOCS, FileKind.BENCH, FileKind.SCRIPT}


def _roles_in_nested_projects(
    refs: list[ImportRef], project: Project, layout: ManifestLayout
) -> None:
    """A file's role judged from the project that owns it: an example, docs or script folder
    that keeps its own runtime manifest (examples/servers/weather/pyproject.toml) is a
    project of its own, and the code in it is that project's shipped code, not a demo of the
    repository's package. A folder of loose scripts beside that project's packages (no
    `__init__.py` in it) stays a demo, and test folders keep their role (a fixture project is
    test data)."""
    packages = {
        str(PurePosixPath(f.path).parent)
        for f in project.files
        if PurePosixPath(f.path).name == "__init__.py"
    }
    roles: dict[str, FileKind] = {}
    for ref in refs:
        if ref.kind not in _NESTED_PROJECT_ROLES:
            continue
        if ref.file not in roles:
            roles[ref.file] = ref.kind
            folder = layout.folder_of(ref.file)
            base = folder.directory if folder is not None else ""
            if (
                folder is not None
                and base
                and any(m.directory == base for m in folder.runtime)
                and classify(base + "/_.py", packages) in _NESTED_PROJECT_ROLES
            ):
                inner = {p[len(base) + 1 :] for p in packages if p.startswith(base + "/")}
                rel = ref.file[len(base) + 1 :]
                top = rel.split("/")[0] if "/" in rel else ""
                if top in inner:
                    # the project's own package, whatever it is called (a Django project
                    # package named `example` beside its manage.py)
                    rel = "_pkg" + rel[len(top) :]
                    inner = {"_pkg" + p[len(top) :] if p.split("/")[0] == top else p for p in inner}
                    top = "_pkg"
                if not top or not inner or any(p == top or p.startswith(top + "/") for p in inner):
                    roles[ref.file] = classify(rel, inner)
        ref.kind = roles[ref.file]


def _mark_lazy_and_vendored(refs: list[ImportRef], project: Project, lines: _Lines) -> None:
    for ref in refs:
        parts = ref.file.split("/")[:-1]
        if any(p.lower() in VENDORED_DIRS for p in parts):
            mark(ref, vendored=True)
        if (
            ref.kind == FileKind.SOURCE
            and not ref.optional
            and not ref.type_only
            and not ref.marker
            and not import_facts(ref).fallback_for
            and lines.indented(ref)
        ):
            mark(ref, lazy=True)


def project_environment(project: Project) -> dict[str, list[str]] | None:
    """packages_distributions() of the project's own active virtualenv, or None.

    Only a VIRTUAL_ENV inside the analysed repository counts: depinfer's own environment
    says nothing about the project. The environment's interpreter is asked in a subprocess.
    """
    venv = os.environ.get("VIRTUAL_ENV")
    if not venv:
        return None
    try:
        venv_path = Path(venv).resolve()
        venv_path.relative_to(project.root)
    except (ValueError, OSError):
        return None
    exe = venv_path / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    if not exe.exists():
        return None
    import subprocess  # lazy: only a project with its own virtual environment

    code = "import json, importlib.metadata as m; print(json.dumps(m.packages_distributions()))"
    try:
        out = subprocess.run([str(exe), "-c", code], capture_output=True, text=True, timeout=30)
        return json.loads(out.stdout) if out.returncode == 0 else None
    except (OSError, subprocess.TimeoutExpired, ValueError):
        return None


def _lookup_keys(ref: ImportRef) -> list[str]:
    """`from google.cloud import storage` asks for google.cloud.storage first."""
    keys = []
    if ref.names and ref.names != ("*",):
        keys += [f"{ref.module}.{n}" for n in ref.names if n.isidentifier()]
    keys.append(ref.module)
    return keys


def map_imports(project: Project, refs: list[ImportRef], ctx: Context) -> list[Candidate]:
    """Candidates for the project's imports: each ref goes through STRATEGIES in order
    until one decides (the evidence rule of what it emits names it); the names no strategy
    placed are asked of the registry at the end, all at once."""
    mapper = _Mapper.of(project, ctx)
    _roles_in_nested_projects(refs, project, mapper.layout)
    _mark_lazy_and_vendored(refs, project, mapper.lines)
    mark_type_only_modules(refs, mapper.internal, project)
    mark_lazy_modules(refs, mapper.internal, project)
    mark_optional_modules(refs, mapper.internal, project)
    mark_core_modules(refs, mapper.internal)
    mapper.hosted = tuple((host, hosted_files(project, mapper.internal, host)) for host in hosts())
    for ref in refs:
        if ref.relative or not ref.module:
            continue
        root = ref.module.split(".")[0]
        if not root.isidentifier() or root in _NOT_DISTRIBUTIONS:
            continue
        use = mapper.use(ref, root)
        for strategy in STRATEGIES:
            if strategy(mapper, use):
                break
    _lazy_optional(mapper.out)
    _by_registry(mapper)
    return mapper.out


@dataclass(frozen=True)
class _Use:
    """One import to map, with where it goes unless a strategy says otherwise."""

    ref: ImportRef
    root: str  # the top-level module
    section: Section  # from the file's role, guards, hosts, integrations and fallbacks
    marker: str | None  # the guard's marker, narrowed for a stdlib fallback
    hosted: bool = False  # the file is one the imported host loads (a shipped pytest plugin)


@dataclass
class _Mapper:
    """What mapping one project's imports reads once, and what it has found so far."""

    project: Project
    ctx: Context
    index: Any  # the shipped module → distribution index (python_index)
    internal: InternalModules
    layout: ManifestLayout
    target: str  # the oldest Python the project supports
    floor: str  # ... even below the stdlib table's oldest (markers and backports count there)
    env: dict[str, list[str]] | None  # the project's own virtualenv, when active
    lines: _Lines
    declared: set[str]  # canonical names the manifests declare anywhere
    hosted: tuple[tuple[Host, set[str]], ...] = ()  # hosts and the files they load
    out: list[Candidate] = field(default_factory=list)
    # canonical name → uses left for the registry's same-name check (with their placement:
    # a fallback's marker, an integration's section, a host)
    unknown: dict[str, list[_Use]] = field(default_factory=lambda: defaultdict(list))

    @classmethod
    def of(cls, project: Project, ctx: Context) -> _Mapper:
        target = target_python(project, ctx)
        return cls(
            project=project,
            ctx=ctx,
            index=load_index(),
            internal=InternalModules(project),
            layout=ManifestLayout(project),
            target=target,
            floor=_floor(project, ctx, target),
            env=project_environment(project),
            lines=_Lines(project),
            declared=_declared_names(project),
        )

    def use(self, ref: ImportRef, root: str) -> _Use:
        """The import with its default placement (see `_placement`)."""
        host = next(
            (h for h, files in self.hosted if root in h.modules and ref.file in files), None
        )
        section, marker = _placement(ref, root, host)
        return _Use(ref, root, section, marker, host is not None)

    def emit(self, dist: str, ref: ImportRef, evidence: Evidence, **kw: Any) -> None:
        """One candidate per manifest that takes `dist` for the importing file."""
        folder = self.layout.folder_of(ref.file)
        if folder is None:
            self.ctx.info(f"{dist}: no Python manifest owns this file; not written", ref.file)
            return
        section = kw.pop("section", section_of(ref))
        markers = kw.pop("markers", ref.marker)
        hosted = kw.pop("hosted", False)
        seen = import_facts(ref)
        facts = DependencyFacts(
            hosted=hosted,
            api=tuple(api_names(ref)),
            lazy=seen.lazy,
            lazy_module=seen.lazy_module,
            core=seen.core,
            tested=seen.tested,
            folder=folder.directory,
            type_only=ref.type_only,
            **kw.pop("facts", {}),
        )
        # notebooks are demonstrations, whatever folder they sit in
        kinds = ("notebook" if _is_notebook(ref) else ref.kind.value,)
        targets = (
            folder.runtime_targets(ref.file) if section == Section.RUNTIME else folder.runtime[:1]
        )
        for manifest in targets or folder.all[:1]:
            bases = folder.layer_bases(manifest)
            if bases:
                facts = replace(facts, layer_bases=tuple(bases))
            self.out.append(
                Candidate(
                    ecosystem=Ecosystem.PYPI,
                    name=dist,
                    manifest=manifest.path,
                    section=section,
                    import_names=[ref.module],
                    evidence=[evidence],
                    optional=section == Section.OPTIONAL,
                    markers=markers,
                    kinds=kinds,
                    facts=facts,
                    **kw,
                )
            )


def _floor(project: Project, ctx: Context, target: str) -> str:
    """The oldest Python the declared requires-python admits (python_stdlib); never a
    Python 2 (classifiers that still list 2.6): what the test job runs and the gate
    resolves for is a Python 3, so a Python 2 fallback is not written."""
    if target.startswith("2."):
        return "3.0"
    if ctx.options.python:
        return target
    specs = [
        m.data["requires_python"]
        for m in project.manifests_of(Ecosystem.PYPI)
        if isinstance(m.data.get("requires_python"), str)
    ]
    return floor_below_table(specs, target)


def _placement(ref: ImportRef, root: str, host: Host | None) -> tuple[Section, str | None]:
    """Section and marker of an import found outside the repository and the stdlib: the
    file's role and guards (section_of), a host that loads the file (a pytest plugin's
    pytest, a gunicorn worker's gunicorn: data/python/hosts.toml), an integration named
    after the library, and a fallback for a module the stdlib gained later."""
    marker = ref.marker
    section = section_of(ref) if host is None else host.places(section_of(ref))
    if section == Section.RUNTIME and _integration_with(ref.file, root):
        section = Section.OPTIONAL
    facts = import_facts(ref)
    fallback_for = [x for x in facts.fallback_for if isinstance(x, str)]
    if fallback_for:
        stdlib = [x for x in fallback_for if ever_stdlib(x)]
        if len(stdlib) == len(fallback_for):
            # `except ImportError: import tomli` after `import tomllib`: needed only where
            # the stdlib lacks what the `try` wanted — the module, or a name it took from
            # it (`from typing import Self` → before 3.11); never, for a Python 2 fallback
            wanted = stdlib + [n for n in facts.fallback_names if ever_stdlib(n)]
            marker = _and(marker, lacking_marker(wanted))
        elif not stdlib:
            # fallback between two third-party modules: either one will do
            section = Section.OPTIONAL if section == Section.RUNTIME else section
    return section, marker


def by_pip_install(m: _Mapper, use: _Use) -> bool:
    """A notebook's `!pip install x`: the name is the distribution's; the registry checks it."""
    if not import_facts(use.ref).pip_install:
        return False
    m.unknown[canonical(use.ref.module)].append(use)
    return True


def by_repository(m: _Mapper, use: _Use) -> bool:
    """The repository's own module (or one a test writes): nothing to install, unless it
    belongs to another project of the repository, which the importer then depends on."""
    ref = use.ref
    if not (m.internal.is_internal(ref.module, ref.file, ref.names) or m.lines.made_by_test(ref)):
        return False
    folder = m.layout.folder_of(ref.file)
    sibling = m.internal.sibling_project(ref.module, folder.directory if folder is not None else "")
    if sibling:
        # another project of this repository (hatch's backend/ is hatchling): the
        # importer depends on that distribution by name
        m.emit(
            canonical(sibling),
            ref,
            Evidence(
                "sibling-project",
                ref.file,
                ref.line,
                f"{ref.module} → {sibling} (a project of this repository)",
            ),
            confidence=0.9,
            verified=True,
        )
    return True


def by_standard_library(m: _Mapper, use: _Use) -> bool:
    """A module of the standard library (now or once): nothing to install, unless the
    target Python lacks it and a backport stands in (`tomllib` on 3.10 → tomli)."""
    ref = use.ref
    if not (is_stdlib(ref.module, m.target) or ever_stdlib(ref.module)):
        return False
    bp = backport_for(ref.module, ref.names, m.target)
    if bp is None and m.floor != m.target:
        # below the table's versions only a backport of the same import name stands in
        # for a plain import (`import dataclasses` on 3.6 finds the dataclasses backport)
        older = backport_for(ref.module, ref.names, m.floor)
        bp = older if older is not None and older.module == ref.module else None
    if bp is None:
        return True
    marker = _and(ref.marker, bp.marker)
    if not needed_on(marker, m.floor):
        return True  # `if sys.version_info >= (3, 11): import tomllib` needs no backport
    m.emit(
        canonical(bp.dist),
        ref,
        Evidence("backport", ref.file, ref.line, f"{ref.module} on Python {m.target}: {bp.why}"),
        markers=marker,
        confidence=0.9,
        verified=True,
    )
    return True


def not_on_target(m: _Mapper, use: _Use) -> bool:
    """The import's marker excludes every Python the project supports: nothing to write."""
    return bool(use.marker) and not needed_on(use.marker, m.floor)


def by_environment(m: _Mapper, use: _Use) -> bool:
    """The project's own active virtualenv knows which distribution installs the module."""
    dists = m.env.get(use.root) if m.env is not None else None
    if not dists:
        return False
    ref = use.ref
    m.emit(
        canonical(dists[0]),
        ref,
        Evidence("environment", ref.file, ref.line, f"{use.root} installed by {dists[0]}"),
        markers=use.marker,
        section=use.section,
        hosted=use.hosted,
        verified=True,
        alternatives=[canonical(d) for d in dists[1:]],
    )
    return True


def by_index(m: _Mapper, use: _Use) -> bool:
    """The shipped index names the module's providers: the one the manifests declare, else
    the most downloaded."""
    ref = use.ref
    match = _lookup(m.index, ref)
    if match is None:
        return False
    _prefer_declared(match, m.declared)
    m.emit(
        match.chosen,
        ref,
        Evidence(
            "index:pypi",
            ref.file,
            ref.line,
            f"{match.key} → {match.chosen}"
            + (f" (also {', '.join(match.alternatives[:3])})" if match.alternatives else ""),
        ),
        markers=use.marker,
        section=use.section,
        hosted=use.hosted,
        alternatives=match.alternatives[:5],
        ambiguous=match.ambiguous,
        confidence=0.6 if match.ambiguous else 0.95,
        verified=True if m.index.is_ranked(match.chosen) else None,
        ranks=tuple(list(match.ranks.items())[:6]),
        facts={"match": match.source},
    )
    return True


def by_declared_fork(m: _Mapper, use: _Use) -> bool:
    """A module the index does not know, and one declared distribution is named after it
    with a prefix (`discogs_client` → python3-discogs-client)."""
    ref = use.ref
    named = _declared_fork(canonical(use.root), m.declared)
    if named is None:
        return False
    m.emit(
        named,
        ref,
        Evidence(
            "declared",
            ref.file,
            ref.line,
            f"{ref.module} → {named} (the project declares it; not in the index)",
        ),
        markers=use.marker,
        section=use.section,
        hosted=use.hosted,
        confidence=0.8,
        verified=True,
    )
    return True


def by_same_name(m: _Mapper, use: _Use) -> bool:
    """Anything else: the same-named distribution, if the registry confirms it (at the end)
    — unless the repository itself holds a module or package of that name somewhere off
    the import roots (`src/core/etl_pipeline.py` imported as `etl_pipeline` after a
    `sys.path.insert`, a nested suite's `from src import handler`): a name the shipped
    index does not know as anyone's import is then the project's own."""
    held = m.internal.held_anywhere(use.root, use.ref.file)
    if held is not None:
        m.ctx.info(
            f"`{use.ref.module}`: the repository's own {held}; not a distribution", use.ref.file
        )
        return True
    m.unknown[canonical(use.root)].append(use)
    return True


# Tried in this order for each import; the first that returns True decides.
STRATEGIES: tuple[Callable[[_Mapper, _Use], bool], ...] = (
    by_pip_install,
    by_repository,
    by_standard_library,
    not_on_target,
    by_environment,
    by_index,
    by_declared_fork,
    by_same_name,
)


def _by_registry(m: _Mapper) -> None:
    """The names left for the registry: the same-named distribution where it exists; an
    unverified one only when asked to keep those (check mode); else a warning."""
    if not m.unknown:
        return
    _named_in_documents(m)
    answers = m.ctx.registries.exists_many(Ecosystem.PYPI, sorted(m.unknown))
    for dist, uses in sorted(m.unknown.items()):
        answer = answers.get(dist)
        first = uses[0].ref
        if answer is True:
            for use in uses:
                ref = use.ref
                m.emit(
                    dist,
                    ref,
                    Evidence(
                        "registry:exists", ref.file, ref.line, f"{ref.module} → {dist} (same name)"
                    ),
                    markers=use.marker,
                    section=use.section,
                    hosted=use.hosted,
                    confidence=0.5,
                    verified=True,
                )
        elif answer is False:
            m.ctx.warn(f"`{first.module}`: no distribution of that name; not written", first.file)
        elif m.ctx.options.keep_unverified:
            # check mode compares these with what the manifests declare
            for use in uses:
                ref = use.ref
                m.emit(
                    dist,
                    ref,
                    Evidence(
                        "unverified",
                        ref.file,
                        ref.line,
                        f"{ref.module} → {dist} (same name, not verified)",
                    ),
                    markers=use.marker,
                    section=use.section,
                    hosted=use.hosted,
                    confidence=0.3,
                    verified=None,
                )
        else:
            m.ctx.warn(
                f"`{first.module}`: unknown import; the same-named distribution `{dist}` "
                "could not be verified (offline?), not written",
                first.file,
            )


def _named_in_documents(m: _Mapper) -> None:
    """An unknown import whose same-named distribution does not install it: a distribution
    the repository's documents name that does (its wheel's file list says so) is taken
    instead (python_named). Online only; each candidate is a word the repository wrote."""
    if m.ctx.options.offline or m.project.root is None:
        return
    from depinfer.mapping import python_named

    words = python_named.document_words(str(m.project.root))
    reg = m.ctx.registries
    for dist, uses in sorted(m.unknown.items()):
        module = uses[0].ref.module
        if not python_named.candidates(module, words):
            continue
        if python_named.installs(reg, dist, module):
            continue  # the same-named distribution installs it
        found = python_named.named_provider(module, words, reg)
        if found is None:
            continue
        chosen, document = canonical(found[0]), found[1]
        for use in uses:
            ref = use.ref
            why = f"{ref.module} → {chosen}: named in {document}; its wheel installs it"
            m.emit(
                chosen,
                ref,
                Evidence("registry:ships", ref.file, ref.line, why),
                markers=use.marker,
                section=use.section,
                hosted=use.hosted,
                confidence=0.6,
                verified=True,
            )
        del m.unknown[dist]


def _declared_names(project: Project) -> set[str]:
    """Canonical names the project's Python manifests declare in any section (after
    masking: extras, dependency groups, dev requirements files)."""
    return {
        canonical(n)
        for m in project.manifests_of(Ecosystem.PYPI)
        for names in m.declared.values()
        for n in names
        if isinstance(n, str)
    }


def _prefer_declared(match: Match, declared: set[str]) -> None:
    """Among the providers of an import, the one the project declares is its choice."""
    if canonical(match.chosen) in declared:
        return
    mine = [p for p in match.providers if canonical(p) in declared]
    if len(mine) == 1:
        match.chosen = mine[0]
        match.providers = [mine[0]] + [p for p in match.providers if p != mine[0]]
        match.ambiguous = False
        match.source = "declared"


def _declared_fork(module: str, declared: set[str]) -> str | None:
    """The one declared distribution named `<prefix>-<module>` (python3-discogs-client for
    `discogs_client`), for a module the index does not know."""
    hits = sorted(d for d in declared if d.endswith("-" + module))
    return hits[0] if len(hits) == 1 else None


def api_names(ref: ImportRef) -> list[str]:
    """Dotted names the code uses from the module (`pydantic.field_validator`,
    `numpy.float`): the version stage bounds releases by which of them exist."""
    names = [ref.module] + [f"{ref.module}.{n}" for n in ref.names if n != "*"]
    names += [a for a in import_facts(ref).attrs if isinstance(a, str)]
    return names


def _lazy_optional(cands: list[Candidate]) -> None:
    """Lazy imports of a distribution that is also imported under try/except ImportError
    somewhere are optional too (rich imports IPython lazily and guarded); lazy imports
    alone stay runtime (httpx imports httpcore lazily for start-up speed)."""
    guarded = {(c.manifest, c.name) for c in cands if c.section == Section.OPTIONAL}
    eager = {
        (c.manifest, c.name)
        for c in cands
        if c.section == Section.RUNTIME and not dependency_facts(c).lazy
    }
    for c in cands:
        key = (c.manifest, c.name)
        if dependency_facts(c).lazy and c.section == Section.RUNTIME and key in guarded:
            if key not in eager:
                c.section = Section.OPTIONAL
                c.optional = True


def _lookup(index, ref: ImportRef) -> Match | None:
    for key in _lookup_keys(ref):
        match = index.lookup(key)
        if match is not None:
            return match
    return None


def _and(a: str | None, b: str | None) -> str | None:
    if a and b:
        if a == b:
            return a
        return f"({a}) and ({b})" if " or " in a or " or " in b else f"{a} and {b}"
    return a or b
