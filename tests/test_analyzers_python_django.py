"""Django settings strings name modules; `-r` stacks of requirements files own their names."""

from __future__ import annotations

from conftest import FIXTURES

from depinfer.analyzers.python_django import refs
from depinfer.model import FileKind


def test_settings_strings_become_dynamic_refs():
    text = (
        FIXTURES / "python" / "an-django-settings" / "mysite" / "settings" / "base.py"
    ).read_text()
    found = {r.module for r in refs("mysite/settings/base.py", text, FileKind.SOURCE)}
    assert {"corsheaders", "csp.middleware.CSPMiddleware", "mysite.blog"} <= found
    assert "django.template.context_processors.request" in found
    assert not found & {"www.example.com", "localhost", "db.sqlite3"}
    assert all(r.dynamic for r in refs("s.py", text, FileKind.SOURCE))


def test_no_settings_module_no_refs():
    assert refs("x.py", 'HOSTS = ["a.b"]\n', FileKind.SOURCE) == []
    assert refs("x.py", "INSTALLED_APPS = [\n", FileKind.SOURCE) == []  # syntax error


def test_a_settings_module_that_sets_only_a_storage_is_read():
    text = 'import os\n\nif os.environ.get("S3"):\n    DEFAULT_FILE_STORAGE = "storages.backends.s3boto3.S3Boto3Storage"\n'
    found = [r.module for r in refs("config/settings/files.py", text, FileKind.SOURCE)]
    assert found == ["storages.backends.s3boto3.S3Boto3Storage"]
    assert refs("x.py", 'EMAIL = "a.b"\n', FileKind.SOURCE) == []
