"""Python implicit-dependency rules (data/python/implicit.json) and the pytest plugins
tests use without importing them (python_pytest.py over data/python/pytest_plugins.toml)."""

from __future__ import annotations

from conftest import (
    FIXTURES,
    copy_fixture,
    infer_offline,
    names_by_manifest,
    placements,
    write_tree,
)

from depinfer.rules.python import rules
from depinfer.rules.python_pytest import Found, Plugin, choose, scan_python
from depinfer.rules.python_pytest import table as plugin_table

BASE = {
    "pyproject.toml": '[project]\nname = "p"\nversion = "1"\ndependencies = []\n'
    '[project.optional-dependencies]\ntest = ["pytest"]\n',
    "p/__init__.py": "",
}


def test_every_rule_says_why_and_cites_a_source():
    for rule in rules():
        assert rule["why"] and rule["source"].startswith("https://"), rule["id"]
        assert {"imports", "imports_regex", "text"} & rule.keys(), rule["id"]


def test_mocker_fixture_needs_pytest_mock(tmp_path):
    write_tree(tmp_path, {**BASE, "tests/test_x.py": "def test_a(mocker):\n    pass\n"})
    assert ("pytest-mock", "optional-dependencies.test") in placements(tmp_path)


def test_asyncio_marker_needs_pytest_asyncio(tmp_path):
    src = "import pytest\n\n@pytest.mark.asyncio\nasync def test_a():\n    pass\n"
    write_tree(tmp_path, {**BASE, "tests/test_x.py": src})
    assert ("pytest-asyncio", "optional-dependencies.test") in placements(tmp_path)


def test_cov_option_in_ci_needs_pytest_cov(tmp_path):
    wf = "jobs:\n  t:\n    steps:\n      - run: pytest --cov=p -n auto\n"
    write_tree(tmp_path, {**BASE, ".github/workflows/ci.yml": wf})
    placed = placements(tmp_path)
    assert ("pytest-cov", "optional-dependencies.test") in placed
    assert ("pytest-xdist", "optional-dependencies.test") in placed


def test_parquet_io_with_pandas_needs_pyarrow(tmp_path):
    src = "import pandas as pd\n\ndef save(df):\n    df.to_parquet('x.parquet')\n"
    write_tree(tmp_path, {**BASE, "p/io.py": src})
    assert ("pyarrow", None) in placements(tmp_path)


def test_uvicorn_with_options_before_the_app_in_shell_or_exec_form(tmp_path):
    for cmd in (
        "CMD poetry run uvicorn --host=0.0.0.0 app.main:app\n",
        'CMD ["uvicorn", "app.main:app", "--host", "0.0.0.0"]\n',
    ):
        root = write_tree(tmp_path / str(len(cmd)), {**BASE, "Dockerfile": cmd})
        assert ("uvicorn", None) in placements(root)
    logging_only = 'LOGGERS = ("uvicorn.asgi", "uvicorn.access")\n'
    root = write_tree(tmp_path / "logs", {**BASE, "Dockerfile": f"RUN echo '{logging_only}'\n"})
    assert ("uvicorn", None) not in placements(root)


def test_each_service_whose_dockerfile_runs_the_server_gets_it(tmp_path):
    tree = {}
    for svc in ("auth", "orders"):
        tree[f"{svc}/requirements.txt"] = ""
        tree[f"{svc}/{svc}_app/main.py"] = "from fastapi import FastAPI\napp = FastAPI()\n"
        tree[f"{svc}/Dockerfile"] = f'CMD ["uvicorn", "{svc}_app.main:app"]\n'
    write_tree(tmp_path, tree)
    written = names_by_manifest(tmp_path)
    assert "uvicorn" in written["auth/requirements.txt"]
    assert "uvicorn" in written["orders/requirements.txt"]


def test_gunicorn_config_with_uvicorn_worker_needs_both(tmp_path):
    conf = 'bind = "0.0.0.0:8000"\nworker_class = "uvicorn.workers.UvicornWorker"\n'
    write_tree(tmp_path, {**BASE, "gunicorn.conf.py": conf})
    placed = placements(tmp_path)
    assert ("gunicorn", None) in placed and ("uvicorn", None) in placed


