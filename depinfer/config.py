"""User configuration, read from the manifest's own place.

Sources, merged in this order (later wins per key): `depinfer.toml`, `[tool.depinfer]` in
pyproject.toml, `"depinfer"` in package.json, `[workspace.metadata.depinfer]` and
`[package.metadata.depinfer]` in Cargo.toml — all at the repository root. Keys:

- `ignore`: names to leave out of every finding, or a table finding-code → names
  (`ignore = { DEP002 = ["black"] }`);
- `known-first-party`: import names the repository provides itself (never packages);
- `mapping`: import name → package name, for names the shipped indexes do not know.

When none of those exists, deptry's `[tool.deptry]` in pyproject.toml is read instead:
`ignore` (finding codes to skip), `per_rule_ignores` (code → names), `known_first_party`,
`package_module_name_map` (package → module or modules, turned into `mapping`), and
`exclude` / `extend_exclude` (deptry's regular expressions, kept as given in
`Config.deptry_excludes` for the file-selection stage to apply).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from depinfer.model import Candidate, Diagnostic
from depinfer.toml_compat import tomllib


@dataclass
class Config:
    ignore_all: set[str] = field(default_factory=set)
    ignore: dict[str, set[str]] = field(default_factory=dict)
    known_first_party: set[str] = field(default_factory=set)
    mapping: dict[str, str] = field(default_factory=dict)
    sources: list[str] = field(default_factory=list)
    ignore_codes: set[str] = field(default_factory=set)  # deptry's `ignore`: whole rules
    deptry_excludes: list[str] = field(default_factory=list)  # deptry's path regexes

    def ignored(self, code: str, name: str) -> bool:
        low = name.lower()
        return (
            code in self.ignore_codes
            or low in self.ignore_all
            or low in self.ignore.get(code, set())
        )


def _get(table: dict, *names: str):
    for n in names:
        if n in table:
            return table[n]
    return None


def _merge(cfg: Config, table: dict, source: str, diagnostics: list[Diagnostic]) -> None:
    if not isinstance(table, dict):
        diagnostics.append(Diagnostic("depinfer configuration is not a table; ignored", source))
        return
    cfg.sources.append(source)
    ignore = table.get("ignore")
    if isinstance(ignore, list):
        cfg.ignore_all |= {str(n).lower() for n in ignore}
    elif isinstance(ignore, dict):
        for code, names in ignore.items():
            if isinstance(names, list):
                cfg.ignore.setdefault(str(code).upper(), set()).update(
                    str(n).lower() for n in names
                )
    elif ignore is not None:
        diagnostics.append(
            Diagnostic("depinfer `ignore` must be a list or a table; ignored", source)
        )
    first = _get(table, "known-first-party", "known_first_party")
    if isinstance(first, list):
        cfg.known_first_party |= {str(n) for n in first}
    mapping = table.get("mapping")
    if isinstance(mapping, dict):
        cfg.mapping.update({str(k): str(v) for k, v in mapping.items()})


def load_config(root: Path, diagnostics: list[Diagnostic]) -> Config:
    cfg = Config()

    def toml_at(name: str) -> dict | None:
        path = root / name
        if not path.is_file():
            return None
        try:
            return tomllib.loads(path.read_text(encoding="utf-8-sig"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
            diagnostics.append(Diagnostic(f"configuration not read: {exc}", name))
            return None

    data = toml_at("depinfer.toml")
    if data is not None:
        _merge(cfg, data.get("depinfer", data), "depinfer.toml", diagnostics)
    data = pyproject = toml_at("pyproject.toml")
    if data and isinstance(data.get("tool"), dict) and "depinfer" in data["tool"]:
        _merge(cfg, data["tool"]["depinfer"], "pyproject.toml", diagnostics)
    pkg = root / "package.json"
    if pkg.is_file():
        try:
            pj = json.loads(pkg.read_text(encoding="utf-8-sig"))
        except (OSError, UnicodeDecodeError, ValueError):
            pj = None  # scan already reports an unparsable package.json
        if isinstance(pj, dict) and "depinfer" in pj:
            _merge(cfg, pj["depinfer"], "package.json", diagnostics)
    data = toml_at("Cargo.toml")
    if data:
        for top in ("workspace", "package"):
            meta = data.get(top, {}).get("metadata", {}) if isinstance(data.get(top), dict) else {}
            if isinstance(meta, dict) and "depinfer" in meta:
                _merge(cfg, meta["depinfer"], "Cargo.toml", diagnostics)
    if not cfg.sources and pyproject and isinstance(pyproject.get("tool"), dict):
        tool = pyproject["tool"]  # package literal: deptry is the tool whose table this is
        _merge_deptry(cfg, tool.get("deptry"), diagnostics)  # package literal: (same)
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
