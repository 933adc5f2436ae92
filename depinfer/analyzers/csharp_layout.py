"""Which .cs file belongs to which .csproj, and what each project inherits from MSBuild.

MSBuild gives every project the nearest `Directory.Build.props` above it (and that file may
import the next one up), the nearest `Directory.Packages.props` (central package
management), and the SDK's implicit usings. The C# stages all need these facts, so they
are worked out once here from the manifests scan read.
"""

from __future__ import annotations

import fnmatch
import posixpath
import re
from dataclasses import dataclass, field
from typing import Any

from depinfer.analyzers.msbuild_conditions import evaluate
from depinfer.analyzers.msbuild_functions import Evaluator, rooted_path
from depinfer.data import load_table
from depinfer.manifests import ManifestError
from depinfer.manifests.csproj import read as read_msbuild
from depinfer.model import Ecosystem, Manifest, Project, SourceFile

# The last part of a project name that marks a test project (`Shop.UnitTests`, `X.Specs`).
TEST_NAME = re.compile(
    r"(?i)(^|[._-])(unit|integration|functional|acceptance|architecture|e2e|verification)?"
    r"[._-]?(tests?|specs?)$"
)
# The same in PascalCase without a separator (`PublicApiIntegrationTests`, `CoreSpecs`).
TEST_NAME_PASCAL = re.compile(r"[a-z0-9](Tests?|Specs)$")


@dataclass
class CsProject:
    """One .csproj with everything it inherits."""

    manifest: Manifest
    path: str
    directory: str
    name: str
    sdk: str = ""
    extra_sdks: list[str] = field(default_factory=list)  # <Sdk Name="..."/> elements
    target_frameworks: list[str] = field(default_factory=list)
    implicit_usings: bool = False
    is_test: bool = False
    props: list[Manifest] = field(
        default_factory=list
    )  # Directory.Build.props chain, nearest first
    packages_props: Manifest | None = None  # nearest Directory.Packages.props
    central: bool = False  # central package management in force
    pool: dict[str, str] = field(default_factory=dict)  # PackageVersion id -> version
    inherited_packages: set[str] = field(default_factory=set)  # lower-case ids from props
    # projects a Directory.Build file (or what it imports) references for this project
    inherited_projects: set[str] = field(default_factory=set)
    # the part of inherited_packages that comes from the Directory.Build files (and what
    # they import), shared by every project below them; the rest the project's own
    # <Import> brings
    shared_packages: set[str] = field(default_factory=set)
    inherited_usings: list[dict[str, Any]] = field(default_factory=list)
    using_removes: set[str] = field(default_factory=set)
    files: list[SourceFile] = field(default_factory=list)
    linked: set[str] = field(default_factory=set)  # files compiled through Compile Include
    # Compile items of the shared projects (.projitems) it imports, repository-relative
    shared_compile: list[str] = field(default_factory=list)
    # set by mapping: the code uses ASP.NET Core but nothing references its shared framework
    needs_aspnetcore_framework: bool = False
    # set by mapping: a package the code uses (Mvc.Testing, JwtBearer …) declares the
    # ASP.NET Core FrameworkReference itself, so the shared framework is in this project's box
    aspnetcore_via_package: bool = False
    properties: dict[str, str] = field(default_factory=dict)
    # False when an ItemDefinitionGroup makes PackageReferences' compile assets private
    # (`<PrivateAssets>compile</PrivateAssets>` or `all`): the packages of this project do
    # not reach the projects referencing it, so those list every package they use
    packages_flow: bool = True

    @property
    def sdk_names(self) -> list[str]:
        """Every project SDK, without versions (`Aspire.AppHost.Sdk/9.0.0` → name)."""
        return [s.split("/", 1)[0] for s in [self.sdk, *self.extra_sdks] if s]

    @property
    def assembly_name(self) -> str:
        return self.properties.get("AssemblyName") or self.name

    @property
    def root_namespace(self) -> str:
        return self.properties.get("RootNamespace") or self.assembly_name


def _condition_applies(condition: str, is_test: bool, props: dict[str, str] | None = None) -> bool:
    """Whether an item's MSBuild Condition holds for this project (its evaluated
    properties, with MSBuildProjectName / MSBuildProjectFullPath); one that cannot be
    read counts as holding (msbuild_conditions)."""
    if not condition.strip():
        return True
    lowered = {k.lower(): v for k, v in (props or {}).items()}
    lowered["istestproject"] = "true" if is_test else lowered.get("istestproject", "false")
    return evaluate(condition, lowered) is not False


