"""`depinfer bench report` gives train and validation side by side when the dataset is split.

The tiny fixture dataset, copied with its instances dealt into train and validation, runs
offline; the results carry each instance's split and the report adds one table of name
P/R/F1 and fake rate per split. A dataset without a train/validation split (the dev lists,
the fixture as it is) reports exactly as before.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import BENCH_DATASET, BENCH_TREES

from depinfer.bench.cli import main
from depinfer.bench.report import language_table, split_table, summarise


def split_dataset(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """The fixture dataset with its instances dealt alternately into train and validation."""
    rows = [json.loads(line) for line in BENCH_DATASET.read_text().splitlines() if line]
    splits = {}
    for k, row in enumerate(rows):
        row["split"] = ("train", "validation")[k % 2]
        splits[row["id"]] = row["split"]
    path = tmp_path / "split.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path, splits


def test_report_gives_train_and_validation_side_by_side(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    dataset, splits = split_dataset(tmp_path)
    out = tmp_path / "out"
    args = ["--dataset", str(dataset), "--trees", str(BENCH_TREES), "--out", str(out)]
    assert main(["run", *args, "--offline", "--names-only", "-q"]) == 0
    run_output = capsys.readouterr().out
    assert "ΔF1 t−v" in run_output  # the run's own tables carry it too

    results = {p.stem: json.loads(p.read_text()) for p in out.glob("*/*.json")}
    assert {k: r["split"] for k, r in results.items()} == splits

    assert main(["report", str(out)]) == 0
    report = capsys.readouterr().out
    head = next(
        line for line in report.splitlines() if line.startswith("language") and "train" in line
    )
    assert head.index("train") < head.index("validation") < head.index("all")
    summary = json.loads((out / "summary.json").read_text())
    python = summary["splits"]["python"]
    assert python["train"]["scored"] + python["validation"]["scored"] == python["all"]["scored"]
    assert python["all"]["name"] == summary["languages"]["python"]["name"]
    assert summary["splits"]["all"]["all"]["scored"] == len(splits)
    row = next(line for line in report.splitlines() if line.startswith("python "))
    assert row.count("│") == 4  # language │ train │ validation │ all │ Δ


def test_without_a_split_the_report_is_unchanged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    args = ["--dataset", str(BENCH_DATASET), "--trees", str(BENCH_TREES), "--out", str(out)]
    assert main(["run", *args, "--offline", "--names-only", "-q", "--lang", "rust"]) == 0
    capsys.readouterr()
    assert main(["report", str(out)]) == 0
    report = capsys.readouterr().out
    results = [json.loads(p.read_text()) for p in out.glob("*/*.json")]
    summary = summarise(results)
    assert {r["split"] for r in results} == {"dev"}
    assert "splits" not in summary and split_table(summary) == ""
    assert report == language_table(summary)
