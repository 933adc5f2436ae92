"""Scan: a repository path → `Project` (files classified, manifests read, CI files found).

Scan never executes anything and never follows directory symlinks (so symlink loops cannot
trap it). Problems with single files become diagnostics naming the file; the scan goes on.
What it skips — `.gitignore` and `.ignore` rules, the `exclude` / `extend-exclude` settings
(DEFAULT_EXCLUDE unless `exclude` replaces it) and `--exclude` — is depinfer.selection's.
"""

from __future__ import annotations

import fnmatch
import os
import re
from collections.abc import Collection, Sequence
from functools import lru_cache
from pathlib import Path, PurePosixPath

from depinfer import toml_compat
from depinfer.config import load_config
from depinfer.manifests import detect_format, read_manifest
from depinfer.model import Diagnostic, Ecosystem, FileKind, Manifest, Project, SourceFile
from depinfer.patterns import compile_kept, lazy
from depinfer.selection import VCS_DIRS, Selection

MAX_SOURCE_BYTES = 2_000_000  # larger "sources" are generated or data; skipping keeps runs fast

EXTENSIONS: dict[str, str] = {
    ".py": "python",
    ".pyi": "python",
    ".pyw": "python",
    ".pyx": "python",  # Cython: its import statements (analyzers/python_cython.py)
    ".pxd": "python",
    ".pxi": "python",
    ".ipynb": "notebook",
    ".js": "javascript",
    ".mjs": "javascript",
    ".cjs": "javascript",
    ".jsx": "javascript",
    ".ts": "javascript",
    ".mts": "javascript",
    ".cts": "javascript",
    ".tsx": "javascript",
    ".vue": "javascript",
    ".svelte": "javascript",
    ".astro": "javascript",
    ".mdx": "javascript",  # Markdown with ESM import/export lines (docs sites)
    ".rs": "rust",
    ".cs": "csharp",
    ".razor": "csharp",
    ".cshtml": "csharp",
}

# Directories that hold tooling state, vendored code or build output, never the project's code.
SKIP_DIRS = {
    ".git",
    ".hg",
    ".svn",
    "node_modules",
    "__pycache__",
    ".venv",
    "venv",
    ".tox",
    ".nox",
    "site-packages",
    ".mypy_cache",
    ".pytest_cache",
    ".ruff_cache",
    ".idea",
    ".vscode",
    "bower_components",
    "jspm_packages",
    ".next",
    ".nuxt",
    ".svelte-kit",
    ".turbo",
    ".yarn",
    ".pnpm-store",
    "coverage",  # package literal: the folder coverage reports are written to
    ".nyc_output",
    "obj",
    "_vendor",
    "vendor",
    "vendored",
    "third_party",
    "third-party",
    ".eggs",
    "htmlcov",
    ".cargo",
    ".docusaurus",
    ".output",
}
# What scan skips unless the `exclude` setting replaces it (.gitignore lines; VCS folders are
# skipped whatever the settings say).
DEFAULT_EXCLUDE = (*sorted(SKIP_DIRS - VCS_DIRS), "*.egg-info")
# Output folders skipped only when they do not hold a manifest of their own
# (C# repositories keep a `build/build.csproj` project; JS builds leave `dist/`).
OUTPUT_DIRS = {"build", "dist", "out", "target", "bin", "lib-cov", "_build", "storybook-static"}

MANIFEST_NAMES = {
    "pyproject.toml",
    "setup.cfg",
    "setup.py",
    "package.json",
    "Cargo.toml",
    "Directory.Packages.props",
    "Directory.Build.props",
}

TEST_DIRS = {
    "test",
    "tests",
    "testing",
    "__tests__",
    "__test__",
    "spec",
    "specs",
    "e2e",
    "integration_tests",
    "integration-tests",
    "unittests",
    "unit_tests",
    "test_utils",
    "testutils",
    "test-utils",
    "__mocks__",
    "fixtures",
    "cypress",
    "playwright",  # package literal: the folder Playwright tests live in
}
EXAMPLE_DIRS = {
    "example",
    "examples",
    "sample",
    "samples",
    "demo",
    "demos",
    "tutorial",
    "tutorials",
    "playground",
    "cookbook",
}
# sphinxext: the folder of a project's own Sphinx extensions, which its docs/conf.py adds
# to sys.path (altair, matplotlib, numpy keep theirs there); they run only in doc builds
DOCS_DIRS = {
    "doc",
    "docs",
    "documentation",
    "website",
    "docs_src",
    "site",
    "sphinxext",
    "sphinx_ext",
    "sphinx-ext",
}
BENCH_DIRS = {"bench", "benches", "benchmark", "benchmarks", "asv_bench", "perf"}
SCRIPT_DIRS = {
    "scripts",
    "script",
    "tools",
    "tool",
    "tasks",
    "ci",
    ".github",
    "dev",
    "xtask",
    "utils_dev",
    "contrib",
    "misc",
    "hack",
}

