"""npm versions and placement: candidates → package.json requirements.

- Nothing a package.json already declares (any section) is repeated; a dev-only use is also
  covered by the workspace root's declarations (root devDependencies serve every member),
  and a private workspace member's runtime use is covered by the root too.
- External packages get `^X.Y.Z` of the newest non-deprecated, non-prerelease version
  published by the as-of date that fits `engines.node`; offline, the version the repository
  already uses elsewhere (another package.json, a surviving lock file), else `*` (unverified).
- Workspace members get the workspace's reference style: `workspace:*` (pnpm, yarn berry) or
  the member's own version (npm, yarn classic); a sibling package that is not a workspace
  member is referenced by path (`file:../..`).
- A name the registry says does not exist is never written.
"""

from __future__ import annotations

import fnmatch
import json
import os
import re
from collections import defaultdict
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import PurePosixPath

from depinfer.context import Context
from depinfer.data import load_table
from depinfer.facts.javascript import NpmFacts, npm_facts
from depinfer.manifests import ManifestError, render_manifest
from depinfer.mapping.javascript import (
    Layout,
    ancestors,
    layout,
    owner_of,
    standalone_example,
)
from depinfer.model import (
    Candidate,
    Ecosystem,
    Evidence,
    Manifest,
    Project,
    Requirement,
    Section,
)
from depinfer.registries.base import VersionInfo
from depinfer.resolvers import javascript_gate
from depinfer.resolvers.common import merge_candidates, to_requirement
from depinfer.resolvers.javascript_packages import (
    esm_only,
    exports_subpath,
    ships_types,
    types_package,
)
from depinfer.resolvers.javascript_semver import node_ok_for, satisfies, semver_key
from depinfer.rules.javascript import bins, script_executables, tools
from depinfer.runtime import node_runtime
from depinfer.versions import parse_as_of, pick_version

__all__ = ["esm_only", "resolve", "satisfies", "ships_types", "types_package"]

_LOCK_VERSION = re.compile(r'^"?(@?[^@\s"]+)@[^:]*:\s*\n\s+version:?\s+"?([\w.+-]+)"?', re.M)


def _declared(manifest: Manifest) -> set[str]:
    return {n.lower() for names in manifest.declared.values() for n in names}


def covered(lay: Layout, manifest: Manifest, c: Candidate) -> bool:
    """The candidate is already satisfied by what the manifests declare."""
    low = c.name.lower()
    if low in _declared(manifest):
        return True
    if standalone_example(manifest):
        return False  # run on its own: nothing above it is installed with it
    is_member = manifest.path in lay.members
    for anc in ancestors(lay, manifest):
        if low not in _declared(anc):
            continue
        if c.section != Section.RUNTIME:
            return True
        if is_member and anc.directory == "" and manifest.data.get("private"):
            return True
    return False


def keeps_everything_in_dependencies(lay: Layout, manifest: Manifest) -> bool:
    """An unpublished package without a devDependencies section lists all it needs under
    `dependencies` (apps, docs sites, fixture projects): follow that convention rather than
    start a section the file does not use."""
    return "devDependencies" not in manifest.declared and manifest.path in lay.unpublished


@dataclass(frozen=True)
class _Template:
    """A project generator's layout (data table app_templates.toml)."""

    runner: str  # its program, called from the package's scripts
    dependencies: frozenset[str]  # what its template lists under `dependencies`
    provides: frozenset[str]  # what the runner depends on and runs itself


@lru_cache(maxsize=1)
def _app_templates() -> tuple[_Template, ...]:
    return tuple(
        _Template(t["runner"], frozenset(t["dependencies"]), frozenset(t.get("provides", [])))
        for t in load_table("javascript/app_templates.toml")["template"]
    )


def templates_of(manifest: Manifest) -> tuple[_Template, ...]:
    """The generators whose runner the package's scripts still call (Create React App's
    `react-scripts start`): the template's layout holds for the packages it brought — the
    `dependencies` it lists go there, the tools the runner `provides` are not declared."""
    scripts = manifest.data.get("scripts")
    called = {
        exe
        for cmd in (scripts.values() if isinstance(scripts, dict) else [])
        for exe in script_executables(str(cmd))[0]
    }
    return tuple(t for t in _app_templates() if t.runner in called)


def _repo_versions(project: Project) -> dict[str, str]:
    """Versions the repository already uses: other package.json specs and lock files."""
    found: dict[str, str] = {}
    for m in project.manifests_of(Ecosystem.NPM):
        for specs in (m.data.get("specs") or {}).values():
            for name, spec in specs.items():
                if re.match(r"^[\^~]?\d", spec):
                    found.setdefault(name.lower(), spec)
    for lock in ("package-lock.json", "npm-shrinkwrap.json"):
        path = project.root / lock
        if not path.exists():
            continue
        try:
            doc = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        for key, info in (doc.get("packages") or {}).items():
            if key.startswith("node_modules/") and isinstance(info, dict) and "version" in info:
                name = key[len("node_modules/") :]
                if "/node_modules/" not in name:
                    found.setdefault(name.lower(), "^" + str(info["version"]))
    for lock in ("yarn.lock", "pnpm-lock.yaml"):
        path = project.root / lock
        if path.exists():
            try:
                text = path.read_text(encoding="utf-8", errors="replace")
            except OSError:
                continue
            for m in _LOCK_VERSION.finditer(text):
                found.setdefault(m.group(1).lower(), "^" + m.group(2))
    return found


