"""The resolve gate for Python manifests: what is written installs.

Before the pipeline writes, the set the project's test job installs — each folder's runtime
requirements plus the extras and groups the CI installs (those named like test/dev groups,
and those the CI's own install lines name), what the manifests declare there already
included — is resolved with `uv pip compile` for the project's oldest Python, on Linux, as
of the `--as-of` date (`--exclude-newer`); then for the newest Python its CI, classifiers
or `.python-version` name, when that is newer (runtime.tested_python): the test job runs
there, and a set can resolve on one and not the other (a pinned line with builds for the
older Python only). uv reads the user's own index configuration; an
endpoint injected into depinfer (tests, benchmark mirrors) is passed on as for the other
uv runs. Nothing is installed and nothing is built into the tree.

On a conflict the gate changes one entry it was going to write, and resolves again
(bounded rounds); each change is a warning and evidence for `--explain`. In order:

1. a package that has no file for Linux (uv: "has no wheels with a matching platform
   tag", every wheel is for one platform and no source distribution exists) gets the
   marker of the platform it resolves for alone (`sys_platform == "win32"`, "darwin");
2. a package no release of which installs on the oldest Python the project admits (uv:
   "all versions of x depend on Python>=3.10") gets the marker of the oldest Python named
   in uv's explanation that it installs on (`python_version >= "3.10"`): the code imports
   it, so the project runs on those, whatever its requires-python says;
3. an upper bound of a conflicting entry is dropped — a pin kept from elsewhere in the
   repository first (an old pin beside a newer line of a library that needs newer);
4. a conflicting entry's lower bound is dropped (the resolver may take the older line the
   other side requires; the line it takes is then written) — an entry whose line another
   package's requirement names first (`botocore depends on python-dateutil<3`), not the
   depender, which would send the resolver back through its oldest releases;
5. the least-evidenced conflicting entry is dropped (a dev entry before a runtime one,
   fewer import sites, lower confidence, then by name).

Entries the manifests already declare are never changed. When the set still does not
resolve, and what the manifests declare resolves on its own, nothing of that folder is
written (an error says why). A name of ours that the index serves nothing for (uv: "was
not found in the package registry", though the registry's metadata knows the name) is
dropped with a warning. Any other failure that is no conflict (the index cannot be
reached, a source build that fails, a name the manifests declare themselves) leaves the set
as inferred, with a warning: the gate cannot judge it. Without uv, or offline, the gate is skipped
with a message saying so; it never runs for `--check` or `--names-only`.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import PurePosixPath

from packaging.requirements import InvalidRequirement
from packaging.requirements import Requirement as Pep508
from packaging.utils import canonicalize_name
from packaging.version import InvalidVersion, Version

from depinfer.context import Context
from depinfer.mapping.python import target_python
from depinfer.mapping.python_manifests import DEV_GROUPS, TEST_GROUPS
from depinfer.model import Ecosystem, Evidence, FileKind, Project, Requirement, Section
from depinfer.resolvers.python_versions import (
    PINNED,
    find_uv,
    index_args,
    kept_uv_compile,
    spec_for,
    uv_answer_kept,
    uv_compile,
)
from depinfer.runtime import tested_python
from depinfer.scan import classify
from depinfer.versions import parse_as_of

MAX_ROUNDS = 8  # resolves per folder at most (the first one included)
# `uv pip compile --python-version` refuses older ones ("Python <3.6 is not supported")
UV_OLDEST = (3, 6)
# the platform the test job runs on (uv's --python-platform): x86-64 Linux with the glibc
# of the oldest Ubuntu image GitHub still hosts (22.04: glibc 2.35). uv's plain `linux`
# stands for manylinux_2_28 and refuses wheels built for newer glibc (pyopenms 3.4 ships
# only manylinux_2_34 ones), which the gate then took for a Windows-only package
PLATFORM = "x86_64-manylinux_2_35"
# ... and what a uv too old to name that target is asked for instead (its plain Linux)
OLD_UV_PLATFORM = "linux"
_REFUSED: set[str] = set()  # platform names this process's uv refused as an argument
# what else a package may need: the platform it resolves for alone → its marker
OTHER_PLATFORMS = (("windows", 'sys_platform == "win32"'), ("macos", 'sys_platform == "darwin"'))
_GROUP_HEADS = ("optional-dependencies.", "dependency-groups.", "group.", "extras.")
# requirements files the CI-style install leaves out (docs, lint, typing, release tooling)
_NOT_TEST_FILES = re.compile(r"doc|lint|typ|mypy|release|publish|build")
# examples, docs and benchmarks are little projects of their own that the test job does not
# install (an example app pinning an old Werkzeug): not part of the set
_OWN_PROJECTS = {FileKind.EXAMPLE, FileKind.DOCS, FileKind.BENCH}
# the entry's own lower line is what fails (no file for this Python, or the Python range it
# admits): dropping its upper bound cannot help, its lower bound goes first
_UNUSABLE = re.compile(
    r"([A-Za-z0-9][A-Za-z0-9._-]*)(?:[<>=!~]=?[0-9][^\s,]*)? (?:has no wheels with a matching "
    r"Python|cannot be used)"
)
# uv: "Because x was not found in the package registry and you require x"
_NOT_SERVED = re.compile(r"\b([A-Za-z0-9][A-Za-z0-9._-]*) was not found in the package registry")
# a Python bound in uv's explanation ("depend on Python>=3.10", "requires Python >=3.12")
_PYTHON_BOUND = re.compile(r"Python\s*>=\s*([0-9]+\.[0-9]+)")
# uv: "x==1.2 depends on y>=2.1,<3.0.0": y's line is one another package requires
_REQUIRED_LINE = re.compile(
    r"depends? on ([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[[^\]]*\])?\s*(?:[<>=!~]=?|,)"
)
_NO_PLATFORM_FILE = re.compile(
    r"([A-Za-z0-9][A-Za-z0-9._-]*)(?:==\S+)? has no wheels with a matching platform tag"
)


@dataclass(eq=False)  # compared by identity: one entry per line of the set
class _Entry:
    """One line of the set to resolve: ours (a requirement about to be written) or the
    manifest's own (declared already, never changed)."""

    name: str  # canonical
    req: Requirement | None
    line: str = ""  # the manifest's own entry as written (req None)
    relaxed: list[str] = field(default_factory=list)

    def text(self) -> str:
        if self.req is None:
            return self.line
        r = self.req
        extras = f"[{','.join(r.features)}]" if r.features else ""
        return r.name + extras + r.spec + (f"; {r.markers}" if r.markers else "")


