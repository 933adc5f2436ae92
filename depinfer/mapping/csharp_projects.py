"""ProjectReferences: which .csproj uses the types another .csproj declares.

A project references another when one of its files names a type the other declares, in a
namespace that file can see (its usings, the project's global and implicit usings, or the
file's own enclosing namespaces), or imports a namespace only that other project
declares (extension-method namespaces). The edges form a networkx graph; cycles are
broken at their weakest edge (MSBuild forbids them), edges into test projects are dropped,
and a test project with no edge is given the project its name says it tests.
"""

from __future__ import annotations

import posixpath
import re
from collections import defaultdict
from dataclasses import dataclass, field

import networkx as nx

from depinfer.analyzers.csharp_layout import CsProject, tfm_major
from depinfer.context import Context
from depinfer.facts.csharp import CsDepFacts, file_facts
from depinfer.mapping.csharp_use import ProjectUse, is_apphost
from depinfer.mapping.nuget_index import app_frameworks, inbox, is_web
from depinfer.model import Candidate, Ecosystem, Evidence, Section

_TEST_SUFFIX = re.compile(
    r"[._-]?(unit|integration|functional|acceptance|architecture|e2e)?[._-]?(tests?|specs?)$",
    re.I,
)


def _prefixes(ns: str) -> list[str]:
    parts = ns.split(".")
    return [".".join(parts[:i]) for i in range(len(parts), 0, -1)]


def _common_depth(a: str, b: str) -> int:
    pa, pb = a.split("/")[:-1], b.split("/")[:-1]
    n = 0
    for x, y in zip(pa, pb, strict=False):
        if x != y:
            break
        n += 1
    return n


# How much one use counts, by how the namespace became visible: an explicit `using` or a
# qualified name is firm; an enclosing namespace or the global namespace is weaker
# (another project's type of the same name may be meant). An edge needs a total of 1.
_FIRM, _ENCLOSING, _GLOBAL = 1.0, 0.5, 0.34


@dataclass
class Declarations:
    """What each project of the repository declares, as other projects' code may name it."""

    # public type or extension method name -> [(project, namespace)]
    symbols: dict[str, list[tuple[str, str]]] = field(default_factory=lambda: defaultdict(list))
    ns_owners: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    own_symbols: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    # types of files compiled in through Compile Include: the project's own copies
    linked_symbols: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    extension_names: set[str] = field(default_factory=set)
    extension_entries: set[tuple[str, str, str]] = field(
        default_factory=set
    )  # (project, ns, method)
    # (project, namespace, method) -> (fewest, most) arguments of each overload
    ext_arity: dict[tuple[str, str, str], list[tuple[int, int]]] = field(
        default_factory=lambda: defaultdict(list)
    )
    ns_types: dict[tuple[str, str], set[str]] = field(default_factory=lambda: defaultdict(set))
    # internal types count only for the assemblies InternalsVisibleTo names
    internal_symbols: dict[str, list[tuple[str, str]]] = field(
        default_factory=lambda: defaultdict(list)
    )
    friends: dict[str, set[str]] = field(default_factory=dict)


def collect_declarations(uses: dict[str, ProjectUse]) -> Declarations:
    """Types, extension methods and namespaces each project's files declare."""
    d = Declarations()
    d.friends = {
        path: {n.lower() for n in use.cs.manifest.data.get("internals_visible_to", [])}
        for path, use in uses.items()
    }
    for path, use in uses.items():
        linked = use.cs.linked
        for f in use.files:
            summary = file_facts(f)
            if f.file in linked:
                # a file compiled in through Compile Include: its types are this
                # project's own copy, never a reason for others to reference it
                for _ns, name, _public in summary.types:
                    d.linked_symbols[path].add(name)
                continue
            for ns, name, public in summary.types:
                d.own_symbols[path].add(name)
                d.ns_types[(path, ns)].add(name)
                if public:
                    d.symbols[name].append((path, ns))
                else:
                    d.internal_symbols[name].append((path, ns))
            d.own_symbols[path].update(summary.nested)
            for ns, name, arities in summary.extension_arity:
                d.ext_arity[(path, ns, name)].extend(tuple(a) for a in arities)
            for ns, name in summary.extensions:
                d.extension_entries.add((path, ns, name))
                d.symbols[name].append((path, ns))
                d.own_symbols[path].add(name)
                d.extension_names.add(name)
            for ns in summary.namespaces:
                d.ns_owners[ns].add(path)
    return d


