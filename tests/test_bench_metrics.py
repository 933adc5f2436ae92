"""Scores per instance (pooled over build files), mean vs micro, shards, dataset errors."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import BENCH_DATASET

from depinfer.bench.dataset import DatasetError, load_dataset, parse_shard, select
from depinfer.bench.metrics import Counts, aggregate, compare
from depinfer.bench.sections import Dep, normalise_name


def test_counts_edge_cases() -> None:
    assert Counts(0, 0, 3).precision == 0.0 and Counts(0, 0, 3).f1 == 0.0
    assert Counts(0, 0, 0).f1 == 1.0  # nothing to find, nothing written
    c = Counts(2, 1, 1)
    assert round(c.precision, 3) == 0.667 and round(c.recall, 3) == 0.667


def test_names_pooled_per_build_file_and_versions_separate() -> None:
    gold = {
        "a/pyproject.toml": [Dep("requests", version=">=2"), Dep("pyyaml")],
        "b/pyproject.toml": [Dep("requests")],
    }
    pred = {
        "a/pyproject.toml": [Dep("requests", version=">=2"), Dep("numpy")],
        "b/pyproject.toml": [Dep("requests", version=">=1")],
        "c/pyproject.toml": [Dep("ignored")],  # not a masked build file
    }
    counts = compare(gold, pred)
    assert (counts["name"].tp, counts["name"].fp, counts["name"].fn) == (2, 1, 1)
    assert (counts["version"].tp, counts["version"].fp, counts["version"].fn) == (1, 2, 2)


@pytest.mark.parametrize(
    ("language", "raw", "expected"),
    [
        ("python", "Typing_Extensions", "typing-extensions"),
        ("python", "zope.interface", "zope-interface"),
        ("rust", "serde-json", "serde_json"),
        ("javascript", "@Scope/Pkg", "@scope/pkg"),
        ("csharp", "Newtonsoft.Json", "newtonsoft.json"),
    ],
)
def test_name_normalisation(language: str, raw: str, expected: str) -> None:
    assert normalise_name(language, raw) == expected


def _result(ident: str, tp: int, fp: int, fn: int) -> dict:
    c = Counts(tp, fp, fn).to_json()
    return {
        "id": ident,
        "status": "ok",
        "metrics": {"name": c, "version": c},
        "fake": {"written": tp + fp, "fake": 0, "unverified": tp + fp},
        "failure_categories": ["missing dependency in test"] if fn else [],
        "wall_time": 1.0,
    }


def test_mean_over_instances_differs_from_micro() -> None:
    summary = aggregate(
        [_result("a", 1, 0, 0), _result("b", 0, 0, 9), {"id": "c", "status": "error"}]
    )
    assert summary["name"]["f1"] == 0.5  # mean of 1.0 and 0.0
    assert summary["name"]["micro"]["f1"] == round(2 * 0.1 / 1.1, 4)  # P 1, R 0.1
    assert summary["errors"] == 1 and summary["scored"] == 2
    assert summary["failure_categories"] == {"missing dependency in test": 1}


def test_dataset_and_shards_partition_the_instances() -> None:
    instances = load_dataset(BENCH_DATASET)
    assert [i.language for i in instances].count("python") == 2
    parts = [select(instances, shard=(i, 3)) for i in (1, 2, 3)]
    ids = [inst.id for part in parts for inst in part]
    assert sorted(ids) == sorted(i.id for i in instances)
    assert all(parts)  # round-robin: no empty part while n <= instances
    assert select(instances, languages=("rust",))[0].id == "acme__workspace"


def test_dibench_dataset_lines_are_read(tmp_path: Path) -> None:
    path = tmp_path / "d.jsonl"
    path.write_text(
        '{"instance_id": "x", "language": "CSharp", "metadata": {"repo_name": "o/x"},'
        ' "build_files": ["a\\\\A.csproj"], "patch": "", "act_command": "", "ci_file": "",'
        ' "env_specs": {}}\n'
    )
    (inst,) = load_dataset(path)
    assert (inst.id, inst.language, inst.repo, inst.build_files) == (
        "x",
        "csharp",
        "o/x",
        ["a/A.csproj"],
    )


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"id": "a"}\n', "has no `language`"),
        ("not json\n", ":1: invalid JSON"),
        ('{"id": "a", "language": "python", "build_files": []}\n' * 2, "duplicate instance id"),
    ],
)
def test_bad_dataset_lines_name_the_place(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "d.jsonl"
    path.write_text(content)
    with pytest.raises(DatasetError, match=message):
        load_dataset(path)


@pytest.mark.parametrize("value", ["0/2", "3/2", "x", "1/0"])
def test_bad_shard(value: str) -> None:
    with pytest.raises(ValueError, match="--shard"):
        parse_shard(value)


def test_plot_is_skipped_with_a_message_without_matplotlib(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys

    from depinfer.bench.report import plot, summarise

    monkeypatch.setitem(sys.modules, "matplotlib", None)
    summary = summarise([{**_result("a", 1, 0, 0), "language": "python"}])
    message = plot(summary, tmp_path / "p.png")
    assert message.startswith("plot skipped") and "depinfer[plot]" in message
    assert not (tmp_path / "p.png").exists()


def test_plot_writes_a_png(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    from depinfer.bench.report import plot, summarise

    summary = summarise([{**_result("a", 1, 0, 0), "language": "python"}])
    assert plot(summary, tmp_path / "p.png").startswith("plot written")
    assert (tmp_path / "p.png").read_bytes().startswith(b"\x89PNG")


def test_dibench_single_dependency_file_spelling(tmp_path: Path) -> None:
    path = tmp_path / "d.jsonl"
    path.write_text(
        '{"instance_id": "o_r", "language": "Python", "dependency_file": "requirements.txt",'
        ' "metadata": {"repo_name": "o/r", "commit_sha": "abc"}, "patch": ""}\n'
    )
    (inst,) = load_dataset(path)
    assert (inst.build_files, inst.commit, inst.language) == (["requirements.txt"], "abc", "python")


def test_features_scored_on_dependencies_both_sides_name() -> None:
    from depinfer.bench.metrics import compare_features

    gold = {
        "Cargo.toml": [
            Dep("tokio", features=("macros", "rt-multi-thread")),
            Dep("serde", features=("derive",)),
            Dep("anyhow"),
            Dep("clap", features=("derive",)),  # not predicted: not scored here
        ]
    }
    pred = {
        "Cargo.toml": [
            Dep("tokio", features=("macros", "rt", "rt-multi-thread")),  # raw: rt is extra
            Dep("serde", features=("derive",)),
            Dep("anyhow", features=("std",)),
        ]
    }
    f = compare_features(gold, pred)
    assert (f["matched"], f["exact"]) == (3, 1)
    assert (f["declared"], f["declared_exact"]) == (2, 1)
    assert (f["counts"]["tp"], f["counts"]["fp"], f["counts"]["fn"]) == (3, 2, 0)
    assert ["Cargo.toml", "anyhow", [], ["std"]] in f["mismatches"]


def test_features_aggregate_only_where_languages_have_them() -> None:
    from depinfer.bench.report import language_table, summarise

    def result(ident: str, language: str, gold: list[Dep], pred: list[Dep]) -> dict:
        r = _result(ident, 1, 0, 0)
        r["language"] = language
        r["gold"] = {"m": [d.to_json() for d in gold]}
        r["pred"] = {"m": [d.to_json() for d in pred]}
        return r

    results = [
        result("r1", "rust", [Dep("serde", features=("derive",))], [Dep("serde")]),
        result("r2", "rust", [Dep("log")], [Dep("log")]),
        result("c1", "csharp", [Dep("newtonsoft.json")], [Dep("newtonsoft.json")]),
    ]
    summary = summarise(results)
    rust = summary["languages"]["rust"]["features"]
    assert (rust["matched"], rust["exact"], rust["declared"], rust["declared_exact"]) == (
        2,
        1,
        1,
        0,
    )
    assert rust["recall"] == 0.0 and rust["fn"] == 1
    assert "features" not in summary["languages"]["csharp"]
    assert summary["instances"]["r1"]["features_exact"] == "0/1"
    assert "features_exact" not in summary["instances"]["c1"]
    table = language_table(summary)
    assert "rust features: exact 1/2 matched deps" in table and "csharp features" not in table


def test_name_figures_per_kind_keep_packages_and_project_references_apart():
    from depinfer.bench.report import by_kind

    def dep(name, kind):
        return {"name": name, "kind": kind}

    result = {
        "status": "ok",
        "gold": {"a.csproj": [dep("Serilog", "package"), dep("../b/b.csproj", "project")]},
        "pred": {"a.csproj": [dep("serilog", "package"), dep("xunit", "package")]},
    }
    kinds = by_kind([result])
    assert kinds["package"]["precision"] == 0.5 and kinds["package"]["recall"] == 1.0
    assert kinds["project"]["recall"] == 0.0 and kinds["project"]["instances"] == 1
    assert "ceiling_f1" not in kinds["project"]


def test_an_all_evidence_run_reports_the_project_reference_ceiling():
    from depinfer.bench.report import _kind_lines, by_kind

    def dep(name, kind):
        return {"name": name, "kind": kind}

    gold = [dep("../b/b.csproj", "project"), dep("../c/c.csproj", "project"), dep("x", "package")]
    result = {
        "status": "ok",
        "all_evidence": True,
        "gold": {"a.csproj": gold},
        # b is evidenced, c is not, d is evidenced but not in the gold
        "pred": {"a.csproj": [dep("../b/b.csproj", "project"), dep("../d/d.csproj", "project")]},
    }
    kinds = by_kind([result])
    # exactly the gold's evidenced references: tp 1, fn 1, no false positive
    assert kinds["project"]["ceiling_f1"] == round(2 / 3, 4)
    assert "ceiling_f1" not in kinds["package"]
    (line,) = _kind_lines([("csharp", {"kinds": kinds})])
    assert "evidence ceiling F1 66.7" in line
