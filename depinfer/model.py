"""Plain dataclasses passed between the pipeline's stages.

Every stage takes and returns these and nothing else, so a stage can be tested on its own
and no stage needs to reach back into an earlier one. Each decision keeps its `Evidence`
so `--explain` and `--json` can say why a line of output exists.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any


class Ecosystem(str, Enum):
    PYPI = "pypi"
    NPM = "npm"
    CRATES = "crates"
    NUGET = "nuget"


# language name (as used by analyzers) -> the registry its packages come from
LANGUAGE_ECOSYSTEM: dict[str, Ecosystem] = {
    "python": Ecosystem.PYPI,
    "javascript": Ecosystem.NPM,
    "rust": Ecosystem.CRATES,
    "csharp": Ecosystem.NUGET,
}


class FileKind(str, Enum):
    """What role a file plays; decides which dependency section its imports land in."""

    SOURCE = "source"
    TEST = "test"
    BUILD = "build"  # build scripts: setup.py, build.rs, ...
    EXAMPLE = "example"
    DOCS = "docs"
    BENCH = "bench"
    SCRIPT = "script"  # tooling scripts outside the shipped package (scripts/, tools/)
    CONFIG = "config"


class Section(str, Enum):
    """Where a requirement goes, independent of the manifest format's own names."""

    RUNTIME = "runtime"
    DEV = "dev"  # tests, docs, examples, tooling
    BUILD = "build"
    OPTIONAL = "optional"  # an extra / optional dependency
    PEER = "peer"


@dataclass(frozen=True)
class Evidence:
    """One reason for a decision: a place in the code, a rule, or a registry fact."""

    rule: str  # e.g. "import", "rule:pytest-mock", "registry:exists", "index:pypi"
    file: str | None = None
    line: int | None = None
    detail: str = ""

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.file and self.line else (self.file or "")
        parts = [p for p in (where, self.rule, self.detail) if p]
        return " ".join(parts)


@dataclass
class Diagnostic:
    """A message for the user. `file` names the offending file whenever there is one."""

    message: str
    file: str | None = None
    level: str = "warning"  # "error" | "warning" | "info"

    def __str__(self) -> str:
        return f"{self.file}: {self.message}" if self.file else self.message


@dataclass(frozen=True)
class Facts:
    """Base of each language's typed facts about one import, candidate or requirement.

    A stage hands a later one what it learnt through a frozen subclass defined in
    `depinfer/facts/<language>.py` (below every stage, so any stage may import it by
    name); an `isinstance` check tells the reader whose facts these are. Replaces the
    untyped `extra` dicts: a reader can see every field a stage hands the next.
    """


@dataclass(frozen=True)
class ArbiterChoice:
    """The hybrid arbiter's answer that replaced a rule-based choice (`--explain` shows it)."""

    question: str  # what was asked about: the import or name in question
    choice: str  # the name the model chose ("none": leave it out)
    alternatives: tuple[str, ...]  # the names it chose among, sorted
    rule_choice: str  # what the rules had chosen ("none": nothing was written)
    model: str  # the model that answered


@dataclass
class SourceFile:
    path: str  # repository-relative, POSIX separators
    language: str  # "python" | "javascript" | "rust" | "csharp" | "notebook" ...
    kind: FileKind
    size: int = 0


@dataclass
class Manifest:
    """A build file and what it already declares.

    `declared` maps a section name of the manifest's own vocabulary (e.g. "dependencies",
    "optional-dependencies.test", "devDependencies", "dev-dependencies") to the declared
    package names (as written). `parse_error` is set when the file could not be read; such
    a manifest is never written.
    """

    path: str
    ecosystem: Ecosystem
    format: str  # pep621 | poetry | requirements | setup_cfg | setup_py | package_json | cargo | csproj | props
    declared: dict[str, list[str]] = field(default_factory=dict)
    parse_error: str | None = None
    data: dict[str, Any] = field(
        default_factory=dict
    )  # format-specific facts (name, python, members, ...)

    @property
    def directory(self) -> str:
        parent = str(Path(self.path).parent).replace("\\", "/")
        return "" if parent == "." else parent


@dataclass
class SourceTexts:
    """Decoded source files of one run with what reading each said (scan.read_source)."""

    found: dict[str, tuple[str | None, list[Diagnostic]]] = field(default_factory=dict)
    chars: int = 0  # characters kept in all


