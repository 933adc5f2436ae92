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
import re
import shlex
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path, PurePosixPath
from typing import Any

import yaml

from depinfer.context import Context
from depinfer.mapping.javascript import (
    Layout,
    _walk,
    file_section,
    is_builtin,
    layout,
    load_table,
    owner_of,
    package_name,
    parse_jsonc,
)
from depinfer.model import Candidate, Ecosystem, Evidence, FileKind, ImportRef, Project, Section

DATA = Path(__file__).resolve().parent / "data" / "javascript"
TS_EXTS = (".ts", ".tsx", ".mts", ".cts")
RUNTIME_SCRIPTS = {"preinstall", "install", "postinstall"}  # run on the user's machine


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


@lru_cache(maxsize=1)
def tools() -> tuple[Tool, ...]:
    out: list[Tool] = []
    for path in sorted((DATA / "tools").glob("*.toml")):
        doc = load_table(path)
        units = doc.get("units") or [doc]
        for u in units:
            out.append(
                Tool(
                    name=u.get("name", doc.get("name", path.stem)),
                    docs=u.get("docs", doc.get("docs", "")),
                    config_files=list(u.get("config_files", [])),
                    package_json_key=u.get("package_json_key"),
                    implies=list(u.get("implies", [])),
                    keys=dict(u.get("keys", {})),
                    skip_values=set(u.get("skip_values", [])),
                    string_config=u.get("string_config"),
                )
            )
    return tuple(out)


@lru_cache(maxsize=1)
def bins() -> tuple[dict[str, list[str]], frozenset[str]]:
    doc = load_table(DATA / "bins.toml")
    return dict(doc["bins"]), frozenset(doc["not_packages"]["names"])


# ---------------------------------------------------------------- naming conventions


def _prefixed(name: str, kind: str) -> str | None:
    """Babel/ESLint short names → package names (their documented normalisation)."""
    if name.startswith(("module:",)):
        return package_name(name[len("module:") :])
    if name.startswith((".", "/")):
        return None
    if name.startswith("@"):
        scope, _, rest = name.partition("/")
        if not rest:
            return f"{scope}/{kind}"
        if kind in rest or (kind == "babel-preset" and rest.startswith("preset-")):
            return package_name(name)
        if kind == "babel-plugin" and rest.startswith(("plugin-", "babel-plugin")):
            return package_name(name)
        if scope == "@babel" and kind.startswith("babel-"):
            return f"@babel/{kind.split('-', 1)[1]}-{rest}"
        if "/" in rest:
            return package_name(name)
        return f"{scope}/{kind}-{rest}"
    if "/" in name:
        return package_name(name)
    return name if name.startswith(kind) else f"{kind}-{name}"


def expand(value: str, convention: str) -> str | None:
    """Package a config value names under a tool's convention (None: names no package)."""
    value = value.strip()
    if not value or value.startswith((".", "/", "<rootDir>", "$")) or "\n" in value:
        return None
    if convention in ("module", "module-or-keys"):
        return package_name(value)
    if convention == "babel-preset":
        return _prefixed(value, "babel-preset")
    if convention == "babel-plugin":
        return _prefixed(value, "babel-plugin")
    if convention == "eslint-config":
        if value.startswith("eslint:"):
            return None
        if value.startswith("plugin:"):
            plugin = value[len("plugin:") :].rsplit("/", 1)[0]
            if value[len("plugin:") :].startswith("@") and "/" not in value[len("plugin:") :]:
                plugin = value[len("plugin:") :]
            return _prefixed(plugin, "eslint-plugin")
        return _prefixed(value, "eslint-config")
    if convention == "eslint-plugin":
        return _prefixed(value, "eslint-plugin")
    if convention == "jest-environment":
        if value == "node":
            return None
        if value.startswith("jest-environment-") or "/" in value:
            return package_name(value)
        return f"jest-environment-{value}"
    if convention == "vitest-environment":
        if value in ("node", "edge-runtime"):
            return None
        return package_name(value) if value in ("jsdom", "happy-dom") or "/" in value else None
    if convention == "types":
        if "/" in value and not value.startswith("@"):
            return package_name(value)
        if value.startswith("@"):
            return package_name(value)
        return f"@types/{value}"
    return None


