"""The build script of the hand-curated tables under depinfer/data/: it checks them.

Most shipped tables are written by a `scripts/build_*.py` that names its sources (GENERATED
below). The others are curated by hand from documentation; nothing rebuilds them, so this
script holds them to what a build script would guarantee (depinfer/data/README.md lists
every table, its source and how it is built):

(a) offline, always: every curated table names its source, per row where the table is a
    list (or map) of rows — the field that table uses for it (`source`, `docs`, `why`) —
    or per file (an `about`/`source`/`_source`/`docs` key; in TOML a leading comment with
    a `Source:` line). Each row or file that does not is reported by file and row, as is
    a top-level key that is neither rows with sources nor covered by a file-level source,
    a shipped table that is neither curated (CURATED) nor written by a build script
    (GENERATED), and a table depinfer/data/README.md does not list.
(b) with --online: every package name a curated table names exists on its registry,
    asked through depinfer's own registry clients (`depinfer.registries.Registries`,
    whose endpoints come from the user's configuration, as for depinfer itself). Where
    the names are is declared per table in CURATED (`Names`): only those names are asked,
    one question each; no registry is listed or searched. Names the registry does not know
    are printed; a registry that cannot be reached leaves its names "not checked".

Paths in CURATED are dotted: a key, `*` for every item of a list or value of a dict (the
documentation keys in DOC_KEYS aside), `~` for the keys of a dict.

Exits 1 when something is wrong (a missing source, an unregistered or unlisted table, a
name its registry does not know); "not checked" alone is not an error.

Run: python scripts/check_tables.py [--online]
"""

from __future__ import annotations

import argparse
import fnmatch
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from depinfer.data import DATA_DIR, load_table  # noqa: E402
from depinfer.model import LANGUAGE_ECOSYSTEM, Ecosystem  # noqa: E402
from depinfer.registries import LABELS, Registries  # noqa: E402

SCRIPTS = ROOT / "scripts"
README = DATA_DIR / "README.md"
# Keys that document a table (or a map of rows) rather than being data of its own.
DOC_KEYS = frozenset({"about", "_about", "source", "_source", "sources", "docs"})
# A TOML table's leading comment names its source on a line starting so.
COMMENT_SOURCE = re.compile(r"^#\s*Sources?:\s*\S", re.M)


@dataclass(frozen=True)
class Names:
    """Where a table names packages: `path` to the names, the registry they are on (an
    Ecosystem value, or `@field`: the language named by that field of the enclosing row),
    and how a value reads as a name: `package` (as is; a glob is a pattern, not a name),
    `specifier` (a module specifier, `module:` prefix allowed: its package; another
    `kind:` prefix is no package) or `types` (a module whose declarations are
    `@types/<module>`)."""

    path: str
    ecosystem: str
    kind: str = "package"


@dataclass(frozen=True)
class Spec:
    """How a curated table names its sources and packages.

    `file`: keys that carry a file-level source (`#`: a TOML leading comment with a
    `Source:` line); empty when the rows carry them. `rows`: path of rows → the fields any
    one of which names the row's source. `names`: where the table names packages."""

    file: tuple[str, ...] = ()
    rows: dict[str, tuple[str, ...]] = field(default_factory=dict)
    names: tuple[Names, ...] = ()


SOURCE = ("source",)
DOCS = ("docs",)
WHY = ("why",)

