"""Django settings strings name modules; `-r` stacks of requirements files own their names."""

from __future__ import annotations

import shutil
from pathlib import Path

from depinfer.analyzers.python_django import refs
from depinfer.context import Options
from depinfer.model import FileKind
from depinfer.pipeline import infer

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "python" / "an-django-settings"


def test_settings_strings_become_dynamic_refs():
    text = (FIXTURE / "mysite" / "settings" / "base.py").read_text()
    found = {r.module for r in refs("mysite/settings/base.py", text, FileKind.SOURCE)}
    assert {"corsheaders", "csp.middleware.CSPMiddleware", "mysite.blog"} <= found
    assert "django.template.context_processors.request" in found
    assert not found & {"www.example.com", "localhost", "db.sqlite3"}
    assert all(r.dynamic for r in refs("s.py", text, FileKind.SOURCE))


def test_no_settings_module_no_refs():
    assert refs("x.py", 'HOSTS = ["a.b"]\n', FileKind.SOURCE) == []
    assert refs("x.py", "INSTALLED_APPS = [\n", FileKind.SOURCE) == []  # syntax error


def test_settings_dependencies_go_to_the_base_of_the_stack(tmp_path):
    root = tmp_path / "site"
    shutil.copytree(FIXTURE, root)
    result = infer(root, Options(offline=True, versions=False))
    by_file: dict[str, set[str]] = {}
    for r in result.requirements:
        by_file.setdefault(r.manifest, set()).add(r.name)
    base = by_file.get("requirements/base.txt", set())
    assert {"django", "django-cors-headers", "django-csp", "django-redis"} <= base
    assert "whitenoise" not in base
    assert not by_file.get("requirements.txt")
    assert not by_file.get("requirements/production.txt")


def test_a_settings_module_that_sets_only_a_storage_is_read():
    text = 'import os\n\nif os.environ.get("S3"):\n    DEFAULT_FILE_STORAGE = "storages.backends.s3boto3.S3Boto3Storage"\n'
    found = [r.module for r in refs("config/settings/files.py", text, FileKind.SOURCE)]
    assert found == ["storages.backends.s3boto3.S3Boto3Storage"]
    assert refs("x.py", 'EMAIL = "a.b"\n', FileKind.SOURCE) == []
