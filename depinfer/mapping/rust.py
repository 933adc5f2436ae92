"""Rust mapping: crate names as code spells them → Cargo dependencies of the owning package.

A name in code is `foo_bar`; the crate may be published as `foo-bar` or `foo_bar`, or the
manifest may rename it (`foo_bar = { package = "other" }`). The order of trust:
1. the name is the package itself, std/core/alloc/proc_macro/test → dropped;
2. another package of the repository has that lib name → an internal path dependency;
3. a key the manifest already uses anywhere (other dependency tables, `[features]`
   entries such as `dep:foo-bar` or `foo-bar/std`, the workspace's `[workspace.dependencies]`)
   → that key, with its `package` rename;
4. the registry: whichever spelling exists (offline: the spelling the shipped tables
   publish, else the code's spelling, reported as unverified).
"""

from __future__ import annotations

import fnmatch
import os
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path, PurePosixPath
from typing import Any

from depinfer.analyzers.rust_gates import read_gates, top_level_names
from depinfer.context import Context
from depinfer.data import load_table, load_table_or
from depinfer.facts.rust import CrateFacts, crate_of, use_of
from depinfer.mapping.rust_globs import GlobExports
from depinfer.mapping.rust_sources import covered, registry_source, release_gates
from depinfer.model import Candidate, Ecosystem, Evidence, ImportRef, Manifest, Project, Section
from depinfer.registries.crate_sources import remove_workdir

SECTION_OF_TARGET = {"runtime": Section.RUNTIME, "dev": Section.DEV, "build": Section.BUILD}
CODE_HOWS = {
    "use",
    "extern",
    "path",
    "macro",
    "macro-def",  # paths in a local `macro_rules!` body (not `$crate::…`)
    "attr",
    "derive",
    "rooted",
    "attr-string",
    "via-use",  # `Uuid::new_v4` after `use uuid::Uuid`: same crate, fuller path for gates
    "via-glob",  # `input::EventStream` where `input` does `pub use crossterm::event::*`
}


@lru_cache(maxsize=1)
def _std_data() -> dict[str, Any]:
    return load_table("rust/rust_std.json")


@lru_cache(maxsize=1)
def builtin_crates() -> frozenset[str]:
    return frozenset(_std_data()["extern_prelude"])


@lru_cache(maxsize=1)
def tool_attributes() -> frozenset[str]:
    return frozenset(_std_data().get("tool_attributes", []))


def code_name(name: str) -> str:
    """How Rust code spells a crate: `-` becomes `_` (Cargo does this for the lib name)."""
    return name.replace("-", "_")


@dataclass
class CrateInfo:
    """One Cargo package of the repository and the workspace it belongs to."""

    manifest: Manifest
    directory: str
    name: str
    lib_name: str
    workspace_root: Manifest | None = None
    keys: dict[str, dict[str, Any]] = field(default_factory=dict)  # code name -> known entry


def _members_match(root_dir: str, patterns: list[str], directory: str) -> bool:
    rel = os.path.relpath(directory or ".", root_dir or ".").replace(os.sep, "/")
    for pat in patterns:
        pat = pat.rstrip("/")
        if rel == pat or fnmatch.fnmatch(rel, pat):
            return True
    return False


def workspace_root_of(project: Project, manifest: Manifest) -> Manifest | None:
    """The `[workspace]` manifest whose members include this package (Cargo's search order)."""
    roots = {
        m.directory: m
        for m in project.manifests_of(Ecosystem.CRATES)
        if not m.parse_error and m.data.get("workspace") is not None
    }
    explicit = manifest.data.get("package_workspace")
    if explicit:
        target = PurePosixPath(manifest.directory or ".") / explicit
        norm = os.path.normpath(str(target)).replace(os.sep, "/")
        return roots.get("" if norm == "." else norm)
    if manifest.directory in roots:
        return roots[manifest.directory]
    parts = PurePosixPath(manifest.directory).parts if manifest.directory else ()
    for i in range(len(parts) - 1, -1, -1):
        d = "/".join(parts[:i])
        root = roots.get(d)
        if root is None:
            continue
        ws = root.data["workspace"]
        if _members_match(d, ws.get("exclude", []), manifest.directory):
            return None
        # listed members, and path dependencies inside the workspace directory, which Cargo
        # makes members too (a package there that is neither fails to build)
        return root
    return None


