"""The one small interface every registry client offers (resolvelib-style provider).

Mapping and resolvers only ever talk to this interface, so they can be tested with a fake.
`exists` answers True/False when the registry said so and None when it could not be asked
(offline, network failure): callers must treat None as "unverified", never as "exists".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

from depinfer.model import Ecosystem


@dataclass
class VersionInfo:
    version: str
    published: datetime | None = None
    yanked: bool = False
    deprecated: bool = False
    prerelease: bool = False
    # requires_python (PyPI), engines.node (npm), rust_version (crates), target frameworks (NuGet)
    runtime: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


class RegistryError(Exception):
    """A registry could not answer (network, malformed data). Never shown as a traceback."""


class RegistryUnavailable(RegistryError):
    """No endpoint for this registry could be found (no configuration, tool not installed)."""


class RegistryClient(Protocol):
    ecosystem: Ecosystem

    def exists(self, name: str) -> bool | None: ...

    def versions(self, name: str) -> list[VersionInfo]: ...

    def metadata(self, name: str, version: str | None = None) -> dict[str, Any]: ...
