"""Count `depinfer --check` findings on the ORIGINAL (unmasked) trees of a benchmark dataset.

Each instance's tree is copied to a scratch folder first (nothing is written into the
originals), checked offline with `python -m depinfer --check --format json --no-cache
--lang LANG`, and its findings are counted per repository. The check mode's goal (issue 25):
at most one finding per repository that is not a true problem.

    python scripts/check_findings.py --dataset /work/shared/benchmark/dev-csharp.jsonl \
        --trees /work/bench-repos [--lang csharp] [--details] [--aggregate-only] [--histogram]

`--details` prints every finding (code, name, file:line) so each can be judged;
`--aggregate-only` prints only the totals (findings, repositories, repositories with more
than one finding) — the only form allowed on a validation split.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path


def instances(dataset: Path, lang: str) -> list[dict]:
    rows = [json.loads(line) for line in dataset.read_text().splitlines() if line.strip()]
    return [r for r in rows if r.get("language", lang) == lang]


def check_tree(tree: Path, lang: str) -> tuple[list[dict], str]:
    """Findings of an offline check on a scratch copy of `tree`; an error text when the
    check failed (exit 2 or unreadable output)."""
    with tempfile.TemporaryDirectory(prefix="checkfind-") as tmp:
        copy = Path(tmp) / tree.name
        shutil.copytree(tree, copy, symlinks=True)
        proc = subprocess.run(
            [sys.executable, "-m", "depinfer", str(copy), "--check", "--format", "json"]
            + ["--no-cache", "--offline", "--lang", lang, "-q"],
            capture_output=True,
            text=True,
            timeout=600,
            env={**os.environ, "PYTHONHASHSEED": "0"},
        )
    try:
        data = json.loads(proc.stdout or "{}")
    except json.JSONDecodeError:
        return [], (proc.stderr or proc.stdout)[-300:]
    findings = data.get("findings") or []
    for f in findings:
        f["file"] = str(f.get("file", "")).replace(str(copy) + "/", "")
    errors = data.get("errors") or []
    return findings, ("; ".join(errors)[:300] if errors and not findings else "")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dataset", required=True, type=Path)
    ap.add_argument("--trees", required=True, type=Path)
    ap.add_argument("--lang", default="csharp")
    ap.add_argument("--details", action="store_true", help="print every finding")
    ap.add_argument("--aggregate-only", action="store_true", help="totals only (validation)")
    ap.add_argument(
        "--histogram", action="store_true", help="also how many repositories have n findings"
    )
    args = ap.parse_args()
    total, over_one, repos = 0, 0, 0
    codes: Counter[str] = Counter()
    per_repo: Counter[int] = Counter()
    for inst in instances(args.dataset, args.lang):
        tree = args.trees / args.lang / inst["id"]
        if not tree.is_dir():
            tree = args.trees / inst["id"]
        if not tree.is_dir():
            print(f"{inst['id']}: no tree", file=sys.stderr)
            continue
        findings, error = check_tree(tree, args.lang)
        repos += 1
        total += len(findings)
        over_one += len(findings) > 1
        codes.update(f.get("code", "?") for f in findings)
        per_repo[len(findings)] += 1
        if args.aggregate_only:
            continue
        kinds = Counter(f.get("code", "?") for f in findings)
        summary = " ".join(f"{c}×{n}" for c, n in sorted(kinds.items()))
        print(
            f"{inst['id']}: {len(findings)} {summary}" + (f" ERROR {error}" if error else ""),
            flush=True,
        )
        if args.details:
            for f in findings:
                print(f"    {f.get('code')} {f.get('name')} {f.get('file')}:{f.get('line')}")
    kinds = " ".join(f"{c}×{n}" for c, n in sorted(codes.items()))
    print(
        f"TOTAL {args.dataset.name}: {total} findings in {repos} repositories; "
        f"{over_one} with more than one finding ({kinds})"
    )
    if args.histogram:  # no repository named: allowed on a validation split
        print(
            "findings per repository: " + " ".join(f"{n}:{k}" for n, k in sorted(per_repo.items()))
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
