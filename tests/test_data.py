"""The one loader of shipped tables (depinfer/data/<language>/)."""

import pytest

from depinfer.data import DATA_DIR, DataError, load_table, load_table_or, table_names


def test_tables_load_once_and_are_shared():
    first = load_table("javascript/node_builtins.json")
    assert "fs" in first["builtins"]
    assert load_table("javascript/node_builtins.json") is first


def test_toml_and_json_tables_read_by_suffix(tmp_path):
    (tmp_path / "t.json").write_text('{"a": 1}')
    (tmp_path / "t.toml").write_text("a = 1\n")
    assert load_table("t.json", tmp_path) == {"a": 1}
    assert load_table("t.toml", tmp_path) == {"a": 1}


def test_missing_or_broken_table_is_a_data_error(tmp_path):
    with pytest.raises(DataError):
        load_table("does-not-exist.json")
    (tmp_path / "bad.json").write_text("{")
    with pytest.raises(DataError):
        load_table("bad.json", tmp_path)
    assert load_table_or("bad.json", {}, tmp_path) == {}


def test_every_table_lives_in_a_language_folder():
    folders = {
        p.relative_to(DATA_DIR).parts[0]
        for p in DATA_DIR.rglob("*.*")
        if p.suffix in (".json", ".toml")
    }
    assert folders <= {"python", "javascript", "rust", "csharp", "common"}
    assert table_names("javascript/tools", "*.toml")