def _expand(value: str, props: dict[str, str], depth: int = 0) -> str:
    """`$(Name)` references in a property value replaced by the properties they name
    (`$(RefitTestTargets)` → `$(ModernTargets);net48` → `net8.0;net9.0;net48`); one
    that cannot be resolved stays as written."""
    if "$(" not in value or depth > 5:
        return value
    lowered = {k.lower(): v for k, v in props.items()}

    def sub(match: re.Match[str]) -> str:
        found = lowered.get(match.group(1).lower())
        return match.group(0) if found is None else _expand(found, props, depth + 1)

    return _PROPERTY.sub(sub, value)


def _dir(path: str) -> str:
    d = posixpath.dirname(path)
    return "" if d == "." else d


def _ancestors(directory: str) -> list[str]:
    """`directory` and each directory above it, innermost first, ending with ""."""
    out = [directory]
    while directory:
        directory = _dir(directory)
        out.append(directory)
    return out


def build_layout(project: Project) -> list[CsProject]:
    """Every readable .csproj with what it inherits, and the source files it compiles."""
    manifests = project.manifests_of(Ecosystem.NUGET)
    build_props = _by_directory(manifests, "Directory.Build.props")
    package_props = _by_directory(manifests, "Directory.Packages.props")
    projects: list[CsProject] = []
    imported_cache: dict[str, dict[str, Any] | None] = {}
    inherited_refs: dict[str, list[tuple[str, str, str]]] = {}
    evaluated_props: dict[str, dict[str, str]] = {}
    for m in manifests:
        if m.format != "csproj" or m.parse_error:
            continue
        cs, early, own = _read_project(project, m, build_props, imported_cache)
        _find_central(cs, package_props)
        late = _build_targets(project, cs.directory, cs.properties, imported_cache)
        evaluated = _evaluated(cs, late)
        _inherit_items(cs, early, own, late, evaluated)
        shared = [(pm.path, pm.data) for pm in cs.props] + [
            (d.get("path", ""), d) for d in early + late
        ]
        inherited_refs[cs.path] = [
            (origin, include, cond)
            for origin, data in shared
            for include, cond in data.get("project_reference_items", [])
            if _condition_applies(cond, cs.is_test, evaluated)
        ]
        evaluated_props[cs.path] = evaluated
        projects.append(cs)
    _assign_files(project, projects)
    _resolve_inherited_projects(projects, inherited_refs, evaluated_props)
    return projects


def _by_directory(manifests: list[Manifest], file_name: str) -> dict[str, Manifest]:
    """The readable MSBuild files of one name (Directory.Build.props …) by their folder."""
    return {
        _dir(m.path): m
        for m in manifests
        if m.path.rsplit("/", 1)[-1] == file_name and not m.parse_error
    }


def _test_sdks() -> list[str]:
    """Project SDKs that make a test project (MSTest.Sdk), from the shipped inbox table."""
    return list(load_table("csharp/nuget_inbox.json")["test_sdks"])


def _read_project(
    project: Project,
    m: Manifest,
    build_props: dict[str, Manifest],
    imported_cache: dict[str, dict[str, Any] | None],
) -> tuple[CsProject, list[dict[str, Any]], list[dict[str, Any]]]:
    """The project with its properties (props chain, own file, what both import), SDKs,
    target frameworks and test role; with the files its props chain and it import."""
    directory = _dir(m.path)
    name = posixpath.basename(m.path)[: -len(".csproj")]
    cs = CsProject(manifest=m, path=m.path, directory=directory, name=name)
    cs.props = _props_chain(directory, build_props)
    props: dict[str, str] = {}
    for pm in reversed(cs.props):
        props.update(_functions(project, pm.data, _dir(pm.path), directory, props))
    props.update(_functions(project, m.data, directory, directory, props))
    # files the props chain imports (`eng/Common.props`) count as part of it; their
    # properties give way to the project's own
    early = _imported(project, cs.props, props, directory, imported_cache)
    own = _imported(project, [m], props, directory, imported_cache)
    for data in own + early:
        where = _dir(data.get("path", ""))
        for key, value in _functions(project, data, where, directory, props).items():
            props.setdefault(key, value)
    cs.properties = props
    for data in own:
        if data.get("path", "").endswith(".projitems"):
            cs.shared_compile.extend(_shared_items(data))
    cs.sdk = m.data.get("sdk") or ""
    cs.extra_sdks = [n for n in m.data.get("extra_sdks", []) if n != cs.sdk]
    cs.target_frameworks = _target_frameworks(props)
    cs.implicit_usings = props.get("ImplicitUsings", "").lower() in ("enable", "true")
    cs.is_test = (
        props.get("IsTestProject", "").lower() == "true"
        or any(s.startswith(sdk) for s in cs.sdk_names for sdk in _test_sdks())
        or bool(TEST_NAME.search(name))
        or bool(TEST_NAME_PASCAL.search(name))
    )
    return cs, early, own