TEST_FILE_PATTERNS = [
    "test_*.py",
    "*_test.py",
    "*_tests.py",
    "tests.py",
    "conftest.py",
    "*.test.*",
    "*.spec.*",
    "*.e2e.*",
    "*Tests.cs",
    "*Test.cs",
    "*.Tests.cs",
    "*.test-d.ts",
    "*.bench.*",
]
# build scripts: setuptools' setup.py, Cargo's build.rs, Conan's recipe, and the build-hook
# files PDM (pdm_build.py) and Hatch (hatch_build.py) load by default (their backends' docs)
BUILD_FILE_NAMES = {"setup.py", "build.rs", "conanfile.py", "pdm_build.py", "hatch_build.py"}
CONFIG_FILE_PATTERNS = [
    "*.config.js",
    "*.config.cjs",
    "*.config.mjs",
    "*.config.ts",
    "*.config.mts",
    "*.config.cts",
    ".eslintrc*",
    ".babelrc*",
    "babel.config.*",
    ".prettierrc*",
    "jest.config.*",
    "vite.config.*",
    "vitest.config.*",
    "webpack.config.*",
    "rollup.config.*",
    "gulpfile.*",
    "Gruntfile.*",
    ".mocharc*",
    "karma.conf.*",
    "tsup.config.*",
    "noxfile.py",
    "tasks.py",
    "fabfile.py",
    "dodo.py",
    "docs/conf.py",
    "conf.py",
]


def walk_repository(root: Path):
    """(directory, subdirectories, files) below `root` for config and stylesheet files, which
    scan does not list: skips what scan skips (tool state, vendored code, build output without
    a package.json of its own) and hidden folders; never follows directory symlinks."""
    for dirpath, dirnames, filenames in os.walk(root):
        here = Path(dirpath)
        dirnames[:] = [
            d
            for d in dirnames
            if d not in SKIP_DIRS
            and not d.startswith(".")
            and not (here / d).is_symlink()
            and (d not in OUTPUT_DIRS or (here / d / "package.json").exists())
        ]
        rel = here.relative_to(root).as_posix()
        yield ("" if rel == "." else rel), dirnames, filenames


@lru_cache(maxsize=16)
def _pattern_union(patterns: tuple[str, ...]) -> re.Pattern[str]:
    """One regex for `fnmatch.fnmatch(name, p) for p in patterns` (same case rules)."""
    return compile_kept("|".join(fnmatch.translate(os.path.normcase(p)) for p in patterns))


def matches_any(name: str, patterns: Sequence[str]) -> bool:
    """`fnmatch.fnmatch(name, p)` for any of `patterns`, as one expression (callers test
    every file of the tree)."""
    return _pattern_union(tuple(patterns)).match(os.path.normcase(name)) is not None


def classify(rel: str, packages: Collection[str] = ()) -> FileKind:
    """Role of a file from its path; the innermost meaningful directory wins.

    `packages`: the folders holding an `__init__.py`, when known. A Python file inside a
    package is one of its modules whatever its name (a Django app's `tasks.py` holds Celery
    tasks, `settings/loggers/setup.py` is no build script), and a sub-package named like a
    tooling folder (`myapp/tasks/`) is the package's own code."""
    p = PurePosixPath(rel)
    name = p.name
    folder = "" if str(p.parent) == "." else str(p.parent)
    module = name.endswith(".py") and folder != "" and folder in packages
    if name in BUILD_FILE_NAMES and not module:
        return FileKind.BUILD
    if matches_any(name, TEST_FILE_PATTERNS):
        return FileKind.TEST
    if matches_any(name, CONFIG_FILE_PATTERNS) and not module:
        return FileKind.CONFIG
    if len(p.parts) > 1 and p.parts[0] == "t":
        return FileKind.TEST  # a top-level t/ (celery, kombu, vine: the Perl convention)
    parts = p.parts[:-1]
    for i in range(len(parts) - 1, -1, -1):
        part = parts[i]
        low = part.lower()
        if (
            low in SCRIPT_DIRS
            and i > 0
            and "/".join(parts[: i + 1]) in packages
            and "/".join(parts[:i]) in packages
        ):
            continue  # a sub-package of a package: shipped code
        if _is_test_dir(low):
            return FileKind.TEST
        if low in EXAMPLE_DIRS:
            return FileKind.EXAMPLE
        if low in DOCS_DIRS:
            return FileKind.DOCS
        if low in BENCH_DIRS or low.endswith((".benchmarks", "-bench", "_bench")):
            return FileKind.BENCH
        if low in SCRIPT_DIRS:
            return FileKind.SCRIPT
    return FileKind.SOURCE