CURATED: dict[str, Spec] = {
    "common/ci_commands.toml": Spec(
        rows={"test_command.*": WHY, "lint_word.*": WHY, "install_command.*": WHY}
    ),
    "common/environment_failures.toml": Spec(rows={"failure.*": SOURCE}),
    "common/repair_patterns.toml": Spec(
        rows={"pattern.*": WHY}, names=(Names("pattern.*.package", "@language"),)
    ),
    "common/unused_exceptions.toml": Spec(
        rows={"pypi.*": WHY, "npm.*": WHY, "nuget.*": WHY},
        names=(
            Names("pypi.*.glob", "pypi"),
            Names("npm.*.glob", "npm"),
            Names("nuget.*.glob", "nuget"),
        ),
    ),
    "csharp/builder_methods.json": Spec(rows={"families.*": SOURCE, "settings.*": SOURCE}),
    "csharp/frameworks.json": Spec(
        rows={
            **dict.fromkeys(
                ("aspire", "ef_core", "blazor_wasm", "traversal", "aspnetcore", "roslyn"), SOURCE
            ),
            "platform": SOURCE,
            "tag_versioning.*": SOURCE,
        },
        names=(
            Names("aspire.apphost_sdk", "nuget"),
            Names("aspire.testing_package", "nuget"),
            Names("traversal.sdk", "nuget"),
            Names("tag_versioning.*.package", "nuget"),
        ),
    ),
    "csharp/build_evidence.json": Spec(
        rows={"rules.*": SOURCE}, names=(Names("rules.*.package", "nuget"),)
    ),
    "csharp/polyfills.json": Spec(
        rows={"rows.*": SOURCE}, names=(Names("rows.*.package", "nuget"),)
    ),
    "javascript/alias_configs.toml": Spec(rows={"config.*": SOURCE, "prefix.*": SOURCE}),
    "javascript/app_templates.toml": Spec(
        rows={"template.*": DOCS},
        names=(
            Names("template.*.runner", "npm"),
            Names("template.*.dependencies.*", "npm"),
            Names("template.*.provides.*", "npm"),
        ),
    ),
    "javascript/companions.toml": Spec(
        rows={"companion.*": DOCS},
        names=(
            Names("companion.*.when", "npm", "specifier"),
            Names("companion.*.needs", "npm"),
            Names("companion.*.unless.*", "npm"),
            Names("companion.*.beside.*", "npm"),
        ),
    ),
    "javascript/components.toml": Spec(
        rows={"component.*": SOURCE}, names=(Names("component.*.runtime", "npm"),)
    ),
    "javascript/hosts.toml": Spec(rows={"host.*": DOCS}, names=(Names("host.*.name", "npm"),)),
    "javascript/jsx_runtimes.toml": Spec(
        rows={"default": SOURCE, "extension.*": SOURCE, "declared.*": SOURCE},
        names=(
            Names("default.runtime", "npm"),
            Names("extension.*.runtime", "npm"),
            Names("declared.*.runtime", "npm"),
        ),
    ),
    "javascript/orm_drivers.toml": Spec(
        rows={"driver.*": DOCS},
        names=(Names("driver.*.orms.*", "npm"), Names("driver.*.needs.*", "npm")),
    ),
    "javascript/module_loaders.toml": Spec(rows={"member_call.*": SOURCE}),
    "javascript/test_environments.toml": Spec(
        rows={"*": SOURCE}, names=(Names("*.packages.*", "npm"),)
    ),
    "javascript/types_only.toml": Spec(
        file=("#",), names=(Names("names.*", "npm", "types"), Names("node", "npm"))
    ),
    "javascript/virtual_modules.toml": Spec(rows={"virtual.*": SOURCE, "engine_module.*": SOURCE}),
    "javascript/tools/*.toml": Spec(
        file=DOCS,
        rows={"units.*": DOCS, "settings.*": DOCS, "units.*.settings.*": DOCS},
        names=(
            Names("implies.*", "npm"),
            Names("units.*.implies.*", "npm"),
            Names("settings.*.package", "npm"),
            Names("units.*.settings.*.package", "npm"),
        ),
    ),
    "python/build_tools.toml": Spec(rows={"tool.*": SOURCE}, names=(Names("tool.*.name", "pypi"),)),
    "python/ci_tools.toml": Spec(
        rows={"job_tooling.*": WHY, "wrapper.*": WHY},
        names=(Names("job_tooling.*.name", "pypi"),),
    ),
    "python/django_settings.json": Spec(file=SOURCE),
    "python/executables.toml": Spec(file=("#",), names=(Names("executables.*", "pypi"),)),
    "python/ci_test_runners.toml": Spec(
        rows={"runner.*": SOURCE},
        names=(Names("runner.*.dist", "pypi"),),
    ),
    "python/hosts.toml": Spec(rows={"host.*": SOURCE}, names=(Names("host.*.dist", "pypi"),)),
    "python/implicit.json": Spec(
        rows={"rules.*": SOURCE},
        names=(Names("rules.*.dist", "pypi"), Names("rules.*.unless_declared.*", "pypi")),
    ),
    "python/python_backports.json": Spec(
        rows={
            "backports.*": SOURCE,
            "removed.*": SOURCE,
            "since_before_table": ("about",),
            "api_since": ("about",),
        },
        names=(Names("backports.*.dist", "pypi"), Names("removed.*.dist", "pypi")),
    ),
    "python/tool_evidence.toml": Spec(
        file=("#",),
        rows={"tool.*": SOURCE},
        names=(Names("tool.*.dist", "pypi"), Names("docs.builder", "pypi")),
    ),
    "python/version_flags.json": Spec(file=SOURCE, rows={"flags.*": WHY}),
    "rust/helper_methods.json": Spec(file=("_source",), names=(Names("crates.~", "crates"),)),
    "rust/module_macros.json": Spec(
        rows={"macros.*": SOURCE}, names=(Names("macros.*.crate", "crates"),)
    ),
    "rust/quoting_macros.json": Spec(
        file=("_source",), rows={"macros.*": WHY}, names=(Names("macros.*.crate", "crates"),)
    ),
    "rust/serde.json": Spec(file=("_source",), names=(Names("crate", "crates"),)),
    "rust/test_attributes.json": Spec(rows={"attributes.*": SOURCE}),
    "rust/umbrella_features.json": Spec(
        file=("_source",), rows={"crates.*": SOURCE}, names=(Names("crates.~", "crates"),)
    ),
}

