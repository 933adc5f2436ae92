"""Which modules a published wheel ships, read from the zip's central directory.

Why: an import the shipped index does not know can only be tied to a distribution by
what that distribution installs. A wheel is a zip whose central directory, at its end,
lists every file; two HTTP range requests (the last 64 kB, then the directory itself when
it is larger) read it without downloading the wheel. The answer is the set of dotted
module paths the wheel installs (`truth`, `truth.truth`, `google.cloud.storage`), up to
MAX_DEPTH parts: enough to say whether it provides an import.
"""

from __future__ import annotations

import io
import re
import struct
import zipfile
from collections.abc import Callable, Iterable

TAIL = 64 * 1024  # bytes read first from the end of the wheel
MAX_DIRECTORY = 8 * 1024 * 1024  # a larger central directory is not read
MAX_DEPTH = 3
_END = b"PK\x05\x06"  # end of central directory record
_ENTRY = b"PK\x01\x02"  # central directory file header
_EXTENSIONS = (".py", ".so", ".pyd")
MAX_WHEEL = 40 * 1024 * 1024  # a larger wheel is not downloaded to look for a name
MAX_SOURCE = 60 * 1024 * 1024  # Python source read from one wheel at most


def central_names(fetch: Callable[[int, int | None], bytes | None]) -> list[str] | None:
    """The file names of the zip that `fetch(first, last)` reads ranges of (a negative
    `first`: that many bytes from the end); None when it is not a zip this reader knows
    (ZIP64, a directory over MAX_DIRECTORY) or a range could not be read."""
    tail = fetch(-TAIL, None)
    if not tail:
        return None
    end = tail.rfind(_END)
    if end < 0 or len(tail) - end < 22:
        return None
    size, offset = struct.unpack_from("<II", tail, end + 12)
    if size == 0xFFFFFFFF or offset == 0xFFFFFFFF or size > MAX_DIRECTORY:
        return None
    if size <= end:  # the directory ends where its end record starts
        directory = tail[end - size : end]
    else:
        directory = fetch(offset, offset + size - 1) or b""
        if len(directory) != size:
            return None
    return _entries(directory)


def _entries(directory: bytes) -> list[str] | None:
    names, at = [], 0
    while at + 46 <= len(directory):
        if directory[at : at + 4] != _ENTRY:
            return None
        name_len, extra_len, comment_len = struct.unpack_from("<HHH", directory, at + 28)
        raw = directory[at + 46 : at + 46 + name_len]
        names.append(raw.decode("utf-8", "replace"))
        at += 46 + name_len + extra_len + comment_len
    return names


def module_paths(names: Iterable[str]) -> frozenset[str]:
    """Dotted module paths (packages and modules, up to MAX_DEPTH parts) the files install:
    a `.dist-info` is metadata; a `.data/purelib` or `/platlib` folder installs as the root."""
    out: set[str] = set()
    for name in names:
        parts = [p for p in name.split("/") if p]
        if not parts or parts[0].endswith(".dist-info"):
            continue
        if parts[0].endswith(".data"):
            if len(parts) < 3 or parts[1] not in ("purelib", "platlib"):
                continue
            parts = parts[2:]
        for depth in range(1, min(len(parts), MAX_DEPTH) + 1):
            head = parts[:depth]
            if depth == len(parts):  # a file: a module when it is code
                leaf = head[-1]
                if not leaf.endswith(_EXTENSIONS) or leaf.startswith("__init__."):
                    break
                head = [*head[:-1], leaf.split(".", 1)[0]]
            if all(p.isidentifier() for p in head):
                out.add(".".join(head))
            else:
                break
    return frozenset(out)


def ships(paths: frozenset[str], module: str) -> bool:
    """The wheel installs `module` or the package it is in (`truth.truth` → `truth`)."""
    parts = module.split(".")
    return any(".".join(parts[:n]) in paths for n in range(min(len(parts), MAX_DEPTH), 0, -1))


def ships_exactly(paths: frozenset[str], module: str) -> bool:
    """The wheel installs `module` itself (as deep as paths go), not only a package above
    it: `sklearn.externals.joblib` needs that folder or file, not just `sklearn`."""
    return ".".join(module.split(".")[:MAX_DEPTH]) in paths


def mentions(wheel: bytes, identifier: str) -> bool | None:
    """Whether a Python file of the wheel has `identifier` as a word: the release defines,
    takes or calls it (a keyword argument, a settings field, a function). The verify loop
    asks this of older and newer releases to find the line that still, or already, has a
    name the project uses. None when the bytes are not a readable zip."""
    word = re.compile(rb"(?<![\w])" + re.escape(identifier.encode()) + rb"(?![\w])")
    try:
        archive = zipfile.ZipFile(io.BytesIO(wheel))
        budget = MAX_SOURCE
        for info in archive.infolist():
            if not info.filename.endswith((".py", ".pyi")) or info.file_size > budget:
                continue
            budget -= info.file_size
            if word.search(archive.read(info)):
                return True
    except (zipfile.BadZipFile, OSError, ValueError, NotImplementedError):
        return None
    return False
