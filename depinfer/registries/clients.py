"""Factory for registry clients (filled in by the registries layer)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from depinfer.model import Ecosystem

if TYPE_CHECKING:
    from depinfer.registries import Registries
    from depinfer.registries.base import RegistryClient


def make_client(ecosystem: Ecosystem, registries: Registries) -> RegistryClient:
    raise NotImplementedError(f"no client for {ecosystem.value} yet")
