"""Reports over instance results: text tables, summary.json, merging shard outputs, a plot.

Results are plain JSON files (`<dir>/<language>/<id>.json`), so a report can be made from
any set of them — one run, the parts of a sharded run (`merge`), or results copied back
from other machines. Instances are keyed by id; when parts disagree the newest file wins.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from depinfer.bench.execute import aggregate_execution
from depinfer.bench.metrics import aggregate, aggregate_peers, features_of
from depinfer.bench.sections import PROJECT


def load_results(*dirs: Path) -> list[dict[str, Any]]:
    """All instance results under the given directories, one per instance id (newest wins)."""
    chosen: dict[str, tuple[float, dict[str, Any]]] = {}
    for d in dirs:
        for path in sorted(Path(d).glob("*/*.json")):
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                continue
            if not isinstance(data, dict) or "id" not in data or "status" not in data:
                continue
            mtime = path.stat().st_mtime
            key = data["id"]
            if key not in chosen or mtime > chosen[key][0]:
                chosen[key] = (mtime, data)
    return [
        data for _, data in sorted(chosen.values(), key=lambda t: (t[1]["language"], t[1]["id"]))
    ]


def summarise(results: list[dict[str, Any]]) -> dict[str, Any]:
    by_language: dict[str, list[dict[str, Any]]] = {}
    for r in results:
        by_language.setdefault(r.get("language", "?"), []).append(r)

    def figures(rs: list[dict[str, Any]]) -> dict[str, Any]:
        out = aggregate(rs)
        kinds = by_kind(rs)
        if len(kinds) > 1:
            out["kinds"] = kinds
        executed = aggregate_execution(rs)
        if executed is not None:
            out["execution"] = executed
        return out

    return {
        "languages": {lang: figures(rs) for lang, rs in sorted(by_language.items())},
        "all": figures(results),
        **({"splits": by_split(results)} if has_splits(results) else {}),
        "peers": aggregate_peers(results),
        "instances": {
            r["id"]: {
                "language": r.get("language"),
                "status": r.get("status"),
                **(
                    {
                        "name_f1": r["metrics"]["name"]["f1"],
                        "version_f1": r["metrics"]["version"]["f1"],
                        "fake": r["fake"]["fake"],
                        **_features_brief(r),
                        "failure_categories": r.get("failure_categories", []),
                    }
                    if r.get("status") == "ok"
                    else {"error": r.get("error", "")}
                ),
                "wall_time": r.get("wall_time", 0.0),
                **(
                    {"execution": _execution_brief(r["execution"])}
                    if isinstance(r.get("execution"), dict)
                    else {}
                ),
            }
            for r in results
        },
    }


SPLITS = ("train", "validation")


def has_splits(results: list[dict[str, Any]]) -> bool:
    """Whether the results come from a dataset split into train and validation."""
    return any(r.get("split") in SPLITS for r in results)


def by_split(results: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per language (and over all): the figures of each split and of all its instances."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for r in results:
        groups.setdefault(r.get("language", "?"), []).append(r)
    if len(groups) > 1:
        groups["all"] = list(results)
    out: dict[str, dict[str, Any]] = {}
    for lang, rs in sorted(groups.items(), key=lambda kv: (kv[0] == "all", kv[0])):
        parts = {split: [r for r in rs if r.get("split") == split] for split in SPLITS}
        out[lang] = {split: aggregate(part) for split, part in parts.items()}
        out[lang]["all"] = aggregate(rs)
    return out


def _split_cells(s: dict[str, Any]) -> str:
    if not s["scored"]:
        return f"{s['instances']:>3} {'-':>5} {'-':>5} {'-':>5} {'-':>5}"
    n = s["name"]
    return (
        f"{s['scored']:>3} {_pct(n['precision'])} {_pct(n['recall'])} {_pct(n['f1'])} "
        f"{_pct(s['fake']['rate'])}"
    )


def split_table(summary: dict[str, Any]) -> str:
    """Train, validation and all side by side per language (name P/R/F1 and fake rate);
    empty unless the results carry a train/validation split."""
    splits = summary.get("splits")
    if not splits:
        return ""
    cols = ("train", "validation", "all")
    cell = f"{'n':>3} {'P':>5} {'R':>5} {'F1':>5} {'fake':>5}"
    head = f"{'language':<11}" + "".join(f" │ {c:<{len(cell)}}" for c in cols) + " │ ΔF1 t−v"
    sub = f"{'':<11}" + "".join(f" │ {cell}" for _ in cols) + " │"
    lines = [head, sub, "─" * len(head)]
    for lang, s in splits.items():
        t, v = s["train"], s["validation"]
        delta = (
            f"{100 * (t['name']['f1'] - v['name']['f1']):+7.1f}"
            if t["scored"] and v["scored"]
            else f"{'-':>7}"
        )
        lines.append(
            f"{lang:<11}" + "".join(f" │ {_split_cells(s[c])}" for c in cols) + f" │ {delta}"
        )
    lines.append(
        "splits: the dataset's train/validation split (a hash of the repository name); n: "
        "scored instances; P/R/F1: name figures, mean over instances; fake: fake rate (%)."
    )
    return "\n".join(lines) + "\n"


def _features_brief(r: dict[str, Any]) -> dict[str, Any]:
    f = features_of(r)
    if f is None:
        return {}
    return {"features_exact": f"{f['exact']}/{f['matched']}", "features_f1": f["counts"]["f1"]}


def _execution_brief(e: dict[str, Any]) -> dict[str, Any]:
    """The verdicts of one instance's executed run, for summary.json."""
    brief = {k: e.get(k) for k in ("status", "counted", "absolute", "relative_counted", "relative")}
    if e.get("reason") or e.get("error"):
        brief["reason"] = e.get("reason") or e.get("error")
    brief["runs"] = {k: v.get("status") for k, v in (e.get("runs") or {}).items()}
    brief["seconds"] = e.get("seconds", 0.0)
    if e.get("peers"):
        brief["peers"] = {
            tool: {k: p.get(k) for k in ("status", "absolute", "relative")}
            for tool, p in sorted(e["peers"].items())
        }
    return brief


