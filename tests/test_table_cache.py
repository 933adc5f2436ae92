"""Decoded shipped tables kept in the cache folder (depinfer/data): same answers, faster."""

from __future__ import annotations

import datetime

import pytest

from depinfer import data


@pytest.fixture
def kept(tmp_path):
    data.use_cache_folder(tmp_path / "cache")
    data._load.cache_clear()
    yield tmp_path / "cache" / data.TABLES_SUBDIR
    data.use_cache_folder(None)
    data._load.cache_clear()


def test_a_decoded_table_is_kept_and_read_back(tmp_path, kept):
    (tmp_path / "t.json").write_text('{"a": [1, 2.5, null, true], "b": {"c": "d"}}')
    first = data.load_table("t.json", base=tmp_path)
    assert len(list(kept.glob("*.marshal"))) == 1
    data._load.cache_clear()
    assert data.load_table("t.json", base=tmp_path) == first  # read back
    (tmp_path / "t.json").write_text('{"a": 2}')  # an edited table is decoded again
    data._load.cache_clear()
    assert first == {"a": [1, 2.5, None, True], "b": {"c": "d"}}
    assert data.load_table("t.json", base=tmp_path) == {"a": 2}


def test_the_kept_form_is_what_decoding_gives(tmp_path, kept):
    (tmp_path / "t.toml").write_text('[[plugin]]\npackage = "x"\nmarkers = ["m"]\n')
    decoded = data.load_table("t.toml", base=tmp_path)
    data._load.cache_clear()
    assert data.load_table("t.toml", base=tmp_path) == decoded
    assert len(list(kept.glob("*.marshal"))) == 1


def test_a_damaged_entry_is_ignored_and_a_date_is_not_kept(tmp_path, kept):
    (tmp_path / "t.json").write_text('{"a": 1}')
    data.load_table("t.json", base=tmp_path)
    (entry,) = kept.glob("*.marshal")
    entry.write_bytes(b"\x00garbage")
    data._load.cache_clear()
    assert data.load_table("t.json", base=tmp_path) == {"a": 1}
    (tmp_path / "d.toml").write_text("when = 2024-01-02\n")
    assert data.load_table("d.toml", base=tmp_path) == {"when": datetime.date(2024, 1, 2)}
    assert len(list(kept.glob("*.marshal"))) == 1  # marshal cannot hold a date


def test_without_a_cache_folder_nothing_is_written(tmp_path):
    data._load.cache_clear()
    (tmp_path / "t.json").write_text('{"a": 1}')
    assert data.load_table("t.json", base=tmp_path) == {"a": 1}
    assert list(tmp_path.iterdir()) == [tmp_path / "t.json"]
    data._load.cache_clear()
