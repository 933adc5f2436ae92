"""Jupyter notebooks → the Python text of their code cells, plus `pip install` lines.

Why: notebooks import packages like any module, and their `!pip install x` / `%pip install x`
lines name distributions outright. IPython syntax (magics, shell escapes, `obj?` help) is not
Python, so those lines become `pass` (keeping line numbers and indentation) before parsing.
Cells written in another language (`%%bash`, `%%html`, …) are skipped, except that shell
cells are still searched for `pip install`.
"""

from __future__ import annotations

import json
import re
import shlex
from dataclasses import dataclass, field

from depinfer.patterns import lazy

# Cell magics whose body is not Python. Shell ones are still read for `pip install`.
_SHELL_CELLS = {"bash", "sh", "script", "system", "!"}
_FOREIGN_CELLS = {
    "html",
    "javascript",
    "js",
    "latex",
    "markdown",
    "svg",
    "perl",
    "ruby",
    "sql",
    "R",
    "julia",
    "sx",
    "file",
    "writefile",  # unless it writes a .py file, see below
}
# pip options that take a value in the next token; the value is never a requirement.
_PIP_VALUE_OPTIONS = {
    "-r",
    "--requirement",
    "-c",
    "--constraint",
    "-e",
    "--editable",
    "-i",
    "--index-url",
    "--extra-index-url",
    "-f",
    "--find-links",
    "-t",
    "--target",
    "--prefix",
    "--root",
    "--platform",
    "--python-version",
    "--implementation",
    "--abi",
    "--no-binary",
    "--only-binary",
    "--trusted-host",
    "--proxy",
    "--cache-dir",
    "--src",
    "--upgrade-strategy",
    "--progress-bar",
    "--log",
    "--timeout",
    "--retries",
    "-C",
    "--config-settings",
    "--global-option",
    "--python",
    "-p",
}
_REQUIREMENT = lazy(r"^([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)\s*(\[[^\]]*\])?(.*)$")
_SHELL_SPLIT = lazy(r"&&|\|\||;|\|")
_HELP = lazy(r"^\?*[\w.]+\?{1,2}$")  # `obj?` / `obj??` asks IPython for help
_MAGIC_ASSIGN = lazy(r"^(\s*[A-Za-z_][\w, ]*=\s*)[!%].*$")


@dataclass
class PipInstall:
    """One requirement named on a `pip install` line of a notebook."""

    name: str
    requirement: str  # the token as written, e.g. "pandas>=2"
    cell: int
    line: int  # 1-based, inside the cell


@dataclass
class Cell:
    index: int  # 1-based position among the notebook's cells
    source: str  # Python text, magics replaced by `pass`


@dataclass
class Notebook:
    cells: list[Cell] = field(default_factory=list)
    pip_installs: list[PipInstall] = field(default_factory=list)


class NotebookError(ValueError):
    """The file is not a readable notebook (bad JSON or an unknown structure)."""


def _cell_source(cell: dict[str, object]) -> str:
    source = cell.get("source", cell.get("input", ""))
    if isinstance(source, list):
        return "".join(str(part) for part in source)
    return source if isinstance(source, str) else ""


def _raw_cells(data: object) -> list[dict[str, object]]:
    if not isinstance(data, dict):
        raise NotebookError("not a notebook: the JSON document is not an object")
    cells = data.get("cells")
    if cells is None and isinstance(data.get("worksheets"), list):  # nbformat 3
        cells = [
            c for ws in data["worksheets"] if isinstance(ws, dict) for c in ws.get("cells", [])
        ]
    if not isinstance(cells, list):
        raise NotebookError("not a notebook: no list of cells")
    return [c for c in cells if isinstance(c, dict)]


def requirement_name(token: str) -> str:
    """The distribution name of a requirement token ("pandas[pyarrow]>=2" → "pandas")."""
    match = _REQUIREMENT.match(token)
    return match.group(1) if match else token


