"""Implicit JavaScript/TypeScript dependencies: tools named by scripts and config files.

The knowledge is data (knip-style, one small TOML unit per tool under data/javascript/tools/):
which config files a tool reads, which packages their presence implies, which config keys
name packages and by which naming convention. This module only applies those tables:
- package.json `scripts` → executables → the packages whose `bin` provides them (bins.toml,
  or the registry's `bin` field for an executable named like a package);
- config files (JSON, YAML or JS/TS, read without running them) → presets, plugins,
  environments, loaders, shared configs;
- TypeScript code that uses Node builtins → @types/node.
"""

from __future__ import annotations

import fnmatch
import json
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import cache, lru_cache
from pathlib import Path, PurePosixPath
from typing import Any

from depinfer.context import Context
from depinfer.data import load_table, table_names
from depinfer.facts.javascript import NpmFacts, import_facts, npm_facts
from depinfer.mapping.javascript import (
    Layout,
    file_section,
    is_builtin,
    layout,
    node_types,
    owner_of,
    package_name,
    package_section,
    standalone_example,
    walk_repository,
)
from depinfer.mapping.javascript_layout import normalize_path, string_leaves
from depinfer.model import Candidate, Ecosystem, Evidence, FileKind, ImportRef, Project, Section
from depinfer.rules.javascript_config import (
    config_strings,
    expand,
    js_config_values,
    parse_config,
)
from depinfer.rules.javascript_drivers import driver_needs
from depinfer.rules.javascript_scripts import script_executables, scripts_called

__all__ = ["expand", "infer", "js_config_values", "script_executables", "tools", "bins"]

TS_EXTS = (".ts", ".tsx", ".mts", ".cts")
RUNTIME_SCRIPTS = {"preinstall", "install", "postinstall"}  # run on the user's machine
# Scripts that start the app where it is deployed: `start` (what `npm start` and hosting
# platforms run) and the scripts named for production (`prod`, `start:prod`, as the NestJS
# and PM2 guides name them); a production runner they run is a runtime dependency.
PRODUCTION_SCRIPTS = {"start", "start:prod", "start:production", "prod", "production"}
_PRODUCTION_ENV = re.compile(r"(?:^|\s)NODE_ENV=['\"]?production\b")


@dataclass
class Tool:
    name: str
    docs: str
    config_files: list[str] = field(default_factory=list)
    package_json_key: str | None = None
    implies: list[str] = field(default_factory=list)
    keys: dict[str, str] = field(default_factory=dict)
    skip_values: set[str] = field(default_factory=set)
    string_config: str | None = None  # a config that is just a string names a package
    # settings whose value makes the *output* import a package: {pattern, package, section,
    # why, docs} (rollup's `babelHelpers: 'runtime'` → @babel/runtime in dependencies)
    settings: list[dict[str, str]] = field(default_factory=list)
    # keys whose modules the tool loads with `require` (they need a CommonJS release)
    commonjs_keys: set[str] = field(default_factory=set)
    # keys whose modules are bundled into an app's output (Angular's `polyfills`): runtime
    # dependencies of an unpublished package, like its own imports
    bundled_keys: set[str] = field(default_factory=set)
    # the config's presence alone does not make a package that lists everything in
    # `dependencies` (an app without devDependencies) install the implied tool: only a script
    # that runs it, or a name in a config, does
    presence_not_enough: bool = False
    # a JSON/YAML config read only under this top-level key (app.json's "expo" section)
    json_root: str | None = None
    # a package named `<tool>-config` exports this tool's shareable config (false for tools
    # whose configs are not shared by package that way)
    shareable_config: bool = True
    # keys whose values are the tool's own options, never package names (ESLint `rules`:
    # `"prettier/prettier": ["error", {"parser": "flow"}]` names prettier's parser option)
    opaque_keys: set[str] = field(default_factory=set)


