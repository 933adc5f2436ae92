"""Names a Poetry `[tool.poetry.extras]` list holds are Poetry dependencies of the project.

Why: Poetry builds an extra only from the project's own dependencies — each name an extras
list holds must be declared in `[tool.poetry.dependencies]` with `optional = true`
(Poetry's documentation, "The pyproject.toml file", section "extras"). The extras lists
survive the masking of
the dependencies table, so they say which optional distributions were there, including the
ones the code loads only by computed names (`import_module(f"tree_sitter_{lang}")`), which
no import shows. The resolver places these candidates as optional Poetry dependencies in
the extra that names them.
"""

from __future__ import annotations

import re

from depinfer.facts.python import DependencyFacts
from depinfer.mapping.python_index import canonical
from depinfer.model import Candidate, Ecosystem, Evidence, FileKind, Project, Section

SOURCE = 'Poetry\'s documentation, "The pyproject.toml file", section "extras"'


def candidates(project: Project) -> list[Candidate]:
    out: list[Candidate] = []
    for m in project.manifests_of(Ecosystem.PYPI):
        if m.format != "pyproject" or m.parse_error:
            continue
        for key, names in m.declared.items():
            if not key.startswith("extras."):
                continue
            for raw in names:
                name = _bare(raw)
                if not name:
                    continue
                out.append(
                    Candidate(
                        ecosystem=Ecosystem.PYPI,
                        name=canonical(name),
                        manifest=m.path,
                        section=Section.OPTIONAL,
                        evidence=[
                            Evidence(
                                "rule:poetry-extras",
                                m.path,
                                None,
                                f"[tool.poetry.{key}] lists {raw}; Poetry requires each "
                                f"extra's names among its optional dependencies ({SOURCE})",
                            )
                        ],
                        confidence=0.9,
                        optional=True,
                        verified=True,
                        kinds=(FileKind.SOURCE.value,),
                        facts=DependencyFacts(folder=m.directory, rule="poetry-extras"),
                    )
                )
    return out


def _bare(text: str) -> str:
    name = re.split(r"[\s\[<>=!~;(@]", text.strip(), maxsplit=1)[0]
    return name if re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]*", name or "") else ""