def _is_test_dir(low: str) -> bool:
    return low in TEST_DIRS or low.endswith((".tests", ".test", ".specs", "_tests", "-tests"))


# Folders of test inputs: a manifest in one describes a sample project the tests read (a
# lockfile parser's `test/…/resources/npm/lockfile/package.json`, a fixture repository), not
# a project of the repository. These anywhere; the second set inside a test folder.
TEST_DATA_DIRS = {
    "fixtures",
    "__fixtures__",
    "testdata",
    "test-data",
    "test_data",
    "testfiles",
    "test-files",
    "test_files",
    "test-resources",
    "test_resources",
}
TEST_RESOURCE_DIRS = {
    "resources",
    "data",
    "assets",
    "files",
    "inputs",
    "samples",
    "cases",
    "snapshots",
    "__snapshots__",
}


def in_test_data(rel: str) -> bool:
    """`rel` lies in a folder of test inputs (TEST_DATA_DIRS, or TEST_RESOURCE_DIRS below a
    test folder): `--check` does not judge a manifest there (nor the uses attributed to it);
    the repository's own projects are judged as before."""
    in_tests = False
    for part in PurePosixPath(rel).parts[:-1]:
        low = part.lower()
        if low in TEST_DATA_DIRS or (in_tests and low in TEST_RESOURCE_DIRS):
            return True
        in_tests = in_tests or _is_test_dir(low)
    return False


_REQUIREMENTS_WORD = lazy(r"^(?:[a-z0-9]+[-_.])?requirements(?:[-_.]|$)")


def _is_requirements(name: str, parent: str) -> bool:
    if not name.endswith((".txt", ".in")):
        return False
    low = name.lower()
    # requirements.txt, requirements-dev.txt, and a qualifier before the word:
    # base_requirements.txt, dev-requirements.txt
    return bool(_REQUIREMENTS_WORD.search(low)) or (
        PurePosixPath(parent).name.lower() in {"requirements", "reqs", "requirement"}
    )


def scan(
    root: str | os.PathLike[str], exclude: Sequence[str] = (), commit_date: bool = True
) -> Project:
    """Walk `root` and build the `Project`. Raises NotADirectoryError for a bad root, and
    depinfer.config.ConfigError for settings it cannot apply. `exclude`: more patterns to
    skip (.gitignore lines relative to the root: `--exclude`), on top of the settings'.
    `commit_date=False`: leave `last_commit_date` unset (it costs a `git` process; only
    `--as-of last-commit`, --llm and --verify read it)."""
    root_path = Path(root).resolve()
    if not root_path.exists():
        raise FileNotFoundError(f"{root}: no such directory")
    if not root_path.is_dir():
        raise NotADirectoryError(f"{root}: not a directory")
    project = Project(root=root_path)
    selection = file_selection(root_path, exclude)
    manifest_paths: list[str] = []

    def on_error(err: OSError) -> None:
        rel = _rel(root_path, Path(err.filename)) if err.filename else None
        project.diagnostics.append(Diagnostic(f"cannot read: {err.strerror}", rel))

    packages: set[str] = set()  # folders with an __init__.py (os.walk goes top-down)
    for dirpath, dirnames, filenames in os.walk(root_path, onerror=on_error, followlinks=False):
        here = Path(dirpath)
        rel_dir = _rel(root_path, here)
        selection.enter(rel_dir, [*filenames, *dirnames])
        if "__init__.py" in filenames:
            packages.add(rel_dir)
        dirnames[:] = _dirs_to_walk(here, rel_dir, dirnames, selection)
        for name in sorted(filenames):
            if not selection.skips_file(f"{rel_dir}/{name}" if rel_dir else name):
                _note_file(project, here, rel_dir, name, packages, manifest_paths)
    _read_manifests(project, manifest_paths)
    _mark_loose_scripts(project, packages)
    _mark_unshipped_packages(project)
    if commit_date:
        project.last_commit_date = _git_head_date(root_path)
    return project


