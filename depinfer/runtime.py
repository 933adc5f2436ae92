"""The project's runtime, read from everything the repository says about it.

Versions are only candidates when they run on this runtime, so the oldest supported runtime
is what counts (a library supporting Python 3.8 must not get a dependency needing 3.10).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path

from depinfer.data import load_table
from depinfer.model import Ecosystem, Project
from depinfer.patterns import lazy
from depinfer.toml_compat import tomllib


def minor(version: str) -> int:
    """The minor number of a "3.X" version (10 when it cannot be read)."""
    try:
        return int(version.split(".")[1])
    except (IndexError, ValueError):
        return 10


@cache
def known_versions() -> tuple[str, ...]:
    """The Python minor versions the shipped stdlib table knows, oldest first."""
    return tuple(sorted(load_table("python/python_stdlib.json")["versions"], key=minor))


def target_from_requires_python(spec: str | None) -> str | None:
    """The lowest known minor version that `requires-python` allows ('>=3.9' → '3.9')."""
    if not spec:
        return None
    contains = specifier_contains(spec)
    if contains is None:
        return None
    for v in known_versions():
        if contains(f"{v}.0") or contains(f"{v}.99"):
            return v
    return None


def specifier_contains(spec: str) -> Callable[[str], bool] | None:
    """`version in spec` (prereleases allowed) as packaging's SpecifierSet answers it;
    None when packaging refuses the specifier. Plain release clauses are read here
    (packaging.specifiers costs a short run more to load than its analysis)."""
    contains = _simple_specifiers(spec) if isinstance(spec, str) else None
    if contains is not None:
        return contains
    if isinstance(spec, str) and _refused(spec):
        return None
    from packaging.specifiers import InvalidSpecifier, SpecifierSet  # lazy (above)

    try:
        allowed = SpecifierSet(spec)
    except InvalidSpecifier:
        return None
    return lambda version: allowed.contains(version, prereleases=True)


def _refused(spec: str) -> bool:
    """A clause that does not start with a comparison operator (Poetry's `^3.8` or `~3.8`, a
    bare `3.8`): packaging refuses the whole specifier, so it need not be loaded to say so."""
    for clause in spec.split(","):
        clause = clause.strip()
        if not clause:
            continue
        if clause[0] not in "~=!<>" or (clause[0] == "~" and not clause.startswith("~=")):
            return True
    return False


_CLAUSE = lazy(r"\s*(~=|==|!=|<=|>=|<|>)\s*([0-9]+(?:\.[0-9]+)*)(\.\*)?\s*")


def _simple_specifiers(spec: str) -> Callable[[str], bool] | None:
    """`version in spec` for a plain release version (no epoch, pre, post, dev or local
    part), as packaging's SpecifierSet answers it with prereleases allowed, when every
    clause is an operator and a release number (`>=3.8, <4`, `==3.*`, `~=3.9`); None for
    anything else, which packaging then reads."""
    clauses = []
    for text in spec.split(","):
        m = _CLAUSE.fullmatch(text)
        if m is None:
            return None
        op, release, star = m.group(1), tuple(int(x) for x in m.group(2).split(".")), m.group(3)
        if (star and op not in ("==", "!=")) or (op == "~=" and len(release) < 2):
            return None  # invalid: packaging refuses it
        clauses.append((op, release, bool(star)))

    def holds(version: tuple[int, ...], op: str, release: tuple[int, ...], star: bool) -> bool:
        if op in ("==", "!=") and star:
            head = (version + (0,) * len(release))[: len(release)]
            return (head == release) == (op == "==")
        if op == "~=":
            return holds(version, ">=", release, False) and holds(version, "==", release[:-1], True)
        width = max(len(version), len(release))
        a, b = version + (0,) * (width - len(version)), release + (0,) * (width - len(release))
        return {"==": a == b, "!=": a != b, "<=": a <= b, ">=": a >= b, "<": a < b, ">": a > b}[op]

    def contains(version: str) -> bool:
        parts = tuple(int(x) for x in version.split("."))
        return all(holds(parts, op, release, star) for op, release, star in clauses)

    return contains


@dataclass
class Runtime:
    language: str
    minimum: str | None = None  # oldest version the project supports ("3.8", "18", "1.70")
    maximum: str | None = None  # newest seen (CI matrix)
    sources: list[str] = field(default_factory=list)  # where each fact came from
    facts: dict[str, str] = field(default_factory=dict)  # module type, edition, tfms, ...


def _vkey(v: str) -> tuple[int, ...]:
    return tuple(int(x) for x in re.findall(r"\d+", v)[:3])


def _add(rt: Runtime, versions: list[str], source: str) -> None:
    versions = [v for v in versions if re.match(r"^\d+(\.\d+)*$", v)]
    if not versions:
        return
    lo, hi = min(versions, key=_vkey), max(versions, key=_vkey)
    if rt.minimum is None or _vkey(lo) < _vkey(rt.minimum):
        rt.minimum = lo
    if rt.maximum is None or _vkey(hi) > _vkey(rt.maximum):
        rt.maximum = hi
    rt.sources.append(source)


def _read(root: Path, rel: str) -> str | None:
    try:
        return (root / rel).read_text(encoding="utf-8-sig", errors="replace")
    except OSError:
        return None


def _matrix_values(project: Project, keys: tuple[str, ...]) -> list[str]:
    """Runtime versions named in CI workflows (matrix lists and setup-* inputs)."""
    out: list[str] = []
    for rel in project.ci_files:
        text = _read(project.root, rel)
        if text:
            out.extend(_workflow_values(text, keys))
    return [v for v in out if "${{" not in v]


# a key of a workflow mapping, at a line's start (after a list dash), or inside a flow
# mapping `{a: 1, key: 2}`; group 2 is the key
_WORKFLOW_KEY = lazy(
    r"(?:^[ \t]*(?:-[ \t]+)?|[{,][ \t]*)([\"']?)([\w.-]+)\1[ \t]*:(?=[ \t]|$)", re.M
)
_FLOW_ITEM = lazy(r"[ \t]*(\"[^\"]*\"|'[^']*'|[^,\]}\n]*)")
_BLOCK_TEXT = lazy(r":[ \t]*[|>][-+0-9]*[ \t]*(?:#.*)?$")  # `key: |` opens a block of text


@lru_cache(maxsize=64)
def _workflow_values(text: str, keys: tuple[str, ...]) -> tuple[str, ...]:
    """The scalar values of `keys` anywhere in one workflow's text, read from the text:
    `key: 3.10`, `key: [3.9, "3.10"]`, a block list under `key:`, `{key: '3.8', …}`, the
    lines of `key: |`. Keys inside another key's block of text (a `run: |` script) are
    not keys. No YAML parser: importing and running one cost a short run more than its
    analysis, and a parser reads an unquoted `3.10` as the number 3.1, which is not what
    the workflow's author meant."""
    lines = text.split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = without_comment(lines[i])
        found = [m for m in _WORKFLOW_KEY.finditer(line) if m.group(2) in keys]
        body, i = _text_block(lines, i)
        for m in found:
            if body is not None and _BLOCK_TEXT.search(line):
                out.extend(b.strip() for b in body if b.strip())
            else:
                out.extend(_values_after(line, m, lines[i:]))
    return tuple(v for v in out if v)