def _internal_spec(lay: Layout, owner: Manifest, c: Candidate) -> str:
    target = next((m for m in lay.by_name.values() if m.directory == (c.path or "")), None)
    if target is None:
        return "*"
    # the workspace protocol (or a bare version the workspace links) only works between
    # packages of the workspace: a package outside it (an example app beside a
    # settings-only pnpm-workspace.yaml) takes its sibling by path
    in_workspace = owner.path in lay.members or (owner.directory == "" and lay.workspace_style)
    if in_workspace and (
        target.path in lay.members or (target.directory == "" and lay.workspace_style)
    ):
        if lay.workspace_style in ("pnpm", "yarn-berry", "bun"):
            return "workspace:*"
        version = target.data.get("version")
        return f"^{version}" if isinstance(version, str) and version else "*"
    rel = os.path.relpath(target.directory or ".", owner.directory or ".")
    return "file:" + PurePosixPath(rel.replace(os.sep, "/")).as_posix()


@dataclass(frozen=True)
class _Uses:
    """What all the uses of each (manifest, name) say, gathered before they are merged."""

    value_used: frozenset[tuple[str, str]]  # some use is not for types only
    required: frozenset[tuple[str, str]]  # some use `require()`s it
    loaded: frozenset[tuple[str, str]]  # some use is a static import or a `require()`
    named: frozenset[tuple[str, str]]  # some use is more than a config file's presence
    beyond_configs: frozenset[tuple[str, str]]  # named by code, scripts or rules, not configs
    presence_not_enough: frozenset[tuple[str, str]]  # implied by a presence that installs nothing
    named_by: dict[tuple[str, str], tuple[str, ...]]  # the mapping steps that named it

    @classmethod
    def of(cls, npm: list[Candidate]) -> _Uses:
        tool_rules = {f"rule:{t.name}" for t in tools()}
        facts = [(c, npm_facts(c)) for c in npm]
        return cls(
            value_used=frozenset((c.manifest, c.name) for c, f in facts if not f.type_only),
            required=frozenset((c.manifest, c.name) for c, f in facts if f.require),
            loaded=frozenset(
                (c.manifest, c.name)
                for c, f in facts
                if (f.require or not f.dynamic) and not f.implicit
            ),
            named=frozenset((c.manifest, c.name) for c, f in facts if not f.implied),
            beyond_configs=frozenset(
                (c.manifest, c.name)
                for c in npm
                if any(e.rule not in tool_rules for e in c.evidence)
            ),
            presence_not_enough=frozenset(
                (c.manifest, c.name) for c, f in facts if f.presence_not_enough
            ),
            named_by=_named_by(facts),
        )

    def facts_of(self, c: Candidate) -> NpmFacts:
        """The merged candidate's facts, with what all its uses together say."""
        key = (c.manifest, c.name)
        return replace(
            npm_facts(c),
            type_only_all=key not in self.value_used,
            required=key in self.required,
            loaded=key in self.loaded,
            implied_only=key not in self.named,
            config_only=key not in self.beyond_configs,
            presence_not_enough=key in self.presence_not_enough,
        )


def _named_by(facts: list[tuple[Candidate, NpmFacts]]) -> dict[tuple[str, str], tuple[str, ...]]:
    """(manifest, name) → the mapping steps that named it, in the order of its uses."""
    out: dict[tuple[str, str], tuple[str, ...]] = {}
    for c, f in facts:
        have = out.get((c.manifest, c.name), ())
        if f.named_by and f.named_by not in have:
            out[(c.manifest, c.name)] = (*have, f.named_by)
    return out


def _step(name: str) -> Evidence:
    """Evidence naming the resolver step that decided (`--explain` shows it, after the
    evidence proper, so the first evidence the verbose report shows stays the same)."""
    return Evidence(f"resolve:{name}")


@dataclass(frozen=True)
class _Originals:
    """The candidates as the earlier stages handed them, by (manifest, lowercase name):
    `--explain` shows their evidence for a name that is not written."""

    by_key: dict[tuple[str, str], list[Candidate]]

    @classmethod
    def of(cls, npm: list[Candidate]) -> _Originals:
        by_key: dict[tuple[str, str], list[Candidate]] = defaultdict(list)
        for c in npm:
            by_key[(c.manifest, c.name.lower())].append(c)
        return cls(dict(by_key))

    def left_out(self, c: Candidate | Requirement, reason: str) -> None:
        """Record on the candidates behind `c` the step that left it out."""
        ev = _step(reason)
        for o in self.by_key.get((c.manifest, c.name.lower()), ()):
            if ev not in o.evidence:
                o.evidence.append(ev)


