"""pyproject.toml: PEP 621 `[project]`, PEP 735 `[dependency-groups]` and Poetry tables.

tomlkit keeps every byte it was not asked to change (comments, spacing, key order), so the
writer edits the parsed document and serialises it back. Only arrays and tables that hold
dependencies are touched; new entries go at their alphabetical place when a list is already
sorted, else at its end; a new list takes the file's own multi-line array style.
"""

from __future__ import annotations

import posixpath
import re
from typing import TYPE_CHECKING, Any

from depinfer import toml_compat
from depinfer.manifests import ManifestError
from depinfer.manifests.pep508 import (
    canonical,
    format_requirement,
    guarded,
    insert_index,
    is_sorted,
    match_line_endings,
    names_of,
    new_requirements,
    python_versions_from_classifiers,
    target_key,
)
from depinfer.model import Manifest, Requirement
from depinfer.patterns import lazy

# PEP 735's table of dependency groups (`[dependency-groups]`)
DEPENDENCY_GROUPS = "dependency-groups"  # package literal: a table name of the format

try:  # the strict standard parser (3.11+) double-checks what the writer produces
    import tomllib as _strict_toml
except ModuleNotFoundError:  # pragma: no cover - Python 3.10
    _strict_toml = None  # type: ignore[assignment]


if TYPE_CHECKING:
    import tomlkit
    from tomlkit.items import Array, String, Table
    from tomlkit.toml_document import TOMLDocument


class _TomlkitNotLoaded(Exception):
    """Stands for tomlkit's error class until tomlkit is loaded (nothing raises it then)."""


TOMLKitError: type[Exception] = _TomlkitNotLoaded


def _load_tomlkit() -> None:
    """tomlkit (slow to import: a third of a check run's imports) for the runs that edit a
    pyproject.toml: reading it needs only the standard parser. Every writer path starts
    with `_parse`, which calls this."""
    global tomlkit, TOMLKitError, Array, String, Table  # noqa: PLW0603 - loaded once, lazily
    import tomlkit
    from tomlkit.exceptions import TOMLKitError
    from tomlkit.items import Array, String, Table


# ---------------------------------------------------------------------------- reading


def _parse(text: str) -> TOMLDocument:
    _load_tomlkit()
    try:
        if _strict_toml is not None:  # its messages name the line plainly
            _strict_toml.loads(text)
        doc = tomlkit.parse(text)
    except (TOMLKitError, ValueError) as exc:
        message = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise ManifestError(f"invalid TOML: {message}") from None
    return doc


def _table(value: Any) -> dict | None:
    return value if isinstance(value, dict) else None


def _poetry(doc: TOMLDocument) -> dict | None:
    tool = _table(doc.get("tool"))
    return _table(tool.get("poetry")) if tool else None


def _poetry_names(table: Any) -> list[str]:
    if not isinstance(table, dict):
        return []
    return [str(k) for k in table if str(k).lower() != "python"]


def _style(doc: TOMLDocument) -> str:
    project = _table(doc.get("project"))
    poetry = _poetry(doc)
    if project is not None and poetry is not None:
        if "dependencies" in project or "dependencies" in (project.get("dynamic") or []):
            return "pep621"
        if _poetry_names(poetry.get("dependencies")) or "name" not in project:
            return "poetry"
        return "pep621"
    if poetry is not None:
        return "poetry"
    if project is not None:
        return "pep621"
    return "tool-only"


def _files(value: Any) -> list[str]:
    if isinstance(value, dict):
        value = value.get("file", value.get("files"))
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [v for v in value if isinstance(v, str)]
    return []


def _repo_relative(path: str, ref: str) -> str:
    return posixpath.normpath(posixpath.join(posixpath.dirname(path), ref))


