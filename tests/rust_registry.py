"""A crates registry for the Rust tests, answering from the sparse-index lines recorded in
fixtures/rust/registry (scripts/record_rust_registry_fixtures.py): versions, yanks,
rust_version and publish times are real data, without any network.
"""

from __future__ import annotations

import json
from datetime import datetime

from conftest import FIXTURES

from depinfer.model import Ecosystem
from depinfer.registries import Registries
from depinfer.registries.base import VersionInfo

# Crates the registry knows without version data (exists only); tests monkeypatch it.
KNOWN_NAMES: set[str] = set()


class RecordedRegistry(Registries):
    """`Registries` answering from recorded sparse-index lines (no network, no cache)."""

    def __init__(self) -> None:
        super().__init__(use_cache=False)
        self.index: dict[str, list[VersionInfo]] = {}
        for f in (FIXTURES / "rust" / "registry").glob("*.jsonl"):
            infos = []
            for line in f.read_text().splitlines():
                e = json.loads(line)
                published = e.get("pubtime")
                infos.append(
                    VersionInfo(
                        version=e["vers"],
                        published=datetime.fromisoformat(published.replace("Z", "+00:00"))
                        if published
                        else None,
                        yanked=e.get("yanked", False),
                        prerelease="-" in e["vers"],
                        runtime=e.get("rust_version"),
                        # schema v2 lines keep `dep:` features apart, as the client merges
                        extra={
                            "name": e["name"],
                            "features": {**e.get("features", {}), **e.get("features2", {})},
                        },
                    )
                )
            self.index[f.stem] = infos

    def _key(self, name: str) -> str | None:
        for known in list(self.index) + sorted(KNOWN_NAMES):
            if known.replace("-", "_") == name.replace("-", "_"):
                return known
        return None

    def exists(self, ecosystem: Ecosystem, name: str) -> bool | None:
        return self._key(name) == name

    def exists_many(self, ecosystem: Ecosystem, names: list[str]) -> dict[str, bool | None]:
        return {n: self.exists(ecosystem, n) for n in names}

    def versions(self, ecosystem: Ecosystem, name: str) -> list[VersionInfo]:
        return self.index.get(name, [])

    def download_crate(self, name: str, version: str) -> bytes | None:
        return None
