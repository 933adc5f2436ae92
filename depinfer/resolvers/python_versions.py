"""Version constraints for Python requirements: registry facts, runtime, date, API usage.

Each chosen version exists, is not yanked, was published by the as-of date, supports the
project's oldest Python, and has every name the code uses from it (API lifecycle table).
The constraint is written so the project keeps the major it was written for when the
as-of date is in the past. The resolve gate (python_gate.py) checks the whole set before
it is written.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache, wraps

from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.utils import canonicalize_name
from packaging.version import InvalidVersion, Version

from depinfer.context import Context
from depinfer.data import load_table_or
from depinfer.model import Ecosystem, Evidence, Requirement
from depinfer.registries.base import VersionInfo
from depinfer.registries.endpoints import pypi_index_from_url
from depinfer.registries.status import stage
from depinfer.runcache import note_inputs
from depinfer.versions import pick_version


@lru_cache(maxsize=1)
def lifecycles() -> dict:
    return load_table_or("python/api_lifecycles.json", {})


def api_bounds(
    dist: str, used: Iterable[str]
) -> tuple[Version | None, Version | None, list[Evidence]]:
    """(lowest version having every used name, first version lacking one, evidence)."""
    table = lifecycles().get(canonicalize_name(dist)) or lifecycles().get(dist.lower())
    if not table:
        return None, None, []
    lower: Version | None = None
    upper: Version | None = None
    evidence: list[Evidence] = []
    for name in sorted(set(used)):
        if name in table["added"]:
            v = Version(table["added"][name])
            if lower is None or v > lower:
                lower = v
                evidence.append(Evidence("api-lifecycle", detail=f"{name} first in {dist} {v}"))
        gone = _removed_at(table["removed"], name)
        if gone is not None:
            v = Version(table["removed"][gone])
            name = gone
            if upper is None or v < upper:
                upper = v
                evidence.append(Evidence("api-lifecycle", detail=f"{name} gone in {dist} {v}"))
    if lower is not None and upper is not None and lower >= upper:
        # contradictory usage (e.g. code supporting both majors): the newer API wins
        upper = None
    return lower, upper, evidence


def _removed_at(removed: dict[str, str], name: str) -> str | None:
    """The name, or the enclosing name, the table says was removed first: whatever lives
    under a removed module is gone with it (`tensorflow.contrib.slim` with tf.contrib)."""
    parts = name.split(".")
    found = [".".join(parts[:end]) for end in range(2, len(parts) + 1)]
    found = [c for c in found if c in removed]
    return min(found, key=lambda c: Version(removed[c])) if found else None


def _version(v: str) -> Version | None:
    try:
        return Version(v)
    except InvalidVersion:
        return None


@lru_cache(maxsize=4096)
def _admits(runtime: str, probe: str) -> bool:
    """A release's requires_python admits the Python (a few dozen distinct texts are asked
    for every release of every package: parsed once)."""
    try:
        return SpecifierSet(runtime).contains(probe, prereleases=True)
    except InvalidSpecifier:
        return True


def runtime_ok(python: str | None):
    probe = f"{python}.99" if python else None

    def ok(v: VersionInfo) -> bool:
        if not probe or not v.runtime:
            return True
        return _admits(v.runtime, probe)

    return ok


def spec_for(
    chosen: Version,
    past: bool,
    upper: Version | None,
    lower: Version | None,
    reach: Version | None = None,
) -> str:
    """`reach`: the newest release of the date when the project's oldest Python held the
    choice back — the cap then lets newer Pythons get it (numba 0.58 is the last for 3.8,
    3.13 needs 0.61: `>=0.58,<0.62`, not `<0.59`)."""
    base = (
        lower if lower is not None and lower > Version(f"{chosen.major}.{chosen.minor}") else chosen
    )
    low = f">={base.major}.{base.minor}" if base.release[1:] else f">={base.major}"
    if base is chosen and chosen.is_prerelease:
        # `>=0.59` excludes 0.59b0 (PEP 440): a family that only publishes pre-releases
        # (the OpenTelemetry instrumentations) needs the pre-release named in the bound
        low = f">={chosen}"
    top = reach if reach is not None and reach > chosen else chosen
    if top.major == 0:
        cap = Version(f"0.{top.minor + 1}")
    else:
        cap = Version(f"{top.major + 1}")
    if upper is not None and upper <= cap:
        return f"{low},<{upper}"
    if not past:
        return low
    return f"{low},<{cap}"


def _kept_per_list(choose: Callable[..., VersionInfo | None]) -> Callable[..., VersionInfo | None]:
    """`choose` answering once per release list and question within the process: one
    package is asked the same question for every folder of a monorepo (a release list of
    hundreds, each version parsed and tested). The list is held with its answer, so its id
    cannot be reused while kept."""
    kept: dict[tuple, tuple[list[VersionInfo], VersionInfo | None]] = {}

    @wraps(choose)
    def ask(versions: list[VersionInfo], *question: object, **named: object) -> VersionInfo | None:
        key = (id(versions), len(versions), *question, *sorted(named.items()))
        found = kept.get(key)
        if found is not None and found[0] is versions:
            return found[1]
        if len(kept) > 4096:
            kept.clear()
        answer = choose(versions, *question, **named)
        kept[key] = (versions, answer)
        return answer

    return ask


@_kept_per_list
def choose_version(
    versions: list[VersionInfo],
    as_of: datetime | None,
    python: str | None,
    lower: Version | None,
    upper: Version | None,
    spec: str = "",
) -> VersionInfo | None:
    allowed = SpecifierSet(spec) if spec else SpecifierSet()

    def fits(v: VersionInfo) -> bool:
        pv = _version(v.version)
        if pv is None:
            return False
        if (lower is not None and pv < lower) or (upper is not None and pv >= upper):
            return False
        if spec and not allowed.contains(pv, prereleases=True):
            return False
        return runtime_ok(python)(v)

    return pick_version(versions, as_of, fits)


def select_versions(
    requirements: list[Requirement],
    ctx: Context,
    python: str | None,
    as_of: datetime | None,
    used: dict[str, set[str]] | None = None,
) -> None:
    """Set `spec` on each external PyPI requirement in place (concurrent registry look-ups):
    the first of VERSION_STRATEGIES that decides writes it."""
    todo = [r for r in requirements if r.ecosystem == Ecosystem.PYPI and not r.internal]
    found = _fetch_versions(ctx, list(dict.fromkeys(r.name for r in todo)))
    for req in todo:
        lower, upper, evidence = api_bounds(
            req.name, (used or {}).get(canonicalize_name(req.name), ())
        )
        ask = _Ask(ctx, python, as_of, found.get(req.name) or [], lower, upper, evidence, req.spec)
        req.spec = ""
        for strategy in VERSION_STRATEGIES:
            if strategy(ask, req):
                break
    _warn_unchecked(ctx, todo, found)


def _warn_unchecked(ctx: Context, todo: list[Requirement], found: dict) -> None:
    """Offline: say which versions the registry could not confirm (as npm's resolver does)."""
    unchecked = sorted({r.name for r in todo if not found.get(r.name)})
    if unchecked and ctx.registries.offline:
        ctx.warn(
            "Python package index not consulted (offline): versions unverified; versions "
            "come from pins elsewhere in the repository and the bounds the code proves, "
            "else unconstrained: "
            + ", ".join(unchecked[:15])
            + (" …" if len(unchecked) > 15 else "")
        )


def _fetch_versions(ctx: Context, names: list[str]) -> dict[str, list[VersionInfo]]:
    """Each name's releases, asked of the registry concurrently."""
    if not names:
        return {}
    with (
        stage(f"fetching releases of {len(names)} names with PyPI"),
        ThreadPoolExecutor(max_workers=min(16, len(names))) as pool,
    ):
        return dict(
            zip(
                names,
                pool.map(lambda n: ctx.registries.versions(Ecosystem.PYPI, n), names),
                strict=True,
            )
        )


@dataclass(frozen=True)
class _Ask:
    """What choosing one requirement's constraint knows."""

    ctx: Context
    python: str | None  # the oldest Python the project supports
    as_of: datetime | None  # newest publish date allowed (None: now)
    versions: list[VersionInfo]  # the registry's releases (empty offline)
    lower: Version | None  # API bounds from the names the code uses
    upper: Version | None
    evidence: list[Evidence]  # why those bounds
    pinned: str  # a pin found elsewhere in the repository ("" when none)

    @property
    def past(self) -> bool:
        return self.as_of is not None


def by_pin_elsewhere(a: _Ask, req: Requirement) -> bool:
    """A pin elsewhere in the repository wins when the registry (if reachable) agrees."""
    if not a.pinned:
        return False
    if a.versions:
        chosen = choose_version(a.versions, a.as_of, a.python, None, None, a.pinned)
    else:
        pin_v = _version(a.pinned.lstrip("=<>!~ "))
        chosen = VersionInfo(str(pin_v)) if pin_v and a.pinned.startswith("==") else None
    if chosen is None:
        return False
    cv = Version(chosen.version)
    # the repository runs the pinned release: an API bound it contradicts is the table's
    # blind spot (numpy.bool, "first in 2.0", was also an alias before 1.24), not a reason
    # to write a range that excludes the pin (`>=2.0,<2` beside numpy==1.19.1)
    lower = a.lower if a.lower is None or cv >= a.lower else None
    upper = a.upper if a.upper is None or cv < a.upper else None
    req.spec = spec_for(cv, a.past, upper, lower)
    req.evidence.append(
        Evidence("pin-elsewhere", detail=f"{req.name}{a.pinned} found in the repository")
    )
    if (lower, upper) != (a.lower, a.upper):
        req.evidence.append(
            Evidence("api-lifecycle", detail=f"API bounds the pinned {cv} lacks: ignored")
        )
    return True


def by_code_alone(a: _Ask, req: Requirement) -> bool:
    """Offline (no releases known): only the bounds the code itself proves."""
    if a.versions:
        return False
    if a.lower or a.upper:
        parts = ([f">={a.lower}"] if a.lower else []) + ([f"<{a.upper}"] if a.upper else [])
        req.spec = ",".join(parts)
        req.evidence.extend(a.evidence)
    return True


def by_registry(a: _Ask, req: Requirement) -> bool:
    """The newest release that fits the Python, date and API bounds (the bounds dropped when
    no release satisfies them), capped where newer Pythons could reach further."""
    lower, upper, evidence = a.lower, a.upper, a.evidence
    chosen = choose_version(a.versions, a.as_of, a.python, lower, upper)
    if chosen is None:
        chosen = choose_version(a.versions, a.as_of, a.python, None, None)
        if chosen is None:
            return _for_newer_pythons(a, req)
        evidence = [
            Evidence("api-lifecycle", detail="API bounds ignored: no release satisfies them")
        ]
        lower = upper = None
    cv = Version(chosen.version)
    newest = choose_version(a.versions, a.as_of, None, lower, upper) if a.python else None
    reach = _version(newest.version) if newest is not None else None
    req.spec = spec_for(cv, a.past, upper, lower, reach)
    req.evidence.extend(evidence)
    if reach is not None and reach > cv:
        req.evidence.append(
            Evidence(
                "runtime",
                detail=f"{req.name} {chosen.version} is the newest for Python {a.python}; "
                f"newer Pythons may take up to {newest.version}",
            )
        )
    when = f" published {chosen.published:%Y-%m-%d}" if chosen.published else ""
    req.evidence.append(
        Evidence(
            "registry:version",
            detail=f"{req.name} {chosen.version}{when}"
            + (f", requires_python {chosen.runtime}" if chosen.runtime else ""),
        )
    )
    return True


def _for_newer_pythons(a: _Ask, req: Requirement) -> bool:
    """No release of the date supports the project's oldest Python (mcp needs 3.10, the
    project says >=3.8): the range is chosen among the releases for the Pythons they do
    support, as the date and the code's API bounds allow (the resolve gate then adds the
    `python_version` marker uv's answer names), rather than written with no range at all,
    which any later major would satisfy."""
    when = f" by {a.as_of:%Y-%m-%d}" if a.as_of else ""
    chosen = choose_version(a.versions, a.as_of, None, a.lower, a.upper)
    lower, upper = a.lower, a.upper
    if chosen is None:
        chosen = choose_version(a.versions, a.as_of, None, None, None)
        lower = upper = None
    if chosen is None:
        a.ctx.warn(f"{req.name}: no release fits Python {a.python}{when}", req.manifest)
        return True
    a.ctx.warn(
        f"{req.name}: no release fits Python {a.python}{when}; the range is the one of "
        f"{chosen.version}" + (f" (requires_python {chosen.runtime})" if chosen.runtime else ""),
        req.manifest,
    )
    req.spec = spec_for(Version(chosen.version), a.past, upper, lower)
    if (lower, upper) == (a.lower, a.upper):
        req.evidence.extend(a.evidence)
    req.evidence.append(
        Evidence(
            "runtime",
            detail=f"{req.name} {chosen.version} needs a newer Python than {a.python}"
            + (f" ({chosen.runtime})" if chosen.runtime else ""),
        )
    )
    return True


# Tried in this order for each requirement; the first that returns True decides.
VERSION_STRATEGIES: tuple[Callable[[_Ask, Requirement], bool], ...] = (
    by_pin_elsewhere,
    by_code_alone,
    by_registry,
)


@lru_cache(maxsize=1)
def find_uv() -> str | None:
    """The uv that depinfer's own dependency installed first, PATH's otherwise: a PATH entry
    is often a version manager's shell shim (pyenv, asdf), which costs a shell start and a
    version lookup on every call (about 0.2 s each, measured), and the gate calls uv per
    folder and round."""
    try:
        from uv import find_uv_bin

        found: str | None = find_uv_bin()
    except (ImportError, FileNotFoundError):
        found = shutil.which("uv")
    note_inputs([found])  # a kept answer holds for this uv (runcache)
    return found


def index_args(ctx: Context) -> list[str]:
    """uv follows the user's own index configuration, as the registry clients do; an
    endpoint injected into depinfer (tests, benchmark mirrors) is passed on explicitly."""
    injected = ctx.registries.endpoints.get(Ecosystem.PYPI)
    if not injected:
        return []
    return ["--no-config", "--index-url", pypi_index_from_url(injected).url]


def kept_uv_compile(
    ctx: Context,
    text: str,
    python: str | None,
    as_of: datetime | None,
    uv_args: list[str] | None = None,
    run: Callable[..., tuple[bool, str, str]] | None = None,
    offline: bool = False,
) -> tuple[bool, str, str]:
    """`run` (default `uv_compile`), its answer kept in the registry fact store (same expiry as the
    registry answers it is made of; `--refresh` asks uv again): a warm run starts no uv.
    Keyed by all the answer depends on: the input, the command line (Python version,
    as-of date, platform, index arguments, interpreter), uv itself (its path, size and
    time), its configuration files and UV_* variables, and the working folder. Only
    answers are kept: a resolve, or uv's "No solution found"; never a timeout or an
    index that could not be reached. A `run` other than `uv_compile` (a stand-in) is
    never kept.

    `offline`: uv answers from its own cache alone (`--offline`), asking no index. Only a
    resolve is kept then: the cached versions are a subset of the index's, so a set that
    resolves from them resolves online too, while a failure may only mean a version the
    cache lacks, which the caller asks online."""
    uv = find_uv()
    args = [*(uv_args or []), *(["--offline"] if offline else [])]
    if run is not None and run is not uv_compile or uv is None:
        return (run or uv_compile)(text, python, as_of, uv_args=args)
    facts = ctx.registries.http_settings().facts()
    key = _compile_key(uv, text, python, as_of, args)
    return facts.get(
        key,
        lambda: uv_compile(text, python, as_of, uv_args=args),
        keep=lambda r: (
            (r[0] and bool(r[1])) or (not offline and not r[0] and "No solution found" in r[2])
        ),
    )


def uv_answer_kept(
    ctx: Context,
    text: str,
    python: str | None,
    as_of: datetime | None,
    uv_args: list[str] | None = None,
) -> bool:
    """`kept_uv_compile` (online) would answer from the fact store, starting no uv."""
    uv = find_uv()
    if uv is None:
        return False
    facts = ctx.registries.http_settings().facts()
    return facts.has(_compile_key(uv, text, python, as_of, list(uv_args or [])))


def _compile_key(
    uv: str, text: str, python: str | None, as_of: datetime | None, args: list[str]
) -> str:
    return "uv-compile|" + _uv_key(uv, text, python, as_of, args)


def _uv_key(uv: str, text: str, python: str | None, as_of: datetime | None, args: list[str]) -> str:
    import hashlib
    import os

    def stat(path: str) -> str:
        try:
            st = os.stat(path)
        except OSError:
            return f"{path}:-"
        return f"{path}:{st.st_size}:{st.st_mtime_ns}"

    config = os.environ.get("XDG_CONFIG_HOME") or os.path.expanduser("~/.config")
    cwd = os.getcwd()
    parts = [
        stat(uv),
        sys.executable,
        repr((python, as_of.isoformat() if as_of else None, args)),
        *(stat(p) for p in (f"{config}/uv/uv.toml", "/etc/uv/uv.toml")),
        cwd,
        *(stat(os.path.join(cwd, n)) for n in ("uv.toml", "pyproject.toml")),
        repr(sorted((k, v) for k, v in os.environ.items() if k.startswith("UV_"))),
        text,
    ]
    return hashlib.blake2b(
        "\0".join(parts).encode("utf-8", "surrogatepass"), digest_size=20
    ).hexdigest()


def uv_compile(
    text: str,
    python: str | None,
    as_of: datetime | None,
    timeout: int = 120,
    uv_args: list[str] | None = None,
) -> tuple[bool, str, str]:
    """(resolved, stdout, stderr) of a dry-run resolve; nothing is installed."""
    uv = find_uv()
    if uv is None:
        return True, "", "resolve skipped: uv is not installed"
    # naming an interpreter spares uv a slow search of PATH (it is only used for builds;
    # the target comes from --python-version)
    cmd = [
        uv,
        "pip",
        "compile",
        "-q",
        "--no-header",
        "--no-annotate",
        "--python",
        sys.executable,
        *(uv_args or []),
        "-",
    ]
    if python:
        cmd += ["--python-version", python]
    if as_of is not None:
        cmd += ["--exclude-newer", as_of.strftime("%Y-%m-%dT%H:%M:%SZ")]
    try:
        proc = subprocess.run(cmd, input=text, capture_output=True, text=True, timeout=timeout)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return True, "", f"resolve skipped: {exc}"
    return proc.returncode == 0, proc.stdout, proc.stderr.strip()


# a `name==version` line of `uv pip compile` output (name as written, extras dropped)
PINNED = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[[^\]]*\])?==([^\s;]+)", re.M)
