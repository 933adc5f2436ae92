"""`depinfer bench perf`: wall time of depinfer beside deptry and knip on the same trees.

    depinfer bench perf --trees DIR... [--runs N] [--deptry PATH] [--knip PATH]
                        [--baseline SRC] [--no-cold] [--mode offline|online]
                        [--no-bytecode] [--python PY] [--json]

Each run of each tree times, as separate processes, `depinfer TREE --check` and
`depinfer TREE --offline --names-only` twice, cold (the per-file analysis cache emptied
first) and warm (kept from the run before), and the peers once: deptry (Python trees;
found on PATH or given by --deptry) and knip (trees with a package.json; on PATH or
--knip). The order of the commands rotates from run to run and the trees are
interleaved (A/B/A/B, never all of A then all of B), so a machine's load moves every
column alike. depinfer runs with a private cache folder, never the user's. Printed: each
tree's medians, the ratios to deptry, the median of the per-tree ratios (of wall time, and
of CPU time: user + system, which a busy machine's scheduling moves less), peak memory,
and the load average before and after (a busy machine makes every figure larger).
--baseline SRC times another depinfer checkout in the same rounds (before/after figures
under the same load).

--mode online times the default run instead (`depinfer TREE`, no --write: registry
look-ups, versions, gates): warm with the HTTP and analysis caches kept from the run
before, cold once per tree with the cache folder emptied (each cold run asks the
registries again, so only one), and prints the median per language (the trees' parent
folder name, as in TREES/<language>/<repo>). No peers run in this mode. `--cold-scope
analysis` empties only the analysis cache for the cold run (the HTTP cache and registry
facts stay warm: the first run on a changed tree), `all` (the default) the whole folder.

Every process runs with Python's bytecode cache in a private folder (PYTHONPYCACHEPREFIX;
PYTHONDONTWRITEBYTECODE dropped) and each command runs once untimed before the first
timed round, so each tool is timed as installed (pip compiles bytecode at install), never
compiling its own modules; --no-bytecode keeps the environment as it is.

--python PY runs depinfer (and --baseline's) with another interpreter, such as a clean
virtual environment holding depinfer's dependencies, each checkout on PYTHONPATH: the
start-up a user of a plain (non-editable) install pays, as the peers run from their own
environments, without the `.pth` files of the environment running the benchmark (an
editable install's finder, a machine's site hooks). The report names the interpreter.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

DEPINFER_MODES = {
    "check": ["--check"],
    "names": ["--offline", "--names-only"],
}
ONLINE_MODES = {"online": []}  # the default run: no --write, so nothing changes in the tree
PRIME_ONLINE = ["--offline"]  # what primes the bytecode before an online round: no network
PEERS = ("deptry", "knip")
# what the `depinfer` command that pip installs runs (its console-script wrapper), as the
# peers run from theirs: `python -m depinfer` would add runpy's imports (~10 ms) that no
# installed command pays
CONSOLE_SCRIPT = "import re, sys\nfrom depinfer.cli import main\nsys.exit(main())"
SOURCE = Path(__file__).resolve().parents[2]  # the checkout this depinfer runs from


@dataclass
class Sample:
    seconds: float
    rss_mb: float | None  # peak resident memory of the process, when the platform says
    code: int
    cpu: float | None = None  # user + system seconds of the process, when the platform says
    crash: str | None = None  # the last line of a Python traceback the process printed


@dataclass
class TreeTimes:
    tree: Path
    samples: dict[str, list[Sample]] = field(default_factory=dict)  # "check/cold" → runs

    def add(self, label: str, sample: Sample) -> None:
        self.samples.setdefault(label, []).append(sample)

    def median(self, label: str) -> float | None:
        runs = self.samples.get(label)
        return statistics.median(s.seconds for s in runs) if runs else None

    def cpu_median(self, label: str) -> float | None:
        runs = [s.cpu for s in self.samples.get(label, []) if s.cpu is not None]
        return statistics.median(runs) if runs else None

    def peak_mb(self, label: str) -> float | None:
        sizes = [s.rss_mb for s in self.samples.get(label, []) if s.rss_mb is not None]
        return max(sizes) if sizes else None


def add_arguments(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("--trees", nargs="+", required=True, metavar="DIR", help="repository trees")
    sp.add_argument("--runs", type=int, default=5, metavar="N", help="runs per tree (default 5)")
    sp.add_argument("--deptry", metavar="PATH", help="deptry executable (default: on PATH)")
    sp.add_argument("--knip", metavar="PATH", help="knip executable (default: on PATH)")
    sp.add_argument("--no-cold", action="store_true", help="time warm runs only")
    sp.add_argument(
        "--baseline",
        metavar="SRC",
        help="also time the depinfer of this source tree (PYTHONPATH=SRC), labelled base-*",
    )
    sp.add_argument(
        "--mode",
        choices=("offline", "online"),
        default="offline",
        help="offline: --check and --offline --names-only beside the peers (default); "
        "online: the default run, warm HTTP cache, one cold run per tree",
    )
    sp.add_argument(
        "--no-bytecode",
        action="store_true",
        help="run as the environment says (PYTHONDONTWRITEBYTECODE kept: modules may compile)",
    )
    sp.add_argument(
        "--python",
        metavar="PY",
        help="interpreter that runs depinfer, each checkout on PYTHONPATH (default: this one,"
        " as installed)",
    )
    sp.add_argument(
        "--cold-scope",
        choices=("all", "analysis"),
        default="all",
        help="online mode: what a cold run starts without: the whole cache folder (default)"
        " or only the analysis cache (HTTP responses and registry facts kept)",
    )
    sp.add_argument("--json", action="store_true", help="print every sample as JSON")


def timed(command: list[str], cwd: Path, env: dict[str, str]) -> Sample:
    """Wall time, peak memory and exit code of one process (output discarded; its error
    output kept aside, so that a command that crashes is not timed as a fast one)."""
    with tempfile.TemporaryFile() as errors:
        start = time.perf_counter()
        proc = subprocess.Popen(command, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=errors)
        if hasattr(os, "wait4"):
            _, status, usage = os.wait4(proc.pid, 0)
            seconds = time.perf_counter() - start
            proc.returncode = os.waitstatus_to_exitcode(status)
            scale = 1024 * 1024 if sys.platform == "darwin" else 1024  # bytes vs KiB
            cpu = usage.ru_utime + usage.ru_stime
            sample = Sample(seconds, usage.ru_maxrss / scale, proc.returncode, cpu)
        else:
            code = proc.wait()
            sample = Sample(time.perf_counter() - start, None, code)
        if sample.code:
            errors.seek(0)
            sample.crash = _traceback_end(errors.read().decode("utf-8", "replace"))
    return sample


def _traceback_end(text: str) -> str | None:
    """The exception line that ends a Python traceback in `text`, if it holds one."""
    if "Traceback (most recent call last)" not in text:
        return None
    lines = [line for line in text.splitlines() if line.strip()]
    return lines[-1] if lines else None


def _peers(args: argparse.Namespace) -> dict[str, str]:
    found = {}
    for name in PEERS:
        path = getattr(args, name) or shutil.which(name)
        if path:
            found[name] = path
    return found


def _wants(peer: str, tree: Path) -> bool:
    if peer == "knip":
        return (tree / "package.json").is_file()
    return any(tree.glob("*.py")) or any(
        (tree / f).is_file() for f in ("pyproject.toml", "setup.py", "requirements.txt")
    )


# label, argv, environment changes, and whether it runs in the tree (the peers read their
# settings from the working folder; depinfer runs from a scratch folder, since `python -m`
# puts the working folder first on sys.path, where a tree's own modules would shadow ours)
Command = tuple[str, list[str], dict[str, str], bool]


def _commands(
    tree: Path,
    peers: dict[str, str],
    cold: bool,
    baseline: str | None = None,
    online: bool = False,
    python: str | None = None,
) -> list[Command]:
    """(label, command, environment) for one round over one tree; depinfer's labels carry
    cold/warm; `baseline`'s (another depinfer source tree) start with "base-". With
    `python`, that interpreter runs depinfer, this checkout on PYTHONPATH."""
    out: list[Command] = []
    temps = ("cold", "warm") if cold else ("warm",)
    own = {"PYTHONPATH": str(SOURCE)} if python else {}
    sources = [("", own)] + ([("base-", {"PYTHONPATH": baseline})] if baseline else [])
    for prefix, env in sources:
        for mode, flags in (ONLINE_MODES if online else DEPINFER_MODES).items():
            for temp in temps:
                argv = [python or sys.executable, "-c", CONSOLE_SCRIPT, str(tree), *flags]
                out.append((f"{prefix}{mode}/{temp}", argv, env, False))
    for peer, path in peers.items():
        if _wants(peer, tree) and not online:
            out.append((peer, [path, "."] if peer == "deptry" else [path], {}, True))
    return out


def _environment(scratch: Path, bytecode: bool) -> dict[str, str]:
    """Without the user's cache settings and, with `bytecode`, a private bytecode cache that
    every process may write."""
    env = {**os.environ, "NO_COLOR": "1", "DEPINFER_CACHE_DIR": str(scratch / "cache" / "peers")}
    env.pop("DEPINFER_NO_CACHE", None)
    if bytecode:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(scratch / "bytecode")
    return env


def _cache_of(scratch: Path, label: str, tree: Path) -> Path:
    """Each depinfer command line has its own cache folder per tree, never the user's (a
    cold run of one mode empties only its own: the other's warm runs stay warm; and a warm
    run that the rotation puts before its tree's cold run finds that tree's state, not
    the folder another tree's cold run just emptied)."""
    name = hashlib.blake2b(str(tree).encode("utf-8", "surrogatepass"), digest_size=6)
    return scratch / "cache" / name.hexdigest() / label.split("/")[0]


