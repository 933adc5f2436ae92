"""DI-Bench's own format, read and written.

A DI-Bench instance (`instance_id`, `metadata`, `language`, `act_command`, `ci_file`,
`patch`, `build_files`, `env_specs`) comes with its repository already masked under
`<repo-data>/<language>/<instance_id>`; `patch` is the diff that restores the gold build
files. Their evaluator reads a prediction from `<results>/<language>/<instance_id>/patch.diff`
(applied with `git apply` from the repository root), so depinfer's run writes exactly that.
The gold here is read by applying `patch` to scratch copies of the build files.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from depinfer.bench.dataset import DatasetError, Instance
from depinfer.bench.sections import Dep, SectionError, read_deps


def gold_from_patch(inst: Instance, tree: Path) -> dict[str, list[Dep]]:
    """Apply the instance's gold patch to copies of its build files and read them."""
    if not inst.patch:
        return {rel: [] for rel in inst.build_files}
    if shutil.which("git") is None:
        raise DatasetError("reading DI-Bench gold patches needs `git` on PATH")
    with tempfile.TemporaryDirectory(prefix="depinfer-gold-") as tmp:
        root = Path(tmp)
        for rel in inst.build_files:
            src = tree / rel
            dest = root / rel
            dest.parent.mkdir(parents=True, exist_ok=True)
            if src.is_file():
                shutil.copyfile(src, dest)
        patch_file = root / ".gold.diff"
        patch_file.write_text(inst.patch, encoding="utf-8")
        includes = [f"--include={rel}" for rel in inst.build_files]
        proc = subprocess.run(
            ["git", "apply", "--allow-empty", "--ignore-whitespace", *includes, patch_file.name],
            cwd=root,
            capture_output=True,
            text=True,
            check=False,
        )
        if proc.returncode != 0:
            raise DatasetError(f"{inst.id}: gold patch does not apply: {proc.stderr.strip()[:300]}")
        gold = {}
        for rel in inst.build_files:
            try:
                text = (root / rel).read_bytes().decode("utf-8-sig")
                gold[rel] = read_deps(text, rel)
            except (OSError, UnicodeDecodeError, SectionError):
                gold[rel] = []
        return gold


def dibench_language(inst: Instance) -> str:
    """The language folder DI-Bench's evaluator uses: its own spelling, lower-cased."""
    raw = inst.raw.get("language")
    return raw.lower() if isinstance(raw, str) and raw else inst.language


def dibench_instance(inst: Instance, patch: str) -> dict[str, Any]:
    """Our instance as a DI-Bench dataset line (masked tree + `patch` restoring the gold)."""
    raw = inst.raw
    return {
        "instance_id": inst.id,
        "metadata": {
            "repo_name": inst.repo,
            "commit_hash": inst.commit,
            **({"commit_date": inst.date} if inst.date else {}),
        },
        "language": inst.language,
        "act_command": raw.get("act_command") or "",
        "ci_file": raw.get("ci_file") or "",
        "patch": patch,
        "build_files": inst.build_files,
        "env_specs": raw.get("env_specs") or {},
    }
