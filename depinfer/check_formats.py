"""Check-mode reporters: thin layers over the findings (depinfer/check.py keeps them as data).

- text:   `path:line:col: CODE message`, one a line; on a terminal the path and the code
          are coloured, never when stdout is piped or NO_COLOR is set (no-color.org);
- json:   `{"findings": [...], "errors": [...]}`;
- github: workflow commands, so GitHub Actions annotates the lines
          (`::error file=…,line=…,col=…,title=CODE::message`);
- sarif:  SARIF 2.1.0, one run, a rule per code, for code-scanning uploads.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict
from typing import Any, TextIO

from depinfer import __version__

FORMATS = ("text", "json", "github", "sarif")

# what each code means (README "Check mode"); SARIF carries them as rule descriptions
RULES = {
    "DEP001": "missing: imported but declared nowhere",
    "DEP002": "unused: declared as a runtime dependency but never imported",
    "DEP003": "transitive: imported, installed only because another dependency requires it",
    "DEP004": "misplaced development dependency: used by shipped code, declared only for "
    "development",
    "DEP005": "standard-library module declared as a dependency",
    "DEP101": "declared as a runtime dependency but used only by tests or tooling",
}

_BOLD, _RED, _CYAN, _RESET = "\033[1m", "\033[31m", "\033[36m", "\033[0m"


def use_colour(stream: TextIO, environ: dict[str, str] | None = None) -> bool:
    env = os.environ if environ is None else environ
    if env.get("NO_COLOR") or env.get("TERM") == "dumb":
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def render(fmt: str, findings: list[Any], errors: list[str], stream: TextIO) -> str:
    """The report for `findings` (already sorted) in format `fmt`; `stream` decides colour."""
    if fmt == "json":
        payload = {"findings": [asdict(f) for f in findings], "errors": errors}
        return json.dumps(payload, indent=2) + "\n"
    if fmt == "github":
        return "".join(_github(f) + "\n" for f in findings)
    if fmt == "sarif":
        return json.dumps(sarif(findings), indent=2) + "\n"
    colour = use_colour(stream)
    return "".join(text_line(f, colour) + "\n" for f in findings)


def text_line(f: Any, colour: bool = False) -> str:
    where = f"{f.file}:{f.line}:{f.column}:"
    if colour:
        return f"{_BOLD}{_CYAN}{where}{_RESET} {_BOLD}{_RED}{f.code}{_RESET} {f.message}"
    return f"{where} {f.code} {f.message}"


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def _github(f: Any) -> str:
    props = ",".join(
        [
            f"file={_escape_property(f.file)}",
            f"line={f.line}",
            f"col={f.column}",
            f"title={_escape_property(f.code)}",
        ]
    )
    return f"::error {props}::{_escape_data(f.code + ' ' + f.message)}"


def sarif(findings: list[Any]) -> dict:
    codes = sorted(RULES.keys() | {f.code for f in findings})
    rules = [{"id": code, "shortDescription": {"text": RULES.get(code, code)}} for code in codes]
    results = [
        {
            "ruleId": f.code,
            "ruleIndex": codes.index(f.code),
            "level": "error",
            "message": {"text": f.message},
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": {"uri": f.file, "uriBaseId": "%SRCROOT%"},
                        "region": {"startLine": f.line, "startColumn": f.column},
                    }
                }
            ],
        }
        for f in findings
    ]
    return {
        "version": "2.1.0",  # SARIF 2.1.0; its optional "$schema" key is left out
        "runs": [  # package literal: the SARIF key for the list of analysis runs
            {
                "tool": {"driver": {"name": "depinfer", "version": __version__, "rules": rules}},
                "results": results,
            }
        ],
    }