@dataclass
class EdgeWeights:
    """The evidence gathered for each (project, referenced project) edge."""

    weights: dict[tuple[str, str], float] = field(default_factory=lambda: defaultdict(float))
    # the part of each weight that rests on extension-method names alone
    by_extension: dict[tuple[str, str], float] = field(default_factory=lambda: defaultdict(float))
    why: dict[tuple[str, str], str] = field(default_factory=dict)

    def add(self, src: str, dst: str, weight: float, reason: str, extension: bool = False) -> None:
        """One more use of `dst` by `src` (none of a project by itself)."""
        if src != dst:
            self.weights[(src, dst)] += weight
            if extension:
                self.by_extension[(src, dst)] += weight
            self.why.setdefault((src, dst), reason)


@dataclass(frozen=True)
class FileView:
    """How one file of a project sees names: its firm and enclosing namespaces, its calls."""

    path: str  # the project
    firm: frozenset[str]  # namespaces its usings (and the project's global ones) open
    enclosing: frozenset[str]  # namespaces it sits in, with their prefixes
    called: frozenset[str]  # names it calls as members
    call_arity: dict[str, tuple[int, ...]]  # member call -> argument counts seen
    host_factory: bool  # it uses WebApplicationFactory (tests an ASP.NET Core app)
    web: dict[str, bool]  # project -> an ASP.NET Core project


def _extension_call_fits(
    view: FileView, decl: Declarations, other: str, ns: str, ident: str
) -> bool:
    """A name another project declares as an extension method counts only where it is
    called, with an argument count one of its overloads takes."""
    if (other, ns, ident) not in decl.extension_entries:
        return True
    if ident not in view.called:
        return False  # `new Color(…)` is no call of a `Color(this …)` extension
    overloads = decl.ext_arity.get((other, ns, ident))
    counts = view.call_arity.get(ident)
    return not (
        overloads and counts and not any(lo <= n <= hi for n in counts for lo, hi in overloads)
    )


def _by_using(view: FileView, decl: Declarations, other: str, ns: str, ident: str) -> float | None:
    """The file imports the namespace (or the project does, globally): a firm use."""
    return _FIRM if ns in view.firm else None


def _by_enclosing(
    view: FileView, decl: Declarations, other: str, ns: str, ident: str
) -> float | None:
    """The file sits in the namespace: firm for an extension method or a type only one
    project declares, weaker otherwise (another project's type of that name may be meant)."""
    if ns not in view.enclosing:
        return None
    unique = len({o for o, _ in decl.symbols.get(ident, ())}) == 1
    return _FIRM if ident in decl.extension_names or unique else _ENCLOSING


def _by_tested_program(
    view: FileView, decl: Declarations, other: str, ns: str, ident: str
) -> float | None:
    """WebApplicationFactory<Program>: the docs' way to test an ASP.NET Core app; any
    other `Program` in the global namespace is some project's entry point (no use)."""
    if ns != "" or ident != "Program":
        return None
    return _FIRM if view.host_factory and view.web.get(other) else 0.0


def _by_global(view: FileView, decl: Declarations, other: str, ns: str, ident: str) -> float | None:
    """A type in the global namespace: visible everywhere, so a weak sign."""
    return _GLOBAL if ns == "" else None


# How a file can see another project's type, tried in order; the first that answers
# decides (0.0: it sees it, but that is no use of the project).
VISIBILITY = (_by_using, _by_enclosing, _by_tested_program, _by_global)


