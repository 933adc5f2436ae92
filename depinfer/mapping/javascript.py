"""JavaScript/TypeScript mapping: module specifier → npm package (or internal, or builtin).

A specifier names a package by its first path segment (`lodash/fp` → lodash) or its first
two for scoped names (`@scope/pkg/sub` → @scope/pkg). Everything that resolves inside the
repository is internal: relative and absolute paths, package `imports` (`#x`), tsconfig /
jsconfig `paths` and `baseUrl`, bundler aliases, the package's own name, and the names of
other package.json files in the repository (workspace members, or sibling packages referenced
by path). Node builtins (with or without `node:`) need nothing. The file's role relative to
its own package.json decides the section: shipped code → dependencies, the rest → dev.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path, PurePosixPath

import yaml

from depinfer.context import Context
from depinfer.model import (
    Candidate,
    Ecosystem,
    Evidence,
    FileKind,
    ImportRef,
    Manifest,
    Project,
    Section,
)
from depinfer.scan import SKIP_DIRS, classify, nearest_directory

DATA = Path(__file__).resolve().parent.parent / "rules" / "data" / "javascript"
BUILTINS_FILE = (
    Path(__file__).resolve().parent.parent / "registries" / "data" / "node_builtins.json"
)

# Folders whose content is the package's shipped code whatever their subfolders are called.
SHIPPED_DIRS = {"src", "lib", "source", "app", "bin"}
# Top-level folders of a package that hold its tooling, not its code (a published package
# does not ship them unless `files`/`main`/`exports` say so).
TOOLING_DIRS = {"config", "configs", "stories", "storybook", "e2e", "types-test", "test-d"}
# Files that exist for the tooling (Storybook stories), wherever they are.
TOOLING_FILE = re.compile(
    r"\.(?:stories|story)\.[cm]?[jt]sx?$|\.(?:stories|story)\.(?:mdx|svelte|vue)$"
)
_NAME = re.compile(r"^(?:@[a-z0-9][\w.~-]*/)?[a-z0-9~][\w.~-]*$", re.I)


def load_table(path: Path) -> dict:
    """A TOML data table as plain Python (tomlkit: a declared dependency that also runs on
    Python 3.10, where the standard library has no TOML reader)."""
    import tomlkit

    return tomlkit.parse(path.read_text(encoding="utf-8")).unwrap()


@lru_cache(maxsize=1)
def node_builtins() -> frozenset[str]:
    data = json.loads(BUILTINS_FILE.read_text(encoding="utf-8"))
    return frozenset(data["builtins"]) | frozenset(data.get("prefix_only", []))


@lru_cache(maxsize=1)
def virtual_prefixes() -> tuple[str, ...]:
    """Specifier prefixes that frameworks and bundlers resolve themselves (data table)."""
    data = load_table(DATA / "virtual_modules.toml")
    return tuple(e["prefix"] for e in data["virtual"])


@lru_cache(maxsize=1)
def app_runtime_configs() -> tuple[str, ...]:
    """Config file patterns a framework's server loads at run time (rules data, frameworks)."""
    data = load_table(DATA / "tools" / "frameworks.toml")
    return tuple(
        p for u in data.get("units", []) if u.get("app_runtime") for p in u["config_files"]
    )


def is_builtin(spec: str) -> bool:
    if spec.startswith("node:"):
        return True
    if spec.endswith("/"):
        return False  # `punycode/` asks for the npm package of a builtin's name
    return spec in node_builtins() or spec.split("/")[0] in node_builtins()


def package_name(spec: str) -> str | None:
    """npm package named by a bare specifier, or None when it cannot be a package."""
    if spec.startswith("npm:"):
        spec = spec[4:]
        at = spec.find("@", 1)
        if at > 0 and "/" not in spec[at:]:
            spec = spec[:at]
    parts = spec.split("/")
    name = "/".join(parts[:2]) if spec.startswith("@") else parts[0]
    if not name or not _NAME.match(name) or (spec.startswith("@") and len(parts) < 2):
        return None
    return name


def parse_jsonc(text: str) -> object:
    """JSON with comments and trailing commas (tsconfig.json, jsconfig.json, .babelrc)."""
    token = re.compile(r'"(?:\\.|[^"\\])*"|//[^\n]*|/\*.*?\*/', re.S)
    text = token.sub(lambda m: m.group(0) if m.group(0).startswith('"') else "", text)
    commas = re.compile(r'"(?:\\.|[^"\\])*"|,(\s*[}\]])', re.S)
    text = commas.sub(lambda m: m.group(0) if m.group(0).startswith('"') else m.group(1), text)
    return json.loads(text)


