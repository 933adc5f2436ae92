"""The shipped namespace → NuGet package index and the in-box namespace lists.

Both JSON files are rebuilt by scripts/build_nuget_index.py, which names its sources.
Lookups are longest-prefix on whole namespace segments: `Serilog.Sinks.SystemConsole.Themes`
matches the `Serilog.Sinks.SystemConsole` row before the `Serilog` one.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from depinfer.analyzers.csharp_layout import CsProject, tfm_major
from depinfer.data import load_table


@dataclass(frozen=True)
class Entry:
    """One package that declares a namespace; `markers` restrict it to projects using them."""

    package: str
    rank: int
    kind: str
    markers: tuple[str, ...] = ()


def _load(name: str) -> dict:
    return load_table(f"csharp/{name}")


@lru_cache(maxsize=1)
def index() -> dict:
    return _load("nuget_index.json")


@lru_cache(maxsize=1)
def app_frameworks() -> dict:
    """Application frameworks and MSBuild SDKs whose conventions the C# steps follow."""
    return load_table("csharp/frameworks.json")


def shared_framework() -> str:
    """The ASP.NET Core shared framework's FrameworkReference name."""
    return app_frameworks()["aspnetcore"]["shared_framework"]


def inbox() -> dict:
    return _load("nuget_inbox.json")


@lru_cache(maxsize=1)
def by_namespace() -> dict[str, list[Entry]]:
    out: dict[str, list[Entry]] = {}
    for pid, info in index()["packages"].items():
        for ns in info["namespaces"]:
            out.setdefault(ns["namespace"].lower(), []).append(
                Entry(pid, info["rank"], info["kind"], tuple(ns.get("markers", ())))
            )
    return out


@lru_cache(maxsize=1)
def package_ids() -> dict[str, str]:
    """lower-case id -> id as published."""
    return {pid.lower(): pid for pid in index()["packages"]}


def package_info(pid: str) -> dict | None:
    real = package_ids().get(pid.lower())
    return index()["packages"].get(real) if real else None


def kind_of(pid: str) -> str:
    info = package_info(pid)
    return info["kind"] if info else "lib"


def prefixes(ns: str) -> list[str]:
    """`A.B.C` → [`A.B.C`, `A.B`, `A`]."""
    parts = ns.split(".")
    return [".".join(parts[:i]) for i in range(len(parts), 0, -1)]


def lookup(ns: str) -> tuple[str, list[Entry]]:
    """(matched prefix, entries) for the longest indexed prefix of `ns`; ("", []) if none."""
    table = by_namespace()
    for p in prefixes(ns):
        entries = table.get(p.lower())
        if entries:
            return p, entries
    return "", []


def _inbox_prefix(ns: str, prefixes_: list[str]) -> str:
    low = ns.lower()
    best = ""
    for p in prefixes_:
        pl = p.lower()
        if (low == pl or low.startswith(pl + ".")) and len(p) > len(best):
            best = p
    return best


def inbox_match(ns: str, cs: CsProject | None) -> str:
    """The longest in-box namespace prefix of `ns` for this project (all its TFMs)."""
    data = inbox()
    best = _inbox_prefix(ns, data["always"])
    if cs is not None and has_shared_framework(cs):
        web = _inbox_prefix(ns, data["aspnetcore_shared"])
        if len(web) > len(best):
            best = web
    return best


def is_web(cs: CsProject) -> bool:
    sdk = cs.sdk.split("/", 1)[0]
    if sdk in inbox()["web_sdks"] or cs.needs_aspnetcore_framework:
        return True
    if shared_framework() not in cs.manifest.data.get("framework_references", []):
        return False
    # a FrameworkReference only serves the .NET (Core) targets of a multi-targeted project
    return all(tfm_major(t)[0] == "netcore" for t in cs.target_frameworks)


def has_shared_framework(cs: CsProject) -> bool:
    """The ASP.NET Core shared framework is referenced: Web SDK, FrameworkReference (written
    or needed), or a package that declares the FrameworkReference itself."""
    return is_web(cs) or (cs.aspnetcore_via_package and _modern_only(cs))


def _modern_only(cs: CsProject) -> bool:
    return bool(cs.target_frameworks) and all(
        tfm_major(t)[0] == "netcore" and tfm_major(t)[1] >= 3 for t in cs.target_frameworks
    )


def _active(entries: list[Entry], uses_marker: Callable[[str], bool] | None) -> list[Entry]:
    """The entries a project can be using: unmarked ones, and marked ones whose markers
    it uses (every entry when markers are not known)."""
    if uses_marker is None:
        return entries
    return [e for e in entries if not e.markers or any(uses_marker(m) for m in e.markers)]


def framework_package(namespaces: set[str]) -> str | None:
    """A package the code uses that declares the ASP.NET Core FrameworkReference itself:
    one whose own namespace is imported (an entry point shared by several packages, such
    as `AddSerilog`, does not say which one is referenced)."""
    carriers = set(inbox().get("aspnetcore_framework_packages", []))
    for ns in sorted(namespaces):
        _, entries = lookup(ns)
        for e in entries:
            if e.package in carriers and not e.markers:
                return e.package
    return None


def needs_aspnetcore_framework(
    cs: CsProject, namespaces: set[str], uses_marker: Callable[[str], bool] | None = None
) -> bool:
    """A .NET (Core)-only project whose code uses ASP.NET Core's shared framework without the
    Web SDK or a FrameworkReference needs `<FrameworkReference Include="Microsoft.AspNetCore.App" />`
    (the ASP.NET Core docs' way for class libraries). A package marked in the index only by
    its entry points (`UseSwagger` under Microsoft.AspNetCore.Builder) counts only when the
    code calls them."""
    if is_web(cs) or not _modern_only(cs):
        return False
    except_ = set(inbox()["aspnetcore_shared_except"])
    shared = False
    for ns in namespaces:
        if not ns.startswith(app_frameworks()["aspnetcore"]["namespace_prefix"]):
            continue
        _, entries = lookup(ns)
        if entries and any(e.package in except_ for e in _active(entries, uses_marker)):
            return False  # an ASP.NET Core package (Mvc.Testing, JwtBearer …) brings it
        shared = True
    return shared


