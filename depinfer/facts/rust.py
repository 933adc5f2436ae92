"""Rust's typed facts: what the analyzer saw at a use (`ImportRef.facts`), what mapping and
rules learnt about a crate (`Candidate.facts`), and what the Cargo writer needs beyond the
requirement's own fields (`Requirement.facts`)."""

from __future__ import annotations

from dataclasses import dataclass

from depinfer.model import Candidate, Facts, ImportRef, Requirement


@dataclass(frozen=True)
class RustUse(Facts):
    """One use of a name in a `.rs` file, and the context it sits in."""

    # what kind of use: "use", "extern", "rooted" (`::x`), "path", "via-use", "via-glob",
    # "macro", "macro-def", "attr", "attr-string", "derive", "async-attr", "type-use",
    # "methods" (the method names a file calls), "serde-std-type" (`Arc` in a serde item)
    how: str = ""
    path: str = ""  # the path as used, `tokio::net::TcpStream` (a bare name for attributes)
    resolved: str | None = None  # a bare attribute/derive's `use` path in the file, if any
    keys: tuple[str, ...] = ()  # top-level keys of an attribute's arguments (`env`, `long`)
    methods: tuple[str, ...] = ()  # how="methods": method names called in the file, sorted
    crate_of: str | None = None  # `#[x(crate = "::s")]`: the attribute head `s` renames
    target: str = "runtime"  # the Cargo target: "runtime", "dev" (tests…) or "build"
    features: tuple[str, ...] = ()  # `cfg(feature = "..")` gates around the use
    serde_item: bool = False  # inside a `#[derive(Serialize/Deserialize)]` struct or enum
    derives: tuple[str, ...] = ()  # std derives of the item the use sits in (Debug, Hash…)
    manifest: str = ""  # the Cargo.toml of the package the file belongs to
    globs: tuple[str, ...] = ()  # the file's `use other_crate::…::*` bases
    unreached: bool = False  # no target reaches the file along `mod` declarations


@dataclass(frozen=True)
class CrateFacts(Facts):
    """What mapping and rules learnt about one crate candidate, for the later stages."""

    package: str | None = None  # the registry package when the manifest key differs
    paths: tuple[str, ...] = ()  # the paths the code uses it by (for feature gates)
    gates: tuple[str, ...] = ()  # `cfg(feature)` gates around its uses
    from_features: bool = False  # only the manifest's `[features]` names it
    package_guess: str | None = None  # `chrono_0_4` → "chrono" (the registry decides)
    version_guess: str | None = None  # `chrono_0_4` → "0.4"
    version_pin: str | None = None  # the release whose API the code uses, if not the newest
    placed_by: str = ""  # the mapping strategy that placed the use (for --explain)
    derives: tuple[str, ...] = ()  # derive macros the code takes from it by path (`Display`)


@dataclass(frozen=True)
class CargoEntry(Facts):
    """What a Cargo.toml entry says beside name, version, features and path."""

    package: str | None = None  # `package = ".."`: the crate under another key
    workspace: bool = False  # `{ workspace = true }`: inherited from the workspace
    default_features: bool | None = None  # `default-features = false` when False


NO_USE = RustUse()
NO_CRATE = CrateFacts()
NO_ENTRY = CargoEntry()


def use_of(ref: ImportRef) -> RustUse:
    """The ref's Rust facts (empty ones when it has none)."""
    return ref.facts if isinstance(ref.facts, RustUse) else NO_USE


def crate_of(c: Candidate) -> CrateFacts:
    """The candidate's Rust facts (empty ones when it has none)."""
    return c.facts if isinstance(c.facts, CrateFacts) else NO_CRATE


def package_of(c: Candidate) -> str:
    """The registry package a candidate stands for: its `package` rename, else its name."""
    return crate_of(c).package or c.name


def entry_of(req: Requirement) -> CargoEntry:
    """The requirement's Cargo entry facts (empty ones when it has none)."""
    return req.facts if isinstance(req.facts, CargoEntry) else NO_ENTRY
