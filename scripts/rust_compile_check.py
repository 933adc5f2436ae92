"""Does what depinfer wrote for a Rust repository compile? A fast stand-in for the executed bench.

For each Rust instance of a dataset: the gold tree (as published, its Cargo.lock kept) and the
inferred tree (masked, then the manifests a textual bench run recorded in `written_text` put
back, no lock file) — each laid out as the executed bench lays it out
(`depinfer.bench.execute.prepare_copy`, a git checkout as CI has it) — are checked with
`cargo check --workspace --bins --tests --examples` (benches
are left out: they often need nightly) in the same scratch path, with one shared
CARGO_TARGET_DIR outside the repositories so that dependencies build once. An instance is
countable when gold compiles; the figure is inferred compiles / countable. Each failure is
classified from cargo's messages (see `CAUSES`).

    python scripts/rust_compile_check.py --dataset rust-train.jsonl --trees /work/corpus-repos \
        --results OUT/train --out OUT/compile-train --target-dir /work/cargo-target

`--results` is the folder a `depinfer bench run` wrote (<results>/rust/<id>.json). Gold
verdicts are cached in <out>/gold/<id>.json (they do not depend on depinfer) and reused with
`--gold-cache DIR`. `--aggregate-only` prints the counts and nothing per instance (for the
validation split, whose per-instance results are not to be read).
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

from depinfer.bench.dataset import Instance, load_dataset
from depinfer.bench.execute import prepare_copy

TIMEOUT = 600  # default seconds for one cargo check (`--timeout`; a shared, loaded machine)
# (cause, pattern over cargo's output), first match wins per error block
CAUSES = (
    (
        "manifest",
        r"failed to (parse|load) manifest|feature `[^`]+` includes|dependency \([^)]*\) specified",
    ),
    ("resolve", r"failed to select a version|no matching package named|failed to get `"),
    ("derive/attribute macro", r"cannot find (derive )?macro|cannot find attribute"),
    ("feature-gated item", r"gated behind the `[^`]+` feature|is behind a feature|feature = \""),
    (
        "missing crate",
        r"unresolved import `[^`:]+`$|use of (unresolved module or unlinked crate|undeclared crate)|can't find crate",
    ),
    (
        "api (item/path)",
        r"unresolved import|could not find `|cannot find `[^`]+` in `|cannot find (function|type|value|struct|trait)|no function or associated item|no variant|not found in",
    ),
    (
        "api (method/field)",
        r"no method named|no field|takes \d+ arguments? but|missing field|has no field",
    ),
    (
        "two majors (trait/type)",
        r"two different versions of crate|multiple different versions|the trait bound|mismatched types|expected .* found",
    ),
)


def classify(output: str) -> list[str]:
    """The causes of a failed check: one per distinct cause among cargo's error blocks."""
    found: list[str] = []
    blocks = re.split(r"\n(?=error)", output)
    for block in blocks:
        if not block.startswith("error") or "could not compile" in block.splitlines()[0]:
            continue
        head = "\n".join(block.splitlines()[:6])
        cause = next((c for c, p in CAUSES if re.search(p, head, re.M)), "other")
        if cause not in found:
            found.append(cause)
    return found or ["other"]


def error_lines(output: str, limit: int = 12) -> list[str]:
    lines = [ln for ln in output.splitlines() if ln.startswith("error")]
    lines = [ln for ln in lines if "could not compile" not in ln]
    return list(dict.fromkeys(lines))[:limit]


def workspace_dir(root: Path, inst: Instance) -> Path:
    if (root / "Cargo.toml").is_file():
        return root
    files = sorted(inst.build_files, key=lambda rel: (rel.count("/"), rel))
    return (root / files[0]).parent if files else root


def cargo_check(root: Path, inst: Instance, args: argparse.Namespace) -> dict:
    env = dict(os.environ, CARGO_TARGET_DIR=str(args.target_dir), CARGO_TERM_COLOR="never")
    env["RUSTUP_TOOLCHAIN"] = args.toolchain  # a tree's rust-toolchain file is not installed here
    cmd = [
        "nice",
        "-n",
        "10",
        "cargo",
        *args.command.split(),
        "--workspace",
        "--ignore-rust-version",
        "-j",
        str(args.jobs),
    ]
    start = time.monotonic()
    try:
        proc = subprocess.run(
            cmd,
            cwd=workspace_dir(root, inst),
            env=env,
            capture_output=True,
            text=True,
            timeout=getattr(args, "timeout", TIMEOUT),
        )
        output, ok = proc.stderr + proc.stdout, proc.returncode == 0
    except subprocess.TimeoutExpired:
        output, ok = "error: timed out", False
    seconds = round(time.monotonic() - start, 1)
    result = {"ok": ok, "seconds": seconds, "errors": [] if ok else error_lines(output)}
    if not ok:
        result["causes"] = classify(output)
        result["output_tail"] = output[-6000:]
    return result


