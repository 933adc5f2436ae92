"""Executed benchmark: does the repository's own test job pass with depinfer's manifests?

Per instance the test job runs three times, each in a fresh scratch copy, through the local
CI runner (`depinfer.ci.run_tests`): **gold** (the tree as published), **masked** (dependency
sections removed as in the textual benchmark) and **inferred** (masked, then depinfer's
written manifests put back — the texts the textual run recorded in `written_text`).

Each run is judged as the CI judges it: the scratch copy is a git checkout, the job installs
exactly what its own lines install (`strict` plans), and a failed install of the manifests
fails the run even where the job's line was best effort.

Verdicts, as DI-Bench's curation defines them:
- the instance *counts* for executability only when gold passes and masked fails (otherwise
  the tests do not depend on the masked sections, or cannot run here at all);
- *absolute*: the inferred run passes (exit code of every install and test step);
- *relative*: every test that passed with gold passes with inferred (`RunResult.relative_pass`,
  per-test outcomes parsed from the runners' output), which forgives failures that have
  nothing to do with dependencies (network, services, root). An instance counts relatively
  when masked loses at least one gold-passing test. Where no per-test outcome could be parsed
  the whole run is the one test: relative falls back to the exit code.

Logs go to `<out>/<language>/<id>/{gold,masked,inferred}.log`; the scratch copies are removed.
`--reuse-runs DIR` takes gold and masked from an earlier executed run (they do not depend on
depinfer's settings), so comparing settings (`--names-only` against versions) costs one run.

With `--verify` a fourth stage asks what depinfer's verify mode (`depinfer PATH --verify`,
`depinfer.ci.repair.verify`) makes of the counted instances: the masked tree is inferred, run
and repaired for a few rounds, and its final run gets the same verdicts. Round 1 is the
inferred run above (same manifests, same runner), so it is reused rather than run again; an
instance whose inferred run passes needs no repair and ends there. The stage reads the gold
and inferred runs back from their logs, so it can be added to a finished executed run.
Logs: `<out>/<language>/<id>/verify/round<N>.log`.

With `--peers` each counting instance (as for verify: it counts absolutely or relatively)
also gets one run per peer tool that answered in the textual run: the masked tree with the
names the tool reported written into the masked build files (`peers.write_names`: depinfer's
own writers, plain names without versions), run by the same runner with the same strict
plan and judged with the same verdicts against the same gold run. A tool that gave no answer
or no name leaves the masked tree as it is: the masked run stands for it (a failure, since
the instance counts). Logs: `<out>/<language>/<id>/peer-<tool>.log`; `--reuse-runs` takes a
peer's run from the earlier results too when the tool wrote the same names there.
"""

from __future__ import annotations

import contextlib
import inspect
import json
import os
import re
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import depinfer.ci
from depinfer.bench.dataset import Instance
from depinfer.bench.masking import copy_tree, mask
from depinfer.bench.peers import peer_names, write_names
from depinfer.ci.repair import VerifyRequest
from depinfer.ci.runner import RunResult, make_checkout, parse_outcomes
from depinfer.ci.workflow import command_language
from depinfer.pipeline import infer_and_verify

RUNS = ("gold", "masked", "inferred")
STEP_TIMEOUT = 900
NOT_RUN = "not-run"


@contextlib.contextmanager
def shared_build_env(inst: Instance) -> Iterator[dict[str, str]]:
    """Variables for every run of one instance: a Rust instance's gold, masked, inferred and
    verify runs build in one cargo target folder. Registry crates of the same version and
    features compile once, not once per run (most of a Rust instance's time), while each
    copy's own crates, at another path, still build apart. Removed afterwards (a build cache,
    not a copy to inspect); a folder the caller's environment names already is left alone."""
    if inst.language != "rust" or os.environ.get("CARGO_TARGET_DIR"):
        yield {}
        return
    folder = Path(tempfile.mkdtemp(prefix="depinfer-cargo-target-"))
    try:
        yield {"CARGO_TARGET_DIR": str(folder)}
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def log_dir(out: Path, inst: Instance) -> Path:
    """<out>/<language>/<id>/ — the run logs sit next to the instance's <id>.json."""
    return out / inst.language / inst.id