def sdk_packages(cs: CsProject) -> set[str]:
    """Packages the project SDK brings implicitly from one of its versions on
    (`Aspire.AppHost.Sdk/13.0.0` brings Aspire.Hosting.AppHost); only an SDK written
    with its version counts."""
    out: set[str] = set()
    for spec in [cs.sdk, *cs.extra_sdks]:
        name, _, version = spec.partition("/")
        m = re.match(r"\d+", version)
        if not m:
            continue
        for since, ids in inbox().get("sdk_packages_since", {}).get(name, []):
            if int(m.group(0)) >= since:
                out.update(ids)
    return out


@lru_cache(maxsize=1)
def polyfills() -> dict[str, dict]:
    """The polyfill table (data/csharp/polyfills.json): package -> its row (the API it
    brings, the type names and syntax that need it, the frameworks that have it in-box)."""
    return {row["package"]: row for row in _load("polyfills.json")["rows"]}


def _inbox_by_row(row: dict, tfms: list[str]) -> list[str]:
    """The target frameworks the polyfill row's API is not in the box of."""
    inbox_since = row.get("inbox", {})
    out = []
    for tfm in tfms:
        family, version = tfm_major(tfm)
        since = inbox_since.get(family)
        if since is None or version < since:
            out.append(tfm)
    return out


def package_in_box(pid: str, cs: CsProject | None) -> bool:
    """True when every target framework of the project already has this package's API."""
    return not missing_tfms(pid, cs)


def in_shared_framework(pid: str) -> bool:
    """Whether the ASP.NET Core shared framework has this package's API."""
    return _in_shared_framework(pid)


def _in_shared_framework(pid: str) -> bool:
    """Whether the ASP.NET Core shared framework (Microsoft.AspNetCore.App) has this API."""
    data = inbox()
    prefixes = tuple(app_frameworks()["aspnetcore"]["shared_package_prefixes"])
    if pid in data["aspnetcore_shared_except"] or not pid.startswith(prefixes):
        return False
    info = package_info(pid)
    namespaces = [n["namespace"] for n in (info or {}).get("namespaces", [])]
    # a namespace the package only adds to (System.Net.Http's IHttpClientFactory) is the
    # base framework's, in the box anyway
    shared = [*data["aspnetcore_shared"], *data["always"]]
    return not namespaces or all(_inbox_prefix(n, shared) for n in namespaces)


def missing_tfms(pid: str, cs: CsProject | None) -> list[str]:
    """The project's target frameworks that need `pid` as a package ([] = none does).

    A project without a known target framework needs every package that is not in the
    box on all frameworks, so it gets ["*"] for those.
    """
    data = inbox()
    everywhere = (cs.target_frameworks if cs is not None else []) or ["*"]
    if cs is not None and any(pid in data["test_sdks"].get(n, []) for n in cs.sdk_names):
        return []
    if (
        cs is not None
        and pid in sdk_packages(cs)
        and not (cs.central and pid.lower() in {k.lower() for k in cs.pool})
    ):
        # (a package the central list names is one the repository references anyway)
        return []
    if cs is not None and _in_shared_framework(pid):
        if has_shared_framework(cs):
            return []
        if shared_framework() in cs.manifest.data.get("framework_references", []):
            # the FrameworkReference serves the .NET (Core) targets; older ones need packages
            return (
                [t for t in everywhere if tfm_major(t)[0] != "netcore"]
                if everywhere != ["*"]
                else []
            )
    row = polyfills().get(pid)
    if row is not None:
        return [] if everywhere == ["*"] else _inbox_by_row(row, everywhere)
    since = data["since"].get(pid)
    if since is None:
        return everywhere
    if everywhere == ["*"]:
        return []
    missing = []
    for tfm in everywhere:
        family, version = tfm_major(tfm)
        if family == "netcore" and version >= since:
            continue
        if family == "netstandard" and version >= 2.1 and pid in data["netstandard21"]:
            continue
        if family == "netstandard" and version >= data.get("netstandard_since", {}).get(pid, 9):
            continue
        if family == "netfx" and version >= data.get("netfx_since", {}).get(pid, 9):
            continue
        missing.append(tfm)
    return missing


def implicit_usings(cs: CsProject) -> list[str]:
    if not cs.implicit_usings:
        return []
    data = inbox()["implicit_usings"]
    out = list(data["Microsoft.NET.Sdk"])
    for sdk in cs.sdk_names:
        out.extend(n for n in data.get(sdk, []) if n not in out)
    return out


def release_train_version(pid: str, layout: list[CsProject]) -> str | None:
    """The version of the project SDK `pid` is released with, as the repository's projects
    name it (`Aspire.AppHost.Sdk/13.1.0`); None when `pid` rides no train or no project
    names the SDK's version."""
    for train in index().get("release_trains", []):
        if pid == train["sdk"] or not any(pid.startswith(p) for p in train["prefixes"]):
            continue
        for cs in layout:
            for spec in [cs.sdk, *cs.extra_sdks]:
                name, _, version = spec.partition("/")
                if name == train["sdk"] and version:
                    return version
    return None


def runtime_family(pid: str) -> bool:
    data = index()
    if pid in data["runtime_family_except"]:
        return False
    return any(pid.startswith(p) for p in data["runtime_families"])
