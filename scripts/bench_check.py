"""Time `depinfer --check` on a 500-file repository (issue: check must finish in < 1 s wall).

Builds a synthetic but realistic repository (a src-layout package of 400 modules with
stdlib, third-party and internal imports, 100 test modules, a pyproject declaring the
third-party names), then runs the check in a fresh process (as the pre-commit hook does)
N times and prints the wall times. Usage: python scripts/bench_check.py [--runs 5] [--repo DIR]
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

THIRD_PARTY = ["requests", "yaml", "click", "attr", "dateutil", "numpy", "PIL", "jinja2"]
DECLARED = ["requests", "pyyaml", "click", "attrs", "python-dateutil", "numpy", "pillow", "jinja2"]
STDLIB = ["os", "sys", "json", "re", "pathlib", "typing", "collections", "itertools", "logging"]


def make_repo(root: Path, modules: int = 400, tests: int = 100) -> None:
    rnd = random.Random(7)
    pkg = root / "src" / "bigpkg"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    for i in range(modules):
        lines = [f"import {m}" for m in rnd.sample(STDLIB, 4)]
        lines += [f"import {m}" for m in rnd.sample(THIRD_PARTY, 2)]
        lines += [f"from bigpkg import mod{rnd.randrange(modules)}"]
        lines += [f"def f{j}(x):\n    return x + {j}\n" for j in range(30)]
        (pkg / f"mod{i}.py").write_text("\n".join(lines) + "\n")
    (root / "tests").mkdir()
    for i in range(tests):
        (root / "tests" / f"test_{i}.py").write_text(
            f"import pytest\nfrom bigpkg import mod{i}\n\ndef test_{i}():\n    assert mod{i}.f1(1) == 2\n"
        )
    deps = ",\n".join(f'    "{d}"' for d in DECLARED)
    (root / "pyproject.toml").write_text(
        f'[project]\nname = "bigpkg"\nversion = "1"\ndependencies = [\n{deps},\n]\n'
        '[project.optional-dependencies]\ntest = ["pytest"]\n'
    )


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--repo", help="time this repository instead of the synthetic one")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(args.repo) if args.repo else Path(tmp) / "repo"
        if not args.repo:
            make_repo(root)
        files = sum(1 for p in root.rglob("*") if p.is_file())
        times = []
        for _ in range(args.runs):
            t = time.perf_counter()
            proc = subprocess.run(
                [sys.executable, "-m", "depinfer", "--check", str(root)],
                capture_output=True,
                text=True,
            )
            times.append(time.perf_counter() - t)
        print(
            f"{files} files; exit {proc.returncode}; wall s: "
            + ", ".join(f"{x:.2f}" for x in times)
            + f"; median {statistics.median(times):.2f}, best {min(times):.2f}"
        )
        if proc.stdout.strip():
            print(proc.stdout.strip().splitlines()[:5])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
