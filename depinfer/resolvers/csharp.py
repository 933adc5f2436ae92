"""C# resolver: NuGet candidates → PackageReference / ProjectReference / PackageVersion lines.

Versions, first that answers:
1. the version the repository already states for the id (Directory.Packages.props, or
   another project's PackageReference) — one repository, one version;
2. the registry (when online): newest stable published by the as-of date; for families
   that version with .NET (Microsoft.Extensions.*, ASP.NET Core, EF Core) the newest of
   the major matching the project's newest .NET target (8.0.x for net8.0);
3. offline: the shipped index's known version, or `<major>.0.0` for those families.
Packages released with a project SDK (Aspire's integrations with Aspire.AppHost.Sdk) take
the SDK version the repository's projects name, when the registry has that release.
Under central package management the PackageReference carries no version and a missing
`PackageVersion` is added to Directory.Packages.props.
"""

from __future__ import annotations

from depinfer.analyzers.csharp_layout import CsProject, build_layout, tfm_major
from depinfer.context import Context
from depinfer.facts.csharp import CsDepFacts, dep_facts, set_dep
from depinfer.mapping import nuget_index as nx
from depinfer.model import Candidate, Ecosystem, Project, Requirement, Section
from depinfer.registries.base import VersionInfo
from depinfer.resolvers.common import merge_candidates, to_requirement
from depinfer.versions import parse_as_of, pick_version

PRIVATE_KINDS = {"analyzer", "build"}


def _newest_netcore(cs: CsProject | None) -> int | None:
    majors = [
        int(v)
        for fam, v in (tfm_major(t) for t in (cs.target_frameworks if cs else []))
        if fam == "netcore" and v >= 5
    ]
    return max(majors) if majors else None


def _nuget_key(version: str):
    from packaging.version import InvalidVersion, Version

    try:
        return (1, Version(version))
    except InvalidVersion:
        return (0, Version("0"))


def _repo_versions(project: Project) -> dict[str, str]:
    out: dict[str, str] = {}
    for m in project.manifests_of(Ecosystem.NUGET):
        for pid, v in m.data.get("package_versions", {}).items():
            if v and "$(" not in v:
                out.setdefault(pid.lower(), v)
        for pid, v in m.data.get("package_reference_versions", {}).items():
            if v and "$(" not in v:
                out.setdefault(pid.lower(), v)
    return out


def choose_version(
    pid: str,
    cs: CsProject | None,
    ctx: Context,
    project: Project,
    known: dict[str, str],
    train: str | None = None,
) -> str:
    if pid.lower() in known:
        return known[pid.lower()]
    major = _newest_netcore(cs) if nx.runtime_family(pid) else None
    versions: list[VersionInfo] = ctx.registries.versions(Ecosystem.NUGET, pid)
    if train is not None:
        # released with the SDK version the repository builds with: that release, when the
        # registry has it (offline: taken as it is)
        if not versions or any(v.version == train for v in versions):
            return train
    if versions:
        as_of = parse_as_of(ctx.options.as_of, project.last_commit_date)
        if major is not None:
            same = [v for v in versions if v.version.split(".", 1)[0] == str(major)]
            picked = pick_version(same, as_of, sort_key=_nuget_key)
            if picked:
                return picked.version
        picked = pick_version(versions, as_of, sort_key=_nuget_key)
        if picked:
            return picked.version
    info = nx.package_info(pid)
    if major is not None:
        latest = (info or {}).get("latest", "")
        if latest.split(".", 1)[0] == str(major):
            return latest
        return f"{major}.0.0"
    return (info or {}).get("latest", "")


def resolve(project: Project, candidates: list[Candidate], ctx: Context) -> list[Requirement]:
    layout = {cs.path: cs for cs in build_layout(project)}
    known = _repo_versions(project)
    trains: dict[str, str | None] = {}
    out: list[Requirement] = []
    pool_adds: dict[str, dict[str, Requirement]] = {}
    for c in merge_candidates(candidates):
        cs = layout.get(c.manifest)
        if c.internal or dep_facts(c).framework_reference:
            req = to_requirement(c)
            if dep_facts(req).kind is None:
                set_dep(req, kind="project")
            out.append(req)
            continue
        if cs is not None and c.name.lower() in cs.inherited_packages:
            continue  # Directory.Build.props already references it
        if c.verified is False:
            continue
        kind = dep_facts(c).kind or nx.kind_of(c.name)
        spec = ""
        if ctx.options.versions and dep_facts(c).pinned:
            spec = dep_facts(c).pinned  # the sibling's own release line (separately_released)
        elif ctx.options.versions:
            if c.name not in trains:
                trains[c.name] = nx.release_train_version(c.name, list(layout.values()))
            spec = choose_version(c.name, cs, ctx, project, known, trains[c.name])
        req = to_requirement(c, "" if (cs and cs.central) else spec)
        req.section = Section.RUNTIME
        if kind in PRIVATE_KINDS:
            set_dep(req, private_assets=True)
        if cs is not None and cs.central:
            set_dep(req, central=True)
            pool = {k.lower() for k in cs.pool}
            if c.name.lower() not in pool and cs.packages_props is not None and spec:
                pool_adds.setdefault(cs.packages_props.path, {})[c.name.lower()] = Requirement(
                    ecosystem=Ecosystem.NUGET,
                    name=c.name,
                    manifest=cs.packages_props.path,
                    spec=spec,
                    evidence=list(c.evidence),
                    facts=CsDepFacts(package_version=True),
                )
        out.append(req)
    for reqs in pool_adds.values():
        out.extend(reqs.values())
    return out
