"""`depinfer bench …`: prepare masked instances, run and score depinfer, report, merge shards.

    depinfer bench run --dataset dev-python.jsonl --trees TREES [--lang python] [--offline]
                       [--names-only] [--shard 1/4] [--out results/dev] [--instance ID]
                       [--force] [--dibench] [--plot]
                       [--execute [--step-timeout SEC]]
    depinfer bench prepare --dataset D --trees TREES --out DIR
    depinfer bench report RESULTS_DIR [--plot PNG]
    depinfer bench merge DIR... [--out DIR]
    depinfer bench perf --trees DIR... [--runs N] [--deptry PATH] [--knip PATH]

Trees are found at <trees>/<language>/<id>/. The source trees are only ever copied.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

from depinfer.bench.dataset import (
    LANGUAGES,
    DatasetError,
    Instance,
    load_dataset,
    parse_shard,
    select,
)
from depinfer.bench.perf import add_arguments as perf_args
from depinfer.bench.perf import main as cmd_perf

EXIT_OK = 0
EXIT_USAGE = 2
EXIT_PARTIAL = 3  # finished, but some instance could not be run (named on stderr)
EXIT_NO_SPACE = 4  # stopped early: the disk is (nearly) full; a rerun resumes

# Free space a run keeps in reserve on the scratch and results disks. Executed runs install
# whole dependency trees (a CI test job can take gigabytes), so they need far more headroom;
# below it, installs and copies fail with ENOSPC and every later instance would be recorded
# as a failure that has nothing to do with its dependencies.
DISK_FLOOR = 256 * 2**20
DISK_FLOOR_EXECUTE = 2 * 2**30

EPILOG = """\
exit codes: 0 done; 2 bad arguments or paths; 3 done, but some instance failed (see stderr);
4 stopped early because the disk is nearly full (free space, then rerun: it resumes)

