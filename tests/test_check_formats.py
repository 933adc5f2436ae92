"""Check-mode reporters: text (path:line:col, colour only on a terminal), json, github, sarif."""

import io
import json
import os
import subprocess
import sys
from pathlib import Path

from conftest import write_tree

from depinfer.check import Finding
from depinfer.check_formats import render, text_line, use_colour

ROOT = Path(__file__).resolve().parent.parent

F = Finding(
    "DEP001",
    "requests",
    "pyproject.toml",
    "pkg/a,b.py",
    7,
    "'requests' is imported but not declared in pyproject.toml",
    column=5,
)


class _Tty(io.StringIO):
    def isatty(self):
        return True


def test_text_line_is_path_line_col_code_message():
    assert text_line(F) == (
        "pkg/a,b.py:7:5: DEP001 'requests' is imported but not declared in pyproject.toml"
    )


def test_colour_only_on_a_terminal_and_never_with_no_color():
    assert use_colour(_Tty(), {}) is True
    assert use_colour(_Tty(), {"NO_COLOR": "1"}) is False
    assert use_colour(_Tty(), {"TERM": "dumb"}) is False
    assert use_colour(io.StringIO(), {}) is False
    coloured = text_line(F, colour=True)
    assert "\033[" in coloured and "DEP001" in coloured and "pkg/a,b.py:7:5:" in coloured


def test_github_annotations_escape_properties():
    out = render("github", [F], [], io.StringIO())
    assert out == (
        "::error file=pkg/a%2Cb.py,line=7,col=5,title=DEP001::"
        "DEP001 'requests' is imported but not declared in pyproject.toml\n"
    )


def test_sarif_has_rules_and_a_located_result():
    doc = json.loads(render("sarif", [F], [], io.StringIO()))
    assert doc["version"] == "2.1.0"
    run = doc["runs"][0]
    ids = [r["id"] for r in run["tool"]["driver"]["rules"]]
    assert {"DEP001", "DEP002", "DEP003", "DEP004", "DEP005", "DEP101"} <= set(ids)
    (result,) = run["results"]
    assert ids[result["ruleIndex"]] == "DEP001"
    loc = result["locations"][0]["physicalLocation"]
    assert loc["artifactLocation"]["uri"] == "pkg/a,b.py"
    assert loc["region"] == {"startLine": 7, "startColumn": 5}


def test_json_keeps_findings_as_data():
    doc = json.loads(render("json", [F], ["boom"], io.StringIO()))
    assert doc["errors"] == ["boom"]
    assert doc["findings"][0]["column"] == 5 and doc["findings"][0]["code"] == "DEP001"


def _run(tmp_path, *args, **env_extra):
    write_tree(
        tmp_path,
        {
            "pyproject.toml": "[project]\nname='app'\ndependencies=[]\n",
            "app/__init__.py": "import requests\n",
        },
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT), **env_extra}
    return subprocess.run(
        [sys.executable, "-m", "depinfer", str(tmp_path), "--check", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )


def test_cli_text_piped_has_no_colour_and_a_column(tmp_path):
    proc = _run(tmp_path)
    assert proc.returncode == 1, proc.stderr
    assert proc.stdout.startswith("app/__init__.py:1:1: DEP001 ")
    assert "\033[" not in proc.stdout


def test_cli_github_and_sarif(tmp_path):
    proc = _run(tmp_path, "--format", "github")
    assert proc.stdout.startswith("::error file=app/__init__.py,line=1,col=1,title=DEP001::")
    proc = _run(tmp_path, "--format", "sarif")
    assert json.loads(proc.stdout)["runs"][0]["results"][0]["ruleId"] == "DEP001"
    assert proc.returncode == 1


def test_cli_format_without_check_is_refused(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run(
        [sys.executable, "-m", "depinfer", str(tmp_path), "--format", "sarif"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert proc.returncode == 2 and "--format only applies with --check" in proc.stderr


def test_cli_colours_on_a_terminal_unless_no_color(tmp_path):
    import pty

    write_tree(
        tmp_path,
        {
            "pyproject.toml": "[project]\nname='app'\ndependencies=[]\n",
            "app/__init__.py": "import requests\n",
        },
    )

    def on_tty(extra):
        env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "TERM")}
        env.update(PYTHONPATH=str(ROOT), TERM="xterm", **extra)
        leader, follower = pty.openpty()
        proc = subprocess.run(
            [sys.executable, "-m", "depinfer", str(tmp_path), "--check"],
            stdout=follower,
            stderr=subprocess.DEVNULL,
            env=env,
            timeout=120,
        )
        os.close(follower)
        out = b""
        try:
            while chunk := os.read(leader, 4096):
                out += chunk
        except OSError:
            pass
        os.close(leader)
        return proc.returncode, out.decode()

    code, out = on_tty({})
    assert code == 1 and "\033[" in out and "DEP001" in out
    code, out = on_tty({"NO_COLOR": "1"})
    assert code == 1 and "\033[" not in out and "app/__init__.py:1:1: DEP001" in out
