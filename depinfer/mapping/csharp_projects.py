"""ProjectReferences: which .csproj uses the types another .csproj declares.

A project references another when one of its files names a type the other declares, in a
namespace that file can see (its usings, the project's global and implicit usings, or the
file's own enclosing namespaces), or imports a namespace only that other project
declares (extension-method namespaces). The edges form a networkx graph; cycles are
broken at their weakest edge (MSBuild forbids them), edges into test projects are dropped,
and a test project with no edge is given the project its name says it tests.
"""

from __future__ import annotations

import re
from collections import defaultdict
from typing import TYPE_CHECKING

import networkx as nx

from depinfer.context import Context
from depinfer.model import Candidate, Ecosystem, Evidence, Section

if TYPE_CHECKING:
    from depinfer.analyzers.csharp_layout import CsProject
    from depinfer.mapping.csharp import ProjectUse

_TEST_SUFFIX = re.compile(
    r"[._-]?(unit|integration|functional|acceptance|architecture|e2e)?[._-]?(tests?|specs?)$",
    re.I,
)


def _prefixes(ns: str) -> list[str]:
    parts = ns.split(".")
    return [".".join(parts[:i]) for i in range(len(parts), 0, -1)]


def reference_graph(layout: list[CsProject], uses: dict[str, ProjectUse]) -> nx.DiGraph:
    graph = nx.DiGraph()
    for cs in layout:
        graph.add_node(cs.path, test=cs.is_test)
    types: dict[str, list[tuple[str, str]]] = defaultdict(list)  # name -> [(project, ns)]
    ns_owners: dict[str, set[str]] = defaultdict(set)
    own_types: dict[str, set[str]] = defaultdict(set)
    for path, use in uses.items():
        for f in use.files:
            for ns, name, _public in f.extra.get("types", []):
                types[name].append((path, ns))
                own_types[path].add(name)
        for ns in use.namespaces:
            ns_owners[ns].add(path)

    def add(src: str, dst: str, weight: float, why: str) -> None:
        if src == dst:
            return
        if graph.has_edge(src, dst):
            graph[src][dst]["weight"] += weight
        else:
            graph.add_edge(src, dst, weight=weight, why=why)

    for path, use in uses.items():
        declared_here = use.namespaces
        for f in use.files:
            visible = set(use.global_usings) | use.file_usings.get(f.file, set()) | {""}
            for ns in f.extra.get("namespaces", []):
                visible.update(_prefixes(ns))
            seen: set[tuple[str, str]] = set()
            for ident in f.extra.get("identifiers", []):
                if ident in own_types[path]:
                    continue
                for other, ns in types.get(ident, ()):
                    if other != path and ns in visible and (other, ident) not in seen:
                        seen.add((other, ident))
                        add(path, other, 1.0, f"uses {ns}.{ident}" if ns else f"uses {ident}")
        for ns in use.usings:
            owners = ns_owners.get(ns, set())
            if owners and ns not in declared_here and len(owners) == 1:
                (other,) = owners
                add(path, other, 0.5, f"imports namespace {ns}")
        for q in use.qualified:
            for p in _prefixes(q)[1:]:
                owners = ns_owners.get(p)
                if owners:
                    name = q[len(p) + 1 :].split(".", 1)[0]
                    for other in owners:
                        if name in own_types[other]:
                            add(path, other, 1.0, f"uses {p}.{name}")
                    break
    return graph


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


def _test_subject(cs: CsProject, layout: list[CsProject]) -> CsProject | None:
    base = _TEST_SUFFIX.sub("", cs.name)
    if not base or base == cs.name:
        return None
    by_name = {_name_key(o.name): o for o in layout if not o.is_test and o is not cs}
    return by_name.get(_name_key(base))


def project_references(
    layout: list[CsProject], uses: dict[str, ProjectUse], ctx: Context
) -> list[Candidate]:
    graph = reference_graph(layout, uses)
    _drop_test_targets(graph)
    _break_cycles(graph)
    by_path = {cs.path: cs for cs in layout}
    for cs in layout:
        if cs.is_test and graph.out_degree(cs.path) == 0:
            subject = _test_subject(cs, layout)
            if subject is not None:
                graph.add_edge(cs.path, subject.path, weight=0.1, why="test project name")
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
                extra={"weight": data["weight"]},
            )
        )
    return out