def file_selection(root: Path, exclude: Sequence[str] = ()) -> Selection:
    """What scan skips below `root`: its ignore files, its settings' `exclude` (or
    DEFAULT_EXCLUDE) and `extend-exclude`, and the `exclude` patterns given."""
    cfg = load_config(root, [])  # its diagnostics are the pipeline's to report
    patterns = DEFAULT_EXCLUDE if cfg.exclude is None else cfg.exclude
    return Selection(
        root, [*patterns, *cfg.extend_exclude, *exclude], regex_exclude=cfg.deptry_excludes
    )


def _dirs_to_walk(here: Path, rel_dir: str, dirnames: list[str], selection: Selection) -> list[str]:
    """The subfolders worth walking, sorted: none the selection skips (VCS, cache and
    vendored folders, ignored ones), no virtual environment, no symlinks, and no build
    output unless it holds a manifest, scripts or sources."""
    keep = []
    for d in sorted(dirnames):
        full = here / d
        if selection.skips_dir(f"{rel_dir}/{d}" if rel_dir else d) or full.is_symlink():
            continue
        if _python_environment(full):
            continue
        if (
            d in OUTPUT_DIRS
            and not _holds_manifest(full)
            and not _in_source_dir(rel_dir)
            and not (d == "bin" and _holds_scripts(full))
            and not _holds_typescript(full)
        ):
            continue
        keep.append(d)
    return keep


def _note_file(
    project: Project,
    here: Path,
    rel_dir: str,
    name: str,
    packages: set[str],
    manifest_paths: list[str],
) -> None:
    """Record one file: as a manifest, a CI workflow, a solution and/or a source file."""
    full = here / name
    rel = f"{rel_dir}/{name}" if rel_dir else name
    if full.is_symlink() and not full.exists():
        project.diagnostics.append(Diagnostic("broken symlink, skipped", rel, "info"))
        return
    if (
        (name in MANIFEST_NAMES and not (name == "setup.py" and rel_dir and rel_dir in packages))
        or name.endswith(".csproj")
        or _is_requirements(name, rel_dir)
    ):
        manifest_paths.append(rel)
    if rel_dir.startswith(".github/workflows") and name.endswith((".yml", ".yaml")):
        project.ci_files.append(rel)
    if name.endswith((".sln", ".slnx", ".slnf")):
        project.solution_files.append(rel)
    ext = os.path.splitext(name)[1].lower()
    lang = EXTENSIONS.get(ext)
    if lang is None or name.endswith((".min.js", ".bundle.js")):
        return
    try:
        size = full.stat().st_size
    except OSError as exc:
        project.diagnostics.append(Diagnostic(f"cannot read: {exc.strerror}", rel))
        return
    if size > MAX_SOURCE_BYTES:
        project.diagnostics.append(
            Diagnostic(
                f"skipped: {size // 1000} kB is over the {MAX_SOURCE_BYTES // 1000} kB "
                "limit for source files",
                rel,
                "info",
            )
        )
        return
    project.files.append(SourceFile(rel, lang, classify(rel, packages), size))


def _read_manifests(project: Project, manifest_paths: list[str]) -> None:
    """Read each manifest found; one that cannot be parsed is kept and reported: an error,
    or a warning when it lies in test data (a fixture kept broken on purpose, as yargs'
    test/fixtures/broken-json/package.json is), so `--check` still fails only on findings."""
    for rel in manifest_paths:
        fmt = detect_format(rel)
        if fmt is None:
            continue
        manifest = read_manifest(project.root, rel, fmt)
        if manifest.parse_error:
            level = "warning" if classify(rel) == FileKind.TEST else "error"
            project.diagnostics.append(
                Diagnostic(f"cannot parse ({manifest.parse_error}); left untouched", rel, level)
            )
        project.manifests.append(manifest)


