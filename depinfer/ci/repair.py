"""Verify and repair: run the project's own tests on a scratch copy with the inferred
manifests, and turn what the failures name into new candidates — through the same mapping,
registry check and resolvers as inference, never an unverified name. Bounded in rounds and
time; a failure that is not a dependency problem ends the loop.

What runs is what CI runs: the scratch copy is a git checkout of the tree, the plan is the
test job's (strict: where the job's own pip lines install the manifests, they are the whole
install), and a run is judged as CI judges it (`RunResult.strict`: a failed install of the
written manifests is a failure, never skipped). Every failure in the log is read
(common/repair_patterns.toml): missing modules (another provider from the import index when
the written one lacks the module, a new placement when it was not installed), packages and
extras messages name, programs, kernels, APIs another major has (version moves), installer
conflicts (written bounds dropped), derives. After a repair, pytest reruns only the tests
that failed (`--lf`), then all of them once to confirm. Tests that fail for the machine
(network, services, display, time: common/environment_failures.toml) do not count.
"""

from __future__ import annotations

import json
import re
import shutil
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import lru_cache
from itertools import zip_longest
from pathlib import Path, PurePosixPath
from types import ModuleType
from typing import Any

from packaging.version import InvalidVersion, Version

from depinfer.analyzers.rust_gates import read_gates, top_level_names
from depinfer.ci import plan, plan_for, run_tests
from depinfer.ci.failures import (
    RERUN_FAILED,
    EnvironmentFailure,
    can_rerun_failed,
    only_environment_left,
)
from depinfer.ci.repair_names import (
    binding_name,
    conflict_names,
    derive_crates,
    js_binding_package,
    js_runtime_global,
    python_binding_module,
    python_providers,
    rust_binding_crate,
    tool_package,
)
from depinfer.ci.runner import RunResult, make_checkout
from depinfer.context import Context
from depinfer.data import load_table
from depinfer.facts.rust import crate_of, entry_of, package_of
from depinfer.mapping.python_manifests import DEV_REQUIREMENT_NAME
from depinfer.mapping.python_stdlib import ever_stdlib
from depinfer.mapping.python_tooling import installed_requirement_files, is_compiled
from depinfer.mapping.rust_sources import release_source
from depinfer.model import (
    LANGUAGE_ECOSYSTEM,
    Candidate,
    Ecosystem,
    Evidence,
    FileKind,
    ImportRef,
    Inference,
    ManifestEdit,
    Project,
    Requirement,
    Section,
)
from depinfer.registries.crate_sources import remove_workdir
from depinfer.registries.wheel_files import ships_exactly
from depinfer.resolvers.common import merge_candidates
from depinfer.resolvers.javascript_semver import satisfies, semver_key
from depinfer.scan import scan
from depinfer.versions import crate_req_admits_line, parse_as_of


def COPY_IGNORE(directory: str, names: list[str]) -> set[str]:
    """What a fresh environment must not inherit: VCS data, caches, virtual environments,
    and installed dependencies — `node_modules` / `target` beside the manifest that filled
    them. A `node_modules` elsewhere (test fixtures) is part of the sources and is kept."""
    out = {n for n in names if n in (".git", ".venv", "__pycache__", ".tox", ".nox")}
    if "node_modules" in names and "package.json" in names:
        out.add("node_modules")
    if "target" in names and "Cargo.toml" in names:
        out.add("target")
    return out


@dataclass
class Action:
    # module | package | version | feature-line | align | runtime | derive | feature | stop
    kind: str
    name: str | None
    why: str
    line: str  # the log line that matched
    file: str | None = None  # the source file whose import failed, as the traceback names it
    direction: str = "auto"  # version actions: "down" when only an older major can help
    installed: str | None = None  # version actions: the release the log names, if it does
    extras: tuple[str, ...] = ()  # package actions: the extras the message asks for
    binding: str | None = None  # a JS local name / Rust type whose import names the package
    report: str = ""  # relax actions: the resolver's conflict report
    owner: str | None = None  # patched actions: the module whose attribute a test patches
    member: str | None = None  # version actions: the name the chosen release lacks, if known
    module: str | None = None  # version actions: the module the installed release does not ship


# A traceback frame naming a Python file: pytest's short form `path.py:12: in <module>` or
# the interpreter's `File "path.py", line 12`.
_FRAME = re.compile(r'File "(?P<a>[^"]+\.py)", line \d+|(?P<b>[^\s:"]+\.py):\d+: in ')
# pytest's frame lines (`path.py:12: in f`, and the test's own `path.py:12: ` line) and the
# interpreter's; the project's own are those outside an installed package
_CALL_FRAME = re.compile(r'File "(?P<a>[^"]+\.py)", line \d+|^(?P<b>[^\s:"]+\.py):\d+: ', re.M)
_INSTALLED = re.compile(r"(?:^|/)(?:site-packages|dist-packages|\.venv|\.tox|\.nox)/|/lib/python\d")


@dataclass
class Round:
    number: int
    status: str
    actions: list[Action] = field(default_factory=list)
    added: list[str] = field(default_factory=list)  # what the round changed for the next run
    seconds: float = 0.0
    scope: str = "all tests"  # what the run ran: all tests, or only those that failed last

    def describe(self) -> str:
        """One line for the output: the run, its outcome and time, and what changed after."""
        added = f"; changed: {', '.join(self.added)}" if self.added else ""
        return (
            f"verify round {self.number}: {self.scope}: tests {self.status} "
            f"({self.seconds:.0f}s){added}"
        )


@dataclass
class VerifyResult:
    language: str
    rounds: list[Round] = field(default_factory=list)
    final: RunResult | None = None
    stopped_because: str = ""
    # the tests still failing at the end, each for the machine (network, a service, time):
    # they fail the same way with the repository's own manifests and do not count
    environment: list[EnvironmentFailure] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        """The final run passed, or only tests that fail for the machine failed in it."""
        if not self.final:
            return False
        return self.final.passed or (self.final.status == "failed" and bool(self.environment))

    def record(self) -> dict:
        """The decision record: what each run showed and what the next one changed, why."""
        return {
            "passed": self.passed,
            "rounds": len(self.rounds),
            "stopped_because": self.stopped_because,
            "environment_failures": [
                {"test": e.test, "kind": e.kind, "why": e.why} for e in self.environment
            ],
            "notes": self.notes,
            "runs": [  # package literal: a key of the JSON record, not a package
                {
                    "number": rnd.number,
                    "scope": rnd.scope,
                    "status": rnd.status,
                    "seconds": round(rnd.seconds, 1),
                    "added": rnd.added,
                    "actions": [
                        {"kind": a.kind, "name": a.name, "why": a.why, "line": a.line}
                        for a in rnd.actions
                    ],
                }
                for rnd in self.rounds
            ],
        }


@lru_cache(maxsize=1)
def patterns() -> list[dict]:
    return load_table("common/repair_patterns.toml")["pattern"]


# Where the compiler or runtime says the failing use is, after the message: rustc's
# ` --> src/main.rs:1:5`, Node's `Require stack:\n- /abs/src/index.js`, ESM's
# `imported from /abs/src/index.js` and a stack frame's `at f (src/index.js:5:24)`.
_AFTER = re.compile(
    r"(?:-->\s+|Require stack:\s*\n-\s+|imported from\s+|\bat (?:[^\n(]*\()?)"
    r"(?:file://)?(?P<f>[^\s:'\"()]+\.(?:rs|[cm]?[jt]sx?))"
)


# TypeScript's location opens the message's line: `src/a.ts(1,10): error TS2305: …` (tsc's
# plain form) or `src/a.ts:1:10 - error TS2305: …` (its --pretty form)
_BEFORE = re.compile(
    r"(?P<f>[^\s:'\"()]+\.[cm]?[jt]sx?)(?:\(\d+,\d+\): | ?:\d+:\d+ - )error TS\d+: $"
)


