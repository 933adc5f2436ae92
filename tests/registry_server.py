"""A local registry serving the recorded responses in fixtures/registry.

One pytest-httpserver instance plays all four registries (their paths do not collide):
PyPI's JSON API under /pypi and simple API under /simple, npm packuments and the crates
sparse index at the root, NuGet v3 under /nuget. `{base}` in a recorded body becomes the
server's own address. Tests inject failures per path (status codes, delays, truncation).
Tests get it through the `registry_server` and `registries` fixtures of conftest.py.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from conftest import FIXTURES
from werkzeug import Request, Response

from depinfer.model import Ecosystem
from depinfer.registries import Registries

RECORDED = FIXTURES / "registry"
Override = Callable[[Request], Response | None]


def _escapes(path: str) -> str:
    """Percent-escapes in one case (`%2f` and `%2F` name the same path)."""
    return re.sub(r"%[0-9a-fA-F]{2}", lambda m: m.group(0).upper(), path)


class RegistryServer:
    def __init__(self, httpserver: Any) -> None:
        self.httpserver = httpserver
        self.base = httpserver.url_for("/").rstrip("/")
        self.routes: dict[str, list[dict[str, Any]]] = {}
        for route in json.loads((RECORDED / "routes.json").read_text(encoding="utf-8")):
            self.routes.setdefault(_escapes(route["path"]), []).append(route)
        self.overrides: dict[str, Override] = {}
        self.everywhere: Override | None = None  # applies to every path
        self.hits: list[tuple[str, str]] = []  # (path, Accept header) of every request
        httpserver.expect_request(_ANY).respond_with_handler(self._handle)

    # -- what tests use -----------------------------------------------------------------
    def url(self, path: str) -> str:
        return self.base + path

    def endpoints(self) -> dict[Ecosystem, str]:
        return {
            Ecosystem.PYPI: self.url("/pypi"),
            Ecosystem.NPM: self.url("/"),
            Ecosystem.CRATES: "sparse+" + self.url("/"),
            Ecosystem.NUGET: self.url("/nuget/index.json"),
        }

    def registries(self, cache_dir: Path | None, **kwargs: Any) -> Registries:
        kwargs.setdefault("endpoints", self.endpoints())
        kwargs.setdefault("timeout", 2.0)
        reg = Registries(
            cache_dir=str(cache_dir) if cache_dir else None,
            use_cache=cache_dir is not None,
            **kwargs,
        )
        reg.http_settings().backoff = 0.0  # no sleeping between retries in tests
        return reg

    def count(self, path: str) -> int:
        return sum(1 for p, _ in self.hits if p == _escapes(path))

    def fail(self, path: str, status: int, times: int | None = None, **headers: str) -> None:
        """Answer `status` for `path` (the first `times` requests, or always)."""
        left = [times]

        def handler(request: Request) -> Response | None:
            if left[0] is not None:
                if left[0] <= 0:
                    return None
                left[0] -= 1
            return Response("server trouble", status=status, headers=headers)

        self.overrides[_escapes(path)] = handler

    def fail_everything(self, status: int) -> None:
        self.everywhere = lambda request: Response("down", status=status)

    def delay(self, path: str, seconds: float) -> None:
        def handler(request: Request) -> Response | None:
            time.sleep(seconds)
            return None

        self.overrides[_escapes(path)] = handler

    def truncate(self, path: str) -> None:
        def handler(request: Request) -> Response | None:
            body = self._body(path, request)
            assert body is not None
            data, ctype = body
            return Response(data[: len(data) // 2], content_type=ctype)

        self.overrides[_escapes(path)] = handler

    # -- serving ------------------------------------------------------------------------
    def _body(self, path: str, request: Request) -> tuple[bytes, str] | None:
        candidates = self.routes.get(path)
        if not candidates:
            return None
        accept = request.headers.get("Accept", "")
        chosen = next(
            (r for r in candidates if r.get("accept") and r["accept"] in accept),
            next((r for r in candidates if not r.get("accept")), candidates[0]),
        )
        data = (RECORDED / chosen["file"]).read_bytes()
        if not chosen["file"].endswith(".crate"):
            data = data.replace(b"{base}", self.base.encode())
        return data, chosen["content_type"]

    def _handle(self, request: Request) -> Response:
        # The raw path keeps npm's escaped scope separator (`@scope%2fname`).
        path = _escapes((request.environ.get("RAW_URI") or request.path).split("?")[0])
        self.hits.append((path, request.headers.get("Accept", "")))
        override = self.overrides.get(path) or self.everywhere
        if override is not None:
            answer = override(request)
            if answer is not None:
                return answer
        body = self._body(path, request)
        if body is None:
            return Response("Not Found", status=404)
        return Response(body[0], content_type=body[1])


try:
    from pytest_httpserver.httpserver import URIPattern

    class _AnyURI(URIPattern):
        def match(self, uri: str) -> bool:
            return True

    _ANY: Any = _AnyURI()
except ImportError:  # pragma: no cover - older pytest-httpserver
    _ANY = re.compile(".*")
