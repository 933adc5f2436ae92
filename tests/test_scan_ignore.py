"""File selection: .gitignore and .ignore rules, the exclude settings and `--exclude`."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO, infer_offline, write_tree
from pathspec import GitIgnoreSpec

from depinfer.check import run_check
from depinfer.scan import scan
from depinfer.selection import Rules

PYPROJECT = '[project]\nname = "app"\nversion = "1"\ndependencies = ["requests"]\n'
needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def files(root: Path, **kw) -> list[str]:
    return sorted(f.path for f in scan(root, **kw).files)


def app(root: Path, extra: dict[str, str]) -> Path:
    """A packaged app importing requests, plus `extra` files."""
    return write_tree(
        root, {"pyproject.toml": PYPROJECT, "app/__init__.py": "import requests\n", **extra}
    )


def test_an_ignored_scratch_file_is_neither_written_nor_flagged(tmp_path):
    app(tmp_path, {".gitignore": "scratch.py\n", "scratch.py": "import pandas\n"})
    assert files(tmp_path) == ["app/__init__.py"]
    assert "pandas" not in {r.name for r in infer_offline(tmp_path).requirements}
    _, findings = run_check(str(tmp_path))
    assert findings == []
    (tmp_path / ".gitignore").unlink()  # the same tree without the rule: pandas is missing
    _, findings = run_check(str(tmp_path))
    assert [(f.code, f.name) for f in findings] == [("DEP001", "pandas")]


def test_gitignore_patterns_match_as_git_matches_them(tmp_path):
    write_tree(
        tmp_path,
        {
            ".gitignore": "\n".join(
                [
                    "# scratch work",
                    "*.tmp.py",
                    "!keep.tmp.py",  # negation re-includes
                    "out/",  # folders only: a file named out stays
                    "/local.py",  # anchored: only the root's
                    "data/**/gen_*.py",  # ** spans folders
                    "logs/**",  # everything inside logs …
                    "!logs/keep.py",  # … so a file in it can come back
                    "build_dir/",
                    "!build_dir/back.py",  # under an excluded folder: cannot come back
                ]
            ),
            "a.tmp.py": "",
            "keep.tmp.py": "",
            "out/x.py": "",
            "pkg/out": "",
            "pkg/out.py": "",
            "local.py": "",
            "pkg/local.py": "",
            "data/gen_a.py": "",
            "data/x/y/gen_b.py": "",
            "data/x/y/real.py": "",
            "logs/drop.py": "",
            "logs/keep.py": "",
            "build_dir/back.py": "",
        },
    )
    assert files(tmp_path) == [
        "data/x/y/real.py",
        "keep.tmp.py",
        "logs/keep.py",
        "pkg/local.py",
        "pkg/out.py",
    ]


def test_nested_gitignore_and_ignore_files_apply_below_their_folder(tmp_path):
    write_tree(
        tmp_path,
        {
            ".gitignore": "*.gen.py\n",
            "a.gen.py": "",
            "lib/.gitignore": "/fixtures_local/\n!special.gen.py\n",
            "lib/special.gen.py": "",  # the deeper file's negation wins
            "lib/other.gen.py": "",
            "lib/fixtures_local/f.py": "",
            "fixtures_local/kept.py": "",  # lib's anchored pattern is lib's
            ".ignore": "notes/\n",  # ripgrep's and fd's convention
            "notes/n.py": "",
            "lib/ok.py": "",
        },
    )
    assert files(tmp_path) == ["fixtures_local/kept.py", "lib/ok.py", "lib/special.gen.py"]


def test_ignore_file_lines_win_over_gitignore_lines(tmp_path):
    write_tree(
        tmp_path, {".gitignore": "*.py\n", ".ignore": "!wanted.py\n", "wanted.py": "", "x.py": ""}
    )
    assert files(tmp_path) == ["wanted.py"]


def test_ignored_manifests_are_not_read(tmp_path):
    app(tmp_path, {".gitignore": "sandbox/\n", "sandbox/package.json": '{"name": "s"}'})
    assert [m.path for m in scan(tmp_path).manifests] == ["pyproject.toml"]


def git(root: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True)


@needs_git
def test_in_a_git_checkout_tracked_files_are_kept_whatever_the_patterns(tmp_path, monkeypatch):
    write_tree(
        tmp_path,
        {
            ".gitignore": "lib/\nscratch.py\n",
            "src/lib/util.py": "",  # tracked although `lib/` matches it
            "src/lib/new.py": "",  # untracked and ignored
            "scratch.py": "",
            "main.py": "",
            "sub/.gitignore": "*.py\n",
            "sub/x.py": "",
        },
    )
    git(tmp_path, "init", "-q")
    git(tmp_path, "add", "-f", ".gitignore", "main.py", "src/lib/util.py", "sub/.gitignore")
    # a hook runs with GIT_DIR set for its own repository: scan asks the folder's
    monkeypatch.setenv("GIT_DIR", str(tmp_path / "elsewhere"))
    assert files(tmp_path) == ["main.py", "src/lib/util.py"]
    assert files(tmp_path / "src") == ["lib/util.py"]  # a sub-folder of the checkout


@needs_git
def test_a_folder_git_ignores_is_still_scanned_when_chosen(tmp_path):
    write_tree(tmp_path, {".gitignore": "work/\n", "work/a.py": "", "work/.gitignore": "b.py\n"})
    (tmp_path / "work" / "b.py").write_text("")
    git(tmp_path, "init", "-q")
    assert files(tmp_path) == []
    assert files(tmp_path / "work") == ["a.py"]  # its own .gitignore still applies


@needs_git
def test_a_repository_nested_in_the_checkout_keeps_its_own_gitignore(tmp_path):
    write_tree(
        tmp_path,
        {
            "main.py": "",
            "plugins/p1/.gitignore": "scratch/\n",
            "plugins/p1/mod.py": "",
            "plugins/p1/scratch/try.py": "",
        },
    )
    git(tmp_path, "init", "-q")
    git(tmp_path / "plugins" / "p1", "init", "-q")
    assert files(tmp_path) == ["main.py", "plugins/p1/mod.py"]


def test_extend_exclude_adds_to_the_default_folders(tmp_path):
    write_tree(
        tmp_path,
        {
            "pyproject.toml": '[tool.depinfer]\nextend-exclude = ["generated", "tools/*.py"]\n',
            "generated/a.py": "",
            "tools/t.py": "",
            "tools/sub/t.py": "",
            "vendor/v.py": "",  # a default: still skipped
            "node_modules/m/index.js": "",
            "x.egg-info/y.py": "",
            "main.py": "",
        },
    )
    assert files(tmp_path) == ["main.py", "tools/sub/t.py"]


def test_exclude_replaces_the_default_folders(tmp_path):
    write_tree(
        tmp_path,
        {
            "depinfer.toml": 'exclude = ["generated/"]\n',
            "generated/a.py": "",
            "vendor/v.py": "",  # no longer a default
            ".git/hooks/h.py": "",  # VCS folders: always skipped
            "main.py": "",
        },
    )
    assert files(tmp_path) == ["main.py", "vendor/v.py"]


def test_exclude_settings_are_read_from_package_json_and_cargo_metadata(tmp_path):
    write_tree(
        tmp_path,
        {
            "package.json": '{"name": "w", "depinfer": {"extend_exclude": ["demo.js"]}}',
            "Cargo.toml": '[package]\nname = "c"\n[package.metadata.depinfer]\n'
            'extend-exclude = ["src/scratch.rs"]\n',
            "demo.js": "",
            "index.js": "",
            "src/scratch.rs": "",
            "src/main.rs": "",
        },
    )
    assert files(tmp_path) == ["index.js", "src/main.rs"]


def test_exclude_argument_adds_patterns(tmp_path):
    write_tree(tmp_path, {"a/x.py": "", "b/y.py": "", "c.py": "", "vendor/v.py": ""})
    assert files(tmp_path, exclude=["./a", "*/y.py"]) == ["c.py"]


def test_exclude_flag_on_the_command_line(tmp_path):
    app(tmp_path, {"scratch/try.py": "import pandas\n"})
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    command = [sys.executable, "-m", "depinfer", str(tmp_path), "--offline", "--names-only"]
    shown = subprocess.run(command, capture_output=True, text=True, env=env, timeout=120)
    assert "pandas" in shown.stdout
    excluded = subprocess.run(
        [*command, "--exclude", "scratch/", "--exclude", "*.tmp"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert excluded.returncode == 0, excluded.stderr
    assert "pandas" not in excluded.stdout and "requests" in excluded.stdout


def test_exclude_flag_applies_to_check_mode_too(tmp_path):
    app(tmp_path, {"scratch/try.py": "import pandas\n"})
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    command = [sys.executable, "-m", "depinfer", str(tmp_path), "--check"]
    flagged = subprocess.run(command, capture_output=True, text=True, env=env, timeout=120)
    assert "pandas" in flagged.stdout
    excluded = subprocess.run(
        [*command, "--exclude", "scratch/"], capture_output=True, text=True, env=env, timeout=120
    )
    assert "pandas" not in excluded.stdout, excluded.stdout


@pytest.mark.parametrize(
    "lines",
    [
        ["*.py", "!keep.py", "build/", "/root_only", "a/**/b.py", "logs/**", "[Dd]ebug/"],
        ["\\#literal", "trailing  ", "sub/*.js", "**/gen", "!**/gen/keep"],
    ],
)
def test_the_combined_prefilter_never_hides_a_match(lines):
    paths = [
        "keep.py",
        "x/keep.py",
        "a.py",
        "build/",
        "x/build/",
        "root_only",
        "x/root_only",
        "a/b.py",
        "a/x/y/b.py",
        "logs/x",
        "Debug/",
        "x/debug/",
        "#literal",
        "trailing",
        "sub/a.js",
        "sub/x/a.js",
        "gen/",
        "x/gen/keep",
        "x/gen/",
        "other.txt",
    ]
    rules, spec = Rules(lines), GitIgnoreSpec.from_lines(lines)
    for path in paths:
        is_dir = path.endswith("/")
        expected = spec.check_file(path).include
        got = rules.decide(path.rstrip("/"), is_dir)
        if is_dir and expected and got is None:
            continue  # `x/**` decides what is inside x, not x
        assert got == expected, path


TRICKY_LINES = [
    *("*.py[cod]", "[Dd]ebug/", "[!a]x", "[^a]x", "[]a]", "[!]a]", "[", "a[b", "\\#x"),
    *("\\!x", "x\\", "x\\ ", "x\\  ", "!", "!/", "/", "**", "**/", "*", "*/", "**/*"),
    *("**/**/x", "a/**/**/b", "a/**", "/**", "!**/gen/keep", "\\[x]", "[a\\]b]", "a b "),
    *(" a", "x/\\", "*.[", "?", "a?b/", "/a/", "a//b", "//", "!\\!x", "a/*/", "**/*/**"),
    *("\tx", "x\t", "# comment", "", "node_modules/", "/dist", "*.egg-info/", ".env"),
]


@pytest.mark.parametrize("line", TRICKY_LINES)
def test_lines_translate_as_pathspec_compiles_them(line):
    from pathspec.patterns.gitignore.spec import GitIgnoreSpecPattern

    from depinfer.selection import gitignore_regex

    try:
        pattern = GitIgnoreSpecPattern(line)
    except ValueError:
        with pytest.raises(ValueError):  # left to pathspec, which refuses it again
            gitignore_regex(line)
        return
    regex = pattern.regex.pattern if pattern.regex is not None else None
    assert gitignore_regex(line) == (regex, pattern.include)


def test_pathspec_is_loaded_only_for_a_path_a_line_may_match(tmp_path):
    rules = Rules(["*.log", "build/", "!keep.log"])
    assert rules.decide("src/a.py", False) is None
    assert rules._spec is None  # the combined expression answered alone
    assert rules.decide("x/build", True) is True
    assert rules.decide("keep.log", False) is False
    assert rules._spec is not None
