"""Peer tools run on the same masked copies, so one table compares them with depinfer.

Each adapter runs an installed command (found on PATH; nothing is installed here) on the
masked copy before depinfer writes anything, and reads the dependency names it reports:

- pipreqs (Python): `--print --mode no-pin` prints a requirements list built from imports.
- pigar (Python): `generate --dry-run` prints the requirements it would write; ambiguous
  module names are answered with its own `--auto-select`.
- depcheck (JavaScript): `--json`, its `missing` map — packages used but not declared.
- knip (JavaScript): `--reporter json --include unlisted` — dependencies used but not listed.

Names a tool reports with the files that use them go to the nearest masked build file above
those files; names without files go to every masked build file of the instance. Both Python
tools ask a package index: they get the user's own index from depinfer's endpoint discovery.

For the executed benchmark (`bench run --execute --peers`) the names a tool placed in each
build file are kept as it spelt them (`names` in its answer) and `write_names` writes them
into the masked build files through depinfer's own manifest writers: plain runtime entries
without a version constraint, as the tools themselves write an unpinned list.
"""

from __future__ import annotations

import json
import posixpath
import re
import shutil
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from depinfer.bench.sections import Dep, normalise_name, pep508_dep
from depinfer.manifests import ManifestError, detect_format, read_manifest, render_manifest
from depinfer.model import LANGUAGE_ECOSYSTEM, Requirement
from depinfer.registries.endpoints import pypi_indexes

_ANSI = re.compile(r"\x1b\[[0-9;]*m")

Found = list[tuple[str, str | None]]  # (dependency name, repository-relative file or None)


@dataclass
class Peer:
    name: str
    language: str
    executable: str
    argv: Callable[[Path, bool], list[str]]  # (root, offline) -> arguments after the command
    parse: Callable[[str, Path], Found]
    cwd_is_root: bool = False
    # A JSON report that parses is an answer whatever the exit code (depcheck exits 255
    # whenever it found something, even only unused dependencies).
    json_report: bool = False

    def available(self) -> bool:
        return shutil.which(self.executable) is not None


def _pypi_index() -> tuple[str | None, str | None]:
    """(simple-API URL, JSON API base) of the user's primary index, from depinfer's discovery."""
    try:
        indexes = pypi_indexes(None)
    except Exception:  # discovery problems leave the tool on its own default
        return None, None
    if not indexes:
        return None, None
    return indexes[0].url, indexes[0].json_base


def _pipreqs_argv(root: Path, offline: bool) -> list[str]:
    argv = ["--print", "--mode", "no-pin", "--encoding", "utf-8"]
    argv += ["--ignore", ",".join(EXCLUDED_DIRS)]
    if offline:
        argv.append("--use-local")
    else:
        _, json_base = _pypi_index()
        if json_base:
            argv += ["--pypi-server", json_base.rstrip("/") + "/"]
    return [*argv, str(root)]


# Runtime dependencies are scored, so the peers skip what depinfer files under dev/test too
# (the same exclusions DI-Bench used for its pigar baseline: tests, examples, docs).
EXCLUDED_DIRS = ("tests", "test", "examples", "example", "docs", "doc")


def _requirement_lines(text: str, root: Path | None = None) -> Found:
    out: Found = []
    for line in _ANSI.sub("", text).splitlines():
        line = line.strip()
        if not line or line.startswith(("#", "-")) or " " in line.split(";")[0].strip():
            continue
        dep = pep508_dep(line)
        if dep:
            out.append((dep.raw, None))
    return out


def _pigar_argv(root: Path, offline: bool) -> list[str]:
    argv = ["generate", "--dry-run", "--auto-select", "--question-answer", "yes"]
    argv += ["-c", "-", "--dont-show-differences"]
    for d in EXCLUDED_DIRS:
        argv += ["--exclude-glob", f"**/{d}/**"]
    simple, _ = _pypi_index()
    if simple and not offline:
        argv += ["--index-url", simple]
    return [*argv, str(root)]


def _pigar_parse(text: str, root: Path) -> Found:
    text = _ANSI.sub("", text)
    marker = "Generated requirements are as follows:"
    if marker not in text:
        return []
    body = text.split(marker, 1)[1]
    # names pigar could not settle follow its "manual fixes" warning: not part of its answer
    return _requirement_lines(body.split("WARNING(pigar)", 1)[0])


def _depcheck_parse(text: str, root: Path) -> Found:
    data = json.loads(text)
    out: Found = []
    for name, files in (data.get("missing") or {}).items():
        rels = [_relative(root, f) for f in files] or [None]
        out.extend((name, rel) for rel in rels)
    return out


def _knip_parse(text: str, root: Path) -> Found:
    start = text.find("{")
    if start < 0:
        raise ValueError("no JSON report in the output")
    data = json.loads(text[start:])
    out: Found = []
    for issue in data.get("issues") or []:
        for item in issue.get("unlisted") or []:
            if isinstance(item, dict) and item.get("name"):
                out.append((item["name"], issue.get("file")))
    return out


def _relative(root: Path, path: str) -> str | None:
    try:
        return Path(path).resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return None


