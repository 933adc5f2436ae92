"""Regular expressions compiled on first use (issue 27: start-up).

A module-level `re.compile` costs its compile in every process that imports the module,
though most runs use few of a module's patterns. `lazy(pattern, flags)` stands for
`re.compile(pattern, flags)`: the compile happens at the first method call, after which the
compiled pattern's methods are this object's own attributes (no per-call indirection).
"""

from __future__ import annotations

import re
from typing import Any

# what a compiled pattern offers besides `pattern` and `flags` (kept without compiling)
_MEMBERS = (
    "match",
    "search",
    "fullmatch",
    "finditer",
    "findall",
    "sub",
    "subn",
    "split",
    "groups",
    "groupindex",
    "scanner",
)


class LazyPattern:
    """`re.compile(pattern, flags)`, compiled when first used."""

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self.pattern = pattern
        self.flags = flags

    def compiled(self) -> re.Pattern[str]:
        """The compiled pattern (for APIs that want a real `re.Pattern`)."""
        return re.compile(self.pattern, self.flags)

    def __getattr__(self, name: str) -> Any:
        if name not in _MEMBERS:
            raise AttributeError(name)
        compiled = self.compiled()
        for member in _MEMBERS:
            setattr(self, member, getattr(compiled, member))
        return getattr(compiled, name)

    def __repr__(self) -> str:
        return f"lazy({self.pattern!r}, {self.flags!r})"


def lazy(pattern: str, flags: int = 0) -> Any:
    """A pattern compiled on its first use; typed `Any` so callers keep `re.Pattern`'s API."""
    return LazyPattern(pattern, flags)
