"""C# implicit dependencies: what no `using` shows.

Applied in order, each from the data in data/csharp/conventions.json:
1. test projects: the framework (from its attributes / usings, else the repository's
   dominant one) + its adapter, Microsoft.NET.Test.Sdk, coverlet as the declare model says
   (rules/csharp_declare.py: the template companion weighed by framework and evidence),
   test loggers CI names;
2. polyfill packages for older targets (netstandard2.0, .NET Framework) whose code uses a
   type they lack (`Span<T>` → System.Memory); packages appsettings files name (Serilog
   sinks and enrichers, rules/csharp_config.py);
3. tool packages the repository lists in Directory.Packages.props that no project uses
   yet, placed by the table (analyzers everywhere, EF design tools in startup projects …);
4. what flows through ProjectReferences is not repeated: a library package another
   referenced project already brings (unless the project calls its entry points itself),
   and, in test projects, a ProjectReference another reference already implies (test
   projects name the project under test; application projects name every layer they
   use). An Aspire AppHost's references are resources and do not flow on.
Centrally listed packages that no project ends up referencing are reported.
Under central package management a convention package the repository does not list in
Directory.Packages.props is not added (the repository chose not to use it).
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass

import networkx as nx

from depinfer.analyzers.csharp_layout import CsProject, tfm_major
from depinfer.context import Context
from depinfer.facts.csharp import CompanionFeatures, dep_facts, file_facts, set_dep
from depinfer.mapping import nuget_index as nxi
from depinfer.mapping.csharp_projects import (
    generator_of,
    is_roslyn_component,
    test_subject,
)
from depinfer.mapping.csharp_use import ProjectUse, conventions, gather
from depinfer.mapping.nuget_index import app_frameworks
from depinfer.model import Candidate, Ecosystem, ImportRef, Project
from depinfer.rules import csharp_declare
from depinfer.rules.csharp_build import (
    build_evidence_candidates,
    convention_candidate,
    declared_in_use_candidates,
    declared_tool_candidates,
    read_tree,
    tool_built_in,
)
from depinfer.rules.csharp_config import serilog_packages
from depinfer.scan import walk_repository


def detect_framework(use: ProjectUse, cs: CsProject | None = None) -> str | None:
    """The test framework the project's attributes and usings show; a property only that
    framework reads (TUnitImplicitUsings, which also hides its namespaces) counts most."""
    scores: Counter[str] = Counter()
    for name, spec in conventions()["test_frameworks"].items():
        scores[name] += sum(1 for a in spec["attributes"] if a in use.attributes)
        scores[name] += sum(
            2
            for ns in spec["namespaces"]
            if any(u == ns or u.startswith(ns + ".") for u in use.usings)
        )
        if cs is not None and any(p in cs.properties for p in spec.get("properties", [])):
            scores[name] += 3
    if not scores or scores.most_common(1)[0][1] == 0:
        return None
    return scores.most_common(1)[0][0]


def _legacy(cs: CsProject) -> bool:
    for tfm in cs.target_frameworks:
        family, version = tfm_major(tfm)
        if family == "netfx" or (family == "netstandard" and version < 2.1):
            return True
    return False


def _ci_text(project: Project) -> str:
    parts = []
    for rel in project.ci_files:
        try:
            parts.append(project.abspath(rel).read_text(encoding="utf-8", errors="replace"))
        except OSError:
            continue
    for name in ("build.ps1", "Build.ps1", "build.sh", "build.cake", "azure-pipelines.yml"):
        p = project.abspath(name)
        if p.is_file():
            parts.append(p.read_text(encoding="utf-8", errors="replace"))
    return "\n".join(parts)


def _repo_ids(project: Project) -> set[str]:
    """Package ids the repository's manifests still name (props, unmasked projects)."""
    out: set[str] = set()
    for m in project.manifests_of(Ecosystem.NUGET):
        for kind in ("PackageReference", "PackageVersion"):
            out.update(pid.lower() for pid in m.declared.get(kind, []))
        out.update(p.lower() for p in m.data.get("global_package_references", []))
    return out


def _pick(pid: str, alternatives: dict, preferred: set[str]) -> str:
    for alt in alternatives.get(pid, []):
        if alt.lower() in preferred and pid.lower() not in preferred:
            return alt
    return pid