def _pct(x: float) -> str:
    return f"{100 * x:5.1f}"


def instance_table(results: list[dict[str, Any]]) -> str:
    executed = any(isinstance(r.get("execution"), dict) for r in results)
    head = (
        f"{'instance':<48} {'gold':>4} {'pred':>4} {'P':>5} {'R':>5} {'F1':>5} {'fake':>4} "
        f"{'infer':>7} {'total':>7}"
        + ("  executed (gold/masked/inferred → verdict)" if executed else "")
    )
    lines = [head, "-" * len(head)]
    for r in results:
        if r.get("status") != "ok":
            lines.append(f"{r['id'][:48]:<48} error: {r.get('error', '')[:60]}")
            continue
        m = r["metrics"]["name"]
        lines.append(
            f"{r['id'][:48]:<48} {m['tp'] + m['fn']:>4} {m['tp'] + m['fp']:>4} "
            f"{_pct(m['precision'])} {_pct(m['recall'])} {_pct(m['f1'])} "
            f"{r['fake']['fake']:>4} {r.get('infer_time', 0.0):>6.1f}s {r.get('wall_time', 0.0):>6.1f}s"
            + (
                f"  {_execution_cell(r['execution'])}"
                if isinstance(r.get("execution"), dict)
                else ""
            )
        )
    return "\n".join(lines) + "\n"


def _execution_cell(e: dict[str, Any]) -> str:
    if e.get("status") == "not-run":
        return f"not run: {e.get('reason', '')}"[:70]
    if e.get("status") != "ok":
        return f"error: {e.get('error', '')}"[:70]
    runs = e.get("runs") or {}
    short = {"passed": "pass", "failed": "fail", "install-failed": "inst", "timeout": "time"}
    states = "/".join(
        short.get(runs.get(k, {}).get("status", "-"), "-") for k in ("gold", "masked", "inferred")
    )
    verdicts = []
    if e.get("counted"):
        verdicts.append("abs " + ("pass" if e.get("absolute") else "fail"))
    if e.get("relative_counted"):
        verdicts.append("rel " + ("pass" if e.get("relative") else "fail"))
    for tool, p in sorted((e.get("peers") or {}).items()):
        ok = p.get("absolute") if p.get("absolute") is not None else p.get("relative")
        verdicts.append(
            f"{tool} " + ("error" if p.get("status") != "ok" else "pass" if ok else "fail")
        )
    return f"{states} → {', '.join(verdicts) or 'not counted'} {e.get('seconds', 0.0):.0f}s"


def _ratio(k: int, n: int) -> str:
    return f"{k}/{n}" if n else "-"


