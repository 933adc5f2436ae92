"""C# mapping: namespaces used by each .csproj → NuGet package candidates and ProjectReferences.

Order of decisions for one namespace in one project:
1. declared by a project of this repository and not in the index → internal (no package);
2. in the box for every target framework / the project SDK → dropped;
3. the shipped index, longest prefix: packages whose marker identifiers the project uses
   win (`UseSqlite` → the Sqlite provider), else the most popular unmarked package;
4. under central package management only packages the repository's
   Directory.Packages.props lists can be referenced, so the index's answer is checked
   against that list, and a namespace that names a listed id is taken from it;
5. otherwise a namespace prefix is checked with the NuGet client when online; offline
   the namespace is reported and nothing unverified is written.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, replace
from functools import lru_cache

from depinfer.analyzers.csharp_layout import CsProject
from depinfer.context import Context
from depinfer.facts.csharp import (
    CsDepFacts,
    CsRefFacts,
    file_facts,
    ref_facts,
    ref_kind,
    set_dep,
)
from depinfer.mapping import nuget_index as nx
from depinfer.mapping.csharp_projects import is_roslyn_component, project_references
from depinfer.mapping.csharp_solutions import published_instead, separately_released, solutions
from depinfer.mapping.csharp_use import (
    ProjectUse,
    brought_by,
    builder_families,
    conventions,
    gather,
    internal_namespaces,
)
from depinfer.model import Candidate, Ecosystem, Evidence, ImportRef, Project, Section

# First segments that are never package namespaces on their own (too generic to look up).
_GENERIC_ROOTS = frozenset(nx.app_frameworks()["platform"]["generic_roots"])


@lru_cache(maxsize=1)
def _index_segments() -> frozenset[str]:
    """Every namespace segment the shipped index knows: too common to name one id."""
    return frozenset(seg for ns in nx.by_namespace() for seg in ns.split("."))


def _squash(name: str) -> str:
    return "".join(ch for ch in name.lower() if ch.isalnum())


def _pool_lookup(ns: str, pool: dict[str, str]) -> str | None:
    """The pool id a namespace names: the longest id that is the namespace or a prefix of
    it (segment-wise), allowing the suffixes ids carry and namespaces lack (CommonMark →
    CommonMark.NET, PackageUrl → packageurl-dotnet) and dots the namespace leaves out
    (EnumsNET → Enums.NET); else the one id that extends the namespace (`Foo` →
    `Foo.Core`), or the one id whose last segment is the namespace's own last segment
    (`Microsoft.Build.Logging.StructuredLogger` → `MSBuild.StructuredLogger`)."""
    lowered = {k.lower(): k for k in pool}
    squashed: dict[str, list[str]] = defaultdict(list)
    for k in pool:
        squashed[_squash(k)].append(k)
    for p in nx.prefixes(ns):
        for name in (p, f"{p}.net", f"{p}net", f"{p}-dotnet", f"{p}.dotnet"):
            hit = lowered.get(name.lower())
            if hit:
                return hit
        for name in (p, f"{p}net", f"{p}dotnet"):
            hits = squashed.get(_squash(name), [])
            if len(hits) == 1 and p.split(".", 1)[0] not in _GENERIC_ROOTS:
                return hits[0]
    if ns.split(".", 1)[0] in _GENERIC_ROOTS and "." not in ns:
        return None
    longer = [k for k in pool if k.lower().startswith(ns.lower() + ".")]
    if len(longer) == 1 and ns.split(".", 1)[0] not in _GENERIC_ROOTS:
        return longer[0]
    last = ns.rsplit(".", 1)[-1].lower()
    if "." in ns and len(last) >= 8 and last not in _index_segments():
        tails = [k for k in pool if "." in k and k.rsplit(".", 1)[-1].lower() == last]
        if len(tails) == 1:
            return tails[0]
    return None


def _qualified_pool_id(name: str, pool: dict[str, str]) -> str | None:
    """The centrally listed id a fully-qualified name in code spells out when its first
    segment is no namespace the index knows: the id with its dots dropped
    (`Medallion.Shell.Command.Run` → MedallionShell), or a one-segment id that is a type
    segment of the name (`Cysharp.Diagnostics.ProcessX.Get…` → ProcessX)."""
    parts = name.split(".")
    if len(parts) < 2 or parts[0] in _GENERIC_ROOTS:
        return None
    squashed: dict[str, list[str]] = defaultdict(list)
    for k in pool:
        squashed[_squash(k)].append(k)
    for i in range(len(parts), 1, -1):
        hits = squashed.get(_squash("".join(parts[:i])), [])
        if len(hits) == 1:
            return hits[0]
    singles = {k.lower(): k for k in pool if "." not in k and "-" not in k and len(k) >= 6}
    for seg in parts[1:]:
        hit = singles.get(seg.lower())
        if hit and seg.lower() not in _index_segments():
            return hit
    return None


def _unlisted_ok(pid: str, pool: dict[str, str]) -> bool:
    if pid.startswith(tuple(nx.app_frameworks()["platform"]["id_prefixes"])):
        return False
    lowered = {p.lower() for p in pool}
    if any(b.lower() in lowered for b in brought_by().get(pid, [])):
        return False  # a listed package depends on it
    family = pid.split(".", 1)[0].lower()
    return not any(p.split(".", 1)[0] == family for p in lowered)


def _pool_variant(entries: list[nx.Entry], pool: dict[str, str]) -> str | None:
    """A listed id that is a variant of an indexed one (`Tomlyn.Signed` for `Tomlyn`); a
    `.Testing` id is a test harness for the package, never a variant of it
    (Microsoft.CodeAnalysis.CSharp.SourceGenerators.Testing)."""
    for e in sorted(entries, key=lambda e: -e.rank):
        if e.markers:
            continue
        prefix = e.package.lower() + "."
        variants = [
            p
            for p in pool
            if p.lower().startswith(prefix)
            and not p.lower().endswith(".testing")
            and not nx.package_info(p)
        ]
        if len(variants) == 1:
            return variants[0]
    return None


def _listed_carrier(e: nx.Entry, listed: dict[str, str]) -> nx.Entry:
    """Under central package management, a package the repository does not list, when
    exactly one listed package depends on it, is reached through that one (the Azure
    PostgreSQL hosting integration for `AddPostgres`)."""
    if e.package.lower() in listed:
        return e
    carriers = [listed[b.lower()] for b in brought_by().get(e.package, []) if b.lower() in listed]
    if len(carriers) != 1:
        return e
    return nx.Entry(carriers[0], e.rank, nx.kind_of(carriers[0]), e.markers)


def choose(
    entries: list[nx.Entry], use: ProjectUse, pool: dict[str, str] | None, prefix: str = ""
) -> list[nx.Entry]:
    """Packages for one namespace: markers used, else the most popular unmarked one; when
    every package of the namespace is marked (MediatR's handlers vs MediatR.Contracts'
    requests) and no marker is used, the package named like the namespace."""
    if pool is not None:
        lowered = {k.lower(): k for k in pool}
        if not is_roslyn_component(use.cs, use):
            # a compiler plug-in takes the compiler's own packages, never one that
            # brings them (RS1038: no Workspaces in an analyzer)
            entries = [_listed_carrier(e, lowered) for e in entries]
        entries = [e for e in entries if e.package.lower() in lowered]
    elif use.repo_ids:
        # the repository already references one of the alternatives (xunit.v3 over xunit)
        known = [e for e in entries if e.package.lower() in use.repo_ids]
        if known and not any(e.markers for e in known):
            entries = known + [e for e in entries if e.markers and e not in known]
    marked = [e for e in entries if e.markers and any(use.uses_marker(m) for m in e.markers)]
    marked = _one_variant(marked, use)
    unmarked = sorted((e for e in entries if not e.markers), key=lambda e: -e.rank)
    chosen = list(marked)
    if unmarked:
        default = unmarked[0]
        base = (
            default.package[: -len(".Abstractions")]
            if default.package.endswith(".Abstractions")
            else None
        )
        # X.Abstractions is not listed beside X or X.* (a library that depends on it);
        # an analyzer or source generator brings nothing at runtime, so it does not count
        if not (base and any(m.package.startswith(base) and m.kind == "lib" for m in marked)):
            chosen.append(default)
    elif not chosen and prefix:
        chosen = [e for e in entries if e.package.lower() == prefix.lower()][:1]
    return chosen


def _variant_framework(pid: str) -> str | None:
    """The test framework a package's last name part names (`Reqnroll.xUnit`: xunit)."""
    last = pid.rsplit(".", 1)[-1].lower()
    return last if "." in pid and last in conventions()["test_frameworks"] else None


