"""The declare model: P(the maintainers declare this candidate in this manifest).

A decision table with counts (data/python/declare_model.toml, fitted on the corpus' train
split and the Python dev set by scripts/fit_declare_model.py): each habit decision falls
in one cell, keyed by its kind (a tool named without an import, an import guarded by
try/except ImportError (or guarded in one module of shipped code only, plain in another),
an import from tests only — apart when a tooling environment (CI pip line, tox, nox)
installs it too —, from examples/scripts/docs only, a top level import that another
chosen dependency requires) and the manifest's style (a sole requirements
file, a requirements file beside others, package metadata). The cell's counts, smoothed
towards its kind's, give the probability; the table's threshold (chosen on train) says
whether the candidate is written. Candidates no habit decision concerns (a top-level
import nothing else brings, a fact rule's) have no cell: facts decide them.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from depinfer.data import load_table
from depinfer.facts.python import DeclareFeatures

TABLE = "python/declare_model.toml"
TOOL_PLACES = frozenset({"ci", "commands", "tool-config", "docs-config"})
DEMO_PLACES = frozenset({"example", "notebook", "docs", "script", "bench"})
SMOOTHING = 2.0  # pseudo-counts of the kind's rate a cell's own counts are weighed against


@dataclass(frozen=True)
class Estimate:
    """A cell's probability and the counts behind it (for --explain)."""

    cell: str
    probability: float
    declared: int  # candidates of this cell the fitting data's maintainers declared
    seen: int  # candidates of this cell in the fitting data
    threshold: float

    @property
    def keep(self) -> bool:
        return self.probability >= self.threshold

    def describe(self) -> str:
        return (
            f"P(declared)={self.probability:.2f} (cell {self.cell}: {self.declared} of "
            f"{self.seen} declared; threshold {self.threshold:.2f})"
        )


def list_style(f: DeclareFeatures) -> str:
    if f.manifest_format == "requirements":
        return "sole" if f.sole_list else "reqs"
    return "package"


def kind(f: DeclareFeatures) -> str | None:
    """The habit decision a candidate's features put it in, None when facts decide."""
    where = set(f.where)
    if not where:
        return None
    if where <= TOOL_PLACES:
        if "docs-config" in where:
            return "tool-docs"
        if f.tooling:
            return "tool-installed"  # a CI/tox/nox line installs it for itself
        return "tool-run" if where & {"ci", "commands"} else "tool-config"
    if "rule" in where:
        return None
    how = set(f.how)
    if how and how <= {"guarded", "platform", "version"}:
        return "guarded"
    if not how:
        if where - TOOL_PLACES <= {"test"}:
            # a tooling environment (CI pip line, tox, nox) installing it too: its own kind
            return "test-installed" if f.tooling else "test-import"
        if where - TOOL_PLACES <= DEMO_PLACES | {"test"}:
            return "demo-import"
        return None
    if (
        how >= {"top", "guarded"}
        and not how & {"version", "platform"}
        and where <= {"source"} | TOOL_PLACES
    ):
        # shipped code guards it in one place, not in another; where a module the tests
        # load imports it unguarded, the tests need it: facts decide
        return None if f.tested else "partly-guarded"
    if "top" in how and f.required_by and where <= {"source"} | TOOL_PLACES:
        return "runtime-required"
    return None


def cell_of(f: DeclareFeatures) -> str | None:
    k = kind(f)
    return None if k is None else f"{k}:{list_style(f)}"


@lru_cache(maxsize=1)
def model() -> dict[str, Any]:
    return load_table(TABLE)


def estimate(f: DeclareFeatures | None, table: dict[str, Any] | None = None) -> Estimate | None:
    """The cell's smoothed probability; None when no habit decision concerns it or the
    table has never seen its kind."""
    if f is None:
        return None
    cell = cell_of(f)
    if cell is None:
        return None
    table = table if table is not None else model()
    counts = table.get("cells", {})
    k = cell.split(":")[0]
    kind_declared = sum(v["declared"] for c, v in counts.items() if c.split(":")[0] == k)
    kind_seen = sum(v["seen"] for c, v in counts.items() if c.split(":")[0] == k)
    if not kind_seen:
        return None
    prior = (kind_declared + 1) / (kind_seen + 2)
    own = counts.get(cell, {"declared": 0, "seen": 0})
    p = (own["declared"] + SMOOTHING * prior) / (own["seen"] + SMOOTHING)
    threshold = float(table.get("threshold", 0.5))
    return Estimate(cell, round(p, 4), own["declared"], own["seen"], threshold)
