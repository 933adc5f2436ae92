"""The kept output of an offline run over an unchanged tree (depinfer/runcache.py)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from conftest import REPO, write_tree

from depinfer import cli, filecache, runcache
from depinfer.selection import VCS_DIRS

TREE = {
    "pyproject.toml": '[project]\nname = "shop"\nversion = "1"\ndependencies = ["requests"]\n',
    "shop/__init__.py": "import requests\nimport yaml\n",
}


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv("DEPINFER_CACHE_DIR", str(folder))
    monkeypatch.delenv("DEPINFER_NO_CACHE", raising=False)
    monkeypatch.setattr(runcache, "RACY_SECONDS", 0.0)  # the tree was written just now
    return folder


@pytest.fixture
def runs(monkeypatch):
    """How often the stages really ran."""
    count: list[int] = []
    real = cli._run_parsed

    def counted(args):
        count.append(1)
        return real(args)

    monkeypatch.setattr(cli, "_run_parsed", counted)
    return count


def _run(capsys, *argv):
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _kept(folder):
    return list(folder.rglob(f"{runcache.RESULTS}/*.pickle"))


def test_an_unchanged_tree_prints_the_kept_answer(tmp_path, cache_dir, runs, capsys):
    root = write_tree(tmp_path / "repo", TREE)
    first = _run(capsys, str(root), "--check")
    second = _run(capsys, str(root), "--check")
    assert first == second and first[0] == 1 and "yaml" in first[1]
    assert len(runs) == 1 and len(_kept(cache_dir)) == 1


def test_a_changed_file_runs_again(tmp_path, cache_dir, runs, capsys):
    root = write_tree(tmp_path / "repo", TREE)
    _run(capsys, str(root), "--check")
    (root / "shop/__init__.py").write_text("import requests\nimport attrs\n")
    code, out, _ = _run(capsys, str(root), "--check")
    assert len(runs) == 2 and "attrs" in out and "yaml" not in out
    (root / "shop/extra.py").write_text("import yaml\n")  # a new file
    assert "yaml" in _run(capsys, str(root), "--check")[1] and len(runs) == 3


def test_each_command_line_keeps_its_own_answer(tmp_path, cache_dir, runs, capsys):
    root = write_tree(tmp_path / "repo", TREE)
    text = _run(capsys, str(root), "--check")
    as_json = _run(capsys, str(root), "--check", "--format", "json")
    names = _run(capsys, str(root), "--offline", "--names-only")
    assert len(runs) == 3 and text[1] != as_json[1] and names[0] == 0
    assert _run(capsys, str(root), "--check", "--format", "json") == as_json
    assert _run(capsys, str(root), "--offline", "--names-only") == names
    assert len(runs) == 3


def test_no_cache_and_writes_are_never_kept(tmp_path, cache_dir, runs, capsys):
    root = write_tree(tmp_path / "repo", TREE)
    _run(capsys, str(root), "--check", "--no-cache")
    _run(capsys, str(root), "--offline", "--names-only", "--write")
    assert not _kept(cache_dir)


def test_a_damaged_answer_is_ignored(tmp_path, cache_dir, runs, capsys):
    root = write_tree(tmp_path / "repo", TREE)
    first = _run(capsys, str(root), "--check")
    for kept in _kept(cache_dir):
        kept.write_bytes(b"\x80\x05damaged")
    assert _run(capsys, str(root), "--check") == first
    assert len(runs) == 2


def test_a_fresh_tree_is_not_kept(tmp_path, cache_dir, runs, capsys, monkeypatch):
    monkeypatch.setattr(runcache, "RACY_SECONDS", 3600.0)
    root = write_tree(tmp_path / "repo", TREE)
    _run(capsys, str(root), "--check")
    assert not _kept(cache_dir)


def test_a_hit_loads_no_stage(tmp_path, cache_dir):
    root = write_tree(tmp_path / "repo", TREE)
    for path in root.rglob("*"):
        os.utime(path, (1_000_000_000, 1_000_000_000))
    env = {**os.environ, "PYTHONPATH": str(REPO), "DEPINFER_CACHE_DIR": str(cache_dir)}
    probe = (
        "import sys; from depinfer import cli, runcache; runcache.RACY_SECONDS = 0;"
        f"code = cli.main([{str(root)!r}, '--check']);"
        "print('LOADED', 'depinfer.pipeline' in sys.modules, code, file=sys.stderr)"
    )
    runs = [
        subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True)
        for _ in range(2)
    ]
    assert "LOADED True 1" in runs[0].stderr
    assert "LOADED False 1" in runs[1].stderr
    assert runs[0].stdout == runs[1].stdout


def test_the_walk_skips_what_scan_never_enters():
    assert runcache.UNREAD_DIRS == VCS_DIRS
    assert filecache.SUBDIR == "analysis"


# ---------------------------------------------------------------- online runs


@pytest.fixture
def online(registry_server, cache_dir, monkeypatch):
    """Online runs ask the recorded registry (its answers kept in cache_dir), found as the
    user's settings name it: PIP_INDEX_URL."""
    from depinfer import pipeline
    from depinfer.context import Context

    monkeypatch.setenv("PIP_INDEX_URL", registry_server.url("/simple"))

    def make_context(options):
        registries = registry_server.registries(
            cache_dir / "http", refresh=options.refresh, endpoints={}
        )
        return Context(options=options, registries=registries)

    monkeypatch.setattr(pipeline, "make_context", make_context)
    return registry_server


