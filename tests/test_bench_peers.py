"""Peer adapters: their outputs read, names placed in build files, missing tools skipped.

The tools themselves are stood in for by small scripts on PATH that print recorded-style
output, so these tests run offline and without the tools installed.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from depinfer.bench.peers import PEERS, assign, parse_peer_names, run_peer

PIGAR_OUT = (
    "\x1b[31mThese module(s) are still not found:\x1b[39m\n  _typeshed referenced from:\n"
    "    /x/app.py: 3\n\x1b[32m\nGenerated requirements are as follows:\x1b[39m\n"
    "Jinja2\nclick\nWARNING(pigar): some manual fixes are required\nfoo-one\n"
)


def fake_tool(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, output: str) -> None:
    bindir = tmp_path / "bin"
    bindir.mkdir(exist_ok=True)
    (bindir / "out.txt").write_text(output)
    script = bindir / name
    script.write_text(f"#!/bin/sh\ncat '{bindir / 'out.txt'}'\n")
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("PATH", f"{bindir}{os.pathsep}{os.environ.get('PATH', '')}")


@pytest.mark.skipif(os.name == "nt", reason="shell-script stand-ins")
def test_pigar_answer_stops_at_its_manual_fixes_warning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake_tool(tmp_path, monkeypatch, "pigar", PIGAR_OUT)
    answer = run_peer(PEERS["pigar"], tmp_path, ["pyproject.toml"], offline=True)
    assert answer["status"] == "ok"
    assert sorted(d.name for d in answer["pred"]["pyproject.toml"]) == ["click", "jinja2"]


@pytest.mark.skipif(os.name == "nt", reason="shell-script stand-ins")
def test_depcheck_missing_names_go_to_the_nearest_build_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = {
        "missing": {
            "lodash": [str(tmp_path / "packages/a/src/x.js")],
            "React": [str(tmp_path / "index.js")],
        }
    }
    fake_tool(tmp_path, monkeypatch, "depcheck", json.dumps(out))
    answer = run_peer(
        PEERS["depcheck"], tmp_path, ["package.json", "packages/a/package.json"], offline=True
    )
    pred = {b: sorted(d.name for d in deps) for b, deps in answer["pred"].items()}
    assert pred == {"package.json": ["react"], "packages/a/package.json": ["lodash"]}


@pytest.mark.skipif(os.name == "nt", reason="shell-script stand-ins")
def test_unreadable_output_is_an_error_not_a_crash(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake_tool(tmp_path, monkeypatch, "knip", "not json at all")
    answer = run_peer(PEERS["knip"], tmp_path, ["package.json"], offline=True)
    assert answer["status"] == "error" and "unreadable output" in answer["error"]


def test_knip_unlisted() -> None:
    text = json.dumps(
        {"issues": [{"file": "lib/a.js", "unlisted": [{"name": "sonic-boom", "line": 3}]}]}
    )
    assert PEERS["knip"].parse(text, Path("/r")) == [("sonic-boom", "lib/a.js")]


def test_names_without_files_go_to_every_build_file() -> None:
    pred = assign([("PyYAML", None)], ["a/pyproject.toml", "requirements.txt"], "python")
    assert {b: [d.name for d in deps] for b, deps in pred.items()} == {
        "a/pyproject.toml": ["pyyaml"],
        "requirements.txt": ["pyyaml"],
    }


def test_missing_tool_is_reported(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    assert not PEERS["pipreqs"].available()
    assert run_peer(PEERS["pipreqs"], tmp_path, ["pyproject.toml"], True) == {
        "status": "not installed"
    }


def test_peer_names() -> None:
    assert parse_peer_names("all") == ["pipreqs", "pigar", "depcheck", "knip"]
    with pytest.raises(ValueError, match="unknown tool"):
        parse_peer_names("pipreqs,nope")
