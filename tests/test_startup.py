"""Start-up: `--check` and `--offline --names-only` load only what they use (issue 27)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO, write_tree

from depinfer import runtime

# what the offline Python runs never need: the HTTP stack and registry clients, the
# version stage, pathspec (while no ignore line can match), process pools, tempfile,
# subprocess, configparser
NOT_LOADED = (
    "depinfer.registries.http",
    "depinfer.registries.clients",
    "depinfer.registries.endpoints",
    "depinfer.resolvers.python_versions",
    "requests",
    "requests_cache",
    "pathspec",
    "packaging.requirements",
    "packaging.specifiers",
    "concurrent.futures.thread",
    "multiprocessing",
    "subprocess",  # only a project with its own virtual environment
    "configparser",  # only an ini-style pytest configuration
    "depinfer.analyzers.python_notebook",  # only a tree with a notebook
)

PROBE = """
import json, runpy, sys
sys.argv = ["depinfer", *sys.argv[1:]]
try:
    runpy.run_module("depinfer", run_name="__main__")
except SystemExit:
    pass
sys.__stderr__.write(json.dumps(sorted(sys.modules)))
"""


@pytest.mark.parametrize("flags", [["--check"], ["--offline", "--names-only"]])
def test_offline_runs_load_only_what_they_use(tmp_path, flags):
    tree = write_tree(
        tmp_path / "t",
        {
            "pyproject.toml": "[project]\nname = 'a'\nrequires-python = '>=3.9'\n"
            "dependencies = ['requests>=2; python_version>\"3\"']\n",
            "requirements-dev.txt": "pytest==8.0\n",
            ".gitignore": "*.log\nbuild/\n",
            "a.py": "import requests\nimport yaml\n",
        },
    )
    env = {**os.environ, "PYTHONPATH": str(REPO), "DEPINFER_CACHE_DIR": str(tmp_path / "c")}
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(tree), *flags],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        cwd=tmp_path,
    )
    loaded = set(json.loads(done.stderr.strip().splitlines()[-1]))
    assert "depinfer.rules.python" in loaded  # it did run
    assert not [m for m in NOT_LOADED if m in loaded]


@pytest.mark.parametrize(
    "spec",
    [">=3.8", ">=3.8, <4", "~=3.9", "==3.*", "!=3.0.*,>=3.7", ">3.9", "<3.10", "<=3.7.99", ">=3.8,"]
    + ["~=3", ">=3.*", "==3.8.0.*", ">=v3.8", "3.8", ">=3.13", "===3.9", ">=3.10.1,<3.10.5"]
    + ["^3.8", "~3.9", " ^3.8 ,<4", ">=3.8,^3.9", " , ", "~ =3.9", "> =3.9", "*"],
)
def test_requires_python_reads_as_packaging_reads_it(spec):
    from packaging.specifiers import InvalidSpecifier, SpecifierSet

    try:
        allowed = SpecifierSet(spec)
    except InvalidSpecifier:
        expected = None
    else:
        expected = next(
            (
                v
                for v in runtime.known_versions()
                if allowed.contains(f"{v}.0", prereleases=True)
                or allowed.contains(f"{v}.99", prereleases=True)
            ),
            None,
        )
    assert runtime.target_from_requires_python(spec) == expected


def test_the_ci_matrix_is_read_without_a_yaml_parser(tmp_path):
    tree = write_tree(
        tmp_path / "t",
        {
            "setup.py": "",
            "a.py": "import os\n",
            ".github/workflows/ci.yml": "jobs:\n  t:\n    strategy:\n      matrix:\n"
            "        python-version: [3.10, '3.12']\n",
        },
    )
    probe = (
        "import sys; from depinfer.scan import scan; from depinfer import runtime\n"
        f"rt = runtime.python_runtime(scan({str(tree)!r}))\n"
        "print(rt.minimum, 'yaml' in sys.modules)\n"
    )
    env = {**os.environ, "PYTHONPATH": str(REPO), "DEPINFER_CACHE_DIR": str(tmp_path / "c")}
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, env=env, timeout=120
    )
    assert done.stdout.split() == ["3.10", "False"], done.stderr


WORKFLOW = """jobs:
  test:
    strategy:
      matrix:
        python-version: ["3.12", 3.10, '3.9']  # unquoted 3.10 is 3.10, not 3.1
        include:
          - {python-version: '3.8', torch: '1.10'}
          - python-version: "3.7"
    steps:
      - uses: actions/setup-python@v5
        with:
          python-version: ${{ matrix.python-version }}
      - run: |
          echo "python-version: 2.7"
  other:
    strategy:
      matrix:
        python:
        - 3.6
        - "3.11"   # a list as deep as its key
        django:
          - 4.2
    steps:
      - with:
          python-version: |
            3.13
            3.14
  multi:
    strategy:
      matrix:
        python-version: [
          "3.5", "3.4"
        ]
