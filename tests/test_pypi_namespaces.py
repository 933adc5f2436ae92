"""Namespace file lists (scripts/build_pypi_index.py --namespaces) and how the mapper uses
them: a core distribution for the modules it ships, a plug-in only for its sub-package."""

from __future__ import annotations

import io
import json
import zipfile

import pytest
from conftest import load_script
from werkzeug import Response

from depinfer.mapping.python_index import PypiIndex

# File lists of made-up distributions, shaped like the real namespaces they imitate.
WHEELS = {
    # azure: PEP 420 namespace, nobody ships azure/__init__.py; azure.storage and
    # azure.mgmt are shared folders (an old nspkg declares azure/mgmt/__init__.py)
    "az-core": ["azure/core/__init__.py", "azure/core/exceptions.py", "azure/core/pipeline/x.py"],
    "az-storage-blob": ["azure/storage/blob/__init__.py", "azure/storage/blob/_models.py"],
    "az-storage-queue": ["azure/storage/queue/__init__.py", "azure/storage/queue/_q.py"],
    "az-mgmt-nspkg": ["azure/mgmt/__init__.py"],
    "az-mgmt-compute": ["azure/mgmt/compute/__init__.py", "azure/mgmt/compute/models.py"],
    # sphinxcontrib: pkgutil-style, every plug-in declares sphinxcontrib/__init__.py; some
    # ship a package, some a single module
    "sc-napoleon": [
        "sphinxcontrib/__init__.py",
        "sphinxcontrib/napoleon/__init__.py",
        "sphinxcontrib/napoleon/docstring.py",
    ],
    "sc-httpdomain": [
        "sphinxcontrib/__init__.py",
        "sphinxcontrib/httpdomain.py",
        "sphinxcontrib/autohttp/flask.py",
    ],
    "sc-katex": ["sphinxcontrib/katex.py"],
    # a core regular package (ns/__init__.py plus its modules) and plug-ins adding
    # ns.providers.<name>; the meta-package `ns` ships no files
    "ns-core": [
        "ns/__init__.py",
        "ns/models/__init__.py",
        "ns/models/dag.py",
        "ns/settings.py",
        "ns/providers/__init__.py",
    ],
    "ns-providers-amazon": ["ns/providers/amazon/__init__.py", "ns/providers/amazon/hooks.py"],
    "ns-providers-http": ["ns/providers/http/__init__.py", "ns/providers/http/hooks.py"],
    # variants of one package: not a namespace
    "cv-python": ["cv/__init__.py", "cv/data/__init__.py", "cv/misc/version.py"],
    "cv-python-headless": ["cv/__init__.py", "cv/data/__init__.py", "cv/misc/version.py"],
    "cv-contrib": ["cv/__init__.py", "cv/data/__init__.py", "cv/misc/version.py", "cv/gapi.py"],
}
ROOTS = {
    "azure": ["az-core", "az-storage-blob", "az-storage-queue", "az-mgmt-nspkg", "az-mgmt-compute"],
    "sphinxcontrib": ["sc-napoleon", "sc-httpdomain", "sc-katex"],
    "ns": ["ns", "ns-core", "ns-providers-amazon", "ns-providers-http"],
    "cv": ["cv-python", "cv-python-headless", "cv-contrib"],
}


@pytest.fixture(scope="module")
def build():
    return load_script("build_pypi_index")


@pytest.fixture(scope="module")
def table(build):
    """The table the build step writes for the file lists above, on a pigar-like base."""
    names = [d for ds in ROOTS.values() for d in ds]
    data = {
        "sources": {},
        "ranks": {d: i for i, d in enumerate(sorted(set(names)), 1)},
        "unknown_tops": [],
        "modules": {root: list(dists) for root, dists in ROOTS.items()},
    }
    candidates = build.namespace_candidates(data["modules"], data["ranks"], set())
    keys, cores, read = build.namespace_table(candidates, WHEELS)
    return keys, cores, read


def _index(build, table, ranks: dict[str, int] | None = None) -> PypiIndex:
    keys, cores, _ = table
    modules = {root: list(dists) for root, dists in ROOTS.items()}
    for key, dists in keys.items():
        modules[key] = sorted(dists)
    for root, core in cores.items():
        modules[root] = sorted(set(modules[root]) | core)
    names = sorted({d for ds in modules.values() for d in ds})
    ranks = ranks or {d: i for i, d in enumerate(names, 1)}
    namespaces = {root: sorted(core) for root, core in cores.items()}
    return PypiIndex(modules, ranks, frozenset(), namespaces)


def test_namespaces_are_found_from_file_lists_and_variants_are_not(table):
    keys, cores, read = table
    assert set(read) == {"azure", "sphinxcontrib", "ns"}  # cv: variants of one package
    assert not any(k.startswith("cv.") for k in keys)
    assert read["ns"] == {"ns-core", "ns-providers-amazon", "ns-providers-http"}  # ns: no files


