"""Import name → PyPI distribution, from the shipped index (data/python/pypi_modules.json).

The index (built by scripts/build_pypi_index.py) holds, per import name, the distributions
that provide it, best download rank first, plus the rank of the ~15,000 most downloaded
distributions. Lookup takes the longest dotted prefix that something provides, so
`google.cloud.storage.blob` lands on google-cloud-storage while `google.auth.transport`
lands on google-auth. A ranked distribution whose name *is* the dotted prefix
(`opentelemetry.sdk` ↔ opentelemetry-sdk) counts as a provider too, when nothing says its
top-level names are something else — the ranking proves it exists.

Namespace packages: the index knows the file lists (the paths of the latest wheel) of the
distributions under every namespace root — a top-level name several distributions provide
with different sub-packages (`google`, `azure`, `opentelemetry`, `sphinxcontrib`,
`airflow`, …). Each sub-package that one group of distributions ships is a key of its own
(`opentelemetry.trace` → opentelemetry-api, `azure.storage.blob` → azure-storage-blob),
and `namespaces` names, per root, the distributions that ship files directly in it: its
core, the owner of its regular package (`airflow` → apache-airflow-core), and whoever
ships an `__init__.py` or a module there — often nobody (PEP 420). When the longest
prefix is a namespace shared by several distributions (`google` for
`google.protobuf.json_format` when the index lacked that key), a provider whose file list
the index knows and which ships nothing directly in that prefix only adds other
sub-packages (google-cloud-storage): it cannot provide the module and is dropped, so
neither popularity nor a declared plug-in picks it. At a root that means every known
provider not named in `namespaces`. Distributions whose file lists the index lacks (a
meta-package without files, a distribution without a wheel) stay. A root's namesake that
requires the distribution shipping a sub-package (`installs`: promptflow →
promptflow-devkit) is a provider of it too.
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
    # namespace root → the distributions shipping files directly in it (its core among them)
    namespaces: dict[str, list[str]] = field(default_factory=dict)
    # namespace root → the root's distributions its namesake requires (installs)
    installs: dict[str, list[str]] = field(default_factory=dict)
    # namespace root → distribution → what it ships there (_paths), made when first asked
    _ns_paths: dict[str, dict[str, frozenset[str]]] | None = field(default=None, repr=False)
    _dotted: dict[str, list[str]] | None = field(default=None, repr=False)  # root → keys

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
                    providers += self._root_variants(key, root, named)
            if providers:
                if k < len(parts):
                    providers = self._shipping(key, root, providers)
                providers = self._with_namesake(root, providers)
                return self._choose(key, providers, source)
        return None

    def _root_variants(self, key: str, root: str, named: str) -> list[str]:
        """The other providers of a plain (non-namespace) root a sub-module is matched in
        by its name alone: `mysql.connector` names mysql-connector, but that distribution
        is only one of several shipping the same `mysql` package (mysql-connector-python
        ships `mysql.connector` too). A name says nothing about which of the root's
        providers ships the sub-module, so they all stay candidates and rank and the
        identity bonus choose, as they do for the root itself. A namespace root's
        sub-packages belong to different distributions: nothing is added there."""
        if "." not in key or root in self.namespaces or named not in self.modules.get(root, ()):
            return []
        return [p for p in self.modules[root] if p != named]

    def _shipping(self, key: str, root: str, providers: list[str]) -> list[str]:
        """The providers of a namespace `key` that may ship the deeper module asked for.

        The index knows the file lists (RECORD) of some distributions under a namespace
        root: every sub-package they ship is a key of its own, so the longest-prefix
        lookup would have matched a deeper key if one of them shipped the module. One that
        ships nothing directly in `key` only adds other sub-packages to the namespace (a
        plug-in such as google-cloud-storage for `google.protobuf`): it is dropped. Those
        whose file lists the index lacks stay — nothing says what they ship — and when
        none would be left the index cannot decide: all stay."""
        paths = self._paths(root)
        kept = [p for p in providers if not paths.get(p) or key in paths[p]]
        return kept or providers

    def _with_namesake(self, root: str, providers: list[str]) -> list[str]:
        """The root's namesake distribution joins the providers of a sub-package it
        installs through a requirement (promptflow for promptflow-devkit's
        promptflow.entities): its users declare it, and the identity bonus weighs it."""
        namesake = canonical(root)
        installs = self.installs.get(root, ())
        if namesake not in providers and any(p in installs for p in providers):
            return [*providers, namesake]
        return providers

    def _paths(self, root: str) -> dict[str, frozenset[str]]:
        """distribution → the dotted sub-packages of namespace `root` its file list ships
        (the root itself for those shipping files directly in it); made per root when
        first asked (most runs ask about a few roots, and the whole map costs more than
        a short run's analysis)."""
        if self._ns_paths is None:
            self._ns_paths = {}
        known = self._ns_paths.get(root)
        if known is not None:
            return known
        if self._dotted is None:
            dotted: dict[str, list[str]] = {}
            for module in self.modules:
                if "." in module:
                    dotted.setdefault(module.split(".", 1)[0], []).append(module)
            self._dotted = dotted
        found: dict[str, set[str]] = {}
        for module in self._dotted.get(root, ()):
            for dist in self.modules[module]:
                found.setdefault(dist, set()).add(module)
        for dist in self.namespaces.get(root, ()):
            found.setdefault(dist, set()).add(root)
        known = {d: frozenset(ms) for d, ms in found.items()}
        self._ns_paths[root] = known
        return known

    def _choose(self, key: str, providers: list[str], source: str) -> Match:
        providers = sorted(dict.fromkeys(providers), key=lambda d: (self.rank(d), d))
        best = providers[0]
        identity = canonical(key.replace(".", "-"))
        if identity not in providers:  # a sub-package both the root's namesake and a
            identity = canonical(key.split(".", 1)[0])  # split-off wheel ship (PySide6.QtCore)
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
        namespaces=data.get("namespaces", {}),
        installs=data.get("installs", {}),
    )