def glob_regex(pattern: str) -> re.Pattern[str]:
    """Workspace globs (`packages/*`, `docs/**`) as a regex over repository-relative dirs."""
    pattern = pattern.strip().rstrip("/")
    if pattern.startswith("./"):
        pattern = pattern[2:]
    out = ""
    i = 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out += "(?:.*/)?"
            i += 3
        elif pattern.startswith("**", i):
            out += ".*"
            i += 2
        elif pattern[i] == "*":
            out += "[^/]*"
            i += 1
        else:
            out += re.escape(pattern[i])
            i += 1
    return re.compile(f"^{out}$")


@dataclass
class TsConfig:
    directory: str
    aliases: list[str] = field(default_factory=list)  # "@/*" → prefix "@/", "pinia" exact
    base_url: str | None = None  # repository-relative
    jsx_import_source: str | None = None
    jsx_classic: bool = False  # jsxFactory set: the factory must be imported explicitly
    jsx: str | None = None
    extends: list[str] = field(default_factory=list)
    types: list[str] = field(default_factory=list)


@dataclass
class Layout:
    """What the mapping needs to know about a repository's packages, computed once."""

    owners: dict[str, Manifest]  # directory → the package.json that owns code under it
    by_name: dict[str, Manifest]  # package name → package.json in the repository
    members: set[str]  # manifest paths that are workspace members
    workspace_style: str | None  # "pnpm" | "yarn-berry" | "yarn" | "npm" | None
    tsconfigs: dict[str, TsConfig]
    bundler_aliases: dict[str, list[str]]  # directory → alias prefixes from bundler configs
    files: set[str]
    unpublished: set[str] = field(default_factory=set)  # manifest paths never published


def ancestors(lay: Layout, manifest: Manifest) -> list[Manifest]:
    """Package manifests in directories above this one (the repository root included)."""
    here = PurePosixPath(manifest.directory)
    return [
        m
        for d, m in lay.owners.items()
        if m.path != manifest.path and (d == "" or PurePosixPath(d) in here.parents)
    ]


def _unpublished(lay: Layout, manifest: Manifest) -> bool:
    """Never published: `private`, or a package.json inside another package's test, docs or
    example folders (a fixture app, a docs site)."""
    if manifest.data.get("private") is True:
        return True
    entry_keys = ("main", "module", "exports", "bin", "files", "types", "typings", "browser")
    if not any(k in manifest.data for k in entry_keys) and not any(
        f"{manifest.directory}/{n}".lstrip("/") in lay.files
        for n in ("index.js", "index.mjs", "index.cjs", "index.ts")
    ):
        return True  # nothing a consumer could import: an application
    for anc in ancestors(lay, manifest):
        base = anc.directory
        inner = manifest.directory[len(base) + 1 :] if base else manifest.directory
        if classify(inner + "/_.js") not in (FileKind.SOURCE, FileKind.SCRIPT):
            return True
    return False


def _read_tsconfig(root: Path, rel: str) -> TsConfig | None:
    try:
        doc = parse_jsonc((root / rel).read_text(encoding="utf-8-sig"))
    except (OSError, ValueError):
        return None
    if not isinstance(doc, dict):
        return None
    directory = str(PurePosixPath(rel).parent)
    directory = "" if directory == "." else directory
    cfg = TsConfig(directory)
    ext = doc.get("extends")
    cfg.extends = [e for e in (ext if isinstance(ext, list) else [ext]) if isinstance(e, str)]
    opts = doc.get("compilerOptions") or {}
    if isinstance(opts, dict):
        paths = opts.get("paths") or {}
        if isinstance(paths, dict):
            cfg.aliases = [k for k in paths if isinstance(k, str)]
        base = opts.get("baseUrl")
        if isinstance(base, str):
            cfg.base_url = str(PurePosixPath(directory or ".") / base)
        if isinstance(opts.get("jsxImportSource"), str):
            cfg.jsx_import_source = opts["jsxImportSource"]
        if isinstance(opts.get("jsxFactory"), str):
            cfg.jsx_classic = True
        if isinstance(opts.get("jsx"), str):
            cfg.jsx = opts["jsx"]
        if isinstance(opts.get("types"), list):
            cfg.types = [t for t in opts["types"] if isinstance(t, str)]
    return cfg