# Tables a build script writes (or, for bins.toml, checks against the registry): the
# script names their sources in its docstring.
GENERATED: dict[str, str] = {
    "csharp/conventions.json": "build_nuget_index.py",
    "csharp/declare_model.toml": "fit_csharp_declare_model.py",
    "csharp/nuget_inbox.json": "build_nuget_index.py",
    "csharp/nuget_index.json": "build_nuget_index.py",
    "javascript/bins.toml": "build_npm_bins.py",
    "javascript/node_builtins.json": "build_node_builtins.py",
    "python/api_lifecycles.json": "build_api_lifecycles.py",
    "python/cython_includes.json": "build_cython_includes.py",
    "python/declare_model.toml": "fit_declare_model.py",
    "python/extension_arguments.json": "build_extension_arguments.py",
    "python/framework_parts.json": "build_framework_parts.py",
    "python/optional_imports.json": "build_optional_imports.py",
    "python/pypi_modules.json": "build_pypi_index.py",
    "python/pytest_plugins.toml": "build_pytest_plugins.py",
    "python/python_stdlib.json": "build_python_stdlib.py",
    "rust/async_attributes.json": "build_rust_async_attributes.py",
    "rust/derives.json": "build_rust_derives.py",
    "rust/gates.json": "build_rust_gates.py",
    "rust/macro_syntax.json": "build_rust_macro_syntax.py",
    "rust/rust_lib_names.json": "build_rust_lib_names.py",
    "rust/rust_std.json": "build_rust_std.py",
    "rust/std_methods.json": "build_rust_std_methods.py",
}


# ---------------------------------------------------------------- walking a table


def walk(node: Any, path: str, label: str = "", row: Any = None) -> Iterator[tuple[str, Any, Any]]:
    """(label, value, nearest enclosing dict) for every value `path` reaches in `node`."""
    row = node if isinstance(node, dict) else row
    if not path:
        yield label, node, row
        return
    head, _, rest = path.partition(".")
    if head == "~":
        for key in node if isinstance(node, dict) else ():
            yield f"{label}.{key}".lstrip("."), key, row
    elif head == "*":
        if isinstance(node, list):
            for i, item in enumerate(node):
                yield from walk(item, rest, f"{label}[{i}]", row)
        elif isinstance(node, dict):
            for key, value in node.items():
                if key not in DOC_KEYS:
                    yield from walk(value, rest, f"{label}.{key}".lstrip("."), row)
    elif isinstance(node, dict) and head in node:
        yield from walk(node[head], rest, f"{label}.{head}".lstrip("."), row)