def test_candidates(
    layout: list[CsProject], uses: dict[str, ProjectUse], project: Project
) -> list[Candidate]:
    conv = conventions()
    ci = _ci_text(project)
    preferred = _repo_ids(project)
    by_path = {cs.path: cs for cs in layout}
    frameworks = {path: detect_framework(use, by_path.get(path)) for path, use in uses.items()}
    platform_v2 = _global_json_platform(project)
    dominant = Counter(f for f in frameworks.values() if f).most_common(1)
    dominant_fw = dominant[0][0] if dominant else None
    packs = csharp_declare.publishes_packages([cs.properties for cs in layout])
    out: list[Candidate] = []
    for cs in layout:
        fw = frameworks.get(cs.path)
        generated = not cs.files and generator_of(cs, layout) is not None
        if (not cs.files and not generated) or (not cs.is_test and fw is None):
            continue  # no sources at all: a shell project, unless a generator writes them
        if not cs.is_test and any(
            u.startswith(app_frameworks()["roslyn"]["namespace"]) for u in uses[cs.path].usings
        ):
            continue  # a source generator / analyzer project that emits test code
        if not cs.is_test and not any(f.kind.value == "test" for f in cs.files):
            continue
        if (
            fw is None
            and cs.files
            and cs.properties.get("OutputType", "").lower() == "exe"
            and not _testing_platform_runner(cs)
        ):
            continue  # a program named like a test (an AOT smoke test) with no test in it
        fw = fw or dominant_fw
        if any(n in nxi.inbox()["test_sdks"] for n in cs.sdk_names):
            continue  # MSTest.Sdk brings framework, adapter and test SDK itself
        if cs.path.endswith(".csproj") and cs.manifest.data.get("sdk_style") is False:
            continue  # an old-format project references its test framework as assemblies
        spec = conv["test_frameworks"][fw] if fw is not None else {}
        platform = platform_v2 or _testing_platform_runner(cs) or bool(spec.get("testing_platform"))
        if fw is not None:
            for pid in _framework_packages(spec, cs, platform_v2, platform, preferred):
                out.append(convention_candidate(pid, cs, "test-framework", fw))
            for pid in spec["runner"]:
                if platform and pid in spec.get("vstest_only", []):
                    continue  # a testing-platform executable runs itself
                out.append(
                    convention_candidate(pid, cs, "test-adapter", f"{fw} tests run by dotnet test")
                )
            for pid in spec["analyzers"]:
                if pid.lower() in preferred:
                    out.append(convention_candidate(pid, cs, "test-analyzer", fw))
        if not platform:
            out.append(
                convention_candidate(
                    conv["test_sdk"], cs, "test-sdk", "dotnet test needs the test SDK"
                )
            )
        elif cs.central and conv["test_sdk"].lower() in {k.lower() for k in cs.pool}:
            # on the testing platform the VSTest host is not needed, yet a repository that
            # lists it centrally keeps its test projects runnable by both hosts
            out.append(
                convention_candidate(
                    conv["test_sdk"], cs, "test-sdk", "listed centrally beside the platform"
                )
            )
        out.extend(_test_tool_candidates(cs, fw, platform, ci, preferred, packs))
    return out


def _test_tool_candidates(
    cs: CsProject, fw: str | None, platform: bool, ci: str, preferred: set[str], packs: bool
) -> list[Candidate]:
    """Coverage tools and test loggers of a test project: added where CI names them or a
    props file lists them; a template companion (coverlet.collector) is weighed by the
    declare model (rules/csharp_declare.py) from its evidence, the framework and the host."""
    conv = conventions()
    out = []
    for pid, signs in list(conv["coverage_tools"].items()) + list(conv["test_loggers"].items()):
        evidence = (
            "ci"
            if any(s.lower() in ci.lower() for s in signs)
            else "listed"
            if pid.lower() in preferred
            else "none"
        )
        role = csharp_declare.companion_role(pid)
        if role is None:
            if evidence != "none":
                why = "CI collects coverage / uses the logger"
                out.append(convention_candidate(pid, cs, "ci", why))
            continue
        host = "platform" if platform else "vstest"
        if platform and evidence == "none":
            continue  # the template's collector is a VSTest data collector (coverlet's
            # VSTestIntegration docs): a testing-platform executable does not load it
        repository = "packages" if packs else "apps"
        features = CompanionFeatures(pid, role, "test", fw or "none", host, evidence, repository)
        est = csharp_declare.estimate(features)
        c = convention_candidate(pid, cs, "template-companion", est.describe())
        set_dep(c, companion=features)
        out.append(c)  # infer() keeps it when the model says the maintainers declare it
    return out


# Properties that make the test project its own Microsoft.Testing.Platform executable (the
# .NET docs' "NUnit runner" and "MSTest runner" pages): the VSTest host package
# Microsoft.NET.Test.Sdk is then not what runs the tests.
TESTING_PLATFORM_RUNNERS = ("EnableNUnitRunner", "EnableMSTestRunner")


def _testing_platform_runner(cs: CsProject) -> bool:
    props = [*TESTING_PLATFORM_RUNNERS, *conventions()["testing_platform"]["properties"]]
    return any(cs.properties.get(p, "").lower() == "true" for p in props)


def _global_json_platform(project: Project) -> bool:
    """global.json's `"test": {"runner": "Microsoft.Testing.Platform"}`: the .NET 10 SDK's
    `dotnet test` then runs every test project as a testing-platform (v2) executable."""
    try:
        text = project.abspath("global.json").read_text(encoding="utf-8-sig", errors="replace")
    except OSError:
        return False
    runner = conventions()["testing_platform"]["global_json_runner"]
    return bool(re.search(r'"runner"\s*:\s*"' + re.escape(runner) + '"', text))


