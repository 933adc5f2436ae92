"""User configuration, read from the manifest's own place.

Sources, merged in this order (later wins per key): `depinfer.toml`, `[tool.depinfer]` in
pyproject.toml, `"depinfer"` in package.json, `[workspace.metadata.depinfer]` and
`[package.metadata.depinfer]` in Cargo.toml — all at the repository root. Keys (`_` may
stand for `-`):

- `ignore`: names to leave out of every finding, or a table finding-code → names
  (`ignore = { DEP002 = ["black"] }`); names may be globs (`types-*`);
- `known-first-party`: import names the repository provides itself (never packages);
- `mapping`: import name → package name, for names the shipped indexes do not know;
- `exclude`: files and folders scan skips, as .gitignore lines relative to the root;
  replaces the default list (tooling state, vendored code: depinfer.scan.DEFAULT_EXCLUDE);
- `extend-exclude`: more of them, on top of `exclude` or the default list.

A key or finding code depinfer does not know, or a value of the wrong kind, raises
ConfigError naming the file and the key: a setting that silently does nothing is worse
than an error. A file that is not valid TOML or JSON is a diagnostic (scan reports it).

When none of those exists, deptry's `[tool.deptry]` in pyproject.toml is read instead:
`ignore` (finding codes to skip), `per_rule_ignores` (code → names), `known_first_party`,
`package_module_name_map` (package → module or modules, turned into `mapping`), and
`exclude` / `extend_exclude` (deptry's regular expressions, kept as given in
`Config.deptry_excludes`; file selection skips the paths they match).
"""

from __future__ import annotations

import fnmatch
import json
from dataclasses import dataclass, field
from pathlib import Path

from depinfer import toml_compat
from depinfer.model import Candidate, Diagnostic
from depinfer.toml_compat import tomllib

# The codes `ignore` may name: exactly depinfer.check's findings (MESSAGES there; config
# sits below check, so the list is kept here too and tests/test_config_settings.py
# compares the two). A code check mode gains or drops must change here as well.
FINDING_CODES = frozenset({"DEP001", "DEP002", "DEP003", "DEP004", "DEP005", "DEP101"})
SETTINGS = ("exclude", "extend-exclude", "ignore", "known-first-party", "mapping")
_GLOB = frozenset("*?[")


class ConfigError(ValueError):
    """A setting depinfer cannot apply (unknown key or code, wrong kind of value); the
    message names the file and the key, one problem a line."""


@dataclass
class Config:
    ignore_all: set[str] = field(default_factory=set)
    ignore: dict[str, set[str]] = field(default_factory=dict)
    known_first_party: set[str] = field(default_factory=set)
    mapping: dict[str, str] = field(default_factory=dict)
    exclude: list[str] | None = None  # None: depinfer's default list
    extend_exclude: list[str] = field(default_factory=list)
    sources: list[str] = field(default_factory=list)
    ignore_codes: set[str] = field(default_factory=set)  # deptry's `ignore`: whole rules
    deptry_excludes: list[str] = field(default_factory=list)  # deptry's path regexes

    def ignored(self, code: str, name: str) -> bool:
        """Whether a finding about `name` is to be left out; the ignore lists' entries
        match case-insensitively, as names or fnmatch globs (`types-*`)."""
        low = name.lower()
        return (
            code in self.ignore_codes
            or _listed(low, self.ignore_all)
            or _listed(low, self.ignore.get(code, set()))
        )


def _listed(name: str, entries: set[str]) -> bool:
    if name in entries:
        return True
    return any(fnmatch.fnmatchcase(name, e) for e in entries if _GLOB & set(e))


def _strings(value: object, key: str, where: str, problems: list[str]) -> list[str]:
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return list(value)
    problems.append(f"{where}: `{key}` must be a list of strings")
    return []


def _unknown(key: str, where: str) -> str:
    import difflib  # lazy: only a misspelt setting needs it

    close = difflib.get_close_matches(key.replace("_", "-"), SETTINGS, n=1)
    hint = f" (did you mean `{close[0]}`?)" if close else f" (known: {', '.join(SETTINGS)})"
    return f"{where}: unknown setting `{key}`{hint}"


def _merge_ignore(cfg: Config, ignore: object, where: str, problems: list[str]) -> None:
    if isinstance(ignore, dict):
        for code, names in ignore.items():
            upper = str(code).upper()
            if upper not in FINDING_CODES:
                known = ", ".join(sorted(FINDING_CODES))
                problems.append(f"{where}: `ignore` names unknown finding code `{code}` ({known})")
                continue
            listed = _strings(names, f"ignore.{code}", where, problems)
            cfg.ignore.setdefault(upper, set()).update(n.lower() for n in listed)
    elif isinstance(ignore, list):
        cfg.ignore_all |= {n.lower() for n in _strings(ignore, "ignore", where, problems)}
    else:
        problems.append(f"{where}: `ignore` must be a list or a table of finding codes")


