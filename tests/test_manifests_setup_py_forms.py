"""setup.py forms that build the dependency lists in module-level names (issue #24).

Each fixture fixtures/python/mf-setup-py-<form>/ round-trips through `--write`: the new
entries land where the value is defined (the list literal a name holds, or the
requirements file the script reads) and every other byte stays as it was. A value built
at run time is reported once, naming the file and the line, and nothing is written.
"""

from __future__ import annotations

import ast
import difflib
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import FIXTURES, REPO, copy_fixture, infer_offline, write_tree

from depinfer.manifests import ManifestError, NotWritable, setup_py
from depinfer.model import Ecosystem, Manifest, Requirement, Section


def run(root: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run(
        [sys.executable, "-m", "depinfer", str(root), "--offline", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )


def snapshot(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def inserted_lines(before: str, after: str) -> list[int]:
    """0-based line numbers (in `after`) of the lines the edit inserted; fails when the edit
    changed or removed any line of `before`."""
    old, new = before.splitlines(keepends=True), after.splitlines(keepends=True)
    out: list[int] = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=old, b=new, autojunk=False).get_opcodes():
        assert tag in ("equal", "insert"), (tag, old[i1:i2], new[j1:j2])
        if tag == "insert":
            out += range(j1, j2)
    assert [line for k, line in enumerate(new) if k not in out] == old
    return out


def literal_lines(text: str, name: str, key: str | None = None) -> range:
    """The lines (0-based) of the literal a module-level `name` is assigned (or, with
    `key`, of that key's value in the dict literal `name` holds)."""
    for node in ast.parse(text).body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == name for t in node.targets
        ):
            value = node.value
            if key is not None:
                assert isinstance(value, ast.Dict)
                value = next(
                    v
                    for k, v in zip(value.keys, value.values, strict=False)
                    if isinstance(k, ast.Constant) and k.value == key
                )
            return range(value.lineno - 1, value.end_lineno)
    raise AssertionError(f"no module-level {name}")


# fixture, the file the entries go to, where in it (setup.py: the name, and a dict key),
# the names written there
ROUND_TRIPS = [
    ("mf-setup-py-variable", "setup.py", ("install_requires", None), {"numpy", "pyyaml"}),
    ("mf-setup-py-concat", "setup.py", ("base", None), {"click", "pyyaml"}),
    ("mf-setup-py-extend", "setup.py", ("REQUIRES", None), {"click", "pyyaml"}),
    ("mf-setup-py-kwargs", "setup.py", ("setup_args", "install_requires"), {"pyyaml", "requests"}),
    ("mf-setup-py-extras-dict", "setup.py", None, {"requests"}),
    ("mf-setup-py-open", "requirements.txt", None, {"numpy", "pyyaml"}),
    ("mf-setup-py-with-open", "requirements.txt", None, {"numpy", "pyyaml"}),
    ("mf-setup-py-readlines", "requirements/base.txt", None, {"numpy", "pyyaml"}),
    ("mf-setup-py-helper", "requirements.in", None, {"numpy", "pyyaml"}),
]


@pytest.mark.parametrize("fixture, target, where, names", ROUND_TRIPS)
def test_write_puts_new_entries_where_the_value_is_defined(tmp_path, fixture, target, where, names):
    root = copy_fixture("python", fixture, tmp_path / fixture)
    before = snapshot(root)
    proc = run(root, "--write")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == [f"wrote {target}"]
    after = snapshot(root)
    assert {k for k in after if after[k] != before[k]} == {target}
    old, new = before[target].decode(), after[target].decode()
    added = inserted_lines(old, new)
    assert {
        line.strip().strip("\",'") for k, line in enumerate(new.splitlines()) if k in added
    } == names
    if where is not None:
        span = literal_lines(new, *where)
        assert all(k in span for k in added), (added, span)
    assert run(root, "--write").stdout.strip() == "nothing to change"


def test_the_extras_a_dict_variable_holds_are_declared(tmp_path):
    """`extras_require=extras`, with `extras["yaml"] = [...]` added later: the modules that
    import the extras' distributions do not put them into install_requires."""
    root = FIXTURES / "python" / "mf-setup-py-extras-dict"
    declared, _ = setup_py.read((root / "setup.py").read_text(), "setup.py")
    assert declared == {
        "dependencies": ["numpy"],
        "optional-dependencies.plot": ["matplotlib"],
        "optional-dependencies.yaml": ["pyyaml"],
    }


def test_a_list_built_at_run_time_is_reported_once_and_nothing_is_written(tmp_path):
    root = copy_fixture("python", "mf-setup-py-computed", tmp_path / "computed")
    before = snapshot(root)
    for args in ((), ("--write",)):
        proc = run(root, *args)
        assert "Traceback" not in proc.stderr
        reports = [line for line in proc.stderr.splitlines() if "setup.py" in line]
        assert len(reports) == 1, proc.stderr
        assert "line 15" in reports[0] and "pinned()" in reports[0]
        assert "numpy, pyyaml, requests" in reports[0]
        assert snapshot(root) == before
    preview = run(root)
    assert preview.stdout.splitlines()[:5] == [
        "setup.py",
        "  [dependencies]",
        "    numpy  (not written)",
        "    pyyaml  (not written)",
        "    requests  (not written)",
    ]
    assert "add the 3 dependencies marked not written by hand" in preview.stdout
    assert run(root, "--write").returncode == 3


def test_the_preview_of_a_list_built_at_run_time_does_not_exit_3(tmp_path):
    root = copy_fixture("python", "mf-setup-py-computed", tmp_path / "computed")
    assert run(root).returncode == 0


# ---------------------------------------------------------------------- render / read


def manifest() -> Manifest:
    return Manifest(path="setup.py", ecosystem=Ecosystem.PYPI, format="setup_py")


def req(name: str, group: str | None = None) -> Requirement:
    section = Section.OPTIONAL if group else Section.RUNTIME
    return Requirement(Ecosystem.PYPI, name, "setup.py", section=section, group=group)


def render(text: str, *reqs: Requirement) -> str:
    return setup_py.render(text, manifest(), list(reqs))


def declared(text: str) -> dict[str, list[str]]:
    return setup_py.read(text, "setup.py")[0]


@pytest.mark.parametrize(
    "text, names",
    [
        ("R = ['a']\nR += ['b']\nR.insert(0, 'c')\nsetup(install_requires=R)\n", ["a", "b", "c"]),
        ("B = ['a']\nsetup(install_requires=[*B, 'b'])\n", ["a", "b"]),
        ("B = ('a',)\nsetup(install_requires=list(B) + ['b'])\n", ["a", "b"]),
        ("E = {'x': ['a']}\nsetup(install_requires=E['x'])\n", ["a"]),
        ("K = dict(name='p', install_requires=['a'])\nsetup(**K)\n", ["a"]),
        ("K = {'name': 'p'}\nK['install_requires'] = ['a']\nsetup(**K)\n", ["a"]),
        ("K = {'name': 'p'}\nK.update({'install_requires': ['a']})\nsetup(**K)\n", ["a"]),
        ("A = 'a>=1'\nsetup(install_requires=[A, 'b'])\n", ["a", "b"]),
        ("from x import REQS\nsetup(install_requires=REQS)\n", []),
    ],
)
def test_reading_follows_module_level_names(text, names):
    assert declared(text)["dependencies"] == names


def test_reading_follows_dicts_of_extras():
    text = (
        "EXTRAS = dict(plot=['matplotlib'])\n"
        "EXTRAS['test'] = ['pytest']\n"
        "EXTRAS['test'] += ['hypothesis']\n"
        "setup(extras_require=EXTRAS, tests_require=EXTRAS['test'])\n"
    )
    assert declared(text) == {
        "optional-dependencies.plot": ["matplotlib"],
        "optional-dependencies.test": ["pytest", "hypothesis"],
        "tests_require": ["pytest", "hypothesis"],
    }


@pytest.mark.parametrize(
    "text, files",
    [
        (
            "with open('requirements.txt') as f:\n    R = f.readlines()\nsetup(install_requires=R)\n",
            ["requirements.txt"],
        ),
        ("R = [l for l in open('reqs/base.in')]\nsetup(install_requires=R)\n", ["reqs/base.in"]),
        (
            "def reqs():\n    with open('requirements.txt') as f:\n        return f.read().split()\n"
            "setup(install_requires=reqs())\n",
            ["requirements.txt"],
        ),
        (
            "P = 'requirements/prod.txt'\ndef parse(p):\n    return open(p).readlines()\n"
            "setup(install_requires=parse(P))\n",
            ["requirements/prod.txt"],
        ),
        ("setup(install_requires=compute())\n", []),
    ],
)
def test_reading_finds_the_requirements_files_the_script_opens(text, files):
    _, data = setup_py.read(text, "setup.py")
    assert data["dynamic_dependencies_files"] == files


def test_writing_into_a_single_line_list_a_name_holds():
    text = 'REQS = ["b", "d"]\n\nsetup(name="x", install_requires=REQS)\n'
    assert render(text, req("a"), req("c")) == (
        'REQS = ["a", "b", "c", "d"]\n\nsetup(name="x", install_requires=REQS)\n'
    )


def test_writing_grown_lists_goes_to_the_definition_not_the_growth():
    text = (
        "REQS = [\n    'numpy',\n]\nif PY2:\n    REQS.append('futures')\n"
        "REQS += ['six']\nsetup(install_requires=REQS)\n"
    )
    new = render(text, req("requests"), req("six"), req("futures"))
    assert new == text.replace("    'numpy',\n", "    'numpy',\n    'requests',\n")


def test_writing_into_a_dict_of_extras():
    text = (
        "extras = {\n"
        '    "plot": ["matplotlib"],\n'
        "}\n"
        'extras["yaml"] = [\n    "pyyaml",\n]\n'
        "setup(\n    name='x',\n    extras_require=extras,\n)\n"
    )
    new = render(
        text,
        req("seaborn", "optional-dependencies.plot"),
        req("tomli", "optional-dependencies.yaml"),
        req("redis", "optional-dependencies.cache"),
    )
    assert new == (
        "extras = {\n"
        '    "plot": ["matplotlib", "seaborn"],\n'
        '    "cache": ["redis"],\n'
        "}\n"
        'extras["yaml"] = [\n    "pyyaml",\n    "tomli",\n]\n'
        "setup(\n    name='x',\n    extras_require=extras,\n)\n"
    )


def test_new_keywords_go_into_the_dict_setup_spreads():
    text = 'ARGS = {\n    "name": "x",\n}\nsetup(**ARGS)\n'
    assert render(text, req("a")) == (
        'ARGS = {\n    "name": "x",\n    "install_requires": ["a"],\n}\nsetup(**ARGS)\n'
    )
    text = "ARGS = dict(name='x')\nsetup(**ARGS)\n"
    new = render(text, req("a"), req("b", "optional-dependencies.io"))
    assert new == (
        "ARGS = dict(name='x', install_requires=['a'], extras_require={'io': ['b']})\n"
        "setup(**ARGS)\n"
    )


@pytest.mark.parametrize(
    "text, line, what",
    [
        ("setup(\n    install_requires=get(),\n)\n", 2, "get()"),
        ("R = sorted(set(x))\nsetup(install_requires=R)\n", 1, "sorted(set(x))"),
        ("R = [r for r in find()]\nsetup(install_requires=R)\n", 1, "[r for r in find()]"),
        ("R = ['a'] if X else ['b']\nsetup(install_requires=R)\n", 1, "['a'] if X else ['b']"),
        ("setup(name='x', **make_args())\n", 1, "make_args()"),
        ("A = {**base(), 'name': 'x'}\nsetup(**A)\n", 1, "base()"),
    ],
)
def test_a_value_built_at_run_time_is_not_written_and_named_with_its_line(text, line, what):
    with pytest.raises(NotWritable) as info:
        render(text, req("requests"))
    assert info.value.line == line
    assert f"line {line}: `{what}`" in str(info.value)
    assert "add requests by hand" in str(info.value)
    assert isinstance(info.value, ManifestError)


def test_every_value_built_at_run_time_is_named_in_one_report():
    text = "setup(\n    install_requires=get(),\n    extras_require=extras(),\n)\n"
    with pytest.raises(NotWritable) as info:
        render(text, req("a"), req("b", "optional-dependencies.io"))
    message = str(info.value)
    assert "install_requires" in message and "line 2" in message
    assert "extras_require" in message and "line 3" in message
    assert info.value.line == 2


def test_a_list_that_is_also_grown_at_run_time_keeps_its_literal_writable():
    text = "R = ['a']\nfor x in X:\n    R.append(x)\nsetup(install_requires=R)\n"
    assert render(text, req("b")) == text.replace("['a']", "['a', 'b']")


def test_names_local_to_the_function_that_calls_setup():
    text = "def main():\n    reqs = [\n        'a',\n    ]\n    setup(install_requires=reqs)\n"
    assert declared(text)["dependencies"] == ["a"]
    assert render(text, req("b")) == text.replace("'a',\n", "'a',\n        'b',\n")


@pytest.mark.parametrize(
    "text, names",
    [
        ("R = ['a']\nR = R + ['b']\nsetup(install_requires=R)\n", ["a", "b"]),
        ("R = ['a']\nR = sorted(R)\nsetup(install_requires=R)\n", ["a"]),
        ("A = B + ['a']\nB = A + ['b']\nsetup(install_requires=A)\n", None),
        ("A = ['a']\n" + "".join(f"A{i} = A + A\nA = A{i}\n" for i in range(40)), None),
    ],
)
def test_names_built_from_themselves_stay_cheap_and_bounded(text, names):
    text += "" if "setup(" in text else "setup(install_requires=A)\n"
    found = declared(text)["dependencies"]
    if names is not None:
        assert found == names


def test_a_file_the_scan_does_not_list_still_declares_its_names(tmp_path):
    """`open("deps.txt")`: no requirements manifest, so nothing can be written, but what the
    file lists is declared and not asked for again."""
    write_tree(
        tmp_path,
        {
            "setup.py": "from setuptools import setup\n"
            'setup(name="p", install_requires=open("deps.txt").read().splitlines())\n',
            "deps.txt": "requests\n",
            "p/__init__.py": "import numpy\nimport requests\n",
        },
    )
    result = infer_offline(tmp_path)
    reports = [str(d) for d in result.diagnostics if "setup.py" in str(d)]
    assert len(reports) == 1
    assert "read from deps.txt (line 2" in reports[0] and "add numpy by hand" in reports[0]


def test_alternatives_in_branches_are_all_read_and_all_written():
    text = (
        "if sys.version_info < (3,):\n    REQS = ['a', 'futures']\n"
        "else:\n    REQS = ['a']\nsetup(install_requires=REQS)\n"
    )
    assert declared(text)["dependencies"] == ["a", "futures", "a"]
    assert render(text, req("b")) == text.replace("'a'", "'a', 'b'")


def test_a_file_read_with_a_literal_fallback_is_the_file():
    text = (
        "try:\n    with open('requirements.txt') as f:\n        REQS = f.read().splitlines()\n"
        "except OSError:\n    REQS = []\nsetup(install_requires=REQS)\n"
    )
    _, data = setup_py.read(text, "setup.py")
    assert data["dynamic_dependencies_files"] == ["requirements.txt"]
    with pytest.raises(NotWritable, match="read from requirements.txt"):
        render(text, req("b"))


@pytest.mark.parametrize(
    "text, writable",
    [
        ("B = ['a']\nR = [r.strip() for r in B if r]\nsetup(install_requires=R)\n", True),
        ("B = ['a']\nR = [r + '>=1' for r in B]\nsetup(install_requires=R)\n", False),
        (
            "B = {'a': '1'}\nR = [f'{k}=={v}' for k, v in B.items()]\nsetup(install_requires=R)\n",
            False,
        ),
    ],
)
def test_a_comprehension_is_followed_only_when_it_keeps_the_items(text, writable):
    if writable:
        assert "'b'" in render(text, req("b"))
    else:
        with pytest.raises(NotWritable, match="line 2"):
            render(text, req("b"))
