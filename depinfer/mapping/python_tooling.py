"""Every other place a Python project declares what it installs, for check mode.

Manifests are read by the scanner; tooling environments are not manifests but still say
"this project installs X": tox `deps`, nox `session.install(...)`, hatch environments
(`dependencies` / `extra-dependencies` in hatch.toml or `[tool.hatch.envs.*]`), CI
workflow `pip install` lines, pixi features, and the requirements files any of those (or
another requirements file, with `-r`) names — wherever they live (requirements.d/dev.txt).
A name found in one of them is declared for development: check mode does not call it
missing, and reports it as misplaced (DEP004) when shipped code needs it at run time.
"""

from __future__ import annotations

import posixpath
import re
import shlex
import weakref

from depinfer import toml_compat
from depinfer.manifests.requirements import is_compiled as compiled_text
from depinfer.manifests.requirements import read as read_requirements
from depinfer.mapping.python_index import canonical
from depinfer.model import Ecosystem, Project
from depinfer.patterns import lazy
from depinfer.registries.names import comparable
from depinfer.scan import source_text

# a requirement's name at the start of a word (`pytest>=7`, `pytest[cov]`, `"pytest"`)
_NAME = lazy(r"^[\"']?([A-Za-z0-9][A-Za-z0-9._-]*)")
_PIP_INSTALL = lazy(r"\bpip3?\s+install\b(.*)$|\buv\s+pip\s+install\b(.*)$")
_SESSION_INSTALL = lazy(r"session\.install\(([^)]*)\)", re.S)
_STRING = lazy(r"[\"']([^\"']+)[\"']")


def _canon(name: str) -> str:
    return comparable(Ecosystem.PYPI.value, name)


def _read(project: Project, rel: str) -> str | None:
    try:
        text = project.abspath(rel).read_text(encoding="utf-8-sig", errors="replace")
    except OSError:
        return None
    return text if len(text) < 500_000 else None


def _words_to_names(
    words: list[str], base: str, files: set[str], out: dict[str, str], where: str
) -> None:
    """pip-style arguments: names go to `out`, `-r FILE` files to `files`."""
    it = iter(words)
    for w in it:
        if w in ("-r", "--requirement", "-c", "--constraint"):
            target = next(it, "")
            if w in ("-r", "--requirement") and target:
                files.add(_join(base, target))
            continue
        if w.startswith(("-r", "--requirement=")) and len(w) > 2:
            files.add(_join(base, w.split("=", 1)[-1] if "=" in w else w[2:]))
            continue
        if w.startswith(("-", ".", "/", "{", "$")) or "://" in w:
            continue
        m = _NAME.match(w)
        if m:
            out.setdefault(_canon(m.group(1)), where)


def _join(base: str, target: str) -> str:
    target = re.sub(r"\{toxinidir\}/?|\$\{?\w+\}?/?", "", target.strip("\"'"))
    return posixpath.normpath(posixpath.join(base, target))


def _tox(project: Project, files: set[str], out: dict[str, str]) -> None:
    text = _read(project, "tox.ini") if project.abspath("tox.ini").is_file() else None
    if text is None:
        return
    in_deps = False
    for line in text.splitlines():
        content = line.split("#", 1)[0].strip()
        if not content:
            continue
        if not line[:1].isspace():  # a new key or section ends a multi-line value
            in_deps = bool(re.match(r"^deps\s*[=:]", content))
            content = re.split(r"[=:]", content, maxsplit=1)[1].strip() if in_deps else ""
        if in_deps and content:
            content = re.sub(r"^[\w,{}.-]+:\s+", "", content)  # factor-conditional deps
            try:
                words = shlex.split(content)
            except ValueError:
                continue
            _words_to_names(words, "", files, out, "tox.ini")


def _nox(project: Project, files: set[str], out: dict[str, str]) -> None:
    text = _read(project, "noxfile.py") if project.abspath("noxfile.py").is_file() else None
    for m in _SESSION_INSTALL.finditer(text or ""):
        _words_to_names(_STRING.findall(m.group(1)), "", files, out, "noxfile.py")


