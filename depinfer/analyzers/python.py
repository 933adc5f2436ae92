"""Python analyzer: `.py`/`.pyi` files, Cython sources and Jupyter notebooks → `ImportRef`s.

Reads each file with tree-sitter-python, which is error tolerant: a file with syntax errors
or Python 2 code still yields the imports in the parts that parse (with an info diagnostic
naming the file). To stay fast — the target is well under a second of CPU for a
200-file repository — the tree is never walked in Python: a byte regex finds the few places
that matter (`import` keywords, `import_module(`/`__import__(`/`find_spec(`/`importorskip(`
calls, uses of imported names), tree-sitter's C side finds the node at each place, and only
that node's ancestors are inspected to learn its guards.

What each `ImportRef` means (the mapping stage relies on these conventions):
- `import a.b.c` → module "a.b.c"; `import a.b as x` → "a.b";
  `from a.b import c, d` → module "a.b", names ("c", "d"); `from a import *` → names ("*",).
- Relative imports: relative=True, module resolved to the absolute dotted name through the
  chain of `__init__.py` directories above the file; when that chain is too short (namespace
  packages, scripts) module keeps the relative text ("..pkg").
- Literal `importlib.import_module("x")`, `__import__("x")`, `runpy.run_module("x")`,
  `importlib.util.find_spec("x")`
  → dynamic=True; `pytest.importorskip("x")` → dynamic and optional (so is `find_spec`,
  which only asks whether the module is there).
- Names built from the file's constants fold (python_constants): `for n in PLUGINS:
  import_module(f"pkg.{n}")` → one dynamic ref per name; `__import__("pkg", fromlist=NAMES)`
  → "pkg" and "pkg.<each name>"; `import_module(DRIVERS[kind])` → each value, optional
  (one is chosen at run time).
- optional: inside the body (or `else`) of a `try` whose handlers catch ImportError,
  ModuleNotFoundError, Exception, BaseException or everything; or in a
  `with contextlib.suppress(ImportError)` block; or under an `if` that asks `find_spec`.
  An import in such a `try`'s `except` handler is the fallback: not optional, and
  facts.fallback_for lists the modules the `try` body imported (`tomllib` → `tomli`),
  facts.fallback_names the `module.name`s its from-imports took (`typing.Self`).
  When every such handler ends in `raise` ("please install x"), the ref stays optional but
  facts.reraised is True: the module cannot work without it.
- type_only: under `if TYPE_CHECKING:` (any `*.TYPE_CHECKING`, `MYPY`, `if False:`) and
  everything in `.pyi` stubs; `else` branches are not type-only.
- marker: PEP 508 text from the enclosing `if` guards (see python_guards), joined by `and`.
- facts.attrs: dotted attribute chains used on an imported name, written from the module
  (`import numpy as np` … `np.float` → "numpy.float"), deduplicated, at most 200 per ref;
  resolvers use them for API-based version bounds. facts.cell: the notebook cell.
- Notebook `!pip install x` / `%pip install x` → module "x", facts pip_install=True,
  requirement="x>=1".
(The facts are depinfer.facts.python.ImportFacts.)
- `from __future__ import …` is not recorded.
- Django settings modules: the import paths INSTALLED_APPS, MIDDLEWARE, TEMPLATES, CACHES …
  name in strings → dynamic refs of those dotted paths, facts.django_setting
  (python_django).
- Extension modules that library calls name by import path (Jinja's `Environment(
  extensions=[...])`, Python-Markdown's `markdown(extensions=[...])`) → dynamic refs
  (python_strings).
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass, field, replace
from typing import Any

from tree_sitter import Node, Tree

from depinfer.analyzers import python_cython, python_django, python_pytest_uses, python_strings
from depinfer.analyzers.python_constants import FileConstants, chooses, literal_text
from depinfer.analyzers.python_guards import (
    Expr,
    Guard,
    conjoin,
    evaluate,
    module_flags,
    render,
)
from depinfer.analyzers.python_trees import forget_trees, parse_once, parse_source
from depinfer.context import Context
from depinfer.facts.python import NO_IMPORT_FACTS, ImportFacts, import_facts, mark
from depinfer.filecache import content_key
from depinfer.model import Diagnostic, FileKind, ImportRef, Project, SourceFile
from depinfer.patterns import lazy
from depinfer.scan import read_source

ANALYZER = "python-imports"  # its entries' name in the per-file analysis cache


def _read_again(source: SourceFile, src: bytes) -> bool:
    """The pytest scan will parse this file too (its own test): its tree is kept
    (python_trees)."""
    wanted = python_pytest_uses.is_test_file(source.path, source.kind)
    return python_pytest_uses.worth_reading(src, wanted)


MAX_ATTRS = 200  # per ImportRef: enough for API bounds, small enough for the JSON record

_DYNAMIC_CALL = lazy(rb"\b(import_module|__import__|find_spec|importorskip|run_module)\s*\(")
_DYNAMIC_WORDS = (b"import_module", b"__import__", b"find_spec", b"importorskip", b"run_module")
_CHAIN = lazy(rb"(?:\.[A-Za-z_]\w*)+")
_NAME_BYTES = frozenset(
    bytes([c]) for c in b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_."
)
_DOTTED = lazy(r"^\.*[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*$|^\.+$")

# Handler names that make a `try` body's imports optional.
_IMPORT_ERRORS = {"ImportError", "ModuleNotFoundError", "Exception", "BaseException"}
_SPECIFIC_IMPORT_ERRORS = {"ImportError", "ModuleNotFoundError"}
# statements a `try` may hold besides imports and still be an import guard
_GUARD_STATEMENTS = {
    "import_statement",
    "import_from_statement",
    "future_import_statement",
    "expression_statement",
    "pass_statement",
    "comment",
    "if_statement",
}


def _guards_imports(try_node: Node) -> bool:
    """A `try` caught broadly (`except Exception`, bare) guards its imports only when it
    is about them: its body imports and at most binds or checks names (isinstance/hasattr
    checks are not work, and one other call is allowed). A body that does the
    real work (`from dateutil.parser import parse` followed by the parsing itself) catches
    that work's errors; its imports are required."""
    body = next((c for c in try_node.children if c.type == "block"), None)
    if body is None:
        return False
    statements = [c for c in body.named_children if c.type != "comment"]
    if not any(c.type in ("import_statement", "import_from_statement") for c in statements):
        return False
    work = [c for c in statements if c.type not in _GUARD_STATEMENTS]
    calls = sum(
        1
        for c in statements
        if c.type == "expression_statement"
        and any(name not in _CHECK_CALLS for name in _CALLED.findall(c.text or b""))
    )
    return not work and calls <= 1


