"""Compare two `depinfer bench run` result folders instance by instance.

Used to show that a change keeps behaviour (a refactor) or to list exactly what it changes:
for every instance present in both runs it compares what was written (each manifest's text),
the predicted names, versions and features, the diagnostics (scratch paths normalised), the
metrics, the fake counts and the status. Prints one line per differing instance and a
summary; exits 1 when something differs.

    python scripts/compare_bench_runs.py RESULTS_A RESULTS_B

Run both sides with the same PYTHONHASHSEED (the bench's child processes inherit it) so that
only the change under test can differ.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

KEYS = ("written_text", "pred", "diagnostics", "metrics", "fake", "status")
SCRATCH = re.compile(r"/tmp/depinfer-bench-[^/]+/")


def load(path: Path) -> dict:
    return json.loads(SCRATCH.sub("/tmp/X/", path.read_text(encoding="utf-8")))


def differences(a: Path, b: Path) -> tuple[int, list[str]]:
    compared, out = 0, []
    for fa in sorted(a.glob("*/*.json")):
        fb = b / fa.relative_to(a)
        if not fb.exists():
            continue  # the other run covered fewer languages
        ja, jb = load(fa), load(fb)
        compared += 1
        key = next((k for k in KEYS if ja.get(k) != jb.get(k)), None)
        if key is not None:
            out.append(f"{fa.relative_to(a)}: {key} differs")
    return compared, out


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    compared, diffs = differences(Path(argv[0]), Path(argv[1]))
    for line in diffs:
        print(line)
    print(f"{compared} instances compared, {len(diffs)} differ")
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