def test_google_auth_requests_transport_needs_requests(tmp_path):
    src = "from google.auth.transport.requests import Request\n"
    write_tree(tmp_path, {**BASE, "p/auth.py": src})
    placed = placements(tmp_path)
    assert ("requests", None) in placed and ("google-auth", None) in placed


def test_azure_async_clients_need_the_aiohttp_transport(tmp_path):
    src = (
        "from azure.identity.aio import DefaultAzureCredential\n"
        "from azure.storage.blob import aio\n"
    )
    write_tree(tmp_path, {**BASE, "p/chat.py": src})
    placed = placements(tmp_path)
    assert ("aiohttp", None) in placed and ("azure-identity", None) in placed
    # the synchronous clients need no async transport
    write_tree(tmp_path, {"p/chat.py": "from azure.identity import DefaultAzureCredential\n"})
    assert ("aiohttp", None) not in placements(tmp_path)


def test_no_rule_fires_on_plain_code(tmp_path):
    write_tree(tmp_path, {**BASE, "p/x.py": "import os\n"})
    assert placements(tmp_path) == set()


# --- pytest plugins: markers, fixtures, pytest_plugins, -p, ini keys (python_pytest.py) ---


def _plugin(package: str, **kw: object) -> Plugin:
    fields = {
        "entry": "",
        "markers": frozenset(),
        "fixtures": frozenset(),
        "ini": frozenset(),
        "modules": (),
        "imports": (),
        "requires": (),
    }
    fields.update(kw)
    return Plugin(package=package, **fields)  # type: ignore[arg-type]


def _found(src: str, rel: str = "tests/test_x.py") -> Found:
    found = Found()
    scan_python(rel, src, True, found)
    return found


def test_fixture_repository_gets_the_plugins_its_markers_and_fixtures_need():
    placed = placements(FIXTURES / "python" / "rules-pytest-plugins")
    assert ("anyio", "optional-dependencies.test") in placed
    assert ("pytest-mock", "optional-dependencies.test") in placed
    names = {name for name, _ in placed}
    # benchmark/httpserver/anyio_backend are defined in conftest.py; snapshot is parametrized
    assert not names & {"pytest-benchmark", "pytest-httpserver", "pytest-localserver"}
    assert not names & {"syrupy", "pytest-snapshot"}


def test_anyio_marker_needs_anyio_even_when_the_code_never_imports_it(tmp_path):
    src = "import pytest\n\npytestmark = pytest.mark.anyio\n\nasync def test_a():\n    pass\n"
    write_tree(tmp_path, {**BASE, "tests/test_x.py": src})
    assert ("anyio", "optional-dependencies.test") in placements(tmp_path)


def test_pytest_plugins_entries_and_ini_keys_name_their_plugin(tmp_path):
    conftest = 'pytest_plugins = ["pytest_asyncio", "tests.helpers"]\n'
    config = "[pytest]\naddopts = -p xdist -p no:cacheprovider\ntimeout = 30\n"
    write_tree(tmp_path, {**BASE, "tests/conftest.py": conftest, "pytest.ini": config})
    placed = {name for name, _ in placements(tmp_path)}
    assert {"pytest-asyncio", "pytest-xdist", "pytest-timeout"} <= placed


def test_a_plugins_command_line_option_names_the_plugin(tmp_path):
    ci = (
        "jobs:\n  t:\n    steps:\n      - run: |\n"
        "          pytest tests/ -v --cov=. \\\n"
        "            --timeout=120 | tee -f out.log\n"
    )
    test = "def test_a():\n    pass\n"
    write_tree(tmp_path, {**BASE, ".github/workflows/ci.yml": ci, "tests/test_x.py": test})
    placed = {name for name, _ in placements(tmp_path)}
    assert {"pytest-timeout", "pytest-cov"} <= placed  # --timeout on the continued line
    assert "pytest-xdist" not in placed  # `-f` is tee's, after the pipe
    config = "[pytest]\naddopts = --reruns 2\n"
    write_tree(tmp_path / "b", {**BASE, "pytest.ini": config, "tests/test_x.py": test})
    assert "pytest-rerunfailures" in {name for name, _ in placements(tmp_path / "b")}


