"""What the run is doing right now, for the progress line on a terminal.

Stages and look-ups announce themselves (`with stage("checking 37 names with PyPI"): …`);
the command line's spinner shows the innermost announcement, else its own label
("analysing 214 files"). Nothing here prints: without a terminal nothing is shown.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_stack: list[str] = []


@contextmanager
def stage(text: str) -> Iterator[None]:
    with _lock:
        _stack.append(text)
    try:
        yield
    finally:
        with _lock:
            _stack.remove(text)


def current() -> str | None:
    """The latest announcement still running, None when there is none."""
    with _lock:
        return _stack[-1] if _stack else None
