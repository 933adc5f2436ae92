"""The per-file analysis cache (depinfer/filecache.py): hits, invalidation, damage, bypass."""

from __future__ import annotations

import concurrent.futures
import os
import pickle
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from conftest import REPO, infer_offline, write_tree

import depinfer
from depinfer import filecache
from depinfer.analyzers import python as python_analyzer
from depinfer.analyzers import python_pytest_uses as python_pytest
from depinfer.analyzers import python_trees
from depinfer.check import run_check
from depinfer.context import Options
from depinfer.filecache import FileCache, content_key
from depinfer.pipeline import infer, make_context
from depinfer.rules import python as python_rules

TREE = {
    "pyproject.toml": '[project]\nname = "demo"\nversion = "1"\ndependencies = ["requests"]\n',
    "shop/__init__.py": "import requests\nimport yaml\n",
    "shop/util.py": "try:\n    import ujson\nexcept ImportError:\n    ujson = None\n",
    "tests/test_demo.py": "import pytest\n\n@pytest.fixture\ndef thing():\n    return 1\n",
}


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv("DEPINFER_CACHE_DIR", str(folder))
    monkeypatch.delenv("DEPINFER_NO_CACHE", raising=False)
    monkeypatch.setattr(filecache, "_fingerprint", None)
    return folder


@pytest.fixture
def parses(monkeypatch):
    """The files the Python analyzer and the pytest scan really read (cache misses)."""
    seen: list[str] = []
    analyze, scan = python_analyzer._analyze_text, python_pytest.scan_python

    def counted_analyze(source, *args):
        seen.append(source.path)
        return analyze(source, *args)

    def counted_scan(rel, *args):
        seen.append("pytest:" + rel)
        return scan(rel, *args)

    monkeypatch.setattr(python_analyzer, "_analyze_text", counted_analyze)
    monkeypatch.setattr(python_pytest, "scan_python", counted_scan)
    return seen


def _codes(findings) -> list[tuple[str, str, str, int]]:
    return sorted((f.code, f.name, f.file, f.line) for f in findings)


def _entries(folder) -> list:
    return [p for p in folder.rglob("*.pickle")]


def test_second_run_reads_every_answer_from_the_cache(tmp_path, cache_dir, parses):
    root = write_tree(tmp_path / "repo", TREE)
    _, cold = run_check(str(root), cache=True)
    assert "shop/__init__.py" in parses and _entries(cache_dir)
    parses.clear()
    _, warm = run_check(str(root), cache=True)
    assert parses == []
    assert _codes(warm) == _codes(cold)
    _, uncached = run_check(str(root), cache=False)
    assert _codes(uncached) == _codes(cold)
    assert {"DEP001"} <= {c for c, *_ in _codes(cold)}


def test_a_changed_file_alone_is_read_again(tmp_path, cache_dir, parses):
    root = write_tree(tmp_path / "repo", TREE)
    run_check(str(root), cache=True)
    parses.clear()
    (root / "shop/util.py").write_text("import attrs\n")
    _, findings = run_check(str(root), cache=True)
    assert [p for p in parses if not p.startswith("pytest:")] == ["shop/util.py"]
    assert "attrs" in {f.name for f in findings}


def test_a_new_depinfer_version_reads_everything_again(tmp_path, cache_dir, parses, monkeypatch):
    root = write_tree(tmp_path / "repo", TREE)
    run_check(str(root), cache=True)
    parses.clear()
    monkeypatch.setattr(depinfer, "__version__", depinfer.__version__ + ".post1")
    monkeypatch.setattr(filecache, "_fingerprint", None)
    run_check(str(root), cache=True)
    assert "shop/__init__.py" in parses
    assert len(list((cache_dir / filecache.SUBDIR).iterdir())) == 2  # one folder per version


@pytest.mark.parametrize(
    "damage",
    [
        b"",  # truncated to nothing
        b"\x80\x05not a pickle",
        pickle.dumps((filecache.FORMAT, "another key", [])),  # someone else's answer
        pickle.dumps(os.system),  # a global outside depinfer: refused, never called
    ],
)
def test_a_damaged_entry_is_ignored_and_rewritten(tmp_path, cache_dir, parses, damage):
    root = write_tree(tmp_path / "repo", TREE)
    _, cold = run_check(str(root), cache=True)
    for entry in _entries(cache_dir):
        entry.write_bytes(damage)
    parses.clear()
    _, again = run_check(str(root), cache=True)
    assert "shop/__init__.py" in parses
    assert _codes(again) == _codes(cold)
    parses.clear()
    run_check(str(root), cache=True)  # the damaged entries were replaced by sound ones
    assert parses == []