# Calls that only check what an import gave (`isinstance(stream, ipykernel.iostream.
# OutStream)`): a body made of them still only probes the imports.
_CHECK_CALLS = {b"isinstance", b"issubclass", b"hasattr", b"getattr", b"callable", b"type"}
_CALLED = lazy(rb"([A-Za-z_][\w.]*)\s*\(")


_SUPPRESS = lazy(rb"\bsuppress\s*\(([^)]*)\)")
# Dynamic-import functions → the qualifiers they are accepted with ("" = called bare).
_DYNAMIC_QUALIFIERS = {
    "import_module": {"", "importlib"},
    "__import__": {"", "builtins", "importlib"},
    "find_spec": {"", "importlib.util", "util"},
    "importorskip": {"", "pytest"},  # package literal: the call's own qualified name
    # runpy.run_module("pip", run_name="__main__") runs an installed module as `python -m`
    "run_module": {"", "runpy"},
}


@dataclass
class _Where:
    """What the ancestors of a node say about it."""

    optional: bool = False
    type_only: bool = False
    marker: str | None = None
    try_bodies: tuple[int, ...] = ()  # import-catching `try`s whose body holds the node
    fallback_of: int | None = None  # import-catching `try` whose handler holds the node
    reraised: bool = False  # an enclosing handler turns the ImportError into another error


@dataclass
class _File:
    """Everything learnt about one file while its units (file or notebook cells) are read."""

    source: SourceFile
    package: list[str]
    refs: list[ImportRef] = field(default_factory=list)
    bindings: dict[str, list[tuple[str, int]]] = field(default_factory=dict)
    # (cell, byte offset of an import-catching `try`) → modules its body imports;
    # (cell, offset, "names") → the `module.name`s its from-imports take
    body_modules: dict[tuple, list[str]] = field(default_factory=dict)
    fallbacks: list[tuple[int, tuple[int, int]]] = field(default_factory=list)  # (ref, try)
    units: list[tuple[Tree, bytes, int | None]] = field(default_factory=list)
    catches: dict[int, tuple[bool, bool]] = field(default_factory=dict)
    # ref index → name of the function whose body imports it (unguarded lazy imports)
    lazy_in: dict[int, str] = field(default_factory=dict)
    syntax_error: bool = False
    python2: bool = False

    def bind(self, name: str, path: str, index: int) -> None:
        self.bindings.setdefault(name, []).append((path, index))