def _declared(doc: TOMLDocument) -> dict[str, list[str]]:
    declared: dict[str, list[str]] = {}
    project = _table(doc.get("project"))
    if project is not None:
        if isinstance(project.get("dependencies"), list):
            declared["dependencies"] = names_of(project["dependencies"])
        for extra, items in (_table(project.get("optional-dependencies")) or {}).items():
            if isinstance(items, list):
                declared[f"optional-dependencies.{extra}"] = names_of(items)
    poetry = _poetry(doc)
    if poetry is not None:
        if isinstance(poetry.get("dependencies"), dict):
            runtime = declared.setdefault("dependencies", [])
            runtime.extend(_poetry_names(poetry["dependencies"]))
        for group, body in (_table(poetry.get("group")) or {}).items():
            if isinstance(body, dict) and isinstance(body.get("dependencies"), dict):
                declared[f"group.{group}"] = _poetry_names(body["dependencies"])
        if isinstance(poetry.get("dev-dependencies"), dict):
            declared["dev-dependencies"] = _poetry_names(poetry["dev-dependencies"])
        for extra, items in (_table(poetry.get("extras")) or {}).items():
            if isinstance(items, list):
                declared[f"extras.{extra}"] = [str(i) for i in items if isinstance(i, str)]
    for group, items in (_table(doc.get(DEPENDENCY_GROUPS)) or {}).items():
        if isinstance(items, list):
            declared[f"dependency-groups.{group}"] = names_of(items)
    build = _table(doc.get("build-system"))
    if build is not None and isinstance(build.get("requires"), list):
        declared["build-system.requires"] = names_of(build["requires"])
    return declared