@dataclass(frozen=True)
class _Run:
    """What one folder's resolves share."""

    ctx: Context
    python: str | None
    as_of: datetime | None
    args: list[str]
    # the folders whose set uv did not answer for (a timeout): not asked again for another
    # Python (the same set would cost the same wait; replace() shares this set)
    unanswered: set[str] = field(default_factory=set)

    def compile(
        self, entries: list[_Entry], platform: str | None = None, offline: bool = False
    ) -> tuple[bool, str, str]:
        platform = _platform(platform)
        text, args = self._question(entries, platform)
        answer = kept_uv_compile(
            self.ctx, text, self.python, self.as_of, uv_args=args, run=uv_compile, offline=offline
        )
        refused = not answer[0] and f"invalid value '{platform}'" in answer[2]
        if refused and platform != OLD_UV_PLATFORM:
            _REFUSED.add(platform)  # an older uv: ask as it can be asked
            return self.compile(entries, OLD_UV_PLATFORM, offline)
        return answer

    def kept(self, entries: list[_Entry]) -> bool:
        """The index's answer for this set is kept already (asking the cache is moot)."""
        text, args = self._question(entries, _platform())
        return uv_answer_kept(self.ctx, text, self.python, self.as_of, args)

    def _question(self, entries: list[_Entry], platform: str) -> tuple[str, list[str]]:
        """The requirements text and uv arguments that ask about `entries`."""
        text = "".join(e.text() + "\n" for e in entries)
        return text, [*self.args, "--python-platform", platform]