examples:
  depinfer bench run --dataset dev-python.jsonl --trees /data/repos --names-only
  depinfer bench run --dataset dev-rust.jsonl --trees /data/repos --shard 2/4 --out results/dev
  depinfer bench merge results/part1 results/part2 --out results/all
  depinfer bench perf --trees repos/python/* --runs 5 --deptry ~/.venvs/deptry/bin/deptry
  depinfer bench run --dataset dibench-regular-python.jsonl --trees .cache/repo-data --dibench
  depinfer bench run --dataset dev-python.jsonl --trees /data/repos --execute --jobs 2

--execute also runs each repository's CI test job (local runner, no Docker) three times in
fresh copies: gold (as published), masked, inferred (masked + depinfer's manifests). An
instance counts for executability when gold passes and masked fails (DI-Bench's curation);
"abs": the inferred run passes; "rel": every test that passed with gold passes with inferred.
Logs: <out>/<language>/<id>/{gold,masked,inferred}.log. C# runs only when dotnet is on PATH.
With --peers, each counted instance also runs once per peer tool: the masked tree with the
names the tool reported written into the masked build files (no versions), judged the same
way; logs <out>/<language>/<id>/peer-<tool>.log.
"""


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="depinfer bench",
        description="Benchmark harness: mask build files, let depinfer restore them, score the result.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    run = sub.add_parser(
        "run", help="mask, infer, score", formatter_class=argparse.RawDescriptionHelpFormatter
    )
    _dataset_args(run)
    _inference_args(run)
    _execute_args(run)
    _output_args(run)

    prep = sub.add_parser("prepare", help="write masked copies and gold.json")
    _dataset_args(prep)
    prep.add_argument("--out", required=True, metavar="DIR", help="where masked trees go")
    prep.add_argument("--force", action="store_true", help="replace existing masked copies")

    rep = sub.add_parser("report", help="tables for a results directory")
    rep.add_argument("results", nargs="+", metavar="RESULTS_DIR")
    rep.add_argument("--instances", action="store_true", help="also list every instance")
    rep.add_argument("--json", action="store_true", help="print the summary as JSON")
    rep.add_argument(
        "--plot", nargs="?", const="", metavar="PNG", help="draw the per-language plot"
    )

    perf = sub.add_parser(
        "perf", help="time depinfer beside deptry and knip on the same trees (cold and warm)"
    )
    perf_args(perf)

    mer = sub.add_parser("merge", help="join shard results by instance id into one report")
    mer.add_argument("results", nargs="+", metavar="DIR")
    mer.add_argument("--out", metavar="DIR", help="copy the merged results and summary.json here")
    return p


def _dataset_args(sp: argparse.ArgumentParser) -> None:
    """The instances to run: a dataset, its trees, and a selection."""
    sp.add_argument("--dataset", required=True, metavar="JSONL", help="instances, one a line")
    sp.add_argument(
        "--trees",
        required=True,
        metavar="DIR",
        help="repository trees at DIR/<language>/<id>/ (DI-Bench: its extracted repo data)",
    )
    sp.add_argument("--lang", action="append", choices=LANGUAGES, help="only this language")
    sp.add_argument("--instance", action="append", metavar="ID", help="only this instance")
    sp.add_argument("--shard", metavar="I/N", help="run part I of N (deterministic split)")


def _inference_args(run: argparse.ArgumentParser) -> None:
    """`bench run`: where results go, and how depinfer infers and the instances run."""
    run.add_argument(
        "--out", metavar="DIR", help="results directory (default: results/<dataset name>)"
    )
    run.add_argument(
        "--offline", action="store_true", help="no registry look-ups (fake names unverified)"
    )
    run.add_argument("--names-only", action="store_true", help="write names without versions")
    run.add_argument(
        "--as-of",
        default="instance",
        metavar="DATE",
        help="newest versions allowed: instance (its commit date, default), now, or YYYY-MM-DD",
    )
    run.add_argument("--force", action="store_true", help="re-run instances that have a result")
    run.add_argument(
        "--jobs",
        type=int,
        default=1,
        metavar="N",
        help="instances run at the same time, each in its own process (default 1; "
        "at most 2 with --execute)",
    )
    run.add_argument(
        "--timeout",
        type=float,
        default=900,
        metavar="SEC",
        help="time limit per instance, run in a child process (0: in-process, no limit; default 900)",
    )
    run.add_argument(
        "--dibench",
        action="store_true",
        help="also write <out>/<language>/<id>/patch.diff for DI-Bench's evaluator; "
        "a DI-Bench dataset (with `patch`) is read as already masked",
    )
    run.add_argument(
        "--peers",
        metavar="TOOLS",
        help="also run peer tools found on PATH on the same masked copies: "
        "all, or a comma list of pipreqs, pigar (Python), depcheck, knip (JavaScript); "
        "with --execute, each counted instance also runs the test job with each tool's names",
    )


def _execute_args(run: argparse.ArgumentParser) -> None:
    """`bench run`: running the repositories' test jobs (--execute) and verify."""
    run.add_argument(
        "--execute",
        action="store_true",
        help="also run the repository's test job with gold, masked and inferred manifests "
        "(Python, JavaScript, Rust; C# when dotnet is on PATH) and report executability",
    )
    run.add_argument(
        "--exec-as-of",
        default="same",
        metavar="WHEN",
        help="with --execute: the package managers install nothing newer than this — same "
        "(as --as-of, default), none, or YYYY-MM-DD",
    )
    run.add_argument(
        "--step-timeout",
        type=int,
        default=900,
        metavar="SEC",
        help="with --execute: time limit per install or test step (default 900)",
    )
    run.add_argument(
        "--reuse-runs",
        metavar="DIR",
        help="with --execute: take the gold and masked runs from an earlier executed run's "
        "results in DIR (same instances and package-manager date) and run only the inferred "
        "manifests — to compare inference settings such as --names-only",
    )
    run.add_argument(
        "--countable-only",
        action="store_true",
        help="with --execute: run the inferred manifests only where gold and masked say the "
        "instance can count (gold passes and masked fails, or masked loses a gold-passing "
        "test); with --reuse-runs, a re-measurement runs nothing else",
    )
    run.add_argument(
        "--verify",
        action="store_true",
        help="with --execute: also run depinfer's verify-and-repair loop on each counted "
        "instance whose inferred run fails, and report its verdicts beside the plain ones",
    )
    run.add_argument(
        "--rounds",
        type=int,
        default=3,
        metavar="N",
        help="with --verify: repair rounds at most (default 3)",
    )


def _output_args(run: argparse.ArgumentParser) -> None:
    """`bench run`: what is kept and shown."""
    run.add_argument(
        "--keep", action="store_true", help="keep each scratch copy (path in the result)"
    )
    run.add_argument(
        "--all-evidence",
        action="store_true",
        help="write every internal reference the code gives any evidence for, unreduced "
        "(C# ProjectReferences); the report then gives the evidence ceiling: the F1 of "
        "an analysis choosing exactly the gold's evidenced references",
    )
    run.add_argument(
        "--plot", nargs="?", const="", metavar="PNG", help="also draw the per-language plot"
    )
    run.add_argument(
        "-q", "--quiet", action="store_true", help="no per-instance progress on stderr"
    )


def fail(message: str) -> int:
    print(f"depinfer bench: {message}", file=sys.stderr)
    return EXIT_USAGE


def _instances(args: argparse.Namespace) -> list[Instance]:
    instances = load_dataset(args.dataset)
    shard = parse_shard(args.shard) if args.shard else None
    chosen = select(instances, tuple(args.lang or ()), tuple(args.instance or ()), shard)
    missing = set(args.instance or ()) - {i.id for i in instances}
    if missing:
        raise DatasetError("no such instance in the dataset: " + ", ".join(sorted(missing)))
    return chosen


def _terminate_as_interrupt() -> object:
    """A scheduler's SIGTERM (`timeout`, a cluster's time limit) ends the run like Ctrl-C:
    scratch copies are removed, running test commands killed, finished results kept."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        return None

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    return signal.signal(signal.SIGTERM, interrupt)


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return EXIT_USAGE
    try:
        if args.command == "run":
            previous = _terminate_as_interrupt()
            try:
                return cmd_run(args)
            finally:
                if previous is not None:
                    import signal

                    signal.signal(signal.SIGTERM, previous)
        if args.command == "prepare":
            return cmd_prepare(args)
        if args.command == "report":
            return cmd_report(args)
        if args.command == "merge":
            return cmd_merge(args)
        if args.command == "perf":
            return cmd_perf(args)
    except DatasetError as exc:
        return fail(str(exc))
    except ValueError as exc:
        return fail(str(exc))
    except BrokenPipeError:  # output piped into `head` and friends
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
    except KeyboardInterrupt:
        print("depinfer bench: interrupted (finished instances are saved)", file=sys.stderr)
        return 130
    return EXIT_USAGE


def _check_trees(trees: str) -> Path | None:
    path = Path(trees)
    return path if path.is_dir() else None


def cmd_run(args: argparse.Namespace) -> int:
    from depinfer.bench.runner import RunOptions  # lazy: per subcommand

    trees = _check_trees(args.trees)
    if trees is None:
        return fail(f"--trees: not a directory: {args.trees}")
    problem = _run_usage_problem(args)
    if problem:
        return fail(problem)
    instances = _instances(args)
    if not instances:
        return fail("no instance matches the selection")
    out = Path(args.out) if args.out else Path("results") / Path(args.dataset).stem
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        return fail(f"--out: cannot create {out}: {exc.strerror}")
    options = RunOptions(
        offline=args.offline,
        names_only=args.names_only,
        as_of=args.as_of,
        keep=args.keep,
        peers=_available_peers(args, instances),
        all_evidence=args.all_evidence,
    )
    todo, kept = _todo(args, instances, out, options)

    def one(inst: Instance) -> dict:
        try:
            return _run_one(args, trees, out, options, kept.get(inst.id), inst)
        except OSError as exc:  # a full disk mid-instance: `_disk_short` stops the run
            if exc.errno != errno.ENOSPC:
                raise
            return {"id": inst.id, "language": inst.language, "status": "error",
                    "error": f"{type(exc).__name__}: {exc}"}  # fmt: skip

    floor = DISK_FLOOR_EXECUTE if args.execute else DISK_FLOOR
    disks = (Path(tempfile.gettempdir()), out)
    failed = 0
    short = _disk_short(disks, floor)
    if args.jobs > 1 and not short:
        from concurrent.futures import ThreadPoolExecutor, as_completed

        with ThreadPoolExecutor(max_workers=args.jobs) as pool:
            futures = {pool.submit(one, inst): (label, inst) for label, inst in todo}
            for future in as_completed(futures):  # a progress line as each instance ends
                label, inst = futures[future]
                result = future.result()
                short = short or _disk_short(disks, floor, result)
                if short:  # neither this result nor any later one can be trusted
                    pool.shutdown(wait=False, cancel_futures=True)
                    continue
                failed += not _done(args, out, label, inst, result)
    elif not short:
        for label, inst in todo:
            result = one(inst)
            short = _disk_short(disks, floor, result)
            if short:
                break
            failed += not _done(args, out, label, inst, result)
    if short:
        print(
            f"depinfer bench: stopped: {short}. Instances finished before are kept; "
            "the one running when the disk filled was not recorded. "
            "Free some space and run the same command again: it resumes.",
            file=sys.stderr,
        )
        return EXIT_NO_SPACE
    _print_run_tables(args, out, instances)
    return EXIT_PARTIAL if failed else EXIT_OK


def _disk_short(disks: tuple[Path, ...], floor: int, result: dict | None = None) -> str | None:
    """Why the run cannot go on for lack of disk space, if it cannot.

    A result that failed with ENOSPC says so itself; otherwise the free space of each disk
    the run writes to is compared with `floor`.
    """
    no_space = os.strerror(errno.ENOSPC)
    if result is not None and no_space in json.dumps(result.get("error") or ""):
        return f"{result.get('id', 'an instance')} failed: {no_space}"
    for disk in disks:
        try:
            free = shutil.disk_usage(disk).free
        except OSError:
            continue
        if free < floor:
            return f"{free // 2**20} MiB free on {disk}, a run keeps {floor // 2**20} MiB"
    return None


def _run_usage_problem(args: argparse.Namespace) -> str | None:
    """What is wrong with `bench run`'s options, if anything (--jobs is capped at 2 with
    --execute, with a note)."""
    if args.jobs < 1:
        return "--jobs: need at least 1"
    if args.execute and args.jobs > 2:
        print("depinfer bench: --execute runs two instances at a time at most", file=sys.stderr)
        args.jobs = 2
    if args.exec_as_of not in ("same", "none") and exec_as_of(args.exec_as_of, None) is None:
        return f"--exec-as-of: expected same, none or YYYY-MM-DD, got {args.exec_as_of!r}"
    if args.step_timeout < 1:
        return "--step-timeout: need at least 1 second"
    if args.reuse_runs and not (args.execute and Path(args.reuse_runs).is_dir()):
        return "--reuse-runs needs --execute and a results directory"
    if args.countable_only and not args.execute:
        return "--countable-only needs --execute"
    if args.verify and not args.execute:
        return "--verify needs --execute (it repairs from the executed runs)"
    if args.jobs > 1 and args.timeout <= 0:
        return "--jobs needs a --timeout above 0 (instances run in child processes)"
    return None


def _available_peers(args: argparse.Namespace, instances: list[Instance]) -> tuple[str, ...]:
    """The peer tools asked for that are installed; a note for each one that is not."""
    from depinfer.bench.peers import PEERS, parse_peer_names  # lazy: per subcommand

    peers = tuple(parse_peer_names(args.peers)) if args.peers else ()
    languages = {i.language for i in instances}
    for name in peers:
        if PEERS[name].language in languages and not PEERS[name].available():
            print(
                f"depinfer bench: peer {name} is not installed (not on PATH); skipped",
                file=sys.stderr,
            )
    return tuple(n for n in peers if PEERS[n].available())


def _todo(
    args: argparse.Namespace, instances: list[Instance], out: Path, options: object
) -> tuple[list[tuple[str, Instance]], dict[str, dict]]:
    """The instances to run (with their progress labels), and the textual results of those
    done before that an executed run reuses."""
    from depinfer.bench.execute import finished, peers_owed  # lazy: per subcommand
    from depinfer.bench.runner import load_result  # lazy: per subcommand

    todo: list[tuple[str, Instance]] = []
    kept: dict[str, dict] = {}  # textual results reused by an executed run
    for n, inst in enumerate(instances, 1):
        label = f"[{n}/{len(instances)}] {inst.language}/{inst.id}"
        previous = None if args.force else load_result(out, inst)
        if previous and previous.get("status") == "ok" and same_settings(previous, options):
            if not args.execute or (
                finished(previous.get("execution"), args.verify)
                and not peers_owed(
                    previous.get("execution") or {},
                    previous.get("peers") or {},
                    getattr(options, "peers", ()),
                )
            ):
                if not args.quiet:
                    print(f"{label}: done before (use --force to re-run)", file=sys.stderr)
                continue
            if "written_text" in previous:
                kept[inst.id] = previous
        todo.append((label, inst))
    return todo, kept


def _run_one(
    args: argparse.Namespace,
    trees: Path,
    out: Path,
    options: object,
    result: dict | None,
    inst: Instance,
) -> dict:
    """One instance: infer and score (unless `result` has it already), then execute and
    verify when asked (a Rust instance's runs in one cargo target folder)."""
    from depinfer.bench.dibench import gold_from_patch  # lazy: per subcommand
    from depinfer.bench.execute import (  # lazy: per subcommand
        execute_instance,
        finished,
        needs_verify,
        shared_build_env,
        verify_instance,
    )
    from depinfer.bench.runner import run_isolated  # lazy: per subcommand

    if result is None:
        try:
            premasked = gold_from_patch(inst, inst.tree(trees)) if inst.patch is not None else None
        except DatasetError as exc:
            return {"id": inst.id, "language": inst.language, "status": "error", "error": str(exc)}
        result = run_isolated(
            inst, inst.tree(trees), options, premasked, timeout=args.timeout, spawn=args.jobs > 1
        )
    run_as_of = exec_as_of(args.exec_as_of, result.get("as_of"))
    building = shared_build_env(inst) if args.execute else contextlib.nullcontext({})
    with building as env:
        if args.execute and result.get("status") == "ok" and not finished(result.get("execution")):
            result["execution"] = execute_instance(
                inst,
                inst.tree(trees),
                result.get("written_text") or {},
                out,
                step_timeout=args.step_timeout,
                as_of=run_as_of,
                keep=args.keep,
                baseline=Path(args.reuse_runs) if args.reuse_runs else None,
                countable_only=args.countable_only,
                env=env,
            )
        if args.execute and result.get("status") == "ok":
            _execute_peers(args, trees, out, options, result, inst, run_as_of)
        if args.verify and needs_verify(result.get("execution") or {}):
            result["execution"]["verified"] = verify_instance(
                inst,
                inst.tree(trees),
                result["execution"],
                out,
                lambda: verify_context(result, options),
                step_timeout=args.step_timeout,
                as_of=run_as_of,
                rounds=args.rounds,
                env=env,
            )
    return result


def _execute_peers(
    args: argparse.Namespace,
    trees: Path,
    out: Path,
    options: object,
    result: dict,
    inst: Instance,
    as_of: str | None,
) -> None:
    """The peers' executed runs owed on a counting instance (added to `result`)."""
    from depinfer.bench.execute import execute_peers, peers_owed  # lazy: per subcommand

    execution = result.get("execution") or {}
    owed = peers_owed(execution, result.get("peers") or {}, getattr(options, "peers", ()))
    if not owed:
        return
    execution["peers"] = {
        **(execution.get("peers") or {}),
        **execute_peers(
            inst,
            inst.tree(trees),
            execution,
            result.get("peers") or {},
            owed,
            out,
            step_timeout=args.step_timeout,
            as_of=as_of,
            baseline=Path(args.reuse_runs) if args.reuse_runs else None,
        ),
    }


def _done(args: argparse.Namespace, out: Path, label: str, inst: Instance, result: dict) -> bool:
    """Save one instance's result and print its progress line; False when it failed."""
    from depinfer.bench.execute import describe  # lazy: per subcommand
    from depinfer.bench.runner import save_result  # lazy: per subcommand

    save_result(out, inst, result, dibench=args.dibench)
    if result["status"] != "ok":
        print(f"{label}: error: {result.get('error')}", file=sys.stderr)
        return False
    if not args.quiet:
        m = result["metrics"]["name"]
        executed = (
            "; " + describe(result["execution"])
            if isinstance(result.get("execution"), dict)
            else ""
        )
        print(
            f"{label}: F1 {100 * m['f1']:.1f} (P {100 * m['precision']:.1f} "
            f"R {100 * m['recall']:.1f}) {result['wall_time']:.1f}s{executed}",
            file=sys.stderr,
            flush=True,
        )
    return True


def _print_run_tables(args: argparse.Namespace, out: Path, instances: list[Instance]) -> None:
    """The run's tables on stdout (and its plot); summary.json covers every result in `out`."""
    from depinfer.bench.report import (  # lazy: per subcommand
        instance_table,
        language_table,
        load_results,
        peers_table,
        plot,
        split_table,
        summarise,
        verify_table,
        write_summary,
    )

    chosen = {i.id for i in instances}
    results = [r for r in load_results(out) if r["id"] in chosen]
    summary = write_summary(out, load_results(out))
    sys.stdout.write(instance_table(results))
    sys.stdout.write("\n")
    current = summarise(results)
    sys.stdout.write(language_table(current))
    if split_table(current):
        sys.stdout.write("\n" + split_table(current))
    if verify_table(current):
        sys.stdout.write("\n" + verify_table(current))
    if current["peers"]:
        sys.stdout.write("\n" + peers_table(current))
    print(f"results: {out}/<language>/<id>.json, summary: {out}/summary.json")
    if args.plot is not None:
        print(plot(summary, Path(args.plot) if args.plot else out / "summary.png"))


def verify_context(result: dict, options: object):
    """The inference context of the textual run that produced `result` (same settings), for
    the verify stage's own inference and repair."""
    from depinfer.context import Options  # lazy: per subcommand
    from depinfer.pipeline import make_context  # lazy: per subcommand

    opts = Options(
        offline=bool(result.get("offline")),
        as_of=result.get("as_of"),
        versions=not result.get("names_only"),
        languages=(result["language"],),
    )
    return make_context(opts)


def exec_as_of(choice: str, inference_as_of: str | None) -> str | None:
    """The date the test runs install as of: the inference's (a date, not "now"), none, or
    the one given. A registry whose publication times do not fit the snapshot (a gold run
    that cannot install) is run with `none`."""
    import re

    value = inference_as_of if choice == "same" else None if choice == "none" else choice
    if value and re.match(r"\d{4}-\d{2}-\d{2}", value):
        return value
    return None


def same_settings(previous: dict, options: object) -> bool:
    """A finished result counts for resuming only if it ran with the settings asked for now."""
    from depinfer.bench.peers import PEERS  # lazy: per subcommand

    wanted_peers = set(getattr(options, "peers", ()))
    lang_peers = {p for p in wanted_peers if PEERS[p].language == previous.get("language")}
    return (
        previous.get("names_only") == getattr(options, "names_only", None)
        and previous.get("offline") == getattr(options, "offline", None)
        and lang_peers <= set(previous.get("peers") or {})
    )


def cmd_prepare(args: argparse.Namespace) -> int:
    from depinfer.bench.dibench import dibench_instance  # lazy: per subcommand
    from depinfer.bench.masking import copy_tree, mask  # lazy: per subcommand
    from depinfer.bench.runner import git_diff  # lazy: per subcommand

    trees = _check_trees(args.trees)
    if trees is None:
        return fail(f"--trees: not a directory: {args.trees}")
    instances = _instances(args)
    out = Path(args.out)
    gold: dict[str, object] = {}
    gold_path = out / "gold.json"
    if gold_path.is_file():
        try:
            gold = json.loads(gold_path.read_text(encoding="utf-8"))
        except ValueError:
            gold = {}
    failed = 0
    dibench_lines = []
    for inst in instances:
        src = inst.tree(trees)
        dest = out / inst.language / inst.id
        if not src.is_dir():
            print(f"{inst.id}: repository tree not found: {src}", file=sys.stderr)
            failed += 1
            continue
        if dest.exists():
            if not args.force:
                print(f"{inst.id}: kept the masked copy at {dest} (--force replaces it)")
                original = {rel: _text(src / rel) for rel in inst.build_files}
                masked = {rel: _text(dest / rel) for rel in inst.build_files}
                dibench_lines.append(dibench_instance(inst, git_diff(masked, original)))
                continue
            shutil.rmtree(dest)
        copy_tree(src, dest)
        original = {rel: _text(dest / rel) for rel in inst.build_files}
        result = mask(dest, inst.language, inst.build_files)
        for err in result.errors:
            print(f"{inst.id}: {err}", file=sys.stderr)
            failed += 1
        masked = {rel: _text(dest / rel) for rel in inst.build_files}
        gold[inst.id] = {"language": inst.language, **result.to_json()}
        dibench_lines.append(dibench_instance(inst, git_diff(masked, original)))
        print(f"{inst.language}/{inst.id}: masked {len(inst.build_files)} build file(s)")
    out.mkdir(parents=True, exist_ok=True)
    gold_path.write_text(json.dumps(gold, indent=2) + "\n", encoding="utf-8")
    with (out / "dibench.jsonl").open("w", encoding="utf-8") as fh:
        for line in dibench_lines:
            fh.write(json.dumps(line) + "\n")
    print(f"gold: {gold_path}; DI-Bench-format dataset: {out / 'dibench.jsonl'}")
    print(
        f"score the masked copies with: depinfer bench run --dataset {out / 'dibench.jsonl'} --trees {out}"
    )
    return EXIT_PARTIAL if failed else EXIT_OK


def _text(path: Path) -> str:
    try:
        return path.read_bytes().decode("utf-8-sig")
    except (OSError, UnicodeDecodeError):
        return ""


def _results_of(dirs: list[Path]) -> list | int:
    """The instance results under the given directories, or the exit code of a failure."""
    from depinfer.bench.report import load_results  # lazy: per subcommand

    for d in dirs:
        if not d.is_dir():
            return fail(f"not a results directory: {d}")
    results = load_results(*dirs)
    if not results:
        return fail("no instance results found under " + ", ".join(map(str, dirs)))
    return results


def cmd_report(args: argparse.Namespace) -> int:
    from depinfer.bench.report import (  # lazy: per subcommand
        instance_table,
        language_table,
        plot,
        split_table,
        summarise,
        verify_table,
    )

    dirs = [Path(d) for d in args.results]
    results = _results_of(dirs)
    if isinstance(results, int):
        return results
    summary = summarise(results)
    if args.json:
        sys.stdout.write(json.dumps(summary, indent=2) + "\n")
    else:
        if args.instances:
            sys.stdout.write(instance_table(results) + "\n")
        sys.stdout.write(language_table(summary))
        if split_table(summary):
            sys.stdout.write("\n" + split_table(summary))
        if verify_table(summary):
            sys.stdout.write("\n" + verify_table(summary))
        if summary["peers"]:
            from depinfer.bench.report import peers_table  # lazy: per subcommand

            sys.stdout.write("\n" + peers_table(summary))
    if args.plot is not None:
        print(plot(summary, Path(args.plot) if args.plot else dirs[0] / "summary.png"))
    return EXIT_OK


def _copy_logs(dirs: list[Path], result: dict, out: Path) -> None:
    """An executed result's logs (<dir>/<language>/<id>/*.log) follow it into the merge,
    taken from the part whose result file was chosen."""
    if not isinstance(result.get("execution"), dict):
        return
    for d in dirs:
        src = d / result["language"] / result["id"]
        if d.resolve() == out.resolve() or not src.is_dir():
            continue
        try:
            same = (
                json.loads((d / result["language"] / f"{result['id']}.json").read_text()) == result
            )
        except (OSError, ValueError):
            same = False
        if same:
            shutil.copytree(src, out / result["language"] / result["id"], dirs_exist_ok=True)
            return


def cmd_merge(args: argparse.Namespace) -> int:
    from depinfer.bench.report import language_table, write_summary  # lazy: per subcommand

    dirs = [Path(d) for d in args.results]
    results = _results_of(dirs)
    if isinstance(results, int):
        return results
    if args.out:
        out = Path(args.out)
        for r in results:
            path = out / r["language"] / f"{r['id']}.json"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(r, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
            _copy_logs(dirs, r, out)
        summary = write_summary(out, results)
        print(f"merged {len(results)} instance(s) into {out}")
    else:
        from depinfer.bench.report import summarise  # lazy: per subcommand

        summary = summarise(results)
    sys.stdout.write(language_table(summary))
    return EXIT_OK
