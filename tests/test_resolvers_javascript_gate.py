"""The npm resolve gate against npm itself, pointed at a synthesised registry on loopback.

The packuments are made here (versions, publish times, peers); their tarball URLs point at
the same server, which refuses them: `npm install --package-lock-only` must never fetch one
(each test checks that no tarball was asked for)."""

import json
import os
import shutil
import subprocess

import pytest
from conftest import copy_fixture, write_tree
from werkzeug import Response

from depinfer.context import Context, Options
from depinfer.model import Ecosystem
from depinfer.pipeline import infer, write_edits
from depinfer.registries import Registries
from depinfer.report import explain_report
from depinfer.resolvers.javascript_gate import Failure, parse_failure, sanitized

needs_npm = pytest.mark.skipif(shutil.which("npm") is None, reason="npm is not installed")
AS_OF = "2024-06-01"


def _packument(base, name, releases):
    versions, times = {}, {"created": "2020-01-01T00:00:00.000Z"}
    for i, (version, fields) in enumerate(releases):
        fields = dict(fields)
        when = fields.pop("_time", None)
        versions[version] = {
            "name": name,
            "version": version,
            "main": "index.js",
            "dist": {
                "tarball": f"{base}/{name}/-/{name}-{version}.tgz",
                "integrity": "sha512-" + "A" * 86 + "==",
            },
            **fields,
        }
        times[version] = when or f"20{21 + i // 12}-{i % 12 + 1:02d}-01T00:00:00.000Z"
    times["modified"] = "2023-12-31T00:00:00.000Z"
    return {
        "name": name,
        "dist-tags": {"latest": releases[-1][0]},
        "versions": versions,
        "time": times,
    }


def _peer(**ranges):
    return {"peerDependencies": ranges}


PACKAGES = {
    "host": [("1.0.0", {}), ("2.0.0", {}), ("3.0.0", {})],
    "host-plugin": [
        ("1.0.0", _peer(host="^1.0.0")),
        ("2.0.0", _peer(host="^2.0.0")),
        ("3.0.0", _peer(host="^3.0.0")),
    ],
    # its 2.0.0 came out after the as-of date (a repository ahead of its commit date)
    "late": [("1.0.0", {}), ("2.0.0", {"_time": "2025-01-01T00:00:00.000Z"})],
    "host-widget": [("1.0.0", _peer(host="^1.0.0")), ("1.1.0", _peer(host="^1.0.0"))],
    # peers host-widget only when it is there
    "widget-theme": [
        (
            "1.0.0",
            {
                **_peer(**{"host-widget": "^2.0.0"}),
                "peerDependenciesMeta": {"host-widget": {"optional": True}},
            },
        )
    ],
}


@pytest.fixture
def npm_registry(httpserver, tmp_path, monkeypatch):
    """(Registries, hits): the synthesised registry, and the paths asked of it."""
    base = httpserver.url_for("/").rstrip("/")
    hits = []

    def handler(request):
        hits.append(request.path)
        name = request.path.lstrip("/").replace("%2F", "/").replace("%2f", "/")
        if name in PACKAGES:
            body = json.dumps(_packument(base, name, PACKAGES[name]))
            return Response(body, 200, content_type="application/json")
        return Response("not found", 404)

    import re

    httpserver.expect_request(re.compile(".*")).respond_with_handler(handler)
    # npm's own cache and config stay in the test's folder
    monkeypatch.setenv("npm_config_cache", str(tmp_path / "npm-cache"))
    userconfig = tmp_path / "npmrc"
    userconfig.write_text("", encoding="utf-8")
    monkeypatch.setenv("npm_config_userconfig", str(userconfig))
    registries = Registries(
        endpoints={Ecosystem.NPM: base + "/"}, cache_dir=str(tmp_path / "cache"), timeout=5.0
    )
    return registries, hits, base


def _infer_and_write(root, registries, **options):
    options = Options(as_of=AS_OF, write=True, languages=("javascript",), **options)
    ctx = Context(options=options, registries=registries)
    result = infer(root, options, ctx=ctx)
    write_edits(root, result.edits, ctx)
    return result


def _npm_resolves(root, base):
    proc = subprocess.run(
        [
            "npm",
            "install",
            "--package-lock-only",
            "--ignore-scripts",
            "--no-audit",
            "--no-fund",
            f"--registry={base}/",
        ],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=120,
    )
    return proc.returncode == 0, proc.stderr