def _one_variant(marked: list[nx.Entry], use: ProjectUse) -> list[nx.Entry]:
    """Packages marked alike that differ only in the test framework they adapt to
    (`Reqnroll.NUnit`, `Reqnroll.xUnit`: the same bindings) are alternatives: the one for
    the framework the project's code uses, else the one the repository references."""
    groups: dict[tuple, list[nx.Entry]] = defaultdict(list)
    for e in marked:
        if _variant_framework(e.package):
            groups[(e.package.rsplit(".", 1)[0], tuple(sorted(e.markers)))].append(e)
    drop: set[str] = set()
    names = set(use.usings) | use.global_usings
    for variants in groups.values():
        if len(variants) < 2:
            continue
        fws = conventions()["test_frameworks"]
        keep = [
            e
            for e in variants
            if names & set(fws[_variant_framework(e.package) or ""].get("namespaces", []))
        ] or [e for e in variants if e.package.lower() in use.repo_ids]
        if keep:
            drop.update(e.package for e in variants if e not in keep[:1])
    return [e for e in marked if e.package not in drop]


@dataclass(frozen=True)
class NamespaceQuery:
    """One namespace used by one project, with what the index and the box say of it."""

    ns: str
    ref: ImportRef
    use: ProjectUse
    internal: set[str]  # namespaces the repository declares (and their prefixes)
    pool: dict[str, str] | None  # the central list, when the project has one
    prefix: str  # the longest indexed prefix of the namespace ("" when none)
    entries: list[nx.Entry]  # the index's packages for that prefix
    inbox_prefix: str  # the longest prefix the target frameworks have in the box

    @property
    def cs(self) -> CsProject:
        return self.use.cs


