"""What a C# project sees when it compiles, for check mode (`depinfer --check`).

The compiler resolves a `using` against every assembly of the project's restore graph:
its own PackageReferences, those its Directory.Build files and imported MSBuild files
bring, the packages of the projects it references (PackageReference assets flow to
referencing projects unless they are private), the framework those projects reference
(a FrameworkReference flows too) and the NuGet dependencies of all those packages. A
missing package is a finding only when nothing in that graph can provide the name; a
declared package is unused only when the shipped index knows what it provides and no code
of the repository uses any of it.

Dependencies of packages are known offline from two facts: the brought-by table
(data/csharp/conventions.json) and the packaging convention of package families, where
`A.B` depends on its family's core `A` and a package `A` on its `A.Abstractions` and `A.Core`
(Microsoft.Extensions.*, EF Core providers, Serilog sinks, OpenFeature.Hosting …), and
a package `A.B` on its family's `A.Core` (AWSSDK.Core, Hangfire.Core).

Some graphs are open offline and give no DEP001: a project SDK NuGet delivers that no table
describes (it may add PackageReferences), a namespace the index does not know in a project
compiling `<Protobuf>` items (protoc generates it), the Windows Desktop shared framework (or
the .NET Framework) for the compatibility packages, and a namespace the framework shares
with a package (`System.Drawing`) when the code names none of the package's own types.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass, field
from functools import lru_cache

from depinfer.analyzers.csharp_layout import CsProject, build_layout, tfm_major
from depinfer.mapping import nuget_index as nx
from depinfer.mapping.csharp_use import brought_by, conventions
from depinfer.model import Project

# the source kinds where a C# name is used (a rule's evidence names a project file)
CODE_SUFFIXES = (".cs", ".razor", ".cshtml", ".axaml", ".xaml")


def _references(cs: CsProject, by_path: dict[str, CsProject]) -> list[CsProject]:
    out = []
    for spec in cs.manifest.declared.get("ProjectReference", []):
        target = posixpath.normpath(posixpath.join(cs.directory, spec.replace("\\", "/")))
        if target in by_path:
            out.append(by_path[target])
    out.extend(by_path[p] for p in sorted(cs.inherited_projects) if p in by_path)
    return out


def _own_packages(cs: CsProject) -> set[str]:
    data = cs.manifest.data or {}
    own = {p.lower() for p in cs.manifest.declared.get("PackageReference", [])}
    own |= {p.lower() for p in data.get("global_package_references", [])}
    # a `<Reference HintPath=…>` compiles against that assembly: one named like a package
    # provides what the package would
    own |= {p.lower() for p in data.get("hinted_references", [])}
    return own | set(cs.inherited_packages)


def _flowing_packages(cs: CsProject) -> set[str]:
    """The packages a referencing project gets from this one (private assets stay)."""
    if not cs.packages_flow:
        return set()
    private = {p.lower() for p in (cs.manifest.data or {}).get("private_assets", [])}
    return _own_packages(cs) - private


def _dependencies(pid: str) -> set[str]:
    """The packages `pid` brings, as far as known offline (lower-case ids)."""
    out: set[str] = set()
    parts = pid.split(".")
    for i in range(1, len(parts)):  # A.B.C brings A.B and A (its family's core)
        out.add(".".join(parts[:i]).lower())
    for core in [pid, *(".".join(parts[:i]) for i in range(1, len(parts)))]:
        out.add(f"{core}.abstractions".lower())
        # A and A.B bring their family's A.Core (Microsoft.Data.Sqlite, Hangfire.NetCore,
        # AWSSDK.DynamoDBv2 → AWSSDK.Core)
        out.add(f"{core}.core".lower())
    # only real packages (`Microsoft` is none): the index's, or a parent of the table's
    return {d for d in out if d in nx.package_ids() or d in _brought_table()}


@lru_cache(maxsize=1)
def _brought_table() -> dict[str, set[str]]:
    """parent (lower-case) -> the packages it brings: the brought-by table and the
    dependency lists (data/csharp/conventions.json)."""
    out: dict[str, set[str]] = {}
    for child, parents in brought_by().items():
        for parent in parents:
            out.setdefault(parent.lower(), set()).add(child.lower())
    for parent, children in conventions().get("depends_on", {}).items():
        out.setdefault(parent.lower(), set()).update(c.lower() for c in children)
    return out


@dataclass
class CsView:
    """Per project file: the packages it can compile against and the projects it sees."""

    by_path: dict[str, CsProject]
    project: Project | None = None
    code: str | None = None  # every C# source text of the repository, read on demand
    markup: str | None = None  # every XAML / AXAML view of the repository, read on demand
    texts: dict[str, str] = field(default_factory=dict)  # path -> text
    seen: dict[str, set[str]] = field(default_factory=dict)  # path -> lower-case ids
    declared: dict[str, set[str]] = field(default_factory=dict)  # written, not derived
    closure: dict[str, list[CsProject]] = field(default_factory=dict)


def _closure(cs: CsProject, by_path: dict[str, CsProject]) -> list[CsProject]:
    out, todo, done = [], [cs], set()
    while todo:
        here = todo.pop()
        if here.path in done:
            continue
        done.add(here.path)
        out.append(here)
        todo.extend(_references(here, by_path))
    return out


def compile_view(project: Project) -> CsView:
    layout = build_layout(project)
    view = CsView({cs.path: cs for cs in layout}, project)
    table = _brought_table()
    for cs in layout:
        closure = _closure(cs, view.by_path)
        seen = _own_packages(cs)
        for other in closure[1:]:
            seen |= _flowing_packages(other)
        view.declared[cs.path] = set(seen)
        for pid in list(seen):  # the packages' own dependencies, as known offline
            seen |= _dependencies(pid)
        todo = list(seen)
        while todo:
            for dep in table.get(todo.pop(), set()) - seen:
                seen.add(dep)
                todo.append(dep)
        view.seen[cs.path] = seen
        view.closure[cs.path] = closure
    return view


def _provides(pid: str, namespace: str, markers_too: bool) -> bool:
    """The package puts types into `namespace` (index rows; else its id names it)."""
    low = namespace.lower()
    info = nx.package_info(pid)
    if info is not None:
        for row in info.get("namespaces", []):
            ns = row["namespace"].lower()
            if (low == ns or low.startswith(ns + ".")) and (markers_too or not row.get("markers")):
                return True
        return False
    return low == pid.lower() or low.startswith(pid.lower() + ".")


def unknown(pid: str) -> bool:
    """The shipped index does not say what the package provides."""
    return nx.package_info(pid) is None


def judged(pid: str) -> bool:
    """The shipped index names a namespace the package provides; a row without one
    (System.Net.Http, a polyfill whose types sit in `System`) cannot tell it unused."""
    return bool((nx.package_info(pid) or {}).get("namespaces"))


# `using X;`, `global using X;`, `using static X.Y;`, `using A = X.Y;` and Razor's `@using X`
_USING = re.compile(
    r"^\s*(?:global\s+)?@?using\s+(?:static\s+)?(?:\w+\s*=\s*)?(?:global::)?"
    r"([A-Za-z_][\w.]*)\s*;?\s*$",
    re.M,
)


def named_namespaces(view: CsView, manifest: str) -> set[str]:
    """The namespaces the `using` directives of the sources a project compiles name (its
    C# and Razor files; for a Directory.Build file, those of its folder): a package
    providing one of them is used there, even when the inference gave that use to a
    package depending on it."""
    cs = view.by_path.get(manifest)
    text = _code(view, posixpath.dirname(manifest))
    if cs is not None:  # `<Compile Remove>` leaves files out
        text = "\n".join(view.texts.get(f.path, "") for f in cs.files)
    # a fully-qualified name in code (`System.IO.Hashing.XxHash64.Hash(…)`) needs no
    # `using`, nor does a type of a namespace the code is declared in (extension classes
    # in `namespace Microsoft.Extensions.DependencyInjection` see IServiceCollection)
    named = set(_USING.findall(text)) | set(_QUALIFIED.findall(text))
    return named | set(_NAMESPACE.findall(text))


_QUALIFIED = re.compile(r"(?<![\w.])[A-Z]\w*(?:\.[A-Z]\w*){2,}")
_NAMESPACE = re.compile(r"^\s*namespace\s+([A-Za-z_][\w.]*)", re.M)


def compiles(view: CsView, manifest: str, name: str, namespaces: list[str]) -> bool:
    """Whether the project at `manifest` can already resolve what the candidate `name`
    (used through `namespaces`) would provide: a visible package is it, provides one of
    the namespaces, or is one the index knows nothing about (it may); or a referenced
    project's framework has it in the box."""
    cs = view.by_path.get(manifest)
    if cs is None:
        return False
    seen = view.seen.get(manifest, set())
    if name.lower() in seen:
        return True
    closure = view.closure.get(manifest, [cs])
    if _open_graph(view, closure, name, namespaces):
        return True
    # a package adding extension methods into a namespace depends on the namespace's
    # owner; a candidate whose entry point (a marker: `UseSqlServer`, `ServiceCollection`)
    # this project's code calls needs itself
    by_marker = _marker_called(view, cs, name, namespaces, seen)
    if not by_marker and any(_provides(pid, ns, True) for pid in seen for ns in namespaces):
        return True
    # a namespace the index does not know may come from a written package it does not know
    if unknown(name) and any(unknown(pid) for pid in view.declared.get(manifest, set())):
        return True
    # a package that declares the ASP.NET Core FrameworkReference brings the shared framework
    carriers = {p.lower() for p in nx.inbox().get("aspnetcore_framework_packages", [])}
    framework = any(  # a FrameworkReference, even one limited to some target frameworks
        nx.shared_framework() in (o.manifest.data or {}).get("framework_references", [])
        for o in closure
    )
    # (or the ASP.NET Core 2.x metapackage of the framework's name, which is all of it)
    carriers.add(nx.shared_framework().lower())
    if (framework or seen & carriers) and nx.in_shared_framework(name):
        return True
    return any(nx.package_in_box(name, other) for other in closure)


def opaque_sdk(cs: CsProject) -> bool:
    """The project builds with an MSBuild SDK that NuGet delivers and no table describes
    (`Sdk="Remora.Sdk"`): a project SDK's props and targets may add PackageReferences
    ("MSBuild project SDKs", Microsoft Learn), so what it compiles against is open offline.
    The .NET platform's own SDKs (their id prefixes) and the SDKs the tables list are known."""
    inbox = nx.inbox()
    known = {*inbox.get("implicit_usings", {}), *inbox.get("test_sdks", {})}
    known |= set(inbox.get("sdk_packages_since", {}))
    prefixes = tuple(nx.app_frameworks()["platform"]["id_prefixes"])
    return any(not s.startswith(prefixes) and s not in known for s in cs.sdk_names)


def _windows_desktop(cs: CsProject) -> bool:
    """UseWPF / UseWindowsForms (or the old WindowsDesktop SDK): the project references the
    Windows Desktop shared framework; or it targets only the .NET Framework, whose own
    assemblies are what those packages bring to .NET Core (the Windows Compatibility Pack)."""
    tfms = cs.target_frameworks
    if tfms and all(tfm_major(t)[0] == "netfx" for t in tfms):
        return True
    props = {k.lower(): v.strip().lower() for k, v in cs.properties.items()}
    flags = props.get("usewpf") == "true" or props.get("usewindowsforms") == "true"
    return flags or any(s.endswith(".WindowsDesktop") for s in cs.sdk_names)


def _shared_inbox(view: CsView, cs: CsProject, name: str, namespaces: list[str]) -> bool:
    """Every namespace is one the framework shares with the package (`System.Drawing`),
    and this project's code names none of the types only the package has: in the files
    importing the namespace, or as the target of an alias (`using Size = System.Drawing.Size`)."""
    table = nx.inbox().get("shared_inbox_namespaces", {})
    if not namespaces:
        return False
    _code(view)
    prefix = cs.directory.rstrip("/") + "/" if cs.directory not in ("", ".") else ""
    for ns in namespaces:
        row = table.get(ns)
        if row is None:  # an alias names one type of the namespace
            parent, _, type_name = ns.rpartition(".")
            row = table.get(parent)
            if row is None or row["package"].lower() != name.lower():
                return False
            if type_name in row["package_types"]:
                return False
            continue
        if row["package"].lower() != name.lower():
            return False
        texts = [t for p, t in view.texts.items() if p.startswith(prefix) and ns in t]
        if _calls("\n".join(texts), row["package_types"]):
            return False
    return True


def _open_graph(view: CsView, closure: list[CsProject], name: str, namespaces: list[str]) -> bool:
    """What the project compiles against may hold the name though no package row says so:
    an MSBuild SDK nothing describes, code protoc generates from `<Protobuf>` items (a
    namespace the index does not know may be theirs), the Windows Desktop shared framework,
    or a namespace the framework shares with the package."""
    if any(opaque_sdk(o) for o in closure):
        return True
    protobuf = any((o.manifest.data or {}).get("protobuf_services") for o in closure)
    if protobuf and unknown(name):
        return True
    desktop = {p.lower() for p in nx.inbox().get("windowsdesktop_packages", [])}
    if name.lower() in desktop and any(_windows_desktop(o) for o in closure):
        return True
    return _shared_inbox(view, closure[0], name, namespaces)


def uses_any(pid: str, namespaces: set[str]) -> bool:
    """A code namespace is one the package provides outright (not only by extension
    methods a marker names)."""
    return any(_provides(pid, ns, False) for ns in namespaces)


def _row_markers(pid: str, namespaces: list[str]) -> list[str]:
    info = nx.package_info(pid) or {}
    low = {ns.lower() for ns in namespaces}
    return [
        m
        for row in info.get("namespaces", [])
        if row["namespace"].lower() in low
        for m in row.get("markers", [])
    ]


def _marker_called(
    view: CsView, cs: CsProject, name: str, namespaces: list[str], seen: set[str]
) -> bool:
    """The candidate was chosen for an entry point this project's code calls, and no
    package the project sees explains the code's use of the namespace by one of its own
    entry points (`UseNpgsql` beside a shared `EnableRetryOnFailure`)."""
    text = _code(view, cs.directory)
    markers = _row_markers(name, namespaces)
    if not markers or not _calls(text, markers):
        return False
    return not any(_calls(text, own) for pid in seen if (own := _row_markers(pid, namespaces)))


def _calls(text: str, markers: list[str]) -> bool:
    return any(
        re.search(r"(?<![\w])" + re.escape(m.lstrip("?.")) + r"(?!\w)", text) for m in markers
    )


def _code(view: CsView, directory: str = "") -> str:
    """The C# source text of the repository, or of the files below `directory`."""
    if view.code is None:
        view.texts = {}
        for f in view.project.files_of("csharp") if view.project else []:
            if f.path.endswith(CODE_SUFFIXES):
                try:
                    view.texts[f.path] = view.project.abspath(f.path).read_text(errors="replace")
                except OSError:
                    continue
        view.code = "\n".join(view.texts.values())
    if not directory or directory == ".":
        return view.code
    prefix = directory.rstrip("/") + "/"
    return "\n".join(t for p, t in view.texts.items() if p.startswith(prefix))


def marker_used(view: CsView, pid: str) -> bool:
    """The code calls one of the entry points (extension methods, types) the index names
    for a namespace the package only adds to (`UseSwaggerUI`, `UseSerilog`, `INotification`),
    or one its documentation shows that inference does not choose it by (`AddMediatR` of
    the MediatR 11 extension package: the declared-entry-points table)."""
    info = nx.package_info(pid) or {}
    markers = [m for row in info.get("namespaces", []) for m in row.get("markers", [])]
    markers += _declared_entry_points(view, pid)
    if not markers:
        return False
    return _calls(_code(view), markers) or _calls(_markup(view), markers)


def carried_use(view: CsView, pid: str) -> bool:
    """A contract package another chosen package brings (the implied-by table: inference
    gives the project's use of its namespace to that carrier) is used where the code of a
    project of the repository names one of its namespaces and the project's frameworks do
    not have it in the box."""
    if pid.lower() not in {k.lower() for k in conventions().get("implied_by", {})}:
        return False
    for path, cs in view.by_path.items():
        if nx.package_in_box(pid, cs):
            continue
        if uses_any(pid, named_namespaces(view, path)):
            return True
    return False


def _declared_entry_points(view: CsView, pid: str) -> list[str]:
    """The entry points that count as a use of a declared package, unless the repository
    declares a package at a major version that ships them itself (MediatR 12 and later)."""
    row = conventions().get("declared_entry_points", {}).get(pid)
    if not row:
        return []
    for other, major in row.get("not_with", {}).items():
        if any(_major(v) >= major for v in _declared_versions(view, other)):
            return []
    return list(row["entry_points"])


def _declared_versions(view: CsView, pid: str) -> list[str]:
    low = pid.lower()
    out = []
    for cs in view.by_path.values():
        data = cs.manifest.data or {}
        pools = (data.get("package_reference_versions", {}), cs.pool)
        out += [v for pool in pools for k, v in pool.items() if k.lower() == low and v]
    return out


def _major(version: str) -> int:
    """The major version a version or range starts with (`12.5.0`, `[12.0,)`); 0 when it
    names none (an MSBuild property)."""
    found = re.match(r"\D{0,2}(\d+)", version.strip())
    return int(found.group(1)) if found else 0


MARKUP_SUFFIXES = (".xaml", ".axaml")
_NOT_SOURCE = {"bin", "obj", ".git", "node_modules"}


def _markup(view: CsView) -> str:
    """The XAML and Avalonia views of the repository: a theme or control a view names as
    an element (`<FluentTheme />`) uses its package without any C# `using`."""
    if view.markup is None:
        texts = []
        root = view.project.root if view.project else None
        for path in sorted(root.rglob("*")) if root else []:
            if path.suffix.lower() not in MARKUP_SUFFIXES or not path.is_file():
                continue
            if _NOT_SOURCE & set(path.relative_to(root).parts):
                continue
            try:
                texts.append(path.read_text(errors="replace"))
            except OSError:
                continue
        view.markup = "\n".join(texts)
    return view.markup


def published_dependency(view: CsView, manifest: str, pid: str) -> bool:
    """The project builds a package whose published dependency list (the depends-on table)
    names `pid`: a meta-package passes it on to its users (Serilog.AspNetCore and the
    sinks it brings), whatever its own code calls."""
    cs = view.by_path.get(manifest)
    if cs is None:
        return False
    package = cs.properties.get("PackageId") or cs.name
    return pid.lower() in _brought_table().get(package.lower(), set())


def brings_used(pid: str, used: set[str]) -> bool:
    """The package is declared to bring a package the code uses (JwtBearer for
    System.IdentityModel.Tokens.Jwt): removing it breaks the build, so it is not unused."""
    brought = _brought_table().get(pid.lower(), set())
    return bool(brought & used)
