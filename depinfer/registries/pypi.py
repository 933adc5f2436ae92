"""PyPI client: the JSON API where the index offers it, the simple API (PEP 691) otherwise.

The JSON API (`<base>/<project>/json`) gives every release with upload times,
`requires_python` and yank state in one document, plus the summary, `requires_dist` and
project URLs. Many private indexes (and mirrors) serve only the simple API: there the
PEP 691 JSON form (`application/vnd.pypi.simple.v1+json`) lists the files, from which the
versions, their `requires-python`, yank state and (PEP 700) upload times come; a version's
metadata is the PEP 658 `.metadata` file next to a wheel. An index that answers neither
JSON form is read as PEP 503 HTML.

Several indexes (index-url plus extra-index-url) are asked in order; the first that knows
a project answers for it (uv's default "first index" strategy, which also avoids
dependency confusion).
"""

from __future__ import annotations

import html
import re
from email.parser import HeaderParser
from typing import Any

from packaging.utils import (
    InvalidSdistFilename,
    InvalidWheelFilename,
    parse_sdist_filename,
    parse_wheel_filename,
)
from packaging.version import InvalidVersion, Version

from depinfer.model import Ecosystem
from depinfer.registries.base import RegistryError, VersionInfo
from depinfer.registries.endpoints import PypiIndex
from depinfer.registries.http import RegistryHttp
from depinfer.registries.memo import Memo, parse_time
from depinfer.registries.names import pypi_normalize, pypi_valid

SIMPLE_ACCEPT = (
    "application/vnd.pypi.simple.v1+json, "
    "application/vnd.pypi.simple.v1+html;q=0.2, text/html;q=0.01"
)
_ANCHOR = re.compile(r"<a\s+([^>]*)>([^<]*)</a>", re.IGNORECASE)
_ATTR = re.compile(r'([\w-]+)\s*=\s*"([^"]*)"')


