"""Rust resolver: the requirement precision a repository's own manifests keep."""

from __future__ import annotations

import pytest
from conftest import write_tree

from depinfer.resolvers.rust import spec_style, styled
from depinfer.scan import scan


@pytest.mark.parametrize(
    ("kept", "expected"),
    [
        ('assert_cmd = "2"\ntempfile = "=3"\n', {"regex": "1", "log": "0.4"}),
        ('assert_cmd = "2.0.16"\ntempfile = "3.27.0"\n', {"regex": "1.11.1", "log": "0.4.27"}),
        ("", {"regex": "1.11", "log": "0.4.27"}),  # nothing to follow: the caret default
    ],
)
def test_versions_follow_the_precision_of_the_requirements_the_repository_keeps(
    tmp_path, kept, expected
):
    (tmp_path / "Cargo.toml").write_text(
        '[package]\nname = "x"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n\n'
        f"[dev-dependencies]\n{kept}"
    )
    style = spec_style(scan(tmp_path))
    assert {"regex": styled("1.11.1", style), "log": styled("0.4.27", style)} == expected


def test_a_manifest_keeping_enough_requirements_of_its_own_sets_its_own_precision(tmp_path):
    (tmp_path / "Cargo.toml").write_text(
        '[workspace]\nmembers = ["a", "b"]\n\n[workspace.dependencies]\n'
        'anyhow = "1"\nregex = "1"\nclap = "4"\nlog = "0.4"\nrand = "0.8"\n'
    )
    for name, kept in (("a", ""), ("b", 'x = "1.2.3"\ny = "2.0.1"\nz = "0.3.4"\n')):
        manifest = (
            f'[package]\nname = "{name}"\nversion = "0.1.0"\nedition = "2021"\n\n'
            f"[dependencies]\n\n[dev-dependencies]\n{kept}"
        )
        write_tree(tmp_path / name, {"src/lib.rs": "", "Cargo.toml": manifest})
    project = scan(tmp_path)
    assert spec_style(project, "a/Cargo.toml") == spec_style(project) == (1, 2)
    assert spec_style(project, "b/Cargo.toml") == (3, 3)


@pytest.mark.parametrize("style", [None, (1, 2), (3, 3)])
def test_a_pre_release_is_written_whole_whatever_the_style(style):
    """Cargo matches a pre-release only for a requirement that names one: a line with no
    release yet (ort 2.0.0-rc.x) written "2" or "2.0" resolves to nothing."""
    from depinfer.resolvers.rust import caret

    assert styled("2.0.0-rc.10", style) == "2.0.0-rc.10"
    assert styled("0.3.0-alpha.2+build.5", style) == "0.3.0-alpha.2"  # metadata never matters
    assert caret("6.0.0-rc.28") == "6.0.0-rc.28"
    assert styled("1.11.1", style) == {None: "1.11", (1, 2): "1", (3, 3): "1.11.1"}[style]