@lru_cache(maxsize=1)
def tools() -> tuple[Tool, ...]:
    out: list[Tool] = []
    for name in table_names("javascript/tools", "*.toml"):
        doc = load_table(name)
        units = doc.get("units") or [doc]
        for u in units:
            out.append(
                Tool(
                    name=u.get("name", doc.get("name", Path(name).stem)),
                    docs=u.get("docs", doc.get("docs", "")),
                    config_files=list(u.get("config_files", [])),
                    package_json_key=u.get("package_json_key"),
                    implies=list(u.get("implies", [])),
                    keys=dict(u.get("keys", {})),
                    bundled_keys=set(u.get("bundled_keys", [])),
                    skip_values=set(u.get("skip_values", [])),
                    string_config=u.get("string_config"),
                    settings=list(u.get("settings", [])),
                    commonjs_keys=set(u.get("commonjs_keys", [])),
                    presence_not_enough=bool(u.get("presence_not_enough", False)),
                    json_root=u.get("json_root"),
                    shareable_config=bool(u.get("shareable_config", True)),
                    opaque_keys=set(u.get("opaque_keys", [])),
                )
            )
    return tuple(out)


@lru_cache(maxsize=1)
def subcommands() -> tuple[tuple[re.Pattern[str], str, list[str]], ...]:
    out = []
    for cmd, pkgs in load_table("javascript/bins.toml").get("subcommands", {}).items():
        exe, sub = cmd.split(" ", 1)
        pattern = re.compile(rf"(?:^|[\s;&|(/]){re.escape(exe)}\s+{re.escape(sub)}(?:\s|$|[;&|)])")
        out.append((pattern, cmd, list(pkgs)))
    return tuple(out)


@lru_cache(maxsize=1)
def production_runners() -> frozenset[str]:
    return frozenset(load_table("javascript/bins.toml")["production_runners"]["names"])


@lru_cache(maxsize=1)
def bins() -> tuple[dict[str, list[str]], frozenset[str]]:
    doc = load_table("javascript/bins.toml")
    return dict(doc["bins"]), frozenset(doc["not_packages"]["names"])


# ---------------------------------------------------------------- the rules


def _cand(
    name: str, manifest: str, section: Section, rule: str, file: str, detail: str, line=None
) -> Candidate:
    return Candidate(
        ecosystem=Ecosystem.NPM,
        name=name,
        manifest=manifest,
        section=section,
        evidence=[Evidence(rule, file, line, detail)],
        confidence=0.9,
        facts=NpmFacts(implicit=True),
    )


def _config_section(lay: Layout, owner, rel: str) -> Section:
    """Config files are dev tooling, unless they sit in shipped code (config presets a tool
    package ships: src/config/*) or are listed in `files`."""
    return package_section(lay, owner, rel, FileKind.CONFIG)


def _custom_type_roots(cfg: dict[str, Any] | None) -> bool:
    """tsconfig `typeRoots` beyond node_modules/@types (then `types` are not just @types/x)."""
    opts = cfg.get("compilerOptions") if isinstance(cfg, dict) else None
    roots = opts.get("typeRoots") if isinstance(opts, dict) else None
    return isinstance(roots, list) and any(
        isinstance(r, str) and not r.rstrip("/").endswith("node_modules/@types") for r in roots
    )


def _repo_files(project: Project) -> list[str]:
    out = []
    for d, _, names in walk_repository(project.root):
        for n in names:
            out.append(f"{d}/{n}" if d else n)
    return out


def _from_config(
    tool: Tool, cfg: dict[str, Any] | None, text: str | None
) -> list[tuple[str, str, bool]]:
    """(package, detail, loaded with require) triples a tool's config names."""
    out: list[tuple[str, str, bool]] = []
    values: dict[str, list[Any]] = {}
    if text is not None and tool.keys:
        values = js_config_values(text, list(tool.keys), tool.opaque_keys)
    elif cfg is not None:
        if "__string__" in cfg and tool.string_config:
            name = expand(cfg["__string__"], tool.string_config)
            return [(name, cfg["__string__"], False)] if name else []
        stack = [cfg]
        while stack:  # keys may sit in nested sections (eslint overrides, env blocks)
            node = stack.pop()
            for k, v in node.items():
                if k in tool.opaque_keys:
                    continue
                if k in tool.keys:
                    values.setdefault(k, []).append(v)
                if isinstance(v, dict):
                    stack.append(v)
                elif isinstance(v, list):
                    stack.extend(x for x in v if isinstance(x, dict))
    for key, found in values.items():
        convention = tool.keys[key]
        for value in found:
            if convention == "node-flags":
                _, mods = (
                    script_executables(
                        "node " + " ".join(v for v in value or [] if isinstance(v, str))
                    )
                    if isinstance(value, list)
                    else ([], [])
                )
                out.extend((n, m, False) for m in mods if (n := package_name(m)))
                continue
            for s in config_strings(key, value, convention):
                if s in tool.skip_values:
                    continue
                name = expand(s, convention)
                if name and not is_builtin(s):
                    out.append((name, f"{key}: {s}", key in tool.commonjs_keys))
    return out