def _options(
    view: FileView, decl: Declarations, me: str, ident: str
) -> list[tuple[str, str, float, str]]:
    """(project, namespace, weight, strategy) of each other project's declaration `ident`
    may mean."""
    visible_internal = [
        (o, ns) for o, ns in decl.internal_symbols.get(ident, ()) if me in decl.friends.get(o, ())
    ]
    options = []
    for other, ns in list(decl.symbols.get(ident, ())) + visible_internal:
        if other == view.path or not _extension_call_fits(view, decl, other, ns, ident):
            continue
        for strategy in VISIBILITY:
            weight = strategy(view, decl, other, ns, ident)
            if weight is not None:
                if weight:
                    options.append((other, ns, weight, strategy.__name__[1:]))
                break
    return options


def _nearest(
    path: str, options: list[tuple[str, str, float, str]]
) -> list[tuple[str, str, float, str]]:
    """The same name in several projects: the nearest in the tree is meant; still several,
    the strongest reading takes it (a `using` over an enclosing namespace), shared on a tie."""
    best = max(_common_depth(path, o[0]) for o in options)
    nearest = [o for o in options if _common_depth(path, o[0]) == best]
    top = max(o[2] for o in nearest)
    return [o for o in nearest if o[2] == top]


def _type_uses(
    path: str,
    use: ProjectUse,
    decl: Declarations,
    web: dict[str, bool],
    edges: EdgeWeights,
) -> None:
    """Edges from the names each file of the project uses to the projects declaring them."""
    me = use.cs.assembly_name.lower()
    for f in use.files:
        summary = file_facts(f)
        enclosing: set[str] = set()
        for ns in summary.namespaces:
            enclosing.update(_prefixes(ns))
        call_arity = summary.call_counts()
        view = FileView(
            path=path,
            firm=frozenset(set(use.global_usings) | use.file_usings.get(f.file, set())),
            enclosing=frozenset(enclosing),
            called=frozenset(summary.calls() | set(call_arity)),
            call_arity=call_arity,
            host_factory="WebApplicationFactory" in summary.identifiers,
            web=web,
        )
        # `args.Context` reads a member, not a type; `x.Name(…)` counts only as a call
        # of another project's extension method
        member_only = set(summary.member_only)
        member_only |= set(summary.called_only) - decl.extension_names
        seen: set[tuple[str, str]] = set()
        for ident in summary.identifiers:
            if ident in decl.own_symbols[path] or ident in decl.linked_symbols[path]:
                continue
            if ident in member_only:
                continue
            options = _options(view, decl, me, ident)
            if not options:
                continue
            nearest = _nearest(path, options)
            for other, ns, w, strategy in nearest:
                if (other, ident) not in seen:
                    seen.add((other, ident))
                    share = w / len({o[0] for o in nearest})
                    reason = f"uses {ns}.{ident}" if ns else f"uses {ident}"
                    reason += f" [{strategy}]"  # `--explain` names how the file sees it
                    extension = (other, ns, ident) in decl.extension_entries
                    edges.add(path, other, share, reason, extension)


def _namespace_imports(path: str, use: ProjectUse, decl: Declarations, edges: EdgeWeights) -> None:
    """Edges from `using` a namespace only one other project declares (extension methods)."""
    for ns in use.usings:
        owners = decl.ns_owners.get(ns, set()) - {path}
        if owners and ns not in use.namespaces and len(owners) == 1:
            (other,) = owners
            edges.add(path, other, 0.5, f"imports namespace {ns}")


