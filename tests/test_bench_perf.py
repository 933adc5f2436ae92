"""`depinfer bench perf`: the timing table beside a peer, interleaved, cold and warm."""

from __future__ import annotations

import os
import stat

from conftest import write_tree

from depinfer.bench import perf
from depinfer.bench.cli import main as bench_main


def _fake_deptry(tmp_path):
    script = tmp_path / "deptry"
    script.write_text("#!/bin/sh\nexit 1\n")
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return script


def test_perf_times_each_tree_cold_and_warm_beside_deptry(tmp_path, capsys):
    one = write_tree(
        tmp_path / "one", {"pyproject.toml": "[project]\nname='a'\n", "a.py": "import yaml\n"}
    )
    two = write_tree(tmp_path / "two", {"setup.py": "import setuptools\n", "b.py": "import os\n"})
    code = bench_main(
        [
            "perf",
            "--trees",
            str(one),
            str(two),
            "--runs",
            "1",
            "--deptry",
            str(_fake_deptry(tmp_path)),
        ]
    )
    out = capsys.readouterr().out
    assert code == 0
    header, first, second = out.splitlines()[:3]
    for label in ("check/cold", "check/warm", "names/cold", "names/warm", "deptry"):
        assert label in header
    assert first.startswith("one") and second.startswith("two")
    assert "median of per-tree ratios check/warm/deptry" in out
    assert "median of per-tree CPU-time ratios check/cold/deptry" in out
    assert "load average before" in out


def test_perf_rotates_the_order_and_keeps_the_user_cache(tmp_path, monkeypatch):
    tree = write_tree(tmp_path / "t", {"a.py": "import yaml\n"})
    seen: list[tuple[str, str]] = []

    def fake_timed(command, cwd, env):  # noqa: ARG001
        seen.append((" ".join(command[3:]) or command[0], env["DEPINFER_CACHE_DIR"]))
        return perf.Sample(0.1, 10.0, 0)

    monkeypatch.setattr(perf, "timed", fake_timed)
    results = perf.measure([tree], 2, {"deptry": "deptry"})
    assert results[0].median("check/warm") == 0.1
    assert {cache for _, cache in seen} != {os.environ.get("DEPINFER_CACHE_DIR")}
    orders = [c for c, _ in seen]
    assert orders[: len(orders) // 2] != orders[len(orders) // 2 :]  # rotated


def test_perf_refuses_a_missing_tree(tmp_path, capsys):
    assert bench_main(["perf", "--trees", str(tmp_path / "nope")]) == 2
    assert "not a directory" in capsys.readouterr().err


def test_perf_online_mode_times_the_default_run_cold_once(tmp_path, monkeypatch):
    tree = write_tree(tmp_path / "rust" / "t", {"Cargo.toml": "[package]\nname='t'\n"})
    seen: list[tuple[list[str], dict[str, str]]] = []

    def fake_timed(command, cwd, env):  # noqa: ARG001
        seen.append((command, env))
        return perf.Sample(0.5 if len(seen) % 2 else 0.25, 10.0, 0)

    monkeypatch.setattr(perf, "timed", fake_timed)
    results = perf.measure([tree], 3, {"deptry": "deptry"}, online=True)
    assert sorted(results[0].samples) == ["online/cold", "online/warm"]
    assert len(results[0].samples["online/cold"]) == 1  # each cold run asks the registries
    assert len(results[0].samples["online/warm"]) == 3
    primed = seen[0][0]
    assert "--offline" in primed  # priming asks no registry
    assert all("--offline" not in c and "--check" not in c for c, _ in seen[1:])
    assert all("PYTHONDONTWRITEBYTECODE" not in env for _, env in seen)
    assert all(env["PYTHONPYCACHEPREFIX"] for _, env in seen)
    report = perf.report(results, 3, ((0.0,), (0.0,)))
    assert "median per tree online/warm [rust]" in report
    assert "cold/warm online [rust]" in report


def test_perf_runs_depinfer_with_another_interpreter_and_says_so(tmp_path, monkeypatch):
    tree = write_tree(tmp_path / "t", {"a.py": "import yaml\n"})
    seen: list[tuple[list[str], dict[str, str]]] = []

    def fake_timed(command, cwd, env):  # noqa: ARG001
        seen.append((command, env))
        return perf.Sample(0.1, 10.0, 0)

    monkeypatch.setattr(perf, "timed", fake_timed)
    results = perf.measure([tree], 1, {}, baseline="/base", python="/venv/bin/python")
    ours = [(c, e) for c, e in seen if perf.CONSOLE_SCRIPT in c]  # as the installed command
    assert ours and all(c[0] == "/venv/bin/python" for c, _ in ours)
    paths = {e.get("PYTHONPATH") for _, e in ours}
    assert paths == {str(perf.SOURCE), "/base"}  # each checkout on PYTHONPATH
    assert "depinfer ran with /venv/bin/python" in perf.report(
        results, 1, ((0.0,), (0.0,)), "/venv/bin/python"
    )
    assert bench_main(["perf", "--trees", str(tree), "--python", str(tmp_path / "nope")]) == 2


def test_perf_stops_on_a_command_that_crashes(tmp_path, capsys):
    """A depinfer that cannot import its grammar exits at once: timed, it would look fast."""
    tree = write_tree(tmp_path / "t", {"a.py": "import yaml\n"})
    broken = tmp_path / "broken"
    (broken / "depinfer").mkdir(parents=True)
    (broken / "depinfer" / "__init__.py").write_text("")
    (broken / "depinfer" / "cli.py").write_text("import no_such_grammar_module\n")
    code = bench_main(
        ["perf", "--trees", str(tree), "--runs", "1", "--baseline", str(broken), "--no-cold"]
    )
    err = capsys.readouterr().err
    assert code == 2
    assert "crashed on" in err and "No module named 'no_such_grammar_module'" in err


def test_traceback_end_reads_only_tracebacks():
    text = "Traceback (most recent call last):\n  File 'x'\nKeyError: 'a'\n"
    assert perf._traceback_end(text) == "KeyError: 'a'"
    assert perf._traceback_end("error: no such file\n") is None


def test_online_cold_runs_can_keep_the_registry_answers(tmp_path, monkeypatch):
    tree = write_tree(tmp_path / "rust" / "t", {"Cargo.toml": "[package]\nname='t'\n"})
    emptied = []
    monkeypatch.setattr(perf, "timed", lambda command, cwd, env: perf.Sample(0.1, 1.0, 0))
    monkeypatch.setattr(perf, "_empty", lambda cache, everything: emptied.append(everything))
    perf.measure([tree], 1, {}, online=True, cold_scope="analysis")
    perf.measure([tree], 1, {}, online=True)
    assert emptied == [False, True]
    results = perf.measure([tree], 1, {}, online=True, cold_scope="analysis")
    text = perf.report(results, 1, ((0.0,), (0.0,)), None, "analysis")
    assert "cold runs started without the analysis cache" in text
