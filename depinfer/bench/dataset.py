"""Benchmark instances: our JSONL format (one repository a line) plus a directory of trees.

An instance names a repository snapshot and the build files whose dependency sections the
benchmark masks. Trees live at `<trees>/<language>/<id>/` (the layout of the dev set and of
DI-Bench's extracted repository data); `--instance` and `--shard i/n` pick a subset in a
deterministic way so that parts of one dataset can run on different machines.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

LANGUAGES = ("python", "javascript", "rust", "csharp")
# DI-Bench spells some languages differently from depinfer.
LANGUAGE_ALIASES = {
    "py": "python",
    "js": "javascript",
    "typescript": "javascript",
    "ts": "javascript",
    "c#": "csharp",
    "cs": "csharp",
    "rs": "rust",
}


class DatasetError(Exception):
    """The dataset file or the tree directory cannot be used; the message says why."""


@dataclass
class Instance:
    id: str
    language: str
    build_files: list[str]
    repo: str = ""
    commit: str = ""
    date: str | None = None
    patch: str | None = None  # DI-Bench: the diff that restores the gold build files
    raw: dict[str, Any] = field(default_factory=dict)

    def tree(self, trees: Path) -> Path:
        """Where this instance's repository tree is: <trees>/<language>/<id>, else <trees>/<id>."""
        for candidate in (
            trees / self.language / self.id,
            trees / self.raw.get("language", self.language).lower() / self.id,
            trees / self.id,
        ):
            if candidate.is_dir():
                return candidate
        return trees / self.language / self.id


def normalise_language(value: str) -> str:
    low = (value or "").strip().lower()
    return LANGUAGE_ALIASES.get(low, low)


def instance_from_json(obj: dict[str, Any], line: int, source: str) -> Instance:
    """Our format (`id`, `build_files`, …) or DI-Bench's (`instance_id`, `metadata`, `patch`, …)."""
    ident = obj.get("id") or obj.get("instance_id")
    language = obj.get("language")
    build_files = obj.get("build_files")
    if build_files is None and isinstance(obj.get("dependency_file"), str):
        build_files = [obj["dependency_file"]]  # DI-Bench's earlier single-file spelling
    if not isinstance(ident, str) or not ident:
        raise DatasetError(f"{source}:{line}: no `id` or `instance_id`")
    if not isinstance(language, str) or not language:
        raise DatasetError(f"{source}:{line}: instance {ident} has no `language`")
    if not isinstance(build_files, list) or not all(isinstance(b, str) for b in build_files):
        raise DatasetError(f"{source}:{line}: instance {ident} has no `build_files` list")
    meta = obj.get("metadata") if isinstance(obj.get("metadata"), dict) else {}
    return Instance(
        id=ident,
        language=normalise_language(language),
        build_files=[b.replace("\\", "/") for b in build_files],
        repo=obj.get("repo") or meta.get("repo_name") or "",
        commit=obj.get("commit")
        or meta.get("commit_hash")
        or meta.get("commit_sha")
        or meta.get("commit")
        or "",
        date=obj.get("date") or meta.get("commit_date") or meta.get("date"),
        patch=obj.get("patch") if isinstance(obj.get("patch"), str) else None,
        raw=obj,
    )


def load_dataset(path: str | Path) -> list[Instance]:
    """Read a JSONL (or a JSON list) of instances; raises DatasetError with the place of a bad line."""
    path = Path(path)
    if not path.is_file():
        raise DatasetError(f"dataset not found: {path}")
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise DatasetError(f"cannot read dataset {path}: {exc}") from exc
    stripped = text.lstrip()
    objects: list[tuple[int, Any]] = []
    if stripped.startswith("["):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise DatasetError(f"{path}: invalid JSON at line {exc.lineno}: {exc.msg}") from exc
        objects = [(i + 1, obj) for i, obj in enumerate(data)]
    else:
        for lineno, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                objects.append((lineno, json.loads(line)))
            except json.JSONDecodeError as exc:
                raise DatasetError(f"{path}:{lineno}: invalid JSON: {exc.msg}") from exc
    instances = []
    seen: set[str] = set()
    for lineno, obj in objects:
        if not isinstance(obj, dict):
            raise DatasetError(f"{path}:{lineno}: not a JSON object")
        inst = instance_from_json(obj, lineno, str(path))
        if inst.id in seen:
            raise DatasetError(f"{path}:{lineno}: duplicate instance id {inst.id}")
        seen.add(inst.id)
        instances.append(inst)
    return instances


def parse_shard(value: str) -> tuple[int, int]:
    """`i/n` (1-based) → (i, n); raises ValueError with a message for the user."""
    try:
        i_text, n_text = value.split("/")
        i, n = int(i_text), int(n_text)
    except ValueError:
        raise ValueError(f"--shard: expected i/n such as 1/4, got {value!r}") from None
    if n < 1 or not 1 <= i <= n:
        raise ValueError(f"--shard: need 1 <= i <= n, got {value!r}")
    return i, n


def select(
    instances: list[Instance],
    languages: tuple[str, ...] = (),
    ids: tuple[str, ...] = (),
    shard: tuple[int, int] | None = None,
) -> list[Instance]:
    """Filter by language and id, then keep shard i of n.

    Shards deal the instances, sorted by id, round-robin: balanced, and the same split
    whatever order the dataset lists them in, so parts run anywhere merge back cleanly.
    """
    out = [
        inst
        for inst in instances
        if (not languages or inst.language in languages) and (not ids or inst.id in ids)
    ]
    if shard:
        i, n = shard
        order = sorted(out, key=lambda inst: inst.id)
        keep = {inst.id for k, inst in enumerate(order) if k % n == i - 1}
        out = [inst for inst in out if inst.id in keep]
    return out