@dataclass
class _Triage:
    """Sorting the merged candidates: which to resolve, which only for their types."""

    lay: Layout
    ctx: Context
    uses: _Uses
    internal_peers: dict[str, set[str]]
    todo: list[Candidate] = field(default_factory=list)
    types_of_covered: list[Candidate] = field(default_factory=list)


def _already_declared(t: _Triage, c: Candidate, owner: Manifest) -> bool:
    """The manifests declare it already (a published library's types-only runtime use is
    kept aside: its users may still need the package's DefinitelyTyped types)."""
    if not covered(t.lay, owner, c):
        return False
    if (
        c.section == Section.RUNTIME
        and not c.internal
        and (c.manifest, c.name) not in t.uses.value_used
        and owner.path not in t.lay.unpublished
    ):
        t.types_of_covered.append(c)
    return True


def _peer_left_to_host(t: _Triage, c: Candidate, owner: Manifest) -> bool:
    """A published package's sibling dependency peers it: the host provides it."""
    if c.internal or c.name.lower() not in t.internal_peers.get(c.manifest, set()):
        return False
    if owner.path in t.lay.unpublished:
        return False
    t.ctx.info(f"'{c.name}' is a peer of a sibling package it uses; left to the host")
    return True


def _types_declared(t: _Triage, c: Candidate, owner: Manifest) -> bool:
    """Only its types are used and the manifest declares its DefinitelyTyped package
    (`import type { MDXComponents } from 'mdx/types'` beside @types/mdx)."""
    return (
        (c.manifest, c.name) not in t.uses.value_used
        and not c.internal
        and not c.name.startswith("@types/")
        and types_package(c.name).lower() in _declared(owner)
    )


# Why a merged candidate is not resolved, tried in order; the rest are resolved.
_NOT_RESOLVED = (_already_declared, _peer_left_to_host, _types_declared)


def _triage(
    lay: Layout,
    ctx: Context,
    manifests: dict[str, Manifest],
    npm: list[Candidate],
    originals: _Originals,
) -> _Triage:
    """Merge the candidates and sort them: to resolve, or declared but maybe types needed."""
    uses = _Uses.of(npm)
    merged = merge_candidates(npm)
    t = _Triage(lay, ctx, uses, _internal_peers(lay, merged))
    for c in merged:
        owner = manifests.get(c.manifest)
        if owner is None or owner.parse_error:
            originals.left_out(c, "manifest_unreadable")
            continue
        reason = next((r for r in _NOT_RESOLVED if r(t, c, owner)), None)
        if reason is not None:
            originals.left_out(c, reason.__name__[1:])
            continue
        c.facts = uses.facts_of(c)
        named_by = uses.named_by.get((c.manifest, c.name), ())
        c.evidence.extend(Evidence(f"mapping:{how}") for how in named_by)  # for `--explain`
        if c.section == Section.RUNTIME and is_host_peer(lay, owner, c.name):
            c.section = Section.PEER
            c.evidence.append(_step("host_peer"))
        t.todo.append(c)
    return t


def resolve(project: Project, candidates: list[Candidate], ctx: Context) -> list[Requirement]:
    lay = layout(project)
    manifests = {m.path: m for m in project.manifests}
    npm = [c for c in candidates if c.ecosystem == Ecosystem.NPM]
    originals = _Originals.of(npm)
    triage = _triage(lay, ctx, manifests, npm, originals)
    try:
        as_of = parse_as_of(ctx.options.as_of, project.last_commit_date)
    except ValueError as exc:
        ctx.error(str(exc))
        as_of = None
    state = _State(project, lay, ctx, as_of, originals)
    if state.online:  # warm the client's cache concurrently; the loop below asks one by one
        names = sorted({c.name for c in triage.todo if not c.internal})
        ctx.registries.versions_many(Ecosystem.NPM, names)
    out: list[Requirement] = []
    follow_ups: list[Candidate] = []
    for c in triage.todo:
        req, chosen = state.requirement(c)
        if req is None:
            continue
        out.append(req)
        if chosen is not None and not c.internal:
            follow_ups.extend(state.follow_ups(c, chosen))
    # A published library's shipped code imports only types from a package it declares as
    # a dev (bundled) dependency: the declarations it ships still point at that package's
    # types, so its users need the DefinitelyTyped package (vitepress: @types/markdown-it).
    for c in triage.types_of_covered:
        chosen = state.chosen(manifests[c.manifest], c.name)
        if chosen is not None:
            c.facts = replace(npm_facts(c), type_only_all=True)
            follow_ups.extend(f for f in state.follow_ups(c, chosen) if not npm_facts(f).peer_of)
    out.extend(_follow_up_requirements(state, out, follow_ups))
    out = _without_replaced(out, originals)
    out = [r for r in out if not _brought_along(state, r)]
    if state.online and ctx.options.versions:
        _align_peers(state, out)
    if ctx.options.versions:
        out = _gated(state, out)
    _warn_unchecked(state, out)
    return out