def _hatch(project: Project, out: dict[str, str]) -> None:
    for rel, path in (("hatch.toml", ("envs",)), ("pyproject.toml", ("tool", "hatch", "envs"))):
        if not project.abspath(rel).is_file():
            continue
        try:
            doc = toml_compat.loads(_read(project, rel) or "")
        except ValueError:
            continue
        for key in path:
            doc = doc.get(key) if isinstance(doc, dict) else None
        if isinstance(doc, dict):
            for env in doc.values():
                if isinstance(env, dict):
                    for key in ("dependencies", "extra-dependencies"):
                        for spec in env.get(key) or []:
                            m = _NAME.match(str(spec))
                            if m:
                                out.setdefault(_canon(m.group(1)), rel)


def _ci(project: Project, files: set[str], out: dict[str, str]) -> None:
    for rel in project.ci_files:
        for line in (_read(project, rel) or "").splitlines():
            _pip_line(line, files, out, rel)


def _pip_line(line: str, files: set[str], out: dict[str, str], where: str) -> None:
    """A `pip install` / `uv pip install` line: its names to `out`, its `-r` files to `files`."""
    m = _PIP_INSTALL.search(line.split(" #", 1)[0])
    if not m:
        return
    try:
        words = shlex.split(m.group(1) or m.group(2) or "")
    except ValueError:
        return
    words = [w for w in words if not w.startswith(("&", "|", ";"))]
    _words_to_names(words, "", files, out, where)


def installed_requirement_files(lines: list[str]) -> list[str]:
    """The requirements files install lines (a test job's) name with `-r`, line by line."""
    out: list[str] = []
    for line in lines:
        files: set[str] = set()
        _pip_line(line, files, {}, "")
        out += [f for f in sorted(files) if f not in out]
    return out


def ci_requirement_files(project: Project) -> set[str]:
    """The hand-written requirements files a CI workflow installs with `pip install -r`
    (the test job's environment, where a test need must go to be installed); a compiled
    lock is its compiler's to regenerate."""
    files: set[str] = set()
    _ci(project, files, {})
    return {f for f in files if not is_compiled(project, f)}


# Tools that make a project's environment themselves (from its groups, extras or their own
# files) when a CI step runs them
ENVIRONMENT_MANAGERS = (
    "tox", "nox", "poetry", "pipenv", "hatch", "pdm", "conda", "mamba", "micromamba", "rye",
)  # fmt: skip
# What in a workflow may install a project's extras or dependency groups: `.[test]`, an
# installer's extra/group options, or a tool that reads the groups itself
_INSTALLS_EXTRAS = lazy(
    r"\.\[|--(?:all-)?extras?\b|--(?:all-)?groups?\b|--with\b|--only\b|"
    rf"\b(?:{'|'.join((*ENVIRONMENT_MANAGERS, 'pixi'))})\b|\buv\s+sync\b"
)


def ci_installs_only_plain(project: Project) -> bool:
    """The CI workflows install requirements files and the project without its extras or
    groups (`pip install -r requirements.txt`, `pip install .`) and nothing that could
    install those: a name the manifests list only in an extra or a group is not in the
    test job's environment."""
    texts = [source_text(project, rel) for rel in project.ci_files]  # read once a run
    return bool(texts) and not any(_INSTALLS_EXTRAS.search(t) for t in texts)


def is_compiled(project: Project, rel: str) -> bool:
    """The requirements file carries a compiler's header (a lock, not a hand-written list)."""
    return compiled_text(_read(project, rel) or "")


def _requirements_files(project: Project, files: set[str], out: dict[str, str]) -> None:
    """Requirements files named anywhere, and those they include with `-r`, transitively."""
    manifests = project.manifests_of(Ecosystem.PYPI)
    projects = {m.directory for m in manifests if m.format != "requirements" and m.directory}
    for m in manifests:
        # a requirements file of a nested project (examples/celery/) is that project's own
        if m.format == "requirements" and not any(
            m.directory == d or m.directory.startswith(d + "/") for d in projects
        ):
            files.add(m.path)
    files.update(_requirements_folders(project))
    seen: set[str] = set()
    todo = sorted(files)
    while todo:
        rel = todo.pop()
        if rel in seen:
            continue
        seen.add(rel)
        text = _read(project, rel) if project.abspath(rel).is_file() else None
        if text is None:
            continue
        try:
            declared, data = read_requirements(text, rel)
        except Exception:  # a file pip cannot read either: nothing declared there
            continue
        for name in declared.get("dependencies", []):
            out.setdefault(_canon(name), rel)
        todo.extend(_includes(data))  # the reader resolves them against the file's folder


