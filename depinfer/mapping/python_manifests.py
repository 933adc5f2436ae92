"""Which Python manifest owns a file, and which of a folder's manifests take which section.

A file belongs to the nearest folder (itself or above) holding Python manifests; files
outside every manifest folder belong to the root's. In one folder several manifests can
carry the runtime list at once (pyproject `[project]`/Poetry, setup.cfg, setup.py, a runtime
requirements file, the files a pyproject names as its dynamic dependencies); the runtime
list is written to each. Requirements files stacked with `-r` keep one list in layers: it
goes to the stack's base, not to the layers on top. Dev groups (extras and dependency
groups named test/dev/docs, Poetry groups, requirements-dev files) take test/docs/tooling
imports.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from depinfer.manifests import ManifestError
from depinfer.manifests.requirements import read as read_requirements
from depinfer.model import Ecosystem, Manifest, Project
from depinfer.patterns import lazy
from depinfer.scan import nearest_directory, walk_repository

# requirements files whose name says "the runtime list" (requirements/base.txt, ...), also
# when a runtime word qualifies "requirements" (base_requirements.txt, requirements-prod.txt)
_RUNTIME_WORDS = r"(?:base|prod|production|main|runtime|install|core)"
_RUNTIME_REQ = lazy(
    rf"^(?:requirements|{_RUNTIME_WORDS}|{_RUNTIME_WORDS}[-_]requirements"
    rf"|requirements[-_]{_RUNTIME_WORDS})(\.in|\.txt)$",
    re.I,
)
_REQ_DIRS = {"requirements", "reqs", "requirement"}
# requirements files whose name says tests/dev/docs
# requirements files whose name says tests/dev/docs: a word of the name, not any substring
# (docker.txt and production.txt are no docs or CI files)
_DEV_REQ = lazy(
    r"(?:^|[-_.\s])(dev\w*|tests?|testing|lint\w*|docs?|ci|tox|check\w*|style|type\w*|typing|mypy)"
    r"(?=[-_.\s]|$)",
    re.I,
)
DEV_REQUIREMENT_NAME = _DEV_REQ
TEST_GROUPS = ("test", "tests", "testing", "dev", "develop", "development")
DOCS_GROUPS = ("docs", "doc", "documentation", "dev")
DEV_GROUPS = ("dev", "develop", "development", "test", "tests", "testing")
# demonstrations (notebooks, examples, benchmarks) go only where the project keeps theirs
DEMO_GROUPS = ("examples", "example", "notebooks", "notebook", "demo", "demos", "tutorials")
DEMO_KINDS = frozenset({"notebook", "example", "bench"})
_ENV_LINE = lazy(r"^\s*(-e|--editable)?\s*\.(\[|\s|$|/)", re.M)


@dataclass
class Folder:
    directory: str
    runtime: list[Manifest] = field(default_factory=list)
    all: list[Manifest] = field(default_factory=list)
    dev_requirements: list[Manifest] = field(default_factory=list)
    # environment layers (requirements/production.txt beside requirements/base.txt): the
    # word of each layer's file name -> the layer
    layers: dict[str, Manifest] = field(default_factory=dict)

    def runtime_targets(self, rel_file: str) -> list[Manifest]:
        """Where a runtime need of `rel_file` goes: the layer its path names
        (settings/production.py -> requirements/production.txt), else the runtime list."""
        if self.layers:
            words = {w.lower() for w in re.split(r"[/._-]+", rel_file) if w}
            for word, layer in self.layers.items():
                if words & _ENVIRONMENT_SYNONYMS.get(word, {word}):
                    return [layer]
        return self.runtime

    def layer_bases(self, manifest: Manifest) -> list[str]:
        """The runtime files a layer stacks on (empty for a file that is no layer)."""
        if manifest in self.layers.values():
            return [m.path for m in self.runtime]
        return []


# Requirements files named after a deployment environment: beside a base list they are
# layers on it (production.txt starts with `-r base.txt`, the layout cookiecutter-django and
# Django project templates use, with settings/production.py beside settings/base.py)
_BASE_LIST = lazy(r"^(?:base|common|core|main|shared)(?:\.in|\.txt)$", re.I)
_ENVIRONMENT_LAYER = lazy(
    r"^(prod|production|staging|heroku|docker|deploy|deployment|server)(?:\.in|\.txt)$", re.I
)
_ENVIRONMENT_SYNONYMS = {
    "prod": {"prod", "production"},
    "production": {"prod", "production"},
    "deploy": {"deploy", "deployment"},
    "deployment": {"deploy", "deployment"},
}


class ManifestLayout:
    def __init__(self, project: Project) -> None:
        self.project = project
        self._req_files: list[str] | None = None
        py = [m for m in project.manifests_of(Ecosystem.PYPI)]
        self.by_path = {m.path: m for m in py}
        folders: dict[str, Folder] = {}
        for m in py:
            home = self._home(m)
            folders.setdefault(home, Folder(home)).all.append(m)
        dynamic_files: set[str] = set()
        for m in py:
            self._read_extras_files(m)
            self._read_unlisted_files(m)
        for m in py:
            for f in (m.data or {}).get("dynamic_dependencies_files") or []:
                dynamic_files.add(f)
                if f not in self.by_path:
                    # `reqs("default.txt")` through a helper that prefixes requirements/
                    found = self._find(f)
                    if found in self.by_path:
                        dynamic_files.add(found)
        for folder in folders.values():
            for m in folder.all:
                if m.parse_error:
                    continue
                if self._is_runtime(m, folder, dynamic_files):
                    folder.runtime.append(m)
                elif m.format == "requirements" and _DEV_REQ.search(PurePosixPath(m.path).name):
                    folder.dev_requirements.append(m)
            self._add_stacked_runtime(folder)
            self._split_environment_layers(folder)
        self.folders = folders

    def _split_environment_layers(self, folder: Folder) -> None:
        """A runtime list in requirements/base.txt and requirements/production.txt at once,
        neither pulling in the other (masked files lose their `-r base.txt` line): the
        environment-named file is a layer on the base list and takes only what that
        environment's own files need. A layer that keeps its `-r` line is a stack the
        resolver reads as such."""
        reqs = [m for m in folder.runtime if m.format == "requirements"]
        bases = [m for m in reqs if _BASE_LIST.match(PurePosixPath(m.path).name)]
        if not bases:
            return
        for m in reqs:
            hit = _ENVIRONMENT_LAYER.match(PurePosixPath(m.path).name)
            if (
                hit
                and not self._pulled_in(m, folder)  # a stack says itself what it holds
                and PurePosixPath(m.path).parent in {PurePosixPath(b.path).parent for b in bases}
            ):
                folder.layers[hit.group(1).lower()] = m
        if folder.layers:
            layered = set(map(id, folder.layers.values()))
            stacked = set(map(id, bases)) | layered
            # a file that pulls in the base or a layer (requirements.txt: `-r
            # requirements/production.txt`) is a layer on top of them and takes nothing
            folder.runtime = [
                m
                for m in folder.runtime
                if id(m) not in layered
                and not any(id(x) in stacked for x in self._pulled_in(m, folder))
            ]

    def _add_stacked_runtime(self, folder: Folder) -> None:
        """Requirements files stacked with `-r` hold one runtime list in layers:
        requirements.txt -> heroku.txt -> prod.txt -> common.txt. The files a runtime file
        pulls in are runtime too, whatever their names (dev-named files, constraint files
        and pip-compile outputs aside), and the shared list lives at the bottom: a file
        that pulls in another runtime file is a layer and takes no shared names. When
        several bottoms were reached through the stacks (a masked layer is emptied, its
        own `-r` line with it), the base is the one most other requirements files pull in
        (dev.txt and prod.txt both start with `-r common.txt`)."""
        named = [m for m in folder.runtime if m.format == "requirements"]
        if not named:
            return
        stacked: list[Manifest] = []
        todo = list(named)
        while todo:
            for m in self._pulled_in(todo.pop(), folder):
                if m not in folder.runtime and not _DEV_REQ.search(PurePosixPath(m.path).name):
                    folder.runtime.append(m)
                    stacked.append(m)
                    todo.append(m)
        if not stacked:
            return
        runtime_reqs = [m for m in folder.runtime if m.format == "requirements"]
        layers = [
            m for m in runtime_reqs if any(x in runtime_reqs for x in self._pulled_in(m, folder))
        ]
        includers = {
            m.path: sum(
                1 for other in folder.all if other is not m and m in self._pulled_in(other, folder)
            )
            for m in runtime_reqs
        }
        bottoms = [m for m in runtime_reqs if m not in layers]
        best = max((includers[m.path] for m in bottoms), default=0)
        drop = {m.path for m in layers} | {
            m.path for m in bottoms if m in stacked and includers[m.path] < best
        }
        folder.runtime = [m for m in folder.runtime if m.path not in drop]

    def _pulled_in(self, m: Manifest, folder: Folder) -> list[Manifest]:
        """The requirements files of `folder` that `m` pulls in with `-r` (not `-c`)."""
        if m.format != "requirements":
            return []
        data = m.data or {}
        constraints = set(data.get("constraints") or ())
        out = []
        for inc in data.get("includes") or ():
            x = self.by_path.get(inc)
            if (
                x is None
                or inc in constraints
                or x.parse_error
                or x.format != "requirements"
                or x not in folder.all
                or (x.path.endswith(".txt") and self._sibling_in(x))
            ):
                continue
            out.append(x)
        return out

    def _find(self, f: str) -> str | None:
        """The repository file a setup.py names: the path itself, else the one file of that
        name in a requirements folder (helpers prefix `requirements/` or `requirements/extras/`)."""
        if self.project.abspath(f).is_file():
            return f
        name = PurePosixPath(f).name
        hits = [p for p in self._requirement_files() if PurePosixPath(p).name == name]
        return hits[0] if len(hits) == 1 else None

    def _requirement_files(self) -> list[str]:
        """Files under a requirements/ folder (any depth), looked for once."""
        if self._req_files is None:
            self._req_files = [
                f"{folder}/{n}"
                for folder, _, names in walk_repository(self.project.root)
                if {p.lower() for p in PurePosixPath(folder).parts} & _REQ_DIRS
                for n in names
                if n.endswith((".txt", ".in"))
            ]
        return self._req_files

    def _read_unlisted_files(self, m: Manifest) -> None:
        """A setup.py whose install_requires reads a file the scan does not take for a
        requirements file (`open("deps.txt")`): its names are declared all the same, so
        nothing the file lists is asked for again."""
        if m.format != "setup_py":
            return
        for f in (m.data or {}).get("dynamic_dependencies_files") or []:
            found = self._find(f)
            if found is None or found in self.by_path:
                continue
            names = self._file_names(found)
            if names:
                m.declared.setdefault("dependencies", []).extend(names)

    def _file_names(self, rel: str) -> list[str]:
        try:
            text = self.project.abspath(rel).read_text(encoding="utf-8", errors="replace")
            declared, _ = read_requirements(text, rel)
        except (OSError, ManifestError):
            return []
        return declared.get("dependencies", [])

    def _read_extras_files(self, m: Manifest) -> None:
        """A setup.py whose extras_require reads requirement files: those names are declared
        in that extra (the files are not masked; they are the extras' lists)."""
        for extra, files in ((m.data or {}).get("dynamic_extras_files") or {}).items():
            names: list[str] = []
            for f in files:
                found = self._find(f)
                if found is not None:
                    names.extend(self._file_names(found))
            if names:
                m.declared.setdefault(f"optional-dependencies.{extra}", []).extend(names)

    @staticmethod
    def _home(m: Manifest) -> str:
        """A requirements/ sub-folder belongs to the folder above it."""
        d = m.directory
        if m.format == "requirements" and PurePosixPath(d).name.lower() in _REQ_DIRS:
            parent = str(PurePosixPath(d).parent)
            return "" if parent == "." else parent
        return d

    def _is_runtime(self, m: Manifest, folder: Folder, dynamic_files: set[str]) -> bool:
        style = (m.data or {}).get("style")
        if m.format == "pyproject":
            if (m.data or {}).get("dynamic_dependencies_files"):
                return False  # its list lives in the named files
            return style in ("pep621", "poetry")
        if m.format == "setup_py" and (m.data or {}).get("dynamic_dependencies_files"):
            return False  # install_requires reads its list from the named files
        if m.format == "setup_py" and (m.data or {}).get("setup_call") is False:
            # a setup.py with no setup() call (empty, or a script) holds no list: the
            # folder's other manifests do, when it has any
            return not any(x is not m and x.format != "setup_py" for x in folder.all)
        if m.format == "setup_cfg" and not m.declared.get("dependencies"):
            # an empty setup.cfg (tool settings only) beside a setup.py that has an
            # install_requires of its own, literal or read from files, is not the list
            if any(x.format == "setup_py" and "dependencies" in x.declared for x in folder.all):
                return False
        if m.format in ("setup_cfg", "setup_py"):
            return bool(m.declared.get("dependencies")) or not self._has_pyproject_runtime(folder)
        if m.format == "requirements":
            if m.path in dynamic_files:
                return True
            name = PurePosixPath(m.path).name
            if not _RUNTIME_REQ.match(name):
                return False
            if name.endswith(".txt") and self._sibling_in(m):
                return False  # requirements.in is the list; the .txt is pip-compile output
            return not self._environment_file(m, folder)
        return False

    def _sibling_in(self, m: Manifest) -> bool:
        return m.path[: -len(".txt")] + ".in" in self.by_path

    def _has_pyproject_runtime(self, folder: Folder) -> bool:
        return any(
            x.format == "pyproject" and (x.data or {}).get("style") in ("pep621", "poetry")
            for x in folder.all
        )

    def _environment_file(self, m: Manifest, folder: Folder) -> bool:
        """A requirements file that installs the project itself plus tools is a dev/CI
        environment, not the runtime list (`-e .[dev]`, pinned test tools)."""
        try:
            text = self.project.abspath(m.path).read_text(encoding="utf-8", errors="replace")
        except OSError:
            return False
        if _ENV_LINE.search(text):
            return True
        names = {_canon(n) for n in m.declared.get("dependencies", [])}
        if not names:
            return False
        runtime_names: set[str] = set()
        other = [x for x in folder.all if x is not m and x.format != "requirements"]
        for x in other:
            runtime_names |= {_canon(n) for n in x.declared.get("dependencies", [])}
        if self._has_pyproject_runtime(folder) and not runtime_names:
            # the pyproject has no runtime list of its own while this one is full: when the
            # two lists are meant to be the same, both are empty or both are filled (a
            # pyproject of tool settings only holds no list, so it is no such twin)
            return True
        if runtime_names and len(names & runtime_names) * 2 < len(names):
            return True
        return False

    def folder_of(self, rel_file: str) -> Folder | None:
        d = nearest_directory(rel_file, set(self.folders))
        if d is None:
            d = "" if "" in self.folders else None
        folder = self.folders.get(d) if d is not None else None
        if folder is not None and not folder.runtime:
            # a folder with only dev files: the runtime list lives further up
            parent = PurePosixPath(folder.directory).parent
            while True:
                up = nearest_directory(str(parent / "x.py"), set(self.folders))
                if up is None or up == folder.directory:
                    break
                if self.folders[up].runtime:
                    return self._merge(folder, self.folders[up])
                if up == "":
                    break
                parent = PurePosixPath(up).parent
            if len([f for f in self.folders.values() if f.runtime]) == 1:
                only = next(f for f in self.folders.values() if f.runtime)
                return self._merge(folder, only)
        if folder is None:
            with_runtime = [f for f in self.folders.values() if f.runtime]
            if len(with_runtime) == 1:
                return with_runtime[0]
        return folder

    @staticmethod
    def _merge(dev_folder: Folder, runtime_folder: Folder) -> Folder:
        return Folder(
            runtime_folder.directory,
            runtime=runtime_folder.runtime,
            all=runtime_folder.all + [m for m in dev_folder.all if m not in runtime_folder.all],
            dev_requirements=runtime_folder.dev_requirements + dev_folder.dev_requirements,
            layers=runtime_folder.layers,
        )


def _canon(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()
