"""How far the hybrid arbiter reaches: questions per instance on masked benchmark trees.

Usage: depinfer bench prepare --dataset D.jsonl --trees T --out /tmp/masked   (per language)
       python scripts/hybrid_reach.py /tmp/masked
Prints per instance: language, id, questions the arbiter would get, requirements written;
then the mean and maximum per language. Offline: it asks no model and no registry.
"""

from __future__ import annotations

import glob
import os
import sys
from collections import defaultdict

from depinfer.context import Options
from depinfer.hybrid.questions import build_questions
from depinfer.pipeline import infer, make_context


def main() -> int:
    root = sys.argv[1] if len(sys.argv) > 1 else "/tmp/masked"
    by_lang: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for lang in ("python", "javascript", "rust", "csharp"):
        for tree in sorted(glob.glob(os.path.join(root, lang, "*"))):
            opts = Options(offline=True, versions=False, languages=(lang,))
            ctx = make_context(opts)
            result = infer(tree, opts, ctx=ctx, edits=False)
            questions = len(build_questions(result, ctx))
            by_lang[lang].append((questions, len(result.requirements)))
            print(lang, os.path.basename(tree), questions, len(result.requirements), sep="\t")
    for lang, rows in by_lang.items():
        qs = [q for q, _ in rows]
        print(
            f"{lang}: {sum(qs) / len(qs):.2f} questions per instance (max {max(qs)}), "
            f"{sum(n for _, n in rows) / len(rows):.1f} requirements per instance"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
