"""Re-record fixtures/registry/: real registry answers, trimmed, for the offline tests.

Sources: the live registries, reached through the endpoints depinfer itself discovers
(depinfer.registries.endpoints: the user's pip/uv, npm, cargo and NuGet configuration, else
the installed tools' defaults) —
- PyPI JSON API `<json base>/<project>/json` (requests: has yanked 2.32.0/2.32.1; pydantic)
  and the PEP 658 `.metadata` of the requests 2.31.0 wheel; the PEP 691 simple API page of `idna` with one
  PEP 658 `.metadata` file, served in the tests as a simple-only index;
- npm packuments of chalk, node-fetch and @sindresorhus/is (full form, and the abbreviated
  `application/vnd.npm.install-v1+json` form of chalk);
- the Rust crate sparse index: config.json and the index files of serde, tokio, cc, log;
  the `.crate` of itoa 1.0.11 for the download test;
- NuGet is not reachable from the machine these were made on: the NuGet fixtures
  (service index, flat container, registrations of Newtonsoft.Json, xunit and the
  deprecated WindowsAzure.Storage) were written by hand in NuGet's documented v3 formats
  (learn.microsoft.com/nuget/api: service-index, package-base-address-resource,
  registration-base-url-resource) and are kept as they are by this script.

Every answer is trimmed to the fields the tests read, and every registry URL inside it is
replaced by the placeholder `{base}`, which the test server fills with its own address —
so no registry host name is stored. `fixtures/registry/routes.json` maps each served path
to its file.

Run: python scripts/record_registry_fixtures.py   (needs network)
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import requests

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from depinfer.registries import endpoints as ep  # noqa: E402
from depinfer.registries.names import crate_index_path, npm_path  # noqa: E402
from depinfer.registries.npm import ABBREVIATED, VERSION_FIELDS  # noqa: E402
from depinfer.registries.pypi import SIMPLE_ACCEPT  # noqa: E402

OUT = ROOT / "fixtures" / "registry"
SESSION = requests.Session()
SESSION.headers["User-Agent"] = "depinfer fixture recorder"

routes: list[dict[str, Any]] = []
hosts: set[str] = set()


def get(url: str, accept: str | None = None) -> requests.Response:
    hosts.add(urlsplit(url).netloc)
    r = SESSION.get(url, headers={"Accept": accept} if accept else {}, timeout=60)
    r.raise_for_status()
    return r


def scrub(value: Any, bases: list[str]) -> Any:
    """Replace registry URLs by `{base}`/path and drop other registry-hosted URLs."""
    text = json.dumps(value)
    for base in sorted(bases, key=len, reverse=True):
        text = text.replace(base.rstrip("/"), "{base}")
    return json.loads(text)


def save(path: str, rel: str, body: Any, ctype: str, accept: str | None = None) -> None:
    target = OUT / rel
    target.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(body, bytes):
        target.write_bytes(body)
    elif isinstance(body, str):
        target.write_text(body, encoding="utf-8")
    else:
        target.write_text(json.dumps(body, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    route = {"path": path, "file": rel, "content_type": ctype}
    if accept:
        route["accept"] = accept
    routes.append(route)


# -- PyPI --------------------------------------------------------------------------------
PYPI_INFO = ("name", "version", "summary", "requires_dist", "requires_python", "yanked")
METADATA_VERSIONS = ("2.31.0",)  # versions whose wheel metadata (PEP 658) is recorded
metadata_urls: dict[str, str] = {}
PYPI_FILE = ("filename", "packagetype", "requires_python", "upload_time_iso_8601", "yanked")


def trim_pypi(doc: dict[str, Any]) -> dict[str, Any]:
    info = {k: doc["info"].get(k) for k in PYPI_INFO}
    info["yanked_reason"] = doc["info"].get("yanked_reason")
    urls = doc["info"].get("project_urls") or {}
    info["project_urls"] = {k: v for k, v in urls.items() if urlsplit(v).netloc not in hosts}
    releases = {}
    for version, files in (doc.get("releases") or {}).items():
        kept = []
        # One sdist and one wheel per release are enough to show times, yanks and
        # requires_python (pydantic 1.x has dozens of platform wheels per release).
        files = [f for f in files if f.get("packagetype") == "sdist"][:1] + [
            f for f in files if f.get("packagetype") == "bdist_wheel"
        ][:1]
        for f in files:
            g = {k: f.get(k) for k in PYPI_FILE}
            if version in METADATA_VERSIONS and f.get("core-metadata"):
                g["url"] = "{base}/files/" + f["filename"]
                g["core-metadata"] = True
                metadata_urls[g["url"]] = f["url"] + ".metadata"
            if f.get("yanked_reason"):
                g["yanked_reason"] = f["yanked_reason"].strip()
            kept.append(g)
        releases[version] = kept
    return (
        {"info": info, "releases": releases} if doc.get("releases") is not None else {"info": info}
    )


def record_pypi() -> None:
    index = ep.pypi_indexes()[0]
    assert index.json_base, "the first index has no JSON API"
    for name in ("requests", "pydantic"):
        doc = get(f"{index.json_base}/{name}/json").json()
        save(f"/pypi/{name}/json", f"pypi/{name}.json", trim_pypi(doc), "application/json")
    for served, real in metadata_urls.items():
        path = served.replace("{base}", "")
        name = path.rsplit("/", 1)[-1]
        headers = get(real).text.split("\n\n", 1)[0] + "\n"  # the long description is not needed
        save(f"{path}.metadata", f"pypi/files/{name}.metadata", headers, "text/plain")
    # A simple-only index: PEP 691 JSON page of a project, the last few versions only.
    page = get(f"{index.url}/idna/", accept=SIMPLE_ACCEPT).json()
    versions = page.get("versions", [])[-4:]
    files = []
    meta_url = None
    for f in page["files"]:
        if not any(
            f["filename"].startswith(f"idna-{v}-") or f["filename"] == f"idna-{v}.tar.gz"
            for v in versions
        ):
            continue
        g = {k: f.get(k) for k in ("filename", "requires-python", "upload-time", "yanked")}
        g["url"] = "{base}/simple-files/" + f["filename"]
        if f["filename"].startswith(f"idna-{versions[-1]}-") and f["filename"].endswith(".whl"):
            # PEP 658: the metadata file sits next to the wheel. Some mirrors omit the
            # `core-metadata` key although the file is there, so ask for the file itself.
            probe = SESSION.get(f["url"] + ".metadata", timeout=60)
            if probe.ok:
                hosts.add(urlsplit(f["url"]).netloc)
                g["core-metadata"] = True
                meta_url, meta_name = f["url"] + ".metadata", f["filename"]
        files.append(g)
    simple = {"meta": {"api-version": "1.1"}, "name": "idna", "versions": versions, "files": files}
    save("/simple/idna/", "pypi/simple-idna.json", simple, "application/vnd.pypi.simple.v1+json")
    if meta_url:
        save(
            f"/simple-files/{meta_name}.metadata",
            "pypi/idna.metadata",
            get(meta_url).text.split("\n\n", 1)[0] + "\n",  # headers only
            "text/plain",
        )


# -- npm -----------------------------------------------------------------------------------
def trim_packument(doc: dict[str, Any], abbreviated: bool) -> dict[str, Any]:
    keep = (
        VERSION_FIELDS
        if not abbreviated
        else (
            "bin",
            "engines",
            "deprecated",
            "peerDependencies",
            "peerDependenciesMeta",
            "dependencies",
            "optionalDependencies",
        )
    )
    versions = {}
    for v, vdoc in doc["versions"].items():
        t = {"name": vdoc.get("name"), "version": v}
        if not abbreviated and vdoc.get("description"):
            t["description"] = vdoc["description"]
        t.update({k: vdoc[k] for k in keep if k in vdoc})
        versions[v] = t
    out: dict[str, Any] = {"name": doc["name"], "dist-tags": doc["dist-tags"], "versions": versions}
    if abbreviated:
        out["modified"] = (doc.get("time") or {}).get("modified") or doc.get("modified")
    else:
        out["time"] = doc.get("time", {})
    return out


def record_npm() -> None:
    reg = ep.npm_endpoints().registry
    assert reg is not None
    for name in ("chalk", "node-fetch", "@sindresorhus/is"):
        doc = get(reg.url + npm_path(name), accept="application/json").json()
        safe = name.replace("/", "__")
        save(
            "/" + npm_path(name),
            f"npm/{safe}.json",
            scrub(trim_packument(doc, False), [reg.url]),
            "application/json",
        )
    doc = get(reg.url + "chalk", accept=ABBREVIATED).json()
    save(
        "/chalk",
        "npm/chalk.abbreviated.json",
        scrub(trim_packument(doc, True), [reg.url]),
        "application/vnd.npm.install-v1+json",
        accept="vnd.npm.install-v1",
    )


# -- crates ----------------------------------------------------------------------------------
def record_crates() -> None:
    index = ep.crates_index()
    assert index is not None
    config = get(index.url + "config.json").json()
    dl_base = config["dl"]
    bases = [index.url, dl_base, config.get("api", "")]
    fixed = {"dl": "{base}/dl/{crate}/{version}/download", "api": "{base}/api"}
    save("/config.json", "crates/config.json", fixed, "application/json")
    for name in ("serde", "tokio", "cc", "log", "itoa"):
        lines = get(index.url + crate_index_path(name)).text.splitlines()
        if len(lines) > 27:
            lines = lines[:2] + lines[-25:]  # the first versions and the recent ones
        text = (
            "\n".join(json.dumps(scrub(json.loads(line), bases), sort_keys=True) for line in lines)
            + "\n"
        )
        save("/" + crate_index_path(name), f"crates/index/{name}", text, "text/plain")
    entry = next(
        json.loads(x)
        for x in get(index.url + crate_index_path("itoa")).text.splitlines()
        if '"1.0.11"' in x
    )
    url = (
        dl_base.rstrip("/") + "/itoa/1.0.11/download"
        if "{" not in dl_base
        else dl_base.replace("{crate}", "itoa").replace("{version}", "1.0.11")
    )
    body = get(url).content
    import hashlib

    assert hashlib.sha256(body).hexdigest() == entry["cksum"]
    save("/dl/itoa/1.0.11/download", "crates/itoa-1.0.11.crate", body, "application/gzip")


# -- NuGet -------------------------------------------------------------------------------
def record_nuget() -> None:
    """NuGet is not reachable from the machine these fixtures were made on: its routes
    (hand-written from the documented formats) are carried over from routes.json."""
    try:
        old = json.loads((OUT / "routes.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        old = []
    kept = [r for r in old if r["file"].startswith("nuget/") and (OUT / r["file"]).is_file()]
    routes.extend(kept)
    print(f"NuGet: kept {len(kept)} hand-written routes")


def main() -> None:
    record_pypi()
    record_npm()
    record_crates()
    record_nuget()
    routes.sort(key=lambda r: (r["path"], r.get("accept", "")))
    (OUT / "routes.json").write_text(json.dumps(routes, indent=1) + "\n", encoding="utf-8")
    leaked = [
        str(p)
        for p in OUT.rglob("*")
        if p.is_file()
        and p.suffix != ".crate"
        and any(
            h and h.split(":")[0] in p.read_text(encoding="utf-8", errors="ignore") for h in hosts
        )
    ]
    if leaked:
        raise SystemExit(f"registry host names left in: {leaked}")
    print(f"wrote {len(routes)} routes to {OUT}")


if __name__ == "__main__":
    main()