def _text_block(lines: list[str], i: int) -> tuple[list[str] | None, int]:
    """The body of the block of text that line `i` opens (None when it opens none) and the
    index of the next line to read."""
    if not _BLOCK_TEXT.search(without_comment(lines[i])):
        return None, i + 1
    indent = _indent_of(lines[i])
    j = i + 1
    while j < len(lines) and (not lines[j].strip() or _spaces(lines[j]) > indent):
        j += 1
    return lines[i + 1 : j], j


def _values_after(line: str, m: re.Match[str], following: list[str]) -> list[str]:
    """The value(s) that follow one matched key on `line`."""
    value = line[m.end() :].strip()
    if value.startswith("["):
        body = "\n".join([value[1:], *following]).split("]", 1)[0]
        return [_scalar(i.group(1)) for i in _FLOW_ITEM.finditer(body) if i.group(1).strip()]
    if value.startswith(("{", "&", "*")):
        return []  # a mapping, an anchor, an alias: not a version list
    if value:
        if m.group(0).lstrip()[:1] in ("{", ","):  # inside a flow mapping
            value = re.split(r"[,}]", value, maxsplit=1)[0]
        return [_scalar(value)]
    return _block_list(following, _indent_of(line))


def _block_list(following: list[str], indent: int) -> list[str]:
    """The `- item` lines of a key's block list: indented deeper than the key, or as deep
    (YAML lets a list sit at its key's indentation)."""
    out: list[str] = []
    for raw in following:
        line = without_comment(raw)
        if not line.strip():
            continue
        item = line.strip()
        deep = _spaces(line)
        if deep < indent or not item.startswith("-") or (deep == indent and item[:2] != "- "):
            break
        item = item[1:].strip()
        if item and ":" not in item.replace("::", ""):
            out.append(_scalar(item))
    return out


