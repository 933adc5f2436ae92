"""Demonstrate hybrid mode against a local fake OpenAI-compatible endpoint.

The fake model always picks the *last* listed option (so every decision it makes is
visible as a change), except that it answers one question with a name outside the
candidates, which depinfer must discard. Prints the hybrid part of the decision record.
Usage: python scripts/demo_hybrid.py [PATH]   (default: fixtures/python/hybrid-ambiguous)
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


class FakeModel(BaseHTTPRequestHandler):
    def do_POST(self) -> None:  # noqa: N802 - http.server's naming
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        questions = json.loads(body["messages"][1]["content"])["questions"]
        answers = []
        for i, q in enumerate(questions):
            names = [o["name"] for o in q["options"]]
            choice = (
                "an-invented-package"
                if i == len(questions) - 1 and len(questions) > 1
                else names[-1]  # the last option: a visible change for "package" questions
            )
            answers.append({"id": q["id"], "choice": choice})
        reply = {"choices": [{"message": {"content": json.dumps({"answers": answers})}}]}
        data = json.dumps(reply).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: object) -> None:
        pass


def main() -> int:
    path = (
        sys.argv[1] if len(sys.argv) > 1 else str(ROOT / "fixtures" / "python" / "hybrid-ambiguous")
    )
    server = HTTPServer(("127.0.0.1", 0), FakeModel)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_port}/v1"
    with tempfile.TemporaryDirectory() as cache:
        env = {**__import__("os").environ, "DEPINFER_CACHE_DIR": cache}
        cmd = [
            sys.executable,
            "-m",
            "depinfer",
            path,
            "--json",
            "--offline",
            "--names-only",
            "--llm",
            "--llm-url",
            url,
            "--llm-model",
            "fake",
        ]
        out = subprocess.run(cmd, capture_output=True, text=True, env=env)
    server.shutdown()
    if out.stderr.strip():
        print(out.stderr.strip())
    record = json.loads(out.stdout)
    print("hybrid stats:", json.dumps(record.get("llm", {})))
    for req in record["requirements"]:
        llm = req["extra"].get("llm")
        print(
            f"  {req['name']:<28} alternatives={req['alternatives']}"
            + (f"  ← model chose it over {llm['rule_choice']}" if llm else "  (rule-based)")
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
