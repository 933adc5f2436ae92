"""Cargo.toml: read what a crate or workspace declares, and write dependency tables back.

Reading keeps every fact later stages need without re-parsing: the package and lib name,
edition, rust-version, the workspace (members, `[workspace.dependencies]`), `[features]`
(which survive the benchmark's masking and name optional dependencies), target paths, and
each declared dependency normalised (`package` rename, version, features, optional, path).

Writing goes through tomlkit so comments, order and everything outside the dependency tables
stay byte-identical; entries already declared are never touched (re-running is a no-op).
"""

from __future__ import annotations

import re
from typing import Any

import tomlkit
from tomlkit.exceptions import TOMLKitError

from depinfer.facts.rust import entry_of
from depinfer.manifests import ManifestError
from depinfer.model import Manifest, Requirement, Section

DEP_TABLES = ("dependencies", "dev-dependencies", "build-dependencies")
# Cargo still accepts the old underscore spellings.
_ALIASES = {"dev_dependencies": "dev-dependencies", "build_dependencies": "build-dependencies"}
_TARGET_KINDS = ("bin", "test", "bench", "example")


def _parse(text: str, path: str) -> Any:
    try:
        return tomlkit.parse(text)
    except TOMLKitError as exc:
        raise ManifestError(f"invalid TOML: {exc}") from exc
    except Exception as exc:  # tomlkit raises a few non-TOMLKit errors on odd input
        raise ManifestError(f"invalid TOML: {exc}") from exc


def normalise_dependency(name: str, value: Any) -> dict[str, Any]:
    """One dependency entry → {package, version, features, optional, path, workspace, ...}."""
    out: dict[str, Any] = {
        "package": name,
        "version": None,
        "features": [],
        "optional": False,
        "path": None,
        "workspace": False,
        "default_features": None,
        "git": None,
    }
    if isinstance(value, str):
        out["version"] = value
        return out
    if not isinstance(value, dict):
        return out
    out["package"] = str(value.get("package") or name)
    if isinstance(value.get("version"), str):
        out["version"] = value["version"]
    feats = value.get("features")
    if isinstance(feats, list):
        out["features"] = [str(f) for f in feats]
    out["optional"] = bool(value.get("optional", False))
    if isinstance(value.get("path"), str):
        out["path"] = value["path"]
    if isinstance(value.get("git"), str):
        out["git"] = value["git"]
    out["workspace"] = bool(value.get("workspace", False))
    for key in ("default-features", "default_features"):
        if key in value:
            out["default_features"] = bool(value[key])
    return out


