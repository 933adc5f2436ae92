"""Command line. `depinfer PATH` infers; `depinfer bench …` runs the benchmark harness."""

from __future__ import annotations

import argparse
import sys
import threading
import time

from depinfer import __version__

EXIT_OK = 0
EXIT_FINDINGS = 1  # --check: the code imports something the manifests do not declare
EXIT_USAGE = 2  # bad arguments, or PATH is not a readable directory
EXIT_PARTIAL = 3  # finished, but some file or manifest could not be read or written
EXIT_INTERRUPTED = 130  # Ctrl-C (128 + SIGINT, as a shell reports it)
EXIT_BROKEN_PIPE = 141  # stdout closed by its reader (128 + SIGPIPE)

EPILOG = """\
exit codes:
  0  done (with --check: nothing undeclared)
  1  --check found dependencies the manifests do not declare
  2  bad arguments, or PATH is not a directory
  3  done, but some manifest could not be parsed or written (named on stderr)
  130  interrupted (Ctrl-C)

examples:
  depinfer .                 show what would be written
  depinfer . --diff          show it as a unified diff
  depinfer . --write         edit the manifests in place
  depinfer . --explain requests
  depinfer bench --help      benchmark harness
  depinfer cache info        where the registry cache is and its size (also: clean)
"""

EXCLUDE_HELP = "skip files and folders matching GLOB (.gitignore syntax; repeatable)"


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="depinfer",
        description="Infer a repository's dependencies from its source and write them into its manifests.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("path", help="repository to analyse")
    out = p.add_argument_group("output (pick one; default: print what would be written)")
    mode = out.add_mutually_exclusive_group()
    mode.add_argument("--write", action="store_true", help="edit the manifests in place")
    mode.add_argument("--diff", action="store_true", help="print a unified diff of the edits")
    mode.add_argument("--json", action="store_true", help="print the full decision record as JSON")
    mode.add_argument(
        "--explain", metavar="NAME", help="say why one dependency is (or is not) there"
    )
    mode.add_argument(
        "--check",
        action="store_true",
        help="exit 1 when code imports something the manifests do not declare",
    )
    out.add_argument("-v", "--verbose", action="store_true", help="show evidence next to each line")
    out.add_argument("-q", "--quiet", action="store_true", help="no warnings on stderr")
    reg = p.add_argument_group("registries")
    reg.add_argument(
        "--offline", action="store_true", help="use only shipped data; never touch the network"
    )
    reg.add_argument(
        "--online", action="store_true", help="with --check: verify names with the registries"
    )
    reg.add_argument("--refresh", action="store_true", help="bypass the HTTP cache")
    reg.add_argument(
        "--no-cache",
        action="store_true",
        help="neither read nor write the per-file analysis cache (re-parse every file)",
    )
    tgt = p.add_argument_group("target")
    tgt.add_argument(
        "--python", metavar="3.X", help="target Python version (default: from the repository)"
    )
    tgt.add_argument(
        "--as-of", metavar="DATE", help="newest versions allowed: now, last-commit or YYYY-MM-DD"
    )
    tgt.add_argument(
        "--lang",
        action="append",
        choices=["python", "javascript", "rust", "csharp"],
        help="only these languages (repeatable)",
    )
    tgt.add_argument("--exclude", action="append", metavar="GLOB", help=EXCLUDE_HELP)
    tgt.add_argument(
        "--names-only", action="store_true", help="write names without version constraints"
    )
    _verify_and_hybrid_options(p)
    p.add_argument(
        "--format",
        choices=["text", "json", "github", "sarif"],
        default=None,
        help="with --check: text (path:line:col: CODE message; colour on a terminal unless"
        " NO_COLOR), json, github (workflow annotations) or sarif (default text)",
    )
    p.add_argument("--version", action="version", version=f"depinfer {__version__}")
    return p


def _verify_and_hybrid_options(p: argparse.ArgumentParser) -> None:
    """The option groups of the two modes beyond plain inference: --verify and --llm."""
    ver = p.add_argument_group("verify (runs the project's own tests in a scratch copy)")
    ver.add_argument(
        "--verify",
        action="store_true",
        help="run the CI test job with the inferred manifests and repair from its errors",
    )
    ver.add_argument("--rounds", type=int, metavar="N", help="repair rounds at most (default 3)")
    ver.add_argument(
        "--test-cmd", metavar="CMD", help="test command (default: from the CI workflow)"
    )
    ver.add_argument("--log-dir", metavar="DIR", help="keep each round's test log here")
    hyb = p.add_argument_group("hybrid (optional LLM arbiter for ambiguous cases)")
    hyb.add_argument("--llm", action="store_true", help="ask an LLM to settle ambiguous choices")
    hyb.add_argument("--llm-url", metavar="URL", help="OpenAI-compatible endpoint (…/v1)")
    hyb.add_argument("--llm-model", metavar="NAME", help="model name sent to the endpoint")
    hyb.add_argument(
        "--llm-cmd", metavar="CMD", help="local command that reads the prompt on stdin"
    )
    hyb.add_argument("--llm-max-calls", type=int, metavar="N", help="call budget (default 20)")
    hyb.add_argument(
        "--llm-key-env",
        metavar="VAR",
        help="environment variable holding the API key (default DEPINFER_LLM_API_KEY)",
    )