def test_no_cache_neither_reads_nor_writes(tmp_path, cache_dir):
    root = write_tree(tmp_path / "repo", TREE)
    env = {**os.environ, "PYTHONPATH": str(REPO), "DEPINFER_CACHE_DIR": str(cache_dir)}
    run = [sys.executable, "-m", "depinfer", str(root), "--check"]
    bypass = subprocess.run([*run, "--no-cache"], capture_output=True, text=True, env=env)
    assert not cache_dir.joinpath(filecache.SUBDIR).exists()
    cached = subprocess.run(run, capture_output=True, text=True, env=env)
    assert _entries(cache_dir)
    assert (bypass.returncode, bypass.stdout) == (cached.returncode, cached.stdout)
    assert bypass.returncode == 1 and "yaml" in bypass.stdout


def test_cache_clean_empties_the_analysis_cache(tmp_path, cache_dir):
    root = write_tree(tmp_path / "repo", TREE)
    run_check(str(root), cache=True)
    env = {**os.environ, "PYTHONPATH": str(REPO), "DEPINFER_CACHE_DIR": str(cache_dir)}
    subprocess.run([sys.executable, "-m", "depinfer", "cache", "clean"], env=env, check=True)
    assert not _entries(cache_dir)


def test_concurrent_writers_leave_one_sound_pack(tmp_path):
    key = content_key("demo", "text", "a.py")
    values = [list(range(n, n + 20000)) for n in range(8)]

    def run(value):
        cache = FileCache(tmp_path, "tree")
        cache.put("demo", key, value)
        cache.save()

    threads = [threading.Thread(target=run, args=(v,)) for v in values]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    found, value = FileCache(tmp_path, "tree").get("demo", key)
    assert found and value in values
    assert not [p for p in tmp_path.rglob(".tmp-*")]


def test_one_damaged_answer_costs_only_itself(tmp_path):
    keys = [content_key("demo", str(n)) for n in range(3)]
    cache = FileCache(tmp_path, "tree")
    for n, key in enumerate(keys):
        cache.put("demo", key, [n])
    cache.save()
    fmt, tree, entries = pickle.loads(cache.pack.read_bytes())
    entries[("demo", keys[1])] = b"\x80\x05garbage"
    cache.pack.write_bytes(pickle.dumps((fmt, tree, entries)))
    again = FileCache(tmp_path, "tree")
    assert [again.get("demo", k) for k in keys] == [(True, [0]), (False, None), (True, [2])]


def test_the_pack_keeps_only_what_the_last_run_used(tmp_path):
    cache = FileCache(tmp_path, "tree")
    old, new = content_key("demo", "old"), content_key("demo", "new")
    cache.put("demo", old, 1)
    cache.save()
    later = FileCache(tmp_path, "tree")
    later.put("demo", new, 2)
    later.save()
    last = FileCache(tmp_path, "tree")
    assert last.get("demo", new) == (True, 2)
    assert last.get("demo", old) == (False, None)


def test_a_changed_answer_object_never_changes_the_stored_one(tmp_path):
    cache = FileCache(tmp_path, "tree")
    key = content_key("demo", "x")
    answer = [1, 2]
    cache.put("demo", key, answer)
    answer.append(3)  # a later stage edits what it was handed
    cache.save()
    assert FileCache(tmp_path, "tree").get("demo", key) == (True, [1, 2])


def test_an_unwritable_cache_folder_is_no_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    cache = FileCache(blocker, "tree")
    assert cache.memo("demo", content_key("demo", "x"), lambda: 42) == 42
    cache.save()
    assert FileCache(blocker, "tree").get("demo", content_key("demo", "x")) == (False, None)


def test_the_key_depends_on_content_and_context():
    assert content_key("a", "text", "x.py") != content_key("a", "text!", "x.py")
    assert content_key("a", "text", "x.py") != content_key("a", "text", "y.py")
    assert content_key("a", "text", "x.py") != content_key("b", "text", "x.py")
    assert content_key("a", "text", "x.py") == content_key("a", b"text", "x.py")