def _framework_packages(
    spec: dict, cs: CsProject, platform_v2: bool, platform: bool, preferred: set[str]
) -> list[str]:
    """The framework's packages for how the project runs: xunit v3 test projects are
    executables (OutputType Exe), on testing platform v2 its own package; an id the
    repository already lists (Directory.Packages.props) from the same family wins."""
    exe = cs.properties.get("OutputType", "").lower() == "exe"
    if platform_v2 and spec.get("platform_v2"):
        base = spec["platform_v2"]
    elif (platform or exe) and spec.get("executable"):
        base = spec["executable"]
    else:
        return [_pick(pid, spec["alternatives"], preferred) for pid in spec["packages"]]
    # an executable takes one of the framework's executable ids the repository lists,
    # never its library-style package (xunit v2 beside xunit.v3.mtp-off in one list)
    family = [
        *base,
        *(a for alts in spec.get("executable_alternatives", {}).values() for a in alts),
        *spec.get("executable", []),
        *spec.get("platform_v2", []),
    ]
    out = []
    for pid in base:
        if pid.lower() not in preferred:
            listed = [f for f in family if f.lower() in preferred]
            if listed:
                pid = listed[0]
        out.append(pid)
    return out


def _polyfill_needs() -> dict[str, tuple[list[str], list[str]]]:
    """package -> (type names, syntax features) whose use needs it on older frameworks: the
    polyfill table's rows, then the conventions' older lists for packages it has no row for."""
    out = {
        pid: (row.get("types", []), row.get("features", [])) for pid, row in nxi.polyfills().items()
    }
    conv = conventions()
    for pid, types in conv["polyfill_types"].items():
        out.setdefault(pid, (types, []))
    for pid, feats in conv.get("polyfill_features", {}).items():
        types, _ = out.get(pid, ([], []))
        out.setdefault(pid, (types, feats))
    return out


def polyfill_candidates(layout: list[CsProject], uses: dict[str, ProjectUse]) -> list[Candidate]:
    """Packages bringing an API the code uses to the project's frameworks that lack it in
    the box (per framework where only some lack it: a conditional ItemGroup); never for a
    project whose frameworks all have it."""
    out = []
    needs = _polyfill_needs()
    for cs in layout:
        if not _legacy(cs):
            continue
        use = uses[cs.path]
        features = {feat for f in use.files for feat in file_facts(f).features}
        for pid, (types, wanted) in needs.items():
            if nxi.package_in_box(pid, cs):
                continue
            hit = next((t for t in types if t in use.identifiers), None)
            detail = f"{hit} on {cs.target_frameworks}"
            if hit is None:
                hit = next((f for f in wanted if f in features), None)
                detail = f"{hit} syntax on {cs.target_frameworks}"
            if hit is None:
                continue
            c = convention_candidate(pid, cs, "polyfill", detail)
            missing = nxi.missing_tfms(pid, cs)
            if missing and set(missing) != set(cs.target_frameworks):
                set_dep(c, tfms=tuple(missing))
            out.append(c)
    return out


def config_candidates(layout: list[CsProject], project: Project) -> list[Candidate]:
    """Packages the project's configuration files name (Serilog sinks in appsettings), and
    analyzers whose input files sit in the project's folder (PublicAPI.Shipped.txt)."""
    out = []
    signals = conventions().get("file_signals", {})
    dirs = sorted((cs.directory for cs in layout), key=len, reverse=True)
    owners: dict[str, set[str]] = defaultdict(set)
    for folder, _, names in walk_repository(project.root):
        for name in names:
            pid = signals.get(name)
            if not pid:
                continue
            path = f"{folder}/{name}" if folder else name
            home = next((d for d in dirs if not d or path.startswith(d + "/")), None)
            if home is not None:
                owners[home].add(pid)
    for cs in layout:
        if not cs.files:
            continue
        for pid, where in serilog_packages(cs, project).items():
            if not nxi.package_in_box(pid, cs):
                out.append(convention_candidate(pid, cs, "settings", where))
        for pid in sorted(owners.get(cs.directory, ())):
            out.append(
                convention_candidate(pid, cs, "analyzer-input", "its input file is in the folder")
            )
    out.extend(property_candidates(layout, project))
    return out


PROTOBUF_ITEM = "Protobuf"  # package literal: the MSBuild item type, not a package
PROTOBUF_RULE = PROTOBUF_ITEM.lower()  # the rule's name in the evidence


def protobuf_candidates(layout: list[CsProject]) -> list[Candidate]:
    """Packages that compile the project's <Protobuf> items: the ASP.NET Core gRPC server
    package for a web app serving the services, else the compiler and message runtime."""
    spec = conventions().get("protobuf_packages", {})
    out = []
    for cs in layout:
        services = {s.strip().lower() for s in cs.manifest.data.get("protobuf_services", [])}
        if not services:
            continue
        serves = bool(services & {"server", "both"})
        role = "server" if serves and _web_app(cs) else "client"
        for pid in spec.get(role, []):
            if pid.lower() not in cs.inherited_packages and not nxi.package_in_box(pid, cs):
                rule = PROTOBUF_RULE
                out.append(convention_candidate(pid, cs, rule, f"<{PROTOBUF_ITEM}> items ({role})"))
    return out


def _hosted_on(project: Project, host: str, cs: CsProject) -> bool:
    """Whether the repository lives on `host` (its RepositoryUrl, or `.github` for GitHub)."""
    url = cs.properties.get("RepositoryUrl", "") + cs.properties.get("PackageProjectUrl", "")
    if f"{host}." in url.lower():
        return True
    return host == "github" and project.abspath(".github").is_dir()