def _merge_extends(root: Path, configs: dict[str, TsConfig]) -> None:
    """Relative `extends` pass aliases, baseUrl and JSX settings down to the extending file."""
    for cfg in configs.values():
        for ext in cfg.extends:
            if not ext.startswith("."):
                continue
            target = PurePosixPath(cfg.directory or ".") / ext
            parent = configs.get(_norm(str(target))) or configs.get(_norm(str(target) + ".json"))
            if parent is None:
                continue
            if not cfg.aliases:
                cfg.aliases = list(parent.aliases)
                cfg.base_url = cfg.base_url or parent.base_url
            cfg.jsx_import_source = cfg.jsx_import_source or parent.jsx_import_source
            cfg.jsx_classic = cfg.jsx_classic or parent.jsx_classic
            cfg.jsx = cfg.jsx or parent.jsx


def _norm(path: str) -> str:
    parts: list[str] = []
    for p in PurePosixPath(path).parts:
        if p == "..":
            if parts:
                parts.pop()
        elif p != ".":
            parts.append(p)
    return "/".join(parts)


_ALIAS_KEYS = re.compile(
    r"""alias\s*:\s*\{(?P<body>[^{}]*(?:\{[^{}]*\}[^{}]*)*)\}|find\s*:\s*['"](?P<find>[^'"]+)['"]""",
    re.S,
)
_KEY = re.compile(r"""(?:^|[,{\s])['"]?(?P<key>[@~#$\w./-]+?)['"]?\s*:""")


_MAPPER = re.compile(r"moduleNameMapper\s*['\"]?\s*:\s*\{(?P<body>[^{}]*)\}", re.S)
_MAPPER_KEY = re.compile(r"""['"](\^?)([^'"]+)['"]\s*:""")


def _mapper_prefixes(text: str) -> list[str]:
    """Jest `moduleNameMapper` keys are regexes: their literal start is an alias prefix."""
    out = []
    for m in _MAPPER.finditer(text):
        for k in _MAPPER_KEY.finditer(m.group("body")):
            if not k.group(1):
                continue  # unanchored patterns (\\.css$) map file types, not names
            literal = re.split(r"[\\().*+?\[\]{}|$]", k.group(2), maxsplit=1)[0]
            if literal:
                out.append(literal)
    return out


def _bundler_aliases(text: str) -> list[str]:
    out = _mapper_prefixes(text)
    for m in _ALIAS_KEYS.finditer(text):
        if m.group("find"):
            out.append(m.group("find"))
            continue
        for k in _KEY.finditer(m.group("body")):
            out.append(k.group("key"))
    return out


def _layout_files(root: Path) -> list[str]:
    """tsconfig/jsconfig files and bundler configs (scan lists only source files)."""
    found: list[str] = []
    for dirpath, _dirnames, filenames in _walk(root):
        for name in filenames:
            if (
                (name.startswith(("tsconfig", "jsconfig")) and name.endswith(".json"))
                or name == "pnpm-workspace.yaml"
                or name in (".babelrc", ".babelrc.json", "package.json")
            ):
                found.append(f"{dirpath}/{name}" if dirpath else name)
    return found


def _walk(root: Path):
    import os

    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d not in SKIP_DIRS and not d.startswith(".")]
        rel = Path(dirpath).relative_to(root).as_posix()
        yield ("" if rel == "." else rel), dirnames, filenames


_LAYOUTS: dict[int, tuple[Project, Layout]] = {}


def layout(project: Project) -> Layout:
    cached = _LAYOUTS.get(id(project))
    if cached and cached[0] is project:
        return cached[1]
    result = _build_layout(project)
    _LAYOUTS.clear()
    _LAYOUTS[id(project)] = (project, result)
    return result


