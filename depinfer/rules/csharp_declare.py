"""The C# declare model: P(the maintainers declare this template companion in this project).

A project template adds packages beside the ones its code uses that no `using` names:
`dotnet new xunit|nunit|mstest` writes coverlet.collector into every test project. Whether
a repository kept it is a habit, not a fact a file proves, so a decision table with counts
(data/csharp/declare_model.toml, fitted on the corpus' C# train split and the C# dev set by
scripts/fit_csharp_declare_model.py) answers it: each candidate falls in one cell, keyed by
the companion's role, the project's test framework and host, the evidence the repository
shows (CI collecting coverage, a props file listing the package, nothing) and whether the
repository publishes NuGet packages (library maintainers mostly strip what the template
added; application repositories keep it). The cell's counts, smoothed towards the rate of
its role, evidence and repository kind over all frameworks, give the
probability; the table's threshold (chosen on the fitting data) says whether the package is
written. The companions themselves (which package, which role, from which template) are
curated rows of the same table, each naming its source.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from functools import lru_cache
from typing import Any

from depinfer.data import load_table
from depinfer.facts.csharp import CompanionFeatures

TABLE = "csharp/declare_model.toml"
SMOOTHING = 2.0  # pseudo-counts of the role-and-evidence rate a cell's own counts weigh against


@dataclass(frozen=True)
class Estimate:
    """A cell's probability, the counts behind it and the features (for --explain)."""

    cell: str
    probability: float
    declared: int  # candidates of this cell the fitting data's maintainers declared
    seen: int  # candidates of this cell in the fitting data
    threshold: float
    features: CompanionFeatures

    @property
    def keep(self) -> bool:
        return self.probability >= self.threshold

    def describe(self) -> str:
        shown = ", ".join(f"{k}={v}" for k, v in asdict(self.features).items())
        return (
            f"P(declared)={self.probability:.2f} (cell {self.cell}: {self.declared} of "
            f"{self.seen} declared; threshold {self.threshold:.2f}; features: {shown})"
        )


@lru_cache(maxsize=1)
def model() -> dict[str, Any]:
    return load_table(TABLE)


def companion_role(package: str, table: dict[str, Any] | None = None) -> str | None:
    """The role the companions table gives `package`, None when it is no companion."""
    table = table if table is not None else model()
    row = table.get("companions", {}).get(package)
    return row["role"] if row else None


def publishes_packages(
    properties: list[dict[str, str]], table: dict[str, Any] | None = None
) -> bool:
    """Whether a repository packs NuGet packages: some project (or its Directory.Build
    files) sets one of the pack metadata properties the table lists."""
    table = table if table is not None else model()
    marks = table.get("package_properties", {}).get("names", [])
    return any(m in props for props in properties for m in marks)


def cell_of(f: CompanionFeatures) -> str:
    return f"{f.role}:{f.framework}:{f.host}:{f.evidence}:{f.repository}"


def _group(cell: str) -> str:
    """The cells a cell is smoothed towards: same role, evidence and repository kind, any
    framework or host."""
    role, _fw, _host, evidence, repository = cell.split(":")
    return f"{role}:{evidence}:{repository}"


def estimate(f: CompanionFeatures, table: dict[str, Any] | None = None) -> Estimate:
    """The cell's probability, smoothed towards its role-and-evidence group (an unseen
    group: 0.5, no information either way)."""
    table = table if table is not None else model()
    counts = table.get("cells", {})
    cell = cell_of(f)
    group = [v for c, v in counts.items() if _group(c) == _group(cell)]
    prior = (sum(v["declared"] for v in group) + 1) / (sum(v["seen"] for v in group) + 2)
    own = counts.get(cell, {"declared": 0, "seen": 0})
    p = (own["declared"] + SMOOTHING * prior) / (own["seen"] + SMOOTHING)
    threshold = float(table.get("threshold", 0.5))
    return Estimate(cell, round(p, 4), own["declared"], own["seen"], threshold, f)