# ---------------------------------------------------------------- reading config values

_TOKEN = re.compile(
    r"""(?P<str>"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'|`(?:\\.|[^`\\$])*`)
      |(?P<comment>//[^\n]*|/\*.*?\*/)
      |(?P<punct>[\[\]{}(),:])
      |(?P<word>[^\s\[\]{}(),:'"`/]+|/)""",
    re.S | re.X,
)


def _tokens(text: str) -> list[tuple[str, str]]:
    out = []
    for m in _TOKEN.finditer(text):
        kind = m.lastgroup or ""
        if kind == "comment":
            continue
        value = m.group(0)
        if kind == "str":
            value = value[1:-1]
        out.append((kind, value))
    return out


class _JsValue:
    """A tolerant reader of JS literal values: strings, arrays, objects; the rest is None.

    `require('x')` and `require.resolve('x')` read as the string 'x', so
    `presets: [require.resolve('@babel/preset-env')]` names @babel/preset-env.
    """

    def __init__(self, tokens: list[tuple[str, str]]):
        self.t = tokens
        self.i = 0

    def peek(self) -> tuple[str, str]:
        return self.t[self.i] if self.i < len(self.t) else ("end", "")

    def value(self, depth: int = 0) -> Any:
        kind, val = self.peek()
        if depth > 30 or kind == "end":
            return None
        if kind == "str":
            self.i += 1
            self._skip_tail()
            return val
        if val == "[":
            self.i += 1
            items = []
            while self.peek()[1] not in ("]",) and self.peek()[0] != "end":
                items.append(self.value(depth + 1))
                if self.peek()[1] == ",":
                    self.i += 1
            self.i += 1
            return items
        if val == "{":
            self.i += 1
            obj: dict[str, Any] = {}
            while self.peek()[1] != "}" and self.peek()[0] != "end":
                k_kind, key = self.peek()
                self.i += 1
                if self.peek()[1] == ":":
                    self.i += 1
                    obj[key] = self.value(depth + 1)
                elif k_kind == "punct" and key == "[":  # computed key: skip it
                    self._skip_until({"]"})
                if self.peek()[1] == ",":
                    self.i += 1
                elif self.peek()[1] not in ("}",):
                    self._skip_until({",", "}"})
                    if self.peek()[1] == ",":
                        self.i += 1
            self.i += 1
            return obj
        # a call: require('x') / require.resolve('x') → 'x'; helper(…, 'x', 'y') → its
        # direct string arguments (`ifAnyDep(deps, 'jsdom', 'node')`); anything else skipped
        if kind == "word" and self._at(1, "("):
            self.i += 2
            args: list[str] = []
            depth = 0
            while self.peek()[0] != "end":
                k, v = self.peek()
                if k == "punct" and v in "([{":
                    depth += 1
                elif k == "punct" and v in ")]}":
                    if depth == 0:
                        break
                    depth -= 1
                elif k == "str" and depth == 0:
                    args.append(v)
                self.i += 1
            self.i += 1
            self._skip_tail()
            if val in ("require", "require.resolve"):
                return args[0] if args else None
            return args
        self._skip_until({",", "]", "}"})
        return None

    def _at(self, offset: int, val: str) -> bool:
        j = self.i + offset
        return j < len(self.t) and self.t[j][1] == val

    def _skip_tail(self) -> None:
        """After a string: skip a trailing expression (`'x' + y`, `.replace(...)`)."""
        if self.peek()[1] not in (",", "]", "}", ")", ":") and self.peek()[0] != "end":
            self._skip_until({",", "]", "}"})

    def _skip_until(self, stops: set[str]) -> None:
        depth = 0
        while self.peek()[0] != "end":
            kind, val = self.peek()
            if kind == "punct" and val in "([{":
                depth += 1
            elif kind == "punct" and val in ")]}":
                if depth == 0:
                    return
                depth -= 1
            elif depth == 0 and val in stops:
                return
            self.i += 1