def _failing_file(log: str, start: int, end: int) -> str | None:
    """The source file the failure points at: the location opening the message's line
    (TypeScript), else the first location printed just after the message outside
    installed packages (rustc, Node), else the innermost traceback frame before it
    (Python)."""
    before = _BEFORE.search(log, log.rfind("\n", 0, start) + 1, start)
    if before and "node_modules/" not in before.group("f"):
        return before.group("f")
    for after in _AFTER.finditer(log, end, end + 800):
        if "node_modules/" not in after.group("f") and not after.group("f").startswith("node:"):
            return after.group("f")
    frames = list(_FRAME.finditer(log, max(0, start - 4000), start))
    return (frames[-1].group("a") or frames[-1].group("b")) if frames else None


def _project_frame(log: str, start: int) -> str | None:
    """The innermost frame of the project's own code before a message: where it called the
    installed package whose API the message is about."""
    frames = [
        m.group("a") or m.group("b") for m in _CALL_FRAME.finditer(log, max(0, start - 8000), start)
    ]
    inside = [f for f in frames if not _INSTALLED.search(f)]
    return inside[-1] if inside else None


def diagnose(log: str, language: str) -> list[Action]:
    """Repair actions named by a failed run's log — every failure in it, not only the
    first — most specific first, deduplicated; stop actions only when nothing else is."""
    actions: list[Action] = []
    seen: set[tuple[str, str | None, str | None, tuple[str, ...]]] = set()
    for pat in patterns():
        if pat["language"] != language:
            continue
        for m in re.finditer(pat["regex"], log):
            action = _action(pat, m, log, language)
            key = (action.kind, action.name, action.binding, action.extras)
            if key in seen:
                continue
            seen.add(key)
            actions.append(action)
    if any(a.kind != "stop" for a in actions):
        actions = [a for a in actions if a.kind != "stop"]
    # a name the crate has behind a feature: its "cannot find … in crate" is not a major's
    gated = {_norm(a.name) for a in actions if a.kind == "feature" and a.name}
    actions = [a for a in actions if not (a.kind == "version" and _norm(a.name or "") in gated)]
    # a method missing on a type rustc names without its path, beside two lines of a crate
    # in the build: the two lines explain it (the trait implemented is the other line's)
    if any(a.kind == "align" for a in actions):
        actions = [a for a in actions if not (a.kind == "version" and a.binding and not a.name)]
    if any(a.kind == "runtime" for a in actions):  # no build for this Python: not a conflict
        actions = [a for a in actions if a.kind != "relax"]
    # cargo's "failed to select a version" that a missing feature explains: the feature's line
    if any(a.kind == "feature-line" for a in actions):
        actions = [a for a in actions if a.kind != "relax"]
    return actions


def _action(pat: dict, m: re.Match[str], log: str, language: str) -> Action:
    """The action one match of a pattern names; a program (`tool`) is read through the
    language's executables table: its package, or a stop for a system program."""
    groups = m.groupdict()
    kind, why = pat["action"], pat["why"]
    name = pat.get("package") or groups.get("name") or groups.get("name2")
    name = name or groups.get("derive") or groups.get("tool")
    if kind == "tool":
        tool = groups.get("tool") or ""
        found = tool_package(language, tool)
        if found:
            kind, name, why = "package", found, f"{why}: `{tool}` is installed by {found}"
        else:
            kind, why = (
                "stop",
                f"a test calls `{tool}`, a program no package installs: a system program",
            )
    lo = log.rfind("\n", 0, m.start()) + 1
    hi = log.find("\n", m.end())
    line = log[lo : hi if hi >= 0 else None]
    extras = tuple(e.strip() for e in (groups.get("extras") or "").split(",") if e.strip())
    python_call = language == "python" and groups.get("binding")
    return Action(
        kind,
        name,
        why,
        line.strip()[:300],
        _project_frame(log, m.start()) if python_call else _failing_file(log, m.start(), m.end()),
        pat.get("direction", "auto"),
        groups.get("installed"),
        extras=extras,
        binding=groups.get("binding"),
        report=log[m.start() : m.start() + 3000] if kind == "relax" else "",
        owner=groups.get("owner"),
        member=groups.get("member"),
    )


def _map_modules(
    project: Project,
    language: str,
    actions: list[Action],
    ctx: Context,
    mapper: ModuleType | None,
) -> list[Candidate]:
    """Module and version actions' names through the language's own mapping stage (`mapper`,
    the pipeline's `mapping.<language>`), as if imported by the file whose import failed."""
    refs = [
        ImportRef(
            module=a.name,
            file=where,
            line=0,
            language=language,
            kind=kind,
        )
        for a in actions
        if a.kind in ("module", "version") and a.name
        for where, kind in [_importing_file(project, a.file, language)]
    ]
    return mapper.map_imports(project, refs, ctx) if (mapper and refs) else []


def _new_candidates(
    project: Project,
    language: str,
    actions: list[Action],
    ctx: Context,
    mapper: ModuleType | None,
) -> list[Candidate]:
    """Map what the log names through the language's own mapping stage (`mapper`); a package
    name the registry does not know is read as a module name (`Please install sklearn`)."""
    eco = LANGUAGE_ECOSYSTEM[language]
    owner = next((m.path for m in project.manifests_of(eco) if not m.parse_error), None)
    modules = [a for a in actions if a.kind == "module"]
    packages = []
    for a in actions:
        if a.kind != "package" or not a.name or not owner:
            continue
        if ctx.registries.exists(eco, a.name) is False:
            modules.append(replace(a, kind="module", name=a.name.replace("-", "_")))
            continue
        packages.append(
            Candidate(
                eco,
                a.name,
                owner,
                section=Section.DEV,
                features=list(a.extras),
                evidence=[Evidence("repair", detail=a.line)],
            )
        )
    out = []
    for c in _map_modules(project, language, modules, ctx, mapper) + packages:
        if ctx.registries.exists(c.ecosystem, c.name) is False:
            continue  # never an unverified name: a denied one is dropped
        c.evidence.append(Evidence("repair", detail="named by the failing test run"))
        out.append(c)
    return out


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _release_key(version: str) -> tuple[int, ...] | None:
    """The part of a version a breaking change moves: the major, or major.minor for 0.x."""
    try:
        release = Version(version).release
    except InvalidVersion:
        return None
    return release[:1] if release[0] > 0 else release[:2]


def installed_version(language: str, name: str, log: str, scratch: Path) -> str | None:
    """The version the run installed: uv's `+ name==1.2.3` lines, pip's `Successfully
    installed name-1.2.3`, or node_modules/<name>/package.json."""
    if language == "javascript":
        try:
            data = json.loads((scratch / "node_modules" / name / "package.json").read_text())
        except (OSError, ValueError):
            return None
        return data.get("version") if isinstance(data, dict) else None
    if language == "rust":
        # cargo's `Compiling syn v3.0.1` / `Adding syn v3.0.1`: the newest one built
        seen = [
            m.group(2)
            for m in re.finditer(
                r"^\s*(?:Compiling|Adding|Locking|Downloaded) ([\w-]+) v(\S+)", log, re.M
            )
            if _norm(m.group(1)) == _norm(name)
        ]
        # `cargo test --quiet` prints none of them: the lock file the run wrote has them
        seen = seen or _locked_versions(scratch, name)
        keyed = [(k, v) for v in seen if (k := _release_key(v)) is not None]
        return max(keyed)[1] if keyed else None
    found = None
    for m in re.finditer(r"^\s*\+ ([\w.-]+)==(\S+)", log, re.M):
        if _norm(m.group(1)) == _norm(name):
            found = m.group(2)
    for m in re.finditer(r"Successfully installed (.*)", log):
        for item in m.group(1).split():
            dist, _, version = item.rpartition("-")
            if _norm(dist) == _norm(name):
                found = version
    return found