def property_candidates(layout: list[CsProject], project: Project) -> list[Candidate]:
    """Build-tool packages whose documented settings the project file itself sets
    (`<MinVerTagPrefix>` → MinVer, `<PublishRepositoryUrl>` → SourceLink): settings in a
    shared Directory.Build file say nothing of which project carries the package."""
    out = []
    for cs in layout:
        own = cs.manifest.data.get("properties", {})
        for signal in conventions().get("property_signals", []):
            pid = signal["package"]
            if pid.lower() in cs.inherited_packages:
                continue
            if "prefix" in signal:
                hit = next((k for k in own if k.startswith(signal["prefix"])), None)
            else:
                value = own.get(signal["property"], "").strip().lower()
                hit = signal["property"] if value == signal["value"] else None
            if hit is None or (signal.get("host") and not _hosted_on(project, signal["host"], cs)):
                continue
            if any(c.manifest == cs.path and c.name == pid for c in out):
                continue
            out.append(
                convention_candidate(pid, cs, "tool-settings", f"<{hit}> in the project file")
            )
    return out


def placement_candidates(
    layout: list[CsProject],
    uses: dict[str, ProjectUse],
    candidates: list[Candidate],
    graph: nx.DiGraph,
    project: Project,
) -> list[Candidate]:
    """Pool packages no project references yet, placed by the conventions table."""
    placement = conventions()["placement"]
    by_project: dict[str, set[str]] = defaultdict(set)
    for c in candidates:
        if not c.internal:
            by_project[c.manifest].add(c.name.lower())
    for m in project.manifests_of(Ecosystem.NUGET):
        if m.format == "csproj":
            by_project[m.path].update(pid.lower() for pid in m.declared.get("PackageReference", []))
    out: list[Candidate] = []
    pools: dict[str, list[CsProject]] = defaultdict(list)
    for cs in layout:
        if cs.central and cs.packages_props is not None:
            pools[cs.packages_props.path].append(cs)
    for members in pools.values():
        pool = members[0].pool
        # each Directory.Packages.props is its own solution: what one solution's projects
        # reference says nothing about another's
        assigned = set().union(*(by_project.get(cs.path, set()) for cs in members))
        for pid in pool:
            low = pid.lower()
            if low in assigned or any(low in cs.shared_packages for cs in members):
                continue
            rule = placement.get(pid) or next(
                (v for k, v in placement.items() if k.lower() == low), None
            )
            if rule is None:
                rule = next(
                    (
                        v
                        for k, v in conventions().get("placement_prefix", {}).items()
                        if low.startswith(k.lower())
                    ),
                    None,
                )
            if rule is None and low.endswith(".analyzers"):
                rule = f"uses:{pid[: -len('.Analyzers')]}"
            if rule is None:
                continue
            eligible = [
                cs
                for cs in members
                # e.g. MSTest.Sdk brings its analyzers itself
                if not (nxi.package_in_box(pid, cs) or low in cs.inherited_packages)
            ]
            hits = [
                cs
                for cs in eligible
                if _placed(rule, cs, uses[cs.path], by_project, graph, uses, project)
            ]
            if not hits and rule.startswith("test:"):
                # the list names it for a reason: no project of the frameworks it is for,
                # so it goes to the test projects there are
                rule = "test"
                hits = [
                    cs
                    for cs in eligible
                    if _placed(rule, cs, uses[cs.path], by_project, graph, uses, project)
                ]
            for cs in hits:
                out.append(
                    _placed_candidate(pid, cs, "placement", f"{rule} ({pid} is listed centrally)")
                )
    return out


def _placed_candidate(pid: str, cs: CsProject, rule: str, detail: str) -> Candidate:
    c = convention_candidate(pid, cs, rule, detail)
    if nxi.package_info(pid) is None:
        # a tool the conventions place (SBOM, versioning, analyzers): it works in the
        # build of the project that references it and flows nowhere
        set_dep(c, kind="build")
    return c


def template_candidates(
    layout: list[CsProject], uses: dict[str, ProjectUse], graph: nx.DiGraph, project: Project
) -> list[Candidate]:
    """Packages a project template adds where no code names them (the Blazor WebAssembly
    development server), for projects without a central list; a central list places them
    through `placement_candidates` when it names them."""
    out = []
    for pid, rule in conventions().get("template_packages", {}).items():
        for cs in layout:
            if cs.central or pid.lower() in cs.inherited_packages or nxi.package_in_box(pid, cs):
                continue
            if _placed(rule, cs, uses[cs.path], {}, graph, uses, project):
                detail = f"{rule} (the project template adds it)"
                out.append(_placed_candidate(pid, cs, "template", detail))
    return out


@dataclass(frozen=True)
class Placement:
    """What a placement rule (`kind:arg` in the conventions table) asks about a project."""

    arg: str  # the part after the colon ("" when none)
    cs: CsProject
    use: ProjectUse
    by_project: dict[str, set[str]]  # project -> lower-case ids it references
    graph: nx.DiGraph  # ProjectReferences
    uses: dict[str, ProjectUse]
    project: Project


def _on_apphost_sdk(cs: CsProject) -> bool:
    return app_frameworks()["aspire"]["apphost_sdk"] in cs.sdk_names


def _uses_ef(use: ProjectUse) -> bool:
    ef = app_frameworks()["ef_core"]["namespace"]
    return any(u.startswith(ef) for u in use.usings)


def _has_migrations(use: ProjectUse) -> bool:
    return app_frameworks()["ef_core"]["migration_attribute"] in use.attributes