class PypiClient:
    ecosystem = Ecosystem.PYPI

    def __init__(self, indexes: list[PypiIndex], http: RegistryHttp) -> None:
        self.indexes = indexes
        self.http = http
        self._projects: Memo[dict[str, Any] | None] = Memo()
        self._json_ok: dict[str, bool] = {i.url: True for i in indexes if i.json_verified}
        self._where = " ".join(i.url for i in indexes)

    # -- documents -----------------------------------------------------------------------
    def project(self, name: str) -> dict[str, Any] | None:
        """The project's reduced facts (None: no index has it).

        Shape: kind ("json"/"simple"), index, json_base, info (metadata of the latest
        release, JSON API only), versions (VersionInfo fields, oldest first) and
        metadata_urls (version -> a wheel's PEP 658 metadata file).
        """
        if not pypi_valid(name):
            return None
        key = pypi_normalize(name)
        return self._projects.get(
            key, lambda: self.http.facts.get(f"pypi|{self._where}|{key}", lambda: self._fetch(key))
        )

    def _fetch(self, key: str) -> dict[str, Any] | None:
        for index in self.indexes:
            json_ok = self._json_ok.get(index.url)
            if index.json_base and json_ok is not False:
                where = f"{index.json_base}/{key}/json"
                doc = self.http.get_json(where)
                if isinstance(doc, dict) and isinstance(doc.get("info"), dict):
                    self._json_ok[index.url] = True
                    releases = doc.get("releases")
                    for files in releases.values() if isinstance(releases, dict) else ():
                        if isinstance(files, list):
                            _absolute_urls(files, where)
                    return _reduce_json(doc, index)
                if doc is not None:
                    raise RegistryError(f"PyPI: unexpected JSON API answer for {key}")
                if json_ok:
                    continue  # the JSON API is known to work here: not on this index
            simple = self._fetch_simple(index, key)
            if simple is not None:
                if index.json_base:
                    self._json_ok[index.url] = False  # a simple-only index
                return _reduce_simple(simple, index)
        return None

    def _fetch_simple(self, index: PypiIndex, key: str) -> dict[str, Any] | None:
        url = f"{index.url}/{key}/"
        response = self.http.get(url, accept=SIMPLE_ACCEPT)
        if response is None:
            return None
        ctype = response.headers.get("Content-Type", "").split(";")[0].strip().lower()
        if ctype.endswith("json"):
            try:
                doc = response.json()
            except ValueError:
                raise self.http.reject(response, f"malformed JSON from {url}") from None
            if not isinstance(doc, dict) or not isinstance(doc.get("files"), list):
                raise self.http.reject(response, f"unexpected simple API answer from {url}")
            _absolute_urls(doc["files"], response.url or url)
            return doc
        return _simple_html(response.text, response.url or url)

    # -- interface -------------------------------------------------------------------------
    def exists(self, name: str) -> bool | None:
        return self.project(name) is not None

    def versions(self, name: str) -> list[VersionInfo]:
        project = self.project(name)
        if project is None:
            return []
        return [VersionInfo(**{**f, "extra": dict(f["extra"])}) for f in project["versions"]]

    def metadata(self, name: str, version: str | None = None) -> dict[str, Any]:
        project = self.project(name)
        if project is None:
            return {}
        info = project.get("info")
        if info and version in (None, info.get("version")):
            return dict(info)
        if version is None:
            usable = [v for v in project["versions"] if not v["yanked"]]
            finals = [v for v in usable if not v["prerelease"]] or usable
            if not finals:
                return {}
            version = finals[-1]["version"]
        meta: dict[str, Any] = {"name": project["name"], "version": version}
        if project["kind"] == "json" and project.get("json_base"):
            key = pypi_normalize(name)
            one = self.http.get_json(f"{project['json_base']}/{key}/{version}/json")
            if isinstance(one, dict) and isinstance(one.get("info"), dict):
                return _info_metadata(one["info"])
        # Simple-only indexes, and mirrors that serve only the project document: the
        # PEP 658 metadata file of one of the version's wheels.
        url = project["metadata_urls"].get(_norm_version(version) or version)
        if url:
            body = self.http.get_bytes(url)
            if body:
                meta.update(_core_metadata(body.decode("utf-8", "replace")))
        return meta

    def modules(self, name: str, version: str | None = None) -> frozenset[str] | None:
        """The dotted module paths a release's wheel installs (see wheel_files): `version`'s,
        else the newest final release with a wheel; None when that release has no wheel
        whose file list could be read."""
        project = self.project(name)
        if project is None:
            return None
        wheels = project.get("wheel_urls") or {}
        if version is not None:
            order = [version]
        else:
            usable = [v for v in project["versions"] if not v["yanked"]]
            finals = [v for v in usable if not v["prerelease"]] or usable
            order = [v["version"] for v in reversed(finals)]
        for v in order:
            wheel = wheels.get(_norm_version(v) or v)
            if wheel:
                return self.http.facts.get(
                    f"wheel-modules|{wheel}", lambda w=wheel: self._read_modules(w), keep=_known
                )
        return None

    def mentions(self, name: str, version: str, identifier: str) -> bool | None:
        """Whether `version`'s wheel has `identifier` as a word in its Python files (see
        wheel_files.mentions); None when the release has no wheel or it could not be read.
        The wheel itself is not kept in the HTTP cache, only the answer."""
        project = self.project(name)
        if project is None:
            return None
        wheel = (project.get("wheel_urls") or {}).get(_norm_version(version) or version)
        if not wheel:
            return None
        return self.http.facts.get(
            f"wheel-mentions|{wheel}|{identifier}",
            lambda: self._read_mentions(wheel, identifier),
            keep=_known,
        )

    def _read_mentions(self, wheel: str, identifier: str) -> bool | None:
        from depinfer.registries.wheel_files import MAX_WHEEL, mentions

        # one uncached range request for the whole file, bounded: a longer answer is a
        # wheel too large to read for one name
        body = self.http.get_range(wheel, 0, MAX_WHEEL)
        return None if body is None or len(body) > MAX_WHEEL else mentions(body, identifier)

    def _read_modules(self, wheel: str) -> frozenset[str] | None:
        from depinfer.registries.wheel_files import central_names, module_paths

        names = central_names(lambda first, last: self.http.get_range(wheel, first, last))
        return None if names is None else module_paths(names)


