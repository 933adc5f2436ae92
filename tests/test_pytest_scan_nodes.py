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
    walked = _spans(n for n in pp._walk(root) if n.type in pp._READ_KINDS)
    read = _spans(pp._read_nodes(root, SOURCE))
    assert len(walked) > 10 and 4 < len(read) < len(walked)  # calls like f(...) left out
    kept = set(read)
    assert read == [s for s in walked if s in kept]


def test_nodes_the_query_leaves_out_change_nothing(monkeypatch):
    texts = [SOURCE, SOURCE.replace("mark.", "marks."), "def test_a(x):\n    g(y)\n"]
    for text in texts:
        for wanted in (True, False):
            quick = pp.Found()
            pp.scan_python("tests/test_x.py", text, wanted, quick)
            with monkeypatch.context() as m:
                every = lambda root, _text: [  # noqa: E731
                    n for n in pp._walk(root) if n.type in pp._READ_KINDS
                ]
                m.setattr(pp, "_read_nodes", every)
                full = pp.Found()
                pp.scan_python("tests/test_x.py", text, wanted, full)
            assert quick == full


def test_scan_finds_the_same_with_the_query():
    found = pp.Found()
    pp.scan_python("tests/test_x.py", SOURCE, True, found)
    kinds = {(u.kind, u.name) for u in found.uses}
    assert ("plugin", "a.b") in kinds and ("fixture", "mocker") in kinds
    assert "thing" in found.fixtures
