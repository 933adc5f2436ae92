"""Peers on one major: crates of one framework family written side by side must agree on the
framework's compatibility group, or cargo builds two copies whose types do not meet
(`axum-extra` 0.10 brings its own axum 0.8 beside the axum 0.7 the manifest names, and the
router the code builds is not the one the extractor implements).

Registry facts, not a family list: for each crate the resolver chose a release of, the
crates index's `deps` of that release (kind normal, not optional, every platform) name what
it needs of the other crates of the same manifest; a dependency counts when the two names
share a word (`same_family`), since a private dependency may stay on another major. When such a requirement does not admit the group written
for the framework, the integration crate steps back to its newest fitting release whose
requirement does; when none does (the integration lags the framework), the framework steps
back to the newest fitting release the integration's requirement admits. Each move is
recorded as evidence and reported.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from depinfer.context import Context
from depinfer.model import Evidence, Requirement
from depinfer.registries.base import VersionInfo
from depinfer.versions import crate_req_admits_line, pick_crate_version

ROUNDS = 3  # a move can expose another; a few rounds settle real manifests


@dataclass
class Pick:
    """How the resolver chose a requirement's release, to choose again under a constraint."""

    req: Requirement
    package: str
    versions: list[VersionInfo]  # the releases it chose among (pins and spellings applied)
    as_of: Any
    runtime_ok: Callable[[VersionInfo], bool] | None
    version: str  # the release chosen
    write: Callable[[str], str]  # release → requirement text in the manifest's style


def needs(info: VersionInfo) -> dict[str, str]:
    """Package → requirement, for the normal, non-optional dependencies of one release."""
    raw = (info.extra or {}).get("deps_json")
    if raw is None:
        deps = (info.extra or {}).get("deps") or []
    else:
        try:
            deps = json.loads(raw)
        except ValueError:
            return {}
    out: dict[str, str] = {}
    for d in deps:
        if not isinstance(d, dict) or d.get("optional") or d.get("kind") not in (None, "normal"):
            continue
        if d.get("target"):
            continue  # platform-only dependencies do not decide for every build
        name = d.get("package") or d.get("name")
        if isinstance(name, str) and isinstance(d.get("req"), str):
            out[name] = d["req"]
    return out


# Words too common in crate names to tie two crates to one family (`tokio-util`, `hyper-util`)
GENERIC_WORDS = frozenset(
    {"rs", "rust", "core", "util", "utils", "derive", "macros", "impl", "sys", "common", "types"}
)


def same_family(integration: str, framework: str) -> bool:
    """Whether a dependency of `integration` on `framework` is one of a family whose types
    cross between them: the integration's name carries a word of the framework's
    (`axum-extra` → axum, `tracing-opentelemetry` → opentelemetry, `http-cache-reqwest` →
    reqwest-middleware). A private dependency (`cacache` on thiserror, `digest_auth` on sha2)
    may sit on another major beside the one written: cargo builds both, and nothing moves."""

    def words(name: str) -> set[str]:
        return {w for w in re.split(r"[-_]", name.lower()) if w and w not in GENERIC_WORDS}

    return bool(words(integration) & words(framework))


def _release(pick: Pick, version: str) -> VersionInfo | None:
    return next((v for v in pick.versions if v.version == version), None)


def _repick(pick: Pick, admits: Callable[[VersionInfo], bool]) -> VersionInfo | None:
    fitting = [v for v in pick.versions if admits(v)]
    return pick_crate_version(fitting, as_of=pick.as_of, runtime_ok=pick.runtime_ok)


def _move(pick: Pick, to: VersionInfo, why: str, ctx: Context) -> None:
    before = pick.version
    pick.version = to.version
    pick.req.spec = pick.write(to.version)
    pick.req.evidence = [e for e in pick.req.evidence if e.rule != "registry:version"]
    pick.req.evidence.append(Evidence("registry:version", detail=to.version))
    pick.req.evidence.append(Evidence("rule:peer-major", detail=why))
    ctx.info(f"crate '{pick.package}': {before} → {to.version}: {why}", pick.req.manifest)


def align(picks: list[Pick], ctx: Context, fixed: dict[str, dict[str, str]] | None = None) -> None:
    """Move releases until every chosen crate's requirement on a peer admits the peer's
    group, per manifest (see the module docstring). `fixed`: per manifest, the packages it
    already declares (or inherits) → their version requirement, which nothing moves."""
    by_manifest: dict[str, dict[str, Pick]] = {}
    for p in picks:
        by_manifest.setdefault(p.req.manifest, {})[p.package] = p
    for manifest, peers in by_manifest.items():
        kept = (fixed or {}).get(manifest, {})
        for _ in range(ROUNDS):
            if not _align_once(peers, kept, ctx):
                break


def _line_of(spec: str) -> str | None:
    """`^0.7.5`, `0.7`, `=1.2.3` → a version of the line the requirement starts at."""
    m = re.match(r"^\s*[\^=~]?\s*(\d+(?:\.\d+){0,2})\s*$", spec or "")
    return m.group(1) if m else None


def _align_once(peers: dict[str, Pick], fixed: dict[str, str], ctx: Context) -> bool:
    moved = False
    for name in sorted(peers):
        pick = peers[name]
        info = _release(pick, pick.version)
        if info is None:
            continue
        for framework, req in sorted(needs(info).items()):
            if framework == name or not same_family(name, framework):
                continue
            other = peers.get(framework)
            target = other.version if other is not None else _line_of(fixed.get(framework, ""))
            if target is None or crate_req_admits_line(req, target):
                continue

            def fits(v: VersionInfo, fw: str = framework, line: str = target) -> bool:
                r = needs(v).get(fw)
                return r is not None and crate_req_admits_line(r, line)

            back = _repick(pick, fits)
            if back is not None and back.version != pick.version:
                why = f"{back.version} is the newest that depends on {framework} {target}'s line"
                _move(pick, back, why, ctx)
                moved = True
                break
            if other is None:
                continue  # declared by the project: not ours to move
            lower = _repick(other, lambda v, r=req: crate_req_admits_line(r, v.version))
            if lower is not None and lower.version != other.version:
                why = f"{name} {pick.version} depends on {framework} {req}"
                _move(other, lower, why, ctx)
                moved = True
                break
    return moved