def _known(value: Any) -> bool:
    return value is not None


def _has_metadata(f: dict[str, Any]) -> bool:
    return bool(
        f.get("core-metadata") or f.get("dist-info-metadata") or f.get("data-dist-info-metadata")
    )


def _summary(
    version: str, files: list[dict[str, Any]], time_key: str, rp_key: str
) -> dict[str, Any]:
    """VersionInfo fields for one release from its files (either API's file records)."""
    times = [t for t in (parse_time(f.get(time_key)) for f in files) if t]
    runtime = next((f[rp_key] for f in files if f.get(rp_key)), None)
    yanked = all(f.get("yanked") for f in files)
    reason = next((f.get("yanked_reason") for f in files if f.get("yanked_reason")), None)
    if yanked and reason is None:
        reason = next((f["yanked"] for f in files if isinstance(f.get("yanked"), str)), None)
    extra: dict[str, Any] = {"files": len(files)}
    if yanked and reason:
        extra["yanked_reason"] = reason.strip()
    return {
        "version": version,
        "published": min(times) if times else None,
        "yanked": yanked,
        "deprecated": False,
        "prerelease": Version(version).is_prerelease,
        "runtime": runtime,
        "extra": extra,
    }


def _wheel_url(files: list[dict[str, Any]]) -> str | None:
    """A wheel of the release, a pure one first (what it installs is the same everywhere)."""
    wheels = [
        f["url"]
        for f in files
        if isinstance(f.get("url"), str) and f["filename"].endswith(".whl") and not f.get("yanked")
    ]
    return next((u for u in wheels if u.split("?")[0].endswith("-any.whl")), None) or next(
        iter(wheels), None
    )


def _metadata_url(files: list[dict[str, Any]]) -> str | None:
    for f in files:
        if _has_metadata(f) and isinstance(f.get("url"), str) and f["filename"].endswith(".whl"):
            return f"{f['url']}.metadata"
    return None


def _reduce_json(doc: dict[str, Any], index: PypiIndex) -> dict[str, Any]:
    versions = []
    urls: dict[str, str] = {}
    wheels: dict[str, str] = {}
    releases = doc.get("releases") if isinstance(doc.get("releases"), dict) else {}
    for raw, files in releases.items():
        if not files or not isinstance(files, list) or _norm_version(raw) is None:
            continue  # a release without files cannot be installed
        files = [f for f in files if isinstance(f, dict) and isinstance(f.get("filename"), str)]
        versions.append(_summary(raw, files, "upload_time_iso_8601", "requires_python"))
        url = _metadata_url(files)
        if url:
            urls[_norm_version(raw) or raw] = url
        wheel = _wheel_url(files)
        if wheel:
            wheels[_norm_version(raw) or raw] = wheel
    versions.sort(key=lambda v: Version(v["version"]))
    return {
        "kind": "json",
        "index": index.url,
        "json_base": index.json_base,
        "name": doc["info"].get("name"),
        "info": _info_metadata(doc["info"]),
        "versions": versions,
        "metadata_urls": urls,
        "wheel_urls": wheels,
    }


