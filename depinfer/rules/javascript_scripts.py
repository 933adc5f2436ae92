"""package.json script commands → the executables they run and the modules they preload.

`cross-env A=1 jest --ci && npx eslint . ; node -r dotenv/config x.js` runs cross-env, jest,
eslint and node, and preloads dotenv/config. Other scripts (`npm run x`, `yarn test`) and
the shell's own commands name no package; which package provides an executable is the
rules' bins table's business.
"""

from __future__ import annotations

import re
import shlex
from functools import lru_cache

from depinfer.data import load_table

_SPLIT = re.compile(r"\s*(?:&&|\|\||;|\|(?!\|)|&(?!&))\s*")
_LOAD_FLAGS = {"-r", "--require", "--import", "--loader", "--experimental-loader"}
_ENV = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")


@lru_cache(maxsize=1)
def _runners() -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """(commands whose -r/--require/--import/--loader flags preload a module, runners that run
    the rest of their line as a command, words that only hand the line on): bins.toml."""
    doc = load_table("javascript/bins.toml")
    return tuple(
        frozenset(doc[k]["names"]) for k in ("preload_runners", "command_runners", "wrappers")
    )


def script_executables(command: str) -> tuple[list[str], list[str]]:
    """(executables run, modules preloaded with -r/--require/--import/--loader)."""
    preloaders, command_runners, wrappers = _runners()
    exes: list[str] = []
    modules: list[str] = []
    for part in _SPLIT.split(command):
        try:
            words = shlex.split(part, posix=True)
        except ValueError:
            words = part.split()
        i = 0
        while i < len(words) and _ENV.match(words[i]):
            i += 1  # FOO=bar env assignments
        first = True
        current = ""
        while i < len(words):
            w = words[i]
            preload = current in preloaders
            if w in _LOAD_FLAGS and i + 1 < len(words) and preload:
                modules.append(words[i + 1])
                i += 2
                continue
            m = re.match(r"^--(?:require|import|loader|experimental-loader)=(.+)$", w)
            if m and preload:
                modules.append(m.group(1))
            if first:
                if w in ("pnpm", "yarn", "npm", "bun") and i + 1 < len(words):
                    nxt = words[i + 1]
                    if nxt in ("exec", "dlx", "x"):
                        i += 2
                        continue
                    break  # `npm run x`, `yarn test`: another script, not an executable
                if w in wrappers or w.startswith("-"):
                    i += 1
                    continue
                exes.append(w)
                current = w.rsplit("/", 1)[-1]
                first = False
                if w in command_runners:
                    i += 1
                    while i < len(words) and (_ENV.match(words[i]) or words[i].startswith("-")):
                        i += 1  # its own settings and flags
                    first = True
                    continue
            i += 1
    return exes, modules


_RUN_SCRIPT = re.compile(
    r"(?:^|[\s;&|(])(?:npm\s+run(?:-script)?|pnpm(?:\s+run)?|yarn(?:\s+run)?|bun\s+run)"
    r"(?:\s+--?[\w-]+)*\s+([\w:.-]+)"
)


def scripts_called(command: str, names: set[str]) -> list[str]:
    """The package's own scripts a command runs (`npm run scss`, `yarn build`, `pnpm x`)."""
    return [m.group(1) for m in _RUN_SCRIPT.finditer(command) if m.group(1) in names]
