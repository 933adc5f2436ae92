"""Rust resolver: crate candidates → Cargo requirements (table, version, features, path).

- One entry per (manifest, crate, table kind): build scripts get their own
  `[build-dependencies]`; runtime use wins over dev use.
- A crate the manifest already declares in the table it would go to is left alone, and so is
  a runtime crate declared in a `[target.'cfg(..)'.dependencies]` table (platform code).
  A `cfg(..)` use goes to a target table only when the manifest already has one for it.
- Workspace members inherit: `name = { workspace = true }` (+ features the workspace entry
  lacks) when `[workspace.dependencies]` names the crate.
- Internal crates: `{ path = "..", version = ".." }`.
- Versions: the newest non-yanked, non-prerelease release (published by the as-of date when the
  registry says when) whose `rust_version` fits the project's `rust-version`, written as
  Cargo's caret shorthand "X.Y" ("0.X.Y" for 0.x). Without the registry: a version the
  repository shows elsewhere (other manifests, `Cargo.lock`); otherwise the entry is reported
  and not written (`--no-versions` writes "*").
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, replace
from typing import Any

import tomlkit

from depinfer.analyzers.rust_gates import expand
from depinfer.context import Context
from depinfer.facts.rust import CargoEntry, crate_of, entry_of
from depinfer.manifests import ManifestError, cargo
from depinfer.mapping.rust import code_name, crates_of, feature_references, workspace_entry
from depinfer.model import Candidate, Ecosystem, Evidence, Project, Requirement, Section
from depinfer.resolvers import rust_gate, rust_peers
from depinfer.resolvers.common import SECTION_RANK, merge_candidates, to_requirement
from depinfer.versions import compat_key, parse_as_of, pick_crate_version, vtuple

# `chrono_0_4`, `hashbrown-0-14`, `indexmap_2`: a key naming a crate and its major version
_VERSION_SUFFIX = re.compile(r"^([a-z][a-z0-9_-]*?)[-_]v?(\d+(?:[-_]\d+)*)$")


def caret(version: str) -> str:
    """1.0.228 → "1.0"; 0.4.41 → "0.4.41" (0.x minors are breaking, keep the patch floor);
    a pre-release whole, 2.0.0-rc.10 → "2.0.0-rc.10": Cargo matches a pre-release only for
    a requirement that names one, so "2.0" finds nothing in a line with no release yet (and
    a path member at 0.2.0-alpha is not ^0.2.0)."""
    if _pre_release(version):
        return version.partition("+")[0]  # build metadata never takes part in matching
    parts = vtuple(version)
    if parts[0] == 0:
        return f"0.{parts[1]}.{parts[2]}"
    return f"{parts[0]}.{parts[1]}"


_SIMPLE_SPEC = re.compile(r"^\s*(?:\^|=|~)?\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?\s*$")


# a manifest with this many kept requirements of its own sets the style for itself
OWN_STYLE_MIN = 3


def spec_style(project: Project, manifest: str | None = None) -> tuple[int, int] | None:
    """How precisely the repository writes version requirements, read from the tables the
    masking keeps (dev-, build-, target and workspace dependencies): the usual number of
    components for crates at 1.0 or later ("4", "4.5" or "4.5.48") and for 0.x crates ("0.4"
    or "0.4.45"). With `manifest`, that manifest's own requirements decide when it keeps
    enough of them (examples of one repository are often written each in its own way).
    None when the repository shows no simple requirement to follow."""
    manifests = project.manifests_of(Ecosystem.CRATES)
    counts = _spec_counts(m for m in manifests if m.path == manifest)
    if sum(sum(c.values()) for c in counts.values()) < OWN_STYLE_MIN:
        counts = _spec_counts(manifests)

    def usual(c: dict[int, int]) -> int | None:
        # the most frequent; a tie goes to the more precise form
        return max(c, key=lambda n: (c[n], n)) if c else None

    stable, zero = usual(counts[True]), usual(counts[False])
    if stable is None and zero is None:
        return None
    if stable is None:
        stable = max(1, zero - 1)
    if zero is None:
        zero = min(3, stable + 1)
    return stable, zero


def _spec_counts(manifests: Any) -> dict[bool, dict[int, int]]:
    """(crate at 1.0 or later?) → number of components → how many kept requirements."""
    counts: dict[bool, dict[int, int]] = {True: {}, False: {}}
    for m in manifests:
        for table, deps in m.data.get("deps", {}).items():
            if table == "dependencies":
                continue
            for entry in deps.values():
                v = entry.get("version")
                match = _SIMPLE_SPEC.match(v) if isinstance(v, str) else None
                if match is None:
                    continue
                n = sum(1 for g in match.groups() if g is not None)
                stable = match.group(1) != "0"
                if not stable and n < 2:
                    continue  # "0" says nothing of the minor
                counts[stable][n] = counts[stable].get(n, 0) + 1
    return counts


def _pre_release(version: str) -> bool:
    """SemVer: a `-` before any `+build` part starts the pre-release."""
    return "-" in version.partition("+")[0]


def styled(version: str, style: tuple[int, int] | None) -> str:
    """The requirement for `version` in the repository's style (`caret` when it has none;
    a pre-release is always written whole, as `caret` says why)."""
    if style is None or _pre_release(version):
        return caret(version)
    parts = vtuple(version)
    n = style[0] if parts[0] else max(2, style[1])
    return ".".join(str(p) for p in parts[:n])


def rust_version_ok(project_rv: str | None):
    if not project_rv:
        return None
    limit = vtuple(project_rv)

    def ok(v: Any) -> bool:
        return not v.runtime or vtuple(v.runtime) <= limit

    return ok


def repository_versions(project: Project) -> dict[str, str]:
    """Crate → a version requirement the repository already uses (manifests, then Cargo.lock)."""
    out: dict[str, str] = {}
    for m in project.manifests_of(Ecosystem.CRATES):
        for deps in m.data.get("deps", {}).values():
            for entry in deps.values():
                v = entry.get("version")
                if isinstance(v, str) and v.strip():
                    out.setdefault(code_name(entry["package"]), v)
    for lock in sorted(project.root.glob("**/Cargo.lock"))[:5]:
        if any(part in ("target", "node_modules") for part in lock.parts):
            continue
        try:
            data = tomlkit.parse(lock.read_text(encoding="utf-8")).unwrap()
        except Exception:
            continue
        for pkg in data.get("package", []):
            if isinstance(pkg, dict) and "source" in pkg and isinstance(pkg.get("version"), str):
                name = code_name(str(pkg["name"]))
                if name not in out:
                    out[name] = caret(pkg["version"])
    return out


def _declared(info: Any) -> dict[str, set[str]]:
    deps = info.manifest.data.get("deps", {})
    return {table: {code_name(k) for k in entries} for table, entries in deps.items()}


def _declared_for(info: Any, section: Section, name: str) -> bool:
    """Whether the manifest's kept table for `section` (dev-dependencies, plain or per target)
    already names the crate."""
    base = {Section.DEV: "dev-dependencies", Section.BUILD: "build-dependencies"}.get(
        section, "dependencies"
    )
    return any(
        name in names
        for table, names in _declared(info).items()
        if table == base or (table.startswith("target.") and table.endswith("." + base))
    )


def _merge(cands: list[Candidate], crates: dict[str, Any] | None = None) -> list[Candidate]:
    """Build-script uses stay apart; otherwise the strongest section wins, and the features
    of weaker uses (tests) are left to the table those uses already have. When that table does
    not name the crate, the tests use the `[dependencies]` entry, which then carries their
    features too (`#[tokio::test]` needs tokio's `macros` there)."""
    build = [c for c in cands if c.section == Section.BUILD]
    rest = [c for c in cands if c.section != Section.BUILD]
    best: dict[tuple[str, str], int] = {}
    for c in rest:
        k = (c.manifest, code_name(c.name))
        best[k] = min(best.get(k, 99), SECTION_RANK[c.section])
    for c in rest:
        if SECTION_RANK[c.section] > best[(c.manifest, code_name(c.name))] and c.features:
            info = (crates or {}).get(c.manifest)
            if info is None or _declared_for(info, c.section, code_name(c.name)):
                c.features = []
    return merge_candidates(rest, key=code_name) + merge_candidates(build, key=code_name)


@dataclass
class _Run:
    """What one resolve call shares across its candidates."""

    project: Project
    ctx: Context
    as_of: Any
    styles: dict[str, tuple[int, int] | None] = field(default_factory=dict)  # per manifest
    repo_versions: dict[str, str] | None = None  # read on first need
    releases: dict[str, list[Any]] = field(default_factory=dict)  # package → registry answer
    picks: list[rust_peers.Pick] = field(default_factory=list)  # releases chosen, for peers


def resolve(project: Project, candidates: list[Candidate], ctx: Context) -> list[Requirement]:
    crates = crates_of(project)
    run = _Run(project, ctx, parse_as_of(ctx.options.as_of, project.last_commit_date))
    out: list[Requirement] = []
    for c in _break_cycles(_merge(candidates, crates), crates, ctx):
        info = crates.get(c.manifest)
        if info is None or _declared_already(c, info):
            continue
        req = _requirement(c, info)
        way = next((w for w in ENTRY_WAYS if w(c, req, info, run)), None)
        if way is None:
            _rename_from_guess(c, req, ctx, info)
            package = entry_of(req).package or req.name
            way = next((w for w in VERSION_WAYS if w(c, req, info, package, run)), None)
        if way is not None:
            req.evidence.append(_strategies(c, way.__name__))
            out.append(req)
            continue
        why = (
            "no release fits the project's rust-version and as-of date"
            if run.releases.get(package)
            else "no version could be checked (registry unreachable or crate unknown)"
        )
        ctx.warn(f"crate '{package}': {why}; not written", c.manifest)
    rust_peers.align(run.picks, ctx, _kept_versions(out, crates))
    return _gated(project, out, crates, ctx)


def _kept_versions(reqs: list[Requirement], crates: dict[str, Any]) -> dict[str, dict[str, str]]:
    """Per manifest the resolver writes to: package → the version requirement the manifest
    already declares for it (any table), or inherits from `[workspace.dependencies]`."""
    out: dict[str, dict[str, str]] = {}
    inherited = {(r.manifest, r.name) for r in reqs if entry_of(r).workspace}
    for path in {r.manifest for r in reqs}:
        info = crates.get(path)
        if info is None:
            continue
        kept: dict[str, str] = {}
        ws = (
            info.workspace_root.data.get("workspace", {}).get("dependencies", {})
            if info.workspace_root is not None
            else {}
        )
        for table, deps in info.manifest.data.get("deps", {}).items():
            if table == "workspace.dependencies":
                continue  # what members may inherit, not what this package builds with
            for key, entry in deps.items():
                source = ws.get(key, {}) if entry.get("workspace") else entry
                if isinstance(source.get("version"), str):
                    kept.setdefault(source.get("package") or key, source["version"])
        for manifest, key in inherited:
            entry = ws.get(key, {}) if manifest == path else {}
            if isinstance(entry.get("version"), str):
                kept.setdefault(entry.get("package") or key, entry["version"])
        out[path] = kept
    return out


def _gated(
    project: Project, reqs: list[Requirement], crates: dict[str, Any], ctx: Context
) -> list[Requirement]:
    """The resolve gate (resolvers/rust_gate.py): a manifest cargo would refuse once these
    requirements are written keeps none of them, and the error says why."""

    def render_text(path: str, mreqs: list[Requirement]) -> str | None:
        info = crates.get(path)
        if info is None:
            return None
        try:
            text = (project.root / path).read_bytes().decode("utf-8-sig")
            return cargo.render(text, info.manifest, mreqs)
        except (OSError, UnicodeDecodeError, ManifestError):
            return None

    # no subprocess for --check / --names-only: the feature check alone (pure Python)
    refused = rust_gate.gate(project, reqs, render_text, use_cargo=ctx.options.versions)
    for path, why in sorted(refused.items()):
        ctx.error(f"not written, cargo would refuse it: {why}", path)
    return [r for r in reqs if r.manifest not in refused]


def _strategies(c: Candidate, way: str) -> Evidence:
    """Which mapping strategy placed the crate and which way wrote its entry (for
    `--explain`; last, so the evidence the entry had comes first)."""
    placed = crate_of(c).placed_by
    return Evidence("strategy", detail=f"placed {placed}, written {way}" if placed else way)


def _table_of(c: Candidate) -> str:
    return {Section.DEV: "dev-dependencies", Section.BUILD: "build-dependencies"}.get(
        c.section, "dependencies"
    )


def _declared_already(c: Candidate, info: Any) -> bool:
    """The manifest already names the crate in the table it would go to (or in a target
    table of that kind, or in `[dependencies]` for a dev use): left alone. Otherwise the
    candidate keeps a cfg marker only when the manifest has that target table."""
    declared = _declared(info)
    name = code_name(c.name)
    base = _table_of(c)
    target_tables = {
        t.split(".", 1)[1].rsplit(".", 1)[0]: names
        for t, names in declared.items()
        if t.startswith("target.") and t.endswith("." + base)
    }
    if name in declared.get(base, set()):
        return True
    if any(name in n for n in target_tables.values()):
        if not _needs_optional_entry(info, name):
            return True
        c.markers = None  # the optional entry goes to `[dependencies]`, beside the target one
        return False
    if base == "dev-dependencies" and name in declared.get("dependencies", set()):
        return True
    c.markers = c.markers if c.markers in target_tables else None
    return False


def _needs_optional_entry(info: Any, name: str) -> bool:
    """`[features]` requires the crate optional (`dep:x`, `x?/f`, a bare `x`) and no table
    declares it optional: cargo refuses the manifest until one does, so a non-optional
    entry in a target table does not stand in for the `[dependencies]` one."""
    refs = feature_references(info.manifest.data.get("features", {}))
    if not any(code_name(k) == name and r["optional"] for k, r in refs.items()):
        return False
    deps = info.manifest.data.get("deps", {})
    return not any(
        code_name(k) == name and isinstance(d, dict) and d.get("optional")
        for table, entries in deps.items()
        if not table.endswith("dev-dependencies") and table != "workspace.dependencies"
        for k, d in entries.items()
    )


def _requirement(c: Candidate, info: Any) -> Requirement:
    """The entry for a candidate, before its version: optional as `[features]` requires,
    without the features the manifest's own `[features]` switch on."""
    if c.section == Section.OPTIONAL:
        c.section = Section.RUNTIME
    req = to_requirement(c)
    refs = feature_references(info.manifest.data.get("features", {}))
    # cargo matches [features] to dependency keys as spelled: `dep:humantime_serde` needs
    # that key (`{ package = "humantime-serde" }`), not the registry's spelling
    spelled = next((k for k in refs if k != req.name and code_name(k) == code_name(req.name)), None)
    package = crate_of(c).package
    if spelled is not None and req.name not in refs:
        package = package or req.name
        req.name = spelled
    # `dep:x` and `x?/f` in [features] are valid only for optional dependencies
    named = refs.get(req.name)
    if named and named["optional"] and c.section == Section.RUNTIME:
        c.optional = True
    req.optional = c.optional and c.section == Section.RUNTIME
    # features the manifest's own [features] switch on (`tokio/macros`) are not repeated
    switched = _switched_features(info.manifest.data.get("features", {}), code_name(c.name))
    req.features = [f for f in req.features if f not in switched]
    req.facts = CargoEntry(package=package if package != req.name else None)
    return req


def as_path_dependency(c: Candidate, req: Requirement, info: Any, run: _Run) -> bool:
    """When the crate is one of the repository's: `{ path = .., version = .. }`, or
    `{ workspace = true }` when the workspace lists it."""
    if not c.internal:
        return False
    req.path = c.path
    req.spec = caret(c.spec) if c.spec else ""
    ws = workspace_entry(info, code_name(c.name))
    if ws is not None:
        req.facts = CargoEntry(workspace=True)
        req.name = ws[0]
    return True


def as_workspace_inheritance(c: Candidate, req: Requirement, info: Any, run: _Run) -> bool:
    """When `[workspace.dependencies]` names the crate: `{ workspace = true }` and the
    features the workspace entry lacks."""
    ws = workspace_entry(info, code_name(c.name))
    if ws is None:
        return False
    key, entry = ws
    req.name = key
    req.spec = ""
    req.facts = CargoEntry(workspace=True)
    req.features = [f for f in req.features if f not in entry.get("features", [])]
    req.evidence.append(Evidence("manifest", info.workspace_root.path, None, "workspace"))
    return True


# How an entry is written without a version of its own, tried in order.
ENTRY_WAYS = (as_path_dependency, as_workspace_inheritance)


def without_versions(c: Candidate, req: Requirement, info: Any, package: str, run: _Run) -> bool:
    """When versions are not wanted (`--no-versions`): no version."""
    if run.ctx.options.versions:
        return False
    req.spec = ""
    return True


def version_of_other_table(
    c: Candidate, req: Requirement, info: Any, package: str, run: _Run
) -> bool:
    """When the manifest already names this crate in another table (dev-, build-, target):
    the same version, since one version of it per package avoids two copies (`multiple
    candidates for rlib`)."""
    same = _declared_version(info, package, req.name, crate_of(c).version_guess)
    if not same:
        return False
    req.spec = same
    req.evidence.append(Evidence("manifest:version", info.manifest.path, None, same))
    return True


def version_from_registry(
    c: Candidate, req: Requirement, info: Any, package: str, run: _Run
) -> bool:
    """The newest release that fits (the as-of date, the project's rust-version, a pin the
    code's API asks for, a version its key spells), in the repository's style."""
    versions = run.ctx.registries.versions(Ecosystem.CRATES, package)
    run.releases[package] = versions
    facts = crate_of(c)
    if facts.version_pin:
        group = compat_key(facts.version_pin)
        versions = [v for v in versions if compat_key(v.version) == group] or versions
    if facts.version_guess:
        prefix = facts.version_guess
        versions = [v for v in versions if v.version.startswith(prefix + ".")] or versions
    rv = info.manifest.data.get("rust_version")
    if rv == "workspace" and info.workspace_root is not None:
        rv = info.workspace_root.data.get("workspace", {}).get("package", {}).get("rust-version")
    runtime_ok = rust_version_ok(rv if isinstance(rv, str) else None)
    chosen = pick_crate_version(versions, as_of=run.as_of, runtime_ok=runtime_ok)
    if chosen is None:
        return False
    if c.manifest not in run.styles:
        run.styles[c.manifest] = spec_style(run.project, c.manifest)
    style = run.styles[c.manifest]
    req.spec = styled(chosen.version, style)
    req.verified = True
    req.evidence.append(Evidence("registry:version", detail=chosen.version))
    _derive_features(req, chosen, crate_of(c).derives)
    drop_unknown_features(req, chosen, versions, package, run.ctx)
    run.picks.append(
        rust_peers.Pick(
            req,
            package,
            versions,
            run.as_of,
            runtime_ok,
            chosen.version,
            lambda v, style=style: styled(v, style),
        )
    )
    return True


def _snake(name: str) -> str:
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name).lower()