_LOCKED = re.compile(r'^\[\[package\]\]\s*\nname = "([^"]+)"\s*\nversion = "([^"]+)"', re.M)


def _locked_versions(scratch: Path, name: str) -> list[str]:
    """The versions of `name` in the Cargo.lock files of the checkout (the workspace's at
    the root, a lone crate's beside its manifest, two folders down at most)."""
    found: list[str] = []
    for lock in [
        scratch / "Cargo.lock",
        *scratch.glob("*/Cargo.lock"),
        *scratch.glob("*/*/Cargo.lock"),
    ]:
        try:
            text = lock.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        found += [m.group(2) for m in _LOCKED.finditer(text) if _norm(m.group(1)) == _norm(name)]
    return found


def _version_moves(
    project,
    language: str,
    actions: list[Action],
    log: str,
    scratch: Path,
    requirements: list,
    ctx: Context,
    as_of: str | None,
    mapper: ModuleType | None,
) -> dict[str, tuple[str, str]]:
    """Bounds moved by version actions: the installed release lacks a name, so the next major
    that has been published (as of the run's date) is required, or, when the installed one
    is already the newest major (or the pattern says so), the majors before it."""
    eco = LANGUAGE_ECOSYSTEM[language]
    written = {_norm(r.name): r for r in requirements if r.ecosystem == eco}
    moves: dict[str, tuple[str, str]] = {}
    for a in actions:
        if a.kind != "version" or not a.name:
            continue
        names = [a.name]
        if language == "python":
            names = [c.name for c in _map_modules(project, language, [a], ctx, mapper)] or names
        name = next((n for n in names if _norm(n) in written), None)
        if name is None:
            continue
        installed = a.installed or installed_version(language, name, log, scratch)
        if installed is None and written[_norm(name)].spec:
            # a run whose log and checkout name no build (the plain run's log, reused; an
            # install that failed before unpacking): the installer took the newest release
            # the written requirement admits
            installed = _newest_admitted(language, written[_norm(name)], ctx, as_of)
        key = _release_key(installed) if installed else None
        if key is None:
            continue
        releases = _keyed_releases(eco, name, ctx, as_of)
        newer = sorted(r for r in releases if r[0] > key)
        older = [r for r in releases if r[0] < key]
        # the majors before the installed one (0.x: the minors before it)
        cap = "<" + (f"0.{key[1]}" if key[0] == 0 and len(key) > 1 else str(key[0]))
        line = (
            rust_line_with(_package_of(written[_norm(name)]), a.member, key, releases, ctx)
            if language == "rust" and a.member
            else None
        )
        wanted = a.member or a.module
        found = (
            python_line_with(name, wanted, key, releases, a.direction, ctx, bool(a.module))
            if language == "python" and wanted and line is None
            else None
        )
        if found == NO_LINE and a.module:
            continue  # no line read ships the module: moving blindly would only undo a move
        if line is not None:
            spec, how = line, f"{line} has `{a.member}`"
        elif found not in (None, NO_LINE):
            spec, how = (
                found[0],
                f"{found[1]} " + (f"ships `{a.module}`" if a.module else f"has `{a.member}`"),
            )
        elif a.direction != "down" and newer:
            spec, how = ">=" + newer[0][1], f"newer than {installed}"
        elif older or not releases:
            spec, how = cap, f"older than {installed}"
        else:
            continue
        moves[_norm(name)] = (spec, f"{a.line} — {name} {installed} lacks it: {how} ({spec})")
    return moves


LINES_READ = 4  # compatibility groups whose source a Rust version move reads at most


def rust_line_with(
    package: str,
    member: str,
    installed: tuple[int, ...],
    releases: list[tuple[tuple[int, ...], str]],
    ctx: Context,
) -> str | None:
    """The newest release of the compatibility group nearest the installed one (the next
    newer, the next older, then the ones beyond) whose source offers `member` at its root
    by name (`rand::thread_rng`, `tokio::spawn_blocking`), read from the crates the registry
    serves; None when none of the groups read does."""
    newest: dict[tuple[int, ...], str] = {}
    for k, v in releases:
        if k not in newest or _version_key(v) > _version_key(newest[k]):
            newest[k] = v
    after = sorted(k for k in newest if k > installed)
    before = sorted((k for k in newest if k < installed), reverse=True)
    order = [k for pair in zip_longest(after, before) for k in pair if k is not None]
    workdir: list[Path] = []
    try:
        for k in order[:LINES_READ]:
            src = release_source(package, newest[k], ctx, workdir)
            if src is not None and member in top_level_names(read_gates(str(src))):
                return newest[k]
    finally:
        remove_workdir(workdir)
    return None


WHEELS_READ = 12  # releases whose wheel a Python version move reads at most
# python_line_with's answer when every wheel it read said no (not: could not tell)
NO_LINE = ("", "")


def _python_line(key: tuple[int, ...]) -> tuple[int, ...]:
    """A release's line as the bounds here move it: its major, or 0.minor."""
    return key[:2] if key[0] == 0 and len(key) > 1 else key[:1]


def _nearest_with(seq: list, has: Callable[[Any], bool | None]) -> Any | None:
    """The first item of `seq` (nearest line first) for which `has` is true, taking the
    answers to go false … true from there on: probes at 1, 2, 4, 8 … steps, then bisects
    between the last false and the first true. None when no probe is true or one cannot
    be answered."""
    last_false, probe = -1, 0
    while True:
        found = has(seq[probe])
        if found is None:
            return None
        if found:
            break
        if probe == len(seq) - 1:
            return None
        last_false, probe = probe, min(len(seq) - 1, 2 * probe + 1)
    lo, hi = last_false + 1, probe
    while lo < hi:
        mid = (lo + hi) // 2
        found = has(seq[mid])
        if found is None:
            return None
        lo, hi = (lo, mid) if found else (mid + 1, hi)
    return seq[lo]


def python_line_with(
    package: str,
    member: str,
    installed: tuple[int, ...],
    releases: list[tuple[tuple[int, ...], str]],
    direction: str,
    ctx: Context,
    module: bool = False,
) -> tuple[str, str] | None:
    """The bound of the line nearest the installed one whose newest release's wheel has
    `member` as a word — a keyword the project passes, a name it imports — or, with
    `module`, installs `member` as a module (read from the wheel's file list, which costs a
    range request, not a download); and the release read: the oldest newer line that has
    it (unless `direction` is "down"), else the newest older one. A few wheels decide among
    tens of lines (`_nearest_with`). None when a wheel cannot be read (the plain move then
    stands); NO_LINE when every wheel read answered that its line lacks it."""
    # each line's newest and oldest release, by the whole version (the keys given are lines)
    newest: dict[tuple[int, ...], tuple[tuple[int, ...], str]] = {}
    oldest: dict[tuple[int, ...], tuple[tuple[int, ...], str]] = {}
    for k, v in releases:
        line, full = _python_line(k), _version_key(v)
        if line not in newest or full > newest[line][0]:
            newest[line] = (full, v)
        if line not in oldest or full < oldest[line][0]:
            oldest[line] = (full, v)
    here = _python_line(installed)
    reads = [0]
    unknown, answered = [False], [False]

    def has(line: tuple[int, ...]) -> bool | None:
        if reads[0] >= WHEELS_READ:
            unknown[0] = True
            return None
        reads[0] += 1
        version = newest[line][1]
        if module:
            # a release without a wheel to read (old lines often have none) is no evidence
            # that it ships the module: a no, as long as some wheel was read
            paths = ctx.registries.modules(Ecosystem.PYPI, package, version)
            answered[0] = answered[0] or paths is not None
            return paths is not None and ships_exactly(paths, member)
        answer = ctx.registries.mentions(Ecosystem.PYPI, package, version, member)
        unknown[0] = unknown[0] or answer is None
        answered[0] = answered[0] or answer is not None
        return answer

    after = sorted(k for k in newest if k > here)
    # a name added stays: when the newest line lacks it, no newer line has it
    if direction != "down" and after and has(after[-1]):
        line = _nearest_with(after, has)
        if line is not None:
            return ">=" + oldest[line][1], newest[line][1]
    before = sorted((k for k in newest if k < here), reverse=True)
    line = _nearest_with(before, has) if before else None
    if line is None:
        return None if unknown[0] or not answered[0] else NO_LINE
    upper = (*line[:-1], line[-1] + 1)
    spec = f">={'.'.join(map(str, line))},<{'.'.join(map(str, upper))}"
    return spec, newest[line][1]


