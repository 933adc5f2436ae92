"""C#'s typed facts: what the analyzer saw in each file, and what a dependency carries.

- `CsRefFacts` rides on the analyzer's `ImportRef`s for `using`s, qualified names,
  attributes and syntax errors (and on the anchor refs mapping makes for rules);
- `CsFileFacts` is the one summary per source file: names used, member pairs, types and
  namespaces declared, extension methods, newer-syntax features;
- `CsDepFacts` rides on a `Candidate` and the `Requirement` made from it: how the
  package or ProjectReference is written (analyzer, build order, per-TFM, central …)
  and how the later C# steps treat it (direct entry point, inherited, published …).
Readers use `ref_kind`, `file_facts` and `dep_facts`, which answer with the defaults for
refs and candidates that carry no C# facts (a repair candidate, say).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from depinfer.model import Facts

# (namespace, type name, public)
TypeDecl = tuple[str, str, bool]
# (namespace, extension method, ((fewest, most) arguments of each overload, …))
ExtensionArity = tuple[str, str, tuple[tuple[int, int], ...]]


@dataclass(frozen=True)
class CsRefFacts(Facts):
    """One use the analyzer found: a `using`, a qualified name, an attribute, a parse error."""

    kind: str = ""  # "using" | "qualified" | "attribute" | "syntax_error" | "rule"
    project: str | None = None  # the .csproj that compiles the file
    global_using: bool = False  # `global using`, `_Imports.razor`, a `<Using>` item
    static: bool = False  # `using static N.T;`
    alias: str | None = None  # `using A = N.T;`
    guard: tuple[tuple[str, bool], ...] = ()  # enclosing `#if` branches: (symbol, defined)
    msbuild: bool = False  # a `<Using Include>` item of the project or its props
    enclosing: str = ""  # the namespace a `using` sits in (its name resolves relative to it)


@dataclass(frozen=True)
class CsFileFacts(Facts):
    """One source file's summary: what it uses and what it declares."""

    project: str | None = None  # the .csproj that compiles the file
    identifiers: tuple[str, ...] = ()  # capitalised names used (types, members, calls)
    pairs: tuple[str, ...] = ()  # `A.B` member accesses, by their last two names
    namespaces: tuple[str, ...] = ()  # namespaces the file declares
    types: tuple[TypeDecl, ...] = ()  # top-level types the file declares
    extensions: tuple[tuple[str, str], ...] = ()  # (namespace, extension method) declared
    member_only: tuple[str, ...] = ()  # names only read as members (`x.Name`)
    called_only: tuple[str, ...] = ()  # names only called as members (`x.Name(…)`)
    called: tuple[str, ...] | None = None  # names called as members; None: every identifier
    nested: tuple[str, ...] = ()  # types declared inside other types
    attribute_names: tuple[str, ...] = ()  # "Ns.NameAttribute" string literals
    features: tuple[str, ...] = ()  # newer syntax older targets need polyfills for
    extension_arity: tuple[ExtensionArity, ...] = ()  # overload argument counts
    call_arity: tuple[tuple[str, tuple[int, ...]], ...] = ()  # member call -> argument counts

    kind = "file"

    def calls(self) -> set[str]:
        """Names called as members, every identifier when the analyzer did not say."""
        return set(self.identifiers if self.called is None else self.called)

    def call_counts(self) -> dict[str, tuple[int, ...]]:
        """Member call name -> the argument counts seen at its calls."""
        return dict(self.call_arity)


@dataclass(frozen=True)
class CompanionFeatures:
    """What the C# declare model (rules/csharp_declare.py) reads about a package a project
    template adds beside others with no code naming it (coverlet.collector in a test
    project): its role, the project's test framework and host, and the evidence the
    repository shows for it."""

    package: str  # the companion package
    role: str  # its role in the companions table ("coverage", …)
    project: str  # the kind of project ("test")
    framework: str  # the test framework the project uses ("xunit", "nunit", …, "none")
    host: str  # how its tests run: "vstest" (dotnet test's VSTest host) or "platform"
    evidence: str  # "ci" (CI names it), "listed" (a props file lists it) or "none"
    repository: str = "apps"  # "packages": some project sets NuGet pack metadata; else "apps"


@dataclass(frozen=True)
class CsDepFacts(Facts):
    """How a C# package or ProjectReference is written and carried through the C# steps."""

    kind: str | None = None  # lib | analyzer | build | framework | project (None: ask the index)
    convention: bool = False  # added by a convention rule, not by code
    direct: bool = False  # the project calls an entry point of the package itself
    tfms: tuple[str, ...] = ()  # only these target frameworks need it (a Condition)
    framework_reference: bool = False  # a FrameworkReference, not a PackageReference
    weight: float = 1.0  # how firmly the code shows a ProjectReference (1.0 = one firm use)
    analyzer: bool = False  # a ProjectReference to a compiler plug-in (OutputItemType=Analyzer)
    build_order: bool = False  # a ProjectReference for build order only (no assembly)
    inherited: bool = False  # a Directory.Build file already makes this reference
    named: bool = False  # named by the project file itself (TrimmerRootAssembly)
    published: str | None = None  # the sibling project taken as its published package
    pinned: str | None = None  # that package's own fixed version
    private_assets: bool = False  # written with PrivateAssets=all (a build-time tool)
    central: bool = False  # under central package management: no Version attribute
    package_version: bool = False  # a PackageVersion for Directory.Packages.props
    companion: CompanionFeatures | None = None  # a template companion the declare model decides


def ref_kind(ref: Any) -> str:
    """The C# kind of an ImportRef ("using", "file", …), "" when it carries no C# facts."""
    facts = ref.facts
    return facts.kind if isinstance(facts, CsRefFacts | CsFileFacts) else ""


def ref_project(ref: Any) -> str | None:
    """The .csproj that compiles the file of an ImportRef, None when not known."""
    facts = ref.facts
    return facts.project if isinstance(facts, CsRefFacts | CsFileFacts) else None


def ref_facts(ref: Any) -> CsRefFacts:
    """An ImportRef's use facts (the defaults when it has none)."""
    return ref.facts if isinstance(ref.facts, CsRefFacts) else CsRefFacts()


def file_facts(ref: Any) -> CsFileFacts:
    """A file summary's facts (empty when the ref is no file summary)."""
    return ref.facts if isinstance(ref.facts, CsFileFacts) else CsFileFacts()


def dep_facts(item: Any) -> CsDepFacts:
    """A Candidate's or Requirement's C# facts (the defaults when it has none)."""
    return item.facts if isinstance(item.facts, CsDepFacts) else CsDepFacts()


def set_dep(item: Any, **changes: Any) -> None:
    """Update a Candidate's or Requirement's C# facts (both are mutable holders)."""
    item.facts = replace(dep_facts(item), **changes)
