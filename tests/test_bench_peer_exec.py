"""`depinfer bench run --execute --peers`: each peer's names run as the inferred ones do.

The local CI runner is replaced by a fake that passes a tree exactly when its build files
name every runtime dependency of the published ones (any spelling of case, any version), so
gold passes, masked fails, and a peer's tree passes when the peer named them all. The peer
tool itself is a shell script on PATH printing a requirements list, as pipreqs prints one.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest
from conftest import BENCH_TREES, bench_instances

import depinfer.ci
import depinfer.pipeline
from depinfer.bench.cli import main
from depinfer.bench.masking import copy_tree, mask
from depinfer.bench.peers import peer_names, write_names
from depinfer.bench.report import verify_table
from depinfer.ci import RunResult
from depinfer.model import Inference, ManifestEdit

pytestmark = pytest.mark.skipif(os.name == "nt", reason="shell-script stand-in for the peer")

INSTANCES = bench_instances()
# what each tree's tests import: the fake runner passes a tree whose build files name them all
NEEDED = {"acme__pep621": ("requests", "pyyaml"), "acme__poetry": ("markdown-it-py", "pygments")}


def original(inst_id: str, rel: str) -> bytes:
    inst = INSTANCES[inst_id]
    return (BENCH_TREES / inst.language / inst.id / rel).read_bytes()


class NamesCI:
    """Passes a tree whose build files name every needed dependency; records each call with
    the build files' texts as the runner saw them."""

    def __init__(self) -> None:
        self.calls: list[dict] = []

    def __call__(
        self, root, language, test_cmd=None, runtime=None, log_path=None, step_timeout=900,
        as_of=None,
    ) -> RunResult:  # fmt: skip
        root = Path(root)
        inst = next(i for i in INSTANCES.values() if test_cmd and test_cmd.endswith(i.id))
        texts = {b: (root / b).read_text() for b in inst.build_files if (root / b).is_file()}
        ok = all(n in "\n".join(texts.values()).lower() for n in NEEDED[inst.id])
        self.calls.append({"id": inst.id, "log": str(log_path), "texts": texts})
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

    def peer_calls(self, tool: str) -> list[dict]:
        return [c for c in self.calls if c["log"].endswith(f"peer-{tool}.log")]


@pytest.fixture
def names_ci(monkeypatch: pytest.MonkeyPatch) -> NamesCI:
    fake = NamesCI()
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
            if i.language == "python"
            and all((root / b).exists() for b in i.build_files)
            and (root / i.build_files[0]).read_bytes() != original(i.id, i.build_files[0])
        )
        edits = []
        if ident != "acme__poetry":
            for rel in INSTANCES[ident].build_files:
                edits.append(
                    ManifestEdit(rel, (root / rel).read_text(), original(ident, rel).decode())
                )
        return Inference(project=project, edits=edits)

    monkeypatch.setattr(depinfer.pipeline, "infer", fake_infer)
    return calls


def fake_pipreqs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, output: str, code: int = 0):
    """A `pipreqs` on PATH that prints `output` whatever it is asked."""
    bindir = tmp_path / "bin"
    bindir.mkdir(exist_ok=True)
    (bindir / "out.txt").write_text(output)
    script = bindir / "pipreqs"
    script.write_text(f"#!/bin/sh\ncat '{bindir / 'out.txt'}'\nexit {code}\n")
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("PATH", f"{bindir}{os.pathsep}{os.environ.get('PATH', '')}")


@pytest.fixture
def dataset(tmp_path: Path) -> Path:
    path = tmp_path / "tiny-exec.jsonl"
    lines = [
        json.dumps({**inst.raw, "test_cmd": f"pytest  # {inst.id}"})
        for inst in INSTANCES.values()
        if inst.language == "python"
    ]
    path.write_text("\n".join(lines) + "\n")
    return path


def run_cli(dataset: Path, out: Path, *extra: str) -> int:
    return main(
        ["run", "--dataset", str(dataset), "--trees", str(BENCH_TREES), "--offline",
         "--timeout", "0", "--out", str(out), "--execute", *extra]
    )  # fmt: skip


def load(out: Path, inst_id: str) -> dict:
    return json.loads((out / "python" / f"{inst_id}.json").read_text())


# ---------------------------------------------------------------- end to end (fake runner)