def compat_group(key: tuple[int, ...]) -> tuple[int, ...]:
    """Cargo's compatibility group of a release: its major, or 0.minor, or 0.0.patch."""
    for i, part in enumerate(key[:3]):
        if part or i == len(key[:3]) - 1:
            return key[: i + 1]
    return key


def _published(eco, name: str, ctx: Context, as_of: str | None) -> list:
    """The package's releases the registry lists, published by the date, not yanked, not
    pre-releases, with a release number; all of them when the date admits none (a registry
    whose publish dates do not reach back that far, as the resolvers take it)."""
    when = parse_as_of(as_of, None) if as_of else None
    listed = [
        info
        for info in ctx.registries.versions(eco, name)
        if _release_key(info.version) is not None and not (info.prerelease or info.yanked)
    ]
    dated = [i for i in listed if not (when and i.published and i.published > when)]
    return dated or listed


def _keyed_releases(eco, name: str, ctx: Context, as_of: str | None) -> list:
    """`_published` releases as (line key, version) pairs, what the line searches take."""
    return [(_release_key(i.version), i.version) for i in _published(eco, name, ctx, as_of)]


def crate_feature_names(extra: dict) -> set[str]:
    """The features a crate's index entry offers: its `features` table, and each optional
    dependency no feature names as `dep:x` (cargo makes those implicit features)."""
    features = extra.get("features") or {}
    try:
        deps = json.loads(extra.get("deps_json") or "[]")
    except ValueError:
        deps = []
    hidden = {v[4:] for values in features.values() for v in values if v.startswith("dep:")}
    optional = {d.get("name") for d in deps if isinstance(d, dict) and d.get("optional")}
    return set(features) | {n for n in optional if n and n not in hidden}


def rust_feature_lines(
    actions: list[Action], requirements: list, ctx: Context, as_of: str | None
) -> dict[str, tuple[str, str]]:
    """Bounds moved because the written crate's line has no feature the manifest asks of it
    (cargo: "does not have that feature"): the newest release of the compatibility group
    nearest the refused one (newer first) whose own feature list (or optional dependencies,
    which are features too) has it; nothing when no line has it."""
    written = {_norm(r.name): r for r in requirements if r.ecosystem == LANGUAGE_ECOSYSTEM["rust"]}
    moves: dict[str, tuple[str, str]] = {}
    for a in actions:
        key = _version_key(a.installed or "")
        if a.kind != "feature-line" or not a.name or _norm(a.name) not in written or not key:
            continue
        feature, refused = a.extras[0] if a.extras else "", compat_group(key)
        newest: dict[tuple[int, ...], tuple[tuple[int, ...], str]] = {}
        crate = _package_of(written[_norm(a.name)])
        for info in _published(LANGUAGE_ECOSYSTEM["rust"], crate, ctx, as_of):
            k = _version_key(info.version)
            names = crate_feature_names(info.extra)
            group = compat_group(k)
            if (
                feature in names
                and group != refused
                and (group not in newest or k > newest[group][0])
            ):
                newest[group] = (k, info.version)
        after = sorted(g for g in newest if g > refused)
        before = sorted((g for g in newest if g < refused), reverse=True)
        pick = (after or before or [None])[0]
        if pick is not None:
            version = newest[pick][1]
            moves[_norm(a.name)] = (
                version,
                f"{a.line} — {a.name} {a.installed} has no feature `{feature}`: {version} has it",
            )
    return moves


_SEEN = re.compile(r"^\s*(?:Compiling|Checking|Adding|Locking|Downloaded) ([\w-]+) v(\S+)", re.M)
_REGISTRY_PATH = re.compile(r"/registry/src/[^/\s]+/([A-Za-z0-9_-]+?)-(\d+\.\d+\.\d+[^/\s]*)/")


def rust_alignments(
    actions: list[Action], log: str, requirements: list
) -> dict[str, tuple[str, str]]:
    """Bounds moved because rustc found two lines of a written crate in the build (its
    trait from one line, a dependency's type implementing the other's): the written crate
    moves to the newest other line the log shows built (cargo's `Checking x v…` lines and
    rustc's registry paths)."""
    written = {_norm(r.name): r for r in requirements if r.ecosystem == LANGUAGE_ECOSYSTEM["rust"]}
    moves: dict[str, tuple[str, str]] = {}
    seen: list[tuple[str, ...]] | None = None  # the builds the log shows, read once
    for a in actions:
        req = written.get(_norm(a.name or ""))
        if a.kind != "align" or req is None:
            continue
        if seen is None:
            seen = [m.groups() for p in (_SEEN, _REGISTRY_PATH) for m in p.finditer(log)]
        keys = {k for n, v in seen if _norm(n) == _norm(a.name or "") and (k := _version_key(v))}
        mine = _version_key(req.spec.lstrip("^=~ ")) if req.spec else None
        # the written line: the one its bound names, else the older one built
        ours = compat_group(mine) if mine else compat_group(min(keys)) if keys else None
        others = sorted(k for k in keys if compat_group(k) != ours)
        if others:
            version = ".".join(map(str, others[-1]))
            moves[_norm(a.name or "")] = (
                version,
                f"{a.line} — {a.name} is built on two lines: the written one moves to {version}",
            )
    return moves


def rust_bound_lines(
    cands: list[Candidate], bounds: dict[str, tuple[str, str]], ctx: Context, as_of: str | None
) -> list[Candidate]:
    """Candidates of crates whose bound the loop moved, pinned to the compatibility line that
    bound admits (its newest release published by the date), so that the resolver chooses
    in that line and its peers follow it (resolvers/rust_peers.py): an integration crate
    whose chosen release depends on the framework's other line steps to one that depends on
    this one, instead of building a second copy of the framework beside it (rustc: a trait
    of one copy not implemented for the other's types)."""
    out = []
    for c in cands:
        move = bounds.get(_norm(c.name)) or bounds.get(_norm(package_of(c)))
        line = _bound_release(package_of(c), move[0], ctx, as_of) if move else None
        if line is None or crate_of(c).version_pin == line:
            out.append(c)
            continue
        out.append(replace(c, facts=replace(crate_of(c), version_pin=line)))
    return out


def _bound_release(package: str, spec: str, ctx: Context, as_of: str | None) -> str | None:
    """The newest release (by the date) whose compatibility line a moved bound admits."""
    fitting = [
        info.version
        for info in _published(LANGUAGE_ECOSYSTEM["rust"], package, ctx, as_of)
        if crate_req_admits_line(spec, info.version)
    ]
    return max(fitting, key=_version_key, default=None)


def _newest_admitted(
    language: str, req: Requirement, ctx: Context, as_of: str | None
) -> str | None:
    """The newest release (by the date) the written requirement admits: cargo's line of it,
    or npm's range; None for the others (their logs name what was installed)."""
    if language == "rust":
        return _bound_release(_package_of(req), req.spec, ctx, as_of)
    if language != "javascript":
        return None
    fitting = [
        info.version
        for info in _published(LANGUAGE_ECOSYSTEM[language], req.name, ctx, as_of)
        if satisfies(semver_key(info.version)[:3], req.spec)
    ]
    return max(fitting, key=semver_key, default=None)