def run_gold(inst: Instance, args: argparse.Namespace, scratch: Path) -> dict:
    for cache in (args.gold_cache, args.out / "gold"):
        path = cache / f"{inst.id}.json" if cache else None
        if path and path.is_file():
            return json.loads(path.read_text())
    result = _checked_copy("gold", inst, args, scratch, {})
    (args.out / "gold").mkdir(parents=True, exist_ok=True)
    (args.out / "gold" / f"{inst.id}.json").write_text(json.dumps(result, indent=1))
    return result


def run_inferred(inst: Instance, args: argparse.Namespace, scratch: Path) -> dict:
    saved = args.results / "rust" / f"{inst.id}.json"
    if not saved.is_file():
        return {"ok": False, "errors": ["no bench result"], "causes": ["no result"]}
    written = json.loads(saved.read_text()).get("written_text") or {}
    return _checked_copy("inferred", inst, args, scratch, written)


def _checked_copy(
    kind: str, inst: Instance, args: argparse.Namespace, scratch: Path, written: dict
) -> dict:
    """`cargo check` of the scratch copy an executed bench run lays out for `kind` (gold:
    the tree as published; inferred: masked, the written manifests put back)."""
    problem = prepare_copy(kind, inst, inst.tree(args.trees), scratch, written)
    result = (
        {"ok": False, "errors": [problem], "causes": ["not prepared"]}
        if problem
        else cargo_check(scratch, inst, args)
    )
    shutil.rmtree(scratch, ignore_errors=True)
    return result


def check_instance(inst: Instance, args: argparse.Namespace) -> dict:
    scratch = args.scratch / inst.id
    shutil.rmtree(scratch, ignore_errors=True)
    gold = run_gold(inst, args, scratch)
    record = {"id": inst.id, "gold": gold, "inferred": None}
    if gold["ok"]:
        record["inferred"] = run_inferred(inst, args, scratch)
    (args.out / f"{inst.id}.json").write_text(json.dumps(record, indent=1))
    return record


def summary(records: list[dict]) -> str:
    countable = [r for r in records if r["gold"]["ok"]]
    passed = [r for r in countable if r["inferred"]["ok"]]
    causes = collections.Counter(c for r in countable for c in r["inferred"].get("causes", []))
    share = f"{100 * len(passed) / len(countable):.0f}%" if countable else "-"
    line = f"instances {len(records)}  countable {len(countable)}  inferred compiles {len(passed)} ({share})"
    return line + "\ncauses: " + ", ".join(f"{c} {n}" for c, n in causes.most_common())


def reread(out: Path) -> list[dict]:
    """The records of an earlier run, their causes classified again from the kept output."""
    records = [json.loads(p.read_text()) for p in sorted(out.glob("*.json"))]
    for r in records:
        inferred = r.get("inferred")
        if inferred and not inferred["ok"] and "output_tail" in inferred:
            inferred["causes"] = classify(inferred["output_tail"])
    return records


def _seconds(text: str) -> int:
    """A positive whole number of seconds, else argparse's own usage error."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value <= 0:
        raise argparse.ArgumentTypeError(f"not a positive number of seconds: {text!r}")
    return value


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dataset", required=True, type=Path)
    ap.add_argument("--trees", required=True, type=Path)
    ap.add_argument("--results", required=True, type=Path, help="a `depinfer bench run` folder")
    ap.add_argument("--out", required=True, type=Path)
    ap.add_argument("--target-dir", type=Path, default=Path("/work/cargo-target-check"))
    ap.add_argument("--scratch", type=Path, default=None)
    ap.add_argument("--gold-cache", type=Path, default=None)
    ap.add_argument("--command", default="check --bins --tests --examples")
    ap.add_argument("--toolchain", default="stable")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument(
        "--timeout",
        type=_seconds,
        default=TIMEOUT,
        help=f"seconds one cargo check may take before it counts as failed (default {TIMEOUT})",
    )
    ap.add_argument("--instance", action="append", default=[])
    ap.add_argument("--aggregate-only", action="store_true")
    ap.add_argument("--summary-only", action="store_true", help="re-read <out>/*.json, run nothing")
    args = ap.parse_args(argv)
    if args.summary_only:
        print(summary(reread(args.out)))
        return 0
    args.out.mkdir(parents=True, exist_ok=True)
    args.scratch = args.scratch or args.out.parent / (args.out.name + "-scratch")
    records = []
    for inst in load_dataset(args.dataset):
        if inst.language != "rust" or (args.instance and inst.id not in args.instance):
            continue
        record = check_instance(inst, args)
        records.append(record)
        if not args.aggregate_only:
            inf = record["inferred"]
            state = (
                "gold-fails" if inf is None else ("ok" if inf["ok"] else ",".join(inf["causes"]))
            )
            print(f"{inst.id:50s} {state}", flush=True)
    print(summary(records))
    return 0


if __name__ == "__main__":
    sys.exit(main())
