"""Marshal files in the cache folder (issue 27: start-up).

Decoded tables (`data`) are written one per file (`write`). Regex programs (`patterns`) and
the code of dataclass methods (`dataclass_code`) are one dict per file that several
processes add to: read whole at the first need, and this process's new entries merged at
exit into what the file then holds (another process may have added its own), written
atomically (`add`). A file that cannot be read or written is ignored: the caller decodes or
compiles as if nothing were kept.
"""

from __future__ import annotations

import contextlib
import marshal
import os
from pathlib import Path


def read(path: Path) -> dict | None:
    """The dict a kept file holds, or None (missing, damaged, another format)."""
    try:
        with open(path, "rb") as fh:
            found = marshal.loads(fh.read())
    except (OSError, EOFError, ValueError, TypeError):
        return None
    return found if isinstance(found, dict) else None


def add(path: Path, new: dict) -> None:
    """Merge `new` into the file at `path` (read again first), atomically."""
    merged = read(path) or {}
    merged.update(new)
    write(path, merged)


def write(path: Path, value: object) -> None:
    """Write `value` to `path` atomically; a value marshal cannot hold (a TOML date) or a
    folder that cannot be written leaves the file as it was."""
    try:
        blob = marshal.dumps(value)
    except ValueError:
        return
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(tmp, "wb") as fh:
            fh.write(blob)
        os.replace(tmp, path)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
