"""The Rust resolve gate: `[features]` entries and the dependencies they name, cargo's own
reading of a manifest before it is written, and peers of one framework on one major
(fixtures/rust/features-gate, fixtures/rust/peers; recorded registry lines, offline)."""

from __future__ import annotations

import json
import shutil
from datetime import datetime
from pathlib import Path

import pytest
import tomlkit
from conftest import FIXTURES, copy_fixture, write_tree
from rust_registry import RecordedRegistry

from depinfer.context import Context, Options
from depinfer.model import Ecosystem, Project, Requirement
from depinfer.pipeline import infer
from depinfer.registries.base import VersionInfo
from depinfer.resolvers import rust_gate, rust_peers
from depinfer.scan import scan
from depinfer.versions import crate_req_admits_line

pytestmark = pytest.mark.usefixtures("private_cargo_home")

HEAD = '[package]\nname = "a"\nversion = "0.1.0"\nedition = "2021"\n\n'


class PeersRegistry(RecordedRegistry):
    """The recorded registry plus fixtures/rust/peers/registry (index lines with `deps`)."""

    def __init__(self) -> None:
        super().__init__()
        for f in (FIXTURES / "rust" / "peers" / "registry").glob("*.jsonl"):
            infos = []
            for line in f.read_text().splitlines():
                e = json.loads(line)
                infos.append(
                    VersionInfo(
                        version=e["vers"],
                        published=datetime.fromisoformat(e["pubtime"].replace("Z", "+00:00")),
                        yanked=e["yanked"],
                        prerelease="-" in e["vers"],
                        runtime=e.get("rust_version"),
                        extra={
                            "name": e["name"],
                            "features": e["features"],
                            "deps_json": json.dumps(e["deps"]),
                        },
                    )
                )
            self.index[f.stem] = infos


def infer_rust(root: Path, registry=None, **opts):
    ctx = Context(Options(languages=("rust",), **opts), registries=registry or RecordedRegistry())
    result = infer(root, ctx.options, ctx=ctx)
    return result, {e.path: tomlkit.parse(e.new_text) for e in result.edits}


# ---------------------------------------------------------------- structural checks


@pytest.mark.parametrize(
    "tables, features, problem",
    [
        ('[dependencies]\nserde = { version = "1", optional = true }\n', 'x = ["dep:serde"]', None),
        ("[dependencies]\n", 'x = ["dep:serde"]', "`serde` is not a dependency"),
        ('[dependencies]\nserde = "1"\n', 'x = ["dep:serde"]', "not an optional dependency"),
        ('[dependencies]\nserde = "1"\n', 'x = ["serde?/derive"]', "not an optional dependency"),
        ('[dependencies]\nserde = "1"\n', 'x = ["serde/derive"]', None),
        ('[dev-dependencies]\ntokio = "1"\n', 'x = ["tokio/macros"]', None),
        ("[dependencies]\n", 'x = ["missing/feat"]', "`missing` is not a dependency"),
        ("[dependencies]\n", 'x = ["bar"]', "`bar` is not a dependency"),
        ("[dependencies]\n", 'x = ["y"]\ny = []', None),
        (
            "[target.'cfg(unix)'.dependencies]\nnix = { version = \"0.29\", optional = true }\n",
            'x = ["nix"]',
            None,
        ),
    ],
)
def test_feature_problems_follow_cargo(tables, features, problem):
    found = rust_gate.feature_problems(HEAD + tables + "\n[features]\n" + features + "\n")
    if problem is None:
        assert found == []
    else:
        assert len(found) == 1 and problem in found[0]


def test_features_name_an_optional_dependency_written_with_a_registry_version(tmp_path):
    root = copy_fixture("rust", "features-gate", tmp_path / "features-gate")
    toml = root / "Cargo.toml"
    toml.write_text(toml.read_text().replace('vendored = ["dep:no-such-crate-recorded"]\n', ""))
    result, edits = infer_rust(root)
    deps = edits["Cargo.toml"]["dependencies"]
    assert deps["serde_json"]["optional"] is True and deps["serde_json"]["version"]
    assert deps["regex"]  # `regex/perf`: any entry will do, and one is written
    assert deps["anyhow"]
    assert rust_gate.feature_problems(tomlkit.dumps(edits["Cargo.toml"])) == []


