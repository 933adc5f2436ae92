"""Shared steps every language's resolver uses before choosing versions."""

from __future__ import annotations

from collections.abc import Callable

from depinfer.model import Candidate, Requirement, Section

# When one package is needed in several places, the stronger placement wins.
SECTION_RANK = {
    Section.RUNTIME: 0,
    Section.PEER: 1,
    Section.BUILD: 2,
    Section.OPTIONAL: 3,
    Section.DEV: 4,
}


def merge_candidates(
    candidates: list[Candidate], key: Callable[[str], str] = str.lower
) -> list[Candidate]:
    """One candidate per (manifest, name, section); evidence and features merged.

    A package needed at runtime is not repeated in the dev section of the same manifest, and
    an optional use does not make a required one optional.
    """
    merged: dict[tuple[str, str], Candidate] = {}
    for c in candidates:
        k = (c.manifest, key(c.name))
        have = merged.get(k)
        if have is None:
            merged[k] = Candidate(
                **{
                    **c.__dict__,
                    "evidence": list(c.evidence),
                    "features": list(c.features),
                    "import_names": list(c.import_names),
                    "alternatives": list(c.alternatives),
                }
            )
            continue
        if SECTION_RANK[c.section] < SECTION_RANK[have.section]:
            have.section = c.section
        have.optional = have.optional and c.optional
        if have.markers != c.markers:
            have.markers = None if (not have.markers or not c.markers) else have.markers
        have.evidence.extend(e for e in c.evidence if e not in have.evidence)
        have.features.extend(f for f in c.features if f not in have.features)
        have.import_names.extend(n for n in c.import_names if n not in have.import_names)
        have.alternatives.extend(a for a in c.alternatives if a not in have.alternatives)
        have.confidence = max(have.confidence, c.confidence)
        have.spec = have.spec or c.spec
        if have.verified is None:
            have.verified = c.verified
        if c.kinds:  # the file roles it is used from: all of them count
            have.kinds = have.kinds + tuple(k for k in c.kinds if k not in have.kinds)
    return list(merged.values())


def to_requirement(c: Candidate, spec: str = "") -> Requirement:
    return Requirement(
        ecosystem=c.ecosystem,
        name=c.name,
        manifest=c.manifest,
        section=c.section,
        spec=spec or (c.spec or ""),
        features=list(c.features),
        markers=c.markers,
        optional=c.optional,
        internal=c.internal,
        path=c.path,
        verified=c.verified,
        evidence=list(c.evidence),
        alternatives=list(c.alternatives),
        group=c.group,
        facts=c.facts,
    )