def _execution_columns(s: dict[str, Any] | None) -> str:
    if s is None:
        return f" │ {'':>5} {'':>3} {'':>5} {'':>4} {'':>5} {'':>7}"
    return (
        f" │ {_ratio(s['ran'], s['instances']):>5} {s['counted']:>3} "
        f"{_ratio(s['absolute_pass'], s['counted']):>5} {s['relative_counted']:>4} "
        f"{_ratio(s['relative_pass'], s['relative_counted']):>5} {s['seconds']:>6.0f}s"
    )


def language_table(summary: dict[str, Any]) -> str:
    head = (
        f"{'language':<11} {'n':>3} {'err':>3} │ {'name P':>6} {'R':>5} {'F1':>5} {'µF1':>5} │ "
        f"{'ver P':>5} {'R':>5} {'F1':>5} {'cF1':>5} │ {'fake':>4} {'unver':>5} {'rate':>5} │ "
        f"{'time':>7}"
    )
    rows = list(summary["languages"].items())
    if len(rows) > 1:
        rows.append(("all", summary["all"]))
    executed = any("execution" in s for _, s in rows)
    if executed:
        head += f" │ {'ran':>5} {'cnt':>3} {'abs':>5} {'rcnt':>4} {'rel':>5} {'exec':>7}"
    lines = [head, "─" * len(head)]
    for lang, s in rows:
        n, v, f = s["name"], s["version"], s["fake"]
        lines.append(
            f"{lang:<11} {s['scored']:>3} {s['errors']:>3} │ {_pct(n['precision']):>6} "
            f"{_pct(n['recall'])} {_pct(n['f1'])} {_pct(n['micro']['f1'])} │ "
            + (
                f"{'n/a':>5} {'n/a':>5} {'n/a':>5} {'n/a':>5} │ "
                if s.get("names_only")
                else f"{_pct(v['precision'])} {_pct(v['recall'])} {_pct(v['f1'])} "
                f"{_pct(s['compatible']['f1']) if 'compatible' in s else '  n/a'} │ "
            )
            + f"{f['fake']:>4} {f['unverified']:>5} {_pct(f['rate'])} │ {s['wall_time']:>6.1f}s"
            + (_execution_columns(s.get("execution")) if executed else "")
        )
    lines.extend(_kind_lines(rows))
    lines.extend(_features_lines(rows))
    cats = summary["all"].get("failure_categories") or {}
    if cats:
        lines.append("")
        lines.append(
            "failure categories (instances): "
            + "; ".join(f"{k}: {v}" for k, v in sorted(cats.items()))
        )
    lines.append(
        "P/R/F1: mean over instances (DI-Bench); µF1: micro over all (build file, name) pairs; "
        "ver: name and constraint as gold (DI-Bench's exact); cF1: name, and a constraint sharing "
        "a published release with gold's (online); "
        "fake: written names the registry does not know; unver: not checked (offline); "
        "time: whole instance (copy, mask, infer, registry checks, score)."
    )
    if executed:
        lines.append(
            "executed (--execute): ran: instances whose test job ran / all; cnt: counted (gold "
            "passes, masked fails — DI-Bench's curation); abs: inferred passes / cnt; rcnt: masked "
            "loses a test that passed with gold; rel: inferred keeps every gold-passing test / "
            "rcnt; exec: time of the three runs."
        )
    return "\n".join(lines) + "\n"


