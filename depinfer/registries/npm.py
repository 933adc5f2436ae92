"""npm client: the registry's packument, abbreviated when dates are not needed.

The full packument (`Accept: application/json`) carries `time` (publish date per
version) and the fields module resolution depends on (`type`, `exports`, `main`, `types`);
the abbreviated one (`application/vnd.npm.install-v1+json`, the form npm install uses) is a
fraction of the size and is enough to know that a name exists. A scoped name
(`@scope/pkg`) goes to the registry configured for its scope, if any.
"""

from __future__ import annotations

from typing import Any

from depinfer.model import Ecosystem
from depinfer.registries.base import RegistryError, VersionInfo
from depinfer.registries.endpoints import NpmEndpoints
from depinfer.registries.http import RegistryHttp
from depinfer.registries.memo import Memo, parse_time
from depinfer.registries.names import npm_path, npm_scope, npm_valid

ABBREVIATED = "application/vnd.npm.install-v1+json; q=1.0, application/json; q=0.8, */*"
FULL = "application/json"

# Per-version fields kept in VersionInfo.extra / metadata (what mapping and resolvers read).
VERSION_FIELDS = (
    "type",
    "exports",
    "main",
    "module",
    "types",
    "typings",
    "bin",
    "engines",
    "deprecated",
    "peerDependencies",
    "peerDependenciesMeta",
    "dependencies",
    "optionalDependencies",
)


def _is_prerelease(version: str) -> bool:
    core = version.split("+", 1)[0]
    return "-" in core


class NpmClient:
    ecosystem = Ecosystem.NPM

    def __init__(self, endpoints: NpmEndpoints, http: RegistryHttp) -> None:
        self.endpoints = endpoints
        self.http = http
        self._full: Memo[dict[str, Any] | None] = Memo()
        self._exists: Memo[bool] = Memo()

    def _url(self, name: str) -> str:
        scope = npm_scope(name)
        endpoint = self.endpoints.scopes.get(scope) if scope else None
        endpoint = endpoint or self.endpoints.registry
        if endpoint is None:
            raise RegistryError("npm: no registry configured")
        return endpoint.url + npm_path(name)

    def _fetch(self, name: str, accept: str) -> dict[str, Any] | None:
        doc = self.http.get_json(self._url(name), accept=accept)
        if doc is None:
            return None
        if not isinstance(doc, dict) or not isinstance(doc.get("versions"), dict):
            # An unpublished package keeps a stub document without versions.
            if isinstance(doc, dict) and "unpublished" in (doc.get("time") or {}):
                return None
            raise RegistryError(f"npm: unexpected packument for {name}")
        return doc

    def packument(self, name: str) -> dict[str, Any] | None:
        """The reduced full packument (None: no such package).

        Shape: name, dist_tags, description, homepage, repository, and versions (VersionInfo
        fields in publication order, `extra` holding VERSION_FIELDS).
        """
        if not npm_valid(name):
            return None
        url = self._url(name)

        def fetch() -> dict[str, Any] | None:
            doc = self._fetch(name, FULL)
            return None if doc is None else _reduce(doc)

        return self._full.get(name, lambda: self.http.facts.get(f"npm|{url}", fetch))

    # -- interface -------------------------------------------------------------------------
    def exists(self, name: str) -> bool | None:
        """Answered from the abbreviated packument (or the full one when already known)."""
        if not npm_valid(name):
            return False
        if self._full.has(name):
            return self._full.peek(name) is not None
        url = self._url(name)

        def fetch() -> bool:
            return self._fetch(name, ABBREVIATED) is not None

        return self._exists.get(name, lambda: self.http.facts.get(f"npm-exists|{url}", fetch))

    def versions(self, name: str) -> list[VersionInfo]:
        doc = self.packument(name)
        if doc is None:
            return []
        return [VersionInfo(**{**f, "extra": dict(f["extra"])}) for f in doc["versions"]]

    def metadata(self, name: str, version: str | None = None) -> dict[str, Any]:
        doc = self.packument(name)
        if doc is None:
            return {}
        version = version or doc["dist_tags"].get("latest")
        fields = next((f for f in doc["versions"] if f["version"] == version), None)
        if fields is None:
            return {}
        meta: dict[str, Any] = dict(fields["extra"])
        meta.update(
            name=doc["name"] or name,
            version=version,
            summary=doc["description"],
            description=doc["description"],
            dist_tags=dict(doc["dist_tags"]),
            published=fields["published"],
            deprecated=fields["extra"].get("deprecated"),
            homepage=doc["homepage"],
            repository=doc["repository"],
        )
        return meta


def _reduce(doc: dict[str, Any]) -> dict[str, Any]:
    times = doc.get("time") if isinstance(doc.get("time"), dict) else {}
    tags = doc.get("dist-tags") if isinstance(doc.get("dist-tags"), dict) else {}
    versions = []
    for version, vdoc in doc["versions"].items():
        if not isinstance(vdoc, dict):
            continue
        engines = vdoc.get("engines")
        node = engines.get("node") if isinstance(engines, dict) else None
        versions.append(
            {
                "version": version,
                "published": parse_time(times.get(version)),
                "yanked": False,
                "deprecated": bool(vdoc.get("deprecated")),
                "prerelease": _is_prerelease(version),
                "runtime": node if isinstance(node, str) else None,
                "extra": {k: vdoc[k] for k in VERSION_FIELDS if k in vdoc},
            }
        )
    latest = doc["versions"].get(tags.get("latest")) or {}
    return {
        "name": doc.get("name"),
        "dist_tags": dict(tags),
        "description": latest.get("description") or doc.get("description") or "",
        "homepage": latest.get("homepage") or doc.get("homepage"),
        "repository": latest.get("repository") or doc.get("repository"),
        "versions": versions,
    }