def test_a_feature_naming_an_unresolvable_crate_leaves_the_manifest_unwritten(tmp_path):
    root = copy_fixture("rust", "features-gate", tmp_path / "features-gate")
    before = (root / "Cargo.toml").read_text()
    result, edits = infer_rust(root, write=True)
    assert "Cargo.toml" not in edits
    assert (root / "Cargo.toml").read_text() == before
    refusal = [d for d in result.diagnostics if "cargo would refuse" in d.message]
    assert len(refusal) == 1 and refusal[0].file == "Cargo.toml"
    assert "`no-such-crate-recorded` is not a dependency" in refusal[0].message


# ---------------------------------------------------------------- cargo's own reading

needs_cargo = pytest.mark.skipif(shutil.which("cargo") is None, reason="cargo not installed")


def _gate(root: Path, texts: dict[str, str]) -> dict[str, str]:
    project = scan(root)
    reqs = [Requirement(Ecosystem.CRATES, "x", path) for path in texts]
    return rust_gate.gate(project, reqs, lambda path, _reqs: texts[path])


@needs_cargo
def test_cargo_refuses_what_the_structural_check_does_not_know(tmp_path):
    write_tree(tmp_path, {"Cargo.toml": HEAD + "[dependencies]\n", "src/lib.rs": ""})
    bad = HEAD + '[dev-dependencies]\nserde = { version = "1", optional = true }\n'
    refused = _gate(tmp_path, {"Cargo.toml": bad})
    assert list(refused) == ["Cargo.toml"]
    assert refused["Cargo.toml"].startswith("cargo: ")
    assert "optional" in refused["Cargo.toml"] and str(tmp_path) not in refused["Cargo.toml"]


@needs_cargo
def test_cargo_reads_a_workspace_member_beside_its_root(tmp_path):
    root_toml = '[workspace]\nmembers = ["crates/*"]\n\n[workspace.dependencies]\nlog = "0.4"\n'
    member = HEAD + "[dependencies]\nlog = { workspace = true }\n"
    write_tree(
        tmp_path,
        {
            "Cargo.toml": root_toml,
            "crates/a/Cargo.toml": HEAD + "[dependencies]\n",
            "crates/a/src/main.rs": "fn main() {}\n",
            "crates/a/src/bin/tool.rs": "fn main() {}\n",
        },
    )
    assert _gate(tmp_path, {"crates/a/Cargo.toml": member}) == {}


@needs_cargo
def test_a_failure_outside_the_file_does_not_judge_it(tmp_path):
    # a path dependency outside the repository is missing from the scratch copy
    text = HEAD + '[dependencies]\nother = { path = "../../elsewhere/other" }\n'
    write_tree(tmp_path, {"Cargo.toml": HEAD + "[dependencies]\n", "src/lib.rs": ""})
    assert _gate(tmp_path, {"Cargo.toml": text}) == {}


# ---------------------------------------------------------------- peers on one major


def test_requirement_admits_a_compatibility_line():
    assert crate_req_admits_line("^0.7.9", "0.7.1")  # cargo unifies within the line
    assert not crate_req_admits_line("^0.8.0", "0.7.9")
    assert crate_req_admits_line(">=1.2, <3", "2.5.0")
    assert not crate_req_admits_line(">=1.2, <2", "2.0.0")
    assert crate_req_admits_line("1", "1.40.0")


def test_an_integration_crate_steps_back_to_the_framework_line_written(tmp_path):
    root = copy_fixture("rust", "peers", tmp_path / "peers")
    result, edits = infer_rust(root, PeersRegistry())
    deps = edits["Cargo.toml"]["dependencies"]
    assert deps["axum"] == "0.7.9"  # axum 0.8 needs rust 1.78; the crate says 1.75
    assert deps["axum-extra"] == "0.9.6"  # 0.10 depends on axum 0.8
    assert any("axum-extra" in d.message and "0.9.6" in d.message for d in result.diagnostics)