def _gated(state: _State, out: list[Requirement]) -> list[Requirement]:
    """The resolve gate (resolvers/javascript_gate.py): npm's own resolver must accept what
    is written; each change it takes to get there is reported and shown by `--explain`."""
    ctx = state.ctx
    if not any(not r.internal for r in out):
        return out
    if not state.online:
        ctx.info("npm resolve gate skipped: offline (the written versions are not resolved)")
        return out
    endpoints = getattr(ctx.registries.client(Ecosystem.NPM), "endpoints", None)
    if endpoints is None or endpoints.registry is None:
        return out  # a registry depinfer does not reach by URL: npm could not ask it either
    registry = javascript_gate.Registry(
        endpoints.registry.url,
        {scope: e.url for scope, e in endpoints.scopes.items()},
        lambda name: ctx.registries.versions(Ecosystem.NPM, name),
        state.as_of,
        lambda names: ctx.registries.versions_many(Ecosystem.NPM, names),
        lambda path: (
            node_ok_for(state.node_floor(state.manifests[path]))
            if path in state.manifests
            else None
        ),
        ctx.registries.http_settings().facts(),
    )
    npm = [m for m in state.project.manifests_of(Ecosystem.NPM) if m.path.endswith("package.json")]

    def render_text(path: str, reqs: list[Requirement]) -> str | None:
        manifest = state.manifests.get(path)
        if manifest is None or not path.endswith("package.json"):
            return None
        try:
            return render_manifest(state.project.root, manifest, reqs)[1]
        except (ManifestError, OSError):
            return None

    report = javascript_gate.gate(
        state.project.root, npm, state.lay.members, out, render_text, state.picked, registry
    )
    for level, message, file in report.notes:
        (ctx.warn if level == "warning" else ctx.info)(message, file)
    for (manifest, name), why in sorted(report.moved.items()):
        for r in out:
            if (r.manifest, r.name) == (manifest, name):
                javascript_gate.explain(r, why)
                ctx.warn(f"'{name}' written as {r.spec}: {why}", manifest)
    for (manifest, name), why in sorted(report.dropped.items()):
        ctx.warn(f"'{name}' not written: npm cannot resolve it with the rest ({why})", manifest)
    if report.runs:
        ctx.info(f"npm resolve gate: {report.runs} resolve(s) in {report.seconds:.1f}s")
    dropped = [r for r in out if (r.manifest, r.name) in report.dropped]
    for r in dropped:
        state.originals.left_out(r, "npm_gate")
    return [r for r in out if (r.manifest, r.name) not in report.dropped]


def _follow_up_requirements(
    state: _State, out: list[Requirement], follow_ups: list[Candidate], nested: bool = False
) -> list[Requirement]:
    """Requirements for the follow-ups (@types packages, apps' peers) not written yet; a
    peer written here brings its own types package in TypeScript code, as an imported
    package does (react-dom, a peer of next, → @types/react-dom)."""
    written = {(r.manifest, r.name.lower()) for r in out}
    by_key = {(r.manifest, r.name.lower()): r for r in out}
    added: list[Requirement] = []
    types: list[Candidate] = []  # the types packages of the peers written here
    for c in merge_candidates(follow_ups):
        owner = state.manifests[c.manifest]
        key = (c.manifest, c.name.lower())
        peer_of = npm_facts(c).peer_of
        if key in written:
            # an app's runtime dependency needs its peer where it runs: a peer the tooling
            # also uses (an Expo app's `expo` CLI, whose package every expo-* module peers)
            # is a runtime dependency, not a dev one
            r = by_key.get(key)
            if (
                r is not None
                and peer_of
                and c.section == Section.RUNTIME
                and r.section == Section.DEV
                and r.group is None
            ):
                r.section = Section.RUNTIME
                r.evidence.extend(c.evidence)
            continue
        if covered(state.lay, owner, c):
            continue
        if peer_of and c.name.lower() in state.dependencies_of[c.manifest]:
            continue  # another package the app uses brings this peer along (astro → vite)
        c.evidence.append(_step("peer_follow_up" if peer_of else "types_follow_up"))
        req, chosen = state.requirement(c)
        if req is not None:
            added.append(req)
            written.add((c.manifest, c.name.lower()))
            if peer_of and chosen is not None and not nested:
                types.extend(f for f in state.follow_ups(c, chosen) if not npm_facts(f).peer_of)
    if types:
        added.extend(_follow_up_requirements(state, out + added, types, nested=True))
    return added


def _without_replaced(out: list[Requirement], originals: _Originals) -> list[Requirement]:
    """Drop a types-only package whose @types package was written in its place."""
    replaced = {(r.manifest, f.replaces) for r in out if (f := npm_facts(r)).replaces}
    if not replaced:
        return out
    for r in out:
        if (r.manifest, r.name) in replaced:
            originals.left_out(r, "replaced_by_types_package")
    return [r for r in out if (r.manifest, r.name) not in replaced]


