"""Settings: glob ignore lists, and keys depinfer does not know are errors naming them."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO, write_tree

from depinfer.check import MESSAGES
from depinfer.config import FINDING_CODES, ConfigError, load_config
from depinfer.scan import scan


def config_from(root: Path, files: dict[str, str]):
    write_tree(root, files)
    return load_config(root, [])


def test_ignore_tables_accept_globs(tmp_path):
    cfg = config_from(
        tmp_path, {"pyproject.toml": '[tool.depinfer]\nignore = { DEP002 = ["types-*"] }\n'}
    )
    assert cfg.ignored("DEP002", "types-requests") and cfg.ignored("DEP002", "Types-PyYAML")
    assert not cfg.ignored("DEP002", "requests")
    assert not cfg.ignored("DEP001", "types-requests")


def test_plain_ignore_lists_accept_globs(tmp_path):
    cfg = config_from(tmp_path, {"depinfer.toml": 'ignore = ["pytest-*", "black", "ru?f"]\n'})
    assert all(cfg.ignored(code, "pytest-cov") for code in ("DEP001", "DEP002"))
    assert cfg.ignored("DEP002", "black") and cfg.ignored("DEP002", "ruff")
    assert not cfg.ignored("DEP002", "pytest") and not cfg.ignored("DEP002", "blacken")


@pytest.mark.parametrize(
    ("files", "where"),
    [
        (
            {"pyproject.toml": "[tool.depinfer]\nignor = ['x']\n"},
            "pyproject.toml: [tool.depinfer]",
        ),
        ({"depinfer.toml": "ignor = ['x']\n"}, "depinfer.toml"),
        ({"depinfer.toml": "[depinfer]\nignor = ['x']\n"}, "depinfer.toml: [depinfer]"),
        ({"package.json": '{"name": "a", "depinfer": {"ignor": []}}'}, 'package.json: "depinfer"'),
        (
            {"Cargo.toml": '[package]\nname = "c"\n[package.metadata.depinfer]\nignor = []\n'},
            "Cargo.toml: [package.metadata.depinfer]",
        ),
    ],
)
def test_an_unknown_key_is_an_error_naming_the_file_and_the_key(tmp_path, files, where):
    with pytest.raises(ConfigError) as err:
        config_from(tmp_path, files)
    assert str(err.value) == f"{where}: unknown setting `ignor` (did you mean `ignore`?)"


@pytest.mark.parametrize(
    ("setting", "message"),
    [
        ("ignore = { DEP999 = ['x'] }", "`ignore` names unknown finding code `DEP999`"),
        ("ignore = { DEP002 = 'x' }", "`ignore.DEP002` must be a list of strings"),
        ("ignore = 'x'", "`ignore` must be a list or a table"),
        ("exclude = 'build'", "`exclude` must be a list of strings"),
        ("mapping = ['cv2']", "`mapping` must be a table"),
        ("frobnicate = true", "unknown setting `frobnicate` (known: exclude, "),
    ],
)
def test_a_setting_that_cannot_apply_is_an_error(tmp_path, setting, message):
    with pytest.raises(ConfigError, match="pyproject.toml") as err:
        config_from(tmp_path, {"pyproject.toml": f"[tool.depinfer]\n{setting}\n"})
    assert message in str(err.value)


def test_every_problem_is_named_once(tmp_path):
    with pytest.raises(ConfigError) as err:
        config_from(
            tmp_path,
            {"depinfer.toml": "ignor = []\nexcluded = []\nignore = { DEP9 = [] }\n"},
        )
    lines = str(err.value).splitlines()
    assert len(lines) == 3 and "`ignor`" in lines[0] and "`excluded`" in lines[1]


def test_underscores_may_stand_for_hyphens(tmp_path):
    cfg = config_from(
        tmp_path,
        {
            "pyproject.toml": "[tool.depinfer]\nextend_exclude = ['a']\n"
            "known_first_party = ['helpers']\nexclude = []\n"
        },
    )
    assert (
        cfg.extend_exclude == ["a"] and cfg.exclude == [] and cfg.known_first_party == {"helpers"}
    )


def test_ignore_knows_exactly_the_codes_check_mode_reports():
    # a new code in depinfer.check must be added to depinfer.config.FINDING_CODES too
    assert set(MESSAGES) == FINDING_CODES


def test_scan_refuses_settings_it_cannot_apply(tmp_path):
    write_tree(tmp_path, {"depinfer.toml": "extend-exclud = ['x']\n", "x/a.py": ""})
    with pytest.raises(ConfigError, match="extend-exclud"):
        scan(tmp_path)


@pytest.mark.parametrize("mode", [[], ["--check"]])
def test_the_command_exits_2_naming_the_key_and_the_file(tmp_path, mode):
    write_tree(
        tmp_path,
        {
            "pyproject.toml": '[project]\nname = "a"\nversion = "1"\n[tool.depinfer]\nignor = []\n',
            "a.py": "import requests\n",
        },
    )
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    proc = subprocess.run(
        [sys.executable, "-m", "depinfer", str(tmp_path), "--offline", *mode],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert proc.returncode == 2
    assert proc.stderr == (
        "depinfer: pyproject.toml: [tool.depinfer]: unknown setting `ignor` "
        "(did you mean `ignore`?)\n"
    )
    assert "Traceback" not in proc.stderr and proc.stdout == ""
