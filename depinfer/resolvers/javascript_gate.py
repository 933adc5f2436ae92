"""The resolve gate for package.json files: what `npm install` would install for the written
set is resolved with npm's own resolver before anything is written.

npm resolving a whole dev tree takes tens of seconds, so it only runs for an install root
where the check before it (resolvers/javascript_precheck.py: peer ranges, releases by the
as-of date, engines, from the packuments already at hand) finds that the written set could
conflict, or cannot tell; elsewhere the gate notes that npm was not needed.

A scratch copy holds the repository's package.json files (the rendered ones in place) and its
`.npmrc`; npm resolves it without installing (`npm install --package-lock-only
--ignore-scripts`, `--before` the as-of date, the registry depinfer itself asked). One run per
install root: the workspace root with its members, and each changed package outside it.

What npm cannot read in a scratch copy is left out of it, never rewritten in the repository:
pnpm/yarn protocols (`workspace:`, `catalog:`, `link:`, `portal:`, `patch:`), git and URL
specs, paths outside the copy. A reference to a package of the repository becomes `*`
between workspace members (npm links the member), else `file:` its folder; the root's
`workspaces` lists the members the layout found (pnpm's and yarn's too).

On a conflict npm names (ERESOLVE: a peer range of one package against the version another
side chose; ETARGET / E404: no such version or package), the gate relaxes the written set,
deterministically, within `MAX_ROUNDS` resolves and `BUDGET` seconds, and reports each
change (a warning, and evidence `--explain` shows):

1. a host we wrote moves to its newest release (by the as-of date) that every peer range of
   the written packages admits;
2. else a plugin we wrote moves to its newest release whose peer range admits the host
   version npm found;
3. else the least-evidenced written package among those the conflict names is dropped.

A failure among the repository's own declarations is stepped over so the rest is still
judged: a peer conflict reruns with `--legacy-peer-deps` (pnpm and yarn only warn), a
release the registry dates after the as-of date reruns without the cap. What still fails
for a reason no written package is part of (a git dependency out of reach) is a warning;
the written set is kept. npm missing, offline or a timeout degrade to a diagnostic; the
gate never blocks a write on its own failure.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path, PurePosixPath
from typing import Any

from depinfer.model import Evidence, Manifest, Requirement
from depinfer.registries.base import VersionInfo
from depinfer.resolvers.javascript_precheck import Check, Releases, Scope
from depinfer.resolvers.javascript_semver import satisfies, semver_key
from depinfer.runcache import note_inputs
from depinfer.versions import pick_version

NPM_TIMEOUT = 180  # seconds for one `npm install --package-lock-only`
MAX_ROUNDS = 6  # resolves per install root, the first included
MAX_ROOTS = 8  # install roots checked per run
BUDGET = 300  # seconds of npm per run: no new resolve starts after that
# package.json fields npm's resolver reads, kept in the scratch copy
KEPT_FIELDS = ("name", "version", "private", "engines", "overrides")  # package literal: fields
DEP_SECTIONS = ("dependencies", "devDependencies", "peerDependencies", "optionalDependencies")
_FOREIGN_PROTOCOLS = ("workspace:", "catalog:", "link:", "portal:", "patch:", "exec:")
_REMOTE = re.compile(
    r"^(git\+|git:|github:|gitlab:|bitbucket:|gist:|https?:|ssh:)|^[\w.-]+/[\w.-]+"
)
_FOUND = re.compile(r"^Found: (@?[^@\s]+)@(\S+)", re.M)
_EDGE = re.compile(
    r"^(?:peer |peerOptional |dev |optional )?(@?[^@\s\"]+)@\"([^\"]*)\" from (@?[^@\s\"]+)@(\S+)",
    re.M,
)
_PEER_EDGE = re.compile(r"^\s*peer (@?[^@\s\"]+)@\"([^\"]*)\" from (@?[^@\s\"]+)@(\S+)", re.M)
_NAMED = re.compile(r"(@?[a-z0-9][\w.-]*(?:/[\w.-]+)?)@")
_NO_MATCH = re.compile(r"No matching version found for (@?[^@\s]+)@(\S+?)(?: with a date|\.?$)")
_NO_VERSIONS = re.compile(r"No versions available for (@?[^@\s]+)")
_NOT_FOUND = re.compile(r"'(@?[^@\s']+)@[^']*' could not be found")


@dataclass(frozen=True)
class Failure:
    """What npm refused, as far as the gate reads it."""

    code: str  # ERESOLVE, ETARGET, E404, … ("" when npm gave no code)
    summary: str  # npm's first line, for messages
    host: str | None = None  # ERESOLVE: the package npm found …
    host_version: str | None = None  # … at this version
    wanted: str | None = None  # … the range another package asks of it
    requirer: str | None = None  # … the package asking
    requirer_version: str | None = None
    names: tuple[str, ...] = ()  # every package the message names, in order


@dataclass
class Registry:
    """The registry answers the gate relaxes with (the resolver's own, so the same cache)."""

    url: str  # npm's registry (with a trailing slash)
    scopes: dict[str, str]  # @scope → its registry
    versions: Callable[[str], list[VersionInfo]]
    as_of: datetime | None
    many: Callable[[list[str]], dict[str, list[VersionInfo]]] | None = None  # concurrent
    # manifest path → does a release's engines.node admit the project's Node (None: any)
    node_ok: Callable[[str], Callable[[VersionInfo], bool] | None] | None = None
    # where npm's answers are kept between runs (the registry fact store; None: not kept)
    facts: Any = None


@dataclass
class GateReport:
    """What the gate did, for the resolver to apply and report."""

    dropped: dict[tuple[str, str], str] = field(default_factory=dict)  # (manifest, name) → why
    moved: dict[tuple[str, str], str] = field(default_factory=dict)  # (manifest, name) → why
    notes: list[tuple[str, str, str | None]] = field(default_factory=list)  # (level, text, file)
    runs: int = 0
    seconds: float = 0.0

    def note(self, level: str, message: str, file: str | None = None) -> None:
        self.notes.append((level, message, file))


def parse_failure(stdout: str, stderr: str) -> Failure:
    """npm's `--json` error (stdout), else its `npm error` lines (stderr)."""
    code, summary, detail = "", "", ""
    try:
        doc = json.loads(stdout[stdout.find("{") :]) if "{" in stdout else {}
    except ValueError:
        doc = {}
    err = doc.get("error") if isinstance(doc, dict) else None
    if isinstance(err, dict):
        code = str(err.get("code") or "")
        summary = str(err.get("summary") or "")
        detail = str(err.get("detail") or "")
    if not code:
        lines = [
            ln[len("npm error ") :] for ln in stderr.splitlines() if ln.startswith("npm error")
        ]
        m = next((re.match(r"code (\S+)", ln) for ln in lines if ln.startswith("code ")), None)
        code = m.group(1) if m else ""
        rest = [ln for ln in lines if ln.strip() and not ln.startswith("code ")]
        summary = rest[0] if rest else (stderr.strip().splitlines() or [""])[-1]
        detail = "\n".join(rest[1:])
    text = summary + "\n" + detail
    names = tuple(dict.fromkeys(_NAMED.findall(detail)))
    if code == "ERESOLVE":
        return _eresolve(summary, detail, names)
    if code == "ETARGET" and (m := _NO_MATCH.search(text)):
        return Failure(code, summary, host=m.group(1), wanted=m.group(2), names=(m.group(1),))
    if code == "ENOVERSIONS" and (m := _NO_VERSIONS.search(text)):
        return Failure(code, summary, host=m.group(1), names=(m.group(1),))
    if code == "E404" and (m := _NOT_FOUND.search(text)):
        return Failure(code, summary, host=m.group(1), names=(m.group(1),))
    return Failure(code, summary or "npm failed", names=names)


def _eresolve(summary: str, detail: str, names: tuple[str, ...]) -> Failure:
    """The conflict npm reports: the edge it could not resolve, or — when that edge is the
    root project's own (`dev x@"1.0.0" from the root project`) — the peer edge of that
    package that collides with what was found (`Conflicting peer dependency: …`)."""
    found = _FOUND.search(detail)
    after = detail.split("Could not resolve dependency:", 1)
    edge = _EDGE.search(after[1]) if len(after) == 2 else None
    conflicting = detail.split("Conflicting peer dependency:", 1)
    if len(conflicting) == 2 and (edge is None or edge.start() > after[1].find("Conflicting")):
        edge = _PEER_EDGE.search(conflicting[1]) or edge
    if found is None or edge is None:
        return Failure("ERESOLVE", summary, names=names)
    return Failure(
        "ERESOLVE",
        summary,
        host=edge.group(1),
        host_version=found.group(2) if found.group(1) == edge.group(1) else None,
        wanted=edge.group(2),
        requirer=edge.group(3),
        requirer_version=edge.group(4),
        names=names,
    )


# -- the scratch copy ----------------------------------------------------------------------


def sanitized(data: dict[str, Any], links: dict[str, str], here: str, dirs: set[str]) -> dict:
    """The package.json npm reads in the scratch copy: a reference to a package of the
    repository takes its spec from `links` (`*` between workspace members, else `file:` its
    folder); specs npm cannot resolve there are left out, lifecycle scripts and other tools'
    settings too; names, versions, dependency sections and `overrides` stay."""
    out: dict[str, Any] = {k: data[k] for k in KEPT_FIELDS if k in data}
    for section in DEP_SECTIONS:
        specs = data.get(section)
        if not isinstance(specs, dict):
            continue
        kept: dict[str, str] = {}
        for name, spec in specs.items():
            spec = spec if isinstance(spec, str) else ""
            if name in links:
                kept[name] = links[name]
            elif spec.startswith("file:"):
                target = os.path.normpath(os.path.join(here, spec[5:])).replace(os.sep, "/")
                if target in dirs or (target == "." and "" in dirs):
                    kept[name] = spec
            elif not spec.startswith(_FOREIGN_PROTOCOLS) and not _REMOTE.match(spec):
                kept[name] = spec
        out[section] = kept
    return out


def install_roots(manifests: list[Manifest], members: set[str], changed: set[str]) -> list[str]:
    """Manifest paths npm runs in: the root (it installs the workspace members too) when it
    or a member changed, and each changed package outside the workspace."""
    roots: list[str] = []
    paths = {m.path for m in manifests}
    if "package.json" in paths and (changed & (members | {"package.json"})):
        roots.append("package.json")
    for path in sorted(changed):
        if path not in roots and not (path in members and "package.json" in paths):
            roots.append(path)
    return roots


def mirror_docs(
    root: Path,
    manifests: list[Manifest],
    texts: dict[str, str],
    members: set[str],
) -> dict[str, dict[str, Any]]:
    """What npm reads in the scratch copy: every package.json (rendered where `texts` has
    it), sanitized, by manifest path."""
    by_path = {m.path: m for m in manifests}
    names = {
        str(by_path[p].data.get("name")): p for p in sorted(members) if by_path[p].data.get("name")
    }
    local = {str(m.data["name"]): m.directory for m in manifests if m.data.get("name")}
    local.update({n: by_path[p].directory for n, p in names.items()})
    dirs = {m.directory for m in manifests}
    docs: dict[str, dict[str, Any]] = {}
    for m in manifests:
        try:
            raw = texts.get(m.path)
            if raw is None:
                raw = (root / m.path).read_bytes().decode("utf-8-sig")
            data = json.loads(raw.lstrip("\ufeff"))
        except (OSError, UnicodeDecodeError, ValueError):
            continue
        if not isinstance(data, dict):
            continue
        doc = sanitized(data, _links(m, local, names, members), m.directory or ".", dirs)
        doc.setdefault("name", PurePosixPath(m.directory or "root").name.lower() or "root")
        if m.path == "package.json" and members:
            doc["workspaces"] = sorted(by_path[p].directory for p in names.values())
        docs[m.path] = doc
    return docs


def write_mirror(root: Path, docs: dict[str, dict[str, Any]], dest: Path) -> set[str]:
    """The scratch copy: the sanitized package.json files and the root's `.npmrc`. Returns
    the manifest paths written."""
    for path, doc in docs.items():
        target = dest / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
    npmrc = root / ".npmrc"
    if npmrc.is_file():
        shutil.copyfile(npmrc, dest / ".npmrc")
    return set(docs)


def _links(
    m: Manifest, local: dict[str, str], names: dict[str, str], members: set[str]
) -> dict[str, str]:
    """How `m` refers to each package of the repository in the scratch copy."""
    in_workspace = bool(members) and (m.path in members or m.path == "package.json")
    out: dict[str, str] = {}
    for name, directory in local.items():
        if directory == m.directory:
            continue
        if in_workspace and name in names:
            out[name] = "*"
        else:
            rel = os.path.relpath(directory or ".", m.directory or ".").replace(os.sep, "/")
            out[name] = "file:" + rel
    return out


# -- running npm ---------------------------------------------------------------------------


def npm_command(npm: str, registry: Registry) -> list[str]:
    cmd = [
        npm,
        "install",
        "--package-lock-only",
        "--ignore-scripts",
        "--no-audit",
        "--no-fund",
        "--no-update-notifier",
        "--prefer-offline",  # a cached packument is good enough: releases are dated
        "--fetch-retries=0",  # a git or URL dependency the sandbox cannot reach fails at once
        "--fetch-timeout=30000",
        "--json",
        f"--registry={registry.url}",
    ]
    cmd += [f"--{scope}:registry={url}" for scope, url in sorted(registry.scopes.items())]
    if registry.as_of is not None:
        when = registry.as_of.astimezone(timezone.utc)
        cmd.append("--before=" + when.strftime("%Y-%m-%dT%H:%M:%SZ"))
    return cmd


def run_npm(cmd: list[str], cwd: Path) -> Failure | None:
    """None when npm resolves the tree in `cwd`; else what it refused."""
    lock = cwd / "package-lock.json"
    if lock.exists():
        lock.unlink()
    env = {**os.environ, "NO_COLOR": "1", "npm_config_loglevel": "error"}
    try:
        proc = subprocess.run(
            cmd, cwd=cwd, capture_output=True, text=True, timeout=NPM_TIMEOUT, env=env
        )
    except subprocess.TimeoutExpired:
        return Failure("TIMEOUT", f"npm did not answer within {NPM_TIMEOUT}s")
    except OSError as exc:
        return Failure("ENOENT", f"npm could not start: {exc.strerror or exc}")
    if proc.returncode == 0:
        return None
    return parse_failure(proc.stdout, proc.stderr)


def npm_binary() -> str | None:
    found = shutil.which("npm")
    note_inputs([found])  # a kept answer holds for this npm (runcache)
    return found


# npm's failures that are its answer about the manifests (a conflict, a release or package
# the registry does not have): kept like a resolve; a timeout, a network error or npm
# failing to start never is
KEPT_CODES = frozenset({"ERESOLVE", "ETARGET", "ENOVERSIONS", "E404"})


def kept_npm(cmd: list[str], cwd: Path, scratch: Path, facts: Any) -> Failure | None:
    """`run_npm`, its answer kept in the registry fact store (same expiry as the registry
    answers it is made of; `--refresh` asks npm again), so a warm run starts no npm. Keyed
    by all the answer depends on: the command line (registry, as-of date, flags), npm and
    node themselves (path, size, time), the scratch copy's files, the user's and the
    global npm configuration files and the npm_config_* variables."""
    if facts is None:
        return run_npm(cmd, cwd)
    return facts.get(
        "npm-resolve|" + npm_key(cmd, cwd, scratch),
        lambda: run_npm(cmd, cwd),
        keep=lambda f: f is None or f.code in KEPT_CODES,
    )


def npm_key(cmd: list[str], cwd: Path, scratch: Path) -> str:
    """A digest of what npm's answer for `cmd` run in `cwd` depends on."""
    import hashlib

    from depinfer.registries.endpoints import npmrc_files

    def stat(path: str | Path | None) -> str:
        try:
            st = os.stat(path) if path else None
        except OSError:
            st = None
        return f"{path}:{st.st_size}:{st.st_mtime_ns}" if st else f"{path}:-"

    h = hashlib.blake2b(digest_size=20)
    for part in (
        repr(cmd),
        stat(cmd[0]),
        stat(shutil.which("node")),
        *(stat(p) for p in npmrc_files(None)),
        repr(sorted((k.lower(), v) for k, v in os.environ.items() if k.lower().startswith("npm_"))),
        cwd.relative_to(scratch).as_posix(),
    ):
        h.update(part.encode("utf-8", "surrogatepass") + b"\0")
    for path in sorted(p for p in scratch.rglob("*") if p.is_file()):
        if path.name == "package-lock.json":
            continue  # npm's own output, removed before each run
        h.update(path.relative_to(scratch).as_posix().encode("utf-8", "surrogatepass") + b"\0")
        h.update(path.read_bytes() + b"\0")
    return h.hexdigest()


# -- relaxing ------------------------------------------------------------------------------


def _vt(version: str) -> tuple[int, int, int] | None:
    m = re.match(r"^v?(\d+)\.(\d+)\.(\d+)", version)
    return (int(m.group(1)), int(m.group(2)), int(m.group(3))) if m else None


def _peer_ranges(picked: dict[str, VersionInfo], name: str) -> list[str]:
    """The ranges the chosen versions of the written packages give `name` as a peer."""
    out = []
    for info in picked.values():
        peers = info.extra.get("peerDependencies") or {}
        rng = peers.get(name) if isinstance(peers, dict) else None
        if isinstance(rng, str):
            out.append(rng)
    return out


def host_release(registry: Registry, name: str, ranges: list[str]) -> VersionInfo | None:
    """The host's newest release (by the as-of date) that every range admits."""
    fits = [
        v
        for v in registry.versions(name)
        if (t := _vt(v.version)) is not None and all(satisfies(t, r) for r in ranges)
    ]
    return _dated_or_not(fits, registry)


def _dated_or_not(fits: list[VersionInfo], registry: Registry) -> VersionInfo | None:
    """The newest of `fits` by the as-of date; when the registry dates none of them by then
    (a range the repository's own declarations demand, or a registry whose dates start
    later than the code), the newest regardless: the dates cannot choose among them."""
    return pick_version(fits, registry.as_of, sort_key=semver_key) or pick_version(
        fits, None, sort_key=semver_key
    )


def plugin_release(
    registry: Registry, name: str, host: str, host_version: str
) -> VersionInfo | None:
    """The plugin's newest release (by the as-of date) whose peer range for `host` admits
    the host version npm chose (or that no longer peers it)."""
    have = _vt(host_version)
    if have is None:
        return None

    def ok(v: VersionInfo) -> bool:
        peers = v.extra.get("peerDependencies") or {}
        rng = peers.get(host) if isinstance(peers, dict) else None
        return not isinstance(rng, str) or satisfies(have, rng)

    return _dated_or_not([v for v in registry.versions(name) if ok(v)], registry)


@dataclass
class Round:
    """One install root being relaxed: its written requirements by name."""

    root: str  # the install root's manifest path
    reqs: dict[str, list[Requirement]]  # name → its requirements in this root and members
    picked: dict[str, VersionInfo]  # name → the release chosen for it
    # host → the ranges the repository's own packages asked of it in earlier conflicts
    held: dict[str, list[str]] = field(default_factory=dict)


def relax(rnd: Round, failure: Failure, registry: Registry) -> tuple[str, str, str] | None:
    """One change that answers `failure`: (action, name, why) with action "move" (the
    requirement's spec is updated) or "drop"; None when nothing written is involved."""
    ours = rnd.reqs
    if failure.code == "ERESOLVE" and failure.host and failure.wanted:
        host, rng, plugin = failure.host, failure.wanted, failure.requirer or ""
        conflict = f"{plugin}@{failure.requirer_version} wants {host}@{rng}"
        if plugin not in ours:  # the repository's own package: its range holds later too
            rnd.held.setdefault(host, []).append(rng)
        if host in ours:
            ranges = list(
                dict.fromkeys([rng, *_peer_ranges(rnd.picked, host), *rnd.held.get(host, [])])
            )
            better = host_release(registry, host, ranges)
            if better is not None and ours[host][0].spec != f"^{better.version}":
                return _move(rnd, host, better, f"{conflict}: {host} moved to ^{better.version}")
        if plugin in ours and failure.host_version:
            better = plugin_release(registry, plugin, host, failure.host_version)
            if better is not None and ours[plugin][0].spec != f"^{better.version}":
                why = f"{conflict}, {host}@{failure.host_version} is kept: {plugin} moved to ^{better.version}"
                return _move(rnd, plugin, better, why)
        # no release fits: the requirer gives way, never the host the others plug into
        others = [n for n in [plugin, *failure.names] if n != host]
        return _drop_least(rnd, others, f"{conflict} and no release fits")
    if failure.code in ("ETARGET", "E404") and failure.host in ours:
        what = (
            "no release matches"
            if failure.code == "ETARGET"
            else "the registry has no such package"
        )
        return "drop", failure.host, f"npm: {what} ({failure.summary})"
    return None  # a conflict no version move answers is reported, not answered by dropping


def _move(rnd: Round, name: str, better: VersionInfo, why: str) -> tuple[str, str, str]:
    for req in rnd.reqs[name]:
        req.spec = f"^{better.version}"
    rnd.picked[name] = better
    return "move", name, why


def _drop_least(rnd: Round, names: list[str], why: str) -> tuple[str, str, str] | None:
    """The least-evidenced written package among `names` (fewest places in the code, then
    fewest reasons, then the later one named): dropped."""
    ours = [(i, n) for i, n in enumerate(dict.fromkeys(names)) if n in rnd.reqs]
    if not ours:
        return None

    def weight(item: tuple[int, str]) -> tuple[int, float, int]:
        i, n = item
        rs = rnd.reqs[n]
        places = {(e.file, e.line) for r in rs for e in r.evidence if e.file}
        reasons = {str(e) for r in rs for e in r.evidence if not e.rule.startswith("resolve:")}
        return (len(places), len(reasons), -i)

    _, name = min(ours, key=weight)
    return "drop", name, why


def gate_root(rnd: Round, scratch: Path, npm: str, registry: Registry, report: GateReport) -> None:
    """Resolve one install root, relaxing until npm accepts it (or nothing of ours is
    involved, or the rounds or the time budget run out)."""
    root_dir = scratch / PurePosixPath(rnd.root).parent
    cmd = npm_command(npm, registry)
    for _ in range(MAX_ROUNDS):
        if report.seconds > BUDGET:
            report.note("warning", f"npm resolve gate: over {BUDGET}s; not checked", rnd.root)
            return
        started = datetime.now(timezone.utc)
        failure = kept_npm(cmd, root_dir, scratch, registry.facts)
        report.runs += 1
        report.seconds += (datetime.now(timezone.utc) - started).total_seconds()
        if failure is None:
            report.note("info", "npm resolves the written set", rnd.root)
            return
        eased = _eased(cmd, failure, rnd)
        if eased is not None:
            cmd, how = eased
            report.note("info", f"npm resolve gate: {_said(failure)}; {how}", rnd.root)
            continue
        change = relax(rnd, failure, registry)
        if change is None:
            report.note(*_unjudged(failure), rnd.root)
            return
        action, name, why = change
        reqs = rnd.reqs.pop(name) if action == "drop" else rnd.reqs[name]
        for req in reqs:
            (report.dropped if action == "drop" else report.moved)[(req.manifest, name)] = why
            apply_to_mirror(scratch, req, None if action == "drop" else req.spec)
        if action == "drop":
            rnd.picked.pop(name, None)
    report.note("warning", f"npm resolve gate: unresolved after {MAX_ROUNDS} rounds", rnd.root)


def _eased(cmd: list[str], failure: Failure, rnd: Round) -> tuple[list[str], str] | None:
    """A failure among the repository's own declarations, not what is written, that a
    looser run can step over so the rest is still judged: a release it declares that is
    newer than the as-of date (ETARGET, or ENOVERSIONS when the registry dates every release
    after it: the date cap is lifted), or a peer conflict between
    packages it declares (npm's strict peers are relaxed: pnpm and yarn only warn)."""
    dated = any(a.startswith("--before=") for a in cmd)
    if failure.code in ("ETARGET", "ENOVERSIONS") and dated and failure.host:
        # a written release too: it was chosen from the registry's own dates (or the
        # repository's lock), so it exists; the cap is what hides it
        return [a for a in cmd if not a.startswith("--before=")], "date cap lifted"
    if failure.host is not None and failure.host in rnd.reqs:
        return None
    if failure.code == "ERESOLVE" and "--legacy-peer-deps" not in cmd:
        if not any(n in rnd.reqs for n in failure.names):
            return [*cmd, "--legacy-peer-deps"], "the rest resolved without strict peers"
    return None


def _said(failure: Failure) -> str:
    if failure.code == "ERESOLVE" and failure.host and failure.requirer:
        found = f", found {failure.host_version}" if failure.host_version else ""
        return (
            f"the repository's own {failure.requirer}@{failure.requirer_version} wants "
            f"{failure.host}@{failure.wanted}{found}"
        )
    return failure.summary


def _unjudged(failure: Failure) -> tuple[str, str]:
    if failure.code in ("TIMEOUT", "ENOENT"):
        return "warning", f"npm resolve gate skipped: {failure.summary}"
    return (
        "warning",
        f"npm resolve gate: npm refuses the manifests for a reason no written package is "
        f"part of ({failure.code or 'error'}: {failure.summary}); written as inferred",
    )


def apply_to_mirror(scratch: Path, req: Requirement, spec: str | None) -> None:
    """Apply one relaxation to the scratch copy's package.json (None: remove the entry)."""
    path = scratch / req.manifest
    doc = json.loads(path.read_text(encoding="utf-8"))
    for section in DEP_SECTIONS:
        specs = doc.get(section)
        if isinstance(specs, dict) and req.name in specs:
            if spec is None:
                del specs[req.name]
            else:
                specs[req.name] = spec
    path.write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")


def gate(
    root: Path,
    manifests: list[Manifest],
    members: set[str],
    requirements: list[Requirement],
    render_text: Callable[[str, list[Requirement]], str | None],
    picked: dict[tuple[str, str], VersionInfo],
    registry: Registry,
) -> GateReport:
    """Resolve the written set with npm (see the module's docstring) where the check before
    it (resolvers/javascript_precheck.py) finds a possible conflict; `requirements` keep
    their objects: moved ones get their new spec here, dropped ones are listed."""
    report = GateReport()
    every: dict[str, list[Requirement]] = {}
    for req in requirements:
        every.setdefault(req.manifest, []).append(req)
    texts = {p: t for p, rs in every.items() if (t := render_text(p, rs)) is not None}
    by_manifest = {p: [r for r in every[p] if not r.internal and r.spec] for p in texts}
    if not any(by_manifest.values()):
        return report
    roots = install_roots(manifests, members, {p for p, rs in by_manifest.items() if rs})
    if len(roots) > MAX_ROOTS:
        report.note("warning", f"npm resolve gate: {len(roots)} install roots, {MAX_ROOTS} checked")
        roots = roots[:MAX_ROOTS]
    docs = mirror_docs(root, manifests, texts, members)
    local = {str(m.data["name"]) for m in manifests if m.data.get("name")}
    releases = Releases(registry.versions, registry.as_of, registry.many)
    strict = engine_strict(root)
    doubted: list[tuple[str, set[str]]] = []
    for install_root in roots:
        if install_root not in docs:
            continue
        scope = npm_scope(install_root, docs, members, by_manifest, local)
        scope.strict_engines = strict
        doubts = Check(scope, picked, releases, registry.node_ok).run()
        if not doubts:
            report.note(
                "info", "npm resolve gate: nothing written can conflict; npm not run", install_root
            )
            continue
        report.note("info", f"npm resolve gate: npm runs ({doubts[0]})", install_root)
        doubted.append((install_root, set(scope.docs)))
    if not doubted:
        return report
    npm = npm_binary()
    if npm is None:
        report.note("warning", "npm resolve gate skipped: npm is not installed")
        return report
    with tempfile.TemporaryDirectory(prefix="depinfer-npm-") as tmp:
        scratch = Path(tmp)
        write_mirror(root, docs, scratch)
        for install_root, scope_paths in doubted:
            rnd = Round(
                install_root,
                _by_name(r for p in sorted(scope_paths & set(texts)) for r in by_manifest[p]),
                {n: v for (m, n), v in picked.items() if m in scope_paths},
            )
            gate_root(rnd, scratch, npm, registry, report)
    return report


def engine_strict(root: Path) -> bool:
    """The repository's `.npmrc` makes npm refuse a release whose engines exclude its Node
    (npm only warns otherwise)."""
    try:
        text = (root / ".npmrc").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False
    return bool(re.search(r"^\s*engine-strict\s*=\s*true\b", text, re.M))


def npm_scope(
    install_root: str,
    docs: dict[str, dict[str, Any]],
    members: set[str],
    by_manifest: dict[str, list[Requirement]],
    local: set[str],
) -> Scope:
    """The package.json files npm reads for one install root: the root, its workspace
    members when it is the workspace root, and the local packages they link by path."""
    paths = {install_root} | (members & set(docs) if install_root == "package.json" else set())
    parent = {p: install_root for p in paths if p != install_root}
    linked: set[str] = set()
    todo = sorted(paths)
    while todo:
        path = todo.pop()
        here = PurePosixPath(path).parent
        for section in DEP_SECTIONS:
            specs = docs[path].get(section)
            for spec in (specs if isinstance(specs, dict) else {}).values():
                if not isinstance(spec, str) or not spec.startswith("file:"):
                    continue
                target = os.path.normpath(str(here / spec[5:])).replace(os.sep, "/")
                manifest = "package.json" if target == "." else f"{target}/package.json"
                if manifest in docs and manifest not in paths and manifest not in linked:
                    linked.add(manifest)
                    todo.append(manifest)
    paths |= linked
    written = {(p, r.name): r for p in paths for r in by_manifest.get(p, [])}
    return Scope({p: docs[p] for p in paths}, parent, linked, written, local)


def _by_name(reqs) -> dict[str, list[Requirement]]:
    out: dict[str, list[Requirement]] = {}
    for r in reqs:
        out.setdefault(r.name, []).append(r)
    return out


def explain(req: Requirement, why: str) -> None:
    """Note on the requirement what the gate changed (`--explain` shows it)."""
    req.evidence.append(Evidence("resolve:npm_gate", None, None, why))