def _build_layout(project: Project) -> Layout:
    root = project.root
    manifests = [m for m in project.manifests_of(Ecosystem.NPM) if m.format == "package_json"]
    good = [m for m in manifests if not m.parse_error]
    owners: dict[str, Manifest] = {}
    for m in good:
        # A package.json without a name is a marker ({"type": "module"}), not a package.
        if m.directory == "" or m.data.get("name") or m.declared:
            owners[m.directory] = m
    by_name: dict[str, Manifest] = {}
    for m in good:
        name = m.data.get("name")
        if isinstance(name, str) and name and name not in by_name:
            by_name[name] = m
    extra = _layout_files(root)
    globs: list[str] = []
    style: str | None = None
    root_manifest = next((m for m in good if m.directory == ""), None)
    if root_manifest and root_manifest.data.get("workspaces"):
        globs.extend(root_manifest.data["workspaces"])
        style = "npm"
        pm = str(root_manifest.data.get("packageManager", ""))
        if (root / "yarn.lock").exists() or pm.startswith("yarn"):
            style = "yarn"
        if (root / ".yarnrc.yml").exists() or re.match(r"yarn@[2-9]", pm):
            style = "yarn-berry"
    lerna = root / "lerna.json"
    if lerna.exists() and not globs:
        try:
            doc = json.loads(lerna.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            doc = None
        if isinstance(doc, dict):
            globs.extend(p for p in doc.get("packages", ["packages/*"]) if isinstance(p, str))
            style = style or "npm"
    if "pnpm-workspace.yaml" in extra:
        try:
            doc = yaml.safe_load((root / "pnpm-workspace.yaml").read_text(encoding="utf-8"))
        except (OSError, yaml.YAMLError):
            doc = None
        if isinstance(doc, dict) and isinstance(doc.get("packages"), list):
            globs.extend(p for p in doc["packages"] if isinstance(p, str))
        style = "pnpm"
    include = [glob_regex(g) for g in globs if not g.startswith("!")]
    exclude = [glob_regex(g[1:]) for g in globs if g.startswith("!")]
    members = {
        m.path
        for m in good
        if m.directory
        and any(r.match(m.directory) for r in include)
        and not any(r.match(m.directory) or r.match(m.directory + "/") for r in exclude)
    }
    tsconfigs: dict[str, TsConfig] = {}
    bundler: dict[str, list[str]] = {}
    for rel in extra:
        name = PurePosixPath(rel).name
        if name.startswith(".babelrc") or name == "package.json":
            try:
                text = (root / rel).read_text(encoding="utf-8", errors="replace")
            except OSError:
                continue
            d = str(PurePosixPath(rel).parent)
            bundler.setdefault("" if d == "." else d, []).extend(_bundler_aliases(text))
            continue
        if rel.endswith(".json"):
            cfg = _read_tsconfig(root, rel)
            if cfg is not None:
                tsconfigs[rel] = cfg
    _merge_extends(root, tsconfigs)
    for f in project.files_of("javascript"):
        name = PurePosixPath(f.path).name
        if re.match(
            r"(vite|vitest|webpack|rollup|nuxt|astro|svelte|babel|jest)\.config\.", name
        ) or (name.startswith((".babelrc", "webpack."))):
            try:
                text = project.abspath(f.path).read_text(encoding="utf-8", errors="replace")
            except OSError:
                continue
            d = str(PurePosixPath(f.path).parent)
            bundler.setdefault("" if d == "." else d, []).extend(_bundler_aliases(text))
    result = Layout(
        owners=owners,
        by_name=by_name,
        members=members,
        workspace_style=style,
        tsconfigs=tsconfigs,
        bundler_aliases=bundler,
        files={f.path for f in project.files},
    )
    result.unpublished = {m.path for m in owners.values() if _unpublished(result, m)}
    return result


def owner_of(lay: Layout, rel_file: str) -> Manifest | None:
    d = nearest_directory(rel_file, set(lay.owners))
    return lay.owners.get(d) if d is not None else None


def tsconfigs_for(lay: Layout, rel_file: str) -> list[TsConfig]:
    """tsconfig/jsconfig files whose directory contains the file, innermost first."""
    parent = PurePosixPath(rel_file).parent
    out = [
        c
        for c in lay.tsconfigs.values()
        if c.directory == "" or PurePosixPath(c.directory) in (parent, *parent.parents)
    ]
    return sorted(out, key=lambda c: -len(c.directory))


def _alias_match(spec: str, pattern: str) -> bool:
    if "*" in pattern:
        prefix = pattern.split("*", 1)[0]
        return bool(prefix) and spec.startswith(prefix)
    return spec == pattern or spec.startswith(pattern.rstrip("/") + "/")


def is_alias(lay: Layout, rel_file: str, spec: str) -> bool:
    """The specifier resolves through a path alias or baseUrl to repository files."""
    for cfg in tsconfigs_for(lay, rel_file):
        if any(_alias_match(spec, a) for a in cfg.aliases):
            return True
        if cfg.base_url is not None:
            base = _norm(cfg.base_url)
            first = spec.split("/")[0]
            target = f"{base}/{first}" if base else first
            if (
                any(f == target or f.startswith(target + "/") for f in _candidates(lay, target))
                and package_name(spec) not in lay.by_name
            ):
                return True
    parent = PurePosixPath(rel_file).parent
    for d, aliases in lay.bundler_aliases.items():
        if d == "" or PurePosixPath(d) in (parent, *parent.parents):
            if any(_alias_match(spec, a) for a in aliases if a and a not in (".", "/")):
                return True
    return False


def _candidates(lay: Layout, target: str) -> list[str]:
    stems = {target + ext for ext in (".js", ".ts", ".tsx", ".jsx", ".mjs", ".vue", ".json")}
    return [f for f in lay.files if f in stems or f.startswith(target + "/")]


def file_section(
    owner: Manifest | None, rel_file: str, kind: FileKind, unpublished: bool = False
) -> Section:
    """Shipped code → runtime; tests, configs, scripts, docs, examples → dev.

    The role is judged relative to the owning package.json, so a docs site or playground with
    its own package.json has runtime dependencies of its own. Files that `main`, `bin` or
    `files` name are shipped whatever their folder is called.
    """
    base = owner.directory if owner else ""
    inner = rel_file[len(base) + 1 :] if base else rel_file
    if owner is not None and _shipped(owner, inner):
        return Section.RUNTIME
    role = classify(inner)
    top = inner.split("/")[0] if "/" in inner else ""
    if ".macro." in PurePosixPath(inner).name:
        return Section.DEV  # babel-plugin-macros run these at compile time, never shipped
    if TOOLING_FILE.search(inner):
        return Section.DEV  # Storybook stories
    if not unpublished and (
        top in TOOLING_DIRS or (top.startswith(".") and top not in (".", ".."))
    ):
        return Section.DEV  # .storybook/, .vitepress/, config/ of a published package
    if role == FileKind.SCRIPT and top in SHIPPED_DIRS:
        return Section.RUNTIME  # src/scripts/*: a CLI's commands, shipped with it
    if role == FileKind.CONFIG or kind == FileKind.CONFIG:
        if unpublished and "/" not in inner and _matches(inner, app_runtime_configs()):
            return Section.RUNTIME  # next.config/astro.config of an app: loaded when it runs
        if top not in SHIPPED_DIRS:
            return Section.DEV  # a tool's config for this repository
        # a config inside shipped code (presets a tool package ships) goes with its folder
        role = classify(str(PurePosixPath(inner).parent / "_.js"))
    if unpublished and role in (FileKind.EXAMPLE, FileKind.DOCS, FileKind.BENCH):
        return Section.RUNTIME  # an app or docs site: its demos and pages are what it runs
    if (
        not unpublished
        and role == FileKind.SOURCE
        and top
        and top not in SHIPPED_DIRS
        and owner is not None
        and isinstance(owner.data.get("files"), list)
    ):
        # A package that lists what it publishes: other folders are repository tooling.
        return Section.DEV
    return Section.RUNTIME if role == FileKind.SOURCE else Section.DEV


def _matches(name: str, patterns: tuple[str, ...]) -> bool:
    import fnmatch

    return any(fnmatch.fnmatch(name, p) for p in patterns)


def _export_targets(node: object) -> list[str]:
    """File paths an `exports` map points at (all conditions)."""
    if isinstance(node, str):
        return [node] if node.startswith("./") else []
    if isinstance(node, list):
        return [t for n in node for t in _export_targets(n)]
    if isinstance(node, dict):
        return [t for n in node.values() for t in _export_targets(n)]
    return []


def _shipped(owner: Manifest, inner: str) -> bool:
    data = owner.data
    entries: list[str] = []
    for key in ("main", "module", "browser"):
        if isinstance(data.get(key), str):
            entries.append(data[key])
    bin_ = data.get("bin")
    if isinstance(bin_, str):
        entries.append(bin_)
    elif isinstance(bin_, dict):
        entries.extend(v for v in bin_.values() if isinstance(v, str))
    entries.extend(_export_targets(data.get("exports")))
    for e in entries:
        target = _norm(e)
        if target == inner or ("*" in target and glob_regex(target).match(inner)):
            return True
    files = data.get("files")
    if isinstance(files, list):
        for f in files:
            if not isinstance(f, str) or f.startswith("!"):
                continue
            f = _norm(f.rstrip("/"))
            if not f:
                continue
            if "*" in f:
                if glob_regex(f).match(inner):
                    return True
            elif inner == f or inner.startswith(f + "/"):
                return True
    return False


def jsx_source(lay: Layout, ref: ImportRef, owner: Manifest | None) -> str | None:
    """Package whose JSX runtime a file's JSX needs (pragma, tsconfig, else react)."""
    if ref.module:
        return ref.module
    for cfg in tsconfigs_for(lay, ref.file):
        if cfg.jsx_import_source:
            return cfg.jsx_import_source
        if cfg.jsx_classic:
            return None
    if owner is not None:
        deps = {n for names in owner.declared.values() for n in names}
        # A Preact/Vue/Solid project compiles JSX for its own runtime (knip: jsx-runtime).
        for lib in ("preact", "solid-js", "vue", "@emotion/react", "hono"):
            if lib in deps and "react" not in deps:
                return lib
    return "react"


def classify_spec(
    lay: Layout, ref: ImportRef, owner: Manifest | None
) -> tuple[str, str | None, Manifest | None]:
    """("skip"|"internal"|"external", package name, internal target manifest)."""
    spec = ref.module.strip()
    if ref.extra.get("jsx"):
        name = jsx_source(lay, ref, owner)
        if not name:
            return "skip", None, None
        spec = name
    if ref.extra.get("types_reference"):
        if is_builtin(spec) or spec == "node":
            return "external", "@types/node", None
    if not spec or spec.startswith((".", "/", "#")) or re.match(r"^[a-zA-Z]:[\\/]", spec):
        return "skip", None, None
    if spec.startswith(virtual_prefixes()) or re.match(r"^[a-z][\w+.-]*:", spec):
        if not spec.startswith(("node:", "npm:")):
            return "skip", None, None
    if is_builtin(spec):
        return "skip", None, None
    name = package_name(spec)
    if name is None:
        return "skip", None, None
    if owner is not None and owner.data.get("name") == name:
        return "skip", None, None  # a package importing itself
    target = lay.by_name.get(name)
    if target is not None and (owner is None or target.path != owner.path):
        return "internal", name, target
    if is_alias(lay, ref.file, spec):
        return "skip", None, None
    return "external", name, None


def _same_family(owner: Manifest, name: str) -> bool:
    """`name` sits in the owner's own scope (`@scope/x` for `@scope/y`) or in the scope named
    after it (`@semantic-release/npm` for `semantic-release`): its plugin family."""
    own = owner.data.get("name")
    if not isinstance(own, str) or not name.startswith("@"):
        return False
    scope = name.split("/")[0]
    if own.startswith("@"):
        return own.split("/")[0] == scope
    return scope == "@" + own


def map_imports(project: Project, refs: list[ImportRef], ctx: Context) -> list[Candidate]:
    lay = layout(project)
    out: list[Candidate] = []
    for ref in refs:
        owner = owner_of(lay, ref.file)
        if owner is None:
            continue
        verdict, name, target = classify_spec(lay, ref, owner)
        if verdict == "skip" or name is None:
            continue
        section = file_section(owner, ref.file, ref.kind, owner.path in lay.unpublished)
        if name.startswith("@types/") and owner.path not in lay.unpublished:
            section = Section.DEV  # declarations are for the compiler, never run
        if ref.extra.get("string_literal") and (
            not (verdict == "internal" or _same_family(owner, name))
            or section != Section.RUNTIME
            or owner.path in lay.unpublished
        ):
            continue
        ev = Evidence(
            "jsx-runtime" if ref.extra.get("jsx") else "import",
            ref.file,
            ref.line,
            ref.module or name,
        )
        cand = Candidate(
            ecosystem=Ecosystem.NPM,
            name=name,
            manifest=owner.path,
            section=section,
            import_names=[ref.module or name],
            evidence=[ev],
            optional=ref.optional,
            extra={
                "type_only": ref.type_only,
                "dynamic": ref.dynamic,
                "heuristic": bool(ref.extra.get("heuristic") or ref.extra.get("string_literal")),
                "require": bool(ref.extra.get("require")),
            },
        )
        if verdict == "internal" and target is not None:
            cand.internal = True
            cand.path = target.directory
        out.append(cand)
    return out