def js_config_values(text: str, keys: list[str]) -> dict[str, list[Any]]:
    """Values assigned to `keys` anywhere in a JS/TS config (object properties)."""
    tokens = _tokens(text)
    found: dict[str, list[Any]] = {}
    wanted = set(keys)
    for i, (kind, val) in enumerate(tokens):
        if val in wanted and kind in ("word", "str") and i + 1 < len(tokens):
            if tokens[i + 1][1] != ":":
                continue
            reader = _JsValue(tokens)
            reader.i = i + 2
            found.setdefault(val, []).append(reader.value())
    return found


def _walk_values(key: str, value: Any, convention: str) -> list[str]:
    """Strings a config value names as packages: top-level strings, the first string of
    `[name, options]` pairs, object keys for `module-or-keys` and transform maps."""
    out: list[str] = []
    if isinstance(value, str):
        out.append(value)
    elif isinstance(value, list):
        for item in value:
            if isinstance(item, str):
                out.append(item)
            elif isinstance(item, list) and item and isinstance(item[0], str):
                out.append(item[0])
            elif isinstance(item, dict):
                for k in ("loader", "name", "preset", "plugin"):
                    if isinstance(item.get(k), str):
                        out.append(item[k])
    elif isinstance(value, dict):
        if convention == "module-or-keys":
            out.extend(value)
        elif key == "transform":
            for v in value.values():
                out.extend(_walk_values("", v, convention))
        elif isinstance(value.get("loader"), str):
            out.append(value["loader"])
    return out


def _parse_config(path: Path, name: str) -> tuple[dict[str, Any] | None, str | None]:
    """(structured config, raw JS text) of a config file; neither when unreadable."""
    try:
        text = path.read_text(encoding="utf-8-sig", errors="replace")
    except OSError:
        return None, None
    low = name.lower()
    if low.endswith((".js", ".cjs", ".mjs", ".ts", ".mts", ".cts")):
        return None, text
    if low.endswith((".yml", ".yaml")):
        try:
            doc = yaml.safe_load(text)
        except yaml.YAMLError:
            return None, None
        return (doc if isinstance(doc, dict) else None), None
    try:
        doc = parse_jsonc(text)
    except ValueError:
        try:
            doc = yaml.safe_load(text)  # .mocharc / .prettierrc without extension may be YAML
        except yaml.YAMLError:
            return None, None
    if isinstance(doc, str):
        return {"__string__": doc}, None
    return (doc if isinstance(doc, dict) else None), None


# ---------------------------------------------------------------- scripts


_SPLIT = re.compile(r"\s*(?:&&|\|\||;|\|(?!\|)|&(?!&))\s*")
_LOAD_FLAGS = {"-r", "--require", "--import", "--loader", "--experimental-loader", "-i"}
_WRAPPERS = {"npx", "pnpx", "bunx", "exec", "dlx", "--", "time", "nice"}


def script_executables(command: str) -> tuple[list[str], list[str]]:
    """(executables run, modules preloaded with -r/--require/--import/--loader)."""
    exes: list[str] = []
    modules: list[str] = []
    for part in _SPLIT.split(command):
        try:
            words = shlex.split(part, posix=True)
        except ValueError:
            words = part.split()
        i = 0
        while i < len(words) and re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", words[i]):
            i += 1  # FOO=bar env assignments
        first = True
        while i < len(words):
            w = words[i]
            if w in _LOAD_FLAGS and i + 1 < len(words):
                modules.append(words[i + 1])
                i += 2
                continue
            m = re.match(r"^--(?:require|import|loader|experimental-loader)=(.+)$", w)
            if m:
                modules.append(m.group(1))
            if first:
                if w in ("pnpm", "yarn", "npm", "bun") and i + 1 < len(words):
                    nxt = words[i + 1]
                    if nxt in ("exec", "dlx", "x"):
                        i += 2
                        continue
                    break  # `npm run x`, `yarn test`: another script, not an executable
                if w in _WRAPPERS or w.startswith("-"):
                    i += 1
                    continue
                exes.append(w)
                first = False
                if w in ("cross-env", "cross-env-shell", "dotenv", "env-cmd", "nodemon"):
                    # these run the rest of the line as a command
                    i += 1
                    while i < len(words) and (
                        re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", words[i]) or words[i].startswith("-")
                    ):
                        i += 1 if "=" in words[i] or not words[i].startswith("-") else 1
                    first = True
                    continue
            i += 1
    return exes, modules


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
        extra={"implicit": True},
    )