def _derive_features(req: Requirement, chosen: Any, derives: tuple[str, ...]) -> None:
    """A derive the code takes from the crate by path (`use derive_more::Display`) that the
    chosen release gates behind a feature named after it (`display`; derive_more from 1.0
    has no default features) needs that feature written. Registry facts of the chosen
    release decide: an older line that derives it unconditionally gets nothing."""
    feats = (chosen.extra or {}).get("features") or {}
    if not derives or not feats:
        return
    on = expand(feats, ["default"]) if entry_of(req).default_features is not False else set()
    for name in derives:
        feature = next((f for f in (_snake(name), name.lower()) if f in feats), None)
        if feature is None or feature in on or feature in req.features:
            continue
        req.features.append(feature)
        req.evidence.append(
            Evidence(
                "registry:derive-feature",
                detail=f"#[derive({name})] needs '{feature}' in {chosen.version}",
            )
        )


def release_features(info: Any) -> set[str] | None:
    """The features a release offers: its `[features]` and the implicit feature of each
    optional dependency no `dep:` entry hides. None when the registry did not say."""
    extra = info.extra or {}
    if "features" not in extra:
        return None
    feats = extra.get("features") or {}
    out = set(feats)
    hidden = {i[4:] for items in feats.values() for i in items if i.startswith("dep:")}
    try:
        deps = json.loads(extra.get("deps_json") or "[]")
    except ValueError:
        return out
    for d in deps:
        if isinstance(d, dict) and d.get("optional") and d.get("name") not in hidden:
            out.add(str(d.get("name")))
    return out


