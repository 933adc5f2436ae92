"""Rebuild depinfer/resolvers/data/api_lifecycles.json: when public names appeared in or
disappeared from widely used libraries with breaking majors.

Source: the libraries' own releases. For each listed version the distribution is
installed from the package index (the one pip/uv are configured with) into a scratch
virtual environment, imported, and its public names listed (module attributes and the
attributes of the listed classes). Comparing consecutive versions gives, per dotted name,
the first version that has it ("added") and the first version that no longer has it
("removed"). Nothing is copied from the libraries: only which names exist.

Dependencies of each old release are resolved as they were a month after it
(uv --exclude-newer), so it imports as it did then; names hidden from dir() behind a
module __getattr__ (deprecations) are found by probing every name any release lists.

Usage: python scripts/build_api_lifecycles.py [--only DIST ...]   (needs uv and network)
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from datetime import datetime, timedelta
from pathlib import Path

OUT = Path(__file__).parents[1] / "depinfer" / "resolvers" / "data" / "api_lifecycles.json"

# dist: (objects to list — modules or module:Class —, versions oldest first)
LIBRARIES: dict[str, tuple[list[str], list[str]]] = {
    "pydantic": (
        ["pydantic", "pydantic:BaseModel", "pydantic.fields"],
        ["1.10.13", "2.0", "2.5.3", "2.10.6"],
    ),
    "numpy": (
        ["numpy", "numpy:ndarray", "numpy.random"],
        ["1.21.6", "1.22.0", "1.24.0", "1.25.0", "1.26.4", "2.0.0", "2.1.0", "2.2.6"],
    ),
    "pandas": (
        ["pandas", "pandas:DataFrame", "pandas:Series", "pandas:Index"],
        ["1.3.5", "1.4.0", "1.5.3", "2.0.0", "2.1.0", "2.2.3"],
    ),
    "sqlalchemy": (
        ["sqlalchemy", "sqlalchemy.orm", "sqlalchemy.ext.declarative", "sqlalchemy.engine:Engine"],
        ["1.3.24", "1.4.0", "1.4.54", "2.0.0", "2.0.36"],
    ),
    "flask": (
        ["flask", "flask:Flask"],
        ["1.1.4", "2.0.0", "2.1.0", "2.2.0", "2.3.0", "3.0.0", "3.1.0"],
    ),
    "werkzeug": (
        ["werkzeug", "werkzeug.urls", "werkzeug.utils", "werkzeug.security"],
        ["1.0.1", "2.0.0", "2.1.0", "2.2.0", "2.3.0", "3.0.0", "3.1.0"],
    ),
    "click": (["click", "click:Context"], ["7.1.2", "8.0.0", "8.1.0", "8.1.8", "8.2.0"]),
    "marshmallow": (
        ["marshmallow", "marshmallow.fields", "marshmallow:Schema"],
        ["2.21.0", "3.0.0", "3.13.0", "3.20.1", "3.26.1", "4.0.0"],
    ),
    "attrs": (["attr", "attrs"], ["19.3.0", "20.1.0", "21.3.0", "22.1.0", "23.1.0", "25.1.0"]),
    "scikit-learn": (
        [
            "sklearn",
            "sklearn.metrics",
            "sklearn.model_selection",
            "sklearn.preprocessing",
            "sklearn.utils",
            "sklearn.datasets",
        ],
        ["1.0.2", "1.2.0", "1.3.0", "1.4.0", "1.5.0", "1.6.1"],
    ),
    "django": (
        [
            "django.utils.encoding",
            "django.utils.translation",
            "django.conf.urls",
            "django.urls",
            "django.db.models",
            "django.utils.timezone",
        ],
        ["3.2.25", "4.0", "4.1", "4.2", "5.0", "5.1.4"],
    ),
    "redis": (
        ["redis", "redis:Redis", "redis.asyncio"],
        ["3.5.3", "4.0.0", "4.2.0", "4.6.0", "5.0.0", "5.2.1"],
    ),
    "httpx": (
        ["httpx", "httpx:Client", "httpx:AsyncClient"],
        ["0.18.2", "0.23.0", "0.24.0", "0.25.0", "0.26.0", "0.27.0", "0.28.0"],
    ),
    "jinja2": (["jinja2", "jinja2.utils", "jinja2.filters"], ["2.11.3", "3.0.0", "3.1.0", "3.1.4"]),
    "markupsafe": (["markupsafe"], ["2.0.1", "2.1.0", "3.0.0"]),
}

# Names no release lists in dir() (served by a module __getattr__ while deprecated), probed
# by name. Source: NumPy 1.20.0 release notes, "Using the aliases of builtin types like
# np.int is deprecated"; NumPy 1.24.0 release notes, "expired deprecations".
PROBE: dict[str, list[str]] = {
    "numpy": [
        f"numpy.{n}"
        for n in ("float", "int", "bool", "object", "str", "long", "unicode", "complex")
    ],
}

LISTER = r"""
import importlib, json, sys, warnings
warnings.simplefilter("ignore")
probe = json.loads(sys.stdin.read() or "[]")
out = set()
for i, spec in enumerate(sys.argv[1:]):
    mod, _, cls = spec.partition(":")
    try:
        obj = importlib.import_module(mod)
        if cls:
            obj = getattr(obj, cls)
    except Exception:
        if i == 0:
            sys.exit(3)  # the library itself does not import on this Python
        continue
    prefix = mod + ("." + cls if cls else "")
    out.update(prefix + "." + n for n in dir(obj) if not n.startswith("_"))
    if not cls:
        out.add(mod)
    # names other releases list: present here too when reachable (module __getattr__
    # keeps deprecated names out of dir(), e.g. numpy.float before its removal)
    for name in probe:
        head, _, attr = name.rpartition(".")
        if head == prefix and attr and name not in out:
            try:
                getattr(obj, attr)
                out.add(name)
            except Exception:
                pass
