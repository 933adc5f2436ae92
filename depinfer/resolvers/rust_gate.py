"""The resolve gate for Cargo manifests: a Cargo.toml that cargo would refuse is never written.

Before the pipeline writes, every manifest the Rust resolver would change is rendered and
checked the way cargo reads it:

- Structurally (always): every dependency a `[features]` entry names must be declared by
  the manifest. `dep:x`, `x?/f` and a bare `x` that is no feature need an optional
  dependency of a table that may be optional (not `[dev-dependencies]`); `x/f` needs `x`
  in any dependency table. These are cargo's own rules (its messages: "feature `f`
  includes `x/y`, but `x` is not a dependency", "… but `x` is not an optional dependency").
- With cargo itself when it is installed: `cargo metadata --no-deps --offline` on a scratch
  copy of the workspace (its manifests, the rendered ones in place, and empty `.rs` files
  where the tree has them so target discovery sees the same targets). No network, no lock
  file, bounded in time. A manifest cargo fails to parse is not written; the error names the
  file and cargo's message. Failures elsewhere (a path dependency outside the repository,
  another member's own problem), and a refusal the file as it stands gets for the same
  reason (no target at all), do not judge what the write adds: the structural check stands.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

import tomlkit

from depinfer.manifests import cargo
from depinfer.model import Ecosystem, Project, Requirement
from depinfer.runcache import note_inputs

CARGO_TIMEOUT = 30  # seconds for one `cargo metadata`
MAX_MIRRORED_FILES = 50_000  # empty `.rs` files a scratch copy makes at most
_SKIP_DIRS = {".git", "target", "node_modules", ".hg", ".svn"}
_OPTIONAL_OK = ("dependencies", "build-dependencies")


def declared_keys(doc: dict[str, Any]) -> dict[str, bool]:
    """Dependency key → whether some table that may hold optional dependencies declares it
    optional (dev-dependencies count as declared, never as optional)."""
    out: dict[str, bool] = {}

    def add(kind: str, table: Any) -> None:
        if not isinstance(table, dict):
            return
        for key, value in table.items():
            optional = (
                kind in _OPTIONAL_OK and isinstance(value, dict) and value.get("optional") is True
            )
            out[str(key)] = out.get(str(key), False) or optional

    for key, value in doc.items():
        canon = key.replace("_", "-")
        if canon in cargo.DEP_TABLES:
            add(canon, value)
    target = doc.get("target")
    if isinstance(target, dict):
        for body in target.values():
            if isinstance(body, dict):
                for key, value in body.items():
                    canon = key.replace("_", "-")
                    if canon in cargo.DEP_TABLES:
                        add(canon, value)
    return out


def feature_problems(text: str) -> list[str]:
    """What cargo would refuse in the `[features]` of a manifest's text (empty: nothing)."""
    try:
        doc = tomlkit.parse(text).unwrap()
    except Exception as exc:  # the writer produced text tomlkit cannot read back
        return [f"invalid TOML: {exc}"]
    features = doc.get("features")
    if not isinstance(features, dict):
        return []
    deps = declared_keys(doc)
    problems: list[str] = []
    for feature, items in features.items():
        for item in items if isinstance(items, list) else []:
            why = _item_problem(str(item), features, deps)
            if why:
                problems.append(f"feature `{feature}` includes `{item}`, but {why}")
    return problems


def _item_problem(item: str, features: dict[str, Any], deps: dict[str, bool]) -> str | None:
    if item.startswith("dep:"):
        key, need_optional = item[4:], True
    elif "/" in item:
        key, _, _ = item.partition("/")
        need_optional = key.endswith("?")
        key = key.rstrip("?")
        if key in features and key not in deps and not need_optional:
            return None  # `feature/x`: cargo reports it itself, not a dependency question
    elif item in features:
        return None
    else:
        key, need_optional = item, True
    if key not in deps:
        return f"`{key}` is not a dependency"
    if need_optional and not deps[key]:
        return f"`{key}` is not an optional dependency"
    return None


