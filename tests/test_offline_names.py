"""Offline, names come from the shipped tables or are said to be unverified; Python says
which versions it could not check, as npm does."""

from __future__ import annotations

from conftest import infer_offline, write_tree

from depinfer.context import Options
from depinfer.mapping.rust import shipped_crate_names
from depinfer.pipeline import infer

CARGO = '[package]\nname = "rx"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n'
MAIN = (
    "use serde_json::Value;\nuse async_trait::async_trait;\nuse tokio_util::codec;\n"
    "use my_weird_crate::Thing;\nuse anyhow::Result;\nfn main() {}\n"
)


def _rust(tmp_path):
    root = write_tree(tmp_path, {"Cargo.toml": CARGO, "src/main.rs": MAIN})
    return infer_offline(root)


def test_shipped_tables_know_published_spellings():
    names = shipped_crate_names()
    assert {"async-trait", "serde_json", "tokio-util"} <= names
    assert "async_trait" not in names and "tokio_util" not in names


def test_rust_crates_written_under_their_published_names(tmp_path):
    result = _rust(tmp_path)
    written = {r.name for r in result.requirements}
    assert {"async-trait", "tokio-util", "serde_json", "anyhow"} <= written
    assert "async_trait" not in written and "tokio_util" not in written
    evidence = {e.detail for r in result.requirements for e in r.evidence}
    assert "async_trait → async-trait (shipped tables)" in evidence


def test_unknown_spelling_is_written_marked_unverified(tmp_path):
    result = _rust(tmp_path)
    weird = [r for r in result.requirements if r.name == "my_weird_crate"]
    assert weird and weird[0].verified is None
    warnings = [d.message for d in result.diagnostics if "my_weird_crate" in d.message]
    assert any("unverified" in w and "'my-weird-crate'" in w for w in warnings)
    # a name without underscores is the package's own name by Cargo's rules: no warning
    assert not any("'anyhow'" in d.message for d in result.diagnostics)


def test_python_warns_about_unverified_versions_offline(tmp_path):
    root = write_tree(
        tmp_path,
        {
            "pyproject.toml": '[project]\nname = "ex"\nversion = "0.1"\ndependencies = []\n',
            "pkg/__init__.py": "import requests\nimport yaml\n",
        },
    )
    result = infer(root, Options(offline=True))
    warnings = [d.message for d in result.diagnostics if d.level == "warning"]
    assert any(
        "not consulted (offline): versions unverified" in w and "pyyaml, requests" in w
        for w in warnings
    )
    names_only = infer_offline(root)
    assert not any("versions unverified" in d.message for d in names_only.diagnostics)
