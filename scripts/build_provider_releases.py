"""Rebuild depinfer/data/python/provider_releases.json: when each competing provider last
released.

Why: when several distributions provide one import, the index (pypi_modules.json) ranks
them by downloads and gives the distribution named like the import a bonus
(python_index.IDENTITY_BONUS: psycopg2 beside psycopg2-binary). For an abandoned
namesake beside a maintained fork or successor (`fpdf` 2015 beside fpdf2, `xmlrunner`
2014 beside unittest-xml-reporting, `gnupg` 2017 beside python-gnupg, `zipstream` 2016
beside zipstream-ng), the bonus picks the distribution nobody should start with today.
The month of each provider's latest release is the registry fact that tells them apart
(issue 23: choose among providers by population evidence and release dates).

Source: the registry's package listing with each distribution's latest version and the
month of its release, plus the download rank — the machine's package list
/work/.library/env/packages/pypi.tsv (columns `name`, `version`, `month`,
`rank_among_15000_most_downloaded`), the same file build_pypi_index.py reads its ranking
from. No registry is asked: only distributions the shipped index already names as one
of several providers of an import are kept (bounded by the index, ~2,700 names).

Usage:
  python scripts/build_provider_releases.py [--listing FILE] [--index FILE] [--out FILE]
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
INDEX = ROOT / "depinfer/data/python/pypi_modules.json"
OUT = ROOT / "depinfer/data/python/provider_releases.json"
DEFAULT_LISTING = Path("/work/.library/env/packages/pypi.tsv")
MONTH = re.compile(r"^\d{4}-\d{2}$")


def canon(name: str) -> str:
    """PEP 503 normalised distribution name."""
    return re.sub(r"[-_.]+", "-", name).lower()


def competing_providers(index: dict) -> set[str]:
    """Distributions the index names as one of several providers of an import."""
    return {canon(d) for dists in index["modules"].values() if len(dists) > 1 for d in dists}


def latest_months(listing: Path, wanted: set[str]) -> dict[str, str]:
    """name → `YYYY-MM` of its latest release, for the wanted names the listing has."""
    out: dict[str, str] = {}
    with listing.open(encoding="utf-8", errors="replace") as f:
        header = next(f).rstrip("\n").split("\t")
        col_name, col_month = header.index("name"), header.index("month")
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) <= max(col_name, col_month):
                continue
            name = canon(parts[col_name])
            if name in wanted and MONTH.match(parts[col_month]):
                out.setdefault(name, parts[col_month])
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--listing", type=Path, default=DEFAULT_LISTING)
    ap.add_argument("--index", type=Path, default=INDEX)
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args()
    index = json.loads(args.index.read_text(encoding="utf-8"))
    wanted = competing_providers(index)
    months = latest_months(args.listing, wanted)
    data = {
        "about": "distribution -> month of its latest release, for every distribution the "
        "shipped index names as one of several providers of an import; built by "
        "scripts/build_provider_releases.py",
        "source": f"the registry's package listing with latest versions and their release "
        f"months ({args.listing.name}: name, version, month, download rank)",
        "released": dict(sorted(months.items())),
    }
    args.out.write_text(json.dumps(data, indent=0, sort_keys=False) + "\n", encoding="utf-8")
    print(f"{len(months)} of {len(wanted)} competing providers dated -> {args.out}")


if __name__ == "__main__":
    main()
