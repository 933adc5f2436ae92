"""Cython sources (`.pyx`, `.pxd`, `.pxi`): the import statements, as Python reads them.

A Cython module is compiled into the package and imports at run time what its `import`
and `from … import` lines name, like a `.py` file; `cimport` lines name C declarations,
which come from a distribution too (`cimport numpy`) unless Cython itself ships them
(`from libc.stdlib cimport malloc`, `cimport cython`: data/python/cython_includes.json,
built by scripts/build_cython_includes.py). The rest of a Cython file (`cdef` blocks, typed
arguments) is not Python, so the analyzer reads a view of the file that keeps only its
import statements — `cimport` read as `import`, each statement at the left margin, every
other line blank so line numbers stay — and drops what Cython provides. An import inside a
`try`/`def` block is read as a top-level one (Cython modules rarely guard imports).
"""

from __future__ import annotations

import re
from functools import lru_cache

from depinfer.data import load_table

SUFFIXES = (".pyx", ".pxd", ".pxi")

_STATEMENT = re.compile(r"[ \t]*(?:from[ \t]+\.*[\w.]*[ \t]+c?import\b|c?import[ \t]+\w)")
_CIMPORT = re.compile(r"\bcimport\b")


def is_cython(path: str) -> bool:
    return path.endswith(SUFFIXES)


@lru_cache(maxsize=1)
def provided() -> frozenset[str]:
    """Top-level modules the Cython compiler provides to `cimport` (nothing to install)."""
    return frozenset(load_table("python/cython_includes.json")["modules"])


def import_view(text: str) -> str:
    """`text` with only its import statements, as Python: the same number of lines."""
    out: list[str] = []
    depth, continued = 0, False
    for line in text.split("\n"):
        if depth > 0 or continued:  # inside a statement kept: parenthesised or `\` lines
            out.append(line)
        elif _STATEMENT.match(line):
            out.append(_CIMPORT.sub("import", line.lstrip(" \t")))
        else:
            out.append("")
            continue
        code = line.split("#", 1)[0]
        depth = max(0, depth + code.count("(") - code.count(")"))
        continued = code.rstrip().endswith("\\")
    return "\n".join(out)
