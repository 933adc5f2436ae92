"""scan.path_parts / path_name answer as PurePosixPath does, for plain and odd paths."""

from __future__ import annotations

from pathlib import PurePosixPath

import pytest

from depinfer.scan import nearest_directory, path_name, path_parts


@pytest.mark.parametrize(
    "rel",
    ["a/b.py", "b.py", "", ".", "/", "/a/b.py", "./a.py", "a//b.py", "a/./b.py", "a/", "../x.py"],
)
def test_same_as_purepath(rel):
    assert path_parts(rel) == PurePosixPath(rel).parts
    assert path_name(rel) == PurePosixPath(rel).name


def test_nearest_directory():
    assert nearest_directory("a/b/c.py", {"", "a"}) == "a"
    assert nearest_directory("./a/b/c.py", {"a/b"}) == "a/b"
    assert nearest_directory("c.py", {"a"}) is None