def infer(
    project: Project, refs: list[ImportRef], candidates: list[Candidate], ctx: Context
) -> list[Candidate]:
    """The mapped candidates plus what tools, scripts, stylesheets and types imply."""
    lay = layout(project)
    files = _repo_files(project)
    out = list(candidates)
    out.extend(_config_file_rules(project, lay, files))
    out.extend(_shareable_config_rules(project, lay))
    for owner in lay.owners.values():
        raw = _raw_package_json(project, owner.path)
        if raw is not None:
            out.extend(_package_json_rules(owner, raw))
            out.extend(_script_rules(lay, owner, raw, ctx))
    out.extend(_stylesheet_rules(project, lay, files))
    out.extend(_companions(project, lay, out))
    out.extend(
        _cand(d.name, d.manifest, d.section, "rule:orm-driver", d.file, d.detail, d.line)
        for d in driver_needs(project, lay, files, out)
    )
    out.extend(_node_types_rule(lay, refs))
    return list(candidates) + [c for c in out[len(candidates) :] if not _names_itself(lay, c)]


def _names_itself(lay: Layout, cand: Candidate) -> bool:
    """A rule naming the package the manifest is (tailwindcss's own test stylesheets
    `@import "tailwindcss/base"`, a plugin repository's config loading the plugin): the
    package is the repository, never its own dependency."""
    owner = lay.by_name.get(cand.name)
    return owner is not None and owner.path == cand.manifest


@cache
def _names_matcher(patterns: tuple[str, ...]) -> Callable[[str], bool]:
    """`any(fnmatch.fnmatch(name, p) for p in patterns)` as one compiled expression (the
    per-file test ran tens of thousands of fnmatch calls on a large tree)."""
    if not patterns:
        return lambda _name: False
    match = re.compile("|".join(fnmatch.translate(os.path.normcase(p)) for p in patterns)).match
    return lambda name: match(os.path.normcase(name)) is not None


def _config_file_rules(project: Project, lay: Layout, files: list[str]) -> list[Candidate]:
    """Config files: the tool their presence implies, and the packages their values name."""
    out: list[Candidate] = []
    for rel in files:
        name = PurePosixPath(rel).name
        for tool in tools():
            if not _names_matcher(tuple(tool.config_files))(name):
                continue
            owner = owner_of(lay, rel)
            if owner is None:
                continue
            section = _config_section(lay, owner, rel)
            for pkg in tool.implies:
                cand = _cand(pkg, owner.path, section, f"rule:{tool.name}", rel, tool.docs)
                # the config's presence, not a name in it
                cand.facts = replace(
                    npm_facts(cand), implied=True, presence_not_enough=tool.presence_not_enough
                )
                out.append(cand)
            cfg, text = parse_config(project.abspath(rel), name)
            if tool.json_root and cfg is not None:
                cfg = cfg.get(tool.json_root)
                cfg = cfg if isinstance(cfg, dict) else None
            out.extend(_settings_rules(project, lay, owner, tool, rel))
            custom_roots = _custom_type_roots(cfg)
            esm = _runs_as_esm(_raw_package_json(project, owner.path))
            for pkg, detail, required in _from_config(tool, cfg, text):
                if custom_roots and detail.startswith("types:") and pkg != node_types():
                    continue  # `types` names may live under the extra typeRoots: ambiguous
                here = section
                if detail.split(":", 1)[0] in tool.bundled_keys and owner.path in lay.unpublished:
                    here = Section.RUNTIME
                cand = _cand(pkg, owner.path, here, f"rule:{tool.name}", rel, detail)
                if required and not esm:
                    cand.facts = replace(npm_facts(cand), require=True)
                out.append(cand)
    return out


