"""Where each registry lives: the user's own configuration first, then the tool's default.

depinfer asks the registries the user's own tools would ask — a company mirror configured
for pip, a scoped npm registry, a cargo source replacement, a private NuGet feed — and
otherwise the default of the installed tool (see tooling.py). Nothing here names a host.

Precedence, most specific first (what the ecosystem's own client does, simplified):
- PyPI: UV_DEFAULT_INDEX / UV_INDEX_URL / PIP_INDEX_URL, then uv.toml (project, user,
  system) / `[tool.uv]`, then pip.conf (PIP_CONFIG_FILE, site, user, global; `[install]`
  over `[global]`), then pip's built-in default. Extra indexes come from the same places.
- npm: npm_config_registry, then .npmrc (project, user, global), then `npm config get
  registry`; `@scope:registry` lines give per-scope registries.
- Rust crates: `[source.crates-io] replace-with` in .cargo/config.toml (project upwards, then
  CARGO_HOME), then the sparse index compiled into the installed cargo.
- NuGet: packageSources of NuGet.Config files (project upwards, then the user's), then the
  default feed of an installed NuGet client.
"""

from __future__ import annotations

import configparser
import os
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from depinfer.registries import tooling
from depinfer.runcache import note_inputs


@dataclass
class Endpoint:
    url: str
    source: str  # where the URL came from, for messages ("PIP_INDEX_URL", a file, "npm")


@dataclass
class PypiIndex(Endpoint):
    """A Python package index: its simple-API URL and, when known, its JSON API base."""

    json_base: str | None = None
    json_verified: bool = False  # True: known to serve the JSON API (pip's default index)


@dataclass
class NpmEndpoints:
    registry: Endpoint | None
    scopes: dict[str, Endpoint] = field(default_factory=dict)  # "@scope" -> registry


def _load_toml(path: Path) -> dict[str, Any] | None:
    """A TOML file as a dict (tomllib on 3.11+, tomlkit on 3.10), None when unreadable."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    try:
        import tomllib

        return tomllib.loads(text)
    except ModuleNotFoundError:
        import tomlkit

        try:
            return tomlkit.parse(text).unwrap()
        except Exception:
            return None
    except ValueError:
        return None


def with_slash(url: str) -> str:
    return url if url.endswith("/") else url + "/"


def _same_url(a: str, b: str) -> bool:
    return a.rstrip("/").lower() == b.rstrip("/").lower()


def _considered(files: list[Path]) -> list[Path]:
    """Settings files read (or looked for): a kept answer holds while they stay as they
    were (runcache)."""
    note_inputs(files)
    return files


def _ancestors(root: Path | None) -> list[Path]:
    if root is None:
        return []
    root = root.resolve()
    return [root, *root.parents]


# -- PyPI ------------------------------------------------------------------------------
def json_base_for(index_url: str, pip_default: tuple[str, str] | None) -> tuple[str | None, bool]:
    """The JSON API base next to a simple index, and whether it is known to exist.

    pip's default index pairs its simple URL with its JSON base; other indexes that follow
    the Warehouse layout (`…/simple` beside `…/pypi`) get the sibling, checked at first use.
    """
    if pip_default and _same_url(index_url, pip_default[0]):
        return pip_default[1].rstrip("/"), True
    stripped = index_url.rstrip("/")
    if stripped.endswith("/simple"):
        return stripped[: -len("simple")] + "pypi", False
    return None, False


def _split_urls(value: str) -> list[str]:
    out = []
    for part in value.split():
        # UV_INDEX entries may be "name=url"
        if "=" in part and not part.startswith(("http://", "https://", "file:")):
            part = part.split("=", 1)[1]
        if part.startswith(("http://", "https://")):
            out.append(part)
    return out


def _uv_files(project_root: Path | None, env: Mapping[str, str], home: Path) -> list[Path]:
    files: list[Path] = []
    if env.get("UV_CONFIG_FILE"):
        return _considered([Path(env["UV_CONFIG_FILE"])])
    for d in _ancestors(project_root):
        _considered([d / "uv.toml", d / "pyproject.toml"])
        if (d / "uv.toml").is_file():
            files.append(d / "uv.toml")
            break
        if (d / "pyproject.toml").is_file():
            files.append(d / "pyproject.toml")
            break
    xdg = Path(env.get("XDG_CONFIG_HOME") or home / ".config")
    files.append(xdg / "uv" / "uv.toml")
    for d in (env.get("XDG_CONFIG_DIRS") or "/etc/xdg").split(os.pathsep):
        files.append(Path(d) / "uv" / "uv.toml")
    files.append(Path("/etc/uv/uv.toml"))
    return _considered(files)


def _uv_settings(path: Path) -> tuple[str | None, list[str]]:
    """(default index, other indexes) from a uv.toml or a pyproject's [tool.uv]."""
    data = _load_toml(path)
    if data is None:
        return None, []
    if path.name == "pyproject.toml":
        data = data.get("tool", {}).get("uv", {})
        if not isinstance(data, dict):
            return None, []
    primary = data.get("index-url") if isinstance(data.get("index-url"), str) else None
    extras: list[str] = []
    for item in data.get("index", []) if isinstance(data.get("index"), list) else []:
        if not isinstance(item, dict) or not isinstance(item.get("url"), str):
            continue
        if item.get("explicit"):
            continue  # only for packages pinned to it
        if item.get("default"):
            primary = item["url"]
        else:
            extras.append(item["url"])
    extra = data.get("extra-index-url")
    if isinstance(extra, list):
        extras += [u for u in extra if isinstance(u, str)]
    return primary, extras


