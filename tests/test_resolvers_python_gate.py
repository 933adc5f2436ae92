"""The Python resolve gate: what is written resolves (uv, for the project's oldest Python,
on Linux, as of the date). uv really resolves here, against tiny wheels this module writes
into a temporary folder (`--no-index --find-links`, through uv's own environment settings);
nothing reaches an index. Skipped only when uv is not installed."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest
from conftest import FIXTURES, copy_fixture, write_tree

from depinfer.context import Context, Options
from depinfer.model import Ecosystem, Evidence, Requirement, Section
from depinfer.pipeline import infer
from depinfer.registries import Registries
from depinfer.resolvers import python_gate
from depinfer.resolvers.python_versions import find_uv, uv_compile
from depinfer.scan import scan
from depinfer.versions import parse_as_of

pytestmark = pytest.mark.skipif(
    find_uv() is None, reason="uv is not installed: the resolve gate needs it to resolve"
)

PYPROJECT = """[project]
name = "app"
version = "0.1"
requires-python = ">=3.10"
dependencies = []

[project.optional-dependencies]
test = []
"""
AS_OF = "2024-06-01"


def write_wheel(
    folder: Path, name: str, version: str, requires=(), tag="py3-none-any", python=""
) -> None:
    """A wheel with nothing but its metadata: METADATA, WHEEL and RECORD in a zip."""
    dist = f"{name.replace('-', '_')}-{version}"
    info = f"{dist}.dist-info"
    files = {
        f"{info}/METADATA": f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n"
        + (f"Requires-Python: {python}\n" if python else "")
        + "".join(f"Requires-Dist: {r}\n" for r in requires),
        f"{info}/WHEEL": f"Wheel-Version: 1.0\nGenerator: tests\nRoot-Is-Purelib: true\nTag: {tag}\n",
    }
    with zipfile.ZipFile(folder / f"{dist}-{tag}.whl", "w") as z:
        for path, text in files.items():
            z.writestr(path, text)
        z.writestr(f"{info}/RECORD", "".join(f"{p},,\n" for p in [*files, f"{info}/RECORD"]))


@pytest.fixture
def wheels(tmp_path, monkeypatch):
    """A folder of wheels uv resolves from instead of an index (uv's own settings)."""
    folder = tmp_path / "wheels"
    folder.mkdir()
    monkeypatch.setenv("UV_NO_INDEX", "1")
    monkeypatch.setenv("UV_FIND_LINKS", str(folder))
    monkeypatch.setenv("UV_CACHE_DIR", str(tmp_path / "uv-cache"))
    return folder


class _NoIndex(Registries):
    """Registries that answer nothing (the stages then work from the shipped indexes) while
    the run itself is online, so the gate runs."""

    def __init__(self) -> None:
        super().__init__(offline=True)


def context(**options) -> Context:
    return Context(Options(as_of=AS_OF, **options), _NoIndex())


def req(name: str, spec: str = "", sites: int = 1, section=Section.RUNTIME, **kw) -> Requirement:
    evidence = [Evidence("import", f"app/m{i}.py", i + 1) for i in range(sites)]
    return Requirement(
        Ecosystem.PYPI, name, "pyproject.toml", section, spec, evidence=evidence, **kw
    )


def resolves(reqs: list[Requirement]) -> bool:
    text = "".join(r.name + r.spec + (f"; {r.markers}" if r.markers else "") + "\n" for r in reqs)
    ok, _, err = uv_compile(
        text,
        "3.10",
        parse_as_of(AS_OF, None),
        uv_args=["--python-platform", python_gate.PLATFORM],
    )
    return ok


def project(tmp_path: Path):
    return scan(write_tree(tmp_path / "repo", {"pyproject.toml": PYPROJECT, "app/m.py": ""}))


def messages(ctx: Context) -> str:
    return "\n".join(d.message for d in ctx.diagnostics)


def test_an_old_pin_beside_a_library_that_needs_newer_loses_its_upper_bound(tmp_path, wheels):
    for v in ("1.0", "2.0"):
        write_wheel(wheels, "pinned", v)
    write_wheel(wheels, "lib", "2.0", ["pinned>=2"])
    pin = req("pinned", ">=1.0,<2")
    pin.evidence.append(Evidence("pin-elsewhere", detail="pinned==1.0 found in the repository"))
    lib = req("lib", ">=2.0,<3")
    assert not resolves([pin, lib])
    ctx = context()
    out = python_gate.gate(project(tmp_path), [pin, lib], ctx)
    assert [r.name for r in out] == ["pinned", "lib"]
    assert pin.spec == ">=1.0" and lib.spec == ">=2.0,<3"
    assert "pinned>=1.0,<2 conflicts: upper bound dropped" in messages(ctx)
    assert any(e.rule == "resolve-gate" for e in pin.evidence)  # --explain shows it
    assert resolves(out)


def test_two_packages_needing_incompatible_lines_of_a_third_lose_the_weaker(tmp_path, wheels):
    for v in ("1.0", "2.0"):
        write_wheel(wheels, "third", v)
    write_wheel(wheels, "aa", "1.0", ["third<2"])
    write_wheel(wheels, "bb", "1.0", ["third>=2"])
    runs = []
    for _ in range(2):  # deterministic: the same answer each time
        aa, bb = req("aa", ">=1.0,<2", sites=3), req("bb", ">=1.0,<2", sites=1)
        ctx = context()
        out = python_gate.gate(project(tmp_path), [aa, bb], ctx)
        runs.append([r.name for r in out])
        assert "resolve gate: bb dropped, the least-evidenced of a conflict" in messages(ctx)
        assert resolves(out)
    assert runs == [["aa"], ["aa"]]


def test_a_conflict_takes_the_older_line_the_other_side_requires(tmp_path, wheels):
    for v in ("1.0", "2.0"):
        write_wheel(wheels, "third", v)
    write_wheel(wheels, "aa", "1.0", ["third<2"])
    write_wheel(wheels, "bb", "1.0", ["third<2"])
    write_wheel(wheels, "bb", "2.0", ["third>=2"])
    aa, bb = req("aa", ">=1.0,<2", sites=3), req("bb", ">=2.0,<3", sites=1)
    ctx = context()
    out = python_gate.gate(project(tmp_path), [aa, bb], ctx)
    assert [r.name for r in out] == ["aa", "bb"]
    assert bb.spec == ">=1.0,<2"  # the line the resolver took, written as a line
    assert resolves(out)


def test_a_warm_gate_starts_no_uv_once_the_index_answered(tmp_path, wheels, monkeypatch):
    """The index's answers are kept; the cache's own failed answer is not, so a warm run
    must not ask the cache first when the index's answer for the set is kept."""
    import subprocess

    from depinfer.resolvers import python_versions

    for v in ("1.0", "2.0"):
        write_wheel(wheels, "pinned", v)
    write_wheel(wheels, "lib", "2.0", ["pinned>=2"])
    started: list[list[str]] = []
    real_run = subprocess.run

    def counting(cmd, *a, **k):
        started.append(cmd)
        return real_run(cmd, *a, **k)

    monkeypatch.setattr(python_versions.subprocess, "run", counting)
    specs = []
    for _ in range(2):
        pin, lib = req("pinned", ">=1.0,<2"), req("lib", ">=2.0,<3")
        pin.evidence.append(Evidence("pin-elsewhere", detail="pinned==1.0 found elsewhere"))
        python_gate.gate(project(tmp_path), [pin, lib], context())
        specs.append(pin.spec)
        if len(specs) == 1:
            assert started  # the cold run asked uv
            started.clear()
    assert specs == [">=1.0", ">=1.0"]
    assert started == []  # the warm run answered from what was kept


def test_a_name_the_manifest_declares_already_resolves_as_declared(tmp_path, wheels):
    # the manifest's own `aa` line is kept as written, so it is what the set resolves
    # with: our line for the name is not written, and nothing is relaxed for it
    write_wheel(wheels, "aa", "1.0")
    tree = write_tree(
        tmp_path / "repo",
        {"pyproject.toml": PYPROJECT.replace("dependencies = []", 'dependencies = ["aa"]')},
    )
    aa = req("aa", ">=2.0,<3")
    ctx = context()
    assert python_gate.gate(scan(tree), [aa], ctx) == [aa]
    assert aa.spec == ">=2.0,<3" and "resolve gate" not in messages(ctx)


def test_the_line_another_package_requires_is_relaxed_before_its_depender(tmp_path, wheels):
    # lib 2.0 requires third<3 (botocore and python-dateutil 3); lib 1.0 predates that
    # requirement. Relaxing lib would send the resolver back to lib 1.0; the older line of
    # third that lib requires is what to take, though third is the better evidenced
    for v in ("2.0", "3.0"):
        write_wheel(wheels, "third", v)
    write_wheel(wheels, "lib", "1.0")
    write_wheel(wheels, "lib", "2.0", ["third<3"])
    lib, third = req("lib", ">=2.0", sites=1), req("third", ">=3.0", sites=3)
    ctx = context()
    out = python_gate.gate(project(tmp_path), [lib, third], ctx)
    assert lib.spec == ">=2.0" and third.spec == ">=2.0,<3"
    assert "third>=3.0 conflicts: lower bound dropped" in messages(ctx)
    assert resolves(out)


def test_a_line_with_no_files_for_the_oldest_python_gives_way_to_the_older_one(tmp_path, wheels):
    write_wheel(wheels, "newlib", "1.0")
    write_wheel(wheels, "newlib", "2.0", tag="cp311-cp311-manylinux_2_17_x86_64")
    lib = req("newlib", ">=2.0,<3")
    ctx = context()
    out = python_gate.gate(project(tmp_path), [lib], ctx)  # requires-python >=3.10
    assert lib.spec == ">=1.0,<2"
    assert "upper bound dropped" not in messages(ctx)  # straight to the older line
    assert "newlib>=2.0,<3 conflicts: lower bound dropped" in messages(ctx)
    assert resolves(out)


def test_a_package_for_newer_pythons_only_gets_their_marker_not_dropped(tmp_path, wheels):
    # the project admits 3.10; every release of `newonly` needs 3.12: the code imports it,
    # so the project runs where it installs
    write_wheel(wheels, "newonly", "1.0", python=">=3.12")
    write_wheel(wheels, "newonly", "2.0", python=">=3.12")
    write_wheel(wheels, "aa", "1.0")
    new, aa = req("newonly", "", sites=1), req("aa", ">=1.0,<2", sites=3)
    ctx = context()
    out = python_gate.gate(project(tmp_path), [new, aa], ctx)
    assert [r.name for r in out] == ["newonly", "aa"]
    assert new.markers == 'python_version >= "3.12"'
    assert 'newonly needs Python 3.12 or newer: `; python_version >= "3.12"` added' in messages(ctx)
    assert resolves(out)


def test_a_package_with_windows_wheels_only_gets_the_windows_marker(tmp_path, wheels):
    write_wheel(wheels, "winonly", "1.0", tag="py3-none-win_amd64")
    write_wheel(wheels, "lib", "1.0")
    win, lib = req("winonly"), req("lib")
    ctx = context()
    out = python_gate.gate(project(tmp_path), [win, lib], ctx)
    assert win.markers == 'sys_platform == "win32"' and lib.markers is None
    assert "winonly has files for windows only" in messages(ctx)
    assert resolves(out)


def test_wheels_for_a_newer_glibc_install_where_the_test_job_runs(tmp_path, wheels):
    """A package whose Linux wheels need glibc 2.34 (and that has Windows ones too) is for
    Linux as the CI's Ubuntu runs it: no marker, nothing dropped."""
    write_wheel(wheels, "newglibc", "1.0", tag="py3-none-manylinux_2_34_x86_64")
    write_wheel(wheels, "newglibc", "1.0", tag="py3-none-win_amd64")
    entry = req("newglibc")
    ctx = context()
    out = python_gate.gate(project(tmp_path), [entry], ctx)
    assert [r.name for r in out] == ["newglibc"] and entry.markers is None
    assert "has files for" not in messages(ctx)


def test_test_group_entries_resolve_with_the_runtime_ones(tmp_path, wheels):
    for v in ("1.0", "2.0"):
        write_wheel(wheels, "third", v)
    write_wheel(wheels, "aa", "1.0", ["third<2"])
    write_wheel(wheels, "bb", "1.0", ["third>=2"])
    aa = req("aa", sites=1)
    bb = req("bb", sites=5, section=Section.DEV, group="optional-dependencies.test")
    docs = req("third", ">=2", section=Section.DEV, group="optional-dependencies.docs")
    out = python_gate.gate(project(tmp_path), [aa, bb, docs], context())
    # the test extra is installed with the runtime set; a runtime need outweighs it
    assert [r.name for r in out] == ["aa", "third"]


def test_the_gate_does_not_run_offline_or_names_only(tmp_path, wheels):
    write_wheel(wheels, "aa", "1.0", ["third<2"])  # third does not exist: would not resolve
    aa = req("aa", ">=1.0,<2")
    ctx = context(offline=True)
    assert python_gate.gate(project(tmp_path), [aa], ctx) == [aa]
    assert "resolve gate skipped (offline)" in messages(ctx)
    ctx = context(versions=False)  # --names-only (and --check, which runs names only)
    assert python_gate.gate(project(tmp_path), [aa], ctx) == [aa]
    assert aa.spec == ">=1.0,<2" and not ctx.diagnostics


def test_without_uv_the_gate_says_so_and_writes_as_inferred(tmp_path, monkeypatch):
    monkeypatch.setattr(python_gate, "find_uv", lambda: None)
    aa = req("aa")
    ctx = context()
    assert python_gate.gate(project(tmp_path), [aa], ctx) == [aa]
    assert "resolve gate skipped: uv is not installed" in messages(ctx)


def test_what_the_gate_cannot_judge_is_written_as_inferred(tmp_path, wheels):
    aa = req("missing-from-the-index")
    ctx = context()
    assert python_gate.gate(project(tmp_path), [aa], ctx) == [aa]
    assert "resolve gate could not judge" in messages(ctx)


def test_end_to_end_the_written_manifest_resolves(tmp_path, wheels):
    """fixtures/python/res-resolve-gate: an old urllib3 pin in CI beside a requests line
    that needs urllib3 2, a Windows-only pywin32, PyInstaller in a build script, an optional
    YAML import the tests exercise."""
    for v in ("1.26.0", "2.0.0"):
        write_wheel(wheels, "urllib3", v)
    write_wheel(wheels, "requests", "2.31.0", ["urllib3>=2"])
    write_wheel(wheels, "pywin32", "306", tag="cp310-cp310-win_amd64")
    for name, v in (("pyinstaller", "6.0"), ("pyyaml", "6.0"), ("pytest", "8.0")):
        write_wheel(wheels, name, v)
    root = copy_fixture("python", "res-resolve-gate", tmp_path / "repo")
    ctx = context()
    result = infer(root, ctx.options, ctx=ctx)
    written = {(r.name, r.group): r for r in result.requirements}
    assert ("pyinstaller", None) not in written  # a packager: never a runtime dependency
    assert written[("pyinstaller", "optional-dependencies.dev")].section == Section.DEV
    assert written[("pyyaml", "optional-dependencies.test")].section == Section.DEV
    assert written[("pywin32", None)].markers == 'sys_platform == "win32"'
    assert "<" not in written[("urllib3", None)].spec
    runtime_and_test = [r for r in result.requirements if r.group != "optional-dependencies.dev"]
    assert resolves(runtime_and_test)
    assert not [d for d in result.diagnostics if d.level == "error"]


def test_the_fixture_is_what_the_end_to_end_test_reads():
    assert (FIXTURES / "python" / "res-resolve-gate" / "pyproject.toml").is_file()


def test_a_resolve_that_does_not_answer_is_reported_not_taken_for_success(tmp_path, monkeypatch):
    monkeypatch.setattr(
        python_gate, "uv_compile", lambda *a, **k: (True, "", "resolve skipped: timed out")
    )
    aa = req("aa", ">=1.0,<2")
    ctx = context()
    assert python_gate.gate(project(tmp_path), [aa], ctx) == [aa]
    assert "resolve gate could not judge the project: resolve skipped: timed out" in messages(ctx)


def test_uv_cache_answers_first_and_only_a_failure_asks_the_index(tmp_path, monkeypatch):
    """The gate asks uv offline first; a set the cache resolves needs no index, and a set it
    cannot resolve from the cache is asked online (a cache may only lack a version)."""
    calls: list[bool] = []

    def stand_in(text, python, as_of, uv_args=None, **kw):
        offline = "--offline" in (uv_args or [])
        calls.append(offline)
        if offline and "bb" in text:
            return False, "", "Because bb was not found in the cache and you require bb, ..."
        return True, "".join(line.split(">")[0] + "==1.0\n" for line in text.splitlines()), ""

    monkeypatch.setattr(python_gate, "uv_compile", stand_in)
    aa = req("aa", ">=1.0,<2")
    assert python_gate.gate(project(tmp_path), [aa], context()) == [aa]
    assert calls == [True]
    calls.clear()
    bb = req("bb", ">=1.0,<2")
    assert python_gate.gate(project(tmp_path), [bb], context()) == [bb]
    assert calls == [True, False]


def test_a_name_the_index_serves_nothing_for_is_dropped_and_the_rest_written(tmp_path, monkeypatch):
    # the registry's metadata knows `ghost` (a project page with no files) and uv, asking
    # the index, finds nothing to install: no install of the set could succeed with it
    def stand_in(text, python, as_of, uv_args=None, **kw):
        if "--offline" in (uv_args or []) or "ghost" not in text:
            ok = "ghost" not in text
            return ok, "aa==1.0\n" if ok else "", "" if ok else "not found in the cache"
        return (
            False,
            "",
            (
                "  × No solution found when resolving dependencies:\n  ╰─▶ Because ghost was not "
                "found in the package registry and you require ghost, we can conclude that your "
                "requirements are unsatisfiable."
            ),
        )

    monkeypatch.setattr(python_gate, "uv_compile", stand_in)
    aa, ghost = req("aa", ">=1.0"), req("ghost", sites=3)
    ctx = context()
    assert python_gate.gate(project(tmp_path), [aa, ghost], ctx) == [aa]
    assert "ghost dropped, the package index has nothing to install for it" in messages(ctx)
    assert any(ev.rule == "resolve-gate" for ev in ghost.evidence)


def test_a_uv_that_cannot_name_the_ci_platform_is_asked_for_plain_linux(
    tmp_path, wheels, monkeypatch
):
    """An older uv refuses `--python-platform x86_64-manylinux_2_35` as an argument: the
    gate asks it for its plain `linux` instead of taking the refusal for a conflict."""
    monkeypatch.setattr(python_gate, "_REFUSED", set())
    monkeypatch.setattr(python_gate, "PLATFORM", "x86_64-manylinux_9_99")  # no uv names it
    write_wheel(wheels, "lib", "1.0")
    entry = req("lib")
    ctx = context()
    out = python_gate.gate(project(tmp_path), [entry], ctx)
    assert [r.name for r in out] == ["lib"] and entry.markers is None
    assert "could not judge" not in messages(ctx)
    assert python_gate._REFUSED == {"x86_64-manylinux_9_99"}


CI_MATRIX = """jobs:
  test:
    strategy:
      matrix:
        python-version: ["3.10", "3.13"]
"""


def ci_project(tmp_path: Path):
    return scan(
        write_tree(
            tmp_path / "repo",
            {
                "pyproject.toml": PYPROJECT,
                "app/m.py": "",
                ".github/workflows/ci.yml": CI_MATRIX,
            },
        )
    )


def resolves_on(reqs: list[Requirement], python: str) -> bool:
    text = "".join(r.name + r.spec + (f"; {r.markers}" if r.markers else "") + "\n" for r in reqs)
    ok, _, _ = uv_compile(
        text, python, parse_as_of(AS_OF, None), uv_args=["--python-platform", python_gate.PLATFORM]
    )
    return ok


def test_the_set_resolves_on_the_newest_python_the_ci_tests_on_too(tmp_path, wheels):
    # the old line has builds for the oldest Python only, none for the CI's newest job
    write_wheel(wheels, "oldpin", "1.0", tag="cp310-cp310-manylinux_2_17_x86_64")
    write_wheel(wheels, "oldpin", "2.0")
    pin = req("oldpin", ">=1.0,<2")
    pin.evidence.append(Evidence("pin-elsewhere", detail="oldpin==1.0 found in the repository"))
    assert resolves_on([pin], "3.10") and not resolves_on([pin], "3.13")
    ctx = context()
    out = python_gate.gate(ci_project(tmp_path), [pin], ctx)
    assert [r.name for r in out] == ["oldpin"] and pin.spec == ">=2.0,<3"
    assert "oldpin>=1.0,<2 conflicts: lower bound dropped" in messages(ctx)
    assert resolves_on(out, "3.10") and resolves_on(out, "3.13")


def test_a_set_only_the_oldest_python_installs_is_written_with_a_warning(tmp_path, wheels):
    write_wheel(wheels, "legacy", "1.0", tag="cp310-cp310-manylinux_2_17_x86_64")
    lib = req("legacy", ">=1.0,<2")
    ctx = context()
    out = python_gate.gate(ci_project(tmp_path), [lib], ctx)
    assert [r.name for r in out] == ["legacy"] and lib.spec == ">=1.0,<2"  # changes undone
    assert "conflicts" not in messages(ctx)
    assert "resolve for Python 3.10 but not for Python 3.13, which its CI tests on" in messages(ctx)
    assert not any(d.level == "error" for d in ctx.diagnostics)


def test_without_a_newer_tested_python_the_gate_resolves_once(tmp_path, wheels, monkeypatch):
    write_wheel(wheels, "aa", "1.0")
    asked: list[str | None] = []
    real = python_gate._Run.compile

    def spy(self, entries, platform=None, offline=False):
        asked.append(self.python)
        return real(self, entries, platform, offline)

    monkeypatch.setattr(python_gate._Run, "compile", spy)
    python_gate.gate(project(tmp_path), [req("aa", ">=1.0,<2")], context())
    assert set(asked) == {"3.10"}
    asked.clear()
    python_gate.gate(ci_project(tmp_path), [req("aa", ">=1.0,<2")], context())
    assert set(asked) == {"3.10", "3.13"}


def test_a_set_uv_did_not_answer_for_is_not_asked_again_for_the_tested_python(
    tmp_path, wheels, monkeypatch
):
    # no answer in time (sdists to build for their metadata): a second Python would cost
    # the same wait for nothing better than the same warning
    asked: list[str | None] = []

    def slow(self, entries, platform=None, offline=False):
        asked.append(self.python)
        return True, "", "resolve skipped: timed out after 120 seconds"

    monkeypatch.setattr(python_gate._Run, "compile", slow)
    aa = req("aa", ">=1.0,<2")
    ctx = context()
    assert python_gate.gate(ci_project(tmp_path), [aa], ctx) == [aa]
    assert set(asked) == {"3.10"}
    assert "not asked again for Python 3.13" in messages(ctx)


def test_a_line_the_newer_python_needs_is_not_taken_from_the_oldest(tmp_path, wheels):
    # 1.0 has a build for 3.10 only; 2.0 installs on 3.13 but needs Python 3.11+: no one
    # line installs on both, so the set stays as it resolves for the oldest
    write_wheel(wheels, "split", "1.0", tag="cp310-cp310-manylinux_2_17_x86_64")
    write_wheel(wheels, "split", "2.0", python=">=3.11")
    lib = req("split", ">=1.0,<2")
    ctx = context()
    out = python_gate.gate(ci_project(tmp_path), [lib], ctx)
    assert [r.name for r in out] == ["split"] and lib.spec == ">=1.0,<2"
    assert "resolve for Python 3.10 but not for Python 3.13" in messages(ctx)
    assert not any(e.rule == "resolve-gate" for e in lib.evidence)


def test_a_tested_python_uv_cannot_judge_leaves_the_set_as_resolved(tmp_path, wheels, monkeypatch):
    write_wheel(wheels, "oldpin", "1.0", tag="cp310-cp310-manylinux_2_17_x86_64")
    write_wheel(wheels, "oldpin", "2.0")
    pin = req("oldpin", ">=1.0,<2")
    real = python_gate._Run.compile
    calls: list[str | None] = []

    def flaky(self, entries, platform=None, offline=False):
        if self.python == "3.13" and not offline:
            calls.append(self.python)
            if len(calls) > 1:  # the second question about 3.13 times out
                return True, "", "resolve skipped: timed out"
        return real(self, entries, platform, offline)

    monkeypatch.setattr(python_gate._Run, "compile", flaky)
    ctx = context()
    out = python_gate.gate(ci_project(tmp_path), [pin], ctx)
    assert [r.name for r in out] == ["oldpin"] and pin.spec == ">=1.0,<2"  # changes undone
    assert "resolve gate could not judge the project" in messages(ctx)
