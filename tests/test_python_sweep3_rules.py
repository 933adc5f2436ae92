"""WTForms' Email validator → email-validator; zoneinfo's exception alone → no tzdata;
behave's sibling modules in a test tree are the repository's own."""

from __future__ import annotations

import shutil
from pathlib import Path

from depinfer.context import Options
from depinfer.pipeline import infer

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "python"


def _placed(tmp_path: Path, fixture: str) -> set[tuple[str, str | None]]:
    root = tmp_path / fixture
    shutil.copytree(FIXTURES / fixture, root)
    result = infer(root, Options(offline=True, versions=False))
    return {(r.name, r.group) for r in result.requirements}


def test_wtforms_email_validator_needs_email_validator(tmp_path):
    names = {n for n, _ in _placed(tmp_path, "rules-wtforms-email")}
    assert {"email-validator", "wtforms", "flask-wtf"} <= names
    assert "tzdata" not in names


def test_zoneinfo_class_still_needs_tzdata(tmp_path):
    root = tmp_path / "p"
    shutil.copytree(FIXTURES / "rules-wtforms-email", root)
    (root / "app" / "tz.py").write_text("from zoneinfo import ZoneInfo\nUTC = ZoneInfo('UTC')\n")
    result = infer(root, Options(offline=True, versions=False))
    assert "tzdata" in {r.name for r in result.requirements}


def test_behave_sibling_modules_are_internal(tmp_path):
    placed = _placed(tmp_path, "map-behave-steps")
    names = {n for n, _ in placed}
    assert ("pexpect", "optional-dependencies.dev") in placed
    assert not names & {"db-utils", "wrappers", "steps", "db_utils"}
