"""Import name → PyPI distribution, from the shipped index (data/python/pypi_modules.json).

The index (built by scripts/build_pypi_index.py) holds, per import name, the distributions
that provide it, best download rank first, plus the rank of the ~15,000 most downloaded
distributions. Lookup takes the longest dotted prefix that something provides, so
`google.cloud.storage.blob` lands on google-cloud-storage while `google.auth.transport`
lands on google-auth. A ranked distribution whose name *is* the dotted prefix
(`opentelemetry.sdk` ↔ opentelemetry-sdk) counts as a provider too, when nothing says its
top-level names are something else — the ranking proves it exists.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

from depinfer.data import load_table
from depinfer.registries.names import pypi_normalize

UNRANKED = 10**6
# A provider whose import name equals its distribution name wins over a more popular one
# unless the other is this many times more downloaded (psycopg2 vs psycopg2-binary).
IDENTITY_BONUS = 5
# Two providers within this rank ratio are "close": the choice is marked ambiguous.
CLOSE_RATIO = 3


def canonical(name: str) -> str:
    """PEP 503 normalised distribution name."""
    return pypi_normalize(name)


@dataclass
class Match:
    key: str  # the import prefix that matched
    providers: list[str]  # best first
    ranks: dict[str, int] = field(default_factory=dict)
    chosen: str = ""
    ambiguous: bool = False
    source: str = "index"  # "index" | "name"

    @property
    def alternatives(self) -> list[str]:
        return [p for p in self.providers if p != self.chosen]


@dataclass
class PypiIndex:
    modules: dict[str, list[str]]
    ranks: dict[str, int]
    unknown_tops: frozenset[str]

    def rank(self, dist: str) -> int:
        return self.ranks.get(dist, UNRANKED)

    def is_ranked(self, dist: str) -> bool:
        return canonical(dist) in self.ranks

    def _by_name(self, key: str, root: str) -> str | None:
        dist = canonical(key.replace(".", "-"))
        if dist not in self.ranks:
            return None
        if dist in self.unknown_tops or dist in self.modules.get(root, ()):
            return dist
        return None

    def lookup(self, module: str) -> Match | None:
        parts = module.split(".")
        root = parts[0]
        for k in range(len(parts), 0, -1):
            key = ".".join(parts[:k])
            providers = list(self.modules.get(key, ()))
            named = self._by_name(key, root)
            source = "index"
            if named and named not in providers:
                providers.append(named)
                if len(providers) == 1:
                    source = "name"
            if providers:
                return self._choose(key, providers, source)
        return None

    def _choose(self, key: str, providers: list[str], source: str) -> Match:
        providers = sorted(dict.fromkeys(providers), key=lambda d: (self.rank(d), d))
        best = providers[0]
        identity = canonical(key.replace(".", "-"))
        if (
            identity in providers
            and identity != best
            and self.rank(identity) <= IDENTITY_BONUS * self.rank(best)
        ):
            best = identity
            providers = [best] + [p for p in providers if p != best]
        match = Match(key, providers, {p: self.rank(p) for p in providers}, best, source=source)
        if len(providers) > 1:
            runner = providers[1]
            r_best, r_run = self.rank(best), self.rank(runner)
            if r_run < UNRANKED and r_run <= CLOSE_RATIO * max(r_best, 1):
                match.ambiguous = True
            if "." not in key and len(providers) > 3 and best != identity:
                match.ambiguous = True  # a shared namespace root matched only at the top
        return match


@cache
def load_index() -> PypiIndex:
    data = load_table("python/pypi_modules.json")
    return PypiIndex(
        modules=data["modules"],
        ranks=data["ranks"],
        unknown_tops=frozenset(data.get("unknown_tops", ())),
    )