def test_a_framework_steps_back_when_its_integration_lags(tmp_path):
    root = copy_fixture("rust", "peers", tmp_path / "peers")
    toml = root / "Cargo.toml"
    toml.write_text(toml.read_text().replace('rust-version = "1.75"\n', ""))
    _, edits = infer_rust(root, PeersRegistry(), as_of="2025-02-15")
    deps = edits["Cargo.toml"]["dependencies"]
    assert deps["axum-extra"] == "0.9.6"  # 0.10 is not out yet
    assert deps["axum"] == "0.7.9"  # 0.8.1 is, but axum-extra 0.9.6 depends on axum 0.7


def test_peers_already_on_one_line_are_left_alone(tmp_path):
    root = copy_fixture("rust", "peers", tmp_path / "peers")
    toml = root / "Cargo.toml"
    toml.write_text(toml.read_text().replace('rust-version = "1.75"', 'rust-version = "1.80"'))
    result, edits = infer_rust(root, PeersRegistry())
    deps = edits["Cargo.toml"]["dependencies"]
    assert (deps["axum"], deps["axum-extra"]) == ("0.8.4", "0.10.1")
    assert not any("peer" in d.message for d in result.diagnostics)


def test_project_scan_sees_the_fixtures():
    assert Project  # the model the gate reads (manifests_of) is the scan's
    assert scan(FIXTURES / "rust" / "peers").manifests_of(Ecosystem.CRATES)


# ---------------------------------------------------------------- derive features


class DeriveRegistry(PeersRegistry):
    """PeersRegistry plus fixtures/rust/derive-features/registry."""

    def __init__(self) -> None:
        super().__init__()
        for f in (FIXTURES / "rust" / "derive-features" / "registry").glob("*.jsonl"):
            self.index[f.stem] = [
                VersionInfo(
                    version=e["vers"],
                    published=datetime.fromisoformat(e["pubtime"].replace("Z", "+00:00")),
                    yanked=e["yanked"],
                    prerelease=False,
                    runtime=e.get("rust_version"),
                    extra={"name": e["name"], "features": e["features"], "deps_json": "[]"},
                )
                for e in map(json.loads, f.read_text().splitlines())
            ]


def test_a_major_that_gates_derives_gets_their_features(tmp_path):
    root = copy_fixture("rust", "derive-features", tmp_path / "derive-features")
    _, edits = infer_rust(root, DeriveRegistry())
    entry = edits["Cargo.toml"]["dependencies"]["derive_more"]
    assert entry["version"].startswith("2")
    assert sorted(entry["features"]) == ["display", "from", "is_variant"]


def test_a_major_that_derives_everything_by_default_gets_none(tmp_path):
    root = copy_fixture("rust", "derive-features", tmp_path / "derive-features")
    _, edits = infer_rust(root, DeriveRegistry(), as_of="2024-07-01")
    assert edits["Cargo.toml"]["dependencies"]["derive_more"] == "0.99.18"


@pytest.mark.parametrize(
    "integration, framework, family",
    [
        ("axum-extra", "axum", True),
        ("tracing-opentelemetry", "opentelemetry", True),
        ("http-cache-reqwest", "reqwest-middleware", True),
        ("bevy_egui", "bevy", True),
        ("cacache", "thiserror", False),  # private: two majors of thiserror build side by side
        ("digest_auth", "sha2", False),
        ("hyper-util", "tokio-util", False),  # a common word is no family
    ],
)
def test_families_are_told_by_a_shared_word(integration, framework, family):
    assert rust_peers.same_family(integration, framework) is family


@needs_cargo
def test_a_refusal_the_file_already_gets_is_not_the_writes(tmp_path):
    # no target at all: cargo refuses the file as it stands, with or without the new entry
    write_tree(tmp_path, {"Cargo.toml": HEAD + "[dependencies]\n"})
    assert _gate(tmp_path, {"Cargo.toml": HEAD + '[dependencies]\nlog = "0.4"\n'}) == {}