def _pip_files(env: Mapping[str, str], home: Path) -> list[Path]:
    """pip's configuration files, lowest precedence first (pip's documented order)."""
    if env.get("PIP_CONFIG_FILE") == os.devnull:
        return []
    files = [
        Path(d) / "pip" / "pip.conf"
        for d in (env.get("XDG_CONFIG_DIRS") or "/etc/xdg").split(os.pathsep)
    ]
    files.append(Path("/etc/pip.conf"))
    files.append(home / ".pip" / "pip.conf")
    files.append(Path(env.get("XDG_CONFIG_HOME") or home / ".config") / "pip" / "pip.conf")
    files.append(Path(sys.prefix) / "pip.conf")
    if env.get("PIP_CONFIG_FILE"):
        files.append(Path(env["PIP_CONFIG_FILE"]))
    return _considered(files)


def _pip_settings(files: list[Path]) -> tuple[tuple[str, str] | None, list[tuple[str, str]]]:
    primary: tuple[str, str] | None = None
    extras: list[tuple[str, str]] = []
    for path in files:
        if not path.is_file():
            continue
        parser = configparser.RawConfigParser()
        try:
            parser.read(path, encoding="utf-8")
        except (configparser.Error, OSError, UnicodeDecodeError):
            continue
        for section in ("global", "install"):  # [install] overrides [global]
            if not parser.has_section(section):
                continue
            for key in ("index-url", "index_url"):
                if parser.has_option(section, key):
                    primary = (parser.get(section, key).strip(), str(path))
            for key in ("extra-index-url", "extra_index_url"):
                if parser.has_option(section, key):
                    extras = [(u, str(path)) for u in _split_urls(parser.get(section, key))]
    return primary, extras


def pypi_indexes(
    project_root: Path | None = None,
    env: Mapping[str, str] | None = None,
    home: Path | None = None,
) -> list[PypiIndex]:
    """The package indexes to ask, primary first; [] when none can be determined."""
    env = os.environ if env is None else env
    home = home or Path.home()
    pip_default = tooling.pip_default_index()
    primary: tuple[str, str] | None = None
    extras: list[tuple[str, str]] = []
    for var in ("UV_DEFAULT_INDEX", "UV_INDEX_URL", "PIP_INDEX_URL"):
        if env.get(var, "").strip():
            primary = (env[var].strip(), var)
            break
    for var in ("UV_INDEX", "UV_EXTRA_INDEX_URL", "PIP_EXTRA_INDEX_URL"):
        extras += [(u, var) for u in _split_urls(env.get(var, ""))]
    for path in _uv_files(project_root, env, home):
        if not path.is_file():
            continue
        uv_primary, uv_extras = _uv_settings(path)
        extras += [(u, str(path)) for u in uv_extras]
        if primary is None and uv_primary:
            primary = (uv_primary, str(path))
    pip_primary, pip_extras = _pip_settings(_pip_files(env, home))
    extras += pip_extras
    if primary is None:
        primary = pip_primary
    if primary is None and pip_default:
        primary = (pip_default[0], "pip's default index")
    out: list[PypiIndex] = []
    for url, source in ([primary] if primary else []) + extras:
        if any(_same_url(url, have.url) for have in out):
            continue
        json_base, verified = json_base_for(url, pip_default)
        out.append(PypiIndex(url.rstrip("/"), source, json_base, verified))
    return out


def pypi_index_from_url(url: str, source: str = "configured") -> PypiIndex:
    """An injected PyPI endpoint: an index URL (…/simple) or a JSON API base (…/pypi)."""
    url = url.rstrip("/")
    if url.endswith("/pypi"):
        return PypiIndex(url[: -len("pypi")] + "simple", source, url, True)
    json_base, verified = json_base_for(url, tooling.pip_default_index())
    return PypiIndex(url, source, json_base, verified)