def _dep_tables(doc: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Declared-key → raw table for every dependency table in the file."""
    tables: dict[str, dict[str, Any]] = {}
    for key, value in doc.items():
        canon = _ALIASES.get(key, key)
        if canon in DEP_TABLES and isinstance(value, dict):
            tables[canon] = value
    target = doc.get("target")
    if isinstance(target, dict):
        for cfg, body in target.items():
            if not isinstance(body, dict):
                continue
            for key, value in body.items():
                canon = _ALIASES.get(key, key)
                if canon in DEP_TABLES and isinstance(value, dict):
                    tables[f"target.{cfg}.{canon}"] = value
    ws = doc.get("workspace")
    if isinstance(ws, dict) and isinstance(ws.get("dependencies"), dict):
        tables["workspace.dependencies"] = ws["dependencies"]
    return tables


def _field(package: dict[str, Any], ws_package: dict[str, Any], key: str) -> Any:
    value = package.get(key)
    if isinstance(value, dict) and value.get("workspace"):
        # inherited: the workspace root holds it; "workspace" when that file is another one
        return ws_package.get(key) if ws_package else "workspace"
    return value


def read(text: str, path: str) -> tuple[dict[str, list[str]], dict[str, Any]]:
    doc = _parse(text, path).unwrap()
    if not isinstance(doc, dict):
        raise ManifestError("not a TOML table")
    tables = _dep_tables(doc)
    declared = {key: list(table.keys()) for key, table in tables.items()}
    deps = {
        key: {name: normalise_dependency(name, value) for name, value in table.items()}
        for key, table in tables.items()
    }
    package = doc.get("package") if isinstance(doc.get("package"), dict) else {}
    ws = doc.get("workspace") if isinstance(doc.get("workspace"), dict) else None
    ws_package = (ws or {}).get("package") if isinstance((ws or {}).get("package"), dict) else {}
    name = package.get("name") if isinstance(package.get("name"), str) else None
    lib = doc.get("lib") if isinstance(doc.get("lib"), dict) else {}
    lib_name = lib.get("name") if isinstance(lib.get("name"), str) else None
    if lib_name is None and name:
        lib_name = name.replace("-", "_")
    targets: dict[str, list[dict[str, Any]]] = {}
    if lib:
        targets["lib"] = [
            {
                "name": lib_name,
                "path": lib.get("path"),
                "proc_macro": bool(lib.get("proc-macro") or lib.get("proc_macro")),
            }
        ]
    for kind in _TARGET_KINDS:
        entries = doc.get(kind)
        if isinstance(entries, list):
            targets[kind] = [
                {"name": e.get("name"), "path": e.get("path")}
                for e in entries
                if isinstance(e, dict)
            ]
    features = doc.get("features") if isinstance(doc.get("features"), dict) else {}
    data: dict[str, Any] = {
        "name": name,
        "lib_name": lib_name,
        "edition": _field(package, ws_package, "edition"),
        "rust_version": _field(package, ws_package, "rust-version"),
        "version": _field(package, ws_package, "version"),
        "publish": _field(package, ws_package, "publish"),
        "virtual": name is None and ws is not None,
        "workspace": None,
        "features": {
            str(k): [str(x) for x in v] for k, v in features.items() if isinstance(v, list)
        },
        "targets": targets,
        "proc_macro": bool(lib.get("proc-macro") or lib.get("proc_macro")),
        "linkable": _linkable(lib),
        "autobins": package.get("autobins", True) is not False,
        "build": package.get("build") if isinstance(package.get("build"), str | bool) else None,
        "deps": deps,
        "package_workspace": package.get("workspace")
        if isinstance(package.get("workspace"), str)
        else None,
    }
    if ws is not None:
        data["workspace"] = {
            "members": [str(m) for m in ws.get("members", []) if isinstance(m, str)],
            "exclude": [str(m) for m in ws.get("exclude", []) if isinstance(m, str)],
            "default_members": [
                str(m) for m in ws.get("default-members", []) if isinstance(m, str)
            ],
            "package": dict(ws_package),
            "dependencies": deps.get("workspace.dependencies", {}),
        }
    return declared, data


# Library crate types another crate can link against (the Cargo reference, "Linkage"):
# a library built only as `cdylib` or `staticlib` is for other languages, and a crate
# depending on its package cannot `use` it
_RUST_LINKABLE = frozenset({"lib", "rlib", "dylib", "proc-macro"})


def _linkable(lib: dict[str, Any]) -> bool:
    kinds = lib.get("crate-type", lib.get("crate_type"))
    if not isinstance(kinds, list) or not kinds:
        return True  # the default is `lib`
    return any(k in _RUST_LINKABLE for k in kinds if isinstance(k, str))


# ---------------------------------------------------------------- writing


def table_key(req: Requirement) -> str:
    """The manifest key a requirement goes to ("dependencies", "target.cfg(unix).dev-dependencies")."""
    base = {
        Section.DEV: "dev-dependencies",
        Section.BUILD: "build-dependencies",
    }.get(req.section, "dependencies")
    if req.markers:
        return f"target.{req.markers}.{base}"
    return base


_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")


def _toml_key(key: str) -> str:
    return key if _BARE_KEY.match(key) else tomlkit.dumps({key: 0}).split("=")[0].strip()


def _value_fields(req: Requirement) -> dict[str, Any]:
    """The fields of one entry in Cargo's usual order."""
    fields: dict[str, Any] = {}
    entry = entry_of(req)
    if entry.workspace:
        fields["workspace"] = True
    else:
        if entry.package and entry.package != req.name:
            fields["package"] = entry.package
        if req.path:
            fields["path"] = req.path
        if req.spec:
            fields["version"] = req.spec
        elif not req.path:
            fields["version"] = "*"  # names-only runs: any version (cargo needs one)
        if entry.default_features is False:
            fields["default-features"] = False
    if req.optional:
        fields["optional"] = True
    if req.features:
        fields["features"] = list(req.features)
    return fields


def _inline_text(fields: dict[str, Any], spaced: bool) -> str:
    parts = []
    for key, value in fields.items():
        parts.append(f"{key} = {tomlkit.item(value).as_string()}")
    body = ", ".join(parts)
    return "{ " + body + " }" if spaced else "{" + body + "}"


def _uses_subtables(tables: dict[str, Any]) -> bool:
    """True when the file writes complex entries as `[dependencies.foo]` sections."""
    for table in tables.values():
        for value in table.values():
            if isinstance(value, tomlkit.items.Table) and not isinstance(
                value, tomlkit.items.InlineTable
            ):
                return True
    return False


def _inline_spacing(text: str) -> bool:
    """Cargo's own style is `{ version = "1" }`; follow the file when it shows otherwise."""
    spaced = len(re.findall(r"=\s*\{ ", text))
    tight = len(re.findall(r"=\s*\{[^ }]", text))
    return spaced >= tight


def _get_or_create(container: Any, key: str, super_table: bool = False) -> Any:
    if key not in container:
        container.add(key, tomlkit.table(is_super_table=super_table))
    return container[key]


def render(text: str, manifest: Manifest, requirements: list[Requirement]) -> str:
    doc = _parse(text, manifest.path)
    tables = _dep_tables(doc)
    subtables = _uses_subtables(tables)
    spaced = _inline_spacing(text)
    wanted: dict[str, list[Requirement]] = {}
    for req in requirements:
        wanted.setdefault(table_key(req), []).append(req)
    changed = False
    created: dict[str, Any] = {}  # tables the file lacks, written as new sections
    for key in sorted(wanted, key=_table_order):
        table = _locate_table(doc, key)
        existing = set(table.keys()) if table is not None else set()
        new: dict[str, Requirement] = {}
        for req in sorted(wanted[key], key=lambda r: r.name.lower()):
            if req.name not in existing and req.name not in new:
                new[req.name] = req
        if not new:
            continue
        if table is None:
            table = created.setdefault(key, tomlkit.table())
        for req in new.values():
            _add_entry(table, req, subtables, spaced)
        changed = True
    if not changed:
        return text
    out = tomlkit.dumps(doc)
    for key in sorted(created, key=_table_order):
        out = _insert_section(out, key, created[key])
    return out


def _add_entry(table: Any, req: Requirement, subtables: bool, spaced: bool) -> None:
    fields = _value_fields(req)
    if list(fields) == ["version"]:
        table.add(req.name, fields["version"])
    elif subtables and len(fields) > 2:
        sub = tomlkit.table()
        for k, v in fields.items():
            sub.add(k, v)
        table.add(req.name, sub)
    else:
        snippet = f"{_toml_key(req.name)} = {_inline_text(fields, spaced)}\n"
        table.add(req.name, tomlkit.parse(snippet)[req.name])


def _table_order(key: str) -> tuple[int, str]:
    return (key.count("."), key)


def _locate_table(doc: Any, key: str) -> Any:
    if key.startswith("target."):
        cfg, _, base = key[len("target.") :].rpartition(".")
        target = doc.get("target")
        if target is None or cfg not in target:
            return None
        body = target[cfg]
        for name in (base, base.replace("-", "_")):
            if name in body:
                return body[name]
        return None
    for name in (key, key.replace("-", "_")):
        if name in doc:
            return doc[name]
    return None


_HEADER = re.compile(r"^\[\s*([^\]\[]+?)\s*\]\s*(#.*)?$", re.MULTILINE)


def _section_header(key: str) -> str:
    if key.startswith("target."):
        cfg, _, base = key[len("target.") :].rpartition(".")
        quoted = (
            "'" + cfg + "'" if "'" not in cfg else tomlkit.dumps({cfg: 0}).split("=")[0].strip()
        )
        return f"[target.{quoted}.{base}]"
    return f"[{key}]"


def _insert_section(text: str, key: str, table: Any) -> str:
    """Add a new dependency section as text, before the first section Cargo lists after it."""
    body = tomlkit.dumps({"x": table}).split("\n", 1)[1] if len(table) else ""
    section = f"{_section_header(key)}\n{body}"
    if not section.endswith("\n"):
        section += "\n"
    later: tuple[str, ...] = ()
    if not key.startswith("target."):
        later = DEP_TABLES[DEP_TABLES.index(key) + 1 :] + ("target",)
    for match in _HEADER.finditer(text):
        name = match.group(1).strip()
        if name in later or any(name.startswith(k + ".") for k in later):
            pos = match.start()
            return text[:pos] + section + "\n" + text[pos:]
    if text and not text.endswith("\n"):
        text += "\n"
    sep = "\n" if text.strip() else ""
    return text + sep + section
