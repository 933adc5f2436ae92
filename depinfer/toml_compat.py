"""`tomllib` on Python 3.11+, its backport `tomli` (same API) on 3.10; and `loads`, the
same parse memoised: one run reads a repository's pyproject.toml in several stages (the
settings, the manifest reader, the tooling and pytest readers), and parsing it is what
costs, so each text is parsed once and every caller gets its own copy."""

import pickle
import sys
from functools import lru_cache
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

__all__ = ["loads", "tomllib"]


@lru_cache(maxsize=8)
def _parsed(text: str) -> bytes:
    return pickle.dumps(tomllib.loads(text), protocol=pickle.HIGHEST_PROTOCOL)


def loads(text: str) -> dict[str, Any]:
    """`tomllib.loads(text)`, parsed once per text: a fresh copy each call (a caller may
    change what it is handed); raises tomllib.TOMLDecodeError as tomllib does."""
    return pickle.loads(_parsed(text))
