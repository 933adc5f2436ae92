"""Rust test commands as they can run here: no lock file, and nextest when it is missing.

The benchmark and the verify loop delete `Cargo.lock` (it pins what is being tested), so a
job's `--locked` / `--frozen` would stop every run, the repository's own manifests included,
before a test ran; with no Cargo.lock in the tree the plan drops them. A job that runs `cargo nextest` (directly, or from a
Makefile or script the plan cannot rewrite) gets a `cargo-nextest` on PATH that runs the
same tests through `cargo test` (`nextest_shim.py`) when cargo-nextest is not installed.
"""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path

from depinfer.ci import nextest_shim
from depinfer.registries.http import default_cache_dir

_LOCK_FLAGS = re.compile(r"(\bcargo(?:\s+\+\S+)?\s+\S+[^;&|]*?)\s+--(?:locked|frozen)\b")


def without_lock_flags(line: str) -> str:
    """`cargo test --locked --workspace` → `cargo test --workspace` (the lock file is gone)."""
    previous = None
    while previous != line:
        previous, line = line, _LOCK_FLAGS.sub(r"\1", line)
    return line


def needs_nextest(lines: list[str], root: Path) -> bool:
    """Whether the job's test lines, or the Makefile / scripts they call, run nextest."""
    if any("nextest" in ln for ln in lines):
        return True
    if not any(re.search(r"\b(make|just|cargo make|\./|bash|sh)\b", ln) for ln in lines):
        return False
    for name in ("Makefile", "makefile", "justfile", "Makefile.toml"):
        path = root / name
        if path.is_file() and "nextest" in path.read_text(encoding="utf-8", errors="replace"):
            return True
    return any(
        "nextest" in (root / word).read_text(encoding="utf-8", errors="replace")
        for ln in lines
        for word in re.findall(r"(?:^|\s)\./?([\w./-]+\.sh)\b", ln)
        if (root / word).is_file()
    )


def nextest_folder() -> Path | None:
    """A folder holding a `cargo-nextest` stand-in, or None when the real one is installed."""
    if shutil.which("cargo-nextest"):
        return None
    folder = default_cache_dir() / "tools" / "nextest-stand-in"
    shim = folder / "cargo-nextest"
    text = f'#!/bin/sh\nexec "{sys.executable}" "{Path(nextest_shim.__file__)}" "$@"\n'
    if not shim.is_file() or shim.read_text(encoding="utf-8") != text:
        folder.mkdir(parents=True, exist_ok=True)
        shim.write_text(text, encoding="utf-8")
        shim.chmod(0o755)
    return folder
