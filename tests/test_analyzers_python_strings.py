"""Extension modules named in strings by Jinja and Python-Markdown calls."""

from __future__ import annotations

from depinfer.analyzers.python_strings import refs
from depinfer.model import FileKind

SOURCE = """
import jinja2
import markdown

env = jinja2.Environment(
    loader=jinja2.PackageLoader("app"),
    extensions=["jinja2_humanize_extension.HumanizeExtension", "jinja2.ext.do"],
)
env.add_extension("jinja_markdown.MarkdownExtension")
html = markdown.markdown(text, extensions=["toc", "pymdownx.superfences"])
client.get(url, extensions={"timeout": 1})
"""


def test_extension_import_paths_in_library_calls_become_dynamic_refs():
    found = {r.module: r for r in refs("app/render.py", SOURCE, FileKind.SOURCE)}
    assert set(found) == {
        "jinja2_humanize_extension.HumanizeExtension",
        "jinja2.ext.do",
        "jinja_markdown.MarkdownExtension",
        "pymdownx.superfences",
    }
    assert all(r.dynamic for r in found.values())
    assert found["pymdownx.superfences"].line == 10


def test_files_without_such_calls_give_nothing():
    assert refs("app/x.py", "extensions = ['a.b']\n", FileKind.SOURCE) == []


def test_a_call_name_python_reads_normalised_is_still_found():
    # `extensions=` alone (httpx's own argument) is not parsed; a callee spelled with
    # fullwidth letters is `Markdown` to Python (NFKC), so the text is normalised first
    assert refs("app/c.py", 'c.get(u, extensions={"a.b": 1})\n', FileKind.SOURCE) == []
    source = 'import markdown\nmarkdown.\uff2darkdown(extensions=["pymdownx.superfences"])\n'
    assert [r.module for r in refs("app/m.py", source, FileKind.SOURCE)] == ["pymdownx.superfences"]
