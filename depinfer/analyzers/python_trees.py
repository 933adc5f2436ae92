"""tree-sitter's Python parser and the run's memo of parsed trees.

Two readers parse a test file: the import analyzer (analyzers/python.py) and the pytest scan
(analyzers/python_pytest_uses.py). Through the per-file analysis cache the scan runs right
after the file's analysis, in the same pass and worker process; without the cache the rules
stage scans later. Either way it takes the analyzer's tree from this memo, so the file is
parsed once. Both readers import this module, and neither imports the other's users.
"""

from __future__ import annotations

import tree_sitter_python
from tree_sitter import Language, Parser, Tree

LANGUAGE = Language(tree_sitter_python.language())
_PARSER = Parser(LANGUAGE)
# Trees of this run's sources, by their bytes. Bounded by source size (a tree takes some 20
# bytes per byte of source: 2 MB of source, about 40 MB); emptied by each analysis.
_TREES: dict[bytes, Tree] = {}
_TREES_MAX_BYTES = 2 * 1024 * 1024
_trees_bytes = 0


def parse_source(src: bytes, keep: bool = True) -> Tree:
    """tree-sitter's tree of `src`, parsed once per run (`keep`: worth keeping for a later
    reader, while the memo has room)."""
    global _trees_bytes
    tree = _TREES.get(src)
    if tree is None:
        tree = _PARSER.parse(src)
        if keep and _trees_bytes + len(src) <= _TREES_MAX_BYTES:
            _TREES[src] = tree
            _trees_bytes += len(src)
    return tree


def parse_once(src: bytes) -> Tree:
    """A tree no later reader needs (never kept)."""
    return _PARSER.parse(src)


def forget_trees() -> None:
    """Empty the memo of `parse_source` (its trees are large)."""
    global _trees_bytes
    _TREES.clear()
    _trees_bytes = 0
