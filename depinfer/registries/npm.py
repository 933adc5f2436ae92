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
        self._abbreviated: Memo[dict[str, Any] | None] = Memo()

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
            if isinstance(doc, dict) and "time" in doc and "unpublished" in (doc["time"] or {}):
                return None
            raise RegistryError(f"npm: unexpected packument for {name}")
        return doc

    def packument(self, name: str, full: bool = True) -> dict[str, Any] | None:
        """The packument (None: no such package); `full=False` may return the abbreviated one."""
        if not npm_valid(name):
            return None
        if full:
            return self._full.get(name, lambda: self._fetch(name, FULL))
        if self._full.has(name):
            return self._full.peek(name)
        return self._abbreviated.get(name, lambda: self._fetch(name, ABBREVIATED))

    # -- interface -------------------------------------------------------------------------
    def exists(self, name: str) -> bool | None:
        return self.packument(name, full=False) is not None

    def versions(self, name: str) -> list[VersionInfo]:
        doc = self.packument(name, full=True)
        if doc is None:
            return []
        times = doc.get("time") if isinstance(doc.get("time"), dict) else {}
        out = []
        for version, vdoc in doc["versions"].items():
            if not isinstance(vdoc, dict):
                continue
            engines = vdoc.get("engines")
            node = engines.get("node") if isinstance(engines, dict) else None
            out.append(
                VersionInfo(
                    version=version,
                    published=parse_time(times.get(version)),
                    deprecated=bool(vdoc.get("deprecated")),
                    prerelease=_is_prerelease(version),
                    runtime=node if isinstance(node, str) else None,
                    extra={k: vdoc[k] for k in VERSION_FIELDS if k in vdoc},
                )
            )
        return out

    def metadata(self, name: str, version: str | None = None) -> dict[str, Any]:
        doc = self.packument(name, full=True)
        if doc is None:
            return {}
        tags = doc.get("dist-tags") if isinstance(doc.get("dist-tags"), dict) else {}
        version = version or tags.get("latest")
        vdoc = doc["versions"].get(version) if version else None
        if not isinstance(vdoc, dict):
            return {}
        meta: dict[str, Any] = {k: vdoc[k] for k in VERSION_FIELDS if k in vdoc}
        meta.update(
            name=doc.get("name") or name,
            version=version,
            summary=vdoc.get("description") or doc.get("description") or "",
            description=vdoc.get("description") or doc.get("description") or "",
            dist_tags=dict(tags),
            published=parse_time((doc.get("time") or {}).get(version)),
            homepage=vdoc.get("homepage"),
            repository=vdoc.get("repository"),
        )
        return meta