def test_an_online_answer_is_kept_while_its_registry_answers_are_fresh(
    tmp_path, cache_dir, runs, online, capsys, monkeypatch
):
    root = write_tree(tmp_path / "repo", TREE)
    first = _run(capsys, str(root), "--names-only")
    asked = len(online.hits)
    assert first[0] == 0 and "pyyaml" in first[1].lower() and asked
    assert _run(capsys, str(root), "--names-only") == first
    assert len(runs) == 1 and len(online.hits) == asked  # neither stages nor registry ran
    # a day later the registry answers it used have gone stale: the run asks again
    later = runcache.time.time() + 2 * 86400
    monkeypatch.setattr(runcache.time, "time", lambda: later)
    _run(capsys, str(root), "--names-only")
    assert len(runs) == 2


def test_a_changed_registry_setting_or_refresh_runs_again(
    tmp_path, cache_dir, runs, online, capsys, monkeypatch
):
    root = write_tree(tmp_path / "repo", TREE)
    home = tmp_path / "home"
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    _run(capsys, str(root), "--names-only")
    _run(capsys, str(root), "--names-only")
    assert len(runs) == 1
    (home / ".config" / "pip").mkdir(parents=True)
    (home / ".config" / "pip" / "pip.conf").write_text("[global]\ntimeout = 30\n")
    _run(capsys, str(root), "--names-only")  # a settings file that was absent now exists
    assert len(runs) == 2
    _run(capsys, str(root), "--names-only", "--refresh")  # never answered from the keep
    assert len(runs) == 3
    monkeypatch.setenv("PIP_INDEX_URL", online.url("/simple/"))  # the registry's settings
    _run(capsys, str(root), "--names-only")
    assert len(runs) == 4


def test_an_online_run_with_a_registry_failure_is_not_kept(
    tmp_path, cache_dir, runs, online, capsys
):
    root = write_tree(tmp_path / "repo", TREE)
    online.fail_everything(503)
    _run(capsys, str(root), "--names-only")
    assert not _kept(cache_dir)


def test_a_new_commit_runs_again(tmp_path, cache_dir, runs, online, capsys):
    # `--as-of last-commit` dates the answer by HEAD, which lives in .git (never walked)
    root = write_tree(tmp_path / "repo", TREE)

    def git(*args):
        subprocess.run(
            ["git", "-C", str(root), "-c", "user.name=t", "-c", "user.email=t@t", *args],
            check=True,
            capture_output=True,
        )

    git("init", "-q")
    git("add", "-A")
    git("commit", "-q", "-m", "one")
    _run(capsys, str(root), "--names-only", "--as-of", "last-commit")
    _run(capsys, str(root), "--names-only", "--as-of", "last-commit")
    assert len(runs) == 1
    git("commit", "-q", "--allow-empty", "-m", "two")
    _run(capsys, str(root), "--names-only", "--as-of", "last-commit")
    assert len(runs) == 2
    # a worktree: its .git is a file naming its own git folder
    git("worktree", "add", "-q", str(tmp_path / "wt"))
    files = runcache._git_files(str(tmp_path / "wt"))
    assert any(f.endswith(os.path.join("worktrees", "wt", "HEAD")) for f in files)
    assert any(f.endswith(os.path.join(".git", "refs", "heads", "wt")) for f in files)