def _reduce_simple(doc: dict[str, Any], index: PypiIndex) -> dict[str, Any]:
    by_version = _files_by_version(doc)
    versions = [
        _summary(v, files, "upload-time", "requires-python") for v, files in by_version.items()
    ]
    versions.sort(key=lambda v: Version(v["version"]))
    urls = {v: u for v, files in by_version.items() if (u := _metadata_url(files))}
    wheels = {v: u for v, files in by_version.items() if (u := _wheel_url(files))}
    return {
        "kind": "simple",
        "index": index.url,
        "json_base": None,
        "name": doc.get("name"),
        "info": None,
        "versions": versions,
        "metadata_urls": urls,
        "wheel_urls": wheels,
    }


# -- JSON API ----------------------------------------------------------------------------
def _info_metadata(info: dict[str, Any]) -> dict[str, Any]:
    return {
        "name": info.get("name"),
        "version": info.get("version"),
        "summary": info.get("summary") or "",
        "requires_dist": list(info.get("requires_dist") or []),
        "requires_python": info.get("requires_python") or None,
        "project_urls": dict(info.get("project_urls") or {}),
        "home_page": info.get("home_page") or None,
        "yanked": bool(info.get("yanked")),
        "yanked_reason": info.get("yanked_reason"),
    }


def _norm_version(raw: str) -> str | None:
    try:
        return str(Version(raw))
    except InvalidVersion:
        return None


def _file_version(filename: str) -> str | None:
    try:
        if filename.endswith(".whl"):
            return str(parse_wheel_filename(filename)[1])
        if filename.endswith((".tar.gz", ".zip")):
            return str(parse_sdist_filename(filename)[1])
    except (InvalidWheelFilename, InvalidSdistFilename, InvalidVersion):
        return None
    return None


def _files_by_version(doc: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {}
    for f in doc.get("files") or []:
        if not isinstance(f, dict) or not isinstance(f.get("filename"), str):
            continue
        version = _file_version(f["filename"])
        if version is not None:
            out.setdefault(version, []).append(f)
    return out


def _absolute_urls(files: list[Any], base_url: str) -> None:
    """A file's URL may be relative to the document that lists it (PEP 691 allows it, and
    a mirror's JSON API may serve `../../packages/…`): resolved here, as pip does, so the
    metadata files and wheels can be fetched."""
    from urllib.parse import urljoin

    for f in files:
        if isinstance(f, dict) and isinstance(f.get("url"), str):
            f["url"] = urljoin(base_url, f["url"])


def _simple_html(text: str, base_url: str) -> dict[str, Any]:
    """A PEP 503 HTML project page in the shape of the PEP 691 JSON form."""
    from urllib.parse import urljoin

    files = []
    for attrs_text, label in _ANCHOR.findall(text):
        attrs = {k.lower(): html.unescape(v) for k, v in _ATTR.findall(attrs_text)}
        href = attrs.get("href")
        if not href:
            continue
        url = urljoin(base_url, href).split("#", 1)[0]
        yanked: bool | str = attrs.get("data-yanked", False) if "data-yanked" in attrs else False
        files.append(
            {
                "filename": html.unescape(label).strip() or url.rsplit("/", 1)[-1],
                "url": url,
                "requires-python": attrs.get("data-requires-python") or None,
                "yanked": yanked if yanked != "" else True,
                "core-metadata": bool(
                    attrs.get("data-core-metadata") or attrs.get("data-dist-info-metadata")
                ),
            }
        )
    return {"files": files}


def _core_metadata(text: str) -> dict[str, Any]:
    """Fields of a METADATA file (PEP 658) that the JSON API would have given."""
    msg = HeaderParser().parsestr(text)
    urls = {}
    for entry in msg.get_all("Project-URL") or []:
        label, _, url = entry.partition(",")
        urls[label.strip()] = url.strip()
    return {
        "name": msg.get("Name"),
        "version": msg.get("Version"),
        "summary": msg.get("Summary") or "",
        "requires_dist": list(msg.get_all("Requires-Dist") or []),
        "requires_python": msg.get("Requires-Python") or None,
        "project_urls": urls,
        "home_page": msg.get("Home-page") or None,
    }
