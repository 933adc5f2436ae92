"""What warm runs keep so they start no process and load no HTTP stack (issue 27)."""

from __future__ import annotations

import sys

from depinfer.context import Context, Options
from depinfer.filecache import FileCache
from depinfer.model import FileKind, Project, SourceFile
from depinfer.registries import Registries
from depinfer.registries.http import HttpSettings, RegistryHttp
from depinfer.resolvers import python_versions as pv
from depinfer.resolvers.rust import _has_cycle


def _ctx(tmp_path) -> Context:
    return Context(Options(), Registries(cache_dir=str(tmp_path / "cache")))


def test_a_resolve_answer_is_kept_and_a_skipped_one_is_not(tmp_path, monkeypatch):
    calls: list[str] = []
    answer = {"value": (True, "aa==1.0\n", "")}

    def fake(text, python, as_of, timeout=120, uv_args=None):
        calls.append(text)
        return answer["value"]

    monkeypatch.setattr(pv, "uv_compile", fake)
    monkeypatch.setattr(pv, "find_uv", lambda: sys.executable)
    ctx = _ctx(tmp_path)
    assert pv.kept_uv_compile(ctx, "aa\n", "3.11", None) == (True, "aa==1.0\n", "")
    assert pv.kept_uv_compile(ctx, "aa\n", "3.11", None) == (True, "aa==1.0\n", "")
    assert len(calls) == 1
    pv.kept_uv_compile(ctx, "aa\n", "3.12", None)  # another Python version: asked again
    assert len(calls) == 2
    answer["value"] = (True, "", "resolve skipped: timed out")
    pv.kept_uv_compile(ctx, "bb\n", "3.11", None)
    pv.kept_uv_compile(ctx, "bb\n", "3.11", None)
    assert len(calls) == 4  # not an answer: never kept


def test_a_stand_in_compiler_is_never_kept(tmp_path, monkeypatch):
    monkeypatch.setattr(pv, "find_uv", lambda: sys.executable)
    calls: list[str] = []

    def stand_in(text, python, as_of, timeout=120, uv_args=None):
        calls.append(text)
        return True, "aa==1.0\n", ""

    ctx = _ctx(tmp_path)
    for _ in range(2):
        pv.kept_uv_compile(ctx, "aa\n", "3.11", None, run=stand_in)
    assert len(calls) == 2


def test_a_registry_session_is_made_on_the_first_request_only(tmp_path):
    http = RegistryHttp("PyPI", HttpSettings(cache_dir=tmp_path))
    assert http._session is None  # constructing the client loads no HTTP stack
    http.close()  # closing an unused client is fine
    assert http._session is None


def test_cycle_check():
    assert not _has_cycle({})
    assert not _has_cycle({("a", "b"): None, ("b", "c"): None, ("a", "c"): None})
    assert _has_cycle({("a", "b"): None, ("b", "c"): None, ("c", "a"): None})
    assert _has_cycle({("d", "a"): None, ("a", "b"): None, ("b", "a"): None})


def test_javascript_files_are_read_from_the_analysis_cache(tmp_path):
    from depinfer.analyzers import javascript

    (tmp_path / "index.js").write_text("const x = require('left-pad');\n")
    project = Project(root=tmp_path, files=[SourceFile("index.js", "javascript", FileKind.SOURCE)])
    first = Context(Options(offline=True), Registries(offline=True))
    first.files = FileCache(tmp_path / "cache", tmp_path)
    refs = javascript.analyze(project, first)
    first.files.save()
    second = Context(Options(offline=True), Registries(offline=True))
    second.files = FileCache(tmp_path / "cache", tmp_path)
    assert javascript.analyze(project, second) == refs
    assert second.files.hits == 1 and second.files.misses == 0