def _requirements_folders(project: Project) -> list[str]:
    """`*.txt` / `*.in` in top-level folders named for requirements (requirements.d/,
    reqs-dev/), which the scanner does not take for manifests."""
    out = []
    try:
        folders = [p for p in project.root.iterdir() if p.is_dir()]
    except OSError:
        return out
    for folder in folders:
        if re.match(r"^req(uirement)?s?([._-]\w+)?$", folder.name, re.I):
            out += sorted(
                f"{folder.name}/{f.name}"
                for f in folder.iterdir()
                if f.is_file() and f.suffix in (".txt", ".in")
            )
    return out


def _includes(data: dict | None) -> list[str]:
    """`-r` files (constraint files install nothing)."""
    data = data or {}
    constraints = set(data.get("constraints") or [])
    return [str(i) for i in data.get("includes") or [] if i not in constraints]


# The last project's answer: the rules, the resolver and check each ask for it in one run
# (the project is read-only after scan; its object, held weakly, and its sizes key it).
_LAST: tuple[weakref.ref, tuple[int, int, int], dict[str, str]] | None = None


def tooling_declarations(project: Project) -> dict[str, str]:
    """canonical name → the file (tox.ini, a workflow, requirements.d/dev.txt …) that
    installs it for development, from every place above."""
    global _LAST
    sizes = (len(project.files), len(project.manifests), len(project.ci_files))
    if _LAST is not None and _LAST[0]() is project and _LAST[1] == sizes:
        return dict(_LAST[2])
    out = _tooling_declarations(project)
    _LAST = (weakref.ref(project), sizes, dict(out))
    return out


def _tooling_declarations(project: Project) -> dict[str, str]:
    out: dict[str, str] = {}
    files: set[str] = set()
    _tox(project, files, out)
    _nox(project, files, out)
    _hatch(project, out)
    _ci(project, files, out)
    _requirements_files(project, files, out)
    for name in sorted(pixi_feature_names(project)):
        out.setdefault(name, "pixi.toml")
    return out


def pixi_feature_names(project: Project) -> set[str]:
    """Names the repository's pixi.toml installs in its feature environments
    (`[feature.test.dependencies]`, `[feature.<name>.pypi-dependencies]`; pixi
    documentation, The pixi.toml manifest: features): environments the maintainers test
    optional features in, like extras or dependency groups (dask's h5py, numba), per
    platform too (`[feature.x.target.linux-64.dependencies]`). Conda names mostly equal the
    PyPI ones; what the package's run-dependencies or the default environment list is left
    out, whichever feature repeats it (a minimum-versions feature)."""
    try:
        doc = toml_compat.loads(project.abspath("pixi.toml").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return set()
    features = doc.get("feature")
    out: set[str] = set()
    if not isinstance(features, dict):
        return out
    for feature in features.values():
        if not isinstance(feature, dict):
            continue
        targets = feature.get("target")
        tables = [feature, *(targets.values() if isinstance(targets, dict) else ())]
        for table in tables:
            for key in ("dependencies", "pypi-dependencies"):
                deps = table.get(key) if isinstance(table, dict) else None
                if isinstance(deps, dict):
                    out.update(canonical(str(n)) for n in deps)
    # what the package itself runs with (`[package.run-dependencies]`) and the default
    # environment are not optional, whichever feature repeats them (minimum versions)
    package = doc.get("package") if isinstance(doc.get("package"), dict) else {}
    for table in (
        package.get("run-dependencies"),
        doc.get("dependencies"),
        doc.get("pypi-dependencies"),
    ):
        if isinstance(table, dict):
            out -= {canonical(str(n)) for n in table}
    return out
