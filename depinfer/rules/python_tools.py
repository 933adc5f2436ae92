"""Tools a Python project uses without importing them: candidates from evidence.

A project that runs `flake8 .` in its CI, `coverage run -m pytest` in tox, `black --check`
in a Makefile, that configures `[tool.mypy]` or `[flake8]`, or builds its documentation
with Sphinx (docs/conf.py, its `extensions` and `html_theme`) uses those tools. Whether
its maintainers also list them in a manifest is a habit, not a fact: the candidates made
here carry the evidence (rule `tool:<where>`, where = ci, commands, tool-config,
docs-config) and the declare model (rules/python_declare.py) decides whether they are
written. Tables: data/python/executables.toml (command → distribution, from the
distributions' console_scripts), data/python/tool_evidence.toml (configuration → tool,
from each tool's documentation).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterator
from functools import lru_cache
from pathlib import PurePosixPath
from typing import Any

from depinfer import toml_compat
from depinfer.data import load_table
from depinfer.facts.python import DependencyFacts
from depinfer.mapping.python_index import canonical, load_index
from depinfer.mapping.python_manifests import ManifestLayout
from depinfer.model import Candidate, Ecosystem, Evidence, FileKind, Project, Section
from depinfer.patterns import lazy
from depinfer.toml_compat import tomllib

Found = tuple[str, str, str, int, str]  # (dist, where, file, line, detail)

_SEPARATORS = lazy(r"&&|\|\||;|\|")
_ENV_ASSIGNMENT = lazy(r"^[A-Za-z_][A-Za-z0-9_]*=")
_PYTHON = lazy(r"^(?:python[0-9.]*|py)$")
# words that run the next word in an environment of their own (`poetry run flake8`)
_RUNNERS = {"poetry", "uv", "pipenv", "pdm", "hatch", "rye"}
_SESSION_RUN = lazy(r"session\.run\(\s*[\"']([^\"']+)[\"']")
_YAML_PREFIX = lazy(r"^\s*(?:-\s+)?(?:run:\s*[|>]?-?\s*)?")


@lru_cache(maxsize=1)
def executables() -> dict[str, str]:
    """Command name → distribution (data/python/executables.toml)."""
    return dict(load_table("python/executables.toml")["executables"])


@lru_cache(maxsize=1)
def tool_table() -> dict[str, Any]:
    return load_table("python/tool_evidence.toml")


def command_tools(line: str) -> list[str]:
    """Distributions whose commands one shell line runs (`coverage run -m pytest` →
    coverage, pytest; `poetry run black .` → black; `python -m mypy` → mypy)."""
    out: list[str] = []
    for part in _SEPARATORS.split(line):
        words = [w.strip("\"'`") for w in part.split()]
        while words and (_ENV_ASSIGNMENT.match(words[0]) or words[0] in ("sudo", "exec", "@")):
            words.pop(0)
        if len(words) >= 2 and words[0] in _RUNNERS and words[1] in ("run", "exec"):
            words = words[2:]
        if not words:
            continue
        first = words[0].lstrip("@-")
        if _PYTHON.match(first) and len(words) > 2 and words[1] == "-m":
            first = words[2]
        dist = executables().get(first)
        if dist:
            out.append(dist)
        for i, w in enumerate(words[1:-1], 1):  # `coverage run -m pytest`
            if w == "-m" and i > 1 and words[i + 1] in executables():
                out.append(executables()[words[i + 1]])
    return list(dict.fromkeys(out))


def _command_lines(rel: str, text: str) -> Iterator[tuple[int, str]]:
    """The lines of a CI workflow, tox.ini, noxfile, Makefile or justfile that may run a
    command, with their numbers."""
    name = PurePosixPath(rel).name
    for number, raw in enumerate(text.splitlines(), 1):
        if raw.lstrip().startswith("#"):
            continue
        if name == "noxfile.py":
            for m in _SESSION_RUN.finditer(raw):
                yield number, m.group(1)
            continue
        if name in ("Makefile", "makefile", "GNUmakefile") and not raw.startswith("\t"):
            continue
        line = _YAML_PREFIX.sub("", raw, count=1) if rel.endswith((".yml", ".yaml")) else raw
        line = re.sub(r"^\s*commands\s*=", "", line)
        yield number, line.strip()


def from_commands(
    files: list[tuple[str, str]], text_of: Callable[[str], str | None]
) -> list[Found]:
    """Tools the CI workflows and command files (tox, nox, Makefile, justfile) run."""
    out: list[Found] = []
    for rel, where in files:
        for number, line in _command_lines(rel, text_of(rel) or ""):
            for dist in command_tools(line):
                out.append((dist, where, rel, number, f"runs `{line[:60]}`"))
    return out


def _pyproject_tables(text: str) -> set[str]:
    try:
        doc = toml_compat.loads(text)
    except (tomllib.TOMLDecodeError, ValueError):
        return set()
    out: set[str] = set()

    def walk(node: Any, prefix: str) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                name = f"{prefix}.{key}" if prefix else key
                if isinstance(value, dict):
                    out.add(name)
                    walk(value, name)

    walk(doc, "")
    return out


def _ini_sections(text: str) -> set[str]:
    import configparser  # lazy: only trees with an ini file

    parser = configparser.RawConfigParser(strict=False)
    try:
        parser.read_string(text)
    except configparser.Error:
        return set()
    return set(parser.sections())


def tool_file_names() -> set[str]:
    """The tools' own configuration file names (`.flake8`, `.coveragerc`, `mypy.ini`)."""
    return {name for row in tool_table().get("tool", []) for name in row.get("files", ())}


