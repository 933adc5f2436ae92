"""Python implicit-dependency rules (data/python/implicit.json)."""

from __future__ import annotations

from pathlib import Path

from depinfer.context import Options
from depinfer.pipeline import infer
from depinfer.rules.python import rules


def _write(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    return root


def _placed(root: Path) -> set[tuple[str, str | None]]:
    result = infer(root, Options(offline=True, versions=False))
    return {(r.name, r.group) for r in result.requirements}


BASE = {
    "pyproject.toml": '[project]\nname = "p"\nversion = "1"\ndependencies = []\n'
    '[project.optional-dependencies]\ntest = ["pytest"]\n',
    "p/__init__.py": "",
}


def test_every_rule_says_why_and_cites_a_source():
    for rule in rules():
        assert rule["why"] and rule["source"].startswith("https://"), rule["id"]
        assert "imports" in rule or "text" in rule, rule["id"]


def test_mocker_fixture_needs_pytest_mock(tmp_path):
    _write(tmp_path, {**BASE, "tests/test_x.py": "def test_a(mocker):\n    pass\n"})
    assert ("pytest-mock", "optional-dependencies.test") in _placed(tmp_path)


def test_asyncio_marker_needs_pytest_asyncio(tmp_path):
    src = "import pytest\n\n@pytest.mark.asyncio\nasync def test_a():\n    pass\n"
    _write(tmp_path, {**BASE, "tests/test_x.py": src})
    assert ("pytest-asyncio", "optional-dependencies.test") in _placed(tmp_path)


def test_cov_option_in_ci_needs_pytest_cov(tmp_path):
    wf = "jobs:\n  t:\n    steps:\n      - run: pytest --cov=p -n auto\n"
    _write(tmp_path, {**BASE, ".github/workflows/ci.yml": wf})
    placed = _placed(tmp_path)
    assert ("pytest-cov", "optional-dependencies.test") in placed
    assert ("pytest-xdist", "optional-dependencies.test") in placed


def test_parquet_io_with_pandas_needs_pyarrow(tmp_path):
    src = "import pandas as pd\n\ndef save(df):\n    df.to_parquet('x.parquet')\n"
    _write(tmp_path, {**BASE, "p/io.py": src})
    assert ("pyarrow", None) in _placed(tmp_path)


def test_gunicorn_config_with_uvicorn_worker_needs_both(tmp_path):
    conf = 'bind = "0.0.0.0:8000"\nworker_class = "uvicorn.workers.UvicornWorker"\n'
    _write(tmp_path, {**BASE, "gunicorn.conf.py": conf})
    placed = _placed(tmp_path)
    assert ("gunicorn", None) in placed and ("uvicorn", None) in placed


def test_google_auth_requests_transport_needs_requests(tmp_path):
    src = "from google.auth.transport.requests import Request\n"
    _write(tmp_path, {**BASE, "p/auth.py": src})
    placed = _placed(tmp_path)
    assert ("requests", None) in placed and ("google-auth", None) in placed


def test_no_rule_fires_on_plain_code(tmp_path):
    _write(tmp_path, {**BASE, "p/x.py": "import os\n"})
    assert _placed(tmp_path) == set()
