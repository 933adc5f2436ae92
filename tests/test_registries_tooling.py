"""Reading each tool's built-in default registry from the installed tool itself."""

from __future__ import annotations

import json
import os
import stat

from depinfer.registries import tooling


def test_cargo_default_is_read_from_the_cargo_binary(tmp_path, monkeypatch):
    fake = tmp_path / "cargo"
    fake.write_bytes(b"\x7fELF\x00junk sparse+https://idx.example.test/ more\x00" * 3)
    fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("CARGO", str(fake))
    store = tmp_path / "tooling.json"
    assert tooling.cargo_default_index(store) == "sparse+https://idx.example.test/"
    remembered = json.loads(store.read_text())
    assert remembered["cargo-index"]["value"] == "sparse+https://idx.example.test/"


def test_remembered_answers_are_reused_until_the_tool_changes(tmp_path):
    store = tmp_path / "tooling.json"
    calls = []

    def probe():
        calls.append(1)
        return "answer"

    tooling._memo.clear()
    assert tooling.remembered("k", "stamp1", probe, store, refresh=False) == "answer"
    tooling._memo.clear()  # a new process: only the file remembers
    assert tooling.remembered("k", "stamp1", probe, store, refresh=False) == "answer"
    assert len(calls) == 1
    assert tooling.remembered("k", "stamp2", probe, store, refresh=False) == "answer"
    assert len(calls) == 2
    assert tooling.remembered("k", "stamp2", probe, store, refresh=True) == "answer"
    assert len(calls) == 3


def test_nuget_default_is_read_from_the_client_library(tmp_path, monkeypatch):
    lib = tmp_path / "NuGet.Configuration.dll"
    text = "https://feed.example.test/v3/index.json".encode("utf-16-le")
    lib.write_bytes(b"MZ\x00" + text + b"\x00\x00")  # odd offset, as in a real #US heap
    monkeypatch.setattr(tooling, "_nuget_library_candidates", lambda: [lib])
    assert tooling.nuget_default_source(None) == "https://feed.example.test/v3/index.json"


def test_nuget_default_is_none_without_a_client(monkeypatch):
    monkeypatch.setattr(tooling, "_nuget_library_candidates", lambda: [])
    assert tooling.nuget_default_source(None) is None


def test_npm_default_is_none_without_npm(monkeypatch):
    monkeypatch.setenv("PATH", os.devnull)
    assert tooling.npm_default_registry(None, refresh=True) is None


def test_pip_default_index_comes_from_installed_pip():
    found = tooling.pip_default_index()
    if found is None:  # an environment without pip anywhere
        return
    simple, json_base = found
    assert simple.startswith("https://") and json_base.startswith("https://")
