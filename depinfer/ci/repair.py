"""Verify and repair: run the project's own tests on a scratch copy with the inferred
manifests, and turn what the failures name into new candidates — through the same mapping,
registry check and resolvers as inference, never an unverified name. Bounded in rounds and
time; a failure that is not a dependency problem ends the loop.
"""

from __future__ import annotations

import json
import re
import shutil
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from types import ModuleType

from packaging.version import InvalidVersion, Version

from depinfer.ci import plan, run_tests
from depinfer.ci.runner import RunResult
from depinfer.context import Context
from depinfer.data import load_table
from depinfer.model import (
    LANGUAGE_ECOSYSTEM,
    Candidate,
    Evidence,
    FileKind,
    ImportRef,
    Inference,
    ManifestEdit,
    Project,
    Requirement,
    Section,
)
from depinfer.resolvers.common import merge_candidates
from depinfer.scan import scan
from depinfer.versions import parse_as_of


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
    kind: str  # module | package | version | runtime | derive | stop
    name: str | None
    why: str
    line: str  # the log line that matched
    file: str | None = None  # the source file whose import failed, as the traceback names it
    direction: str = "auto"  # version actions: "down" when only an older major can help
    installed: str | None = None  # version actions: the release the log names, if it does


# A traceback frame naming a Python file: pytest's short form `path.py:12: in <module>` or
# the interpreter's `File "path.py", line 12`.
_FRAME = re.compile(r'File "(?P<a>[^"]+\.py)", line \d+|(?P<b>[^\s:"]+\.py):\d+: in ')


@dataclass
class Round:
    number: int
    status: str
    actions: list[Action] = field(default_factory=list)
    added: list[str] = field(default_factory=list)
    seconds: float = 0.0