@needs_npm
def test_a_peer_conflict_is_relaxed_reported_and_the_written_set_resolves(tmp_path, npm_registry):
    registries, hits, base = npm_registry
    root = copy_fixture("javascript", "peer-conflict", tmp_path / "repo")
    result = _infer_and_write(root, registries)
    written = json.loads((root / "package.json").read_text(encoding="utf-8"))
    deps = written["dependencies"]
    # the declared host stays; the plugin takes the release that supports it
    assert deps["host"] == "^2.0.0"
    assert deps["host-plugin"] == "^2.0.0"
    # no widget release supports host 2: the least-evidenced side of the conflict goes
    assert "host-widget" not in deps
    messages = [d.message for d in result.diagnostics]
    assert any("'host-plugin' written as ^2.0.0" in m and "host@^3.0.0" in m for m in messages)
    assert any("'host-widget' not written" in m and "host@^1.0.0" in m for m in messages)
    assert "moved to ^2.0.0" in explain_report(result, "host-plugin")
    assert "npm cannot resolve" in explain_report(result, "host-widget")
    ok, err = _npm_resolves(root, base)
    assert ok, err
    assert not [h for h in hits if h.endswith(".tgz")]  # lock-only never fetches a tarball


@needs_npm
def test_a_host_we_write_moves_to_the_line_a_declared_plugin_peers(tmp_path, npm_registry):
    registries, hits, base = npm_registry
    manifest = {
        "name": "app",
        "version": "1.0.0",
        "private": True,
        "devDependencies": {"host-plugin": "^2.0.0"},
    }
    root = write_tree(
        tmp_path / "repo",
        {"package.json": json.dumps(manifest), "index.js": 'import host from "host";\nhost();\n'},
    )
    result = _infer_and_write(root, registries)
    deps = json.loads((root / "package.json").read_text(encoding="utf-8"))["dependencies"]
    assert deps == {"host": "^2.0.0"}  # the newest host is 3; the declared plugin peers 2
    assert any(
        "'host' written as ^2.0.0" in d.message and "host-plugin@2.0.0" in d.message
        for d in result.diagnostics
    )
    ok, err = _npm_resolves(root, base)
    assert ok, err
    assert not [h for h in hits if h.endswith(".tgz")]


@needs_npm
def test_a_declared_release_newer_than_the_as_of_date_lifts_the_date_cap(
    tmp_path, npm_registry, monkeypatch
):
    from depinfer.resolvers import javascript_precheck

    registries, hits, base = npm_registry
    # the check before npm judges this without the cap too (its own test): npm's side is
    # what is tested here
    monkeypatch.setattr(javascript_precheck.Check, "run", lambda self: ["forced"])
    manifest = {
        "name": "app",
        "version": "1.0.0",
        "private": True,
        "dependencies": {"late": "^2.0.0"},
    }
    root = write_tree(
        tmp_path / "repo",
        {"package.json": json.dumps(manifest), "index.js": 'import host from "host";\nhost();\n'},
    )
    result = _infer_and_write(root, registries)
    messages = [d.message for d in result.diagnostics]
    assert any("late@^2.0.0" in m and "date cap lifted" in m for m in messages)
    assert any(m == "npm resolves the written set" for m in messages)
    assert not [h for h in hits if h.endswith(".tgz")]


@needs_npm
def test_a_pnpm_workspace_and_an_app_outside_it_resolve_with_their_local_packages(
    tmp_path, npm_registry, monkeypatch
):
    from depinfer.resolvers import javascript_precheck

    registries, hits, base = npm_registry
    # nothing written here can conflict: npm is made to run anyway, as it is what's tested
    monkeypatch.setattr(javascript_precheck.Check, "run", lambda self: ["forced"])
    core = {"name": "@acme/core", "version": "1.0.0", "main": "index.js"}
    app = {"name": "@acme/app", "version": "1.0.0", "private": True}
    app["dependencies"] = {"@acme/core": "workspace:*"}
    docs = {"name": "docs", "private": True, "dependencies": {"@acme/core": "^1.0.0"}}
    root = write_tree(
        tmp_path / "repo",
        {
            "package.json": json.dumps({"name": "mono", "private": True}),
            "pnpm-workspace.yaml": "packages:\n  - packages/*\n",
            "packages/core/package.json": json.dumps(core),
            "packages/core/index.js": 'import host from "host";\nexport default host;\n',
            "packages/app/package.json": json.dumps(app),
            "packages/app/index.js": 'import core from "@acme/core";\nimport p from "host-plugin";\n',
            "docs/package.json": json.dumps(docs),
            "docs/index.js": 'import core from "@acme/core";\nimport host from "host";\n',
        },
    )
    result = _infer_and_write(root, registries)
    resolved = {d.file for d in result.diagnostics if d.message == "npm resolves the written set"}
    assert resolved == {"package.json", "docs/package.json"}
    assert not [d for d in result.diagnostics if d.level == "warning"]
    assert not [h for h in hits if "acme" in h or h.endswith(".tgz")]  # linked, never fetched


