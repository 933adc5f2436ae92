from pathlib import Path

from conftest import offline_context

from depinfer.context import Context, Options
from depinfer.model import Ecosystem, Requirement, Section
from depinfer.registries import Registries
from depinfer.resolvers import python as py_resolver
from depinfer.resolvers import python_versions
from depinfer.scan import scan


def _app(
    tmp_path: Path, dockerfile: str | None, with_in: bool = False, compiled: bool = True
) -> Path:
    (tmp_path / "pyproject.toml").write_text(
        "[project]\nname = 'app'\nversion = '1'\ndependencies = []\n"
    )
    (tmp_path / "requirements.txt").write_text("")
    if compiled:
        (tmp_path / "requirements-dev.txt").write_text("-r requirements.txt\npip-tools\n")
    if dockerfile is not None:
        (tmp_path / "Dockerfile").write_text(dockerfile)
    if with_in:
        (tmp_path / "requirements.in").write_text("")
    return tmp_path


def _quart_requirements():
    return [
        Requirement(Ecosystem.PYPI, "quart", "pyproject.toml", Section.RUNTIME, spec=">=0.20"),
        Requirement(Ecosystem.PYPI, "quart", "requirements.txt", Section.RUNTIME, spec=">=0.20"),
    ]


def test_requirements_installed_by_a_dockerfile_is_a_deploy_lock(tmp_path):
    root = _app(
        tmp_path,
        "FROM python:3.11-slim\nCOPY requirements.txt .\nRUN pip install -r requirements.txt\n",
    )
    assert py_resolver.deploy_locks(scan(root)) == {"requirements.txt": "3.11"}


def test_a_dockerfile_alone_installs_a_hand_written_list(tmp_path):
    # no compiler named anywhere: the Dockerfile's list is as often the top-level names
    root = _app(tmp_path, "FROM python:3.11\nRUN pip install -r requirements.txt\n", compiled=False)
    assert py_resolver.deploy_locks(scan(root)) == {}
    wf = tmp_path / ".github" / "dependabot.yml"
    wf.parent.mkdir()
    wf.write_text("updates:\n  - package-ecosystem: pip-compile\n    directory: /\n")
    assert py_resolver.deploy_locks(scan(root)) == {"requirements.txt": "3.11"}


def test_requirements_beside_its_in_file_is_a_lock(tmp_path):
    assert py_resolver.deploy_locks(scan(_app(tmp_path, None, with_in=True))) == {
        "requirements.txt": None
    }


def test_plain_requirements_mirror_is_not_a_lock(tmp_path):
    assert py_resolver.deploy_locks(scan(_app(tmp_path, None))) == {}


def test_deploy_lock_gets_the_compiled_pinned_set(tmp_path, monkeypatch):
    root = _app(tmp_path, "FROM python:3.12\nRUN pip install -r requirements.txt\n")
    seen = {}

    def fake_compile(text, python, as_of, timeout=120, uv_args=None):
        seen["python"], seen["text"] = python, text
        return True, "quart==0.20.0\nwerkzeug==3.1.3\n", ""

    monkeypatch.setattr(python_versions, "uv_compile", fake_compile)
    ctx = Context(Options(), Registries())
    out = py_resolver.expand_deploy_locks(scan(root), _quart_requirements(), ctx)
    lock = sorted((r.name, r.spec) for r in out if r.manifest == "requirements.txt")
    assert lock == [("quart", "==0.20.0"), ("werkzeug", "==3.1.3")]
    assert [r.spec for r in out if r.manifest == "pyproject.toml"] == [">=0.20"]
    assert seen == {"python": "3.12", "text": "quart>=0.20\n"}


def test_offline_deploy_lock_keeps_top_level_names(tmp_path):
    root = _app(tmp_path, "RUN pip install -r requirements.txt\n")
    out = py_resolver.expand_deploy_locks(scan(root), _quart_requirements(), offline_context())
    assert [(r.manifest, r.name) for r in out] == [
        ("pyproject.toml", "quart"),
        ("requirements.txt", "quart"),
    ]


def _in_pair(tmp_path: Path, lock: str = "") -> Path:
    backend = tmp_path / "app" / "backend"
    backend.mkdir(parents=True)
    (backend / "requirements.in").write_text("quart\n")
    (backend / "requirements.txt").write_text(lock)
    return tmp_path


def test_txt_beside_its_in_file_is_compiled_from_the_in_lines(tmp_path, monkeypatch):
    # no pyproject: the `.in` holds the list, the empty `.txt` is pip-compile's output
    root = _in_pair(tmp_path)
    assert py_resolver.deploy_locks(scan(root)) == {"app/backend/requirements.txt": None}
    seen = {}

    def fake_compile(text, python, as_of, timeout=120, uv_args=None):
        seen["text"] = text
        return True, "quart==0.20.0\nwerkzeug==3.1.3\n", ""

    monkeypatch.setattr(python_versions, "uv_compile", fake_compile)
    top = Requirement(
        Ecosystem.PYPI, "quart", "app/backend/requirements.in", Section.RUNTIME, spec=">=0.20"
    )
    out = py_resolver.expand_deploy_locks(scan(root), [top], Context(Options(), Registries()))
    assert seen == {"text": "quart>=0.20\n"}
    assert [(r.manifest, r.spec) for r in out if r.name == "quart"] == [
        ("app/backend/requirements.in", ">=0.20"),  # the `.in` keeps its line as it was
        ("app/backend/requirements.txt", "==0.20.0"),
    ]
    assert sorted(r.name for r in out if r.manifest.endswith(".txt")) == ["quart", "werkzeug"]


def test_a_lock_that_pins_something_is_left_to_its_compiler(tmp_path):
    root = _in_pair(tmp_path, lock="quart==0.19.0\nwerkzeug==3.0.0\n")
    assert py_resolver.deploy_locks(scan(root)) == {}


def test_failed_compile_leaves_the_in_lines_once(tmp_path, monkeypatch):
    root = _in_pair(tmp_path)
    monkeypatch.setattr(python_versions, "uv_compile", lambda *a, **k: (False, "", "unsatisfiable"))
    top = Requirement(Ecosystem.PYPI, "quart", "app/backend/requirements.in", Section.RUNTIME)
    ctx = Context(Options(), Registries())
    out = py_resolver.expand_deploy_locks(scan(root), [top], ctx)
    assert [(r.manifest, r.name) for r in out] == [("app/backend/requirements.in", "quart")]
