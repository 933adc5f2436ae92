"""The harness end to end on the tiny fixtures: a perfect (restoring) inferencer scores 1.

`depinfer.pipeline.infer` is replaced by one that writes the original build files back, so
these tests pin down the harness (copy, mask, write, re-read, score, resume, shards, merge,
DI-Bench patches) independently of how well depinfer infers.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import BENCH_ARGS, BENCH_DATASET, BENCH_TREES, bench_instances

import depinfer.pipeline
from depinfer.bench.cli import main
from depinfer.bench.dataset import load_dataset
from depinfer.bench.dibench import gold_from_patch
from depinfer.bench.runner import RunOptions, run_instance
from depinfer.model import Inference, ManifestEdit

INSTANCES = bench_instances()


@pytest.fixture
def restoring(monkeypatch: pytest.MonkeyPatch) -> None:
    """An inferencer that restores exactly what masking removed."""

    def fake_infer(root, options=None, ctx=None, project=None):
        root = Path(root)
        lang, ident = next(
            (i.language, i.id)
            for i in INSTANCES.values()
            if (BENCH_TREES / i.language / i.id).is_dir()
            and all((root / b).exists() for b in i.build_files)
            and (BENCH_TREES / i.language / i.id / i.build_files[0]).read_bytes()
            != (root / i.build_files[0]).read_bytes()
        )
        edits = []
        for rel in INSTANCES[ident].build_files:
            original = (BENCH_TREES / lang / ident / rel).read_text(encoding="utf-8")
            edits.append(ManifestEdit(rel, (root / rel).read_text(encoding="utf-8"), original))
        return Inference(project=project, edits=edits)

    monkeypatch.setattr(depinfer.pipeline, "infer", fake_infer)


@pytest.mark.parametrize("ident", sorted(INSTANCES))
def test_restored_instance_scores_one(restoring: None, ident: str) -> None:
    inst = INSTANCES[ident]
    result = run_instance(inst, inst.tree(BENCH_TREES), RunOptions(offline=True))
    assert result["status"] == "ok", result.get("traceback")
    assert result["metrics"]["name"]["f1"] == 1.0
    assert result["metrics"]["version"]["f1"] == 1.0
    assert result["failure_categories"] == []
    assert result["fake"]["fake"] == 0
    assert result["fake"]["unverified"] == result["fake"]["written"]  # offline: unchecked
    assert result["patch"].startswith("diff --git a/")


def test_unsupported_language_scores_as_empty_output() -> None:
    inst = INSTANCES["acme__app"]  # whatever depinfer does for C#, the harness must not crash
    result = run_instance(inst, inst.tree(BENCH_TREES), RunOptions(offline=True, names_only=True))
    assert result["status"] == "ok", result.get("traceback")
    assert result["metrics"]["name"]["tp"] + result["metrics"]["name"]["fn"] == 4


def test_missing_tree_is_an_instance_error(tmp_path: Path) -> None:
    inst = INSTANCES["acme__web"]
    result = run_instance(inst, tmp_path / "nope", RunOptions(offline=True))
    assert result["status"] == "error" and "not found" in result["error"]


def test_cli_run_resume_shards_merge_report(
    restoring: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    parts = []
    for i in (1, 2):
        out = tmp_path / f"part{i}"
        code = main(
            ["run", *BENCH_ARGS, "--offline",
             "--shard", f"{i}/2", "--out", str(out), "--dibench"]
        )  # fmt: skip
        assert code == 0
        parts.append(out)
    files = sorted(p.name for part in parts for p in part.glob("*/*.json"))
    assert files == sorted(f"{i}.json" for i in INSTANCES)
    capsys.readouterr()
    # resume: a finished instance is not run again
    assert main(["run", *BENCH_ARGS, "--offline",
                 "--shard", "1/2", "--out", str(parts[0])]) == 0  # fmt: skip
    assert "done before" in capsys.readouterr().err
    merged = tmp_path / "all"
    assert main(["merge", str(parts[0]), str(parts[1]), "--out", str(merged)]) == 0
    table = capsys.readouterr().out
    assert "python" in table and "csharp" in table and "100.0" in table
    summary = json.loads((merged / "summary.json").read_text())
    assert summary["all"]["scored"] == len(INSTANCES) and summary["all"]["name"]["f1"] == 1.0
    assert main(["report", str(merged), "--instances"]) == 0
    assert "acme__poetry" in capsys.readouterr().out
    # DI-Bench layout: <out>/<language>/<id>/patch.diff
    patches = sorted(
        p.relative_to(tmp_path).as_posix() for p in tmp_path.glob("part*/*/*/patch.diff")
    )
    assert len(patches) == len(INSTANCES)


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_prepare_writes_gold_and_a_dibench_dataset_whose_patch_restores_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "prep"
    assert main(["prepare", *BENCH_ARGS, "--out", str(out)]) == 0
    gold = json.loads((out / "gold.json").read_text())
    assert set(gold) == set(INSTANCES)
    lines = load_dataset(out / "dibench.jsonl")
    for inst in lines:
        restored = gold_from_patch(inst, out / inst.language / inst.id)
        expected = {f["path"]: sorted(d["name"] for d in f["gold"]) for f in gold[inst.id]["files"]}
        assert {p: sorted(d.name for d in deps) for p, deps in restored.items()} == expected
    # the masked tree plus the patch applies with git, as DI-Bench's evaluator does it
    inst = next(i for i in lines if i.id == "acme__web")
    work = tmp_path / "apply"
    shutil.copytree(out / "javascript" / "acme__web", work)
    (work / "p.diff").write_text(inst.patch)
    subprocess.run(["git", "apply", "p.diff"], cwd=work, check=True)
    assert (work / "package.json").read_text() == (
        BENCH_TREES / "javascript/acme__web/package.json"
    ).read_text()


@pytest.mark.parametrize(
    "argv",
    [
        ["run", "--dataset", "/nonexistent.jsonl", "--trees", str(BENCH_TREES)],
        ["run", "--dataset", str(BENCH_DATASET), "--trees", "/nonexistent"],
        ["run", *BENCH_ARGS, "--shard", "5/2"],
        ["run", *BENCH_ARGS, "--instance", "nope"],
        ["report", "/nonexistent"],
        ["merge", "/nonexistent"],
    ],
)
def test_bad_paths_give_a_message_and_exit_2(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("depinfer bench: ") and "Traceback" not in err


class FakeRegistries:
    """Answers like a registry that knows `known` with the given releases."""

    def __init__(self, known: dict[str, list[str]]) -> None:
        self.known = known

    def exists_many(self, ecosystem, names):
        return {n: n in self.known for n in names}

    def versions(self, ecosystem, name):
        from depinfer.registries import VersionInfo

        return [VersionInfo(v) for v in self.known.get(name, [])]


def test_fake_names_and_invalid_versions_become_failure_categories() -> None:
    from types import SimpleNamespace

    from depinfer.bench.runner import failure_categories, fake_check, invalid_versions
    from depinfer.bench.sections import Dep

    ctx = SimpleNamespace(
        registries=FakeRegistries(
            {"serde": ["1.0.200"], "anyhow": ["1.0.80"], "policy": ["0.0.0-202301.Jan.22"]}
        )
    )
    pred = {
        "Cargo.toml": [
            Dep("serde", "serde", "2"),  # no 2.x release
            Dep("anyhow", "anyhow", "1.0"),
            # a SemVer pre-release PEP 440 cannot spell: valid, it is published
            Dep("policy", "policy", "0.0.0-202301.Jan.22"),
            Dep("policy", "policy", "0.0.0-202301.Feb.1"),
            Dep("serde_jsonn", "serde_jsonn", "1"),  # not in the registry
            Dep("core", "core", "", kind="project"),  # internal: never checked
        ]
    }
    gold = {"Cargo.toml": [Dep("serde", "serde", "1"), Dep("tokio", "tokio", "1")]}
    fake = fake_check(ctx, "rust", pred)
    assert fake["fake_names"] == ["serde_jsonn"] and fake["written"] == 4
    invalid = invalid_versions(ctx, "rust", pred)
    assert invalid == ["serde 2", "policy 0.0.0-202301.Feb.1"]
    cats = failure_categories(gold, pred, fake, invalid, [], names_only=False)
    assert cats == [
        "dependency not found in build",
        "invalid version in build",
        "missing dependency in test",
        "mismatched version in test",
    ]


def test_the_repositorys_own_packages_are_never_fake(tmp_path: Path) -> None:
    """A workspace sibling written by name (`core = { workspace = true }`, `"@acme/core":
    "*"`) is unpublished, so the registry does not know it: internal, not fake."""
    from types import SimpleNamespace

    from conftest import write_tree

    from depinfer.bench.runner import fake_check
    from depinfer.bench.sections import Dep, own_package_names

    write_tree(
        tmp_path,
        {
            "Cargo.toml": '[workspace]\nmembers = ["crates/*"]\n'
            "[workspace.dependencies]\n"
            'vm = { package = "real-vm", git = "https://example.invalid/vm" }\n'
            'serde = "1"\n',
            "crates/acme-core/Cargo.toml": '[package]\nname = "acme-core"\n',
            "crates/acme-cli/Cargo.toml": '[package]\nname = "acme-cli"\n',
            "node_modules/x/Cargo.toml": '[package]\nname = "vendored"\n',
            "web/package.json": '{"name": "@acme/Web"}',
        },
    )
    assert own_package_names(tmp_path, "rust") == {"acme_core", "acme_cli", "vm"}
    assert own_package_names(tmp_path, "javascript") == {"@acme/web"}
    ctx = SimpleNamespace(registries=FakeRegistries({"serde": ["1.0.200"]}))
    pred = {
        "crates/acme-cli/Cargo.toml": [
            Dep("acme_core", "acme-core", "workspace"),
            Dep("serde", "serde", "1"),
            Dep("serde_jsonn", "serde_jsonn", "1"),
        ]
    }
    fake = fake_check(ctx, "rust", pred, frozenset(own_package_names(tmp_path, "rust")))
    assert fake["fake_names"] == ["serde_jsonn"] and fake["written"] == 2


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_dibench_dataset_runs_on_premasked_trees(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    prep = tmp_path / "prep"
    assert main(["prepare", *BENCH_ARGS, "--out", str(prep)]) == 0
    out = tmp_path / "res"
    code = main(
        ["run", "--dataset", str(prep / "dibench.jsonl"), "--trees", str(prep), "--offline",
         "--names-only", "--out", str(out), "--dibench", "--instance", "acme__workspace"]
    )  # fmt: skip
    assert code == 0
    result = json.loads((out / "rust" / "acme__workspace.json").read_text())
    assert sorted(d["name"] for d in result["gold"]["Cargo.toml"]) == [
        "acme_core", "anyhow", "serde", "tokio",
    ]  # fmt: skip
    assert result["mask"]["deleted"] == []  # the tree was masked already
    assert (out / "rust" / "acme__workspace" / "patch.diff").is_file()


def test_a_hung_instance_times_out_and_leaves_no_scratch(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import os
    import tempfile
    import time

    from depinfer.bench.runner import run_isolated

    if not hasattr(os, "fork"):
        pytest.skip("the monkeypatched pipeline reaches the child only with fork")

    def slow_infer(*args, **kwargs):
        time.sleep(30)

    monkeypatch.setattr(depinfer.pipeline, "infer", slow_infer)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    inst = INSTANCES["acme__web"]
    started = time.monotonic()
    result = run_isolated(inst, inst.tree(BENCH_TREES), RunOptions(offline=True), timeout=1)
    assert time.monotonic() - started < 10
    assert result["status"] == "error" and result["error"] == "timeout after 1s"
    assert result["id"] == "acme__web"
    assert list(tmp_path.iterdir()) == []


def test_resume_reruns_when_the_settings_changed(
    restoring: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = ["run", *BENCH_ARGS, "--offline",
            "--instance", "acme__web", "--out", str(tmp_path), "--timeout", "0"]  # fmt: skip
    assert main(base) == 0
    capsys.readouterr()
    assert main([*base, "--names-only"]) == 0
    assert "done before" not in capsys.readouterr().err
    assert main([*base, "--names-only"]) == 0
    assert "done before" in capsys.readouterr().err


def test_jobs_run_instances_in_fresh_processes(tmp_path: Path) -> None:
    code = main(
        ["run", *BENCH_ARGS, "--offline", "--names-only",
         "--out", str(tmp_path), "--jobs", "2", "--lang", "python", "-q"]
    )  # fmt: skip
    assert code == 0
    results = [json.loads(p.read_text()) for p in tmp_path.glob("python/*.json")]
    assert sorted(r["id"] for r in results) == ["acme__pep621", "acme__poetry"]
    assert all(r["status"] == "ok" for r in results)
    assert main(["run", *BENCH_ARGS, "--jobs", "0"]) == 2


def test_instance_whose_build_files_are_all_missing_is_an_error(tmp_path: Path) -> None:
    from depinfer.bench.dataset import Instance

    (tmp_path / "x.py").write_text("import requests\n")
    inst = Instance("o__r", "python", ["pyproject.toml"])
    result = run_instance(inst, tmp_path, RunOptions(offline=True))
    assert result["status"] == "error"
    assert result["error"] == "no build file could be masked: pyproject.toml: build file not found"


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_git_diff_applies_to_files_without_a_final_newline(tmp_path: Path) -> None:
    from depinfer.bench.runner import git_diff

    (tmp_path / "a.txt").write_text("one\ntwo")
    patch = git_diff({"a.txt": "one\ntwo"}, {"a.txt": "one\ntwo\nthree"})
    (tmp_path / "p.diff").write_text(patch)
    subprocess.run(["git", "apply", "p.diff"], cwd=tmp_path, check=True)
    assert (tmp_path / "a.txt").read_text() == "one\ntwo\nthree"


def test_compatible_versions_share_a_published_release() -> None:
    from types import SimpleNamespace

    from depinfer.bench.runner import compatible_counts
    from depinfer.bench.sections import Dep

    ctx = SimpleNamespace(
        registries=FakeRegistries({"serde": ["1.0.100", "1.0.200"], "rand": ["0.8.5", "0.9.0"]})
    )
    gold = {"Cargo.toml": [Dep("serde", "serde", "1.0.150"), Dep("rand", "rand", "0.8")]}
    pred = {"Cargo.toml": [Dep("serde", "serde", "1"), Dep("rand", "rand", "0.9")]}
    counts = compatible_counts(ctx, "rust", gold, pred)
    assert (counts.tp, counts.fp, counts.fn) == (1, 1, 1)  # serde ^1 meets ^1.0.150; rand does not


def test_depinfer_cli_dispatches_bench(capsys: pytest.CaptureFixture[str]) -> None:
    from depinfer.cli import main as depinfer_main

    assert depinfer_main(["bench", "report", "/nonexistent"]) == 2
    assert "not a results directory" in capsys.readouterr().err


def test_prepare_again_keeps_copies_and_the_whole_dataset(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["prepare", *BENCH_ARGS, "--out", str(tmp_path)]
    assert main(argv) == 0
    first = (tmp_path / "dibench.jsonl").read_text()
    assert main(argv) == 0
    assert "kept the masked copy" in capsys.readouterr().out
    assert (tmp_path / "dibench.jsonl").read_text() == first


def test_a_full_disk_stops_the_run_and_records_nothing_untrustworthy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """An instance that ran out of disk is not saved (a rerun resumes with it), and the run
    stops at once instead of recording every later instance as a failure."""
    import collections
    import errno
    import os

    import depinfer.bench.cli as bench_cli

    usage = collections.namedtuple("usage", "total used free")
    calls = {"n": 0}

    def disk_usage(path: object) -> object:
        calls["n"] += 1  # plenty before the first instance, then nearly full
        return usage(10 * 2**30, 0, 10 * 2**30 if calls["n"] <= 2 else 2**20)

    monkeypatch.setattr(bench_cli.shutil, "disk_usage", disk_usage)
    base = ["run", *BENCH_ARGS, "--offline", "--names-only", "--lang", "python",
            "--out", str(tmp_path), "--timeout", "0", "-q"]  # fmt: skip
    assert main(base) == bench_cli.EXIT_NO_SPACE
    err = capsys.readouterr().err
    assert "stopped" in err and "1 MiB free" in err and "run the same command again" in err
    assert not list(tmp_path.glob("python/*.json"))
    # a result that failed with ENOSPC is not saved either, whatever the free space says
    monkeypatch.setattr(bench_cli.shutil, "disk_usage", lambda p: usage(1, 0, 10 * 2**30))
    failing = {"id": "acme__pep621", "status": "error",
               "error": f"OSError: [Errno 28] {os.strerror(errno.ENOSPC)}: '/tmp/x'"}  # fmt: skip
    monkeypatch.setattr(bench_cli, "_run_one", lambda *a: dict(failing))
    assert main(base) == bench_cli.EXIT_NO_SPACE
    assert "acme__pep621 failed" in capsys.readouterr().err
    assert not list(tmp_path.glob("python/*.json"))
    # nor one whose scratch copy or install raised ENOSPC: no traceback, the same stop

    def raises(*a: object) -> dict:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), "/tmp/scratch")

    monkeypatch.setattr(bench_cli, "_run_one", raises)
    assert main(base) == bench_cli.EXIT_NO_SPACE
    assert "acme__pep621 failed" in capsys.readouterr().err
    assert not list(tmp_path.glob("python/*.json"))
    # with room again the run goes through and records every instance
    monkeypatch.undo()
    assert main(base) == 0
    assert len(list(tmp_path.glob("python/*.json"))) == 2
