"""LLM transport: an OpenAI-compatible chat-completions endpoint or a local command.

Bounded on purpose: a call budget, a token cap, timeouts and retries with backoff; answers
are cached on disk keyed by the exact question, so a re-run costs nothing.
"""

from __future__ import annotations

import hashlib
import json
import os
import shlex
import subprocess
import time
from pathlib import Path

import requests


class LLMError(Exception):
    """The model could not be asked or answered nonsense; the rule-based choice stands."""


def estimate_tokens(text: str) -> int:
    return max(1, len(text) // 4)


class AnswerCache:
    def __init__(self, directory: Path) -> None:
        self.path = directory / "llm-answers.json"
        try:
            self.data: dict[str, str] = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            self.data = {}

    @staticmethod
    def key(model: str, prompt: str) -> str:
        return hashlib.sha256(f"{model}\0{prompt}".encode()).hexdigest()

    def get(self, model: str, prompt: str) -> str | None:
        return self.data.get(self.key(model, prompt))

    def put(self, model: str, prompt: str, answer: str) -> None:
        self.data[self.key(model, prompt)] = answer
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.path.with_suffix(".tmp")
            tmp.write_text(json.dumps(self.data), encoding="utf-8")
            os.replace(tmp, self.path)
        except OSError:
            pass  # an unwritable cache only costs a repeat call next time


class LLMClient:
    def __init__(
        self,
        *,
        url: str | None,
        model: str | None,
        cmd: str | None,
        api_key: str | None,
        max_calls: int,
        max_tokens: int,
        cache: AnswerCache | None,
        timeout: float = 60.0,
        retries: int = 2,
        backoff: float = 0.5,
    ) -> None:
        if not url and not cmd:
            raise LLMError("--llm needs --llm-url (OpenAI-compatible endpoint) or --llm-cmd")
        self.url = url.rstrip("/") if url else None
        self.model = model or "default"
        self.cmd = cmd
        self.api_key = api_key
        self.max_calls = max_calls
        self.max_tokens = max_tokens
        self.cache = cache
        self.timeout = timeout
        self.retries = retries
        self.backoff = backoff
        self.calls = 0
        self.tokens = 0
        self.cache_hits = 0
        self._session = requests.Session()

    def ask(self, system: str, prompt: str, schema: dict) -> str:
        full = system + "\n\n" + prompt
        if self.cache is not None:
            hit = self.cache.get(self.model, full)
            if hit is not None:
                self.cache_hits += 1
                return hit
        if self.calls >= self.max_calls:
            raise LLMError(f"call budget of {self.max_calls} used up")
        cost = estimate_tokens(full)
        if self.tokens + cost > self.max_tokens:
            raise LLMError(f"token cap of {self.max_tokens} reached")
        self.calls += 1
        self.tokens += cost
        answer = self._command(full) if self.cmd else self._http(system, prompt, schema)
        self.tokens += estimate_tokens(answer)
        if self.cache is not None:
            self.cache.put(self.model, full, answer)
        return answer

    def _command(self, prompt: str) -> str:
        try:
            out = subprocess.run(
                shlex.split(self.cmd or ""),
                input=prompt,
                capture_output=True,
                text=True,
                timeout=self.timeout,
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise LLMError(f"--llm-cmd failed: {exc}") from exc
        if out.returncode != 0:
            raise LLMError(f"--llm-cmd exited {out.returncode}: {out.stderr.strip()[:200]}")
        return out.stdout

    def _http(self, system: str, prompt: str, schema: dict) -> str:
        body = {
            "model": self.model,
            "messages": [
                {"role": "system", "content": system},
                {"role": "user", "content": prompt},
            ],
            "temperature": 0,
            "response_format": {
                "type": "json_schema",
                "json_schema": {"name": "answers", "strict": True, "schema": schema},
            },
        }
        headers = {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}
        last: Exception | None = None
        for attempt in range(self.retries + 1):
            if attempt:
                time.sleep(self.backoff * 2 ** (attempt - 1))
            try:
                resp = self._session.post(
                    f"{self.url}/chat/completions", json=body, headers=headers, timeout=self.timeout
                )
            except requests.RequestException as exc:
                last = exc
                continue
            if resp.status_code == 429 or resp.status_code >= 500:
                last = LLMError(f"endpoint answered {resp.status_code}")
                continue
            if resp.status_code != 200:
                raise LLMError(f"endpoint answered {resp.status_code}: {resp.text[:200]}")
            try:
                return resp.json()["choices"][0]["message"]["content"]
            except (ValueError, KeyError, IndexError, TypeError) as exc:
                raise LLMError("endpoint answer is not a chat completion") from exc
        raise LLMError(f"endpoint unreachable: {last}")