Answer = tuple[list[Candidate], bool]  # (candidates, resolved)


def _by_own_namespace(q: NamespaceQuery) -> Answer | None:
    """The repository declares the namespace and no package is indexed for it (for a
    `using static` or alias target, which names a type: a type the repository declares,
    possibly nested, `Ns.Outer.Inner`)."""
    ns = q.ns
    facts = ref_facts(q.ref)
    if ref_kind(q.ref) == "using" and (facts.static or facts.alias) and ns not in q.internal:
        ns = _own_type_namespace(ns, q) or ns.rsplit(".", 1)[0]
    return ([], True) if ns in q.internal and not q.prefix else None


def _own_type_namespace(name: str, q: NamespaceQuery) -> str | None:
    """The namespace of the repository's own top-level type `name` starts with (the
    longest namespace followed by a type the repository's code declares there)."""
    parts = name.split(".")
    for i in range(len(parts) - 1, -1, -1):
        ns = ".".join(parts[:i])
        if (ns, parts[i]) in q.use.repo_types:
            return ns or None
    return None


def _by_hint_path(q: NamespaceQuery) -> Answer | None:
    """The project references a DLL file that provides it."""
    return ([], True) if _hinted(q.ns, q.cs) else None


def _by_listed_platform_id(q: NamespaceQuery) -> Answer | None:
    """The central list names a System.* package the framework also has: the repository's
    projects that import the namespace reference the package."""
    if q.pool is None:
        return None
    listed = _listed_platform_id(q.ns, q.pool)
    if not (listed and (q.inbox_prefix or nx.package_in_box(listed, q.cs))):
        return None
    detail = f"namespace {q.ns}; listed centrally"
    return [_candidate(listed, q.cs, q.ref, detail, verified=True)], True


def _by_inbox_extension(q: NamespaceQuery) -> Answer | None:
    """The framework has the namespace, but a package may add extension methods to it
    (`AddServiceDiscovery` in Microsoft.Extensions.DependencyInjection): one whose entry
    point the project calls is needed all the same."""
    if not (q.inbox_prefix and len(q.inbox_prefix) >= len(q.prefix)):
        return None
    use, cs = q.use, q.cs
    out = []
    for e in q.entries if q.prefix == q.inbox_prefix else ():
        if e.package.lower() in use.own_ids or nx.package_in_box(e.package, cs):
            continue
        hit = next(
            (
                m
                for m in e.markers
                if _strong_marker(m)
                and use.uses_marker(m)
                and m.split(".")[-1] not in use.repo_extensions
            ),
            None,
        )
        if hit and (q.pool is None or e.package.lower() in {k.lower() for k in q.pool}):
            c = _candidate(e.package, cs, q.ref, f"namespace {q.ns}; calls {hit}", verified=True)
            set_dep(c, direct=True)
            out.append(c)
    return out, True


