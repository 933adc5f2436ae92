"""C# build tooling from build evidence: packages no `using` shows, added only when the
tree shows what they are for (data/csharp/build_evidence.json, one rule a row, each naming
the evidence it reads):

- `properties`: MSBuild properties the project or its Directory.Build files set
  (PublishRepositoryUrl → Microsoft.SourceLink.GitHub, on a GitHub-hosted repository built
  with an SDK that does not bring Source Link itself);
- `runsettings`: a *.runsettings file naming the coverlet data collector;
- `rule_ids`: an .editorconfig or .globalconfig that sets rules of an analyzer's id prefix
  to warning or error (`dotnet_diagnostic.RCS1036.severity = warning` → Roslynator);
- `ruleset`: the rule set file the project's `CodeAnalysisRuleSet` names configures rules
  of the analyzer (`<Rules AnalyzerId="StyleCop.Analyzers">` → StyleCop.Analyzers);
- `netfx_on_unix_ci`: .NET Framework targets built by a CI job on a Linux or macOS runner
  with an SDK that does not reference the reference assemblies itself.
"""

from __future__ import annotations

import posixpath
import re
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache

from depinfer.analyzers.csharp_layout import CsProject, tfm_major
from depinfer.data import load_table
from depinfer.facts.csharp import CsDepFacts
from depinfer.mapping import nuget_index as nxi
from depinfer.mapping.csharp_use import ProjectUse
from depinfer.model import Candidate, Ecosystem, Evidence, Project, Section
from depinfer.scan import walk_repository

# `dotnet_diagnostic.<ID>.severity = <level>` in an .editorconfig or .globalconfig
_DIAGNOSTIC = re.compile(
    r"^\s*dotnet_diagnostic\.([A-Za-z]+)\d+\.severity\s*=\s*([A-Za-z]+)", re.M | re.I
)
_ENFORCED = frozenset({"warning", "error"})
_ANALYZER_CONFIGS = (".editorconfig", ".globalconfig")
_RUNS_ON = re.compile(r"^\s*runs-on\s*:\s*(.+)$", re.M)
# `<Rules AnalyzerId="X" RuleNamespace="X">` in a Visual Studio rule set file
_RULESET_ANALYZER = re.compile(r"<Rules\b[^>]*?\bAnalyzerId\s*=\s*\"([^\"]+)\"", re.I)
_PROJECT_DIR = "$(MSBuildProjectDirectory)"
_GLOBAL_JSON_SDK = re.compile(r'"sdk"\s*:\s*\{[^}]*?"version"\s*:\s*"(\d+)', re.S)


@lru_cache(maxsize=1)
def build_rules() -> list[dict]:
    """The rows of data/csharp/build_evidence.json."""
    return list(load_table("csharp/build_evidence.json")["rules"])


@dataclass(frozen=True)
class Tree:
    """What the rules read from the repository, read once."""

    project: Project
    ci: str  # CI workflows and build scripts
    runsettings: str  # every *.runsettings file
    rule_prefixes: dict[str, set[str]]  # config folder -> id prefixes set to warning/error
    sdk_major: int | None  # the SDK global.json pins, else the least the targets need
    sdk_pinned: bool = False  # sdk_major is what global.json pins
    rulesets: dict[str, frozenset[str]] = field(default_factory=dict)
    # rule set file -> the lower-case analyzer ids its <Rules> sections configure


def _read(project: Project, rel: str) -> str:
    try:
        return project.abspath(rel).read_text(encoding="utf-8-sig", errors="replace")
    except OSError:
        return ""


def least_sdk(layout: list[CsProject]) -> int | None:
    """The oldest .NET SDK that builds every target framework (net8.0 needs SDK 8)."""
    majors = [
        int(version)
        for cs in layout
        for family, version in map(tfm_major, cs.target_frameworks)
        if family == "netcore" and version >= 5
    ]
    return max(majors) if majors else None


def read_tree(project: Project, ci: str, layout: list[CsProject]) -> Tree:
    runsettings = []
    prefixes: dict[str, set[str]] = defaultdict(set)
    rulesets: dict[str, frozenset[str]] = {}
    for folder, _, names in walk_repository(project.root):
        for name in names:
            rel = f"{folder}/{name}" if folder else name
            if name.lower().endswith(".runsettings"):
                runsettings.append(_read(project, rel))
            elif name.lower().endswith(".ruleset"):
                ids = _RULESET_ANALYZER.findall(_read(project, rel))
                rulesets[rel] = frozenset(i.strip().lower() for i in ids)
            elif name in _ANALYZER_CONFIGS:
                for prefix, level in _DIAGNOSTIC.findall(_read(project, rel)):
                    if level.lower() in _ENFORCED:
                        prefixes[folder].add(prefix.lower())
    m = _GLOBAL_JSON_SDK.search(_read(project, "global.json"))
    sdk = int(m.group(1)) if m else least_sdk(layout)
    return Tree(project, ci, "\n".join(runsettings), dict(prefixes), sdk, m is not None, rulesets)