class Progress:
    """A spinner on stderr after a short delay, only when stderr is a terminal, naming the
    stage and its count ("analysing 214 files", "checking 37 names with PyPI")."""

    def __init__(self, label: str, delay: float = 0.7) -> None:
        self.label = label
        self.delay = delay
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def __enter__(self) -> Progress:
        if sys.stderr.isatty():
            self._thread = threading.Thread(target=self._run, daemon=True)
            self._thread.start()
        return self

    def _run(self) -> None:
        if self._stop.wait(self.delay):
            return
        from depinfer.registries.status import current as current_stage  # lazy: --help

        frames = "|/-\\"
        i = 0
        start = time.monotonic()
        while not self._stop.wait(0.1):
            label = current_stage() or self.label  # the innermost stage's own words
            line = f"{frames[i % 4]} {label} {time.monotonic() - start:4.1f}s"
            sys.stderr.write(f"\r{line}\033[K")
            sys.stderr.flush()
            i += 1
        sys.stderr.write("\r\033[K")
        sys.stderr.flush()

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self._thread:
            self._thread.join()


# Flags that only mean something beside another one: (flag, attribute, needs, attribute).
NEEDS = [
    ("--format", "format", "--check", "check"),
    ("--online", "online", "--check", "check"),
    ("--rounds", "rounds", "--verify", "verify"),
    ("--test-cmd", "test_cmd", "--verify", "verify"),
    ("--log-dir", "log_dir", "--verify", "verify"),
    ("--llm-url", "llm_url", "--llm", "llm"),
    ("--llm-model", "llm_model", "--llm", "llm"),
    ("--llm-cmd", "llm_cmd", "--llm", "llm"),
    ("--llm-max-calls", "llm_max_calls", "--llm", "llm"),
    ("--llm-key-env", "llm_key_env", "--llm", "llm"),
]
# Pairs that contradict each other, or where the first makes the second meaningless.
CLASHES = [
    ("--online", "online", "--offline", "offline"),
    ("--refresh", "refresh", "--offline", "offline"),
    ("--quiet", "quiet", "--verbose", "verbose"),
    ("--check", "check", "--verify", "verify"),
    ("--check", "check", "--llm", "llm"),
    ("--check", "check", "--names-only", "names_only"),
    ("--check", "check", "--as-of", "as_of"),
]


def flag_conflict(args: argparse.Namespace) -> str | None:
    """The first flag given that contradicts another or means nothing without one, as an
    error message naming both; None when the flags make sense together."""

    def given(attr: str) -> bool:
        value = getattr(args, attr, None)
        return value is not None and value is not False

    for flag, attr, other, other_attr in CLASHES:
        if given(attr) and given(other_attr):
            return f"{flag} cannot be used with {other}"
    for flag, attr, needed, needed_attr in NEEDS:
        if given(attr) and not given(needed_attr):
            return f"{flag} only applies with {needed}"
    return None