def feature_references(features: dict[str, list[str]]) -> dict[str, dict[str, Any]]:
    """Dependency keys `[features]` names: `dep:x` (optional), `x?/f`, `x/f`, or a bare `x`
    that is not itself a feature (the implicit feature of an optional dependency)."""
    out: dict[str, dict[str, Any]] = {}
    for feature, items in features.items():
        for item in items:
            if item.startswith("dep:"):
                key, optional, feat = item[4:], True, None
            elif "/" in item:
                key, _, feat = item.partition("/")
                optional = key.endswith("?")
                key = key.rstrip("?")
                if key in features and not optional:
                    continue  # "feature/x" is not valid; skip odd entries
            elif item not in features:
                key, optional, feat = item, True, None
            else:
                continue
            entry = out.setdefault(key, {"optional": False, "features": [], "by": []})
            entry["optional"] = entry["optional"] or optional
            if feat and feat not in entry["features"]:
                entry["features"].append(feat)
            entry["by"].append(feature)
    return out


def crates_of(project: Project) -> dict[str, CrateInfo]:
    """Every package of the repository by manifest path, with the keys it already knows."""
    out: dict[str, CrateInfo] = {}
    for m in project.manifests_of(Ecosystem.CRATES):
        if m.parse_error or not m.data.get("name"):
            continue
        info = CrateInfo(
            manifest=m,
            directory=m.directory,
            name=m.data["name"],
            lib_name=m.data.get("lib_name") or code_name(m.data["name"]),
            workspace_root=workspace_root_of(project, m),
        )
        for table, deps in m.data.get("deps", {}).items():
            if table == "workspace.dependencies":
                continue
            for key, entry in deps.items():
                info.keys.setdefault(code_name(key), {"key": key, **entry, "from": table})
        for key, ref in feature_references(m.data.get("features", {})).items():
            info.keys.setdefault(
                code_name(key),
                {"key": key, "package": key, "from": "features", **ref},
            )
        out[m.path] = info
    return out


def workspace_entry(info: CrateInfo, name: str) -> tuple[str, dict[str, Any]] | None:
    """The `[workspace.dependencies]` entry a member can inherit for a code name."""
    if info.workspace_root is None:
        return None
    deps = info.workspace_root.data.get("workspace", {}).get("dependencies", {})
    for key, entry in deps.items():
        if code_name(key) == name:
            return key, entry
    return None


@dataclass
class _Mapping:
    """What placing one use needs: the repository's crates and what the refs say overall."""

    crates: dict[str, CrateInfo]
    by_lib: dict[str, CrateInfo]  # lib name → the repository's crate building it
    # `#[serde_with(crate = "::s_with")]`: s_with is this manifest's name for serde_with
    # (the attribute may be a macro of that crate, `#[serde_as(crate = …)]`: any head that
    # names a crate of the workspace decides)
    renamed: dict[tuple[str, str], set[str]]
    # names the code uses as crate roots somewhere (`serde::Serialize`): an attribute head
    # among them is a crate, not just a macro of one
    roots: set[str]
    feature_keys: list[Candidate] = field(default_factory=list)  # spelling unchecked
    prefixed: dict[str, CrateInfo] = field(default_factory=dict)  # folder → prefixed member
    root: Path | None = None  # the repository's folder (a member's source is read there)
    unknown: dict[str, list[Candidate]] = field(default_factory=dict)  # for the registry


def map_imports(project: Project, refs: list[ImportRef], ctx: Context) -> list[Candidate]:
    crates = crates_of(project)
    by_lib: dict[str, CrateInfo] = {}
    for info in crates.values():
        if info.manifest.data.get("linkable", True):  # a cdylib-only library links nowhere
            by_lib.setdefault(info.lib_name, info)
    renamed: dict[tuple[str, str], set[str]] = {}
    for r in refs:
        if use_of(r).crate_of:
            renamed.setdefault((use_of(r).manifest, r.module), set()).add(use_of(r).crate_of)
    roots = {
        r.module
        for r in refs
        if use_of(r).how in ("use", "path", "extern") and not use_of(r).crate_of
    }
    state = _Mapping(
        crates, by_lib, renamed, roots, prefixed=_prefixed_members(crates), root=project.root
    )
    glob_exports = GlobExports(project, ctx, by_lib)
    out: list[Candidate] = []
    for ref in refs:
        found = _use_candidate(ref, state, glob_exports)
        if found is None:
            continue
        cand, info = found
        for place in PLACEMENTS:
            if place(cand, ref, info, state):
                cand.facts = replace(crate_of(cand), placed_by=place.__name__)
                break
        out.append(cand)
    glob_exports.close()
    _name_from_registry(state.unknown, ctx, project)
    _feature_key_packages(state.feature_keys, ctx)
    kept = [c for c in out if c.verified is not False or ctx.options.keep_unverified]
    return _condense(kept)