def test_an_uppercase_ini_key_in_setup_cfg_names_its_plugin(tmp_path):
    config = "[metadata]\nname = p\n\n[tool:pytest]\nDJANGO_SETTINGS_MODULE = p.settings\n"
    write_tree(
        tmp_path, {**BASE, "setup.cfg": config, "tests/test_x.py": "def test_a():\n    pass\n"}
    )
    assert "pytest-django" in {name for name, _ in placements(tmp_path)}


def test_usefixtures_and_getfixturevalue_are_fixture_uses():
    src = (
        "import pytest\n\n@pytest.mark.usefixtures('mocker')\ndef test_a(request):\n"
        "    request.getfixturevalue('httpx_mock')\n"
    )
    uses = {(u.kind, u.name) for u in _found(src).uses}
    assert {("fixture", "mocker"), ("fixture", "httpx_mock")} <= uses
    assert ("fixture", "request") not in uses


def test_parametrized_given_and_defaulted_parameters_are_not_fixtures():
    src = (
        "import pytest\nfrom hypothesis import given, strategies as st\n\n"
        "@pytest.mark.parametrize('snapshot, other', [(1, 2)])\n"
        "def test_a(snapshot, other, mocker):\n    pass\n\n"
        "@given(st.integers(), freezer=st.none())\n"
        "def test_b(benchmark, freezer, value):\n    pass\n\n"
        "def test_c(self, page=None, *args, **kw):\n    pass\n\n"
        "def helper(client):\n    pass\n\n"
        "class Helper:\n    def test_d(self, page):\n        pass\n\n"
        "class TestE:\n    def test_e(self, db):\n        def test_inner(browser):\n"
        "            pass\n"
    )
    found = _found(src)
    fixtures = {u.name for u in found.uses if u.kind == "fixture"}
    assert fixtures == {"snapshot", "other", "mocker", "benchmark", "db"}
    assert {"snapshot", "other"} <= found.parametrized


def test_fixtures_and_markers_the_repository_defines_are_its_own():
    src = (
        "import pytest\n\n@pytest.fixture(name='mocker')\ndef _m():\n    pass\n\n"
        "def pytest_configure(config):\n"
        "    config.addinivalue_line('markers', 'anyio: run on anyio')\n\n"
        "@pytest.mark.anyio\ndef test_a(mocker):\n    pass\n"
    )
    table = (
        _plugin("pytest-mock", fixtures=frozenset({"mocker"})),
        _plugin("anyio", markers=frozenset({"anyio"})),
    )
    assert choose(_found(src), [], "", table) == []


def test_a_name_two_plugins_provide_is_left_out_unless_the_repository_shows_one():
    table = (
        _plugin("pytest-freezer", fixtures=frozenset({"freezer"}), imports=("pytest_freezer",)),
        _plugin("pytest-freezegun", fixtures=frozenset({"freezer"}), imports=("pytest_freezegun",)),
    )
    found = _found("def test_a(freezer):\n    pass\n")
    (choice,) = choose(found, [], "", table)
    assert len(choice.plugins) == 2  # ambiguous: reported, not written
    (choice,) = choose(found, [], "pip install pytest-freezegun\n", table)
    assert [p.package for p in choice.plugins] == ["pytest-freezegun"]


def test_a_name_only_one_plugin_provides_settles_its_other_shared_names():
    table = (
        _plugin("pytest-recording", markers=frozenset({"vcr", "block_network"})),
        _plugin("pytest-vcr", markers=frozenset({"vcr"})),
    )
    src = "import pytest\n\n@pytest.mark.vcr\n@pytest.mark.block_network\ndef test_a():\n    pass\n"
    chosen = {c.plugins[0].package for c in choose(_found(src), [], "", table)}
    assert chosen == {"pytest-recording"}


def test_a_plugin_another_chosen_plugin_depends_on_is_not_listed_twice():
    table = (
        _plugin("pytest-datadir", fixtures=frozenset({"datadir"})),
        _plugin(
            "pytest-regressions",
            fixtures=frozenset({"data_regression"}),
            requires=("pytest-datadir", "pyyaml"),
        ),
    )
    src = "def test_a(datadir, data_regression):\n    pass\n"
    chosen = {c.plugins[0].package for c in choose(_found(src), [], "", table)}
    assert chosen == {"pytest-regressions"}