def _pool_choice(q: NamespaceQuery, chosen: list[nx.Entry]) -> list[nx.Entry]:
    """Under central package management: the listed id that names the namespace more
    closely, else the chosen ones; with none, a listed id found by name, else (for a
    `using`) an unlisted third-party package the resolver adds to the list."""
    pool, entries, cs = q.pool, q.entries, q.cs
    # a listed id that names the namespace more closely than the index row matched
    # (Spectre.Console.Testing beside the Spectre.Console row) is that package
    closer = _listed_prefix(q.ns, pool, len(q.prefix))
    if closer:
        chosen = [nx.Entry(closer, 0, nx.kind_of(closer))]
    if chosen:
        return chosen
    hit = _pool_lookup(q.ns, pool) or _pool_variant(entries, pool)
    if hit:
        return [nx.Entry(hit, 0, nx.kind_of(hit))]
    if entries and ref_kind(q.ref) == "using":
        # not listed centrally yet: the resolver adds its PackageVersion. Only for a
        # third-party package whose family the list does not already cover (platform
        # packages are usually in the box or brought by another listed one).
        # A compiler plug-in pins the compiler API it builds against (a
        # VersionOverride of the oldest Roslyn it supports), whatever the list says.
        roslyn = is_roslyn_component(cs, q.use)
        return [
            e
            for e in choose(entries, q.use, None)
            if _unlisted_ok(e.package, pool)
            or (roslyn and e.package.startswith(nx.app_frameworks()["roslyn"]["namespace"] + "."))
        ]
    return chosen


def _entry_candidates(q: NamespaceQuery, chosen: list[nx.Entry]) -> list[Candidate]:
    """Candidates for the chosen packages the repository does not build and the box lacks."""
    use, cs = q.use, q.cs
    out: list[Candidate] = []
    for e in chosen:
        if e.package.lower() in use.own_ids:
            continue
        if q.ns in q.internal and not e.markers and _own_family(e.package, use.own_ids):
            # the repository declares this namespace and builds a project the package is
            # named after (Humanizer builds what it publishes as Humanizer.Core)
            continue
        if nx.package_in_box(e.package, cs):
            continue
        c = _candidate(e.package, cs, q.ref, f"namespace {q.ns}", verified=True)
        _condition(c, e.package, cs)
        if any(_strong_marker(m) and use.uses_marker(m) for m in e.markers):
            set_dep(c, direct=True)  # an entry point of this package is called here
        out.append(c)
    return out


def _by_index(q: NamespaceQuery) -> Answer | None:
    """The shipped index (checked against the central list): its chosen packages."""
    chosen = choose(q.entries, q.use, q.pool, q.prefix) if q.entries else []
    if q.pool is not None:
        chosen = _pool_choice(q, chosen)
    if ref_kind(q.ref) == "qualified" and q.prefix.count(".") < 1 and not q.pool:
        return [], True  # `Foo.Bar` in code may be a member access, not a namespace
    out = _entry_candidates(q, chosen)
    if chosen or q.entries:
        return out, True
    return [], q.ns in q.internal


# How one namespace of one project is placed, tried in order; the first answer decides.
NAMESPACE_STRATEGIES = (
    _by_own_namespace,
    _by_hint_path,
    _by_listed_platform_id,
    _by_inbox_extension,
    _by_index,
)


def namespace_candidates(
    ns: str, ref: ImportRef, use: ProjectUse, internal: set[str], ctx: Context
) -> tuple[list[Candidate], bool]:
    """(candidates, resolved) for one namespace used by one project."""
    cs = use.cs
    prefix, entries = nx.lookup(ns)
    query = NamespaceQuery(
        ns=ns,
        ref=ref,
        use=use,
        internal=internal,
        pool=cs.pool if cs.central else None,
        prefix=prefix,
        entries=entries,
        inbox_prefix=nx.inbox_match(ns, cs),
    )
    for strategy in NAMESPACE_STRATEGIES:
        answer = strategy(query)
        if answer is not None:
            for c in answer[0]:  # `--explain` names the strategy that decided
                why = c.evidence[0]
                c.evidence[0] = replace(why, detail=f"{why.detail} [{strategy.__name__[1:]}]")
            return answer
    return [], False


def _own_family(pid: str, own_ids: set[str]) -> bool:
    low = pid.lower()
    return any(low.startswith(o + ".") for o in own_ids)


