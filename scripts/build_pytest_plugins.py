"""Rebuild depinfer/data/python/pytest_plugins.toml: what each pytest plugin adds to pytest —
command-line options, ini keys, markers and fixtures — with its `pytest11` entry-point name.

Sources: the plugins themselves, installed from the Python package index (through uv and
its own index configuration) into a fresh scratch virtual environment each, next to the
newest pytest. For each plugin, `pytest --help`, `pytest --markers` and `pytest --fixtures`
are run twice in an empty directory — with the plugin loaded and with its entry points
blocked (`-p no:NAME`) — and what differs, less what a bare pytest already has (pytest 9's
own `subtests` fixture shares pytest-subtests' plugin name), is what the plugin registers. Blocking
rather than comparing with a bare pytest keeps what a plugin's own plugin dependencies add
(pytest-aiohttp pulls in pytest-asyncio; pytest-html pulls in pytest-metadata) with those
dependencies. A package with no `pytest11` entry point is compared with a bare pytest.
Entry-point modules, top-level import names and declared requirements come from the
installed distribution's metadata (importlib.metadata).

The package list below is the seed: widely used plugins whose options appear in projects'
`addopts`, or whose markers (`@pytest.mark.anyio`) and fixtures (`mocker`, `httpx_mock`)
appear in test code (each plugin's documentation on its project page). A package that does
not install, or whose plugin does not load into the newest pytest, is reported and left out.
A drop-in replacement that re-registers another plugin's names (pytest-codspeed's
`benchmark`) is left out too, so the original's names stay unambiguous; plugins that
share a name in their own right (pytest-freezer and pytest-freezegun's `freezer`) are
both listed, and the rule reading the table chooses by what else the repository shows.

Readers:
- depinfer/ci/plan.py installs the plugins a repository's pytest configuration cannot run
  without (`addopts = --cov ...` needs pytest-cov) before running its tests (options, ini,
  entry);
- depinfer/rules/python_pytest.py turns markers, fixture parameters, `pytest_plugins`
  entries and `-p NAME` in a repository's tests into the plugin's distribution (markers,
  fixtures, entry, modules, imports, requires).

Usage: python scripts/build_pytest_plugins.py [PACKAGE ...]  (needs uv and the index;
with package names, only those are rebuilt and the rest of the table is kept)
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from depinfer.toml_compat import tomllib

PACKAGES = [
    # options and ini keys in addopts / CI commands
    "pytest-cov",
    "pytest-xdist",
    "pytest-timeout",
    "pytest-randomly",
    "pytest-env",
    "pytest-rerunfailures",
    "pytest-html",
    "pytest-metadata",
    "pytest-doctestplus",
    "pytest-mpl",
    "pytest-sugar",
    "pytest-order",
    "pytest-repeat",
    "pytest-dependency",
    "pytest-instafail",
    "pytest-mypy",
    "pytest-github-actions-annotate-failures",
    # async test runners (markers)
    "pytest-asyncio",
    "anyio",
    "pytest-trio",
    "pytest-aiohttp",
    "pytest-twisted",
    "pytest-tornasync",
    # mocking and HTTP (fixtures)
    "pytest-mock",
    "pytest-httpx",
    "respx",
    "requests-mock",
    "pytest-httpserver",
    "pytest-localserver",
    "pytest-httpbin",
    "pytest-socket",
    "pytest-recording",
    "pytest-vcr",
    # time
    "pytest-freezer",
    "pytest-freezegun",
    "time-machine",
    # snapshots, data files, regressions
    "syrupy",
    "pytest-snapshot",
    "pytest-datadir",
    "pytest-regressions",
    "pytest-benchmark",  # (pytest-codspeed is left out: a drop-in that re-registers its names)
    # frameworks and services
    "pytest-django",
    "pytest-flask",
    "pytest-playwright",
    "pytest-factoryboy",
    "pytest-bdd",
    "pytest-docker",
    "pytest-xprocess",
    "pytest-postgresql",
    "pytest-redis",
    "pytest-celery",
    "pytest-subprocess",
    "pytest-console-scripts",
    "pytest-check",
    "pytest-subtests",
    "pytest-lazy-fixture",
    "pytest-cases",
    "pytest-describe",
    "pytest-clarity",
    "pytest-examples",
    "pytest-pretty",
    "pytest-retry",
    "flaky",
    "hypothesis",
]
from depinfer.data import DATA_DIR  # noqa: E402

OUT = DATA_DIR / "python/pytest_plugins.toml"


OPTION = re.compile(r"^\s{2}(-[-\w]+(?:[=\s]\S+)?(?:,\s*-[-\w]+(?:[=\s]\S+)?)*)", re.M)
INI = re.compile(r"^\s{2}([A-Za-z_]\w*) \([\w-]+\):", re.M)
MARKER = re.compile(r"^@pytest\.mark\.(\w+)", re.M)
FIXTURE = re.compile(r"^([A-Za-z_]\w*)(?: \[[\w ]+\])? -- ", re.M)
TIMEOUT = 180

METADATA = """
import importlib.metadata as m, json, re, sys
d = m.distribution(sys.argv[1])
eps = [(e.name, e.value.split(':')[0]) for e in d.entry_points if e.group == 'pytest11']
tops = sorted(t for t, ds in m.packages_distributions().items()
              if d.metadata['Name'] in ds and not t.startswith('__'))