"""


def test_workflow_values_in_every_form_a_workflow_writes_them():
    values = runtime._workflow_values(WORKFLOW, ("python-version", "python"))
    assert values == (
        "3.12", "3.10", "3.9", "3.8", "3.7", "${{ matrix.python-version }}",
        "3.6", "3.11", "3.13", "3.14", "3.5", "3.4",
    )  # fmt: skip


def test_a_lazy_pattern_compiles_on_first_use_and_then_is_the_pattern(monkeypatch):
    import re

    from depinfer import patterns
    from depinfer.patterns import lazy

    compiled = []
    real = patterns._compile
    monkeypatch.setattr(patterns, "_compile", lambda *a: compiled.append(a) or real(*a))
    pattern = lazy(r"(?P<name>[a-z]+)-(\d+)", re.I)
    assert (pattern.pattern, pattern.flags, compiled) == (r"(?P<name>[a-z]+)-(\d+)", re.I, [])
    assert pattern.match("Ab-12").group("name", 2) == ("Ab", "12")
    assert pattern.sub("x", "a-1 b-2") == "x x" and pattern.groups == 2
    assert [m.start() for m in pattern.finditer("a-1 b-2")] == [0, 4]
    assert len(compiled) == 1  # once, whatever is asked afterwards
    with pytest.raises(AttributeError):
        pattern.nothing  # noqa: B018


# the modules an offline Python run imports: none compiles a regular expression at import
OFFLINE_PYTHON_MODULES = (
    "depinfer.check",
    "depinfer.scan",
    "depinfer.selection",
    "depinfer.runtime",
    "depinfer.versions",
    "depinfer.analyzers.python",
    "depinfer.analyzers.python_notebook",
    "depinfer.analyzers.python_django",
    "depinfer.analyzers.python_strings",
    "depinfer.mapping.python",
    "depinfer.mapping.python_manifests",
    "depinfer.mapping.python_tooling",
    "depinfer.mapping.python_optional_modules",
    "depinfer.manifests.pyproject",
    "depinfer.manifests.pep508",
    "depinfer.manifests.requirements",
    "depinfer.manifests.setup_cfg",
    "depinfer.registries.names",
    "depinfer.rules.python",
    "depinfer.rules.python_tools",
    "depinfer.rules.python_features",
    "depinfer.resolvers.python",
)

COMPILE_PROBE = """
import importlib, json, re, sys
import re._compiler as compiler

real = compiler.compile
at_import = []

def compile(pattern, flags=0):
    frame = sys._getframe(1)
    while frame and frame.f_globals.get("__name__", "").startswith("re"):
        frame = frame.f_back
    if frame and frame.f_code.co_name == "<module>":
        at_import.append(frame.f_globals.get("__name__"))
    return real(pattern, flags)

compiler.compile = compile
for name in sys.argv[1:]:
    importlib.import_module(name)