_FEATURED = lazy(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*\[")


def _features_of(item: str) -> list[str]:
    """`Twisted[http2, tls]>=21` -> ["http2", "tls"]."""
    inside = item.partition("[")[2].partition("]")[0]
    return [f.strip() for f in inside.split(",") if f.strip()]


def _data(doc: TOMLDocument, path: str) -> dict[str, Any]:
    project = _table(doc.get("project")) or {}
    poetry = _poetry(doc) or {}
    tool = _table(doc.get("tool")) or {}
    python = None
    poetry_deps = _table(poetry.get("dependencies")) or {}
    for key, value in poetry_deps.items():
        if str(key).lower() == "python":
            python = value.get("version") if isinstance(value, dict) else value
    requires_python = project.get("requires-python") or python
    dynamic = project.get("dynamic") or []
    files: list[str] = []
    optional_files: dict[str, list[str]] = {}
    setuptools_dynamic = _table((_table(tool.get("setuptools")) or {}).get("dynamic")) or {}
    if "dependencies" in dynamic:
        files += _files(setuptools_dynamic.get("dependencies"))
        # hatch-requirements-txt: [tool.hatch.metadata.hooks.requirements_txt] files = [...]
        hooks = _table(
            (_table((_table(tool.get("hatch")) or {}).get("metadata")) or {}).get("hooks")
        )
        files += _files(_table((hooks or {}).get("requirements_txt")) or {})
    if "optional-dependencies" in dynamic:
        for extra, spec in (_table(setuptools_dynamic.get("optional-dependencies")) or {}).items():
            optional_files[str(extra)] = [_repo_relative(path, f) for f in _files(spec)]
    classifiers = project.get("classifiers") or poetry.get("classifiers") or []
    # `twisted-http2 = ["Twisted[http2]"]`: an extra that asks for a dependency's own
    # features (the declared names drop the brackets); the features asked for come third
    featured = [
        [str(extra), _FEATURED.match(item).group(1), _features_of(item)]
        for extra, items in (_table(project.get("optional-dependencies")) or {}).items()
        if isinstance(items, list)
        for item in items
        if isinstance(item, str) and _FEATURED.match(item)
    ]
    return {
        "style": _style(doc),
        "name": project.get("name") or poetry.get("name"),
        "requires_python": str(requires_python) if requires_python else None,
        "dynamic_dependencies_files": [_repo_relative(path, f) for f in files],
        "dynamic_optional_dependencies_files": optional_files,
        "classifiers": python_versions_from_classifiers(classifiers),
        "featured_extras": featured,
        "entry_points": _entry_points(project, poetry),
    }


def _entry_points(project: dict, poetry: dict) -> dict[str, list[str]]:
    """The `module:attr` targets of each script / entry-point table: `scripts`,
    `gui-scripts`, `entry-points.<group>`, `poetry.scripts`, `poetry.plugins.<group>`."""
    tables: dict[str, Any] = {
        "scripts": project.get("scripts"),
        "gui-scripts": project.get("gui-scripts"),
        "poetry.scripts": poetry.get("scripts"),
    }
    for prefix, groups in (
        ("entry-points", project.get("entry-points")),
        ("poetry.plugins", poetry.get("plugins")),
    ):
        for group, table in (_table(groups) or {}).items():
            tables[f"{prefix}.{group}"] = table
    out: dict[str, list[str]] = {}
    for key, table in tables.items():
        for value in (_table(table) or {}).values():
            target = value.get("reference") if isinstance(value, dict) else value
            if isinstance(target, str):
                out.setdefault(key, []).append(str(target))
    return out


def _parse_to_read(text: str) -> Any:
    """The document as plain tables for reading: the standard parser alone when there is
    one (several times faster than tomlkit, whose layout only writing needs)."""
    if _strict_toml is None:  # pragma: no cover - Python 3.10
        return _parse(text)
    try:
        return toml_compat.loads(text)
    except ValueError as exc:
        message = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise ManifestError(f"invalid TOML: {message}") from None


@guarded
def read(text: str, path: str) -> tuple[dict[str, list[str]], dict]:
    doc = _parse_to_read(text)
    try:
        return _declared(doc), _data(doc, path)
    except (TOMLKitError, TypeError, AttributeError) as exc:
        raise ManifestError(f"unexpected pyproject structure: {exc}") from None


# ---------------------------------------------------------------------------- writing


class _ArrayStyle:
    """How this file writes multi-line arrays: element indent and trailing comma."""

    def __init__(self, text: str) -> None:
        indents = re.findall(r"=[ \t]*\[[ \t]*\r?\n([ \t]+)[\"'{]", text)
        self.indent = indents[0] if indents else "    "
        closings = re.findall(r"([^\s\[])[ \t]*(?:#[^\n]*)?\r?\n[ \t]*\]", text)
        with_comma = sum(1 for c in closings if c == ",")
        self.trailing_comma = not closings or with_comma * 2 >= len(closings)


def _uses_literal_strings(arr: Array | None) -> bool:
    """True when most of the list's entries are written as 'literal' strings."""
    quotes = [item.as_string()[:1] for item in arr or [] if isinstance(item, String)]
    return quotes.count("'") > quotes.count('"')


def _string(value: str, literal: bool) -> Any:
    return tomlkit.string(value, literal=literal and "'" not in value)


def _entry_text(req: Requirement, literal: bool) -> str:
    return format_requirement(req, single_quote_markers=not literal)


def _new_array(reqs: list[Requirement], style: _ArrayStyle) -> Array:
    arr = tomlkit.array()
    for req in sorted(reqs, key=lambda r: canonical(r.name)):
        arr.add_line(tomlkit.string(_entry_text(req, False)), indent=style.indent)
    if style.trailing_comma:
        arr.add_line(indent="")
    else:
        arr.add_line(indent="", add_comma=False)
    return arr


def _add_to_array(arr: Array, reqs: list[Requirement]) -> None:
    literal = _uses_literal_strings(arr)
    names = [
        (i, n) for i, item in enumerate(arr) if isinstance(item, str) for n in names_of([item])
    ]
    for req in sorted(reqs, key=lambda r: canonical(r.name)):
        value = _string(_entry_text(req, literal), literal)
        listed = [n for _, n in names]
        pos = insert_index(listed, req.name)
        if is_sorted(listed) and pos < len(names):
            index = names[pos][0]
            arr.insert(index, value)
            _before_comments(arr, value)
            names = [(i + 1 if i >= index else i, n) for i, n in names]
            names.insert(pos, (index, req.name))
        else:
            arr.append(value)
            names.append((len(arr) - 1, req.name))


def _before_comments(arr: Array, value: Any) -> None:
    """Move a just-inserted item above the comment lines that introduce the next item.

    tomlkit inserts next to the following value, i.e. between a `# HTTP client` comment
    and the entry it describes; the comment must stay with its entry.
    """
    groups = getattr(arr, "_value", None)
    if not isinstance(groups, list):
        return
    at = next((i for i, g in enumerate(groups) if getattr(g, "value", None) is value), None)
    if at is None:
        return
    to = at
    while to > 0:
        prev = groups[to - 1]
        if getattr(prev, "comment", None) is None or type(prev.value).__name__ != "Null":
            break
        to -= 1
    if to != at:
        groups.insert(to, groups.pop(at))
        arr._reindex()


def _fill_commented(arr: Array, reqs: list[Requirement], style: _ArrayStyle) -> None:
    """Fill an empty list that holds only comments (`[\\n    # add here\\n]`), keeping them."""
    inner = re.search(r"\n([ \t]+)#", arr.as_string())
    indent = inner.group(1) if inner else style.indent
    groups = getattr(arr, "_value", None)
    if isinstance(groups, list) and groups and groups[-1].is_whitespace():
        groups.pop()  # the closing line's whitespace; add_line writes its own
    for req in sorted(reqs, key=lambda r: canonical(r.name)):
        arr.add_line(tomlkit.string(_entry_text(req, False)), indent=indent)
    arr.add_line(indent="", add_comma=style.trailing_comma)


def _is_empty(arr: Array) -> bool:
    return len(arr) == 0


def _put_list(container: Any, key: str, reqs: list[Requirement], style: _ArrayStyle) -> None:
    """Add `reqs` to the array `container[key]`, creating it (multi-line) when missing/empty."""
    current = container.get(key)
    if current is not None and not isinstance(current, list):
        raise ManifestError(f"{key} is not a list")
    existing = names_of(current or [])
    adds = new_requirements(reqs, existing)
    if not adds:
        return
    if current is None:
        container[key] = _new_array(adds, style)
    elif _is_empty(current) and "#" in current.as_string():
        _fill_commented(current, adds, style)
    elif _is_empty(current):
        fresh = _new_array(adds, style)
        comment = current.trivia.comment
        container[key] = fresh
        if comment:
            container[key].trivia.comment = comment
            container[key].trivia.comment_ws = current.trivia.comment_ws
    else:
        was_inline = "\n" not in current.as_string()
        _add_to_array(current, adds)
        if was_inline and len(key) + 3 + len(current.as_string()) > MAX_LINE:
            _wrap(container, key, current, style)


MAX_LINE = 99  # an inline list that grows past this is laid out one entry a line


def _wrap(container: Any, key: str, current: Array, style: _ArrayStyle) -> None:
    """Lay an inline list out one entry a line, entries and their quoting unchanged."""
    if any(not isinstance(item, str) for item in current):
        return  # tables inside (PEP 735 include-group): leave the line as it is
    fresh = tomlkit.array()
    for item in current:
        fresh.add_line(item, indent=style.indent)
    fresh.add_line(indent="", add_comma=style.trailing_comma)
    comment, comment_ws = current.trivia.comment, current.trivia.comment_ws
    container[key] = fresh
    if comment:
        container[key].trivia.comment = comment
        container[key].trivia.comment_ws = comment_ws


def _ensure_table(parent: Any, key: str, created: list[Any], super_table: bool = False) -> Any:
    """`parent[key]` as a table, created when missing (and remembered in `created`)."""
    value = parent.get(key)
    if value is None:
        table = tomlkit.table(super_table)
        parent[key] = table
        if not super_table:
            created.append(parent[key])
        return parent[key]
    if not isinstance(value, dict):
        raise ManifestError(f"{key} is not a table")
    return value


def _project_dependencies(doc: TOMLDocument, reqs: list[Requirement], style: _ArrayStyle) -> None:
    project = _table(doc.get("project"))
    if project is None:
        raise ManifestError("no [project] or [tool.poetry] table to hold dependencies")
    if "dependencies" in (project.get("dynamic") or []) and "dependencies" not in project:
        raise ManifestError("[project] dependencies are dynamic; the file they come from is edited")
    if "dependencies" in project:
        _put_list(project, "dependencies", reqs, style)
        return
    adds = new_requirements(reqs, [])
    arr = _new_array(adds, style)
    main = _header_table(doc, "project")
    if main is None:  # [project] only as dotted keys or sub-tables
        project["dependencies"] = arr
        return
    anchor = next((k for k in _keys_in_order(main) if k == "requires-python"), None)
    if anchor is not None:
        main.value._insert_after(anchor, "dependencies", arr)
    else:
        main.add("dependencies", arr)


def _header_table(doc: TOMLDocument, key: str) -> Table | None:
    """The table under the `[key]` header itself, also when sub-tables split it up
    (tomlkit then hands out a proxy over several tables)."""
    for k, item in doc.body:
        if k is not None and k.key == key and isinstance(item, Table):
            if not item.is_super_table():
                return item
    return None


# Poetry idiom ------------------------------------------------------------------------


def _release(text: str) -> tuple[int, ...] | None:
    from packaging.version import InvalidVersion, Version  # lazy: only the Poetry writer

    try:
        release = Version(text).release
    except InvalidVersion:
        return None
    while len(release) > 1 and release[-1] == 0:
        release = release[:-1]
    return release


def poetry_constraint(spec: str) -> str:
    """PEP 440 specifier → Poetry's idiom: "" → "*", ">=2.0,<3" → "^2.0", "==1.2" → "1.2"."""
    spec = (spec or "").strip()
    if not spec:
        return "*"
    parts = [p.strip() for p in spec.split(",") if p.strip()]
    if len(parts) == 1:
        only = parts[0]
        if only.startswith("==") and "*" not in only and not only.startswith("==="):
            return only[2:].strip()
        return only
    if len(parts) == 2:
        lower, upper = sorted(parts, key=lambda p: not p.startswith(">="))
        if lower.startswith(">=") and upper.startswith("<") and not upper.startswith("<="):
            low = lower[2:].strip()
            lo, hi = _release_of(low), _release(upper[1:].strip())
            if lo and hi:
                first = next((i for i, v in enumerate(lo) if v), len(lo) - 1)
                caret = lo[:first] + (lo[first] + 1,)
                tilde = (lo[0], lo[1] + 1) if len(lo) >= 2 else (lo[0] + 1,)
                if _release(".".join(map(str, caret))) == hi:
                    return "^" + low
                if _release(".".join(map(str, tilde))) == hi:
                    return "~" + low
    return ",".join(parts)


def _release_of(text: str) -> tuple[int, ...] | None:
    """The release tuple as written (not stripped of trailing zeros)."""
    from packaging.version import InvalidVersion, Version  # lazy: only the Poetry writer

    try:
        return Version(text).release
    except InvalidVersion:
        return None


def _inline_padding(text: str) -> str:
    """A space when the file pads inline tables (`{ version = "1" }`), else nothing."""
    padded = len(re.findall(r"=\s*\{ \S", text))
    tight = len(re.findall(r"=\s*\{\S", text))
    return " " if padded > tight else ""


def _poetry_value(req: Requirement, optional: bool = False, pad: str = "") -> Any:
    """Poetry's entry for a requirement: a constraint string, or an inline table."""
    version = poetry_constraint(req.spec)
    fields: list[tuple[str, Any]] = []
    if req.internal and req.path:
        fields = [("path", req.path), ("develop", True)]
    elif not (req.features or req.markers or optional):
        return version
    else:
        fields.append(("version", version))
        if req.features:
            fields.append(("extras", list(req.features)))
        if req.markers:
            marker = req.markers.strip()
            if '"' in marker and "'" not in marker:
                marker = marker.replace('"', "'")
            fields.append(("markers", marker))
        if optional:
            fields.append(("optional", True))
    # Built as text and parsed so the new table takes the file's brace padding.
    body = ", ".join(f"{k} = {tomlkit.item(v).as_string()}" for k, v in fields)
    return tomlkit.parse(f"x = {{{pad}{body}{pad}}}\n")["x"]


def _keys_in_order(table: Any) -> list[str]:
    """Keys as they appear in the file (tomlkit's mapping order lags after inserts)."""
    if isinstance(table, Table):
        return [k.key for k, _ in table.value.body if k is not None]
    return [str(k) for k in table]


def _poetry_table_add(
    table: Any, reqs: list[Requirement], text: str, optional: bool = False
) -> None:
    """Add Poetry entries: alphabetically when the table is sorted, else at its end."""
    existing = _poetry_names(table)
    adds = new_requirements(reqs, existing)
    body = table.value if isinstance(table, Table) else None
    pad = _inline_padding(text)
    for req in sorted(adds, key=lambda r: canonical(r.name)):
        value = _poetry_value(req, optional=optional, pad=pad)
        keys = _keys_in_order(table)
        names = [k for k in keys if k.lower() != "python"]
        pos = insert_index(names, req.name)
        if body is not None and is_sorted(names) and pos < len(names):
            before = names[pos]
            index = keys.index(before)
            anchor = keys[index - 1] if index > 0 else None
            if anchor is not None:
                body._insert_after(anchor, req.name, value)
            else:
                body._insert_at(0, req.name, value)
        else:
            table.add(req.name, value)


def _poetry_dependencies(doc: TOMLDocument, requires_python: str | None, created: list[Any]) -> Any:
    poetry = _poetry(doc)
    if poetry is None:
        raise ManifestError("no [tool.poetry] table to hold dependencies")
    if "dependencies" not in poetry:
        table = tomlkit.table()
        if requires_python:
            table.add("python", requires_python)
        poetry["dependencies"] = table
        created.append(poetry["dependencies"])
    deps = poetry["dependencies"]
    if not isinstance(deps, dict):
        raise ManifestError("[tool.poetry.dependencies] is not a table")
    return deps


def _poetry_group(doc: TOMLDocument, group: str, created: list[Any]) -> Any:
    poetry = _poetry(doc)
    if poetry is None:
        raise ManifestError(f"no [tool.poetry] table to hold group {group}")
    groups = _ensure_table(poetry, "group", created, super_table=True)
    body = _ensure_table(groups, group, created, super_table=True)
    return _ensure_table(body, "dependencies", created)


def _write(
    doc: TOMLDocument,
    key: str,
    reqs: list[Requirement],
    style: str,
    text: str,
    created: list[Any],
) -> None:
    arrays = _ArrayStyle(text)
    head, _, rest = key.partition(".")
    if key == "dependencies":
        if style == "poetry":
            python = _data(doc, "")["requires_python"]
            _poetry_table_add(_poetry_dependencies(doc, python, created), reqs, text)
        else:
            _project_dependencies(doc, reqs, arrays)
    elif head == "optional-dependencies" and rest:
        project = _table(doc.get("project"))
        if project is None:
            raise ManifestError("no [project] table to hold optional dependencies")
        _put_list(_ensure_table(project, "optional-dependencies", created), rest, reqs, arrays)
    elif head == DEPENDENCY_GROUPS and rest:
        _put_list(_ensure_table(doc, DEPENDENCY_GROUPS, created), rest, reqs, arrays)
    elif key == "build-system.requires":
        _put_list(_ensure_table(doc, "build-system", created), "requires", reqs, arrays)
    elif head == "group" and rest:
        _poetry_table_add(_poetry_group(doc, rest, created), reqs, text)
    elif key == "dev-dependencies":
        poetry = _poetry(doc)
        if poetry is None:
            raise ManifestError("no [tool.poetry] table to hold dev-dependencies")
        _poetry_table_add(_ensure_table(poetry, "dev-dependencies", created), reqs, text)
    elif head == "extras" and rest:
        python = _data(doc, "")["requires_python"]
        _poetry_table_add(_poetry_dependencies(doc, python, created), reqs, text, optional=True)
        extras = _ensure_table(_poetry(doc), "extras", created)
        current = extras.get(rest)
        listed = [str(i) for i in current] if isinstance(current, list) else []
        adds = new_requirements(reqs, listed)
        if adds and current is None:
            arr = tomlkit.array()
            arr.extend(sorted((r.name for r in adds), key=canonical))
            extras[rest] = arr
        elif adds:
            _add_to_array(current, adds)
    else:
        raise ManifestError(f"pyproject.toml has no place for {key!r}")


def _place(req: Requirement, style: str, doc: TOMLDocument, declared: dict) -> str:
    """The section key a requirement goes into in this file.

    A key from the other vocabulary is translated when this file cannot hold it as
    named: Poetry groups become PEP 735 groups in a file without [tool.poetry]; in a
    Poetry file a group that does not exist yet as a PEP 735 group becomes a Poetry group.
    """
    key = target_key(req, style)
    head, _, rest = key.partition(".")
    has_poetry = _poetry(doc) is not None
    if key == "group.dev" and not req.group and "dev-dependencies" in declared:
        return "dev-dependencies"
    if not has_poetry and head == "group" and rest:
        return f"dependency-groups.{rest}"
    if not has_poetry and key == "dev-dependencies":
        return "dependency-groups.dev"
    if style == "poetry" and head == DEPENDENCY_GROUPS and key not in declared:
        if "dev-dependencies" in declared and rest == "dev" and "group.dev" not in declared:
            return "dev-dependencies"
        return f"group.{rest}"
    if key == "tests_require":  # setuptools' keyword; pyproject keeps tests in a group
        return "group.test" if style == "poetry" else "dependency-groups.test"
    return key


def _trim_trailing_newlines(new: str, old: str) -> str:
    """A table added at the end must not leave more blank lines than the file had."""
    old_tail = len(old) - len(old.rstrip("\r\n"))
    body = new.rstrip("\r\n")
    tail = new[len(body) :]
    return body + tail[:old_tail] if len(tail) > old_tail and old_tail else new


@guarded
def render(text: str, manifest: Manifest, requirements: list[Requirement]) -> str:
    doc = _parse(text)
    declared = _declared(doc)
    style = _style(doc)
    by_key: dict[str, list[Requirement]] = {}
    for req in requirements:
        by_key.setdefault(_place(req, style, doc, declared), []).append(req)
    pending = {
        key: reqs
        for key, reqs in by_key.items()
        if new_requirements(reqs, declared.get(key, [])) or key.startswith("extras.")
    }
    if not pending:
        return text
    # Tables created here get a blank line after them once filled; tomlkit would
    # otherwise glue the next table header to their last line.
    created: list[Any] = []
    try:
        for key, reqs in pending.items():
            _write(doc, key, reqs, style, text, created)
        for table in created:
            if isinstance(table, Table) and not table.is_super_table():
                table.add(tomlkit.nl())
        new = tomlkit.dumps(doc)
    except TOMLKitError as exc:
        raise ManifestError(f"cannot edit: {exc}") from None
    if new == text:
        return text
    new = _trim_trailing_newlines(new, text)
    new = match_line_endings(new, text)
    try:
        _check_parses(new)
    except ManifestError as exc:
        raise ManifestError(f"edit would break the file ({exc}); left untouched") from None
    return new


def _check_parses(text: str) -> None:
    """ManifestError unless `text` is valid TOML, by the standard reader when there is one:
    what it accepts, every tool that reads pyproject.toml does (pip, uv and the build
    backends read with it or tomli), and building tomlkit's document a second time cost a
    preview as much as the edit itself."""
    if _strict_toml is None:
        _parse(text)
        return
    try:
        _strict_toml.loads(text)
    except ValueError as exc:
        message = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise ManifestError(f"invalid TOML: {message}") from None
