"""Which imports the repository itself provides (never mapped to PyPI).

A module is internal when it resolves to a file or folder of the repository from one of
the places Python would search when the project runs:
- the repository root, `src/`, each Python manifest's folder and its `src/` (flat and src
  layouts, monorepo members);
- the folder of a Django `manage.py` outside test trees: `python manage.py` puts its own
  folder on sys.path, so a project kept in a subfolder (`app/manage.py`, `app/orders/`)
  imports its apps as `orders` (Django docs, "django-admin and manage.py");
- the importing file's own folder (scripts run as `python scripts/x.py`, test helper
  modules next to the tests — in a test tree even when the folder is a package, as behave's
  `features/` and `features/steps/` are) and the first folder above it that is not a
  package (pytest's rootdir-relative insertion for `conftest.py` and test packages).
- for a file inside a test tree (`tests/`, `test/`, `testing/`), any folder of that tree: test
  suites put their fixture applications on `sys.path` at run time (`tests/apps/cliapp/`
  imported as `cliapp`), which no static search path shows.
Namespace packages (folders without `__init__.py`) are followed segment by segment: the
repository's `google/cloud/sql/` makes `google.cloud.sql` local, while `google.auth` still
comes from PyPI because the repository's `google/` has no `auth`.
"""

from __future__ import annotations

import posixpath
from functools import lru_cache
from pathlib import PurePosixPath

from depinfer.model import Ecosystem, Project
from depinfer.scan import path_parts

_MODULE_SUFFIXES = (".py", ".pyi", ".pyw", ".pyx", ".so", ".pyd")
# folders of installed environments inside a tree: their modules are not the project's
_ENVIRONMENT_PARTS = frozenset({"site-packages", "dist-packages", ".venv", "venv", ".tox", ".nox"})