def _target_frameworks(props: dict[str, str]) -> list[str]:
    """TargetFrameworks / TargetFramework, or the old format's TargetFrameworkVersion."""
    tfms = _expand(props.get("TargetFrameworks") or props.get("TargetFramework") or "", props)
    legacy = re.fullmatch(r"v(\d)\.(\d)(?:\.(\d))?", props.get("TargetFrameworkVersion", ""))
    if not tfms and legacy:
        tfms = "net" + "".join(g for g in legacy.groups() if g)  # old format: v4.7.2
    return [t.strip() for t in tfms.split(";") if t.strip()]


def _find_central(cs: CsProject, package_props: dict[str, Manifest]) -> None:
    """The nearest Directory.Packages.props, its PackageVersion list, and whether central
    package management is in force; with the GlobalPackageReferences it and the props
    chain make, and whether the project's packages flow on."""
    for ancestor in _ancestors(cs.directory):
        if ancestor in package_props:
            cs.packages_props = package_props[ancestor]
            break
    central_flag = cs.properties.get("ManagePackageVersionsCentrally", "")
    if cs.packages_props is not None:
        pp = cs.packages_props
        cs.pool = dict(pp.data.get("package_versions", {}))
        flag = pp.data.get("properties", {}).get("ManagePackageVersionsCentrally", "")
        central_flag = central_flag or flag
    # the flag without any PackageVersion list (set under `Exists(...Packages.props)`
    # in a shared file used by repositories with and without one) manages nothing
    cs.central = (
        central_flag.lower() == "true" and (cs.packages_props is not None or bool(cs.pool))
        if central_flag
        else bool(cs.pool)
    )
    for pm in cs.props + ([cs.packages_props] if cs.packages_props else []):
        for pid in pm.data.get("global_package_references", []):
            cs.inherited_packages.add(pid.lower())
    cs.packages_flow = _packages_flow(
        [cs.manifest, *cs.props, *([cs.packages_props] if cs.packages_props else [])]
    )


def _evaluated(cs: CsProject, late: list[dict[str, Any]]) -> dict[str, str]:
    """What conditions test: the project's properties, then those the targets set."""
    evaluated = dict(cs.properties)
    evaluated["MSBuildProjectName"] = cs.name
    evaluated["MSBuildProjectFullPath"] = "/" + cs.path
    evaluated["MSBuildProjectDirectory"] = "/" + cs.directory
    for data in late:
        for key, value in data.get("properties", {}).items():
            evaluated.setdefault(key, value)
    return evaluated


def _inherit_items(
    cs: CsProject,
    early: list[dict[str, Any]],
    own: list[dict[str, Any]],
    late: list[dict[str, Any]],
    evaluated: dict[str, str],
) -> None:
    """The PackageReferences and Using items the project gets from its props chain, the
    files it and the chain import, and the build targets (those whose Condition holds)."""
    m = cs.manifest
    # Directory.Packages.props is imported into every project like a Directory.Build
    # file: a PackageReference item there (not only a GlobalPackageReference) is inherited
    central = [cs.packages_props] if cs.packages_props else []
    for pm in cs.props + central:
        for pid in _applicable_refs(pm, cs.is_test, evaluated):
            cs.inherited_packages.add(pid.lower())
        cs.inherited_usings.extend(_usings(pm.data, cs.is_test, evaluated))
        cs.using_removes.update(pm.data.get("using_removes", []))
    for data in early + late:
        cs.shared_packages.update(_package_ids(data, cs.is_test, evaluated))
    cs.shared_packages.update(cs.inherited_packages)
    for data in own + early + late:
        cs.inherited_packages.update(_package_ids(data, cs.is_test, evaluated))
        cs.inherited_usings.extend(_usings(data, cs.is_test, evaluated))
        cs.using_removes.update(data.get("using_removes", []))
    cs.inherited_usings.extend(_usings(m.data, cs.is_test, evaluated))
    cs.using_removes.update(m.data.get("using_removes", []))


