"""Build the client for an ecosystem from discovered (or injected) endpoints.

Kept apart from the clients themselves so that each client only knows its protocol, and
endpoint discovery (endpoints.py, tooling.py) only knows configuration files and tools.
"""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

import depinfer.registries.endpoints as ep
from depinfer.model import Ecosystem
from depinfer.registries.base import RegistryClient, RegistryUnavailable
from depinfer.registries.http import HttpSettings, RegistryHttp


class ClientSettings(Protocol):
    """What a client is built from; the facade (`depinfer.registries.Registries`) has it."""

    project_root: str | Path | None
    refresh: bool
    endpoints: dict[Ecosystem, str]  # injected endpoints, by ecosystem

    def tooling_store(self) -> Path | None: ...

    def http_settings(self) -> HttpSettings: ...


def make_client(ecosystem: Ecosystem, registries: ClientSettings) -> RegistryClient:
    """The client for `ecosystem`; RegistryUnavailable (with the reason) when there is none."""
    root = Path(registries.project_root) if registries.project_root else None
    store = registries.tooling_store()
    refresh = registries.refresh
    injected = registries.endpoints.get(ecosystem)
    settings = registries.http_settings()

    if ecosystem is Ecosystem.PYPI:
        from depinfer.registries.pypi import PypiClient  # lazy: only the registries asked

        if injected:
            indexes = [ep.pypi_index_from_url(injected, "configured endpoint")]
        else:
            indexes = ep.pypi_indexes(root)
        if not indexes:
            raise RegistryUnavailable(
                "no Python package index is configured and pip (whose default index "
                "depinfer would use) is not installed"
            )
        label = f"PyPI index {indexes[0].url} ({indexes[0].source})"
        return PypiClient(indexes, RegistryHttp(label, settings))

    if ecosystem is Ecosystem.NPM:
        from depinfer.registries.npm import NpmClient  # lazy: only the registries asked

        if injected:
            found = ep.NpmEndpoints(ep.Endpoint(ep.with_slash(injected), "configured endpoint"))
        else:
            found = ep.npm_endpoints(root, store=store, refresh=refresh)
        if found.registry is None and not found.scopes:
            raise RegistryUnavailable(
                "no npm registry is configured (.npmrc, npm_config_registry) and npm is "
                "not installed"
            )
        where = found.registry or next(iter(found.scopes.values()))
        label = f"npm registry {where.url} ({where.source})"
        return NpmClient(found, RegistryHttp(label, settings))

    if ecosystem is Ecosystem.CRATES:
        from depinfer.registries.crates import CratesClient  # lazy: only the registries asked

        if injected:
            url = injected[len("sparse+") :] if injected.startswith("sparse+") else injected
            index: ep.Endpoint | None = ep.Endpoint(ep.with_slash(url), "configured endpoint")
        else:
            try:
                index = ep.crates_index(root, store=store, refresh=refresh)
            except ep.Unsupported as exc:
                raise RegistryUnavailable(str(exc)) from None
        if index is None:
            raise RegistryUnavailable(
                "cargo is not installed and no sparse registry is configured, so the "
                "crates index cannot be located"
            )
        label = f"crates index {index.url} ({index.source})"
        return CratesClient(index, RegistryHttp(label, settings))

    if ecosystem is Ecosystem.NUGET:
        from depinfer.registries.nuget import NugetClient  # lazy: only the registries asked

        if injected:
            sources = [ep.Endpoint(injected, "configured endpoint")]
        else:
            sources = ep.nuget_sources(root, store=store, refresh=refresh)
        if not sources:
            raise RegistryUnavailable(
                "no NuGet v3 package source is configured (NuGet.Config) and no NuGet "
                "client is installed"
            )
        label = f"NuGet source {sources[0].url} ({sources[0].source})"
        return NugetClient(sources, RegistryHttp(label, settings))

    raise RegistryUnavailable(f"no client for {ecosystem.value}")
