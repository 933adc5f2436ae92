"""Rebuild depinfer/data/python/python_stdlib.json: the standard library per Python 3.x.

Why: the running interpreter's `sys.stdlib_module_names` describes *its* version, not the
analysed project's target; `distutils` is stdlib on 3.11 and gone on 3.12, `tomllib` appears
in 3.11. The mapper asks this table for the target version instead.

Sources, in order of preference for each minor version 3.8 … 3.14:
  1. `sys.stdlib_module_names` of a CPython interpreter of that version found on this
     machine (pyenv's `python3.X`, or `uv python find 3.X`) — 3.10 and later have it;
  2. the per-version lists shipped in the `stdlib-list` distribution (PyPI, MIT licence,
     https://github.com/pypi/stdlib-list), fetched with `pip download --no-deps stdlib-list`;
     used for the versions without a local interpreter (and for 3.8/3.9, which lack
     `sys.stdlib_module_names`), and for dotted sub-modules (`importlib.metadata`).
  3. `dir(typing)` of each local interpreter gives the names `typing` offers per version, so
     `from typing import Self` on a 3.10 target can be sent to typing-extensions.

Usage: python scripts/build_python_stdlib.py [--stdlib-list-wheel PATH]
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

VERSIONS = [f"3.{m}" for m in range(8, 15)]
OUT = Path(__file__).resolve().parent.parent / "depinfer/data/python/python_stdlib.json"

PROBE = r"""
import json, os, sys, sysconfig, typing
names = sorted(getattr(sys, "stdlib_module_names", ()))
if not names:  # before 3.10: what the interpreter's own stdlib directory holds
    found = set(sys.builtin_module_names)
    for key in ("stdlib", "platstdlib"):
        base = sysconfig.get_paths()[key]
        for sub in (base, os.path.join(base, "lib-dynload")):
            for entry in os.listdir(sub) if os.path.isdir(sub) else ():
                if entry in ("site-packages", "dist-packages") or entry.startswith("."):
                    continue
                full = os.path.join(sub, entry)
                if entry.endswith((".py", ".so", ".pyd")):
                    found.add(entry.split(".")[0])
                elif os.path.isdir(full) and os.path.exists(os.path.join(full, "__init__.py")):
                    found.add(entry)
    names = sorted(n for n in found if n.isidentifier())
print(json.dumps({"stdlib": names, "typing": sorted(n for n in dir(typing) if not n.startswith("_")),
                  "builtins": sorted(sys.builtin_module_names)}))
"""


def minor(version: str) -> int:
    return int(version.split(".")[1])


def find_interpreter(version: str) -> str | None:
    exe = shutil.which(f"python{version}")
    candidates = [exe] if exe else []
    pyenv_root = Path.home() / ".pyenv/versions"
    if pyenv_root.is_dir():
        for d in sorted(pyenv_root.glob(f"{version}.*")):
            candidates.append(str(d / "bin/python3"))
    try:
        found = subprocess.run(
            ["uv", "python", "find", "--no-python-downloads", version],
            capture_output=True,
            text=True,
            timeout=30,
        )
        if found.returncode == 0 and found.stdout.strip():
            candidates.append(found.stdout.strip())
    except (OSError, subprocess.TimeoutExpired):
        pass
    for cand in candidates:
        try:
            out = subprocess.run(
                [cand, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
                capture_output=True,
                text=True,
                timeout=30,
            )
        except (OSError, subprocess.TimeoutExpired):
            continue
        if out.returncode == 0 and out.stdout.strip() == version:
            return cand
    return None


def probe(exe: str) -> dict:
    out = subprocess.run([exe, "-c", PROBE], capture_output=True, text=True, timeout=60)
    out.check_returncode()
    return json.loads(out.stdout)


def stdlib_list_lists(wheel: Path | None) -> dict[str, list[str]]:
    """version -> module names (dotted) from the stdlib-list wheel."""
    tmp = None
    if wheel is None:
        tmp = tempfile.mkdtemp()
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "--no-deps", "-q", "-d", tmp, "stdlib-list"],
            check=True,
            timeout=300,
        )
        wheel = next(Path(tmp).glob("stdlib_list-*.whl"))
    lists: dict[str, list[str]] = {}
    with zipfile.ZipFile(wheel) as zf:
        for name in zf.namelist():
            m = re.fullmatch(r"stdlib_list/lists/(\d+\.\d+)\.txt", name)
            if m:
                lists[m.group(1)] = [
                    ln.strip() for ln in zf.read(name).decode().splitlines() if ln.strip()
                ]
    if tmp:
        shutil.rmtree(tmp, ignore_errors=True)
    return lists


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--stdlib-list-wheel", type=Path, default=None)
    args = ap.parse_args()
    lists = stdlib_list_lists(args.stdlib_list_wheel)
    versions: dict[str, list[str]] = {}
    typing_names: dict[str, list[str]] = {}
    used: dict[str, str] = {}
    for v in VERSIONS:
        tops: set[str] = set()
        exe = find_interpreter(v)
        if exe:
            info = probe(exe)
            typing_names[v] = info["typing"]
            if info["stdlib"]:
                tops.update(info["stdlib"])
                how = "sys.stdlib_module_names" if minor(v) >= 10 else "stdlib directory listing"
                used[v] = f"{how} of CPython {v} ({exe})"
        if v in lists and minor(v) < 10:  # also what stdlib-list saw for the older versions
            tops.update(n.split(".")[0] for n in lists[v])
            used[v] = used[v] + " + stdlib-list" if v in used else f"stdlib-list lists/{v}.txt"
        if not tops:
            if v not in lists:
                raise SystemExit(f"no source for Python {v}")
            tops.update(n.split(".")[0] for n in lists[v])
            used[v] = f"stdlib-list lists/{v}.txt"
        # `__main__`-style and private names are not imported by projects by accident;
        # keep them anyway: they are stdlib and must never map to a distribution.
        versions[v] = sorted(tops)
    # First version each dotted module appears in (only those after the oldest listed).
    since: dict[str, str] = {}
    seen: set[str] = set(lists.get(VERSIONS[0], ()))
    for v in VERSIONS[1:]:
        for name in lists.get(v, ()):
            if name not in seen:
                since[name] = v
        seen.update(lists.get(v, ()))
    typing_since: dict[str, str] = {}
    known = [v for v in VERSIONS if v in typing_names]
    for v in known[1:]:
        earlier = set().union(*(typing_names[u] for u in known[: known.index(v)]))
        for name in typing_names[v]:
            if name not in earlier:
                typing_since.setdefault(name, v)
    data = {
        "about": "Standard-library top-level module names per CPython minor version; "
        "built by scripts/build_python_stdlib.py",
        "sources": used,
        "versions": versions,
        "since": dict(sorted(since.items())),
        "typing_names": {v: typing_names[v] for v in known},
        "typing_since": dict(sorted(typing_since.items())),
    }
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(data, separators=(",", ":"), sort_keys=False) + "\n")
    print(f"wrote {OUT} ({OUT.stat().st_size // 1024} kB)")
    for v, s in used.items():
        print(f"  {v}: {s}")


if __name__ == "__main__":
    main()