def sdk_brings_it(rule: dict, tree: Tree) -> bool:
    """The SDK builds without the package: the rule names the SDK version that brought the
    tool in and global.json pins that one or a later one, or the project's targets need
    one (net8.0 builds only with SDK 8 or later); with neither, the row says."""
    since = rule.get("sdk_before")
    if since is None:
        return False
    if tree.sdk_major is None:
        return bool(rule.get("sdk_unpinned_brings_it"))
    return tree.sdk_major >= since


def _hosted_on(tree: Tree, host: str, cs: CsProject) -> bool:
    url = cs.properties.get("RepositoryUrl", "") + cs.properties.get("PackageProjectUrl", "")
    if f"{host}." in url.lower():
        return True
    return host == "github" and tree.project.abspath(".github").is_dir()


def _packable(cs: CsProject) -> bool:
    return (
        not cs.is_test
        and cs.properties.get("IsPackable", "").lower() != "false"
        and cs.properties.get("OutputType", "").lower() not in ("exe", "winexe")
        and cs.sdk.split("/", 1)[0] not in nxi.inbox()["web_sdks"]
    )


def _gets_it(spec: str, cs: CsProject, use: ProjectUse) -> bool:
    """Whether the row's `projects` kind takes in this project."""
    kind, _, arg = spec.partition(":")
    if not cs.files:
        return False
    if kind == "packable":
        return _packable(cs)
    if kind == "test":
        names = [*use.usings, *use.global_usings]
        return cs.is_test and (not arg or any(n == arg or n.startswith(arg + ".") for n in names))
    return kind == "code"


def _by_properties(rule: dict, cs: CsProject, tree: Tree) -> str | None:
    for prop, value in rule["properties"].items():
        if cs.properties.get(prop, "").strip().lower() == value.lower():
            return f"<{prop}>{value}</{prop}>"
    return None


def _by_runsettings(rule: dict, cs: CsProject, tree: Tree) -> str | None:
    text = tree.runsettings.lower()
    hit = next((s for s in rule["strings"] if s.lower() in text), None)
    return f"a runsettings file names {hit}" if hit else None


def _by_rule_ids(rule: dict, cs: CsProject, tree: Tree) -> str | None:
    prefix = rule["prefix"].lower()
    for folder, prefixes in tree.rule_prefixes.items():
        applies = not folder or cs.directory == folder or cs.directory.startswith(folder + "/")
        if applies and prefix in prefixes:
            where = f"{folder}/" if folder else ""
            return f"{where}.editorconfig/.globalconfig enforces {rule['prefix']} rules"
    return None


def ruleset_of(cs: CsProject, rulesets: dict[str, frozenset[str]]) -> str | None:
    """The rule set file the project's CodeAnalysisRuleSet names (relative to the project
    folder, as MSBuild reads it), if the tree has it; one whose folder cannot be read
    (an unresolved property) is found by its file name when only one file has that name."""
    value = cs.properties.get("CodeAnalysisRuleSet", "").strip().replace("\\", "/")
    if not value.lower().endswith(".ruleset"):
        return None
    if value.startswith(_PROJECT_DIR):
        value = value[len(_PROJECT_DIR) :].lstrip("/")
    if value.startswith("/"):  # a folder property expanded from the repository root
        path = posixpath.normpath(value.lstrip("/"))
    else:
        path = posixpath.normpath(posixpath.join(cs.directory, value))
    if path in rulesets:
        return path
    name = posixpath.basename(value).lower()
    same = [r for r in rulesets if posixpath.basename(r).lower() == name]
    return same[0] if len(same) == 1 and "$(" in value else None


def _by_ruleset(rule: dict, cs: CsProject, tree: Tree) -> str | None:
    path = ruleset_of(cs, tree.rulesets)
    if path is None or rule["analyzer_id"].lower() not in tree.rulesets[path]:
        return None
    return f"{path} configures {rule['analyzer_id']} rules"


def _by_netfx_on_unix_ci(rule: dict, cs: CsProject, tree: Tree) -> str | None:
    if not any(tfm_major(t)[0] == "netfx" for t in cs.target_frameworks):
        return None
    runners = " ".join(_RUNS_ON.findall(tree.ci)).lower()
    hit = next((r for r in rule["runners"] if r in runners), None)
    return f".NET Framework targets built on {hit} CI runners" if hit else None


