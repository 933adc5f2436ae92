"""Python's typed facts: what the analyzer and the mapping stage learn about one import
(`ImportFacts`, on `ImportRef.facts`) and what mapping and the implicit rules hand the
resolver about one distribution (`DependencyFacts`, on `Candidate.facts`, carried to
`Requirement.facts`).

Frozen: a stage that learns more replaces the value (`mark(ref, lazy=True)`), so what a
stage received is never changed behind its back. Readers use the accessors, which give
the defaults for a ref or candidate that carries no Python facts (one made by another
stage, a test, the repair loop).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from depinfer.model import Candidate, Facts, ImportRef, Requirement


@dataclass(frozen=True)
class ImportFacts(Facts):
    """One Python import as the analyzer read it, and what mapping's passes added."""

    # --- set by the analyzer (analyzers/python*.py)
    cell: int | None = None  # the notebook cell the import is in (None: not a notebook)
    pip_install: bool = False  # a notebook's `!pip install x`, not an import statement
    requirement: str = ""  # the requirement text of that `pip install` (`x>=1`)
    reraised: bool = False  # every ImportError handler raises again: needed after all
    fallback_for: tuple[str, ...] = ()  # modules the `try` wanted (`tomllib` → `tomli`)
    fallback_names: tuple[str, ...] = ()  # ... and the names it took from them (`typing.Self`)
    attrs: tuple[str, ...] = ()  # dotted attribute chains used on it (`numpy.float`)
    minversion: str | None = None  # `pytest.importorskip(..., minversion="1.20")`
    guarded_by_caller: str | None = None  # the function whose only callers are guarded
    django_setting: str | None = None  # the Django setting that names the module
    named_in: str | None = None  # "call": an extension module a library call names
    # --- set by mapping (mapping/python*.py)
    vendored: bool = False  # in a folder of copied third-party code (`_vendor/`)
    lazy: bool = False  # indented inside a function of shipped code
    lazy_module: bool = False  # its module is only loaded from inside functions
    optional_module: str | None = None  # its module loads only where an import may fail (via)
    core: bool = False  # run by `import pkg` itself (the package's eager modules)
    tested: bool = False  # run by importing a test module (the modules its imports load)


@dataclass(frozen=True)
class DeclareFeatures(Facts):
    """What the declare model (data/python/declare_model.toml) reads about one candidate
    distribution of one manifest: where and how the project uses it, and what surrounds it.
    Computed by rules/python_features.py for every Python candidate."""

    # file roles it is used from: source, test, example, docs, script, bench, build,
    # notebook, and for tools named without an import: ci, commands, tool-config, docs-config
    where: tuple[str, ...] = ()
    # how shipped code imports it: top, function, guarded (try/except ImportError),
    # type-only, platform, version (a marker), integration (a module named after it)
    how: tuple[str, ...] = ()
    files: int = 0  # how many files use it
    required_by: str | None = None  # a runtime candidate whose Requires-Dist names it
    required_known: bool = False  # False offline (the registry was not asked)
    providers: int = 1  # how many distributions provide the import (shipped index)
    project_kind: str = "application"  # library, application, test, sample
    runtime: str = ""  # the oldest Python the project supports
    manifest_format: str = ""  # requirements, pyproject, setup, pipfile, ...
    sole_list: bool = False  # the folder's only dependency list is one requirements file
    tooling: bool = False  # a tooling environment installs it (CI pip line, tox, nox, hatch)
    tested: bool = False  # a module the tests load imports it unguarded at top level


@dataclass(frozen=True)
class DependencyFacts(Facts):
    """What mapping and the implicit rules learnt about one distribution candidate."""

    api: tuple[str, ...] = ()  # dotted names the code uses from it (API version bounds)
    lazy: bool = False  # imported inside a function (loaded when a feature is used)
    lazy_module: bool = False  # imported by a module loaded only inside functions
    core: bool = False  # imported by the modules `import pkg` runs
    tested: bool = False  # imported at top level by a module the tests load, unguarded
    type_only: bool = False  # imported under TYPE_CHECKING or in a stub
    hosted: bool = False  # imported by a file its host loads (pytest, for a shipped plugin)
    folder: str | None = None  # folder whose manifests own the importing file
    layer_bases: tuple[str, ...] = ()  # requirements files the target layer stacks on
    match: str = ""  # how the index matched the module (index, declared, ...)
    rule: str | None = None  # id of the implicit rule that added it
    declare: DeclareFeatures | None = None  # what the declare model reads (python_features)


NO_IMPORT_FACTS = ImportFacts()
NO_DEPENDENCY_FACTS = DependencyFacts()


def import_facts(ref: ImportRef) -> ImportFacts:
    """The ref's Python facts, or the defaults when it carries none."""
    return ref.facts if isinstance(ref.facts, ImportFacts) else NO_IMPORT_FACTS


def mark(ref: ImportRef, **changes: object) -> None:
    """Record what a stage learnt about an import (replaces the frozen facts)."""
    ref.facts = replace(import_facts(ref), **changes)


def dependency_facts(c: Candidate | Requirement) -> DependencyFacts:
    """The candidate's Python facts, or the defaults when it carries none."""
    return c.facts if isinstance(c.facts, DependencyFacts) else NO_DEPENDENCY_FACTS
