"""Record which corpus instances an executed run found able to count (issue 22).

Whether an instance counts depends only on its gold and masked runs (gold passes and masked
fails, or masked loses a gold-passing test), never on what depinfer writes; so it can be
kept with the corpus. A new machine keeps no trees and no earlier results: with this file a
later session fetches and runs only the instances that can count, instead of running gold
and masked for every instance of a language first (about 90 minutes for 181 Python ones).

Usage: python scripts/record_countable.py RESULTS_DIR [RESULTS_DIR ...]
       python scripts/record_countable.py --dataset LANGUAGE SPLIT > countable.jsonl
  RESULTS_DIR: an executed `depinfer bench run --execute` output directory.
  --dataset: the corpus lines (corpus/<language>.jsonl) of SPLIT whose instances can count,
  a dataset for `depinfer bench run --execute --countable-only`.
Writes corpus/countable-<language>.jsonl: one line per instance whose gold and masked runs
finished, `{"id", "split", "exec_as_of", "gold", "masked", "counted", "relative_counted",
"measured"}`, merged with the lines already there (a newer measurement replaces an older
one). Nothing about depinfer's own output is recorded.
"""

from __future__ import annotations

import json
import sys
from datetime import UTC, datetime
from pathlib import Path

CORPUS = Path(__file__).resolve().parent.parent / "corpus"


def records(results: Path) -> dict[str, list[dict]]:
    """Language → the gold/masked facts of each instance in one results directory."""
    today = datetime.now(UTC).date().isoformat()
    out: dict[str, list[dict]] = {}
    for path in sorted(results.glob("*/*.json")):
        try:
            result = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        execution = result.get("execution")
        if not isinstance(execution, dict) or execution.get("status") not in ("ok", "not-run"):
            continue
        runs = execution.get("runs") or {}
        gold = (runs.get("gold") or {}).get("status")
        if gold is None:
            continue
        out.setdefault(result["language"], []).append(
            {
                "id": result["id"],
                "split": result.get("split"),
                "exec_as_of": execution.get("as_of"),
                "gold": gold,
                "masked": (runs.get("masked") or {}).get("status"),
                "counted": bool(execution.get("counted")),
                "relative_counted": bool(execution.get("relative_counted")),
                "measured": today,
            }
        )
    return out


def _rows(path: Path) -> list[dict]:
    """The JSON lines of `path` (none when it does not exist yet)."""
    if not path.exists():
        return []
    return [
        json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()
    ]


def countable_dataset(language: str, split: str) -> None:
    can = {
        r["id"]
        for r in _rows(CORPUS / f"countable-{language}.jsonl")
        if r["counted"] or r["relative_counted"]
    }
    for inst in _rows(CORPUS / f"{language}.jsonl"):
        if inst["split"] == split and inst["id"] in can:
            print(json.dumps(inst))


def main() -> None:
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    if sys.argv[1] == "--dataset" and len(sys.argv) == 4:
        countable_dataset(sys.argv[2], sys.argv[3])
        return
    merged: dict[str, dict[str, dict]] = {}
    for arg in sys.argv[1:]:
        for language, rows in records(Path(arg)).items():
            if language not in merged:  # a newer measurement replaces an older one
                old = _rows(CORPUS / f"countable-{language}.jsonl")
                merged[language] = {row["id"]: row for row in old}
            merged[language].update((row["id"], row) for row in rows)
    for language, rows in merged.items():
        path = CORPUS / f"countable-{language}.jsonl"
        text = "".join(json.dumps(rows[k]) + "\n" for k in sorted(rows))
        path.write_text(text, encoding="utf-8")
        can = sum(1 for r in rows.values() if r["counted"] or r["relative_counted"])
        print(f"{path.name}: {len(rows)} instances, {can} can count")


if __name__ == "__main__":
    main()
