"""Extras that ask for a dependency's features; broad try blocks that only probe imports."""

from __future__ import annotations

import shutil
from pathlib import Path

from depinfer.analyzers.python import analyze_text
from depinfer.context import Options
from depinfer.pipeline import infer

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "python"


def test_featured_extra_entry_keeps_its_distribution_runtime(tmp_path):
    root = tmp_path / "crawler"
    shutil.copytree(FIXTURES / "res-featured-extras", root)
    result = infer(root, Options(offline=True, versions=False))
    runtime = {r.name for r in result.requirements if r.group is None and not r.optional}
    assert runtime == {"twisted"}


def test_isinstance_checks_do_not_make_a_probe_real_work():
    path = FIXTURES / "an-probe-guards" / "probe" / "console.py"
    refs = {r.module: r.optional for r in analyze_text(path.read_text(), "probe/console.py")}
    assert refs["ipykernel"] is True and refs["IPython"] is True
    assert refs["dateutil.parser"] is False