def analyze(project: Project, ctx: Context) -> list[ImportRef]:
    """Import references of every Python source and notebook of the project."""
    init_dirs = {
        posixpath.dirname(f.path)
        for f in project.files_of("python")
        if posixpath.basename(f.path) in ("__init__.py", "__init__.pyi")
    }
    refs: list[ImportRef] = []
    sources = project.files_of("python", "notebook")
    forget_trees()
    if ctx.files.enabled:
        return _analyze_batch(project, sources, init_dirs, ctx)
    for source in sources:
        try:
            refs.extend(_analyze_file(project, source, init_dirs, ctx.diagnostics))
        except Exception as exc:  # noqa: BLE001 - one bad file must not stop the run
            _not_analysed(ctx, source, exc)
    return refs


def _not_analysed(ctx: Context, source: SourceFile, exc: Exception) -> None:
    ctx.warn(
        f"could not analyse (internal error {type(exc).__name__}: {exc}); skipped",
        source.path,
    )


def analyze_text(
    text: str, path: str = "module.py", package: list[str] | None = None
) -> list[ImportRef]:
    """Import references of one piece of Python source (tests, tools, the hybrid arbiter)."""
    state = _File(SourceFile(path, "python", FileKind.SOURCE), package or [])
    _read_unit(state, text, None)
    _finish(state)
    return sorted(state.refs, key=_position)


def _position(ref: ImportRef) -> tuple[int, int]:
    return import_facts(ref).cell or 0, ref.line


def package_of(path: str, init_dirs: set[str]) -> list[str]:
    """Dotted package of a file, following `__init__.py` directories upwards.

    Folders without `__init__.py` below a regular package still count (Python imports them
    as namespace portions, e.g. `flask/sansio/`); above the topmost `__init__.py` the chain
    ends. With no `__init__.py` above the file at all, the package is unknown: [].
    """
    directories: list[str] = []
    directory = posixpath.dirname(path)
    while directory:
        directories.append(directory)
        directory = posixpath.dirname(directory)
    inside = [d in init_dirs for d in directories]  # innermost directory first
    if True not in inside:
        return []
    top = inside.index(True)  # the innermost regular package, then up while packages go on
    while top + 1 < len(inside) and inside[top + 1]:
        top += 1
    return [posixpath.basename(d) for d in reversed(directories[: top + 1])]


def _analyze_batch(
    project: Project, sources: list[SourceFile], init_dirs: set[str], ctx: Context
) -> list[ImportRef]:
    """`analyze` through the per-file analysis cache: each file's answer is read from it
    when its content is known, else computed (in several processes for many files); the
    diagnostics come out in file order, as the plain loop gives them."""
    read: list[tuple[SourceFile, list[Diagnostic], bool]] = []
    jobs: list[tuple[str, tuple]] = []
    for source in sources:
        notes: list[Diagnostic] = []
        text = read_source(project, source.path, notes)
        read.append((source, notes, text is not None))
        if text is not None:
            package = package_of(source.path, init_dirs)
            where = (source.path, source.language, source.kind.value, package)
            jobs.append((content_key(ANALYZER, text, *where), (source, text, package)))
    answers = iter(ctx.files.answers(ANALYZER, jobs, _analysis, companions=True))
    refs: list[ImportRef] = []
    for source, notes, readable in read:
        ctx.diagnostics.extend(notes)
        if not readable:
            continue
        ok, answer = next(answers)
        if not ok:
            _not_analysed(ctx, source, answer)
            continue
        found, diagnostics = answer
        ctx.diagnostics.extend(diagnostics)
        refs.extend(found)
    return refs


def _analysis(source: SourceFile, text: str, package: list[str]) -> tuple[tuple, list]:
    """One file's references and diagnostics (what the cache keeps), and, for a Python file
    the pytest scan reads, that scan's answer (kept beside it under PYTEST_SCAN) from the
    tree just parsed: the file is not parsed again by the rules stage."""
    notes: list[Diagnostic] = []
    answer = (_analyze_text(source, text, package, notes), notes)
    if source.language != "python":
        return answer, []
    uses = python_pytest_uses
    wanted = uses.is_test_file(source.path, source.kind)
    if not uses.worth_reading(text, wanted):
        return answer, []
    try:
        part = uses.scan_one(source.path, text, wanted)
    except Exception:  # noqa: BLE001 - not kept: the rules stage scans it and says why
        return answer, []
    finally:
        forget_trees()  # the scan was the tree's last reader
    return answer, [(uses.PYTEST_SCAN, uses.scan_key(source.path, text, wanted), part)]


def _analyze_file(
    project: Project, source: SourceFile, init_dirs: set[str], diagnostics: list[Diagnostic]
) -> list[ImportRef]:
    text = read_source(project, source.path, diagnostics)
    if text is None:
        return []
    return _analyze_text(source, text, package_of(source.path, init_dirs), diagnostics)


