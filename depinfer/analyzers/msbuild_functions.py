"""The MSBuild property functions repositories use to find their own files.

Shared build files locate the repository root or a sibling file with property functions
(`$([MSBuild]::GetDirectoryNameOfFileAbove($(MSBuildThisFileDirectory), 'X.sln'))`,
`$([System.IO.Directory]::GetParent($(MSBuildThisFileDirectory)).Parent.FullName)`), and
imports and ProjectReferences then go through them (`$(RepoRoot)\\src\\A\\A.csproj`). This
evaluates the path functions the MSBuild docs list under "Property functions" for such
use, over the repository only: paths are written `/`-rooted at the repository root
("/src/A/"), and a path that would leave the repository, or any function not listed
here, leaves the value unevaluated (None), never guessed.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable

_STRING = re.compile(r"""^\s*(?:'([^']*)'|`([^`]*)`|"([^"]*)")\s*$""")


def rooted_path(path: str, directory: bool = False) -> str | None:
    """A `/`-rooted repository path, normalised; None when it climbs above the root."""
    path = path.replace("\\", "/")
    if not path.startswith("/"):
        return None
    parts: list[str] = []
    for part in path.split("/"):
        if part in ("", "."):
            continue
        if part == "..":
            if not parts:
                return None
            parts.pop()
            continue
        parts.append(part)
    out = "/" + "/".join(parts)
    if directory and out != "/":
        out += "/"
    return out


def _split_args(text: str) -> list[str]:
    """Top-level comma-separated arguments (commas inside quotes or parentheses stay)."""
    args, depth, quote, cur = [], 0, "", ""
    for ch in text:
        if quote:
            cur += ch
            if ch == quote:
                quote = ""
            continue
        if ch in "'`\"":
            quote = ch
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "," and depth == 0:
            args.append(cur)
            cur = ""
            continue
        cur += ch
    if cur.strip():
        args.append(cur)
    return args


class Evaluator:
    """Evaluates values for one file: `this_dir` is the directory of the file that holds
    the value (MSBuildThisFileDirectory), `project_dir` the project's; `is_file` answers
    whether a repository path (`/`-rooted) is a file."""

    def __init__(
        self,
        props: dict[str, str],
        this_dir: str,
        project_dir: str,
        is_file: Callable[[str], bool],
    ) -> None:
        self.props = {k.lower(): v for k, v in props.items()}
        self.props["msbuildthisfiledirectory"] = rooted_path("/" + this_dir, True) or "/"
        self.props["msbuildprojectdirectory"] = (rooted_path("/" + project_dir) or "/").rstrip(
            "/"
        ) or "/"
        self.is_file = is_file

    def value(self, text: str, depth: int = 0) -> str | None:
        """`text` with every `$(…)` and `$([…]::…)` replaced; None when one cannot be."""
        if depth > 8:
            return None
        out, i = "", 0
        while True:
            j = text.find("$(", i)
            if j < 0:
                return out + text[i:]
            out += text[i:j]
            end = _matching(text, j + 1)
            if end < 0:
                return None
            inner = text[j + 2 : end]
            if inner.startswith("["):
                got = self._function(inner, depth)
            else:
                raw = self.props.get(inner.strip().lower())
                got = None if raw is None else self.value(raw, depth + 1)
            if got is None:
                return None
            out += got
            i = end + 1

    def _arg(self, text: str, depth: int) -> str | None:
        m = _STRING.match(text)
        if m:
            text = next(g for g in m.groups() if g is not None)
        return self.value(text.strip(), depth + 1)

    def _function(self, inner: str, depth: int) -> str | None:
        m = re.match(r"\[([\w.]+)\]::(\w+)\(", inner)
        if not m:
            return None
        close = _matching(inner, m.end() - 1)
        if close < 0:
            return None
        args = [self._arg(a, depth) for a in _split_args(inner[m.end() : close])]
        if any(a is None for a in args):
            return None
        result = _call(m.group(1), m.group(2), [a for a in args if a is not None], self.is_file)
        if result is None:
            return None
        # `.Parent.FullName` chained on a DirectoryInfo (System.IO.Directory::GetParent)
        for member in re.findall(r"\.(\w+)", inner[close + 1 :]):
            if member == "Parent":
                # the repository root's parent lies outside it
                stripped = result.rstrip("/")
                result = rooted_path(posixpath.dirname(stripped) or "/") if stripped else None
            elif member == "FullName":
                pass
            else:
                return None
            if result is None:
                return None
        return result


def _matching(text: str, open_at: int) -> int:
    depth = 0
    for k in range(open_at, len(text)):
        if text[k] == "(":
            depth += 1
        elif text[k] == ")":
            depth -= 1
            if depth == 0:
                return k
    return -1


def _folder_above(start: str, name: str, is_file: Callable[[str], bool]) -> str | None:
    """The nearest folder at or above `start` holding file `name` (`/`-rooted, with its
    trailing `/`); "" when none does (MSBuild's empty string), None outside the repository."""
    folder = rooted_path(start, True)
    while folder is not None:
        if is_file(folder + name):
            return folder
        if folder == "/":
            return ""
        folder = rooted_path(posixpath.dirname(folder.rstrip("/")) or "/", True)
    return None


def _call(cls: str, name: str, args: list[str], is_file: Callable[[str], bool]) -> str | None:
    key = f"{cls.lower()}::{name.lower()}"
    if key == "msbuild::getdirectorynameoffileabove" and len(args) == 2:
        found = _folder_above(args[0], args[1], is_file)
        return found if not found else found.rstrip("/") or "/"
    if key == "msbuild::getpathoffileabove" and args:
        found = _folder_above(args[1] if len(args) > 1 else "/", args[0], is_file)
        return found if not found else found + args[0]
    if key in ("system.io.path::combine", "msbuild::normalizepath", "msbuild::normalizedirectory"):
        path = ""
        for a in args:
            a = a.replace("\\", "/")
            path = a if a.startswith("/") or not path else path.rstrip("/") + "/" + a
        return rooted_path(path, directory=key.endswith("directory"))
    if key == "system.io.path::getfullpath" and len(args) == 1:
        return rooted_path(args[0], directory=args[0].replace("\\", "/").endswith("/"))
    if key == "system.io.directory::getparent" and len(args) == 1:
        # Path.GetDirectoryName: "/a/b/" -> "/a/b", "/a/b" -> "/a"
        path = args[0].replace("\\", "/")
        if path in ("/", ""):
            return None
        return rooted_path(posixpath.dirname(path) or "/")
    if key == "system.io.path::getdirectoryname" and len(args) == 1:
        return rooted_path(posixpath.dirname(args[0].replace("\\", "/")) or "/")
    return None
