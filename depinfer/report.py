"""Reporters: thin views over the same `Inference` record (text, diff, JSON, explain)."""

from __future__ import annotations

import dataclasses
import difflib
import json
import os
import re
from collections import defaultdict
from pathlib import Path

from depinfer.manifests import format_module
from depinfer.manifests.pep508 import requirement_name
from depinfer.model import Ecosystem, Inference, Manifest, ManifestEdit, Requirement, Section
from depinfer.pipeline import write_refusal
from depinfer.rules.python_declare import estimate


def requirement_line(req: Requirement) -> str:
    """One requirement as its ecosystem writes it on a line: `requests>=2.31`,
    `basic-auth@^2.0.1`, `serde 1.0`; never the name and range glued together."""
    text = req.name
    if req.features:
        text += "[" + ",".join(req.features) + "]"
    if req.spec:
        if req.ecosystem == Ecosystem.NPM:
            text += "@" + req.spec
        elif req.ecosystem == Ecosystem.PYPI and not req.spec[0].isalnum():
            text += req.spec  # PEP 508: the operator separates them
        else:
            text += " " + req.spec
    if req.path and req.internal:
        text += f" (path: {req.path})"
    if req.markers:
        text += f"; {req.markers}"
    return text


# What each section is called in each ecosystem's manifests, for display.
SECTION_LABELS = {
    Ecosystem.PYPI: {
        Section.RUNTIME: "dependencies",
        Section.DEV: "dev",
        Section.OPTIONAL: "optional",
        Section.BUILD: "build-system.requires",
    },
    Ecosystem.NPM: {
        Section.RUNTIME: "dependencies",
        Section.DEV: "devDependencies",
        Section.PEER: "peerDependencies",
        Section.OPTIONAL: "optionalDependencies",
    },
    Ecosystem.CRATES: {
        Section.RUNTIME: "dependencies",
        Section.DEV: "dev-dependencies",
        Section.BUILD: "build-dependencies",
        Section.OPTIONAL: "dependencies",
    },
    Ecosystem.NUGET: {Section.RUNTIME: "PackageReference", Section.DEV: "PackageReference"},
}


def _placement(req: Requirement) -> str:
    if req.internal and req.ecosystem == Ecosystem.NUGET:
        return "ProjectReference"
    place = req.group or SECTION_LABELS.get(req.ecosystem, {}).get(req.section, req.section.value)
    if req.optional:
        place += " (optional)"
    return place


ADD, KEEP, NOT_WRITTEN = "to add", "already declared, kept as written", "not written"


def planned_changes(result: Inference) -> dict[str, dict[int, str]]:
    """{manifest: {id(requirement): ADD | KEEP | NOT_WRITTEN}}: what `--write` would do
    with each requirement, read back from the edit itself (the names its new text
    declares that the old one did not), so the preview cannot disagree with `--diff`."""
    by_manifest: dict[str, list[Requirement]] = defaultdict(list)
    for req in result.requirements:
        by_manifest[req.manifest].append(req)
    edits = {e.path: e for e in result.edits}
    manifests = {m.path: m for m in result.project.manifests}
    out: dict[str, dict[int, str]] = {}
    for path, reqs in by_manifest.items():
        edit, manifest = edits.get(path), manifests.get(path)
        if edit is None or manifest is None:
            # left alone (a lock, a computed list): what it declares is still kept
            declared = {
                _norm((requirement_name(n) or "") if manifest.ecosystem == Ecosystem.PYPI else n)
                for names in (manifest.declared if manifest else {}).values()
                for n in names
            }
            out[path] = {id(r): KEEP if _norm(r.name) in declared else NOT_WRITTEN for r in reqs}
            continue
        before = _declared(manifest, edit.old_text)
        added = {name for _, name in _declared(manifest, edit.new_text) - before}
        kept = {name for _, name in before}
        out[path] = {
            id(r): ADD if _norm(r.name) in added else KEEP if _norm(r.name) in kept else NOT_WRITTEN
            for r in reqs
        }
    return out