def _blazor_wasm(cs: CsProject) -> bool:
    return cs.sdk.split("/", 1)[0] == app_frameworks()["blazor_wasm"]["sdk"]


def _place_all(p: Placement) -> bool:
    """all: every project of the list."""
    return True


def _place_code(p: Placement) -> bool:
    """code: only where code uses it (mapping decides; never placed here)."""
    return False


def _place_test(p: Placement) -> bool:
    """test[:fw|fw]: test projects (of those frameworks)."""
    return p.cs.is_test and (not p.arg or detect_framework(p.use, p.cs) in p.arg.split("|"))


def _place_uses(p: Placement) -> bool:
    """uses:Id: projects that reference the package Id."""
    return p.arg.lower() in p.by_project.get(p.cs.path, set())


def _ef_startup(p: Placement, migrations: bool) -> bool:
    """Design-time tools: the project holding EF Core migrations, or a startup project
    (web app or executable) whose references reach EF Core (startup-ef) or the
    migrations themselves (ef-migrations)."""
    cs, use = p.cs, p.use
    if cs.is_test or _on_apphost_sdk(cs):
        return False
    if _has_migrations(use) and _uses_ef(use):
        return True
    if not (_web_app(cs) or cs.properties.get("OutputType", "").lower() == "exe"):
        return False
    reach = list(nx.descendants(p.graph, cs.path)) if cs.path in p.graph else []
    if migrations:
        return any(_has_migrations(p.uses[r]) for r in reach if r in p.uses)
    return any(_uses_ef(p.uses[r]) for r in [cs.path, *reach] if r in p.uses)


def _place_startup_ef(p: Placement) -> bool:
    """startup-ef: the EF Core startup project (or the one holding migrations)."""
    return _ef_startup(p, migrations=False)


def _place_ef_migrations(p: Placement) -> bool:
    """ef-migrations: the startup project reaching the migrations (or holding them)."""
    return _ef_startup(p, migrations=True)


def _place_apphost(p: Placement) -> bool:
    """apphost: an Aspire AppHost (its SDK, or code using the hosting API)."""
    hosting = app_frameworks()["aspire"]["hosting_namespace"]
    return _on_apphost_sdk(p.cs) or any(u.startswith(hosting) for u in p.use.usings)


def _place_web(p: Placement) -> bool:
    """web: an ASP.NET Core application that is no test project."""
    return _web_app(p.cs) and not p.cs.is_test


def _place_web_views(p: Placement) -> bool:
    """web-views: an MVC app: views, or the routing attributes of controllers/endpoints."""
    mvc = set(conventions().get("mvc_attributes", []))
    return (
        _web_app(p.cs)
        and not p.cs.is_test
        and (bool(mvc & set(p.use.attributes)) or _has_views(p.project, p.cs))
    )


def _place_wasm(p: Placement) -> bool:
    """wasm: a Blazor WebAssembly project."""
    return _blazor_wasm(p.cs)


def _place_wasm_app(p: Placement) -> bool:
    """wasm-app: a WebAssembly app adding its own root components (it runs in the browser
    on its own, or hosted); a Blazor Web App's client project is rendered from the server."""
    call = app_frameworks()["blazor_wasm"]["root_components_call"]
    return _blazor_wasm(p.cs) and any(pair.endswith(call) for pair in p.use.pairs)


def _place_file(p: Placement) -> bool:
    """file:name: projects with that file in their folder."""
    cs = p.cs
    return p.project.abspath(f"{cs.directory}/{p.arg}" if cs.directory else p.arg).is_file()


def _place_legacy_tfm(p: Placement) -> bool:
    """legacy-tfm: projects targeting .NET Framework or .NET Standard before 2.1."""
    return _legacy(p.cs)


def _place_legacy_syntax(p: Placement) -> bool:
    """legacy-syntax: such projects whose code uses syntax needing polyfills."""
    return _legacy(p.cs) and bool(needs_syntax_polyfills(p.use))


def _place_roslyn(p: Placement) -> bool:
    """roslyn: source generator and analyzer projects."""
    return is_roslyn_component(p.cs, p.use)


def _place_packable(p: Placement) -> bool:
    """packable: libraries that are packed (not tests, executables or web apps)."""
    cs = p.cs
    return (
        not cs.is_test
        and cs.properties.get("IsPackable", "").lower() != "false"
        and cs.properties.get("OutputType", "").lower() != "exe"
        and not _web_app(cs)
    )


# placement rule kind -> the strategy deciding whether a project gets the package
PLACEMENTS = {
    "all": _place_all,
    "code": _place_code,
    "test": _place_test,
    "uses": _place_uses,
    "startup-ef": _place_startup_ef,
    "ef-migrations": _place_ef_migrations,
    "apphost": _place_apphost,
    "web": _place_web,
    "web-views": _place_web_views,
    "wasm": _place_wasm,
    "wasm-app": _place_wasm_app,
    "file": _place_file,
    "legacy-tfm": _place_legacy_tfm,
    "legacy-syntax": _place_legacy_syntax,
    "roslyn": _place_roslyn,
    "packable": _place_packable,
}


