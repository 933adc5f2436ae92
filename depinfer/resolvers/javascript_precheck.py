"""Before the npm resolve gate starts npm: can the written set conflict at all?

npm resolving a repository's whole tree takes tens of seconds; most written sets cannot
conflict, and that is decided here from the packuments the resolver already holds (and
those of the packages declared beside them). For one install root, over the package.json
files npm would read there (the root, its workspace members, the local packages they link),
a doubt is recorded — and npm runs — when something written is part of it:

- a written spec that is not a version range, or that no release by the as-of date
  matches (npm's ETARGET), or — where `.npmrc` sets `engine-strict` (else npm only warns)
  — whose release's `engines.node` excludes the project's Node;
- a peer range of a package's release (written: the chosen one; declared: the one npm
  would pick, the newest its range admits by the as-of date) that excludes the version of
  the peer the same manifest (or, for a workspace member, the workspace root) holds;
- a peer nobody declares, which npm installs itself, asked for with ranges that the
  newest release of each does not all admit; or held elsewhere in the workspace at a
  version the range excludes;
- a declaration npm reads but this check cannot judge (a dist-tag, an alias, a range no
  release matches).

A range that only releases dated after the as-of date match (a repository ahead of its
commit date) is what npm steps over by lifting its date cap (the gate's ETARGET rule):
when that is all, the check is made again without the cap, as npm resolves then.

An optional peer (peerDependenciesMeta) only binds when something holds it. A conflict
among declarations alone is not a doubt: the gate steps over those (`--legacy-peer-deps`).
What is checked is one level deep (the direct packages' peers), as npm's ERESOLVE mostly
is; npm still judges every root this check doubts.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from typing import Any

from depinfer.model import Requirement
from depinfer.registries.base import VersionInfo
from depinfer.resolvers.javascript_semver import satisfies, semver_key

ALL_SECTIONS = ("dependencies", "devDependencies", "optionalDependencies", "peerDependencies")
LINKED_SECTIONS = ("dependencies", "optionalDependencies", "peerDependencies")
_PART = re.compile(
    r"^(\^|~>?|>=|<=|>|<|=)?v?(\d+|[xX*])(\.(\d+|[xX*])){0,2}(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$"
)


def is_range(spec: str) -> bool:
    """An npm version range this module can evaluate (not a dist-tag, alias or URL)."""
    for alt in spec.split("||"):
        alt = re.sub(r"(>=|<=|>|<|=|\^|~>?)\s+", r"\1", alt.strip())
        hyphen = re.match(r"^(\S+)\s+-\s+(\S+)$", alt)
        parts = [hyphen.group(1), hyphen.group(2)] if hyphen else alt.split()
        if not all(_PART.match(p) for p in parts):
            return False
    return True


@lru_cache(maxsize=65536)  # each pick reads every release of a package again
def _vt(version: str) -> tuple[int, int, int] | None:
    m = re.match(r"^v?(\d+)\.(\d+)\.(\d+)", version)
    return (int(m.group(1)), int(m.group(2)), int(m.group(3))) if m else None


@dataclass
class Scope:
    """One install root as npm reads it."""

    docs: dict[str, dict[str, Any]]  # manifest path → sanitized package.json
    parent: dict[str, str]  # workspace member → the root whose declarations it also sees
    linked: set[str]  # local packages linked from outside the workspace (runtime sections)
    written: dict[tuple[str, str], Requirement]  # (manifest, name) → written requirement
    local: set[str]  # names of the repository's own packages
    strict_engines: bool = False  # npm refuses a release whose engines exclude its Node


class Releases:
    """The registry's releases by name, asked once each."""

    def __init__(
        self,
        versions: Callable[[str], list[VersionInfo]],
        as_of: datetime | None,
        many: Callable[[list[str]], dict[str, list[VersionInfo]]] | None = None,
    ) -> None:
        self._versions = versions
        self._many = many
        self.as_of = as_of
        self._memo: dict[str, list[VersionInfo]] = {}

    def prefetch(self, names: list[str]) -> None:
        """Ask for several names at once (concurrently, where the registry can)."""
        todo = [n for n in names if n not in self._memo]
        if self._many is not None and len(todo) > 1:
            self._memo.update(self._many(todo))

    def of(self, name: str) -> list[VersionInfo]:
        if name not in self._memo:
            self._memo[name] = self._versions(name)
        return self._memo[name]

    def uncapped(self) -> Releases:
        """The same releases without the date cap (npm's, once it lifts `--before`)."""
        out = Releases(self._versions, None, self._many)
        out._memo = self._memo
        return out

    def any_match(self, name: str, *specs: str) -> bool:
        """Some release, of any date, matches every spec."""
        return any(
            (t := _vt(v.version)) is not None and all(satisfies(t, s) for s in specs)
            for v in self.of(name)
        )

    def pick(self, name: str, spec: str, *more: str) -> VersionInfo | None:
        """The release npm would take for `spec` (`--before` the as-of date): the newest
        matching one, a deprecated or pre-release one only when nothing else matches."""
        fits = [
            v
            for v in self.of(name)
            if (t := _vt(v.version)) is not None
            and all(satisfies(t, s) for s in (spec, *more))
            and (self.as_of is None or v.published is None or v.published <= self.as_of)
        ]
        for pool in (
            [v for v in fits if not v.deprecated and not v.prerelease],
            [v for v in fits if not v.prerelease],
            fits,
        ):
            if pool:
                return max(pool, key=lambda v: semver_key(v.version))
        return None


