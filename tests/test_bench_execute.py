"""`depinfer bench run --execute`: verdicts, resume and log layout, offline.

The local CI runner (`depinfer.ci.run_tests`) is replaced by a fake that "passes" a tree
exactly when its build files are the published ones — so gold passes, masked fails, and the
inferred copy passes when the (restoring) inferencer put the sections back. The verdict logic
itself is pinned down on hand-made RunResults, per-test outcomes included.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import BENCH_ARGS, BENCH_TREES, bench_instances

import depinfer.ci
import depinfer.pipeline
from depinfer.bench import execute
from depinfer.bench.cli import main
from depinfer.bench.execute import aggregate_execution, verdict
from depinfer.ci import RunResult
from depinfer.model import Inference, ManifestEdit

INSTANCES = bench_instances()
RUST_IDS = {i.id for i in INSTANCES.values() if i.language == "rust"}


def run(status: str, **outcomes: str) -> RunResult:
    return RunResult(status, outcomes=dict(outcomes))


# ---------------------------------------------------------------- verdicts


def test_gold_passes_masked_fails_inferred_passes_counts_and_passes() -> None:
    v = verdict(run("passed", a="passed"), run("install-failed"), run("passed", a="passed"))
    assert v == {"counted": True, "absolute": True, "relative_counted": True, "relative": True}


def test_masked_passing_too_means_the_instance_does_not_count() -> None:
    v = verdict(run("passed", a="passed"), run("passed", a="passed"), run("failed", a="failed"))
    assert v["counted"] is False and v["absolute"] is None
    assert v["relative_counted"] is False and v["relative"] is None


def test_inferred_failing_counts_as_absolute_and_relative_failure() -> None:
    gold = run("passed", a="passed", b="passed")
    v = verdict(gold, run("failed", a="failed", b="passed"), run("failed", a="passed", b="failed"))
    assert v == {"counted": True, "absolute": False, "relative_counted": True, "relative": False}


def test_relative_verdict_forgives_tests_that_fail_with_gold_too() -> None:
    # a network test fails everywhere: gold does not pass, so the instance does not count
    # absolutely, but masked loses `a` and inferred keeps every gold-passing test
    gold = run("failed", a="passed", net="failed")
    v = verdict(gold, run("failed", a="failed", net="failed"), run("failed", a="passed"))
    assert v == {"counted": False, "absolute": None, "relative_counted": True, "relative": True}


def test_without_parsed_outcomes_the_exit_code_is_the_relative_verdict() -> None:
    v = verdict(run("passed"), run("failed"), run("passed"))
    assert v == {"counted": True, "absolute": True, "relative_counted": True, "relative": True}
    v = verdict(run("passed"), run("failed"), run("install-failed"))
    assert v["absolute"] is False and v["relative"] is False


def test_gold_without_any_passing_test_gives_no_baseline() -> None:
    v = verdict(run("install-failed"), None, None)
    assert v == {"counted": False, "absolute": None, "relative_counted": False, "relative": None}


def test_a_gold_install_that_failed_gives_no_baseline_whatever_its_log_reads() -> None:
    # an install step's output can carry lines the outcome parser reads as passing tests
    gold = run("install-failed", lockfile="passed")
    v = verdict(gold, run("failed", lockfile="failed"), run("failed"))
    assert v == {"counted": False, "absolute": None, "relative_counted": False, "relative": None}


def test_aggregate_counts_rates_over_counted_instances_only() -> None:
    results = [
        {"execution": {"status": "ok", "counted": True, "absolute": True,
                       "relative_counted": True, "relative": True, "seconds": 3}},
        {"execution": {"status": "ok", "counted": True, "absolute": False,
                       "relative_counted": True, "relative": True, "seconds": 4}},
        {"execution": {"status": "ok", "counted": False, "relative_counted": False, "seconds": 1}},
        {"execution": {"status": "not-run", "reason": "no dotnet"}},
        {"status": "ok"},  # a textual-only result
    ]  # fmt: skip
    agg = aggregate_execution(results)
    assert agg is not None
    assert (agg["instances"], agg["ran"], agg["not_run"], agg["counted"]) == (4, 3, 1, 2)
    assert agg["absolute_rate"] == 0.5 and agg["relative_rate"] == 1.0
    assert aggregate_execution([{"status": "ok"}]) is None


def test_csharp_is_not_run_without_dotnet(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(execute, "runner_missing", lambda language: "no dotnet")
    inst = INSTANCES["acme__app"]
    record = execute.execute_instance(inst, inst.tree(BENCH_TREES), {}, tmp_path)
    assert record["status"] == "not-run" and record["reason"] == "no dotnet"
    assert not record["counted"]


# ---------------------------------------------------------------- end to end (fake runner)


def original(inst_id: str, rel: str) -> bytes:
    inst = INSTANCES[inst_id]
    return (BENCH_TREES / inst.language / inst.id / rel).read_bytes()


class FakeCI:
    """Passes a tree whose build files are the published ones; records every call."""

    def __init__(self) -> None:
        self.calls: list[dict] = []
        self.fail_with: Exception | None = None
        self.always_pass: set[str] = set()  # instances whose tests need no manifest

    def __call__(
        self, root, language, test_cmd=None, runtime=None, log_path=None, step_timeout=900,
        as_of=None, env=None,
    ) -> RunResult:  # fmt: skip
        root = Path(root)
        inst = next(
            i for i in INSTANCES.values()
            if i.language == language and all((root / b).is_file() for b in i.build_files)
        )  # fmt: skip
        self.calls.append(
            {"id": inst.id, "cmd": test_cmd, "timeout": step_timeout, "as_of": as_of,
             "log": log_path, "root": str(root), "env": dict(env or {}),
             "target_existed": bool(env) and Path(env["CARGO_TARGET_DIR"]).is_dir()}
        )  # fmt: skip
        if self.fail_with is not None:
            raise self.fail_with
        ok = inst.id in self.always_pass or all(
            (root / b).read_bytes() == original(inst.id, b) for b in inst.build_files
        )
        log = f"$ {test_cmd}\n" + ("PASSED t::a\n" if ok else "FAILED t::a\n")
        if log_path is not None:
            Path(log_path).parent.mkdir(parents=True, exist_ok=True)
            Path(log_path).write_text(log)
        return RunResult(
            "passed" if ok else "failed",
            outcomes={"t::a": "passed" if ok else "failed"},
            log=log,
            seconds=0.1,
        )


@pytest.fixture
def fake_ci(monkeypatch: pytest.MonkeyPatch) -> FakeCI:
    fake = FakeCI()
    monkeypatch.setattr(depinfer.ci, "run_tests", fake)
    return fake


@pytest.fixture
def inferencer(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """Restores the published build files, except for acme__poetry (writes nothing)."""
    calls = {"n": 0}

    def fake_infer(root, options=None, ctx=None, project=None):
        calls["n"] += 1
        root = Path(root)
        ident = next(
            i.id
            for i in INSTANCES.values()
            if all((root / b).exists() for b in i.build_files)
            and (root / i.build_files[0]).read_bytes() != original(i.id, i.build_files[0])
        )
        edits = []
        if ident != "acme__poetry":
            for rel in INSTANCES[ident].build_files:
                text = original(ident, rel).decode()
                edits.append(ManifestEdit(rel, (root / rel).read_text(), text))
        return Inference(project=project, edits=edits)

    monkeypatch.setattr(depinfer.pipeline, "infer", fake_infer)
    return calls


@pytest.fixture
def dataset(tmp_path: Path) -> Path:
    """The tiny instances with a test command each, as the dev lists carry."""
    path = tmp_path / "tiny-exec.jsonl"
    lines = []
    for inst in INSTANCES.values():
        lines.append(json.dumps({**inst.raw, "test_cmd": f'python -c "import json"  # {inst.id}'}))
    path.write_text("\n".join(lines) + "\n")
    return path


def run_cli(dataset: Path, out: Path, *extra: str) -> int:
    return main(
        ["run", "--dataset", str(dataset), "--trees", str(BENCH_TREES), "--offline", "--timeout", "0",
         "--out", str(out), "--lang", "python", "--lang", "javascript", "--lang", "rust",
         "--execute", *extra]
    )  # fmt: skip


def test_execute_end_to_end_verdicts_logs_table_and_json(
    fake_ci: FakeCI, inferencer: dict, dataset: Path, tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    out = tmp_path / "res"
    assert run_cli(dataset, out, "--step-timeout", "42") == 0
    captured = capsys.readouterr()
    # three runs per instance, with the instance's own test command and the step timeout
    assert len(fake_ci.calls) == 3 * 4
    assert {c["timeout"] for c in fake_ci.calls} == {42}
    assert all(c["cmd"].endswith(c["id"]) for c in fake_ci.calls)
    assert all(c["as_of"] == "2024-05-01T10:00:00+00:00" for c in fake_ci.calls)
    # the scratch path names no run: tests that print their path must not read "inferred"
    assert not any(k in c["root"] for c in fake_ci.calls for k in ("gold", "masked", "inferr"))
    for inst_id, lang in [("acme__pep621", "python"), ("acme__web", "javascript")]:
        for kind in ("gold", "masked", "inferred"):
            assert (out / lang / inst_id / f"{kind}.log").is_file()
    pep621 = json.loads((out / "python" / "acme__pep621.json").read_text())
    e = pep621["execution"]
    assert e["status"] == "ok" and e["counted"] and e["absolute"] and e["relative"]
    assert e["runs"]["gold"]["log"] == "python/acme__pep621/gold.log"
    assert e["runs"]["masked"]["status"] == "failed"
    poetry = json.loads((out / "python" / "acme__poetry.json").read_text())["execution"]
    assert poetry["counted"] and poetry["absolute"] is False and poetry["relative"] is False
    assert poetry["lost_tests"] == ["t::a"]
    summary = json.loads((out / "summary.json").read_text())
    py = summary["languages"]["python"]["execution"]
    assert (py["counted"], py["absolute_pass"], py["relative_pass"]) == (2, 1, 1)
    assert summary["all"]["execution"]["counted"] == 4
    assert summary["instances"]["acme__web"]["execution"]["absolute"] is True
    assert "abs" in captured.out and "rcnt" in captured.out
    assert "1/2" in captured.out  # python: one of two counted instances passes
    assert "abs pass" in captured.err and "abs FAIL" in captured.err  # progress lines
    # a Rust instance's runs build in one cargo target folder, removed afterwards; the
    # other languages get no such variable
    rust = [c for c in fake_ci.calls if c["id"] in RUST_IDS]
    assert rust and all(c["target_existed"] for c in rust)
    folders = {c["env"]["CARGO_TARGET_DIR"] for c in rust}
    assert len(folders) == len({c["id"] for c in rust})
    assert not any(Path(f).exists() for f in folders)
    assert all(not c["env"] for c in fake_ci.calls if c["id"] not in RUST_IDS)


def test_execute_resumes_and_reuses_the_textual_result(
    fake_ci: FakeCI, inferencer: dict, dataset: Path, tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    out = tmp_path / "res"
    # textual first: no execution recorded
    assert main(["run", "--dataset", str(dataset), "--trees", str(BENCH_TREES), "--offline",
                 "--timeout", "0", "--out", str(out), "--lang", "python"]) == 0  # fmt: skip
    assert inferencer["n"] == 2 and fake_ci.calls == []
    # executed: the textual results are kept (no new inference), only the tests run
    assert run_cli(dataset, out, "--instance", "acme__pep621", "--instance", "acme__poetry") == 0
    assert inferencer["n"] == 2 and len(fake_ci.calls) == 6
    # again: finished, nothing runs
    capsys.readouterr()
    assert run_cli(dataset, out, "--instance", "acme__pep621") == 0
    assert "done before" in capsys.readouterr().err and len(fake_ci.calls) == 6
    # --force runs both parts again
    assert run_cli(dataset, out, "--instance", "acme__pep621", "--force") == 0
    assert inferencer["n"] == 3 and len(fake_ci.calls) == 9


def test_a_result_without_written_texts_is_inferred_again(
    fake_ci: FakeCI, inferencer: dict, dataset: Path, tmp_path: Path
) -> None:
    out = tmp_path / "res"
    assert run_cli(dataset, out, "--instance", "acme__pep621") == 0
    path = out / "python" / "acme__pep621.json"
    old = json.loads(path.read_text())
    del old["execution"], old["written_text"]  # as a textual run of an earlier version left it
    path.write_text(json.dumps(old))
    assert run_cli(dataset, out, "--instance", "acme__pep621") == 0
    assert inferencer["n"] == 2
    assert json.loads(path.read_text())["execution"]["absolute"] is True


def test_a_runner_failure_is_recorded_and_tried_again_on_resume(
    fake_ci: FakeCI, inferencer: dict, dataset: Path, tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    out = tmp_path / "res"
    fake_ci.fail_with = RuntimeError("runner broke")
    assert run_cli(dataset, out, "--instance", "acme__web") == 0
    e = json.loads((out / "javascript" / "acme__web.json").read_text())["execution"]
    assert e["status"] == "error" and "runner broke" in e["error"] and not e["counted"]
    fake_ci.fail_with = None
    assert run_cli(dataset, out, "--instance", "acme__web") == 0
    e = json.loads((out / "javascript" / "acme__web.json").read_text())["execution"]
    assert e["status"] == "ok" and e["absolute"] is True
    assert inferencer["n"] == 1  # the textual result was kept


def test_gold_without_a_baseline_skips_masked_and_inferred(
    fake_ci: FakeCI, inferencer: dict, dataset: Path, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    monkeypatch.setattr(
        depinfer.ci, "run_tests", lambda root, language, **kw: RunResult("install-failed")
    )
    out = tmp_path / "res"
    assert run_cli(dataset, out, "--instance", "acme__workspace") == 0
    e = json.loads((out / "rust" / "acme__workspace.json").read_text())["execution"]
    assert e["status"] == "ok" and not e["counted"] and not e["relative_counted"]
    assert e["runs"]["masked"]["status"] == "not-run"


def test_merge_carries_the_logs(
    fake_ci: FakeCI, inferencer: dict, dataset: Path, tmp_path: Path
) -> None:
    out = tmp_path / "res"
    assert run_cli(dataset, out, "--instance", "acme__web") == 0
    merged = tmp_path / "merged"
    assert main(["merge", str(out), "--out", str(merged)]) == 0
    assert (merged / "javascript" / "acme__web" / "inferred.log").is_file()


def test_help_mentions_execute(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["run", "--help"])
    text = capsys.readouterr().out
    assert "--execute" in text and "--step-timeout" in text


def test_report_plot_draws_the_executed_rates(
    fake_ci: FakeCI, inferencer: dict, dataset: Path, tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    pytest.importorskip("matplotlib")
    out = tmp_path / "res"
    assert run_cli(dataset, out, "--instance", "acme__web") == 0
    png = tmp_path / "plot.png"
    assert main(["report", str(out), "--plot", str(png)]) == 0
    assert png.stat().st_size > 0
    assert "rcnt" in capsys.readouterr().out


def test_exec_as_of_follows_the_inference_date_or_is_switched_off(
    fake_ci: FakeCI, inferencer: dict, dataset: Path, tmp_path: Path
) -> None:
    from depinfer.bench.cli import exec_as_of

    assert exec_as_of("same", "2024-05-01T10:00:00+00:00") == "2024-05-01T10:00:00+00:00"
    assert exec_as_of("same", "now") is None
    assert exec_as_of("none", "2024-05-01") is None
    assert exec_as_of("2023-01-02", "2024-05-01") == "2023-01-02"
    assert (
        run_cli(dataset, tmp_path / "res", "--instance", "acme__web", "--exec-as-of", "none") == 0
    )
    assert {c["as_of"] for c in fake_ci.calls} == {None}
    assert run_cli(dataset, tmp_path / "r2", "--exec-as-of", "yesterday") == 2


def test_verify_stage_repairs_counted_failures_and_is_added_to_a_finished_run(
    fake_ci: FakeCI, inferencer: dict, dataset: Path, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    import depinfer.ci.repair
    from depinfer.ci.repair import Round, VerifyResult

    out = tmp_path / "res"
    both = ("--instance", "acme__pep621", "--instance", "acme__poetry")
    assert run_cli(dataset, out, *both) == 0
    calls: list[dict] = []

    def fake_verify(root, request, ctx, steps, project=None):
        first_run, max_rounds, as_of = request.first_run, request.max_rounds, request.as_of
        calls.append({"first": first_run, "rounds": max_rounds, "as_of": as_of,
                      "cmd": request.test_cmd})  # fmt: skip
        rounds = [Round(1, first_run.status), Round(2, "passed", added=["tomli"])]
        final = RunResult("passed", outcomes={"t::a": "passed"})
        return VerifyResult(request.language, rounds, final, "tests pass"), Inference(project=None)

    monkeypatch.setattr(depinfer.ci.repair, "verify", fake_verify)
    before = len(fake_ci.calls)
    capsys.readouterr()
    assert run_cli(dataset, out, *both, "--verify", "--rounds", "2") == 0
    # the finished gold/masked/inferred runs are not repeated; only the failing one is repaired,
    # starting from its inferred run read back from the log
    assert len(fake_ci.calls) == before
    assert len(calls) == 1 and calls[0]["rounds"] == 2 and calls[0]["cmd"].endswith("poetry")
    assert calls[0]["first"].status == "failed" and calls[0]["first"].outcomes == {"t::a": "failed"}
    poetry = json.loads((out / "python" / "acme__poetry.json").read_text())["execution"]
    v = poetry["verified"]
    assert (v["rounds"], v["added"], v["absolute"], v["relative"]) == (2, ["tomli"], True, True)
    assert [(r["number"], r["scope"], r["added"]) for r in v["round_log"]] == [
        (1, "all tests", []),
        (2, "all tests", ["tomli"]),
    ]
    pep = json.loads((out / "python" / "acme__pep621.json").read_text())["execution"]["verified"]
    assert (pep["rounds"], pep["absolute"]) == (1, True)  # inferred passed: nothing to repair
    summary = json.loads((out / "summary.json").read_text())
    agg = summary["languages"]["python"]["execution"]["verify"]
    assert (agg["absolute_pass"], agg["absolute_of"], agg["mean_rounds"]) == (2, 2, 1.5)
    text = capsys.readouterr()
    assert "verify abs" in text.out and "verify pass in 2 round(s)" in text.err
    # done: a further --verify run has nothing left to do
    assert run_cli(dataset, out, *both, "--verify") == 0
    assert len(calls) == 1


def test_verify_needs_execute(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code = main(["run", *BENCH_ARGS,
                 "--out", str(tmp_path), "--verify"])  # fmt: skip
    assert code == 2 and "--verify needs --execute" in capsys.readouterr().err


def test_countable_only_runs_inferred_only_where_the_instance_can_count(
    fake_ci: FakeCI, inferencer: dict, dataset: Path, tmp_path: Path
) -> None:
    fake_ci.always_pass = {"acme__poetry"}  # masked passes too: it cannot count
    first, second = tmp_path / "first", tmp_path / "second"
    assert run_cli(dataset, first) == 0
    before = len(fake_ci.calls)
    assert run_cli(dataset, second, "--reuse-runs", str(first), "--countable-only") == 0
    assert len(fake_ci.calls) - before == 3  # every other instance's inferred run
    poetry = json.loads((second / "python" / "acme__poetry.json").read_text())["execution"]
    assert poetry["runs"]["inferred"] == {
        "status": "not-run",
        "reason": "the instance cannot count",
    }
    assert not poetry["counted"] and not poetry["relative_counted"]
    other = json.loads((second / "python" / "acme__pep621.json").read_text())["execution"]
    assert other["counted"] and other["absolute"] is True


def test_countable_only_needs_execute(dataset: Path, tmp_path: Path) -> None:
    args = ["run", "--dataset", str(dataset), "--trees", str(BENCH_TREES), "--offline"]
    assert main([*args, "--out", str(tmp_path / "o"), "--countable-only"]) == 2


def test_reuse_runs_takes_gold_and_masked_from_an_earlier_run(
    fake_ci: FakeCI, inferencer: dict, dataset: Path, tmp_path: Path
) -> None:
    first, second = tmp_path / "versions", tmp_path / "names"
    assert run_cli(dataset, first) == 0
    before = len(fake_ci.calls)
    assert run_cli(dataset, second, "--reuse-runs", str(first)) == 0
    # only the inferred manifests ran again
    assert len(fake_ci.calls) - before == 4
    e = json.loads((second / "python" / "acme__pep621.json").read_text())["execution"]
    assert e["counted"] and e["absolute"] is True
    assert e["runs"]["gold"]["reused_from"] == str(first)
    assert (second / "python" / "acme__pep621" / "gold.log").is_file()
    poetry = json.loads((second / "python" / "acme__poetry.json").read_text())["execution"]
    assert poetry["counted"] and poetry["absolute"] is False and poetry["lost_tests"] == ["t::a"]
