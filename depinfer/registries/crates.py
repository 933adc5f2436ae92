"""Rust crate registry client over cargo's sparse index protocol, plus the crate source download.

The index root has a `config.json` (`dl`: the download URL template, `api`: the web API);
each crate has one file of JSON lines, one per published version, with `vers`, `yanked`,
`features` (+ `features2`, schema v2), `rust_version`, `deps` and `cksum` (and `pubtime`
where the registry records it). `versions()` carries features per version; a version's
dependency list comes with `metadata(name, version)`. `download()` returns the `.crate` tarball of a version,
checked against `cksum`, so the Rust analyzer can read its `cfg(feature)` gates.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from depinfer.model import Ecosystem
from depinfer.registries.base import RegistryError, VersionInfo
from depinfer.registries.endpoints import Endpoint
from depinfer.registries.http import RegistryHttp
from depinfer.registries.memo import Memo, parse_time
from depinfer.registries.names import crate_index_path, crate_prefix, crate_valid

NEVER_EXPIRE = -1  # requests-cache: a published .crate never changes
DL_MARKERS = ("{crate}", "{version}", "{prefix}", "{lowerprefix}", "{sha256-checksum}")


def _is_prerelease(version: str) -> bool:
    return "-" in version.split("+", 1)[0]


def _version_key(version: str) -> tuple[Any, ...]:
    """SemVer precedence (a release sorts after its pre-releases)."""
    core, _, pre = version.split("+", 1)[0].partition("-")
    nums = tuple(int(p) if p.isdigit() else 0 for p in core.split("."))
    pre_key = (
        tuple((0, int(p), "") if p.isdigit() else (1, 0, p) for p in pre.split(".")) if pre else ()
    )
    return (nums, not pre, pre_key)


class CratesClient:
    ecosystem = Ecosystem.CRATES

    def __init__(self, index: Endpoint, http: RegistryHttp) -> None:
        self.index = index
        self.http = http
        self._files: Memo[list[dict[str, Any]] | None] = Memo()
        self._config: Memo[dict[str, Any]] = Memo()

    def config(self) -> dict[str, Any]:
        """The index's config.json (`dl`, `api`)."""

        def fetch() -> dict[str, Any]:
            doc = self.http.get_json(self.index.url + "config.json")
            if not isinstance(doc, dict) or not isinstance(doc.get("dl"), str):
                raise RegistryError(f"crates: the index at {self.index.url} has no config.json")
            return doc

        url = self.index.url + "config.json"  # kept as the index lines are
        return self._config.get("config", lambda: self.http.facts.get(f"crates|{url}", fetch))

    def entries(self, name: str) -> list[dict[str, Any]] | None:
        """The crate's versions as VersionInfo fields, oldest first; None: no such crate."""
        if not crate_valid(name):
            return None
        url = self.index.url + crate_index_path(name)
        return self._files.get(
            name.lower(), lambda: self.http.facts.get(f"crates|{url}", lambda: self._fetch(url))
        )

    def _fetch(self, url: str) -> list[dict[str, Any]] | None:
        self.config()  # cargo reads config.json first; it also fails fast on a wrong URL
        response = self.http.get(url)
        if response is None:
            return None
        out = []
        for line in response.text.splitlines():
            if not line.strip():
                continue
            try:
                entry = json.loads(line)
            except ValueError:
                raise self.http.reject(response, f"malformed index line in {url}") from None
            if not isinstance(entry, dict) or not isinstance(entry.get("vers"), str):
                raise self.http.reject(response, f"unexpected index entry in {url}")
            out.append(_fields(entry))
        out.sort(key=lambda f: _version_key(f["version"]))
        return out or None

    # -- interface -------------------------------------------------------------------------
    def exists(self, name: str) -> bool | None:
        return self.entries(name) is not None

    def versions(self, name: str) -> list[VersionInfo]:
        return [VersionInfo(**{**f, "extra": dict(f["extra"])}) for f in self.entries(name) or []]

    def metadata(self, name: str, version: str | None = None) -> dict[str, Any]:
        entry = self._entry(name, version)
        if entry is None:
            return {}
        extra = entry["extra"]
        return {
            "name": extra.get("name") or name,
            "version": entry["version"],
            "features": dict(extra["features"]),
            "deps": json.loads(extra["deps_json"]),
            "rust_version": entry["runtime"],
            "yanked": entry["yanked"],
            "cksum": extra.get("cksum"),
            "links": extra.get("links"),
            "published": entry["published"],
            "download_url": self.download_url(entry),
        }

    def _entry(self, name: str, version: str | None) -> dict[str, Any] | None:
        entries = self.entries(name) or []
        if version is not None:
            return next((e for e in entries if e["version"] == version), None)
        usable = [e for e in entries if not e["yanked"]]
        stable = [e for e in usable if not e["prerelease"]] or usable
        return stable[-1] if stable else None

    # -- source download -------------------------------------------------------------------
    def download_url(self, entry: dict[str, Any]) -> str:
        """The `dl` template of config.json filled in for one version (cargo's rules)."""
        template = self.config()["dl"]
        crate = entry["extra"].get("name") or ""
        version = entry["version"]
        if not any(marker in template for marker in DL_MARKERS):
            return f"{template.rstrip('/')}/{crate}/{version}/download"
        prefix = crate_prefix(crate)
        return (
            template.replace("{crate}", crate)
            .replace("{version}", version)
            .replace("{prefix}", prefix)
            .replace("{lowerprefix}", prefix.lower())
            .replace("{sha256-checksum}", entry["extra"].get("cksum") or "")
        )

    def download(self, name: str, version: str) -> bytes | None:
        """The `.crate` (gzipped tar) of one version, checksum-verified; None if unknown."""
        entry = self._entry(name, version)
        if entry is None:
            return None
        url = self.download_url(entry)
        body = self.http.get_bytes(url, expire_after=NEVER_EXPIRE)
        if body is None:
            return None
        cksum = entry["extra"].get("cksum")
        if cksum and hashlib.sha256(body).hexdigest() != cksum:
            self.http.forget(url)
            raise RegistryError(f"crates: checksum mismatch for {name} {version}")
        return body


def _fields(e: dict[str, Any]) -> dict[str, Any]:
    """VersionInfo fields of one index line."""
    return {
        "version": e["vers"],
        "published": parse_time(e.get("pubtime")),
        "yanked": bool(e.get("yanked")),
        "deprecated": False,
        "prerelease": _is_prerelease(e["vers"]),
        "runtime": e.get("rust_version") or None,
        "extra": {
            "name": e.get("name"),
            "features": _features(e),
            # Kept as JSON text: one string instead of thousands of small dicts makes the
            # stored facts load several times faster; metadata() decodes one version's.
            "deps_json": json.dumps(e.get("deps") or [], separators=(",", ":")),
            "cksum": e.get("cksum"),
            "links": e.get("links"),
        },
    }


def _features(entry: dict[str, Any]) -> dict[str, list[str]]:
    features = dict(entry.get("features") or {})
    features.update(entry.get("features2") or {})
    return features