def _prime(
    commands: list[Command], tree: Path, scratch: Path, env: dict[str, str], online: bool
) -> None:
    """Each command once, untimed: bytecode compiled, the warm caches filled (online: an
    offline run, which asks no registry; the cold run fills the HTTP cache)."""
    for label, command, extra, in_tree in commands:
        here = {**env, **extra}
        if "/" in label:
            if online and not label.endswith("/cold"):
                continue
            command = [*command[:4], *PRIME_ONLINE] if online else command
            here["DEPINFER_CACHE_DIR"] = str(_cache_of(scratch, label, tree))
        sample = timed(command, tree if in_tree else scratch, here)
        if sample.crash and "/" in label:  # a peer's own refusal is its answer, timed as such
            raise ValueError(f"{label} crashed on {tree}: {sample.crash}")


def measure(
    trees: list[Path],
    runs: int,
    peers: dict[str, str],
    cold: bool = True,
    progress=None,
    baseline: str | None = None,
    online: bool = False,
    bytecode: bool = True,
    python: str | None = None,
    cold_scope: str = "all",
) -> list[TreeTimes]:
    """Every tree `runs` times, interleaved, the command order rotating each run."""
    results = [TreeTimes(t) for t in trees]
    with tempfile.TemporaryDirectory(prefix="depinfer-perf-") as folder:
        scratch = Path(folder)
        env = _environment(scratch, bytecode)
        for run in range(runs):
            for result in results:
                with_cold = cold and (run == 0 or not online)  # online: one cold run per tree
                commands = _commands(result.tree, peers, with_cold, baseline, online, python)
                if run == 0:
                    _prime(commands, result.tree, scratch, env, online)
                shift = run % len(commands)
                for label, command, extra, in_tree in commands[shift:] + commands[:shift]:
                    here = {**env, **extra}
                    if "/" in label:
                        cache = _cache_of(scratch, label, result.tree)
                        here["DEPINFER_CACHE_DIR"] = str(cache)
                        if label.endswith("/cold"):
                            _empty(cache, online and cold_scope == "all")
                    cwd = result.tree if in_tree else scratch
                    result.add(label, timed(command, cwd, here))
                if progress:
                    progress(f"run {run + 1}/{runs}: {result.tree.name}")
    return results