class InternalModules:
    def __init__(self, project: Project) -> None:
        self.files: set[str] = set()
        self.dirs: set[str] = set()  # folders that hold Python files somewhere below
        # answers of pure functions of this index, asked again and again in one run (a
        # 5,000-file tree asks the same few hundred thousand questions of a few roots)
        self.memo: dict[tuple, object] = {}
        self.init_dirs: set[str] = set()
        for f in project.files:
            if not f.path.endswith(_MODULE_SUFFIXES):
                continue
            self.files.add(f.path)
            parts = path_parts(f.path)
            if parts and parts[0] == "/":  # not what scan records: the paths' own way
                self._add_dirs(PurePosixPath(f.path))
                continue
            if parts[-1] in ("__init__.py", "__init__.pyi"):
                self.init_dirs.add("/".join(parts[:-1]))
            for i in range(len(parts) - 1, 0, -1):
                self.dirs.add("/".join(parts[:i]))
        roots = {"", "src"}
        scoped: set[str] = set()
        names: set[str] = set()
        self.projects: dict[str, str] = {}  # folder of a named project (not test data) → name
        for m in project.manifests_of(Ecosystem.PYPI):
            # a project inside a test tree (tests/fixtures/app/pyproject.toml) is test data:
            # its modules are importable only by its own files (its build.py is not the
            # `build` distribution everywhere else)
            if _test_root(m.directory) is not None:
                scoped.update({m.directory, _join(m.directory, "src")})
                continue
            roots.add(m.directory)
            roots.add(_join(m.directory, "src"))
            name = (m.data or {}).get("name")
            if isinstance(name, str) and name:
                names.add(name.replace("-", "_").replace(".", "_").lower())
                self.projects.setdefault(m.directory, name)
        for path in self.files:
            p = PurePosixPath(path)
            folder = "" if str(p.parent) == "." else str(p.parent)
            if p.name == "manage.py" and _test_root(folder) is None:
                roots.add(folder)
        self.roots = sorted(roots)
        self.scoped_roots = sorted(scoped - roots)
        self.project_names = names
        # top-level name → folders (inside test trees) that hold it as a module or package
        self.fixture_homes: dict[str, list[str]] = {}
        for path in self.files:
            p = PurePosixPath(path)
            folder = "" if str(p.parent) == "." else str(p.parent)
            if _test_root(folder) is None:
                continue
            if p.name in ("__init__.py", "__init__.pyi"):
                if folder in self.init_dirs and "/" in folder:
                    home, name = folder.rsplit("/", 1)
                    if home not in self.init_dirs:
                        self.fixture_homes.setdefault(name, []).append(home)
            elif folder not in self.init_dirs:
                self.fixture_homes.setdefault(p.name.split(".")[0], []).append(folder)

    def _resolves(self, base: str, parts: list[str]) -> bool:
        """Does dotted `parts` name something under folder `base`?"""
        key = ("resolves", base, *parts)
        found = self.memo.get(key)
        if found is None:
            found = self.memo[key] = self._resolves_uncached(base, parts)
        return bool(found)

    def _resolves_uncached(self, base: str, parts: list[str]) -> bool:
        here = base
        for i, part in enumerate(parts):
            path = _join(here, part)
            if any(path + suffix in self.files for suffix in _MODULE_SUFFIXES):
                return True
            if path in self.init_dirs:
                return True  # a regular package owns everything below it
            if path in self.dirs:
                if i == len(parts) - 1:
                    return True  # the namespace folder itself
                here = path
                continue
            return False
        return False

    @lru_cache(maxsize=65536)  # noqa: B019 - one instance per run
    def _add_dirs(self, p: PurePosixPath) -> None:
        if p.name in ("__init__.py", "__init__.pyi"):
            self.init_dirs.add(str(p.parent) if str(p.parent) != "." else "")
        parent = p.parent
        while str(parent) not in (".", ""):
            self.dirs.add(str(parent))
            parent = parent.parent

    def folder_bases(self, file: str) -> tuple[str, ...]:
        """Folders besides the import roots that `file` imports top-level names from."""
        # the answer reads `file` only through its folder (as is_internal's)
        key = ("bases", posixpath.dirname(file))
        found = self.memo.get(key)
        if found is None:
            found = self.memo[key] = self._folder_bases(file)
        return found  # type: ignore[return-value]

    def _folder_bases(self, file: str) -> tuple[str, ...]:
        parent = PurePosixPath(file).parent
        own = "" if str(parent) == "." else str(parent)
        # a script's own folder is on sys.path; a module inside a regular package is
        # imported as part of it, and Python 3 has no implicit relative imports (`from
        # dotenv import x` in pkg/providers/dotenv.py is the python-dotenv distribution)
        # inside a test tree the own folder counts even as a package: runners put it on
        # sys.path (behave's features/ and steps/, `import wrappers` beside the steps)
        bases = [own] if own not in self.init_dirs or _test_root(own) is not None else []
        # pytest's rootdir insertion: the first folder above that is not a package
        d = PurePosixPath(own)
        while str(d) not in (".", "") and str(d) in self.init_dirs:
            d = d.parent
        first_non_pkg = "" if str(d) == "." else str(d)
        if d.name.lower() in self.project_names and _parent(first_non_pkg) in self.roots_for(file):
            # a namespace package named like the project (src/poetry, no __init__.py): its
            # modules are imported from the root above it
            first_non_pkg = _parent(first_non_pkg)
        if first_non_pkg not in bases:
            bases.append(first_non_pkg)
        return tuple(bases)

    def held_anywhere(self, root: str, importer: str = "") -> str | None:
        """A module or package of the repository named `root` wherever it sits (a path
        Python finds only once the project puts its folder on sys.path: a script's
        `sys.path.insert`, the working directory a test job starts in, pytest's rootdir
        for a nested suite), or None. Folders of installed environments do not count, nor
        the importing file itself: a wrapper module named like the library it wraps
        (`pkg/cosmoHammer.py` doing `from cosmoHammer import …`) imports the library."""
        key = ("anywhere", root)
        if key not in self.memo:
            found: list[str] = []
            for path in sorted(self.files | self.dirs):
                p = PurePosixPath(path)
                if _ENVIRONMENT_PARTS & set(p.parts[:-1]):
                    continue
                stem = p.name if path in self.dirs else p.name.split(".")[0]
                if stem == root and stem != "__init__":
                    found.append(path)
            self.memo[key] = tuple(found)
        held = self.memo[key]
        return next((path for path in held if path != importer), None)  # type: ignore[union-attr]

    def roots_for(self, file: str) -> list[str]:
        """The import roots a file sees: the repository's, and those of a test-data
        project it sits in."""
        return [*self.roots, *(r for r in self.scoped_roots if file.startswith(r + "/"))]

    def is_internal(self, module: str, file: str, names: tuple[str, ...] = ()) -> bool:
        # the answer reads `file` only through its folder (its roots, bases and test tree)
        key = ("internal", module, posixpath.dirname(file), names)
        found = self.memo.get(key)
        if found is None:
            found = self.memo[key] = self._is_internal(module, file, names)
        return bool(found)

    def _is_internal(self, module: str, file: str, names: tuple[str, ...]) -> bool:
        parts = [p for p in module.split(".") if p]
        if not parts:
            return True
        if parts[0].lower() in self.project_names and len(parts) >= 1:
            # a namespace folder named like the project (poetry's src/poetry, shared with
            # poetry-core's poetry.core) is judged module by module below
            if any(
                self._resolves(r, parts[:1]) and not self._namespace_only(r, parts[:1])
                for r in self.roots
            ):
                return True
        # `from google.cloud import storage`: judge the deepest name first
        if names and names != ("*",):
            deeper = [parts + [n] for n in names if n.isidentifier()]
        else:
            deeper = []
        for base in (*self.roots_for(file), *self.folder_bases(file)):
            if self._resolves(base, parts):
                if not deeper or not self._namespace_only(base, parts):
                    return True
                # a namespace folder: the imported names must be local too
                if any(self._resolves(base, d) for d in deeper):
                    return True
        if len(parts) >= 2 and self._above(file, parts):
            return True
        tree = _test_root(str(PurePosixPath(file).parent))
        if tree is not None:
            for home in self.fixture_homes.get(parts[0], ()):
                if (home == tree or home.startswith(tree + "/")) and self._resolves(home, parts):
                    return True
        return False

    def _above(self, file: str, parts: list[str]) -> bool:
        """A dotted import whose first two segments name a module file or regular package of
        a folder above the importing file (`from data.cards import X` in
        project/tests/test_x.py beside project/data/cards.py; `from layers.attention import
        Y` inside src/pkg/layers/): the code runs with that folder on sys.path (a working
        directory, PYTHONPATH, code copied from a project where it was top level). Two
        segments that exist as a file leave no distribution to name."""
        path = _join(parts[0], parts[1])
        d = PurePosixPath(file).parent
        while True:
            base = "" if str(d) == "." else str(d)
            full = _join(base, path)
            if full in self.init_dirs or any(full + s in self.files for s in _MODULE_SUFFIXES):
                return True
            if base == "":
                return False
            d = d.parent

    def sibling_project(self, module: str, own: str) -> str | None:
        """The name of another project of the repository whose folder (or its src/)
        provides `module`'s top-level package, when the importer's own project (folder
        `own`) does not provide it."""
        top = [p for p in module.split(".") if p][:1]
        # another named project than the importer's own (an example app with only a
        # requirements.txt may import the repository's package)
        if not top or not any(folder != own for folder in self.projects):
            return None
        for base in (own, _join(own, "src")):
            if self._resolves(base, top):
                return None
        for folder, name in sorted(self.projects.items()):
            if folder == own:
                continue
            for base in (folder, _join(folder, "src")):
                if self._resolves(base, top) and not self._namespace_only(base, top):
                    return name
        return None

    def _namespace_only(self, base: str, parts: list[str]) -> bool:
        path = _join(base, "/".join(parts))
        is_module = any(path + s in self.files for s in _MODULE_SUFFIXES)
        return not is_module and path not in self.init_dirs and path in self.dirs


_TEST_DIRS = frozenset({"test", "tests", "testing"})


def _test_root(folder: str) -> str | None:
    """The outermost test folder (`tests`, `test`, `testing`) on `folder`'s path, if any."""
    parts = folder.split("/") if folder not in ("", ".") else []
    for i, part in enumerate(parts):
        if part.lower() in _TEST_DIRS:
            return "/".join(parts[: i + 1])
    return None


def _parent(folder: str) -> str:
    parent = str(PurePosixPath(folder).parent)
    return "" if parent == "." else parent


def _join(a: str, b: str) -> str:
    return f"{a}/{b}" if a else b