def _version_key(version: str) -> tuple[int, ...]:
    try:
        return Version(version).release
    except InvalidVersion:
        return ()


def _package_of(req: Requirement) -> str:
    """The registry name of a written Cargo entry (its `package` when renamed)."""
    return entry_of(req).package or req.name


def _older_runtime(
    scratch: Path, language: str, test_cmd: str | None, actions: list[Action], now: str | None
) -> str | None:
    """The next older local Python the project allows, when a runtime action says the one
    the tests ran on has no build of a package."""
    if language != "python":
        return None
    ran = [m.group("v") for a in actions if a.kind == "runtime" for m in [_CPY.search(a.line)] if m]
    if not ran:
        return None
    current = tuple(int(x) for x in (now or ran[0]).split(".")[:2])
    requires = plan.requires_python(scratch)
    for key in sorted(plan.pyenv_pythons(), reverse=True):
        text = f"{key[0]}.{key[1]}"
        if key < current and plan.find_python(text, requires) == plan.pyenv_pythons()[key]:
            return text
    return None


_CPY = re.compile(r"CPython (?P<v>\d+\.\d+)")


def _importing_file(project, logged: str | None, language: str) -> tuple[str, FileKind]:
    """The project file (and its role) whose import failed, from the traceback's path; an
    import failing inside an installed package or with no frame counts as the root's runtime
    code (the package is needed at run time either way)."""
    kinds = {f.path: f.kind for f in project.files}
    if logged:
        path = logged.replace("\\", "/")
        root = str(project.root).replace("\\", "/").rstrip("/") + "/"
        rel = path[len(root) :] if path.startswith(root) else path.lstrip("./")
        if rel in kinds:
            return rel, kinds[rel]
    fallback = {"rust": "src/lib.rs", "javascript": "index.js"}.get(language, "__main__.py")
    return fallback, FileKind.SOURCE


@dataclass(frozen=True)
class PipelineSteps:
    """The pipeline's stages the loop runs again, handed in by `depinfer.pipeline` (ci sits
    below the pipeline and never imports it)."""

    infer: Callable[..., Inference]  # infer(root, options, ctx=, project=) → Inference
    run_language: Callable[
        [Project, str, Context], tuple[list[ImportRef], list[Candidate], list[Requirement]]
    ]
    plan_edits: Callable[[Project, list[Requirement], Context], list[ManifestEdit]]
    write_edits: Callable[[Path, list[ManifestEdit], Context], list[str]]
    stage: Callable[[str, str], ModuleType | None]  # stage("mapping", "python") → module


@dataclass(frozen=True)
class VerifyRequest:
    """What `pipeline.infer(..., verify=...)` verifies, and how far it may go."""

    language: str
    test_cmd: str | None = None  # default: the CI workflow's test job
    max_rounds: int = 3  # repair rounds at most
    time_budget: float = 1800  # seconds; no new round after it
    log_dir: Path | None = None  # keep each round's test log here
    # the test run of exactly these inferred manifests, done already by the caller (the
    # benchmark's inferred run): round 1 reuses it
    first_run: RunResult | None = None
    step_timeout: int = 900  # seconds per install or test step
    # the package managers' cut-off date (default: the inference's as-of date)
    as_of: str | None = None
    # variables every step gets (the benchmark's shared cargo build folder)
    env: dict[str, str] = field(default_factory=dict)


@dataclass
class VerifiedInference(Inference):
    """An inference whose manifests the project's own tests ran with, and how that went."""

    verification: VerifyResult | None = None


@dataclass
class _Loop:
    """The loop's state in its scratch copy: what is written there and what repair added."""

    request: VerifyRequest
    steps: PipelineSteps
    scratch: Path
    project: Project
    result: Inference
    pristine: dict[str, str]  # manifest path → its text before anything was written
    as_of: str | None
    started: float
    repaired: list[Candidate] = field(default_factory=list)  # candidates repair added
    bounds: dict[str, tuple[str, str]] = field(default_factory=dict)  # package → (spec, why)
    runtime: str | None = None  # an older interpreter a runtime action asked for
    notes: list[str] = field(default_factory=list)  # what the scratch copy could not be
    extras: dict[str, tuple[set[str], str]] = field(default_factory=dict)  # package → extras
    relaxed: dict[str, str] = field(default_factory=dict)  # package → why its bound went
    dropped: dict[str, str] = field(default_factory=dict)  # package → why it is not written
    # package → (section, group, why, manifest or None for the one it had): written where
    # the test job does not install it
    placed: dict[str, tuple[Section, str | None, str, str | None]] = field(default_factory=dict)
    tried: dict[str, set[str]] = field(default_factory=dict)  # module → distributions tried
    # package → bounds a round already ran with: one that failed is not asked for again
    # (`x<6`, then `x>=6`, then `x<6` once more when neither line ships the module)
    bounds_tried: dict[str, set[str]] = field(default_factory=dict)
    rerun_failed: bool = False  # the next run selects the tests that failed last
    outcomes: dict[str, str] = field(default_factory=dict)  # every test's latest outcome


def verify(
    root: Path,
    request: VerifyRequest,
    ctx: Context,
    steps: PipelineSteps,
    project: Project | None = None,
) -> tuple[VerifyResult, Inference]:
    """Infer, write into a scratch copy, run tests, repair; the user's tree is untouched.

    `project`: the user's tree as scanned already (scanned here when not given)."""
    out = VerifyResult(request.language)
    with tempfile.TemporaryDirectory(prefix="depinfer-verify-") as tmp:
        loop = _start(root, request, ctx, steps, Path(tmp) / "repo", project)
        out.notes.extend(loop.notes)
        number = 1
        while _round(loop, number, out, ctx):
            number += 1
        result = loop.result
    # the final requirements, planned against the user's own tree
    user_project = project or scan(root)
    result.project = user_project
    result.edits = steps.plan_edits(user_project, result.requirements, ctx)
    return out, result


def _start(
    root: Path,
    request: VerifyRequest,
    ctx: Context,
    steps: PipelineSteps,
    scratch: Path,
    user_project: Project | None,
) -> _Loop:
    """Copy the tree, infer on the copy and write its manifests there."""
    started = time.monotonic()
    shutil.copytree(root, scratch, ignore=COPY_IGNORE, symlinks=True)
    # a git checkout of the copy, as CI has (version plug-ins and some tests ask git); the
    # manifests written below are its uncommitted changes
    problem = make_checkout(scratch)
    project = scan(scratch)
    as_of = request.as_of
    if as_of is None:
        last_commit = (user_project or scan(root)).last_commit_date
        when = parse_as_of(ctx.options.as_of, last_commit)
        as_of = when.isoformat().replace("+00:00", "Z") if when else None
    result = steps.infer(scratch, ctx.options, ctx=ctx, project=project)
    pristine = {e.path: e.old_text for e in result.edits}
    steps.write_edits(scratch, result.edits, ctx)
    loop = _Loop(request, steps, scratch, project, result, pristine, as_of, started)
    if problem:
        loop.notes.append(f"the scratch copy is not a git checkout ({problem})")
    return loop


