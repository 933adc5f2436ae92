"""Rebuild depinfer/data/python/cython_includes.json: the modules Cython itself provides to
`cimport`, which no distribution installs at run time.

Why: a Cython source (`.pyx`, `.pxd`, `.pxi`) imports Python modules as a `.py` file does,
and also `cimport`s C declarations. `from libc.stdlib cimport malloc` or `cimport cython`
name declarations the Cython compiler ships in its own `Cython/Includes` folder (and the
compiler's `cython` module): nothing to install for them. Every other name is a module of a
distribution, as in Python code.

Source: the `Cython/Includes` folder of a Cython wheel (PyPI, Apache-2.0; fetched with
`pip download --no-deps --only-binary=:all: cython`), its top-level folders and `.pxd`
files, plus `cython` (the compiler's own module, https://cython.readthedocs.io/en/latest/
src/userguide/language_basics.html). Left out: `numpy`, whose `.pxd` Cython keeps only as a
fallback copy of the declarations numpy ships itself — numpy is installed to run the module.

Usage: python scripts/build_cython_includes.py [--wheel PATH]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "depinfer/data/python/cython_includes.json"
PREFIX = "Cython/Includes/"
DISTRIBUTIONS_OWN = {"numpy"}  # declarations the distribution of that name ships itself


def includes(wheel: Path) -> list[str]:
    names = set()
    with zipfile.ZipFile(wheel) as z:
        for entry in z.namelist():
            if not entry.startswith(PREFIX):
                continue
            first = entry[len(PREFIX) :].split("/")[0]
            if "/" in entry[len(PREFIX) :]:
                names.add(first)  # a folder: libc/, libcpp/, cpython/, posix/
            elif first.endswith(".pxd"):
                names.add(first[: -len(".pxd")])  # openmp.pxd
    return sorted((names | {"cython"}) - DISTRIBUTIONS_OWN - {""})


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--wheel", type=Path, help="a Cython wheel (default: pip download one)")
    args = ap.parse_args()
    wheel = args.wheel
    with tempfile.TemporaryDirectory() as tmp:
        if wheel is None:
            subprocess.run(
                [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:"]
                + ["cython", "-d", tmp, "-q"],
                check=True,
            )
            wheel = next(Path(tmp).glob("*.whl"))
        table = {
            "about": "Modules Cython itself provides to cimport (nothing to install); "
            "built by scripts/build_cython_includes.py",
            "source": f"Cython/Includes of {wheel.name}, plus the compiler's own `cython` "
            "module; numpy left out (its own distribution ships its declarations)",
            "modules": includes(wheel),
        }
    OUT.write_text(json.dumps(table, indent=1) + "\n", encoding="utf-8")
    print(f"{OUT}: {len(table['modules'])} modules")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