def test_the_plugin_table_lists_markers_and_fixtures_but_not_pytests_own():
    plugins = {p.package: p for p in plugin_table()}
    assert "anyio" in plugins["anyio"].markers
    assert "mocker" in plugins["pytest-mock"].fixtures
    own = {"tmp_path", "monkeypatch", "capsys", "request", "parametrize", "skipif"}
    assert not any(own & (p.fixtures | p.markers) for p in plugins.values())


def test_an_ambiguous_fixture_is_reported_and_not_written(tmp_path):
    src = "def test_a(freezer):\n    pass\n"
    write_tree(tmp_path, {**BASE, "tests/test_x.py": src})
    result = infer_offline(tmp_path)
    names = {r.name for r in result.requirements}
    assert not names & {"pytest-freezer", "pytest-freezegun"}
    assert any("ambiguous" in d.message and "freezer" in d.message for d in result.diagnostics)


def test_web_app_features_need_their_helper_distributions(tmp_path):
    app = (
        "from typing import Annotated\n"
        "from fastapi import Depends, FastAPI, Form\n"
        "from fastapi.security import OAuth2PasswordRequestForm\n"
        "from pydantic import BaseModel, EmailStr\n"
        "from sqlalchemy import create_engine\n\n"
        "engine = create_engine('postgresql+psycopg://app@db/app')\n\n"
        "class User(BaseModel):\n    email: EmailStr | None = None\n\n"
        "app = FastAPI()\n\n"
        "@app.post('/login')\n"
        "def login(form: Annotated[OAuth2PasswordRequestForm, Depends()], note: str = Form()):\n"
        "    return form.username\n"
    )
    write_tree(tmp_path, {**BASE, "p/app.py": app})
    placed = {name for name, _ in placements(tmp_path)}
    assert {"email-validator", "python-multipart", "psycopg"} <= placed


def test_naming_emailstr_without_annotating_a_field_needs_nothing(tmp_path):
    # a library mapping pydantic types to columns only names the type
    lib = "from pydantic import EmailStr\n\nSTRING_TYPES = (str, EmailStr)\n"
    write_tree(tmp_path, {**BASE, "p/types.py": lib})
    assert "email-validator" not in {name for name, _ in placements(tmp_path)}


def test_postgres_urls_and_django_engine_need_the_default_driver(tmp_path):
    compose = "services:\n  web:\n    command: gunicorn site.wsgi:application --bind 0.0.0.0:8000\n"
    django = {
        **BASE,
        "p/settings.py": "import django\nDATABASES = {}\n",
        ".env.dev-sample": "SQL_ENGINE=django.db.backends.postgresql\n",
        "docker-compose.prod.yml": compose,
    }
    placed = placements(write_tree(tmp_path / "dj", django))
    assert {("psycopg2-binary", None), ("gunicorn", None)} <= placed
    sqla = {**BASE, "p/db.py": 'import sqlalchemy\nURL = "postgresql://u@db/app"\n'}
    assert ("psycopg2-binary", None) in placements(write_tree(tmp_path / "sqla", sqla))
    chosen = {**sqla, "p/drv.py": "import psycopg\n"}  # the project picked psycopg 3
    assert ("psycopg2-binary", None) not in placements(write_tree(tmp_path / "own", chosen))
    asyncpg_url = {**BASE, "p/db.py": 'import sqlalchemy\nURL = "postgresql+asyncpg://db/app"\n'}
    assert ("psycopg2-binary", None) not in placements(write_tree(tmp_path / "apg", asyncpg_url))
    ci_only = {
        **BASE,
        "p/db.py": "import sqlalchemy\n",
        ".github/workflows/t.env": "postgres://x\n",
    }
    assert ("psycopg2-binary", None) not in placements(write_tree(tmp_path / "ci", ci_only))


