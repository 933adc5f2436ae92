"""An import the index does not know: the distribution the repository's documents name,
taken when its wheel's file list (read by HTTP range requests) installs the module."""

from __future__ import annotations

import io
import json
import zipfile

from conftest import FIXTURES, write_tree
from werkzeug import Response

from depinfer.context import Context, Options
from depinfer.mapping import python_named
from depinfer.model import Ecosystem
from depinfer.pipeline import infer
from depinfer.registries import wheel_files

PYPI = Ecosystem.PYPI
FIXTURE = FIXTURES / "python" / "map-named-in-readme"


def _wheel(files: dict[str, str]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for name, text in files.items():
            zf.writestr(name, text)
    return buf.getvalue()


def _ranges(data: bytes, seen: list[str]):
    """A file server that answers Range requests with 206, as the registry's file host."""

    def handler(request):
        wanted = request.headers.get("Range", "")
        seen.append(wanted)
        first, _, last = wanted.removeprefix("bytes=").partition("-")
        if wanted.startswith("bytes=-"):
            part = data[-int(last) :]
        elif wanted:
            part = data[int(first) : int(last) + 1 if last else None]
        else:
            return Response(data, content_type="application/octet-stream")
        return Response(part, status=206, content_type="application/octet-stream")

    return handler


def _project(name: str, files: list[str]) -> dict:
    return {
        "info": {"name": name, "version": "1.1.0", "summary": "", "requires_dist": None},
        "releases": {
            "1.1.0": [
                {
                    "filename": f,
                    "url": f"../../files/{f}",  # relative, as a mirror may serve it
                    "upload_time_iso_8601": "2020-02-28T00:00:00Z",
                    "requires_python": None,
                    "yanked": False,
                }
                for f in files
            ]
        },
    }


def _serve(server, name: str, files: dict[str, bytes], seen: list[str]) -> None:
    doc = json.dumps(_project(name, list(files)))
    server.overrides[f"/pypi/{name}/json"] = lambda r: Response(
        doc, content_type="application/json"
    )
    for filename, data in files.items():
        server.overrides[f"/files/{filename}"] = _ranges(data, seen)


def test_central_directory_lists_the_wheel_in_one_or_two_ranges():
    small = _wheel({"truth/__init__.py": "", "truth/truth.py": "", "t-1.dist-info/RECORD": ""})
    reads: list[tuple[int, int | None]] = []

    def fetch(first, last):
        reads.append((first, last))
        return small[first:] if first < 0 else small[first : last + 1]

    names = wheel_files.central_names(fetch)
    assert names == ["truth/__init__.py", "truth/truth.py", "t-1.dist-info/RECORD"]
    assert len(reads) == 1  # the whole directory sat in the tail
    many = _wheel({f"pkg/m{i:05d}_{'x' * 40}.py": "" for i in range(2000)})
    reads.clear()
    big = wheel_files.central_names(
        lambda a, b: reads.append((a, b)) or (many[a:] if a < 0 else many[a : b + 1])
    )
    assert big is not None and len(big) == 2000 and len(reads) == 2
    assert wheel_files.central_names(lambda a, b: b"not a zip") is None


def test_module_paths_are_what_the_wheel_installs():
    paths = wheel_files.module_paths(
        [
            "truth/__init__.py",
            "truth/truth.py",
            "fast.cpython-311-x86_64-linux-gnu.so",
            "pkg-1.0.data/purelib/extra_mod.py",
            "pkg-1.0.data/scripts/tool",
            "pkg-1.0.dist-info/METADATA",
            "README.md",
        ]
    )
    assert paths == frozenset({"truth", "truth.truth", "fast", "extra_mod"})
    assert wheel_files.ships(paths, "truth.truth.sub")
    assert not wheel_files.ships(paths, "tru")


def test_the_client_reads_the_newest_wheels_file_list_once(registry_server, tmp_path):
    seen: list[str] = []
    wheel = _wheel({"truth/__init__.py": "", "truth/truth.py": ""})
    _serve(registry_server, "pytruth", {"pytruth-1.1.0-py3-none-any.whl": wheel}, seen)
    reg = registry_server.registries(tmp_path / "cache")
    assert reg.modules(PYPI, "pytruth") == frozenset({"truth", "truth.truth"})
    assert seen == ["bytes=-65536"]
    again = registry_server.registries(tmp_path / "cache")  # a later run: kept with the facts
    assert again.modules(PYPI, "pytruth") == frozenset({"truth", "truth.truth"})
    assert len(seen) == 1


def test_a_server_that_ignores_the_range_still_answers(registry_server, tmp_path):
    wheel = _wheel({"truth/__init__.py": ""})
    doc = json.dumps(_project("pytruth", ["pytruth-1.1.0-py3-none-any.whl"]))
    registry_server.overrides["/pypi/pytruth/json"] = lambda r: Response(
        doc, content_type="application/json"
    )
    registry_server.overrides["/files/pytruth-1.1.0-py3-none-any.whl"] = lambda r: Response(
        wheel, content_type="application/octet-stream"
    )
    reg = registry_server.registries(None)
    assert reg.modules(PYPI, "pytruth") == frozenset({"truth"})


def test_document_words_and_candidates(tmp_path):
    write_tree(
        tmp_path,
        {
            "README.md": "Needs:\n - pytruth\n - truth.truth paths\n",
            "ci/environment-tests.yml": "dependencies:\n  - act-atmos\n",
            "src/notes.md": "- notatruthpkg\n",  # not a documentation folder
        },
    )
    words = python_named.document_words(str(tmp_path))
    assert python_named.candidates("truth.truth", words) == [("pytruth", "README.md")]
    assert python_named.candidates("act", words) == [("act-atmos", "ci/environment-tests.yml")]
    assert python_named.candidates("io", words) == []  # too short to match words safely


def test_an_unknown_import_takes_the_distribution_the_readme_names(registry_server, tmp_path):
    seen: list[str] = []
    wheel = _wheel({"truth/__init__.py": "", "truth/truth.py": ""})
    _serve(registry_server, "pytruth", {"pytruth-1.1.0-py3-none-any.whl": wheel}, seen)
    # the same-named project exists and installs nothing (no files)
    empty = json.dumps({"info": {"name": "truth", "version": "0.0.1"}, "releases": {"0.0.1": []}})
    registry_server.overrides["/pypi/truth/json"] = lambda r: Response(
        empty, content_type="application/json"
    )
    opts = Options(versions=False)
    result = infer(FIXTURE, opts, ctx=Context(opts, registry_server.registries(tmp_path / "c")))
    names = {r.name for r in result.requirements}
    assert "pytruth" in names and "truth" not in names
    (chosen,) = [r for r in result.requirements if r.name == "pytruth"]
    why = " ".join(e.detail for e in chosen.evidence)
    assert "named in README.md" in why


def test_the_same_named_distribution_stays_when_it_installs_the_module(registry_server, tmp_path):
    seen: list[str] = []
    wheel = _wheel({"truth/__init__.py": "", "truth/truth.py": ""})
    _serve(registry_server, "truth", {"truth-1.1.0-py3-none-any.whl": wheel}, seen)
    _serve(registry_server, "pytruth", {"pytruth-1.1.0-py3-none-any.whl": wheel}, seen)
    opts = Options(versions=False)
    result = infer(FIXTURE, opts, ctx=Context(opts, registry_server.registries(tmp_path / "c")))
    names = {r.name for r in result.requirements}
    assert "truth" in names and "pytruth" not in names
    assert registry_server.count("/pypi/pytruth/json") == 0  # no other name was asked


def test_offline_runs_read_no_document(monkeypatch):
    def refuse(root):
        raise AssertionError("read")

    monkeypatch.setattr(python_named, "document_words", refuse)
    opts = Options(offline=True, versions=False)
    from depinfer.registries import Registries

    result = infer(FIXTURE, opts, ctx=Context(opts, Registries(offline=True)))
    assert "pytruth" not in {r.name for r in result.requirements}


def test_a_releases_wheel_is_read_once_for_a_name_and_the_answer_kept(registry_server, tmp_path):
    # the verify loop asks whether a release still takes a keyword: the wheel's Python files
    # are searched (one bounded range request), the answer is cached, the wheel is not
    seen: list[str] = []
    wheel = _wheel(
        {"wx/settings.py": "class Settings:\n    ts_si_units: bool = True\n", "wx/__init__.py": ""}
    )
    _serve(registry_server, "wx", {"wx-1.1.0-py3-none-any.whl": wheel}, seen)
    regs = registry_server.registries(tmp_path / "cache")
    assert regs.mentions(PYPI, "wx", "1.1.0", "ts_si_units") is True
    assert regs.mentions(PYPI, "wx", "1.1.0", "ts_shape") is False
    assert regs.mentions(PYPI, "wx", "9.9", "ts_si_units") is None  # no such release
    assert len(seen) == 2 and all(r.startswith("bytes=0-") for r in seen)
    again = registry_server.registries(tmp_path / "cache")
    assert again.mentions(PYPI, "wx", "1.1.0", "ts_si_units") is True
    assert len(seen) == 2  # from the cache
