"""The command line fails safely and says what it does (#26).

- writes respect the manifest's permissions, and a failed write is never followed by a
  success message;
- Ctrl-C ends with one line and exit 130; a closed stdout ends quietly;
- flags that contradict each other, or mean nothing alone, are errors that name them;
- the preview, `--diff` and `--write` agree.

Every test runs the real command in a subprocess, offline.
"""

from __future__ import annotations

import os
import pty
import select
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import REPO, copy_fixture, write_tree

from depinfer.manifests import package_json, pyproject


def env() -> dict[str, str]:
    out = dict(os.environ)
    out["PYTHONPATH"] = str(REPO) + os.pathsep + out.get("PYTHONPATH", "")
    out["NO_COLOR"] = "1"
    return out


def run(*args: str | os.PathLike[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "depinfer", *map(str, args)],
        capture_output=True,
        text=True,
        env=env(),
        timeout=300,
    )


def assert_no_traceback(text: str) -> None:
    assert "Traceback" not in text, text
    assert "Exception ignored" not in text, text


# --- writes respect the file's permissions -------------------------------------------------


def snapshot(path: Path) -> tuple[bytes, int, int, int, int]:
    st = path.stat()
    return path.read_bytes(), stat.S_IMODE(st.st_mode), st.st_uid, st.st_gid, st.st_ino


def assert_refused(root: Path, proc: subprocess.CompletedProcess[str], reason: str) -> None:
    assert proc.returncode == 3, proc.stderr
    assert_no_traceback(proc.stderr)
    errors = [line for line in proc.stderr.splitlines() if "error" in line]
    assert errors, proc.stderr
    assert all("pyproject.toml" in line for line in errors)
    assert any(reason in line for line in errors), errors
    # no success message after a failed write
    assert "nothing to change" not in proc.stdout
    assert "wrote" not in proc.stdout
    assert not list(root.glob(".depinfer-*"))  # no temporary file left behind


def test_a_read_only_manifest_in_a_writable_folder_is_reported_and_left_alone(tmp_path: Path):
    root = copy_fixture("python", "mf-cli-app", tmp_path / "app")
    manifest = root / "pyproject.toml"
    manifest.chmod(0o444)
    before = snapshot(manifest)
    preview = run(root, "--offline")
    assert "--write will leave this file alone: read-only (mode 0444)" in preview.stdout
    proc = run(root, "--offline", "--write")
    assert_refused(root, proc, "read-only")
    assert snapshot(manifest) == before  # same bytes, mode, owner and inode: not replaced


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs chown")
def test_root_writes_another_users_manifest_and_it_keeps_its_owner(tmp_path: Path):
    root = copy_fixture("python", "mf-cli-app", tmp_path / "app")
    manifest = root / "pyproject.toml"
    os.chown(manifest, 65534, 65534)
    before = manifest.stat()
    proc = run(root, "--offline", "--write")
    assert proc.returncode == 0, proc.stderr
    after = manifest.stat()
    assert (after.st_uid, after.st_gid, after.st_mode) == (
        before.st_uid,
        before.st_gid,
        before.st_mode,
    )
    assert not list(root.glob(".depinfer-*"))


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root may write it")
def test_a_manifest_owned_by_another_user_is_reported_and_left_alone(tmp_path: Path):
    from depinfer.pipeline import write_refusal

    other = Path("/etc/hostname") if Path("/etc/hostname").exists() else Path("/etc/passwd")
    assert "owned by another user" in (write_refusal(other) or "")


def test_the_writable_manifests_are_still_written_and_only_they_are_named(tmp_path: Path):
    root = copy_fixture("python", "mf-cli-app", tmp_path / "mono")
    copy_fixture("python", "mf-cli-app", root / "plugins" / "locked")
    locked = root / "plugins" / "locked" / "pyproject.toml"
    locked.chmod(0o444)
    before = snapshot(locked)
    proc = run(root, "--offline", "--write")
    assert proc.returncode == 3
    assert proc.stdout.splitlines() == ["wrote pyproject.toml"]
    assert "plugins/locked/pyproject.toml" in proc.stderr
    assert snapshot(locked) == before