def _platform(asked: str | None = None) -> str:
    """The platform to ask uv for: `asked` (default PLATFORM), or uv's plain Linux when
    this process's uv refused that name."""
    platform = asked or PLATFORM
    return OLD_UV_PLATFORM if platform in _REFUSED else platform


def gate(
    project: Project,
    requirements: list[Requirement],
    ctx: Context,
    installs: Collection[str] = (),
) -> list[Requirement]:
    """`requirements` as the gate lets them be written (relaxed, marked, or without what
    had to go). `installs`: the extras and groups the CI's test job names."""
    ours = [r for r in requirements if r.ecosystem == Ecosystem.PYPI and not r.internal]
    if not ours or not ctx.options.versions:
        return requirements
    if ctx.options.offline:
        ctx.info("resolve gate skipped (offline): the written set was not resolved")
        return requirements
    if find_uv() is None:
        ctx.warn(
            "resolve gate skipped: uv is not installed (install uv to check that the written "
            "requirements resolve together)"
        )
        return requirements
    try:
        as_of = parse_as_of(ctx.options.as_of, project.last_commit_date)
    except ValueError:
        return requirements  # reported by the version stage
    run = _Run(ctx, _supported(target_python(project, ctx)), as_of, index_args(ctx))
    tested = tested_python(project)
    if tested and (_version_tuple(tested) or ()) <= (_version_tuple(run.python) or ()):
        tested = None  # the oldest is the one tested on
    dropped: set[int] = set()
    for folder, entries in sorted(_units(project, ours, installs).items()):
        dropped |= _gate_folder(run, folder, entries)
        left = [e for e in entries if e.req is None or id(e.req) not in dropped]
        if tested and any(e.req is not None for e in left):
            dropped |= _gate_tested(run, tested, folder, left)
    return [r for r in requirements if id(r) not in dropped]


def _supported(python: str | None) -> str | None:
    """The oldest Python uv resolves for, when the project's oldest is older (a project
    admitting 2.7 and 3.x is resolved for the first 3.x uv knows)."""
    version = _version_tuple(python)
    if version is None or len(version) < 2:
        return python
    return python if version >= UV_OLDEST else ".".join(map(str, UV_OLDEST))


def _installed_by_tests(key: tuple[str, Section, str | None], installs: Collection[str]) -> bool:
    """Whether the test job installs this section: runtime always; a group or extra named
    like a test/dev group or named by the CI; a requirements file not for docs/lint/release."""
    path, section, group = key
    if section == Section.RUNTIME:
        return not (path.endswith(".txt") and _NOT_TEST_FILES.search(path.lower()))
    if section not in (Section.DEV, Section.OPTIONAL):
        return False
    if group is None:
        return path.endswith((".txt", ".in")) and not _NOT_TEST_FILES.search(path.lower())
    name = group
    for head in _GROUP_HEADS:
        if group.startswith(head):
            name = group[len(head) :]
    if group == "dev-dependencies":
        name = "dev"
    return name.lower() in (*TEST_GROUPS, *DEV_GROUPS) or name in installs