def test_a_driverless_url_rewritten_to_a_named_driver_adds_no_default_driver(tmp_path):
    # settings that turn postgresql:// into postgresql+psycopg:// chose psycopg 3 themselves
    config = (
        "from sqlmodel import create_engine\n\n"
        "def use_psycopg(url: str) -> str:\n"
        '    for scheme in ("postgres://", "postgresql://"):\n'
        "        if url.startswith(scheme):\n"
        '            return url.replace(scheme, "postgresql+psycopg://", 1)\n'
        "    return url\n"
    )
    placed = {name for name, _ in placements(write_tree(tmp_path, {**BASE, "p/config.py": config}))}
    assert "psycopg" in placed
    assert "psycopg2-binary" not in placed


def test_commented_out_urls_and_a_driver_chosen_in_a_group_add_no_driver(tmp_path):
    commented = {
        **BASE,
        "p/config.py": (
            "import sqlalchemy\n"
            '# SQLALCHEMY_DATABASE_URI = "postgresql://u@localhost/app"\n'
            '#URI="mysql+pymysql://u@localhost/app"\n'
        ),
    }
    placed = {name for name, _ in placements(write_tree(tmp_path / "c", commented))}
    assert not placed & {"psycopg2-binary", "pymysql"}
    grouped = {
        **BASE,
        "pyproject.toml": BASE["pyproject.toml"] + '[dependency-groups]\nprod = ["psycopg[c]"]\n',
        "p/settings.py": 'import django\nENGINE = "django.db.backends.postgresql"\n',
    }
    assert ("psycopg2-binary", None) not in placements(write_tree(tmp_path / "g", grouped))


def test_a_server_goes_to_the_requirements_layer_its_image_installs(tmp_path):
    files = {
        "requirements/common.txt": "",
        "requirements/docker.txt": "",
        "requirements/dev.txt": "-r common.txt\n",
        "requirements/prod.txt": "-r common.txt\n",
        "Dockerfile": "COPY requirements requirements\nRUN venv/bin/pip install -r requirements/docker.txt\n",
        "boot.sh": "exec gunicorn -b :5000 app:app\n",
        "Procfile": "web: gunicorn app:app\n",
        "app/__init__.py": "import flask\n",
    }
    result = infer_offline(write_tree(tmp_path / "site", files))
    placed = {(r.manifest, r.name) for r in result.requirements}
    assert ("requirements/docker.txt", "gunicorn") in placed
    assert ("requirements/common.txt", "gunicorn") not in placed
    assert ("requirements/common.txt", "flask") in placed


def test_dev_requirement_names_are_words_not_substrings():
    from depinfer.mapping.python_manifests import DEV_REQUIREMENT_NAME as dev

    for name in ("requirements-dev.txt", "dev.txt", "test-requirements.txt", "docs.txt", "ci.txt"):
        assert dev.search(name), name
    for name in ("docker.txt", "production.txt", "requirements.txt", "base.txt"):
        assert not dev.search(name), name


def test_parsers_named_by_string_need_their_distributions(tmp_path):
    src = (
        "from bs4 import BeautifulSoup\nimport pandas as pd\n\n"
        "def parse(page):\n    return BeautifulSoup(page, 'html5lib')\n\n"
        "def tables(html):\n    return pd.read_html(html)\n"
    )
    write_tree(tmp_path, {**BASE, "p/scrape.py": src})
    placed = placements(tmp_path)
    assert ("html5lib", None) in placed
    assert ("lxml", None) in placed


def test_a_parser_the_project_declares_in_an_extra_is_not_added(tmp_path):
    files = {
        **BASE,
        "pyproject.toml": BASE["pyproject.toml"] + 'importers = ["lxml"]\n',
        "p/imp.py": "from bs4 import BeautifulSoup\n\ndef x(t):\n    return BeautifulSoup(t, 'xml')\n",
    }
    write_tree(tmp_path, files)
    assert ("lxml", None) not in placements(tmp_path)


def test_a_server_the_image_installs_by_name_is_not_written(tmp_path):
    docker = (
        "FROM python:3.13\nCOPY . /app\n"
        "RUN pip install -U --no-cache-dir \\\n    pip \\\n    gunicorn \\\n    /app[server] \\\n"
        "  && rm -rf /app\n"
        'ENTRYPOINT ["gunicorn", "app.server:create_app()"]\n'
    )
    root = write_tree(tmp_path / "own", {**BASE, "Dockerfile": docker})
    assert ("gunicorn", None) not in placements(root)
    through_list = 'RUN pip install -r requirements.txt\nCMD ["gunicorn", "app:app"]\n'
    root = write_tree(tmp_path / "list", {**BASE, "Dockerfile": through_list})
    assert ("gunicorn", None) in placements(root)


