"""The pytest scan reads the nodes it needs through a query, in the order a walk meets them."""

from __future__ import annotations

from depinfer.rules import python_pytest as pp

SOURCE = """
import pytest
pytest_plugins = ["a.b", "c"]

@pytest.fixture(name=make("x").y)
def thing(request, tmp_path):
    value = request.param.attr.call(f(g(h.i)))
    return value

class TestX:
    @pytest.mark.parametrize("n", [1, 2])
    def test_one(self, n, mocker):
        x = y = obj.a.b(c.d)
        assert x
"""


def _spans(nodes):
    return [(n.start_byte, n.end_byte, n.type) for n in nodes]


def test_query_nodes_come_in_walk_order():
    root = pp.parse_source(SOURCE.encode(), keep=False).root_node
    walked = [n for n in pp._walk(root) if n.type in pp._READ_KINDS]
    assert len(walked) > 10
    assert _spans(pp._read_nodes(root)) == _spans(walked)


def test_scan_finds_the_same_with_the_query():
    found = pp.Found()
    pp.scan_python("tests/test_x.py", SOURCE, True, found)
    kinds = {(u.kind, u.name) for u in found.uses}
    assert ("plugin", "a.b") in kinds and ("fixture", "mocker") in kinds
    assert "thing" in found.fixtures
