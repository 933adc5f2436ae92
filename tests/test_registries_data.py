"""The shipped offline tables are read through one cached loader."""

from __future__ import annotations

import pytest

from depinfer.registries.data import DataError, load_json, load_json_or


def test_shipped_table_loads_and_is_cached():
    first = load_json("node_builtins")
    assert "fs" in first["builtins"]
    assert load_json("node_builtins.json") is first


def test_other_packages_pass_their_own_data_dir(tmp_path):
    (tmp_path / "t.json").write_text('{"a": 1}')
    assert load_json("t", tmp_path) == {"a": 1}


def test_missing_or_broken_tables(tmp_path):
    with pytest.raises(DataError):
        load_json("does-not-exist")
    (tmp_path / "bad.json").write_text("{")
    with pytest.raises(DataError):
        load_json("bad", tmp_path)
    assert load_json_or("bad", {}, tmp_path) == {}