def test_a_systemd_unit_that_starts_gunicorn_needs_it(tmp_path):
    unit = (
        "[Service]\nExecStart=/opt/app/venv/bin/gunicorn --config /opt/app/gunicorn.py app.wsgi\n"
    )
    root = write_tree(tmp_path, {**BASE, "contrib/app.service": unit})
    assert ("gunicorn", None) in placements(root)


def test_a_url_in_a_docstrings_example_needs_no_driver(tmp_path):
    src = (
        "import sqlalchemy\n\n\ndef serve(url):\n"
        '    """Serve a storage.\n\n    Example: serve("mysql+pymysql://user@host/db")\n    """\n'
        "    return sqlalchemy.create_engine(url)\n"
    )
    names = {n for n, _ in placements(write_tree(tmp_path, {**BASE, "p/__init__.py": src}))}
    assert "sqlalchemy" in names and "pymysql" not in names
    code = src.replace("return sqlalchemy.create_engine(url)", 'return serve("mysql+pymysql://h")')
    names = {n for n, _ in placements(write_tree(tmp_path, {"p/__init__.py": code}))}
    assert "pymysql" in names


def test_a_call_of_an_optional_library_needs_its_helper_only_as_optionally(tmp_path):
    # pandas is loaded through a guarded proxy (openai's _extras): its read_excel's
    # openpyxl is as optional as pandas itself
    files = {
        **BASE,
        "p/proxy.py": "def load():\n    try:\n        import pandas\n    except ImportError:\n"
        "        raise RuntimeError('pip install p[datalib]')\n    return pandas\n",
        "p/read.py": "from p.proxy import load\n\n\ndef read(f):\n"
        "    return load().read_excel(f)\n",
    }
    names = {n for n, _ in placements(write_tree(tmp_path, files))}
    assert "openpyxl" not in names and "pandas" not in names


def test_wtforms_email_validator_needs_email_validator(tmp_path):
    root = copy_fixture("python", "rules-wtforms-email", tmp_path / "rules-wtforms-email")
    names = {n for n, _ in placements(root)}
    assert {"email-validator", "wtforms", "flask-wtf"} <= names
    assert "tzdata" not in names


def test_zoneinfo_class_still_needs_tzdata(tmp_path):
    root = copy_fixture("python", "rules-wtforms-email", tmp_path / "p")
    (root / "app" / "tz.py").write_text("from zoneinfo import ZoneInfo\nUTC = ZoneInfo('UTC')\n")
    result = infer_offline(root)
    assert "tzdata" in {r.name for r in result.requirements}


def test_a_test_client_needs_the_optional_requirement_its_module_imports(tmp_path):
    # starlette.testclient imports httpx at its top; starlette requires it only under an
    # extra (data/python/optional_imports.json, built from the wheels)
    root = copy_fixture("python", "rules-optional-imports", tmp_path / "svc")
    placed = placements(root)
    assert ("fastapi", None) in placed
    assert ("httpx", "optional-dependencies.test") in placed
    assert ("httpx", None) not in placed


def test_optional_import_rows_fire_on_the_module_or_a_name_from_its_package():
    from depinfer.model import ImportRef
    from depinfer.rules.python_optional_imports import fired

    refs = [
        ImportRef("fastapi", "tests/a.py", 1, "python", names=("testclient",)),
        ImportRef("starlette.testclient", "tests/b.py", 2, "python", type_only=True),
    ]
    rules = {rule["dist"]: hits for rule, hits in fired(refs)}
    assert [h[:2] for h in rules["httpx"]] == [("tests/a.py", 1)]


