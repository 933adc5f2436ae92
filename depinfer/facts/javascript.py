"""What the JavaScript stages hand each other beyond the shared model's fields.

- `JsImportFacts` (on `ImportRef.facts`): how the analyzer saw one module specifier used;
  the mapping reads it to decide whether and how the use counts.
- `NpmFacts` (on `Candidate.facts`, carried unchanged to `Requirement.facts`): how a
  package came to be needed — by the mapping, the implicit-dependency rules or the
  resolver's own follow-ups — and what the resolver concluded about all its uses together.

Readers call `import_facts(ref)` / `npm_facts(c)`, which give the defaults for a ref or
candidate without JavaScript facts (another stage's candidate, a repair).
"""

from __future__ import annotations

from dataclasses import dataclass

from depinfer.model import Candidate, Facts, ImportRef, Requirement


@dataclass(frozen=True)
class JsImportFacts(Facts):
    """How one module specifier was used in a JavaScript/TypeScript file."""

    jsx: bool = False  # the file's JSX: module is its @jsxImportSource pragma, or ""
    types_reference: bool = False  # `/// <reference types="x" />`
    heuristic: bool = False  # named to a loader helper or a run-time path, not imported
    string_literal: bool = False  # a scoped package name written as a plain string
    single_value: bool = False  # ...handed on as one value, not one entry of a list
    require: bool = False  # loaded by `require()`: needs a release that offers CommonJS
    jsdoc: bool = False  # a JSDoc type import in a file without `@ts-check`
    augmentation: bool = False  # a binding-less import that anchors `declare module` types
    elidable: bool = False  # a TypeScript import whose bindings are used only as types
    global_value: bool = False  # `typeof import('x')` typing a declared global value
    component: bool = False  # the runtime a .vue/.svelte/.astro component compiles to import


@dataclass(frozen=True)
class NpmFacts(Facts):
    """How an npm package came to be needed, and what resolving made of all its uses."""

    # set by the mapping, from the import that needs the package
    type_only: bool = False  # imported for its types only
    dynamic: bool = False  # `import()` / `require()` with a literal
    heuristic: bool = False  # named by a helper call or a string: the registry must confirm
    require: bool = False  # loaded with `require()` (a code import or a tool's CJS loader)
    named_by: str = ""  # the mapping step that named the package (`--explain` shows it)
    # set by the implicit-dependency rules
    implicit: bool = False  # implied by a config, script, stylesheet or companion rule
    implied: bool = False  # by a config file's presence alone, not a name in it
    presence_not_enough: bool = False  # ...and that presence alone installs nothing in an app
    # set by the resolver on the merged candidate (all uses of the name in one manifest)
    type_only_all: bool = False  # every use is for types only
    required: bool = False  # some use `require()`s it: pick a CommonJS release
    loaded: bool = False  # some use loads it (a static import or `require()`), not only resolves it
    implied_only: bool = False  # only config files' presence implies it
    config_only: bool = False  # only tools' configs name it
    # set by the resolver on the follow-ups it adds
    replaces: str | None = None  # @types/x written for a types-only x, which it replaces
    peer_of: str | None = None  # the package whose (non-optional) peer this is


_NO_IMPORT_FACTS = JsImportFacts()
_NO_NPM_FACTS = NpmFacts()


def import_facts(ref: ImportRef) -> JsImportFacts:
    """The ref's JavaScript facts, or the defaults when it carries none."""
    return ref.facts if isinstance(ref.facts, JsImportFacts) else _NO_IMPORT_FACTS


def npm_facts(c: Candidate | Requirement) -> NpmFacts:
    """The candidate's (or requirement's) npm facts, or the defaults when it carries none."""
    return c.facts if isinstance(c.facts, NpmFacts) else _NO_NPM_FACTS