def _entry_files(lay: Layout, owner) -> list[str]:
    """Repository files a package's main/exports name (index.* when it names none)."""
    targets = string_leaves(owner.data.get("exports"), owner.data.get("main"))
    if not targets:
        targets = ["index.js", "index.mjs", "index.cjs", "index.ts"]
    base = PurePosixPath(owner.directory or ".")
    out = []
    for t in targets:
        rel = normalize_path(str(base / t))
        if rel in lay.files and rel not in out and not rel.endswith(".d.ts"):
            out.append(rel)
    return out


def _shareable_config_rules(project: Project, lay: Layout) -> list[Candidate]:
    """A package named as a tool's shareable config (`@acme/prettier-config`,
    `stylelint-config-x`) exports that tool's config: the plugins, presets and configs its
    entry modules name are loaded by the tool from the projects using it, so they are the
    package's own dependencies (Prettier's "Sharing configurations", stylelint's
    "Writing shareable configs", commitlint's "Shareable configuration" pages)."""
    out: list[Candidate] = []
    for owner in lay.owners.values():
        name = owner.data.get("name")
        if not isinstance(name, str):
            continue
        last = name.rsplit("/", 1)[-1]
        entries = _entry_files(lay, owner)
        for tool in tools():
            if not tool.keys or not tool.shareable_config:
                continue
            stem = f"{tool.name}-config"
            by_name = last == stem or last.startswith(stem + "-")
            if by_name and entries and owner.path in lay.unpublished:
                # a workspace's own config package runs the tool for its users: it brings it
                for pkg in tool.implies:
                    cand = _cand(
                        pkg, owner.path, Section.RUNTIME, f"rule:{tool.name}", owner.path, name
                    )
                    out.append(cand)
            for rel in entries:
                file_stem = PurePosixPath(rel).name.split(".", 1)[0]
                if not (by_name or file_stem == stem):
                    continue  # (an exported `postcss-config.js` of a tailwind-config package)
                if any(fnmatch.fnmatch(PurePosixPath(rel).name, p) for p in tool.config_files):
                    continue  # read as a config file already
                cfg, text = parse_config(project.abspath(rel), PurePosixPath(rel).name)
                for pkg, detail, _ in _from_config(tool, cfg, text):
                    if pkg.lower() == name.lower():
                        continue
                    out.append(
                        _cand(pkg, owner.path, Section.RUNTIME, f"rule:{tool.name}", rel, detail)
                    )
    return out


def _runs_as_esm(raw: dict[str, Any] | None) -> bool:
    """The package's scripts run Node with ESM support for Jest (`--experimental-vm-modules`,
    directly or through NODE_OPTIONS): then Jest imports what its config names."""
    scripts = (raw or {}).get("scripts") or {}
    return "--experimental-vm-modules" in json.dumps(scripts)