PEERS: dict[str, Peer] = {
    "pipreqs": Peer("pipreqs", "python", "pipreqs", _pipreqs_argv, _requirement_lines),
    "pigar": Peer("pigar", "python", "pigar", _pigar_argv, _pigar_parse),
    "depcheck": Peer(
        "depcheck",
        "javascript",
        "depcheck",
        lambda root, off: [str(root), "--json"],
        _depcheck_parse,
        json_report=True,
    ),
    "knip": Peer(
        "knip",
        "javascript",
        "knip",
        lambda root, off: ["--reporter", "json", "--include", "unlisted", "--no-progress"],
        _knip_parse,
        cwd_is_root=True,
        json_report=True,
    ),
}


def parse_peer_names(value: str) -> list[str]:
    """`all` or a comma list of known peers; raises ValueError naming the unknown ones."""
    names = (
        list(PEERS)
        if value.strip() == "all"
        else [v.strip() for v in value.split(",") if v.strip()]
    )
    unknown = [n for n in names if n not in PEERS]
    if unknown:
        raise ValueError(
            f"--peers: unknown tool(s) {', '.join(unknown)} (known: {', '.join(PEERS)})"
        )
    return names


def assign(found: Found, build_files: list[str], language: str) -> dict[str, list[Dep]]:
    """Names → the build files they belong to (nearest enclosing one; all when no file is known)."""
    out: dict[str, dict[str, Dep]] = {b: {} for b in build_files}
    dirs = sorted(
        ((posixpath.dirname(b), b) for b in build_files), key=lambda t: len(t[0]), reverse=True
    )
    for raw, rel in found:
        dep = Dep(normalise_name(language, raw), raw)
        targets = build_files
        if rel:
            near = next((b for d, b in dirs if not d or rel == d or rel.startswith(d + "/")), None)
            targets = [near] if near else build_files
        for b in targets:
            out[b].setdefault(dep.name, dep)
    return {b: list(deps.values()) for b, deps in out.items()}


def run_peer(
    peer: Peer, root: Path, build_files: list[str], offline: bool, timeout: float = 300
) -> dict[str, Any]:
    """Run one peer on the masked copy; returns its predicted deps per build file or an error."""
    started = time.monotonic()
    exe = shutil.which(peer.executable)
    if exe is None:
        return {"status": "not installed"}
    try:
        proc = subprocess.run(
            [exe, *peer.argv(root, offline)],
            cwd=root if peer.cwd_is_root else None,
            capture_output=True,
            text=True,
            timeout=timeout,
            stdin=subprocess.DEVNULL,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return {"status": "error", "error": f"timeout after {timeout:g}s", "wall_time": timeout}
    except OSError as exc:
        return {"status": "error", "error": str(exc)}
    wall = round(time.monotonic() - started, 3)
    try:
        found = peer.parse(proc.stdout, root)
    except (ValueError, KeyError, TypeError) as exc:
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-1:] or [""]
        return {
            "status": "error",
            "error": f"unreadable output ({exc}): {tail[0][:200]}",
            "wall_time": wall,
        }
    if not found and proc.returncode != 0 and not peer.json_report:
        tail = proc.stderr.strip().splitlines()[-1:] or [""]
        return {
            "status": "error",
            "error": f"exit {proc.returncode}: {tail[0][:200]}",
            "wall_time": wall,
        }
    pred = assign(found, build_files, peer.language)
    names = {b: [d.raw for d in deps] for b, deps in pred.items()}
    return {"status": "ok", "pred": pred, "names": names, "wall_time": wall}


def peer_names(answer: dict[str, Any]) -> dict[str, list[str]] | None:
    """The names a peer's answer placed in each build file (None: the peer gave no answer).

    Answers recorded before the names were kept give them back from the scored files
    (correct and extra names, in their compared spelling)."""
    if not isinstance(answer, dict) or answer.get("status") != "ok":
        return None
    names = answer.get("names")
    if isinstance(names, dict):
        return {b: list(v) for b, v in names.items()}
    files = answer.get("files") or {}
    return {
        b: sorted(set(f.get("correct") or ()) | set(f.get("extra") or ())) for b, f in files.items()
    }


def write_names(root: Path, names: dict[str, list[str]], language: str) -> list[str]:
    """Write each build file's names into the (masked) tree at `root`, as runtime entries
    without a version constraint, through depinfer's writer for the file's format.

    Returns one problem per build file that could not be written (left as it was)."""
    ecosystem = LANGUAGE_ECOSYSTEM[language]
    problems: list[str] = []
    for rel, listed in sorted(names.items()):
        if not listed:
            continue
        fmt = detect_format(rel)
        if fmt is None or not (root / rel).is_file():
            problems.append(f"{rel}: not a build file depinfer writes")
            continue
        manifest = read_manifest(root, rel, fmt)
        wanted = list(dict.fromkeys(listed))
        requirements = [Requirement(ecosystem, name, rel) for name in wanted]
        try:
            _, new = render_manifest(root, manifest, requirements)
        except ManifestError as exc:
            problems.append(f"{rel}: {exc}")
            continue
        except Exception as exc:  # a writer bug must not stop the run: the file stays masked
            problems.append(f"{rel}: {type(exc).__name__}: {exc}")
            continue
        (root / rel).write_bytes(new.encode("utf-8"))
    return problems