def _use_candidate(
    ref: ImportRef, state: _Mapping, glob_exports: GlobExports
) -> tuple[Candidate, CrateInfo] | None:
    """The candidate a use stands for, before it is placed; None when the use names no
    crate (std, the crate itself, a lint tool, a local name, a glob-imported module)."""
    use = use_of(ref)
    how = use.how
    if how not in CODE_HOWS:
        return None
    if how in ("attr", "derive") and "::" not in use.path:
        return None  # bare attribute/derive names are for the rule tables
    info = state.crates.get(use.manifest)
    if info is None:
        return None
    name = ref.module
    builtins = builtin_crates()
    if name in builtins or name == info.lib_name:
        return None
    if how in ("attr", "macro", "macro-def") and name in tool_attributes():
        return None  # `clippy::…` / `rustfmt::…` lint paths, also inside macro bodies
    if _from_glob(name, ref, info, glob_exports, builtins):
        return None
    cand = Candidate(
        ecosystem=Ecosystem.CRATES,
        name=name,
        manifest=info.manifest.path,
        section=SECTION_OF_TARGET.get(use.target, Section.RUNTIME),
        import_names=[name],
        evidence=[Evidence("import", ref.file, ref.line, use.path)],
        markers=ref.marker,
        facts=CrateFacts(gates=use.features, paths=(use.path,)),
    )
    cand.optional = _optional(info, name, ref)
    return cand, info


def _known_key(info: CrateInfo, name: str, state: _Mapping) -> dict[str, Any] | None:
    """The manifest's own entry for a code name; not one only `[features]` names when that
    is a workspace crate (the path dependency it was)."""
    known = info.keys.get(name)
    sibling = state.by_lib.get(name)
    if known is not None and known.get("from") == "features":
        if sibling is not None and sibling is not info:
            return None
    return known


def by_manifest_key(cand: Candidate, ref: ImportRef, info: CrateInfo, state: _Mapping) -> bool:
    """When a kept table or `[features]` of the manifest names the crate (not as a path
    dependency): its key and package."""
    known = _known_key(info, ref.module, state)
    if known is None or known.get("path") is not None:
        return False
    from_features = known.get("from") == "features"
    cand.name = known["key"]
    if known.get("package") and known["package"] != known["key"]:
        cand.facts = replace(crate_of(cand), package=known["package"])
    cand.verified = True if not from_features else None
    cand.evidence.append(Evidence("manifest", info.manifest.path, None, known["from"]))
    if from_features and crate_of(cand).package is None:
        state.feature_keys.append(cand)
    return True


def by_prefixed_member(cand: Candidate, ref: ImportRef, info: CrateInfo, state: _Mapping) -> bool:
    """When no crate of the repository builds the library, but a member in a folder of that
    name is the project's prefixed crate (`prover/` holds `miden-prover`, the code says
    `prover::`): the masked entry was `prover = { package = "miden-prover", path = … }`.
    Neither the registry's unrelated `prover` nor a key no registry knows."""
    name = ref.module
    if name in state.by_lib:
        return False
    member = state.prefixed.get(name)
    if member is None or member is info or not _offers(member, cand, state):
        return False
    link_member(cand, info, member)
    cand.name = name
    cand.facts = replace(crate_of(cand), package=member.name)
    cand.evidence.append(
        Evidence("manifest", member.manifest.path, None, f"{member.name} in folder {name}/")
    )
    return True


def _offers(member: CrateInfo, cand: Candidate, state: _Mapping) -> bool:
    """The member's own source defines at its root every name the code takes from it
    (`prover::prove`): a `serde/` folder holding an integration crate does not stand for
    the `serde::Serialize` the code means."""
    if state.root is None:
        return False
    tops = {p.split("::")[1] for p in crate_of(cand).paths if "::" in p}
    tops -= {"", "*", "self", "super", "crate"}
    offered = top_level_names(read_gates(str(state.root / (member.directory or "."))))
    return covered(tops, offered) == len(tops)