def test_only_trees_the_pytest_scan_reads_again_are_kept():
    from depinfer.analyzers import python as analyzer
    from depinfer.analyzers import python_trees

    python_trees.forget_trees()
    analyzer.analyze_text("import os\n", "pkg/mod.py")
    assert not python_trees._TREES  # shipped code without fixtures: not parsed again later
    analyzer.analyze_text("import pytest\n@pytest.fixture\ndef f(): ...\n", "pkg/plugin.py")
    assert len(python_trees._TREES) == 1
    python_trees.forget_trees()
    assert not python_trees._TREES


def test_npm_answers_are_kept_per_scratch_copy_and_a_timeout_is_not(tmp_path, monkeypatch):
    from depinfer.resolvers import javascript_gate as gate

    calls: list[str] = []
    answer: dict[str, gate.Failure | None] = {"value": None}

    def fake(cmd, cwd):
        calls.append(cwd.name)
        return answer["value"]

    monkeypatch.setattr(gate, "run_npm", fake)
    facts = _ctx(tmp_path).registries.http_settings().facts()
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    (scratch / "package.json").write_text('{"dependencies": {"aa": "^1.0.0"}}\n')
    cmd = [sys.executable, "install", "--package-lock-only"]
    assert gate.kept_npm(cmd, scratch, scratch, facts) is None
    (scratch / "package-lock.json").write_text("{}")  # npm's own output: not part of the key
    assert gate.kept_npm(cmd, scratch, scratch, facts) is None
    assert len(calls) == 1
    (scratch / "package.json").write_text('{"dependencies": {"aa": "^2.0.0"}}\n')
    answer["value"] = gate.Failure("ERESOLVE", "could not resolve")
    assert gate.kept_npm(cmd, scratch, scratch, facts) == answer["value"]
    assert gate.kept_npm(cmd, scratch, scratch, facts) == answer["value"]
    assert len(calls) == 2  # a conflict is npm's answer: kept
    assert gate.kept_npm([*cmd, "--legacy-peer-deps"], scratch, scratch, facts)
    assert len(calls) == 3  # another command line: asked again
    answer["value"] = gate.Failure("TIMEOUT", "npm did not answer")
    (scratch / ".npmrc").write_text("engine-strict=true\n")
    for _ in range(2):
        gate.kept_npm(cmd, scratch, scratch, facts)
    assert len(calls) == 5  # not an answer: never kept


def test_the_http_cache_loads_without_back_ends_depinfer_never_uses():
    import subprocess

    code = (
        "import sys\n"
        "from depinfer.registries.http import UNUSED_BY_CACHE, requests_cache_module\n"
        "assert requests_cache_module().SQLiteCache\n"
        "assert not [n for n in UNUSED_BY_CACHE if n in sys.modules], 'loaded or left hidden'\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


def test_the_ci_installs_are_read_when_asked_and_kept_by_the_ci_files_content(
    tmp_path, monkeypatch
):
    from depinfer import pipeline

    wf = tmp_path / ".github" / "workflows" / "ci.yml"
    wf.parent.mkdir(parents=True)
    wf.write_text(
        "jobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n"
        "      - run: pip install -e .[extra1]\n      - run: pytest\n"
    )
    project = Project(root=tmp_path, files=[], ci_files=[".github/workflows/ci.yml"])
    calls: list[int] = []
    real = pipeline.test_job_installs
    monkeypatch.setattr(pipeline, "test_job_installs", lambda p: calls.append(1) or real(p))

    def installs() -> pipeline.JobInstalls:
        return pipeline.JobInstalls(project, FileCache(tmp_path / "cache", tmp_path))

    first = installs()
    assert not calls  # nothing read before the first question
    assert "extra1" in first and "other" not in first
    first.files.save()  # type: ignore[union-attr]
    assert "extra1" in installs() and len(calls) == 1  # kept: the CI is not read again
    wf.write_text(wf.read_text().replace("extra1", "extra2"))
    assert "extra2" in installs() and len(calls) == 2  # changed: read again