def _empty(cache: Path, everything: bool) -> None:
    """Cold: the analysis cache emptied (it holds the per-file answers and the kept run
    outputs); `everything`: the whole cache folder (HTTP responses too)."""
    shutil.rmtree(cache if everything else cache / "analysis", ignore_errors=True)


def _ratio(a: float | None, b: float | None) -> float | None:
    return None if a is None or not b else a / b


def _fmt(value: float | None, digits: int = 2) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def report(
    results: list[TreeTimes],
    runs: int,
    load: tuple[tuple, tuple],
    python: str | None = None,
    cold_scope: str | None = None,
) -> str:
    """The per-tree table, the medians of the per-tree ratios, the load average and the
    interpreter that ran depinfer."""
    labels = sorted({label for r in results for label in r.samples})
    peer = "deptry" if "deptry" in labels else None
    head = ["tree", *labels] + ([f"{m}/deptry" for m in labels if "/" in m] if peer else [])
    rows = [head]
    ratios: dict[str, list[float]] = {}
    for r in results:
        row = [r.tree.name] + [_fmt(r.median(label)) for label in labels]
        if peer:
            for label in (m for m in labels if "/" in m):
                value = _ratio(r.median(label), r.median(peer))
                row.append(_fmt(value))
                if value is not None:
                    ratios.setdefault(label, []).append(value)
        rows.append(row)
    widths = [max(len(row[i]) for row in rows) for i in range(len(head))]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)) for row in rows]
    lines.append("")
    lines.append(f"medians of {runs} runs, seconds of wall time")
    lines.append(
        f"depinfer ran with {python} (each checkout on PYTHONPATH)"
        if python
        else f"depinfer ran with {sys.executable} (as installed)"
    )
    if cold_scope:
        lines.append(
            "cold runs started without the whole cache folder"
            if cold_scope == "all"
            else "cold runs started without the analysis cache (HTTP responses and facts kept)"
        )
    for label, values in sorted(ratios.items()):
        lines.append(
            f"median of per-tree ratios {label}/deptry: {statistics.median(values):.2f}"
            f" ({len(values)} trees)"
        )
    lines += _cpu_ratios(results, labels, peer)
    lines += _group_medians(results, labels)
    for label in labels:
        peak = max((p for r in results if (p := r.peak_mb(label)) is not None), default=None)
        lines.append(f"peak memory {label}: {_fmt(peak, 0)} MB")
    lines.append(
        "load average before: {} after: {}".format(*(" ".join(f"{x:.2f}" for x in v) for v in load))
    )
    return "\n".join(lines) + "\n"