def _analyze_text(
    source: SourceFile, text: str, package: list[str], diagnostics: list[Diagnostic]
) -> list[ImportRef]:
    """Import references of one file's text (`package`: its dotted package)."""
    state = _File(source, package)
    cython = python_cython.is_cython(source.path)
    if source.language == "notebook":
        # lazy: most trees hold no notebook (the module and its records cost a short run)
        from depinfer.analyzers.python_notebook import NotebookError, read_notebook

        try:
            notebook = read_notebook(text)
        except NotebookError as exc:
            diagnostics.append(Diagnostic(str(exc), source.path, "warning"))
            return []
        for cell in notebook.cells:
            _read_unit(state, cell.source, cell.index)
        for pip in notebook.pip_installs:
            state.refs.append(
                ImportRef(
                    pip.name,
                    source.path,
                    pip.line,
                    "python",
                    source.kind,
                    facts=ImportFacts(cell=pip.cell, pip_install=True, requirement=pip.requirement),
                )
            )
    elif cython:
        text = python_cython.import_view(text)
        _read_unit(state, text, None)
    else:
        _read_unit(state, text, None)
    _finish(state)
    if cython:
        own = python_cython.provided()
        state.refs = [r for r in state.refs if r.module.split(".")[0] not in own]
    if source.language != "notebook":
        state.refs.extend(python_django.refs(source.path, text, source.kind))
        state.refs.extend(python_strings.refs(source.path, text, source.kind))
    state.refs.sort(key=_position)
    if state.syntax_error:
        diagnostics.append(
            Diagnostic(
                "syntax errors (invalid or Python 2 code); imports read from the parts that parse",
                source.path,
                "info",
            )
        )
    elif state.python2:
        diagnostics.append(
            Diagnostic("Python 2 code (print/exec statements); imports read", source.path, "info")
        )
    return state.refs


def _read_unit(state: _File, text: str, cell: int | None) -> None:
    src = text.encode("utf-8", "replace")
    again = cell is None and _read_again(state.source, src)  # notebooks: not scanned again
    tree = parse_source(src, keep=again)
    root = tree.root_node
    state.units.append((tree, src, cell))
    state.catches.clear()  # keyed by byte offset, which restarts in each notebook cell
    if root.has_error:
        state.syntax_error = True
    elif not state.python2:
        state.python2 = _has_python2_statement(root, src)
    flags = module_flags(root)
    for start in _word_positions(src, b"import"):
        keyword = root.descendant_for_byte_range(start, start + 6)
        if keyword is None or keyword.parent is None:
            continue
        statement = keyword.parent
        if keyword.type == "import" and statement.type == "import_statement":
            _plain_import(state, statement, flags, cell, statement)
        elif keyword.type == "import" and statement.type == "import_from_statement":
            _from_import(state, statement, flags, cell, statement)
        elif statement.type == "ERROR" or keyword.type == "ERROR":
            _import_in_error(state, src, start, statement, flags, cell)
    if b"get_ipython()" in src:
        from depinfer.analyzers import python_notebook as nb  # lazy (see _analyze_text)

        for line, command in nb.exported_shell_commands(text):
            for token in nb.pip_requirements(command):
                _add(
                    state,
                    root,
                    nb.requirement_name(token),
                    flags,
                    cell,
                    line,
                    facts=ImportFacts(pip_install=True, requirement=token),
                )
    if any(word in src for word in _DYNAMIC_WORDS):
        consts = FileConstants(root, src)
        for match in _DYNAMIC_CALL.finditer(src):
            _dynamic_import(state, root, match, flags, cell, consts)
    _guarded_by_callers(state, root, src, flags)
    state.lazy_in.clear()  # byte offsets and names are per unit


def _enclosing_function(node: Node) -> str | None:
    parent = node.parent
    while parent is not None:
        if parent.type == "function_definition":
            name = parent.child_by_field_name("name")
            return _text(name) or None
        parent = parent.parent
    return None


def _word_before(src: bytes, pos: int) -> bool:
    """A word character (`\\w` of a bytes pattern) just before `pos`: a name that only
    ends in the one looked for. (Tested after the match: a pattern that starts with a
    look-behind makes the regular-expression engine try every offset.)"""
    return pos > 0 and (src[pos - 1 : pos].isalnum() or src[pos - 1] == 0x5F)


_SPACE = frozenset(b" \t\n\r\f\v")  # `\\s` of a bytes pattern