def _placed(
    rule: str,
    cs: CsProject,
    use: ProjectUse,
    by_project: dict[str, set[str]],
    graph: nx.DiGraph,
    uses: dict[str, ProjectUse],
    project: Project,
) -> bool:
    """Whether the placement `rule` puts its package into `cs` (unknown kinds: never)."""
    kind, _, arg = rule.partition(":")
    strategy = PLACEMENTS.get(kind)
    if strategy is None:
        return False
    return strategy(Placement(arg, cs, use, by_project, graph, uses, project))


def _has_views(project: Project, cs: CsProject) -> bool:
    """MVC views or Razor Pages (.cshtml) in the project's folder."""
    root = project.abspath(cs.directory) if cs.directory else project.abspath(".")
    return any(f.suffix == ".cshtml" for f in root.rglob("*.cshtml") if "bin" not in f.parts)


def is_architecture_test(use: ProjectUse) -> bool:
    """A test project checking layer rules over compiled assemblies (NetArchTest,
    ArchUnitNET): it references every layer it inspects directly."""
    marks = conventions().get("architecture_tests", [])
    names = [*use.usings, *use.global_usings]
    return use.cs.is_test and any(n == m or n.startswith(m + ".") for n in names for m in marks)


def needs_syntax_polyfills(use: ProjectUse) -> list[str]:
    """The newer-language syntax and compiler attributes the project's code uses that an
    older target compiles only with polyfilled types it does not declare itself."""
    spec = conventions()["polyfill_syntax"]
    own = {name for f in use.files for _ns, name, *_ in file_facts(f).types}
    used = {feat for f in use.files for feat in file_facts(f).features}
    out = sorted(f for f in used if spec["features"].get(f) not in own and f in spec["features"])
    out += sorted(
        a for a in spec["attributes"] if a in use.attributes and f"{a}Attribute" not in own
    )
    return out


def _web_app(cs: CsProject) -> bool:
    """An ASP.NET Core application (Web SDK, or a FrameworkReference on an executable),
    not a class library that only compiles against the shared framework."""
    if cs.sdk.split("/", 1)[0] in nxi.inbox()["web_sdks"]:
        return True
    return nxi.is_web(cs) and cs.properties.get("OutputType", "").lower() == "exe"


def _project_graph(candidates: list[Candidate], layout: list[CsProject]) -> nx.DiGraph:
    graph = nx.DiGraph()
    graph.add_nodes_from(cs.path for cs in layout)
    for c in candidates:
        # an analyzer or build-order reference (ReferenceOutputAssembly=false) passes
        # nothing on
        facts = dep_facts(c)
        if c.internal and c.path and not (facts.analyzer or facts.build_order):
            graph.add_edge(c.manifest, c.path, weight=facts.weight)
        elif not c.internal and facts.published in graph:
            # a sibling taken as its published package still brings that project's code
            graph.add_edge(c.manifest, facts.published, weight=facts.weight, published=True)
    return graph


# A package whose own entry point the project calls (`UseSqlServer`) is kept even when a
# referenced project brings it: projects list what they call.
# A project names a project another reference already brings when it uses it more than
# the reference that brings it (the layer it is written against), and leaves it to flow
# when it uses it less (a domain model reached through the use-case layer). Test projects
# follow the same comparison: reducing them fully (naming only the project under test)
# measured better on the 12 dev repositories (project F1 91.3 against 88.2) but worse on
# all five sets of 40 fresh ones (project F1 +0.8 to +2.8), so it was fitted to dev.
# False: every project by that comparison; True: all reduce fully.
REDUCE_PROJECT_REFERENCES = False
REDUCE_PACKAGES = True
# The evidence a reference needs to carry others (1.0 = any kept edge; raising it to
# require several firm uses measured worse on the dev repositories).
CARRIER_WEIGHT = 1.0


@dataclass(frozen=True)
class Flow:
    """What flows through the project graph: the graph without an AppHost's resource
    edges, and the projects whose references carry nothing on for a reason."""

    graph: nx.DiGraph  # the flowing edges
    tests: frozenset[str] | set[str]
    subjects: frozenset[tuple[str, str]] | set[tuple[str, str]]  # (test project, its subject)
    support: frozenset[str] | set[str]  # test-helper projects


def _implied(flow: Flow, src: str, dst: str, stronger: bool = False) -> bool:
    """Another well-evidenced reference of `src` already brings `dst` (with `stronger`:
    one that `src` uses more than it uses `dst` itself)."""
    flowing = flow.graph
    own = flowing[src][dst].get("weight", 1.0) if flowing.has_edge(src, dst) else 0.0
    for mid in flowing.successors(src):
        w = flowing[src][mid].get("weight", 1.0)
        if mid == dst or w < CARRIER_WEIGHT:
            continue
        if flowing[mid].get(dst, {}).get("published"):
            # `mid` takes `dst` as its published package: naming the project too
            # would bring a second copy of the same assembly, however much it is used
            return True
        if stronger and w <= own:
            continue
        if src in flow.tests and mid in flow.tests:
            continue  # another test project is referenced for its fixtures, not its subject
        if (src, dst) in flow.subjects and mid in flow.support:
            continue  # a test-helper project brings the subject, the tests still name it
        if dst in nx.descendants(flowing, mid):
            return True
    return False