def _merge(cfg: Config, table: object, source: str, where: str, problems: list[str]) -> None:
    """Add one source's settings to `cfg`; what it cannot apply goes to `problems`."""
    if not isinstance(table, dict):
        problems.append(f"{where}: the depinfer configuration must be a table")
        return
    cfg.sources.append(source)
    for key, value in table.items():
        name = str(key).replace("_", "-")
        if name == "ignore":
            _merge_ignore(cfg, value, where, problems)
        elif name == "known-first-party":
            cfg.known_first_party |= set(_strings(value, key, where, problems))
        elif name == "mapping":
            if isinstance(value, dict) and all(isinstance(v, str) for v in value.values()):
                cfg.mapping.update({str(k): v for k, v in value.items()})
            else:
                problems.append(f"{where}: `mapping` must be a table of import → package names")
        elif name == "exclude":
            cfg.exclude = _strings(value, key, where, problems)
        elif name == "extend-exclude":
            cfg.extend_exclude += _strings(value, key, where, problems)
        else:
            problems.append(_unknown(str(key), where))


def load_config(root: Path, diagnostics: list[Diagnostic]) -> Config:
    """The repository's settings; raises ConfigError for settings it cannot apply."""
    cfg = Config()
    problems: list[str] = []

    def toml_at(name: str) -> dict | None:
        path = root / name
        if not path.is_file():
            return None
        try:
            return toml_compat.loads(path.read_text(encoding="utf-8-sig"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
            diagnostics.append(Diagnostic(f"configuration not read: {exc}", name))
            return None

    data = toml_at("depinfer.toml")
    if data is not None:
        where = "depinfer.toml: [depinfer]" if "depinfer" in data else "depinfer.toml"
        _merge(cfg, data.get("depinfer", data), "depinfer.toml", where, problems)
    data = pyproject = toml_at("pyproject.toml")
    if data and isinstance(data.get("tool"), dict) and "depinfer" in data["tool"]:
        where = "pyproject.toml: [tool.depinfer]"
        _merge(cfg, data["tool"]["depinfer"], "pyproject.toml", where, problems)
    pkg = root / "package.json"
    if pkg.is_file():
        try:
            pj = json.loads(pkg.read_text(encoding="utf-8-sig"))
        except (OSError, UnicodeDecodeError, ValueError):
            pj = None  # scan already reports an unparsable package.json
        if isinstance(pj, dict) and "depinfer" in pj:
            _merge(cfg, pj["depinfer"], "package.json", 'package.json: "depinfer"', problems)
    data = toml_at("Cargo.toml")
    if data:
        for top in ("workspace", "package"):
            meta = data.get(top, {}).get("metadata", {}) if isinstance(data.get(top), dict) else {}
            if isinstance(meta, dict) and "depinfer" in meta:
                where = f"Cargo.toml: [{top}.metadata.depinfer]"
                _merge(cfg, meta["depinfer"], "Cargo.toml", where, problems)
    if not cfg.sources and pyproject and isinstance(pyproject.get("tool"), dict):
        tool = pyproject["tool"]  # package literal: deptry is the tool whose table this is
        _merge_deptry(cfg, tool.get("deptry"), diagnostics)  # package literal: (same)
    if problems:
        raise ConfigError("\n".join(problems))
    return cfg


def _merge_deptry(cfg: Config, table: object, diagnostics: list[Diagnostic]) -> None:
    """deptry's settings, in depinfer's terms (deptry documentation, Configuration)."""
    if table is None:
        return
    if not isinstance(table, dict):
        diagnostics.append(Diagnostic("[tool.deptry] is not a table; ignored", "pyproject.toml"))
        return
    cfg.sources.append("pyproject.toml [tool.deptry]")
    ignore = table.get("ignore")
    if isinstance(ignore, list):
        cfg.ignore_codes |= {str(c).upper() for c in ignore}
    rules = table.get("per_rule_ignores")
    if isinstance(rules, dict):
        for code, names in rules.items():
            if isinstance(names, list):
                cfg.ignore.setdefault(str(code).upper(), set()).update(
                    str(n).lower() for n in names
                )
    first = table.get("known_first_party")
    if isinstance(first, list):
        cfg.known_first_party |= {str(n) for n in first}
    names = table.get("package_module_name_map")
    if isinstance(names, dict):
        for package, modules in names.items():
            for module in [modules] if isinstance(modules, str) else modules or []:
                cfg.mapping.setdefault(str(module), str(package))
    for key in ("exclude", "extend_exclude"):
        value = table.get(key)
        if isinstance(value, list):
            cfg.deptry_excludes.extend(str(v) for v in value)


def apply_config(candidates: list[Candidate], cfg: Config) -> list[Candidate]:
    """Drop first-party names and rename mapped ones, whatever language produced them."""
    if not (cfg.known_first_party or cfg.mapping):
        return candidates
    out = []
    for c in candidates:
        roots = {n.split(".")[0].split("/")[0] for n in c.import_names} | set(c.import_names)
        if roots & cfg.known_first_party:
            continue
        for name in c.import_names:
            target = cfg.mapping.get(name) or cfg.mapping.get(name.split(".")[0])
            if target:
                c.alternatives = [a for a in [c.name, *c.alternatives] if a != target]
                c.name = target
                break
        out.append(c)
    return out