def _call_starts(name: bytes, src: bytes) -> list[int]:
    """Where `name` followed by optional white space and `(` starts, as
    `re.finditer(re.escape(name) + rb"\\s*\\(", src)` finds them (no pattern to compile per
    name)."""
    out: list[int] = []
    start, size = 0, len(src)
    while (i := src.find(name, start)) >= 0:
        j = i + len(name)
        while j < size and src[j] in _SPACE:
            j += 1
        if j < size and src[j] == 0x28:  # `(`
            out.append(i)
            start = j + 1
        else:
            start = i + 1
    return out


def _guarded_by_callers(state: _File, root: Node, src: bytes, flags: dict[str, Guard]) -> None:
    """A function whose body imports a module, called only inside `try: … except
    ImportError` in this file, makes that import optional: seaborn's
    `_calculate_linkage_fastcluster()` imports fastcluster and its one caller falls back to
    scipy when the import fails."""
    by_function: dict[str, list[int]] = {}
    for index, function in state.lazy_in.items():
        by_function.setdefault(function, []).append(index)
    for function, indexes in by_function.items():
        if function in state.bindings:
            # an import binds the same name (`from rich.traceback import install` in the
            # guarded `try`): those calls are the import's, not this function's
            continue
        calls = [
            pos
            for pos in _call_starts(function.encode(), src)
            if not _word_before(src, pos)
            and not re.search(rb"\bdef\s+$", src[max(0, pos - 8) : pos])
        ]
        if not calls:
            continue
        guarded = True
        for pos in calls:
            node = root.descendant_for_byte_range(pos, pos)
            if node is None or not _where(state, node, flags).optional:
                guarded = False
                break
        if guarded:
            for index in indexes:
                state.refs[index].optional = True
                mark(state.refs[index], guarded_by_caller=function)


def _word_positions(src: bytes, word: bytes) -> list[int]:
    """Offsets of `word` standing alone (bytes.find: much faster than a `\\b` regex)."""
    found = []
    position = src.find(word)
    while position >= 0:
        end = position + len(word)
        if (not position or src[position - 1 : position] not in _NAME_BYTES) and src[
            end : end + 1
        ] not in _NAME_BYTES:
            found.append(position)
        position = src.find(word, end)
    return found


def _has_python2_statement(root: Node, src: bytes) -> bool:
    """A `print x` / `exec code` statement: Python 2 code that still parses."""
    for word in (b"print", b"exec"):
        for start in _word_positions(src, word):
            line_start = src.rfind(b"\n", 0, start) + 1
            if src[line_start:start].strip(b" \t") or src[
                start + len(word) : start + len(word) + 1
            ] not in (b" ", b"\t"):
                continue
            node = root.descendant_for_byte_range(start, start + len(word))
            if node is not None and node.parent is not None:
                if node.parent.type in ("print_statement", "exec_statement"):
                    return True
    return False


_IMPORT_LINE = lazy(rb"[ \t]*(?:import[ \t]|from[ \t]+[\w.]+[ \t]+import[ \t(])")


def _import_in_error(
    state: _File, src: bytes, start: int, error: Node, flags: dict[str, Guard], cell: int | None
) -> None:
    """Read an import line the parser swallowed into an ERROR node, parsing it on its own."""
    line_start = src.rfind(b"\n", 0, start) + 1
    if not _IMPORT_LINE.match(src, line_start):
        return
    line_end = src.find(b"\n", start)
    text = src[line_start : line_end if line_end >= 0 else len(src)].strip()
    if text.startswith(b"from") and text.endswith((b"(", b",")):
        text = text.rstrip(b"(,") + (b")" if b"(" in text else b"")
        text = text.replace(b"import )", b"import ()")
    statements = parse_once(text).root_node.named_children
    if not statements:
        return
    line = src.count(b"\n", 0, start) + 1
    if statements[0].type == "import_statement":
        _plain_import(state, statements[0], flags, cell, error, line)
    elif statements[0].type == "import_from_statement":
        _from_import(state, statements[0], flags, cell, error, line)


def _text(node: Node | None) -> str:
    if node is None:
        return ""
    return "".join((node.text or b"").decode("utf-8", "replace").split())


