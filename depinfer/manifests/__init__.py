"""Manifest readers and writers, one module per format.

Each format module offers:
  read(text: str, path: str) -> tuple[dict[str, list[str]], dict]   (declared, data)
      raising ManifestError when the file cannot be parsed;
  render(text: str, manifest: Manifest, requirements: list[Requirement]) -> str
      the new file text: only dependency sections change, everything else byte-identical.
"""

from __future__ import annotations

import importlib
from pathlib import Path, PurePosixPath

from depinfer.model import Ecosystem, Manifest, Requirement


class ManifestError(Exception):
    """The manifest cannot be parsed or safely edited; it is left untouched."""


class NotWritable(ManifestError):
    """A dependency list is built at run time (a setup.py value computed by a call): the file
    is left untouched, and a preview still shows what would be added.

    `line` is where the value is built (1-based), for the message that names it."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.line = line


# format -> (ecosystem, module under depinfer.manifests)
FORMATS: dict[str, tuple[Ecosystem, str]] = {
    "pyproject": (Ecosystem.PYPI, "pyproject"),
    "requirements": (Ecosystem.PYPI, "requirements"),
    "setup_cfg": (Ecosystem.PYPI, "setup_cfg"),
    "setup_py": (Ecosystem.PYPI, "setup_py"),
    "package_json": (Ecosystem.NPM, "package_json"),
    "cargo": (Ecosystem.CRATES, "cargo"),
    "csproj": (Ecosystem.NUGET, "csproj"),
    "props": (Ecosystem.NUGET, "csproj"),
}


def detect_format(rel: str) -> str | None:
    name = PurePosixPath(rel).name
    if name == "pyproject.toml":
        return "pyproject"
    if name == "setup.cfg":
        return "setup_cfg"
    if name == "setup.py":
        return "setup_py"
    if name == "package.json":
        return "package_json"
    if name == "Cargo.toml":
        return "cargo"
    if name.endswith(".csproj"):
        return "csproj"
    if name in ("Directory.Packages.props", "Directory.Build.props"):
        return "props"
    if name.endswith((".txt", ".in")):
        return "requirements"
    return None


def format_module(fmt: str):
    return importlib.import_module(f"depinfer.manifests.{FORMATS[fmt][1]}")


def read_manifest(root: Path, rel: str, fmt: str) -> Manifest:
    ecosystem = FORMATS[fmt][0]
    manifest = Manifest(path=rel, ecosystem=ecosystem, format=fmt)
    try:
        raw = (root / rel).read_bytes()
    except OSError as exc:
        manifest.parse_error = f"cannot read: {exc.strerror}"
        return manifest
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        manifest.parse_error = "not valid UTF-8"
        return manifest
    try:
        module = format_module(fmt)
    except ModuleNotFoundError:
        manifest.parse_error = f"no reader for {fmt} manifests yet"
        return manifest
    try:
        declared, data = module.read(text, rel)
    except ManifestError as exc:
        manifest.parse_error = str(exc)
        return manifest
    except Exception as exc:  # a reader bug must not crash the run or touch the file
        manifest.parse_error = f"{type(exc).__name__}: {exc}"
        return manifest
    manifest.declared = declared
    manifest.data = data
    return manifest


def render_manifest(
    root: Path, manifest: Manifest, requirements: list[Requirement]
) -> tuple[str, str]:
    """(old_text, new_text) for a manifest; raises ManifestError when it cannot be edited."""
    if manifest.parse_error:
        raise ManifestError(manifest.parse_error)
    path = root / manifest.path
    raw = path.read_bytes()
    bom = raw.startswith(b"\xef\xbb\xbf")
    text = raw.decode("utf-8-sig")
    new = format_module(manifest.format).render(text, manifest, requirements)
    if bom:
        return "\ufeff" + text, "\ufeff" + new
    return text, new