def spec_for(name: str) -> Spec | None:
    """The curated spec of table `name` (a path under depinfer/data/), if it is curated."""
    return next((s for pattern, s in CURATED.items() if fnmatch.fnmatch(name, pattern)), None)


def shipped_tables(data_dir: Path = DATA_DIR) -> list[str]:
    return sorted(
        p.relative_to(data_dir).as_posix()
        for p in data_dir.rglob("*")
        if p.suffix in (".json", ".toml")
    )


# ---------------------------------------------------------------- (a) sources


def _named(value: Any) -> bool:
    """A source field's value names something (a non-empty text, list or map)."""
    if isinstance(value, str):
        return bool(value.strip())
    return bool(value) and isinstance(value, list | dict)


def _hint(row: dict) -> str:
    """The row's first short text value, to tell it apart in a report."""
    for key, value in row.items():
        if isinstance(value, str) and key not in DOC_KEYS and len(value) <= 60:
            return f' ({key} = "{value}")'
    return ""


def file_source(data: Any, text: str, keys: tuple[str, ...]) -> bool:
    """Whether the table names its source at file level, through one of `keys`."""
    if "#" in keys:
        lead = re.match(r"(?:\s*#[^\n]*\n)+", text)
        if lead and COMMENT_SOURCE.search(lead.group(0)):
            return True
    return isinstance(data, dict) and any(_named(data.get(k)) for k in keys if k != "#")


def source_problems(name: str, data: Any, text: str, spec: Spec) -> list[str]:
    """What keeps the curated table `name` from naming its sources (empty: nothing)."""
    out = []
    if spec.file and not file_source(data, text, spec.file):
        where = " or ".join("a leading '# Source:' comment" if k == "#" else k for k in spec.file)
        out.append(f"{name}: no file-level source ({where})")
    for path, fields in spec.rows.items():
        for label, row, _ in walk(data, path):
            if not isinstance(row, dict):
                out.append(f"{name} {label}: not a row (expected a table with {fields[0]})")
            elif not any(_named(row.get(f)) for f in fields):
                out.append(f"{name} {label}{_hint(row)}: no {' or '.join(fields)}")
    if not spec.file and isinstance(data, dict):  # rows only: every key must be rows
        heads = {p.split(".", 1)[0] for p in spec.rows}
        for key in data:
            if key not in DOC_KEYS and key not in heads and "*" not in heads:
                out.append(f"{name} {key}: neither rows with sources nor a file-level source")
    return out


def registration_problems(data_dir: Path = DATA_DIR, readme: Path = README) -> list[str]:
    """Shipped tables that are neither curated nor generated, generated ones whose script
    is missing or does not name them, and tables depinfer/data/README.md does not list."""
    out = []
    listed = readme.read_text(encoding="utf-8") if readme.exists() else ""
    shown = readme.relative_to(ROOT).as_posix() if readme.is_relative_to(ROOT) else readme
    for name in shipped_tables(data_dir):
        script = GENERATED.get(name)
        curated = spec_for(name) is not None
        if curated == bool(script):
            out.append(f"{name}: must be either curated (CURATED) or generated (GENERATED)")
        if script:
            path = SCRIPTS / script
            if not path.exists() or Path(name).name not in path.read_text(encoding="utf-8"):
                out.append(f"{name}: scripts/{script} is missing or does not name it")
        if f"`{name}`" not in listed:
            out.append(f"{name}: not listed in {shown}")
    return out


def check_sources(data_dir: Path = DATA_DIR) -> tuple[list[str], int]:
    """(problems, number of curated tables read) over the shipped curated tables."""
    out, count = [], 0
    for name in shipped_tables(data_dir):
        spec = spec_for(name)
        if spec is None:
            continue
        count += 1
        text = (data_dir / name).read_text(encoding="utf-8")
        out += source_problems(name, load_table(name, data_dir), text, spec)
    return out, count


