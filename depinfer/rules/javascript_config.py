"""Reading tool configs without running them, and the tools' package-naming conventions.

Config files are JSON/JSONC, YAML, or JS/TS modules. JS/TS configs are never executed: a
tolerant literal reader takes the values of the keys a tool unit names (strings, arrays,
objects, `require('x')`), and the naming conventions turn short names into packages
(Babel's and ESLint's documented normalisation, jest environments, @types for `types`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from depinfer import yaml_compat
from depinfer.data import load_table
from depinfer.mapping.javascript import package_name, parse_jsonc

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
        # ESLint prefixes an unscoped name before its subpath too ("next/core-web-vitals" is
        # eslint-config-next/core-web-vitals: ESLint's "Shareable Configs" page, and its
        # legacy naming module's normalizePackageName); Babel leaves "a/b" as it is
        if kind.startswith("eslint-"):
            first = name.split("/", 1)[0]
            return first if first.startswith(kind) else f"{kind}-{first}"
        return package_name(name)
    return name if name.startswith(kind) else f"{kind}-{name}"


def expand(value: str, convention: str) -> str | None:
    """Package a config value names under a tool's convention (None: names no package)."""
    value = value.strip()
    # `~/x`, `@/x` (and `~~/`, `@@/`): the project's own folders under bundler aliases
    if (
        not value
        or value.startswith((".", "/", "<rootDir>", "$", "~", "@/", "@@/"))
        or ("\n" in value)
    ):
        return None
    if convention in ("module", "module-or-keys"):
        if re.search(r"\.(?:[cm]?ts|tsx)$", value) and not value.endswith(".d.ts"):
            # a TypeScript source file of the workspace (angular.json "polyfills":
            # ["src/polyfills.ts"]): npm packages publish JavaScript, not .ts modules
            return None
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
    if convention in ("jest-environment", "vitest-environment"):
        return _environment(value, runner_environments()[convention.split("-", 1)[0]])
    if convention == "types":
        if "/" in value and not value.startswith("@"):
            return package_name(value)
        if value.startswith("@"):
            return package_name(value)
        return f"@types/{value}"  # DefinitelyTyped's naming convention
    return None


@dataclass(frozen=True)
class RunnerEnvironments:
    """A test runner's environment names (data table test_environments.toml)."""

    builtin: frozenset[str]  # shipped with the runner: no package
    prefix: str  # the runner's naming convention for a short name ("" for none)
    packages: frozenset[str]  # short names that are themselves the package


@lru_cache(maxsize=1)
def runner_environments() -> dict[str, RunnerEnvironments]:
    """runner → its environment names."""
    return {
        runner: RunnerEnvironments(
            builtin=frozenset(row.get("builtin", [])),
            prefix=row.get("prefix", ""),
            packages=frozenset(row.get("packages", [])),
        )
        for runner, row in load_table("javascript/test_environments.toml").items()
    }


def _environment(value: str, envs: RunnerEnvironments) -> str | None:
    """The package a test environment name stands for (None: built in, or unknown)."""
    if value in envs.builtin:
        return None
    if "/" in value or value in envs.packages or (envs.prefix and value.startswith(envs.prefix)):
        return package_name(value)
    return envs.prefix + value if envs.prefix else None


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


def js_config_values(
    text: str, keys: list[str], opaque: set[str] | frozenset[str] = frozenset()
) -> dict[str, list[Any]]:
    """Values assigned to `keys` anywhere in a JS/TS config (object properties), except
    inside the value of an `opaque` key (a tool's own options, such as ESLint's `rules`)."""
    tokens = _tokens(text)
    found: dict[str, list[Any]] = {}
    wanted = set(keys)
    i = 0
    while i < len(tokens):
        kind, val = tokens[i]
        is_key = kind in ("word", "str") and i + 1 < len(tokens) and tokens[i + 1][1] == ":"
        if is_key and (val in opaque or val in wanted):
            reader = _JsValue(tokens)
            reader.i = i + 2
            value = reader.value()
            if val in opaque:  # skipped whole: keys inside it are the tool's own
                i = max(reader.i, i + 1)
                continue
            found.setdefault(val, []).append(value)
        i += 1
    return found


def config_strings(key: str, value: Any, convention: str) -> list[str]:
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
                out.extend(config_strings("", v, convention))
        elif isinstance(value.get("loader"), str):
            out.append(value["loader"])
    return out


def parse_config(path: Path, name: str) -> tuple[dict[str, Any] | None, str | None]:
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
            doc = yaml_compat.safe_load(text)
        except yaml_compat.YAMLError:
            return None, None
        return (doc if isinstance(doc, dict) else None), None
    try:
        doc = parse_jsonc(text)
    except ValueError:
        try:
            # .mocharc / .prettierrc without extension may be YAML
            doc = yaml_compat.safe_load(text)
        except yaml_compat.YAMLError:
            return None, None
    if isinstance(doc, str):
        return {"__string__": doc}, None
    return (doc if isinstance(doc, dict) else None), None