def _units(
    project: Project, ours: list[Requirement], installs: Collection[str]
) -> dict[str, list[_Entry]]:
    """Folder → the entries its test job installs: ours and what the manifests there
    declare in the same sections (as written, without version when only names are known)."""
    units: dict[str, list[_Entry]] = {}
    names: dict[str, set[str]] = {}
    declared = {
        m.path: {_declared_name(line) for lines in m.declared.values() for line in lines}
        for m in project.manifests_of(Ecosystem.PYPI)
    }
    for r in ours:
        if classify(r.manifest) in _OWN_PROJECTS or not _installed_by_tests(
            (r.manifest, r.section, r.group), installs
        ):
            continue
        if canonicalize_name(r.name) in declared.get(r.manifest, ()):
            continue  # kept as the manifest writes it: its own line is what resolves
        folder = PurePosixPath(r.manifest).parent.as_posix()
        units.setdefault(folder, []).append(_Entry(canonicalize_name(r.name), r))
        names.setdefault(folder, set()).add(canonicalize_name(r.name))
    for m in project.manifests_of(Ecosystem.PYPI):
        folder = PurePosixPath(m.path).parent.as_posix()
        if folder not in units or m.parse_error:
            continue
        for key, declared in m.declared.items():
            section = Section.RUNTIME if key == "dependencies" else Section.DEV
            group = None if key == "dependencies" else key
            if not _installed_by_tests((m.path, section, group), installs):
                continue
            for line in declared:
                entry = _declared_entry(line)
                if entry is not None and entry.name not in names[folder]:
                    names[folder].add(entry.name)
                    units[folder].append(entry)
    return units


def _declared_name(line: str) -> str:
    entry = _declared_entry(line)
    return entry.name if entry is not None else ""


def _declared_entry(line: str) -> _Entry | None:
    try:
        parsed = Pep508(line.strip())
    except InvalidRequirement:
        return None
    if (
        parsed.url or canonicalize_name(parsed.name) == "python"
    ):  # package literal: Poetry's own entry
        return None  # a direct reference: installed from where it points, nothing to choose
    return _Entry(canonicalize_name(parsed.name), None, line=str(parsed))


def _gate_folder(run: _Run, folder: str, entries: list[_Entry]) -> set[int]:
    """Resolve one folder's set, changing our entries until it resolves; the ids of the
    requirements that must not be written."""
    where = folder if folder != "." else "the project"
    dropped: set[int] = set()
    live = list(entries)
    if _resolves_from_cache(run, live):
        return dropped
    state, err = _rounds(run, where, live, dropped, RELAX_STEPS)
    if state is not False:
        return dropped
    own = [e for e in entries if e.req is None]
    if own and not run.compile(own)[0]:
        run.ctx.warn(
            f"resolve gate: what {where} declares already does not resolve; written as inferred"
        )
        return dropped
    run.ctx.error(
        f"not written: the requirements inferred for {where} do not resolve together "
        f"for Python {run.python} ({_cause(err)})",
        _manifest_of(entries),
    )
    return {id(e.req) for e in entries if e.req is not None}


def _gate_tested(run: _Run, python: str, folder: str, entries: list[_Entry]) -> set[int]:
    """The set that resolved for the oldest Python, resolved again for the newer one the
    CI tests on, its bounds relaxed (never an entry dropped: it installs on the oldest)
    until it resolves there too; when it cannot, it is written as it resolved for the
    oldest, each change undone, with a warning. The ids of requirements to leave out
    (what the index serves nothing for, when the set then resolves)."""
    where = folder if folder != "." else "the project"
    if where in run.unanswered:
        run.ctx.info(f"resolve gate: {where} not asked again for Python {python} (no answer)")
        return set()
    newer = replace(run, python=python)
    live = list(entries)
    dropped: set[int] = set()
    if _resolves_from_cache(newer, live):
        return dropped
    ours = [e for e in entries if e.req is not None]
    saved = [(e.req.spec, e.req.markers, list(e.req.evidence), list(e.relaxed)) for e in ours]
    said = len(run.ctx.diagnostics)
    state, err = _rounds(newer, where, live, dropped, TESTED_STEPS)
    if state is None:  # uv could not judge (a warning says so): as resolved for the oldest
        _restore(ours, saved)
        return set()
    if state:
        changed = any(
            (e.req.spec, e.req.markers) != (spec, markers)
            for e, (spec, markers, _, _) in zip(ours, saved, strict=True)
        )
        # the line taken there may need a newer Python than the oldest (numpy 1.26, 3.9+)
        if not changed or run.compile(live)[0]:
            return dropped
        err = "the line it resolves to there does not install on the oldest"
    _restore(ours, saved)
    del run.ctx.diagnostics[said:]
    run.ctx.warn(
        f"resolve gate: the requirements inferred for {where} resolve for Python {run.python} "
        f"but not for Python {python}, which its CI tests on ({_cause(err)})",
        _manifest_of(entries),
    )
    return set()