def test_the_key_follows_the_spelling_features_use(tmp_path):
    write_tree(
        tmp_path,
        {
            "Cargo.toml": HEAD + '[features]\nhuman = ["dep:humantime_serde"]\n\n[dependencies]\n',
            "src/lib.rs": '#[cfg(feature = "human")]\npub use humantime_serde::Serde;\n',
        },
    )
    _, edits = infer_rust(tmp_path)
    entry = edits["Cargo.toml"]["dependencies"]["humantime_serde"]
    assert entry["package"] == "humantime-serde" and entry["optional"] is True
    assert rust_gate.feature_problems(tomlkit.dumps(edits["Cargo.toml"])) == []


def test_an_integration_follows_the_framework_the_workspace_declares(tmp_path):
    root = copy_fixture("rust", "peers", tmp_path / "peers")
    toml = root / "Cargo.toml"
    text = toml.read_text().replace('rust-version = "1.75"', 'rust-version = "1.80"')
    text += '\n[workspace]\n\n[workspace.dependencies]\naxum = "0.7.5"\n'
    toml.write_text(text)
    result, edits = infer_rust(root, PeersRegistry())
    deps = edits["Cargo.toml"]["dependencies"]
    assert deps["axum-extra"] == "0.9.6"  # axum-extra 0.10 would bring axum 0.8 beside 0.7
    assert "axum" not in deps or dict(deps["axum"]) == {"workspace": True}


def test_a_feature_no_release_of_the_line_offers_is_dropped_and_reported():
    from depinfer.resolvers.rust import drop_unknown_features

    releases = DeriveRegistry().versions(Ecosystem.CRATES, "derive_more")
    chosen = next(v for v in releases if v.version == "1.0.0")
    req = Requirement(Ecosystem.CRATES, "derive_more", "Cargo.toml", features=["display", "nope"])
    ctx = Context(Options(languages=("rust",)), registries=DeriveRegistry())
    drop_unknown_features(req, chosen, releases, "derive_more", ctx)
    assert req.features == ["display"]
    assert any("'nope'" in d.message for d in ctx.diagnostics)
    # 0.99 offers `display` too; a feature only a later line has is not reachable from it
    old = next(v for v in releases if v.version == "0.99.18")
    req = Requirement(Ecosystem.CRATES, "derive_more", "Cargo.toml", features=["full"])
    drop_unknown_features(req, old, releases, "derive_more", ctx)
    assert req.features == []


def test_an_integration_follows_the_framework_line_verify_moved_to(tmp_path):
    # verify moved axum back a line (an API the code calls is gone in 0.8): axum-extra,
    # chosen on axum 0.8's line before, follows to the release that depends on axum 0.7
    from depinfer.ci.repair import rust_bound_lines
    from depinfer.pipeline import run_language
    from depinfer.resolvers import rust as rust_resolver

    root = copy_fixture("rust", "peers", tmp_path / "peers")
    toml = root / "Cargo.toml"
    toml.write_text(toml.read_text().replace('rust-version = "1.75"', 'rust-version = "1.80"'))
    ctx = Context(Options(languages=("rust",)), registries=PeersRegistry())
    project = scan(root)
    _, cands, _ = run_language(project, "rust", ctx)
    bounds = {"axum": ("<0.8", "axum 0.8.4 lacks `Router::route_service`: older")}
    pinned = rust_bound_lines(cands, bounds, ctx, None)
    reqs = {r.name: r.spec for r in rust_resolver.resolve(project, pinned, ctx)}
    assert (reqs["axum"], reqs["axum-extra"]) == ("0.7.9", "0.9.6")
    assert any("axum-extra" in d.message and "0.9.6" in d.message for d in ctx.diagnostics)
    # nothing moved: the resolver's own choice, both on the newest line
    reqs = {r.name: r.spec for r in rust_resolver.resolve(project, cands, ctx)}
    assert (reqs["axum"], reqs["axum-extra"]) == ("0.8.4", "0.10.1")
