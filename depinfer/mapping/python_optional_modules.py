"""Repository modules that load only where an import may fail: their imports are optional.

Why: `try: from ._greenlets import GreenThreadLocal / except ImportError: ...` makes the
whole `_greenlets.py` optional — the project runs without it, so what that module imports
(`greenlet`) is an optional dependency even though the module imports it unguarded. The
same holds for an `else:` branch of such a `try` (it runs only when the guarded import
worked). A module is optional when the shipped code imports it at least once and every
such import is guarded (re-raising handlers do not count: the importer cannot run without
it); type-only imports load nothing and are ignored. A module that only optional modules
import is optional too, so optional modules spread along the chain until nothing changes.
Importing `a.b.c` unguarded also loads the packages `a` and `a.b`, so those stay required;
a package (`__init__.py`) is optional only when a guarded import names it.
"""

from __future__ import annotations

from collections import defaultdict

from depinfer.mapping.python_internal import InternalModules
from depinfer.model import FileKind, ImportRef


def mark_optional_modules(refs: list[ImportRef], internal: InternalModules) -> None:
    """Set `optional` (and extra["optional_module"]) on the refs of optional modules."""
    guarded: dict[str, list[ImportRef]] = defaultdict(list)
    unguarded: dict[str, list[ImportRef]] = defaultdict(list)
    direct: dict[str, list[ImportRef]] = defaultdict(list)  # unguarded, naming the file itself
    for ref in refs:
        if ref.kind != FileKind.SOURCE or ref.type_only or not ref.module:
            continue
        chain = _target_files(ref, internal)
        if not chain:
            continue
        target, parents = chain[-1], chain[:-1]
        if target == ref.file:
            continue
        if ref.optional and not ref.extra.get("reraised"):
            guarded[target].append(ref)
        else:
            unguarded[target].append(ref)
            direct[target].append(ref)
            for p in parents:
                if p != ref.file:
                    unguarded[p].append(ref)
    optional: dict[str, ImportRef] = {}
    changed = True
    while changed:
        changed = False
        for target in [*guarded, *direct]:
            if target in optional or any(r.file not in optional for r in unguarded[target]):
                continue
            if target.endswith("__init__.py") and not guarded.get(target):
                continue  # a package is also loaded by whoever imports its modules
            optional[target] = (guarded.get(target) or direct[target])[0]
            changed = True
    if not optional:
        return
    for ref in refs:
        if ref.file in optional and ref.kind == FileKind.SOURCE and not ref.optional:
            via = optional[ref.file]
            ref.optional = True
            ref.extra["optional_module"] = f"{via.file}:{via.line}"


def _target_files(ref: ImportRef, internal: InternalModules) -> list[str]:
    """The repository files an import loads, outermost package first (empty: not ours)."""
    parts = [p for p in ref.module.split(".") if p]
    if not parts or not all(p.isidentifier() for p in parts):
        return []
    wanted = [parts]
    if ref.names and ref.names != ("*",):
        wanted = [parts + [n] for n in ref.names if n.isidentifier()] + wanted
    bases = [*internal.roots, *internal._bases(ref.file)]
    for dotted in wanted:
        for base in bases:
            chain = _chain(base, dotted, internal)
            if chain and len(chain) == len(dotted):
                return chain
    return []


def _chain(base: str, parts: list[str], internal: InternalModules) -> list[str]:
    """Files that `import base/.../parts` executes, as far as they exist in the repository."""
    out: list[str] = []
    here = base
    for i, part in enumerate(parts):
        path = f"{here}/{part}" if here else part
        init = f"{path}/__init__.py"
        if path in internal.init_dirs and init in internal.files:
            out.append(init)
            here = path
            continue
        if path + ".py" in internal.files and i == len(parts) - 1:
            out.append(path + ".py")
            return out
        return []
    return out