# -- npm -------------------------------------------------------------------------------
_ENV_REF = re.compile(r"\$\{([^}]+)\}")


def _read_npmrc(path: Path, env: Mapping[str, str]) -> dict[str, str]:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return {}
    out: dict[str, str] = {}
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith((";", "#")) or "=" not in line:
            continue
        key, value = (p.strip() for p in line.split("=", 1))
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
            value = value[1:-1]
        value = _ENV_REF.sub(lambda m: env.get(m.group(1), ""), value)
        out[key] = value
    return out


def _npmrc_files(project_root: Path | None, env: Mapping[str, str], home: Path) -> list[Path]:
    """npm's config files, most specific first: project, user, global."""
    files: list[Path] = []
    if project_root is not None:
        files.append(project_root / ".npmrc")
    user = _env_ci(env, "npm_config_userconfig")
    files.append(Path(user) if user else home / ".npmrc")
    glob = _env_ci(env, "npm_config_globalconfig")
    if glob:
        files.append(Path(glob))
    else:
        prefix = _env_ci(env, "npm_config_prefix") or _node_prefix()
        if prefix:
            files.append(Path(prefix) / "etc" / "npmrc")
    return _considered(files)


def npmrc_files(project_root: Path | None) -> list[Path]:
    """npm's config files for this environment, most specific first (project, user,
    global)."""
    return _npmrc_files(project_root, os.environ, Path.home())


def _node_prefix() -> str | None:
    import shutil

    node = shutil.which("node")
    return str(Path(node).resolve().parent.parent) if node else None


def _env_ci(env: Mapping[str, str], name: str) -> str | None:
    """npm reads its npm_config_* variables case-insensitively."""
    for key, value in env.items():
        if key.lower() == name and value:
            return value
    return None


def npm_endpoints(
    project_root: Path | None = None,
    env: Mapping[str, str] | None = None,
    home: Path | None = None,
    store: Path | None = None,
    refresh: bool = False,
) -> NpmEndpoints:
    env = os.environ if env is None else env
    home = home or Path.home()
    registry: Endpoint | None = None
    scopes: dict[str, Endpoint] = {}
    value = _env_ci(env, "npm_config_registry")
    if value:
        registry = Endpoint(with_slash(value), "npm_config_registry")
    for key, val in env.items():
        m = re.fullmatch(r"npm_config_(@[^:]+):registry", key, flags=re.IGNORECASE)
        if m and val:
            scopes.setdefault(m.group(1).lower(), Endpoint(with_slash(val), key))
    for path in _npmrc_files(project_root, env, home):
        conf = _read_npmrc(path, env) if path.is_file() else {}
        if registry is None and conf.get("registry", "").startswith(("http://", "https://")):
            registry = Endpoint(with_slash(conf["registry"]), str(path))
        for key, val in conf.items():
            if key.startswith("@") and key.endswith(":registry") and val:
                scopes.setdefault(
                    key[: -len(":registry")].lower(), Endpoint(with_slash(val), str(path))
                )
    if registry is None:
        value = tooling.npm_default_registry(store, refresh)
        if value:
            registry = Endpoint(with_slash(value), "npm config get registry")
    return NpmEndpoints(registry, scopes)


# -- Rust crates ---------------------------------------------------------------------------
class Unsupported(Exception):
    """A configured registry depinfer cannot read (git index, local directory source)."""


def _cargo_files(project_root: Path | None, env: Mapping[str, str], home: Path) -> list[Path]:
    """cargo's config files, most specific first (project upwards, then CARGO_HOME)."""
    files: list[Path] = []
    cargo_home = Path(env.get("CARGO_HOME") or home / ".cargo")
    for d in _ancestors(project_root):
        for name in ("config.toml", "config"):
            p = d / ".cargo" / name
            _considered([p])
            if p.is_file() and p.parent != cargo_home:
                files.append(p)
                break
    for name in ("config.toml", "config"):
        _considered([cargo_home / name])
        if (cargo_home / name).is_file():
            files.append(cargo_home / name)
            break
    return files


def _merged_toml(files: list[Path]) -> tuple[dict[str, Any], dict[str, str]]:
    """source/registries tables merged (closest file wins) and which file gave each key."""
    merged: dict[str, Any] = {"source": {}, "registries": {}}
    origin: dict[str, str] = {}
    for path in reversed(files):  # furthest first, closest overrides
        data = _load_toml(path)
        if data is None:
            continue
        for table in ("source", "registries"):
            for name, body in (data.get(table) or {}).items():
                if isinstance(body, dict):
                    merged[table].setdefault(name, {}).update(body)
                    origin[f"{table}.{name}"] = str(path)
    return merged, origin


