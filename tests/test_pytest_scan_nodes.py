"""The pytest scan reads the nodes it needs (from their words, or through a query when the
tree has errors), in the order a walk meets them."""

from __future__ import annotations

from depinfer.analyzers import python_pytest_uses as pp

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
    read = _spans(pp._read_nodes(root, SOURCE, SOURCE.encode()))
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
                every = lambda root, _text, _src: [  # noqa: E731
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


ODD = """
def default(): pass
async def test_a(request, defx):
    '''parametrize mark pytest_plugins in a string'''
    request.getfixturevalue("x")
    foo.parametrize(a)(b).mark.z
    (mark).x = pytest_plugins = 1
    x = {"mark": 1}["mark"]
    parametrize = 1
    mark(1).usefixtures
    def inner(): pass  # def mark
lambda: addinivalue_line
"""


def test_nodes_found_from_words_are_the_querys():
    for text in (SOURCE, ODD, SOURCE + ODD, "x = 1\n", "def"):
        src = text.encode()
        root = pp.parse_source(src, keep=False).root_node
        if root.has_error:
            continue
        for bits in [(a, b, c) for a in (0, 1) for b in (0, 1) for c in (0, 1)]:
            wanted = (True, *map(bool, bits))
            query = pp.QueryCursor(pp._read_query(wanted)).captures(root).get("n", [])
            words = pp._nodes_at_words(root, src, wanted)
            assert sorted(_spans(words)) == sorted(_spans(query)), (text, wanted)


def test_a_tree_with_errors_is_read_through_the_query():
    text = "def test_a(x:\n    pytest.mark.skip\n@pytest.fixture\ndef f(): pass\n"
    root = pp.parse_source(text.encode(), keep=False).root_node
    assert root.has_error
    found = pp.Found()
    pp.scan_python("tests/test_x.py", text, True, found)
    assert [(u.kind, u.name) for u in found.uses] == [("marker", "skip")]