def _add(
    state: _File,
    node: Node,
    module: str,
    flags: dict[str, Guard],
    cell: int | None,
    line: int | None = None,
    **kw: Any,
) -> int:
    """Record one ref; `node` places it in the tree (its guards) and gives its line."""
    where = _where(state, node, flags)
    facts: ImportFacts = kw.pop("facts", NO_IMPORT_FACTS)
    requested_optional = bool(kw.pop("optional", False))
    optional = where.optional or requested_optional
    if cell is not None:
        facts = replace(facts, cell=cell)
    if where.reraised:
        facts = replace(facts, reraised=True)
    ref = ImportRef(
        module,
        state.source.path,
        line or node.start_point[0] + 1,
        "python",
        state.source.kind,
        optional=optional,
        type_only=where.type_only or state.source.path.endswith(".pyi"),
        marker=where.marker,
        facts=facts,
        **kw,
    )
    index = len(state.refs)
    state.refs.append(ref)
    if not optional:
        function = _enclosing_function(node)
        if function:
            state.lazy_in[index] = function
    key = cell or 0
    names = [f"{module}.{n}" for n in kw.get("names", ()) if n != "*"]
    for body in where.try_bodies:
        state.body_modules.setdefault((key, body), []).append(module)
        state.body_modules.setdefault((key, body, "names"), []).extend(names)
    if where.fallback_of is not None:
        state.fallbacks.append((index, (key, where.fallback_of)))
    return index


def _plain_import(
    state: _File,
    statement: Node,
    flags: dict[str, Guard],
    cell: int | None,
    anchor: Node,
    line: int | None = None,
) -> None:
    for name_node in statement.children_by_field_name("name"):
        if name_node.type == "aliased_import":
            module = _text(name_node.child_by_field_name("name"))
            alias = _text(name_node.child_by_field_name("alias"))
            bound, path = alias, module
        else:
            module = _text(name_node)
            bound = path = module.split(".", 1)[0]
        if not module or not _DOTTED.match(module):
            continue
        index = _add(state, anchor, module, flags, cell, line)
        if bound:
            state.bind(bound, path, index)


def _from_import(
    state: _File,
    statement: Node,
    flags: dict[str, Guard],
    cell: int | None,
    anchor: Node,
    line: int | None = None,
) -> None:
    module_node = statement.child_by_field_name("module_name")
    if module_node is None:
        return
    relative = module_node.type == "relative_import"
    if relative:
        level = 0
        dotted = ""
        for child in module_node.children:
            if child.type == "import_prefix":
                level = (child.text or b"").count(b".")
            elif child.type == "dotted_name":
                dotted = _text(child)
        module = _resolve_relative(state.package, level, dotted)
    else:
        module = _text(module_node)
    if not module or not _DOTTED.match(module):
        return
    names: list[str] = []
    aliases: list[tuple[str, str]] = []
    for name_node in statement.children_by_field_name("name"):
        if name_node.type == "aliased_import":
            name = _text(name_node.child_by_field_name("name"))
            aliases.append((_text(name_node.child_by_field_name("alias")), name))
        else:
            name = _text(name_node)
            aliases.append((name, name))
        names.append(name)
    if any(child.type == "wildcard_import" for child in statement.children):
        names.append("*")
    index = _add(state, anchor, module, flags, cell, line, relative=relative, names=tuple(names))
    if not module.startswith("."):
        for bound, name in aliases:
            if bound and "." not in bound:
                state.bind(bound, f"{module}.{name}", index)


def _resolve_relative(package: list[str], level: int, dotted: str) -> str:
    if 0 < level <= len(package):
        base = package[: len(package) - level + 1]
        return ".".join(base + ([dotted] if dotted else []))
    return "." * level + dotted


def string_literal(node: Node) -> str | None:
    """The value of a plain string literal (python_constants.literal_text)."""
    return literal_text(node)


def _dynamic_call(root: Node, match: re.Match[bytes]) -> tuple[str, Node, Node] | None:
    """(function word, call, argument list) of a dynamic-import call the regex found."""
    word = match.group(1).decode()
    node = root.descendant_for_byte_range(match.start(1), match.end(1))
    if node is None or node.type != "identifier" or node.parent is None:
        return None
    function = node
    if node.parent.type == "attribute" and node.parent.end_byte == node.end_byte:
        function = node.parent
    qualifier = _text(function)[: -len(word)].rstrip(".")
    if qualifier not in _DYNAMIC_QUALIFIERS[word]:
        return None
    call = function.parent
    if call is None or call.type != "call" or call.start_byte != function.start_byte:
        return None
    arguments = call.child_by_field_name("arguments")
    if arguments is None:
        return None
    return word, call, arguments