def drop_unknown_features(
    req: Requirement, chosen: Any, versions: list[Any], package: str, ctx: Context
) -> None:
    """A feature no release the requirement reaches offers (a later major's name, a typo
    of a table) makes cargo refuse to resolve: it is dropped and reported. A feature of a
    newer release of the same line counts, since cargo resolves the requirement to it."""
    if not req.features:
        return
    line = compat_key(chosen.version)
    offered: set[str] = set()
    for v in versions:
        if compat_key(v.version) == line and vtuple(v.version) >= vtuple(chosen.version):
            feats = release_features(v)
            if feats is None:
                return
            offered |= feats
    unknown = [f for f in req.features if f not in offered]
    if not unknown:
        return
    req.features = [f for f in req.features if f in offered]
    ctx.warn(
        f"crate '{package}' {chosen.version}: no feature {', '.join(repr(f) for f in unknown)}"
        " in its releases of that line; not written",
        req.manifest,
    )


def version_from_repository(
    c: Candidate, req: Requirement, info: Any, package: str, run: _Run
) -> bool:
    """Without a registry answer: a version the repository shows elsewhere (other
    manifests, Cargo.lock), else the one the key spells."""
    if run.repo_versions is None:
        run.repo_versions = repository_versions(run.project)
    known = run.repo_versions.get(code_name(package))
    if known is None and crate_of(c).version_guess:
        known = crate_of(c).version_guess
    if not known:
        return False
    req.spec = known
    req.evidence.append(Evidence("repository:version", detail=known))
    return True