def test_executing_notebooks_in_tests_needs_the_kernel(tmp_path):
    """nbclient/nbconvert/papermill/testbook start a kernel they do not require: the tests
    that execute notebooks fail with NoSuchKernel unless ipykernel is installed."""
    src = (
        "import nbformat\nfrom nbconvert.preprocessors import ExecutePreprocessor\n\n"
        "def test_nb():\n    nb = nbformat.read('a.ipynb', as_version=4)\n"
        "    ExecutePreprocessor(timeout=60).preprocess(nb)\n"
    )
    write_tree(tmp_path, {**BASE, "tests/test_nb.py": src})
    assert ("ipykernel", "optional-dependencies.test") in placements(tmp_path)
    # a notebook test runner that requires the kernel itself brings it
    with_nbmake = BASE["pyproject.toml"].replace('["pytest"]', '["pytest", "nbmake"]')
    root = write_tree(
        tmp_path / "m", {**BASE, "pyproject.toml": with_nbmake, "tests/test_nb.py": src}
    )
    assert not any(name == "ipykernel" for name, _ in placements(root))


def test_a_dialect_and_driver_prefix_the_code_rewrites_urls_to_loads_that_driver(tmp_path):
    # `url.replace("sqlite:", "sqlite+aiosqlite:")`: the prefix alone, no `//`, names the driver
    db = (
        "import sqlalchemy\n\n"
        "def async_url(url: str) -> str:\n"
        '    if url.startswith("sqlite:"):\n'
        '        return url.replace("sqlite:", "sqlite+aiosqlite:", 1)\n'
        '    return url.replace("postgresql:", "postgresql+asyncpg:", 1)\n'
    )
    placed = {name for name, _ in placements(write_tree(tmp_path / "a", {**BASE, "p/db.py": db}))}
    assert {"aiosqlite", "asyncpg"} <= placed
    # a word after the colon is not a URL or a prefix
    prose = {**BASE, "p/db.py": 'import sqlalchemy\nNOTE = "sqlite+aiosqlite: see docs"\n'}
    assert "aiosqlite" not in {name for name, _ in placements(write_tree(tmp_path / "b", prose))}


def test_a_test_job_installing_only_a_requirements_file_gets_its_runner_from_it():
    root = FIXTURES / "python" / "rules-ci-test-runner"
    by_file = names_by_manifest(root)
    assert {"pytest", "pytest-cov", "pyyaml"} <= by_file["requirements.txt"]
    assert "pytest" not in by_file.get("pyproject.toml", set())  # its dev extra keeps it


def test_a_job_that_may_get_pytest_elsewhere_adds_no_runner():
    from depinfer.rules.python_ci_runner import _needs

    found = _needs([("pip install -r requirements.txt\npytest -q", "")])
    assert found is not None and found[0] == "requirements.txt" and found[3] == []
    found = _needs([("pip install -r requirements.txt", "backend"), ("python -m pytest --cov", "")])
    assert found is not None and found[0] == "backend/requirements.txt"
    assert found[3] == [("--cov", "pytest-cov")]
    # the project itself, without an extra, brings only its runtime needs
    for itself in ("pip install .", "pip install -e .", "python -m pip install ./"):
        found = _needs([(f"pip install -r requirements.txt\n{itself}\npytest", "")])
        assert found is not None and found[0] == "requirements.txt", itself
    for other in (
        "pip install -r requirements.txt pytest\npytest",  # named on the pip line
        "pip install -r requirements.txt\npip install -e .[test]\npytest",  # the project's extra
        "pip install -r requirements.txt -r requirements-dev.txt\npytest",  # two files
        "pip install -r requirements.txt\ntox -e py",  # an environment manager
        "pip install -r requirements.txt\nflake8 .",  # no test runner
    ):
        assert _needs([(other, "")]) is None, other


def test_torch_tensorboard_needs_the_tensorboard_distribution(tmp_path):
    # torch does not install tensorboard, not even under an extra
    code = "from torch.utils.tensorboard import SummaryWriter\n\nW = SummaryWriter\n"
    placed = {name for name, _ in placements(write_tree(tmp_path / "a", {**BASE, "p/t.py": code}))}
    assert "tensorboard" in placed
    other = "from tensorboardX import SummaryWriter\nimport torch\n"
    placed = {name for name, _ in placements(write_tree(tmp_path / "b", {**BASE, "p/t.py": other}))}
    assert "tensorboard" not in placed