def _config_section(lay: Layout, owner, rel: str) -> Section:
    """Config files are dev tooling, unless they sit in shipped code (config presets a tool
    package ships: src/config/*) or are listed in `files`."""
    return file_section(owner, rel, FileKind.CONFIG, owner.path in lay.unpublished)


def _custom_type_roots(cfg: dict[str, Any] | None) -> bool:
    """tsconfig `typeRoots` beyond node_modules/@types (then `types` are not just @types/x)."""
    opts = cfg.get("compilerOptions") if isinstance(cfg, dict) else None
    roots = opts.get("typeRoots") if isinstance(opts, dict) else None
    return isinstance(roots, list) and any(
        isinstance(r, str) and not r.rstrip("/").endswith("node_modules/@types") for r in roots
    )


def _repo_files(project: Project) -> list[str]:
    out = []
    for d, _, names in _walk(project.root):
        for n in names:
            out.append(f"{d}/{n}" if d else n)
    return out


def _from_config(tool: Tool, cfg: dict[str, Any] | None, text: str | None) -> list[tuple[str, str]]:
    """(package, detail) pairs a tool's config names."""
    out: list[tuple[str, str]] = []
    values: dict[str, list[Any]] = {}
    if text is not None and tool.keys:
        values = js_config_values(text, list(tool.keys))
    elif cfg is not None:
        if "__string__" in cfg and tool.string_config:
            name = expand(cfg["__string__"], tool.string_config)
            return [(name, cfg["__string__"])] if name else []
        stack = [cfg]
        while stack:  # keys may sit in nested sections (eslint overrides, env blocks)
            node = stack.pop()
            for k, v in node.items():
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
                out.extend((n, m) for m in mods if (n := package_name(m)))
                continue
            for s in _walk_values(key, value, convention):
                if s in tool.skip_values:
                    continue
                name = expand(s, convention)
                if name and not is_builtin(s):
                    out.append((name, f"{key}: {s}"))
    return out