def pip_requirements(command: str) -> list[str]:
    """Requirement tokens of a shell line if it runs `pip install` (any spelling of pip)."""
    found: list[str] = []
    for part in _SHELL_SPLIT.split(command):
        try:
            tokens = shlex.split(part, comments=True)
        except ValueError:
            tokens = part.split()
        try:
            start = tokens.index("install")
        except ValueError:
            continue
        before = [t.rsplit("/", 1)[-1] for t in tokens[:start]]
        if not any(re.fullmatch(r"pip[\d.]*", t) for t in before):
            continue
        skip_next = False
        for token in tokens[start + 1 :]:
            if skip_next:
                skip_next = False
                continue
            if token in _PIP_VALUE_OPTIONS or re.fullmatch(r"\d*>>?", token):
                skip_next = True
                continue
            if token.startswith(("-", ">", "<", "$", "{", ".", "/", "~")) or "://" in token:
                continue
            if re.match(r"\d*>", token) or token.endswith((".whl", ".tar.gz", ".zip")):
                continue
            if _REQUIREMENT.match(token):
                found.append(token)
    return found


_GET_IPYTHON = lazy(
    r"""get_ipython\(\)\.(system|run_line_magic)\(\s*(['"])(.*?)\2(?:\s*,\s*(['"])(.*?)\4)?"""
)


def exported_shell_commands(text: str) -> list[tuple[int, str]]:
    """(line, command) of `get_ipython().system("pip install x")` and
    `get_ipython().run_line_magic("pip", "install x")`: notebooks exported to .py keep them."""
    found = []
    for match in _GET_IPYTHON.finditer(text):
        method, first, second = match.group(1), match.group(3), match.group(5)
        command = first if method == "system" else f"{first} {second or ''}"
        found.append((text.count("\n", 0, match.start()) + 1, command))
    return found


def _magic_lines(lines: list[str], shell_cell: bool) -> list[tuple[int, str]]:
    """(line number, shell command) of `!cmd`, `%pip …`/`%uv …` lines and shell-cell lines,
    with backslash continuations joined."""
    commands: list[tuple[int, str]] = []
    number = 0
    while number < len(lines):
        stripped = lines[number].strip()
        start = number
        if shell_cell or stripped.startswith(("!", "%")):
            command = stripped
            while command.endswith("\\") and number + 1 < len(lines):
                number += 1
                command = command[:-1] + " " + lines[number].strip()
            if shell_cell:
                commands.append((start + 1, command))
            elif command.startswith("!") or command.startswith(("%pip ", "%uv ")):
                commands.append((start + 1, command[1:]))
        number += 1
    return commands


def _python_lines(lines: list[str]) -> list[str]:
    """The cell's lines with IPython-only syntax replaced, line numbers unchanged."""
    out = []
    continued = False
    for line in lines:
        stripped = line.strip()
        indent = line[: len(line) - len(line.lstrip())]
        if continued:
            out.append("")
            continued = stripped.endswith("\\")
        elif stripped.startswith(("%", "!")) or _HELP.match(stripped):
            out.append(f"{indent}pass")
            continued = stripped.endswith("\\")
        else:
            assigned = _MAGIC_ASSIGN.match(line)
            out.append(f"{assigned.group(1)}None" if assigned else line)
    return out


def read_notebook(text: str) -> Notebook:
    """Parse notebook JSON; raises NotebookError when it cannot be read."""
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise NotebookError(f"not a notebook: invalid JSON ({exc})") from None
    notebook = Notebook()
    for index, cell in enumerate(_raw_cells(data), start=1):
        if cell.get("cell_type") != "code":
            continue
        lines = _cell_source(cell).splitlines()
        first = next((line.strip() for line in lines if line.strip()), "")
        shell_only = False
        if first.startswith("%%"):
            magic = first[2:].split()
            name = magic[0] if magic else ""
            if name in _SHELL_CELLS:
                shell_only = True
            elif name in _FOREIGN_CELLS and not (
                name in ("writefile", "file") and magic[-1].endswith(".py")
            ):
                continue
        for number, command in _magic_lines(lines, shell_only):
            for token in pip_requirements(command):
                notebook.pip_installs.append(
                    PipInstall(requirement_name(token), token, index, number)
                )
        if not shell_only:
            notebook.cells.append(Cell(index, "\n".join(_python_lines(lines))))
    return notebook
