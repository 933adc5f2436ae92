"""Hybrid mode: an LLM settles only the decisions the analysis marked ambiguous.

Guarantees (tested): the model only picks among registry-checked candidates or "none";
any other answer is discarded; every chosen name is re-checked against the candidate list
and the registry; on any failure the output is exactly the rule-based output, with one
warning.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from depinfer.context import Context
from depinfer.hybrid.client import AnswerCache, LLMClient, LLMError
from depinfer.hybrid.questions import Question, build_questions
from depinfer.model import ArbiterChoice, Evidence, Inference, Project, Requirement, Section
from depinfer.resolvers.common import to_requirement

SYSTEM = (
    "You help a static dependency analyser. For each question choose exactly one of the "
    'listed options, or "none" when no option is right. Never answer a name that is not '
    'listed. Reply with JSON only: {"answers": [{"id": "...", "choice": "..."}]}.'
)

SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "required": ["answers"],
    "properties": {
        "answers": {
            "type": "array",
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["id", "choice"],
                "properties": {"id": {"type": "string"}, "choice": {"type": "string"}},
            },
        }
    },
}


def _prompt(batch: list[Question]) -> str:
    return json.dumps({"questions": [{"id": q.id, **q.payload()} for q in batch]}, indent=1)


def parse_answers(text: str, batch: list[Question]) -> dict[str, str]:
    """Valid answers only: a known question id and a listed option (or "none")."""
    try:
        data = json.loads(text)
    except ValueError:
        return {}
    if not isinstance(data, dict) or not isinstance(data.get("answers"), list):
        return {}
    by_id = {q.id: q for q in batch}
    out: dict[str, str] = {}
    for item in data["answers"]:
        if not isinstance(item, dict):
            continue
        q = by_id.get(str(item.get("id")))
        choice = item.get("choice")
        if q is None or not isinstance(choice, str):
            continue
        if choice == "none" or choice in {o.name for o in q.options}:
            out[q.id] = choice
    return out


def make_client(ctx: Context) -> LLMClient:
    from platformdirs import user_cache_dir

    opts = ctx.options
    cache_dir = Path(os.environ.get("DEPINFER_CACHE_DIR") or user_cache_dir("depinfer"))
    return LLMClient(
        url=opts.llm_url,
        model=opts.llm_model,
        cmd=opts.llm_cmd,
        api_key=os.environ.get(opts.llm_key_env),
        max_calls=opts.llm_max_calls,
        max_tokens=opts.llm_max_tokens,
        cache=AnswerCache(cache_dir),
    )


def arbitrate(
    project: Project, result: Inference, ctx: Context, client: LLMClient | None = None
) -> list[Requirement]:
    questions = build_questions(result, ctx)
    stats = {"questions": len(questions), "calls": 0, "tokens": 0, "cache_hits": 0, "changed": 0}
    result.llm = stats
    if not questions:
        return result.requirements
    try:
        client = client or make_client(ctx)
    except LLMError as exc:
        ctx.warn(f"hybrid mode off: {exc}; rule-based output kept")
        return result.requirements
    answers: dict[str, str] = {}
    failure: str | None = None
    size = max(1, ctx.options.llm_batch)
    for i in range(0, len(questions), size):
        batch = questions[i : i + size]
        try:
            answers.update(parse_answers(client.ask(SYSTEM, _prompt(batch), SCHEMA), batch))
        except LLMError as exc:
            failure = str(exc)
            break
    stats.update(calls=client.calls, tokens=client.tokens, cache_hits=client.cache_hits)
    if failure:
        ctx.warn(f"hybrid mode: {failure}; rule-based choices kept for the questions not answered")
    return apply_answers(result.requirements, questions, answers, ctx, stats, client.model)


def apply_answers(
    requirements: list[Requirement],
    questions: list[Question],
    answers: dict[str, str],
    ctx: Context,
    stats: dict,
    model: str,
) -> list[Requirement]:
    out = list(requirements)
    for q in questions:
        choice = answers.get(q.id)
        if choice is None or choice == q.current:
            continue
        names = {o.name for o in q.options}
        if choice != "none" and (choice not in names):
            continue  # parse_answers already guarantees this; kept as the last line of defence
        idx = next(
            (i for i, r in enumerate(out) if r.manifest == q.manifest and r.name == q.current), None
        )
        record = ArbiterChoice(q.subject, choice, tuple(sorted(names)), q.current, model)
        if choice == "none":
            if idx is not None:
                out.pop(idx)
                stats["changed"] += 1
            continue
        eco = q.candidate.ecosystem if q.candidate else out[idx].ecosystem
        if ctx.registries.exists(eco, choice) is False:
            continue
        if idx is None:
            # an undecided candidate (e.g. an optional import) the model says belongs
            if q.candidate is None:
                continue
            added = to_requirement(q.candidate)
            added.section, added.optional, added.group = Section.RUNTIME, False, None
            out.append(added)
            idx = len(out) - 1
        req = out[idx]
        req.alternatives = sorted((names - {choice}) | {req.name} - {choice})
        req.name = choice
        req.evidence = [*req.evidence, Evidence("llm", detail=f"chose {choice} over {q.current}")]
        req.llm = record
        stats["changed"] += 1
    return out
