"""PEP 508 / PEP 503 helpers shared by the Python manifest readers and writers.

Every Python format stores requirements as PEP 508 strings (or, for Poetry, as names with
a constraint), so naming, formatting and "where does a new line go" live here once.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

from depinfer.manifests import ManifestError
from depinfer.model import Requirement, Section
from depinfer.patterns import lazy

T = TypeVar("T")

# The leading project name of a PEP 508 string, for strings `packaging` refuses
# (legacy specifiers, odd spacing); PEP 508's own name grammar.
_NAME = lazy(r"^\s*([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)")
_EGG = lazy(r"[#&]egg=([A-Za-z0-9][A-Za-z0-9._-]*)")
_CLASSIFIER_PY = lazy(r"^Programming Language :: Python :: (\d+\.\d+)\s*$")
# A leading run of name characters; when it ends in a letter or digit and is not followed
# by another word character, it is the name whether or not `packaging` accepts the rest
# (its IDENTIFIER token and _NAME both take exactly this run), so no parse is needed.
_NAME_RUN = lazy(r"[A-Za-z0-9][A-Za-z0-9._-]*")
_SEPARATORS = lazy(r"[-_.]+")


def canonical(name: str) -> str:
    """PEP 503 normalised name: the identity used to avoid writing a name twice (as
    `packaging.utils.canonicalize_name`, whose import loads packaging.tags)."""
    return _SEPARATORS.sub("-", name).lower()


def requirement_name(text: str) -> str | None:
    """The distribution name a PEP 508 requirement string declares, as written."""
    text = text.strip()
    if not text or text.startswith(("#", "-")):
        return None
    egg = _EGG.search(text)
    if "://" in text.split("@", 1)[0] or text.startswith(("git+", "hg+", "svn+", "bzr+")):
        return egg.group(1) if egg else None
    run = _NAME_RUN.match(text)
    if run and run.group()[-1].isalnum():
        after = text[run.end() : run.end() + 1]
        if not after or not (after.isalnum() or after == "_"):
            return run.group()
    # lazy: packaging.requirements costs more to load than most runs spend here
    from packaging.requirements import InvalidRequirement
    from packaging.requirements import Requirement as Pep508

    try:
        return Pep508(text).name
    except InvalidRequirement:
        match = _NAME.match(text)
        return match.group(1) if match else None


def names_of(items: Iterable[object]) -> list[str]:
    """Declared names from a list of PEP 508 strings (non-strings, e.g. includes, skipped)."""
    out: list[str] = []
    for item in items:
        if isinstance(item, str):
            name = requirement_name(item)
            if name:
                out.append(name)
    return out


def format_requirement(req: Requirement, single_quote_markers: bool = False) -> str:
    """`name[extra1,extra2]spec; marker` in PEP 508 form.

    `single_quote_markers` swaps the marker's double quotes for single ones, the usual
    idiom inside TOML double-quoted strings (PEP 508 accepts either quote).
    """
    text = req.name
    if req.features:
        text += "[" + ",".join(req.features) + "]"
    spec = (req.spec or "").strip()
    if spec:
        if spec[0].isalnum():  # a bare version: PEP 440 needs an operator
            spec = "==" + spec
        text += spec
    if req.markers:
        marker = req.markers.strip()
        if single_quote_markers and '"' in marker and "'" not in marker:
            marker = marker.replace('"', "'")
        text += "; " + marker
    return text


def python_versions_from_classifiers(classifiers: Iterable[object]) -> list[str]:
    """Python versions named by trove classifiers ("Programming Language :: Python :: 3.11")."""
    out: list[str] = []
    for c in classifiers:
        if isinstance(c, str):
            m = _CLASSIFIER_PY.match(c.strip())
            if m and m.group(1) not in out:
                out.append(m.group(1))
    return out


def is_sorted(names: Sequence[str]) -> bool:
    """True when at least two names are already in alphabetical (normalised) order."""
    keys = [canonical(n) for n in names]
    return len(keys) >= 2 and keys == sorted(keys)


def insert_index(names: Sequence[str], new: str) -> int:
    """Where `new` goes: its alphabetical place when the list is sorted, else the end."""
    if not is_sorted(names):
        return len(names)
    key = canonical(new)
    for i, name in enumerate(names):
        if canonical(name) > key:
            return i
    return len(names)


def newline_of(text: str) -> str:
    """The file's line ending: CRLF when its first line ends so, else LF."""
    first = text.find("\n")
    return "\r\n" if first > 0 and text[first - 1] == "\r" else "\n"


def match_line_endings(new: str, original: str) -> str:
    """Give lines a writer added the original file's CRLF endings (only for all-CRLF files)."""
    if newline_of(original) != "\r\n" or original.count("\n") != original.count("\r\n"):
        return new
    return re.sub(r"(?<!\r)\n", "\r\n", new)


def target_key(req: Requirement, style: str) -> str:
    """The declared-section key (the shared vocabulary) a requirement goes into."""
    if req.group:
        group = req.group
        if style == "poetry" and group.startswith("optional-dependencies."):
            return "extras." + group.split(".", 1)[1]
        if style != "poetry" and group.startswith("extras."):
            return "optional-dependencies." + group.split(".", 1)[1]
        return group
    if req.section == Section.BUILD:
        return "build-system.requires"
    if req.section == Section.DEV:
        return "group.dev" if style == "poetry" else "dependency-groups.dev"
    return "dependencies"


def new_requirements(reqs: Iterable[Requirement], declared: Iterable[str]) -> list[Requirement]:
    """Requirements whose name is not declared yet (nor earlier in `reqs`)."""
    seen = {canonical(n) for n in declared}
    out = []
    for req in reqs:
        key = canonical(req.name)
        if key in seen:
            continue
        seen.add(key)
        out.append(req)
    return out


MAX_MANIFEST_CHARS = 5_000_000  # far above any real manifest; parsing more would stall a run


def guarded(function: Callable[..., T]) -> Callable[..., T]:
    """Turn a reader's or writer's unexpected exception into a ManifestError; refuse
    texts over the size limit.

    Manifests come in shapes no test foresaw; a bug met on one must become a message
    naming the file (and the file left untouched), never a traceback.
    """

    @functools.wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> T:
        text = args[0] if args else kwargs.get("text", "")
        if isinstance(text, str) and len(text) > MAX_MANIFEST_CHARS:
            raise ManifestError(
                f"{len(text) // 1_000_000} MB is over the {MAX_MANIFEST_CHARS // 1_000_000} MB "
                "limit for manifests"
            )
        try:
            return function(*args, **kwargs)
        except ManifestError:
            raise
        except Exception as exc:  # noqa: BLE001 - the point is to catch what was not foreseen
            raise ManifestError(
                f"cannot handle this file safely ({type(exc).__name__}: {exc})"
            ) from exc

    return wrapper
