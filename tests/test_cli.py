"""End to end: `depinfer PATH` on copies of fixture repositories, offline.

Each test runs the real command in a subprocess, so a traceback anywhere in the pipeline
shows up as a failure here, and exit codes are the ones a shell would see.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from depinfer.manifests import pyproject, requirements, setup_cfg, setup_py

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "fixtures" / "python"


def run(*args: str | os.PathLike[str]) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    env["NO_COLOR"] = "1"
    return subprocess.run(
        [sys.executable, "-m", "depinfer", *map(str, args)],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )


@pytest.fixture
def app(tmp_path: Path) -> Path:
    """A copy of a PEP 621 application whose `dependencies = []` was emptied."""
    root = tmp_path / "app"
    shutil.copytree(FIXTURES / "mf-cli-app", root)
    return root


def assert_no_traceback(proc: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stdout


def test_prints_inferred_dependencies_per_manifest_and_writes_nothing(app: Path):
    before = (app / "pyproject.toml").read_bytes()
    proc = run(app, "--offline")
    assert proc.returncode == 0, proc.stderr
    assert_no_traceback(proc)
    lines = proc.stdout.splitlines()
    assert lines[0] == "pyproject.toml"
    start = lines.index("  [dependencies]")
    listed = {line.split()[0].lower() for line in lines[start + 1 :] if line.startswith("    ")}
    assert {"click", "pyyaml", "requests"} <= listed
    assert (app / "pyproject.toml").read_bytes() == before
    assert "\r" not in proc.stderr  # no progress spinner when stderr is not a terminal


def test_diff_is_a_unified_diff_of_the_dependency_section_only(app: Path):
    before = (app / "pyproject.toml").read_bytes()
    proc = run(app, "--offline", "--diff")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert out.startswith("--- a/pyproject.toml\n+++ b/pyproject.toml\n")
    removed = [x for x in out.splitlines() if x.startswith("-") and not x.startswith("---")]
    added = [x for x in out.splitlines() if x.startswith("+") and not x.startswith("+++")]
    assert removed == ["-dependencies = []"]
    assert added[0] == "+dependencies = ["
    assert '+    "requests",' in added
    assert (app / "pyproject.toml").read_bytes() == before


def test_write_edits_in_place_and_a_second_run_changes_nothing(app: Path):
    before = (app / "pyproject.toml").read_text(encoding="utf-8")
    proc = run(app, "--offline", "--write")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "wrote pyproject.toml"
    after = (app / "pyproject.toml").read_text(encoding="utf-8")
    declared, _ = pyproject.read(after, "pyproject.toml")
    assert {"click", "requests"} <= {n.lower() for n in declared["dependencies"]}
    assert declared["optional-dependencies.test"] == ["pytest"]
    # everything outside the list is byte-identical
    head, _, _ = before.partition("dependencies = []")
    assert after.startswith(head)
    assert after.endswith(before.partition("dependencies = []")[2])
    again = run(app, "--offline", "--write")
    assert again.returncode == 0, again.stderr
    assert again.stdout.strip() == "nothing to change"
    assert (app / "pyproject.toml").read_text(encoding="utf-8") == after


def test_json_is_the_decision_record_with_evidence(app: Path):
    proc = run(app, "--offline", "--json")
    assert proc.returncode == 0, proc.stderr
    record = json.loads(proc.stdout)
    assert record["manifests"][0]["path"] == "pyproject.toml"
    by_name = {r["name"].lower(): r for r in record["requirements"]}
    requests = by_name["requests"]
    assert requests["manifest"] == "pyproject.toml"
    assert requests["section"] == "runtime"
    places = {(e["file"], e["line"]) for e in requests["evidence"]}
    assert ("src/cliapp/__init__.py", 5) in places


def test_explain_names_the_file_and_line(app: Path):
    proc = run(app, "--offline", "--explain", "PyYAML")
    assert proc.returncode == 0, proc.stderr
    assert "pyproject.toml" in proc.stdout
    assert "src/cliapp/__init__.py:6" in proc.stdout
    unknown = run(app, "--offline", "--explain", "numpy")
    assert unknown.returncode == 0
    assert "not inferred" in unknown.stdout


def test_help_documents_the_exit_codes():
    proc = run("--help")
    assert proc.returncode == 0
    assert "exit codes:" in proc.stdout
    for code in ("0", "1", "2", "3"):
        assert f"\n  {code}  " in proc.stdout


@pytest.mark.parametrize("kind", ["file", "missing"])
def test_a_path_that_is_not_a_directory_exits_2_with_one_line(tmp_path: Path, kind: str):
    path = tmp_path / "notes.txt"
    if kind == "file":
        path.write_text("hello\n")
    proc = run(path, "--offline")
    assert proc.returncode == 2
    assert_no_traceback(proc)
    assert proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1
    assert str(path) in lines[0]


def test_broken_pyproject_exits_3_names_the_file_and_leaves_it_untouched(tmp_path: Path):
    root = tmp_path / "broken"
    shutil.copytree(FIXTURES / "mf-broken-pyproject", root)
    before = (root / "pyproject.toml").read_bytes()
    proc = run(root, "--offline", "--write")
    assert proc.returncode == 3
    assert_no_traceback(proc)
    errors = [line for line in proc.stderr.splitlines() if "error" in line]
    assert errors and all("pyproject.toml" in line for line in errors)
    assert (root / "pyproject.toml").read_bytes() == before


def test_a_broken_manifest_does_not_stop_the_others(tmp_path: Path):
    root = tmp_path / "mono"
    shutil.copytree(FIXTURES / "mf-cli-app", root)
    shutil.copytree(FIXTURES / "mf-broken-pyproject", root / "plugins" / "broken")
    broken = root / "plugins" / "broken" / "pyproject.toml"
    before = broken.read_bytes()
    proc = run(root, "--offline", "--write")
    assert proc.returncode == 3
    assert_no_traceback(proc)
    assert "plugins/broken/pyproject.toml" in proc.stderr
    assert "wrote pyproject.toml" in proc.stdout.splitlines()
    assert broken.read_bytes() == before


@pytest.mark.parametrize(
    "fixture, manifest, module, names",
    [
        ("mf-cli-poetry", "pyproject.toml", pyproject, {"pyyaml", "requests"}),
        ("mf-cli-setup-py", "setup.py", setup_py, {"numpy", "requests"}),
        ("mf-cli-setup-cfg", "setup.cfg", setup_cfg, {"numpy", "requests"}),
        ("mf-cli-requirements", "requirements.txt", requirements, {"pyyaml", "requests"}),
    ],
)
def test_write_for_each_python_manifest_format(tmp_path, fixture, manifest, module, names):
    root = tmp_path / fixture
    shutil.copytree(FIXTURES / fixture, root)
    before = (root / manifest).read_text(encoding="utf-8")
    proc = run(root, "--offline", "--write")
    assert proc.returncode == 0, proc.stderr
    assert_no_traceback(proc)
    after = (root / manifest).read_text(encoding="utf-8")
    declared, _ = module.read(after, manifest)
    assert names <= {n.lower() for n in declared["dependencies"]}
    removed = set(before.splitlines()) - set(after.splitlines())
    assert removed == set()
    assert run(root, "--offline", "--write").stdout.strip() == "nothing to change"


def test_crlf_and_bom_manifest_keeps_its_bytes_outside_the_list(app: Path):
    path = app / "pyproject.toml"
    original = "\ufeff" + path.read_text(encoding="utf-8").replace("\n", "\r\n")
    path.write_bytes(original.encode("utf-8"))
    proc = run(app, "--offline", "--write")
    assert proc.returncode == 0, proc.stderr
    after = path.read_bytes().decode("utf-8")
    assert after.startswith("\ufeff# An application")
    assert after.count("\n") == after.count("\r\n")
    head = original.partition("dependencies = []")[0]
    assert after.startswith(head)


def test_undecodable_manifest_exits_3_and_is_not_touched(app: Path):
    bad = app / "requirements.txt"
    bad.write_bytes(b"caf\xe9-lib==1.0\nrequests\n")
    before = bad.read_bytes()
    proc = run(app, "--offline", "--write")
    assert proc.returncode == 3
    assert_no_traceback(proc)
    assert any("requirements.txt" in line for line in proc.stderr.splitlines())
    assert bad.read_bytes() == before


def test_python2_setup_py_is_reported_not_rewritten(tmp_path: Path):
    root = tmp_path / "py2"
    root.mkdir()
    setup = root / "setup.py"
    setup.write_text('from distutils.core import setup\nprint "building"\nsetup(name="old")\n')
    (root / "old.py").write_text("import requests\n")
    before = setup.read_bytes()
    proc = run(root, "--offline", "--write")
    assert proc.returncode == 3
    assert_no_traceback(proc)
    assert "setup.py" in proc.stderr
    assert setup.read_bytes() == before


def test_symlink_loops_and_binary_files_do_not_stop_the_run(app: Path):
    (app / "loop").symlink_to(app / "loop")
    (app / "src" / "cliapp" / "again").symlink_to(app / "src")
    (app / "src" / "cliapp" / "blob.py").write_bytes(b"\x00\x01\x02import os\x00")
    proc = run(app, "--offline", "--write")
    assert proc.returncode == 0, proc.stderr
    assert_no_traceback(proc)
    assert proc.stdout.strip() == "wrote pyproject.toml"