def _round(loop: _Loop, number: int, out: VerifyResult, ctx: Context) -> bool:
    """One test run and the repair it names; False when the loop stops (and says why)."""
    request = loop.request
    t0 = time.monotonic()
    partial = loop.rerun_failed
    run = _test_run(loop, number, partial)
    rnd = Round(number, run.status, seconds=time.monotonic() - t0)
    if partial:
        rnd.scope = f"the {sum(1 for o in loop.outcomes.values() if o == 'failed')} failed tests"
        run = replace(run, outcomes={**loop.outcomes, **run.outcomes})
    loop.outcomes = dict(run.outcomes)
    out.rounds.append(rnd)
    out.final = run
    leftover = (
        None if run.passed else only_environment_left(run.log, run.outcomes, request.language)
    )
    if partial and (run.passed or leftover):
        # the tests that failed pass now (or fail only for the machine): all of them again,
        # unchanged, to confirm that the repair broke none of the others
        loop.rerun_failed = False
        rnd.added.append("all tests again to confirm")
        return True
    stop = _stop_before_repair(loop, run, number)
    if stop is None:
        rnd.actions = diagnose(run.log, request.language)
        stop = _stop_for_actions(rnd.actions, leftover, out)
        if stop and not rnd.actions and run.status == "timeout":
            stop = f"a step ran out of time ({request.step_timeout}s): {run.failed_step}"
    if stop is None:
        stop = _repair(loop, rnd, run, ctx)
    if stop is not None:
        out.stopped_because = _with_runtime(loop, stop)
        return False
    _write_again(loop, ctx)
    loop.rerun_failed = _can_rerun(loop, run)
    return True


def _test_run(loop: _Loop, number: int, partial: bool = False) -> RunResult:
    """Round 1 reuses the caller's run when there is one; every other round runs the tests
    (`partial`: only those that failed last). Judged as the CI judges it (`strict`)."""
    request = loop.request
    if number == 1 and request.first_run is not None and not _installs_as_job(loop):
        return request.first_run.strict()
    return run_tests(
        loop.scratch,
        request.language,
        request.test_cmd,
        log_path=(request.log_dir / f"round{number}.log") if request.log_dir else None,
        as_of=loop.as_of,
        runtime=loop.runtime,
        step_timeout=request.step_timeout,
        env={**request.env, **({"PYTEST_ADDOPTS": RERUN_FAILED} if partial else {})} or None,
        strict=True,
    ).strict()


def _installs_as_job(loop: _Loop) -> bool:
    """The strict plan installs as the job does, unlike the caller's run (which cannot then
    stand in for round 1)."""
    found = plan_for(loop.scratch, loop.request.language, loop.request.test_cmd, strict=True)
    return bool(found and found.as_job)


def _can_rerun(loop: _Loop, run: RunResult) -> bool:
    """The next run may select only the failed tests: the runner can (pytest, its cache on)
    and this run ran tests rather than stopping at install or collection."""
    addopts, _ = plan.pytest_config(loop.scratch)
    return can_rerun_failed(run.failed_step or "", run.outcomes, run.status, addopts)


def _with_runtime(loop: _Loop, stop: str) -> str:
    """The stop reason, saying so when the tests ran on an older Python than the CI's."""
    if loop.runtime and stop == "tests pass":
        return f"tests pass on Python {loop.runtime} (the CI job's newer Python has no build)"
    return stop


def _stop_before_repair(loop: _Loop, run: RunResult, number: int) -> str | None:
    """Why the loop ends before reading the log: the tests pass, or no round or time is left."""
    if run.passed:
        return "tests pass"
    if number > loop.request.max_rounds:
        return f"round limit ({loop.request.max_rounds}) reached"
    if time.monotonic() - loop.started > loop.request.time_budget:
        return "time budget used up"
    return None


def _stop_for_actions(
    actions: list[Action], leftover: list[EnvironmentFailure] | None, out: VerifyResult
) -> str | None:
    """Why the loop ends after reading the log: it names nothing a dependency could fix (and
    what is left fails for the machine, if that is all)."""
    if any(a.kind != "stop" for a in actions):
        return None
    if leftover:
        out.environment = leftover
        kinds = sorted({e.kind for e in leftover})
        return (
            f"tests pass apart from {len(leftover)} that "
            f"{'fails' if len(leftover) == 1 else 'fail'} for the machine "
            f"({', '.join(kinds)}), as with the repository's own manifests"
        )
    if not actions:
        return "the failure names no dependency problem"
    return "not a dependency problem: " + actions[0].why


def _repair(loop: _Loop, rnd: Round, run: RunResult, ctx: Context) -> str | None:
    """Add what the round's actions name — new candidates (another provider of a module the
    written one does not ship), extras, an older runtime, moved or dropped bounds — to the
    loop; the reason to stop when none of it is new."""
    language, project = loop.request.language, loop.project
    mapper = loop.steps.stage("mapping", language)
    _bind_packages(loop, rnd.actions)
    _patched_imports(loop, rnd.actions)
    if rnd.actions and all(a.kind == "stop" for a in rnd.actions):
        return "not a dependency problem: " + rnd.actions[0].why
    # new: not written (a candidate inference kept out, e.g. optional or with no
    # section to hold it, counts as new: the run shows it is needed) nor added before
    have = {(r.manifest, _norm(r.name)) for r in loop.result.requirements if not r.optional}
    have |= {(c.manifest, _norm(c.name)) for c in loop.repaired}
    new = _new_candidates(project, language, rnd.actions, ctx, mapper)
    new = [c for c in new if (c.manifest, _norm(c.name)) not in have]
    placed = len(loop.placed)
    new += _other_providers(loop, rnd, have, new, ctx, mapper, run.log)
    older = _older_runtime(loop.scratch, language, loop.request.test_cmd, rnd.actions, loop.runtime)
    if older:
        loop.runtime = older
        rnd.added.append(f"python {older}")
    moved = _version_moves(
        project, language, rnd.actions, run.log, loop.scratch, loop.result.requirements, ctx,
        loop.as_of, mapper,
    )  # fmt: skip
    if language == "rust":
        moved.update(rust_feature_lines(rnd.actions, loop.result.requirements, ctx, loop.as_of))
        moved.update(rust_alignments(rnd.actions, run.log, loop.result.requirements))
    moves = {
        name: move
        for name, move in moved.items()
        if loop.bounds.get(name, ("",))[0] != move[0]
        and move[0] not in loop.bounds_tried.get(name, set())
    }
    extras = _new_extras(loop, rnd.actions)
    relaxed = _relax(loop, rnd.actions)
    if not (new or moves or older or extras or relaxed or len(loop.placed) > placed):
        return "nothing new to add for: " + ", ".join(
            f"{a.kind} {a.name or a.binding or ''}".strip() for a in rnd.actions
        )
    rnd.added += [c.name for c in new] + [f"{n}{spec}" for n, (spec, _) in moves.items()]
    rnd.added += [f"{n}[{','.join(sorted(e))}]" for n, e in extras.items()]
    rnd.added += [f"{n}: bound dropped (conflict)" for n in relaxed]
    rnd.added = list(dict.fromkeys(rnd.added))  # one name added to two manifests: one entry
    loop.repaired.extend(new)
    loop.repaired = [c for c in loop.repaired if _norm(c.name) not in loop.dropped]
    loop.bounds.update(moves)
    for name, (spec, _) in moves.items():
        loop.bounds_tried.setdefault(name, set()).add(spec)
    return None


def _bind_packages(loop: _Loop, actions: list[Action]) -> None:
    """A JavaScript binding an error calls (`(0 , _got.default) is not a function`) names
    its package through its import in the failing file (else any source file); one no
    import binds that is a global of the runtime (`Promise.withResolvers`) is the Node
    version's doing: a stop, with that reason. A Rust type rustc printed without its path
    names its crate through the failing file's `use`."""
    for a in actions:
        if a.name or not a.binding:
            continue
        rel, _ = _importing_file(loop.project, a.file, loop.request.language)
        if loop.request.language == "python":
            module = python_binding_module(loop.scratch, rel, a.binding) if a.file else None
            if module and not _is_internal(loop.project, module) and not ever_stdlib(module):
                a.name = module
            else:
                a.kind = "stop"
                a.why = (
                    f"`{a.binding}` is not imported from an installed package where the "
                    "project calls it: its own code's failure, not a dependency problem"
                )
            continue
        if loop.request.language == "rust":
            a.name = rust_binding_crate(loop.scratch, [rel], a.binding)
            continue
        sources = [f.path for f in loop.project.files if re.search(r"\.[cm]?[jt]sx?$", f.path)]
        local = binding_name(a.binding)
        found = js_binding_package(loop.scratch, [rel, *sources[:500]], local)
        if found:
            a.name = found
        elif js_runtime_global(local):
            a.kind = "stop"
            a.why = (
                f"`{a.binding}` is a member of `{local}`, a global of the JavaScript runtime "
                "that no import binds: the Node the tests ran on lacks it (a newer Node has it)"
            )