def by_kind(results: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Name P/R/F1 per kind of entry (package, project reference, …), averaged over the
    instances whose gold or prediction has that kind — C#'s PackageReference and
    ProjectReference figures apart. Results of an `--all-evidence` run also give each
    internal-reference evidence ceiling: the F1 of an analysis that wrote exactly the gold
    references among those the code supports (recall as written, no false positive);
    C# is the analyzer that honours the option."""
    per: dict[str, list[tuple[float, float, float]]] = {}
    ceiling: dict[str, list[float]] = {}
    for r in results:
        if r.get("status") != "ok":
            continue
        gold, pred = r.get("gold") or {}, r.get("pred") or {}
        counts: dict[str, list[int]] = {}
        for path in set(gold) | set(pred):
            g = {(d.get("kind") or "package", d["name"].lower()) for d in gold.get(path, [])}
            p = {(d.get("kind") or "package", d["name"].lower()) for d in pred.get(path, [])}
            for kind in {k for k, _ in g | p}:
                gk = {n for k, n in g if k == kind}
                pk = {n for k, n in p if k == kind}
                c = counts.setdefault(kind, [0, 0, 0])
                c[0] += len(gk & pk)
                c[1] += len(pk - gk)
                c[2] += len(gk - pk)
        for kind, (tp, fp, fn) in counts.items():
            prec = tp / (tp + fp) if tp + fp else 1.0
            rec = tp / (tp + fn) if tp + fn else 1.0
            f1 = 2 * prec * rec / (prec + rec) if prec + rec else 0.0
            per.setdefault(kind, []).append((prec, rec, f1))
            if r.get("all_evidence") and kind == PROJECT and tp + fn:
                ceiling.setdefault(kind, []).append(2 * tp / (2 * tp + fn))
    return {
        kind: {
            "instances": len(v),
            "precision": round(sum(x[0] for x in v) / len(v), 4),
            "recall": round(sum(x[1] for x in v) / len(v), 4),
            "f1": round(sum(x[2] for x in v) / len(v), 4),
            **(
                {"ceiling_f1": round(sum(ceiling[kind]) / len(ceiling[kind]), 4)}
                if kind in ceiling
                else {}
            ),
        }
        for kind, v in sorted(per.items())
    }


def _kind_lines(rows: list[tuple[str, dict[str, Any]]]) -> list[str]:
    out = []
    for lang, s in rows:
        kinds = s.get("kinds")
        if not kinds or lang == "all":
            continue
        parts = [
            f"{kind} P {_pct(k['precision']).strip()} R {_pct(k['recall']).strip()} "
            f"F1 {_pct(k['f1']).strip()} ({k['instances']})"
            + (f" evidence ceiling F1 {_pct(k['ceiling_f1']).strip()}" if "ceiling_f1" in k else "")
            for kind, k in kinds.items()
        ]
        out.append(f"{lang} by kind: " + "; ".join(parts))
    return out


def _features_lines(rows: list[tuple[str, dict[str, Any]]]) -> list[str]:
    """One line per language whose dependencies carry features (metrics.compare_features)."""
    out = []
    for lang, s in rows:
        f = s.get("features")
        if not f or lang == "all":
            continue
        out.append(
            f"{lang} features: exact {_ratio(f['exact'], f['matched'])} matched deps "
            f"({_pct(f['exact_rate']).strip()}%), {_ratio(f['declared_exact'], f['declared'])} "
            f"where gold names features ({_pct(f['declared_exact_rate']).strip()}%); feature "
            f"P {_pct(f['precision']).strip()} R {_pct(f['recall']).strip()} "
            f"F1 {_pct(f['f1']).strip()} (raw sets, implied features not folded)"
        )
    return out


def verify_table(summary: dict[str, Any]) -> str:
    """Plain inference next to verify-and-repair (`--execute --verify`) and to each peer
    tool's executed run (`--execute --peers`), on the counted instances of each language;
    empty when neither ran."""
    rows = [
        (lang, s["execution"])
        for lang, s in summary["languages"].items()
        if {"verify", "peers"} & set(s.get("execution") or {})
    ]
    if not rows:
        return ""
    tools = sorted({t for _, e in rows for t in e.get("peers") or {}})
    widths = {t: max(9, len(t) + 4) for t in tools}

    def peer_heads(kind: str) -> str:
        return "".join(f" {t + ' ' + kind:>{widths[t]}}" for t in tools)

    head = (
        f"{'language':<11} {'cnt':>3} {'plain abs':>9} {'verify abs':>10}{peer_heads('abs')} │ "
        f"{'rcnt':>4} {'plain rel':>9} {'verify rel':>10}{peer_heads('rel')} │ {'rounds':>6} "
        f"{'time':>7}"
    )
    lines = [head, "─" * len(head)]
    for lang, e in rows:
        v = e.get("verify")
        peers = e.get("peers") or {}

        def peer_cells(kind: str, peers: dict = peers) -> str:
            cells = {
                t: _ratio(peers[t][kind + "_pass"], peers[t][kind + "_of"]) if t in peers else "-"
                for t in tools
            }
            return "".join(f" {cells[t]:>{widths[t]}}" for t in tools)

        v_abs = _ratio(v["absolute_pass"], v["absolute_of"]) if v else "-"
        v_rel = _ratio(v["relative_pass"], v["relative_of"]) if v else "-"
        lines.append(
            f"{lang:<11} {e['counted']:>3} {_ratio(e['absolute_pass'], e['counted']):>9} "
            f"{v_abs:>10}{peer_cells('absolute')} │ {e['relative_counted']:>4} "
            f"{_ratio(e['relative_pass'], e['relative_counted']):>9} "
            f"{v_rel:>10}{peer_cells('relative')} │ "
            + (f"{v['mean_rounds']:>6.2f} {v['seconds']:>6.0f}s" if v else f"{'-':>6} {'-':>7}")
        )
    if any("verify" in e for _, e in rows):
        lines.append(
            "verify (--verify): the masked tree inferred, run and repaired (depinfer PATH "
            "--verify) on the counted instances; rounds: mean test runs per instance (1: the "
            "inferred run passed, no repair); time: the repair rounds only."
        )
    if tools:
        lines.append(
            "peers (--peers): the masked tree with the names each tool reported written into "
            "its build files (no versions), run and judged as the plain run, on the same "
            "counted instances (a tool that wrote nothing keeps the masked tree: a failure)."
        )
    return "\n".join(lines) + "\n"


def peers_table(summary: dict[str, Any]) -> str:
    """Peers next to depinfer on the instances each peer ran on."""
    peers = summary.get("peers") or {}
    if not peers:
        return ""
    head = f"{'tool':<10} {'language':<11} {'n':>3} │ {'P':>5} {'R':>5} {'F1':>5} {'µF1':>5} │ {'time':>7}"
    lines = [head, "─" * len(head)]
    for tool, e in peers.items():
        for who in (tool, "depinfer"):
            m = e["peer" if who == tool else "depinfer"]
            lines.append(
                f"{who:<10} {e['language']:<11} {e['scored']:>3} │ {_pct(m['precision'])} "
                f"{_pct(m['recall'])} {_pct(m['f1'])} {_pct(m['micro_f1'])} │ {m['wall_time']:>6.1f}s"
            )
        if e["not_run"]:
            lines.append(f"{'':<10} {tool} not scored on some instances: {', '.join(e['not_run'])}")
    lines.append(
        "time: the tool's own run (depinfer: scan to written manifests), summed over instances."
    )
    return "\n".join(lines) + "\n"


def write_summary(out: Path, results: list[dict[str, Any]]) -> dict[str, Any]:
    summary = summarise(results)
    out.mkdir(parents=True, exist_ok=True)
    (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    return summary


def plot(summary: dict[str, Any], path: Path) -> str:
    """A bar chart of per-language name/version F1 and fake rate; needs the `plot` extra."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return "plot skipped: matplotlib is not installed (pip install 'depinfer[plot]')"
    langs = list(summary["languages"])
    if not langs:
        return "plot skipped: no results"
    series = {
        "name F1": [summary["languages"][lang]["name"]["f1"] for lang in langs],
        "version F1": [summary["languages"][lang]["version"]["f1"] for lang in langs],
        "name precision": [summary["languages"][lang]["name"]["precision"] for lang in langs],
        "name recall": [summary["languages"][lang]["name"]["recall"] for lang in langs],
        "fake rate": [summary["languages"][lang]["fake"]["rate"] for lang in langs],
    }
    if all("compatible" in summary["languages"][lang] for lang in langs):
        series["compatible-version F1"] = [
            summary["languages"][lang]["compatible"]["f1"] for lang in langs
        ]
    if all(summary["languages"][lang].get("names_only") for lang in langs):
        del series["version F1"]  # names-only runs write no versions to compare
    executed = [summary["languages"][lang].get("execution") or {} for lang in langs]
    if any(e.get("counted") for e in executed):
        series["executed abs pass"] = [e.get("absolute_rate") or 0.0 for e in executed]
    if any(e.get("relative_counted") for e in executed):
        series["executed rel pass"] = [e.get("relative_rate") or 0.0 for e in executed]
    fig, ax = plt.subplots(figsize=(max(6, 2 * len(langs)), 4))
    width = 0.8 / len(series)
    for k, (label, values) in enumerate(series.items()):
        xs = [i + k * width - 0.4 + width / 2 for i in range(len(langs))]
        ax.bar(xs, [100 * v for v in values], width, label=label)
    ax.set_xticks(range(len(langs)))
    ax.set_xticklabels(langs)
    ax.set_ylim(0, 100)
    ax.set_ylabel("%")
    ax.set_title("depinfer on the benchmark, per language")
    ax.legend(fontsize="small", ncol=3, loc="upper center", bbox_to_anchor=(0.5, -0.1))
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return f"plot written to {path}"
