"""Fit the declare model (depinfer/data/python/declare_model.toml) on training data.

Runs the pipeline (names only, the registry online through its cache, as the benchmark
does) on each instance of the given datasets — the corpus' TRAIN split and the Python dev
set; never a validation split — after masking its build files as the benchmark does,
gathers one row per candidate (manifest, distribution) with its DeclareFeatures, its
model cell (rules/python_declare.cell_of) and its label (the masked manifest declared
it), and writes the cell counts plus the threshold that gives the best name F1 on the
same data. `--rows FILE` also writes the rows (JSON lines) for inspection; `--cache FILE`
keeps the pipeline's output per instance, so a changed cell definition refits from it.

`--data` repeats: every train dataset (e.g. each corpus batch's train split) is pooled; a
source is named by its file and, when two files share a name, its folder. The per-source
name F1 at the chosen threshold is printed too.

    PYTHONPATH=. python scripts/fit_declare_model.py \\
        --data /work/corpus-split/all11/python-train.jsonl=/work/corpus-repos \\
        --data /work/shared/benchmark/dev-python.jsonl=/work/bench-repos
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from depinfer.bench.dataset import load_dataset
from depinfer.bench.masking import copy_tree, mask
from depinfer.context import Options
from depinfer.facts.python import dependency_facts
from depinfer.mapping.python_index import canonical
from depinfer.model import Ecosystem
from depinfer.pipeline import infer, make_context
from depinfer.rules import python_declare
from depinfer.scan import scan

THRESHOLDS = [round(0.05 * i, 2) for i in range(2, 19)]


def rows_of(inst, trees: Path, source: str) -> tuple[list[dict], set, set]:
    """Rows of one instance, plus its gold (file, name) keys and the (file, name) keys the
    pipeline writes (with_fixed leaves out those a habit cell decides)."""
    scratch = Path(tempfile.mkdtemp(prefix="fit-declare-"))
    try:
        root = scratch / "repo"
        copy_tree(inst.tree(trees), root)
        gold = {
            (path, canonical(d.name)) for path, deps in mask(root, "python", inst.build_files).gold.items()
            for d in deps
        }  # fmt: skip
        opts = Options(as_of=inst.date, versions=False, languages=("python",))
        project = scan(root)
        # what the masked manifests still declare (groups, extras, dev files): no decision
        declared = {
            canonical(re.split(r"[\s\[<>=!~;(@]", n.strip(), maxsplit=1)[0])
            for m in project.manifests_of(Ecosystem.PYPI)
            for names in m.declared.values()
            for n in names
        }
        result = infer(root, opts, ctx=make_context(opts), project=project)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    gold_files = {path for path, _ in gold}
    rows, seen = [], set()
    for c in result.candidates:
        f = dependency_facts(c).declare
        key = (c.manifest, canonical(c.name))
        if f is None or key in seen or c.manifest not in gold_files or key[1] in declared:
            continue
        seen.add(key)
        rows.append(
            {
                "instance": inst.id,
                "source": source,
                "manifest": c.manifest,
                "name": key[1],
                "cell": python_declare.cell_of(f),
                "label": key in gold,
                "features": dataclasses.asdict(f),
            }
        )
    written = {
        (r.manifest, canonical(r.name)) for r in result.requirements if r.manifest in gold_files
    }
    return rows, gold, written


def with_fixed(rows: list[dict], gold: set, written: set) -> tuple[list[dict], set, set]:
    """The instance's rows, gold, and the names the pipeline writes that no cell decides."""
    cells = {(r["manifest"], r["name"]) for r in rows if r["cell"]}
    return rows, gold, written - cells


def decided(table: dict, per_instance: list[tuple[list[dict], set, set]]) -> tuple[int, int, int]:
    """Pooled (tp, fp, fn) of names when the table decides each cell's candidates."""
    tp = fp = fn = 0
    for rows, gold, fixed in per_instance:
        pred = set(fixed)
        for r in rows:
            if r["cell"] is None:
                continue
            est = python_declare.estimate(_features(r), table)
            if est is not None and est.keep:
                pred.add((r["manifest"], r["name"]))
        tp += len(pred & gold)
        fp += len(pred - gold)
        fn += len(gold - pred)
    return tp, fp, fn


def mean_f1(table: dict, per_instance: list[tuple[list[dict], set, set]]) -> float:
    """The benchmark's headline: name F1 per instance, averaged (instances with gold)."""
    scores = [f1(*decided(table, [one])) for one in per_instance if one[1]]
    return round(sum(scores) / len(scores), 4) if scores else 0.0


def f1(tp: int, fp: int, fn: int) -> float:
    return round(2 * tp / (2 * tp + fp + fn), 4) if tp else 0.0


def best_threshold(
    cells: dict, per_instance: list[tuple[list[dict], set, set]]
) -> tuple[float, dict]:
    """The threshold whose decisions give the best pooled name F1 (ties: the higher)."""
    scores = {t: f1(*decided({"cells": cells, "threshold": t}, per_instance)) for t in THRESHOLDS}
    best = max(scores, key=lambda t: (scores[t], t))
    return best, scores