def _declared(manifest: Manifest, text: str) -> set[tuple[str, str]]:
    """(section, normalised name) of every entry the manifest text declares."""
    try:
        declared, _ = format_module(manifest.format).read(text.lstrip("\ufeff"), manifest.path)
    except Exception:  # ManifestError, or a reader bug: the preview still prints
        return set()
    return {(key, _norm(name)) for key, names in declared.items() for name in names}


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def text_report(result: Inference, verbose: bool = False) -> str:
    """Per manifest and section, what `--write` would add and what is already declared and
    kept; the last line says what `--write` would do, "nothing to change" exactly when
    `--diff` would print nothing."""
    plan = planned_changes(result)
    by_manifest: dict[str, list[Requirement]] = defaultdict(list)
    for req in result.requirements:
        by_manifest[req.manifest].append(req)
    lines: list[str] = []
    edits = {e.path: e for e in result.edits}
    for path in sorted(by_manifest):
        lines.append(path)
        refusal = _refusal(result, edits.get(path))
        if refusal:
            lines.append(f"  (--write will leave this file alone: {refusal})")
        by_place: dict[str, list[Requirement]] = defaultdict(list)
        for req in by_manifest[path]:
            by_place[_placement(req)].append(req)
        for place in sorted(by_place, key=lambda p: (p != "dependencies", p)):
            lines.append(f"  [{place}]")
            for req in sorted(by_place[place], key=lambda r: r.name.lower()):
                lines.append("    " + _preview_line(req, plan[path][id(req)], verbose))
    lines.append(_summary(result, plan))
    return "\n".join(lines) + "\n"


def _refusal(result: Inference, edit: ManifestEdit | None) -> str | None:
    """Why `--write` would not write a changed manifest (read-only, another owner)."""
    if edit is None or not edit.changed:
        return None
    try:
        return write_refusal(Path(os.path.realpath(result.project.root / edit.path)))
    except OSError as exc:
        return exc.strerror or str(exc)


def _preview_line(req: Requirement, status: str, verbose: bool) -> str:
    # an entry already declared keeps the file's own constraint: show the name alone
    shown = requirement_line(req) if status == ADD else req.name
    marks = [status]
    if status == ADD and req.verified is False:
        marks.append("not in registry")
    elif status == ADD and req.verified is None and not req.internal:
        marks.append("unverified")
    where = f"  # {req.evidence[0]}" if verbose and req.evidence else ""
    return f"{shown}  ({'; '.join(marks)}){where}"


def _summary(result: Inference, plan: dict[str, dict[int, str]]) -> str:
    statuses = [s for per in plan.values() for s in per.values()]
    changed = [e.path for e in result.edits if e.changed]
    kept = statuses.count(KEEP)
    if not changed:
        if NOT_WRITTEN in statuses:
            missing = statuses.count(NOT_WRITTEN)
            return f"nothing --write can change; add the {_count(missing, 'dependency', 'dependencies')} marked not written by hand"
        if not kept:
            return "nothing to change (no dependency to add)"
        return f"nothing to change ({_count(kept, 'dependency', 'dependencies')} already declared)"
    adds = statuses.count(ADD)
    if not adds:
        return f"--write would rewrite {_count(len(changed), 'manifest', 'manifests')}"
    return (
        f"--write would add {_count(adds, 'dependency', 'dependencies')} to "
        f"{_count(len(changed), 'manifest', 'manifests')}"
        + (f" ({kept} already declared, kept)" if kept else "")
    )


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def diff_report(result: Inference) -> str:
    out: list[str] = []
    for edit in result.edits:
        if not edit.changed:
            continue
        out.extend(
            difflib.unified_diff(
                edit.old_text.splitlines(keepends=True),
                edit.new_text.splitlines(keepends=True),
                fromfile=f"a/{edit.path}",
                tofile=f"b/{edit.path}",
            )
        )
    text = "".join(out)
    if text and not text.endswith("\n"):
        text += "\n"
    return text


