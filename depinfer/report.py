"""Reporters: thin views over the same `Inference` record (text, diff, JSON, explain)."""

from __future__ import annotations

import difflib
import json
from collections import defaultdict

from depinfer.model import Ecosystem, Inference, Requirement, Section


def requirement_line(req: Requirement) -> str:
    text = req.name
    if req.features:
        text += "[" + ",".join(req.features) + "]"
    if req.spec:
        text += (" " if req.spec[0].isalnum() else "") + req.spec
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


def text_report(result: Inference, verbose: bool = False) -> str:
    by_manifest: dict[str, list[Requirement]] = defaultdict(list)
    for req in result.requirements:
        by_manifest[req.manifest].append(req)
    lines: list[str] = []
    for path in sorted(by_manifest):
        lines.append(path)
        by_place: dict[str, list[Requirement]] = defaultdict(list)
        for req in by_manifest[path]:
            by_place[_placement(req)].append(req)
        for place in sorted(by_place, key=lambda p: (p != "dependencies", p)):
            lines.append(f"  [{place}]")
            for req in sorted(by_place[place], key=lambda r: r.name.lower()):
                mark = ""
                if req.verified is False:
                    mark = "  [not in registry]"
                elif req.verified is None and not req.internal:
                    mark = "  [unverified]"
                where = f"  # {req.evidence[0]}" if verbose and req.evidence else ""
                lines.append(f"    {requirement_line(req)}{mark}{where}")
    if not lines:
        lines.append("no dependencies inferred")
    return "\n".join(lines) + "\n"


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
    from packaging.utils import canonicalize_name

    want = canonicalize_name(name)
    lines: list[str] = []
    for req in result.requirements:
        if canonicalize_name(req.name) != want:
            continue
        lines.append(f"{req.name} → {req.manifest} [{_placement(req)}] {requirement_line(req)}")
        for ev in req.evidence:
            lines.append(f"  because: {ev}")
        if req.alternatives:
            lines.append("  alternatives considered: " + ", ".join(req.alternatives))
        llm = req.llm
        if llm:
            lines.append(
                f"  decided by the LLM arbiter ({llm.model}): {llm.choice} over the "
                f"rule-based {llm.rule_choice}, among {', '.join(llm.alternatives)}"
            )
        if req.verified is None:
            lines.append("  registry: not verified (offline or unreachable)")
        elif req.verified:
            lines.append("  registry: exists")
    if not lines:
        cands = [c for c in result.candidates if canonicalize_name(c.name) == want]
        for c in cands:
            lines.append(f"{c.name}: considered for {c.manifest} but not written")
            for ev in c.evidence:
                lines.append(f"  evidence: {ev}")
        if not cands:
            lines.append(f"{name}: not inferred; no code in the repository uses it")
    return "\n".join(lines) + "\n"