def runner_missing(language: str) -> str | None:
    """Why the language's tests cannot run on this machine (None: they can be tried)."""
    if language == "csharp" and shutil.which("dotnet") is None:
        return "no dotnet"
    return None


def relative(run: Any, gold: Any) -> bool | None:
    """`run` keeps every test that passed with gold (None: gold gives no baseline).

    Without parsed per-test outcomes the whole run is the one test, judged by its exit code.
    A gold run whose tests never ran (its install failed) gives none, whatever lines of its
    install output read like test results (pnpm's "Lockfile passes …")."""
    if gold.status in ("install-failed", "not-run"):
        return None
    verdict = run.relative_pass(gold)
    if verdict is None and gold.passed:
        return bool(run.passed)
    return verdict


def verdict(gold: Any, masked: Any | None, inferred: Any | None) -> dict[str, Any]:
    """The executability verdicts from the three RunResults (masked/inferred may be skipped:
    None, when gold gives nothing to compare with)."""
    counted = bool(gold.passed and masked is not None and not masked.passed)
    rel_masked = relative(masked, gold) if masked is not None else None
    rel_counted = rel_masked is False
    return {
        "counted": counted,
        "absolute": bool(inferred.passed) if counted and inferred is not None else None,
        "relative_counted": rel_counted,
        "relative": (relative(inferred, gold) if rel_counted and inferred is not None else None),
    }


def summarise_run(result: Any, log: Path, out: Path) -> dict[str, Any]:
    tally = {"passed": 0, "failed": 0, "skipped": 0}
    for outcome in result.outcomes.values():
        tally[outcome if outcome in tally else "failed"] += 1
    return {
        "status": result.status,
        "passed": bool(result.passed),
        "seconds": round(float(result.seconds), 1),
        "failed_step": result.failed_step,
        "tests": tally,
        "log": log.relative_to(out).as_posix() if log.is_relative_to(out) else str(log),
    }


def lost_tests(run: Any, gold: Any, limit: int = 20) -> list[str]:
    """Gold-passing tests that do not pass in `run` (the first few, for the report)."""
    good = sorted(t for t, o in gold.outcomes.items() if o == "passed")
    return [t for t in good if run.outcomes.get(t) != "passed"][:limit]


def instance_test_cmd(inst: Instance) -> str | None:
    """The instance's test command, unless it runs another ecosystem's tests (a JavaScript
    instance whose recorded command is the repository's `pytest`): then the plan picks the
    language's own test job from the workflows."""
    cmd = inst.raw.get("test_cmd") or None
    lang = command_language(cmd) if cmd else None
    return None if lang and lang != inst.language else cmd


def _call_runner(
    root: Path,
    inst: Instance,
    log: Path,
    step_timeout: int,
    as_of: str | None,
    env: dict[str, str] | None = None,
):
    kwargs: dict[str, Any] = {
        "test_cmd": instance_test_cmd(inst),
        "log_path": log,
        "step_timeout": step_timeout,
    }
    if env:
        kwargs["env"] = env
    if "strict" in inspect.signature(depinfer.ci.run_tests).parameters:
        kwargs["strict"] = True  # install as the job does, and nothing besides
    try:  # the runner keeps package managers to releases of the snapshot's time when it can
        if as_of and "as_of" in inspect.signature(depinfer.ci.run_tests).parameters:
            kwargs["as_of"] = as_of
    except (TypeError, ValueError):
        pass
    return depinfer.ci.run_tests(root, inst.language, **kwargs).strict()


def prepare_copy(
    kind: str,
    inst: Instance,
    tree: Path,
    root: Path,
    written: dict[str, str],
    fill: Callable[[Path], None] | None = None,
) -> str:
    """Lay out one scratch copy; returns an error message, or "" when ready. `fill` writes
    into the masked copy (a peer's names) before it becomes a checkout."""
    copy_tree(tree, root)
    if kind == "gold":
        make_checkout(root)  # as CI has it; a copy git cannot commit still runs
        return ""
    masked = mask(root, inst.language, inst.build_files)
    if inst.build_files and len(masked.errors) == len(inst.build_files):
        return "no build file could be masked: " + "; ".join(masked.errors)
    if fill is not None:
        fill(root)
    if kind == "inferred":
        for rel, text in written.items():
            target = root / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8", newline="")
    make_checkout(root)  # as CI has it; a copy git cannot commit still runs
    return ""


