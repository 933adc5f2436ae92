"""Where a crate release's source is read from: Cargo's own download cache, else the
`.crate` the registry serves, unpacked into a work directory of the run.

Only Cargo.toml and `.rs` files are unpacked (the readers need nothing else), and members
with absolute paths or `..` are skipped: a tarball is untrusted input.
"""

from __future__ import annotations

import io
import os
import re
import shutil
import tarfile
import tempfile
from pathlib import Path
from typing import Any


def cargo_source_dir(name: str, version: str | None = None) -> Path | None:
    """A crate's unpacked source in Cargo's cache (newest when no version is given)."""
    home = Path(os.environ.get("CARGO_HOME") or Path.home() / ".cargo")
    best: tuple[tuple[int, ...], Path] | None = None
    for base in (home / "registry" / "src").glob("*"):
        for d in base.glob(f"{name}-*"):
            v = d.name[len(name) + 1 :]
            if not re.match(r"^\d+\.\d+\.\d+", v):
                continue
            if version is not None and v != version:
                continue
            key = tuple(int(x) for x in re.findall(r"\d+", v.split("-")[0])[:3])
            if "-" in v:
                continue
            if best is None or key > best[0]:
                best = (key, d)
    return best[1] if best else None


def unpack_crate(data: bytes, dest: Path) -> Path | None:
    """Unpack a `.crate` tarball's Cargo.toml and `.rs` files under `dest`; returns the crate
    root. Members with absolute paths or `..` are skipped (a tarball is untrusted input)."""
    root: Path | None = None
    try:
        with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
            for member in tar.getmembers():
                name = member.name
                parts = Path(name).parts
                if not member.isfile() or name.startswith("/") or ".." in parts:
                    continue
                if not (name.endswith(".rs") or parts[-1] == "Cargo.toml"):
                    continue
                target = dest.joinpath(*parts)
                target.parent.mkdir(parents=True, exist_ok=True)
                fh = tar.extractfile(member)
                if fh is None:
                    continue
                target.write_bytes(fh.read())
                if len(parts) == 2 and parts[1] == "Cargo.toml":
                    root = dest / parts[0]
    except (tarfile.TarError, OSError, EOFError):
        return None
    return root


def crate_source(
    package: str,
    version: str,
    registries: Any,
    offline: bool,
    workdir: list[Path],
    registry_name: str = "",
) -> Path | None:
    """A release's source: cargo's local copy, else its `.crate` from the registry unpacked
    into the run's work directory (made on first use, see `remove_workdir`); only the local
    copy offline."""
    src = cargo_source_dir(package, version)
    if src is not None or offline:
        return src
    data = registries.download_crate(registry_name or package, version)
    if not data:
        return None
    if not workdir:
        workdir.append(Path(tempfile.mkdtemp(prefix="depinfer-crates-")))
    return unpack_crate(data, workdir[0])


def remove_workdir(workdir: list[Path]) -> None:
    """Remove the work directory `crate_source` made, if it made one."""
    if workdir:
        shutil.rmtree(workdir[0], ignore_errors=True)