def from_tool_config(files: list[str], text_of: Callable[[str], str | None]) -> list[Found]:
    """Tools whose configuration the project keeps (`[tool.black]`, setup.cfg `[flake8]`,
    `.coveragerc`, `mypy.ini`): data/python/tool_evidence.toml."""
    out: list[Found] = []
    for rel in files:
        name = PurePosixPath(rel).name
        if name == "pyproject.toml":
            sections, key = _pyproject_tables(text_of(rel) or ""), "pyproject"
        elif name in ("setup.cfg", "tox.ini", "pytest.ini"):
            sections, key = _ini_sections(text_of(rel) or ""), "ini"
        else:
            sections, key = set(), ""
        for row in tool_table().get("tool", []):
            if name in row.get("files", ()):
                out.append((row["dist"], "tool-config", rel, 1, f"configured in {name}"))
            elif key and set(row.get(key, ())) & sections:
                section = sorted(set(row[key]) & sections)[0]
                out.append((row["dist"], "tool-config", rel, 1, f"[{section}] in {name}"))
    return out


def from_docs_conf(files: list[str], text_of: Callable[[str], str | None]) -> list[Found]:
    """Sphinx and the extensions and theme a docs/conf.py names."""
    docs = tool_table()["docs"]
    out: list[Found] = []
    index = load_index()
    for rel in files:
        if PurePosixPath(rel).name != docs["conf"] or "doc" not in rel.lower():
            continue
        text = text_of(rel) or ""
        out.append((docs["builder"], "docs-config", rel, 1, "builds the documentation"))
        for number, module in _conf_modules(text):
            if module.startswith(docs["builtin_prefix"]) or module in docs["default_themes"]:
                continue
            match = index.lookup(module)
            if match is not None and match.providers:
                dist = match.chosen or match.providers[0]
                out.append((dist, "docs-config", rel, number, f"Sphinx extension/theme {module}"))
    return out


def _conf_modules(text: str) -> list[tuple[int, str]]:
    """(line, module) of `extensions = [...]` and `html_theme = "..."` in a conf.py."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return []
    out: list[tuple[int, str]] = []
    for node in tree.body:
        if not isinstance(node, (ast.Assign, ast.AugAssign)):
            continue
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        names = {t.id for t in targets if isinstance(t, ast.Name)}
        if not names & {"extensions", "html_theme"}:
            continue
        for sub in ast.walk(node.value):
            if isinstance(sub, ast.Constant) and isinstance(sub.value, str) and sub.value:
                out.append((node.lineno, sub.value.split(".")[0] if "html_theme" in names
                            else sub.value))  # fmt: skip
    return out


def candidates(
    project: Project,
    families: dict[str, list[tuple[str, FileKind]]],
    text_of: Callable[[str], str | None],
    layout: ManifestLayout,
) -> list[Candidate]:
    """A dev candidate for each tool found (one per tool and manifest)."""
    command_files = [(rel, "ci") for rel, _ in families["ci"]]
    command_files += [(rel, "commands") for rel, _ in families["commands"]]
    config = sorted({rel for rel, _ in families["config"] + families["pytest-config"]})
    config += [rel for rel, _ in families["tool-files"]]
    found = from_commands(command_files, text_of)
    found += from_tool_config(config, text_of)
    found += from_docs_conf([rel for rel, _ in families["python"]], text_of)
    out: list[Candidate] = []
    seen: set[tuple[str, str, str]] = set()
    for dist, where, rel, line, detail in found:
        folder = layout.folder_of(rel)
        if folder is None or not (folder.runtime or folder.all):
            continue
        manifest = (folder.runtime or folder.all)[0]
        key = (canonical(dist), manifest.path, where)
        if key in seen:
            continue
        seen.add(key)
        out.append(
            Candidate(
                ecosystem=Ecosystem.PYPI,
                name=dist,
                manifest=manifest.path,
                section=Section.DEV,
                evidence=[Evidence(f"tool:{where}", rel, line, detail)],
                confidence=0.5,
                verified=True,
                kinds=("docs",) if where == "docs-config" else ("config",),
                facts=DependencyFacts(folder=folder.directory, rule=f"tool:{where}"),
            )
        )
    return out