def _listed_prefix(ns: str, pool: dict[str, str], longer_than: int) -> str | None:
    """The longest listed id that is the namespace or a whole-segment prefix of it and is
    longer than `longer_than` characters."""
    lowered = {k.lower(): k for k in pool}
    for p in nx.prefixes(ns):
        if len(p) <= longer_than or "." not in p:
            return None
        if p.lower() in lowered:
            return lowered[p.lower()]
    return None


def _listed_platform_id(ns: str, pool: dict[str, str]) -> str | None:
    """A centrally listed System.* id that is the namespace or a prefix of it (two segments
    at least). Microsoft.* ids are left out: their namespaces are shared by whole families
    (Microsoft.Extensions.Logging is also the Abstractions package's namespace)."""
    platform = nx.app_frameworks()["platform"]["listed_platform_prefix"]
    lowered = {k.lower(): k for k in pool if k.startswith(platform)}
    for p in nx.prefixes(ns):
        if "." in p and p.lower() in lowered:
            return lowered[p.lower()]
    return None


def _hinted(ns: str, cs: CsProject) -> bool:
    """A `<Reference>` with a HintPath whose assembly name is the namespace or a prefix of
    it (`nunit.framework.dll` for NUnit.Framework)."""
    low = ns.lower()
    for name in cs.manifest.data.get("hinted_references", []):
        n = name.lower()
        if low == n or low.startswith(n + "."):
            return True
    return False


def _candidate(
    pid: str, cs: CsProject, ref: ImportRef | None, detail: str, verified: bool | None
) -> Candidate:
    ev = Evidence(
        "index:nuget" if ref is None or ref_kind(ref) != "rule" else "rule",
        ref.file if ref else cs.path,
        ref.line if ref else None,
        detail,
    )
    return Candidate(
        ecosystem=Ecosystem.NUGET,
        name=pid,
        manifest=cs.path,
        section=Section.RUNTIME,
        import_names=[ref.module] if ref else [],
        evidence=[ev],
        verified=verified,
        facts=CsDepFacts(kind=nx.kind_of(pid)),
    )


def _condition(c: Candidate, pid: str, cs: CsProject) -> None:
    """Mark a package only some target frameworks need (the others have it in the box)."""
    missing = nx.missing_tfms(pid, cs)
    if missing and "*" not in missing and set(missing) != set(cs.target_frameworks):
        set_dep(c, tfms=tuple(missing))


def _online_guess(ns: str, cs: CsProject, ref: ImportRef, ctx: Context) -> Candidate | None:
    """Check namespace prefixes (longest first) with the NuGet client; None offline."""
    if ns.split(".", 1)[0] in _GENERIC_ROOTS:
        return None
    # whole-segment prefixes, longest first; a lone first segment only for a one-part name
    names = [p for p in nx.prefixes(ns) if "." in p or p == ns][:4]
    for name in names:
        answer = ctx.registries.exists(Ecosystem.NUGET, name)
        if answer is None:
            return None
        if answer:
            return _candidate(name, cs, ref, f"namespace {ns}; registry has {name}", True)
    return None


def _strong_marker(marker: str) -> bool:
    """Markers specific enough to count without their namespace being imported."""
    return "." in marker or (marker.startswith(("Use", "Add")) and len(marker) > 6)


def _marker_candidates(use: ProjectUse, names: dict[str, ImportRef]) -> list[Candidate]:
    """Packages shown by their entry points where no `using` names the namespace: the
    SDK's implicit usings (`AddAzureSqlServer` in an Aspire AppHost) and, under central
    package management, the listed packages whose extension methods the code calls."""
    cs = use.cs
    pool = cs.pool if cs.central else None
    out: list[Candidate] = []
    anchor = ImportRef("", cs.path, 0, "csharp", facts=CsRefFacts(kind="rule"))
    for ns in nx.implicit_usings(cs):
        if ns in names:
            continue
        _, entries = nx.lookup(ns)
        for e in choose(entries, use, pool):
            if e.markers and not nx.package_in_box(e.package, cs):
                c = _candidate(e.package, cs, anchor, f"implicit using {ns}", True)
                set_dep(c, direct=True)
                out.append(c)
    if pool:
        for pid in pool:
            if _builder_method_called(pid, use) and not nx.package_in_box(pid, cs):
                c = _candidate(pid, cs, anchor, f"configures the {pid} sink", True)
                set_dep(c, direct=True)
                out.append(c)
                continue
            info = nx.package_info(pid)
            for entry in (info or {}).get("namespaces", []):
                hit = next(
                    (
                        m
                        for m in entry.get("markers", [])
                        if _strong_marker(m) and use.uses_marker(m)
                    ),
                    None,
                )
                if hit and not nx.package_in_box(pid, cs):
                    c = _candidate(pid, cs, anchor, f"calls {hit}", True)
                    set_dep(c, direct=True)
                    out.append(c)
                    break
    return out