def _cpu_ratios(results: list[TreeTimes], labels: list[str], peer: str | None) -> list[str]:
    """The medians of the per-tree ratios of CPU time (user + system) to the peer's: what
    each tool computes, less sensitive than wall time to a busy machine's scheduling."""
    if not peer:
        return []
    lines = []
    for label in (m for m in labels if "/" in m):
        values = [
            v for r in results if (v := _ratio(r.cpu_median(label), r.cpu_median(peer))) is not None
        ]
        if values:
            lines.append(
                f"median of per-tree CPU-time ratios {label}/deptry:"
                f" {statistics.median(values):.2f} ({len(values)} trees)"
            )
    return lines


def _group_medians(results: list[TreeTimes], labels: list[str]) -> list[str]:
    """The median over trees of each tree's median, per language (the trees' parent folder)
    and label, and cold over warm where both were timed."""
    groups: dict[str, list[TreeTimes]] = {}
    for r in results:
        groups.setdefault(r.tree.resolve().parent.name, []).append(r)
    lines = []
    for group, members in sorted(groups.items()):
        medians = {}
        for label in labels:
            values = [m for r in members if (m := r.median(label)) is not None]
            if values:
                medians[label] = statistics.median(values)
                lines.append(
                    f"median per tree {label} [{group}]: {medians[label]:.2f} s"
                    f" ({len(values)} trees)"
                )
        for label, value in medians.items():
            warm = medians.get(label.replace("/cold", "/warm"))
            if label.endswith("/cold") and warm:
                lines.append(f"cold/warm {label.split('/')[0]} [{group}]: {value / warm:.2f}")
    return lines


def as_json(results: list[TreeTimes]) -> str:
    return json.dumps(
        {
            str(r.tree): {
                label: [s.__dict__ for s in samples] for label, samples in r.samples.items()
            }
            for r in results
        },
        indent=2,
    )


def main(args: argparse.Namespace) -> int:
    trees = [Path(t) for t in args.trees]
    missing = [str(t) for t in trees if not t.is_dir()]
    if missing:
        print(f"depinfer bench perf: not a directory: {', '.join(missing)}", file=sys.stderr)
        return 2
    if args.runs < 1:
        print("depinfer bench perf: --runs must be at least 1", file=sys.stderr)
        return 2
    if args.python and not shutil.which(args.python):
        print(f"depinfer bench perf: --python: not an executable: {args.python}", file=sys.stderr)
        return 2
    peers = _peers(args)
    before = os.getloadavg() if hasattr(os, "getloadavg") else ()

    def progress(message: str) -> None:
        if sys.stderr.isatty():
            sys.stderr.write(f"\r{message}\033[K")

    baseline = str(Path(args.baseline).resolve()) if args.baseline else None
    results = measure(
        trees,
        args.runs,
        peers,
        not args.no_cold,
        progress,
        baseline,
        online=args.mode == "online",
        bytecode=not args.no_bytecode,
        python=args.python,
        cold_scope=args.cold_scope,
    )
    after = os.getloadavg() if hasattr(os, "getloadavg") else ()
    if sys.stderr.isatty():
        sys.stderr.write("\r\033[K")
    sys.stdout.write(
        as_json(results) + "\n"
        if args.json
        else report(
            results,
            args.runs,
            (before, after),
            args.python,
            args.cold_scope if args.mode == "online" else None,
        )
    )
    return 0
