"""Fit the C# declare model (depinfer/data/csharp/declare_model.toml) on training data.

Runs the C# pipeline (names only, as the benchmark does) on each instance of the given
datasets — the corpus' C# TRAIN split and the C# dev set; never a validation split — after
masking its build files as the benchmark does, with every template companion kept (the
model's threshold set to 0). Each companion written gives one row: its features
(CompanionFeatures), its cell (rules/csharp_declare.cell_of) and its label (the masked
project declared it). The script writes the cell counts plus the threshold that gives the
best pooled PackageReference name F1 on the same data, and keeps the table's curated
[companions] rows. `--cache FILE` keeps the rows per instance, so a changed cell definition
refits in seconds.

    PYTHONPATH=. python scripts/fit_csharp_declare_model.py \\
        --data /work/corpus-split/all12/csharp-train.jsonl=/work/corpus-repos \\
        --data /work/shared/benchmark/dev-csharp.jsonl=/work/bench-repos
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import shutil
import sys
import tempfile
from pathlib import Path

from fit_declare_model import f1, fit_stamp  # the sibling script: same stamp and score

from depinfer.bench.dataset import load_dataset
from depinfer.bench.masking import copy_tree, mask
from depinfer.context import Options
from depinfer.data import load_table
from depinfer.facts.csharp import CompanionFeatures, dep_facts
from depinfer.pipeline import infer, make_context
from depinfer.rules import csharp_declare
from depinfer.scan import scan

THRESHOLDS = [round(0.05 * i, 2) for i in range(2, 19)]
TIE = 0.001  # pooled F1 differences below this are ties


def rows_of(inst, trees: Path, source: str) -> tuple[list[dict], list, list]:
    """The instance's companion rows, its gold (project, package) keys and every (project,
    package) key the pipeline writes with all companions kept."""
    scratch = Path(tempfile.mkdtemp(prefix="fit-csharp-declare-"))
    try:
        root = scratch / "repo"
        copy_tree(inst.tree(trees), root)
        masked = mask(root, "csharp", inst.build_files).gold
        gold = sorted(
            (path, d.name.lower())
            for path, deps in masked.items()
            for d in deps
            if d.kind != "project"
        )
        opts = Options(as_of=inst.date, versions=False, languages=("csharp",))
        result = infer(root, opts, ctx=make_context(opts), project=scan(root))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    gold_files = {path for path, _ in gold}
    rows, written = [], []
    for r in result.requirements:
        if r.manifest not in gold_files or r.internal:
            continue
        key = (r.manifest, r.name.lower())
        written.append(key)
        f = dep_facts(r).companion
        if f is None:
            continue
        rows.append(
            {
                "instance": inst.id,
                "source": source,
                "manifest": r.manifest,
                "name": key[1],
                "cell": csharp_declare.cell_of(f),
                "label": key in set(gold),
                "features": dataclasses.asdict(f),
            }
        )
    return rows, gold, written


def decided(table: dict, per_instance: list) -> tuple[int, int, int]:
    """Pooled (tp, fp, fn) of package names when the table decides each companion."""
    tp = fp = fn = 0
    for rows, gold, written in per_instance:
        decided_keys = {(r["manifest"], r["name"]) for r in rows}
        pred = {tuple(k) for k in written} - decided_keys
        for r in rows:
            if csharp_declare.estimate(CompanionFeatures(**r["features"]), table).keep:
                pred.add((r["manifest"], r["name"]))
        g = {tuple(k) for k in gold}
        tp += len(pred & g)
        fp += len(pred - g)
        fn += len(g - pred)
    return tp, fp, fn


def write_table(path: Path, cells: dict, threshold: float, scores: dict, sources: list) -> None:
    """The fitted table, keeping the curated companions of the current one."""
    companions = load_table("csharp/declare_model.toml").get("companions", {})
    commit, today = fit_stamp()
    lines = [
        "# The C# declare model: per cell (companion role, test framework, test host, evidence,",
        "# repository kind), how",
        "# many candidates the maintainers declared (`declared`) of how many the fitting data had",
        "# (`seen`); rules/csharp_declare.py smooths each cell towards its role and evidence.",
        "# [cells] and threshold are written by scripts/fit_csharp_declare_model.py; [companions]",
        "# and [package_properties] are curated (each names its source) and kept by the script.",
        f"# Fitted on: {', '.join(sources)}",
        f"# depinfer commit {commit}, {today}. Threshold chosen on that data (pooled",
        "# PackageReference name F1: " + ", ".join(f"{t}: {s}" for t, s in scores.items()) + ").",
        f'source = "fitted by scripts/fit_csharp_declare_model.py on {", ".join(sources)} '
        f'at depinfer {commit}, {today}"',
        f"threshold = {threshold}",
        "",
        "[companions]",
    ]
    for pid, row in sorted(companions.items()):
        fields = ", ".join(f"{k} = {json.dumps(v)}" for k, v in row.items())
        lines.append(f'"{pid}" = {{ {fields} }}')
    marks = load_table("csharp/declare_model.toml").get("package_properties", {})
    if marks:
        lines += ["", "[package_properties]"]
        lines += [f"{k} = {json.dumps(v)}" for k, v in marks.items()]
    lines += ["", "[cells]"]
    for cell in sorted(cells):
        v = cells[cell]
        lines.append(f'"{cell}" = {{ declared = {v["declared"]}, seen = {v["seen"]} }}')
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def gather(specs: list[list[str]], cache: Path | None) -> list:
    """Per instance (rows, gold, written), from the cache when it exists."""
    if cache is not None and cache.exists():
        out = []
        for line in cache.read_text(encoding="utf-8").splitlines():
            e = json.loads(line)
            for r in e["rows"]:
                r["cell"] = csharp_declare.cell_of(CompanionFeatures(**r["features"]))
            out.append((e["rows"], e["gold"], e["written"]))
        return out
    # with the threshold at 0 every companion is written: each becomes a row
    full = load_table(csharp_declare.TABLE)
    csharp_declare.model = lambda: {**full, "threshold": 0.0}  # type: ignore[assignment]
    out = []
    for dataset, trees in specs:
        for inst in load_dataset(dataset):
            if inst.language == "csharp":
                print(inst.id, file=sys.stderr)
                out.append(rows_of(inst, Path(trees), Path(dataset).name))
    if cache is not None:
        with open(cache, "w", encoding="utf-8") as fh:
            for rows, gold, written in out:
                fh.write(json.dumps({"rows": rows, "gold": gold, "written": written}) + "\n")
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", action="append", required=True, help="DATASET.jsonl=TREES")
    ap.add_argument("--out", default="depinfer/data/csharp/declare_model.toml")
    ap.add_argument("--cache", help="rows per instance: read when the file exists, else written")
    args = ap.parse_args()
    specs = [spec.split("=", 1) for spec in args.data]
    if any("validation" in dataset for dataset, _ in specs):
        sys.exit("the declare model is never fitted on a validation split")
    per_instance = gather(specs, Path(args.cache) if args.cache else None)
    cells: dict[str, dict[str, int]] = {}
    for rows, _, _ in per_instance:
        for r in rows:
            v = cells.setdefault(r["cell"], {"declared": 0, "seen": 0})
            v["seen"] += 1
            v["declared"] += int(r["label"])
    companions = load_table(csharp_declare.TABLE).get("companions", {})
    scores = {
        t: f1(*decided({"cells": cells, "threshold": t, "companions": companions}, per_instance))
        for t in THRESHOLDS
    }
    # thresholds within TIE of the best score are a tie (a few decisions in the fitting
    # data's thousands of name pairs: noise); a tie goes to the highest, which writes the
    # fewest habit packages
    best = max(scores.values())
    threshold = max(t for t in THRESHOLDS if scores[t] >= best - TIE)
    sources = [Path(d).name for d, _ in specs]
    write_table(Path(args.out), cells, threshold, scores, sources)
    print(json.dumps({"threshold": threshold, "scores": scores, "cells": cells}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