def _patched_imports(loop: _Loop, actions: list[Action]) -> None:
    """A test patches `owner.name` and the owner lacks it: when the owner's file imports
    `name` (under a guard that swallowed its ImportError), the module is what is missing."""
    for a in actions:
        if a.kind != "patched" or not a.owner or not a.name:
            continue
        tail = a.owner.replace(".", "/")
        imports = re.compile(rf"^\s*(?:import|from)\s+{re.escape(a.name)}\b", re.M)
        for f in loop.project.files:
            if not (f.path.endswith(tail + ".py") or f.path.endswith(tail + "/__init__.py")):
                continue
            try:
                text = (loop.scratch / f.path).read_text(encoding="utf-8", errors="replace")
            except OSError:
                continue
            if imports.search(text):
                a.kind, a.file = "module", f.path
                break


def _other_providers(
    loop: _Loop,
    rnd: Round,
    have: set[tuple[str, str]],
    new: list[Candidate],
    ctx: Context,
    mapper: ModuleType | None,
    run_log: str = "",
) -> list[Candidate]:
    """Modules still missing although what the mapping chose for them is written: the next
    distribution the import index names for them (all providers, not only those inference
    considered), replacing the written one when it served only that import. With no other
    provider left, the written distribution's release lacks the module: a version action."""
    language, eco = loop.request.language, LANGUAGE_ECOSYSTEM[loop.request.language]
    added = {_norm(c.name) for c in new}
    out: list[Candidate] = []
    for a in [a for a in rnd.actions if a.kind == "module" and a.name]:
        mapped = _map_modules(loop.project, language, [a], ctx, mapper)
        if any(_norm(c.name) in added for c in mapped):
            continue  # the mapping gave something new for it
        written = [c for c in mapped if (c.manifest, _norm(c.name)) in have]
        if not mapped and _is_internal(loop.project, a.name):
            continue  # the project's own module: no distribution provides it
        if written and _misplaced(loop, a, written, run_log):
            continue  # written, but where the job does not install it: placed again
        shipping = _written_line_shipping(loop, written, a.name, run_log, ctx)
        if shipping:
            # another line of the written distribution ships it (a module added or removed
            # at a major): a version move, before any other provider
            why = f"{shipping} ships `{a.name}`, the installed release does not"
            rnd.actions.append(Action("version", a.name, why, a.line, a.file, module=a.name))
            continue
        tried = loop.tried.setdefault(a.name, set())
        tried |= {_norm(c.name) for c in written}
        taken = {n for _, n in have} | added
        pick = _next_provider(language, a.name, written, tried, taken)
        source = "the import index names"
        if pick is None and language == "python":
            pick = _named_provider(loop, a.name, tried | taken, ctx)
            source = "the repository's documents name"
        if pick is None:
            if written and not any(b.kind == "version" and b.name == a.name for b in rnd.actions):
                why = "its distribution is written, so the installed release lacks the module"
                rnd.actions.append(Action("version", a.name, why, a.line, a.file, module=a.name))
            continue
        tried.add(_norm(pick))
        rel, kind = _importing_file(loop.project, a.file, language)
        base = written[0] if written else None
        owner = next((m.path for m in loop.project.manifests_of(eco) if not m.parse_error), None)
        manifest = base.manifest if base else owner
        if manifest is None or ctx.registries.exists(eco, pick) is False:
            continue
        shown = ", ".join(c.name for c in written) or "nothing written"
        why = f"{a.line} — {shown} does not provide `{a.name}`; {source} {pick}"
        section = (
            base.section if base else (Section.DEV if kind == FileKind.TEST else Section.RUNTIME)
        )
        out.append(Candidate(eco, pick, manifest, section=section, import_names=[a.name],
                             evidence=[Evidence("repair", rel, detail=why)]))  # fmt: skip
        added.add(_norm(pick))
        for c in written:
            if _only_for(loop, c.name, a.name):
                loop.dropped[_norm(c.name)] = f"{c.name} does not provide `{a.name}`: {pick} does"
                rnd.added.append(f"{pick} instead of {c.name}")
    return out


def _written_line_shipping(
    loop: _Loop, written: list[Candidate], module: str, log: str, ctx: Context
) -> str | None:
    """The release of another line of a written Python distribution whose wheel installs
    `module`, when the run installed one that does not (python_line_with, module mode);
    None when none is found or it cannot be told."""
    if loop.request.language != "python" or ctx.options.offline:
        return None
    for c in written:
        installed = installed_version("python", c.name, log, loop.scratch)
        key = _release_key(installed) if installed else None
        if key is None:
            continue
        releases = _keyed_releases(Ecosystem.PYPI, c.name, ctx, loop.as_of)
        found = python_line_with(c.name, module, key, releases, "auto", ctx, module=True)
        if found not in (None, NO_LINE):
            return f"{c.name} {found[1]}"
    return None


def _misplaced(loop: _Loop, a: Action, written: list[Candidate], log: str) -> bool:
    """The written distributions for a missing module were not installed by the run (its
    installer lists what it installed): they sit in a section or a manifest the test job
    does not install. They move where it does: an extra or group the job installs, else a
    requirements file it installs with `-r` (a Poetry group beside the requirements-dev.txt
    the workflow installs), else the dependencies. True when that is new."""
    language = loop.request.language
    if language != "python" or not re.search(r"^\s*\+ [\w.-]+==", log, re.M):
        return False
    missing = [c for c in written if not installed_version(language, c.name, log, loop.scratch)]
    if not missing:
        return False
    found = plan_for(loop.scratch, language, loop.request.test_cmd, strict=True)
    install = found.install if found else []
    group, manifest = _job_group(install), None
    if group is None:
        files = _job_requirement_files(loop.project, install)
        manifest = files[0] if files else None
    dev = group is not None or (manifest is not None and _names_dev(manifest))
    section = Section.DEV if dev else Section.RUNTIME
    why = f"{a.line} — written where the test job does not install it: " + (
        f"moved to `{group}`, which the job installs"
        if group
        else f"moved to {manifest}, which the job installs"
        if manifest
        else "moved to the dependencies"
    )
    new = False
    for c in missing:
        before = loop.placed.get(_norm(c.name))
        if before is None or (before[0], before[1], before[3]) != (section, group, manifest):
            loop.placed[_norm(c.name)] = (section, group, why, manifest)
            new = True
    return new


def _names_dev(path: str) -> bool:
    return bool(DEV_REQUIREMENT_NAME.search(PurePosixPath(path).name))


def _job_requirement_files(project: Project, install: list[str]) -> list[str]:
    """The project's hand-written requirements files the job's install lines name with `-r`
    (paths from the repository root)."""
    manifests = {m.path for m in project.manifests_of(Ecosystem.PYPI)}
    return [
        path
        for path in installed_requirement_files(install)
        if path in manifests and not is_compiled(project, path)
    ]


def _job_group(install: list[str]) -> str | None:
    """The extra or dependency group of the root manifest the job's install lines name (a
    test-named one first)."""
    text = " ".join(install)
    named = [x for m in re.finditer(r"\.\[([\w,-]+)\]", text) for x in m.group(1).split(",")]
    named += re.findall(r"--group\s+'?([\w-]+)", text)
    tests = [n for n in named if n.lower() in plan.TEST_EXTRAS]
    return (tests or named or [None])[0]


