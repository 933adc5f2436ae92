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
    from packaging.specifiers import InvalidSpecifier, SpecifierSet  # lazy (above)

    try:
        allowed = SpecifierSet(spec)
    except InvalidSpecifier:
        return None
    return lambda version: allowed.contains(version, prereleases=True)


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


@lru_cache(maxsize=64)
def _workflow_values(text: str, keys: tuple[str, ...]) -> tuple[str, ...]:
    """The values of `keys` anywhere in one workflow's text; each text parsed once per
    run (a run asks for the project's Python versions several times, and PyYAML's parser
    costs a short run more than its analysis)."""
    import yaml

    out: list[str] = []

    def walk(node: object) -> None:
        if isinstance(node, dict):
            for k, v in node.items():
                if k in keys:
                    vals = v if isinstance(v, list) else [v]
                    out.extend(str(x) for x in vals if not isinstance(x, dict | list))
                walk(v)
        elif isinstance(node, list):
            for x in node:
                walk(x)

    try:
        walk(yaml.safe_load(text))
    except yaml.YAMLError:
        return ()
    return tuple(out)


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
        vals = [
            v.replace("pypy-", "").rstrip("t")
            for v in _matrix_values(project, ("python-version", "python"))
        ]
        _add(rt, [v for v in vals if re.match(r"^3\.\d+$", v)], "CI matrix")
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
