"""Check and refresh depinfer/data/javascript/bins.toml against the packages' own `bin`.

Source: each listed package's package.json `bin` field as published, read with the npm
client itself (`npm view <package> bin --json`, which honours the user's npm registry
configuration). The table maps an executable typed in package.json scripts to the packages
that provide it; this script reports entries whose package no longer provides that
executable, and prints every executable a listed package provides that the table lacks.

Run: python scripts/build_npm_bins.py [PACKAGE ...]   (default: every package in the table)
It only reads the registry; edit bins.toml by hand from its report.
"""

from __future__ import annotations

import json
import subprocess
import sys

import tomlkit

from depinfer.data import DATA_DIR  # noqa: E402

TABLE = DATA_DIR / "javascript/bins.toml"


def published_bins(package: str) -> dict[str, str] | None:
    try:
        out = subprocess.run(
            ["npm", "view", package, "bin", "--json"],
            capture_output=True,
            text=True,
            timeout=60,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    if out.returncode != 0:
        return None
    text = out.stdout.strip()
    if not text:
        return {}
    value = json.loads(text)
    if isinstance(value, str):  # `"bin": "cli.js"`: the executable is the package's name
        return {package.rsplit("/", 1)[-1]: value}
    return value if isinstance(value, dict) else {}


def main(argv: list[str]) -> int:
    table = tomlkit.parse(TABLE.read_text(encoding="utf-8")).unwrap()["bins"]
    by_package: dict[str, list[str]] = {}
    for exe, packages in table.items():
        for p in packages:
            by_package.setdefault(p, []).append(exe)
    wanted = argv or sorted(by_package)
    problems = 0
    for package in wanted:
        bins = published_bins(package)
        if bins is None:
            print(f"{package}: could not ask the registry")
            problems += 1
            continue
        for exe in by_package.get(package, []):
            if exe not in bins:
                print(f"{package}: no longer provides `{exe}` (provides: {', '.join(bins) or '-'})")
                problems += 1
        missing = [b for b in bins if b not in table]
        if missing:
            print(f"{package}: also provides {', '.join(missing)} (not in the table)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