# ---------------------------------------------------------------- (b) package names


def _as_name(value: Any, kind: str) -> str | None:
    """The package name `value` stands for, by the kind of its field; None: no name."""
    if not isinstance(value, str) or not value or any(c in value for c in "*?["):
        return None
    if kind == "types":
        return f"@types/{value}"
    if kind == "specifier":
        if value.startswith("module:"):
            value = value[len("module:") :]
        elif re.match(r"^[\w-]+:", value):
            return None  # tsconfig:importHelpers: a compiler option, not a package
        parts = value.split("/")
        return "/".join(parts[:2]) if value.startswith("@") else parts[0]
    return value


def package_names(name: str, data: Any, spec: Spec) -> list[tuple[Ecosystem, str, str]]:
    """(registry, package, where) for every package name the table names."""
    out = []
    for names in spec.names:
        for label, value, row in walk(data, names.path):
            package = _as_name(value, names.kind)
            if package is None:
                continue
            if names.ecosystem.startswith("@"):
                language = (row or {}).get(names.ecosystem[1:])
                if language not in LANGUAGE_ECOSYSTEM:
                    continue
                eco = LANGUAGE_ECOSYSTEM[language]
            else:
                eco = Ecosystem(names.ecosystem)
            out.append((eco, package, f"{name} {label}"))
    return out


def all_package_names(data_dir: Path = DATA_DIR) -> list[tuple[Ecosystem, str, str]]:
    out = []
    for name in shipped_tables(data_dir):
        spec = spec_for(name)
        if spec is not None:
            out += package_names(name, load_table(name, data_dir), spec)
    return out


@dataclass
class NameReport:
    """What the registries said of the names: per registry, how many were asked, the names
    it does not know (with where each is named) and those it could not be asked about."""

    asked: dict[Ecosystem, int] = field(default_factory=dict)
    unknown: dict[Ecosystem, list[tuple[str, str]]] = field(default_factory=dict)
    unchecked: dict[Ecosystem, list[str]] = field(default_factory=dict)

    def lines(self) -> list[str]:
        out = []
        for eco, count in self.asked.items():
            bad, skipped = self.unknown.get(eco, []), self.unchecked.get(eco, [])
            head = f"{LABELS[eco]}: {count} names, {len(bad)} unknown"
            out.append(head + (f", {len(skipped)} not checked" if skipped else ""))
            out += [f"  unknown to {LABELS[eco]}: {pkg} ({where})" for pkg, where in bad]
            if skipped:
                out.append(
                    f"  not checked ({LABELS[eco]} could not be asked): {', '.join(skipped)}"
                )
        return out


def check_names(names: list[tuple[Ecosystem, str, str]], registry: Any) -> NameReport:
    """Ask `registry` (anything with `exists(ecosystem, name) -> bool | None`) about each
    distinct name once; True: known, False: unknown, None: not checked."""
    where: dict[tuple[Ecosystem, str], str] = {}
    for eco, package, place in names:
        where.setdefault((eco, package), place)
    report = NameReport()
    for eco in Ecosystem:
        asked = sorted({p for e, p in where if e is eco})
        if not asked:
            continue
        many = getattr(registry, "exists_many", None)
        answers = many(eco, asked) if many else {p: registry.exists(eco, p) for p in asked}
        report.asked[eco] = len(asked)
        report.unknown[eco] = [(p, where[eco, p]) for p in asked if answers.get(p) is False]
        report.unchecked[eco] = [p for p in asked if answers.get(p) is None]
    return report


# ---------------------------------------------------------------- command line


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--online", action="store_true", help="also ask the registries")
    args = parser.parse_args(argv)
    problems, count = check_sources()
    problems += registration_problems()
    for line in problems:
        print(line)
    print(f"sources: {count} curated tables, {len(problems)} problems")
    failed = bool(problems)
    if args.online:
        registries = Registries(offline=False)
        try:
            report = check_names(all_package_names(), registries)
        finally:
            registries.close()
        for line in report.lines():
            print(line)
        failed |= any(report.unknown.values())
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