def _qualified_uses(
    path: str,
    use: ProjectUse,
    uses: dict[str, ProjectUse],
    decl: Declarations,
    edges: EdgeWeights,
) -> None:
    """Edges from fully-qualified names (and an Aspire AppHost's `Projects.X` resources)."""
    for q in use.qualified:
        if (
            q.startswith(app_frameworks()["aspire"]["resource_namespace"] + ".")
            and q.count(".") >= 1
        ):
            # Aspire AppHost: `Projects.My_Web` is generated for each referenced project
            wanted = q.split(".")[1]
            for other in uses:
                if _aspire_name(uses[other].cs.name) == wanted:
                    edges.add(path, other, _FIRM, f"Aspire resource {q}")
            continue
        # a qualified name is looked up from each enclosing namespace outwards
        bases = {""}
        for ns in use.namespaces:
            bases.update(_prefixes(ns))
        for base in sorted(bases, key=len, reverse=True):
            full = f"{base}.{q}" if base else q
            hit = False
            for p in _prefixes(full)[1:]:
                owners = decl.ns_owners.get(p, set()) - {path}
                name = full[len(p) + 1 :].split(".", 1)[0]
                for other in owners:
                    if name in decl.ns_types[(other, p)] and name not in decl.linked_symbols[path]:
                        edges.add(path, other, _FIRM, f"uses {p}.{name}")
                        hit = True
                if owners:
                    break
            if hit:
                break


def _add_kept_edges(
    graph: nx.DiGraph, edges: EdgeWeights, layout: list[CsProject], all_evidence: bool
) -> None:
    """The edges with enough evidence whose target frameworks fit."""
    tfms = {cs.path: cs.target_frameworks for cs in layout}
    by_path = {cs.path: cs for cs in layout}
    floor = 1e-9 if all_evidence else 1.0
    for (src, dst), w in edges.weights.items():
        if w < floor or not can_reference(tfms.get(src, []), tfms.get(dst, [])):
            continue
        if (
            not all_evidence
            and w - edges.by_extension[(src, dst)] < 1.0
            and is_application(by_path[dst])
            and not by_path[src].is_test
        ):
            # an application is referenced for its types (by its tests, its host); a
            # call named like one of its extension methods (`WithReference`) is most
            # likely the framework's own method of that name
            continue
        graph.add_edge(src, dst, weight=w, why=edges.why[(src, dst)])


def _add_build_edges(graph: nx.DiGraph, layout: list[CsProject]) -> None:
    """Edges the project files themselves call for: trimmer roots, embedded build output."""
    # the trimmer keeps a TrimmerRootAssembly whole (.NET trimming docs): it must be one
    # of the project's references, so a root named after a project here is one
    by_assembly = {cs.assembly_name.lower(): cs for cs in layout}
    for cs in layout:
        for name in cs.manifest.data.get("trimmer_roots", []):
            other = by_assembly.get(name.lower())
            if other is not None and other is not cs and not graph.has_edge(cs.path, other.path):
                graph.add_edge(
                    cs.path, other.path, weight=1.0, why=f"TrimmerRootAssembly {name}", named=True
                )
    for cs in layout:
        for other in _embedded_outputs(cs, layout):
            if not graph.has_edge(cs.path, other.path):
                graph.add_edge(
                    cs.path, other.path, weight=1.0, why="embeds its build output", build_order=True
                )


def reference_graph(
    layout: list[CsProject], uses: dict[str, ProjectUse], all_evidence: bool = False
) -> nx.DiGraph:
    """Which project uses which, weighted by how firmly (1.0 = one firm use). With
    `all_evidence` every edge any use supports is kept (the evidence ceiling)."""
    graph = nx.DiGraph()
    for cs in layout:
        graph.add_node(cs.path, test=cs.is_test)
    decl = collect_declarations(uses)
    web = {path: is_web(use.cs) for path, use in uses.items()}
    edges = EdgeWeights()
    for path, use in uses.items():
        _type_uses(path, use, decl, web, edges)
        _namespace_imports(path, use, decl, edges)
        _qualified_uses(path, use, uses, decl, edges)
    _add_kept_edges(graph, edges, layout, all_evidence)
    _add_build_edges(graph, layout)
    return graph


def is_application(cs: CsProject) -> bool:
    """An executable: OutputType Exe/WinExe, the Web SDK, or an Aspire AppHost."""
    output = cs.properties.get("OutputType", "").lower()
    if output == "library":
        return False  # a Web SDK project built as a library (shared sample hosting code)
    return (
        output in ("exe", "winexe")
        or cs.sdk.split("/", 1)[0] in inbox()["web_sdks"]
        or is_apphost(cs)
    )


