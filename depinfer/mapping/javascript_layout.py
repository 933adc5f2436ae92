"""The shape of a JavaScript repository: which package.json owns which file, workspace
members and their reference style, tsconfig/jsconfig paths and JSX settings, bundler aliases,
and which packages are never published (apps, docs sites, fixture projects).

Computed once per scanned project and shared by mapping, rules and resolver.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path, PurePosixPath

from depinfer import yaml_compat
from depinfer.data import load_table
from depinfer.mapping.javascript_names import package_name
from depinfer.model import Ecosystem, FileKind, Manifest, Project
from depinfer.scan import classify, nearest_directory, walk_repository


def parse_jsonc(text: str) -> object:
    """JSON with comments and trailing commas (tsconfig.json, jsconfig.json, .babelrc)."""
    token = re.compile(r'"(?:\\.|[^"\\])*"|//[^\n]*|/\*.*?\*/', re.S)
    text = token.sub(lambda m: m.group(0) if m.group(0).startswith('"') else "", text)
    commas = re.compile(r'"(?:\\.|[^"\\])*"|,(\s*[}\]])', re.S)
    text = commas.sub(lambda m: m.group(0) if m.group(0).startswith('"') else m.group(1), text)
    return json.loads(text)


def glob_regex(pattern: str) -> re.Pattern[str]:
    """Path globs (`packages/*`, `docs/**`, MSBuild's `src/**/*.csproj`) as a regex over
    repository-relative paths: `**` spans folders, `*` and `?` stay within one name, and
    `{a,b}` is either alternative (as npm's and the shells' globs read it)."""
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
        elif pattern[i] == "?":
            out += "[^/]"
            i += 1
        elif pattern[i] == "{" and "}" in pattern[i:] and "," in pattern[i : pattern.index("}", i)]:
            end = pattern.index("}", i)
            out += "(?:" + "|".join(re.escape(a) for a in pattern[i + 1 : end].split(",")) + ")"
            i = end + 1
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
    checks_js: bool = False  # allowJs/checkJs: JSDoc types in .js files are compiled
    # boolean compilerOptions, with those of the configs it extends (its own win)
    flags: dict[str, bool] = field(default_factory=dict)


@dataclass
class Layout:
    """What the mapping needs to know about a repository's packages, computed once."""

    owners: dict[str, Manifest]  # directory → the package.json that owns code under it
    by_name: dict[str, Manifest]  # package name → package.json in the repository
    members: set[str]  # manifest paths that are workspace members
    workspace_style: str | None  # "pnpm" | "yarn-berry" | "bun" | "yarn" | "npm" | None
    tsconfigs: dict[str, TsConfig]
    bundler_aliases: dict[str, list[str]]  # directory → alias prefixes from bundler configs
    files: set[str]
    unpublished: set[str] = field(default_factory=set)  # manifest paths never published
    # manifest paths whose `files` lists only build output (dist/): their source compiles into it
    compiled: set[str] = field(default_factory=set)
    root: Path | None = None  # the repository (for files the scan does not list: stylesheets)
    # manifest path → what its folder's `.npmignore` leaves out of the published package
    # (read only for a published package without a `files` list: npm then packs by it)
    npmignored: dict[str, Callable[[str], bool]] = field(default_factory=dict)


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
    if manifest.path in lay.members and _source_entries_only(manifest.data):
        return True
    if _desktop_app(manifest.data):
        return True
    for anc in ancestors(lay, manifest):
        base = anc.directory
        inner = manifest.directory[len(base) + 1 :] if base else manifest.directory
        if classify(inner + "/_.js") not in (FileKind.SOURCE, FileKind.SCRIPT):
            return True
    return False


def _desktop_app(data: dict) -> bool:
    """An Electron app packaged by electron-builder (its `build` settings with an appId or
    productName: electron-builder's "Configuration" page) or by Electron Forge
    (`config.forge`: Forge's "Configuration" page) ships as an installer, not to npm."""
    build = data.get("build")
    if isinstance(build, dict) and ("appId" in build or "productName" in build):
        return True
    config = data.get("config")
    return isinstance(config, dict) and "forge" in config


_SOURCE_EXTS = (".ts", ".tsx", ".mts", ".cts", ".vue", ".svelte")


def _source_entries_only(data: dict) -> bool:
    """Every entry point (main, module, exports) of a workspace member names an uncompiled
    TypeScript, Vue or Svelte source file and nothing rewrites them for publishing (no
    publishConfig): a workspace's internal package, which its siblings' bundler compiles from source; npm
    packages ship JavaScript (TypeScript handbook, "Publishing": ship .js with .d.ts)."""
    if "publishConfig" in data or "bin" in data:
        return False
    targets = string_leaves(*(data.get(k) for k in ("main", "module", "exports")))
    code = [t for t in targets if not t.endswith((".d.ts", ".json", ".css"))]
    return bool(code) and all(t.endswith(_SOURCE_EXTS) for t in code)


def _into_node_modules(targets: object) -> bool:
    items = targets if isinstance(targets, list) else [targets]
    strs = [t for t in items if isinstance(t, str)]
    return bool(strs) and all("node_modules/" in t.replace("\\", "/") for t in strs)


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
            # a key whose targets all lie in node_modules only redirects to an installed
            # package (`"pliny/*": ["node_modules/pliny/*"]`): the package is still needed
            cfg.aliases = [
                k for k, v in paths.items() if isinstance(k, str) and not _into_node_modules(v)
            ]
        base = opts.get("baseUrl")
        if isinstance(base, str):
            cfg.base_url = str(PurePosixPath(directory or ".") / base)
        if isinstance(opts.get("jsxImportSource"), str):
            cfg.jsx_import_source = opts["jsxImportSource"]
        if isinstance(opts.get("jsxFactory"), str):
            cfg.jsx_classic = True
        if isinstance(opts.get("jsx"), str):
            cfg.jsx = opts["jsx"]
        cfg.checks_js = opts.get("checkJs") is True or opts.get("allowJs") is True
        if isinstance(opts.get("types"), list):
            cfg.types = [t for t in opts["types"] if isinstance(t, str)]
        cfg.flags = {k: v for k, v in opts.items() if isinstance(k, str) and isinstance(v, bool)}
    return cfg


def _merge_extends(root: Path, configs: dict[str, TsConfig]) -> None:
    """Relative `extends` pass aliases, baseUrl and JSX settings down to the extending file
    (configs are taken base first, so a chain of extends passes them all the way)."""

    def depth(cfg: TsConfig, seen: frozenset[str] = frozenset()) -> int:
        best = 0
        for ext in cfg.extends:
            target = normalize_path(str(PurePosixPath(cfg.directory or ".") / ext))
            parent = configs.get(target) or configs.get(target + ".json")
            if ext.startswith(".") and parent is not None and target not in seen:
                best = max(best, 1 + depth(parent, seen | {target}))
        return best

    for cfg in sorted(configs.values(), key=depth):
        for ext in cfg.extends:
            if not ext.startswith("."):
                continue
            target = PurePosixPath(cfg.directory or ".") / ext
            parent = configs.get(normalize_path(str(target))) or configs.get(
                normalize_path(str(target) + ".json")
            )
            if parent is None:
                continue
            if not cfg.aliases:
                cfg.aliases = list(parent.aliases)
                cfg.base_url = cfg.base_url or parent.base_url
            cfg.jsx_import_source = cfg.jsx_import_source or parent.jsx_import_source
            cfg.jsx_classic = cfg.jsx_classic or parent.jsx_classic
            cfg.jsx = cfg.jsx or parent.jsx
            cfg.checks_js = cfg.checks_js or parent.checks_js
            for key, value in parent.flags.items():
                cfg.flags.setdefault(key, value)


def normalize_path(path: str) -> str:
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
        body = m.group("body")
        for k in _KEY.finditer(body):
            value = _ALIAS_VALUE.match(body, k.end())
            if value and package_name(value.group(1)) == package_name(k.group("key")):
                # `vue: 'vue/dist/vue.esm-bundler.js'` picks another build of the installed
                # package (vue's README, "Which dist file to use?"): still that package
                continue
            out.append(k.group("key"))
    return out


_ALIAS_VALUE = re.compile(r"""\s*['"]([^'"]+)['"]""")


def _layout_files(root: Path) -> list[str]:
    """tsconfig/jsconfig files and bundler configs (scan lists only source files)."""
    found: list[str] = []
    for dirpath, _dirnames, filenames in walk_repository(root):
        for name in filenames:
            if (
                (name.startswith(("tsconfig", "jsconfig")) and name.endswith(".json"))
                or name == "pnpm-workspace.yaml"
                or name in (".babelrc", ".babelrc.json", "package.json")
            ):
                found.append(f"{dirpath}/{name}" if dirpath else name)
    return found


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
    config_files = _layout_files(root)
    globs, style = _workspace_globs(root, good, config_files)
    tsconfigs, bundler = _config_aliases(root, config_files)
    _merge_extends(root, tsconfigs)
    _add_bundler_aliases(project, bundler)
    owners = _owners(good)
    result = Layout(
        owners=owners,
        by_name=_by_name(good),
        members=_members(good, globs),
        workspace_style=style,
        tsconfigs=tsconfigs,
        bundler_aliases=bundler,
        files={f.path for f in project.files},
        root=Path(project.root),
    )
    result.unpublished = {m.path for m in owners.values() if _unpublished(result, m)}
    result.compiled = {m.path for m in owners.values() if _files_all_built(root, m)}
    for m in owners.values():
        if m.path in result.unpublished or isinstance(m.data.get("files"), list):
            continue
        if not _entries_in_tree(Path(root), m):
            continue  # it publishes build output: what .npmignore leaves out is its source
        ignored = _npmignore(Path(root), m.directory)
        if ignored is not None:
            result.npmignored[m.path] = ignored
    return result


def export_targets(node: object) -> list[str]:
    """File paths an `exports` map points at (all conditions)."""
    if isinstance(node, str):
        return [node] if node.startswith("./") else []
    if isinstance(node, list):
        return [t for n in node for t in export_targets(n)]
    if isinstance(node, dict):
        return [t for n in node.values() for t in export_targets(n)]
    return []


def _entries_in_tree(root: Path, manifest: Manifest) -> bool:
    """The package's entry points (`main`, `module`, `exports` without wildcards) are files
    of the repository: it publishes its code as written, not a build of it."""
    data = manifest.data
    entries = [data[k] for k in ("main", "module") if isinstance(data.get(k), str)]
    entries += export_targets(data.get("exports"))
    entries = [normalize_path(e) for e in entries if "*" not in e]
    base = root / manifest.directory
    return bool(entries) and all(e and (base / e).is_file() for e in entries)


def _npmignore(root: Path, directory: str) -> Callable[[str], bool] | None:
    """What a package folder's `.npmignore` keeps out of the tarball, matched as npm
    matches it (gitignore rules, relative to the folder; npm documentation, "Keeping
    files out of your package"); None without one."""
    try:
        text = (root / directory / ".npmignore").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    from pathspec import GitIgnoreSpec  # lazy: only packages that keep an .npmignore

    spec = GitIgnoreSpec.from_lines(text.splitlines())
    return spec.match_file


def _owners(good: list[Manifest]) -> dict[str, Manifest]:
    """directory → the package.json that owns the code under it."""
    owners: dict[str, Manifest] = {}
    for m in good:
        # A package.json without a name is a marker ({"type": "module"}), not a package.
        if m.directory == "" or m.data.get("name") or m.declared:
            owners[m.directory] = m
    return owners


def _by_name(good: list[Manifest]) -> dict[str, Manifest]:
    """package name → the first package.json of that name."""
    by_name: dict[str, Manifest] = {}
    for m in good:
        name = m.data.get("name")
        if isinstance(name, str) and name and name not in by_name:
            by_name[name] = m
    return by_name


def _workspace_globs(
    root: Path, good: list[Manifest], config_files: list[str]
) -> tuple[list[str], str | None]:
    """(member globs, reference style) of the workspace: package.json `workspaces` (npm, yarn,
    yarn berry, bun by their lock files and packageManager), lerna.json, pnpm-workspace.yaml."""
    globs: list[str] = []
    style: str | None = None
    root_manifest = next((m for m in good if m.directory == ""), None)
    if root_manifest and root_manifest.data.get("workspaces"):
        globs.extend(root_manifest.data["workspaces"])
        style = _package_json_workspace_style(root, root_manifest)
    lerna = root / "lerna.json"
    if lerna.exists() and not globs:
        try:
            doc = json.loads(lerna.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            doc = None
        if isinstance(doc, dict):
            globs.extend(p for p in doc.get("packages", ["packages/*"]) if isinstance(p, str))
            style = style or "npm"
    if "pnpm-workspace.yaml" in config_files:
        try:
            doc = yaml_compat.safe_load((root / "pnpm-workspace.yaml").read_text(encoding="utf-8"))
        except (OSError, yaml_compat.YAMLError):
            doc = None
        if isinstance(doc, dict) and isinstance(doc.get("packages"), list):
            globs.extend(p for p in doc["packages"] if isinstance(p, str))
        style = "pnpm"
    return globs, style


def _package_json_workspace_style(root: Path, root_manifest: Manifest) -> str:
    """Which package manager runs a package.json `workspaces` workspace."""
    style = "npm"
    pm = str(root_manifest.data.get("packageManager", ""))
    if (root / "yarn.lock").exists() or pm.startswith("yarn"):
        style = "yarn"
    if (root / ".yarnrc.yml").exists() or re.match(r"yarn@[2-9]", pm):
        style = "yarn-berry"
    if (root / "bun.lockb").exists() or (root / "bun.lock").exists() or pm.startswith("bun"):
        style = "bun"  # bun understands the workspace: protocol
    return style


def _members(good: list[Manifest], globs: list[str]) -> set[str]:
    """Paths of the package.json files the workspace globs take in (and do not exclude)."""
    include = [glob_regex(g) for g in globs if not g.startswith("!")]
    exclude = [glob_regex(g[1:]) for g in globs if g.startswith("!")]
    return {
        m.path
        for m in good
        if m.directory
        and any(r.match(m.directory) for r in include)
        and not any(r.match(m.directory) or r.match(m.directory + "/") for r in exclude)
    }


def _config_aliases(
    root: Path, config_files: list[str]
) -> tuple[dict[str, TsConfig], dict[str, list[str]]]:
    """tsconfig/jsconfig files by path, and the aliases .babelrc and package.json files
    (Jest's moduleNameMapper, Babel's module-resolver) give their directories."""
    tsconfigs: dict[str, TsConfig] = {}
    bundler: dict[str, list[str]] = {}
    for rel in config_files:
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
    return tsconfigs, bundler


@lru_cache(maxsize=1)
def _alias_config_names() -> tuple[re.Pattern[str], tuple[str, ...]]:
    """(config file names, file name prefixes) that may hold aliases: alias_configs.toml."""
    doc = load_table("javascript/alias_configs.toml")
    stems = "|".join(re.escape(row["stem"]) for row in doc["config"])
    return re.compile(rf"(?:{stems})\.config\."), tuple(row["prefix"] for row in doc["prefix"])


def _add_bundler_aliases(project: Project, bundler: dict[str, list[str]]) -> None:
    """The aliases of the bundler and test-runner configs among the scanned files."""
    config_name, prefixes = _alias_config_names()
    for f in project.files_of("javascript"):
        name = PurePosixPath(f.path).name
        if config_name.match(name) or name.startswith(prefixes):
            try:
                text = project.abspath(f.path).read_text(encoding="utf-8", errors="replace")
            except OSError:
                continue
            d = str(PurePosixPath(f.path).parent)
            bundler.setdefault("" if d == "." else d, []).extend(_bundler_aliases(text))


# Files npm publishes whatever `files` says, or that a list names beside the code
# (npm Docs, package.json, "files": README, LICENSE and package.json are always included).
_NOT_CODE = re.compile(
    r"(?i)(readme|license|licence|changelog|notice)(\.\w+)?$|\.(d\.[cm]?ts|json|md)$"
)


def _files_all_built(root: Path, manifest: Manifest) -> bool:
    """Every path the package's `files` list names is missing from the repository (`dist`,
    `lib/*.js`): they are what its build writes, so the package publishes its compiled source
    (TypeScript handbook, "Publishing"), whatever folders that source sits in."""
    files = manifest.data.get("files")
    if not isinstance(files, list):
        return False
    base = root / manifest.directory
    entries = [
        normalize_path(f.rstrip("/")) for f in files if isinstance(f, str) and not f.startswith("!")
    ]
    entries = [e for e in entries if e and not _NOT_CODE.search(e)]
    if not entries:
        return False
    for e in entries:
        head = e.split("*", 1)[0].rsplit("/", 1)[0] if "*" in e else e
        if not head or (base / head).exists():
            return False
    return True


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
            base = normalize_path(cfg.base_url)
            first = spec.split("/")[0]
            target = f"{base}/{first}" if base else first
            # a module file (`src/users.ts`) or a folder (`src/lib/…`) under baseUrl; a
            # stylesheet (`css/tailwind.css`) is no module the scan lists, so ask the tree
            here = _candidates(lay, target) or (
                lay.root is not None
                and "." in PurePosixPath(spec).name
                and (lay.root / (f"{base}/{spec}" if base else spec)).is_file()
            )
            if here and package_name(spec) not in lay.by_name:
                return True
    parent = PurePosixPath(rel_file).parent
    for d, aliases in lay.bundler_aliases.items():
        if d == "" or PurePosixPath(d) in (parent, *parent.parents):
            if any(_alias_match(spec, a) for a in aliases if a and a not in (".", "/")):
                return True
    return False


def own_bundler_alias(lay: Layout, owner: Manifest, spec: str) -> bool:
    """A bundler config in the package's own folder (not the repository root) resolves the
    specifier to repository files (`'@acme/core': resolve(__dirname, '../../packages/core')`)."""
    aliases = lay.bundler_aliases.get(owner.directory, []) if owner.directory else []
    return any(_alias_match(spec, a) for a in aliases if a and a not in (".", "/"))


def _candidates(lay: Layout, target: str) -> list[str]:
    stems = {target + ext for ext in (".js", ".ts", ".tsx", ".jsx", ".mjs", ".vue", ".json")}
    return [f for f in lay.files if f in stems or f.startswith(target + "/")]


def string_leaves(*values: object) -> list[str]:
    """Every string inside nested package.json values (`exports` maps of conditions)."""
    out: list[str] = []
    stack: list[object] = list(values)
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            out.append(v)
        elif isinstance(v, dict):
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
    return out