def _restore(ours: list[_Entry], saved: list[tuple]) -> None:
    """Undo what a resolve for the tested Python changed in our entries."""
    for e, (spec, markers, evidence, relaxed) in zip(ours, saved, strict=True):
        e.req.spec, e.req.markers, e.req.evidence, e.relaxed = spec, markers, evidence, relaxed


def _resolves_from_cache(run: _Run, live: list[_Entry]) -> bool:
    """Most sets resolve as chosen: uv's cache usually proves it without asking the index
    again (revalidating every page is most of a cold run's resolve time). Nothing is
    relaxed yet, so the resolver's own pins are not needed. (A warm run whose index answer
    is kept starts no uv: a failed cache answer is not kept.)"""
    if run.kept(live):
        return False
    ok, out, _ = run.compile(live, offline=True)
    return bool(ok and out)  # a resolve (an empty answer is uv not answering)


def _rounds(
    run: _Run, where: str, live: list[_Entry], dropped: set[int], steps: tuple
) -> tuple[bool | None, str]:
    """Resolve `live`, changing one of our entries per round by the first of `steps` that
    changes something (dropped ones leave `live` and join `dropped`): True when it
    resolves, None when uv could not judge it (a warning says why), False when nothing is
    left to change; and uv's last explanation."""
    err = ""
    for round_no in range(MAX_ROUNDS):
        ok, out, err = run.compile(live)
        if ok and not out and "skipped" in err:  # uv did not answer (timeout, cannot start)
            run.ctx.warn(f"resolve gate could not judge {where}: {err}")
            run.unanswered.add(where)
            return None, err
        if ok:
            _write_lines(run, live, dict(PINNED.findall(out)))
            return True, err
        unserved = _drop_unserved(run, live, err)
        if unserved:
            dropped.update(id(x.req) for x in unserved)
            continue
        if "No solution found" not in err or "not found in the" in err:
            last = err.splitlines()[-1] if err else "no output"
            run.ctx.warn(f"resolve gate could not judge {where}: {last}")
            return None, err
        changed = _relax(run, live, err, steps) if round_no < MAX_ROUNDS - 1 else []
        if not changed:
            break
        dropped.update(id(x.req) for x in changed if x not in live)
    return False, err


def _manifest_of(entries: list[_Entry]) -> str | None:
    return next((e.req.manifest for e in entries if e.req is not None), None)


def _cause(err: str) -> str:
    lines = [ln.strip() for ln in err.splitlines() if ln.strip().startswith(("cause:", "Because"))]
    text = lines[0] if lines else (err.splitlines()[-1] if err else "conflict")
    return text.removeprefix("cause:").strip()


def _mentioned(entries: list[_Entry], err: str) -> list[_Entry]:
    """Our entries the resolver's explanation names (all of ours when it names none)."""
    return _named(entries, err) or [e for e in entries if e.req is not None]


def _named(entries: list[_Entry], err: str) -> list[_Entry]:
    """Our entries the resolver's explanation names."""
    words = {canonicalize_name(w) for w in re.findall(r"[A-Za-z0-9][A-Za-z0-9._-]*", err)}
    return [e for e in entries if e.req is not None and e.name in words]


