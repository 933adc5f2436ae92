"""User configuration, read from the manifest's own place.

Sources, merged in this order (later wins per key): `depinfer.toml`, `[tool.depinfer]` in
pyproject.toml, `"depinfer"` in package.json, `[workspace.metadata.depinfer]` and
`[package.metadata.depinfer]` in Cargo.toml — all at the repository root. Keys:

- `ignore`: names to leave out of every finding, or a table finding-code → names
  (`ignore = { DEP002 = ["black"] }`);
- `known-first-party`: import names the repository provides itself (never packages);
- `mapping`: import name → package name, for names the shipped indexes do not know.
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

    def ignored(self, code: str, name: str) -> bool:
        low = name.lower()
        return low in self.ignore_all or low in self.ignore.get(code, set())


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
    data = toml_at("pyproject.toml")
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
    return cfg


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
