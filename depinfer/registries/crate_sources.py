"""Where a crate release's source is read from: Cargo's own download cache, else the
`.crate` the registry serves, unpacked into a work directory of the run.

Only Cargo.toml and `.rs` files are unpacked (the readers need nothing else), and members
with absolute paths or `..` are skipped: a tarball is untrusted input.

With a store (the analysis cache's `crates/` folder, which a new depinfer version leaves
behind), a `.crate` is unpacked once into a folder named by a digest of its bytes, kept for
later runs, and what the readers find in it is kept beside it (`remembered`): a warm run
neither unpacks nor parses a release again. The folder is complete before it gets its
name (unpacked aside, then renamed), so a run never reads half a crate.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
import shutil
import tarfile
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from depinfer.model import Ecosystem

T = TypeVar("T")
STORE_MARK = ".depinfer-crate"  # in a store entry: the name of the crate root's folder


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
    store: Path | None = None,
) -> Path | None:
    """A release's source: cargo's local copy, else its `.crate` from the registry unpacked
    into `store` (kept) or the run's work directory (made on first use, see
    `remove_workdir`); only the local copy offline."""
    src = cargo_source_dir(package, version)
    if src is not None or offline:
        return src
    release = _release_file(store, registries, registry_name or package, version)
    if release is not None:
        known = _by_release(release, store)  # type: ignore[arg-type]
        if known is not None:
            return known[0]  # unpacked by an earlier run: not downloaded again
    data = registries.download_crate(registry_name or package, version)
    if not data:
        return None
    if store is not None:
        kept = _in_store(data, store)
        if kept is not None:
            if release is not None:
                _remember_release(release, data)
            return kept[0]
    if not workdir:
        workdir.append(Path(tempfile.mkdtemp(prefix="depinfer-crates-")))
    return unpack_crate(data, workdir[0])


def remove_workdir(workdir: list[Path]) -> None:
    """Remove the work directory `crate_source` made, if it made one."""
    if workdir:
        shutil.rmtree(workdir[0], ignore_errors=True)


def _in_store(data: bytes, store: Path) -> tuple[Path | None] | None:
    """(the crate root, or None when the tarball has none) from the store entry of `data`,
    unpacked there first if needed; None when the store cannot be written."""
    entry = store / hashlib.blake2b(data, digest_size=16).hexdigest()
    found = _stored_root(entry)
    if found is not None:
        return found
    try:
        store.mkdir(parents=True, exist_ok=True)
        aside = Path(tempfile.mkdtemp(prefix=".tmp-", dir=store))
    except OSError:
        return None
    try:
        root = unpack_crate(data, aside)
        (aside / STORE_MARK).write_text(root.name if root is not None else "", encoding="utf-8")
        os.replace(aside, entry)
    except OSError:  # written by another run meanwhile, or not writable
        shutil.rmtree(aside, ignore_errors=True)
        return _stored_root(entry)
    return (entry / root.name if root is not None else None,)


RELEASES = "releases"  # in the store: per (index, crate, version), the entry it unpacked to


def _release_file(store: Path | None, registries: Any, name: str, version: str) -> Path | None:
    """Where the store notes which entry holds one release of the run's crate index (a
    published release never changes: cargo refuses to publish a version twice)."""
    if store is None:
        return None
    try:
        index = getattr(registries.client(Ecosystem.CRATES), "index", None)
    except AttributeError:
        return None
    url = getattr(index, "url", None)
    if not isinstance(url, str):
        return None
    key = hashlib.blake2b(f"{url}\0{name}\0{version}".encode(), digest_size=16)
    return store / RELEASES / key.hexdigest()


def _by_release(release: Path, store: Path) -> tuple[Path | None] | None:
    try:
        entry = release.read_text(encoding="utf-8").strip()
    except OSError:
        return None
    if not entry or not entry.isalnum():
        return None
    return _stored_root(store / entry)


def _remember_release(release: Path, data: bytes) -> None:
    entry = hashlib.blake2b(data, digest_size=16).hexdigest()
    try:
        release.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=release.parent)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(entry)
        os.replace(tmp, release)
    except OSError:
        pass


def _stored_root(entry: Path) -> tuple[Path | None] | None:
    try:
        name = (entry / STORE_MARK).read_text(encoding="utf-8")
    except OSError:
        return None
    if not name:
        return (None,)
    root = entry / name
    return (root,) if os.sep not in name and root.is_dir() else None


def remembered(
    crate_root: str, what: str, compute: Callable[[], T], store: Path | None = None
) -> T:
    """`compute()` (what a reader finds in a crate's source), kept beside a crate unpacked
    in the store (its content never changes there) or, for another folder (Cargo's own
    cache), in the store under a digest of its path and its files' sizes and times; else
    computed each time. Only answers JSON keeps exactly are kept."""
    entry = Path(crate_root).parent
    if (entry / STORE_MARK).is_file():
        path = entry / f".{what}.json"
    elif store is not None and (state := _source_state(crate_root)) is not None:
        path = store / "local" / f"{state}.{what}.json"
    else:
        return compute()
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        pass
    value = compute()
    try:
        text = json.dumps(value)
        if json.loads(text) != value:
            return value
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=path.parent)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except (OSError, TypeError, ValueError):
        pass
    return value


MAX_STATED = 5000  # files: a larger folder is read each time rather than stated


def _source_state(crate_root: str) -> str | None:
    """Digest of a crate folder's path and its Cargo.toml and `.rs` files' names, sizes and
    times (None when it cannot be walked or is too large)."""
    h = hashlib.blake2b(
        os.path.abspath(crate_root).encode("utf-8", "surrogatepass"), digest_size=16
    )
    count = 0
    try:
        for folder, dirs, files in os.walk(crate_root):
            dirs.sort()
            for name in sorted(files):
                if not (name.endswith(".rs") or name == "Cargo.toml"):
                    continue
                count += 1
                if count > MAX_STATED:
                    return None
                st = os.stat(os.path.join(folder, name))
                line = f"{folder}/{name}:{st.st_size}:{st.st_mtime_ns}:{st.st_ctime_ns}\n"
                h.update(line.encode("utf-8", "surrogatepass"))
    except OSError:
        return None
    return h.hexdigest()