def _relax(run: _Run, live: list[_Entry], err: str, steps: tuple) -> list[_Entry]:
    """One change to our entries of one name that may make the set resolve (`steps`, in
    that order; module docstring): the entries changed (removed from `live` when dropped),
    empty when nothing is left to change."""
    for step in steps:
        changed = step(run, live, err)
        if changed:
            return changed
    return []


def _same(live: list[_Entry], e: _Entry) -> list[_Entry]:
    """`e` and our other entries of its name (one package in two manifests of a folder)."""
    return [x for x in live if x.req is not None and x.name == e.name]


def _mark_platform(run: _Run, live: list[_Entry], err: str) -> list[_Entry]:
    found = {canonicalize_name(n) for n in _NO_PLATFORM_FILE.findall(err)}
    for e in live:
        if e.req is None or e.name not in found or e.req.markers:
            continue
        for platform, marker in OTHER_PLATFORMS:
            if run.compile([e], platform)[0]:
                for x in _same(live, e):
                    x.req.markers = marker
                    _report(
                        run, x, f"{x.req.name} has files for {platform} only: `; {marker}` added"
                    )
                return _same(live, e)
    return []


def _mark_python(run: _Run, live: list[_Entry], err: str) -> list[_Entry]:
    """An entry of which no release installs on the project's oldest Python, its name
    alone included (the code imports it, so the project runs on newer ones whatever its
    requires-python says), gets the marker of the oldest Python it installs on, of those
    uv's explanation names, instead of being dropped for everyone."""
    bounds = sorted({tuple(int(x) for x in v.split(".")) for v in _PYTHON_BOUND.findall(err)})
    oldest = _version_tuple(run.python)
    if not bounds or oldest is None:
        return []
    for e in _named(live, err):
        if e.req.markers:
            continue
        if run.compile([_Entry(e.name, None, line=e.req.name)])[0]:
            continue  # an older line installs there: a bound to relax, not a marker
        for bound in (b for b in bounds if b > oldest):
            python = ".".join(map(str, bound))
            if not replace(run, python=python).compile([e])[0]:
                continue
            marker = f'python_version >= "{python}"'
            for x in _same(live, e):
                x.req.markers = marker
                _report(run, x, f"{x.req.name} needs Python {python} or newer: `; {marker}` added")
            return _same(live, e)
    return []


def _version_tuple(python: str | None) -> tuple[int, ...] | None:
    try:
        return tuple(int(x) for x in (python or "").split(".")[:2])
    except ValueError:
        return None


def _capped(spec: str) -> bool:
    return any(op in spec for op in ("<", "==", "~="))


def _drop_upper(run: _Run, live: list[_Entry], err: str) -> list[_Entry]:
    unusable = {canonicalize_name(n) for n in _UNUSABLE.findall(err)}
    capped = [
        e
        for e in _mentioned(live, err)
        if e.req is not None and _capped(e.req.spec) and e.name not in unusable
    ]
    if not capped:
        return []
    e = min(capped, key=lambda e: (not _pinned_elsewhere(e.req), _weight(e.req), e.name))
    changed = [x for x in _same(live, e) if _capped(x.req.spec)]
    for x in changed:
        before = x.req.spec
        kept = [p for p in before.split(",") if p and not p.startswith(("<", "~=", "=="))]
        x.req.spec = ",".join(kept) or _lower_of(before)
        _report(
            run, x, f"{x.req.name}{before} conflicts: upper bound dropped → {x.req.spec or 'any'}"
        )
        x.relaxed.append("upper")
    return changed


