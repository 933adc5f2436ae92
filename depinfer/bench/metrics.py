"""Scores: precision / recall / F1 by name and by name+version, fake rate, failure categories.

Per instance, names are pooled over its build files as (build file, name) pairs and counted
once each — DI-Bench's evaluator sums TP/FP/FN over build files of sets per file, which is
the same thing. The dataset figure is the mean of per-instance scores (DI-Bench's averaging)
and, next to it, the micro figure from the summed counts. Versions count only when the
written constraint equals the gold one in canonical spelling (`exact` in DI-Bench);
"compatible" (online runs) also counts a name whose constraint shares a published release
with the gold one.

Features (Rust features; Python extras where a language has them) are scored on the
dependencies both sides name in the same build file: how many carry exactly gold's feature
set, and feature precision / recall over those matched dependencies. Sets are compared raw,
as written: a feature that another listed feature (or the crate's defaults) implies still
counts as extra or missing, so `["rt", "rt-multi-thread"]` against `["rt-multi-thread"]` is
not an exact match even though Cargo builds the same thing. `default-features` is not part
of the set.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from depinfer.bench.sections import Dep


@dataclass
class Counts:
    tp: int = 0
    fp: int = 0
    fn: int = 0

    @property
    def precision(self) -> float:
        # No prediction at all scores 0 when there was something to find, 1 when there was not.
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else (0.0 if self.fn else 1.0)

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    def __add__(self, other: Counts) -> Counts:
        return Counts(self.tp + other.tp, self.fp + other.fp, self.fn + other.fn)

    def to_json(self) -> dict[str, Any]:
        return {
            "tp": self.tp,
            "fp": self.fp,
            "fn": self.fn,
            "precision": round(self.precision, 4),
            "recall": round(self.recall, 4),
            "f1": round(self.f1, 4),
        }


def _name_keys(deps_by_file: dict[str, list[Dep]]) -> set[tuple[str, str]]:
    return {(path, d.name) for path, deps in deps_by_file.items() for d in deps}


def _version_keys(deps_by_file: dict[str, list[Dep]]) -> set[tuple[str, str, str]]:
    return {(path, d.name, d.version) for path, deps in deps_by_file.items() for d in deps}


def compare(gold: dict[str, list[Dep]], pred: dict[str, list[Dep]]) -> dict[str, Counts]:
    """Counts by name and by name+version; only build files in `gold` take part."""
    pred = {path: pred.get(path, []) for path in gold}
    out = {}
    for label, keys in (("name", _name_keys), ("version", _version_keys)):
        g, p = keys(gold), keys(pred)
        out[label] = Counts(len(g & p), len(p - g), len(g - p))
    return out


def per_file(gold: dict[str, list[Dep]], pred: dict[str, list[Dep]]) -> dict[str, dict]:
    """For reading a result: what was right, extra and missing in each build file."""
    out = {}
    for path, deps in gold.items():
        g = {d.name for d in deps}
        p = {d.name for d in pred.get(path, [])}
        out[path] = {
            "correct": sorted(g & p),
            "extra": sorted(p - g),
            "missing": sorted(g - p),
        }
    return out


def compare_features(gold: dict[str, list[Dep]], pred: dict[str, list[Dep]]) -> dict[str, Any]:
    """Feature sets of the dependencies present in both gold and prediction (same build file).

    `matched`: such dependencies; `exact`: those whose feature sets are equal; `declared` /
    `declared_exact`: the same over dependencies whose gold entry names features (the figure
    that matters for a build); `counts`: feature tp/fp/fn pooled over matched dependencies;
    `mismatches`: (build file, name, gold features, predicted features) for reading.
    """
    matched = exact = declared = declared_exact = 0
    counts = Counts()
    mismatches = []
    for path, deps in gold.items():
        mine = {d.name: d for d in pred.get(path, [])}
        for g in deps:
            p = mine.get(g.name)
            if p is None:
                continue
            gf, pf = set(g.features), set(p.features)
            matched += 1
            same = gf == pf
            exact += same
            if gf:
                declared += 1
                declared_exact += same
            counts = counts + Counts(len(gf & pf), len(pf - gf), len(gf - pf))
            if not same:
                mismatches.append([path, g.name, sorted(gf), sorted(pf)])
    return {
        "matched": matched,
        "exact": exact,
        "declared": declared,
        "declared_exact": declared_exact,
        "counts": counts.to_json(),
        "mismatches": mismatches,
    }


def _features_summary(per: list[dict[str, Any]]) -> dict[str, Any]:
    """Pooled feature figures over instances (micro: dependencies and features summed)."""
    total = {k: sum(f[k] for f in per) for k in ("matched", "exact", "declared", "declared_exact")}
    counts = Counts()
    for f in per:
        c = f["counts"]
        counts = counts + Counts(c["tp"], c["fp"], c["fn"])
    return {
        **total,
        "exact_rate": round(total["exact"] / total["matched"], 4) if total["matched"] else 0.0,
        "declared_exact_rate": (
            round(total["declared_exact"] / total["declared"], 4) if total["declared"] else 0.0
        ),
        **{k: v for k, v in counts.to_json().items()},
    }


# Languages whose dependencies carry features in the manifest (Cargo features); elsewhere an
# instance is scored only when its gold names some (Python extras), C# has none.
FEATURE_LANGUAGES = frozenset({"rust"})


def scores_features(language: str, gold: dict[str, list[Dep]]) -> bool:
    return language in FEATURE_LANGUAGES or any(d.features for ds in gold.values() for d in ds)


def features_of(result: dict[str, Any]) -> dict[str, Any] | None:
    """An instance's feature comparison: stored by the run, or computed from its gold and
    prediction (results written before the figure existed); None where features are not
    scored (see `scores_features`)."""
    if isinstance(result.get("features"), dict):
        return result["features"]
    gold = {p: [Dep.from_json(d) for d in ds] for p, ds in (result.get("gold") or {}).items()}
    if not scores_features(result.get("language", ""), gold):
        return None
    pred = {p: [Dep.from_json(d) for d in ds] for p, ds in (result.get("pred") or {}).items()}
    return compare_features(gold, pred)


def mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def aggregate(results: list[dict[str, Any]]) -> dict[str, Any]:
    """Mean-of-instances and micro figures over finished instance results."""
    done = [r for r in results if r.get("status") == "ok"]
    summary: dict[str, Any] = {
        # versions are not scored when every instance ran names-only (gold has them, we do not)
        "names_only": bool(done) and all(r.get("names_only") for r in done),
        "instances": len(results),
        "scored": len(done),
        "errors": sum(1 for r in results if r.get("status") == "error"),
    }
    for label in ("name", "version", "compatible"):
        per = [r["metrics"][label] for r in done if label in r["metrics"]]
        if label == "compatible" and len(per) < len(done):
            continue  # only when every instance could be judged (online, with versions)
        micro = Counts()
        for m in per:
            micro = micro + Counts(m["tp"], m["fp"], m["fn"])
        summary[label] = {
            "precision": round(mean([m["precision"] for m in per]), 4),
            "recall": round(mean([m["recall"] for m in per]), 4),
            "f1": round(mean([m["f1"] for m in per]), 4),
            "micro": micro.to_json(),
        }
    features = [f for f in (features_of(r) for r in done) if f is not None]
    if features:
        summary["features"] = _features_summary(features)
    written = sum(r["fake"]["written"] for r in done)
    fake = sum(r["fake"]["fake"] for r in done)
    unverified = sum(r["fake"]["unverified"] for r in done)
    summary["fake"] = {
        "written": written,
        "fake": fake,
        "unverified": unverified,
        "rate": round(fake / written, 4) if written else 0.0,
    }
    categories: dict[str, int] = {}
    for r in done:
        for c in r.get("failure_categories", []):
            categories[c] = categories.get(c, 0) + 1
    summary["failure_categories"] = dict(sorted(categories.items()))
    summary["wall_time"] = round(sum(r.get("wall_time", 0.0) for r in results), 2)
    return summary


def aggregate_peers(results: list[dict[str, Any]]) -> dict[str, Any]:
    """Per peer tool: name P/R/F1 (mean and micro) over the instances it ran on, with the
    wall time of the tool and, for the same instances, depinfer's own figures (its time: the
    scan-to-write inference alone, like the peer's own run)."""
    tools: dict[str, list[tuple[dict[str, Any], dict[str, Any]]]] = {}
    for r in results:
        if r.get("status") != "ok":
            continue
        for tool, answer in (r.get("peers") or {}).items():
            tools.setdefault(tool, []).append((r, answer))
    out: dict[str, Any] = {}
    for tool, pairs in sorted(tools.items()):
        ok = [(r, a) for r, a in pairs if a.get("status") == "ok"]
        entry: dict[str, Any] = {
            "language": pairs[0][0].get("language"),
            "instances": len(pairs),
            "scored": len(ok),
            "not_run": sorted({a.get("status", "") for _, a in pairs if a.get("status") != "ok"}),
        }
        for who, pick in (("peer", lambda r, a: a), ("depinfer", lambda r, a: r)):
            per = [pick(r, a)["metrics"]["name"] for r, a in ok]
            micro = Counts()
            for m in per:
                micro = micro + Counts(m["tp"], m["fp"], m["fn"])
            entry[who] = {
                "precision": round(mean([m["precision"] for m in per]), 4),
                "recall": round(mean([m["recall"] for m in per]), 4),
                "f1": round(mean([m["f1"] for m in per]), 4),
                "micro_f1": round(micro.f1, 4),
            }
        entry["peer"]["wall_time"] = round(sum(a.get("wall_time", 0.0) for _, a in ok), 2)
        entry["depinfer"]["wall_time"] = round(sum(r.get("infer_time", 0.0) for r, _ in ok), 2)
        out[tool] = entry
    return out