def _tfm_serves(src: str, dst: str) -> bool:
    """Whether a project targeting `src` can consume a build for `dst` (the .NET docs'
    compatibility table: .NET Standard 2.0 needs .NET Framework 4.6.1+ or .NET Core 2.0+)."""
    sf, sv = tfm_major(src)
    df, dv = tfm_major(dst)
    if "unknown" in (sf, df):
        return True
    if df == "netstandard":
        if sf == "netstandard":
            return sv >= dv
        if sf == "netcore":
            return True
        return sv >= 4.61 if dv >= 1.5 else sv >= 4.5 if dv <= 2.0 else False
    if df == sf:
        return sv >= dv
    # .NET (Core) may still use a .NET Framework build (the compatibility shim, warning
    # NU1702); the other way round never works
    return sf == "netcore" and df == "netfx"


def can_reference(src_tfms: list[str], dst_tfms: list[str]) -> bool:
    """Every target of the referencing project finds a compatible target in the other
    (NuGet's nearest-framework rule); unknown targets never rule a reference out."""
    if not src_tfms or not dst_tfms:
        return True
    return all(any(_tfm_serves(s, d) for d in dst_tfms) for s in src_tfms)


def _embedded_outputs(cs: CsProject, layout: list[CsProject]) -> list[CsProject]:
    """Projects whose build output (`../Other/bin/...`) this project's items include: the
    build order needs a ProjectReference (an executable embedded as a resource)."""
    out = []
    for item in cs.manifest.data.get("output_items", []):
        target = posixpath.normpath(posixpath.join(cs.directory, item.replace("\\", "/")))
        for other in layout:
            if other is not cs and other.directory and target.startswith(other.directory + "/bin/"):
                out.append(other)
    return out


def _aspire_name(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_]", "_", name)


def _drop_test_targets(graph: nx.DiGraph) -> None:
    for src, dst in list(graph.edges):
        if graph.nodes[dst].get("test") and not graph.nodes[src].get("test"):
            graph.remove_edge(src, dst)


def _break_cycles(graph: nx.DiGraph) -> None:
    while True:
        try:
            cycle = nx.find_cycle(graph)
        except nx.NetworkXNoCycle:
            return
        weakest = min(cycle, key=lambda e: (graph.edges[e[0], e[1]]["weight"], e))
        graph.remove_edge(weakest[0], weakest[1])


def _name_key(name: str) -> str:
    return name.lower().replace("-", ".").replace("_", ".")


def _test_subject(cs: CsProject, layout: list[CsProject], exact: bool = False) -> CsProject | None:
    """The project a test project's name says it tests: `A.B.Tests` → `A.B`, else (unless
    `exact`) the longest shorter prefix, `A`."""
    base = _TEST_SUFFIX.sub("", cs.name)
    if not base or base == cs.name:
        return None
    by_name = {_name_key(o.name): o for o in layout if not o.is_test and o is not cs}
    parts = _name_key(base).split(".")
    for i in range(len(parts), 0 if not exact else len(parts) - 1, -1):
        hit = by_name.get(".".join(parts[:i]))
        if hit is not None:
            return hit
    return None


def test_subject(cs: CsProject, layout: list[CsProject], exact: bool = False) -> CsProject | None:
    """The project a test project's name says it tests (public form of _test_subject)."""
    return _test_subject(cs, layout, exact)


def is_shell(use: ProjectUse) -> bool:
    """Sources, but no type declared in them (a template's test project holding only its
    global usings). A project with no sources at all may be generated instead."""
    return bool(use.files) and not any(file_facts(f).types for f in use.files)


