"""`depinfer cache info|clean`: where the cache is, how big it is, and emptying it."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from depinfer.filecache import SUBDIR
from depinfer.registries import cache
from depinfer.registries.http import default_cache_dir
from depinfer.runcache import RESULTS

EPILOG = """\
The cache lives in DEPINFER_CACHE_DIR when set, else in the platform's user cache
directory. DEPINFER_CACHE_MAX_MB caps its size (default 1024; 0: no cap): a run that finds
it over the cap drops expired, then the oldest, entries. analysis/ holds what each
file's analysis found and the kept answers of offline runs (--no-cache bypasses them).
"""


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(
        prog="depinfer cache",
        description="Inspect or empty depinfer's registry cache.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("action", choices=["info", "clean"])
    args = p.parse_args(argv)
    directory = default_cache_dir()
    if args.action == "clean":
        freed = cache.clean(directory)
        print(f"cleaned {directory}: freed {cache.human(freed)}")
        return 0
    found = cache.info(directory)
    limit = "none" if found.limit is None else cache.human(found.limit)
    sys.stdout.write(
        f"location: {found.location}\n"
        f"size:     {cache.human(found.size)} (cap {limit}, DEPINFER_CACHE_MAX_MB)\n"
        f"entries:  {found.entries} ({found.responses} HTTP responses, "
        f"{found.records} registry records)\n"
        f"analysis: {_analysis_summary(directory)}\n"
    )
    return 0


def _analysis_summary(directory: Path) -> str:
    """What the per-file analysis cache holds: trees (packs) and kept run answers."""
    folder = directory / SUBDIR
    packs = results = size = 0
    if folder.is_dir():
        packs = len(list(folder.glob("*/*.pickle")))  # one per tree and depinfer version
        results = len(list(folder.glob(f"*/{RESULTS}/*.pickle")))
        size = sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())
    return f"{packs} trees, {results} kept run answers, {cache.human(size)} (--no-cache: bypass)"
