"""The check before npm (resolvers/javascript_precheck.py) on made-up releases."""

from datetime import datetime, timezone

from depinfer.model import Ecosystem, Requirement
from depinfer.registries.base import VersionInfo
from depinfer.resolvers.javascript_precheck import Check, Releases, Scope, is_range
from depinfer.resolvers.javascript_semver import node_ok_for

AS_OF = datetime(2024, 6, 1, tzinfo=timezone.utc)
EARLY = datetime(2023, 1, 1, tzinfo=timezone.utc)
LATE = datetime(2025, 1, 1, tzinfo=timezone.utc)


def _v(version, when=EARLY, runtime=None, **extra):
    return VersionInfo(version=version, published=when, runtime=runtime, extra=extra)


RELEASES = {
    "host": [_v("1.0.0"), _v("2.0.0"), _v("3.0.0"), _v("4.0.0", LATE)],
    "plugin-a": [_v("1.0.0", peerDependencies={"host": "^2.0.0 || ^3.0.0"})],
    "plugin-b": [_v("1.0.0", peerDependencies={"host": "^2.0.0"})],
    "plugin-c": [_v("1.0.0", peerDependencies={"host": "^3.0.0"})],
    "modern": [_v("1.0.0", runtime=">=20")],
}


def _check(declared, written, node=None, parent=None, strict=False):
    """declared: path → {name: spec}; written: {(path, name): spec}."""
    docs = {p: {"dependencies": dict(specs)} for p, specs in declared.items()}
    reqs = {}
    for (path, name), spec in written.items():
        docs.setdefault(path, {"dependencies": {}})["dependencies"][name] = spec
        reqs[(path, name)] = Requirement(Ecosystem.NPM, name, path, spec=spec)
    scope = Scope(docs, parent or {}, set(), reqs, {"app"}, strict_engines=strict)
    releases = Releases(lambda n: RELEASES.get(n, []), AS_OF)
    return Check(scope, {}, releases, lambda path: node_ok_for(node)).run()


def test_version_ranges_are_told_from_tags_aliases_and_urls():
    assert all(
        is_range(s) for s in ("^1.2.3", "~1.2", "1.x", "*", "", ">=1 <2", "1 - 2", "^1 || ^2")
    )
    assert not any(is_range(s) for s in ("latest", "next", "npm:other@^1", "git+ssh://x"))


def test_no_doubt_when_peers_agree():
    assert (
        _check({"package.json": {"plugin-a": "^1.0.0"}}, {("package.json", "host"): "^3.0.0"}) == []
    )


def test_a_declared_plugin_against_a_written_host():
    doubts = _check({"package.json": {"plugin-b": "^1.0.0"}}, {("package.json", "host"): "^3.0.0"})
    assert doubts == ["plugin-b@1.0.0 wants host@^2.0.0, package.json has 3.0.0"]


def test_a_conflict_among_declarations_alone_is_not_a_doubt():
    declared = {"package.json": {"plugin-b": "^1.0.0", "host": "^3.0.0"}}
    assert _check(declared, {("package.json", "modern"): "^1.0.0"}) == []


def test_a_member_sees_the_workspace_roots_declarations():
    declared = {"package.json": {"host": "^3.0.0"}, "a/package.json": {}}
    written = {("a/package.json", "plugin-b"): "^1.0.0"}
    doubts = _check(declared, written, parent={"a/package.json": "package.json"})
    assert doubts == ["plugin-b@1.0.0 wants host@^2.0.0, package.json has 3.0.0"]


def test_a_peer_npm_installs_itself_for_ranges_no_release_meets():
    doubts = _check(
        {"package.json": {}},
        {("package.json", "plugin-b"): "^1.0.0", ("package.json", "plugin-c"): "^1.0.0"},
    )
    assert doubts and doubts[0].startswith("host: ")


def test_a_written_range_no_release_matches():
    doubts = _check({}, {("package.json", "host"): "^9.0.0"})
    assert doubts == ["no release of host by the as-of date matches ^9.0.0"]
    # only a release after the as-of date: npm lifts its cap and finds it
    assert _check({}, {("package.json", "host"): "^4.0.0"}) == []


def test_a_written_release_whose_engines_exclude_the_projects_node_under_engine_strict():
    written = {("package.json", "modern"): "^1.0.0"}
    assert _check({}, written, node=">=18", strict=True) == ["modern@1.0.0 wants Node >=20"]
    assert _check({}, written, node=">=20", strict=True) == []
    assert _check({}, written, node=">=18") == []  # npm only warns


def test_a_declared_release_after_the_as_of_date_is_judged_as_npm_does_without_the_cap():
    written = {("package.json", "plugin-c"): "^1.0.0"}
    # host 4 is dated after the cap: npm lifts it; plugin-c peers host 3
    assert _check({"package.json": {"host": "^4.0.0"}}, written) == [
        "plugin-c@1.0.0 wants host@^3.0.0, package.json has 4.0.0 (without the date cap)"
    ]
    assert _check({"package.json": {"host": "^3.0.0 || ^4.0.0"}}, written) == []


def test_a_declaration_that_cannot_be_judged_beside_a_written_package():
    doubts = _check({"package.json": {"plugin-a": "latest"}}, {("package.json", "host"): "^3.0.0"})
    assert doubts == ["plugin-a@latest (package.json) cannot be judged here"]