print(json.dumps(sorted(out)))
"""


def pythons() -> list[str]:
    """Local interpreters, newest first (older library releases need older Pythons)."""

    def minor(path: str) -> int:
        m = re.search(r"3\.(\d+)", path)
        return int(m.group(1)) if m else 0

    found = sorted(
        glob.glob(os.path.expanduser("~/.pyenv/versions/3.*/bin/python3")), key=minor, reverse=True
    )
    found = [p for p in found if 8 <= minor(p) <= 12] + [sys.executable]
    return list(dict.fromkeys(found))


def release_dates(dist: str) -> dict[str, datetime]:
    """Upload dates per version from the configured index (depinfer's own PyPI client)."""
    sys.path.insert(0, str(Path(__file__).parents[1]))
    from depinfer.model import Ecosystem
    from depinfer.registries import Registries

    return {
        v.version: v.published for v in Registries().versions(Ecosystem.PYPI, dist) if v.published
    }


def install(
    dist: str, version: str, when: datetime | None, objects: list[str], workdir: Path
) -> str | None:
    """A venv with `dist==version` and its dependencies as they were a month after that
    release (so an old release gets the dependencies it was made for)."""
    for py in pythons():
        venv = workdir / f"{dist}-{version}"
        shutil.rmtree(venv, ignore_errors=True)
        if subprocess.run(
            ["uv", "venv", "-q", "--python", py, str(venv)], capture_output=True
        ).returncode:
            continue
        vpy = str(venv / "bin" / "python")
        cmd = [
            "uv",
            "pip",
            "install",
            "-q",
            "--python",
            vpy,
            "--only-binary",
            ":all:",
            f"{dist}=={version}",
        ]
        if when is not None:
            cmd += ["--exclude-newer", (when + timedelta(days=30)).strftime("%Y-%m-%dT%H:%M:%SZ")]
        if subprocess.run(cmd, capture_output=True, text=True).returncode:
            continue
        if subprocess.run(
            [vpy, "-c", LISTER, objects[0]], input="[]", capture_output=True, text=True
        ).returncode:
            continue
        print(f"  {dist} {version}: installed with {py}", file=sys.stderr)
        return vpy
    print(
        f"  {dist} {version}: could not be installed and imported on any local Python; skipped",
        file=sys.stderr,
    )
    return None


def names_of(vpy: str, objects: list[str], probe: list[str]) -> list[str]:
    out = subprocess.run(
        [vpy, "-c", LISTER, *objects],
        input=json.dumps(probe),
        capture_output=True,
        text=True,
        timeout=600,
    )
    return json.loads(out.stdout) if out.returncode == 0 else []


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", nargs="*")
    args = ap.parse_args()
    data = json.loads(OUT.read_text()) if OUT.exists() else {}
    for dist, (objects, versions) in LIBRARIES.items():
        if args.only and dist not in args.only:
            continue
        dates = release_dates(dist)
        with tempfile.TemporaryDirectory() as tmp:
            envs = [(v, install(dist, v, dates.get(v), objects, Path(tmp))) for v in versions]
            envs = [(v, py) for v, py in envs if py]
            first = {v: set(names_of(py, objects, [])) for v, py in envs}
            union = sorted(set().union(*first.values(), PROBE.get(dist, []))) if first else []
            listed = [(v, first[v] | set(names_of(py, objects, union))) for v, py in envs]
        added: dict[str, str] = {}
        removed: dict[str, str] = {}
        for (_, prev), (ver, cur) in zip(listed, listed[1:], strict=False):
            for name in cur - prev:
                added.setdefault(name, ver)
                removed.pop(name, None)  # came back
            for name in prev - cur:
                removed.setdefault(name, ver)
        data[dist] = {
            "objects": objects,
            "versions": [v for v, _ in listed],
            "added": dict(sorted(added.items())),
            "removed": dict(sorted(removed.items())),
            "source": "public names listed from each release installed from the package index",
        }
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(data, indent=0, sort_keys=True) + "\n")
    print(f"wrote {OUT}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
