"""Marshal files in the cache folder that several processes add to (issue 27: start-up).

The regex programs (`patterns`) and the code of dataclass methods (`dataclass_code`) are
kept the same way: one dict per file, read whole at the first need, and this process's
new entries merged into what the file holds at exit (another process may have added its
own meanwhile), written atomically. A file that cannot be read or written is ignored:
the caller compiles as if nothing were kept.
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
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(tmp, "wb") as fh:
            fh.write(marshal.dumps(merged))
        os.replace(tmp, path)
    except (OSError, ValueError):
        with contextlib.suppress(OSError):
            os.unlink(tmp)
