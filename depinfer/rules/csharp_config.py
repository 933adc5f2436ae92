"""C# packages named by configuration files rather than code.

Serilog.Settings.Configuration reads the logger from `appsettings*.json`: its "Serilog"
section names sinks by their `WriteTo` method ("Name": "File" → `WriteTo.File` →
Serilog.Sinks.File), enrichers by their `Enrich` method ("WithMachineName" →
Serilog.Enrichers.Environment) and, in "Using", the assemblies to scan by package id
(Serilog.Settings.Configuration's README, "Configuration" and "Using section"). The
method → package step uses the markers of the shipped index, so only packages the index
or the repository's own package list know are ever named.
"""

from __future__ import annotations

from depinfer.analyzers.csharp_layout import CsProject
from depinfer.mapping import nuget_index as nxi
from depinfer.mapping.javascript_layout import parse_jsonc
from depinfer.model import Project

SETTINGS_GLOB = "appsettings*.json"


def _section(doc: object) -> dict:
    if not isinstance(doc, dict):
        return {}
    for key, value in doc.items():
        if key.lower() == "serilog" and isinstance(value, dict):
            return value
    return {}


def _names(value: object) -> list[str]:
    """`WriteTo`/`Enrich` entries: strings, {"Name": …} objects, or objects keyed by name."""
    out: list[str] = []
    items = list(value.values()) if isinstance(value, dict) else value
    if not isinstance(items, list):
        return out
    for item in items:
        if isinstance(item, str):
            out.append(item)
        elif isinstance(item, dict):
            name = item.get("Name") or item.get("name")
            if isinstance(name, str):
                out.append(name)
    return out


def _by_marker(marker: str) -> str | None:
    """The package whose index row under the Serilog namespace carries this marker."""
    _, entries = nxi.lookup("Serilog")
    hits = [e.package for e in entries if marker in e.markers]
    return hits[0] if len(hits) == 1 else None


def serilog_packages(cs: CsProject, project: Project) -> dict[str, str]:
    """package id → the setting that names it, from the project's appsettings files."""
    folder = project.abspath(cs.directory) if cs.directory else project.abspath(".")
    out: dict[str, str] = {}
    for path in sorted(folder.glob(SETTINGS_GLOB)):
        try:
            doc = parse_jsonc(path.read_text(encoding="utf-8-sig"))
        except (OSError, ValueError):
            continue  # not JSON we can read: nothing to learn from it
        section = _section(doc)
        if not section:
            continue
        where = f"{path.name}: Serilog"
        for name in _names(section.get("WriteTo", [])):
            pid = _by_marker(f"WriteTo.{name}")
            if pid:
                out.setdefault(pid, f"{where}:WriteTo {name}")
        for name in _names(section.get("Enrich", [])):
            pid = _by_marker(name) or _by_marker(f"With{name}")
            if pid:
                out.setdefault(pid, f"{where}:Enrich {name}")
        using = section.get("Using", [])
        listed = {k.lower(): k for k in cs.pool}
        for name in using if isinstance(using, list) else []:
            if not isinstance(name, str):
                continue
            pid = nxi.package_ids().get(name.lower()) or listed.get(name.lower())
            if pid:
                out.setdefault(pid, f"{where}:Using")
    return out
