"""What the code of each C# project uses: the refs of its files gathered per .csproj.

`gather` is the first C# step after analysis; mapping and rules both read its
`ProjectUse`s (they sit here, the earliest stage that needs them, so neither imports
the other). `conventions()` is the C# conventions table both read.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field, replace
from functools import lru_cache

from depinfer.analyzers.csharp_layout import CsProject, build_layout
from depinfer.data import load_table
from depinfer.facts.csharp import file_facts, ref_facts, ref_kind, ref_project
from depinfer.manifests.csproj import constant_symbols
from depinfer.mapping import nuget_index as nx
from depinfer.model import Ecosystem, ImportRef, Project


@lru_cache(maxsize=1)
def conventions() -> dict:
    """The C# conventions table (test frameworks, polyfills, placement, what brings what)."""
    return load_table("csharp/conventions.json")


@lru_cache(maxsize=1)
def brought_by() -> dict[str, list[str]]:
    """package id -> the packages that depend on it (and so bring it)."""
    return conventions().get("brought_by", {})


def is_apphost(cs: CsProject) -> bool:
    """An Aspire AppHost: its SDK, or the property the SDK sets."""
    aspire = nx.app_frameworks()["aspire"]
    return aspire["apphost_sdk"] in cs.sdk_names or (
        cs.properties.get(aspire["apphost_property"], "").lower() == "true"
    )


@lru_cache(maxsize=1)
def builder_families() -> tuple[dict, ...]:
    """Packages configured by methods chained on a builder property (Serilog's `WriteTo`)."""
    return tuple(load_table("csharp/builder_methods.json")["families"])


@dataclass
class ProjectUse:
    """What the code of one .csproj uses, gathered from its refs."""

    cs: CsProject
    usings: dict[str, ImportRef] = field(default_factory=dict)
    qualified: dict[str, ImportRef] = field(default_factory=dict)
    attributes: dict[str, ImportRef] = field(default_factory=dict)
    identifiers: set[str] = field(default_factory=set)
    # identifiers used somewhere as more than a member read (`x.LoggerFactory`): a type,
    # a call or a standalone name; markers are looked up among these
    marker_names: set[str] = field(default_factory=set)
    pairs: set[str] = field(default_factory=set)
    namespaces: set[str] = field(default_factory=set)
    files: list[ImportRef] = field(default_factory=list)  # file summaries (CsFileFacts)
    file_usings: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    global_usings: set[str] = field(default_factory=set)
    own_ids: set[str] = field(default_factory=set)  # ids this repository builds itself
    repo_ids: set[str] = field(default_factory=set)  # ids its manifests already reference
    # extension methods the repository declares itself: a call of one of these names is no
    # sign of a package's entry point of the same name (its own `AddOpenApi`)
    repo_extensions: set[str] = field(default_factory=set)
    # (namespace, name) of every top-level type the repository declares
    repo_types: set[tuple[str, str]] = field(default_factory=set)

    def uses_marker(self, marker: str) -> bool:
        if marker.startswith("?."):
            # called on a chain whose receiver has no name (`….SetMinimumLevel(l).AddSerilog()`)
            name = marker[2:]
            return name in self.marker_names and not any(p.endswith("." + name) for p in self.pairs)
        if "." in marker:
            if marker in self.pairs:
                return True
            return any(
                marker.startswith(row["builder"] + ".")
                and self._in_lambda(row["builder"], marker[len(row["builder"]) + 1 :])
                for row in builder_families()
            )
        return marker in self.marker_names or marker in self.attributes

    def _in_lambda(self, builder: str, method: str) -> bool:
        """A builder method wrapped by another is configured on the lambda's parameter
        (`WriteTo.Async(a => a.File(…))`, `WriteTo.Map(…, (v, wt) => wt.File(…))`): in a
        project that calls the builder, `<short lower-case parameter>.<Method>` counts."""
        if not any(p.startswith(builder + ".") for p in self.pairs):
            return False
        return any(
            p.endswith("." + method) and _lambda_parameter(p[: -len(method) - 1])
            for p in self.pairs
        )


def _lambda_parameter(name: str) -> bool:
    return 0 < len(name) <= 3 and name.isalpha() and name.islower()