def _prefixed_members(crates: dict[str, CrateInfo]) -> dict[str, CrateInfo]:
    """Folder name → the member there whose package name is that name behind a prefix
    (`air/` → miden-air); a folder name two members could claim is left out."""
    out: dict[str, CrateInfo] = {}
    seen: set[str] = set()
    for info in crates.values():
        folder = code_name(PurePosixPath(info.directory or ".").name)
        lib = info.lib_name
        if not folder or folder == lib or not lib.endswith("_" + folder):
            continue
        if folder in seen:
            out.pop(folder, None)
            continue
        seen.add(folder)
        out[folder] = info
    return out


def by_attribute_crate(cand: Candidate, ref: ImportRef, info: CrateInfo, state: _Mapping) -> bool:
    """When an attribute's `crate = "::s"` says whose rename the name is: a registry crate
    the code uses elsewhere, or a workspace crate under another key."""
    name = ref.module
    heads = state.renamed.get((info.manifest.path, name), set())
    by_lib = state.by_lib
    if by_lib.get(name) is not None or _known_key(info, name, state) is not None or not heads:
        return False
    targets = {by_lib[c].manifest.path: by_lib[c] for c in map(code_name, heads) if c in by_lib}
    target = next(iter(targets.values())) if len(targets) == 1 else None
    registry = sorted(h for h in heads if h in state.roots and code_name(h) not in by_lib)
    if target is None and not targets and len(registry) == 1:
        # `#[serde(crate = "::s")]`: `s` is this manifest's key for serde
        cand.facts = replace(crate_of(cand), package=registry[0])
        cand.verified = None
        cand.evidence.append(
            Evidence("attribute", ref.file, ref.line, f"crate = {name} of {registry[0]}")
        )
        return True
    if target is not None and target is not info:
        # a workspace crate under another key: `s_with = { package = "serde_with",
        # path = "../serde_with" }`
        link_member(cand, info, target)
        cand.name = name
        cand.facts = replace(crate_of(cand), package=target.name)
        return True
    return False


def by_workspace_member(cand: Candidate, ref: ImportRef, info: CrateInfo, state: _Mapping) -> bool:
    """When another crate of the repository builds the library: a path dependency on it."""
    sibling = state.by_lib.get(ref.module)
    if sibling is None or sibling is info:
        return False
    link_member(cand, info, sibling)
    return True


def by_workspace_entry(cand: Candidate, ref: ImportRef, info: CrateInfo, state: _Mapping) -> bool:
    """When `[workspace.dependencies]` names the crate: the member inherits that entry."""
    ws = workspace_entry(info, ref.module)
    if ws is None:
        return False
    cand.name = ws[0]
    cand.verified = True
    cand.evidence.append(
        Evidence("manifest", info.workspace_root.path, None, "workspace.dependencies")
    )
    return True


def by_registry(cand: Candidate, ref: ImportRef, info: CrateInfo, state: _Mapping) -> bool:
    """Otherwise: the registry decides the spelling (or the package building that library)."""
    state.unknown.setdefault(ref.module, []).append(cand)
    return True


# Ways of placing a use, tried in order; the first that applies decides.
PLACEMENTS = (
    by_prefixed_member,
    by_manifest_key,
    by_attribute_crate,
    by_workspace_member,
    by_workspace_entry,
    by_registry,
)


MAX_EVIDENCE = 5


def _condense(cands: list[Candidate]) -> list[Candidate]:
    """One candidate per (manifest, name, section, cfg, optional): a crate used in 500 places
    keeps a few places as evidence and every distinct path it uses (for feature gates)."""
    out: dict[tuple[Any, ...], Candidate] = {}
    for c in cands:
        key = (c.manifest, c.name, c.section, c.markers, c.optional, c.internal)
        have = out.get(key)
        if have is None:
            out[key] = c
            c.facts = replace(crate_of(c), paths=tuple(dict.fromkeys(crate_of(c).paths)))
            continue
        if len(have.evidence) < MAX_EVIDENCE:
            have.evidence.extend(e for e in c.evidence if e not in have.evidence)
        mine, theirs = crate_of(have), crate_of(c)
        gates = list(mine.gates)
        gates.extend(g for g in dict.fromkeys(theirs.gates) if g not in mine.gates)
        have.facts = replace(
            mine, paths=tuple(dict.fromkeys(mine.paths + theirs.paths)), gates=tuple(gates)
        )
    return list(out.values())


