"""Hosts: programs that load a project's own modules (data/python/hosts.toml).

A pytest plugin the project ships is loaded by pytest; a gunicorn worker class its docs
run is loaded by gunicorn. Such a module imports its host because the host runs it: the
import is placed where the host's row says (an optional feature); a row without a
section leaves it where the file's role puts it (pytest plugins list pytest as a runtime
requirement) and only marks it hosted, which check reads. This module only reads the
table; python_optional_modules finds the hosted files and mapping places the imports.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from depinfer.data import load_table
from depinfer.model import Section
from depinfer.patterns import compile_kept

TABLE = "python/hosts.toml"


@dataclass(frozen=True)
class Host:
    """One row of the table."""

    dist: str  # the host's distribution
    modules: tuple[str, ...]  # its import names (top-level), the main one first
    role: str  # "test-runner" | "worker-host"
    section: Section | None  # where its import from a hosted file goes (None: unchanged)
    from_sections: tuple[Section, ...]  # only from these sections (empty: from any)
    entry_point_groups: frozenset[str]  # hosted files: modules of these entry points
    docs_pattern: re.Pattern[str] | None  # hosted files: class paths the docs name
    command: str  # the command word that runs it ("" when none matters)
    config_sections: tuple[tuple[str, tuple[str, ...]], ...]  # file name -> its sections

    @property
    def module(self) -> str:
        """Its main import name (`pytest`, not `_pytest`)."""
        return self.modules[0]

    def places(self, section: Section) -> Section:
        """Where an import of the host from a hosted file goes, from its usual section."""
        if self.section is None or (self.from_sections and section not in self.from_sections):
            return section
        return self.section


@lru_cache(maxsize=1)
def hosts() -> tuple[Host, ...]:
    return tuple(
        Host(
            dist=row["dist"],
            modules=tuple(row["modules"]),
            role=row["role"],
            section=Section(row["section"]) if "section" in row else None,
            from_sections=tuple(Section(s) for s in row.get("from_sections", ())),
            entry_point_groups=frozenset(row.get("entry_point_groups", ())),
            docs_pattern=compile_kept(row["docs_pattern"]) if row.get("docs_pattern") else None,
            command=row.get("command", ""),
            config_sections=tuple(
                (name, tuple(sections))
                for name, sections in (row.get("config_sections") or {}).items()
            ),
        )
        for row in load_table(TABLE)["host"]
    )


def runner() -> Host:
    """The test runner whose plugins, configuration and command the pytest rules read."""
    return next(h for h in hosts() if h.role == "test-runner")