def test_peer_names_reach_the_build_files_and_their_verdicts_the_report(
    names_ci: NamesCI, inferencer: dict, dataset: Path, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    fake_pipreqs(tmp_path, monkeypatch, "requests\nPyYAML\n")
    out = tmp_path / "res"
    assert run_cli(dataset, out, "--peers", "pipreqs") == 0
    printed = capsys.readouterr()
    # gold, masked, inferred and one peer run per counted instance
    assert len(names_ci.calls) == 2 * 4
    peer = {c["id"]: c for c in names_ci.peer_calls("pipreqs")}
    assert set(peer) == {"acme__pep621", "acme__poetry"}
    # the names as the peer printed them, without versions, in every masked build file,
    # written by depinfer's own writers (the pyproject's list, the requirements lines)
    pep = peer["acme__pep621"]["texts"]
    assert 'dependencies = [\n    "PyYAML",\n    "requests",\n]' in pep["pyproject.toml"]
    assert sorted(pep["requirements.txt"].splitlines()[-2:]) == ["PyYAML", "requests"]
    assert 'requests = "*"' in peer["acme__poetry"]["texts"]["pyproject.toml"]
    assert (out / "python" / "acme__pep621" / "peer-pipreqs.log").is_file()

    rec = load(out, "acme__pep621")["execution"]["peers"]["pipreqs"]
    assert (rec["status"], rec["absolute"], rec["relative"]) == ("ok", True, True)
    assert rec["run"]["log"] == "python/acme__pep621/peer-pipreqs.log"
    assert rec["names"] == {"pyproject.toml": ["requests", "PyYAML"],
                            "requirements.txt": ["requests", "PyYAML"]}  # fmt: skip
    poetry = load(out, "acme__poetry")["execution"]["peers"]["pipreqs"]
    assert (poetry["absolute"], poetry["relative"], poetry["lost_tests"]) == (
        False,
        False,
        ["t::a"],
    )

    summary = json.loads((out / "summary.json").read_text())
    agg = summary["languages"]["python"]["execution"]["peers"]["pipreqs"]
    assert (agg["absolute_pass"], agg["absolute_of"], agg["relative_pass"], agg["relative_of"]) == (
        1, 2, 1, 2,
    )  # fmt: skip
    assert summary["instances"]["acme__pep621"]["execution"]["peers"]["pipreqs"]["absolute"]
    assert "pipreqs abs" in printed.out and "pipreqs rel" in printed.out
    assert "pipreqs pass" in printed.err and "pipreqs FAIL" in printed.err  # progress lines

    capsys.readouterr()
    assert main(["report", str(out)]) == 0
    table = capsys.readouterr().out
    lines = table.splitlines()
    head = next(n for n, line in enumerate(lines) if "pipreqs abs" in line)
    row = lines[head + 2]
    # counted, plain abs, verify abs (not run), pipreqs abs │ rcnt, plain rel, verify rel, pipreqs rel
    assert row.split() == ["python", "2", "1/2", "-", "1/2", "│", "2", "1/2", "-", "1/2", "│",
                           "-", "-"]  # fmt: skip

    # finished: a second run has nothing left to do
    assert run_cli(dataset, out, "--peers", "pipreqs") == 0
    assert len(names_ci.calls) == 8


def test_a_peer_without_an_answer_fails_without_a_run(
    names_ci: NamesCI, inferencer: dict, dataset: Path, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    fake_pipreqs(tmp_path, monkeypatch, "", code=1)
    out = tmp_path / "res"
    assert run_cli(dataset, out, "--peers", "pipreqs", "--instance", "acme__pep621") == 0
    assert names_ci.peer_calls("pipreqs") == []
    rec = load(out, "acme__pep621")["execution"]["peers"]["pipreqs"]
    assert rec["status"] == "ok" and rec["wrote_nothing"].startswith("exit 1")
    assert (rec["absolute"], rec["relative"]) == (False, False)
    agg = json.loads((out / "summary.json").read_text())["languages"]["python"]["execution"]
    assert (
        agg["peers"]["pipreqs"]["absolute_of"] == 1
        and agg["peers"]["pipreqs"]["wrote_nothing"] == 1
    )


def test_reuse_runs_reuses_peer_runs_and_runs_the_missing_ones(
    names_ci: NamesCI, inferencer: dict, dataset: Path, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    fake_pipreqs(tmp_path, monkeypatch, "requests\nPyYAML\n")
    plain, first, second = tmp_path / "plain", tmp_path / "first", tmp_path / "second"
    one = ("--instance", "acme__pep621")
    # an earlier executed run without peers: gold and masked reused, the peer runs
    assert run_cli(dataset, plain, *one) == 0
    assert len(names_ci.calls) == 3
    assert run_cli(dataset, first, *one, "--peers", "pipreqs", "--reuse-runs", str(plain)) == 0
    assert len(names_ci.calls) == 5 and len(names_ci.peer_calls("pipreqs")) == 1
    rec = load(first, "acme__pep621")["execution"]
    assert rec["runs"]["gold"]["reused_from"] == str(plain)
    assert rec["peers"]["pipreqs"]["absolute"] is True
    # from a run that has the peer's run with the same names: only the inferred one runs
    assert run_cli(dataset, second, *one, "--peers", "pipreqs", "--reuse-runs", str(first)) == 0
    assert len(names_ci.calls) == 6 and len(names_ci.peer_calls("pipreqs")) == 1
    rec = load(second, "acme__pep621")["execution"]["peers"]["pipreqs"]
    assert rec["run"]["reused_from"] == str(first) and rec["absolute"] is True
    assert (second / "python" / "acme__pep621" / "peer-pipreqs.log").is_file()


# ---------------------------------------------------------------- pieces


def test_write_names_uses_the_format_writers_without_versions(tmp_path: Path) -> None:
    for lang, inst_id in (("python", "acme__pep621"), ("javascript", "acme__web")):
        root = tmp_path / inst_id
        copy_tree(BENCH_TREES / lang / inst_id, root)
        mask(root, lang, INSTANCES[inst_id].build_files)
    problems = write_names(
        tmp_path / "acme__pep621",
        {"pyproject.toml": ["Flask", "Flask"], "requirements.txt": ["Flask"], "README": ["x"]},
        "python",
    )
    assert problems == ["README: not a build file depinfer writes"]
    assert '    "Flask",\n]' in (tmp_path / "acme__pep621" / "pyproject.toml").read_text()
    assert (tmp_path / "acme__pep621" / "requirements.txt").read_text().endswith("Flask\n")
    assert write_names(tmp_path / "acme__web", {"package.json": ["lodash"]}, "javascript") == []
    data = json.loads((tmp_path / "acme__web" / "package.json").read_text())
    assert data["dependencies"] == {"lodash": "*"}


def test_a_build_file_that_cannot_be_written_is_named_and_left_alone(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[project\nname = 'x'\n")
    problems = write_names(tmp_path, {"pyproject.toml": ["Flask"]}, "python")
    assert len(problems) == 1 and problems[0].startswith("pyproject.toml: ")
    assert (tmp_path / "pyproject.toml").read_text() == "[project\nname = 'x'\n"


def test_peer_names_from_old_answers_come_from_the_scored_files() -> None:
    assert peer_names({"status": "error", "error": "boom"}) is None
    assert peer_names({"status": "ok", "names": {"a": ["X"]}}) == {"a": ["X"]}
    old = {"status": "ok", "files": {"a": {"correct": ["b"], "extra": ["a"], "missing": ["c"]}}}
    assert peer_names(old) == {"a": ["a", "b"]}


def test_the_executed_table_is_unchanged_without_peers() -> None:
    summary = {"languages": {
        "python": {"execution": {"counted": 4, "absolute_pass": 2, "relative_counted": 5,
                                 "relative_pass": 3,
                                 "verify": {"absolute_pass": 3, "absolute_of": 4,
                                            "relative_pass": 4, "relative_of": 5,
                                            "mean_rounds": 1.75, "seconds": 312.4}}},
        "rust": {"execution": {"counted": 2, "absolute_pass": 1, "relative_counted": 2,
                               "relative_pass": 1}},
    }}  # fmt: skip
    assert verify_table(summary).splitlines()[:3] == [
        "language    cnt plain abs verify abs │ rcnt plain rel verify rel │ rounds    time",
        "─" * 81,
        "python        4       2/4        3/4 │    5       3/5        4/5 │   1.75    312s",
    ]
    assert len(verify_table(summary).splitlines()) == 4
    assert verify_table({"languages": {"rust": summary["languages"]["rust"]}}) == ""


def test_the_executed_table_puts_each_peer_beside_plain_and_verify() -> None:
    summary = {"languages": {
        "javascript": {"execution": {"counted": 3, "absolute_pass": 2, "relative_counted": 3,
                                     "relative_pass": 3,
                                     "peers": {"depcheck": {"absolute_pass": 1, "absolute_of": 3,
                                                            "relative_pass": 1,
                                                            "relative_of": 3}}}},
        "python": {"execution": {"counted": 4, "absolute_pass": 2, "relative_counted": 5,
                                 "relative_pass": 3,
                                 "verify": {"absolute_pass": 3, "absolute_of": 4,
                                            "relative_pass": 4, "relative_of": 5,
                                            "mean_rounds": 1.75, "seconds": 312.4},
                                 "peers": {"pipreqs": {"absolute_pass": 1, "absolute_of": 4,
                                                       "relative_pass": 2,
                                                       "relative_of": 5}}}},
    }}  # fmt: skip
    lines = verify_table(summary).splitlines()
    assert lines[0].split() == [
        "language", "cnt", "plain", "abs", "verify", "abs", "depcheck", "abs", "pipreqs", "abs",
        "│", "rcnt", "plain", "rel", "verify", "rel", "depcheck", "rel", "pipreqs", "rel", "│",
        "rounds", "time",
    ]  # fmt: skip
    assert lines[2].split() == ["javascript", "3", "2/3", "-", "1/3", "-", "│", "3", "3/3", "-",
                                "1/3", "-", "│", "-", "-"]  # fmt: skip
    assert lines[3].split() == ["python", "4", "2/4", "3/4", "-", "1/4", "│", "5", "3/5", "4/5",
                                "-", "2/5", "│", "1.75", "312s"]  # fmt: skip
    assert any(line.startswith("peers (--peers)") for line in lines)