# How a registry crate's version is chosen, tried in order; none: reported, not written.
VERSION_WAYS = (
    without_versions,
    version_of_other_table,
    version_from_registry,
    version_from_repository,
)


def _break_cycles(cands: list[Candidate], crates: dict[str, Any], ctx: Context) -> list[Candidate]:
    """Path dependencies between members form a graph (networkx); Cargo refuses cycles among
    normal and build dependencies (dev-dependencies may point back). The edge with the least
    evidence in each cycle is dropped and reported."""
    by_name = {info.name: path for path, info in crates.items()}
    edges: dict[tuple[str, str], Candidate] = {}
    for c in cands:
        if not c.internal or c.section == Section.DEV:
            continue
        target = by_name.get(c.name)
        if target is None or target == c.manifest:
            continue
        edges[(c.manifest, target)] = c
    if not _has_cycle(edges):
        return list(cands)  # the common case: networkx (slow to import) is not needed
    import networkx as nx

    graph = nx.DiGraph()
    for (source, target), c in edges.items():
        graph.add_edge(source, target, weight=len(c.evidence))
    dropped: set[int] = set()
    while True:
        try:
            cycle = nx.find_cycle(graph)
        except nx.NetworkXNoCycle:
            break
        weakest = min(cycle, key=lambda e: graph.edges[e[0], e[1]]["weight"])
        graph.remove_edge(weakest[0], weakest[1])
        cand = edges[(weakest[0], weakest[1])]
        dropped.add(id(cand))
        ctx.warn(
            f"'{cand.name}' would close a dependency cycle between workspace members; not added",
            cand.manifest,
        )
    return [c for c in cands if id(c) not in dropped]


