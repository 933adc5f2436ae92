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
A module that defines `load_ipython_extension` and that no module imports is an IPython
extension, loaded only by `%load_ext` inside IPython (IPython's documentation, "IPython
extensions"): its own imports are optional,
but the project modules it loads are not made optional through it.
"""

from __future__ import annotations

import posixpath
import re
from collections import defaultdict

from depinfer.facts.python import import_facts, mark
from depinfer.mapping.python_hosts import Host
from depinfer.mapping.python_internal import InternalModules
from depinfer.model import Ecosystem, FileKind, ImportRef, Project
from depinfer.patterns import lazy
from depinfer.scan import source_text, walk_repository


def mark_optional_modules(
    refs: list[ImportRef], internal: InternalModules, project: Project | None = None
) -> None:
    """Set `optional` (and facts.optional_module) on the refs of optional modules."""
    guarded: dict[str, list[ImportRef]] = defaultdict(list)
    unguarded: dict[str, list[ImportRef]] = defaultdict(list)
    direct: dict[str, list[ImportRef]] = defaultdict(list)  # unguarded, naming the file itself
    for ref in refs:
        if ref.kind != FileKind.SOURCE or ref.type_only or not ref.module:
            continue
        for chain in _target_chains(ref, internal):
            target, parents = chain[-1], chain[:-1]
            if target == ref.file:
                continue
            if ref.optional and not import_facts(ref).reraised:
                guarded[target].append(ref)
            else:
                unguarded[target].append(ref)
                direct[target].append(ref)
                for p in parents:
                    if p != ref.file:
                        unguarded[p].append(ref)
    optional: dict[str, str] = {}
    changed = True
    while changed:
        changed = False
        for target in [*guarded, *direct]:
            if target in optional or any(r.file not in optional for r in unguarded[target]):
                continue
            if target.endswith("__init__.py") and not guarded.get(target):
                continue  # a package is also loaded by whoever imports its modules
            via = (guarded.get(target) or direct[target])[0]
            optional[target] = f"{via.file}:{via.line}"
            changed = True
    # an extension wraps the project's own modules: what it imports stays as it was
    for rel in _ipython_extensions(project, refs):
        if not (guarded.get(rel) or unguarded.get(rel)):
            optional.setdefault(rel, "an IPython extension (%load_ext) no module imports")
    if not optional:
        return
    for ref in refs:
        if ref.file in optional and ref.kind == FileKind.SOURCE and not ref.optional:
            ref.optional = True
            mark(ref, optional_module=optional[ref.file])


def mark_type_only_modules(
    refs: list[ImportRef], internal: InternalModules, project: Project | None = None
) -> None:
    """A repository module that shipped code imports only under `if TYPE_CHECKING:` is a
    typing helper (plotnine's `typing.py`: aliases built from typing_extensions, numpy's
    and pandas' types): the package never loads it at run time, so its own imports are
    type-only too, as a `.pyi` stub's are. A module that tests or examples import at run
    time is public API (qrcode's `image/styledpil.py`), and packages (`__init__.py`),
    console-script modules and modules nothing imports are left alone."""
    typed: set[str] = set()
    loaded: set[str] = set()  # run-time imports: shipped code's, tests' and examples' alike
    for ref in refs:
        if not ref.module or (ref.type_only and ref.kind != FileKind.SOURCE):
            continue
        for chain in _target_chains(ref, internal):
            for target in chain:
                if target != ref.file:
                    (typed if ref.type_only else loaded).add(target)
    helpers = {t for t in typed - loaded if not t.endswith("__init__.py")}
    helpers -= set(_entry_point_files(project, internal))
    for ref in refs:
        if ref.file in helpers and ref.kind == FileKind.SOURCE:
            ref.type_only = True


def mark_lazy_modules(
    refs: list[ImportRef], internal: InternalModules, project: Project | None = None
) -> None:
    """A repository module that shipped code imports only inside functions loads only when
    such a function runs (altair's `load_ipython_extension` imports `_magics`, which imports
    IPython at its top): its own module-level imports are lazy too (facts.lazy_module).
    Spreads along chains of such modules; packages (`__init__.py`) are left alone, since
    importing any of their modules loads them."""
    importers: dict[str, list[ImportRef]] = defaultdict(list)
    for ref in refs:
        if ref.kind != FileKind.SOURCE or ref.type_only or not ref.module:
            continue
        for chain in _target_chains(ref, internal):
            for target in chain:
                if target != ref.file:
                    importers[target].append(ref)
    # a console script's module is loaded by its launcher, whoever else imports it lazily
    for rel in _entry_point_files(project, internal):
        importers.pop(rel, None)
    lazy: set[str] = set()
    changed = True
    while changed:
        changed = False
        for target, by in importers.items():
            if target in lazy or target.endswith("__init__.py"):
                continue
            if all(import_facts(r).lazy or r.file in lazy for r in by):
                lazy.add(target)
                changed = True
    for ref in refs:
        if (
            ref.file in lazy
            and ref.kind == FileKind.SOURCE
            and not ref.optional
            and not ref.type_only
            and not ref.marker
            and not import_facts(ref).fallback_for
            and not import_facts(ref).lazy
        ):
            mark(ref, lazy_module=True)


def _entry_point_files(
    project: Project | None, internal: InternalModules, groups: frozenset[str] | None = None
) -> set[str]:
    """Files of the modules pyproject.toml's scripts name (`[project.scripts]`,
    `[project.gui-scripts]`, `[project.entry-points.*]`, `[tool.poetry.scripts]`); with
    `groups`, only those of these entry-point groups (`[project.entry-points.<group>]`,
    `[tool.poetry.plugins.<group>]`)."""
    if project is None:
        return set()
    out: set[str] = set()
    for m in project.manifests_of(Ecosystem.PYPI):
        tables = m.data.get("entry_points") or {}
        if groups is None:
            keys = [k for k in tables if not k.startswith("poetry.plugins.")]
        else:
            keys = [f"{t}.{g}" for t in ("entry-points", "poetry.plugins") for g in groups]
        for key in keys:
            for target in tables.get(key, []):
                module = target.split(":", 1)[0].strip()
                parts = [p for p in module.split(".") if p]
                if not parts or not all(p.isidentifier() for p in parts):
                    continue
                for base in internal.roots_for(m.path):
                    chain = _chain(base, parts, internal)
                    if len(chain) == len(parts):
                        out.update(chain)
                        break
    return out


def hosted_files(project: Project | None, internal: InternalModules, host: Host) -> set[str]:
    """Files of the repository's modules that `host` loads itself (data/python/hosts.toml):
    the modules its entry-point groups name (`pytest11`: pytest's documentation, "Writing
    plugins"), and the class paths the README or docs run it with (`gunicorn app:app -k
    pkg.workers.Worker`). The host they import is what runs them, not a runtime need of
    the package."""
    out: set[str] = set()
    if host.entry_point_groups:
        out |= _entry_point_files(project, internal, host.entry_point_groups)
    if host.docs_pattern is not None:
        out |= _files_named_in_docs(project, internal, host.docs_pattern)
    return out


_DOC_SUFFIXES = (".md", ".rst", ".txt")


def _files_named_in_docs(
    project: Project | None, internal: InternalModules, pattern: re.Pattern[str]
) -> set[str]:
    """Files of the repository's modules whose dotted path (group 1 of `pattern`) the
    README or the docs folder names."""
    if project is None:
        return set()
    out: set[str] = set()
    docs = [
        f"{folder}/{n}".lstrip("/")
        for folder, _, names in walk_repository(project.root)
        if folder in ("", ".") or folder.split("/", 1)[0].lower() in ("docs", "doc")
        for n in names
        if n.lower().endswith(_DOC_SUFFIXES)
        and (folder not in ("", ".") or n.lower().startswith("readme"))
    ]
    for rel in docs[:500]:
        try:
            path = project.abspath(rel)
            if path.stat().st_size > 500_000:
                continue
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        for m in pattern.finditer(text):
            parts = m.group(1).split(".")
            for base in internal.roots:
                chain = _chain(base, parts, internal)
                if len(chain) == len(parts):
                    out.add(chain[-1])
                    break
    return out


def mark_core_modules(refs: list[ImportRef], internal: InternalModules) -> None:
    """The modules `import pkg` runs: a top-level package's `__init__.py` and what it and
    they import at module level, unguarded, transitively. What those modules import there
    (facts.core) is needed to import the package at all, whatever extras list it
    (ydata-profiling's `spark` extra repeats pandas, which the core imports everywhere).
    Likewise the modules the test modules load (facts.tested): what they import at module
    level, unguarded, the tests cannot even be collected without."""
    eager: dict[str, list[ImportRef]] = defaultdict(list)
    loaded: dict[str, list[ImportRef]] = defaultdict(list)  # by a test, whatever `lazy_module`
    seeds: list[ImportRef] = []
    for ref in refs:
        if ref.type_only or ref.optional or ref.marker or not ref.module:
            continue
        facts = import_facts(ref)
        if ref.kind == FileKind.TEST and not ref.relative:
            seeds.append(ref)  # a test function's own imports run with the test too
        if ref.kind != FileKind.SOURCE or facts.lazy:
            continue
        loaded[ref.file].append(ref)
        if not facts.lazy_module:
            eager[ref.file].append(ref)
    core = {
        f"{root}/{name}/__init__.py".lstrip("/")
        for root in internal.roots
        if root not in internal.init_dirs
        for d in internal.init_dirs
        if (name := _child_of(root, d))
    }
    for f in _closure(core, eager, internal):
        for ref in eager.get(f, ()):
            mark(ref, core=True)
    started = {
        target for ref in seeds for chain in _target_chains(ref, internal) for target in chain
    }
    for f in _closure(started, loaded, internal):
        for ref in loaded.get(f, ()):
            mark(ref, tested=True)


def _closure(
    start: set[str], imports: dict[str, list[ImportRef]], internal: InternalModules
) -> set[str]:
    """`start` and the repository files their `imports` load, transitively."""
    seen = set(start)
    todo = [f for f in seen if f in imports]
    while todo:
        for ref in imports.get(todo.pop(), ()):
            for chain in _target_chains(ref, internal):
                for target in chain:
                    if target not in seen:
                        seen.add(target)
                        todo.append(target)
    return seen


def _child_of(root: str, d: str) -> str | None:
    """`d`'s name when it is a folder directly inside `root` ("" is the repository root)."""
    if root:
        if not d.startswith(root + "/"):
            return None
        d = d[len(root) + 1 :]
    return d if d and "/" not in d else None


def _target_chains(ref: ImportRef, internal: InternalModules) -> list[list[str]]:
    """For each module an import loads, the repository files it executes, outermost package
    first (`from . import a, b` loads a and b; empty: nothing of ours). Asked several times
    per import: answered once per (module, folder, names) — the file counts only through
    its folder, whose import roots and bases it sees."""
    key = ("target-chains", ref.module, posixpath.dirname(ref.file), ref.names)
    found = internal.memo.get(key)
    if found is None:
        found = internal.memo[key] = _target_chains_uncached(ref, internal)
    return found  # type: ignore[return-value]


def _target_chains_uncached(ref: ImportRef, internal: InternalModules) -> list[list[str]]:
    parts = [p for p in ref.module.split(".") if p]
    if not parts or not all(p.isidentifier() for p in parts):
        return []
    bases = [*internal.roots_for(ref.file), *internal.folder_bases(ref.file)]

    def resolve(dotted: list[str]) -> list[str]:
        for base in bases:
            chain = _chain(base, dotted, internal)
            if chain and len(chain) == len(dotted):
                return chain
        return []

    chains = []
    if ref.names and ref.names != ("*",):
        chains = [c for n in ref.names if n.isidentifier() and (c := resolve([*parts, n]))]
    if not chains:
        own = resolve(parts)
        chains = [own] if own else []
    return chains


def _chain(base: str, parts: list[str], internal: InternalModules) -> list[str]:
    """Files that `import base/.../parts` executes, as far as they exist in the repository."""
    key = ("chain", base, *parts)
    found = internal.memo.get(key)
    if found is None:
        found = internal.memo[key] = _chain_uncached(base, parts, internal)
    return list(found)  # type: ignore[call-overload]


def _chain_uncached(base: str, parts: list[str], internal: InternalModules) -> list[str]:
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


_IPYTHON_EXTENSION = lazy(r"^def load_ipython_extension\(", re.M)


def _ipython_extensions(project: Project | None, refs: list[ImportRef]) -> list[str]:
    if project is None:
        return []
    files = sorted({r.file for r in refs if r.kind == FileKind.SOURCE})
    out = []
    for rel in files:
        if not rel.endswith(".py") or rel.endswith("__init__.py"):
            continue
        if _IPYTHON_EXTENSION.search(source_text(project, rel)):
            out.append(rel)
    return out