def test_the_gate_is_skipped_offline_with_a_diagnostic(tmp_path):
    root = copy_fixture("javascript", "peer-conflict", tmp_path / "repo")
    options = Options(offline=True, languages=("javascript",))
    ctx = Context(options=options, registries=Registries(offline=True))
    result = infer(root, options, ctx=ctx)
    assert any("npm resolve gate skipped: offline" in d.message for d in result.diagnostics)


def test_names_only_and_check_runs_do_not_resolve(tmp_path, monkeypatch):
    from depinfer.resolvers import javascript_gate

    monkeypatch.setattr(javascript_gate, "gate", lambda *a, **k: pytest.fail("gate ran"))
    root = copy_fixture("javascript", "peer-conflict", tmp_path / "repo")
    options = Options(offline=True, versions=False, languages=("javascript",))
    ctx = Context(options=options, registries=Registries(offline=True))
    result = infer(root, options, ctx=ctx)
    assert not any("resolve gate" in d.message for d in result.diagnostics)


def test_npm_missing_degrades_to_a_diagnostic(tmp_path, npm_registry, monkeypatch):
    from depinfer.resolvers import javascript_gate

    registries, _, _ = npm_registry
    monkeypatch.setattr(javascript_gate, "npm_binary", lambda: None)
    root = copy_fixture("javascript", "peer-conflict", tmp_path / "repo")
    result = _infer_and_write(root, registries)
    assert any("npm is not installed" in d.message for d in result.diagnostics)
    deps = json.loads((root / "package.json").read_text(encoding="utf-8"))["dependencies"]
    assert deps["host-plugin"] == "^3.0.0"  # unchecked: the resolver's own choice


def test_npm_errors_are_read_from_its_json_and_its_stderr():
    detail = (
        "While resolving: x@1.0.0\nFound: host@2.0.0\nnode_modules/host\n"
        '  host@"^2.0.0" from the root project\n\nCould not resolve dependency:\n'
        'peer host@"^1.0.0" from plugin@1.0.0\nnode_modules/plugin\n'
        '  plugin@"^1.0.0" from the root project\n'
    )
    out = json.dumps({"error": {"code": "ERESOLVE", "summary": "unable", "detail": detail}})
    f = parse_failure(out, "")
    assert (f.code, f.host, f.host_version, f.wanted, f.requirer) == (
        "ERESOLVE",
        "host",
        "2.0.0",
        "^1.0.0",
        "plugin",
    )
    stderr = (
        "npm error code ETARGET\nnpm error notarget No matching version found for "
        "left-pad@^9.0.0 with a date before 1/1/2022.\n"
    )
    f = parse_failure("", stderr)
    assert f == Failure("ETARGET", f.summary, host="left-pad", wanted="^9.0.0", names=("left-pad",))


def test_specs_npm_cannot_read_in_a_scratch_copy_are_left_out_of_it():
    data = {
        "name": "a",
        "scripts": {"postinstall": "node x"},
        "dependencies": {
            "sib": "workspace:*",
            "cat": "catalog:",
            "gh": "user/repo",
            "git": "git+https://example.invalid/x.git",
            "near": "file:../b",
            "far": "file:../../outside",
            "ok": "^1.2.0",
            "alias": "npm:other@^2",
        },
    }
    out = sanitized(data, {"sib": "*"}, "packages/a", {"", "packages/a", "packages/b"})
    assert out["dependencies"] == {
        "sib": "*",
        "near": "file:../b",
        "ok": "^1.2.0",
        "alias": "npm:other@^2",
    }
    assert "scripts" not in out


# -- the check before npm: no npm when nothing written can conflict --------------------------


@pytest.fixture
def npm_must_not_run(tmp_path, monkeypatch):
    """An `npm` first on PATH that records being started (the test then fails)."""
    bin_dir = tmp_path / "fake-bin"
    bin_dir.mkdir()
    marker = tmp_path / "npm-was-run"
    script = bin_dir / "npm"
    script.write_text(f'#!/bin/sh\ntouch "{marker}"\nexit 1\n', encoding="utf-8")
    script.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}")
    assert shutil.which("npm") == str(script)
    yield marker
    assert not marker.exists(), "npm was started though nothing written can conflict"


def _app(tmp_path, declared, code):
    manifest = {"name": "app", "version": "1.0.0", "private": True, **declared}
    return write_tree(tmp_path / "repo", {"package.json": json.dumps(manifest), "index.js": code})


def _skipped(result):
    return any("nothing written can conflict; npm not run" in d.message for d in result.diagnostics)


def test_written_packages_whose_peers_agree_start_no_npm(tmp_path, npm_registry, npm_must_not_run):
    registries, _, _ = npm_registry
    code = 'import host from "host";\nimport plugin from "host-plugin";\n'
    root = _app(tmp_path, {}, code)
    result = _infer_and_write(root, registries)
    deps = json.loads((root / "package.json").read_text(encoding="utf-8"))["dependencies"]
    assert deps == {"host": "^3.0.0", "host-plugin": "^3.0.0"}
    assert _skipped(result)