def _dynamic_import(
    state: _File,
    root: Node,
    match: re.Match[bytes],
    flags: dict[str, Guard],
    cell: int | None,
    consts: FileConstants,
) -> None:
    found = _dynamic_call(root, match)
    if found is None:
        return
    word, call, arguments = found
    positional = [
        a for a in arguments.named_children if a.type not in ("comment", "keyword_argument")
    ]
    literal = string_literal(positional[0]) if positional else None
    folded = literal is None and bool(positional)
    modules = (literal,) if literal else consts.fold(positional[0]) if folded else None
    minversion: str | None = None
    fromlist: tuple[str, ...] = ()
    for argument in arguments.named_children:
        if argument.type == "keyword_argument":
            key = _text(argument.child_by_field_name("name"))
            value_node = argument.child_by_field_name("value")
            value = string_literal(value_node) if value_node is not None else None
            if key == "minversion" and value:
                minversion = value
            elif key == "fromlist" and word == "__import__":
                fromlist = consts.names(value_node) or ()
    if word == "__import__" and len(positional) >= 4:  # (name, globals, locals, fromlist)
        fromlist = consts.names(positional[3]) or ()
    facts = ImportFacts(minversion=minversion)
    # `import_module(DRIVERS[kind])` loads one of the dict's modules: each is optional
    choice = folded and chooses(positional[0])
    for raw in modules or ():
        module = _absolute(state, raw)
        if not module:
            continue
        # `__import__("plugins.pkg", fromlist=NAMES)` imports plugins.pkg.<each name>
        for name in ("", *(n for n in fromlist if n.isidentifier())):
            target = f"{module}.{name}" if name else module
            index = _add(
                state,
                call,
                target,
                flags,
                cell,
                dynamic=True,
                relative=raw.startswith("."),
                optional=choice or word in ("importorskip", "find_spec"),
                facts=facts,
            )
            if not name and not folded:
                _bind_result(state, call, word, target, index)


def _absolute(state: _File, module: str) -> str | None:
    """A dynamic import's dotted name, a relative one resolved against the package."""
    if not module or not _DOTTED.match(module):
        return None
    if module.startswith("."):
        level = len(module) - len(module.lstrip("."))
        return _resolve_relative(state.package, level, module.lstrip("."))
    return module


def _bind_result(state: _File, call: Node, word: str, module: str, index: int) -> None:
    """`yaml = importlib.import_module("yaml")` binds `yaml` to the module (attrs)."""
    holder = call.parent
    if holder is not None and holder.type == "assignment" and word != "find_spec":
        target = holder.child_by_field_name("left")
        if target is not None and target.type == "identifier" and not module.startswith("."):
            state.bind(_text(target), module, index)


def _catches_import_error(state: _File, try_node: Node) -> bool:
    return _handlers(state, try_node)[0]


def _handlers(state: _File, try_node: Node) -> tuple[bool, bool]:
    """(a handler catches import errors, every such handler ends by raising again)."""
    key = try_node.start_byte
    cached = state.catches.get(key)
    if cached is not None:
        return cached
    catching: list[Node] = []
    for handler in try_node.children:
        if handler.type not in ("except_clause", "except_group_clause"):
            continue
        caught = None
        for child in handler.children:
            if child.is_named and child.type not in ("block", "comment"):
                caught = child
                break
        if caught is not None and caught.type == "as_pattern":
            caught = caught.named_children[0] if caught.named_children else caught
        names = (
            {part.strip().rsplit(".", 1)[-1] for part in _text(caught).strip("()").split(",")}
            if caught is not None
            else {"BaseException"}
        )
        if names & _SPECIFIC_IMPORT_ERRORS or (
            names & _IMPORT_ERRORS and _guards_imports(try_node)
        ):
            catching.append(handler)
    reraises = bool(catching)
    for handler in catching:
        blocks = [c for c in handler.children if c.type == "block"]
        statements = [c for c in blocks[-1].named_children if c.type != "comment"] if blocks else []
        if not statements or statements[-1].type != "raise_statement":
            reraises = False
    result = (bool(catching), reraises)
    state.catches[key] = result
    return result


def _suppresses_import_error(with_node: Node) -> bool:
    for child in with_node.children:
        if child.type == "with_clause":
            for found in _SUPPRESS.finditer(child.text or b""):
                names = {n.strip().rsplit(b".", 1)[-1] for n in found.group(1).split(b",")}
                if any(n.decode("utf-8", "replace") in _IMPORT_ERRORS for n in names):
                    return True
    return False


def _condition(node: Node) -> Node | None:
    return node.child_by_field_name("condition")


def _asks_find_spec(condition: Node | None) -> bool:
    return condition is not None and b"find_spec(" in (condition.text or b"")