# evidence kind -> the reader that returns what it found (None: nothing)
EVIDENCE: dict[str, Callable[[dict, CsProject, Tree], str | None]] = {
    "properties": _by_properties,
    "runsettings": _by_runsettings,
    "rule_ids": _by_rule_ids,
    "ruleset": _by_ruleset,
    "netfx_on_unix_ci": _by_netfx_on_unix_ci,
}


def convention_candidate(
    pid: str, cs: CsProject, rule: str, detail: str, private_assets: bool = False
) -> Candidate:
    """A package a convention or build evidence adds to `cs` (rule `rule`, why `detail`)."""
    return Candidate(
        ecosystem=Ecosystem.NUGET,
        name=pid,
        manifest=cs.path,
        section=Section.RUNTIME,
        evidence=[Evidence(f"rule:{rule}", cs.path, None, detail)],
        verified=True,
        facts=CsDepFacts(kind=nxi.kind_of(pid), convention=True, private_assets=private_assets),
    )


def _candidate(pid: str, cs: CsProject, rule: str, detail: str) -> Candidate:
    """Build tools never flow to the project's consumers (PrivateAssets=all)."""
    return convention_candidate(pid, cs, rule, detail, private_assets=True)


def build_evidence_candidates(
    layout: list[CsProject], uses: dict[str, ProjectUse], tree: Tree
) -> list[Candidate]:
    """One candidate per (project, rule) whose evidence the tree shows."""
    out = []
    for rule in build_rules():
        reader = EVIDENCE.get(rule["evidence"])
        if reader is None or sdk_brings_it(rule, tree):
            continue
        for cs in layout:
            pid = rule["package"]
            if pid.lower() in cs.inherited_packages or not _gets_it(
                rule["projects"], cs, uses[cs.path]
            ):
                continue
            if rule.get("host") and not _hosted_on(tree, rule["host"], cs):
                continue
            found = reader(rule, cs, tree)
            if found:
                out.append(_candidate(pid, cs, f"build-evidence:{rule['evidence']}", found))
    return out


def tool_built_in(pid: str, tree: Tree) -> bool:
    """A build-evidence row says the SDK global.json pins brings `pid` itself (for a
    setting in the project file itself, only a pinned SDK overrides it)."""
    return tree.sdk_pinned and any(
        r["package"] == pid and sdk_brings_it(r, tree) for r in build_rules()
    )


# Index kinds of packages that act at build time (an analyzer, MSBuild targets, a test host)
BUILD_KINDS = frozenset({"analyzer", "build", "test"})


def declared_tool_candidates(layout: list[CsProject]) -> list[Candidate]:
    """The project's own PackageReferences that do their work at build time — written with
    PrivateAssets=all, or analyzers, MSBuild tooling and test hosts by the index: used by
    the build, not by code, so `--check` never calls them unused."""
    out = []
    for cs in layout:
        private = {p.lower() for p in cs.manifest.data.get("private_assets", [])}
        for pid in cs.manifest.declared.get("PackageReference", []):
            if pid.lower() in private or nxi.kind_of(pid) in BUILD_KINDS:
                out.append(_candidate(pid, cs, "declared-build-tool", "used by the build"))
    return out


def declared_in_use_candidates(
    layout: list[CsProject], uses: dict[str, ProjectUse]
) -> list[Candidate]:
    """The project's own PackageReferences whose API its code uses even where the mapping
    chose another package for it (a namespace the declared package owns, beside its
    abstractions or implementation sibling; a polyfill's types): `--check` never calls them
    unused. A package that only adds extension methods into a namespace counts only when
    the code calls one of them; namespaces every framework has in the box say nothing."""
    always = set(nxi.inbox()["always"])
    out = []
    for cs in layout:
        use = uses[cs.path]
        names = sorted({*use.usings, *use.global_usings} - always)
        for pid in cs.manifest.declared.get("PackageReference", []):
            row = nxi.polyfills().get(pid)
            if row is not None:
                hit = next((t for t in row.get("types", []) if t in use.identifiers), None)
                hit = hit or next((n for n in row.get("namespaces", []) if n in names), None)
            else:
                hit = next((n for n in names if _owns(pid, n, use)), None)
            if hit:
                out.append(_candidate(pid, cs, "declared-in-use", f"the code uses {hit}"))
    return out


def _owns(pid: str, ns: str, use: ProjectUse) -> bool:
    """The index lists `pid` for exactly `ns`, as its owner (no markers) or with an
    extension method the code calls."""
    prefix, entries = nxi.lookup(ns)
    if prefix != ns:
        return False
    low = pid.lower()
    return any(
        e.package.lower() == low and (not e.markers or any(use.uses_marker(m) for m in e.markers))
        for e in entries
    )
