"""Python implicit dependencies: what the code needs without importing it.

The knowledge is the table in `data/python/implicit.json` (each rule with a one-line why
and its documentation link); this module only applies it. Two kinds of trigger:
- `imports_regex`: a regex over imported module names (a family: every `azure.*.aio`);
- `imports`: a module prefix imported somewhere (`google.auth.transport.requests` needs
  requests installed), unless the import brings only the `unless_only_names` (importing
  `ZoneInfoNotFoundError` to catch it reads no time zone);
- `text`: a regular expression over a family of files — pytest configuration and CI
  workflows (`--cov` → pytest-cov), Python sources
  (`df.to_parquet(` with pandas imported → pyarrow; SQLAlchemy URLs → the driver),
  server files (Procfile, Dockerfile, compose files, gunicorn.conf.py → gunicorn /
  uvicorn) and the deployed app's environment files (.env, .env.example: a postgres://
  DATABASE_URL or Django's postgresql ENGINE → the PostgreSQL driver).
The section is the rule's (`dev` for test tooling, `runtime` for servers) or, for `file`,
follows the triggering file's role like an import would.
pytest plugins the tests use without importing them (`@pytest.mark.anyio`, a `mocker`
parameter, `pytest_plugins = [...]`, `-p NAME`, `asyncio_mode = auto`) are not in that
table: python_pytest.py finds the uses and the generated plugin table
(depinfer/data/python/pytest_plugins.toml) names the plugin. The names a Poetry extras list
holds are optional Poetry dependencies by Poetry's own rule (python_poetry_extras.py).
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import PurePosixPath
from typing import Any

from depinfer.analyzers.python_pytest_uses import PYTEST_SCAN
from depinfer.analyzers.python_trees import forget_trees
from depinfer.context import Context
from depinfer.data import load_table
from depinfer.facts.python import DependencyFacts
from depinfer.filecache import content_key
from depinfer.mapping.python_hosts import runner
from depinfer.mapping.python_manifests import DEV_REQUIREMENT_NAME, ManifestLayout
from depinfer.model import (
    Candidate,
    Ecosystem,
    Evidence,
    FileKind,
    ImportRef,
    Manifest,
    Project,
    Section,
)
from depinfer.patterns import compile_kept, lazy
from depinfer.rules import (
    python_ci_runner,
    python_features,
    python_optional_imports,
    python_poetry_extras,
    python_pytest,
    python_tools,
)
from depinfer.scan import matches_any, path_name, source_text

MAX_BYTES = 1_000_000
SERVER_FILES = ("Procfile", "Dockerfile", "Dockerfile.*", "*.dockerfile", "gunicorn.conf.py",
                "gunicorn_conf.py", "app.yaml", "startup.sh", "entrypoint.sh", "fly.toml",
                "render.yaml", "azure.yaml", "docker-compose*.yml", "docker-compose*.yaml",
                "compose.yml", "compose.yaml", "compose.*.yml", "compose.*.yaml",
                # systemd units: ExecStart= names the server (systemd.service(5))
                "*.service")  # fmt: skip
# the environment the deployed app reads (.env, .env.example, .env.dev-sample, prod.env)
DEPLOY_ENV_FILES = (".env", ".env.*", "*.env")
PYTEST_CONFIG = ("pytest.ini", "tox.ini", "setup.cfg", "pyproject.toml", "noxfile.py")
COMMAND_FILES = ("tox.ini", "noxfile.py", "Makefile", "justfile", "hatch.toml")
REQUIREMENT_FILES = ("*requirements*.txt", "*requirements*.in", "pipfile", "environment*.yml")


@lru_cache(maxsize=1)
def rules() -> list[dict[str, Any]]:
    data = load_table("python/implicit.json")
    return [dict(rule) for rule in data["rules"]]


def infer(
    project: Project, refs: list[ImportRef], candidates: list[Candidate], ctx: Context
) -> list[Candidate]:
    """Candidates the table's rules add (each rule fires on what its TRIGGERS find), the
    pytest plugins the tests use, and the names a Poetry extras list holds."""
    out = list(candidates)
    layout = ManifestLayout(project)
    repo = _Repo.of(project, refs, ctx)
    repo.folder_key = lambda rel: getattr(layout.folder_of(rel), "directory", None)
    for rule in rules():
        hits = _hits(rule, repo)
        if not hits:
            continue
        installed = None
        if rule["section"] == "runtime" and "server" in rule.get("files", []):
            image = _image_installs(repo.families, repo.text_of, rule["dist"])
            if image:
                # `RUN pip install gunicorn /app[server]`: the image brings the server itself
                ctx.info(f"{rule['dist']}: the image installs it itself ({image}); not written")
                continue
            installed = _image_requirements(project, repo.families, repo.text_of)
        for group in _by_folder(hits, repo.folder_key):
            _emit(rule, group, layout, out, ctx, installed)
    for rule, hits in python_optional_imports.fired(refs):
        _emit(rule, hits, layout, out, ctx)
    _pytest_plugins(project, refs, repo.families, repo.text_of, layout, out, ctx)
    out.extend(python_poetry_extras.candidates(project))
    out.extend(python_tools.candidates(project, repo.families, repo.text_of, layout))
    out.extend(python_ci_runner.candidates(project, layout))
    return python_features.annotate(project, refs, out, layout, ctx)


Hit = tuple[str, int, FileKind]  # (file, line, the file's role) where a rule fired


def _by_folder(hits: list[Hit], folder_key: Callable[[str], str | None]) -> list[list[Hit]]:
    """The hits grouped by the manifest folder that owns each file, in order of first hit:
    a rule's fact holds for every project it fires in (each service of a monorepo whose
    Dockerfile runs uvicorn), not only for the first one found."""
    groups: dict[str | None, list[Hit]] = {}
    for hit in hits:
        groups.setdefault(folder_key(hit[0]), []).append(hit)
    return list(groups.values())


@dataclass
class _Repo:
    """What the rules read of one repository, each at most once."""

    project: Project
    refs: list[ImportRef]
    families: dict[str, list[tuple[str, FileKind]]]  # the files each rule family reads
    roots: set[str]  # top-level modules imported anywhere
    # modules some code needs: imported outside try/except ImportError and TYPE_CHECKING
    required_roots: set[str]
    texts: dict[str, str | None] = field(default_factory=dict)
    declared: set[str] | None = None
    # the manifest folder owning a file (a text rule's first match counts once per folder)
    folder_key: Callable[[str], str | None] = lambda rel: ""
    ctx: Context | None = None
    # the patterns of the text rules that read sources and that the imports leave live,
    # and per Python source: (pattern, python) → line of its first active match, made on
    # the first question (TEXT_SCAN)
    source_patterns: dict[tuple[str, bool], None] | None = None
    source_matches: dict[str, dict[tuple[str, bool], int]] | None = None

    @classmethod
    def of(cls, project: Project, refs: list[ImportRef], ctx: Context | None = None) -> _Repo:
        return cls(
            project=project,
            ctx=ctx,
            refs=refs,
            families=_file_families(project),
            roots={r.module.split(".")[0] for r in refs if not r.relative},
            required_roots={
                r.module.split(".")[0]
                for r in refs
                if not r.relative and not r.optional and not r.type_only
            },
        )

    def text_of(self, rel: str) -> str | None:
        if rel not in self.texts:
            self.texts[rel] = read_small(self.project, rel)
        return self.texts[rel]

    def first_line(self, pattern: str, rel: str, python: bool) -> int | None:
        """Line of the first active match of a rule's pattern in the file (_active_match),
        or None. A Python source is searched for every source-reading rule's pattern at
        once, and the answer kept per content in the analysis cache: a warm run over a big
        tree searches nothing."""
        if self.source_patterns is None:
            self.source_patterns = _source_patterns(self)
        if rel.endswith(".py") and (pattern, python) in self.source_patterns:
            if self.source_matches is None:
                self.source_matches = self._scan_sources()
            found = self.source_matches.get(rel)
            if found is not None:
                return found.get((pattern, python))
        text = self.text_of(rel)
        return _first_line(pattern, text, python) if text else None

    def _scan_sources(self) -> dict[str, dict[tuple[str, bool], int]]:
        patterns = tuple(self.source_patterns or ())
        rels, jobs = [], []
        for rel, _kind in self.families["python"]:
            text = self.text_of(rel) if rel.endswith(".py") else None
            if text:
                rels.append(rel)
                jobs.append((content_key(TEXT_SCAN, text, rel, patterns), (text, patterns)))
        if self.ctx is not None:
            answers = self.ctx.files.answers(TEXT_SCAN, jobs, _source_scan)
        else:
            answers = [(True, _source_scan(*args)) for _key, args in jobs]
        return {rel: found for rel, (ok, found) in zip(rels, answers, strict=True) if ok}

    def declared_anywhere(self) -> set[str]:
        """Every name the Python manifests declare, groups and extras included."""
        if self.declared is None:
            self.declared = {
                _canon(re.split(r"[\s\[<>=!~;(@]", n.strip(), maxsplit=1)[0])
                for m in self.project.manifests_of(Ecosystem.PYPI)
                for key, names in m.declared.items()
                if key != "build-system.requires"
                for n in names
            }
        return self.declared


def _hits(rule: dict[str, Any], repo: _Repo) -> list[Hit]:
    """Where the rule fires: what each of TRIGGERS finds, nothing when one vetoes it."""
    hits: list[Hit] = []
    for trigger in TRIGGERS:
        found = trigger(rule, repo)
        if found is None:
            return []
        hits += found
    return hits


def by_imports(rule: dict[str, Any], repo: _Repo) -> list[Hit] | None:
    """`imports`: a module prefix imported somewhere, unless only the inert names are."""
    if "imports" not in rule:
        return []
    prefix = rule["imports"]
    # names whose import alone does not use the feature (an exception class)
    inert = set(rule.get("unless_only_names") or ())
    hits: list[Hit] = []
    for r in repo.refs:
        if inert and r.names and set(r.names) <= inert:
            continue
        if r.module == prefix or r.module.startswith(prefix + "."):
            hits.append((r.file, r.line, r.kind))
        elif any(f"{r.module}.{n}" == prefix for n in r.names):
            hits.append((r.file, r.line, r.kind))
    return hits


def by_imports_regex(rule: dict[str, Any], repo: _Repo) -> list[Hit] | None:
    """`imports_regex`: a family of modules (`azure.<service>.aio`)."""
    if "imports_regex" not in rule:
        return []
    pattern = compile_kept(rule["imports_regex"])
    return [
        (r.file, r.line, r.kind)
        for r in repo.refs
        if pattern.search(r.module) or any(pattern.search(f"{r.module}.{n}") for n in r.names)
    ]


def by_text(rule: dict[str, Any], repo: _Repo) -> list[Hit] | None:
    """`text`: the first active match in each file family, when the imports it needs are
    there and nothing shows the project chose otherwise (None: the rule is vetoed)."""
    if "text" not in rule:
        return []
    if _text_vetoed(rule, repo):
        return None
    rel_files = [rk for family in rule.get("files", []) for rk in repo.families.get(family, [])]
    unless = rule.get("unless_text")
    if unless is not None and any(
        repo.first_line(unless, rel, False) is not None for rel, _ in rel_files
    ):
        return None  # the files name the choice the rule would guess (a driver in the URL)
    hits: list[Hit] = []
    for family in rule.get("files", []):
        folders: set[str | None] = set()  # the first active match in each manifest folder
        for rel, kind in repo.families.get(family, []):
            line = repo.first_line(rule["text"], rel, rel.endswith(".py"))
            if line is None:
                continue
            folder = repo.folder_key(rel)
            if folder not in folders:
                hits.append((rel, line, kind))
                folders.add(folder)
    return hits


def _text_vetoed(rule: dict[str, Any], repo: _Repo) -> bool:
    """The imports and declarations say the text rule does not apply, whatever the files
    hold."""
    needs = rule.get("needs_import")
    needed = ({needs} if isinstance(needs, str) else set(needs)) if needs else set()
    if needs and not needed & repo.roots:
        return True  # one of these modules must be imported too
    if needs and not needed & repo.required_roots:
        # imported only where it may be missing (openai's pandas proxy): what the
        # call needs is as optional as the library that makes it
        return True
    if set(rule.get("unless_imports") or ()) & repo.roots:
        return True  # the code already imports what the rule would add (or a rival)
    # the project chose (a rival of) it in a group or extra already
    return bool({_canon(n) for n in rule.get("unless_declared") or ()} & repo.declared_anywhere())


TEXT_SCAN = "text-rules"  # its entries' name in the per-file analysis cache


def _source_patterns(repo: _Repo) -> dict[tuple[str, bool], None]:
    """(pattern, python) of every text rule that reads Python sources and that the
    repository's imports do not veto: its `text` as a source is searched (`python`: not
    inside a triple-quoted string), its `unless_text` as plain text."""
    out: list[tuple[str, bool]] = []
    for rule in rules():
        if "text" not in rule or "python" not in rule.get("files", []):
            continue
        if _text_vetoed(rule, repo):
            continue
        out.append((rule["text"], True))
        if "unless_text" in rule:
            out.append((rule["unless_text"], False))
    return dict.fromkeys(out)


def _source_scan(text: str, patterns: tuple[tuple[str, bool], ...]) -> dict[tuple[str, bool], int]:
    """Line of the first active match of each pattern that matches in `text`."""
    out: dict[tuple[str, bool], int] = {}
    for pattern, python in patterns:
        line = _first_line(pattern, text, python)
        if line is not None:
            out[(pattern, python)] = line
    return out


def _first_line(pattern: str, text: str, python: bool) -> int | None:
    m = _active_match(compile_kept(pattern), text, python)
    return text.count("\n", 0, m.start()) + 1 if m else None


# A rule's triggers, tried in this order; their hits add up, and one that vetoes wins.
TRIGGERS: tuple[Callable[[dict[str, Any], _Repo], list[Hit] | None], ...] = (
    by_imports,
    by_imports_regex,
    by_text,
)


def _scan_python(ctx: Context, jobs: list[tuple[str, str, bool]], found: Any) -> None:
    """python_pytest.scan_python over (file, text, uses wanted), in order; through the
    per-file analysis cache when the run has one (the analyzer's pass keeps each file's
    answer there as it parses it: a miss is computed here, in worker processes if many)."""
    if not ctx.files.enabled:
        for rel, text, uses_wanted in jobs:
            python_pytest.scan_python(rel, text, uses_wanted, found)
        return
    keyed = [
        (python_pytest.scan_key(rel, text, wanted), (rel, text, wanted))
        for rel, text, wanted in jobs
    ]
    for ok, part in ctx.files.answers(PYTEST_SCAN, keyed, python_pytest.scan_one):
        if not ok:
            raise part
        found.uses.extend(part.uses)
        found.fixtures |= part.fixtures
        found.markers |= part.markers
        found.parametrized |= part.parametrized


def _pytest_plugins(
    project: Project,
    refs: list[ImportRef],
    families: dict[str, list[tuple[str, FileKind]]],
    text_of: Callable[[str], str | None],
    layout: ManifestLayout,
    out: list[Candidate],
    ctx: Context,
) -> None:
    """Plugins the tests use through markers, fixtures, `pytest_plugins`, `-p` and ini keys
    (python_pytest.py finds the uses; the generated plugin table names the plugin)."""
    found = python_pytest.Found()
    jobs = []
    for rel, kind in families["python"]:
        text = text_of(rel)
        wanted = python_pytest.is_test_file(rel, kind)
        if text and python_pytest.worth_reading(text, wanted):
            jobs.append((rel, text, wanted))
    _scan_python(ctx, jobs, found)
    forget_trees()  # the last reader of the analyzer's trees
    shown: list[str] = []
    for rel, _ in families["pytest-config"]:
        text = text_of(rel) or ""
        python_pytest.scan_config(rel, text, found)
        shown.append(text)
    for rel, _ in families["ci"] + families["commands"]:
        text = text_of(rel) or ""
        python_pytest.scan_commands(rel, text, found)
        shown.append(text)
    shown += [text_of(rel) or "" for rel, _ in families["requirements"]]
    host = runner()
    uses_pytest = (
        any(r.module.split(".")[0] == host.module for r in refs)
        or any(PurePosixPath(rel).name == "conftest.py" for rel, _ in families["python"])
        or any(u.kind == "ini" for u in found.uses)
        or any(host.command in text for text in shown)
    )
    if not uses_pytest:
        return
    done: set[tuple[str, str]] = set()
    for choice in python_pytest.choose(found, refs, "\n".join(shown)):
        use = choice.use
        if len(choice.plugins) > 1:
            names = ", ".join(p.package for p in choice.plugins)
            ctx.info(
                f"pytest {use.kind} `{use.name}` is provided by several plugins ({names}); "
                "none is written (ambiguous)",
                use.file,
            )
            continue
        plugin = choice.plugins[0].package
        folder = layout.folder_of(use.file)
        key = (plugin, folder.directory if folder else "")
        if key in done:
            continue
        done.add(key)
        rule = {
            "id": f"pytest-plugin:{plugin}",
            "dist": plugin,
            "section": "dev",
            "why": python_pytest.detail(choice),
            "source": f"{python_pytest.TABLE_NAME}, from the plugins' own pytest --markers/"
            "--fixtures/--help",
        }
        _emit(rule, [(use.file, use.line, FileKind.TEST)], layout, out, ctx)


_PIP_R = lazy(r"\bpip3?\s+install\b[^\n]*?\s(?:-r|--requirement)[\s=]+([^\s;&|\\]+)")


def _image_requirements(
    project: Project,
    families: dict[str, list[tuple[str, FileKind]]],
    text_of: Callable[[str], str | None],
) -> list[Manifest]:
    """The runtime requirements files the project's Dockerfiles install (`RUN pip install
    -r requirements/docker.txt`): a server that the image runs belongs in them. Paths are
    tried beside the Dockerfile, then from the repository root; dev-named files are left out."""
    by_path = {m.path: m for m in project.manifests_of(Ecosystem.PYPI)}
    out: list[Manifest] = []
    for rel, _ in families.get("server", []):
        name = PurePosixPath(rel).name
        if not (name.startswith("Dockerfile") or name.endswith(".dockerfile")):
            continue
        text = text_of(rel) or ""
        folder = PurePosixPath(rel).parent
        for m in _PIP_R.finditer(text):
            arg = m.group(1).strip("\"'")
            for cand in (str(folder / arg), arg):
                manifest = by_path.get(posixpath.normpath(cand))
                if manifest is None or manifest.format != "requirements":
                    continue
                if DEV_REQUIREMENT_NAME.search(PurePosixPath(manifest.path).name):
                    break
                if manifest not in out:
                    out.append(manifest)
                break
    return out


_PIP_INSTALL = lazy(r"\bpip3?\s+install\s+((?:[^&;\n\\]|\\\n)*)")


def _image_installs(
    families: dict[str, list[tuple[str, FileKind]]],
    text_of: Callable[[str], str | None],
    dist: str,
) -> str | None:
    """The Dockerfile whose `pip install` names `dist` itself (not through a requirements
    file or the project's own extras), if any."""
    want = _canon(dist)
    for rel, _ in families.get("server", []):
        name = PurePosixPath(rel).name
        if not (name.startswith("Dockerfile") or name.endswith(".dockerfile")):
            continue
        for m in _PIP_INSTALL.finditer(text_of(rel) or ""):
            for token in m.group(1).replace("\\\n", " ").split():
                token = token.strip("\"'")
                if token.startswith(("-", ".", "/", "$")):
                    continue
                if _canon(re.split(r"[<>=!~\[;@ ]", token, maxsplit=1)[0]) == want:
                    return rel
    return None


def _emit(
    rule: dict[str, Any],
    hits: list[tuple[str, int, FileKind]],
    layout: ManifestLayout,
    out: list[Candidate],
    ctx: Context,
    installed: list[Manifest] | None = None,
) -> None:
    rel, line, kind = hits[0]
    evidence = Evidence(f"rule:{rule['id']}", rel, line, f"{rule['why']} ({rule['source']})")
    if rule["section"] == "suggest":
        ctx.info(f"{rule['dist']} may be needed: {rule['why']}", rel)
        return
    if rule["section"] == "runtime":
        section = Section.RUNTIME
    elif rule["section"] == "dev":
        section = Section.DEV
    else:
        section = Section.RUNTIME if kind == FileKind.SOURCE else Section.DEV
        if kind == FileKind.BUILD:
            section = Section.BUILD
    folder = layout.folder_of(rel)
    if folder is None:
        ctx.info(f"{rule['dist']}: no Python manifest owns this file; not written", rel)
        return
    targets = folder.runtime_targets(rel) if section == Section.RUNTIME else folder.runtime[:1]
    if section == Section.RUNTIME and installed:
        # the image installs a layer outside the runtime list (requirements/docker.txt on
        # top of common.txt): the server it runs goes there, not into the shared base
        layers = [m for m in installed if m in folder.all]
        if layers and not any(m in folder.runtime for m in layers):
            targets = layers
    for manifest in targets or folder.all[:1]:
        out.append(
            Candidate(
                ecosystem=Ecosystem.PYPI,
                name=rule["dist"],
                manifest=manifest.path,
                section=section,
                evidence=[evidence],
                confidence=0.8,
                verified=True,
                kinds=(kind.value,),
                facts=DependencyFacts(
                    folder=folder.directory,
                    rule=rule["id"],
                    layer_bases=tuple(folder.layer_bases(manifest)),
                ),
            )
        )


_TRIPLE_QUOTED = lazy(r'("""|\'\'\')(?:.|\n)*?\1')


def _active_match(regex: re.Pattern[str], text: str, python: bool = False) -> re.Match[str] | None:
    """The first match that is not on a commented-out line (`# DATABASE_URL=postgres://…`
    in a settings template is an example, not the configuration) nor, in Python source,
    inside a triple-quoted string (a docstring's usage example: optuna's
    `get_storage("mysql+pymysql://...")` in run_grpc_proxy_server's docstring)."""
    quoted: list[tuple[int, int]] | None = None
    for m in regex.finditer(text):
        start = text.rfind("\n", 0, m.start()) + 1
        if text[start : m.start()].lstrip().startswith(("#", ";", "//")):
            continue
        if python:
            if quoted is None:
                quoted = [q.span() for q in _TRIPLE_QUOTED.finditer(text)]
            if any(a <= m.start() < b for a, b in quoted):
                continue
        return m
    return None


def _canon(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _file_families(project: Project) -> dict[str, list[tuple[str, FileKind]]]:
    """Files each rule family reads: python/test/bench sources, CI, pytest config, servers."""
    fam: dict[str, list[tuple[str, FileKind]]] = {
        "python": [],
        "test": [],
        "bench": [],
        "ci": [],
        "pytest-config": [],
        "server": [],
        "config": [],
        "commands": [],
        "requirements": [],
        "deploy-env": [],
        "tool-files": [],
    }
    for f in project.files:
        if f.language != "python":
            continue
        fam["python"].append((f.path, f.kind))
        if f.kind == FileKind.TEST:
            fam["test"].append((f.path, f.kind))
        if f.kind == FileKind.BENCH:
            fam["bench"].append((f.path, f.kind))
        name = path_name(f.path)
        if matches_any(name, SERVER_FILES):
            fam["server"].append((f.path, FileKind.SOURCE))
    for rel in project.ci_files:
        fam["ci"].append((rel, FileKind.CONFIG))
    for rel in files_near_top(project):
        name = PurePosixPath(rel).name
        if name in PYTEST_CONFIG:
            fam["pytest-config"].append((rel, FileKind.CONFIG))
        if name in COMMAND_FILES:
            fam["commands"].append((rel, FileKind.CONFIG))
        if matches_any(name.lower(), REQUIREMENT_FILES):
            fam["requirements"].append((rel, FileKind.CONFIG))
        if matches_any(name, SERVER_FILES) and not name.endswith(".py"):
            fam["server"].append((rel, FileKind.SOURCE))
        if matches_any(name, DEPLOY_ENV_FILES) and not rel.startswith(".github/"):
            fam["deploy-env"].append((rel, FileKind.SOURCE))
        if name in python_tools.tool_file_names():
            fam["tool-files"].append((rel, FileKind.CONFIG))
        if name.endswith((".env", ".ini", ".cfg", ".toml", ".yaml", ".yml")) or name == ".env":
            fam["config"].append((rel, FileKind.CONFIG))
    return fam


def files_near_top(project: Project, max_depth: int = 3) -> list[str]:
    """Non-source files near the top of the tree (config and server files live there)."""
    out: list[str] = []
    root = project.root
    skip = {".git", "node_modules", ".venv", "venv", "__pycache__", ".tox", ".nox"}
    for dirpath, dirnames, filenames in os.walk(root):
        rel_dir = os.path.relpath(dirpath, root)
        depth = 0 if rel_dir == "." else rel_dir.count(os.sep) + 1
        dirnames[:] = [d for d in dirnames if d not in skip and depth < max_depth]
        for name in filenames:
            rel = name if rel_dir == "." else f"{rel_dir}/{name}".replace(os.sep, "/")
            out.append(rel)
    return out


def read_small(project: Project, rel: str) -> str | None:
    """The file's text, or None when it is unreadable or over MAX_BYTES (not a hand-written
    configuration or requirements file)."""
    if rel.endswith(".py"):  # a source the analyzer read: its text is kept
        text = source_text(project, rel)
        return text if len(text) <= MAX_BYTES else None
    path = project.abspath(rel)
    try:
        if path.stat().st_size > MAX_BYTES:
            return None
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