req = sorted({re.split(r'[\\s;<>=!~\\[(]', r, maxsplit=1)[0].lower().replace('_', '-')
              for r in (d.requires or []) if 'extra ==' not in r})
print(json.dumps({'version': d.version, 'entries': eps, 'imports': tops, 'requires': req}))
"""


class PluginError(Exception):
    """A package that did not install or whose plugin does not load."""


def _run(cmd: list[str], cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        cmd, capture_output=True, text=True, check=False, cwd=cwd, timeout=TIMEOUT
    )


def _pytest(python: str, cwd: Path, what: str, block: list[str]) -> str:
    """The output of `pytest <what>` (pytest exits 5 when nothing was collected)."""
    args = [python, "-m", "pytest", what, "-p", "no:cacheprovider"]
    for name in block:
        args += ["-p", f"no:{name}"]
    done = _run(args, cwd=cwd)
    if done.returncode not in (0, 5):
        raise PluginError(f"pytest {what} exited {done.returncode}: {done.stderr[-300:]}")
    return done.stdout


def _surface(python: str, cwd: Path, block: list[str]) -> dict[str, set[str]]:
    """Options, ini keys, markers and fixtures this pytest knows."""
    text = _pytest(python, cwd, "--help", block)
    options = set()
    for m in OPTION.finditer(text):
        for part in m.group(1).split(","):
            word = re.split(r"[=\s]", part.strip())[0]
            if re.fullmatch(r"--?[A-Za-z][\w-]*", word):
                options.add(word)
    ini_part = text.split("[pytest] ini-options", 1)[-1]
    return {
        "options": options,
        "ini": set(INI.findall(ini_part)),
        "markers": set(MARKER.findall(_pytest(python, cwd, "--markers", block))),
        "fixtures": set(FIXTURE.findall(_pytest(python, cwd, "--fixtures", block))),
    }


def _venv(tmp: Path, name: str, packages: list[str]) -> str:
    venv = tmp / name
    done = _run(["uv", "venv", "--quiet", str(venv)])
    if done.returncode:
        raise PluginError(done.stderr.strip())
    python = str(venv / "bin" / "python")
    done = _run(["uv", "pip", "install", "--quiet", "--python", python, *packages])
    if done.returncode:
        raise PluginError("install failed: " + done.stderr.strip()[-300:])
    return python


def _plugin(tmp: Path, empty: Path, package: str, bare: dict[str, set[str]]) -> dict:
    python = _venv(tmp, "venv-" + re.sub(r"\W", "_", package), ["pytest", package])
    done = _run([python, "-c", METADATA, package])
    if done.returncode:
        raise PluginError(done.stderr.strip()[-300:])
    meta = json.loads(done.stdout)
    entries = [name for name, _ in meta["entries"]]
    loaded = _surface(python, empty, [])
    base = _surface(python, empty, entries) if entries else bare
    row = {"package": package, "version": meta["version"]}
    if entries:
        row["entry"] = entries[0]
    for key in ("options", "ini", "markers", "fixtures"):  # pytest's own never count
        row[key] = sorted(loaded[key] - base[key] - bare[key])
    row["modules"] = sorted({module for _, module in meta["entries"]})
    row["imports"] = meta["imports"]
    row["requires"] = [r for r in meta["requires"] if r != "pytest"]
    return row


def _toml_list(values: list[str]) -> str:
    return "[" + ", ".join(json.dumps(v) for v in values) + "]"


def _render(rows: list[dict], pytest_version: str) -> str:
    lines = [
        "# pytest plugins: what each registers (options, ini keys, markers, fixtures), its -p",
        "# entry name, entry-point modules, import names and requirements.",
        f"# Generated by scripts/build_pytest_plugins.py against pytest {pytest_version} from",
        "# the installed plugins' own `pytest --help/--markers/--fixtures`; do not edit by hand.",
        "",
    ]
    for row in rows:
        lines += ["[[plugin]]", f"package = {json.dumps(row['package'])}"]
        lines.append(f"version = {json.dumps(row['version'])}")
        if row.get("entry"):
            lines.append(f"entry = {json.dumps(row['entry'])}")
        for key in ("options", "ini", "markers", "fixtures", "modules", "imports", "requires"):
            lines.append(f"{key} = {_toml_list(row.get(key, []))}")
        lines.append("")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    wanted = argv or PACKAGES
    kept: dict[str, dict] = {}
    if argv and OUT.exists():
        kept = {p["package"]: p for p in tomllib.loads(OUT.read_text())["plugin"]}
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        empty = tmp / "empty"
        empty.mkdir()
        python = _venv(tmp, "bare", ["pytest"])
        bare = _surface(python, empty, [])
        pytest_version = _run([python, "-m", "pytest", "--version"]).stdout.split()[-1]
        for package in wanted:
            try:
                kept[package] = _plugin(tmp, empty, package, bare)
            except (PluginError, subprocess.TimeoutExpired) as exc:
                print(f"skipped {package}: {exc}", file=sys.stderr)
                continue
            row = kept[package]
            print(
                f"{package} {row['version']}: {len(row['markers'])} markers, "
                f"{len(row['fixtures'])} fixtures, {len(row['options'])} options",
                file=sys.stderr,
            )
    order = {name: i for i, name in enumerate(PACKAGES)}
    rows = sorted(kept.values(), key=lambda r: (order.get(r["package"], len(order)), r["package"]))
    OUT.write_text(_render(rows, pytest_version), encoding="utf-8")
    print(f"wrote {OUT} ({len(rows)} plugins)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