def _first_line(text: str) -> str:
    for line in (text or "").splitlines():
        if line.strip():
            return line.strip()[:200]
    return "the CI runner found nothing to run"


def reused_runs(baseline: Path | None, inst: Instance, out: Path, as_of: str | None) -> dict:
    """Gold and masked runs of an earlier executed run in `baseline` (same instance, same
    package-manager cut-off), logs copied next to this run's: kind → (summary, RunResult).
    Empty when the earlier run cannot stand in (missing, failed, other date, log gone)."""
    if baseline is None:
        return {}
    try:
        prev = json.loads((baseline / inst.language / f"{inst.id}.json").read_text())
    except (OSError, ValueError):
        return {}
    execution = prev.get("execution") if isinstance(prev, dict) else None
    if not isinstance(execution, dict) or execution.get("status") != "ok":
        return {}
    if execution.get("as_of") != as_of:
        return {}
    found: dict[str, tuple[dict, Any]] = {}
    for kind in ("gold", "masked"):
        summary = (execution.get("runs") or {}).get(kind)
        if not isinstance(summary, dict):
            return {}
        if summary.get("status") == NOT_RUN:
            if kind == "gold":
                return {}
            found[kind] = ({**summary, "reused_from": str(baseline)}, None)
            continue
        src = baseline / summary.get("log", "")
        if not src.is_file():
            return {}
        dst = log_dir(out, inst) / f"{kind}.log"
        dst.parent.mkdir(parents=True, exist_ok=True)
        if src.resolve() != dst.resolve():
            shutil.copyfile(src, dst)
        new = {**summary, "log": dst.relative_to(out).as_posix(), "reused_from": str(baseline)}
        found[kind] = (new, run_from_log(out, new))
    return found


def execute_instance(
    inst: Instance,
    tree: Path,
    written: dict[str, str],
    out: Path,
    step_timeout: int = STEP_TIMEOUT,
    as_of: str | None = None,
    keep: bool = False,
    baseline: Path | None = None,
    countable_only: bool = False,
    env: dict[str, str] | None = None,
) -> dict[str, Any]:
    """Run gold, masked and inferred; returns the `execution` record of the instance result.

    When gold neither passes nor has a passing test there is no baseline: masked and inferred
    are not run (the instance counts neither way), which saves two installs. With
    `countable_only`, neither is inferred run where masked already shows that the instance
    cannot count (gold fails, or masked keeps every gold-passing test): the executed figures
    are over counting instances only, so a re-measurement needs no other run.
    """
    started = time.monotonic()
    record: dict[str, Any] = {"step_timeout": step_timeout, "as_of": as_of}
    reason = _why_not_run(inst)
    if reason:
        record.update(status=NOT_RUN, reason=reason, counted=False, relative_counted=False)
        return record
    logs = log_dir(out, inst)
    logs.mkdir(parents=True, exist_ok=True)
    results: dict[str, Any] = {}
    runs: dict[str, Any] = {}
    scratch = Path(tempfile.mkdtemp(prefix="depinfer-exec-"))
    reused = reused_runs(baseline, inst, out, as_of)
    try:
        for kind in RUNS:
            if kind in reused:  # the same tree as the earlier run's: its result stands
                runs[kind], result = reused[kind]
                if result is not None:
                    results[kind] = result
                continue
            if kind != "gold" and relative(results["gold"], results["gold"]) is None:
                runs[kind] = {"status": NOT_RUN, "reason": "gold gives no baseline"}
                continue
            if kind == "inferred" and countable_only and not _can_count(results):
                runs[kind] = {"status": NOT_RUN, "reason": "the instance cannot count"}
                continue
            # a neutral folder name: tests that print their own path and then look for
            # words in the output ("red" in "inferred") must not see the harness
            root = scratch / str(RUNS.index(kind) + 1) / "repo"
            problem = prepare_copy(kind, inst, tree, root, written)
            log = logs / f"{kind}.log"
            if problem:
                log.write_text(problem + "\n", encoding="utf-8")
                record.update(status="error", error=f"{kind}: {problem}")
                break
            results[kind] = _call_runner(root, inst, log, step_timeout, as_of, env)
            runs[kind] = summarise_run(results[kind], log, out)
            if kind == "gold" and results[kind].status == NOT_RUN:
                # no test job found, or no local runner for it: nothing to judge
                record.update(status=NOT_RUN, reason=_first_line(results[kind].log))
                break
            if not keep:
                shutil.rmtree(root.parent, ignore_errors=True)
        else:
            record["status"] = "ok"
    except Exception as exc:  # the runner failed on this instance: record, go on
        record.update(status="error", error=f"{type(exc).__name__}: {exc}")
    finally:
        if keep:
            record["scratch"] = str(scratch)
        else:
            shutil.rmtree(scratch, ignore_errors=True)
    record["runs"] = runs
    _judge(record, results)
    record["seconds"] = round(time.monotonic() - started, 1)
    return record