def test_worker_processes_give_the_serial_answers_in_order(tmp_path, monkeypatch):
    files = {f"pkg/m{n}.py": f"import os\nimport lib{n}\n" for n in range(12)}
    files["pkg/__init__.py"] = ""
    files["pkg/broken.py"] = "def (:\n    import yaml\n"
    files["pyproject.toml"] = (
        '[project]\nname = "demo"\nversion = "1"\ndependencies = []\n'
        '[project.optional-dependencies]\ntest = ["pytest"]\n'
    )
    for n in range(4):  # tests the pytest scan reads: a plugin's fixture, an own one
        files[f"tests/test_{n}.py"] = (
            "import pytest\n\n@pytest.fixture\ndef own():\n    return 1\n\n"
            f"def test_{n}(mocker, own):\n    assert own\n"
        )
    root = write_tree(tmp_path / "repo", files)
    monkeypatch.setenv("DEPINFER_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(filecache, "_idle_workers", lambda workers: workers)
    serial = run_check(str(root), cache=False)
    monkeypatch.setattr(filecache, "PARALLEL_MIN", 2)
    monkeypatch.setattr(FileCache, "default", _with_workers(FileCache.default))
    pools = []
    real_pool = concurrent.futures.ProcessPoolExecutor

    def counted_pool(*args, **kwargs):
        pools.append(kwargs.get("max_workers"))
        return real_pool(*args, **kwargs)

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", counted_pool)
    parallel = run_check(str(root), cache=True)
    # the analyzer's and the text rules': the pytest scan's answers came with the analyzer's
    assert pools == [2, 2]
    assert _codes(parallel[1]) == _codes(serial[1])
    assert any(f.name == "pytest-mock" for f in parallel[1])
    assert [str(d) for d in parallel[0].diagnostics] == [str(d) for d in serial[0].diagnostics]


@pytest.mark.parametrize("cache", [True, False])
def test_a_run_parses_each_python_file_once(tmp_path, cache_dir, monkeypatch, cache):
    """The pytest scan reads the analyzer's tree: through the cache, in the analyzer's own
    pass (its answer kept beside the analyzer's); without it, from the kept trees."""
    root = write_tree(tmp_path / "repo", TREE)
    parsed: list[bytes] = []
    real = python_trees._PARSER

    class Counting:
        def parse(self, src, *args, **kwargs):
            parsed.append(src)
            return real.parse(src, *args, **kwargs)

    monkeypatch.setattr(python_trees, "_PARSER", Counting())
    _, findings = run_check(str(root), cache=cache)
    assert len(parsed) == len(set(parsed)) == 3  # the three non-empty Python files
    assert not any(f.name == "pytest" for f in findings)  # the test's own fixture: no plugin


def _with_workers(default):
    def make(*args, **kwargs):
        cache = default(*args, **kwargs)
        cache.workers = 2
        return cache

    return make


def test_cache_info_names_the_analysis_cache(tmp_path, cache_dir, capsys):
    from depinfer import cache_cli

    root = write_tree(tmp_path / "repo", TREE)
    run_check(str(root), cache=True)
    assert cache_cli.main(["info"]) == 0
    assert "analysis: 1 trees, 0 kept run answers" in capsys.readouterr().out


TEXT_TREE = {
    "pyproject.toml": '[project]\nname = "demo"\nversion = "1"\ndependencies = []\n',
    "shop/__init__.py": "",
    "shop/io.py": "import pandas as pd\n\n\ndef save(df):\n    df.to_parquet('x.parquet')\n",
    "shop/doc.py": '"""Usage:\n\n    df.read_excel("a.xlsx")\n"""\nimport pandas\n',
}


def _infer_cached(root):
    ctx = make_context(Options(offline=True, versions=False))
    ctx.files = FileCache.default(True, root)
    result = infer(root, ctx.options, ctx=ctx)
    ctx.files.save()
    return sorted((r.name, r.manifest) for r in result.requirements)


def test_text_rules_search_each_source_once_and_keep_the_answer(tmp_path, cache_dir, monkeypatch):
    """A text rule's pattern is searched in a source once per content: a warm run finds
    the same rules fired without searching, and a docstring's example still counts for
    nothing (the active-match rule holds in the kept answer)."""
    root = write_tree(tmp_path / "repo", TEXT_TREE)
    searched: list[str] = []
    scan = python_rules._source_scan

    def counted(text, patterns):
        searched.append(text)
        return scan(text, patterns)

    monkeypatch.setattr(python_rules, "_source_scan", counted)
    cold = _infer_cached(root)
    assert ("pyarrow", "pyproject.toml") in cold and "openpyxl" not in {n for n, _ in cold}
    assert len(searched) == 2  # each non-empty source once, not once per rule
    searched.clear()
    assert _infer_cached(root) == cold and searched == []
    assert sorted((r.name, r.manifest) for r in infer_offline(root).requirements) == cold


def test_a_source_is_read_from_disk_once_per_run(tmp_path, monkeypatch):
    """The analyzer, mapping and rules all read the sources; the disk is asked once."""
    root = write_tree(tmp_path / "repo", TEXT_TREE)
    reads: list[str] = []
    read_bytes = Path.read_bytes

    def counted(self):
        reads.append(self.name)
        return read_bytes(self)

    monkeypatch.setattr(Path, "read_bytes", counted)
    infer_offline(root)
    assert reads.count("io.py") == 1 and reads.count("doc.py") == 1