def _drop_lower(run: _Run, live: list[_Entry], err: str) -> list[_Entry]:
    """The lower bound of an entry whose line another package's requirement names (uv:
    "botocore depends on python-dateutil>=2.1,<3.0.0") goes first: the older line that
    side requires is what to take. Dropping the depender's bound instead (boto3) sends the
    resolver back through every older release of it, building source distributions of
    ten-year-old ones for their metadata, to settle on one that predates the requirement."""
    bounded = [e for e in _mentioned(live, err) if e.req is not None and e.req.spec]
    if not bounded:
        return []
    required = {canonicalize_name(n) for n in _REQUIRED_LINE.findall(err)}
    e = min(bounded, key=lambda e: (e.name not in required, _weight(e.req), e.name))
    changed = [x for x in _same(live, e) if x.req.spec]
    for x in changed:
        before = x.req.spec
        x.req.spec = ""
        x.relaxed.append("lower")
        _report(run, x, f"{x.req.name}{before} conflicts: lower bound dropped (the older line)")
    return changed


def _drop_entry(run: _Run, live: list[_Entry], err: str) -> list[_Entry]:
    named = [e for e in _mentioned(live, err) if e.req is not None]
    if not named:
        return []
    e = min(named, key=lambda e: (_weight(e.req), e.name))
    changed = _same(live, e)
    for x in changed:
        live.remove(x)
        run.ctx.warn(
            f"resolve gate: {x.req.name} dropped, the least-evidenced of a conflict "
            f"({_cause(err)})",
            x.req.manifest,
        )
    return changed


def _drop_unserved(run: _Run, live: list[_Entry], err: str) -> list[_Entry]:
    """Our entries of a name the index the installer reads does not serve (a project page
    with no files: the registry knows the name, uv finds nothing to install): dropped, as
    no install of the set could succeed with them."""
    names = {canonicalize_name(n) for n in _NOT_SERVED.findall(err)}
    changed = [e for e in live if e.req is not None and e.name in names]
    for x in changed:
        live.remove(x)
        run.ctx.warn(
            f"resolve gate: {x.req.name} dropped, the package index has nothing to install "
            f"for it ({_cause(err)})",
            x.req.manifest,
        )
        x.req.evidence.append(Evidence("resolve-gate", detail="not served by the index"))
    return changed


def _weight(r: Requirement) -> tuple[int, int, int]:
    """How strongly the requirement is evidenced (lower: dropped or relaxed first): runtime
    over the rest, then import sites, then everything else that speaks for it."""
    sites = sum(1 for ev in r.evidence if ev.file and ev.line)
    return (int(r.section == Section.RUNTIME), sites, len(r.evidence))


def _pinned_elsewhere(r: Requirement) -> bool:
    return any(ev.rule in ("pin-elsewhere", "pinned-elsewhere") for ev in r.evidence)


def _lower_of(spec: str) -> str:
    m = re.search(r"(?:~=|==|>=)\s*([0-9][^,;\s]*)", spec)
    return f">={m.group(1)}" if m else ""


def _report(run: _Run, e: _Entry, what: str) -> None:
    assert e.req is not None
    run.ctx.warn(f"resolve gate: {what}", e.req.manifest)
    e.req.evidence.append(Evidence("resolve-gate", detail=what))


def _write_lines(run: _Run, live: list[_Entry], pins: dict[str, str]) -> None:
    """An entry whose lower bound went gets the line the resolver took (`>=1.4,<2`)."""
    resolved = {canonicalize_name(n): v for n, v in pins.items()}
    for e in live:
        if e.req is None or "lower" not in e.relaxed or e.name not in resolved:
            continue
        try:
            chosen = Version(resolved[e.name])
        except InvalidVersion:
            continue
        e.req.spec = spec_for(chosen, run.as_of is not None, None, None)
        e.req.evidence.append(
            Evidence("resolve-gate", detail=f"{e.req.name} {chosen} resolves with the rest")
        )


# how a conflict is relaxed, in order (module docstring); for the newer Python the CI tests
# on, bounds only: an entry that installs on the oldest is not dropped for everyone
RELAX_STEPS = (_mark_platform, _mark_python, _drop_upper, _drop_lower, _drop_entry)
TESTED_STEPS = (_mark_platform, _drop_upper, _drop_lower)