def _has_cycle(edges: dict[tuple[str, str], Candidate]) -> bool:
    """Whether the directed graph of `edges` has a cycle (depth-first, colouring nodes)."""
    after: dict[str, list[str]] = {}
    for source, target in edges:
        after.setdefault(source, []).append(target)
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    for start in after:
        if state.get(start):
            continue
        stack = [(start, iter(after.get(start, ())))]
        state[start] = 1
        while stack:
            node, nexts = stack[-1]
            step = next(nexts, None)
            if step is None:
                state[node] = 2
                stack.pop()
            elif state.get(step) == 1:
                return True
            elif not state.get(step):
                state[step] = 1
                stack.append((step, iter(after.get(step, ()))))
    return False


def _declared_version(
    info: Any, package: str, key: str | None = None, guess: str | None = None
) -> str | None:
    """The version another table of the manifest gives the same crate. Several renames of
    one crate may stand side by side (`schemars_0_8`, `schemars_0_9`, `schemars_1` for
    three majors): the entry under the same key wins, and a key that spells a version
    (`guess`) only takes a version of that series."""
    found: list[tuple[str, str]] = []
    for table, deps in info.manifest.data.get("deps", {}).items():
        if table == "workspace.dependencies":
            continue
        for name, entry in deps.items():
            if code_name(entry.get("package") or "") == code_name(package) and entry.get("version"):
                found.append((name, entry["version"]))
    for name, version in found:
        if key is not None and code_name(name) == code_name(key):
            return version
    for _, version in found:
        bare = version.lstrip("^=~ ")
        if not guess or bare == guess or bare.startswith(guess + "."):
            return version
    return None