def _can_count(results: dict[str, Any]) -> bool:
    """Gold and masked say the instance counts, absolutely or relatively."""
    if "masked" not in results:
        return False
    judged = verdict(results["gold"], results["masked"], None)
    return bool(judged["counted"] or judged["relative_counted"])


def _why_not_run(inst: Instance) -> str | None:
    """Why this instance's tests are not run here: no local runner, or DI-Bench data."""
    missing = runner_missing(inst.language)
    if missing:
        return missing
    if inst.patch is not None:
        return "DI-Bench data is already masked; its own evaluator runs the tests"
    return None


def _judge(record: dict[str, Any], results: dict[str, Any]) -> None:
    """The verdicts of a finished execution (and the tests the inferred run lost); an
    unfinished one counts neither way."""
    if record["status"] == "ok":
        gold = results["gold"]
        record.update(verdict(gold, results.get("masked"), results.get("inferred")))
        if "inferred" in results:
            record["lost_tests"] = lost_tests(results["inferred"], gold)
    else:
        record.setdefault("counted", False)
        record.setdefault("relative_counted", False)


def finished(execution: dict[str, Any] | None, verify: bool = False) -> bool:
    """A stored execution record that a resumed run keeps (errors are tried again); with
    `verify`, one whose verify stage is done or not needed."""
    if not execution or execution.get("status") not in ("ok", NOT_RUN):
        return False
    return not verify or not needs_verify(execution)


def needs_verify(execution: dict[str, Any]) -> bool:
    """The verify stage is owed: the instance counts (absolutely or relatively), no verify
    record yet."""
    return (
        execution.get("status") == "ok"
        and bool(execution.get("counted") or execution.get("relative_counted"))
        and (execution.get("verified") or {}).get("status") not in ("ok", NOT_RUN)
    )


# the scratch root a run used, as its log prints it: /tmp/depinfer-exec-XXXX/<kind>/repo/
_SCRATCH = re.compile(r"(?:/private)?/[^\s'\"]*?depinfer-exec-[^/\s]*/[^/\s]+/repo/")


def run_from_log(out: Path, summary: dict[str, Any]) -> Any:
    """A RunResult rebuilt from a stored run summary and its log (outcomes parsed again,
    scratch paths removed so ids compare across runs)."""
    path = out / summary["log"] if not Path(summary["log"]).is_absolute() else Path(summary["log"])
    text = path.read_text(encoding="utf-8", errors="replace") if path.is_file() else ""
    text = _SCRATCH.sub("", text)
    return RunResult(
        summary.get("status", "failed"),
        outcomes=parse_outcomes(text),
        log=text,
        seconds=float(summary.get("seconds", 0.0)),
        failed_step=summary.get("failed_step"),
    )


def _installs_as_job(inst: Instance, tree: Path) -> bool:
    """Verify installs as the job does where the plain runs install more (the job's own pip
    lines install the manifests): the inferred run cannot stand in for verify's."""
    test_cmd = instance_test_cmd(inst)
    plan = depinfer.ci.plan_for(tree, inst.language, test_cmd, strict=True)
    return bool(plan and plan.as_job)