def _builder_method_called(pid: str, use: ProjectUse) -> bool:
    """Packages of a builder family are named after their configuration method
    (Serilog.Sinks.Map → `WriteTo.Map`, data/csharp/builder_methods.json), so a listed
    one the index does not know is still recognised by its call."""
    for row in builder_families():
        prefix = row["package_prefix"]
        method = pid[len(prefix) :]
        if not pid.lower().startswith(prefix.lower()) or "." in method:
            continue
        if nx.package_info(pid):
            return False  # the index's own markers decide
        return use.uses_marker(f"{row['builder']}.{method}")
    return False


def _code_roots(uses: dict[str, ProjectUse]) -> set[str]:
    """First segments a fully-qualified name in code must start with to be looked up."""
    roots = {ns.split(".", 1)[0] for ns in nx.by_namespace()}
    for use in uses.values():
        roots.update(p.split(".", 1)[0] for p in use.cs.pool)
    return roots


def map_imports(project: Project, refs: list[ImportRef], ctx: Context) -> list[Candidate]:
    layout, uses = gather(project, refs)
    internal = internal_namespaces(uses)
    # ids the repository's manifests already reference (other projects, props files)
    declared = {
        pid: ""
        for m in project.manifests_of(Ecosystem.NUGET)
        for kind in ("PackageReference", "PackageVersion")
        for pid in m.declared.get(kind, [])
    }
    roots = _code_roots(uses)
    candidates: list[Candidate] = []
    own_types = {t[1] for use in uses.values() for f in use.files for t in file_facts(f).types}
    # a nested class (`SystemPermissions.Hangfire`) is read as `Hangfire.Resource` too
    own_types.update(n for use in uses.values() for f in use.files for n in file_facts(f).nested)
    for use in uses.values():
        unresolved: dict[str, ImportRef] = {}
        names: dict[str, ImportRef] = dict(use.usings)
        listed: dict[str, ImportRef] = {}
        for q, r in use.qualified.items():
            first = q.split(".", 1)[0]
            # `Markdown.ToHtml(…)` on a type of this repository is a member access
            if first in roots and first not in own_types and q not in names:
                names[q] = r
            elif use.cs.central and first not in own_types and first not in internal:
                hit = _qualified_pool_id(q, use.cs.pool)
                if hit and hit not in listed:
                    listed[hit] = r
        for pid, r in listed.items():
            if pid.lower() not in use.own_ids and not nx.package_in_box(pid, use.cs):
                candidates.append(
                    _candidate(pid, use.cs, r, f"fully qualified {r.module} names {pid}", True)
                )
        for ns, r in names.items():
            found, resolved = namespace_candidates(ns, r, use, internal, ctx)
            candidates.extend(found)
            if not resolved and ref_kind(r) == "using":
                unresolved[ns] = r
        candidates.extend(_marker_candidates(use, names))
        for ns, r in unresolved.items():
            known = _pool_lookup(ns, declared)
            if known:
                candidates.append(
                    _candidate(
                        known, use.cs, r, f"namespace {ns}; the repository references it", True
                    )
                )
                continue
            if use.cs.central:
                ctx.info(
                    f"namespace {ns} matches no package in Directory.Packages.props "
                    "or the shipped index",
                    r.file,
                )
                continue
            guess = _online_guess(ns, use.cs, r, ctx)
            if guess is not None:
                candidates.append(guess)
            elif ctx.options.keep_unverified:
                candidates.append(_candidate(ns, use.cs, r, f"namespace {ns}", None))
            else:
                ctx.info(
                    f"namespace {ns}: no package found in the shipped index"
                    + ("" if ctx.registries.offline else " or the registry"),
                    r.file,
                )
    for use in uses.values():
        if use.cs.needs_aspnetcore_framework:
            c = _candidate(nx.shared_framework(), use.cs, None, "uses ASP.NET Core", True)
            set_dep(c, kind="framework", framework_reference=True)
            # part of the SDK, not a registry package: never looked up or checked as one
            c.internal = True
            candidates.append(c)
    references = project_references(layout, uses, ctx)
    references = separately_released(references, layout)
    candidates.extend(published_instead(references, layout, solutions(project, ctx), ctx))
    return candidates