print(json.dumps(sorted({m for m in at_import if m in sys.argv[1:]})))
"""


def test_offline_python_modules_compile_no_regex_at_import(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run(
        [sys.executable, "-c", COMPILE_PROBE, *OFFLINE_PYTHON_MODULES],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        cwd=tmp_path,
    )
    assert json.loads(done.stdout.strip().splitlines()[-1]) == []


def test_kept_programs_make_the_patterns_re_makes(tmp_path, monkeypatch):
    import re

    from depinfer import patterns

    cases = [(r"(?P<name>[a-z]+)-(\d+)", re.I), (r"^\s*(a|b)+$", re.M), (r"x*y", 0), (r"é\w", 0)]
    try:
        patterns.use_cache_folder(tmp_path)
        first = [patterns.compile_kept(p, f) for p, f in cases]
        patterns._keep()  # what the process does at exit
        assert (tmp_path / "tables").is_dir()
        patterns.use_cache_folder(tmp_path)  # a later process: the programs are read back
        compiled = []
        real = patterns._compile
        monkeypatch.setattr(patterns, "_compile", lambda *a: compiled.append(a) or real(*a))
        again = [patterns.compile_kept(p, f) for p, f in cases]
        assert compiled == []  # built from the kept programs, no pattern parsed
        assert again == first == [real(p, f) for p, f in cases]
        assert again[0].match("Ab-12").group("name", 2) == ("Ab", "12")
        assert again[1].findall("  ab\nx\nba") == ["b", "a"]
        for kept in (tmp_path / "tables").iterdir():  # damaged: compiled as usual
            kept.write_bytes(b"\x00garbage")
        patterns.use_cache_folder(tmp_path)
        assert patterns.compile_kept(*cases[0]) == real(*cases[0])
        assert len(compiled) == 1
    finally:
        patterns.use_cache_folder(None)
        patterns._state["new"] = {}


def test_a_library_s_import_time_patterns_are_kept_a_function_s_are_not(tmp_path, monkeypatch):
    """PyYAML's reader and resolver compile their patterns in module and class bodies: with
    a cache folder named those come from kept programs; patterns made in functions (where
    a tree's text becomes a pattern) never go to the kept file."""
    import importlib
    import re

    from depinfer import patterns

    library = tmp_path / "lib"
    library.mkdir()
    (library / "a_library.py").write_text(
        "import re\n"
        "AT_IMPORT = re.compile(r'[^\\x09\\x20-\\x7e\\u00a0-\\ud7ff]')\n"
        "class Resolver:\n"
        "    BOOL = re.compile(r'^(?:yes|no|true|false)$', re.X)\n"
        "def from_a_tree(text):\n"
        "    return re.compile(re.escape(text))\n"
    )
    monkeypatch.syspath_prepend(str(library))
    try:
        patterns.use_cache_folder(tmp_path / "cache")
        assert re.compile is not patterns._compile
        module = importlib.import_module("a_library")
        kept = {pattern for pattern, _ in patterns._state["new"]}
        assert kept == {module.AT_IMPORT.pattern, module.Resolver.BOOL.pattern}
        assert module.Resolver.BOOL.match("yes") and module.AT_IMPORT.search("\x00")
        assert module.from_a_tree("src/*.py").match("src/*.py")
        assert len(patterns._state["new"]) == 2  # the tree's pattern is not kept
        assert re.compile(b"bytes") == patterns._compile(b"bytes")
    finally:
        patterns.use_cache_folder(None)
        patterns._state["new"] = {}
        sys.modules.pop("a_library", None)
    assert re.compile is patterns._compile


def test_call_starts_are_the_calls_a_pattern_finds():
    import random
    import re

    from depinfer.analyzers.python import _call_starts

    rng = random.Random(7)
    pieces = [b"f", b"fo", b"o", b"(", b" ", b"\t", b"\n", b"\x0b", b"\x1c", b"_", b"\xc3\xa9"]
    for _ in range(5000):
        src = b"".join(rng.choice(pieces) for _ in range(rng.randint(0, 16)))
        for name in (b"f", b"fo", b"ff", b"\xc3\xa9"):
            found = [m.start(1) for m in re.finditer(b"(" + re.escape(name) + rb")\s*\(", src)]
            assert _call_starts(name, src) == found, (name, src)


@pytest.mark.parametrize(
    ("flags", "paused"),
    [(["--check"], True), (["--offline", "--names-only"], True), (["--offline"], False)],
)
def test_offline_answers_run_without_the_cycle_collector(tmp_path, monkeypatch, flags, paused):
    import gc

    from depinfer import cli

    seen = []
    monkeypatch.setattr(cli, "_run_args", lambda args, argv: seen.append(gc.isenabled()) or 0)
    assert gc.isenabled()
    assert cli.run([str(tmp_path), *flags]) == 0
    assert seen == [not paused] and gc.isenabled()  # as it was afterwards


def test_a_program_the_engine_cannot_rebuild_is_not_kept(tmp_path, monkeypatch):
    from depinfer import patterns

    def refuses(*args):
        raise TypeError("another engine")

    monkeypatch.setattr(patterns, "_build", refuses)
    patterns.use_cache_folder(tmp_path)
    try:
        assert patterns.compile_kept(r"a(b)c").match("abc")
        assert patterns._state["new"] == {}
    finally:
        patterns.use_cache_folder(None)


DATACLASS_PROBE = """
import dataclasses, json, sys
from pathlib import Path
from depinfer import dataclass_code
compiled = []
real = compile
def counting(*a, **k):
    compiled.append(a[0])
    return real(*a, **k)
dataclass_code.compile = counting  # the module's own compile: texts not kept yet
dataclass_code.use_cache_folder(Path(sys.argv[1]))

@dataclasses.dataclass(frozen=True, order=True)
class Point:
    x: int
    y: list = dataclasses.field(default_factory=list, hash=False)
    z: str = "a"

p = Point(1)
q = Point(1, [2], z="b")
print(json.dumps({
    "compiled": len(compiled),
    "repr": repr(q), "eq": p == Point(1), "lt": p < q, "hash": hash(p) == hash(Point(1)),
    "doc": Point.__doc__, "init": Point.__init__.__qualname__,
    "code": [Point.__dict__[m].__code__.co_code.hex()
             for m in ("__init__", "__repr__", "__eq__", "__lt__", "__hash__", "__setattr__")],
    "file": Point.__init__.__code__.co_filename,
}))
"""


def test_dataclass_methods_from_kept_code_are_the_methods_exec_makes(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(REPO)}

    def probe(*args: str) -> dict:
        done = subprocess.run(
            [sys.executable, "-c", DATACLASS_PROBE, *args],
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
            cwd=tmp_path,
        )
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout.strip().splitlines()[-1])

    plain = probe("/proc/depinfer-none")  # a folder that cannot be written: nothing kept
    first = probe(str(tmp_path / "c"))  # compiles the texts and keeps their code
    again = probe(str(tmp_path / "c"))  # a later process: compiles none
    assert first["compiled"] > 0 and again["compiled"] == 0
    for answer in (plain, first, again):
        assert answer["repr"] == "Point(x=1, y=[2], z='b')"
        assert answer["eq"] and answer["lt"] and answer["hash"]
        assert answer["doc"].startswith("Point(x: int, y: list")
        assert answer["init"] == "Point.__init__" and answer["file"] == "<string>"
        assert answer["code"] == first["code"]
    kept = next((tmp_path / "c" / "tables").glob("dataclass-*.marshal"))
    kept.write_bytes(b"\x00garbage")  # damaged: compiled as dataclasses would
    damaged = probe(str(tmp_path / "c"))
    assert damaged["compiled"] == first["compiled"] and damaged["code"] == first["code"]


def test_without_a_cache_folder_dataclasses_keep_their_own_exec():
    import dataclasses

    from depinfer import dataclass_code

    try:
        dataclass_code.use_cache_folder(Path("/nonexistent"))
        assert dataclasses.exec is dataclass_code._exec
    finally:
        dataclass_code.use_cache_folder(None)
        dataclass_code._state["new"] = {}
    assert "exec" not in vars(dataclasses)