def _brought_along(state: _State, r: Requirement) -> bool:
    """A package another written package already depends on, and that nothing but that
    framework's own conventions asks for.

    A tool implied only by its config file's presence (vite.config → vite) comes with a
    framework the package already uses (vitepress, astro, nuxt depend on vite); so does a
    package only a tool's config names (Create React App's eslintConfig extends react-app:
    react-scripts depends on eslint-config-react-app, its docs say none is to be installed).
    An app that only names a package's types (`/// <reference types="vite/client" />`,
    `import type { RemarkPlugin } from '@astrojs/markdown-remark'`) gets them with the
    framework that depends on that package (astro → vite): nothing of it runs in the app.
    A package published only for its types (@types/mdast, @shikijs/types) is one the app
    installs for them, so it stays."""
    f = npm_facts(r)
    brought = (
        f.implied_only
        or f.config_only
        or (
            f.type_only_all
            and not r.internal
            and not _types_package_name(r.name)
            and r.manifest in state.unpublished_paths
        )
    ) and r.name.lower() in state.dependencies_of[r.manifest]
    if brought:
        state.originals.left_out(r, "brought_along")
    return brought


def _warn_unchecked(state: _State, out: list[Requirement]) -> None:
    """Offline: say which names and versions the registry could not confirm."""
    unchecked = sorted({r.name for r in out if not r.internal and r.verified is None})
    if unchecked and not state.online:
        state.ctx.warn(
            "npm registry not consulted (offline): names and versions unverified; versions "
            "come from the repository's other manifests and lock files, else '*': "
            + ", ".join(unchecked[:15])
            + (" …" if len(unchecked) > 15 else "")
        )


def _types_package_name(name: str) -> bool:
    """@types/x, @scope/types, x-types: a package named for the type declarations it holds."""
    low = name.lower()
    return low.startswith("@types/") or low.endswith(("/types", "-types"))


def _version_tuple(version: str) -> tuple[int, int, int] | None:
    m = re.match(r"^v?(\d+)\.(\d+)\.(\d+)", version)
    return (int(m.group(1)), int(m.group(2)), int(m.group(3))) if m else None


def _align_peers(state: _State, out: list[Requirement]) -> None:
    """Written packages whose peer ranges exclude another written package's chosen version
    (a library still on `react@^18` next to the newest react 19): move that package back to
    its newest release every such range admits, so `npm install` does not stop on ERESOLVE."""
    by_key = {(r.manifest, r.name): r for r in out if not r.internal}
    for _ in range(2):  # a downgrade can change nothing else's peers; two passes settle it
        changed = False
        for (manifest, name), chosen in list(state.picked.items()):
            peers = chosen.extra.get("peerDependencies") or {}
            for peer, rng in peers.items() if isinstance(peers, dict) else []:
                req = by_key.get((manifest, peer))
                have = state.picked.get((manifest, peer))
                if req is None or have is None or not isinstance(rng, str):
                    continue
                # an optional peer binds too once the package is installed (npm's ERESOLVE:
                # eslint-config-x's peerOptional typescript@^4 against a written typescript 5)
                vt = _version_tuple(have.version)
                if vt is None or satisfies(vt, rng):
                    continue
                versions = state.ctx.registries.versions(Ecosystem.NPM, peer)
                fits = [
                    v
                    for v in versions
                    if (t := _version_tuple(v.version)) is not None
                    and satisfies(t, rng)
                    and all(
                        satisfies(t, r2)
                        for (m2, n2), c2 in state.picked.items()
                        if m2 == manifest
                        and isinstance(
                            r2 := (c2.extra.get("peerDependencies") or {}).get(peer), str
                        )
                    )
                ]
                better = pick_version(fits, state.as_of, sort_key=semver_key)
                if better is None:
                    continue
                state.picked[(manifest, peer)] = better
                req.spec = f"^{better.version}"
                req.evidence.append(
                    Evidence("registry", None, None, f"peer range {rng} of {name}@{chosen.version}")
                )
                changed = True
        if not changed:
            return


@lru_cache(maxsize=1)
def hosts() -> tuple[dict, ...]:
    return tuple(load_table("javascript/hosts.toml")["host"])


def is_host_peer(lay: Layout, owner: Manifest, name: str) -> bool:
    """A published library declares the host it plugs into as a peer (hosts.toml) — unless
    its peerDependencies already list its peers without the host: then it ships the host
    itself (vitepress depends on vue and keeps postcss as its peer)."""
    own = owner.data.get("name")
    if owner.path in lay.unpublished or not isinstance(own, str):
        return False
    peers = {p.lower() for p in owner.declared.get("peerDependencies", [])}
    if peers and name.lower() not in peers:
        return False
    for host in hosts():
        if host["name"] != name:
            continue
        if host.get("any_library"):
            return True
        if any(fnmatch.fnmatch(own, p) for p in host.get("plugins", [])):
            return True
    return False


def _internal_peers(lay: Layout, merged: list[Candidate]) -> dict[str, set[str]]:
    """manifest → peerDependencies of the sibling packages it depends on (the host provides
    them: `vue` for a plugin of a Vue library)."""
    by_dir = {m.directory: m for m in lay.owners.values()}
    by_path = {m.path: m for m in lay.owners.values()}
    out: dict[str, set[str]] = {}
    for c in merged:
        owner = by_path.get(c.manifest)
        if (
            c.internal
            and c.section == Section.RUNTIME
            and c.path in by_dir
            and owner is not None
            and c.name.lower() not in _declared(owner)
        ):
            peers = by_dir[c.path].declared.get("peerDependencies", [])
            out.setdefault(c.manifest, set()).update(p.lower() for p in peers)
    return out


