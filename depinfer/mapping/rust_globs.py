"""Names a glob import of another crate brings into scope (`use miniquad::*;`).

Since edition 2018 a path's first segment is looked up among the names in scope before the
crates Cargo passes in (the Rust Reference, "Paths": the extern prelude comes after items and
imports, glob imports included). So below `use miniquad::*;` the path `date::now()` names
miniquad's module `date`, not a crate called date; below `use macroquad::prelude::*;`,
`rand::gen_range` is the `rand` that prelude re-exports. A path root counts as a crate only
when none of the file's glob imports provides that name.

The globbed crate's public names are read from its source: a crate of the same repository
from its directory, another one from its published `.crate` (the release the resolver would
choose), through `rust_gates.read_gates`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from depinfer.analyzers.rust_gates import crate_reexports, read_gates
from depinfer.context import Context
from depinfer.mapping.rust_sources import registry_source, release_gates
from depinfer.model import Ecosystem, Project
from depinfer.registries.crate_sources import remove_workdir

MAX_GLOB_DEPTH = 4


def names_at(gates: dict[str, list[str]], path: str, depth: int = 0) -> set[str]:
    """Names reachable as `path::name` in a crate's public paths, following the crate's own
    glob re-exports (`pub use crate::window::*` in `prelude`)."""
    prefix = f"{path}::" if path else ""
    out: set[str] = set()
    for key in gates:
        if not key.startswith(prefix) or key == prefix:
            continue
        rest = key[len(prefix) :]
        if rest.startswith("*"):
            target = rest[1:]
            if target == "!" or depth >= MAX_GLOB_DEPTH:
                continue
            for lead in ("crate::", "self::"):
                if target.startswith(lead):
                    target = target[len(lead) :]
            if target.startswith("super::"):
                parent = path.rpartition("::")[0]
                target = f"{parent}::{target[7:]}" if parent else target[7:]
            if target and target != path:
                out |= names_at(gates, target, depth + 1)
            continue
        head = rest.split("::", 1)[0]
        if head and not head.startswith("<"):
            out.add(head)
    return out


class GlobExports:
    """`base` of `use base::*` → the lower-case names it brings in (None: not known)."""

    def __init__(self, project: Project, ctx: Context, siblings: dict[str, Any]) -> None:
        self.project = project
        self.ctx = ctx
        self.siblings = siblings  # lib name → CrateInfo
        self.cache: dict[str, set[str] | None] = {}
        self.sources: dict[str, Path | None] = {}
        self.workdir: list[Path] = []

    def names(self, base: str, package: str | None = None) -> set[str] | None:
        if base not in self.cache:
            self.cache[base] = None  # a cycle of re-exports ends here
            crate, _, path = base.partition("::")
            gates = self._gates(crate, package)
            names = None if gates is None else names_at(gates, path)
            target = crate_reexports(gates).get(path) if gates and path else None
            if not names and target and target != crate:
                # `pub use miniquad;` in macroquad's `window`: `use macroquad::window::
                # miniquad::*` globs the re-exported crate itself
                names = self.names(target)
            self.cache[base] = names
        return self.cache[base]

    def _gates(self, crate: str, package: str | None) -> dict[str, list[str]] | None:
        if crate not in self.sources:
            self.sources[crate] = self._source(crate, package)
        src = self.sources[crate]
        if src is None:
            return None
        sibling = self.siblings.get(crate) is not None  # the repository's: never kept
        gates = read_gates(str(src)) if sibling else release_gates(src, self.ctx)
        return gates or None

    def _source(self, crate: str, package: str | None) -> Path | None:
        sibling = self.siblings.get(crate)
        if sibling is not None:
            return Path(self.project.root) / (sibling.directory or ".")
        if self.ctx.options.offline:
            return None
        names = [package] if package else [crate]
        if not package and "_" in crate:
            names.append(crate.replace("_", "-"))
        for name in names:
            if not self.ctx.registries.exists(Ecosystem.CRATES, name):
                continue
            src, _ = registry_source(name, [], self.project, self.ctx, self.workdir)
            if src is not None:
                return src
        return None

    def close(self) -> None:
        remove_workdir(self.workdir)
        self.workdir.clear()