def link_member(cand: Candidate, info: CrateInfo, member: CrateInfo) -> None:
    """Make `cand` the path dependency of `info` on the workspace crate `member`."""
    cand.name = member.name
    cand.internal = True
    cand.path = os.path.relpath(member.directory or ".", info.directory or ".").replace(os.sep, "/")
    cand.spec = member_version(member)
    cand.verified = True


def member_version(info: CrateInfo) -> str | None:
    version = info.manifest.data.get("version")
    if isinstance(version, str) and version != "workspace":
        return version
    if info.workspace_root is not None:
        v = info.workspace_root.data.get("workspace", {}).get("package", {}).get("version")
        if isinstance(v, str):
            return v
    return None


def _optional(info: CrateInfo, name: str, ref: ImportRef) -> bool:
    """Used only under `cfg(feature = "x")` where `[features]` ties x to this dependency."""
    gates = use_of(ref).features
    if not gates:
        return False
    features = info.manifest.data.get("features", {})
    for gate in gates:
        if gate not in features:
            if code_name(gate) == name:
                return True  # the implicit feature of an optional dependency
            continue
        todo = [gate]
        seen: set[str] = set()
        while todo:
            f = todo.pop()
            if f in seen:
                continue
            seen.add(f)
            for item in features.get(f, []):
                key = item[4:] if item.startswith("dep:") else item.partition("/")[0].rstrip("?")
                if code_name(key) == name and (
                    item.startswith("dep:") or "?/" in item or item == key
                ):
                    return True
                if item in features:
                    todo.append(item)
    return False


def _from_glob(
    name: str, ref: ImportRef, info: CrateInfo, exports: GlobExports, builtins: frozenset[str]
) -> bool:
    """The path root is a name one of the file's `use other_crate::…::*` imports brings in."""
    for base in use_of(ref).globs:
        crate = base.split("::", 1)[0]
        if crate in builtins or crate == name:
            continue
        known = info.keys.get(crate)
        package = (known.get("package") or known.get("key")) if known else None
        names = exports.names(base, package if isinstance(package, str) else None)
        if names and name in names:
            return True
    return False


def _feature_key_packages(cands: list[Candidate], ctx: Context) -> None:
    """A key `[features]` names (`tower-make = ["tower_make"]`) keeps its spelling, since the
    features refer to it; when the registry publishes the crate under the other spelling
    (tower-make), the entry renames it: `tower_make = { package = "tower-make" }`."""
    keys = sorted({c.name for c in cands if "-" in c.name or "_" in c.name})
    if not keys:
        return
    other = {k: k.replace("_", "-") if "_" in k else k.replace("-", "_") for k in keys}
    answers = ctx.registries.exists_many(Ecosystem.CRATES, keys + list(other.values()))
    for c in cands:
        alt = other.get(c.name)
        if alt is None or answers.get(c.name) is not False or not answers.get(alt):
            continue
        c.facts = replace(crate_of(c), package=alt)
        c.verified = True
        c.evidence.append(Evidence("registry:exists", detail=alt))


def _name_from_registry(
    unknown: dict[str, list[Candidate]], ctx: Context, project: Project | None = None
) -> None:
    """Pick the published spelling of each name (`foo_bar` or `foo-bar`), or the popular
    package that builds a library of that name (`md5` → md-5, data/rust_lib_names.json)."""
    if not unknown:
        return
    libs = lib_name_table()
    spellings: list[str] = []
    for name in unknown:
        spellings.append(name)
        if "_" in name:
            spellings.append(name.replace("_", "-"))
        spellings.extend(libs.get(name, []))
    answers = ctx.registries.exists_many(Ecosystem.CRATES, spellings)
    for name, cands in unknown.items():
        builders = [p for p in libs.get(name, []) if answers.get(p)]
        if builders:
            chosen = _library_builder(name, builders[0], answers.get(name), cands, ctx, project)
            if chosen != name:
                for c in cands:
                    c.name = chosen
                    c.verified = True
                    c.evidence.append(
                        Evidence("registry:lib-name", detail=f"{chosen} builds the library {name}")
                    )
                continue
        dashed = name.replace("_", "-")
        chosen, verified = name, answers.get(name)
        if "_" in name:
            a_dash, a_under = answers.get(dashed), answers.get(name)
            if a_dash and a_under:
                chosen, verified = _canonical(ctx, name, dashed), True
            elif a_dash:
                chosen, verified = dashed, True
            elif a_under:
                chosen, verified = name, True
            elif a_dash is False and a_under is False:
                verified = False
            elif a_dash is None and a_under is None:
                chosen, verified = _unanswered_spelling(name, cands, ctx), None
            else:
                verified = None
        for c in cands:
            c.name = chosen
            c.verified = verified
            if verified:
                c.evidence.append(Evidence("registry:exists", detail=chosen))
            elif verified is False:
                ctx.warn(f"crate '{name}' is used in the code but not in the registry", c.manifest)