def main(argv: list[str] | None = None) -> int:
    """The command, with a clean end on Ctrl-C (one line, exit 130) and when whoever reads
    stdout stops reading (`| head -1`: no traceback, exit 141 like a shell's SIGPIPE)."""
    try:
        code = run(argv)
        sys.stdout.flush()
        return code
    except KeyboardInterrupt:
        _quiet_second_interrupt()
        print("depinfer: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        _silence_stdout()
        return EXIT_BROKEN_PIPE


def _quiet_second_interrupt() -> None:
    """A second Ctrl-C while the interpreter winds down ends it without a traceback."""
    import signal

    try:
        signal.signal(signal.SIGINT, signal.SIG_DFL)
    except ValueError:  # not the main thread
        pass


def _silence_stdout() -> None:
    """Point stdout at the null device so the interpreter's last flush cannot fail."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


# `depinfer NAME …` hands over to the module's main (imported lazily: --help stays fast).
SUBCOMMANDS = {"bench": "depinfer.bench.cli", "cache": "depinfer.cache_cli"}


def _subcommand(name: str, argv: list[str]) -> int:
    import importlib

    return importlib.import_module(SUBCOMMANDS[name]).main(argv)


def run(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in SUBCOMMANDS:
        return _subcommand(argv[0], argv[1:])
    args = parse_arguments(argv)
    if not _offline_output(args):
        return _run_args(args, argv)
    import gc

    # An offline answer keeps nearly all it builds until it prints, and reference counts
    # free the rest: the cyclic collector's scans (one per 700 new objects) cost about a
    # tenth of its CPU and free next to nothing (5,000 files: 0.5 s of 5.3 s, peak memory
    # 112 MB with them, 108 MB without). Paused for the run; as it was afterwards.
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _run_args(args, argv)
    finally:
        if enabled:
            gc.enable()


def _offline_output(args: argparse.Namespace) -> bool:
    """An offline --check or an --offline --names-only report: reads the tree, prints."""
    check = args.check and not args.online
    names = args.offline and args.names_only and not (args.write or args.verify or args.llm)
    return bool(check or names)


def _run_args(args: argparse.Namespace, argv: list[str]) -> int:
    kept = _run_cache(args, argv)
    if kept is None:
        return _run_parsed(args)
    hit = kept.lookup()
    if hit is not None:
        sys.stdout.write(hit[0])
        sys.stderr.write(hit[1])
        return hit[2]
    return _recorded(kept, args)


def _run_cache(args: argparse.Namespace, argv: list[str]):
    """The kept output of this command line over this tree (runcache.py), for the runs
    that print (not write; not on a terminal's stderr, where a spinner runs): offline
    --check and --offline --names-only, whose output depends on the tree alone, and online
    runs, whose output also depends on registry answers and settings that runcache checks."""
    import os

    if args.no_cache or os.environ.get("DEPINFER_NO_CACHE") or not os.path.isdir(args.path):
        return None
    offline_check = args.check and not args.online
    online = not args.offline and not offline_check
    printing = not (args.write or args.verify or args.llm) and not sys.stderr.isatty()
    if not offline_check and not (printing and (args.names_only or online)):
        return None
    if online and args.refresh:
        return None
    from depinfer.filecache import cache_folder  # lazy: light, and only for these runs
    from depinfer.runcache import RunCache

    return RunCache(cache_folder(), args.path, [os.getcwd(), *argv], online=online)


def _recorded(kept, args: argparse.Namespace) -> int:
    """Run, keeping what is printed; a clean answer (0, or 1 for --check findings) is
    kept for the next run over the unchanged tree."""
    from depinfer.runcache import Tee

    out, err = Tee(sys.stdout), Tee(sys.stderr)
    kept.begin()
    real = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = out, err
    try:
        code = _run_parsed(args)
        sys.stdout.flush()
    finally:
        sys.stdout, sys.stderr = real
    if code in (EXIT_OK, EXIT_FINDINGS):
        kept.keep(out.copy.getvalue(), err.copy.getvalue(), code)
    return code


def _use_table_cache(args: argparse.Namespace) -> None:
    """Keep the decoded shipped tables (depinfer/data), compiled patterns
    (depinfer/patterns) and the code of dataclass methods (depinfer/dataclass_code) in the
    cache folder, unless the caches are bypassed."""
    import os

    if args.no_cache or os.environ.get("DEPINFER_NO_CACHE"):
        return
    from depinfer import dataclass_code, patterns  # lazy: light, but --help needs none
    from depinfer.data import use_cache_folder
    from depinfer.filecache import cache_folder

    use_cache_folder(cache_folder())
    patterns.use_cache_folder(cache_folder())
    dataclass_code.use_cache_folder(cache_folder())


def _run_parsed(args: argparse.Namespace) -> int:
    _use_table_cache(args)
    if args.check:
        from depinfer.check import main as check_main  # lazy: --help stays fast
        from depinfer.config import ConfigError  # lazy (above)

        try:
            return check_main(args)
        except ConfigError as exc:
            print(f"depinfer: {exc}", file=sys.stderr)
            return EXIT_USAGE

    # lazy, here and below: `depinfer --help` and bad arguments need none of the stages
    from depinfer.config import ConfigError  # lazy (above)
    from depinfer.filecache import FileCache  # lazy (above)
    from depinfer.pipeline import infer, make_context, write_edits  # lazy (above)
    from depinfer.scan import scan  # lazy (above)

    options = _options(args)
    try:
        # the HEAD commit's date (a `git` process) only for the options that read it
        dated = args.as_of == "last-commit" or args.llm or args.verify
        project = scan(args.path, exclude=args.exclude or (), commit_date=dated)
    except (FileNotFoundError, NotADirectoryError, PermissionError, ConfigError) as exc:
        print(f"depinfer: {exc}", file=sys.stderr)
        return EXIT_USAGE
    ctx = make_context(options)
    ctx.files = FileCache.default(not args.no_cache, project.root)
    if args.verify:
        request = _verify_request(args, project)
        if request is None:
            return EXIT_USAGE
        with Progress(f"verifying ({request.language})"):
            result = infer(project.root, options, ctx=ctx, project=project, verify=request)
        _report_verification(result)
    else:
        with Progress(f"analysing {len(project.files)} files"):
            result = infer(args.path, options, ctx=ctx, project=project)
    ctx.files.save()
    written: list[str] = []
    if args.write:
        written = write_edits(project.root, result.edits, ctx)
        result.diagnostics = ctx.diagnostics
    return _print_outcome(args, result, written)


def parse_arguments(argv: list[str]) -> argparse.Namespace:
    """The command line, its conflicts refused (exit 2) and the defaults of the options whose
    absence the conflict check must see filled in afterwards."""
    parser = build_parser()
    args = parser.parse_args(argv)
    conflict = flag_conflict(args)
    if conflict:
        parser.error(conflict)
    if args.as_of not in (None, "", "now", "last-commit"):
        from depinfer.versions import parse_as_of  # only when a date is given

        try:
            parse_as_of(args.as_of, None)
        except ValueError as exc:
            parser.error(str(exc))
    args.rounds = 3 if args.rounds is None else args.rounds
    args.llm_max_calls = 20 if args.llm_max_calls is None else args.llm_max_calls
    args.llm_key_env = args.llm_key_env or "DEPINFER_LLM_API_KEY"
    args.format = args.format or "text"
    return args


def _options(args: argparse.Namespace):
    """The pipeline's options from the command line."""
    from depinfer.context import Options  # lazy: `depinfer --help` needs none of the stages

    return Options(
        write=args.write,
        offline=args.offline,
        refresh=args.refresh,
        python=args.python,
        as_of=args.as_of,
        versions=not args.names_only,
        languages=tuple(args.lang or ()),
        llm=args.llm,
        llm_url=args.llm_url,
        llm_model=args.llm_model,
        llm_cmd=args.llm_cmd,
        llm_max_calls=args.llm_max_calls,
        llm_key_env=args.llm_key_env,
    )


def _print_outcome(args: argparse.Namespace, result, written: list[str]) -> int:
    """What the run prints (the asked report, then the diagnostics) and its exit code."""
    from depinfer.report import diff_report, explain_report, json_report, text_report  # lazy

    if args.json:
        sys.stdout.write(json_report(result))
    elif args.explain:
        sys.stdout.write(explain_report(result, args.explain))
    elif args.diff:
        sys.stdout.write(diff_report(result))
    elif args.write:
        for path in written:
            print(f"wrote {path}")
        if not written and not any(d.level == "error" for d in result.diagnostics):
            print("nothing to change")
    else:
        sys.stdout.write(text_report(result, verbose=args.verbose))
    errors = [d for d in result.diagnostics if d.level == "error"]
    if not args.quiet:
        for d in result.diagnostics:
            if d.level in ("error", "warning") or args.verbose:
                print(f"depinfer: {d.level}: {d}", file=sys.stderr)
    return EXIT_PARTIAL if errors else EXIT_OK


def _verify_request(args: argparse.Namespace, project):
    """What --verify asks of the pipeline: the language with the most notebooks among those
    a local test run can build (and --lang allows); None when there is none."""
    from pathlib import Path

    from depinfer.ci.plan import PLANNERS  # lazy: only with --verify
    from depinfer.ci.repair import VerifyRequest  # lazy: only with --verify

    langs = [lang for lang in project.languages if lang in PLANNERS]
    if args.lang:
        langs = [lang for lang in langs if lang in args.lang]
    if not langs:
        print(
            "depinfer: --verify: no runnable test setup for this repository's languages",
            file=sys.stderr,
        )
        return None
    return VerifyRequest(
        max(langs, key=lambda lang: len(project.files_of(lang, "notebook"))),
        test_cmd=args.test_cmd,
        max_rounds=args.rounds,
        log_dir=Path(args.log_dir) if args.log_dir else None,
    )


def _report_verification(result) -> None:
    """Each round on stderr, and the loop's decision record in the result's JSON."""
    outcome = result.verification
    for note in outcome.notes:
        print(f"verify: {note}", file=sys.stderr)
    for rnd in outcome.rounds:  # what ran, how it went, how long, what changed after it
        print(rnd.describe(), file=sys.stderr)
    for failure in outcome.environment:
        print(f"verify: not counted: {failure.test} ({failure.why})", file=sys.stderr)
    print(
        f"verify: {'tests pass' if outcome.passed else 'tests do not pass'} — {outcome.stopped_because}",
        file=sys.stderr,
    )
    result.llm = {**result.llm, "verify": outcome.record()}


if __name__ == "__main__":
    raise SystemExit(main())