def _is_internal(project: Project, module: str) -> bool:
    """A folder or file of the project carries the module's top-level name."""
    root = module.split(".")[0]
    return any(
        part == root or part == root + ".py" for f in project.files for part in f.path.split("/")
    )


def _next_provider(
    language: str, module: str, written: list[Candidate], tried: set[str], taken: set[str]
) -> str | None:
    """The best provider of `module` not tried for it and not written already."""
    if language != "python":
        return None
    others = python_providers(module) + [alt for c in written for alt in c.alternatives]
    return next((p for p in others if _norm(p) not in tried and _norm(p) not in taken), None)


def _named_provider(loop: _Loop, module: str, skip: set[str], ctx: Context) -> str | None:
    """A distribution the repository's documents name whose newest wheel installs `module`
    (mapping/python_named): the provider no index knows. Online only."""
    if ctx.options.offline or loop.project.root is None:
        return None
    from depinfer.mapping import python_named

    words = python_named.document_words(str(loop.project.root))
    found = python_named.named_provider(module, words, ctx.registries, skip)
    return found[0] if found else None


def _only_for(loop: _Loop, dist: str, module: str) -> bool:
    """`dist` is written only for `module` (its candidates import nothing else)."""
    names = [
        n
        for c in loop.result.candidates + loop.repaired
        if _norm(c.name) == _norm(dist)
        for n in (c.import_names or [""])
    ]
    return bool(names) and all(
        n == module or n.startswith(module + ".") or module.startswith(n + ".") for n in names
    )


def _new_extras(loop: _Loop, actions: list[Action]) -> dict[str, set[str]]:
    """Extras the messages ask of a package (`Please install X using the 'Y' extra`) that the
    loop has not asked for yet."""
    new: dict[str, set[str]] = {}
    for name, extras, line in _asked_extras(loop, actions):
        have, _ = loop.extras.get(_norm(name), (set(), ""))
        more = set(extras) - have
        if more:
            loop.extras[_norm(name)] = (have | more, line)
            new[name] = new.get(name, set()) | more
    return new


def _asked_extras(loop: _Loop, actions: list[Action]) -> list[tuple[str, list[str], str]]:
    """(package, extras or features, log line): those a message asks for, and the features
    a written crate needs for a derive the compiler cannot find (the derives table)."""
    eco = LANGUAGE_ECOSYSTEM[loop.request.language]
    written = {_norm(r.name) for r in loop.result.requirements if r.ecosystem == eco}
    out = [(a.name, list(a.extras), a.line) for a in actions if a.kind == "package" and a.name]
    out += [
        (a.name, list(a.extras), a.line)
        for a in actions
        if a.kind == "feature" and a.name and _norm(a.name) in written
    ]
    for a in actions:
        if a.kind != "derive" or not a.name:
            continue
        out += [
            (crate, features, a.line)
            for crate, features in derive_crates(a.name)
            if _norm(crate) in written and features
        ][:1]
    return out


def _relax(loop: _Loop, actions: list[Action]) -> list[str]:
    """Written bounds a resolver's conflict report names, dropped: it may then choose
    releases that fit together (a version move of the loop's own included)."""
    eco = LANGUAGE_ECOSYSTEM[loop.request.language]
    bounded = {
        _norm(r.name): r.name
        for r in loop.result.requirements
        if r.ecosystem == eco and (r.spec or _norm(r.name) in loop.bounds)
    }
    out = []
    for a in actions:
        if a.kind != "relax":
            continue
        for name in conflict_names(loop.request.language, a.report):
            key = _norm(name)
            if key in bounded and key not in loop.relaxed:
                loop.relaxed[key] = f"{a.line} — the installer found the bounds unsatisfiable"
                loop.bounds.pop(key, None)
                out.append(bounded[key])
    return out


def _overrides(loop: _Loop, reqs: list[Requirement]) -> list[Requirement]:
    """What the runs showed, applied to the resolved requirements: replaced distributions
    left out, conflicting bounds dropped, bounds moved, extras added."""
    reqs = [r for r in reqs if _norm(r.name) not in loop.dropped]
    for req in reqs:
        key = _norm(req.name)
        if key in loop.placed:
            req.section, req.group, why, manifest = loop.placed[key]
            req.manifest = manifest or req.manifest
            req.optional = False
            req.evidence.append(Evidence("repair", detail=why))
        if key in loop.relaxed:
            req.spec = ""
            req.evidence.append(Evidence("repair", detail=loop.relaxed[key]))
        move = loop.bounds.get(key)
        if move:
            if not _pinned_within(req, move[0]):
                req.spec = move[0]
            req.evidence.append(Evidence("repair", detail=move[1]))
        extras, line = loop.extras.get(key, (set(), ""))
        if extras - set(req.features):
            req.features = sorted(set(req.features) | extras)
            req.evidence.append(Evidence("repair", detail=f"{line} — extras {sorted(extras)}"))
    out: list[Requirement] = []
    seen: set[tuple[str, str]] = set()
    for req in reqs:  # moved to one manifest from several: written there once
        if (req.manifest, _norm(req.name)) not in seen:
            seen.add((req.manifest, _norm(req.name)))
            out.append(req)
    return out


def _pinned_within(req: Requirement, bound: str) -> bool:
    """A Cargo entry the resolver wrote in the line a moved bound admits (rust_bound_lines
    pinned its candidate there): its own requirement stays. Written as the bound
    (`pyo3 = ">=0.26.0"`), Cargo would take the newest release of any later line, the
    date notwithstanding, and the loop would chase lines one round at a time."""
    version = req.spec.strip().lstrip("^=~ ")
    return (
        req.ecosystem == Ecosystem.CRATES
        and bool(version)
        and version[0].isdigit()
        and "," not in version
        and crate_req_admits_line(bound, version)
    )


def _write_again(loop: _Loop, ctx: Context) -> None:
    """Restore the pristine manifests, then resolve and write everything again."""
    language, project, steps, result = loop.request.language, loop.project, loop.steps, loop.result
    for path, text in loop.pristine.items():
        (loop.scratch / path).write_text(text, encoding="utf-8", newline="")
    resolver = steps.stage("resolvers", language)
    _, cands, _ = steps.run_language(project, language, ctx)
    if language == "rust":
        cands = rust_bound_lines(cands, loop.bounds, ctx, loop.as_of)
        loop.repaired = rust_bound_lines(loop.repaired, loop.bounds, ctx, loop.as_of)
    reqs = resolver.resolve(project, merge_candidates(cands + loop.repaired), ctx)
    written = {(r.manifest, _norm(r.name)) for r in reqs}
    homeless = [
        c
        for c in loop.repaired
        if c.section != Section.RUNTIME and (c.manifest, _norm(c.name)) not in written
    ]
    for c in homeless:  # the manifest has no test/dev section to hold it
        c.section = Section.RUNTIME
        c.evidence.append(
            Evidence(
                "repair",
                detail="the test run needs it and the manifest has no test/dev "
                "section: written as a dependency",
            )
        )
    if homeless:
        reqs = resolver.resolve(project, merge_candidates(cands + loop.repaired), ctx)
    reqs = _overrides(loop, reqs)
    others = [r for r in result.requirements if LANGUAGE_ECOSYSTEM[language] != r.ecosystem]
    result.requirements = others + reqs
    result.candidates = cands + loop.repaired
    result.edits = steps.plan_edits(project, result.requirements, ctx)
    loop.pristine.update({e.path: e.old_text for e in result.edits if e.path not in loop.pristine})
    steps.write_edits(loop.scratch, result.edits, ctx)