def _resolve_inherited_projects(
    projects: list[CsProject],
    refs: dict[str, list[tuple[str, str, str]]],
    props: dict[str, dict[str, str]],
) -> None:
    """ProjectReference items of shared MSBuild files, resolved for each project: the
    Include is relative to the project (items are evaluated in its context), may use
    properties (`$(MSBuildThisFileDirectory)` of the file that defines them) and globs."""
    paths = [cs.path for cs in projects]
    for cs in projects:
        for origin, include, _cond in refs.get(cs.path, []):
            values = dict(props.get(cs.path, {}))
            values["MSBuildThisFileDirectory"] = "/" + (_dir(origin) + "/" if _dir(origin) else "")
            spec = _expand(include, values).replace("\\", "/")
            if "$(" in spec:
                continue
            if spec.startswith("/"):
                target = posixpath.normpath(spec.lstrip("/"))
            else:
                target = posixpath.normpath(posixpath.join(cs.directory, spec))
            if target.startswith(".."):
                continue
            pattern = target.replace("**/", "*")
            for path in paths:
                if path != cs.path and fnmatch.fnmatch(path, pattern):
                    cs.inherited_projects.add(path)


def _packages_flow(files: list[Manifest]) -> bool:
    """The nearest PackageReference default PrivateAssets (project file first) says
    whether compile assets flow on: `compile` or `all` keep them private."""
    for pm in files:
        private = pm.data.get("package_private_assets_default")
        if private:
            parts = {p.strip().lower() for p in private.split(";")}
            return not parts & {"compile", "all"}
    return True


def _props_chain(directory: str, build_props: dict[str, Manifest]) -> list[Manifest]:
    chain: list[Manifest] = []
    ancestors = _ancestors(directory)
    i = 0
    while i < len(ancestors):
        d = ancestors[i]
        if d in build_props:
            pm = build_props[d]
            chain.append(pm)
            imports = " ".join(pm.data.get("imports", []))
            if (
                "GetPathOfFileAbove" not in imports
                and "../Directory.Build.props" not in imports.replace("\\", "/")
            ):
                break
        i += 1
    return chain


def _usings(data: dict[str, Any], is_test: bool, props: dict[str, str]) -> list[dict[str, Any]]:
    """The `<Using>` items of an MSBuild file whose Condition holds for the project."""
    return [
        u
        for u in data.get("usings", [])
        if _condition_applies(u.get("condition", ""), is_test, props)
    ]


def _applicable_refs(pm: Manifest, is_test: bool, props: dict[str, str] | None = None) -> list[str]:
    return _applicable_ids(list(pm.declared.get("PackageReference", [])), pm.data, is_test, props)


# `$(Name)` in an Import path; `$([MSBuild]::…)` property functions are not evaluated
_PROPERTY = re.compile(r"\$\((\w+)\)")
_IMPORT_DEPTH = 4


def _imported(
    project: Project,
    importers: list[Manifest],
    props: dict[str, str],
    project_dir: str,
    cache: dict[str, dict[str, Any] | None],
) -> list[dict[str, Any]]:
    """What the `<Import Project=…>` lines of `importers` bring in, followed through the
    files they import in turn: repositories keep shared PackageReferences and properties in
    `eng/*.props` / `*.targets` files that a Directory.Build file imports, often by a
    property the project sets (`eng/$(ProjectType).targets`)."""
    out: list[dict[str, Any]] = []
    seen: set[str] = {m.path for m in importers}
    for m in importers:
        _follow(project, m.path, m.data.get("imports", []), props, project_dir, cache, seen, out, 0)
    return out


def _build_targets(
    project: Project,
    project_dir: str,
    props: dict[str, str],
    cache: dict[str, dict[str, Any] | None],
) -> list[dict[str, Any]]:
    """The nearest Directory.Build.targets above the project and what it imports: MSBuild
    reads it after the project file, so its PackageReferences belong to the project too."""
    for ancestor in _ancestors(project_dir):
        rel = (
            posixpath.join(ancestor, "Directory.Build.targets")
            if ancestor
            else ("Directory.Build.targets")
        )
        data = _read_msbuild(project, rel, cache)
        if data is None:
            continue
        out = [data]
        _follow(project, rel, data.get("imports", []), props, project_dir, cache, {rel}, out, 0)
        return out
    return []


