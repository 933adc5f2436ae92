"""scripts/extract_tree.py: a snapshot's tree written out, blobs the snapshot lacks skipped."""

import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "extract_tree.py"


def git(repo: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(repo), *args], check=True, capture_output=True, text=True
    ).stdout.strip()


def test_extract_tree_skips_missing_blobs(tmp_path: Path) -> None:
    repo = tmp_path / "r"
    (repo / "pkg").mkdir(parents=True)
    (repo / "pkg" / "a.py").write_text("import os\n")
    (repo / "big.bin").write_bytes(b"\0" * 1000)
    (repo / "run.sh").write_text("#!/bin/sh\n")
    (repo / "run.sh").chmod(0o755)
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    git(repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "x")
    missing = git(repo, "rev-parse", "HEAD:big.bin")
    (repo / ".git" / "objects" / missing[:2] / missing[2:]).unlink()  # as a snapshot lacks it
    dest = tmp_path / "out"
    dest.mkdir()
    subprocess.run([sys.executable, str(SCRIPT), str(repo / ".git"), "HEAD", str(dest)], check=True)
    assert (dest / "pkg" / "a.py").read_text() == "import os\n"
    assert not (dest / "big.bin").exists()
    assert (dest / "run.sh").stat().st_mode & 0o111


def test_extract_tree_takes_a_checkout_as_well_as_its_git_dir(tmp_path: Path) -> None:
    repo = tmp_path / "r"
    repo.mkdir()
    (repo / "setup.py").write_text("from setuptools import setup\n")
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    git(repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "x")
    dest = tmp_path / "out"
    dest.mkdir()
    subprocess.run([sys.executable, str(SCRIPT), str(repo), "HEAD", str(dest)], check=True)
    assert (dest / "setup.py").read_text() == "from setuptools import setup\n"