def test_a_declared_plugin_whose_peer_range_admits_the_written_host_starts_no_npm(
    tmp_path, npm_registry, npm_must_not_run
):
    registries, _, _ = npm_registry
    root = _app(tmp_path, {"devDependencies": {"host-plugin": "^3.0.0"}}, 'import "host";\n')
    result = _infer_and_write(root, registries)
    deps = json.loads((root / "package.json").read_text(encoding="utf-8"))["dependencies"]
    assert deps == {"host": "^3.0.0"}
    assert _skipped(result)


def test_an_optional_peer_nobody_holds_starts_no_npm(tmp_path, npm_registry, npm_must_not_run):
    registries, _, _ = npm_registry
    root = _app(tmp_path, {"dependencies": {"host": "^3.0.0"}}, 'import "widget-theme";\n')
    result = _infer_and_write(root, registries)
    deps = json.loads((root / "package.json").read_text(encoding="utf-8"))["dependencies"]
    assert deps == {"host": "^3.0.0", "widget-theme": "^1.0.0"}
    assert _skipped(result)


def test_a_possible_conflict_starts_npm(tmp_path, npm_registry, monkeypatch):
    """The same fake npm is started once the written set can conflict (a declared widget
    peers host 1; host 3 is written): its failure is reported, the write goes on."""
    registries, _, _ = npm_registry
    bin_dir = tmp_path / "fake-bin"
    bin_dir.mkdir()
    marker = tmp_path / "npm-was-run"
    script = bin_dir / "npm"
    script.write_text(f'#!/bin/sh\ntouch "{marker}"\nexit 1\n', encoding="utf-8")
    script.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}")
    root = _app(tmp_path, {"dependencies": {"host-widget": "^1.0.0"}}, 'import "host";\n')
    result = _infer_and_write(root, registries)
    assert marker.exists()
    assert any(
        "npm runs (host-widget@1.1.0 wants host@^1.0.0" in d.message for d in result.diagnostics
    )


def test_a_root_pin_whose_peer_collides_names_the_host_and_its_range():
    detail = (
        "While resolving: app@0.0.1\nFound: host@3.0.0\nnode_modules/host\n"
        '  host@"*" from the root project\n\nCould not resolve dependency:\n'
        'dev host-widget@"1.1.0" from the root project\n\n'
        "Conflicting peer dependency: host@1.9.0\nnode_modules/host\n"
        '  peer host@"^1.0.0" from host-widget@1.1.0\n'
    )
    f = parse_failure(json.dumps({"error": {"code": "ERESOLVE", "detail": detail}}), "")
    assert (f.host, f.host_version, f.wanted, f.requirer) == (
        "host",
        "3.0.0",
        "^1.0.0",
        "host-widget",
    )


def test_a_relaxed_host_keeps_the_repositorys_own_ranges_and_undated_releases_count():
    """The registry dates every release after the as-of date (its dates start later than the
    code): the dates cannot choose, the peer ranges still do. A range the repository's own
    package asked holds in the next conflict, so a written plugin moves instead."""
    from datetime import datetime, timezone

    from depinfer.model import Requirement, Section
    from depinfer.registries.base import VersionInfo
    from depinfer.resolvers.javascript_gate import Registry, Round, relax

    late = datetime(2025, 1, 1, tzinfo=timezone.utc)

    def versions(name):
        table = {
            "host": [("1.0.0", {}), ("1.9.0", {}), ("3.0.0", {})],
            "host-plugin": [
                ("1.0.0", {"peerDependencies": {"host": "^1.0.0"}}),
                ("3.0.0", {"peerDependencies": {"host": "^3.0.0"}}),
            ],
        }
        return [VersionInfo(v, published=late, extra=x) for v, x in table[name]]

    registry = Registry("http://registry/", {}, versions, datetime(2023, 1, 1, tzinfo=timezone.utc))
    reqs = {
        n: [Requirement(Ecosystem.NPM, n, "package.json", Section.RUNTIME, spec="*")]
        for n in ("host", "host-plugin")
    }
    rnd = Round("package.json", reqs, {})
    first = Failure("ERESOLVE", "x", "host", "3.0.0", "^1.0.0", "host-widget", "1.1.0")
    assert relax(rnd, first, registry)[:2] == ("move", "host")
    assert reqs["host"][0].spec == "^1.9.0"
    second = Failure("ERESOLVE", "x", "host", "1.9.0", "^3.0.0", "host-plugin", "3.0.0")
    assert relax(rnd, second, registry)[:2] == ("move", "host-plugin")
    assert reqs["host-plugin"][0].spec == "^1.0.0"
