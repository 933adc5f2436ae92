"""The source of the crate release the resolver would choose, read to see which names it
offers: the mapping (which of two crates builds a library, what a glob import brings in)
and the rules (which features an item needs) read the same release."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from depinfer.analyzers.rust_gates import (
    crate_features,
    gates_refusal,
    read_gates,
    top_level_names,
)
from depinfer.context import Context
from depinfer.data import load_table
from depinfer.model import Ecosystem, Project
from depinfer.registries.crate_sources import crate_source, remembered
from depinfer.versions import compat_key, parse_as_of, pick_crate_version, vtuple

CRATE_STORE = "crates"  # under the analysis cache (one folder per depinfer version)


def release_source(
    package: str, version: str, ctx: Context, workdir: list[Path], registry_name: str = ""
) -> Path | None:
    """`crate_source` with the run's registries and offline setting, unpacked into the
    analysis cache's crate store (kept for later runs) when the run has that cache."""
    return crate_source(
        package, version, ctx.registries, ctx.options.offline, workdir, registry_name, _store(ctx)
    )


PREFETCH_WORKERS = 8  # `.crate` downloads at once


def prefetch_sources(packages: list[str], project: Project, ctx: Context) -> None:
    """The `.crate` of the release `registry_source` reads first for each of `packages`,
    fetched concurrently (PREFETCH_WORKERS at once) into the crate store, so that a cold run
    waits about one download, not one per package, and the reads after it find each release
    kept. Nothing offline, without a store, or for fewer than two packages."""
    store = _store(ctx)
    if (
        len(packages) < 2
        or ctx.options.offline
        or store is None
        or not hasattr(ctx.registries, "download_crate")
    ):
        return
    import shutil
    import tempfile
    from concurrent.futures import ThreadPoolExecutor  # lazy: offline runs start none

    versions = ctx.registries.versions_many(Ecosystem.CRATES, packages)
    try:
        as_of = parse_as_of(ctx.options.as_of, project.last_commit_date)
    except ValueError:
        as_of = None
    picked = [(p, pick_crate_version(versions.get(p) or [], as_of=as_of)) for p in packages]
    pairs = [(p, v.version) for p, v in picked if v is not None]
    if len(pairs) < 2:
        return
    own = [Path(tempfile.mkdtemp(prefix="depinfer-crates-"))]  # if the store cannot be written
    try:
        with ThreadPoolExecutor(max_workers=min(PREFETCH_WORKERS, len(pairs))) as pool:
            list(pool.map(lambda pv: release_source(pv[0], pv[1], ctx, own), pairs))
    finally:
        shutil.rmtree(own[0], ignore_errors=True)


@lru_cache(maxsize=1)
def std_prelude() -> frozenset[str]:
    """Names every module has from the standard prelude (`Vec`, `Option`, `TryFrom`)."""
    return frozenset(load_table("rust/rust_std.json").get("std_prelude", []))


def covered(tops: set[str], public: set[str]) -> int:
    """How many of the names `tops` a release offers at its root (`public`); a glob
    re-export the reader could not follow (another crate's, or items a macro writes) may
    bring any of them: all count."""
    if any(p.startswith("*") for p in public):
        return len(tops)
    return sum(1 for t in tops if t in public)


def _store(ctx: Context) -> Path | None:
    return ctx.files.root / CRATE_STORE if ctx.files.root is not None else None


def release_gates(src: Path, ctx: Context) -> dict[str, list[str]]:
    """`read_gates` of a release's source (unpacked by `release_source`, or Cargo's cache),
    kept in the analysis cache for later runs."""
    return remembered(str(src), "gates", lambda: read_gates(str(src)), _store(ctx))


def release_features(src: Path, ctx: Context) -> dict[str, list[str]]:
    """`crate_features` of a release's source, kept as `release_gates` is."""
    return remembered(str(src), "features", lambda: crate_features(str(src)), _store(ctx))


def registry_source(
    package: str, used: list[str], project: Project, ctx: Context, workdir: list[Path]
) -> tuple[Path | None, str | None]:
    """Source of the release the resolver would choose, read from its `.crate`; when the
    code uses top-level names that release lacks (`bincode::serialize` is gone in bincode 2),
    the newest release of an older compatibility group that has them (up to two steps back).
    A prelude name a release lacks (`Vec` after `use log::*;`) is the standard one: it does
    not count against the release. A release whose source the gate reader refuses
    (`gates_refusal`) is unknown: the chosen one stands, another line is never taken for it.
    Returns (source root, version to pin) — the version only when it differs from the newest."""
    if ctx.options.offline or not hasattr(ctx.registries, "download_crate"):
        return None, None
    versions = ctx.registries.versions(Ecosystem.CRATES, package)
    try:
        as_of = parse_as_of(ctx.options.as_of, project.last_commit_date)
    except ValueError:
        as_of = None
    current = pick_crate_version(versions, as_of=as_of)
    tops = {u.split("::")[0] for u in used if u}
    tops -= std_prelude()
    best: tuple[int, Path, str] | None = None
    newest = current.version if current is not None else None
    # a breaking line too new to have settled by the as-of date (pick_version passes it over)
    # is tried next when the settled release lacks names the code uses: code that already
    # names `syn::ReceiverKind` was written against syn 3, however recent
    newer = (
        pick_crate_version(
            [v for v in versions if compat_key(v.version) > compat_key(newest)], as_of=as_of
        )
        if newest is not None
        else None
    )
    for step in range(4):
        if current is None:
            break
        src = release_source(package, current.version, ctx, workdir)
        if src is None:
            break
        if gates_refusal(str(src)) is not None:
            # unread (over the size cap, no lib.rs): unknown, not "lacks every name" — the
            # release the resolver would choose stands; an older or newer line is not taken
            if step == 0:
                best = (len(tops), src, current.version)
                break
            cover = -1
        else:
            cover = covered(tops, top_level_names(release_gates(src, ctx)))
        if best is None or cover > best[0]:
            best = (cover, src, current.version)
        if cover == len(tops):
            break
        if step == 0 and newer is not None:
            current = newer
            continue
        group = compat_key(min(current.version, newest, key=vtuple))
        older = [v for v in versions if compat_key(v.version) < group]
        current = pick_crate_version(older, as_of=as_of)
    if best is None:
        return None, None
    return best[1], (best[2] if best[2] != newest else None)
