"""Modules of a dependency that need one of its optional requirements.

`from fastapi.testclient import TestClient` fails with "No module named 'httpx'" when only
fastapi is installed: starlette's test client imports httpx at its top, and starlette
requires httpx only under its `full` extra. The code names fastapi; the file that imports
the test client also needs httpx. The generated table data/python/optional_imports.json
(scripts/build_optional_imports.py, from the distributions' wheels and Requires-Dist) holds
those modules; this module finds the project's imports of them and says which rule each
becomes, in the shape of data/python/implicit.json's `imports` rules, so they are written
like any implicit dependency (the section follows the importing file's role).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from depinfer.data import load_table
from depinfer.model import FileKind, ImportRef


@lru_cache(maxsize=1)
def table() -> dict[str, list[dict[str, str]]]:
    return load_table("python/optional_imports.json")["modules"]


def fired(refs: list[ImportRef]) -> list[tuple[dict[str, Any], list[tuple[str, int, FileKind]]]]:
    """(rule, where it fired) for each needed optional requirement, first use first."""
    modules = table()
    found: dict[tuple[str, str], tuple[dict[str, Any], list]] = {}
    for ref in refs:
        if ref.relative or ref.type_only:
            continue
        # the module itself, or a module the `from` names (`from fastapi import testclient`)
        for name in (ref.module, *(f"{ref.module}.{n}" for n in ref.names)):
            for row in modules.get(name, ()):
                key = (name, row["dist"])
                if key not in found:
                    found[key] = (_rule(name, row), [])
                found[key][1].append((ref.file, ref.line, ref.kind))
    return list(found.values())


def _rule(module: str, row: dict[str, str]) -> dict[str, Any]:
    return {
        "id": f"optional-import:{module}",
        "dist": row["dist"],
        "section": "file",
        "imports": module,
        "why": (
            f"{module} imports {row['dist']} at its top, which {row['via']} requires only "
            f"under its '{row['extra']}' extra"
        ),
        "source": "the distributions' wheels (scripts/build_optional_imports.py)",
    }