def source_names(datasets: list[str]) -> list[str]:
    """Each dataset's name: its file name, with its folder when two files share a name."""
    names = [Path(d).name for d in datasets]
    return [
        f"{Path(d).parent.name}/{n}" if names.count(n) > 1 else n
        for d, n in zip(datasets, names, strict=True)
    ]


def _features(row: dict):
    from depinfer.facts.python import DeclareFeatures

    f = dict(row["features"])
    for k in ("where", "how"):
        f[k] = tuple(f[k])
    return DeclareFeatures(**f)


def fit_stamp() -> tuple[str, str]:
    """(depinfer's short commit, today's date): what a fitted table names as its origin."""
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"],
        capture_output=True,
        text=True,
        check=False,
        cwd=Path(__file__).resolve().parent,
    ).stdout.strip()
    return commit, datetime.date.today().isoformat()


def write_table(
    path: Path, cells: dict, threshold: float, scores: dict, sources: list[str]
) -> None:
    commit, today = fit_stamp()
    lines = [
        "# The declare model: per habit cell, how many candidates of that cell the maintainers",
        "# declared (`declared`) of how many the fitting data had (`seen`);",
        "# rules/python_declare.py smooths each cell towards its kind. Written by",
        "# scripts/fit_declare_model.py; do not edit by hand.",
        f"# Fitted on: {', '.join(sources)}",
        f"# depinfer commit {commit}, {today}. Threshold chosen on that data (pooled name F1:",
        "# " + ", ".join(f"{t}: {s}" for t, s in scores.items()) + ").",
        f'source = "fitted by scripts/fit_declare_model.py on {", ".join(sources)} at depinfer {commit}, {today}"',
        f"threshold = {threshold}",
        "",
        "[cells]",
    ]
    for cell in sorted(cells):
        v = cells[cell]
        lines.append(f'"{cell}" = {{ declared = {v["declared"]}, seen = {v["seen"]} }}')
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def save_cache(path: Path, per_source: dict[str, list]) -> None:
    with open(path, "w", encoding="utf-8") as fh:
        for source, batch in per_source.items():
            for rows, gold, written in batch:
                entry = {"source": source, "rows": rows, "gold": sorted(gold)}
                fh.write(json.dumps({**entry, "written": sorted(written)}) + "\n")


def load_cache(path: Path, sources: list[str]) -> dict[str, list]:
    """The cached instances of the named sources, each row's cell recomputed."""
    per_source: dict[str, list] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        entry = json.loads(line)
        if entry["source"] not in sources:
            continue
        rows = entry["rows"]
        for r in rows:
            r["cell"] = python_declare.cell_of(_features(r))
        gold = {tuple(k) for k in entry["gold"]}
        written = {tuple(k) for k in entry["written"]}
        per_source.setdefault(entry["source"], []).append((rows, gold, written))
    return per_source


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", action="append", required=True, help="DATASET.jsonl=TREES")
    ap.add_argument("--out", default="depinfer/data/python/declare_model.toml")
    ap.add_argument("--rows", help="also write the rows here (JSON lines)")
    ap.add_argument(
        "--cache",
        help="the pipeline's rows, gold and fixed names per instance: read when the file "
        "exists (cells recomputed from the features: a new cell definition refits in "
        "seconds), else written",
    )
    args = ap.parse_args()
    specs = [spec.split("=", 1) for spec in args.data]
    if any("validation" in dataset for dataset, _ in specs):
        sys.exit("the declare model is never fitted on a validation split")
    sources = source_names([dataset for dataset, _ in specs])
    if args.cache and Path(args.cache).exists():
        per_source = load_cache(Path(args.cache), sources)
    else:
        per_source = {}
        for (dataset, trees), source in zip(specs, sources, strict=True):
            for inst in load_dataset(dataset):
                if inst.language != "python":
                    continue
                print(f"{inst.id}", file=sys.stderr)
                per_source.setdefault(source, []).append(rows_of(inst, Path(trees), source))
        if args.cache:
            save_cache(Path(args.cache), per_source)
    per_source = {s: [with_fixed(*one) for one in batch] for s, batch in per_source.items()}
    per_instance = [one for batch in per_source.values() for one in batch]
    cells: dict[str, dict[str, int]] = {}
    for rows, _, _ in per_instance:
        for r in rows:
            if r["cell"]:
                v = cells.setdefault(r["cell"], {"declared": 0, "seen": 0})
                v["seen"] += 1
                v["declared"] += int(r["label"])
    threshold, scores = best_threshold(cells, per_instance)
    write_table(Path(args.out), cells, threshold, scores, sources)
    if args.rows:
        with open(args.rows, "w", encoding="utf-8") as fh:
            for rows, _, _ in per_instance:
                for r in rows:
                    fh.write(json.dumps(r) + "\n")
    table = {"cells": cells, "threshold": threshold}
    by_source = {s: f1(*decided(table, batch)) for s, batch in per_source.items()}
    mean = {
        t: mean_f1({"cells": cells, "threshold": t}, per_instance) for t in THRESHOLDS
    }  # the threshold is chosen on the pooled figure; the per-instance mean is shown
    print(json.dumps({"threshold": threshold, "scores": scores, "mean_scores": mean,
                      "by_source": by_source, "cells": cells}, indent=1))  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
