"""How the scan classifies Python repository files."""

from depinfer.model import FileKind
from depinfer.scan import classify


def test_sphinx_extension_folder_is_documentation():
    assert classify("sphinxext/gallery.py") == FileKind.DOCS
    assert classify("doc/sphinxext/utils.py") == FileKind.DOCS