_MAIN_GUARD = lazy(r"^if\s+__name__\s*==\s*[\"']__main__[\"']\s*:", re.M)


def _mark_loose_scripts(project: Project, packages: set[str]) -> None:
    """A packaged project (a root pyproject.toml with a [build-system]) ships its packages;
    a runnable script (a `__main__` guard or a shebang) in a top-level folder that is no
    package, holds none, and has no manifest of its own (`extra/release.py`,
    `hooks/post-commit.py`) is a maintainer's tool, not shipped code, whatever the
    folder is called."""
    root = next((m for m in project.manifests if m.path == "pyproject.toml"), None)
    if root is None or "build-system.requires" not in root.declared:
        return
    if (root.data or {}).get("style") not in ("pep621", "poetry"):
        return
    homes = {m.directory for m in project.manifests if m.directory}
    for f in project.files:
        if f.kind != FileKind.SOURCE or not f.path.endswith(".py"):
            continue
        parts = PurePosixPath(f.path).parts
        if len(parts) < 2:
            continue
        top = parts[0]
        if top in ("src", "source") or top in packages:
            continue
        if any(d == top or d.startswith(top + "/") for d in (*packages, *homes)):
            continue
        try:
            with open(project.root / f.path, encoding="utf-8", errors="replace") as fh:
                text = fh.read(200_000)
        except OSError:
            continue
        if text.startswith("#!") or _MAIN_GUARD.search(text):
            f.kind = FileKind.SCRIPT


def shipped_packages(doc: dict) -> tuple[list[str], list[str]] | None:
    """The packages a pyproject.toml says its wheel ships, as (dotted-name patterns, source
    folders), when it names them: setuptools' `packages` list or `packages.find` include
    patterns and `where` (Setuptools documentation, Configuring setuptools using
    pyproject.toml files), hatch's wheel `packages` (Hatch documentation, Build
    configuration: packages), Poetry's `packages` (Poetry documentation, The pyproject.toml
    file: packages). None when the build finds its packages itself."""
    tool = doc.get("tool") if isinstance(doc.get("tool"), dict) else {}
    setuptools = tool.get("setuptools") if isinstance(tool.get("setuptools"), dict) else {}
    pk = setuptools.get("packages")
    if isinstance(pk, list) and pk and all(isinstance(p, str) for p in pk):
        return [p for p in pk], [""]
    if isinstance(pk, dict) and isinstance(pk.get("find"), dict):
        find = pk["find"]
        include = find.get("include")
        if isinstance(include, list) and include and all(isinstance(p, str) for p in include):
            where = find.get("where")
            wheres = [w for w in where if isinstance(w, str)] if isinstance(where, list) else []
            return list(include), [w.strip("./") for w in wheres] or [""]
    hatch = tool.get("hatch") if isinstance(tool.get("hatch"), dict) else {}
    wheel = ((hatch.get("build") or {}).get("targets") or {}).get("wheel") or {}
    pk = wheel.get("packages") if isinstance(wheel, dict) else None
    if isinstance(pk, list) and pk and all(isinstance(p, str) for p in pk):
        # paths: "src/foo" ships foo from src
        return [PurePosixPath(p).name for p in pk], sorted(
            {str(PurePosixPath(p).parent).strip("./") for p in pk}
        )
    poetry = tool.get("poetry") if isinstance(tool.get("poetry"), dict) else {}
    pk = poetry.get("packages")
    if isinstance(pk, list) and pk and all(isinstance(p, dict) and p.get("include") for p in pk):
        names = [str(p["include"]).replace("/", ".") for p in pk]
        if all(n.replace(".", "").replace("_", "").isalnum() for n in names):
            return names, sorted({str(p.get("from") or "").strip("./") for p in pk})
    return None


