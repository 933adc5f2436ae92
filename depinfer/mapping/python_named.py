"""Distributions the repository's own documents name, for imports the index does not know.

Why: an import that neither the shipped index nor the registry's same-named project
provides (`from truth.truth import AssertThat`: the index's `truth` has no files) is
often named where people read it: a README's requirement list (`- pytruth`), an install
line, a conda environment file (`- act-atmos`). A name from those documents that holds
the module's name (`pytruth` holds `truth`) is a candidate; it is taken only when the
registry says its wheel installs the module (registries/wheel_files.py). No guessed name
is ever looked up: only words the repository wrote.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from depinfer.mapping.python_index import canonical
from depinfer.model import Ecosystem
from depinfer.patterns import lazy
from depinfer.registries.wheel_files import ships

MAX_DEPTH = 2  # folders below the root searched for documents
MAX_BYTES = 256 * 1024  # read of one document
MAX_FILES = 40
MAX_CANDIDATES = 3  # per module
MIN_MODULE = 3  # shorter module names (`io`, `db`) would match too many words
DOC_SUFFIXES = (".md", ".rst", ".txt")
SKIPPED = {"node_modules", "site-packages", "venv", "env", "build", "dist", "__pycache__"}
_WORD = lazy(r"(?<![\w./-])[A-Za-z][A-Za-z0-9]*(?:[._-][A-Za-z0-9]+)*(?![\w/])")


def _is_document(name: str, depth: int) -> bool:
    """README / INSTALL files anywhere searched; conda environment files; text documents
    in a docs folder (`depth` tells the walk is below the root)."""
    low = name.lower()
    if low.startswith(("readme", "install")):
        return True
    if low.startswith("environment") and low.endswith((".yml", ".yaml")):
        return True
    return depth > 0 and low.endswith(DOC_SUFFIXES) and not low.startswith("requirements")


def document_words(root: str) -> tuple[tuple[str, str], ...]:
    """(word, document) for the words of the repository's documents, first mention first
    (read anew on each call: at most MAX_FILES small files, only when a module is unknown)."""
    found: list[tuple[str, str]] = []
    seen: set[str] = set()
    files = 0
    for path in _documents(Path(root)):
        if files >= MAX_FILES:
            break
        files += 1
        try:
            with open(path, "rb") as fh:
                text = fh.read(MAX_BYTES).decode("utf-8", "replace")
        except OSError:
            continue
        rel = path.relative_to(root).as_posix()
        for m in _WORD.finditer(text):
            word = m.group(0)
            key = word.lower()
            if key not in seen and len(word) <= 60:
                seen.add(key)
                found.append((word, rel))
    return tuple(found)


def _documents(root: Path) -> list[Path]:
    out: list[Path] = []
    stack = [(root, 0)]
    while stack:
        folder, depth = stack.pop(0)
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError:
            continue
        for entry in entries:
            if entry.name.startswith("."):
                continue
            if entry.is_dir(follow_symlinks=False):
                if depth < MAX_DEPTH and entry.name not in SKIPPED:
                    stack.append((Path(entry.path), depth + 1))
            elif _is_document(entry.name, depth) and (depth == 0 or _docs_like(folder, root)):
                out.append(Path(entry.path))
    return out


def _docs_like(folder: Path, root: Path) -> bool:
    """Below the root only documentation, CI and binder folders hold install documents."""
    first = folder.relative_to(root).parts[0].lower()
    return first.startswith(("doc", "ci", "continuous", "binder", "conda", "env", "install"))


def _squash(name: str) -> str:
    return re.sub(r"[-_.]", "", name.lower())


def candidates(module: str, words: tuple[tuple[str, str], ...]) -> list[tuple[str, str]]:
    """The documents' words that hold the module's top-level name (and are not it): the
    closest in length first, at most MAX_CANDIDATES."""
    top = _squash(module.split(".")[0])
    if len(top) < MIN_MODULE:
        return []
    hits = [
        (w, doc)
        for w, doc in words
        if top in _squash(w)
        and _squash(w) != top
        and not w.lower().startswith(f"{top}.")  # a path in the module (`truth.truth`)
    ]
    hits.sort(key=lambda h: len(_squash(h[0])) - len(top))  # stable: first mention first
    return hits[:MAX_CANDIDATES]


def installs(registries: Any, dist: str, module: str) -> bool:
    """The newest wheel of `dist` installs `module` (False also when that is unknown)."""
    paths = registries.modules(Ecosystem.PYPI, dist)
    return paths is not None and ships(paths, module)


def named_provider(
    module: str,
    words: tuple[tuple[str, str], ...],
    registries: Any,
    skip: set[str] | frozenset[str] = frozenset(),
) -> tuple[str, str] | None:
    """(name, document) of the first candidate among the documents' `words`, not in `skip`
    (canonical names), whose newest wheel installs `module`; None when none does."""
    for word, document in candidates(module, words):
        if canonical(word) not in skip and installs(registries, word, module):
            return word, document
    return None