def infer(
    project: Project, refs: list[ImportRef], candidates: list[Candidate], ctx: Context
) -> list[Candidate]:
    lay = layout(project)
    out = list(candidates)
    files = _repo_files(project)
    bin_table, not_packages = bins()

    # config files
    for rel in files:
        name = PurePosixPath(rel).name
        for tool in tools():
            if not any(fnmatch.fnmatch(name, p) for p in tool.config_files):
                continue
            owner = owner_of(lay, rel)
            if owner is None:
                continue
            section = _config_section(lay, owner, rel)
            for pkg in tool.implies:
                out.append(_cand(pkg, owner.path, section, f"rule:{tool.name}", rel, tool.docs))
            cfg, text = _parse_config(project.abspath(rel), name)
            custom_roots = _custom_type_roots(cfg)
            for pkg, detail in _from_config(tool, cfg, text):
                if custom_roots and detail.startswith("types:") and pkg != "@types/node":
                    continue  # `types` names may live under the extra typeRoots: ambiguous
                out.append(_cand(pkg, owner.path, section, f"rule:{tool.name}", rel, detail))

    # package.json keys and scripts
    for owner in lay.owners.values():
        raw = _raw_package_json(project, owner.path)
        if raw is None:
            continue
        for tool in tools():
            key = tool.package_json_key
            if key and key in raw:
                value = raw[key]
                cfg = value if isinstance(value, dict) else {"__string__": value}
                for pkg in tool.implies:
                    out.append(
                        _cand(pkg, owner.path, Section.DEV, f"rule:{tool.name}", owner.path, key)
                    )
                for pkg, detail in _from_config(tool, cfg if isinstance(cfg, dict) else None, None):
                    out.append(
                        _cand(pkg, owner.path, Section.DEV, f"rule:{tool.name}", owner.path, detail)
                    )
        scripts = raw.get("scripts")
        if not isinstance(scripts, dict):
            continue
        declared = {n.lower() for names in owner.declared.values() for n in names}
        root = lay.owners.get("")
        if root is not None:
            declared |= {n.lower() for names in root.declared.values() for n in names}
        for script, command in scripts.items():
            if not isinstance(command, str):
                continue
            section = Section.RUNTIME if script in RUNTIME_SCRIPTS else Section.DEV
            exes, modules = script_executables(command)
            for exe in exes:
                exe_name = PurePosixPath(exe).name if exe.startswith("node_modules/.bin/") else exe
                if "/" in exe_name or exe_name in not_packages:
                    continue
                pkgs = bin_table.get(exe_name)
                if pkgs:
                    if any(p.lower() in declared for p in pkgs):
                        continue
                    pkg = pkgs[0]
                else:
                    pkg = _bin_from_registry(ctx, exe_name)
                    if pkg is None:
                        continue
                out.append(
                    _cand(
                        pkg,
                        owner.path,
                        section,
                        "rule:script-bin",
                        owner.path,
                        f"scripts.{script}: {exe_name}",
                    )
                )
            for mod in modules:
                pkg = package_name(mod)
                if pkg and not is_builtin(mod) and not mod.startswith("."):
                    out.append(
                        _cand(
                            pkg,
                            owner.path,
                            section,
                            "rule:script-preload",
                            owner.path,
                            f"scripts.{script}: {mod}",
                        )
                    )

    # stylesheets importing packages (tailwindcss, normalize.css, @fontsource/*)
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
        section = file_section(owner, rel, FileKind.SOURCE, owner.path in lay.unpublished)
        for pkg, line, spec in css_packages(project, rel, text):
            out.append(_cand(pkg, owner.path, section, "rule:css-import", rel, spec, line))

    out.extend(_companions(project, lay, out))

    # TypeScript code using Node builtins needs Node's type declarations.
    seen: set[str] = set()
    for ref in refs:
        if ref.file.endswith(TS_EXTS) and not ref.extra.get("jsx") and is_builtin(ref.module):
            owner = owner_of(lay, ref.file)
            if owner is None or owner.path in seen:
                continue
            seen.add(owner.path)
            # Types are never needed at run time; an unpublished package (an app, a fixture
            # project) keeps them with the code that needs them.
            section = Section.DEV
            if owner.path in lay.unpublished:
                section = file_section(owner, ref.file, ref.kind, True)
            out.append(
                _cand(
                    "@types/node",
                    owner.path,
                    section,
                    "rule:types-node",
                    ref.file,
                    ref.module,
                    ref.line,
                )
            )
    return out


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
    doc = load_table(DATA / "companions.toml")
    return tuple(doc["companion"])


def _companions(project: Project, lay: Layout, found: list[Candidate]) -> list[Candidate]:
    """Packages that the packages (or compiler options) in use need at run time."""
    out: list[Candidate] = []
    used = {(c.manifest, c.name) for c in found}
    for comp in companions():
        section = Section(comp.get("section", "runtime"))
        when = comp["when"]
        if when.startswith("tsconfig:"):
            option = when.split(":", 1)[1]
            for rel in lay.tsconfigs:
                owner = owner_of(lay, rel)
                if owner is None:
                    continue
                try:
                    doc = parse_jsonc(project.abspath(rel).read_text(encoding="utf-8-sig"))
                except (OSError, ValueError):
                    continue
                opts = doc.get("compilerOptions") if isinstance(doc, dict) else None
                if isinstance(opts, dict) and opts.get(option) is True:
                    out.append(
                        _cand(
                            comp["needs"], owner.path, section, "rule:companion", rel, comp["docs"]
                        )
                    )
            continue
        for manifest, name in sorted(used):
            if name == when:
                out.append(
                    _cand(
                        comp["needs"], manifest, section, "rule:companion", manifest, comp["docs"]
                    )
                )
    return out


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
