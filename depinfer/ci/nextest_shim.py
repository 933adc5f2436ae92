"""`cargo nextest run ARGS` as `cargo test ARGS`, for machines without cargo-nextest.

CI jobs install nextest with an action and call it directly or from a Makefile or script;
a local run cannot always install it (a source build takes minutes and a network the job
had). Cargo finds `cargo-<name>` on PATH, so this file, placed there as `cargo-nextest` by
`depinfer.ci.rust_tools`, runs the same tests through `cargo test`: the same test binaries
and features, so a dependency problem shows the same way. Nextest's own reporting and
filter options have no `cargo test` meaning and are dropped.

Runs as a plain script (no depinfer imports): the test job's environment may not have
depinfer importable.
"""

from __future__ import annotations

import os
import sys

# options whose value is the next word (or after `=`), per what `cargo test` does with them
_KEEP_WITH_VALUE = {
    "-p", "--package", "--features", "-F", "--exclude", "--target",
    "--target-dir", "--manifest-path", "--bin", "--example", "--test", "--bench", "--config",
    "-Z",
}  # fmt: skip
_RENAME_WITH_VALUE = {"--cargo-profile": "--profile", "--build-jobs": "--jobs"}
# nextest's `-j` is its test threads, not cargo's build jobs
_TO_HARNESS_WITH_VALUE = {"--test-threads": "--test-threads", "-j": "--test-threads"}
_DROP_WITH_VALUE = {
    "--profile", "-P", "-E", "--filterset", "--filter-expr", "--retries", "--status-level",
    "--final-status-level", "--failure-output", "--success-output", "--message-format",
    "--message-format-version", "--partition", "--archive-file", "--workspace-remap",
    "--tool-config-file", "--run-ignored", "--max-fail", "--no-tests", "--show-progress",
    "--color", "--threads", "--test-group",
}  # fmt: skip
_TO_HARNESS_FLAGS = {"--no-capture": "--nocapture", "--nocapture": "--nocapture"}
_DROP_FLAGS = {"--hide-progress-bar", "--no-fail-fast-on-error", "--fail-fast", "-v", "--verbose"}


def translate(args: list[str]) -> list[str] | None:
    """nextest's arguments (after `nextest`) → `cargo test`'s, or None when not a `run`."""
    if not args or args[0] not in ("run", "r"):
        return None
    cargo, harness = ["test"], []
    words = iter(args[1:])
    for word in words:
        if word == "--":
            harness += list(words)
            break
        name, eq, value = word.partition("=")
        if name in _RENAME_WITH_VALUE:
            cargo += [_RENAME_WITH_VALUE[name], value if eq else next(words, "")]
        elif name in _TO_HARNESS_WITH_VALUE:
            harness += [_TO_HARNESS_WITH_VALUE[name], value if eq else next(words, "")]
        elif name in _DROP_WITH_VALUE:
            if not eq:
                next(words, None)
        elif word in _TO_HARNESS_FLAGS:
            harness.append(_TO_HARNESS_FLAGS[word])
        elif word in _DROP_FLAGS:
            continue
        elif name in _KEEP_WITH_VALUE and not eq:
            cargo += [word, next(words, "")]
        elif word.startswith("-"):
            cargo.append(word)
        else:  # a test-name filter
            harness.append(word)
    return cargo + (["--", *harness] if harness else [])


def main() -> int:
    argv = sys.argv[1:]
    if argv and argv[0] == "nextest":  # cargo passes the subcommand's name first
        argv = argv[1:]
    translated = translate(argv)
    if translated is None:
        sys.stderr.write("cargo-nextest (depinfer's stand-in) runs only `nextest run`\n")
        return 2
    sys.stderr.write("cargo-nextest stand-in: cargo " + " ".join(translated) + "\n")
    cargo = os.environ.get("CARGO", "cargo")
    os.execvp(cargo, [cargo, *translated])
    return 0  # not reached


if __name__ == "__main__":
    sys.exit(main())