@dataclass
class Project:
    """What scan learnt about a repository. Read-only for later stages."""

    root: Path
    files: list[SourceFile] = field(default_factory=list)
    manifests: list[Manifest] = field(default_factory=list)
    ci_files: list[str] = field(default_factory=list)
    # .sln / .slnx / .slnf files: which C# projects are built together
    solution_files: list[str] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    last_commit_date: str | None = None  # ISO date of HEAD when the tree is a git checkout
    # source texts read so far (scan.read_source): the analyzer, mapping and rules each
    # read every source file, and reading it once saves a tenth of a warm run on a big tree
    texts: SourceTexts = field(default_factory=SourceTexts, repr=False, compare=False)

    @property
    def languages(self) -> list[str]:
        seen: list[str] = []
        for f in self.files:
            lang = "python" if f.language == "notebook" else f.language
            if lang in LANGUAGE_ECOSYSTEM and lang not in seen:
                seen.append(lang)
        for m in self.manifests:
            for lang, eco in LANGUAGE_ECOSYSTEM.items():
                if m.ecosystem == eco and lang not in seen:
                    seen.append(lang)
        return seen

    def files_of(self, *languages: str) -> list[SourceFile]:
        return [f for f in self.files if f.language in languages]

    def manifests_of(self, ecosystem: Ecosystem) -> list[Manifest]:
        return [m for m in self.manifests if m.ecosystem == ecosystem]

    def abspath(self, rel: str) -> Path:
        return self.root / rel


@dataclass
class ImportRef:
    """One use of an external-looking name in the code, as the analyzer saw it."""

    module: str  # "yaml", "google.cloud.storage", "lodash/fp", "serde", "Newtonsoft.Json"
    file: str
    line: int
    language: str
    kind: FileKind = FileKind.SOURCE
    optional: bool = False  # guarded (try/except ImportError, cfg(feature), ...)
    type_only: bool = False  # TYPE_CHECKING, `import type`
    marker: str | None = None  # PEP 508 marker text or cfg(...) expression
    dynamic: bool = False  # importlib/require() with a literal
    relative: bool = False
    names: tuple[str, ...] = ()  # imported members (from x import a, b) — API bounds use them
    facts: Facts | None = None  # the language's own typed facts (depinfer/facts/)


@dataclass
class Candidate:
    """A package (or sibling project) the code may need, with the evidence for it."""

    ecosystem: Ecosystem
    name: str
    manifest: str  # path of the manifest this belongs to
    section: Section = Section.RUNTIME
    import_names: list[str] = field(default_factory=list)
    evidence: list[Evidence] = field(default_factory=list)
    confidence: float = 1.0
    optional: bool = False
    markers: str | None = None
    features: list[str] = field(default_factory=list)
    alternatives: list[str] = field(default_factory=list)  # other plausible names
    ambiguous: bool = False  # the hybrid arbiter may reconsider
    verified: bool | None = None  # registry confirmed (True), denied (False), unknown (None)
    internal: bool = False  # a sibling project (path/workspace/ProjectReference)
    path: str | None = None  # for internal references: repository-relative target
    spec: str | None = None  # a version constraint found as evidence (pin elsewhere, ...)
    kinds: tuple[str, ...] = ()  # the file roles (FileKind values) the name is used from
    group: str | None = None  # existing group/extra name to place into (e.g. "test")
    # the registry's popularity rank of this name and of its alternatives, best first
    # (name, rank); the hybrid arbiter shows them beside each option
    ranks: tuple[tuple[str, int], ...] = ()
    facts: Facts | None = None  # the language's own typed facts (depinfer/facts/)


@dataclass
class Requirement:
    """A line to write: resolved name, constraint and placement."""

    ecosystem: Ecosystem
    name: str
    manifest: str
    section: Section = Section.RUNTIME
    spec: str = ""  # in the manifest's own idiom ("" = unconstrained)
    features: list[str] = field(default_factory=list)
    markers: str | None = None
    optional: bool = False
    group: str | None = None  # existing group/extra name to place into (e.g. "test")
    internal: bool = False
    path: str | None = None
    verified: bool | None = None
    evidence: list[Evidence] = field(default_factory=list)
    alternatives: list[str] = field(default_factory=list)
    facts: Facts | None = None  # the candidate's facts, carried to the writer
    llm: ArbiterChoice | None = None  # hybrid mode: the arbiter's answer that chose this name


@dataclass
class ManifestEdit:
    path: str
    old_text: str
    new_text: str
    added: list[str] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return self.old_text != self.new_text


@dataclass
class Inference:
    """The whole decision record of one run."""

    project: Project
    requirements: list[Requirement] = field(default_factory=list)
    candidates: list[Candidate] = field(default_factory=list)
    edits: list[ManifestEdit] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    llm: dict[str, Any] = field(default_factory=dict)  # hybrid mode: questions, calls, tokens

    def to_json(self) -> dict[str, Any]:
        def clean(obj: Any) -> Any:
            if isinstance(obj, Enum):
                return obj.value
            if isinstance(obj, dict):
                return {k: clean(v) for k, v in obj.items()}
            if isinstance(obj, list | tuple):
                return [clean(v) for v in obj]
            if isinstance(obj, Path):
                return str(obj)
            return obj

        return {
            "root": str(self.project.root),
            "manifests": [
                {
                    "path": m.path,
                    "format": m.format,
                    "ecosystem": m.ecosystem.value,
                    "parse_error": m.parse_error,
                }
                for m in self.project.manifests
            ],
            "requirements": [clean(asdict(r)) for r in self.requirements],
            "diagnostics": [clean(asdict(d)) for d in self.diagnostics],
            **({"llm": self.llm} if self.llm else {}),
        }
