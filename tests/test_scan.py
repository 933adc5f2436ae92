from pathlib import Path

import pytest

from depinfer.model import FileKind
from depinfer.scan import classify, nearest_directory, scan


@pytest.mark.parametrize(
    ("path", "kind"),
    [
        ("src/pkg/core.py", FileKind.SOURCE),
        ("tests/test_core.py", FileKind.TEST),
        ("pkg/test_core.py", FileKind.TEST),
        ("conftest.py", FileKind.TEST),
        ("docs/conf.py", FileKind.CONFIG),
        ("examples/demo/app.py", FileKind.EXAMPLE),
        ("setup.py", FileKind.BUILD),
        ("build.rs", FileKind.BUILD),
        ("pdm_build.py", FileKind.BUILD),  # PDM's build hook: imports pdm.backend
        ("hatch_build.py", FileKind.BUILD),
        ("benches/speed.rs", FileKind.BENCH),
        ("src/app.test.ts", FileKind.TEST),
        ("scripts/release.py", FileKind.SCRIPT),
        ("jest.config.js", FileKind.CONFIG),
    ],
)
def test_classify_gives_each_path_its_role(path, kind):
    assert classify(path) == kind


def test_nearest_directory_picks_innermost():
    assert nearest_directory("a/b/c.py", {"", "a"}) == "a"
    assert nearest_directory("x/c.py", {"", "a"}) == ""
    assert nearest_directory("x/c.py", {"a"}) is None


def test_scan_rejects_a_file_as_root(tmp_path: Path):
    f = tmp_path / "file.txt"
    f.write_text("x")
    with pytest.raises(NotADirectoryError):
        scan(f)


def test_scan_survives_symlink_loops_and_skips_node_modules(tmp_path: Path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "mod.py").write_text("import os\n")
    (tmp_path / "pkg" / "loop").symlink_to(tmp_path)
    (tmp_path / "node_modules" / "x").mkdir(parents=True)
    (tmp_path / "node_modules" / "x" / "index.js").write_text("")
    project = scan(tmp_path)
    assert [f.path for f in project.files] == ["pkg/mod.py"]


@pytest.mark.parametrize(
    "marker",
    ["venv-name/pyvenv.cfg", "python-3.10/Lib/os.py", "env/conda-meta/history"],
)
def test_a_python_installation_kept_in_the_tree_is_not_read(tmp_path: Path, marker: str):
    """A virtual environment, a bundled CPython or a conda environment holds a standard
    library and site-packages: read as code they would be dozens of false dependencies."""
    (tmp_path / "app.py").write_text("import requests\n")
    top = tmp_path / marker.split("/")[0]
    (tmp_path / marker).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / marker).write_text("")
    (top / "Lib" / "site-packages" / "win32").mkdir(parents=True, exist_ok=True)
    (top / "Lib" / "site-packages" / "win32" / "x.py").write_text("import win32evtlogutil\n")
    (top / "Lib" / "site.py").write_text("import sitecustomize\n")
    assert [f.path for f in scan(tmp_path).files] == ["app.py"]


def test_bin_of_scripts_is_read_but_dotnet_build_output_is_not(tmp_path: Path):
    (tmp_path / "bin").mkdir()
    (tmp_path / "bin" / "cli.js").write_text("require('yargs')\n")
    (tmp_path / "App" / "bin" / "Debug").mkdir(parents=True)
    (tmp_path / "App" / "bin" / "Debug" / "x.cs").write_text("")
    (tmp_path / "App" / "bin" / "gen.cs").write_text("")
    assert [f.path for f in scan(tmp_path).files] == ["bin/cli.js"]


def test_python_files_inside_a_package_are_its_modules_whatever_their_names(tmp_path):
    packages = {"app", "app/tasks", "config", "config/settings", "config/settings/loggers"}
    assert classify("app/tasks.py", packages) == FileKind.SOURCE  # Celery tasks
    assert classify("app/tasks/celery.py", packages) == FileKind.SOURCE
    assert classify("config/settings/loggers/setup.py", packages) == FileKind.SOURCE
    assert classify("tasks.py", packages) == FileKind.CONFIG  # invoke's, at the root
    assert classify("setup.py", packages) == FileKind.BUILD
    assert classify("tools/gen.py", packages) == FileKind.SCRIPT
    assert classify("app/tasks.py") == FileKind.CONFIG  # folders unknown: the name decides
    for rel in ("setup.py", "pkg/__init__.py", "pkg/setup.py", "pkg/tasks.py"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("")
    project = scan(tmp_path)
    assert [m.path for m in project.manifests] == ["setup.py"]
    kinds = {f.path: f.kind for f in project.files}
    assert kinds["pkg/setup.py"] == kinds["pkg/tasks.py"] == FileKind.SOURCE


def test_a_runnable_script_outside_the_packages_of_a_packaged_project_is_a_tool(tmp_path):
    files = {
        "pyproject.toml": '[build-system]\nrequires = ["hatchling"]\n'
        '[project]\nname = "tagger"\nversion = "1"\n',
        "tagger/__init__.py": "",
        "tagger/cli.py": 'if __name__ == "__main__":\n    pass\n',
        "extra/release.py": 'import click\n\nif __name__ == "__main__":\n    pass\n',
        "hooks/post-commit.py": "#!/usr/bin/env python\nimport os\n",
        "plugins/helpers.py": "import requests\n",  # a module, not a script
        "plugins/web/__init__.py": 'if __name__ == "__main__":\n    pass\n',
    }
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    kinds = {f.path: f.kind for f in scan(tmp_path).files}
    assert kinds["extra/release.py"] == FileKind.SCRIPT
    assert kinds["hooks/post-commit.py"] == FileKind.SCRIPT
    assert kinds["tagger/cli.py"] == FileKind.SOURCE
    assert kinds["plugins/helpers.py"] == FileKind.SOURCE
    assert kinds["plugins/web/__init__.py"] == FileKind.SOURCE


def test_an_application_without_a_build_system_keeps_its_scripts(tmp_path):
    (tmp_path / "jobs").mkdir()
    (tmp_path / "requirements.txt").write_text("")
    (tmp_path / "jobs" / "nightly.py").write_text('if __name__ == "__main__":\n    pass\n')
    kinds = {f.path: f.kind for f in scan(tmp_path).files}
    assert kinds["jobs/nightly.py"] == FileKind.SOURCE


def test_a_build_folder_of_typescript_modules_is_code_not_output(tmp_path: Path):
    (tmp_path / "build").mkdir()
    (tmp_path / "build" / "readme-parser.ts").write_text("import x from 'regex-join'\n")
    (tmp_path / "dist").mkdir()
    (tmp_path / "dist" / "index.js").write_text("require('a')\n")
    (tmp_path / "dist" / "index.d.ts").write_text("export {}\n")
    assert [f.path for f in scan(tmp_path).files] == ["build/readme-parser.ts"]


def test_a_broken_manifest_in_test_data_is_a_warning_and_at_the_root_an_error(tmp_path: Path):
    from conftest import write_tree

    write_tree(
        tmp_path,
        {
            "package.json": '{"name": "app", "version": "1.0.0"}',
            "test/fixtures/broken-json/package.json": "{ not json",
            "lib/package.json": "{ broken",
        },
    )
    levels = {d.file: d.level for d in scan(tmp_path).diagnostics if "cannot parse" in d.message}
    assert levels == {
        "test/fixtures/broken-json/package.json": "warning",
        "lib/package.json": "error",
    }
