"""Check mode: compare what the code needs with what the manifests declare (pre-commit).

Findings are data with stable codes (deptry-style); text and JSON are thin reporters:
  DEP001 missing    imported, declared nowhere in the manifest(s) that own the file
  DEP002 unused     declared as a runtime dependency, never used (exemptions: data table)
  DEP003 misplaced  declared as a runtime dependency, used only by tests/tooling
  DEP004 dev-only   used by shipped code, declared only in a dev/test group
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import re
import sys
from dataclasses import asdict, dataclass
from functools import lru_cache
from pathlib import PurePosixPath

from depinfer.context import Options
from depinfer.data import load_table
from depinfer.model import Candidate, Ecosystem, FileKind, Manifest, Project, Section
from depinfer.pipeline import infer, make_context
from depinfer.registries.names import comparable
from depinfer.scan import classify, scan

MESSAGES = {
    "DEP001": "'{name}' is imported but not declared in {manifest}",
    "DEP002": "'{name}' is declared in {manifest} but never used",
    "DEP003": "'{name}' is used only by tests or tooling but declared as a runtime dependency",
    "DEP004": "'{name}' is used by shipped code but declared only as a dev dependency in {manifest}",
}

# Manifest keys (the readers' shared vocabulary) that make a package available at run time.
RUNTIME_KEYS = {
    Ecosystem.PYPI: ("dependencies",),
    Ecosystem.NPM: ("dependencies", "peerDependencies", "optionalDependencies"),
    Ecosystem.CRATES: ("dependencies", "build-dependencies", "workspace.dependencies"),
    Ecosystem.NUGET: ("PackageReference", "PackageVersion"),
}
# Keys that only name other keys' packages (Poetry extras lists) or build tooling.
NOT_DEPENDENCY_KEYS = ("extras.", "build-system.")


@dataclass
class Finding:
    code: str
    name: str
    manifest: str
    file: str
    line: int
    message: str


def normalise(ecosystem: Ecosystem, name: str) -> str:
    return comparable(ecosystem.value, name)


def _is_runtime_key(ecosystem: Ecosystem, key: str, manifest: Manifest | None = None) -> bool:
    if (
        manifest is not None
        and manifest.format == "requirements"
        and not _runtime_requirements(manifest)
    ):
        return False
    if ecosystem == Ecosystem.CRATES and key.startswith("target."):
        return not key.endswith("dev-dependencies")
    return key in RUNTIME_KEYS[ecosystem]


_DEV_WORDS = re.compile(
    r"(^|[-_./])(dev|devel|test|tests|testing|docs?|lint|ci|tox|typing|bench)([-_.]|$)", re.I
)


def _runtime_requirements(manifest: Manifest) -> bool:
    """requirements-dev.txt, docs/requirements.txt, requirements/test.txt … are tooling."""
    return classify(manifest.path) == FileKind.SOURCE and not _DEV_WORDS.search(manifest.path)


def _uses_that_count(uses: list[Candidate], has_dev_group: bool) -> list[Candidate]:
    """Imports the manifests are expected to cover: shipped code always; tests only when the
    project keeps a test/dev group (else they live in tox/nox/CI config); never build
    scripts, examples, docs or tooling scripts."""
    out = []
    for u in uses:
        if u.section == Section.BUILD:
            continue
        if u.section == Section.DEV:
            files = [e.file for e in u.evidence if e.file]
            if not has_dev_group or not files or any(classify(f) != FileKind.TEST for f in files):
                continue
        out.append(u)
    return out


@lru_cache(maxsize=1)
def _exemptions() -> dict[str, list[str]]:
    data = load_table("common/unused_exceptions.toml")
    return {eco: [e["glob"] for e in entries] for eco, entries in data.items()}


def _exempt(ecosystem: Ecosystem, name: str) -> bool:
    return any(fnmatch.fnmatch(name, g) for g in _exemptions().get(ecosystem.value, []))


def _scope(project: Project, manifest: Manifest) -> list[Manifest]:
    """Manifests whose declarations satisfy imports owned by `manifest`: same ecosystem,
    in its directory or an ancestor (a root dev-requirements file covers a subpackage)."""
    here = PurePosixPath(manifest.directory)
    out = []
    for m in project.manifests_of(manifest.ecosystem):
        d = PurePosixPath(m.directory)
        if m.directory == manifest.directory or str(d) in ("", ".") or d in here.parents:
            out.append(m)
    return out


def _line_of(project: Project, manifest: str, name: str) -> int:
    try:
        lines = (
            project.abspath(manifest).read_text(encoding="utf-8-sig", errors="replace").splitlines()
        )
    except OSError:
        return 1
    low = name.lower()
    for i, line in enumerate(lines, 1):
        if low in line.lower():
            return i
    return 1


def find_problems(project: Project, candidates: list[Candidate]) -> list[Finding]:
    findings: list[Finding] = []
    manifests = {m.path: m for m in project.manifests}
    for mpath, names in _uses_by_manifest(project, candidates).items():
        runtime, dev, has_dev_group = _declared_where(project, manifests[mpath])
        for norm, all_uses in sorted(names.items()):
            # a runtime declaration used only by tests is misplaced whatever groups exist
            uses = all_uses if norm in runtime else _uses_that_count(all_uses, has_dev_group)
            finding = _use_finding(project, mpath, norm, uses, runtime, dev) if uses else None
            if finding is not None:
                findings.append(finding)
    findings.extend(_unused(project, candidates))
    return findings


def _uses_by_manifest(
    project: Project, candidates: list[Candidate]
) -> dict[str, dict[str, list[Candidate]]]:
    """manifest → normalised name → the candidates that use it (internal ones left out)."""
    manifests = {m.path for m in project.manifests}
    used: dict[str, dict[str, list[Candidate]]] = {}
    for c in candidates:
        if c.internal or c.manifest not in manifests:
            continue
        used.setdefault(c.manifest, {}).setdefault(normalise(c.ecosystem, c.name), []).append(c)
    return used


def _declared_where(
    project: Project, manifest: Manifest
) -> tuple[dict[str, str], dict[str, str], bool]:
    """The names a manifest (and its scope) declares at runtime and for development, each
    with the manifest that declares it, and whether it has a development group at all."""
    eco = manifest.ecosystem
    runtime: dict[str, str] = {}
    dev: dict[str, str] = {}
    for m in _scope(project, manifest):
        for key, declared in m.declared.items():
            if key.startswith(NOT_DEPENDENCY_KEYS):
                continue
            target = runtime if _is_runtime_key(eco, key, m) else dev
            for n in declared:
                target.setdefault(normalise(eco, n), m.path)
    has_dev_group = bool(dev) or any(
        not _is_runtime_key(eco, k, m) and not k.startswith(NOT_DEPENDENCY_KEYS)
        for m in _scope(project, manifest)
        for k in m.declared
    )
    return runtime, dev, has_dev_group


def _use_finding(
    project: Project,
    mpath: str,
    norm: str,
    uses: list[Candidate],
    runtime: dict[str, str],
    dev: dict[str, str],
) -> Finding | None:
    """What is wrong with how one used name is declared: misplaced as runtime (DEP003) or as
    development (DEP004), or not declared (DEP001); None when nothing is."""
    first = uses[0]
    ev = next((e for e in first.evidence if e.file), None)
    file, line = (ev.file, ev.line or 1) if ev else (mpath, 1)
    needs_runtime = any(
        u.section in (Section.RUNTIME, Section.PEER) and not u.optional for u in uses
    )
    if norm in runtime:
        if needs_runtime or norm in dev or not all(u.section == Section.DEV for u in uses):
            return None
        mf = runtime[norm]
        message = MESSAGES["DEP003"].format(name=first.name)
        return Finding("DEP003", first.name, mf, mf, _line_of(project, mf, first.name), message)
    if norm in dev:
        if not needs_runtime:
            return None
        message = MESSAGES["DEP004"].format(name=first.name, manifest=dev[norm])
        return Finding("DEP004", first.name, dev[norm], file, line, message)
    if all(u.optional for u in uses):
        return None  # guarded imports (try/except ImportError) may stay undeclared
    message = MESSAGES["DEP001"].format(name=first.name, manifest=mpath)
    return Finding("DEP001", first.name, mpath, file, line, message)


def _unused(project: Project, candidates: list[Candidate]) -> list[Finding]:
    """Runtime declarations no code uses (DEP002), unless exempt."""
    findings: list[Finding] = []
    all_used = {(c.ecosystem, normalise(c.ecosystem, c.name)) for c in candidates}
    for m in project.manifests:
        if m.parse_error:
            continue
        for key, declared in m.declared.items():
            if not _is_runtime_key(m.ecosystem, key, m) or key == "workspace.dependencies":
                continue
            for name in declared:
                norm = normalise(m.ecosystem, name)
                if (m.ecosystem, norm) in all_used or _exempt(m.ecosystem, norm):
                    continue
                message = MESSAGES["DEP002"].format(name=name, manifest=m.path)
                findings.append(
                    Finding(
                        "DEP002", name, m.path, m.path, _line_of(project, m.path, name), message
                    )
                )
    return findings


def run_check(path: str, online: bool = False, languages: tuple[str, ...] = ()):

    options = Options(offline=not online, keep_unverified=True, versions=False, languages=languages)
    project = scan(path)
    ctx = make_context(options)
    result = infer(path, options, ctx=ctx, project=project, edits=False)
    findings = [
        f
        for f in find_problems(project, result.candidates)
        if not ctx.config.ignored(f.code, f.name)
    ]
    return result, findings


def main(args: argparse.Namespace) -> int:
    try:
        result, findings = run_check(
            args.path, online=args.online, languages=tuple(args.lang or ())
        )
    except (FileNotFoundError, NotADirectoryError, PermissionError) as exc:
        print(f"depinfer: {exc}", file=sys.stderr)
        return 2
    errors = [d for d in result.diagnostics if d.level == "error"]
    if args.format == "json" or args.json:
        json.dump(
            {"findings": [asdict(f) for f in findings], "errors": [str(d) for d in errors]},
            sys.stdout,
            indent=2,
        )
        sys.stdout.write("\n")
    else:
        for f in sorted(findings, key=lambda f: (f.file, f.line, f.code)):
            print(f"{f.file}:{f.line}: {f.code} {f.message}")
        if not args.quiet:
            for d in errors:
                print(f"depinfer: error: {d}", file=sys.stderr)
    if errors:
        return 2
    return 1 if findings else 0
