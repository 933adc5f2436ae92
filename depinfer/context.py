"""Run-wide settings and services every stage may consult (options, registries, messages)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from depinfer.config import Config
from depinfer.filecache import FileCache
from depinfer.model import Diagnostic

if TYPE_CHECKING:
    from depinfer.registries import Registries


@dataclass
class Options:
    write: bool = False
    offline: bool = False
    refresh: bool = False
    python: str | None = None  # target Python "3.X" (overrides what the repository says)
    as_of: str | None = None  # "now" | "last-commit" | ISO date; None = now
    versions: bool = True  # False: names only (benchmark name-only runs)
    languages: tuple[str, ...] = ()  # restrict to these languages; empty = all found
    llm: bool = False
    llm_url: str | None = None  # OpenAI-compatible chat-completions base URL
    llm_model: str | None = None
    llm_cmd: str | None = None  # a local command reading the prompt on stdin
    llm_key_env: str = "DEPINFER_LLM_API_KEY"
    llm_max_calls: int = 20
    llm_max_tokens: int = 200_000
    llm_batch: int = 8
    # Check mode: also emit candidates for names no index or registry could confirm
    # (marked verified=None), so they can be compared with what the manifests declare.
    keep_unverified: bool = False
    # Evidence ceiling (benchmark research): write every internal reference any code
    # evidence supports, unreduced, so a report can tell how much of a gold manifest the
    # code can justify at all (C# ProjectReferences). Never for a manifest meant to build.
    all_evidence: bool = False


@dataclass
class Context:
    options: Options
    registries: Registries
    diagnostics: list[Diagnostic] = field(default_factory=list)
    config: Config = field(default_factory=Config)
    # the per-file analysis cache (filecache.py); disabled unless the command line asks
    files: FileCache = field(default_factory=lambda: FileCache(None))

    def warn(self, message: str, file: str | None = None) -> None:
        self.diagnostics.append(Diagnostic(message, file, "warning"))

    def error(self, message: str, file: str | None = None) -> None:
        self.diagnostics.append(Diagnostic(message, file, "error"))

    def info(self, message: str, file: str | None = None) -> None:
        self.diagnostics.append(Diagnostic(message, file, "info"))