def verify_instance(
    inst: Instance,
    tree: Path,
    execution: dict[str, Any],
    out: Path,
    make_ctx: Any,
    step_timeout: int = STEP_TIMEOUT,
    as_of: str | None = None,
    rounds: int = 3,
    env: dict[str, str] | None = None,
) -> dict[str, Any]:
    """The verify stage for one executed instance; returns its `verified` record.

    `make_ctx()` gives the inference context the textual run used (same options)."""
    started = time.monotonic()
    runs = execution.get("runs") or {}
    if not needs_verify({**execution, "verified": None}) or "inferred" not in runs:
        return {"status": NOT_RUN, "reason": "the instance does not count"}
    gold = run_from_log(out, runs["gold"])
    # judged as the CI judges it: a failed install of the written manifests by the job's own
    # install line is a failure, even where the plain run went on past it
    inferred = run_from_log(out, runs["inferred"]).strict()
    record: dict[str, Any] = {"status": "ok"}
    if inferred.passed and not _installs_as_job(inst, tree):
        record.update(rounds=1, added=[], stopped_because="tests pass", final=runs["inferred"])
        final = inferred
    else:
        scratch = Path(tempfile.mkdtemp(prefix="depinfer-exec-"))
        try:
            root = scratch / "4" / "repo"
            problem = prepare_copy("masked", inst, tree, root, {})
            if problem:
                return {"status": "error", "error": problem}
            request = VerifyRequest(
                inst.language,
                test_cmd=instance_test_cmd(inst),
                max_rounds=rounds,
                log_dir=log_dir(out, inst) / "verify",
                first_run=inferred,
                step_timeout=step_timeout,
                as_of=as_of,
                env=dict(env or {}),
            )
            outcome = infer_and_verify(root, request, make_ctx()).verification
        except Exception as exc:  # the loop failed on this instance: record, go on
            return {"status": "error", "error": f"{type(exc).__name__}: {exc}"}
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
        final = outcome.final or inferred
        record.update(
            rounds=len(outcome.rounds),
            added=[a for rnd in outcome.rounds for a in rnd.added],
            stopped_because=outcome.stopped_because,
            environment_failures=len(outcome.environment),
            # each round: what ran (all tests or the failed ones), how it went, its time,
            # what it changed
            round_log=[{k: r[k] for k in ("number", "scope", "status", "seconds", "added")}
                       for r in outcome.record()["runs"]],
            final={"status": final.status, "passed": bool(final.passed),
                   "seconds": round(float(final.seconds), 1)},
        )  # fmt: skip
    record["absolute"] = bool(final.passed) if execution.get("counted") else None
    record["relative"] = relative(final, gold) if execution.get("relative_counted") else None
    record["seconds"] = round(time.monotonic() - started, 1)
    return record


def aggregate_execution(results: list[dict[str, Any]]) -> dict[str, Any] | None:
    """Per-language executed figures over the results that carry an execution record."""
    records = [r["execution"] for r in results if isinstance(r.get("execution"), dict)]
    if not records:
        return None
    ran = [e for e in records if e.get("status") == "ok"]
    counted = [e for e in ran if e.get("counted")]
    rel_counted = [e for e in ran if e.get("relative_counted")]
    abs_pass = sum(1 for e in counted if e.get("absolute"))
    rel_pass = sum(1 for e in rel_counted if e.get("relative"))
    verified = [e["verified"] for e in ran if (e.get("verified") or {}).get("status") == "ok"]
    extra: dict[str, Any] = {}
    if verified:
        v_abs = [v for v in verified if v.get("absolute") is not None]
        v_rel = [v for v in verified if v.get("relative") is not None]
        extra["verify"] = {
            "instances": len(verified),
            "absolute_pass": sum(1 for v in v_abs if v["absolute"]),
            "absolute_of": len(v_abs),
            "relative_pass": sum(1 for v in v_rel if v["relative"]),
            "relative_of": len(v_rel),
            "mean_rounds": round(sum(v.get("rounds", 1) for v in verified) / len(verified), 2),
            "seconds": round(sum(v.get("seconds", 0.0) for v in verified), 1),
        }
    peers = aggregate_peer_runs(ran)
    if peers:
        extra["peers"] = peers
    return {
        "instances": len(records),
        "ran": len(ran),
        "not_run": sum(1 for e in records if e.get("status") == NOT_RUN),
        "errors": sum(1 for e in records if e.get("status") == "error"),
        "gold_passed": sum(1 for e in ran if (e.get("runs") or {}).get("gold", {}).get("passed")),
        "counted": len(counted),
        "absolute_pass": abs_pass,
        "absolute_rate": round(abs_pass / len(counted), 4) if counted else None,
        "relative_counted": len(rel_counted),
        "relative_pass": rel_pass,
        "relative_rate": round(rel_pass / len(rel_counted), 4) if rel_counted else None,
        "seconds": round(sum(e.get("seconds", 0.0) for e in records), 1),
        **extra,
    }