def json_report(result: Inference) -> str:
    return json.dumps(result.to_json(), indent=2, sort_keys=False) + "\n"


def explain_report(result: Inference, name: str) -> str:
    """Every outcome for NAME (a package name, or the name code imports it by), once each:
    written (where, and the strategy that decided it), or not written and why (the
    reason the run recorded: optional, typing-only, provided by another dependency …)."""
    from packaging.utils import canonicalize_name

    want = canonicalize_name(name)

    def hit(pkg: str, imports: list[str]) -> bool:
        return canonicalize_name(pkg) == want or any(canonicalize_name(i) == want for i in imports)

    lines: list[str] = []
    written: set[tuple[str, str]] = set()
    for req in result.requirements:
        if hit(req.name, _imported_as(req.evidence)):
            written.add((canonicalize_name(req.name), req.manifest))
            lines += _explain_written(req)
    unwritten: dict[tuple[str, str], list] = {}
    for c in result.candidates:
        key = (canonicalize_name(c.name), c.manifest)
        if key not in written and hit(c.name, c.import_names + _imported_as(c.evidence)):
            unwritten.setdefault(key, []).append(c)
    for group in unwritten.values():
        lines += _explain_unwritten(group, result)
    if not lines:
        said = _reasons({name}, {d.file for d in result.diagnostics if d.file}, True, result)
        lines.append(
            f"{name}: not written"
            if said
            else f"{name}: not inferred; no code in the repository uses it"
        )
        lines += [f"  because: {r}" for r in said]
    return "\n".join(lines) + "\n"


def _imported_as(evidence: list) -> list[str]:
    """The import names evidence records (`yaml → pyyaml`), so `--explain yaml` finds it."""
    return [ev.detail.split(" → ")[0].strip() for ev in evidence if " → " in ev.detail]


def _explain_written(req: Requirement) -> list[str]:
    lines = [
        f"{req.name}: written to {req.manifest} [{_placement(req)}] as {requirement_line(req)}"
    ]
    uses, decided = _split_evidence(req.evidence)
    lines += [f"  decided by: {d}" for d in decided]
    if req.section != Section.RUNTIME or req.group or req.optional:
        lines.append(f"  placed in {_placement(req)}, not the runtime list")
    lines += uses
    if req.alternatives:
        lines.append("  alternatives considered: " + ", ".join(req.alternatives))
    lines += _declare_lines([req])
    llm = req.llm
    if llm:
        lines.append(
            f"  decided by the LLM arbiter ({llm.model}): {llm.choice} over the "
            f"rule-based {llm.rule_choice}, among {', '.join(llm.alternatives)}"
        )
    if req.internal:
        return lines  # a sibling project: no registry involved
    if req.verified is None:
        lines.append("  registry: not verified (offline or unreachable)")
    elif req.verified:
        lines.append("  registry: exists")
    return lines


def _explain_unwritten(group: list, result: Inference) -> list[str]:
    first = group[0]
    names = {first.name, *(i for c in group for i in c.import_names)}
    evidence = [ev for c in group for ev in c.evidence]
    uses, decided = _split_evidence(evidence)
    steps = [d.split()[0].removeprefix("resolve:") for d in decided if d.startswith("resolve:")]
    reasons = [f"{LEFT_OUT.get(s, s.replace('_', ' '))} (resolver step {s})" for s in steps]
    files = {first.manifest, *(ev.file for ev in evidence if ev.file)}
    # a resolver step's own reason is exact; a message tied to no file may be another's
    unfiled = not steps
    reasons += [r for r in _reasons(names, files, unfiled, result) if r not in reasons]
    if all(getattr(c.facts, "type_only", False) for c in group):
        reasons.insert(0, "imported only for type checking (TYPE_CHECKING, `import type`)")
    if not reasons:
        reasons = [_flag_reason(group)]
    lines = [f"{first.name}: not written to {first.manifest}"]
    lines += [f"  because: {r}" for r in reasons]
    lines += [f"  mapped by: {d}" for d in decided if not d.startswith("resolve:")]
    lines += uses
    lines += _declare_lines(group)
    return lines