def _settings_rules(project: Project, lay: Layout, owner, tool: Tool, rel: str) -> list[Candidate]:
    """A setting in the config whose value makes the built output import a package: that
    package is needed where the output runs — `dependencies` of a shipped package."""
    if not tool.settings:
        return []
    try:
        text = project.abspath(rel).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return []
    # commented-out settings (tsconfig templates list every option behind `//`) do not count;
    # blanked rather than removed so line numbers stay
    text = re.sub(r"/\*.*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group(0)), text, flags=re.S)
    text = re.sub(r"(?m)^(\s*)//.*$", r"\1", text)
    out: list[Candidate] = []
    for setting in tool.settings:
        m = re.search(setting["pattern"], text)
        if m is None:
            continue
        section = (
            Section.RUNTIME
            if setting.get("section") == "runtime"
            else _config_section(lay, owner, rel)
        )
        line = text.count("\n", 0, m.start()) + 1
        cand = _cand(setting["package"], owner.path, section, f"rule:{tool.name}", rel, m.group(0))
        cand.evidence = [
            Evidence(f"rule:{tool.name}", rel, line, f"{m.group(0)}: {setting.get('why', '')}")
        ]
        out.append(cand)
    return out


def _package_json_rules(owner, raw: dict[str, Any]) -> list[Candidate]:
    """Tool configs kept in package.json itself (`jest`, `babel`, `eslintConfig`, …)."""
    out: list[Candidate] = []
    for tool in tools():
        key = tool.package_json_key
        if not key or key not in raw:
            continue
        value = raw[key]
        cfg = value if isinstance(value, dict) else {"__string__": value}
        for pkg in tool.implies:
            cand = _cand(pkg, owner.path, Section.DEV, f"rule:{tool.name}", owner.path, key)
            cand.facts = replace(npm_facts(cand), implied=True)
            out.append(cand)
        esm = _runs_as_esm(raw)
        for pkg, detail, required in _from_config(tool, cfg, None):
            cand = _cand(pkg, owner.path, Section.DEV, f"rule:{tool.name}", owner.path, detail)
            if required and not esm:
                cand.facts = replace(npm_facts(cand), require=True)
            out.append(cand)
    return out


def _script_rules(lay: Layout, owner, raw: dict[str, Any], ctx: Context) -> list[Candidate]:
    """package.json scripts: executables → the packages providing them; preloaded modules.
    Install-time scripts run on the user's machine, so what they need is a runtime dependency."""
    scripts = raw.get("scripts")
    if not isinstance(scripts, dict):
        return []
    declared = {n.lower() for names in owner.declared.values() for n in names}
    root = lay.owners.get("")
    if root is not None and not standalone_example(owner):
        declared |= {n.lower() for names in root.declared.values() for n in names}
    at_install = _install_time_scripts(scripts)
    out: list[Candidate] = []
    for script, command in scripts.items():
        if not isinstance(command, str):
            continue
        section = Section.RUNTIME if script in at_install else Section.DEV
        exes, modules = script_executables(command)
        for exe in exes:
            cand = _executable_rule(owner, script, command, exe, section, declared, ctx)
            if cand is not None:
                out.append(cand)
        for pattern, cmd, pkgs in subcommands():
            if pattern.search(command):
                detail = f"scripts.{script}: {cmd}"
                for pkg in pkgs:
                    out.append(
                        _cand(
                            pkg, owner.path, section, "rule:script-subcommand", owner.path, detail
                        )
                    )
        for mod in modules:
            pkg = package_name(mod)
            if pkg and not is_builtin(mod) and not mod.startswith("."):
                detail = f"scripts.{script}: {mod}"
                out.append(
                    _cand(pkg, owner.path, section, "rule:script-preload", owner.path, detail)
                )
    return out


def _install_time_scripts(scripts: dict[str, Any]) -> set[str]:
    """The install scripts, and the package's own scripts they run (`"postinstall": "npm run
    scss"`): all run on the user's machine."""
    names = {k for k, v in scripts.items() if isinstance(v, str)}
    at_install: set[str] = set()
    todo = [k for k in RUNTIME_SCRIPTS if k in names]
    while todo:
        name = todo.pop()
        if name in at_install:
            continue
        at_install.add(name)
        todo.extend(scripts_called(scripts[name], names))
    return at_install


def _executable_rule(
    owner, script: str, command: str, exe: str, section: Section, declared: set[str], ctx
) -> Candidate | None:
    """The package whose `bin` provides an executable a script runs (None: the shell's or
    the runtime's own command, or one an already declared alternative provides)."""
    bin_table, not_packages = bins()
    exe_name = PurePosixPath(exe).name if exe.startswith("node_modules/.bin/") else exe
    if "/" in exe_name or exe_name in not_packages:
        return None
    pkgs = bin_table.get(exe_name)
    if pkgs:
        if any(p.lower() in declared for p in pkgs):
            return None  # an alternative provider is declared (npm-run-all2 for run-s)
        pkg = pkgs[0]
    else:
        pkg = _bin_from_registry(ctx, exe_name)
        if pkg is None:
            return None
    detail = f"scripts.{script}: {exe_name}"
    if script in PRODUCTION_SCRIPTS and (
        exe_name in production_runners() or _PRODUCTION_ENV.search(command)
    ):
        # keeps the app running where it is deployed; a start script that sets
        # NODE_ENV=production runs there, so its env wrapper (cross-env) goes too
        section = Section.RUNTIME
    return _cand(pkg, owner.path, section, "rule:script-bin", owner.path, detail)


def _stylesheet_rules(project: Project, lay: Layout, files: list[str]) -> list[Candidate]:
    """Stylesheets importing packages (tailwindcss, normalize.css, @fontsource/*)."""
    out: list[Candidate] = []
    for rel in files:
        if not rel.endswith(CSS_EXTS):
            continue
        owner = owner_of(lay, rel)
        if owner is None:
            continue
        try:
            text = project.abspath(rel).read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        if "@" not in text:
            continue
        section = package_section(lay, owner, rel, FileKind.SOURCE)
        for pkg, line, spec in css_packages(project, rel, text):
            out.append(_cand(pkg, owner.path, section, "rule:css-import", rel, spec, line))
    return out


def _node_types_rule(lay: Layout, refs: list[ImportRef]) -> list[Candidate]:
    """TypeScript code using Node builtins needs Node's type declarations (@types/node).

    Types are never needed at run time; an unpublished package (an app, a fixture project)
    keeps them with the code that needs them."""
    out: list[Candidate] = []
    seen: set[str] = set()
    for ref in refs:
        if not (
            ref.file.endswith(TS_EXTS) and not import_facts(ref).jsx and is_builtin(ref.module)
        ):
            continue
        owner = owner_of(lay, ref.file)
        if owner is None or owner.path in seen:
            continue
        seen.add(owner.path)
        section = Section.DEV
        types_in_dev = any(
            n.startswith("@types/") for n in owner.declared.get("devDependencies", [])
        )
        if owner.path in lay.unpublished and not types_in_dev:
            # (an app whose devDependencies already hold type packages keeps them there)
            section = file_section(owner, ref.file, ref.kind, True)
        out.append(
            _cand(
                node_types(),
                owner.path,
                section,
                "rule:types-node",
                ref.file,
                ref.module,
                ref.line,
            )
        )
    return out


_NODE_MODULES_PATH = re.compile(r"(?:^|/)node_modules/((?:@[a-z0-9][\w.-]*/)?[a-z0-9][\w.-]*)")
_CSS_IMPORT = re.compile(r"""@(?:import|plugin|reference)\s+(?:url\(\s*)?["']([^"']+)["']""")
CSS_EXTS = (".css", ".pcss", ".postcss", ".scss", ".sass", ".less")


def css_packages(project: Project, rel: str, text: str) -> list[tuple[str, int, str]]:
    """(package, line, specifier) for stylesheet imports that name packages.

    Bundlers and postcss-import resolve a bare `@import "tailwindcss"` or `~pkg/x.css` from
    node_modules when no file of that name sits next to the stylesheet. Sass/Less resolve bare
    names to local partials, so only their `~pkg` form counts.
    """
    out = []
    here = PurePosixPath(rel).parent
    plain_css = not rel.endswith((".scss", ".sass", ".less"))
    for m in _CSS_IMPORT.finditer(text):
        spec = m.group(1).strip()
        in_modules = _NODE_MODULES_PATH.search(spec)
        if in_modules:  # `@import 'node_modules/bootstrap/scss/bootstrap'`: named outright
            name = package_name(in_modules.group(1))
            if name:
                out.append((name, text.count("\n", 0, m.start()) + 1, m.group(1)))
            continue
        tilde = spec.startswith("~") and not spec.startswith("~/")
        if tilde:
            spec = spec[1:]
        elif not plain_css:
            continue
        if not spec or spec.startswith((".", "/", "#")) or ":" in spec:
            continue
        last = spec.rsplit("/", 1)[-1]
        if not tilde and "." in last and "/" not in spec:
            continue  # `@import "theme.css"`: a sibling file (CSS URLs are relative)
        local = project.abspath(str(here / spec))
        if not tilde and (local.exists() or local.with_name(local.name + ".css").exists()):
            continue
        name = package_name(spec)
        if name:
            out.append((name, text.count("\n", 0, m.start()) + 1, m.group(1)))
    return out


@lru_cache(maxsize=1)
def companions() -> tuple[dict[str, str], ...]:
    doc = load_table("javascript/companions.toml")
    return tuple(doc["companion"])


def _extended_configs(lay: Layout) -> set[str]:
    """Shared configs other tsconfigs extend (`tsconfig.base.json`): they compile nothing
    themselves unless they are a directory's own tsconfig.json/jsconfig.json."""
    out: set[str] = set()
    for cfg in lay.tsconfigs.values():
        for ext in cfg.extends:
            if ext.startswith("."):
                target = normalize_path(str(PurePosixPath(cfg.directory or ".") / ext))
                for rel in (target, target + ".json"):
                    if rel in lay.tsconfigs and PurePosixPath(rel).name not in (
                        "tsconfig.json",
                        "jsconfig.json",
                    ):
                        out.add(rel)
    return out


def _companions(project: Project, lay: Layout, found: list[Candidate]) -> list[Candidate]:
    """Packages that the packages (or compiler options) in use need at run time."""
    out: list[Candidate] = []
    for comp in companions():
        rule = next(r for prefix, r in _COMPANION_KINDS if comp["when"].startswith(prefix))
        # last, after the evidence proper: `--explain` names the rule that decided
        decided = Evidence(f"rule:{rule.__name__[1:]}", detail=comp["when"])
        for cand in rule(lay, comp, found):
            cand.evidence.append(decided)
            out.append(cand)
    return out


def _option_companions(lay: Layout, comp: dict, found: list[Candidate]) -> list[Candidate]:
    """`when = "tsconfig:<option>"`: a tsconfig that sets the compiler option (itself or
    through a config it extends), and is not only a base other configs extend."""
    option = comp["when"].split(":", 1)[1]
    section = Section(comp.get("section", "runtime"))
    extended = _extended_configs(lay)
    out: list[Candidate] = []
    for rel, cfg in lay.tsconfigs.items():
        owner = owner_of(lay, rel)
        if owner is None or rel in extended:
            continue
        if cfg.flags.get(option) is True:
            out.append(
                _cand(comp["needs"], owner.path, section, "rule:companion", rel, comp["docs"])
            )
    return out


def _entry_point_companions(lay: Layout, comp: dict, found: list[Candidate]) -> list[Candidate]:
    """`when = "module:<entry point>"`: an entry point of a package that loads an optional
    peer of that package, unless an alternative the package uses replaces that peer."""
    module = comp["when"].split(":", 1)[1]
    used_lower = {(c.manifest, c.name.lower()) for c in found}
    unless = {n.lower() for n in comp.get("unless", [])}
    out: list[Candidate] = []
    for c in found:
        if any((c.manifest, n) in used_lower for n in unless):
            continue  # an alternative the package uses instead
        if any(m == module or m.startswith(module + "/") for m in c.import_names):
            sec = Section(comp["section"]) if "section" in comp else c.section
            at = c.evidence[0].file if c.evidence and c.evidence[0].file else c.manifest
            out.append(_cand(comp["needs"], c.manifest, sec, "rule:companion", at, module))
    return out


def _package_companions(lay: Layout, comp: dict, found: list[Candidate]) -> list[Candidate]:
    """`when = "<package>"`: a package in use (`if_used`: only where the needed package is
    in use already, to place it; `beside`: only where these are in use too)."""
    used = {(c.manifest, c.name) for c in found}
    section = Section(comp.get("section", "runtime"))
    out: list[Candidate] = []
    for manifest, name in sorted(used):
        if comp.get("if_used") and (manifest, comp["needs"]) not in used:
            continue  # only places a package the code already uses
        if any((manifest, other) not in used for other in comp.get("beside", [])):
            continue
        if name == comp["when"]:
            out.append(
                _cand(comp["needs"], manifest, section, "rule:companion", manifest, comp["docs"])
            )
    return out


# what a companion row's `when` names (by its prefix) → the rule that finds its uses
_COMPANION_KINDS = (
    ("tsconfig:", _option_companions),
    ("module:", _entry_point_companions),
    ("", _package_companions),
)


def _raw_package_json(project: Project, rel: str) -> dict[str, Any] | None:
    try:
        doc = json.loads(project.abspath(rel).read_text(encoding="utf-8-sig"))
    except (OSError, ValueError):
        return None
    return doc if isinstance(doc, dict) else None


def _bin_from_registry(ctx: Context, exe: str) -> str | None:
    """An executable named like a package whose published `bin` provides it."""
    if package_name(exe) != exe or ctx.registries.client(Ecosystem.NPM) is None:
        return None
    bin_ = ctx.registries.metadata(Ecosystem.NPM, exe).get("bin")
    if isinstance(bin_, str) or (isinstance(bin_, dict) and exe in bin_):
        return exe
    return None
