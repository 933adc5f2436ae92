"""How each registry spells a package name in its URLs, and which names it can never hold.

- PyPI: PEP 503 normalisation (runs of `-`, `_`, `.` become `-`, lower-case).
- npm: names are exact (new names are lower-case; a few old ones are not), a scoped name's
  `/` is escaped in the packument URL as `%2f`.
- crates: case-insensitive; `-` and `_` stay distinct in the index, whose files use the
  lower-cased name under a prefix path of 1-, 2-, 3-letter and first-four-letter folders.
- NuGet: case-insensitive; v3 URLs use the lower-cased id.

A name that breaks the registry's own naming rules cannot exist there, so it is answered
"does not exist" without a request (and never turned into a URL path).
"""

from __future__ import annotations

import re
from urllib.parse import quote

from depinfer.patterns import lazy

_PEP503 = lazy(r"[-_.]+")
_PYPI_VALID = lazy(r"^([A-Z0-9]|[A-Z0-9][A-Z0-9._-]*[A-Z0-9])$", re.IGNORECASE)
_NPM_VALID = lazy(r"^(@[a-z0-9~][a-z0-9._~-]*/)?[a-z0-9~][a-z0-9._~-]*$", re.IGNORECASE)
_CRATE_VALID = lazy(r"^[A-Za-z][A-Za-z0-9_-]{0,63}$")
_NUGET_VALID = lazy(r"^[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}$")


def pypi_normalize(name: str) -> str:
    return _PEP503.sub("-", name).lower()


def comparable(ecosystem: str, name: str) -> str:
    """The form in which two spellings of one package compare equal (and how DI-Bench
    compares them): PyPI per PEP 503; crates lower-case with `-` as `_`; npm and NuGet
    lower-case. `ecosystem` is an Ecosystem value ("pypi", "npm", "crates", "nuget")."""
    low = name.strip().lower()
    if ecosystem == "pypi":
        return _PEP503.sub("-", low)
    if ecosystem == "crates":
        return low.replace("-", "_")
    return low


def pypi_valid(name: str) -> bool:
    return bool(_PYPI_VALID.match(name))


def npm_valid(name: str) -> bool:
    return len(name) <= 214 and bool(_NPM_VALID.match(name))


def npm_path(name: str) -> str:
    """The packument path segment: `@scope/pkg` → `@scope%2fpkg`."""
    return quote(name, safe="@").replace("%2F", "%2f")


def npm_scope(name: str) -> str | None:
    return name.split("/", 1)[0].lower() if name.startswith("@") and "/" in name else None


def crate_valid(name: str) -> bool:
    return bool(_CRATE_VALID.match(name))


def crate_prefix(name: str) -> str:
    """The index folder of a crate (cargo's `{prefix}`): 1, 2, 3/a, or ab/cd."""
    n = len(name)
    if n == 1:
        return "1"
    if n == 2:
        return "2"
    if n == 3:
        return f"3/{name[0]}"
    return f"{name[:2]}/{name[2:4]}"


def crate_index_path(name: str) -> str:
    lower = name.lower()
    return f"{crate_prefix(lower)}/{lower}"


def nuget_valid(name: str) -> bool:
    return bool(_NUGET_VALID.match(name))


def nuget_id(name: str) -> str:
    return name.lower()
