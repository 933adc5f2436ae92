"""Benchmark registry look-ups: 40 distinct packages, cold (empty cache) and warm.

Each phase runs in a fresh Python process, as a real depinfer run would: it builds a
`Registries` (endpoint discovery included) and asks `versions()` — the heaviest question,
which also answers existence — for every package at once, spread over the ecosystems'
pooled sessions. The cold phase starts from an empty temporary cache directory; the warm
phase reuses it. Targets (issue 4): cold < 3 s, warm < 0.2 s.

Run: python scripts/bench_registries.py [--runs N]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PACKAGES: dict[str, list[str]] = {
    "pypi": [
        "requests", "numpy", "pandas", "flask", "django", "pydantic", "click",
        "pytest", "sqlalchemy", "attrs", "rich", "httpx", "jinja2", "pyyaml",
    ],
    "npm": [
        "chalk", "express", "lodash", "react", "axios", "commander", "debug",
        "node-fetch", "uuid", "yargs", "dotenv", "semver", "ws", "glob",
    ],
    "crates": [
        "serde", "tokio", "clap", "rand", "anyhow", "thiserror", "regex", "log",
        "serde_json", "reqwest", "itoa", "syn",
    ],
}  # fmt: skip


def phase(cache_dir: str) -> dict[str, object]:
    """One run: resolve every package; returns timings and counts (printed as JSON)."""
    sys.path.insert(0, str(ROOT))
    began = time.perf_counter()
    import requests_cache  # noqa: F401  (imported by the first client; timed apart)

    import depinfer.registries.clients  # noqa: F401
    import depinfer.registries.crates  # noqa: F401
    import depinfer.registries.npm  # noqa: F401
    import depinfer.registries.pypi  # noqa: F401
    from depinfer.model import Ecosystem
    from depinfer.registries import Registries

    start = time.perf_counter()
    reg = Registries(cache_dir=cache_dir)
    jobs = [(Ecosystem(eco), name) for eco, names in PACKAGES.items() for name in names]
    # Interleave ecosystems so each one's endpoint discovery overlaps the others' look-ups.
    jobs.sort(key=lambda job: PACKAGES[job[0].value].index(job[1]))
    with ThreadPoolExecutor(max_workers=16) as pool:
        results = list(pool.map(lambda job: reg.versions(*job), jobs))
    done = time.perf_counter()
    return {
        "imports_s": round(start - began, 3),
        "total_s": round(done - start, 3),
        "cpu_s": round(time.process_time(), 3),
        "packages": len(jobs),
        "resolved": sum(1 for r in results if r),
        "versions": sum(len(r) for r in results),
        "warnings": reg.warnings,
    }


def run_phase(cache_dir: str) -> dict[str, object]:
    out = subprocess.run(
        [sys.executable, __file__, "--phase", cache_dir],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1, help="cold+warm pairs to run")
    parser.add_argument("--phase", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.phase:
        print(json.dumps(phase(args.phase)))
        return
    count = sum(len(v) for v in PACKAGES.values())
    assert count == 40 and len({(e, n) for e, ns in PACKAGES.items() for n in ns}) == 40
    for i in range(args.runs):
        with tempfile.TemporaryDirectory(prefix="depinfer-bench-") as cache:
            cold = run_phase(cache)
            warm = run_phase(cache)
        for label, result, target in (("cold", cold, 3.0), ("warm", warm, 0.2)):
            verdict = "ok" if float(result["total_s"]) < target else "OVER TARGET"  # type: ignore[arg-type]
            print(
                f"run {i + 1} {label}: {result['total_s']} s total "
                f"(endpoint discovery included; imports before that {result['imports_s']} s; "
                f"process CPU {result['cpu_s']} s) "
                f"for {result['resolved']}/{result['packages']} packages, "
                f"{result['versions']} versions — target < {target} s: {verdict}"
            )
            for w in result["warnings"]:  # type: ignore[union-attr]
                print(f"  warning: {w}")


if __name__ == "__main__":
    main()