def gather(
    project: Project, refs: list[ImportRef]
) -> tuple[list[CsProject], dict[str, ProjectUse]]:
    """The layout and, per project, what its code uses."""
    layout = build_layout(project)
    uses = {cs.path: ProjectUse(cs) for cs in layout}
    defined = {cs.path: defined_symbols(cs) for cs in layout}
    # symbols the repository's own project files define somewhere: only those are read
    # as off where a project does not define them (others may come from the command line)
    known = set().union(*defined.values()) if defined else set()
    nested: list[tuple[ProjectUse, ImportRef]] = []  # usings inside a namespace
    for r in refs:
        use = uses.get(ref_project(r) or "")
        if use is None:
            continue
        kind = ref_kind(r)
        if kind == "using" and not guard_active(ref_facts(r).guard, defined[use.cs.path], known):
            continue  # `#if POMELO using MySqlConnector;` in a project without POMELO
        if kind == "using" and ref_facts(r).enclosing:
            nested.append((use, r))  # resolved once every declared namespace is known
        elif kind == "using":
            _add_using(use, r)
        elif kind == "qualified":
            use.qualified.setdefault(r.module, r)
        elif kind == "attribute":
            use.attributes.setdefault(r.module, r)
        elif kind == "file":
            summary = file_facts(r)
            use.files.append(r)
            use.identifiers.update(summary.identifiers)
            use.marker_names.update(set(summary.identifiers) - set(summary.member_only))
            use.pairs.update(summary.pairs)
            use.namespaces.update(summary.namespaces)
    # namespaces and top-level types the repository declares: a nested using's first
    # name may be either (`using N = Outer.Inner;` in Outer's namespace)
    repo_types = {
        (ns, name)
        for use in uses.values()
        for f in use.files
        for ns, name, *_ in file_facts(f).types
    }
    declared_everywhere = internal_namespaces(uses) | {
        f"{ns}.{name}" if ns else name for ns, name in repo_types
    }
    for use, r in nested:
        _add_using(use, resolve_using(r, declared_everywhere))
    own = set()
    for cs in layout:
        own.update(
            n.lower()
            for n in (cs.name, cs.assembly_name, cs.properties.get("PackageId", ""))
            if n and "$(" not in n
        )
    repo_ids = {
        pid.lower()
        for m in project.manifests_of(Ecosystem.NUGET)
        for kind in ("PackageReference", "PackageVersion")
        for pid in m.declared.get(kind, [])
    }
    repo_extensions = {
        name for use in uses.values() for f in use.files for _ns, name in file_facts(f).extensions
    }
    for use in uses.values():
        use.global_usings.update(nx.implicit_usings(use.cs))
        use.own_ids = own
        use.repo_ids = repo_ids
        use.repo_extensions = repo_extensions
        use.repo_types = repo_types
        declared = {n for n in use.namespaces}
        used = {u for u in use.usings if u not in declared}
        carrier = nx.framework_package(used)
        use.cs.aspnetcore_via_package = carrier is not None
        use.cs.needs_aspnetcore_framework = carrier is None and nx.needs_aspnetcore_framework(
            use.cs, used, use.uses_marker
        )
    return layout, uses


def _add_using(use: ProjectUse, r: ImportRef) -> None:
    use.usings.setdefault(r.module, r)
    if ref_facts(r).global_using:
        use.global_usings.add(r.module)
    else:
        use.file_usings[r.file].add(r.module)


def resolve_using(r: ImportRef, declared: set[str]) -> ImportRef:
    """A `using N.M;` inside `namespace A.B` names, as the compiler looks its first
    identifier up, `A.B.N.M`, then `A.N.M`, then `N.M`: the first whose `…N` is a namespace
    the repository declares or the index knows. Alias and `using static` targets alike."""
    enclosing = ref_facts(r).enclosing
    parts = enclosing.split(".") if enclosing else []
    first = r.module.split(".", 1)[0]
    for i in range(len(parts), 0, -1):
        head = ".".join([*parts[:i], first])
        if head in declared or nx.lookup(head)[0] == head:
            return replace(r, module=".".join([*parts[:i], r.module]))
    return r


def internal_namespaces(uses: dict[str, ProjectUse]) -> set[str]:
    """Every namespace (and prefix of one) the repository's own code declares."""
    out: set[str] = set()
    for use in uses.values():
        for ns in use.namespaces:
            out.update(nx.prefixes(ns))
    return out


# Symbols the SDK defines from the target framework, platform and configuration
# ("Preprocessor symbols" in the C# compiler options docs): never decided here.
_SDK_SYMBOL = re.compile(
    r"(DEBUG|TRACE|RELEASE|NET\w*|WINDOWS\w*|ANDROID\w*|IOS\w*|MACCATALYST\w*|MACOS\w*"
    r"|TVOS\w*|WATCHOS\w*|BROWSER\w*|\w*_OR_GREATER)"
)


def defined_symbols(cs: CsProject) -> set[str]:
    """The preprocessor symbols the project (or its Directory.Build files) defines."""
    own = cs.manifest.data.get("define_constants", [])
    return {*own, *constant_symbols(cs.properties.get("DefineConstants"))}


def guard_active(guard: tuple | list | None, defined: set[str], known: set[str]) -> bool:
    """Whether a directive under `#if` guards ([symbol, wanted] pairs) is compiled in a
    project defining `defined`; only symbols in `known` are decided."""
    for symbol, wanted in guard or ():
        if _SDK_SYMBOL.fullmatch(symbol) or symbol not in known:
            continue
        if (symbol in defined) != wanted:
            return False
    return True
