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
from depinfer.data import load_table
from depinfer.mapping import nuget_index as nxi
from depinfer.mapping.javascript_layout import parse_jsonc
from depinfer.model import Project

SETTINGS_GLOB = "appsettings*.json"


def _section(doc: object, name: str) -> dict:
    """The settings section `name` of a configuration document (keys match in any case)."""
    if not isinstance(doc, dict):
        return {}
    for key, value in doc.items():
        if key.lower() == name.lower() and isinstance(value, dict):
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


def _by_marker(marker: str, namespace: str) -> str | None:
    """The package whose index row under `namespace` carries this marker."""
    _, entries = nxi.lookup(namespace)
    hits = [e.package for e in entries if marker in e.markers]
    return hits[0] if len(hits) == 1 else None


def serilog_packages(cs: CsProject, project: Project) -> dict[str, str]:
    """package id → the setting that names it, from the project's appsettings files (the
    settings sections of data/csharp/builder_methods.json)."""
    folder = project.abspath(cs.directory) if cs.directory else project.abspath(".")
    out: dict[str, str] = {}
    for path in sorted(folder.glob(SETTINGS_GLOB)):
        try:
            doc = parse_jsonc(path.read_text(encoding="utf-8-sig"))
        except (OSError, ValueError):
            continue  # not JSON we can read: nothing to learn from it
        for row in load_table("csharp/builder_methods.json")["settings"]:
            section = _section(doc, row["section"])
            if section:
                _section_packages(section, f"{path.name}: {row['section']}", row, cs, out)
    return out


def _section_packages(section: dict, where: str, row: dict, cs: CsProject, out: dict) -> None:
    """The packages one settings section names: its WriteTo and Enrich methods by the
    index's markers, its Using assemblies by id."""
    ns = row["namespace"]
    for name in _names(section.get("WriteTo", [])):
        pid = _by_marker(f"WriteTo.{name}", ns)
        if pid:
            out.setdefault(pid, f"{where}:WriteTo {name}")
    for name in _names(section.get("Enrich", [])):
        pid = _by_marker(name, ns) or _by_marker(f"With{name}", ns)
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
