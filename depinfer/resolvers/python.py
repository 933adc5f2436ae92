"""Python candidates → requirements: which section of which manifest each one goes to.

Placement (names only here; version constraints come from python_versions when enabled):
- runtime imports of shipped source → the runtime list of each runtime manifest that owns
  the file;
- optional imports (try/except ImportError) in source are not runtime: nothing is written
  when the manifest already declares the distribution in any group or extra; a Poetry
  `[tool.poetry.extras]` list that names it (extras lists survive masking) puts it into the
  Poetry dependencies with `optional = true`; a requirements file takes it where the
  declare model (rules/python_declare.py) says maintainers list such imports; otherwise it
  is reported as a suggestion;
- a distribution shipped code imports only inside functions (or from modules loaded only
  inside functions) that the project keeps in an extra or dependency group is installed
  there: not written to the runtime list (lazy imports alone stay runtime);
- test/docs/example/bench/script/config and type-only imports → the manifest's existing
  test/dev group (optional-dependencies / dependency-groups / Poetry groups / requirements-dev
  files) unless a group already declares it (or a tooling environment — tox, nox, a CI
  pip line — installs it beside the group); no such group → the requirements list where
  the declare model says maintainers keep them there, else reported, not written;
- tools named without an import (CI run lines, tox/nox/Makefile commands, tool
  configuration, docs/conf.py: rules/python_tools.py) → the dev group, else the
  requirements list, only where the declare model says maintainers declare them;
- a top-level import that another chosen dependency requires (Requires-Dist), or that
  shipped code guards with try/except ImportError elsewhere → written unless the declare
  model says maintainers leave it out;
- setup.py (build script) imports → not written;
- requirements files stacked with `-r` (production.txt on base.txt): a runtime name goes
  to no file whose stack already has it (declared in or written to a file it pulls in), and
  not to a file that a layer on top of it declares it in (the layer's own addition).
A version pinned for the same distribution elsewhere in the repository (another
requirements file, CI install lines) is kept as evidence ("pinned-elsewhere") for the
version stage; nothing here writes a constraint.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Collection
from dataclasses import dataclass
from functools import lru_cache
from pathlib import PurePosixPath

from depinfer.context import Context
from depinfer.data import load_table
from depinfer.facts.python import dependency_facts
from depinfer.manifests.pyproject import DEPENDENCY_GROUPS
from depinfer.mapping.python import target_python
from depinfer.mapping.python_index import canonical
from depinfer.mapping.python_manifests import (
    DEMO_GROUPS,
    DEMO_KINDS,
    DEV_GROUPS,
    DOCS_GROUPS,
    TEST_GROUPS,
)
from depinfer.mapping.python_tooling import (
    ci_installs_only_plain,
    ci_requirement_files,
    pixi_feature_names,
    tooling_declarations,
)
from depinfer.model import (
    Candidate,
    Ecosystem,
    Evidence,
    FileKind,
    Manifest,
    Project,
    Requirement,
    Section,
)
from depinfer.patterns import compile_kept, lazy
from depinfer.resolvers.common import merge_candidates, to_requirement
from depinfer.rules.python import files_near_top, read_small
from depinfer.rules.python_declare import Estimate, estimate, kind
from depinfer.scan import classify
from depinfer.versions import parse_as_of

_PIN = lazy(
    r"(?:^|[\s'\"])(?:pip\s+install\s+[^\n]*?)?([A-Za-z0-9][A-Za-z0-9._-]*)(\[[^\]]*\])?\s*(==\s*[0-9][\w.*+!-]*)"
)
_GROUP_HEADS = ("optional-dependencies.", "dependency-groups.", "group.")


def resolve(project: Project, candidates: list[Candidate], ctx: Context) -> list[Requirement]:
    """Requirements for the Python candidates: each merged candidate goes through PLACEMENTS
    in order until one decides where it is written (or that it is not)."""
    ours = [c for c in candidates if c.ecosystem == Ecosystem.PYPI]
    used: dict[str, set[str]] = {}
    for c in ours:
        used.setdefault(canonical(c.name), set()).update(dependency_facts(c).api)
    merged = merge_candidates(ours, canonical)
    _markers_of_strongest_uses(ours, merged)
    p = _Placing.of(project, ours, merged, ctx)
    out: list[Requirement] = []
    seen: set[tuple[str, str, str | None]] = set()
    for c in merged:
        item = p.item(c)
        if item is None:
            continue
        place, decided = next((f, d) for f in PLACEMENTS if (d := f(p, item)) is not None)
        req = decided.requirement
        if req is None:
            continue
        req.evidence.append(Evidence(f"placement:{place.__name__}"))  # --explain names it
        key = (req.manifest, item.name, req.group)
        if key in seen:
            continue
        seen.add(key)
        if item.pin and item.pin[1].startswith("=="):
            req.spec = item.pin[1]  # evidence: wins in select_versions when the registry agrees
        out.append(req)
    out = _drop_framework_parts(_drop_lockstep_parts(out, ctx), ctx)
    if ctx.options.versions:
        choose_specs(project, out, ctx, used)
    return expand_deploy_locks(project, out, ctx)


_BEFORE = lazy(r'^python_version\s*<\s*"(3\.\d+)"$')


def _markers_of_strongest_uses(ours: list[Candidate], merged: list[Candidate]) -> None:
    """A merged candidate's marker comes from the uses that decided its section: a
    guarded, optional `import importlib_metadata` (no marker) does not erase the
    `python_version < "3.10"` of the fallback that makes it a runtime need. Several
    markers join with `or` (`python_version < "3.8"` or `< "3.10"` → `< "3.10"`)."""
    uses: dict[tuple[str, str, Section], list[str | None]] = {}
    for c in ours:
        uses.setdefault((c.manifest, canonical(c.name), c.section), []).append(c.markers)
    for c in merged:
        markers = uses.get((c.manifest, canonical(c.name), c.section))
        if markers:
            c.markers = _any_of(markers)


def _any_of(markers: list[str | None]) -> str | None:
    if any(not m for m in markers):
        return None
    distinct = list(dict.fromkeys(m for m in markers if m))
    if len(distinct) == 1:
        return distinct[0]
    befores = [_BEFORE.match(m) for m in distinct]
    if all(befores):
        newest = max((b.group(1) for b in befores if b), key=lambda v: int(v.split(".")[1]))
        return f'python_version < "{newest}"'
    return " or ".join(f"({m})" if " and " in m or " or " in m else m for m in distinct)


@dataclass
class _Placing:
    """What placing one project's candidates reads once: its manifests and where the code
    imports each name (module level, inside functions, in a feature's modules)."""

    project: Project
    ctx: Context
    manifests: dict[str, Manifest]
    core: set[tuple[str, str]]  # (manifest, name) the modules `import pkg` runs import
    eager: set[tuple[str, str]]  # (manifest, name) shipped code imports at module level
    eager_files: dict[tuple[str, str], set[str]]  # ... and from which files
    feature_files: set[str]  # files that import a feature extra's distribution unguarded
    brought: set[str]  # what those feature distributions require (registry)
    source_files: dict[str, set[str]]  # name -> files of shipped code that import it at all
    runtime_targets: dict[str, set[str]]  # name -> manifests it goes to as runtime
    pins: dict[str, tuple[str, str]]  # name -> (file, spec) pinned elsewhere
    environments: set[str]  # names pixi's feature environments install
    tooling: dict[str, str]  # names tox, nox, hatch, CI or requirements.d install -> where
    ci_files: set[str]  # requirements files a CI workflow installs with `-r`
    plain_ci: bool  # the CI installs no extra or group (ci_installs_only_plain)
    stacks: dict[str, set[str]]  # requirements file -> the files it pulls in with `-r`
    featured_brings: dict[tuple[str, ...], set[str]]  # per manifest set, once
    tested: set[str]  # names the tests import and never guard (they fail without them)
    group_brought: dict[tuple[str, ...], dict[str, set[str]]]  # per manifest set, once

    @classmethod
    def of(
        cls, project: Project, ours: list[Candidate], merged: list[Candidate], ctx: Context
    ) -> _Placing:
        manifests = {m.path: m for m in project.manifests_of(Ecosystem.PYPI)}
        # names the modules `import pkg` runs import at module level: the package's own needs
        core = {(c.manifest, canonical(c.name)) for c in ours if dependency_facts(c).core}
        featured_brings: dict[tuple[str, ...], set[str]] = {}
        feature_imports = _feature_imports(
            ours, list(manifests.values()), core, ctx, featured_brings
        )
        eager_files: dict[tuple[str, str], set[str]] = {}
        source_files: dict[str, set[str]] = {}
        for c in ours:
            facts = dependency_facts(c)
            if (
                c.section == Section.RUNTIME
                and not c.optional
                and not (facts.lazy or facts.lazy_module)
            ):
                files = eager_files.setdefault((c.manifest, canonical(c.name)), set())
                files.update(e.file for e in c.evidence if e.file)
        for c in ours:  # where shipped code imports each name at all (any guard, any depth)
            if c.section in (Section.RUNTIME, Section.OPTIONAL):
                source_files.setdefault(canonical(c.name), set()).update(
                    e.file for e in c.evidence if e.file
                )
        runtime_targets: dict[str, set[str]] = {}
        for c in merged:
            if c.section == Section.RUNTIME and not c.optional:
                runtime_targets.setdefault(canonical(c.name), set()).add(c.manifest)
        return cls(
            project=project,
            ctx=ctx,
            manifests=manifests,
            core=core,
            eager=set(eager_files),
            eager_files=eager_files,
            feature_files={e.file for c in feature_imports for e in c.evidence if e.file},
            brought=_brought_by_extras({canonical(c.name) for c in feature_imports}, ctx),
            source_files=source_files,
            runtime_targets=runtime_targets,
            pins=pinned_elsewhere(project, manifests),
            environments=pixi_feature_names(project),
            tooling=tooling_declarations(project),
            ci_files=ci_requirement_files(project),
            plain_ci=ci_installs_only_plain(project),
            stacks={
                path: _included(path, manifests)
                for path, m in manifests.items()
                if m.format == "requirements"
            },
            featured_brings=featured_brings,
            tested=_tested_unguarded(project, ours),
            group_brought={},
        )

    def item(self, c: Candidate) -> _Item | None:
        """The merged candidate with what its placement asks; None when it is not written
        at all (no readable manifest, or the registry denies the name)."""
        manifest = self.manifests.get(c.manifest)
        if manifest is None or manifest.parse_error or c.verified is False:
            return None
        siblings = _siblings(self.project, manifest, c)
        name = canonical(c.name)
        pin: tuple[str, str] | None = None
        if name in self.pins and self.pins[name][0] != manifest.path:
            pin = self.pins[name]
            c.evidence.append(Evidence("pinned-elsewhere", pin[0], detail=pin[1]))
        # lazy imports elsewhere load nothing until their feature is used
        files = self.eager_files.get((manifest.path, name), set())
        in_feature_module = bool(files) and files <= self.feature_files and name in self.brought
        if c.section == Section.RUNTIME and not c.optional and not in_feature_module:
            role = "runtime"
        elif c.section == Section.OPTIONAL or c.optional or in_feature_module:
            role = "optional"
        elif c.section == Section.DEV:
            role = "dev"
        else:
            role = "other"  # BUILD and anything else
        features = dependency_facts(c).declare
        habit = kind(features) if features else None
        found = estimate(features)
        if found is not None:
            c.evidence.append(Evidence("declare-model", detail=found.describe()))
        declared = _declared_anywhere(siblings)
        return _Item(c, manifest, siblings, declared, name, role, pin, found, habit)


def _tested_unguarded(project: Project, ours: list[Candidate]) -> set[str]:
    """Names test files import where no test guards the import (`try: import x except
    ImportError`): one guarded import shows the tests are meant to run without it (a
    skip marker then protects the tests that import it inside a function)."""
    sites: dict[str, list[bool]] = {}
    for c in ours:
        if c.section == Section.DEV and "test" in c.kinds:
            sites.setdefault(canonical(c.name), []).extend(
                _guarded_at(project, e.file, e.line) for e in c.evidence if e.file and e.line
            )
    return {name for name, guarded in sites.items() if guarded and not any(guarded)}


_CATCHES_IMPORT = lazy(
    r"^except\s*:|^except\s*\(?\s*(?:[\w.]+\s*,\s*)*(?:ImportError|ModuleNotFoundError|Exception|BaseException)\b"
)


@lru_cache(maxsize=256)
def _lines(path: str) -> tuple[str, ...]:
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            return tuple(fh.read(1_000_000).splitlines())
    except OSError:
        return ()


def _guarded_at(project: Project, file: str, line: int) -> bool:
    """Whether the import on `line` of `file` sits in a `try:` whose handlers catch an
    ImportError (`except ImportError`, `except (ImportError, …)`, a bare `except`): the
    code then runs without it (a test module that skips when it is missing)."""
    lines = _lines(str(project.abspath(file)))
    if not 0 < line <= len(lines):
        return False
    indent = len(lines[line - 1]) - len(lines[line - 1].lstrip())
    for i in range(line - 2, -1, -1):
        text = lines[i]
        stripped = text.lstrip()
        if not stripped or stripped.startswith("#"):
            continue
        outer = len(text) - len(stripped)
        if outer >= indent:
            continue
        if not stripped.startswith("try:"):
            return False
        for after in lines[line:]:
            rest = after.lstrip()
            if not rest or rest.startswith("#") or len(after) - len(rest) != outer:
                continue
            if rest.startswith("except"):
                if _CATCHES_IMPORT.match(rest):
                    return True
            elif not rest.startswith(("else", "finally")):
                return False
        return False
    return False


def _feature_imports(
    ours: list[Candidate],
    manifests: list[Manifest],
    core: set[tuple[str, str]],
    ctx: Context,
    cache: dict[tuple[str, ...], set[str]],
) -> list[Candidate]:
    """Modules that import a distribution of a feature extra without a guard can only load
    when that extra is installed: they are the extra's code (kombu/transport/sqs.py), and
    what the extra's distributions depend on (botocore under boto3) comes with it; an extra
    that repeats a distribution the package itself needs (pandas in ydata-profiling's
    `spark`) does not make its importers the extra's code."""
    feature_names = _feature_names(manifests, ctx, cache)
    return [
        c
        for c in ours
        if canonical(c.name) in feature_names
        and not c.optional
        and c.section == Section.RUNTIME
        and not dependency_facts(c).lazy  # inside a function: the module loads without it
        and (c.manifest, canonical(c.name)) not in core
    ]


@dataclass(frozen=True)
class _Item:
    """One merged candidate being placed."""

    c: Candidate
    manifest: Manifest
    siblings: list[Manifest]  # the Python manifests of its folder
    declared_any: set[str]  # what they declare anywhere (groups and extras too)
    name: str  # canonical
    role: str  # runtime | optional | dev | other: which placements apply
    pin: tuple[str, str] | None  # (file, spec) of a pin elsewhere in the repository
    estimate: Estimate | None = None  # the declare model's, for a habit decision
    habit: str | None = None  # the declare model's kind of decision (python_declare.kind)


@dataclass(frozen=True)
class Placed:
    """A placement's decision: the requirement to write, or None when nothing is written."""

    requirement: Requirement | None


NOT_WRITTEN = Placed(None)


@lru_cache(maxsize=1)
def build_tools() -> dict[str, tuple[str, frozenset[str]]]:
    """Distribution → (kind, the modules whose import counts; empty: any) of the build
    tools, packagers and freezers (data/python/build_tools.toml)."""
    rows = load_table("python/build_tools.toml").get("tool", [])
    return {canonical(r["name"]): (r["kind"], frozenset(r.get("modules", ()))) for r in rows}


@lru_cache(maxsize=1)
def build_tool_platforms() -> dict[str, str]:
    """Distribution → the one `sys_platform` it installs on, of the build tools that have
    one (py2exe: Windows)."""
    rows = load_table("python/build_tools.toml").get("tool", [])
    return {canonical(r["name"]): r["platform"] for r in rows if r.get("platform")}


def _is_build_tool(it: _Item) -> str | None:
    found = build_tools().get(it.name)
    if found is None:
        return None
    kind, modules = found
    tops = {n.split(".")[0] for n in it.c.import_names}
    if modules and tops and not tops & modules:
        return None  # setuptools for pkg_resources: a runtime API
    return kind


def build_tool(p: _Placing, it: _Item) -> Placed | None:
    """Build tools, packagers and freezers (PyInstaller, setuptools, twine …) are run to
    build or ship the project, never by its running code: the project's dev group when it
    has one (where its build scripts' tools belong), else not written."""
    if it.role not in ("runtime", "optional"):
        return None
    kind = _is_build_tool(it)
    if kind is None:
        return None
    target = _dev_group(it.siblings, dataclasses.replace(it.c, kinds=()), p.ci_files)
    if it.name in it.declared_any or target is None:
        p.ctx.info(
            f"{it.c.name}: a {kind}, not a runtime dependency; not written"
            + ("" if it.name in it.declared_any else " (the project has no dev group)"),
            _first_file(it.c),
        )
        return NOT_WRITTEN
    path, group = target
    req = _req(it.c, Section.DEV, group)
    req.manifest = path
    req.evidence.append(Evidence("build-tool", detail=f"{it.c.name} is a {kind}"))
    platform = build_tool_platforms().get(it.name)
    if platform and not req.markers:
        req.markers = f'sys_platform == "{platform}"'
        req.evidence.append(
            Evidence("build-tool", detail=f"{it.c.name} installs on {platform} alone")
        )
    return Placed(req)


def in_poetry_extra(p: _Placing, it: _Item) -> Placed | None:
    """A runtime or optional name a Poetry extras list holds: an optional Poetry dependency."""
    if it.role not in ("runtime", "optional"):
        return None
    extra_group = _poetry_extra_naming(it.siblings, it.manifest, it.name)
    if extra_group and it.manifest.format == "pyproject":
        return Placed(_req(it.c, Section.OPTIONAL, extra_group, optional=True))
    return None


def offered_as_feature(p: _Placing, it: _Item) -> Placed | None:
    """The project already offers it as an optional feature (an extra): the code that
    imports it is that feature's, so it stays out of the runtime list (unless importing the
    package itself needs it and the extra merely repeats it; an extra of core names alone
    picks a variant)."""
    if it.role != "runtime":
        return None
    if it.manifest.path in p.ci_files and _tests_miss_it(p, it):
        return None  # the test job installs this file, not the extra
    key = (it.manifest.path, it.name)
    if it.name in _feature_names(it.siblings, p.ctx, p.featured_brings) and (
        key not in p.core
        or it.name in _variant_extras(it.siblings, {n for m, n in p.core if m == it.manifest.path})
    ):
        return NOT_WRITTEN
    return None


def lazy_in_a_group(p: _Placing, it: _Item) -> Placed | None:
    """Imported only inside functions (loaded when a feature is used) and kept in one of the
    project's extras or groups, or required by a distribution kept there: the project
    installs it with that group (altair's polars in `dev`; ydata-profiling's IPython)."""
    if it.role != "runtime" or (it.manifest.path, it.name) in p.eager:
        return None
    if (
        _installed_with_a_group(it.name, it.siblings, p.ctx, p.group_brought, p.source_files)
        or it.name in p.environments
    ):
        return NOT_WRITTEN
    return None


def in_a_lower_layer(p: _Placing, it: _Item) -> Placed | None:
    """A requirements file stacked with `-r` on one that has (or a layer on top that
    declares) the name, or an environment layer whose base list has it already."""
    if it.role != "runtime":
        return None
    targets = p.runtime_targets.get(it.name, set())
    if _layered_elsewhere(it.manifest, it.name, p.manifests, p.stacks, targets):
        return NOT_WRITTEN
    if set(dependency_facts(it.c).layer_bases) & targets:
        return NOT_WRITTEN
    return None


def runtime_habit(p: _Placing, it: _Item) -> Placed | None:
    """A top-level import that a distribution the code imports requires (Requires-Dist), or
    one shipped code guards with try/except ImportError elsewhere: whether the maintainers
    declare it is a habit, the declare model's to say."""
    if it.role != "runtime" or it.estimate is None:
        return None
    if it.habit not in ("runtime-required", "partly-guarded") or it.estimate.keep:
        return None
    features = dependency_facts(it.c).declare
    why = (
        f"{features.required_by} requires it"
        if it.habit == "runtime-required" and features
        else "imported where it may be missing too"
    )
    p.ctx.info(f"{it.c.name}: {why}; not written ({it.estimate.describe()})", _first_file(it.c))
    return NOT_WRITTEN


def _in_requirements_list(it: _Item) -> Placed | None:
    """The runtime list of the candidate's manifest when that is a requirements file (the
    environment the project installs), else nothing."""
    if it.manifest.format != "requirements":
        return None
    req = _req(it.c, Section.RUNTIME, None)
    req.evidence.append(Evidence("declare-model-list", detail="the folder's requirements list"))
    return Placed(req)


def tool_by_model(p: _Placing, it: _Item) -> Placed | None:
    """A tool named without an import (CI run lines, tox/nox/Makefile commands, its
    configuration section, docs/conf.py): written when the declare model says the
    maintainers usually declare it — in the dev group, else the requirements list."""
    if it.habit is None or not it.habit.startswith("tool-"):
        return None
    if it.name in it.declared_any:
        return NOT_WRITTEN
    if it.estimate is None or not it.estimate.keep:
        p.ctx.info(
            f"{it.c.name}: a tool the project uses; not written"
            + (f" ({it.estimate.describe()})" if it.estimate else ""),
            _first_file(it.c),
        )
        return NOT_WRITTEN
    target = _dev_group(it.siblings, it.c, p.ci_files)
    if target is None:
        return _in_requirements_list(it) or NOT_WRITTEN
    path, group = target
    req = _req(it.c, Section.DEV, group)
    req.manifest = path
    return Placed(req)


def runtime_list(p: _Placing, it: _Item) -> Placed | None:
    """Any other runtime import of shipped code: the runtime list."""
    if it.role != "runtime":
        return None
    return Placed(_req(it.c, Section.RUNTIME, None))


def optional_tests_exercise(p: _Placing, it: _Item) -> Placed | None:
    """An optional import of shipped code that the tests import unguarded too: the tests
    exercise the code path that needs it, so the test job must install it — the test/dev
    group the project has (which the CI installs), unless one declares it already. Tests
    that guard the import anywhere skip without it (seaborn's fastcluster)."""
    if it.role != "optional" or it.name not in p.tested:
        return None
    unmet = _tests_miss_it(p, it)
    if it.name in it.declared_any and not unmet:
        return None
    if it.name in p.tooling:
        return NOT_WRITTEN  # a tooling environment (tox, nox, CI line) installs it
    target = _dev_group(it.siblings, dataclasses.replace(it.c, kinds=("test",)), p.ci_files)
    if unmet and (target is None or target[0] not in p.ci_files):
        return _in_the_job_file(p, it)
    if target is None:
        return None
    path, group = target
    req = _req(it.c, Section.DEV, group)
    req.manifest = path
    req.evidence.append(
        Evidence("optional-tested", detail="imported where it may be missing and by tests")
    )
    return Placed(req)


def optional_elsewhere(p: _Placing, it: _Item) -> Placed | None:
    """An optional import: declared somewhere already, or reported as a suggestion."""
    if it.role != "optional":
        return None
    if it.name not in it.declared_any:
        if it.habit == "guarded" and it.estimate is not None and it.estimate.keep:
            placed = _in_requirements_list(it)
            if placed is not None:
                return placed
        p.ctx.info(
            f"{it.c.name}: imported only where it may be missing (optional); "
            "not added to the runtime list"
            + (f" ({it.estimate.describe()})" if it.estimate else ""),
            _first_file(it.c),
        )
    return NOT_WRITTEN


def dev_group(p: _Placing, it: _Item) -> Placed | None:
    """Tests, docs, examples, tooling: the manifest's matching group unless one declares
    it already or a tooling environment installs it; with no such group the declare
    model's cell says whether the requirements list holds it (a test import tox or a CI
    line installs too is its own cell), else it is reported, not written."""
    if it.role != "dev":
        return None
    unmet = _tests_miss_it(p, it)
    if it.name in it.declared_any and not unmet:
        return NOT_WRITTEN
    target = _dev_group(it.siblings, it.c, p.ci_files)
    if unmet and (target is None or target[0] not in p.ci_files):
        return _in_the_job_file(p, it)
    if it.name in p.tooling and (target is not None or it.habit is None):
        return NOT_WRITTEN  # a tooling environment installs it (check agrees)
    if target is None and it.estimate is not None and it.estimate.keep:
        # the folder's requirements list is the environment its tests and scripts run in,
        # where the declare model says the maintainers usually list them
        placed = _in_requirements_list(it)
        if placed is not None:
            return placed
    if target is None:
        kinds = set(it.c.kinds)
        p.ctx.info(
            f"{it.c.name}: used by notebooks/examples only and the project has no "
            "group for them; not written"
            if kinds and kinds <= DEMO_KINDS
            else f"{it.c.name}: used by tests/docs/tooling only and the project has no "
            "test/dev group to hold it; not written",
            _first_file(it.c),
        )
        return NOT_WRITTEN
    path, group = target
    req = _req(it.c, Section.DEV, group)
    req.manifest = path
    return Placed(req)


def _tests_miss_it(p: _Placing, it: _Item) -> bool:
    """The tests import the name unguarded, the folder's manifests list it only in extras
    or groups, and the CI test job installs requirements files with `-r` and nothing that
    installs extras or groups: the tests would fail there, so it goes to the file the job
    installs."""
    if not p.plain_ci or not p.ci_files or it.name not in p.tested:
        return False
    if it.name not in it.declared_any:
        return False
    return not any(
        it.name in {canonical(_bare(n)) for n in names}
        for m in it.siblings
        for key, names in m.declared.items()
        if m.format == "requirements" or not _extra_or_group(key)
    )


def _in_the_job_file(p: _Placing, it: _Item) -> Placed:
    """The requirements file of the folder that the CI installs with `-r` (its list), or
    nothing when the folder has none."""
    path = next((m.path for m in it.siblings if m.path in p.ci_files), None)
    if path is None:
        return NOT_WRITTEN
    req = _req(it.c, Section.RUNTIME, None)
    req.manifest = path
    req.evidence.append(
        Evidence("ci-job-file", detail=f"the tests need it and the CI test job installs {path}")
    )
    return Placed(req)


def _extra_or_group(key: str) -> bool:
    head = key.partition(".")[0]
    return key == "dev-dependencies" or head in (
        "optional-dependencies",
        DEPENDENCY_GROUPS,
        "group",
    )


def not_written(p: _Placing, it: _Item) -> Placed | None:
    """Build-script imports (setup.py) and anything else: not written."""
    return NOT_WRITTEN


# Tried in this order for each merged candidate; the first that returns a decision wins.
PLACEMENTS: tuple[Callable[[_Placing, _Item], Placed | None], ...] = (
    build_tool,
    in_poetry_extra,
    offered_as_feature,
    lazy_in_a_group,
    in_a_lower_layer,
    runtime_habit,
    runtime_list,
    optional_tests_exercise,
    optional_elsewhere,
    tool_by_model,
    dev_group,
    not_written,
)


@lru_cache(maxsize=1)
def framework_parts() -> dict[str, set[str]]:
    """framework -> the libraries its documentation teaches importing as its own parts
    (data/python/framework_parts.json, built by scripts/build_framework_parts.py)."""
    data = load_table("python/framework_parts.json")
    return {name: set(entry["parts"]) for name, entry in data["frameworks"].items()}


def _drop_framework_parts(requirements: list[Requirement], ctx: Context) -> list[Requirement]:
    """A runtime part of a framework the same manifest requires (starlette beside fastapi,
    django-modelcluster beside wagtail) comes with the framework: its documentation
    teaches importing the part, and the projects that follow it declare the framework."""
    runtime = _runtime_names(requirements)
    drop: set[tuple[str, str]] = set()
    for manifest, names in runtime.items():
        for framework in sorted(names & framework_parts().keys()):
            for part in sorted(framework_parts()[framework] & names):
                drop.add((manifest, part))
                ctx.info(f"{part}: part of {framework}, which {manifest} requires; not written")
    return _without_runtime(requirements, drop)


_EXACT_PIN = lazy(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[[^\]]*\])?\s*\(?\s*===?\s*[0-9]")


def _drop_lockstep_parts(requirements: list[Requirement], ctx: Context) -> list[Requirement]:
    """A runtime name that another runtime requirement of the same manifest pins to one exact
    release (pydantic's Requires-Dist `pydantic-core==2.33.2`) is that distribution's own
    part, released in lockstep with it: its version follows the parent's, so the code's
    direct imports of it (`from pydantic_core import core_schema`) need no line of their
    own, and a line of its own could only conflict. Registry metadata (Requires-Dist with
    no extra marker); nothing is dropped offline."""
    if ctx.registries.offline:
        return requirements
    runtime = _runtime_names(requirements)
    metadata = ctx.registries.metadata_many(Ecosystem.PYPI, sorted(set().union(*runtime.values())))
    drop: set[tuple[str, str]] = set()
    for manifest, names in runtime.items():
        for parent in sorted(names):
            for spec in metadata.get(parent, {}).get("requires_dist") or []:
                head, _, marker = spec.partition(";")
                if "extra" in marker:
                    continue
                m = _EXACT_PIN.match(head)
                if m and canonical(m.group(1)) in names - {parent}:
                    drop.add((manifest, canonical(m.group(1))))
                    ctx.info(
                        f"{m.group(1)}: {parent} pins it to one release ({head.strip()}); "
                        "it comes with that distribution and is not written on its own"
                    )
    return _without_runtime(requirements, drop)


def _runtime_names(requirements: list[Requirement]) -> dict[str, set[str]]:
    """manifest -> canonical names of its plain runtime requirements."""
    runtime: dict[str, set[str]] = {}
    for r in requirements:
        if r.section == Section.RUNTIME and not r.optional and not r.internal:
            runtime.setdefault(r.manifest, set()).add(canonical(r.name))
    return runtime


def _without_runtime(
    requirements: list[Requirement], drop: set[tuple[str, str]]
) -> list[Requirement]:
    """The requirements less the runtime ones named by (manifest, canonical name)."""
    if not drop:
        return requirements
    return [
        r
        for r in requirements
        if not (r.section == Section.RUNTIME and (r.manifest, canonical(r.name)) in drop)
    ]


def choose_specs(
    project: Project, requirements: list[Requirement], ctx: Context, used: dict[str, set[str]]
) -> None:
    """Version constraints in the manifest's idiom (the writer turns PEP 440 into Poetry's)."""
    python = target_python(project, ctx)
    try:
        as_of = parse_as_of(ctx.options.as_of, project.last_commit_date)
    except ValueError as exc:
        ctx.error(str(exc))
        return
    # lazy: the version stage (packaging, uv, the registries' endpoints) only when asked
    from depinfer.resolvers.python_versions import select_versions

    select_versions(requirements, ctx, python, as_of, used)


_DOCKER_REQ = lazy(r"(?:-r|--requirement)\s+(\S+\.txt)")
_DOCKER_FROM = lazy(r"^FROM\s+python:(3\.\d+)", re.M | re.I)


# The project compiles its requirements: pip-tools, `uv pip compile`, Dependabot's
# pip-compile ecosystem (https://pip-tools.readthedocs.io, https://docs.astral.sh/uv/pip/compile/)
_COMPILER = lazy(r"\bpip-compile\b|\bpip-tools\b|\buv\s+pip\s+compile\b")
_COMPILER_PLACES = lazy(
    r"(^|/)(\.github/.*\.ya?ml|[^/]*requirements[^/]*\.(txt|in)|Makefile|justfile|tox\.ini"
    r"|noxfile\.py|pyproject\.toml|setup\.cfg|\.pre-commit-config\.yaml|[^/]*\.sh)$"
)


def names_a_compiler(project: Project) -> bool:
    """The repository's CI, Dependabot, task files or requirements name a requirements
    compiler: its pinned requirements files are compiled, not written by hand."""
    places = {m.path for m in project.manifests} | set(project.ci_files)
    places.update(files_near_top(project))
    for rel in sorted(places):
        if _COMPILER_PLACES.search(rel) and _COMPILER.search(read_small(project, rel) or ""):
            return True
    return False


def deploy_locks(project: Project) -> dict[str, str | None]:
    """Empty requirements files that pin a deployment: pip-tools' convention, a `.in` file
    of the same stem beside them (the `.in` lists the top-level names, or a sibling
    pyproject/setup.cfg does), or a Dockerfile installs them with `-r` in a repository that
    names a requirements compiler (a Dockerfile alone installs hand-written lists as
    often). A lock that already pins something is left to its compiler.
    → {path: Python version the Dockerfile runs, or None}."""
    locks: dict[str, str | None] = {}
    req_files = {
        m.path: m for m in project.manifests_of(Ecosystem.PYPI) if m.format == "requirements"
    }
    sources = {
        m.directory
        for m in project.manifests_of(Ecosystem.PYPI)
        if m.format in ("pyproject", "setup_cfg", "setup_py") and m.data.get("style") != "tool-only"
    }
    for path, m in req_files.items():
        if any(m.declared.values()):
            continue  # a lock that pins something is its compiler's to regenerate, not ours
        if path.endswith(".txt") and (
            path[:-4] + ".in" in req_files
            or (m.directory in sources and (project.root / (path[:-4] + ".in")).exists())
        ):
            # pip-tools' convention: `X.txt` is `pip-compile X.in`'s output
            locks[path] = None
    dockers = project.root.rglob("Dockerfile*") if names_a_compiler(project) else ()
    for docker in dockers:
        if any(part in ("node_modules", ".git") for part in docker.parts) or not docker.is_file():
            continue
        try:
            text = docker.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        rel_dir = docker.parent.relative_to(project.root).as_posix()
        rel_dir = "" if rel_dir == "." else rel_dir
        py = _DOCKER_FROM.search(text)
        for name in _DOCKER_REQ.findall(text):
            path = str(PurePosixPath(rel_dir) / name) if rel_dir else name
            path = path.lstrip("./") if path.startswith("./") else path
            m = req_files.get(path)
            if m is not None and m.directory in sources and not any(m.declared.values()):
                locks[path] = py.group(1) if py else None
    return locks


def lock_sources(requirements: list[Requirement], path: str) -> list[Requirement]:
    """The top-level lines a lock is compiled from: its own when it has any (a lock pinned
    for a sibling pyproject gets the project's lines), else those of its `.in` file, which
    keeps them as written."""
    runtime = [r for r in requirements if r.section == Section.RUNTIME]
    return [r for r in runtime if r.manifest == path] or [
        r for r in runtime if path.endswith(".txt") and r.manifest == path[:-4] + ".in"
    ]


def expand_deploy_locks(
    project: Project, requirements: list[Requirement], ctx: Context
) -> list[Requirement]:
    """A deploy lock gets the whole resolved set (dependencies included), pinned, as
    `pip-compile`/`uv pip compile` would write it from the project's own requirements."""
    if ctx.options.offline:
        return requirements
    locks = deploy_locks(project)
    if not locks:
        return requirements
    try:
        as_of = parse_as_of(ctx.options.as_of, project.last_commit_date)
    except ValueError:
        return requirements
    from depinfer.resolvers import python_versions as pv  # lazy: online runs only

    out = [r for r in requirements if r.manifest not in locks]
    for path, docker_python in locks.items():
        folder = PurePosixPath(path).parent.as_posix()
        folder = "" if folder == "." else folder
        top = lock_sources(requirements, path)
        if not top:
            continue
        python = docker_python or target_python(project, ctx)
        text = "".join(
            r.name + r.spec + (f"; {r.markers}" if r.markers else "") + "\n" for r in top
        )
        ok, stdout, err = pv.kept_uv_compile(
            ctx, text, python, as_of, uv_args=pv.index_args(ctx), run=pv.uv_compile
        )
        pins = dict(pv.PINNED.findall(stdout)) if ok else {}
        if not pins:
            ctx.warn(
                f"could not compile the deploy lock ({err.splitlines()[-1] if err else 'no output'}); "
                "top-level requirements written instead",
                path,
            )
            out.extend(r for r in top if r.manifest == path)  # an `.in`'s lines stay there
            continue
        by_name = {canonical(r.name): r for r in top if r.manifest == path}
        listed = {canonical(r.name): r.manifest for r in top}
        for name, version in pins.items():
            req = by_name.get(canonical(name))
            if req is None:
                source = listed.get(canonical(name))
                req = Requirement(
                    Ecosystem.PYPI,
                    name,
                    path,
                    verified=True,
                    evidence=[
                        Evidence(
                            "deploy-lock",
                            detail=f"listed in {source}"
                            if source
                            else f"a dependency of the resolved set ({folder or '.'})",
                        )
                    ],
                )
            req.spec = f"=={version}" if ctx.options.versions else ""
            req.evidence.append(
                Evidence(
                    "deploy-lock",
                    path,
                    None,
                    f"pinned for Python {python}: {path} is installed by a Dockerfile "
                    "or compiled from a .in file",
                )
            )
            out.append(req)
    return out


def _included(path: str, manifests: dict[str, Manifest]) -> set[str]:
    """Requirements files `path` pulls in with `-r`, transitively (constraints left out)."""
    out: set[str] = set()
    todo = [path]
    while todo:
        m = manifests.get(todo.pop())
        if m is None or m.format != "requirements":
            continue
        data = m.data or {}
        constraints = set(data.get("constraints") or ())
        for inc in data.get("includes") or ():
            if inc not in constraints and inc not in out and inc != path:
                out.add(inc)
                todo.append(inc)
    return out


def _layered_elsewhere(
    manifest: Manifest,
    name: str,
    manifests: dict[str, Manifest],
    stacks: dict[str, set[str]],
    targets: set[str],
) -> bool:
    """Requirements files stack with `-r`: `production.txt` starts with `-r base.txt` and adds
    what only production needs. A name such a layer declares is not the base's; a name that
    a file it pulls in declares or receives needs no second line in it."""
    if manifest.format != "requirements":
        return False
    below = stacks.get(manifest.path, set())
    for path in below:
        m = manifests.get(path)
        if path in targets or (m is not None and name in _declared_anywhere([m])):
            return True
    for other in manifests.values():
        if other.path == manifest.path or other.format != "requirements" or other.parse_error:
            continue
        if manifest.path in stacks.get(other.path, ()) and name in _declared_anywhere([other]):
            return True
    return False


def _req(c: Candidate, section: Section, group: str | None, optional: bool = False) -> Requirement:
    req = to_requirement(c)
    req.section = section
    req.group = group
    req.optional = optional
    req.name = c.name
    return req


def _first_file(c: Candidate) -> str | None:
    return next((e.file for e in c.evidence if e.file), None)


def _siblings(project: Project, manifest: Manifest, c: Candidate) -> list[Manifest]:
    """The Python manifests of the candidate's folder (and its requirements/ sub-folder)."""
    folder = dependency_facts(c).folder
    folder = manifest.directory if folder is None else folder
    out = []
    for m in project.manifests_of(Ecosystem.PYPI):
        d = m.directory
        parent = str(PurePosixPath(d).parent) if d else None
        parent = "" if parent == "." else parent
        if d == folder or (parent == folder and PurePosixPath(d).name.lower() in _REQ_DIRS):
            out.append(m)
    if manifest not in out:
        out.append(manifest)
    return [m for m in out if not m.parse_error]


_REQ_DIRS = {"requirements", "reqs", "requirement"}


def _brought_by_extras(names: set[str], ctx: Context) -> set[str]:
    """Distributions the given ones require (their registry Requires-Dist, extras'
    requirements left out); empty offline."""
    return set(_bringers_in_extras(names, ctx))


def _installed_with_a_group(
    name: str,
    manifests: list[Manifest],
    ctx: Context,
    cache: dict[tuple[str, ...], dict[str, set[str]]],
    source_files: dict[str, set[str]] | None = None,
) -> bool:
    """An extra or group of the manifests lists `name`, or a feature extra lists a
    distribution that requires it (registry Requires-Dist; not checked offline) and the
    code does not reach `name` from more places than those distributions, mostly apart
    from them: a name imported in a dozen stats modules, where the extra's scikit-learn is
    imported in two, is the package's own (plotnine's scipy), whatever else brings it."""
    listed = _in_extras_or_groups(manifests)
    if name in listed:
        return True
    if any(
        n == name and not _TOOLING_EXTRAS.match(e)
        for m in manifests
        for e, n in _featured_entries(m)
    ):
        return False  # a feature extra asks for its features: the distribution is the package's
    key = tuple(sorted(m.path for m in manifests))
    if key not in cache:
        # only feature extras: test/docs tools bring common libraries (pytest: packaging)
        cache[key] = _bringers_in_extras(_feature_extras(manifests), ctx)
    parents = cache[key].get(name)
    if not parents:
        return False
    if source_files is None:
        return True
    files = source_files.get(name, set())
    with_parents = {f for p in parents for f in source_files.get(p, set())}
    # the package's own only when imported from more places than the feature's
    # distributions are, and mostly apart from them
    return len(files) <= len(with_parents) or len(files & with_parents) * 2 >= len(files)


def _bringers_in_extras(names: set[str], ctx: Context) -> dict[str, set[str]]:
    """What the given distributions require (registry Requires-Dist, extras' requirements
    left out) -> which of them require it; empty offline."""
    out: dict[str, set[str]] = {}
    if not names or ctx.registries.offline:
        return out
    metadata = ctx.registries.metadata_many(Ecosystem.PYPI, sorted(names))
    for name in sorted(names):
        for spec in metadata.get(name, {}).get("requires_dist") or []:
            _, _, marker = spec.partition(";")
            if "extra" in marker:
                continue
            dep = _bare(spec)
            if dep:
                out.setdefault(canonical(dep), set()).add(name)
    return out


def _in_extras_or_groups(manifests: list[Manifest]) -> set[str]:
    """Names a package manifest (not a requirements file: those are often whole pinned
    environments) lists in an extra or a dependency group; the extras that pin the lowest
    supported versions repeat the runtime list and do not count."""
    out: set[str] = set()
    for m in manifests:
        if m.format == "requirements":
            continue
        featured = _featured_entries(m)
        for key, names in m.declared.items():
            head, _, extra = key.partition(".")
            if head == "optional-dependencies" and _LOWEST_VERSIONS.match(extra):
                continue
            if _extra_or_group(key):
                # a feature extra's `name[feature]` asks for the dependency's feature, so
                # the dependency itself is the package's (litgpt's huggingface-hub[hf-transfer])
                out.update(
                    canonical(_bare(n))
                    for n in names
                    if head != "optional-dependencies"
                    or _TOOLING_EXTRAS.match(extra)
                    or (extra, canonical(_bare(n))) not in featured
                )
    return out


def _declared_anywhere(manifests: list[Manifest]) -> set[str]:
    out: set[str] = set()
    for m in manifests:
        for key, names in m.declared.items():
            if key == "build-system.requires":
                continue
            out.update(canonical(_bare(n)) for n in names)
    return out


# An extra that pins the lowest supported versions (mkdocs' `min-versions`, CI's "oldest
# dependencies" job) repeats the runtime list for testing: it offers no feature.
_LOWEST = (
    r"(min|minimum|minimal|lowest|oldest)([-_.]?(versions?|deps|dependencies|requirements|reqs))?"
)
_LOWEST_VERSIONS = lazy(rf"^{_LOWEST}$", re.I)
# Extras whose names say tests/docs/tooling: a runtime import listed there is still runtime.
_TOOLING_EXTRAS = lazy(
    r"^(test|tests|testing|dev|develop|development|docs?|lint|linting|typing|types|mypy|"
    rf"style|check|checks|ci|coverage|cov|bench|benchmarks?|all|full|complete|{_LOWEST})$",
    re.I,
)


def _feature_names(
    manifests: list[Manifest], ctx: Context, cache: dict[tuple[str, ...], set[str]]
) -> set[str]:
    """The names feature extras declare, and what the features they ask of a dependency
    require when the extra is named for that feature: `twisted-http2 = ["Twisted[http2]"]`
    installs Twisted's `http2` extra, whose Requires-Dist (h2, priority) the project's
    HTTP/2 modules import (registry metadata; not checked offline)."""
    key = tuple(sorted(m.path for m in manifests))
    if key not in cache:
        cache[key] = _featured_requirements(manifests, ctx)
    return _feature_extras(manifests) | cache[key]


def _featured_requirements(manifests: list[Manifest], ctx: Context) -> set[str]:
    out: set[str] = set()
    if ctx.registries.offline:
        return out
    for m in manifests:
        for entry in (m.data or {}).get("featured_extras") or ():
            if len(entry) < 3 or _TOOLING_EXTRAS.match(entry[0]):
                continue
            extra, dist, features = entry
            # only an extra named for the feature is that feature (`twisted-http2`); one that
            # merely asks for it on the way (`spark = ["visions[type_image_path]"]`) is not
            words = set(canonical(extra).split("-"))
            features = [f for f in features if set(canonical(f).split("-")) <= words]
            if not features:
                continue
            meta = ctx.registries.metadata(Ecosystem.PYPI, canonical(dist)) or {}
            for spec in meta.get("requires_dist") or []:
                if any(_for_extra(spec, f) for f in features):
                    dep = _bare(spec)
                    if dep and canonical(dep) != canonical(dist):
                        out.add(canonical(dep))
    return out


def _for_extra(spec: str, feature: str) -> bool:
    """A Requires-Dist entry installed with `feature` and not without it."""
    from packaging.markers import InvalidMarker, Marker, UndefinedEnvironmentName

    _, _, text = spec.partition(";")
    if "extra" not in text:
        return False
    try:
        marker = Marker(text.strip())
        return marker.evaluate({"extra": canonical(feature)}) and not marker.evaluate({"extra": ""})
    except (InvalidMarker, UndefinedEnvironmentName):
        return False


def _feature_extras(manifests: list[Manifest]) -> set[str]:
    """Names declared in extras that are optional *features* (not test/dev/all extras).

    An entry that asks for a distribution's own extras (`twisted-http2 = ["Twisted[http2]"]`)
    makes those features optional, not the distribution: it is left out."""
    out: set[str] = set()
    for m in manifests:
        featured = _featured_entries(m)
        for key, names in m.declared.items():
            head, _, extra = key.partition(".")
            if head == "optional-dependencies" and extra and not _TOOLING_EXTRAS.match(extra):
                out.update(
                    canonical(_bare(n))
                    for n in names
                    if (extra, canonical(_bare(n))) not in featured
                )
    return out


def _variant_extras(manifests: list[Manifest], core: set[str]) -> set[str]:
    """Names of feature extras that hold nothing but what importing the package needs:
    such an extra picks a build of a core dependency (`cpu = ["torch"]`, `cuda = ["torch"]`),
    so the project installs that dependency through it on purpose."""
    out: set[str] = set()
    for m in manifests:
        for key, names in m.declared.items():
            head, _, extra = key.partition(".")
            if head != "optional-dependencies" or not extra or _TOOLING_EXTRAS.match(extra):
                continue
            bare = {canonical(_bare(n)) for n in names}
            if bare and bare <= core:
                out |= bare
    return out


def _featured_entries(m: Manifest) -> set[tuple[str, str]]:
    """(extra, name) pairs of a pyproject's optional-dependencies written `name[feature]`."""
    return {(e[0], canonical(e[1])) for e in (m.data or {}).get("featured_extras") or ()}


def _bare(name: str) -> str:
    return re.split(r"[\s\[<>=!~;(@]", name.strip(), maxsplit=1)[0]


def _poetry_extra_naming(manifests: list[Manifest], manifest: Manifest, name: str) -> str | None:
    for m in [manifest, *manifests]:
        if m.format != "pyproject":
            continue
        for key, names in m.declared.items():
            if key.startswith("extras.") and name in {canonical(_bare(n)) for n in names}:
                return key if m is manifest else None
    return None


@lru_cache(maxsize=64)
def _group_word(word: str) -> re.Pattern[str]:
    """`word` as a whole part of a requirements file's name (`requirements-test.txt`)."""
    return compile_kept(rf"(^|[-_./]){word}([-_.]|$)")


def _dev_group(
    manifests: list[Manifest], c: Candidate, ci_files: Collection[str] = ()
) -> tuple[str, str | None] | None:
    """The group that takes `c`: the first of the wanted group words the folder's
    manifests offer, a requirements file the CI installs with `-r` before any other (a
    Poetry dev group beside the requirements-dev.txt the workflow installs is not what
    the tests run with)."""
    kinds = set(c.kinds)
    if kinds and kinds <= {"docs"}:
        wanted = DOCS_GROUPS
    elif kinds and kinds <= DEMO_KINDS:
        # a notebook's tensorflow in the dev extra breaks the project's own CI install
        wanted = DEMO_GROUPS
    elif "test" in kinds:
        wanted = TEST_GROUPS
    else:
        wanted = DEV_GROUPS
    groups: dict[str, list[tuple[str, str | None]]] = {}
    for m in manifests:
        if m.format == "pyproject":
            for key in m.declared:
                for head in _GROUP_HEADS:
                    if key.startswith(head):
                        groups.setdefault(key[len(head) :].lower(), []).append((m.path, key))
            if "dev-dependencies" in m.declared:
                groups.setdefault("dev", []).append((m.path, "dev-dependencies"))
        elif m.format == "requirements":
            stem = PurePosixPath(m.path).name.lower()
            for w in ("test", "tests", "testing", "dev", "docs", "doc", *DEMO_GROUPS):
                if _group_word(w).search(stem):
                    groups.setdefault(w, []).append((m.path, None))
            if _installs_a_sibling_project(m, manifests):
                # `-e .` beside pyproject.toml: the file builds the project's working
                # environment (httpx's requirements.txt), whatever its name
                groups.setdefault("dev", []).append((m.path, None))
    offered = [t for w in wanted for t in groups.get(w, ())]
    installed = [t for t in offered if t[1] is None and t[0] in ci_files]
    return (installed or offered or [None])[0]


def _installs_a_sibling_project(m: Manifest, manifests: list[Manifest]) -> bool:
    folders = set((m.data or {}).get("local_installs") or [])
    return any(other.directory in folders and other.format != "requirements" for other in manifests)


def pinned_elsewhere(
    project: Project, manifests: dict[str, Manifest]
) -> dict[str, tuple[str, str]]:
    """`name==version` pins in requirements files and CI install lines → (file, spec).

    Examples, docs and benchmarks are separate little projects pinned for their own
    needs (an example app pinning an old Werkzeug), so their pins are not evidence."""
    pins: dict[str, tuple[str, str]] = {}
    foreign = {FileKind.EXAMPLE, FileKind.DOCS, FileKind.BENCH}
    paths = [
        m.path
        for m in manifests.values()
        if m.format == "requirements" and classify(m.path) not in foreign
    ]
    paths += list(project.ci_files)
    for rel in paths:
        try:
            text = project.abspath(rel).read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        if len(text) > 500_000:
            continue
        for line in text.splitlines():
            line = line.split("#", 1)[0]
            for m in _PIN.finditer(line):
                name = canonical(m.group(1))
                pins.setdefault(name, (rel, m.group(3).replace(" ", "")))
    return dict(pins)