def test_a_written_manifest_keeps_its_mode_and_a_symlink_stays_a_symlink(tmp_path: Path):
    root = copy_fixture("python", "mf-cli-app", tmp_path / "app")
    real = root / "pyproject.toml"
    real.chmod(0o640)
    proc = run(root, "--offline", "--write")
    assert proc.returncode == 0, proc.stderr
    assert stat.S_IMODE(real.stat().st_mode) == 0o640
    # the same tree again, its manifest a link to a file kept elsewhere
    other = copy_fixture("python", "mf-cli-app", tmp_path / "linked")
    kept = tmp_path / "kept-pyproject.toml"
    (other / "pyproject.toml").rename(kept)
    (other / "pyproject.toml").symlink_to(kept)
    proc = run(other, "--offline", "--write")
    assert proc.returncode == 0, proc.stderr
    assert (other / "pyproject.toml").is_symlink()
    assert "requests" in kept.read_text(encoding="utf-8")


# --- Ctrl-C and a closed pipe ------------------------------------------------------------


def big_tree(root: Path, files: int = 3000) -> Path:
    """A Python project with enough modules that analysing it takes seconds."""
    body = "import os\nimport requests\n" + "".join(
        f"def f{j}(x):\n    return [y * {j} for y in range(x) if y % 3]\n" for j in range(30)
    )
    tree = {f"pkg/m{i}.py": body for i in range(files)}
    tree["pyproject.toml"] = '[project]\nname = "big"\nversion = "0"\ndependencies = []\n'
    return write_tree(root, tree)


def read_until(fd: int, needle: bytes, timeout: float) -> bytes:
    seen = b""
    deadline = time.monotonic() + timeout
    while needle not in seen and time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
    return seen