def _tested_apphost(
    cs: CsProject, use: ProjectUse, layout: list[CsProject], graph: nx.DiGraph
) -> CsProject | None:
    """Aspire's testing package starts an AppHost: its docs have the test project reference
    the AppHost project. A test project using it with no AppHost among its references gets
    the nearest one in the tree (none when two are equally near)."""
    testing = app_frameworks()["aspire"]["testing_package"]
    if not any(
        u == testing or u.startswith(testing + ".")
        for u in list(use.usings) + list(use.global_usings)
    ):
        return None
    hosts = [o for o in layout if o is not cs and is_apphost(o)]
    reached = nx.descendants(graph, cs.path) if cs.path in graph else set()
    if not hosts or any(h.path in reached for h in hosts):
        return None
    best = max(_common_depth(cs.path, h.path) for h in hosts)
    nearest = [h for h in hosts if _common_depth(cs.path, h.path) == best]
    if len(nearest) > 1:  # equally near: the one sharing most of the test project's name
        shared = {h.path: _common_name(cs.name, h.name) for h in nearest}
        top = max(shared.values())
        nearest = [h for h in nearest if shared[h.path] == top and top > 0]
    return nearest[0] if len(nearest) == 1 else None


def _common_name(a: str, b: str) -> int:
    """How many leading dotted segments two project names share."""
    n = 0
    for x, y in zip(a.lower().split("."), b.lower().split("."), strict=False):
        if x != y:
            break
        n += 1
    return n


_GENERATOR_SUFFIXES = (".generator", ".generators", ".sourcegenerator", ".sourcegenerators")


def generator_of(cs: CsProject, layout: list[CsProject]) -> CsProject | None:
    """A source-generator project named after this one (`X.Tests.Generator` for `X.Tests`):
    a project with no sources of its own is generated by it."""
    own = _name_key(cs.name)
    for o in layout:
        if o is not cs and any(_name_key(o.name) == own + s for s in _GENERATOR_SUFFIXES):
            return o
    return None


def is_roslyn_component(cs: CsProject, use: ProjectUse) -> bool:
    """A source generator / analyzer project: `IsRoslynComponent`, or code that registers
    one of Roslyn's plug-in kinds (the `roslyn` row of data/csharp/frameworks.json). A
    test project is none (its test analyzers run there)."""
    if cs.is_test:
        return False
    roslyn = app_frameworks()["roslyn"]
    if cs.properties.get(roslyn["component_property"], "").lower() == "true":
        return True
    return any(a in use.attributes for a in roslyn["plugin_attributes"]) and any(
        u.startswith(roslyn["namespace"]) for u in use.usings
    )


def packed_plugins(layout: list[CsProject], plugins: set[str]) -> list[tuple[str, str, str]]:
    """(library, plug-in, why): a plug-in named after a library of the repository
    (`Humanizer.Analyzers.Roslyn48`, `Refit.Analyzers` for `Humanizer`, `Refit`) ships in
    that library's package, so the library references it to build and pack it. The
    project with the longest matching name decides: a test project's generator
    (`X.Tests.Generator`) belongs to the tests, not to a library."""
    keys = sorted(((_name_key(cs.name), cs) for cs in layout), key=lambda kc: -len(kc[0]))
    out = []
    for plugin in layout:
        if plugin.path not in plugins or plugin.is_test:
            continue
        if plugin.files and all(f.kind.value == "test" for f in plugin.files):
            continue  # a test harness built as a plug-in ships in no package
        own = _name_key(plugin.name)
        owner = next((cs for k, cs in keys if cs is not plugin and own.startswith(k + ".")), None)
        if owner is None or owner.is_test or owner.path in plugins:
            continue
        out.append((owner.path, plugin.path, f"packs its plug-in {plugin.name}"))
    return out