def _declare_lines(items: list) -> list[str]:
    """The declare model's features of a Python candidate and its probability
    (rules/python_declare.py), when the candidate carries them."""
    features = next(
        (f for c in items if (f := getattr(c.facts, "declare", None)) is not None), None
    )
    if features is None:
        return []
    shown = ", ".join(
        f"{k}={','.join(v) if isinstance(v, tuple) else v}"
        for k, v in dataclasses.asdict(features).items()
    )
    found = estimate(features)
    return [
        f"  features: {shown}",
        "  declare model: "
        + (found.describe() if found else "no habit decision here (facts decide)"),
    ]


# The npm resolver's steps that leave a name out (resolvers/javascript.py), in words.
LEFT_OUT = {
    "already_declared": "the manifest declares it already",
    "peer_left_to_host": "a peer dependency of a sibling package: left to the host project",
    "types_declared": "its types are declared already",
    "brought_along": "another declared dependency brings it already",
    "manifest_unreadable": "its manifest could not be read",
    "not_in_registry": "the registry does not have it",
    "only_tried_by_name": "only loaded inside try blocks by name (optional)",
    "presence_installs_nothing": "declaring it would install nothing the code uses",
    "runner_provides": "the project generator's runner its scripts call installs and runs it",
    "replaced_by_types_package": "used only for its types, which a types package provides",
    "unverified_guess": "a guessed name the registry could not confirm",
}


def _reasons(names: set[str], files: set[str], unfiled: bool, result: Inference) -> list[str]:
    """The run's own messages about any of `names` in one of `files` (or, when `unfiled`,
    in no file), each once, in the order given."""
    pattern = re.compile(
        r"(?<![\w.@/-])(" + "|".join(re.escape(n) for n in sorted(names)) + r")(?![\w-])",
        re.IGNORECASE,
    )
    found: list[str] = []
    for d in result.diagnostics:
        if d.file not in files and not (unfiled and d.file is None):
            continue
        if pattern.search(d.message) and d.message not in found:
            found.append(d.message)
    return found


def _flag_reason(group: list) -> str:
    """When the run said nothing: what the candidate's own flags tell."""
    if all(c.optional for c in group):
        return "imported only where it may be missing (optional)"
    kinds = {k for c in group for k in c.kinds}
    if kinds and "source" not in kinds:
        return f"used only from {', '.join(sorted(kinds))} files"
    return "no stage wrote it and none recorded why (see --json)"


EXAMPLES_SHOWN = 5


def _split_evidence(evidence: list) -> tuple[list[str], list[str]]:
    """(`used in` lines, one per distinct reason with its places; the deciding strategies,
    evidence tied to no file: placement, mapping strategy, registry …), each once."""
    places: dict[tuple[str, str], list[str]] = {}
    decided: list[str] = []
    for ev in evidence:
        if ev.file is None:
            text = f"{ev.rule} {ev.detail}".strip()
            if text not in decided:
                decided.append(text)
            continue
        where = ev.file + (f":{ev.line}" if ev.line else "")
        spots = places.setdefault((ev.rule, ev.detail), [])
        if where not in spots:
            spots.append(where)
    uses = []
    for (rule, detail), spots in places.items():
        shown = ", ".join(spots[:EXAMPLES_SHOWN])
        if len(spots) > EXAMPLES_SHOWN:
            shown += f" and {len(spots) - EXAMPLES_SHOWN} more"
        count = f"{len(spots)} places: " if len(spots) > 1 else ""
        uses.append(f"  used in {count}{shown} ({rule}: {detail})".replace(": )", ")"))
    return uses, decided