def direct(scope: Scope, path: str) -> dict[str, str]:
    """name → spec of the registry packages `path` declares (written ones included)."""
    sections = LINKED_SECTIONS if path in scope.linked else ALL_SECTIONS
    out: dict[str, str] = {}
    doc = scope.docs.get(path, {})
    for section in sections:
        specs = doc.get(section)
        for name, spec in (specs if isinstance(specs, dict) else {}).items():
            if name in scope.local or not isinstance(spec, str) or spec.startswith("file:"):
                continue  # the repository's own package: linked, its declarations in scope
            out.setdefault(name, spec)
    return out


class Check:
    """The doubts about one install root (empty: npm need not run)."""

    def __init__(
        self,
        scope: Scope,
        picked: dict[tuple[str, str], VersionInfo],
        releases: Releases,
        node_ok: Callable[[str], Callable[[VersionInfo], bool] | None] | None = None,
    ) -> None:
        self.scope = scope
        self.picked = picked
        self.releases = releases
        self.node_ok = node_ok
        self.direct = {p: direct(scope, p) for p in scope.docs}
        self.doubts: list[str] = []
        # doubts that only the date cap raises (npm lifts it on ETARGET and tries again)
        self.dated: list[str] = []
        self._version: dict[tuple[str, str], VersionInfo | None] = {}
        self._asked: dict[str, list[tuple[str, str, bool]]] = {}  # auto-installed peer → asks

    def run(self) -> list[str]:
        """Why npm must run (empty: it need not). Where only the date cap stands in the
        way (a declared release dated after the as-of date), npm lifts the cap and resolves
        again, so the check is made again without it."""
        for (path, name), req in sorted(self.scope.written.items()):
            self._written_release(path, name, req)
        active = [p for p in sorted(self.direct) if self._sees_written(p)]
        self.releases.prefetch(sorted({n for p in active for n in self.direct[p]}))
        for path in active:
            self._peers_of(path)
        if self.dated and not self.doubts and self.releases.as_of is not None:
            again = Check(self.scope, {}, self.releases.uncapped(), self.node_ok).run()
            return [f"{d} (without the date cap)" for d in again]
        return list(dict.fromkeys(self.doubts))

    def _sees_written(self, path: str) -> bool:
        written = {p for p, _ in self.scope.written}
        return (
            path in written
            or self.scope.parent.get(path) in written
            or (path not in self.scope.parent and bool(written & set(self.scope.parent)))
        )

    def _written_release(self, path: str, name: str, req: Requirement) -> None:
        if not is_range(req.spec):
            self.doubts.append(f"{name}@{req.spec} is not a version range")
            return
        release = self.version(path, name)
        if release is None:
            why = f"no release of {name} by the as-of date matches {req.spec}"
            (self.dated if self.releases.any_match(name, req.spec) else self.doubts).append(why)
            return
        ok = self.node_ok(path) if self.scope.strict_engines and self.node_ok else None
        if ok is not None and not ok(release):
            self.doubts.append(f"{name}@{release.version} wants Node {release.runtime}")

    def version(self, path: str, name: str) -> VersionInfo | None:
        """The release npm installs for `name` as `path` declares it (None: none, or the
        spec cannot be judged)."""
        key = (path, name)
        if key not in self._version:
            spec = self.direct[path].get(name, "")
            chosen = self.picked.get(key)
            if key in self.scope.written and chosen is not None and spec == f"^{chosen.version}":
                self._version[key] = chosen
            elif is_range(spec):
                self._version[key] = self.releases.pick(name, spec)
            else:
                self._version[key] = None
        return self._version[key]

    def provider(self, path: str, name: str) -> str | None:
        """The manifest whose declaration of `name` a package placed for `path` sees."""
        if name in self.direct[path]:
            return path
        up = self.scope.parent.get(path)
        return up if up is not None and name in self.direct.get(up, {}) else None

    def _peers_of(self, path: str) -> None:
        for name in sorted(self.direct[path]):
            ours = (path, name) in self.scope.written
            release = self.version(path, name)
            if release is None:
                spec = self.direct[path][name]
                if ours:
                    continue  # said by _written_release
                if is_range(spec) and self.releases.any_match(name, spec):
                    self.dated.append(f"{name}@{spec} ({path}): no release by the as-of date")
                else:
                    self.doubts.append(f"{name}@{spec} ({path}) cannot be judged here")
                continue
            peers = release.extra.get("peerDependencies") or {}
            meta = release.extra.get("peerDependenciesMeta") or {}
            for peer, rng in peers.items() if isinstance(peers, dict) else []:
                if not isinstance(rng, str) or peer in self.scope.local:
                    continue
                optional = isinstance(meta, dict) and bool((meta.get(peer) or {}).get("optional"))
                self._peer(path, f"{name}@{release.version}", ours, peer, rng, optional)

    def _peer(self, path: str, who: str, ours: bool, peer: str, rng: str, optional: bool) -> None:
        holder = self.provider(path, peer)
        holders = (
            [holder] if holder is not None else [p for p in self.direct if peer in self.direct[p]]
        )
        if holder is None and not holders and optional:
            return
        for h in holders:
            if not (ours or (h, peer) in self.scope.written):
                continue
            have = self.version(h, peer)
            if (
                have is not None
                and is_range(rng)
                and satisfies(_vt(have.version) or (0, 0, 0), rng)
            ):
                continue
            spec = self.direct[h][peer]
            held = have.version if have is not None else spec
            why = f"{who} wants {peer}@{rng}, {h} has {held}"
            # a release both admit, dated after the cap only: npm gets there uncapped
            dated = is_range(rng) and is_range(spec)
            if have is None:  # the holder's own release is dated after the cap
                dated = dated and self.releases.any_match(peer, spec)
            else:  # a release both admit, dated after the cap only: npm gets there uncapped
                dated = (
                    dated
                    and self.releases.pick(peer, spec, rng) is None
                    and self.releases.any_match(peer, spec, rng)
                )
            (self.dated if dated else self.doubts).append(why)
        if holder is None and not holders:
            self._auto(path, who, ours, peer, rng)

    def _auto(self, path: str, who: str, ours: bool, peer: str, rng: str) -> None:
        """A peer npm installs itself: every range asking for it must admit one release."""
        asked = self._asked.setdefault(peer, [])
        asked.append((who, rng, ours))
        if len(asked) < 2 or not any(o for _, _, o in asked):
            return
        ranges = [r for _, r, _ in asked]
        if not all(is_range(r) for r in ranges):
            self.doubts.append(f"{peer} is asked for as {' and '.join(ranges)}")
            return
        for r in ranges:
            best = self.releases.pick(peer, r)
            t = _vt(best.version) if best is not None else None
            if t is None or not all(satisfies(t, r2) for r2 in ranges):
                who_all = ", ".join(f"{w} wants {r2}" for w, r2, _ in asked)
                self.doubts.append(f"{peer}: {who_all}")
                return