def _interruptible() -> None:
    """In the child before exec: Ctrl-C's default action, as a terminal's foreground job
    has it. A test run started as a background job of a shell without job control (`cmd &`
    in a script, as CI runners and nohup loops start it) inherits SIGINT ignored, and
    Python keeps an ignored SIGINT ignored: the child would never see the interrupt."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals and terminals")
def test_ctrl_c_prints_one_line_and_exits_130(tmp_path: Path):
    root = big_tree(tmp_path / "big")
    # stderr on a terminal: the progress spinner then shows once the analysis is under way,
    # which is when the interrupt is sent
    parent, child = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "depinfer", str(root), "--offline"],
        stdout=subprocess.PIPE,
        stderr=child,
        env=env(),
        preexec_fn=_interruptible,
    )
    os.close(child)
    try:
        seen = read_until(parent, b"analysing", timeout=120)
        assert b"analysing" in seen, seen
        proc.send_signal(signal.SIGINT)
        stdout, _ = proc.communicate(timeout=120)
        rest = seen + read_until(parent, b"interrupted\r\n", timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(parent)
    stderr = rest.decode("utf-8", "replace")
    assert proc.returncode == 130, stderr
    assert_no_traceback(stderr)
    assert "KeyboardInterrupt" not in stderr
    after_spinner = stderr.rsplit("\x1b[K", 1)[-1].strip()
    assert after_spinner == "depinfer: interrupted"
    assert stdout == b""
    assert (root / "pyproject.toml").read_text().endswith("dependencies = []\n")


@pytest.mark.parametrize(
    "args",
    [("--check", "--format", "json"), ("--check",), (), ("--diff",), ("--json",)],
    ids=["check-json", "check-text", "preview", "diff", "json"],
)
def test_a_stdout_closed_by_its_reader_ends_quietly(tmp_path: Path, args: tuple[str, ...]):
    root = big_tree(tmp_path / "big", files=40)
    proc = subprocess.Popen(
        [sys.executable, "-m", "depinfer", str(root), "--offline", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env(),
    )
    proc.stdout.close()  # the reader is gone before anything was written (`| head -0`)
    _, stderr = proc.communicate(timeout=300)
    text = stderr.decode("utf-8", "replace")
    assert_no_traceback(text)
    assert "BrokenPipeError" not in text
    assert proc.returncode in (0, 141), text


def test_head_reading_one_line_of_a_long_report_ends_quietly(tmp_path: Path):
    root = big_tree(tmp_path / "big", files=5)
    # thousands of undeclared imports: far more check output than a pipe buffer holds
    write_tree(root, {f"pkg/n{i}.py": f"import undeclared_{i}\n" for i in range(3000)})
    proc = subprocess.Popen(
        [sys.executable, "-m", "depinfer", str(root), "--check", "--format", "json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env(),
    )
    first = proc.stdout.readline()
    proc.stdout.close()
    _, stderr = proc.communicate(timeout=300)
    assert first.strip() == b"{"
    text = stderr.decode("utf-8", "replace")
    assert_no_traceback(text)
    assert proc.returncode in (0, 1, 141), text


# --- flags that contradict each other or mean nothing -------------------------------------


@pytest.mark.parametrize(
    "flags, named",
    [
        (("--online", "--offline"), ("--online", "--offline")),
        (("--check", "--online", "--offline"), ("--online", "--offline")),
        (("--format", "json"), ("--format", "--check")),
        (("--diff", "--format", "text"), ("--format", "--check")),
        (("--online",), ("--online", "--check")),
        (("--refresh", "--offline"), ("--refresh", "--offline")),
        (("-q", "-v"), ("--quiet", "--verbose")),
        (("--rounds", "2"), ("--rounds", "--verify")),
        (("--test-cmd", "pytest"), ("--test-cmd", "--verify")),
        (("--log-dir", "logs"), ("--log-dir", "--verify")),
        (("--llm-model", "m"), ("--llm-model", "--llm")),
        (("--llm-max-calls", "3"), ("--llm-max-calls", "--llm")),
        (("--check", "--verify"), ("--check", "--verify")),
        (("--check", "--names-only"), ("--check", "--names-only")),
        (("--check", "--llm"), ("--check", "--llm")),
        (("--as-of", "garbage"), ("--as-of", "garbage")),
    ],
)
def test_conflicting_or_meaningless_flags_exit_2_naming_them(tmp_path: Path, flags, named):
    root = write_tree(tmp_path / "app", {"main.py": "import requests\n"})
    proc = run(root, *flags)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert_no_traceback(proc.stderr)
    assert proc.stdout == ""
    error = proc.stderr.strip().splitlines()[-1]
    assert error.startswith("depinfer: error: ")
    for flag in named:
        assert flag in error, error


def test_flags_that_belong_together_are_accepted(tmp_path: Path):
    root = write_tree(tmp_path / "app", {"main.py": "import os\n"})
    assert run(root, "--check", "--format", "json").returncode == 0
    assert run(root, "--check", "--offline").returncode == 0
    assert run(root, "--offline", "--names-only", "-v").returncode == 0


# --- the preview, --diff and --write agree ------------------------------------------------


def preview_entries(out: str) -> dict[str, dict[str, str]]:
    """{manifest: {name: status}} from the default output."""
    entries: dict[str, dict[str, str]] = {}
    manifest = ""
    for line in out.splitlines():
        if line and not line.startswith(" ") and "(" not in line:
            manifest = line
            entries[manifest] = {}
        elif line.startswith("    "):
            shown, _, status = line.strip().partition("  (")
            name = shown.split()[0]
            if "@" in name[1:]:
                name = name[: name.index("@", 1)]
            entries[manifest][name.lower()] = status.rstrip(")")
    return entries


def diff_additions(out: str) -> set[str]:
    return {x for x in out.splitlines() if x.startswith("+") and not x.startswith("+++")}


CASES = [
    ("python", "mf-cli-app", "pyproject.toml"),
    ("python", "mf-cli-requirements", "requirements.txt"),
    ("javascript", "cjs", "package.json"),
]


@pytest.mark.parametrize("language, fixture, manifest", CASES)
def test_on_a_complete_manifest_the_preview_says_nothing_to_change(
    tmp_path: Path, language: str, fixture: str, manifest: str
):
    root = copy_fixture(language, fixture, tmp_path / fixture)
    assert run(root, "--offline", "--write").returncode == 0
    written = (root / manifest).read_bytes()
    preview = run(root, "--offline")
    assert preview.returncode == 0, preview.stderr
    assert preview.stdout.splitlines()[-1].startswith("nothing to change")
    # what the pipeline still lists for the manifest is all kept (JavaScript lists nothing)
    entries = preview_entries(preview.stdout).get(manifest, {})
    assert all(s == "already declared, kept as written" for s in entries.values())
    assert run(root, "--offline", "--diff").stdout == ""
    assert run(root, "--offline", "--write").stdout.strip() == "nothing to change"
    assert (root / manifest).read_bytes() == written


@pytest.mark.parametrize("language, fixture, manifest", CASES)
def test_on_an_incomplete_manifest_the_preview_lists_exactly_what_diff_adds(
    tmp_path: Path, language: str, fixture: str, manifest: str
):
    root = copy_fixture(language, fixture, tmp_path / fixture)
    preview = run(root, "--offline")
    assert preview.returncode == 0, preview.stderr
    assert "nothing to change" not in preview.stdout
    entries = preview_entries(preview.stdout)[manifest]
    to_add = {name for name, s in entries.items() if s.startswith("to add")}
    kept = {name for name, s in entries.items() if s.startswith("already declared")}
    diff = run(root, "--offline", "--diff").stdout
    added_lines = " ".join(diff_additions(diff)).lower()
    for name in to_add:
        assert name in added_lines, (name, diff)
    for name in kept:
        assert name not in added_lines, (name, diff)
    # and the file --write produces declares exactly the old names plus those
    module = pyproject if manifest == "pyproject.toml" else package_json
    if manifest == "requirements.txt":
        from depinfer.manifests import requirements as module
    old = (root / manifest).read_text(encoding="utf-8")
    assert run(root, "--offline", "--write").returncode == 0
    new = (root / manifest).read_text(encoding="utf-8")

    def names(text: str) -> set[str]:
        declared, _ = module.read(text, manifest)
        return {n.lower() for ns in declared.values() for n in ns}

    assert names(new) - names(old) == to_add


def test_npm_lines_separate_the_name_from_its_range(tmp_path: Path):
    root = write_tree(
        tmp_path / "web",
        {
            "package.json": '{"name": "web", "version": "1.0.0"}\n',
            "index.js": "const auth = require('basic-auth');\n",
            "package-lock.json": (
                '{"name": "web", "lockfileVersion": 3, "packages": {"": {"name": "web"}, '
                '"node_modules/basic-auth": {"version": "2.0.1"}}}\n'
            ),
        },
    )
    out = run(root, "--offline").stdout
    line = next(x for x in out.splitlines() if "basic-auth" in x)
    shown = line.split()[0]
    assert shown == "basic-auth" or shown.startswith("basic-auth@"), line


def test_a_partly_declared_manifest_shows_what_is_kept_and_what_is_added(tmp_path: Path):
    root = copy_fixture("python", "mf-cli-app", tmp_path / "app")
    manifest = root / "pyproject.toml"
    manifest.write_text(
        manifest.read_text(encoding="utf-8").replace(
            "dependencies = []", 'dependencies = ["click>=7,<9"]'
        ),
        encoding="utf-8",
    )
    preview = run(root, "--offline")
    entries = preview_entries(preview.stdout)["pyproject.toml"]
    assert entries["click"] == "already declared, kept as written"
    assert entries["requests"].startswith("to add")
    line = next(x for x in preview.stdout.splitlines() if x.strip().startswith("click"))
    assert line.split()[0] == "click"  # not a constraint the file does not have
    assert preview.stdout.splitlines()[-1].startswith("--write would add 2 dependencies")
    assert run(root, "--offline", "--write").returncode == 0
    declared, _ = pyproject.read(manifest.read_text(encoding="utf-8"), "pyproject.toml")
    assert declared["dependencies"] == ["click", "pyyaml", "requests"]
    assert '"click>=7,<9"' in manifest.read_text(encoding="utf-8")  # kept as written