def setup_py_packages(text: str) -> tuple[list[str], list[str]] | None:
    """What a setup.py's `setup(packages=...)` names as literals: a list of package names,
    or `find_packages(...)` / `find_namespace_packages(...)` with an `include` list (and
    `where`), as shipped_packages gives them; None for anything computed."""
    import ast

    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return None

    def strings(node: ast.AST) -> list[str] | None:
        if isinstance(node, (ast.List, ast.Tuple)) and node.elts:
            if all(isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.elts):
                return [e.value for e in node.elts]  # type: ignore[attr-defined]
        return None

    for call in ast.walk(tree):
        if not isinstance(call, ast.Call):
            continue
        name = call.func.id if isinstance(call.func, ast.Name) else getattr(call.func, "attr", "")
        if name != "setup":
            continue
        for kw in call.keywords:
            if kw.arg != "packages":
                continue
            listed = strings(kw.value)
            if listed:
                return listed, [""]
            v = kw.value
            if isinstance(v, ast.Call) and (
                getattr(v.func, "id", None) or getattr(v.func, "attr", None)
            ) in ("find_packages", "find_namespace_packages"):
                args = {k.arg: k.value for k in v.keywords}
                include = strings(args["include"]) if "include" in args else None
                if not include:
                    return None
                where = args.get("where") or (v.args[0] if v.args else None)
                if where is None:
                    return include, [""]
                if isinstance(where, ast.Constant) and isinstance(where.value, str):
                    return include, [where.value.strip("./")]
            return None
    return None


def _mark_unshipped_packages(project: Project) -> None:
    """A root pyproject.toml or setup.py that names the packages its wheel ships (litgpt's
    `packages.find.include = ["litgpt", "litgpt.*"]`, searxng's
    `find_packages(include=["searx", "searx.*"])`) leaves its other top-level packages
    (`extensions/thunder/`, add-ons run from a checkout) out of what users install: their
    code is the maintainers' tooling, whose imports are not the package's runtime needs."""
    shipped = None
    root = next((m for m in project.manifests if m.path == "pyproject.toml"), None)
    if root is not None and not root.parse_error and "build-system.requires" in root.declared:
        try:
            doc = toml_compat.loads((project.root / "pyproject.toml").read_text(encoding="utf-8"))
            shipped = shipped_packages(doc)
        except (OSError, ValueError):
            return
    if shipped is None and any(m.path == "setup.py" for m in project.manifests):
        try:
            text = (project.root / "setup.py").read_text(encoding="utf-8", errors="replace")
        except OSError:
            return
        shipped = setup_py_packages(text)
    if shipped is None:
        return
    patterns, wheres = shipped
    homes = {m.directory for m in project.manifests if m.directory}
    for f in project.files:
        if f.kind != FileKind.SOURCE or not f.path.endswith(".py"):
            continue
        folder = PurePosixPath(f.path).parent
        parts = folder.parts
        if not parts or parts[0] in wheres or parts[0] in ("src", "source"):
            continue  # a root module, or under the folders the build looks in
        if any(d == parts[0] or d.startswith(parts[0] + "/") for d in homes):
            continue  # a project of its own
        # import names start at the folder the build looks in (folders without an
        # `__init__.py` are namespace packages to it: google/cloud/sql)
        where = next((w for w in wheres if not w or f.path.startswith(w + "/")), None)
        if where is None:
            f.kind = FileKind.SCRIPT  # outside every folder the build looks in
            continue
        dotted = ".".join(parts[len(PurePosixPath(where).parts) if where else 0 :])
        if not any(
            fnmatch.fnmatchcase(dotted, p) or dotted.startswith(p + ".") or dotted == p
            for p in patterns
        ):
            f.kind = FileKind.SCRIPT


def _python_environment(directory: Path) -> bool:
    """A Python installation kept in the tree is not the project's code: a virtual environment
    (its `pyvenv.cfg`, PEP 405), a conda environment (`conda-meta`) or a bundled CPython (a
    Windows or embeddable install keeps its standard library as `Lib/os.py`). Read as code,
    its standard library and site-packages become dozens of false dependencies."""
    return (
        (directory / "pyvenv.cfg").exists()
        or (directory / "conda-meta").is_dir()
        or (directory / "Lib" / "os.py").is_file()
    )


def _holds_scripts(directory: Path) -> bool:
    """A `bin/` of executable scripts (Node CLIs, Python tools), not .NET build output
    (`bin/Debug`, `bin/Release`, assemblies)."""
    try:
        entries = list(os.scandir(directory))
    except OSError:
        return False
    if any(
        e.name in ("Debug", "Release") or e.name.endswith((".dll", ".exe", ".pdb")) for e in entries
    ):
        return False
    return any(e.is_file() and os.path.splitext(e.name)[1].lower() in EXTENSIONS for e in entries)