def describe(execution: dict[str, Any]) -> str:
    """One phrase for the progress line."""
    if execution.get("status") == NOT_RUN:
        return f"not run: {execution.get('reason')}"
    if execution.get("status") != "ok":
        return f"exec error: {execution.get('error')}"
    runs = execution.get("runs", {})
    states = " ".join(f"{k} {runs.get(k, {}).get('status', '?')}" for k in RUNS)
    verdicts = []
    if execution.get("counted"):
        verdicts.append("abs " + ("pass" if execution.get("absolute") else "FAIL"))
    if execution.get("relative_counted"):
        verdicts.append("rel " + ("pass" if execution.get("relative") else "FAIL"))
    what = ", ".join(verdicts) if verdicts else "not counted"
    v = execution.get("verified") or {}
    if v.get("status") == "ok":
        ok = v.get("absolute") if v.get("absolute") is not None else v.get("relative")
        what += f"; verify {'pass' if ok else 'FAIL'} in {v.get('rounds')} round(s)"
    elif v.get("status") == "error":
        what += f"; verify error: {v.get('error')}"
    for tool, p in sorted((execution.get("peers") or {}).items()):
        ok = p.get("absolute") if p.get("absolute") is not None else p.get("relative")
        what += f"; {tool} " + (f"error: {p.get('error')}" if p.get("status") != "ok"
                                else "pass" if ok else "FAIL")  # fmt: skip
    return f"{states} → {what} ({execution.get('seconds', 0.0):.0f}s)"


# ---------------------------------------------------------------- peers' executed runs


def peers_owed(
    execution: dict[str, Any], answers: dict[str, Any], wanted: tuple[str, ...] | list[str]
) -> list[str]:
    """The peers (of those asked for) whose executed run is owed: the instance counts
    (absolutely or relatively), the peer ran in the textual run, no finished record yet."""
    if execution.get("status") != "ok":
        return []
    if not (execution.get("counted") or execution.get("relative_counted")):
        return []
    done = execution.get("peers") or {}
    return [
        tool
        for tool in wanted
        if (answers.get(tool) or {}).get("status") in ("ok", "error")
        and (done.get(tool) or {}).get("status") != "ok"
    ]


def execute_peers(
    inst: Instance,
    tree: Path,
    execution: dict[str, Any],
    answers: dict[str, Any],
    tools: list[str],
    out: Path,
    step_timeout: int = STEP_TIMEOUT,
    as_of: str | None = None,
    baseline: Path | None = None,
) -> dict[str, dict[str, Any]]:
    """One executed run per peer tool on a counting instance; tool → its record, judged
    against the gold run (read back from its log) with the instance's own verdicts."""
    gold = run_from_log(out, execution["runs"]["gold"])
    records: dict[str, dict[str, Any]] = {}
    for tool in tools:
        started = time.monotonic()
        names = peer_names(answers.get(tool) or {})
        if names is None or not any(names.values()):
            # nothing written: the tree is the masked one, whose run fails by definition
            why = (answers.get(tool) or {}).get("error") if names is None else "no name"
            record = {"status": "ok", "wrote_nothing": why or "no answer"}
            record.update(absolute=False if execution.get("counted") else None)
            record.update(relative=False if execution.get("relative_counted") else None)
        else:
            record = _reused_peer(baseline, inst, out, as_of, tool, names) or _run_peer(
                inst, tree, tool, names, out, step_timeout, as_of
            )
            if record["status"] == "ok":
                run = run_from_log(out, record["run"])
                record["absolute"] = bool(run.passed) if execution.get("counted") else None
                record["relative"] = (
                    relative(run, gold) if execution.get("relative_counted") else None
                )
                record["lost_tests"] = lost_tests(run, gold)
        record["seconds"] = round(time.monotonic() - started, 1)
        records[tool] = record
    return records


