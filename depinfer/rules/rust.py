"""Rust implicit dependencies and features, from data tables and the crates' own sources.

Three sources of knowledge, each a table or a reader, none an if-chain:
- `data/rust/derives.json` (scripts/build_rust_derives.py): derive / attribute macro name →
  the crate that provides it and the feature that enables it (`Serialize` → serde `derive`);
- `[features]` of the manifest itself, which the benchmark's masking keeps: `dep:x`,
  `x?/std`, `x/std` and implicit features name dependencies that must exist (and be optional);
- feature gates in the dependency's own source (`rust_gates`): the items the code uses decide
  the features (`tokio::net` → `net`); read from Cargo's download cache when the crate is
  there, else from `data/rust/gates.json` (scripts/build_rust_gates.py), a snapshot of the same
  reader's output for common crates.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from depinfer.analyzers.rust import SERDE, STD_DERIVABLE
from depinfer.analyzers.rust_gates import (
    TRAIT_PREFIX,
    crate_features,
    crate_reexports,
    dependency_requirement,
    expand,
    external_globs,
    features_for,
    minimal_features,
    read_gates,
    trait_gates,
)
from depinfer.context import Context
from depinfer.data import load_table, load_table_or
from depinfer.facts.rust import CrateFacts, crate_of, package_of, use_of
from depinfer.mapping.rust import code_name, crates_of, feature_references, link_member
from depinfer.mapping.rust_sources import (
    prefetch_sources,
    registry_source,
    release_features,
    release_gates,
    release_source,
)
from depinfer.model import (
    Candidate,
    Ecosystem,
    Evidence,
    ImportRef,
    Manifest,
    Project,
    Section,
)
from depinfer.registries.crate_sources import cargo_source_dir, remove_workdir
from depinfer.versions import parse_as_of, pick_crate_version, vtuple

# Derives of the standard library: never a dependency.
STD_DERIVES = STD_DERIVABLE
_VERSION_SUFFIX = re.compile(r"^(.+?)[-_]v?(\d+(?:[-_]\d+)*)$")


@lru_cache(maxsize=1)
def derive_table() -> dict[tuple[str, str], list[dict[str, Any]]]:
    """(kind, name) → entries; helper attributes are indexed as ("helper", name)."""
    data = load_table("rust/derives.json")
    out: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for e in data["entries"]:
        out.setdefault((e["kind"], e["name"]), []).append(e)
        for h in e.get("helpers", []):
            out.setdefault(("helper", h), []).append(e)
    return out


@lru_cache(maxsize=1)
def gate_snapshot() -> dict[str, Any]:
    return load_table_or("rust/gates.json", {}).get("crates", {})


def infer(
    project: Project, refs: list[ImportRef], candidates: list[Candidate], ctx: Context
) -> list[Candidate]:
    crates = crates_of(project)
    out = list(candidates)
    out.extend(_from_features_tables(crates, out, ctx))
    _derives(refs, out, ctx)
    _async_attributes(refs, out)
    known = _source_gates(out, ctx, project)
    _macro_syntax_caps(project, refs, out, ctx)
    _helper_keys(refs, out, known)
    _method_gates(refs, out, known, project.root)
    _serde_integration(refs, out, known)
    _serde_std_impls(refs, out, known)
    _derived_trait_impls(refs, out, known)
    _umbrella(project, out, known)
    _test_crates_to_dependencies(project, out)
    return out


def _tables_of(tables: dict, kind: str) -> list[str]:
    """The manifest's tables of one kind, target-specific ones too
    (`target.'cfg(unix)'.dev-dependencies`)."""
    return [t for t in tables if t == kind or t.endswith("." + kind)]


def _restoring(m: Manifest, mine: list[Candidate]) -> bool:
    """Whether the package's `[dependencies]` are being restored: its plain `[dependencies]`
    table lists nothing and its shipped code uses crates no table declares. Target-specific
    tables (`[target.'cfg(unix)'.dependencies]`) and `[workspace.dependencies]` do not count:
    they are kept beside a missing `[dependencies]`, not instead of it. A package that still
    declares dependencies, or whose shipped code needs none, is being extended instead."""
    plain = (m.data.get("deps") or {}).get("dependencies")
    return not plain and any(c.section == Section.RUNTIME for c in mine)


def _test_crates_to_dependencies(project: Project, cands: list[Candidate]) -> None:
    """Crates only tests, examples and benchmarks use go to `[dependencies]` where the
    package's tests were built from it (the Cargo Book, "Dev-dependencies": tests, examples
    and benchmarks use both tables; a table that is not there declares nothing):
    - a package that keeps no `[dev-dependencies]` table at all, when it is never published
      (`publish = false`: an example, a test harness) or its `[dependencies]` are being
      restored (`_restoring`): the crates only its tests use belong there, not in a table the
      package never had (corpus train split, 91 repositories: 11 such crates were missed in
      `[dependencies]` against 2 that no manifest declares);
    - a package being restored beside a kept dev table that lists crates: a crate only test
      code uses that the dev table does not list came from `[dependencies]`.
    An empty dev table (as in a new manifest) says nothing; a package being extended gets a
    new test-only crate in its dev table."""
    by_manifest: dict[str, list[Candidate]] = {}
    for c in cands:
        by_manifest.setdefault(c.manifest, []).append(c)
    for m in project.manifests_of(Ecosystem.CRATES):
        mine = by_manifest.get(m.path, [])
        if m.parse_error or not any(c.section == Section.DEV for c in mine):
            continue
        tables = m.data.get("deps") or {}
        dev = _tables_of(tables, "dev-dependencies")
        if not dev:
            unpublished = m.data.get("publish") in (False, [])
            if not (unpublished or _restoring(m, mine)):
                continue
            kind, listed = "rule:no-dev-table", set()
            why = (
                "unpublished package without [dev-dependencies]: tests use [dependencies]"
                if unpublished
                else "no [dev-dependencies] table beside the [dependencies] being restored: "
                "tests use [dependencies]"
            )
        elif any(tables[t] for t in dev) and _restoring(m, mine):
            kind, listed = "rule:dev-table-lacks", {code_name(n) for t in dev for n in tables[t]}
            why = (
                "tests use it and the kept [dev-dependencies] does not list it: "
                "it was in [dependencies]"
            )
        else:
            continue
        for c in mine:
            if c.section == Section.DEV and code_name(c.name) not in listed:
                c.section = Section.RUNTIME
                c.evidence.append(Evidence(kind, m.path, None, why))


# ---------------------------------------------------------------- [features]


def _is_optional(entry: Any) -> bool:
    return isinstance(entry, dict) and entry.get("optional") is True


def _from_features_tables(crates: dict, have: list[Candidate], ctx: Context) -> list[Candidate]:
    """Dependencies `[features]` names but no remaining table declares: they were in
    `[dependencies]`. Dev-dependencies cannot be optional or carry feature-enabled features,
    so a crate the dev-dependencies also list (the tests use it too) still needs its
    `[dependencies]` entry."""
    out: list[Candidate] = []
    present = {(c.manifest, code_name(c.name)) for c in have if c.section != Section.DEV}
    by_lib = {i.lib_name: i for i in crates.values()}
    by_lib.update({code_name(i.name): i for i in crates.values()})
    for path, info in crates.items():
        declared: set[str] = set()
        optional: set[str] = set()  # `dep:x` needs an optional entry: a plain one is not it
        for table, deps in info.manifest.data.get("deps", {}).items():
            if table != "workspace.dependencies" and not table.endswith("dev-dependencies"):
                declared.update(code_name(k) for k in deps)
                optional.update(code_name(k) for k, d in deps.items() if _is_optional(d))
        for key, ref in feature_references(info.manifest.data.get("features", {})).items():
            known = optional if ref["optional"] else declared
            if code_name(key) in known or (path, code_name(key)) in present:
                continue
            if code_name(key) == info.lib_name:
                continue
            cand = Candidate(
                ecosystem=Ecosystem.CRATES,
                name=key,
                manifest=path,
                section=Section.RUNTIME,
                evidence=[
                    Evidence(
                        "manifest:features",
                        path,
                        None,
                        f"[features] {', '.join(sorted(set(ref['by'])))} name {key}",
                    )
                ],
                optional=ref["optional"],
                confidence=0.9,
                facts=CrateFacts(from_features=True),
            )
            sibling = by_lib.get(code_name(key))
            if sibling is not None and sibling is not info:
                link_member(cand, info, sibling)  # the path dependency it was
                out.append(cand)
                present.add((path, code_name(key)))
                continue
            m = _VERSION_SUFFIX.match(key)
            if m and not key[0].isdigit():
                # `chrono_0_4` → a rename of `chrono` (the registry decides in the resolver)
                cand.facts = replace(
                    crate_of(cand),
                    package_guess=m.group(1),
                    version_guess=m.group(2).replace("_", ".").replace("-", "."),
                )
            out.append(cand)
            present.add((path, code_name(key)))
    return out


# ---------------------------------------------------------------- derives and attributes


def _by_code_name(cands: list[Candidate]) -> dict[str, dict[str, list[Candidate]]]:
    """Candidates per manifest under the name code uses for them (a renamed dependency
    under its package's name too)."""
    out: dict[str, dict[str, list[Candidate]]] = {}
    for c in cands:
        out.setdefault(c.manifest, {}).setdefault(code_name(c.name), []).append(c)
        if crate_of(c).package:
            out[c.manifest].setdefault(code_name(crate_of(c).package), []).append(c)
    return out


def _derives(refs: list[ImportRef], cands: list[Candidate], ctx: Context) -> None:
    table = derive_table()
    by_manifest = _by_code_name(cands)
    added: dict[tuple[str, str, Section], Candidate] = {}
    for ref in refs:
        how = use_of(ref).how
        if how not in ("derive", "attr"):
            continue
        path = use_of(ref).path
        name = path.split("::")[-1]
        if how == "derive" and name in STD_DERIVES:
            continue
        manifest = use_of(ref).manifest
        have = by_manifest.get(manifest, {})
        resolved = use_of(ref).resolved
        via = path.split("::")[0] if "::" in path else None
        crate = via or (resolved.split("::")[0] if resolved and "::" in resolved else None)
        kinds = ("derive",) if how == "derive" else ("attribute",)
        entries = [e for k in kinds for e in table.get((k, name), [])]
        if crate is not None:
            if how == "derive":
                for c in _same_target(have.get(crate, []), ref):
                    c.facts = replace(
                        crate_of(c), derives=tuple(sorted({*crate_of(c).derives, name}))
                    )
            for e in entries:
                if code_name(e["crate"]) == crate and e["features"]:
                    for c in _same_target(have.get(crate, []), ref):
                        _add_features(c, e, ref)
            continue
        if how == "attr":
            # a bare attribute only confirms a crate already named elsewhere
            entries = entries + table.get(("helper", name), [])
            for e in entries:
                for c in _same_target(have.get(code_name(e["crate"]), []), ref):
                    _add_features(c, e, ref)
            continue
        # an unimported derive (glob import, `#[macro_use] extern crate`): the table decides
        present = [e for e in entries if code_name(e["crate"]) in have]
        if present:
            for e in present:
                for c in _same_target(have.get(code_name(e["crate"]), []), ref):
                    _add_features(c, e, ref)
            continue
        providers = {e["crate"] for e in entries}
        if len(providers) != 1:
            continue
        e = entries[0]
        section = _ref_section(ref)
        key = (manifest, e["crate"], section)
        cand = added.get(key)
        if cand is None:
            cand = _ref_candidate(e["crate"], manifest, section, ref, 0.7)
            added[key] = cand
            cands.append(cand)
        _add_features(cand, e, ref)


@lru_cache(maxsize=1)
def async_attribute_table() -> dict[str, list[dict[str, Any]]]:
    """attribute name → entries (scripts/build_rust_async_attributes.py)."""
    data = load_table("rust/async_attributes.json")
    out: dict[str, list[dict[str, Any]]] = {}
    for e in data["entries"]:
        out.setdefault(e["attribute"], []).append(e)
    return out


def _ref_section(ref: ImportRef) -> Section:
    """The manifest table a macro use belongs to: its file's target (tests, build script)."""
    return {"dev": Section.DEV, "build": Section.BUILD}.get(use_of(ref).target, Section.RUNTIME)


def _ref_candidate(
    name: str, manifest: str, section: Section, ref: ImportRef, confidence: float
) -> Candidate:
    """A crate a macro use implies, gated and marked as the use is."""
    return Candidate(
        ecosystem=Ecosystem.CRATES,
        name=name,
        manifest=manifest,
        section=section,
        confidence=confidence,
        markers=ref.marker,
        optional=ref.optional,
        facts=CrateFacts(gates=use_of(ref).features),
    )


def _async_attributes(refs: list[ImportRef], cands: list[Candidate]) -> None:
    """An attribute macro on an `async fn` whose generated code names another crate
    (`#[wasm_bindgen] async fn` → wasm-bindgen-futures) needs that crate beside its own."""
    table = async_attribute_table()
    have = _by_code_name(cands)
    for ref in refs:
        if use_of(ref).how != "async-attr":
            continue
        path = use_of(ref).path
        manifest = use_of(ref).manifest
        present = have.setdefault(manifest, {})
        for e in table.get(path.split("::")[-1], []):
            provider = code_name(e["crate"])
            head = path.split("::")[0] if "::" in path else None
            if (head or provider) != provider or provider not in present:
                continue
            section = _ref_section(ref)
            need = code_name(e["needs"])
            if any(c.section == section or section == Section.DEV for c in present.get(need, [])):
                continue
            cand = _ref_candidate(e["needs"], manifest, section, ref, 0.8)
            cand.evidence.append(Evidence("rule:async-attribute", ref.file, ref.line, e["why"]))
            present.setdefault(need, []).append(cand)
            cands.append(cand)


_TARGET_SECTIONS = {
    "runtime": (Section.RUNTIME, Section.OPTIONAL),
    "dev": (Section.DEV,),
    "build": (Section.BUILD,),
}


def _same_target(cands: list[Candidate], ref: ImportRef) -> list[Candidate]:
    """The candidates of the target the use sits in: `#[tokio::test]` in a `#[cfg(test)]`
    module needs `macros` in the dev-dependency, not in `[dependencies]`, which a library
    would otherwise carry for its tests alone. All of them when none is of that target."""
    sections = _TARGET_SECTIONS.get(use_of(ref).target, ())
    same = [c for c in cands if c.section in sections]
    return same or cands


def _add_features(c: Candidate, entry: dict[str, Any], ref: ImportRef) -> None:
    for f in entry["features"]:
        if f not in c.features:
            c.features.append(f)
    if len(c.evidence) >= 8 or any(e.rule == f"rule:{entry['kind']}" for e in c.evidence):
        return
    c.evidence.append(
        Evidence(f"rule:{entry['kind']}", ref.file, ref.line, f"{entry['name']}: {entry['why']}")
    )


# ---------------------------------------------------------------- feature gates in sources


def _with_reexports(
    src: Path,
    gates: dict[str, list[str]],
    features: dict[str, list[str]],
    ctx: Context,
    workdir: list[Path],
    locate: Callable[[str], Path | None] | None = None,
) -> dict[str, list[str]]:
    """Follow `pub use clap_builder::*`: the re-exported crate's gates, with its features
    mapped back to the facade feature that switches them on (`clap_builder/cargo` → `cargo`)."""
    merged = dict(gates)
    _with_crate_aliases(src, merged, features, ctx, workdir, locate)
    for ext in external_globs(gates):
        req = dependency_requirement(str(src), ext) or ""
        exact = req.lstrip("=").strip() if req.strip().startswith("=") else None
        ext_src = release_source(ext, exact, ctx, workdir) if exact else None
        if ext_src is None:
            continue
        for path, needs in release_gates(ext_src, ctx).items():
            if path in merged or path.startswith("*"):
                continue
            mapped = []
            for f in needs:
                facade = [
                    k
                    for k, items in features.items()
                    if any(i.replace("?/", "/") == f"{ext}/{f}" for i in items)
                ]
                if facade:
                    mapped.append(sorted(facade, key=lambda k: len(features[k]))[0])
            if len(mapped) == len(needs):
                merged[path] = mapped
    return merged


def _sibling_locator(project: Project) -> Callable[[str], Path | None]:
    """Code name → directory of the repository's crate of that lib name."""
    dirs = {
        info.lib_name: project.root / (info.directory or ".")
        for info in crates_of(project).values()
    }
    return dirs.get


def _with_crate_aliases(
    src: Path,
    merged: dict[str, list[str]],
    features: dict[str, list[str]],
    ctx: Context,
    workdir: list[Path],
    locate: Callable[[str], Path | None] | None,
) -> None:
    """Follow `#[cfg(feature = "timers")] pub use gloo_timers as timers;`: `timers::future`
    needs the facade's `timers` and whichever facade feature switches on the re-exported
    crate's `futures` (`futures = ["gloo-timers/futures"]`). The re-exported crate's source is
    a crate of the same repository (`locate`), or the release the facade pins exactly."""
    for alias, ext in crate_reexports(merged).items():
        ext_src = locate(ext) if locate is not None else None
        if ext_src is None:
            req = dependency_requirement(str(src), ext) or dependency_requirement(
                str(src), ext.replace("_", "-")
            )
            exact = req.lstrip("=").strip() if req and req.strip().startswith("=") else None
            if exact:
                ext_src = release_source(ext, exact, ctx, workdir, ext.replace("_", "-"))
        if ext_src is None:
            continue
        outer = merged.get(alias, [])
        for path, needs in read_gates(str(ext_src)).items():
            if path.startswith(("*", "<")):
                continue
            key = f"{alias}::{path}"
            if key in merged:
                continue
            mapped = []
            for f in needs:
                facade = [
                    k
                    for k, items in features.items()
                    if any(
                        code_name(i.replace("?/", "/").partition("/")[0]) == ext
                        and i.partition("/")[2] == f
                        for i in items
                    )
                ]
                if facade:
                    mapped.append(sorted(facade, key=lambda k: len(features[k]))[0])
            if len(mapped) == len(needs):
                merged[key] = list(dict.fromkeys(outer + mapped))


# package → (its gates: public path → features, its `[features]` table)
Known = dict[str, tuple[dict[str, list[str]], dict[str, list[str]]]]


def _source_gates(cands: list[Candidate], ctx: Context, project: Project | None = None) -> Known:
    """Each candidate's gates and features, read once per package, and the features the
    paths its code uses need switched on."""
    cache: Known = {}
    workdir: list[Path] = []
    pins: dict[str, str] = {}
    every = _paths_per_package(cands)
    if project is not None:
        _prefetch(cands, every, ctx, project)
    for c in cands:
        paths = [p for p in crate_of(c).paths if "::" in p]
        package = package_of(c)
        known = cache.get(package)
        if known is None and c.internal:
            known = cache[package] = _sibling_gates(c, ctx, project, workdir)
        if known is None:
            used = every.get(package) or paths
            known = _published_gates(package, used, ctx, project, workdir, pins)
            cache[package] = known
        if package in pins:
            c.facts = replace(crate_of(c), version_pin=pins[package])
            c.evidence.append(
                Evidence(
                    "source:api", detail=f"names the code uses exist in {package} {pins[package]}"
                )
            )
        _enable_gated(c, package, paths, *known)
    remove_workdir(workdir)
    return cache


def _prefetch(
    cands: list[Candidate], every: dict[str, list[str]], ctx: Context, project: Project
) -> None:
    """The releases `_published_gates` will read, downloaded concurrently first: each
    package whose first candidate is a registry crate with paths the code uses."""
    first: dict[str, Candidate] = {}
    for c in cands:
        first.setdefault(package_of(c), c)
    prefetch_sources([p for p, c in first.items() if not c.internal and every.get(p)], project, ctx)


def _paths_per_package(cands: list[Candidate]) -> dict[str, list[str]]:
    """The release is chosen once per package for the whole repository, so from the names
    every manifest's code uses (one example's `rand::prelude` alone would not rule out rand
    0.10, another's `rand::thread_rng` does)."""
    every: dict[str, list[str]] = {}
    for c in cands:
        if not c.internal:
            bucket = every.setdefault(package_of(c), [])
            bucket.extend(p for p in crate_of(c).paths if "::" in p and p not in bucket)
    return every


def _sibling_gates(
    c: Candidate, ctx: Context, project: Project | None, workdir: list[Path]
) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """A sibling crate: its own source in the repository says which features it gates."""
    if project is None or c.path is None:
        return {}, {}
    root = project.root / (Path(c.manifest).parent / c.path)
    if not (root / "Cargo.toml").is_file():
        return {}, {}
    gates, features = read_gates(str(root.resolve())), crate_features(str(root))
    if crate_reexports(gates):
        gates = _with_reexports(root, gates, features, ctx, workdir, _sibling_locator(project))
    return gates, features


def _published_gates(
    package: str,
    used: list[str],
    ctx: Context,
    project: Project | None,
    workdir: list[Path],
    pins: dict[str, str],
) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """A registry crate: the source of the release the names `used` fit (pinned in `pins`
    when not the newest), else Cargo's cache, else the shipped snapshot."""
    src = None
    if used and project is not None:
        tails = [p.split("::", 1)[1] for p in used]
        src, pin = registry_source(package, tails, project, ctx, workdir)
        if pin is not None:
            pins[package] = pin
    src = src or cargo_source_dir(package)
    if src is not None:
        gates, features = release_gates(src, ctx), release_features(src, ctx)
        return _with_reexports(src, gates, features, ctx, workdir), features
    snap = gate_snapshot().get(code_name(package)) or gate_snapshot().get(package)
    if snap:
        return snap.get("gates", {}), snap.get("features", {})
    return {}, {}


def _enable_gated(
    c: Candidate,
    package: str,
    paths: list[str],
    gates: dict[str, list[str]],
    features: dict[str, list[str]],
) -> None:
    """Switch on the features the used paths need: by the crate's cfg gates, or for a crate
    too large to read, by features named after the items."""
    if not gates and features and paths:
        named = _item_named_features([p.split("::", 1)[1] for p in paths], features)
        if named:
            _enable(
                c,
                named,
                features,
                lambda f: Evidence(
                    "source:item-feature", detail=f"{package} names a feature '{f}'"
                ),
            )
        return
    if not gates or not paths:
        return
    used = [p.split("::", 1)[1] for p in paths]
    enabled = frozenset(expand(features, ["default", *c.features]) | set(c.features))
    _enable(
        c,
        features_for(gates, used, enabled),
        features,
        lambda f: Evidence("source:cfg-feature", detail=f"{package} needs '{f}'"),
    )


def _read_again(root: Path, rel: str) -> str:
    """A source file's text for a second look at what the analyzer does not keep (it
    reported any read problem already): empty when unreadable."""
    try:
        return (root / rel).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


@lru_cache(maxsize=1)
def macro_syntax() -> list[dict[str, Any]]:
    return load_table("rust/macro_syntax.json")["entries"]


_STRING_ARG = re.compile(r'\s*\(\s*"((?:[^"\\]|\\.)*)"\s*,\s*(?!\w+\s*=[^=])\S')


def _numbered_field_with_positional_args(text: str, attribute: str) -> bool:
    """`#[error("found {0:?} after ({:?})", HEX_PREFIX)]`: a numbered field in the format string
    and an unnamed argument after it (a `name = value` argument is not one)."""
    for m in re.finditer(r"#\[\s*" + re.escape(attribute) + r"\b", text):
        arg = _STRING_ARG.match(text, m.end())
        if arg and re.search(r"\{\d", arg.group(1).replace("{{", "")):
            return True
    return False


_SYNTAX_CHECKS = {"numbered-field-with-positional-args": _numbered_field_with_positional_args}


def _macro_syntax_caps(
    project: Project, refs: list[ImportRef], cands: list[Candidate], ctx: Context
) -> None:
    """Attribute syntax a derive rejects from one major on (data/rust/macro_syntax.json:
    thiserror 2 refuses `{0}` beside extra positional arguments) keeps the crate on the newest
    line before that major: a manifest asking for the newer one does not build."""
    files: dict[str, set[str]] = {}
    for r in refs:
        files.setdefault(r.module, set()).add(r.file)
    for entry in macro_syntax():
        check = _SYNTAX_CHECKS.get(entry["check"])
        users = sorted(files.get(code_name(entry["crate"]), set()))
        if check is None or not users:
            continue
        hit = None
        for f in users:
            text = _read_again(project.root, f)
            if check(re.sub(r"//[^\n]*", " ", text), entry["attribute"]):
                hit = f
                break
        if hit is None:
            continue
        since = vtuple(entry["since"])[0]
        versions = ctx.registries.versions(Ecosystem.CRATES, entry["crate"])
        try:
            as_of = parse_as_of(ctx.options.as_of, project.last_commit_date)
        except ValueError:
            as_of = None
        older = pick_crate_version(
            [v for v in versions if vtuple(v.version)[0] < since], as_of=as_of
        )
        for c in cands:
            if package_of(c) != entry["crate"] or older is None:
                continue
            pin = crate_of(c).version_pin
            if pin and vtuple(pin)[0] < since:
                continue
            c.facts = replace(crate_of(c), version_pin=older.version)
            c.evidence.append(
                Evidence("source:macro-syntax", hit, None, f"{entry['why']} since {entry['since']}")
            )


def _item_named_features(used: list[str], features: dict[str, list[str]]) -> list[str]:
    """Generated API crates too large to read (web-sys, windows) gate each item behind a
    feature named after it: `web_sys::HtmlElement` needs `HtmlElement`, `web_sys::console`
    needs `console` (the wasm-bindgen Guide, "Cargo features" of web-sys: a feature for every
    type, enabled to use it); `windows::Win32::Foundation::HANDLE` needs `Win32_Foundation`
    (the windows crate's features are its module paths joined with `_`). A used path segment,
    or the `_`-joined run of segments up to it, that is a feature of the crate is switched on
    (never `default` nor an opt-in-only feature)."""
    out: list[str] = []
    for path in used:
        segs = [s for s in path.split("::") if s]
        for i, seg in enumerate(segs):
            for name in (seg, "_".join(segs[: i + 1])):
                if name in features and name != "default" and not _opt_in_only(name):
                    if name not in out:
                        out.append(name)
    return out


@dataclass
class _Calls:
    """What the refs say about method calls: per file the methods it calls, per (manifest,
    crate) the runtime files using the crate, per (file, crate) the crate's types it names."""

    methods: dict[str, set[str]] = field(default_factory=dict)
    users: dict[tuple[str, str], set[str]] = field(default_factory=dict)
    types: dict[tuple[str, str], set[str]] = field(default_factory=dict)


def _calls(refs: list[ImportRef]) -> _Calls:
    out = _Calls()
    for r in refs:
        use = use_of(r)
        if use.how == "methods":
            out.methods.setdefault(r.file, set()).update(use.methods)
        elif use.how in ("use", "path", "via-use", "via-glob", "macro") and use.target == "runtime":
            out.users.setdefault((use.manifest, r.module), set()).add(r.file)
            last = use.path.rpartition("::")[2]
            if last[:1].isupper():
                out.types.setdefault((r.file, r.module), set()).add(last)
    return out


class _UseWords:
    """file → the names its `use` items name, read on demand."""

    def __init__(self, root: Path | None) -> None:
        self.root = root
        self.words: dict[str, set[str]] = {}

    def mentions(self, file: str, name: str) -> bool:
        if file not in self.words:
            text = _read_again(self.root, file) if self.root else ""
            text = re.sub(r"//[^\n]*|/\*.*?\*/", " ", text, flags=re.DOTALL)
            uses = " ".join(re.findall(r"\buse\s[^;]*;", text))
            self.words[file] = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", uses))
        return name in self.words[file]


def _method_gates(
    refs: list[ImportRef],
    cands: list[Candidate],
    known: Known,
    root: Path | None = None,
) -> None:
    """A method called in a file that uses crate X, which X defines only behind a feature
    (`TextDiff::iter_inline_changes` → similar's `inline`, `RequestBuilder::json` → reqwest's
    `json`), switches that feature on. Names the standard library also defines (`.parse()`,
    `.is_empty()`: data/rust/std_methods.json) and very short ones say nothing of the type
    called, so they are skipped."""
    calls = _calls(refs)
    words = _UseWords(root)
    for c in cands:
        if c.section != Section.RUNTIME:
            continue
        gates, features = known.get(package_of(c), ({}, {}))
        if not gates:
            continue
        called: set[str] = set()
        needed: list[str] = []
        # sorted: the features switched on are written in this order, the same every run
        for f in sorted(calls.users.get((c.manifest, code_name(c.name)), set())):
            called |= calls.methods.get(f, set())
            needed.extend(_trait_method_needs(f, c, gates, calls, words))
        needed.extend(_inherent_method_needs(called, c, gates, features))
        if needed:
            _enable(
                c, needed, features, lambda f: Evidence("source:method-gate", detail=f"needs '{f}'")
            )


def _trait_method_needs(
    f: str, c: Candidate, gates: dict[str, list[str]], calls: _Calls, words: _UseWords
) -> list[str]:
    """A trait method of a type the file names, the trait imported (a call needs it in
    scope: `use crate::{Sink, Stream}` in warp): `tx.poll_flush()` in a file naming
    `mpsc::UnboundedSender`, whose Sink impl is behind `sink`. Traits with a derive
    (Serialize, defmt's Format) are called by generic code on any type (a serializer calls
    `.serialize()`), and std's method names say nothing of the type, so neither counts
    (serde's own integration has its rule below)."""
    std = std_methods()
    derives = derive_table()
    named = calls.types.get((f, code_name(c.name)), set())
    out: list[str] = []
    for path, needs in gates.items():
        if not path.startswith(TRAIT_PREFIX) or not needs:
            continue
        owner, _, method = path[len(TRAIT_PREFIX) :].partition("::")
        trait, _, tname = owner.partition("/")
        if (
            tname in named
            and len(method) >= 4
            and method not in std
            and ("derive", trait) not in derives
            and method in calls.methods.get(f, set())
            and words.mentions(f, trait)
        ):
            out.extend(n for n in needs if not _opt_in_only(n))
    return out


def _inherent_method_needs(
    called: set[str], c: Candidate, gates: dict[str, list[str]], features: dict[str, list[str]]
) -> list[str]:
    """Methods of the crate's types (`TextDiff::iter_inline_changes`, not module functions)
    the files call, which every type having that method gates behind a feature."""
    std = std_methods()
    gated: dict[str, list[list[str]]] = {}
    for path, needs in gates.items():
        head, _, method = path.rpartition("::")
        if head.rpartition("::")[2][:1].isupper() and method[:1].islower():
            gated.setdefault(method, []).append(needs)
    out: list[str] = []
    for m in sorted(called):
        alternatives = gated.get(m)
        if not alternatives or len(m) < 4 or m in std:
            continue
        if any(not a for a in alternatives):
            continue  # some type has it ungated
        enabled = expand(features, c.features + ["default"]) | set(c.features)
        if any(set(a) <= enabled for a in alternatives):
            continue  # a type already switched on has it (`Xxh3::update` beside `Xxh32`'s)
        best = min(alternatives, key=len)
        if any(_opt_in_only(f) for f in best):
            continue  # a name alone never switches on an unstable or private feature
        out.extend(best)
    return out


def _enable(
    c: Candidate,
    needed: list[str],
    features: dict[str, list[str]],
    evidence: Callable[[str], Evidence],
) -> None:
    """Switch `needed` on for `c` (the smallest set implying them all), with the evidence
    for each feature that is new."""
    merged = minimal_features(c.features + needed, features)
    c.evidence.extend(evidence(f) for f in merged if f not in c.features)
    c.features = merged


def _opt_in_only(feature: str) -> bool:
    """Features a crate offers only to those who ask by name: `unstable-*` / `*_unstable`
    (log's `kv_unstable`, clap's `unstable-ext`) and `_private` ones (reqwest's
    `__native-tls`, switched on through a public feature)."""
    return "unstable" in feature or feature.startswith("_")


@lru_cache(maxsize=1)
def std_methods() -> frozenset[str]:
    """Method names of std/core/alloc types (scripts/build_rust_std_methods.py)."""
    return frozenset(load_table_or("rust/std_methods.json", {}).get("methods", []))


@lru_cache(maxsize=1)
def helper_methods() -> dict[str, dict[str, list[str]]]:
    return load_table_or("rust/helper_methods.json", {}).get("crates", {})


def _helper_keys(
    refs: list[ImportRef],
    cands: list[Candidate],
    known: Known,
) -> None:
    """`#[arg(env = "X")]` calls `Arg::env`, which clap compiles only with its `env` feature."""
    table = helper_methods()
    for c in cands:
        helpers = table.get(package_of(c))
        if not helpers or c.internal:
            continue
        gates, features = known.get(package_of(c), ({}, {}))
        if not gates:
            continue
        needed: list[str] = []
        for r in refs:
            if use_of(r).how != "attr" or use_of(r).manifest != c.manifest:
                continue
            for ty in helpers.get(use_of(r).path, []):
                for key in use_of(r).keys:
                    gate = gates.get(f"{ty}::{key}", [])
                    if not any(_opt_in_only(f) for f in gate):
                        needed.extend(gate)
        if needed:
            _enable(
                c,
                needed,
                features,
                lambda f: Evidence("source:helper-attribute", detail=f"needs '{f}'"),
            )


# A crate's serde support sits behind one of these feature names (data/rust/serde.json).
SERDE_FEATURES = tuple(SERDE["integration_features"]["names"])


def _serde_integration(
    refs: list[ImportRef],
    cands: list[Candidate],
    known: Known,
) -> None:
    """A type of crate X inside a `#[derive(Serialize/Deserialize)]` item needs X's serde
    feature (when X has one that is not on by default)."""
    used: dict[tuple[str, str, str], set[str]] = {}
    for r in refs:
        if use_of(r).serde_item and use_of(r).how in ("type-use", "path"):
            target = use_of(r).target
            used.setdefault((use_of(r).manifest, r.module, target), set()).add(r.file)
    for c in cands:
        # a use in tests reaches the dev entry (or [dependencies] when there is none: the
        # resolver's merge decides), one in the library the runtime entry
        target = {Section.DEV: "dev", Section.BUILD: "build"}.get(c.section, "runtime")
        if c.internal or not used.get((c.manifest, code_name(c.name), target)):
            continue
        package = package_of(c)
        features = known.get(package, ({}, {}))[1]
        default = expand(features, ["default"])
        for f in SERDE_FEATURES:
            if f in features and f not in default:
                if f not in c.features:
                    c.features.append(f)
                    c.evidence.append(
                        Evidence(
                            "rule:serde-integration", detail=f"serde derives use {package} types"
                        )
                    )
                break


def _derived_trait_impls(
    refs: list[ImportRef],
    cands: list[Candidate],
    known: Known,
) -> None:
    """`#[derive(Debug, PartialEq)] struct S(syn::Meta)` needs syn to implement Debug and
    PartialEq for Meta, which syn compiles only with `extra-traits`: the crate's own
    `impl Trait for Type` gates (rust_gates, `<impl>Trait::Type`) decide."""
    by_key: dict[tuple[str, str], list[Candidate]] = {}
    for c in cands:
        if not c.internal:
            by_key.setdefault((c.manifest, code_name(c.name)), []).append(c)
    for r in refs:
        derives = use_of(r).derives
        if not derives or use_of(r).how not in ("type-use", "path"):
            continue
        segs = [s for s in use_of(r).path.split("::") if s]
        if len(segs) < 2 or not segs[-1][:1].isupper():
            continue
        for c in _same_target(by_key.get((use_of(r).manifest, segs[0]), []), r):
            gates, features = known.get(package_of(c), ({}, {}))
            needed = [f for t in derives for f in (trait_gates(gates, t, segs[-1]) or [])]
            if not needed:
                continue
            why = f"derive({', '.join(derives)}) over {segs[-1]}"
            _enable(
                c,
                needed,
                features,
                lambda f, r=r, why=why: Evidence(
                    "source:trait-impl-gate", r.file, r.line, f"{why} needs '{f}'"
                ),
            )


# serde implements Serialize/Deserialize for std's shared pointers only with its `rc` feature
# (data/rust/serde.json).
SERDE_STD_IMPLS = {row["type"]: row["feature"] for row in SERDE["std_impls"]}


def _serde_std_impls(
    refs: list[ImportRef],
    cands: list[Candidate],
    known: Known,
) -> None:
    """A `#[derive(Serialize)]` item with an `Arc<T>` field does not build without serde's
    `rc` feature."""
    serde = {
        (c.manifest, c.section): c
        for c in cands
        if code_name(package_of(c)) == code_name(SERDE["crate"]) and not c.internal
    }
    for r in refs:
        feature = SERDE_STD_IMPLS.get(use_of(r).path)
        if use_of(r).how != "serde-std-type" or feature is None:
            continue
        mine = [c for (m, _), c in serde.items() if m == use_of(r).manifest]
        for c in _same_target(mine, r):
            features = known.get(package_of(c), ({}, {}))[1]
            if features and feature not in features:
                continue  # a serde without that feature (renamed or very old)
            if feature not in c.features:
                c.features.append(feature)
                c.evidence.append(
                    Evidence(
                        "rule:serde-std-impl",
                        r.file,
                        r.line,
                        f"serde item field {use_of(r).path}<..>",
                    )
                )


@lru_cache(maxsize=1)
def umbrella_table() -> dict[str, dict[str, Any]]:
    return load_table_or("rust/umbrella_features.json", {}).get("crates", {})


def _has_binary(project: Project, manifest: str) -> bool:
    """A package that builds a program (src/main.rs, src/bin/, `[[bin]]`): an application,
    whose dependencies' feature lists follow application conventions."""
    directory = project.root / Path(manifest).parent
    if (directory / "src" / "main.rs").is_file() or (directory / "src" / "bin").is_dir():
        return True
    return any(
        m.path == manifest and (m.data.get("targets") or {}).get("bin") for m in project.manifests
    )


def _umbrella(
    project: Project,
    cands: list[Candidate],
    known: Known,
) -> None:
    """An application (a package with a binary) that needs several of tokio's features writes `full`, as tokio's own
    getting-started does (data/rust/umbrella_features.json); a library keeps the minimal list.
    Counted over every candidate that ends in the `[dependencies]` entry (per-cfg uses, and
    test uses when no dev entry exists); features the umbrella does not include (tokio's
    `tracing`) stay beside it."""
    table = umbrella_table()
    groups: dict[tuple[str, str], list[Candidate]] = {}
    for c in cands:
        package = package_of(c)
        if c.internal or code_name(package) not in table:
            continue
        groups.setdefault((c.manifest, package), []).append(c)
    for (manifest, package), group in groups.items():
        entry = table[code_name(package)]
        runtime = [c for c in group if c.section in (Section.RUNTIME, Section.OPTIONAL)]
        if not runtime or not _has_binary(project, manifest):
            continue
        dev_declared = _declares(project, manifest, "dev-dependencies", package)
        riding = runtime + ([] if dev_declared else [c for c in group if c.section == Section.DEV])
        needed = list(dict.fromkeys(f for c in riding for f in c.features))
        if len(needed) < entry["min_features"]:
            continue
        features = known.get(package, ({}, {}))[1]
        umbrella = entry["feature"]
        if features and umbrella not in features:
            continue
        covered = expand(features, [umbrella]) if features else set(needed)
        for c in riding:
            c.features = [f for f in c.features if f not in covered]
        runtime[0].features.insert(0, umbrella)
        runtime[0].evidence.append(
            Evidence(
                "rule:umbrella-feature",
                detail=f"an application needing {', '.join(needed)} of {package} writes '{umbrella}'",
            )
        )


def _declares(project: Project, manifest: str, table: str, package: str) -> bool:
    """Whether a kept table of the manifest (plain or per target) names the crate."""
    for m in project.manifests:
        if m.path != manifest:
            continue
        for name, deps in (m.data.get("deps") or {}).items():
            if name == table or (name.startswith("target.") and name.endswith("." + table)):
                if any(code_name(k) == code_name(package) for k in deps):
                    return True
    return False
