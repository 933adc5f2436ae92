"""Questions for the arbiter: only the decisions the pipeline itself marked ambiguous.

A question carries registry-checked candidates and a little evidence; the model's answer
must be one of the candidates (or "none"), so it can never add a name.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field

from depinfer.context import Context
from depinfer.model import Candidate, Inference
from depinfer.registries.names import comparable

MAX_SNIPPETS = 4
MAX_SNIPPET_CHARS = 200


@dataclass
class Option:
    name: str
    summary: str = ""
    rank: int | None = None  # download rank where the index knows it (1 = most downloaded)
    latest: str | None = None  # newest version's publish date, when the registry told


@dataclass
class Question:
    id: str
    kind: str  # "package": which distribution provides this import; "include": keep or drop
    manifest: str
    subject: str  # the import / namespace / package the question is about
    current: str  # the rule-based choice (kept when the model fails or is not asked)
    options: list[Option] = field(default_factory=list)
    evidence: list[str] = field(default_factory=list)
    runtime: str | None = None
    date: str | None = None
    candidate: Candidate | None = field(default=None, repr=False, compare=False)

    def payload(self) -> dict:
        data = asdict(self)
        for private in ("id", "candidate"):
            data.pop(private)
        return data


def _snippets(ctx: Context, project, cand: Candidate) -> list[str]:
    out = []
    for ev in cand.evidence[:MAX_SNIPPETS]:
        if not ev.file or not ev.line:
            out.append(str(ev)[:MAX_SNIPPET_CHARS])
            continue
        try:
            lines = (
                project.abspath(ev.file).read_text(encoding="utf-8", errors="replace").splitlines()
            )
            text = lines[ev.line - 1].strip() if 0 < ev.line <= len(lines) else ""
        except OSError:
            text = ""
        out.append(f"{ev.file}:{ev.line}: {text}"[:MAX_SNIPPET_CHARS])
    return out


def _option(ctx: Context, ecosystem, name: str, rank: int | None) -> Option | None:
    """An option only when the registry does not deny it (offline: shipped data stands)."""
    if ctx.registries.exists(ecosystem, name) is False:
        return None
    opt = Option(name=name, rank=rank)
    client = ctx.registries.client(ecosystem)
    if client is not None:
        try:
            meta = client.metadata(name)
        except Exception:  # a registry hiccup only costs the summary
            meta = {}
        opt.summary = str(meta.get("summary") or meta.get("description") or "")[:200]
    return opt


def _declared(project) -> set[tuple[str, str]]:
    return {
        (m.directory, comparable(m.ecosystem.value, n))
        for m in project.manifests
        for names in m.declared.values()
        for n in names
    }


def _undecided_optional(
    cand: Candidate, written: set[tuple[str, str]], declared: set[tuple[str, str]]
) -> bool:
    if not cand.optional or (cand.manifest, cand.name) in written:
        return False
    folder = cand.manifest.rpartition("/")[0]
    return (folder, comparable(cand.ecosystem.value, cand.name)) not in declared


def build_questions(result: Inference, ctx: Context) -> list[Question]:
    project = result.project
    questions: list[Question] = []
    written = {(r.manifest, r.name) for r in result.requirements}
    declared = _declared(project)
    asked: set[tuple[str, str, str]] = set()
    for cand in result.candidates:
        if cand.internal:
            continue
        if cand.ambiguous:
            kind = "package"
        elif _undecided_optional(cand, written, declared):
            # an optional (guarded) import the rules left out: the model may say it belongs
            kind = "include"
        else:
            continue
        if (kind, cand.manifest, cand.name) in asked:
            continue
        asked.add((kind, cand.manifest, cand.name))
        names = [cand.name] + [a for a in cand.alternatives if a != cand.name]
        if kind == "package" and len(names) < 2:
            continue
        ranks = dict(cand.ranks)
        options = [o for o in (_option(ctx, cand.ecosystem, n, ranks.get(n)) for n in names) if o]
        if not options:
            continue
        subject = (cand.import_names or [cand.name])[0]
        key = json.dumps([kind, cand.manifest, subject, [o.name for o in options]], sort_keys=True)
        questions.append(
            Question(
                id=hashlib.sha256(key.encode()).hexdigest()[:12],
                kind=kind,
                manifest=cand.manifest,
                subject=subject,
                current=cand.name if (cand.manifest, cand.name) in written else "none",
                options=options,
                evidence=_snippets(ctx, project, cand),
                date=ctx.options.as_of or project.last_commit_date,
                candidate=cand,
            )
        )
    return questions
