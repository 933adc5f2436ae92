"""Write a large Python repository of real-shaped code, for timing depinfer at scale.

    python scripts/make_big_repo.py OUT [--files 5000] [--seed 1]

A monorepo-like tree: a pyproject.toml per service under services/<name>/ and one at the
root, packages with `__init__.py`, modules of 60-200 lines (classes, functions, docstrings,
type hints) whose imports mix the standard library, third-party packages (top level,
guarded by try/except ImportError, under TYPE_CHECKING, inside functions), relative and
absolute first-party imports; tests with pytest fixtures, markers and conftest.py. Same
seed, same bytes. Nothing is committed: the tree is made where it is timed.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

STDLIB = [
    "os",
    "sys",
    "json",
    "re",
    "logging",
    "dataclasses",
    "pathlib",
    "typing",
    "collections",
    "functools",
    "itertools",
    "datetime",
    "subprocess",
    "asyncio",
    "contextlib",
    "hashlib",
    "uuid",
]
# (import name, distribution) pairs the generated code imports; some declared, some not
THIRD_PARTY = [
    ("requests", "requests"),
    ("yaml", "PyYAML"),
    ("numpy", "numpy"),
    ("pandas", "pandas"),
    ("attr", "attrs"),
    ("click", "click"),
    ("jinja2", "Jinja2"),
    ("sqlalchemy", "SQLAlchemy"),
    ("pydantic", "pydantic"),
    ("dateutil", "python-dateutil"),
    ("redis", "redis"),
    ("boto3", "boto3"),
    ("httpx", "httpx"),
    ("rich", "rich"),
]
OPTIONAL = ["ujson", "orjson", "uvloop", "lxml"]
WORDS = "alpha beta gamma delta order user cache store queue event audit report token".split()


def _name(rng: random.Random) -> str:
    return f"{rng.choice(WORDS)}_{rng.choice(WORDS)}"


def _function(rng: random.Random, lib_alias: str | None) -> str:
    name = f"{_name(rng)}_{rng.randrange(1000)}"
    body = [
        f"def {name}(items: list[dict], limit: int = {rng.randrange(5, 50)}) -> dict:",
        f'    """Fold `items` into a summary ({rng.choice(WORDS)} view)."""',
        "    seen: dict = {}",
        "    for index, item in enumerate(items[:limit]):",
        "        key = item.get('id', index)",
        "        seen[key] = seen.get(key, 0) + len(str(item))",
    ]
    if lib_alias:
        body.append(f"    seen['_lib'] = getattr({lib_alias}, '__name__', '')")
    body += ["    return seen", "", ""]
    return "\n".join(body)


def _class(rng: random.Random) -> str:
    name = "".join(w.title() for w in _name(rng).split("_"))
    methods = []
    for _ in range(rng.randrange(2, 6)):
        m = f"{rng.choice(WORDS)}_{rng.randrange(100)}"
        methods.append(
            f"    def {m}(self, value: int) -> int:\n"
            f"        if value > {rng.randrange(100)}:\n"
            f"            return value - self.offset\n"
            f"        return value * {rng.randrange(2, 9)}\n"
        )
    return (
        f"class {name}:\n"
        f'    """A {rng.choice(WORDS)} record."""\n\n'
        f"    def __init__(self, offset: int = 0) -> None:\n"
        f"        self.offset = offset\n\n" + "\n".join(methods) + "\n\n"
    )


def _module(rng: random.Random, package: str, siblings: list[str]) -> str:
    lines = ['"""Generated module."""', "", "from __future__ import annotations", ""]
    for mod in rng.sample(STDLIB, rng.randrange(2, 6)):
        lines.append(f"import {mod}")
    libs = rng.sample(THIRD_PARTY, rng.randrange(0, 3))
    for imp, _ in libs:
        lines.append(f"import {imp}")
    if rng.random() < 0.2:
        opt = rng.choice(OPTIONAL)
        lines += ["", "try:", f"    import {opt}", "except ImportError:", f"    {opt} = None"]
    if rng.random() < 0.3:
        lines += ["", "from typing import TYPE_CHECKING", "", "if TYPE_CHECKING:"]
        lines.append(f"    from {rng.choice(THIRD_PARTY)[0]} import something  # noqa")
    if siblings and rng.random() < 0.6:
        lines.append(f"from . import {rng.choice(siblings)}")
    if rng.random() < 0.3:
        lines.append(f"from {package}.{rng.choice(siblings or ['core'])} import helper  # noqa")
    lines += ["", ""]
    alias = libs[0][0] if libs else None
    for _ in range(rng.randrange(2, 6)):
        lines.append(_function(rng, alias) if rng.random() < 0.6 else _class(rng))
    if rng.random() < 0.1:
        lines += [
            "def lazy():",
            f"    import {rng.choice(THIRD_PARTY)[0]}",
            "    return None",
            "",
        ]
    return "\n".join(lines) + "\n"


def _test_module(rng: random.Random, package: str, modules: list[str]) -> str:
    mod = rng.choice(modules)
    lines = [
        "import pytest",
        "",
        f"from {package} import {mod}",
        "",
        "",
        "@pytest.fixture",
        "def sample():",
        "    return [{'id': 1}, {'id': 2}]",
        "",
        "",
    ]
    for i in range(rng.randrange(2, 6)):
        marker = rng.choice(["@pytest.mark.slow\n", "@pytest.mark.asyncio\n", "", "", ""])
        lines.append(f"{marker}def test_{i}(sample, tmp_path):\n    assert {mod} is not None\n\n")
    return "\n".join(lines)


def _pyproject(name: str, deps: list[str]) -> str:
    listed = ", ".join(f'"{d}"' for d in deps)
    return (
        f'[project]\nname = "{name}"\nversion = "1.0"\ndependencies = [{listed}]\n\n'
        f'[project.optional-dependencies]\ntest = ["pytest"]\n\n'
        f'[build-system]\nrequires = ["setuptools"]\nbuild-backend = "setuptools.build_meta"\n'
    )


def make(out: Path, files: int, seed: int) -> int:
    rng = random.Random(seed)
    written = 0
    services = max(1, files // 500)
    per_service = files // services
    for s in range(services):
        service = f"svc_{s:02d}"
        base = out / "services" / service
        deps = sorted({d for _, d in rng.sample(THIRD_PARTY, 8)})
        (base).mkdir(parents=True, exist_ok=True)
        (base / "pyproject.toml").write_text(_pyproject(service.replace("_", "-"), deps))
        packages = max(1, per_service // 50)
        for p in range(packages):
            package = f"{service}_pkg{p}"
            folder = base / "src" / package
            folder.mkdir(parents=True, exist_ok=True)
            names = [f"mod_{m:03d}" for m in range(per_service // packages - 6)]
            (folder / "__init__.py").write_text('"""Package."""\n')
            for i, name in enumerate(names):
                (folder / f"{name}.py").write_text(_module(rng, package, names[:i]))
            tests = base / "tests" / package
            tests.mkdir(parents=True, exist_ok=True)
            (tests / "conftest.py").write_text(
                "import pytest\n\n\n@pytest.fixture\ndef client():\n    return object()\n"
            )
            for t in range(4):
                (tests / f"test_{t}.py").write_text(_test_module(rng, package, names))
            written += len(names) + 6
    (out / "pyproject.toml").write_text(_pyproject("monorepo", ["requests"]))
    return written + services + 1


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("out", type=Path)
    p.add_argument("--files", type=int, default=5000)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    if args.out.exists() and any(args.out.iterdir()):
        raise SystemExit(f"{args.out}: exists and is not empty")
    count = make(args.out, args.files, args.seed)
    print(f"wrote {count} files under {args.out}")


if __name__ == "__main__":
    main()