def _unanswered_spelling(name: str, cands: list[Candidate], ctx: Context) -> str:
    """The spelling of `a_b` when the registry could not be asked (offline, unreachable):
    the one the shipped tables publish, else the code's own, said to be unverified."""
    dashed = name.replace("_", "-")
    known = shipped_crate_names()
    chosen = dashed if dashed in known and name not in known else name
    if chosen in known:
        for c in cands:
            c.evidence.append(
                Evidence("index:crates", detail=f"{name} → {chosen} (shipped tables)")
            )
        return chosen
    ctx.warn(
        f"crate '{name}': the registry was not asked and no shipped table says whether it is "
        f"published as '{name}' or '{dashed}'; kept as the code spells it, unverified",
        cands[0].manifest,
    )
    return name


@lru_cache(maxsize=1)
def shipped_crate_names() -> frozenset[str]:
    """Crate names as published, from the shipped Rust tables (derives, async attributes,
    umbrella features, library builders, and the dependencies gates.json's features name):
    without the registry, the only word on whether `a_b` is published as `a_b` or `a-b`."""
    names: set[str] = set()
    for table, key in (("rust/derives.json", "entries"), ("rust/async_attributes.json", "entries")):
        for row in load_table_or(table, {}).get(key, []):
            names.update(row.get(k) or "" for k in ("crate", "macro_crate", "needs"))
    names.update(load_table_or("rust/umbrella_features.json", {}).get("crates", {}))
    for builders in lib_name_table().values():
        names.update(builders)
    for crate in load_table_or("rust/gates.json", {}).get("crates", {}).values():
        for values in crate.get("features", {}).values():
            for value in values:
                if value.startswith("dep:"):
                    names.add(value[4:])
                elif "/" in value:
                    names.add(value.split("/")[0].rstrip("?"))
    names.discard("")
    return frozenset(names)


@lru_cache(maxsize=1)
def lib_name_table() -> dict[str, list[str]]:
    """Library name → popular packages building it (scripts/build_rust_lib_names.py)."""
    return load_table_or("rust/rust_lib_names.json", {}).get("lib_names", {})


def _library_builder(
    name: str,
    package: str,
    same_name: bool | None,
    cands: list[Candidate],
    ctx: Context,
    project: Project | None,
) -> str:
    """`package` builds the library `name`; when a crate called `name` exists too (md5 beside
    md-5), the one whose root offers more of the names the code uses after `name::` wins
    (`md5::Md5` → md-5, `md5::compute` → md5), the listed package on a tie; without the
    sources to compare, the crate of that name stays."""
    if not same_name:
        return package
    if project is None or ctx.options.offline:
        return name
    used = {
        p.split("::")[1]
        for c in cands
        for p in crate_of(c).paths
        if p.count("::") >= 1 and p.split("::")[1]
    }
    workdir: list[Path] = []
    cover: dict[str, int | None] = {}
    try:
        for crate in (package, name):
            src, _ = registry_source(crate, [], project, ctx, workdir)
            if src is None:
                cover[crate] = None
                continue
            # names spelled out at the root; a glob or an item macro there (`*`) may hold
            # any name, which tells the two apart no better
            cover[crate] = len(used & top_level_names(release_gates(src, ctx)))
    finally:
        remove_workdir(workdir)
    if cover[package] is None or cover[name] is None:
        return name
    return package if cover[package] >= cover[name] else name


def _canonical(ctx: Context, name: str, dashed: str) -> str:
    """When the registry answers for both spellings, its own record names the crate."""
    for v in ctx.registries.versions(Ecosystem.CRATES, name)[:1]:
        real = v.extra.get("name")
        if isinstance(real, str):
            return real
    return name
