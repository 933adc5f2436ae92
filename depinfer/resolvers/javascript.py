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

import json
import os
import re
from pathlib import PurePosixPath

from depinfer.context import Context
from depinfer.mapping.javascript import Layout, ancestors, layout
from depinfer.model import (
    Candidate,
    Ecosystem,
    Manifest,
    Project,
    Requirement,
    Section,
)
from depinfer.resolvers.common import merge_candidates, parse_as_of, pick_version, to_requirement

_LOCK_VERSION = re.compile(r'^"?(@?[^@\s"]+)@[^:]*:\s*\n\s+version:?\s+"?([\w.+-]+)"?', re.M)


def _declared(manifest: Manifest) -> set[str]:
    return {n.lower() for names in manifest.declared.values() for n in names}


def covered(lay: Layout, manifest: Manifest, c: Candidate) -> bool:
    """The candidate is already satisfied by what the manifests declare."""
    low = c.name.lower()
    if low in _declared(manifest):
        return True
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


def _node_ok(engines: str | None, target: str | None):
    """A version fits when its engines.node admits the project's own minimum Node major."""
    if not target:
        return None
    m = re.search(r"(\d+)", target)
    if not m:
        return None
    major = int(m.group(1))

    def ok(v) -> bool:
        if not v.runtime:
            return True
        lows = [int(x) for x in re.findall(r">=?\s*v?(\d+)", v.runtime)]
        return not lows or min(lows) <= major

    return ok


def _internal_spec(lay: Layout, owner: Manifest, c: Candidate) -> str:
    target = next((m for m in lay.by_name.values() if m.directory == (c.path or "")), None)
    if target is None:
        return "*"
    if target.path in lay.members or (target.directory == "" and lay.workspace_style):
        if lay.workspace_style in ("pnpm", "yarn-berry"):
            return "workspace:*"
        version = target.data.get("version")
        return f"^{version}" if isinstance(version, str) and version else "*"
    rel = os.path.relpath(target.directory or ".", owner.directory or ".")
    return "file:" + PurePosixPath(rel.replace(os.sep, "/")).as_posix()


def resolve(project: Project, candidates: list[Candidate], ctx: Context) -> list[Requirement]:
    lay = layout(project)
    manifests = {m.path: m for m in project.manifests}
    merged = merge_candidates([c for c in candidates if c.ecosystem == Ecosystem.NPM])
    todo: list[Candidate] = []
    for c in merged:
        owner = manifests.get(c.manifest)
        if owner is None or owner.parse_error:
            continue
        if covered(lay, owner, c):
            continue
        todo.append(c)

    external = sorted({c.name for c in todo if not c.internal})
    exists = ctx.registries.exists_many(Ecosystem.NPM, external) if external else {}
    try:
        as_of = parse_as_of(ctx.options.as_of, project.last_commit_date)
    except ValueError as exc:
        ctx.error(str(exc))
        as_of = None
    repo_versions = _repo_versions(project)
    known = set(repo_versions) | _known_tool_packages()
    out: list[Requirement] = []
    for c in todo:
        owner = manifests[c.manifest]
        if c.section == Section.DEV and keeps_everything_in_dependencies(lay, owner):
            c.section = Section.RUNTIME
        if c.internal:
            out.append(to_requirement(c, _internal_spec(lay, owner, c)))
            continue
        verdict = exists.get(c.name)
        if verdict is False:
            ctx.warn(f"'{c.name}' is not in the npm registry; not written", c.manifest)
            continue
        c.verified = verdict
        if c.extra.get("heuristic") and c.optional:
            ctx.info(f"'{c.name}' is only loaded inside try blocks by name; not written")
            continue
        if verdict is None and c.extra.get("heuristic") and c.name.lower() not in known:
            # a name read from a helper call or a plain string, and nothing confirms it
            ctx.info(f"'{c.name}' (from {c.evidence[0]}) could not be verified; not written")
            continue
        spec = ""
        if ctx.options.versions:
            spec = _version_spec(project, owner, c, ctx, as_of, repo_versions)
        out.append(to_requirement(c, spec))
    return out


def _known_tool_packages() -> set[str]:
    from depinfer.rules.javascript import bins

    return {p.lower() for pkgs in bins()[0].values() for p in pkgs}


def _version_spec(project, owner, c, ctx, as_of, repo_versions) -> str:
    versions = ctx.registries.versions(Ecosystem.NPM, c.name)
    engines = owner.data.get("engines")
    node = engines.get("node") if isinstance(engines, dict) else None
    if versions:
        chosen = pick_version(versions, as_of, _node_ok(None, node), sort_key=_semver_key)
        if chosen is not None:
            return f"^{chosen.version}"
    return repo_versions.get(c.name.lower(), "*")


def _semver_key(version: str):
    m = re.match(r"^v?(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?", version)
    if not m:
        return (0, 0, 0, 0, "")
    return (
        int(m.group(1)),
        int(m.group(2)),
        int(m.group(3)),
        0 if m.group(4) else 1,
        m.group(4) or "",
    )