def mirror_tree(project: Project, texts: dict[str, str], dest: Path) -> None:
    """A scratch copy cargo can read: every Cargo manifest (with `texts` in place of the
    files they replace) and an empty file for each `.rs` file of the tree."""
    root = Path(project.root)
    for m in project.manifests_of(Ecosystem.CRATES):
        target = dest / m.path
        target.parent.mkdir(parents=True, exist_ok=True)
        if m.path in texts:
            target.write_text(texts[m.path], encoding="utf-8")
        else:
            try:
                shutil.copyfile(root / m.path, target)
            except OSError:
                continue
    made = 0
    for here, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d not in _SKIP_DIRS]
        rel = Path(here).relative_to(root)
        for name in files:
            if not name.endswith(".rs") or made >= MAX_MIRRORED_FILES:
                continue
            target = dest / rel / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.touch()
            made += 1


def cargo_verdict(cargo_bin: str, scratch: Path, manifest: str) -> str | None:
    """cargo's message when it refuses to parse `manifest` in the scratch copy; None when it
    reads it, or when what fails is not this file (or cargo did not answer in time)."""
    path = scratch / manifest
    cmd = [
        cargo_bin,
        "metadata",
        "--no-deps",
        "--format-version",
        "1",
        "--offline",
        "--manifest-path",
        str(path),
    ]
    env = {**os.environ, "CARGO_NET_OFFLINE": "true", "CARGO_TERM_COLOR": "never"}
    try:
        proc = subprocess.run(
            cmd,
            cwd=scratch,
            capture_output=True,
            text=True,
            timeout=CARGO_TIMEOUT,
            env=env,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    if proc.returncode == 0:
        return None
    err = proc.stderr
    if f"failed to parse manifest at `{path}`" not in err:
        return None
    return " ".join(
        line.strip()
        for line in err.replace(str(scratch) + os.sep, "").splitlines()
        if line.strip() and not line.strip().startswith(("|", "-->")) and line.strip()[0] != "^"
    )


def gate(
    project: Project, requirements: list[Requirement], render_text: Any, use_cargo: bool = True
) -> dict[str, str]:
    """Manifest path → why it must not be written, for each manifest `requirements` would
    change. `render_text(path, reqs)` gives the text the writer would write (None: none)."""
    by_manifest: dict[str, list[Requirement]] = {}
    for req in requirements:
        by_manifest.setdefault(req.manifest, []).append(req)
    texts: dict[str, str] = {}
    refused: dict[str, str] = {}
    for path, reqs in by_manifest.items():
        text = render_text(path, reqs)
        if text is None:
            continue
        problems = feature_problems(text)
        if problems:
            refused[path] = "; ".join(problems)
        else:
            texts[path] = text
    cargo_bin = shutil.which("cargo") if use_cargo else None
    note_inputs([cargo_bin])  # a kept answer holds for this cargo (runcache)
    if not texts or cargo_bin is None:
        return refused
    with tempfile.TemporaryDirectory(prefix="depinfer-cargo-") as tmp:
        scratch = Path(tmp)
        mirror_tree(project, texts, scratch)
        for path in sorted(texts):
            verdict = cargo_verdict(cargo_bin, scratch.resolve(), path)
            if verdict and not _already_refused(project, cargo_bin, scratch, path, verdict):
                refused[path] = f"cargo: {verdict}"
    return refused


def _already_refused(
    project: Project, cargo_bin: str, scratch: Path, path: str, verdict: str
) -> bool:
    """Whether cargo refuses the file as it stands for the same reason (a manifest with no
    target at all, say): then the reason is not what the write adds, and writing does not
    make it worse. The file in the scratch copy is put back as it was."""
    target = scratch / path
    new = target.read_text(encoding="utf-8")
    try:
        target.write_bytes((Path(project.root) / path).read_bytes())
    except OSError:
        return False
    try:
        before = cargo_verdict(cargo_bin, scratch.resolve(), path)
    finally:
        target.write_text(new, encoding="utf-8")
    return before == verdict