def _run_peer(
    inst: Instance,
    tree: Path,
    tool: str,
    names: dict[str, list[str]],
    out: Path,
    step_timeout: int,
    as_of: str | None,
) -> dict[str, Any]:
    """The masked tree with the peer's names written in, run as the inferred one is."""
    unwritten: list[str] = []
    log = log_dir(out, inst) / f"peer-{tool}.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix="depinfer-exec-"))
    try:
        root = scratch / "5" / "repo"

        def fill(masked_root: Path) -> None:
            unwritten.extend(write_names(masked_root, names, inst.language))

        problem = prepare_copy("peer", inst, tree, root, {}, fill)
        if problem:
            log.write_text(problem + "\n", encoding="utf-8")
            return {"status": "error", "error": problem}
        result = _call_runner(root, inst, log, step_timeout, as_of)
    except Exception as exc:  # the runner failed on this instance: record, try again later
        return {"status": "error", "error": f"{type(exc).__name__}: {exc}"}
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    record: dict[str, Any] = {"status": "ok", "run": summarise_run(result, log, out)}
    record["names"] = names
    if unwritten:
        record["unwritten"] = unwritten
    return record


def _reused_peer(
    baseline: Path | None,
    inst: Instance,
    out: Path,
    as_of: str | None,
    tool: str,
    names: dict[str, list[str]],
) -> dict[str, Any] | None:
    """The peer's run from an earlier executed run in `baseline` (same package-manager date,
    same names written), its log copied next to this run's; None when there is none."""
    if baseline is None:
        return None
    try:
        prev = json.loads((baseline / inst.language / f"{inst.id}.json").read_text())
        execution = prev["execution"]
        record = execution["peers"][tool]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if execution.get("as_of") != as_of or not isinstance(record, dict):
        return None
    if record.get("status") != "ok" or record.get("names") != names or "run" not in record:
        return None
    src = baseline / record["run"].get("log", "")
    if not src.is_file():
        return None
    dst = log_dir(out, inst) / f"peer-{tool}.log"
    dst.parent.mkdir(parents=True, exist_ok=True)
    if src.resolve() != dst.resolve():
        shutil.copyfile(src, dst)
    run = {**record["run"], "log": dst.relative_to(out).as_posix(), "reused_from": str(baseline)}
    kept = {k: v for k, v in record.items() if k in ("names", "unwritten")}
    return {"status": "ok", "run": run, **kept}


def aggregate_peer_runs(ran: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per peer tool: its absolute and relative passes over the counting instances it ran on."""
    out: dict[str, dict[str, Any]] = {}
    for e in ran:
        for tool, p in (e.get("peers") or {}).items():
            if not isinstance(p, dict) or p.get("status") != "ok":
                continue
            s = out.setdefault(
                tool,
                {"instances": 0, "absolute_pass": 0, "absolute_of": 0, "relative_pass": 0,
                 "relative_of": 0, "wrote_nothing": 0, "seconds": 0.0},
            )  # fmt: skip
            s["instances"] += 1
            s["wrote_nothing"] += "wrote_nothing" in p
            if p.get("absolute") is not None:
                s["absolute_of"] += 1
                s["absolute_pass"] += bool(p["absolute"])
            if p.get("relative") is not None:
                s["relative_of"] += 1
                s["relative_pass"] += bool(p["relative"])
            s["seconds"] = round(s["seconds"] + p.get("seconds", 0.0), 1)
    return dict(sorted(out.items()))