# a script that runs Jest (directly, or through Create React App and its wrappers)
_JEST_SCRIPT = re.compile(
    r"(?:^|[\s;&|/(])(?:jest|(?:react-scripts|craco|react-app-rewired) test)\b"
)
_JEST_CONFIG = re.compile(r"^jest\.config\.(?:js|cjs|mjs|ts|json)$")


class _State:
    """What resolving one project needs at hand: registry answers, repo versions, as-of."""

    def __init__(
        self, project: Project, lay: Layout, ctx: Context, as_of, originals: _Originals
    ) -> None:
        self.project = project
        self.originals = originals
        self.lay = lay
        self.ctx = ctx
        self.as_of = as_of
        self.manifests = {m.path: m for m in project.manifests}
        self.repo_versions = _repo_versions(project)
        self.known = set(self.repo_versions) | _known_tool_packages()
        self.online = ctx.registries.client(Ecosystem.NPM) is not None
        # manifest → what the chosen versions of its packages depend on themselves
        self.dependencies_of: dict[str, set[str]] = defaultdict(set)
        self.unpublished_paths = set(lay.unpublished)
        self.ts_owners = {
            owner.path
            for f in lay.files
            if f.endswith((".ts", ".tsx", ".mts", ".cts")) and (owner := owner_of(lay, f))
        }
        self._floors: dict[str, str | None] = {}
        self._jest: dict[str, bool] = {}  # manifest → its tests run as CommonJS
        self._templates: dict[str, tuple[_Template, ...]] = {}  # manifest → its generators
        self._majors: dict[str, frozenset[str]] = {}  # package → its release majors
        # (manifest, name) → the version chosen for a written external package
        self.picked: dict[tuple[str, str], VersionInfo] = {}

    def requirement(self, c: Candidate) -> tuple[Requirement | None, VersionInfo | None]:
        """The requirement for `c` and the version chosen for it (None: not written, and
        the step that left it out is noted for `--explain`)."""
        owner = self.manifests[c.manifest]
        ctx = self.ctx
        templates = self.templates(owner)
        if any(c.name in t.provides for t in templates) and not any(
            e.rule == "import" for e in c.evidence
        ):
            # only the template's config names it (eslintConfig `react-app`)
            return self._left_out(c, "runner_provides")
        if c.section == Section.DEV and keeps_everything_in_dependencies(self.lay, owner):
            if npm_facts(c).implied_only and npm_facts(c).presence_not_enough:
                # tsconfig.json alone in an app whose framework strips the types itself:
                # nothing runs the compiler, so nothing to list
                return self._left_out(c, "presence_installs_nothing")
            c.section = Section.RUNTIME
            c.evidence.append(_step("everything_in_dependencies"))
        elif c.section == Section.DEV and any(c.name in t.dependencies for t in templates):
            c.section = Section.RUNTIME
            c.evidence.append(_step("template_layout"))
        if c.internal:
            return self._written(c, _internal_spec(self.lay, owner, c), "sibling_reference"), None
        verdict = ctx.registries.exists(Ecosystem.NPM, c.name)
        if verdict is False:
            ctx.warn(f"'{c.name}' is not in the npm registry; not written", c.manifest)
            return self._left_out(c, "not_in_registry")
        c.verified = verdict
        if npm_facts(c).heuristic and c.optional:
            ctx.info(f"'{c.name}' is only loaded inside try blocks by name; not written")
            return self._left_out(c, "only_tried_by_name")
        if verdict is None and npm_facts(c).heuristic and c.name.lower() not in self.known:
            # a name read from a helper call or a plain string, and nothing confirms it
            ctx.info(f"'{c.name}' (from {c.evidence[0]}) could not be verified; not written")
            return self._left_out(c, "unverified_guess")
        f = npm_facts(c)
        # a use that only resolves a path (`require.resolve`, a Jest watch plugin's name)
        # loads nothing under Jest: any release will do
        needs_cjs = f.required or (
            self.tests_as_commonjs(owner) and f.loaded and not f.type_only_all
        )
        chosen = (
            self.chosen(owner, c.name, needs_cjs=needs_cjs, subpaths=_subpaths(c))
            if self.online
            else None
        )
        spec, how = "", "unversioned"
        if ctx.options.versions:
            if chosen is not None:
                spec, how = f"^{chosen.version}", "registry_version"
            elif c.name.lower() in self.repo_versions:
                spec, how = self.repo_versions[c.name.lower()], "repository_version"
            else:
                spec, how = "*", "any_version"
        if chosen is not None:
            self.picked[(c.manifest, c.name)] = chosen
        return self._written(c, spec, how), chosen

    def _left_out(self, c: Candidate, reason: str) -> tuple[None, None]:
        self.originals.left_out(c, reason)
        return None, None

    @staticmethod
    def _written(c: Candidate, spec: str, how: str) -> Requirement:
        req = to_requirement(c, spec)
        req.evidence.append(_step(how))
        return req

    def chosen(
        self, owner: Manifest, name: str, needs_cjs: bool = False, subpaths: tuple[str, ...] = ()
    ) -> VersionInfo | None:
        """Newest fitting version; code that `require()`s the package gets the newest that
        still offers CommonJS (an ESM-only major cannot be required on older Node), and code
        that imports its subpaths the newest whose `exports` still lists them all (a new
        major that closes its deep imports behind an `exports` map breaks them)."""
        versions = self.ctx.registries.versions(Ecosystem.NPM, name)
        if not versions:
            return None
        node_ok = node_ok_for(self.node_floor(owner))
        train = self.train_major(owner, name)
        if train is not None:
            # the major of the scope's release train the repository declares, when it has
            # a release that fits; else as without it
            on_train = [v for v in versions if _major(v.version) == train]
            found = self._newest(on_train, node_ok, needs_cjs, subpaths)
            if found is not None:
                return found
        return self._newest(versions, node_ok, needs_cjs, subpaths)

    def _newest(
        self, versions: list[VersionInfo], node_ok, needs_cjs: bool, subpaths: tuple[str, ...]
    ) -> VersionInfo | None:
        def fits(v: VersionInfo) -> bool:
            return node_ok is None or node_ok(v)

        # a registry that dates no release by the as-of date (code newer than its date, or
        # a mirror whose `time` holds when it copied each release) cannot choose by date:
        # the newest then, as without one, so what follows a choice (types packages, peers,
        # what a written package brings) is still known
        for as_of in dict.fromkeys((self.as_of, None)):
            lines = _line_exports(versions, as_of) if subpaths else {}

            def reachable(v: VersionInfo, lines: dict = lines) -> bool:
                # a release without `exports` is judged by its major line's newest map (one
                # record missing the field in a line whose others have it is a gap, not an
                # open package: semver keeps a line's subpaths)
                fields = v.extra if "exports" in v.extra else lines.get(_major(v.version), v.extra)
                return fits(v) and all(exports_subpath(fields, s) for s in subpaths)

            def commonjs(v: VersionInfo, reachable=reachable) -> bool:
                return reachable(v) and not esm_only(v.extra)

            # the strictest first; a want no release meets is given up, the Node floor never
            for ok in (commonjs, reachable, fits) if needs_cjs else (reachable, fits):
                best = pick_version(versions, as_of, ok, sort_key=semver_key)
                if best is not None:
                    return best
        return None

    def train_major(self, owner: Manifest, name: str) -> str | None:
        """The major a scoped package must take to ride the release train the repository
        already declares: `@angular/compiler-cli: ^16.0.0` kept beside a written
        `@angular/core` holds core to 16 (the scope's packages peer each other at exact
        versions, so npm refuses two majors). A declared package of the same scope counts
        when the two packages' majors coincide (at least three majors, four in five shared:
        published in lockstep); None when none does or they disagree."""
        scope = name.split("/", 1)[0] if name.startswith("@") and "/" in name else None
        if scope is None or scope == "@types":
            return None
        mine = self.majors(name)
        wanted: set[str] = set()
        for m in [owner, *ancestors(self.lay, owner)]:
            specs = m.data.get("specs")
            for table in specs.values() if isinstance(specs, dict) else []:
                for other, spec in table.items() if isinstance(table, dict) else []:
                    if not other.startswith(scope + "/") or other == name:
                        continue
                    lower = re.match(r"^\s*(?:[\^~]|>=)?\s*v?(\d+(?:\.\d+)*)\s*$", str(spec))
                    if lower is None:
                        continue
                    theirs = self.majors(other)
                    shared = mine & theirs
                    if len(shared) >= 3 and len(shared) >= 0.8 * len(mine | theirs):
                        wanted.add(_major(lower.group(1)))
        return wanted.pop() if len(wanted) == 1 else None

    def templates(self, owner: Manifest) -> tuple[_Template, ...]:
        """`templates_of`, answered once per manifest (asked for every candidate)."""
        if owner.path not in self._templates:
            self._templates[owner.path] = templates_of(owner)
        return self._templates[owner.path]

    def majors(self, name: str) -> frozenset[str]:
        """The majors (0.x: minor lines) of the package's releases, asked once per run."""
        if name not in self._majors:
            versions = self.ctx.registries.versions(Ecosystem.NPM, name)
            self._majors[name] = frozenset(
                _major(v.version) for v in versions if _version_tuple(v.version)
            )
        return self._majors[name]

    def _stub(self, name: str, version: str) -> bool:
        """A DefinitelyTyped stub: the package it types ships its own definitions (the stub's
        description says so; its registry entry is otherwise an ordinary release)."""
        summary = str(self.ctx.registries.metadata(Ecosystem.NPM, name, version).get("summary"))
        return summary.startswith("Stub TypeScript definitions entry")

    def tests_as_commonjs(self, owner: Manifest) -> bool:
        """The package's tests run its code as CommonJS, whatever syntax it is written in:
        Jest transforms each module to CommonJS and does not transform node_modules, so an
        ESM-only release of a package the code imports fails with "Cannot use import
        statement outside a module" (Jest docs, "ECMAScript Modules": ESM needs
        `--experimental-vm-modules`). Create React App's `react-scripts test` is Jest.
        Asked for every candidate: answered once per manifest."""
        if owner.path not in self._jest:
            self._jest[owner.path] = self._jest_runs(owner)
        return self._jest[owner.path]

    def _jest_runs(self, owner: Manifest) -> bool:
        scripts = owner.data.get("scripts")
        text = " ".join(str(v) for v in scripts.values()) if isinstance(scripts, dict) else ""
        if "--experimental-vm-modules" in text:
            return False
        if _JEST_SCRIPT.search(text):
            return True
        here = PurePosixPath(owner.directory or ".")
        return any(
            PurePosixPath(f).parent == here and _JEST_CONFIG.match(PurePosixPath(f).name)
            for f in self.lay.files
        )

    def node_floor(self, owner: Manifest) -> str | None:
        """Oldest Node the package supports: engines.node, .nvmrc/.node-version, CI matrix."""
        if owner.path not in self._floors:
            rt = node_runtime(self.project, owner.data)
            self._floors[owner.path] = f">={rt.minimum}" if rt.minimum else None
        return self._floors[owner.path]

    def follow_ups(self, c: Candidate, chosen: VersionInfo) -> list[Candidate]:
        """@types/<pkg> for TypeScript code when the chosen version ships no types, and, in
        apps, the peer dependencies of what they use (npm expects the app to declare them)."""
        out: list[Candidate] = []
        owner = self.manifests[c.manifest]
        if (
            c.manifest in self.ts_owners
            and not c.name.startswith("@types/")
            and not ships_types(chosen.extra)
        ):
            dt = types_package(c.name)
            dt_version = self.chosen(owner, dt)
            if dt_version is not None and not self._stub(dt, dt_version.version):
                # types are for the compiler: dev, unless the package was only ever imported
                # for types by a published library's shipped code (its users need them)
                section = Section.DEV
                facts = NpmFacts()
                if npm_facts(c).type_only_all:
                    facts = NpmFacts(replaces=c.name)
                    if owner.path not in self.lay.unpublished and c.section == Section.RUNTIME:
                        section = Section.RUNTIME
                out.append(
                    _follow(c, dt, section, f"{c.name}@{chosen.version} ships no types", facts)
                )
        # a private package that declares peers of its own is a library its workspace's apps
        # host (a UI kit peering react): the peers of what it uses are theirs to provide too
        hosted = bool(owner.declared.get("peerDependencies"))
        if owner.path in self.lay.unpublished and c.section == Section.RUNTIME and not hosted:
            peers = chosen.extra.get("peerDependencies") or {}
            meta = chosen.extra.get("peerDependenciesMeta") or {}
            for peer in peers if isinstance(peers, dict) else {}:
                if isinstance(meta.get(peer), dict) and meta[peer].get("optional"):
                    continue
                out.append(
                    _follow(
                        c,
                        peer,
                        c.section,
                        f"peer of {c.name}@{chosen.version}",
                        NpmFacts(peer_of=c.name),
                    )
                )
        self.dependencies_of[c.manifest].update(
            n.lower() for n in (chosen.extra.get("dependencies") or {})
        )
        return out


