"""NuGet client over the v3 protocol: service index → flat container and registrations.

The service index lists a source's resources by `@type`; `PackageBaseAddress/3.0.0` (the
flat container) answers "which versions exist" with `{base}/{lower-id}/index.json`, and the
registration hive (`RegistrationsBaseUrl/3.6.0`, which includes SemVer 2.0.0 packages,
else an older hive) gives per version `listed`, `published`, `deprecation` and the
dependency groups per target framework. Registration pages are either inline in the
registration index or fetched from their `@id`. Formats: learn.microsoft.com/nuget/api
(service-index, package-base-address-resource, registration-base-url-resource).

Several sources (NuGet.Config packageSources) are asked in order; the first that has the
package answers for it.
"""

from __future__ import annotations

from typing import Any

from depinfer.model import Ecosystem
from depinfer.registries.base import RegistryError, VersionInfo
from depinfer.registries.endpoints import Endpoint
from depinfer.registries.http import RegistryHttp
from depinfer.registries.memo import Memo, parse_time
from depinfer.registries.names import nuget_id, nuget_valid

FLAT_CONTAINER = ("PackageBaseAddress/3.0.0",)
# Preferred first: 3.6.0 includes SemVer 2.0.0 packages; the others are older hives.
REGISTRATIONS = (
    "RegistrationsBaseUrl/3.6.0",
    "RegistrationsBaseUrl/Versioned",
    "RegistrationsBaseUrl/3.4.0",
    "RegistrationsBaseUrl/3.0.0-rc",
    "RegistrationsBaseUrl/3.0.0-beta",
    "RegistrationsBaseUrl",
)
# catalogEntry fields kept (the rest — authors, icons, licences — is not used)
ENTRY_FIELDS = (
    "id",
    "version",
    "listed",
    "published",
    "deprecation",
    "dependencyGroups",
    "summary",
    "description",
    "tags",
    "projectUrl",
    "vulnerabilities",
)
UNLISTED_YEAR = 1900  # the public NuGet gallery stamps unlisted versions as published in 1900


def _resource(index: dict[str, Any], types: tuple[str, ...]) -> str | None:
    resources = [r for r in index.get("resources") or [] if isinstance(r, dict)]
    for wanted in types:
        for r in resources:
            rtype = r.get("@type")
            rtypes = rtype if isinstance(rtype, list) else [rtype]
            if wanted in rtypes and isinstance(r.get("@id"), str):
                url = r["@id"]
                return url if url.endswith("/") else url + "/"
    return None


