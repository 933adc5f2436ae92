"""Each ecosystem's default registry, read from that ecosystem's own installed tooling.

depinfer never writes a registry host name itself: the default is whatever the user's
own pip, npm, cargo or NuGet client would use. Each answer is read from the installed tool
(pip's `PyPI` index model, `npm config get registry`, the default sparse index compiled
into the cargo binary, the default v3 feed compiled into NuGet.Configuration.dll) and
remembered in a small JSON file next to the HTTP cache, keyed by the tool's path and
modification time, so the slow probes (starting npm) run once, not on every run.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

from depinfer.runcache import note_fresh_until

PROBE_TTL = 24 * 3600  # seconds a remembered tooling answer stays valid
_memo: dict[str, str | None] = {}
_memo_lock = threading.Lock()

SPARSE_RE = re.compile(rb"sparse\+https?://[A-Za-z0-9.\-:]+/[A-Za-z0-9._\-/]*")
NUGET_V3_RE = re.compile(r"https://[A-Za-z0-9.\-]+(?::\d+)?/v3/index\.json")


def _stamp(path: Path) -> str:
    try:
        st = path.stat()
    except OSError:
        return str(path)
    return f"{path}:{st.st_size}:{int(st.st_mtime)}"


def remembered(
    key: str, stamp: str, probe: Callable[[], str | None], store: Path | None, refresh: bool
) -> str | None:
    """`probe()`'s answer, remembered in memory and in `store` (a JSON file) per `stamp`."""
    with _memo_lock:
        if not refresh and f"{key}|{stamp}" in _memo:
            return _memo[f"{key}|{stamp}"]
    data: dict[str, dict[str, object]] = {}
    if store is not None:
        try:
            data = json.loads(store.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            data = {}
        entry = data.get(key)
        if (
            not refresh
            and isinstance(entry, dict)
            and entry.get("stamp") == stamp
            and time.time() - float(entry.get("at", 0)) < PROBE_TTL  # type: ignore[arg-type]
        ):
            value = entry.get("value")
            answer = value if isinstance(value, str) else None
            note_fresh_until(float(entry.get("at", 0)) + PROBE_TTL)  # type: ignore[arg-type]
            with _memo_lock:
                _memo[f"{key}|{stamp}"] = answer
            return answer
    answer = probe()
    note_fresh_until(time.time() + PROBE_TTL)
    with _memo_lock:
        _memo[f"{key}|{stamp}"] = answer
    if store is not None and answer is not None:
        with _memo_lock:  # probes run in parallel threads: re-read, then add our key
            try:
                data = json.loads(store.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                data = {}
            data[key] = {"stamp": stamp, "value": answer, "at": time.time()}
            try:
                store.parent.mkdir(parents=True, exist_ok=True)
                tmp = store.with_suffix(f".{os.getpid()}.{threading.get_ident()}.tmp")
                tmp.write_text(json.dumps(data, indent=1), encoding="utf-8")
                tmp.replace(store)
            except OSError:
                pass
    return answer


# -- PyPI ------------------------------------------------------------------------------
def pip_default_index() -> tuple[str, str] | None:
    """(simple index URL, JSON API base) of pip's built-in default index.

    Read from the installed pip's own index model (`pip._internal.models.index.PyPI`); when
    this interpreter has no pip, from the pip of the first `python3`/`python` on PATH.
    """
    try:
        from pip._internal.models.index import PyPI  # type: ignore[import-not-found]

        return PyPI.simple_url, PyPI.pypi_url
    except Exception:
        pass
    code = "from pip._internal.models.index import PyPI;print(PyPI.simple_url);print(PyPI.pypi_url)"
    for exe in ("python3", "python"):
        path = shutil.which(exe)
        if not path or Path(path).resolve() == Path(sys.executable).resolve():
            continue
        try:
            out = subprocess.run(
                [path, "-c", code], capture_output=True, text=True, timeout=10, check=True
            ).stdout.split()
        except (OSError, subprocess.SubprocessError):
            continue
        if len(out) == 2:
            return out[0], out[1]
    return None


# -- npm -------------------------------------------------------------------------------
def npm_default_registry(store: Path | None = None, refresh: bool = False) -> str | None:
    """`npm config get registry` of the installed npm (its configured or built-in default)."""
    npm = shutil.which("npm")
    if not npm:
        return None

    def probe() -> str | None:
        try:
            out = subprocess.run(
                [npm, "config", "get", "registry"],
                capture_output=True,
                text=True,
                timeout=20,
                cwd=str(Path.home()),
                env={**os.environ, "npm_config_update_notifier": "false"},
            )
        except (OSError, subprocess.SubprocessError):
            return None
        value = out.stdout.strip().splitlines()[-1].strip() if out.stdout.strip() else ""
        return value if value.startswith(("http://", "https://")) else None

    return remembered("npm-registry", _stamp(Path(npm).resolve()), probe, store, refresh)


# -- cargo -----------------------------------------------------------------------------
def _cargo_binary(store: Path | None = None, refresh: bool = False) -> Path | None:
    """The real cargo executable (through rustup's proxy when cargo is one)."""
    env = os.environ.get("CARGO")
    if env and Path(env).is_file():
        return Path(env)
    cargo = shutil.which("cargo")
    if not cargo:
        return None
    real = Path(cargo).resolve()
    if not real.name.startswith("rustup"):
        return real

    def probe() -> str | None:
        try:
            out = subprocess.run(
                ["rustup", "which", "cargo"], capture_output=True, text=True, timeout=20
            )
        except (OSError, subprocess.SubprocessError):
            return None
        return out.stdout.strip() if out.returncode == 0 and out.stdout.strip() else None

    stamp = f"{_stamp(real)}|{os.environ.get('RUSTUP_TOOLCHAIN', '')}"
    found = remembered("cargo-binary", stamp, probe, store, refresh)
    return Path(found) if found and Path(found).is_file() else None


def _scan_for(path: Path, pattern: re.Pattern[bytes]) -> str | None:
    """The most frequent match of `pattern` in a binary file (read in one pass)."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    counts: dict[bytes, int] = {}
    for m in pattern.finditer(data):
        counts[m.group(0)] = counts.get(m.group(0), 0) + 1
    if not counts:
        return None
    best = max(counts, key=lambda k: counts[k])
    return best.decode("ascii", "replace")


def cargo_default_index(store: Path | None = None, refresh: bool = False) -> str | None:
    """The sparse index cargo uses for the `crates-io` source by default ("sparse+https://…/").

    Stable cargo has no command that prints it, so it is read from the installed cargo
    binary, where it is a compiled-in constant. None when cargo is not installed.
    """
    binary = _cargo_binary(store, refresh)
    if binary is None:
        return None
    return remembered(
        "cargo-index", _stamp(binary), lambda: _scan_for(binary, SPARSE_RE), store, refresh
    )


# -- NuGet -----------------------------------------------------------------------------
def _nuget_library_candidates() -> list[Path]:
    roots: list[Path] = []
    for env in ("DOTNET_ROOT", "DOTNET_INSTALL_DIR"):
        if os.environ.get(env):
            roots.append(Path(os.environ[env]))
    dotnet = shutil.which("dotnet")
    if dotnet:
        roots.append(Path(dotnet).resolve().parent)
    home = Path.home()
    roots += [
        home / ".dotnet",
        Path("/usr/share/dotnet"),
        Path("/usr/lib/dotnet"),
        Path("/usr/local/share/dotnet"),
        Path("/opt/dotnet"),
    ]
    found: list[Path] = []
    for root in roots:
        if root.is_dir():
            found += sorted(root.glob("sdk/*/NuGet.Configuration.dll"), reverse=True)
    packages = Path(os.environ.get("NUGET_PACKAGES") or home / ".nuget" / "packages")
    found += sorted(packages.glob("nuget.configuration/*/lib/*/NuGet.Configuration.dll"))
    for exe in ("nuget", "nuget.exe"):
        path = shutil.which(exe)
        if path:
            found.append(Path(path).resolve())
    return found


def nuget_default_source(store: Path | None = None, refresh: bool = False) -> str | None:
    """The default v3 feed compiled into an installed NuGet client (NuGet.Configuration).

    None when no NuGet client (dotnet SDK, nuget.exe, NuGet.Configuration package) exists.
    """
    for lib in _nuget_library_candidates():

        def probe(lib: Path = lib) -> str | None:
            try:
                data = lib.read_bytes()
            except OSError:
                return None
            for start in (0, 1):  # UTF-16 strings may sit at odd offsets
                m = NUGET_V3_RE.search(data[start:].decode("utf-16-le", "ignore"))
                if m:
                    return m.group(0)
            return None

        answer = remembered("nuget-source", _stamp(lib), probe, store, refresh)
        if answer:
            return answer
    return None