@dataclass
class VerifyResult:
    language: str
    rounds: list[Round] = field(default_factory=list)
    final: RunResult | None = None
    stopped_because: str = ""

    @property
    def passed(self) -> bool:
        return bool(self.final and self.final.passed)

    def record(self) -> dict:
        """The decision record: what each run showed and what the next one changed, why."""
        return {
            "passed": self.passed,
            "rounds": len(self.rounds),
            "stopped_because": self.stopped_because,
            "runs": [  # package literal: a key of the JSON record, not a package
                {
                    "number": rnd.number,
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
# ` --> src/main.rs:1:5`, Node's `Require stack:\n- /abs/src/index.js` and ESM's
# `imported from /abs/src/index.js`.
_AFTER = re.compile(
    r"(?:-->\s+|Require stack:\s*\n-\s+|imported from\s+)(?P<f>[^\s:'\"]+\.(?:rs|[cm]?[jt]sx?))"
)


def _failing_file(log: str, start: int, end: int) -> str | None:
    """The source file the failure points at: the location printed just after the message
    (rustc, Node), else the innermost traceback frame before it (Python)."""
    after = _AFTER.search(log, end, end + 400)
    if after:
        return after.group("f")
    frames = list(_FRAME.finditer(log, max(0, start - 4000), start))
    return (frames[-1].group("a") or frames[-1].group("b")) if frames else None


def diagnose(log: str, language: str) -> list[Action]:
    """Repair actions named by a failed run's log, most specific first, deduplicated."""
    actions: list[Action] = []
    seen: set[tuple[str, str | None]] = set()
    for pat in patterns():
        if pat["language"] != language:
            continue
        for m in re.finditer(pat["regex"], log):
            groups = m.groupdict()
            name = pat.get("package") or groups.get("name") or groups.get("derive")
            key = (pat["action"], name)
            if key in seen:
                continue
            seen.add(key)
            line = log[
                log.rfind("\n", 0, m.start()) + 1 : log.find("\n", m.end())
                if "\n" in log[m.end() :]
                else None
            ]
            where = _failing_file(log, m.start(), m.end())
            actions.append(
                Action(
                    pat["action"],
                    name,
                    pat["why"],
                    line.strip()[:300],
                    where,
                    pat.get("direction", "auto"),
                    groups.get("installed"),
                )
            )
    if any(a.kind != "stop" for a in actions):
        actions = [a for a in actions if a.kind != "stop"]
    return actions


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
    """Map what the log names through the language's own mapping stage (`mapper`)."""
    modules = [a for a in actions if a.kind == "module"]
    cands = _map_modules(project, language, modules, ctx, mapper)
    eco = LANGUAGE_ECOSYSTEM[language]
    owner = next((m.path for m in project.manifests_of(eco) if not m.parse_error), None)
    for a in actions:
        if a.kind == "package" and a.name and owner:
            cands.append(
                Candidate(
                    eco,
                    a.name,
                    owner,
                    section=Section.DEV,
                    evidence=[Evidence("repair", detail=a.line)],
                )
            )
    out = []
    for c in cands:
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
        key = _release_key(installed) if installed else None
        if key is None:
            continue
        when = parse_as_of(as_of, None) if as_of else None
        releases = []
        for info in ctx.registries.versions(eco, name):
            k = _release_key(info.version)
            if k is None or info.prerelease or info.yanked:
                continue
            if when and info.published and info.published > when:
                continue
            releases.append((k, info.version))
        newer = sorted(r for r in releases if r[0] > key)
        older = [r for r in releases if r[0] < key]
        # the majors before the installed one (0.x: the minors before it)
        cap = "<" + (f"0.{key[1]}" if key[0] == 0 and len(key) > 1 else str(key[0]))
        if a.direction != "down" and newer:
            spec, how = ">=" + newer[0][1], f"newer than {installed}"
        elif older or not releases:
            spec, how = cap, f"older than {installed}"
        else:
            continue
        moves[_norm(name)] = (spec, f"{a.line} — {name} {installed} lacks it: {how} ({spec})")
    return moves


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
        for number in range(1, request.max_rounds + 2):
            if not _round(loop, number, out, ctx):
                break
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
    project = scan(scratch)
    as_of = request.as_of
    if as_of is None:
        last_commit = (user_project or scan(root)).last_commit_date
        when = parse_as_of(ctx.options.as_of, last_commit)
        as_of = when.isoformat().replace("+00:00", "Z") if when else None
    result = steps.infer(scratch, ctx.options, ctx=ctx, project=project)
    pristine = {e.path: e.old_text for e in result.edits}
    steps.write_edits(scratch, result.edits, ctx)
    return _Loop(request, steps, scratch, project, result, pristine, as_of, started)


def _round(loop: _Loop, number: int, out: VerifyResult, ctx: Context) -> bool:
    """One test run and the repair it names; False when the loop stops (and says why)."""
    request = loop.request
    t0 = time.monotonic()
    run = _test_run(loop, number)
    rnd = Round(number, run.status, seconds=time.monotonic() - t0)
    out.rounds.append(rnd)
    out.final = run
    stop = _stop_before_repair(loop, run, number)
    if stop is None:
        rnd.actions = diagnose(run.log, request.language)
        stop = _stop_for_actions(rnd.actions)
    if stop is None:
        stop = _repair(loop, rnd, run, ctx)
    if stop is not None:
        out.stopped_because = stop
        return False
    _write_again(loop, ctx)
    return True


def _test_run(loop: _Loop, number: int) -> RunResult:
    """Round 1 reuses the caller's run when there is one; every other round runs the tests."""
    request = loop.request
    if number == 1 and request.first_run is not None:
        return request.first_run
    return run_tests(
        loop.scratch,
        request.language,
        request.test_cmd,
        log_path=(request.log_dir / f"round{number}.log") if request.log_dir else None,
        as_of=loop.as_of,
        runtime=loop.runtime,
        step_timeout=request.step_timeout,
    )


def _stop_before_repair(loop: _Loop, run: RunResult, number: int) -> str | None:
    """Why the loop ends before reading the log: the tests pass, or no round or time is left."""
    if run.passed:
        return "tests pass"
    if number > loop.request.max_rounds:
        return f"round limit ({loop.request.max_rounds}) reached"
    if time.monotonic() - loop.started > loop.request.time_budget:
        return "time budget used up"
    return None


def _stop_for_actions(actions: list[Action]) -> str | None:
    """Why the loop ends after reading the log: it names nothing a dependency could fix."""
    if not actions:
        return "the failure names no dependency problem"
    if all(a.kind == "stop" for a in actions):
        return "not a dependency problem: " + actions[0].why
    return None


def _repair(loop: _Loop, rnd: Round, run: RunResult, ctx: Context) -> str | None:
    """Add what the round's actions name (new candidates, an older runtime, moved bounds) to
    the loop; the reason to stop when none of it is new."""
    language, project = loop.request.language, loop.project
    mapper = loop.steps.stage("mapping", language)
    new = _new_candidates(project, language, rnd.actions, ctx, mapper)
    # new: not written (a candidate inference kept out, e.g. optional or with no
    # section to hold it, counts as new: the run shows it is needed) nor added before
    have = {(r.manifest, _norm(r.name)) for r in loop.result.requirements if not r.optional}
    have |= {(c.manifest, _norm(c.name)) for c in loop.repaired}
    new = [c for c in new if (c.manifest, _norm(c.name)) not in have]
    older = _older_runtime(loop.scratch, language, loop.request.test_cmd, rnd.actions, loop.runtime)
    if older:
        loop.runtime = older
        rnd.added.append(f"python {older}")
    moved = _version_moves(
        project, language, rnd.actions, run.log, loop.scratch, loop.result.requirements, ctx,
        loop.as_of, mapper,
    )  # fmt: skip
    moves = {
        name: move for name, move in moved.items() if loop.bounds.get(name, ("",))[0] != move[0]
    }
    if not new and not moves and not older:
        return "nothing new to add for: " + ", ".join(f"{a.kind} {a.name}" for a in rnd.actions)
    rnd.added += [c.name for c in new] + [f"{n}{spec}" for n, (spec, _) in moves.items()]
    loop.repaired.extend(new)
    loop.bounds.update(moves)
    return None


def _write_again(loop: _Loop, ctx: Context) -> None:
    """Restore the pristine manifests, then resolve and write everything again."""
    language, project, steps, result = loop.request.language, loop.project, loop.steps, loop.result
    for path, text in loop.pristine.items():
        (loop.scratch / path).write_text(text, encoding="utf-8", newline="")
    resolver = steps.stage("resolvers", language)
    _, cands, _ = steps.run_language(project, language, ctx)
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
    for req in reqs:
        move = loop.bounds.get(_norm(req.name))
        if move:
            req.spec = move[0]
            req.evidence.append(Evidence("repair", detail=move[1]))
    others = [r for r in result.requirements if LANGUAGE_ECOSYSTEM[language] != r.ecosystem]
    result.requirements = others + reqs
    result.candidates = cands + loop.repaired
    result.edits = steps.plan_edits(project, result.requirements, ctx)
    loop.pristine.update({e.path: e.old_text for e in result.edits if e.path not in loop.pristine})
    steps.write_edits(loop.scratch, result.edits, ctx)