class NugetClient:
    ecosystem = Ecosystem.NUGET

    def __init__(self, sources: list[Endpoint], http: RegistryHttp) -> None:
        self.sources = sources
        self.http = http
        self._indexes: Memo[dict[str, Any]] = Memo()
        self._versions: Memo[tuple[Endpoint, list[str]] | None] = Memo()
        self._leaves: Memo[list[dict[str, Any]]] = Memo()

    def service_index(self, source: Endpoint) -> dict[str, Any]:
        def fetch() -> dict[str, Any]:
            doc = self.http.get_json(source.url)
            if not isinstance(doc, dict) or not isinstance(doc.get("resources"), list):
                raise RegistryError(f"NuGet: {source.url} is not a v3 service index")
            return doc

        return self._indexes.get(source.url, fetch)

    def _flat_versions(self, name: str) -> tuple[Endpoint, list[str]] | None:
        """(source, versions) from the first source whose flat container has the package."""
        if not nuget_valid(name):
            return None
        lower = nuget_id(name)

        def fetch() -> tuple[Endpoint, list[str]] | None:
            for source in self.sources:
                base = _resource(self.service_index(source), FLAT_CONTAINER)
                if base is None:
                    continue
                doc = self.http.get_json(f"{base}{lower}/index.json")
                if doc is None:
                    continue
                if not isinstance(doc, dict) or not isinstance(doc.get("versions"), list):
                    raise RegistryError(f"NuGet: unexpected versions list for {name}")
                return source, [v for v in doc["versions"] if isinstance(v, str)]
            return None

        where = " ".join(src.url for src in self.sources)

        def stored() -> tuple[Endpoint, list[str]] | None:
            found = self.http.facts.get(f"nuget-flat|{where}|{lower}", lambda: _plain(fetch()))
            if found is None:
                return None
            url, versions = found
            source = next((src for src in self.sources if src.url == url), self.sources[0])
            return source, versions

        return self._versions.get(lower, stored)

    def _registration_leaves(self, source: Endpoint, name: str) -> list[dict[str, Any]]:
        """catalogEntry of every version in the source's registration hive (may be [])."""
        lower = nuget_id(name)

        def fetch() -> list[dict[str, Any]]:
            base = _resource(self.service_index(source), REGISTRATIONS)
            if base is None:
                return []
            doc = self.http.get_json(f"{base}{lower}/index.json")
            if doc is None:
                return []
            if not isinstance(doc, dict) or not isinstance(doc.get("items"), list):
                raise RegistryError(f"NuGet: unexpected registration index for {name}")
            entries = []
            for page in doc["items"]:
                if not isinstance(page, dict):
                    continue
                items = page.get("items")
                if items is None and isinstance(page.get("@id"), str):
                    fetched = self.http.get_json(page["@id"])
                    items = fetched.get("items") if isinstance(fetched, dict) else None
                for leaf in items or []:
                    entry = leaf.get("catalogEntry") if isinstance(leaf, dict) else None
                    if isinstance(entry, dict) and isinstance(entry.get("version"), str):
                        entries.append({k: entry[k] for k in ENTRY_FIELDS if k in entry})
            return entries

        return self._leaves.get(
            (source.url, lower),
            lambda: self.http.facts.get(f"nuget-reg|{source.url}|{lower}", fetch),
        )

    # -- interface -------------------------------------------------------------------------
    def exists(self, name: str) -> bool | None:
        return self._flat_versions(name) is not None

    def versions(self, name: str) -> list[VersionInfo]:
        found = self._flat_versions(name)
        if found is None:
            return []
        source, flat = found
        entries = {e["version"].lower(): e for e in self._registration_leaves(source, name)}
        out = []
        for version in flat:
            entry = entries.get(version.lower(), {})
            out.append(_version_info(version, entry))
        return out

    def metadata(self, name: str, version: str | None = None) -> dict[str, Any]:
        found = self._flat_versions(name)
        if found is None:
            return {}
        source, flat = found
        entries = self._registration_leaves(source, name)
        if version is None:
            listed = [e for e in entries if e.get("listed", True) is not False]
            stable = [e for e in listed if "-" not in e["version"]] or listed
            entry = stable[-1] if stable else {}
            version = entry.get("version") or (flat[-1] if flat else None)
        else:
            entry = next((e for e in entries if e["version"].lower() == version.lower()), {})
        if version is None:
            return {}
        info = _version_info(version, entry)
        return {
            "name": entry.get("id") or name,
            "version": version,
            "summary": entry.get("summary") or entry.get("description") or "",
            "description": entry.get("description") or "",
            "tags": entry.get("tags") or [],
            "project_url": entry.get("projectUrl"),
            "listed": not info.yanked,
            "published": info.published,
            "deprecation": entry.get("deprecation"),
            "dependency_groups": info.extra.get("dependency_groups", {}),
            "vulnerabilities": entry.get("vulnerabilities") or [],
        }


def _plain(found: tuple[Endpoint, list[str]] | None) -> tuple[str, list[str]] | None:
    """A flat-container answer in a storable form (source URL instead of the Endpoint)."""
    return None if found is None else (found[0].url, found[1])


def _dependency_groups(entry: dict[str, Any]) -> dict[str, list[dict[str, str]]]:
    groups: dict[str, list[dict[str, str]]] = {}
    for group in entry.get("dependencyGroups") or []:
        if not isinstance(group, dict):
            continue
        tfm = group.get("targetFramework") or ""
        deps = []
        for dep in group.get("dependencies") or []:
            if isinstance(dep, dict) and isinstance(dep.get("id"), str):
                deps.append({"id": dep["id"], "range": dep.get("range") or ""})
        groups[tfm] = deps
    return groups


def _version_info(version: str, entry: dict[str, Any]) -> VersionInfo:
    published = parse_time(entry.get("published"))
    listed = entry.get("listed", True) is not False
    if published is not None and published.year <= UNLISTED_YEAR:
        listed, published = False, None
    groups = _dependency_groups(entry)
    frameworks = sorted(t for t in groups if t)
    return VersionInfo(
        version=version,
        published=published,
        yanked=not listed,  # an unlisted version is NuGet's form of a yank
        deprecated=bool(entry.get("deprecation")),
        prerelease="-" in version.split("+", 1)[0],
        runtime=",".join(frameworks) or None,
        extra={
            "listed": listed,
            "dependency_groups": groups,
            **({"deprecation": entry["deprecation"]} if entry.get("deprecation") else {}),
        },
    )