def _branch(if_node: Node, child: Node, flags: dict[str, Guard]) -> tuple[Expr | None, bool, bool]:
    """(marker, type-only, optional) of the branch of `if_node` that holds `child`."""
    clauses = [if_node] + [c for c in if_node.children if c.type == "elif_clause"]
    conditions = [_condition(c) for c in clauses]
    optional = any(_asks_find_spec(c) for c in conditions)
    if child.type == "block":
        guard = evaluate(conditions[0], flags)
        return guard.pos, guard.pos_type_checking, optional
    if child.type == "elif_clause":
        earlier = [
            evaluate(c, flags)
            for c, clause in zip(conditions, clauses, strict=True)
            if clause.start_byte < child.start_byte
        ]
        own = evaluate(_condition(child), flags)
        parts = [g.neg for g in earlier] + [own.pos]
        type_only = own.pos_type_checking or any(g.neg_type_checking for g in earlier)
        return conjoin(parts), type_only, optional
    if child.type == "else_clause":
        guards = [evaluate(c, flags) for c in conditions]
        type_only = any(g.neg_type_checking for g in guards)
        return conjoin([g.neg for g in guards]), type_only, optional
    return None, False, False


def _where(state: _File, node: Node, flags: dict[str, Guard]) -> _Where:
    where = _Where()
    markers: list[Expr | None] = []
    try_bodies: list[int] = []
    below: Node | None = None
    child = node
    parent = node.parent
    while parent is not None:
        kind = parent.type
        if kind == "try_statement":
            if child.type == "block":
                catches, reraises = _handlers(state, parent)
                if catches:
                    where.optional = True
                    where.reraised = where.reraised or reraises
                    try_bodies.append(parent.start_byte)
            elif child.type == "else_clause" and _catches_import_error(state, parent):
                where.optional = True  # runs only when the guarded imports succeeded
            elif child.type in ("except_clause", "except_group_clause"):
                if where.fallback_of is None and _catches_import_error(state, parent):
                    where.fallback_of = parent.start_byte
        elif kind == "if_statement":
            in_body = child.type == "block" or (below is not None and below.type == "block")
            if in_body:
                marker, type_only, optional = _branch(parent, child, flags)
                markers.append(marker)
                where.type_only = where.type_only or type_only
                where.optional = where.optional or optional
        elif kind == "with_statement":
            if child.type == "block" and _suppresses_import_error(parent):
                where.optional = True
        below, child, parent = child, parent, parent.parent
    markers.reverse()  # outermost guard first
    combined = conjoin(markers)
    where.marker = render(combined) if combined is not None else None
    where.try_bodies = tuple(try_bodies)
    return where


def _finish(state: _File) -> None:
    """Per-file work once every unit is read: fallbacks and attribute chains."""
    for index, key in state.fallbacks:
        modules = state.body_modules.get(key)
        if modules:
            names = state.body_modules.get((*key, "names"), [])
            mark(
                state.refs[index],
                fallback_for=tuple(dict.fromkeys(modules)),
                fallback_names=tuple(dict.fromkeys(names)),
            )
    if state.bindings:
        _collect_attrs(state)


def _collect_attrs(state: _File) -> None:
    # One bytes.find per imported name is far cheaper than compiling a per-file regex.
    needles = [(name.encode() + b".", name) for name in state.bindings]
    seen: set[tuple[str, bytes]] = set()
    attrs: dict[int, dict[str, None]] = {}
    for tree, src, _cell in state.units:
        root = tree.root_node
        for needle, bound in needles:
            position = src.find(needle)
            while position >= 0:
                start, position = position, src.find(needle, position + 1)
                if start and src[start - 1 : start] in _NAME_BYTES:
                    continue
                chain_match = _CHAIN.match(src, start + len(needle) - 1)
                if chain_match is None or (bound, chain_match.group()) in seen:
                    continue
                node = root.descendant_for_byte_range(start, start + len(needle) - 1)
                if node is None or node.type != "identifier" or node.start_byte != start:
                    continue
                parent = node.parent
                if parent is None or parent.type != "attribute" or parent.start_byte != start:
                    continue
                seen.add((bound, chain_match.group()))
                index, full = _owner(state, bound, chain_match.group().decode())
                if full == state.refs[index].module:
                    continue
                found = attrs.setdefault(index, {})
                if len(found) < MAX_ATTRS:
                    found[full] = None
    for index, found in attrs.items():
        mark(state.refs[index], attrs=tuple(found))


def _owner(state: _File, bound: str, chain: str) -> tuple[int, str]:
    """The ref an attribute chain belongs to: the longest imported module it starts with."""
    best: tuple[int, str] | None = None
    best_length = -1
    for path, index in state.bindings[bound]:
        full = path + chain
        module = state.refs[index].module
        if (full == module or full.startswith(module + ".")) and len(module) > best_length:
            best, best_length = (index, full), len(module)
    if best is None:
        path, index = state.bindings[bound][0]
        best = (index, path + chain)
    return best