def _follow(
    project: Project,
    importer: str,
    imports: list[str],
    props: dict[str, str],
    project_dir: str,
    cache: dict[str, dict[str, Any] | None],
    seen: set[str],
    out: list[dict[str, Any]],
    depth: int,
) -> None:
    if depth >= _IMPORT_DEPTH:
        return
    for spec in imports:
        rel = _import_path(spec, _dir(importer), project_dir, props, project)
        if rel is None or rel in seen:
            continue
        seen.add(rel)
        data = _read_msbuild(project, rel, cache)
        if data is None:
            continue
        out.append(data)
        _follow(
            project, rel, data.get("imports", []), props, project_dir, cache, seen, out, depth + 1
        )


def _is_file(project: Project) -> Any:
    return lambda rooted: project.abspath(rooted.lstrip("/")).is_file()


def _functions(
    project: Project, data: dict[str, Any], file_dir: str, project_dir: str, props: dict[str, str]
) -> dict[str, str]:
    """A file's properties with the path property functions in their values evaluated
    where the file sits (`RepoRoot` = `$([System.IO.Directory]::GetParent(...))`); a
    value that cannot be evaluated stays as written."""
    own = data.get("properties", {})
    if not any("$([" in v for v in own.values()):
        return own
    out = dict(own)
    for key, value in own.items():
        if "$([" in value:
            known = {**props, **{k: v for k, v in out.items() if "$([" not in v}}
            got = Evaluator(known, file_dir, project_dir, _is_file(project)).value(value)
            if got is not None:
                out[key] = got
    return out


def resolve_include(project: Project, cs: CsProject, include: str) -> str | None:
    """The repository-relative path an item Include of the project names once its
    properties are expanded (`$(RepoRoot)\\src\\A\\A.csproj`); None when it cannot be."""
    got = Evaluator(cs.properties, cs.directory, cs.directory, _is_file(project)).value(include)
    if got is None:
        return None
    got = got.replace("\\", "/")
    if not got.startswith("/"):
        got = "/" + (cs.directory + "/" if cs.directory else "") + got
    rooted = rooted_path(got)
    return None if rooted is None else rooted.lstrip("/")


def _import_path(
    spec: str,
    importer_dir: str,
    project_dir: str,
    props: dict[str, str],
    project: Project | None = None,
) -> str | None:
    """The repository-relative file an Import names, or None when it leaves the repository,
    names an SDK file, or needs a property this reading does not know."""
    if "*" in spec:
        return None
    if "$([" in spec:
        if project is None:
            return None
        got = Evaluator(props, importer_dir, project_dir, _is_file(project)).value(spec)
        if not got or not got.replace("\\", "/").startswith("/"):
            return None
        spec = got.replace("\\", "/")
    lowered = {k.lower(): v for k, v in props.items()}
    lowered["msbuildthisfiledirectory"] = importer_dir + "/" if importer_dir else ""
    lowered["msbuildprojectdirectory"] = project_dir
    missing = False

    def sub(match: re.Match[str]) -> str:
        nonlocal missing
        value = lowered.get(match.group(1).lower())
        if value is None or "$(" in value:
            missing = True
            return ""
        return value

    path = _PROPERTY.sub(sub, spec).replace("\\", "/")
    if missing or not path.endswith((".props", ".targets", ".projitems")):
        return None
    if not path.startswith("/") and not spec.lower().startswith("$(msbuild"):
        path = posixpath.join(importer_dir, path)
    rel = posixpath.normpath(path.lstrip("/") if path.startswith("/") else path)
    if rel.startswith("..") or posixpath.isabs(rel):
        return None
    return rel


def _read_msbuild(
    project: Project, rel: str, cache: dict[str, dict[str, Any] | None]
) -> dict[str, Any] | None:
    """An imported MSBuild file's items and properties; None when absent or unreadable
    (a broken shared file only loses what it would have added)."""
    if rel in cache:
        return cache[rel]
    data: dict[str, Any] | None = None
    try:
        path = project.abspath(rel)
        if path.is_file() and path.stat().st_size < 1_000_000:
            declared, data = read_msbuild(
                path.read_text(encoding="utf-8-sig", errors="replace"), rel
            )
            data["declared"] = declared
            data["path"] = rel
    except (OSError, ManifestError, ValueError):
        data = None
    cache[rel] = data
    return data


def _package_ids(
    data: dict[str, Any], is_test: bool, props: dict[str, str] | None = None
) -> set[str]:
    """Lower-case ids an imported MSBuild file references for this kind of project."""
    refs = data.get("declared", {}).get("PackageReference", [])
    out = {pid.lower() for pid in _applicable_ids(refs, data, is_test, props)}
    out.update(pid.lower() for pid in data.get("global_package_references", []))
    return out


