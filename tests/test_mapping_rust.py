"""Rust mapping: the names a crate's glob re-exports bring into scope."""

from __future__ import annotations

from depinfer.mapping.rust_globs import names_at


def test_names_at_follows_a_crates_own_glob_reexports():
    gates = {
        "prelude::*crate::window": [],
        "prelude::glam": [],
        "window::miniquad": [],
        "window::timer::now": [],
        "window::Conf": [],
    }
    assert names_at(gates, "prelude") == {"glam", "miniquad", "timer", "Conf"}
