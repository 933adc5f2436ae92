"""Which files below a repository's root scan reads: `.gitignore` and `.ignore` rules, and
the `exclude` patterns (settings and `--exclude`).

- Exclude patterns are `.gitignore` lines relative to the root: a bare name (`vendor`,
  `*.egg-info`) matches at any depth, `/x` only at the root, `dir/` only folders, `**` any
  number of folders, `!` re-includes what an earlier pattern excluded.
- `.gitignore`: when the root is inside a git checkout and git runs, git's own answer, from
  one `git ls-files` call (what git ignores and does not track: a file git tracks is never
  skipped, whatever a pattern says). Otherwise every `.gitignore` at or below the root, and
  `.git/info/exclude`, matched as git matches them (pathspec's GitIgnoreSpec): a deeper
  file's rules win over a shallower one's, the last matching line of a file wins. So are
  the `.gitignore` files of a repository nested in the checkout (a submodule, a clone),
  which the outer git does not answer for.
- `.ignore` (the convention of ripgrep and fd): always, and before `.gitignore`.

A skipped folder is not walked, so nothing below it comes back (git's rule: a file cannot be
re-included when a folder above it is excluded). VCS folders are always skipped.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from depinfer.patterns import lazy

if TYPE_CHECKING:  # loaded by the first ignore file or exclude pattern (a git checkout's
    from pathspec import GitIgnoreSpec  # .gitignore files are git's to answer)

VCS_DIRS = frozenset({".git", ".hg", ".svn"})
IGNORE_FILES = (".gitignore", ".ignore")
# a pattern that is a plain name (no glob, no slash, no negation): a set look-up suffices
_PLAIN_NAME = lazy(r"[^*?\[\]!/\\#\s]+")
_NAMED_GROUP = lazy(r"\(\?P<\w+>")
_ANYWHERE = "^(?:.+/)?"  # how pathspec starts a pattern that matches at any depth
# git's variables that would point `git -C ROOT` at another repository or index (a hook
# runs with them set); git finds the checkout from the folder itself instead
_GIT_ENV = ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE")


class Rules:
    """The lines of one ignore file (or of the exclude settings), compiled once.

    Most paths match no line, and one combined expression says so; pathspec (whose import
    and per-line expressions cost a short run more than its analysis) is loaded only for a
    path that expression matches, or when a line is one `gitignore_regex` does not
    translate."""

    def __init__(self, lines: Iterable[str]) -> None:
        self.lines = list(lines)
        self._spec: GitIgnoreSpec | None = None
        try:
            regexes = [gitignore_regex(line) for line in self.lines]
        except _Untranslated:
            regexes = [(p.regex.pattern, p.include) for p in self.spec.patterns if p.regex]
        self._any = _prefilter(regexes)

    @property
    def spec(self) -> GitIgnoreSpec:
        if self._spec is None:
            from pathspec import GitIgnoreSpec  # lazy (above)

            self._spec = GitIgnoreSpec.from_lines(self.lines)
        return self._spec

    def decide(self, path: str, is_dir: bool) -> bool | None:
        """True: `path` (relative to these rules' folder) is ignored; False: a `!` line
        re-includes it; None: no line matches it."""
        probe = path + "/" if is_dir else path
        if self._any is not None and not self._any.match(probe):
            return None
        result = self.spec.check_file(probe)
        if result.include and is_dir and result.index is not None:
            # `x/**` matches what is inside x, not x itself: walk x, decide its files
            if str(self.spec.patterns[result.index].pattern).rstrip().endswith("/**"):
                return None
        return result.include


class _Untranslated(ValueError):
    """A line gitignore_regex leaves to pathspec (which may refuse it: an error as before)."""


# pathspec's group name for the folder marker of a GitIgnoreSpec expression
_DIR_MARK = "(?P<ps_d>/)"


def gitignore_regex(line: str) -> tuple[str | None, bool | None]:
    """One .gitignore line as (regular expression, include), exactly as pathspec's
    GitIgnoreSpec compiles it (tests/test_scan_ignore.py compares the two): (None, None)
    for a blank line, a comment, `/`, and a line git discards (an unclosed `[`); include
    False for a `!` line. Raises _Untranslated where pathspec would refuse the line."""
    text = line if line.endswith("\\ ") else line.rstrip()
    if not text or text.startswith("#") or text == "/":
        return None, None
    include = not text.startswith("!")
    segments = (text if include else text[1:]).split("/")
    is_dir = not segments[-1]
    if not segments[0]:
        del segments[0]  # `/x`: relative to the folder of the file
    elif len(segments) == 1 or (len(segments) == 2 and not segments[1]):
        if segments[0] != "**":  # a bare name (or `name/`) matches at any depth
            segments.insert(0, "**")
    if not segments:
        raise _Untranslated(line)
    if not segments[-1]:
        segments[-1] = "**"  # `x/`: what is inside x
    segments = [s for i, s in enumerate(segments) if not (i and s == "**" == segments[i - 1])]
    whole = {("**",): _DIR_MARK if is_dir else ".", ("**", "*"): "."}
    whole[("**", "*", "**")] = _DIR_MARK if is_dir else "/"
    if tuple(segments) in whole:
        return whole[tuple(segments)], include
    try:
        return "".join(_translate_segments(segments, is_dir)), include
    except _Discarded:
        return None, None


class _Discarded(Exception):
    """An unclosed `[`: git discards the whole line."""


def _translate_segments(segments: list[str], is_dir: bool) -> list[str]:
    out: list[str] = []
    need_slash = False
    last = len(segments) - 1
    for i, segment in enumerate(segments):
        if segment == "**":
            if i == 0:
                out.append("^(?:.+/)?")  # any leading folders
            elif i < last:
                out.append("(?:/.+)?")  # any folders between
                need_slash = True
            else:
                out.append(_DIR_MARK if is_dir else "/")  # what is inside
            continue
        if i == 0:
            out.append("^")
        if need_slash:
            out.append("/")
        out.append("[^/]+" if segment == "*" else _translate_glob(segment))
        if i == last:
            out.append(f"(?:{_DIR_MARK}|$)")  # the file or folder, and what is inside it
        need_slash = True
    return out


def _translate_glob(glob: str) -> str:
    """One path segment's glob as an expression: `*` and `?` within the segment, `[...]`
    (`!` or `^` negating), backslash escapes."""
    out = []
    i, end = 0, len(glob)
    while i < end:
        char = glob[i]
        i += 1
        if char == "\\":
            if i == end:
                raise _Untranslated(glob)  # nothing to escape
            out.append(re.escape(glob[i]))
            i += 1
        elif char == "*":
            out.append("[^/]*")
        elif char == "?":
            out.append("[^/]")
        elif char == "[":
            j = i + (i < end and glob[i] in "!^")
            j += j < end and glob[j] == "]"  # a `]` first is a member
            j = glob.find("]", j)
            if j < 0:
                raise _Discarded
            negated = glob[i] in "!^"
            members = glob[i + negated : j + 1].replace("\\", "\\\\")
            out.append("[" + ("^" if negated else "") + members)
            i = j + 1
        else:
            out.append(re.escape(char))
    return "".join(out)


def _prefilter(regexes: Iterable[tuple[str | None, bool | None]]) -> re.Pattern[str] | None:
    """One regular expression that matches whatever any line could match (given each
    line's expression and include flag), so the common case (no line matches) costs one
    match instead of one per line. None when the lines' expressions cannot be combined
    (pathspec then decides alone)."""
    anywhere, anchored = [], []
    for regex, include in regexes:
        if include is None or regex is None:
            continue
        text = _NAMED_GROUP.sub("(?:", regex)
        if text.startswith(_ANYWHERE):
            anywhere.append(text[len(_ANYWHERE) :])
        elif text.startswith("^"):
            anchored.append(text[1:])
        else:
            return None
    parts = [f"(?:.+/)?(?:{'|'.join(anywhere)})"] if anywhere else []
    parts += anchored
    if not parts:
        return None
    try:
        return re.compile(f"^(?:{'|'.join(parts)})")
    except re.error:
        return None


class Selection:
    """Decides, folder by folder during a top-down walk, what scan skips.

    `enter(folder, names)` must be called for each folder walked (it reads the folder's
    ignore files) before `skips_dir` / `skips_file` are asked about what it holds."""

    def __init__(
        self,
        root: Path,
        exclude: Sequence[str],
        use_git: bool = True,
        regex_exclude: Sequence[str] = (),
    ) -> None:
        self.root = root
        # deptry's exclude settings: regular expressions matched from the start of the
        # repository-relative path (deptry documentation, Configuration: exclude)
        self._regex = (
            re.compile("|".join(f"(?:{r})" for r in regex_exclude)) if regex_exclude else None
        )
        patterns = [_normalise(p) for p in exclude if p.strip()]
        negated = any(p.startswith("!") for p in patterns)
        plain = [] if negated else [p for p in patterns if _PLAIN_NAME.fullmatch(p)]
        self._names = frozenset(plain)
        rest = [p for p in patterns if p not in self._names]
        self._exclude = Rules(rest) if rest else None
        self._git = _git_ignored(root) if use_git else None
        self._rules: dict[str, Rules] = {}
        self._nested: set[str] = set()  # repositories inside the checkout, and below them

    def enter(self, folder: str, names: Iterable[str]) -> None:
        """Read `folder`'s ignore files; `names`: what it holds (files and folders)."""
        names = set(names)
        if folder and (".git" in names or folder.rpartition("/")[0] in self._nested):
            self._nested.add(folder)
        files = [n for n in IGNORE_FILES if n in names]
        if self._git is not None and folder not in self._nested and ".gitignore" in files:
            files.remove(".gitignore")  # git answered for these
        lines: list[str] = []
        if folder == "" and self._git is None:
            lines += _read_lines(self.root / ".git" / "info" / "exclude")
        for name in files:  # .ignore after .gitignore: its lines win
            lines += _read_lines(self.root / folder / name)
        if lines:
            self._rules[folder] = Rules(lines)

    def skips_dir(self, rel: str) -> bool:
        return self._skips(rel, True)

    def skips_file(self, rel: str) -> bool:
        return self._skips(rel, False)

    def _skips(self, rel: str, is_dir: bool) -> bool:
        name = rel.rpartition("/")[2]
        if is_dir and name in VCS_DIRS:
            return True
        if name in self._names or (self._exclude and self._exclude.decide(rel, is_dir)):
            return True
        if self._regex is not None and self._regex.match(rel):
            return True
        folder = rel.rpartition("/")[0]
        while True:  # the deepest ignore file with an opinion decides
            rules = self._rules.get(folder)
            if rules is not None:
                sub = rel[len(folder) + 1 :] if folder else rel
                verdict = rules.decide(sub, is_dir)
                if verdict is not None:
                    return verdict
            if not folder:
                break
            folder = folder.rpartition("/")[0]
        if self._git is not None:
            return (rel + "/" if is_dir else rel) in self._git
        return False


def _normalise(pattern: str) -> str:
    """`./x` is the root's x (`/x` in .gitignore terms); surrounding blanks are typos."""
    pattern = pattern.strip()
    return "/" + pattern[2:] if pattern.startswith("./") else pattern


def _read_lines(path: Path) -> list[str]:
    try:
        return path.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return []


def _in_git_checkout(root: Path) -> bool:
    return any((d / ".git").exists() for d in (root, *root.parents))


def _git_ignored(root: Path) -> frozenset[str] | None:
    """What git ignores below `root` and does not track (folders end in "/"), relative to
    `root`; None when `root` is no git checkout, git cannot run, or git ignores `root`
    itself (a folder the user chose to scan: its own .gitignore files decide)."""
    if not _in_git_checkout(root):
        return None
    env = {k: v for k, v in os.environ.items() if k not in _GIT_ENV}
    command = ["git", "-C", str(root), "ls-files", "-z", "--others", "--ignored"]
    import subprocess  # lazy: only a git checkout

    try:
        out = subprocess.run(
            [*command, "--exclude-standard", "--directory"],
            capture_output=True,
            timeout=60,
            env=env,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    if out.returncode != 0:
        return None
    paths = frozenset(os.fsdecode(p) for p in out.stdout.split(b"\0") if p)
    if "./" in paths:
        return None
    return paths