def _packages_by_project(candidates: list[Candidate]) -> dict[str, set[str]]:
    """Lower-case library ids each project has, with what each package brings with it
    (its dependency group: a project referencing one that takes the Npgsql provider gets
    EF Core's relational layer from it too)."""
    brings: dict[str, set[str]] = defaultdict(set)
    for dep, carriers in conventions()["implied_by"].items():
        for carrier in carriers:
            brings[carrier.lower()].add(dep.lower())
    packages: dict[str, set[str]] = defaultdict(set)
    for c in candidates:
        if not c.internal and (dep_facts(c).kind or "lib") == "lib":
            packages[c.manifest].add(c.name.lower())
            packages[c.manifest].update(brings.get(c.name.lower(), ()))
    return packages


def reduce_transitive(
    candidates: list[Candidate],
    graph: nx.DiGraph,
    tests: set[str] = frozenset(),
    apphosts: set[str] = frozenset(),
    private_packages: set[str] = frozenset(),
    own_references: set[str] = frozenset(),
    subjects: set[tuple[str, str]] = frozenset(),
    support: set[str] = frozenset(),
    brought: list[Candidate] | None = None,
    all_evidence: bool = False,
) -> list[Candidate]:
    """Drop what another referenced project already brings (`brought`: the candidates
    whose packages count as a project's, before packages implied by others were dropped:
    a project keeps EF Core's SqlServer provider out of its list through its Aspire
    component, yet the provider still reaches the projects referencing it). An Aspire AppHost's
    references are resources it launches, not code that flows on to its referrers; the
    packages of a project in `private_packages` (PrivateAssets compile by default) do not
    flow on either. A project in `own_references` (DisableTransitiveProjectReferences)
    gets nothing through its references: it names every project it uses. With
    `all_evidence` no project reference is dropped (the evidence ceiling)."""
    if not nx.is_directed_acyclic_graph(graph):
        return candidates
    flowing = graph.copy()
    flowing.remove_edges_from([(s, d) for s, d in graph.edges if s in apphosts])
    flow = Flow(flowing, tests, subjects, support)
    packages = _packages_by_project(candidates if brought is None else brought)

    def reference_implied(c: Candidate) -> bool:
        """A ProjectReference another reference of the project already brings."""
        return (
            not all_evidence
            and c.manifest in flowing
            and c.manifest not in own_references
            and not dep_facts(c).named
            and _implied(flow, c.manifest, c.path, stronger=not REDUCE_PROJECT_REFERENCES)
        )

    def package_implied(c: Candidate) -> bool:
        """A library package a referenced project brings (and whose entry points the
        project does not call itself)."""
        if not (
            REDUCE_PACKAGES
            and (dep_facts(c).kind or "lib") == "lib"
            and not dep_facts(c).direct
            and c.manifest in graph
        ):
            return False
        return any(
            c.name.lower() in packages.get(d, ())
            for d in nx.descendants(flowing, c.manifest)
            if d not in private_packages
        )

    return [
        c for c in candidates if not (reference_implied(c) if c.internal else package_implied(c))
    ]


def drop_implied(
    candidates: list[Candidate],
    pools: dict[str, tuple[str, set[str]]] | None = None,
    graph: nx.DiGraph | None = None,
) -> list[Candidate]:
    """A package another chosen package of the same project depends on is not repeated;
    a referenced project of this repository that builds that other package counts too
    (a sample of `Serilog.AspNetCore` does not list what the package depends on).
    Under central package management (`pools`: project → (its Directory.Packages.props,
    lower-case listed ids)) a listed package that no project of that list would reference
    otherwise, implied in one of its projects only, is kept there: the repository listed
    it because a project references it."""
    implied = {k.lower(): {v.lower() for v in vs} for k, vs in conventions()["implied_by"].items()}
    names: dict[str, set[str]] = defaultdict(set)
    for c in candidates:
        if not c.internal or (c.path and dep_facts(c).kind != "framework"):
            names[c.manifest].add(c.name.lower())
    dropped = [
        not c.internal and bool(implied.get(c.name.lower(), set()) & names[c.manifest])
        for c in candidates
    ]
    pools = pools or {}
    solution = {m: props for m, (props, _) in pools.items()}
    places: dict[tuple[str | None, str], set[str]] = defaultdict(set)
    for c, d in zip(candidates, dropped, strict=True):
        if d:
            places[(solution.get(c.manifest), c.name.lower())].add(c.manifest)
    kept_in: dict[tuple[str | None, str], set[str]] = defaultdict(set)
    for c, d in zip(candidates, dropped, strict=True):
        if not d and not c.internal:
            kept_in[(solution.get(c.manifest), c.name.lower())].add(c.manifest)

    def reaches(src: str, dst: str) -> bool:
        return graph is not None and src in graph and dst in nx.descendants(graph, src)

    def listed_for_here(c: Candidate) -> bool:
        key = (solution.get(c.manifest), c.name.lower())
        listed = pools.get(c.manifest, ("", set()))[1]
        # a project that references this one gets the package from it: its own use is
        # no other reason for the list to name the package
        others = {p for p in kept_in[key] if not reaches(p, c.manifest)}
        return key[1] in listed and not others and len(places[key]) == 1

    return [c for c, d in zip(candidates, dropped, strict=True) if not d or listed_for_here(c)]