def test_each_sub_package_is_keyed_to_the_distribution_that_ships_it(table):
    keys, cores, _ = table
    assert keys["azure.core"] == {"az-core"}
    assert keys["azure.storage.blob"] == {"az-storage-blob"}
    assert keys["azure.mgmt.compute"] == {"az-mgmt-compute"}
    assert keys["azure.mgmt"] == {"az-mgmt-nspkg"}  # declares the shared folder
    assert "azure.storage" not in keys  # nobody ships modules there
    assert keys["sphinxcontrib.napoleon"] == {"sc-napoleon"}
    assert keys["sphinxcontrib.httpdomain"] == {"sc-httpdomain"}
    assert keys["sphinxcontrib.autohttp"] == {"sc-httpdomain"}
    assert keys["sphinxcontrib.katex"] == {"sc-katex"}
    # who ships files right in the root: nobody (PEP 420), every pkgutil-style plug-in,
    # the core of a regular package
    assert cores == {
        "azure": set(),
        "sphinxcontrib": {"sc-napoleon", "sc-httpdomain", "sc-katex"},
        "ns": {"ns-core"},
    }


def test_a_core_regular_package_keeps_its_modules_under_the_root(table):
    keys, _, _ = table
    # ns-core owns ns/__init__.py: its own sub-packages need no keys, the plug-ins' do
    assert not {"ns.models", "ns.settings"} & set(keys)
    assert keys["ns.providers.amazon"] == {"ns-providers-amazon"}
    assert keys["ns.providers"] == {"ns-core"}


def test_lookup_maps_core_modules_to_the_core_and_plugins_to_their_sub_package(build, table):
    # plug-ins ranked best: popularity alone would pick them
    ranks = {"ns-providers-amazon": 1, "ns-providers-http": 2, "ns": 3, "ns-core": 4}
    index = _index(build, table, ranks)
    assert index.lookup("ns.models.dag").providers == ["ns", "ns-core"]  # meta: no file list
    assert index.lookup("ns.providers.amazon.hooks").chosen == "ns-providers-amazon"
    assert index.lookup("ns.providers.http").chosen == "ns-providers-http"
    assert index.lookup("ns.providers.other").providers == ["ns-core"]
    assert index.lookup("ns.DAG").providers == ["ns", "ns-core"]  # `from ns import DAG`


def test_lookup_in_azure_and_sphinxcontrib_style_namespaces(build, table):
    index = _index(build, table)
    assert index.lookup("azure.core.exceptions").chosen == "az-core"
    assert index.lookup("azure.storage.blob").chosen == "az-storage-blob"
    assert index.lookup("azure.storage.queue._q").chosen == "az-storage-queue"
    assert index.lookup("azure.mgmt.compute.models").chosen == "az-mgmt-compute"
    assert index.lookup("sphinxcontrib.napoleon.docstring").chosen == "sc-napoleon"
    assert index.lookup("sphinxcontrib.httpdomain").chosen == "sc-httpdomain"
    assert index.lookup("sphinxcontrib.katex").chosen == "sc-katex"
    # a module no key names: those shipping files right in sphinxcontrib stay (one of
    # them may ship it, or it is a name from its __init__.py)
    assert len(index.lookup("sphinxcontrib.unknown").providers) == 3
    # in a PEP 420 root nobody does: nothing is left to decide by, so all stay
    assert len(index.lookup("azure.unknown").providers) == 5


def test_code_paths_ignore_other_roots_metadata_and_non_code(build):
    files = ["ns/a.py", "ns/b/c.so", "ns/b/py.typed", "other/x.py", "ns-1.0.dist-info/RECORD"]
    assert build.code_paths(files, "ns") == {("ns", "a"), ("ns", "b", "c")}