def generator_references(
    layout: list[CsProject], uses: dict[str, ProjectUse]
) -> list[tuple[str, str, str]]:
    """(project, generator project, why): a source generator of this repository that
    finds its input by attribute metadata names ("Refit.GetAttribute") declared by a
    project here runs in each project that applies those attributes; such a project
    references the generator as an analyzer (the library's package would bundle it)."""
    spec = app_frameworks()["roslyn"]
    roslyn = spec["namespace"]
    declared: dict[tuple[str, str], str] = {}
    for cs in layout:
        for f in uses[cs.path].files:
            if f.file in cs.linked:
                continue  # a linked copy (the generator compiling its attribute's source)
            for ns, name, *_ in file_facts(f).types:
                declared.setdefault((ns, name), cs.path)
    out = []
    for gen in layout:
        use = uses[gen.path]
        if spec["generator_attribute"] not in use.attributes or not any(
            i in use.identifiers for i in spec["generator_interfaces"]
        ):
            continue
        wanted: dict[str, set[str]] = defaultdict(set)  # short attribute name -> namespaces
        owners: set[str] = set()
        for f in use.files:
            for full in file_facts(f).attribute_names:
                ns, _, name = full.rpartition(".")
                owner = declared.get((ns, name))
                if owner is not None and owner != gen.path:
                    wanted[name[: -len("Attribute")]].add(ns)
                    owners.add(owner)
        if not wanted:
            continue
        for cs in layout:
            other = uses[cs.path]
            if cs is gen or cs.path in owners or any(u.startswith(roslyn) for u in other.usings):
                continue
            hits = sorted(
                a
                for a in wanted
                if a in other.attributes
                and any(
                    n == ns or n.startswith(ns + ".")
                    for ns in wanted[a]
                    for n in [*other.usings, *other.namespaces]
                )
            )
            if hits:
                out.append((cs.path, gen.path, f"its source generator reads [{hits[0]}]"))
    return _one_variant(out, {cs.path: cs for cs in layout})


# `X.SourceGenerators.Roslyn4120`: one build of a generator per Roslyn version it supports
_VARIANT = re.compile(r"[._-]?(roslyn\d+)$", re.I)


def _one_variant(
    edges: list[tuple[str, str, str]], by_path: dict[str, CsProject]
) -> list[tuple[str, str, str]]:
    """A project whose name carries the Roslyn-version token of one build of a generator
    (`X.Tests.Roslyn4001`, `X.Roslyn4001.UnitTests`) uses that build only, not every
    build of the same generator."""
    out = []
    for src, dst, why in edges:
        m = _VARIANT.search(by_path[dst].name)
        if m:
            own = {t.lower() for t in re.findall(r"roslyn\d+", by_path[src].name, re.I)}
            if own and m.group(1).lower() not in own:
                continue
        out.append((src, dst, why))
    return out


def traversal_references(layout: list[CsProject]) -> list[tuple[str, str]]:
    """(traversal project, project): a project on the Microsoft.Build.Traversal SDK exists
    to build others (the SDK's README: it references the projects to build, usually with
    wildcards over its folder), so it references every project in and below its folder
    except other traversal projects."""
    traversal = app_frameworks()["traversal"]["sdk"]
    out = []
    for cs in layout:
        if traversal not in cs.sdk_names:
            continue
        prefix = cs.directory + "/" if cs.directory else ""
        for other in layout:
            if (
                other is not cs
                and other.path.startswith(prefix)
                and traversal not in other.sdk_names
                and other.files  # not a docs or CI folder's item-only project
            ):
                out.append((cs.path, other.path))
    return out


def _add_inherited(graph: nx.DiGraph, layout: list[CsProject]) -> None:
    """References a Directory.Build file makes for the project: already there, never
    written, but what they bring flows on like any other reference."""
    for cs in layout:
        for dst in cs.inherited_projects:
            if graph.has_edge(cs.path, dst):
                graph[cs.path][dst]["inherited"] = True
            elif not nx.has_path(graph, dst, cs.path) if dst in graph else True:
                graph.add_edge(cs.path, dst, weight=1.0, why="Directory.Build", inherited=True)