def _spaces(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


def _indent_of(line: str) -> int:
    """The indentation of the key on `line` (a list dash before it counts as indentation)."""
    stripped = line.lstrip(" \t")
    if stripped.startswith("- "):
        return len(line) - len(stripped[1:].lstrip(" \t"))
    return len(line) - len(stripped)


def without_comment(line: str) -> str:
    """`line` up to an unquoted `#` that starts a word: a YAML or shell comment (a `#` inside
    quotes stays). A workflow's `pip install -e .  # editable` must not install `#`."""
    quote = ""
    for i, ch in enumerate(line):
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "\"'":
            quote = ch
        elif ch == "#" and (i == 0 or line[i - 1] in " \t"):
            return line[:i]
    return line


def _scalar(value: str) -> str:
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        return value[1:-1]
    return value


def lower_bound_of_specifier(spec: str) -> str | None:
    """ ">=3.8,<4" → "3.8"; "^3.9" / "~3.9" (Poetry) → "3.9"; ">3.7" → "3.8"."""
    best = None
    for m in re.finditer(r"(>=|>|\^|~=|~|==)\s*(\d+(?:\.\d+)*)", spec):
        op, v = m.groups()
        if op == ">":
            parts = [int(x) for x in v.split(".")] + [0]
            v = f"{parts[0]}.{parts[1] + 1}" if len(v.split(".")) >= 2 else str(parts[0] + 1)
        if best is None or _vkey(v) > _vkey(best):
            best = v
    return best


def lower_bound_of_npm_range(spec: str) -> str | None:
    """npm ranges join alternatives with `||`: the oldest alternative's floor is the range's
    ("^16.10.0 || >=17.0.0" → "16.10", not 17). An alternative without a floor (`*`, `<20`)
    has none, so neither has the range."""
    floors = [lower_bound_of_specifier(alt) for alt in spec.split("||")]
    if not floors or any(f is None for f in floors):
        return None
    return min(floors, key=_vkey)


def python_runtime(project: Project, override: str | None = None) -> Runtime:
    """The Python versions the project supports. `requires-python` is the authority: the
    oldest minor it allows is the minimum (classifiers then only widen the newest seen);
    without it, classifiers, the CI matrix, `.python-version`, `runtime.txt`, a Dockerfile."""
    rt = Runtime("python")
    if override:
        _add(rt, [override], "--python")
        return rt
    declared: list[str] = []
    classified: list[tuple[list[str], str]] = []
    for m in project.manifests_of(Ecosystem.PYPI):
        req = m.data.get("requires_python")
        if isinstance(req, str):
            lo = target_from_requires_python(req)
            if lo:
                declared.append(lo)
                _add(rt, [lo], f"{m.path}: requires-python {req}")
        classes = m.data.get("classifiers") or []
        vers = [c for c in classes if re.match(r"^\d+\.\d+$", str(c))]
        if vers:
            classified.append((vers, f"{m.path}: classifiers"))
    for vers, source in classified:
        if declared:  # requires-python bounds from below; classifiers add newer versions
            vers = [v for v in vers if _vkey(v) >= _vkey(min(declared, key=_vkey))]
        _add(rt, vers, source)
    if rt.minimum is None:
        _add(rt, [v for v in _matrix_pythons(project) if re.match(r"^3\.\d+$", v)], "CI matrix")
    for name in (".python-version", "runtime.txt"):
        text = _read(project.root, name)
        if text and rt.minimum is None:
            m = re.search(r"(3\.\d+)", text)
            if m:
                _add(rt, [m.group(1)], name)
    if rt.minimum is None:
        text = _read(project.root, "Dockerfile")
        m = re.search(r"^FROM\s+python:(3\.\d+)", text or "", re.M)
        if m:
            _add(rt, [m.group(1)], "Dockerfile")
    return rt


def _matrix_pythons(project: Project) -> list[str]:
    """The Python versions the CI workflows name, free-threaded and PyPy ones as their
    CPython version (`3.13t`, `pypy-3.10`)."""
    return [
        v.replace("pypy-", "").rstrip("t")
        for v in _matrix_values(project, ("python-version", "python"))
    ]


def tested_python(project: Project) -> str | None:
    """The newest Python the project says it is tested on: its CI workflows' versions (a
    matrix, setup-python's input), its classifiers, `.python-version`; those its
    requires-python excludes left out ("3.13"; None when nothing names one). The oldest
    supported version is what versions are chosen for; a test job runs on this one, and
    what is written has to install there as well."""
    named = _matrix_pythons(project)
    requires: list[str] = []
    for m in project.manifests_of(Ecosystem.PYPI):
        named += [str(c) for c in m.data.get("classifiers") or []]
        req = m.data.get("requires_python")
        if isinstance(req, str):
            requires.append(req)
    text = _read(project.root, ".python-version")
    if text:
        named += re.findall(r"(?m)^\s*(3\.\d+)", text)
    versions = {v for v in named if re.match(r"^3\.\d+$", v)}
    versions = {v for v in versions if all(_admits(req, v) for req in requires)}
    return max(versions, key=_vkey, default=None)


def _admits(requires_python: str, version: str) -> bool:
    """Whether a requires-python specifier admits "3.N" (True when it cannot be read)."""
    from packaging.specifiers import InvalidSpecifier, SpecifierSet

    try:
        return SpecifierSet(requires_python).contains(f"{version}.0")
    except InvalidSpecifier:
        return True


def node_runtime(project: Project, manifest_data: dict | None = None) -> Runtime:
    rt = Runtime("javascript")
    data = manifest_data or {}
    engines = data.get("engines") or {}
    if isinstance(engines, dict) and isinstance(engines.get("node"), str):
        lo = lower_bound_of_npm_range(engines["node"])
        if lo:
            _add(rt, [lo.split(".")[0]], f"engines.node {engines['node']}")
    for name in (".nvmrc", ".node-version"):
        text = _read(project.root, name)
        m = re.search(r"(\d+)", text or "")
        if m and not rt.minimum:
            _add(rt, [m.group(1)], name)
    if not rt.minimum:
        vals = [re.sub(r"\.x$", "", v) for v in _matrix_values(project, ("node-version", "node"))]
        _add(rt, [v for v in vals if re.match(r"^\d+$", v)], "CI matrix")
    rt.facts["type"] = str(data.get("type") or "commonjs")
    return rt


def rust_runtime(project: Project) -> Runtime:
    rt = Runtime("rust")
    for m in project.manifests_of(Ecosystem.CRATES):
        rv = m.data.get("rust_version") or m.data.get("rust-version")
        if isinstance(rv, str):
            _add(rt, [rv], f"{m.path}: rust-version")
        ed = m.data.get("edition")
        if isinstance(ed, str):
            rt.facts["edition"] = max(rt.facts.get("edition", ed), ed)
    for name in ("rust-toolchain.toml", "rust-toolchain"):
        text = _read(project.root, name)
        if not text:
            continue
        try:
            channel = tomllib.loads(text).get("toolchain", {}).get("channel", "")
        except tomllib.TOMLDecodeError:
            channel = text.strip()
        if re.match(r"^\d+\.\d+", channel) and not rt.minimum:
            _add(rt, [channel], name)
    return rt


def dotnet_runtime(project: Project) -> Runtime:
    rt = Runtime("csharp")
    tfms: set[str] = set()
    for m in project.manifests_of(Ecosystem.NUGET):
        for key in ("TargetFramework", "TargetFrameworks"):
            val = m.data.get(key)
            if isinstance(val, str):
                tfms.update(t.strip() for t in val.split(";") if t.strip() and "$" not in t)
    rt.facts["tfms"] = ";".join(sorted(tfms))
    nums = [m.group(1) for t in tfms if (m := re.match(r"^net(\d+\.\d+)$", t))]
    _add(rt, nums, "TargetFramework")
    text = _read(project.root, "global.json")
    if text:
        try:
            sdk = json.loads(text).get("sdk", {}).get("version")
        except ValueError:
            sdk = None
        if sdk:
            rt.facts["sdk"] = sdk
    return rt
