"""Database drivers an ORM loads by a dialect's name (data/javascript/orm_drivers.toml).

`new Sequelize({ dialect: "postgres" })`, TypeORM's `type: "postgres"` and knex's
`client: "pg"` make the library `require()` the driver itself, so no import names it and
the app that leaves it out fails when it first connects. The option is read where the
package that uses the ORM keeps its code and its ORM config files (sequelize-cli's
config/config.json, TypeORM's ormconfig.json); every dialect the option's expression names
counts (`dialect: isTest ? "sqlite" : "postgres"` needs both drivers)."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import PurePosixPath
from typing import Any, NamedTuple

from depinfer.data import load_table
from depinfer.mapping.javascript_layout import Layout, owner_of
from depinfer.model import Candidate, Ecosystem, Project, Section

CONFIG_FILES = ("config.json", "ormconfig.json", "ormconfig.js", "ormconfig.ts")
# what a config file or module may hold before the option is ignored (a bundle, a fixture)
MAX_BYTES = 400_000
_QUOTED = re.compile(r"""["'`]([A-Za-z0-9._-]+)["'`]""")


@lru_cache(maxsize=1)
def drivers() -> tuple[dict[str, Any], ...]:
    return tuple(load_table("javascript/orm_drivers.toml")["driver"])


@lru_cache(maxsize=8)
def _option(key: str) -> re.Pattern[str]:
    # `dialect: "postgres"`, `"dialect": "postgres"`, `dialect: env ? "a" : "b"`
    return re.compile(rf"""(?<![\w$.])["']?{re.escape(key)}["']?\s*:\s*([^,}}\n;]+)""")


class Need(NamedTuple):
    """A driver a package needs, and where its ORM's option names it."""

    name: str
    manifest: str
    section: Section
    file: str
    line: int
    detail: str


def driver_needs(
    project: Project, lay: Layout, files: list[str], found: list[Candidate]
) -> list[Need]:
    """The drivers the ORMs in use name in their package's code and config files
    (`files`: the repository's files)."""
    rows = drivers()
    orms = {o for row in rows for o in row["orms"]}
    users: dict[str, dict[str, Candidate]] = {}  # manifest → ORM name → its candidate
    for c in found:
        if c.ecosystem == Ecosystem.NPM and c.name in orms:
            users.setdefault(c.manifest, {}).setdefault(c.name, c)
    out: list[Need] = []
    for manifest, used in users.items():
        keys = {row["key"] for row in rows if used.keys() & set(row["orms"])}
        values = _option_values(project, lay, files, manifest, keys)
        for row in rows:
            orm = next((used[o] for o in row["orms"] if o in used), None)
            for value in row["values"] if orm is not None else []:
                where = values.get((row["key"], value))
                if where is not None:
                    detail = f"{orm.name} {row['key']}: {value}"
                    out.extend(
                        Need(n, manifest, orm.section, where[0], where[1], detail)
                        for n in row["needs"]
                    )
    return out


def _option_values(
    project: Project, lay: Layout, files: list[str], manifest: str, keys: set[str]
) -> dict[tuple[str, str], tuple[str, int]]:
    """(key, quoted value) → the first file and line that sets it, in the files the
    manifest owns."""
    found: dict[tuple[str, str], tuple[str, int]] = {}
    code = [f.path for f in project.files if f.language == "javascript"]
    configs = [rel for rel in files if PurePosixPath(rel).name in CONFIG_FILES]
    for rel in dict.fromkeys(code + configs):
        owner = owner_of(lay, rel)
        if owner is None or owner.path != manifest:
            continue
        try:
            path = project.abspath(rel)
            if path.stat().st_size > MAX_BYTES:
                continue
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        for key in keys:
            if key not in text:
                continue
            for m in _option(key).finditer(text):
                line = text.count("\n", 0, m.start()) + 1
                for value in _QUOTED.findall(m.group(1)):
                    found.setdefault((key, value), (rel, line))
    return found