def _switched_features(features: dict[str, list[str]], name: str) -> set[str]:
    out: set[str] = set()
    for items in features.values():
        for item in items:
            key, sep, feat = item.partition("/")
            if sep and code_name(key.rstrip("?")) == name:
                out.add(feat)
    return out


def _rename_from_guess(c: Candidate, req: Requirement, ctx: Context, info: Any) -> None:
    """`chrono_0_4` named only in [features]: a rename of `chrono` when the registry lacks the key."""
    guess = crate_of(c).package_guess
    if not guess:
        m = _VERSION_SUFFIX.match(req.name)
        if m:
            guess = m.group(1)
            version = m.group(2).replace("_", ".").replace("-", ".")
            c.facts = replace(crate_of(c), version_guess=version)
    if not guess or entry_of(req).package:
        return
    known = ctx.registries.exists(Ecosystem.CRATES, req.name)
    if known:
        return
    named_by_features = req.name in feature_references(info.manifest.data.get("features", {}))
    if known is None and not named_by_features:
        return  # offline, and nothing but the spelling suggests a rename
    answer = ctx.registries.exists(Ecosystem.CRATES, guess)
    if answer is False:
        return
    package = guess.replace("_", "-") if answer is None and "-" in c.name else guess
    req.facts = replace(entry_of(req), package=package)
    req.evidence.append(Evidence("rule:renamed-by-version", detail=f"{req.name} → {guess}"))