def _applicable_ids(
    refs: list[str], data: dict[str, Any], is_test: bool, props: dict[str, str] | None = None
) -> list[str]:
    conditional = data.get("conditional_references", [])
    conditions = data.get("reference_conditions", {})
    out = []
    for pid in refs:
        if pid in conditional:
            cond = conditions.get(pid, "")
            if cond and not _condition_applies(cond, is_test, props):
                continue
        out.append(pid)
    return out


def _assign_files(project: Project, projects: list[CsProject]) -> None:
    by_dir: dict[str, list[CsProject]] = {}
    for cs in projects:
        by_dir.setdefault(cs.directory, []).append(cs)
    cs_files = [f for f in project.files if f.path.endswith((".cs", ".razor", ".cshtml"))]
    for f in cs_files:
        for ancestor in _ancestors(_dir(f.path)):
            owners = by_dir.get(ancestor)
            if owners:
                owner = owners[0]
                rel = f.path[len(ancestor) + 1 :] if ancestor else f.path
                if not _removed(owner, rel):
                    owner.files.append(f)
                break
    paths = {f.path: f for f in cs_files}
    owned = {f.path for cs in projects for f in cs.files}
    included: dict[str, list[CsProject]] = {}
    for cs in projects:
        have = {f.path for f in cs.files}
        patterns = []
        for raw in cs.manifest.data.get("compile_include", []):
            pattern = _expand(raw, cs.properties)
            if "$(" in pattern:
                continue
            patterns.append(
                posixpath.normpath(posixpath.join(cs.directory, pattern.replace("\\", "/")))
            )
        for pat in patterns + cs.shared_compile:
            for path, f in paths.items():
                if path not in have and fnmatch.fnmatch(path, pat.replace("**/", "*")):
                    cs.files.append(f)
                    included.setdefault(path, []).append(cs)
                    have.add(path)
    # another project's file compiled in again is a copy; so is a shared-source file no
    # project owns that several compile in. One that only a single project compiles in
    # is that project's own (an analyzer built from a shared folder).
    for path, includers in included.items():
        if path in owned or len(includers) > 1:
            for cs in includers:
                cs.linked.add(path)


def _shared_items(data: dict[str, Any]) -> list[str]:
    """A shared project's Compile items (`$(MSBuildThisFileDirectory)X.cs`, Visual Studio's
    .projitems format) as repository-relative patterns: each importing project compiles
    them."""
    here = _dir(data.get("path", ""))
    out = []
    for raw in data.get("compile_include", []):
        spec = raw.replace("\\", "/")
        for prop in ("$(MSBuildThisFileDirectory)", "$(MSBuildThisFileDirectory)/"):
            if spec.startswith(prop):
                spec = spec[len(prop) :]
        if "$(" in spec:
            continue
        out.append(posixpath.normpath(posixpath.join(here, spec)))
    return out


def _removed(cs: CsProject, rel: str) -> bool:
    for pattern in cs.manifest.data.get("compile_remove", []):
        # `$(CompilerGeneratedFilesOutputPath)/**/*.cs`: the emitted copies of generated code
        pat = _expand(pattern, cs.properties).replace("\\", "/")
        if "$(" in pat:
            continue
        if fnmatch.fnmatch(rel, pat) or fnmatch.fnmatch(rel, pat.replace("**/", "")):
            return True
    return False


def tfm_major(tfm: str) -> tuple[str, float]:
    """("netcore", 8.0) for net8.0, ("netstandard", 2.0), ("netfx", 4.72), ("netcore", 3.1)."""
    t = tfm.lower().split("-", 1)[0]
    m = re.fullmatch(r"netstandard(\d+)\.(\d+)", t)
    if m:
        return "netstandard", float(f"{m.group(1)}.{m.group(2)}")
    m = re.fullmatch(r"netcoreapp(\d+)\.(\d+)", t)
    if m:
        return "netcore", float(f"{m.group(1)}.{m.group(2)}")
    m = re.fullmatch(r"net(\d+)\.(\d+)", t)
    if m:
        return "netcore", float(f"{m.group(1)}.{m.group(2)}")
    m = re.fullmatch(r"net(\d)(\d)(\d?)", t)
    if m:
        return "netfx", float(f"{m.group(1)}.{m.group(2)}{m.group(3)}")
    m = re.fullmatch(r"net(\d+)", t)
    if m:
        return "netcore", float(m.group(1))
    return "unknown", 0.0
