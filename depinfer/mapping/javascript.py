"""JavaScript/TypeScript mapping: module specifier → npm package (or internal, or builtin).

A specifier names a package by its first path segment (`lodash/fp` → lodash) or its first
two for scoped names (`@scope/pkg/sub` → @scope/pkg). Everything that resolves inside the
repository is internal: relative and absolute paths, package `imports` (`#x`), tsconfig /
jsconfig `paths` and `baseUrl`, bundler aliases, the package's own name, and the names of
other package.json files in the repository (workspace members, or sibling packages referenced
by path). Node builtins (with or without `node:`) need nothing. The file's role relative to
its own package.json decides the section: shipped code → dependencies, the rest → dev.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import PurePosixPath

from depinfer.context import Context
from depinfer.facts.javascript import JsImportFacts, NpmFacts, import_facts
from depinfer.mapping.javascript_layout import (
    Layout,
    TsConfig,
    ancestors,
    export_targets,
    glob_regex,
    is_alias,
    layout,
    normalize_path,
    own_bundler_alias,
    owner_of,
    parse_jsonc,
    tsconfigs_for,
    walk_repository,
)
from depinfer.mapping.javascript_names import (
    app_runtime_configs,
    engine_modules,
    is_builtin,
    jsx_runtimes,
    node_builtins,
    node_types,
    package_name,
    types_only_modules,
    virtual_prefixes,
)
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
from depinfer.scan import classify

__all__ = [  # shared with the rules and resolver stages
    "standalone_example",
    "Layout",
    "TsConfig",
    "ancestors",
    "app_runtime_configs",
    "file_section",
    "package_section",
    "glob_regex",
    "is_builtin",
    "layout",
    "map_imports",
    "node_builtins",
    "node_types",
    "owner_of",
    "package_name",
    "parse_jsonc",
    "tsconfigs_for",
    "virtual_prefixes",
    "walk_repository",
]


# Folders whose content is the package's shipped code whatever their subfolders are called.
SHIPPED_DIRS = {"src", "lib", "source", "app", "bin"}
# Top-level folders of a package that hold its tooling, not its code (a published package
# does not ship them unless `files`/`main`/`exports` say so).
TOOLING_DIRS = {"config", "configs", "stories", "storybook", "e2e", "types-test", "test-d", "build"}
# Files that exist for the tooling (Storybook stories), wherever they are.
TOOLING_FILE = re.compile(
    r"\.(?:stories|story)\.[cm]?[jt]sx?$|\.(?:stories|story)\.(?:mdx|svelte|vue)$"
)

# A published library's per-component demo (`useMouse/demo.vue`, `button.demo.tsx`): the
# documentation site renders it beside the code (VueUse's "Contributing" guide: each function
# folder holds index.ts, demo.vue "documentation demo", index.md); the package's build never includes it.
DEMO_FILE = re.compile(r"(?:^|/|\.)demo(?:\.client|\.server)?\.(?:vue|svelte|[cm]?[jt]sx?)$")


def file_section(
    owner: Manifest | None,
    rel_file: str,
    kind: FileKind,
    unpublished: bool = False,
    compiled: bool = False,
    npmignored: Callable[[str], bool] | None = None,
) -> Section:
    """Shipped code → runtime; tests, configs, scripts, docs, examples → dev.

    The role is judged relative to the owning package.json, so a docs site or playground with
    its own package.json has runtime dependencies of its own. Files that `main`, `bin` or
    `files` name are shipped whatever their folder is called. `compiled`: the `files` list
    names only build output, so the source in any folder is what the build publishes.
    `npmignored`: what the package's `.npmignore` leaves out of the tarball (a package
    without `files` that publishes its code as written): repository tooling (axios' bin/).
    """
    base = owner.directory if owner else ""
    inner = rel_file[len(base) + 1 :] if base else rel_file
    if owner is not None and _shipped(owner, inner):
        return Section.RUNTIME
    if npmignored is not None and not unpublished and npmignored(inner):
        return Section.DEV
    role = classify(inner)
    top = inner.split("/")[0] if "/" in inner else ""
    if ".macro." in PurePosixPath(inner).name:
        return Section.DEV  # babel-plugin-macros run these at compile time, never shipped
    if TOOLING_FILE.search(inner) or top == ".storybook":
        # Storybook's stories, and its configuration folder (Storybook docs, Configure
        # Storybook: .storybook/main.js and preview.js), which only the storybook CLI loads,
        # in an app as in a library
        return Section.DEV
    if not unpublished and DEMO_FILE.search(inner):
        return Section.DEV  # a library's documentation demo beside the code it shows
    if not unpublished and (
        top in TOOLING_DIRS or (top.startswith(".") and top not in (".", ".."))
    ):
        return Section.DEV  # .storybook/, .vitepress/, config/ of a published package
    if role == FileKind.SCRIPT and top in SHIPPED_DIRS:
        return Section.RUNTIME  # src/scripts/*: a CLI's commands, shipped with it
    if role == FileKind.CONFIG or kind == FileKind.CONFIG:
        if unpublished and "/" not in inner and _matches(inner, app_runtime_configs()):
            return Section.RUNTIME  # next.config/astro.config of an app: loaded when it runs
        if top not in SHIPPED_DIRS:
            return Section.DEV  # a tool's config for this repository
        # a config inside shipped code (presets a tool package ships) goes with its folder
        role = classify(str(PurePosixPath(inner).parent / "_.js"))
    if unpublished and role in (FileKind.EXAMPLE, FileKind.DOCS, FileKind.BENCH):
        return Section.RUNTIME  # an app or docs site: its demos and pages are what it runs
    if (
        not unpublished
        and not compiled
        and role == FileKind.SOURCE
        and top
        and top not in SHIPPED_DIRS
        and owner is not None
        and isinstance(owner.data.get("files"), list)
    ):
        # A package that lists what it publishes: other folders are repository tooling.
        return Section.DEV
    return Section.RUNTIME if role == FileKind.SOURCE else Section.DEV


def package_section(lay: Layout, owner: Manifest, rel_file: str, kind: FileKind) -> Section:
    """`file_section` with what the layout knows of the owning package: never published,
    publishing a build, packing by an `.npmignore`."""
    return file_section(
        owner,
        rel_file,
        kind,
        owner.path in lay.unpublished,
        owner.path in lay.compiled,
        lay.npmignored.get(owner.path),
    )


def _matches(name: str, patterns: tuple[str, ...]) -> bool:
    return any(fnmatch.fnmatch(name, p) for p in patterns)


def _shipped(owner: Manifest, inner: str) -> bool:
    data = owner.data
    entries: list[str] = []
    for key in ("main", "module", "browser"):
        if isinstance(data.get(key), str):
            entries.append(data[key])
    bin_ = data.get("bin")
    if isinstance(bin_, str):
        entries.append(bin_)
    elif isinstance(bin_, dict):
        entries.extend(v for v in bin_.values() if isinstance(v, str))
    entries.extend(export_targets(data.get("exports")))
    for e in entries:
        target = normalize_path(e)
        if target == inner or ("*" in target and glob_regex(target).match(inner)):
            return True
    files = data.get("files")
    return isinstance(files, list) and _in_files(files, inner)


def _in_files(files: list, inner: str) -> bool:
    """Whether package.json's `files` list packs `inner`: the last entry that names it
    decides, and a `!` entry leaves out what it matches (npm documentation, package.json:
    files — `"!**/*.spec.{t,j}s"` after `"src"` keeps the specs out of the tarball)."""
    packed = False
    for f in files:
        if not isinstance(f, str):
            continue
        negated = f.startswith("!")
        f = normalize_path(f.removeprefix("!").rstrip("/"))
        if not f:
            continue
        if "*" in f or "{" in f:
            hit = bool(glob_regex(f).match(inner))
        else:
            hit = inner == f or inner.startswith(f + "/")
        if hit:
            packed = not negated
    return packed


def jsx_source(lay: Layout, ref: ImportRef, owner: Manifest | None) -> str | None:
    """Package whose JSX runtime a file's JSX needs (pragma, tsconfig, else react)."""
    if ref.module:
        return ref.module
    runtimes = jsx_runtimes()
    for ext, runtime in runtimes.by_extension.items():
        if ref.file.endswith(ext):
            # JSX in a Vue single-file component is compiled by Vue's JSX plugin for Vue
            return runtime
    for cfg in tsconfigs_for(lay, ref.file):
        if cfg.jsx_import_source:
            return cfg.jsx_import_source
        if cfg.jsx_classic:
            return None
    if owner is not None:
        deps = {n for names in owner.declared.values() for n in names}
        # A Preact/Vue/Solid project compiles JSX for its own runtime (knip: jsx-runtime).
        for lib in runtimes.declared:
            if lib in deps and runtimes.default not in deps:
                return lib
    return runtimes.default


def classify_spec(
    lay: Layout, ref: ImportRef, owner: Manifest | None
) -> tuple[str, str | None, Manifest | None]:
    """("skip"|"internal"|"external", package name, internal target manifest)."""
    spec = ref.module.strip()
    facts = import_facts(ref)
    if facts.jsx:
        name = jsx_source(lay, ref, owner)
        if not name:
            return "skip", None, None
        spec = name
    if facts.types_reference:
        if is_builtin(spec) or spec == "node":
            return "external", node_types(), None
    if not spec or spec.startswith((".", "/", "#")) or re.match(r"^[a-zA-Z]:[\\/]", spec):
        return "skip", None, None
    if spec.startswith(virtual_prefixes()) or re.match(r"^[a-z][\w+.-]*:", spec):
        if not spec.startswith(("node:", "npm:")):
            return "skip", None, None
    if is_builtin(spec):
        return "skip", None, None
    name = package_name(spec)
    if name is None:
        return "skip", None, None
    if owner is not None and owner.data.get("name") == name:
        return "skip", None, None  # a package importing itself
    if owner is not None and _host_provides(owner, name):
        return "skip", None, None  # the host the package runs in hands it over (vscode)
    target = lay.by_name.get(name)
    if target is not None and (owner is None or target.path != owner.path):
        if (
            owner is not None
            and owner.path in lay.unpublished
            and owner.path not in lay.members
            and own_bundler_alias(lay, owner, spec)
        ):
            # an app outside the workspace (a playground) whose own bundler config points the
            # name at the sibling's source files builds that source in: nothing to install
            return "skip", None, None
        return "internal", name, target
    if is_alias(lay, ref.file, spec):
        return "skip", None, None
    return "external", name, None


def _host_provides(owner: Manifest, name: str) -> bool:
    engine = engine_modules().get(name)
    engines = owner.data.get("engines")
    return engine is not None and isinstance(engines, dict) and engine in engines


def _same_family(owner: Manifest, name: str) -> bool:
    """`name` sits in the owner's own scope (`@scope/x` for `@scope/y`) or in the scope named
    after it (`@semantic-release/npm` for `semantic-release`): its plugin family."""
    own = owner.data.get("name")
    if not isinstance(own, str) or not name.startswith("@"):
        return False
    scope = name.split("/")[0]
    if own.startswith("@"):
        return own.split("/")[0] == scope
    return scope == "@" + own


@dataclass(frozen=True)
class _Mapped:
    """One import classified: which package it names, for whom, and where it is placed."""

    ref: ImportRef
    facts: JsImportFacts
    owner: Manifest
    verdict: str  # "internal" | "external"
    name: str
    target: Manifest | None  # the sibling package an internal name points at
    type_only: bool
    section: Section
    how: str  # the classify step that named the package (`--explain` shows it)


def map_imports(project: Project, refs: list[ImportRef], ctx: Context) -> list[Candidate]:
    lay = layout(project)
    out: list[Candidate] = []
    for ref in refs:
        use = _classify(lay, ref)
        if use is None or any(drop(lay, use) for drop in _DROPPED):
            continue
        out.append(_candidate(use))
    return out


def _classify(lay: Layout, ref: ImportRef) -> _Mapped | None:
    """The package an import names and its placement (None: nothing to install)."""
    owner = owner_of(lay, ref.file)
    if owner is None:
        return None
    facts = import_facts(ref)
    verdict, name, target = classify_spec(lay, ref, owner)
    if verdict == "skip" or name is None:
        return None
    type_only = ref.type_only or (facts.elidable and not _keeps_value_imports(lay, ref.file))
    section = package_section(lay, owner, ref.file, ref.kind)
    how = _how_named(facts, verdict, name)
    if type_only and verdict == "external" and name in types_only_modules():
        name = f"@types/{name}"  # `import type { Root } from 'hast'`
        how = "types_only_module"
    if name.startswith("@types/"):
        # Declarations are for the compiler, never run: dev — except that a published
        # library's shipped types (`import type` in its source) reach its users, who
        # then need those declarations too (got → type-fest, react-markdown → @types/hast).
        published = owner.path not in lay.unpublished
        if not (published and type_only and section == Section.RUNTIME):
            if type_only or published:
                section = Section.DEV
    return _Mapped(ref, facts, owner, verdict, name, target, type_only, section, how)


def _how_named(facts: JsImportFacts, verdict: str, name: str) -> str:
    """Which step of classify_spec named the package, for `--explain`."""
    if facts.jsx:
        return "jsx_runtime"  # the JSX runtime a file's JSX compiles to
    if facts.types_reference and name == node_types():
        return "node_types"  # `/// <reference types="node" />` or a builtin's types
    if verdict == "internal":
        return "sibling_package"  # another package.json of the repository
    return "package_name"  # the specifier's first segment(s)


def _uncompiled_jsdoc(lay: Layout, use: _Mapped) -> bool:
    """JSDoc types in JavaScript that TypeScript never compiles name nothing needed."""
    return use.facts.jsdoc and not any(c.checks_js for c in tsconfigs_for(lay, use.ref.file))


def _app_augmentation(lay: Layout, use: _Mapped) -> bool:
    """An app's declaration file augmenting a module its framework brings (components.d.ts:
    `import '@vue/runtime-core'`): no consumer sees its types, unlike a workspace package's
    exported global.d.ts."""
    owner, rel = use.owner, use.ref.file
    return (
        use.facts.augmentation
        and owner.path in lay.unpublished
        and not _shipped(owner, rel[len(owner.directory) + 1 :] if owner.directory else rel)
    )


def _unconfirmed_string(lay: Layout, use: _Mapped) -> bool:
    """A scoped name in a plain string counts only in a published package's shipped code, as
    a sibling package handed on as one value or a package of the package's own family."""
    if not use.facts.string_literal:
        return False
    confirmed = (use.verdict == "internal" and use.facts.single_value) or (
        use.verdict == "external" and _same_family(use.owner, use.name)
    )
    return not confirmed or use.section != Section.RUNTIME or use.owner.path in lay.unpublished


# Why a classified import installs nothing, tried in order.
_DROPPED = (_uncompiled_jsdoc, _app_augmentation, _unconfirmed_string)


def _candidate(use: _Mapped) -> Candidate:
    ref, facts = use.ref, use.facts
    ev = Evidence(
        "jsx-runtime" if facts.jsx else "import", ref.file, ref.line, ref.module or use.name
    )
    cand = Candidate(
        ecosystem=Ecosystem.NPM,
        name=use.name,
        manifest=use.owner.path,
        section=use.section,
        import_names=[ref.module or use.name],
        evidence=[ev],
        optional=ref.optional,
        facts=NpmFacts(
            type_only=use.type_only,
            dynamic=ref.dynamic,
            heuristic=facts.heuristic or facts.string_literal,
            require=facts.require,
            named_by=use.how,
        ),
    )
    if use.verdict == "internal" and use.target is not None:
        cand.internal = True
        cand.path = use.target.directory
    return cand


def _keeps_value_imports(lay: Layout, rel_file: str) -> bool:
    """tsconfig options under which TypeScript keeps an import whose bindings are only
    types (verbatimModuleSyntax, preserveValueImports; TSConfig reference)."""
    for cfg in tsconfigs_for(lay, rel_file):
        for flag in ("verbatimModuleSyntax", "preserveValueImports"):
            if flag in cfg.flags:
                return cfg.flags[flag]
    return False


def standalone_example(manifest: Manifest) -> bool:
    """A member under an examples/samples folder is written to be copied out and run on
    its own (`npx degit …/examples/react/basic`): it lists what it uses itself rather
    than relying on the workspace root."""
    return any(part.lower() in _EXAMPLE_FOLDERS for part in PurePosixPath(manifest.directory).parts)


# not `playground`: a workspace's playground is run from the workspace, with its root's tools
_EXAMPLE_FOLDERS = {"example", "examples", "sample", "samples", "demo", "demos"}