def _holds_typescript(directory: Path) -> bool:
    """A `build/` of TypeScript modules (a repository's build scripts and their tests) is
    code: the TypeScript compiler writes .js and .d.ts files, never .ts (TypeScript handbook,
    tsconfig reference, outDir)."""
    try:
        return any(
            e.is_file()
            and e.name.endswith((".ts", ".tsx", ".mts", ".cts"))
            and not e.name.endswith((".d.ts", ".d.mts", ".d.cts"))
            for e in os.scandir(directory)
        )
    except OSError:
        return False


def _in_source_dir(rel_dir: str) -> bool:
    """`src/scripts/build/`: a folder named like build output inside a source tree is code."""
    return any(p in ("src", "source") for p in PurePosixPath(rel_dir).parts)


def _holds_manifest(directory: Path) -> bool:
    try:
        return any(
            e.name in MANIFEST_NAMES or e.name.endswith(".csproj") for e in os.scandir(directory)
        )
    except OSError:
        return False


def _rel(root: Path, path: Path) -> str:
    try:
        rel = path.relative_to(root).as_posix()
    except ValueError:
        return str(path)
    return "" if rel == "." else rel


def _git_head_date(root: Path) -> str | None:
    if not (root / ".git").exists():
        return None
    import subprocess  # lazy: only a git checkout

    try:
        out = subprocess.run(
            ["git", "-C", str(root), "log", "-1", "--format=%cI"],
            capture_output=True,
            text=True,
            timeout=10,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return out.stdout.strip() or None


_NUL = lazy(b"\x00")


# Source text kept per run (Project.texts) up to this many characters in all: a tree of
# real-sized files keeps every one; a far larger one reads the rest again, as before
KEEP_TEXT_CHARS = 64_000_000


def read_source(project: Project, rel: str, diagnostics: list[Diagnostic]) -> str | None:
    """Text of a source file, or None with a diagnostic naming it (binary, unreadable).
    Read from disk once per run: mapping and rules read the analyzer's sources again. Only
    for files depinfer never writes (a manifest may change between two reads of a run)."""
    kept = project.texts.found.get(rel)
    if kept is not None:
        diagnostics.extend(kept[1])
        return kept[0]
    notes: list[Diagnostic] = []
    text = _read_decoded(project, rel, notes)
    diagnostics.extend(notes)
    if project.texts.chars < KEEP_TEXT_CHARS:
        project.texts.found[rel] = (text, notes)
        project.texts.chars += len(text or "")
    return text


def source_text(project: Project, rel: str) -> str:
    """`read_source` without its diagnostics (the analyzer reported them): "" when
    unreadable or binary."""
    return read_source(project, rel, []) or ""


def _read_decoded(project: Project, rel: str, diagnostics: list[Diagnostic]) -> str | None:
    try:
        raw = project.abspath(rel).read_bytes()
    except OSError as exc:
        diagnostics.append(Diagnostic(f"cannot read: {exc.strerror}", rel))
        return None
    if _NUL.search(raw[:8192]):
        diagnostics.append(Diagnostic("binary file, skipped", rel, "info"))
        return None
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        diagnostics.append(
            Diagnostic("not valid UTF-8; read with replacement characters", rel, "info")
        )
        return raw.decode("utf-8", errors="replace")


def manifests_by_directory(project: Project, ecosystem: Ecosystem) -> dict[str, list[Manifest]]:
    out: dict[str, list[Manifest]] = {}
    for m in project.manifests_of(ecosystem):
        out.setdefault(m.directory, []).append(m)
    return out


def path_parts(rel: str) -> tuple[str, ...]:
    """`PurePosixPath(rel).parts`, without making a path when `rel` is already plain
    (no empty or "." segment: what scan records); mapping asks this of every file."""
    segments = tuple(rel.split("/"))
    if "" in segments or "." in segments:
        return PurePosixPath(rel).parts
    return segments


def path_name(rel: str) -> str:
    """`PurePosixPath(rel).name`, the same way as `path_parts`."""
    segments = rel.split("/")
    if "" in segments or "." in segments:
        return PurePosixPath(rel).name
    return segments[-1]


def nearest_directory(rel_file: str, directories: list[str] | set[str]) -> str | None:
    """The innermost of `directories` that contains `rel_file` ("" is the root)."""
    parts = path_parts(rel_file)[:-1]
    for i in range(len(parts), -1, -1):
        cand = "/".join(parts[:i])
        if cand in directories:
            return cand
    return None