def crates_index(
    project_root: Path | None = None,
    env: Mapping[str, str] | None = None,
    home: Path | None = None,
    store: Path | None = None,
    refresh: bool = False,
) -> Endpoint | None:
    """The sparse index URL (ending in "/") to ask for crates (the `crates-io` source), or None.

    Raises Unsupported when the user replaced the `crates-io` source with a source depinfer cannot read.
    """
    env = os.environ if env is None else env
    home = home or Path.home()
    conf, origin = _merged_toml(_cargo_files(project_root, env, home))
    name = "crates-io"
    seen: set[str] = set()
    while True:
        body = conf["source"].get(name, {})
        target = body.get("replace-with")
        if not isinstance(target, str) or target in seen:
            break
        seen.add(target)
        name = target
    if name != "crates-io":
        body = conf["source"].get(name) or {}
        where = origin.get(f"source.{name}") or origin.get(f"registries.{name}", "cargo config")
        url = body.get("registry") or (conf["registries"].get(name) or {}).get("index")
        if isinstance(url, str) and url.startswith("sparse+"):
            return Endpoint(with_slash(url[len("sparse+") :]), where)
        if isinstance(url, str):
            raise Unsupported(f"cargo source '{name}' ({where}) is a git index: {url}")
        raise Unsupported(f"cargo source '{name}' ({where}) is not a sparse registry")
    default = tooling.cargo_default_index(store, refresh)
    if default and default.startswith("sparse+"):
        return Endpoint(with_slash(default[len("sparse+") :]), "cargo's default index")
    return None


def cargo_registries(
    project_root: Path | None = None, env: Mapping[str, str] | None = None, home: Path | None = None
) -> dict[str, Endpoint]:
    """Alternate registries from `[registries]` (sparse ones only), by name."""
    env = os.environ if env is None else env
    conf, origin = _merged_toml(_cargo_files(project_root, env, home or Path.home()))
    out: dict[str, Endpoint] = {}
    for name, body in conf["registries"].items():
        url = body.get("index")
        if isinstance(url, str) and url.startswith("sparse+"):
            out[name] = Endpoint(
                with_slash(url[len("sparse+") :]), origin.get(f"registries.{name}", "")
            )
    return out


# -- NuGet -----------------------------------------------------------------------------
def _nuget_files(project_root: Path | None, env: Mapping[str, str], home: Path) -> list[Path]:
    """NuGet.Config files, closest first: project directory upwards, then the user's."""
    files: list[Path] = []
    for d in _ancestors(project_root):
        _considered([d])  # a folder's stamp changes when a file is added to it
        try:
            names = [p for p in d.iterdir() if p.name.lower() == "nuget.config" and p.is_file()]
        except OSError:
            continue
        files += sorted(names)[:1]
    appdata = env.get("APPDATA")
    if sys.platform == "win32" and appdata:
        files.append(Path(appdata) / "NuGet" / "NuGet.Config")
    else:
        files.append(home / ".nuget" / "NuGet" / "NuGet.Config")
    return [f for f in _considered(files) if f.is_file()]


def nuget_sources(
    project_root: Path | None = None,
    env: Mapping[str, str] | None = None,
    home: Path | None = None,
    store: Path | None = None,
    refresh: bool = False,
) -> list[Endpoint]:
    """Enabled v3 package sources (service index URLs), in configuration order."""
    env = os.environ if env is None else env
    home = home or Path.home()
    files = _nuget_files(project_root, env, home)
    sources: dict[str, Endpoint] = {}
    disabled: set[str] = set()
    configured = False
    from xml.etree import ElementTree  # lazy: only NuGet's settings are XML

    for path in reversed(files):  # furthest first; <clear/> drops what came before
        try:
            root = ElementTree.parse(path).getroot()
        except (ElementTree.ParseError, OSError):
            continue
        section = root.find("packageSources")
        if section is not None:
            configured = True
            for item in section:
                if item.tag == "clear":
                    sources.clear()
                elif item.tag == "add" and item.get("key") and item.get("value"):
                    url = item.get("value", "")
                    v3 = url.lower().endswith("index.json") or item.get("protocolVersion") == "3"
                    if url.startswith(("http://", "https://")) and v3:
                        sources[item.get("key", "")] = Endpoint(url, str(path))
                    else:
                        sources.pop(item.get("key", ""), None)
        off = root.find("disabledPackageSources")
        if off is not None:
            for item in off:
                if item.tag == "clear":
                    disabled.clear()
                elif item.tag == "add" and (item.get("value") or "").lower() == "true":
                    disabled.add(item.get("key", ""))
    enabled = [e for k, e in sources.items() if k not in disabled]
    if enabled or configured:
        return enabled
    default = tooling.nuget_default_source(store, refresh)
    return [Endpoint(default, "NuGet client default")] if default else []
