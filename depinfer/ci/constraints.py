"""Version constraints of the four ecosystems translated to PEP 440 specifier sets.

The benchmark needs this to tell whether a written constraint admits any published
release ("invalid version in build", a DI-Bench failure category), and the CI planner to
read a Poetry `python` constraint: every ecosystem's range syntax is brought to one form
that `packaging` can test. The translation follows each
tool's documented semantics: Poetry's and npm's caret/tilde (python-poetry.org docs,
"Dependency specification"; docs.npmjs.com "semver"), Cargo's default caret requirements
(doc.rust-lang.org/cargo "Specifying dependencies"), NuGet's minimum versions and interval
notation (learn.microsoft.com "Package versioning"). Constraints that name no version
(git, path, workspace, tags) are not checkable and give None.
"""

from __future__ import annotations

import re

_NUM = re.compile(r"^v?\d+(\.(\d+|[xX*]))*([-+.][0-9A-Za-z.-]+)?$")


def _caret(base: str) -> str:
    nums = [int(x) if x.isdigit() else 0 for x in re.split(r"[.-]", base)[:3]]
    idx = next((i for i, n in enumerate(nums) if n != 0), len(nums) - 1)
    upper = nums[: idx + 1]
    upper[-1] += 1
    return f">={base},<{'.'.join(map(str, upper))}"


def _tilde(base: str) -> str:
    nums = [int(x) if x.isdigit() else 0 for x in re.split(r"[.-]", base)[:3]]
    upper = nums[:1] if len(nums) == 1 else nums[:2]
    upper[-1] += 1
    return f">={base},<{'.'.join(map(str, upper))}"


def _wildcard(part: str) -> str | None:
    """`1.x`, `1.2.*` → `==1.*`; a bare `*`/`x` → no bound."""
    stem = re.split(r"\.[xX*]", part, maxsplit=1)[0]
    if stem in ("", "*", "x", "X"):
        return ""
    return f"=={stem}.*"


def _comparator(part: str, bare: str) -> str | None:
    """One comparator; `bare` says what a bare version means: "caret", "exact" or "minimum"."""
    part = part.strip().lstrip("v")
    if not part or part in ("*", "x", "X", "latest"):
        return ""
    if part.startswith("^"):
        return _caret(part[1:].strip().lstrip("v"))
    if part.startswith("~") and not part.startswith("~="):
        return _tilde(part[1:].lstrip(">").strip().lstrip("v"))
    m = re.match(r"^(>=|<=|>|<|==|=|!=|~=)\s*v?(.+)$", part)
    if m:
        op, ver = m.groups()
        if not _NUM.match(ver):
            return None
        if re.search(r"\.[xX*]", ver):
            return _wildcard(ver) if op in ("=", "==") else None
        return f"{'==' if op == '=' else op}{ver}"
    if not _NUM.match(part):
        return None
    if re.search(r"\.[xX*]", part):
        return _wildcard(part)
    if bare == "caret":
        return _caret(part)
    if bare == "minimum":
        return f">={part}"
    return f"=={part}"


def _join(parts: list[str | None]) -> str | None:
    if any(p is None for p in parts):
        return None
    return ",".join(p for p in parts if p)


def _nuget(text: str) -> list[str] | None:
    text = text.strip()
    m = re.match(r"^([\[(])\s*([^,\])]*)\s*(,\s*([^\])]*))?\s*([\])])$", text)
    if not m:
        c = _comparator(text, "minimum")
        return None if c is None else [c]
    lo_br, lo, comma, hi, hi_br = m.groups()
    if comma is None:  # [1.0] exact
        return [f"=={lo}"]
    parts = []
    if lo:
        parts.append((">=" if lo_br == "[" else ">") + lo)
    if hi:
        parts.append(("<=" if hi_br == "]" else "<") + hi)
    return [",".join(parts)]


def to_pep440(language: str, text: str) -> list[str] | None:
    """Alternatives (any may match) as PEP 440 specifier strings; None when not checkable."""
    text = (text or "").strip()
    if not text:
        return [""]
    if language == "csharp":
        return _nuget(text)
    if re.match(r"^(workspace|file|link|git|github|http|https|npm|path|portal|catalog)[:+]", text):
        return None
    if language == "python":
        # PEP 440 as written, or Poetry's syntax in [tool.poetry.dependencies]
        out = []
        for alt in text.split("||"):
            parts = [p for p in alt.split(",") if p.strip()]
            out.append(_join([_comparator(p, "exact") for p in parts]))
        return None if any(o is None for o in out) else out  # type: ignore[return-value]
    if language == "rust":
        joined = _join([_comparator(p, "caret") for p in text.split(",") if p.strip()])
        return None if joined is None else [joined]
    if language == "javascript":
        out = []
        for alt in text.split("||"):
            alt = alt.strip()
            hyphen = re.match(r"^(\S+)\s+-\s+(\S+)$", alt)
            if hyphen:
                out.append(f">={hyphen.group(1)},<={hyphen.group(2)}")
                continue
            parts = re.findall(r"(?:[<>=~^]+\s*)?[^\s<>=~^]+", alt)
            joined = _join([_comparator(p, "exact") for p in parts])
            if joined is None:
                return None
            out.append(joined)
        return out
    return None