def _add_named_by_convention(
    graph: nx.DiGraph, layout: list[CsProject], uses: dict[str, ProjectUse]
) -> None:
    """Edges the projects' names and roles imply: a generated project's generator, the
    project a test project is named after, the AppHost an Aspire test starts."""
    alone = {
        cs.path: not any(not graph.nodes[d].get("test") for d in graph.successors(cs.path))
        for cs in layout
    }
    for cs in layout:
        if not cs.files:
            generator = generator_of(cs, layout)
            if generator is not None:
                graph.add_edge(cs.path, generator.path, weight=1.0, why="its source generator")
        if cs.is_test:
            # `X.Tests` tests `X`: the convention holds even when the tests only reach X's
            # code through attributes or reflection; a shorter name prefix is only a guess
            # for tests whose code names no other project. A shell that declares no type
            # yet (global usings only) tests nothing.
            subject = _test_subject(cs, layout, exact=not alone[cs.path])
            if (
                subject is not None
                and not is_shell(uses[cs.path])
                and subject.path not in nx.descendants(graph, cs.path)
                and can_reference(cs.target_frameworks, subject.target_frameworks)
            ):
                graph.add_edge(cs.path, subject.path, weight=1.0, why="test project name")
            host = _tested_apphost(cs, uses[cs.path], layout, graph)
            if host is not None:
                graph.add_edge(
                    cs.path,
                    host.path,
                    weight=1.0,
                    why=app_frameworks()["aspire"]["testing_package"],
                )


def _prune_plugins(graph: nx.DiGraph, plugins: set[str]) -> None:
    """A compiler plug-in loads into the compiler, which has none of the repository's
    runtime libraries: it references only other plug-ins (shared analyzer code)."""
    graph.remove_edges_from([(s, d) for s, d in graph.edges if s in plugins and d not in plugins])


def _add_plugin_edges(
    graph: nx.DiGraph, layout: list[CsProject], uses: dict[str, ProjectUse], plugins: set[str]
) -> None:
    """Generators the repository's projects run, plug-ins its libraries pack; a reference
    to a plug-in is an analyzer reference."""
    for src, dst, why in generator_references(layout, uses) + packed_plugins(layout, plugins):
        if not graph.has_edge(src, dst):
            graph.add_edge(src, dst, weight=1.0, why=why, analyzer=True)
    for src, dst in graph.edges:
        if dst in plugins and src not in plugins and not graph.nodes[src].get("test"):
            # a compiler plug-in runs in the compiler: a project referencing one does so as
            # an analyzer (nothing of it reaches the runtime or flows on), whatever names
            # the two share
            graph[src][dst]["analyzer"] = True


def _reference_candidates(graph: nx.DiGraph, layout: list[CsProject]) -> list[Candidate]:
    """One internal candidate per edge, with its C# facts."""
    by_path = {cs.path: cs for cs in layout}
    out: list[Candidate] = []
    for src, dst, data in graph.edges(data=True):
        target = by_path[dst]
        out.append(
            Candidate(
                ecosystem=Ecosystem.NUGET,
                name=target.name,
                manifest=src,
                section=Section.RUNTIME,
                evidence=[Evidence("project-reference", src, None, data.get("why", ""))],
                internal=True,
                path=dst,
                verified=True,
                confidence=min(1.0, data["weight"]),
                facts=CsDepFacts(
                    weight=data["weight"],
                    analyzer=bool(data.get("analyzer")),
                    build_order=bool(data.get("build_order")),
                    inherited=bool(data.get("inherited")),
                    # named by the project file itself: never left to flow from another
                    named=bool(data.get("named")),
                ),
            )
        )
    return out


def project_references(
    layout: list[CsProject], uses: dict[str, ProjectUse], ctx: Context
) -> list[Candidate]:
    """The ProjectReferences each project needs, as internal candidates."""
    graph = reference_graph(layout, uses, ctx.options.all_evidence)
    _drop_test_targets(graph)
    # pruned before cycles are broken: a generator naming its library's attributes is no cycle
    plugins = {cs.path for cs in layout if is_roslyn_component(cs, uses[cs.path])}
    _prune_plugins(graph, plugins)
    _break_cycles(graph)
    _add_inherited(graph, layout)
    _add_named_by_convention(graph, layout, uses)
    _prune_plugins(graph, plugins)
    _add_plugin_edges(graph, layout, uses, plugins)
    for src, dst in traversal_references(layout):
        graph.add_edge(src, dst, weight=1.0, why="traversal project", build_order=True)
    return _reference_candidates(graph, layout)