def _wheel_bytes(names: list[str]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for n in names:
            zf.writestr(n, "x = 1\n" * 50)
    return buf.getvalue()


def test_wheel_file_list_is_read_by_range_requests_and_cached(build, httpserver, tmp_path):
    blob = _wheel_bytes(
        ["ns/plugin/__init__.py", "ns/plugin/hooks.py", "ns_plugin.dist-info/RECORD"]
    )
    ranges: list[str] = []

    def serve(request):
        spec = request.headers.get("Range", "")
        ranges.append(spec)
        a, b = spec.removeprefix("bytes=").split("-")
        return Response(blob[int(a) : int(b) + 1], status=206)

    httpserver.expect_request("/files/ns_plugin-1.0-py3-none-any.whl").respond_with_handler(serve)
    meta = {
        "info": {
            "requires_dist": [
                "ns-core>=1",
                "ns-test; extra == 'test'",
                "tomli; python_version<'3.11'",
            ]
        },
        "urls": [
            {"packagetype": "sdist", "filename": "ns-plugin-1.0.tar.gz", "url": "x", "size": 1},
            {
                "packagetype": "bdist_wheel",
                "filename": "ns_plugin-1.0-py3-none-any.whl",
                # relative, as some indexes answer
                "url": "../../files/ns_plugin-1.0-py3-none-any.whl",
                "size": len(blob),
            },
        ],
    }
    httpserver.expect_request("/pypi/ns-plugin/json").respond_with_json(meta)
    base = httpserver.url_for("/pypi")
    entry = build.wheel_files("ns-plugin", base, tmp_path)
    assert entry["files"] == ["ns/plugin/__init__.py", "ns/plugin/hooks.py"]
    assert entry["requires"] == ["ns-core", "tomli"]  # not what an extra asks for
    assert ranges and all(r.startswith("bytes=") for r in ranges)
    cached = json.loads((tmp_path / "ns-plugin.json").read_text())
    assert cached == entry
    httpserver.clear()  # answered from the cache now
    assert build.wheel_files("ns-plugin", base, tmp_path) == entry


def test_the_roots_namesake_wins_a_sub_package_it_ships_with_a_split_off_wheel():
    # ns ships stubs for ns.core, ns-essentials the compiled module; the more downloaded
    # split-off wheel does not beat the root's namesake (nor does it for the root itself)
    ranks = {"ns-essentials": 1, "ns": 2}
    index = PypiIndex({"ns": ["ns"], "ns.core": ["ns-essentials", "ns"]}, ranks, frozenset())
    assert index.lookup("ns.core.x").chosen == "ns"
    assert index.lookup("ns.core.x").ambiguous


def test_candidates_are_indexed_distributions_only(build):
    modules = {"ns": ["a", "b"], "ns.x": ["c"], "solo": ["d"], "mpl.sub": ["e"]}
    ranks = {"a": 1, "b": 2, "ns-extra": 3, "other-ns-thing": 4, "nsx": 5}
    unknown = {"ns-extra", "other-ns-thing", "nsx"}
    found = build.namespace_candidates(modules, ranks, unknown)
    # providers of the root and of keys under it, and unknown-top ranked names holding
    # the root as a word; a root only one distribution provides is no candidate
    assert found == {"ns": ["a", "b", "ns-extra", "other-ns-thing", "c"]}


def test_a_namesake_meta_package_provides_what_its_requirements_ship(build, table):
    _, _, read = table
    candidates = {"ns": ["ns", "ns-core", "ns-providers-amazon"]}
    requires = {"ns": ["ns-core", "requests"], "ns-core": ["ns-providers-http"]}
    installs = build.installers(candidates, read, requires)
    assert installs == {"ns": ["ns-core"]}  # only the namesake's, only the root's own
    modules = {"ns": ["ns-core"], "ns.models": ["ns-core"], "ns.providers.amazon": ["ns-p"]}
    ranks = {"ns-core": 1, "ns": 2, "ns-p": 3}
    index = PypiIndex(modules, ranks, frozenset(), {"ns": ["ns-core"]}, installs)
    # the namesake joins, and its identity bonus lets it win over a close rank
    assert index.lookup("ns.models.dag").providers == ["ns", "ns-core"]
    assert index.lookup("ns.providers.amazon").providers == ["ns-p"]  # not installed by it


def test_wheel_top_levels_join_the_other_sources_providers(build, monkeypatch, tmp_path):
    """Source 6: a ranked distribution's wheel names a module pigar's database does not
    know (a stale entry): the module is keyed to it; a name already provided keeps its
    providers first; folders like tests/ and namespace roots are not keys."""
    files = {
        "pop": ["pop/__init__.py"],
        "py-md-table": ["mdTable/__init__.py", "mdTable/gen.py", "tests/test_x.py"],
        "rival": ["pop/__init__.py", "ns/extra/__init__.py"],
        "nowheel": [],
    }
    monkeypatch.setattr(
        build,
        "read_file_lists",
        lambda dists, cache: ({d: files[d] for d in dists if files[d]}, {}),
    )
    data = {
        "sources": {},
        "ranks": {"rival": 1, "pop": 2, "py-md-table": 3, "nowheel": 4},
        "unknown_tops": ["nowheel", "rival"],
        "modules": {"pop": ["pop"], "py_md_table": ["py-md-table"]},
        "namespaces": {"ns": []},
    }
    stats = build.add_wheel_tops(data, tmp_path)
    assert data["modules"]["mdTable"] == ["py-md-table"]
    assert data["modules"]["pop"] == ["pop", "rival"]  # the earlier source's provider first
    assert "tests" not in data["modules"] and "ns" not in data["modules"]
    assert data["modules"]["py_md_table"] == ["py-md-table"]  # added to, never removed
    assert data["unknown_tops"] == ["nowheel"]
    assert stats == {"read": 3, "new_names": 1, "left": 1}