def _major(version: str) -> str:
    head = version.split(".")
    return ".".join(head[:2]) if head[0] == "0" and len(head) > 1 else head[0]


def _line_exports(versions: list[VersionInfo], as_of) -> dict[str, dict]:
    """Each major line's (0.x: minor line's) newest release by the as-of date that has an
    `exports` field: major → that release's fields."""
    out: dict[str, tuple[tuple, dict]] = {}
    for v in versions:
        if "exports" not in v.extra or v.prerelease:
            continue
        if as_of is not None and v.published is not None and v.published > as_of:
            continue
        key, line = semver_key(v.version), _major(v.version)
        if line not in out or key > out[line][0]:
            out[line] = (key, v.extra)
    return {line: fields for line, (_, fields) in out.items()}


def _subpaths(c: Candidate) -> tuple[str, ...]:
    """The package's subpaths the code imports (`lodash/fp` → `fp`), from code imports only
    (not when only types are imported: TypeScript's older module resolution ignores
    `exports`)."""
    prefix = c.name.lower() + "/"
    code = any(e.rule == "import" for e in c.evidence) and not npm_facts(c).type_only_all
    return tuple(
        sorted({n[len(prefix) :] for n in c.import_names if code and n.lower().startswith(prefix)})
    )


def _follow(c: Candidate, name: str, section: Section, why: str, facts: NpmFacts) -> Candidate:
    return Candidate(
        ecosystem=Ecosystem.NPM,
        name=name,
        manifest=c.manifest,
        section=section,
        evidence=[Evidence("registry", None, None, why)],
        confidence=0.8,
        facts=facts,
    )


def _known_tool_packages() -> set[str]:
    return {p.lower() for pkgs in bins()[0].values() for p in pkgs}