def infer(
    project: Project, refs: list[ImportRef], candidates: list[Candidate], ctx: Context
) -> list[Candidate]:
    layout, uses = gather(project, refs)
    by_path = {cs.path: cs for cs in layout}
    tree = read_tree(project, _ci_text(project), layout)
    added = (
        test_candidates(layout, uses, project)
        + polyfill_candidates(layout, uses)
        + config_candidates(layout, project)
        + protobuf_candidates(layout)
        + build_evidence_candidates(layout, uses, tree)
        + declared_tool_candidates(layout)
        + declared_in_use_candidates(layout, uses)
    )
    kept = []
    seen: set[tuple[str, str]] = set()
    for c in added:
        key = (c.manifest, c.name.lower())
        if key in seen or (_rule_of(c) == "rule:tool-settings" and tool_built_in(c.name, tree)):
            continue  # one rule says it already; or the SDK brings the tool itself
        if not _declared_by_habit(c, ctx):
            continue  # a fact rule (build evidence) may still add it below
        seen.add(key)
        cs = by_path.get(c.manifest)
        if cs is not None and cs.central and c.name.lower() not in {k.lower() for k in cs.pool}:
            continue
        kept.append(c)
    candidates = _one_framework_package(candidates, kept) + kept
    graph = _project_graph(candidates, layout)
    candidates = (
        candidates
        + placement_candidates(layout, uses, candidates, graph, project)
        + template_candidates(layout, uses, graph, project)
    )
    tests = {cs.path for cs in layout if cs.is_test}
    apphosts = {cs.path for cs in layout if _on_apphost_sdk(cs)}
    private = {cs.path for cs in layout if not cs.packages_flow}
    own_refs = {
        cs.path
        for cs in layout
        if cs.properties.get("DisableTransitiveProjectReferences", "").lower() == "true"
        or is_architecture_test(uses[cs.path])
    }
    pools = {
        cs.path: (cs.packages_props.path, {k.lower() for k in cs.pool})
        for cs in layout
        if cs.central and cs.packages_props is not None
    }
    # `X.Tests` names X, the project it tests, even when a test-helper project (one whose
    # sources all sit in test folders: TestCommon, X.TestUtils) brings X too
    support = {
        cs.path
        for cs in layout
        if not cs.is_test and cs.files and all(f.kind.value == "test" for f in cs.files)
    }
    subjects = set()
    for cs in layout:
        subject = test_subject(cs, layout, exact=True) if cs.is_test else None
        if subject is not None:
            subjects.add((cs.path, subject.path))
    result = reduce_transitive(
        drop_implied(candidates, pools, graph),
        graph,
        tests,
        apphosts,
        private,
        own_refs,
        subjects,
        support,
        brought=candidates,
        all_evidence=ctx.options.all_evidence,
    )
    _report_unplaced(project, layout, result, ctx)
    # a reference a Directory.Build file already makes is not written again
    return [c for c in result if not (c.internal and dep_facts(c).inherited)]


def _declared_by_habit(c: Candidate, ctx: Context) -> bool:
    """Whether the declare model keeps a template companion (other candidates: yes); one
    it leaves out is said, with its features and probability."""
    features = dep_facts(c).companion
    if features is None:
        return True
    est = csharp_declare.estimate(features)
    if not est.keep:
        ctx.info(
            f"{c.name}: not written: the declare model leaves it out ({est.describe()})", c.manifest
        )
    return est.keep


def _rule_of(c: Candidate) -> str:
    return c.evidence[0].rule if c.evidence else ""


def _one_framework_package(candidates: list[Candidate], added: list[Candidate]) -> list[Candidate]:
    """A project whose test framework package the conventions chose for how it runs
    (xunit.v3 for an executable, xunit.v3.mtp-v2 on testing platform v2) drops the other
    ids of that family its `using Xunit` mapped to: one framework package a project."""
    chosen: dict[str, set[str]] = defaultdict(set)
    for c in added:
        if any(e.rule == "rule:test-framework" for e in c.evidence):
            chosen[c.manifest].add(c.name.lower())
    if not chosen:
        return candidates
    families = []
    for spec in conventions()["test_frameworks"].values():
        family = {
            *spec["packages"],
            *(a for alts in spec["alternatives"].values() for a in alts),
            *spec.get("executable", []),
            *(a for alts in spec.get("executable_alternatives", {}).values() for a in alts),
            *spec.get("platform_v2", []),
        }
        families.append({f.lower() for f in family})
    out = []
    for c in candidates:
        low = c.name.lower()
        picked = chosen.get(c.manifest, set())
        if (
            not c.internal
            and low not in picked
            and any(low in fam and picked & fam for fam in families)
        ):
            continue
        out.append(c)
    return out


def _report_unplaced(
    project: Project, layout: list[CsProject], candidates: list[Candidate], ctx: Context
) -> None:
    """Centrally listed packages no project was found to need: say so, add nothing."""
    placed = {c.name.lower() for c in candidates if not c.internal}
    for m in project.manifests_of(Ecosystem.NUGET):
        if m.format == "csproj":
            placed.update(p.lower() for p in m.declared.get("PackageReference", []))
    for props in {cs.packages_props.path: cs for cs in layout if cs.packages_props}.values():
        inherited = set().union(*(cs.inherited_packages for cs in layout))
        missing = sorted(p for p in props.pool if p.lower() not in placed | inherited)
        if missing:
            ctx.info(
                "listed centrally, but no project's code shows a use: " + ", ".join(missing),
                props.packages_props.path,
            )
