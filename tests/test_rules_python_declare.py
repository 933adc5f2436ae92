"""The declare model (rules/python_declare.py, data/python/declare_model.toml): its table,
its cells, its probability, and the resolver decisions it makes."""

from __future__ import annotations

import pytest
from conftest import copy_fixture, infer_offline, write_tree

from depinfer.data import load_table
from depinfer.facts.python import DeclareFeatures, dependency_facts
from depinfer.report import explain_report
from depinfer.rules import python_declare
from depinfer.rules.python_declare import cell_of, estimate

TABLE = {
    "threshold": 0.5,
    "cells": {
        "guarded:reqs": {"declared": 3, "seen": 3},
        "guarded:package": {"declared": 1, "seen": 9},
        "tool-run:sole": {"declared": 0, "seen": 8},
    },
}


def test_the_shipped_table_names_its_source_a_threshold_and_counts():
    table = load_table(python_declare.TABLE)
    assert "fitted by scripts/fit_declare_model.py" in table["source"]
    assert 0 < table["threshold"] < 1
    assert table["cells"]
    for cell, counts in table["cells"].items():
        assert cell.split(":")[1] in ("sole", "reqs", "package")
        assert 0 <= counts["declared"] <= counts["seen"]


@pytest.mark.parametrize(
    ("features", "cell"),
    [
        (DeclareFeatures(where=("ci",), manifest_format="requirements", sole_list=True), "tool-run:sole"),
        (DeclareFeatures(where=("ci",), tooling=True, manifest_format="pyproject"), "tool-installed:package"),
        (DeclareFeatures(where=("docs-config",), manifest_format="requirements"), "tool-docs:reqs"),
        (DeclareFeatures(where=("source",), how=("guarded",), manifest_format="requirements"), "guarded:reqs"),
        (DeclareFeatures(where=("test",), manifest_format="pyproject"), "test-import:package"),
        (DeclareFeatures(where=("ci", "test"), tooling=True, manifest_format="requirements", sole_list=True), "test-installed:sole"),
        (DeclareFeatures(where=("example", "test"), manifest_format="pyproject"), "demo-import:package"),
        (DeclareFeatures(where=("source",), how=("top",), required_by="flask"), "runtime-required:package"),
        (DeclareFeatures(where=("source",), how=("guarded", "top")), "partly-guarded:package"),
        (DeclareFeatures(where=("source", "test"), how=("guarded", "top")), None),
        (DeclareFeatures(where=("source",), how=("top",)), None),  # facts decide
        (DeclareFeatures(where=("rule",)), None),
    ],
)  # fmt: skip
def test_each_habit_decision_has_its_cell(features, cell):
    assert cell_of(features) == cell


def test_a_cell_is_smoothed_towards_its_kind():
    seen = estimate(DeclareFeatures(where=("source",), how=("guarded",),
                                    manifest_format="requirements"), TABLE)  # fmt: skip
    # kind guarded: 4 of 12 → prior 5/14; the cell: (3 + 2 * 5/14) / (3 + 2)
    assert seen is not None and seen.probability == pytest.approx((3 + 2 * 5 / 14) / 5, abs=1e-4)
    assert seen.keep and "3 of 3 declared" in seen.describe()
    unseen = estimate(DeclareFeatures(where=("source",), how=("guarded",), manifest_format="requirements", sole_list=True), TABLE)  # fmt: skip
    assert unseen is not None and unseen.probability == pytest.approx(5 / 14, abs=1e-4)
    assert not unseen.keep
    assert estimate(DeclareFeatures(where=("source",), how=("top",)), TABLE) is None
    assert estimate(DeclareFeatures(where=("test",)), TABLE) is None  # a kind never seen
    assert estimate(None, TABLE) is None


def test_a_guarded_import_goes_to_the_requirements_list_when_the_model_says_so(
    tmp_path, monkeypatch
):
    root = copy_fixture("python", "model-guarded-requirements", tmp_path / "repo")
    monkeypatch.setattr(python_declare, "model", lambda: TABLE)
    written = {(r.name, r.manifest) for r in infer_offline(root).requirements}
    assert ("openai", "requirements.txt") in written
    assert ("flake8", "requirements.txt") not in written  # a tool: not a habit here
    low = {**TABLE, "cells": {"guarded:reqs": {"declared": 0, "seen": 9}}}
    monkeypatch.setattr(python_declare, "model", lambda: low)
    written = {(r.name, r.manifest) for r in infer_offline(root).requirements}
    assert ("openai", "requirements.txt") not in written
    assert ("requests", "requirements.txt") in written  # a top-level import: a fact


def test_a_tool_is_written_to_the_dev_list_when_the_model_says_so(tmp_path, monkeypatch):
    root = copy_fixture("python", "model-guarded-requirements", tmp_path / "repo")
    table = {"threshold": 0.5, "cells": {"tool-installed:reqs": {"declared": 9, "seen": 10}}}
    monkeypatch.setattr(python_declare, "model", lambda: table)
    written = {(r.name, r.manifest) for r in infer_offline(root).requirements}
    assert ("flake8", "requirements-dev.txt") in written


def test_explain_prints_the_features_and_the_probability(tmp_path, monkeypatch):
    root = copy_fixture("python", "model-guarded-requirements", tmp_path / "repo")
    monkeypatch.setattr(python_declare, "model", lambda: TABLE)
    text = explain_report(infer_offline(root), "openai")
    assert "written to requirements.txt" in text
    assert "features: where=source, how=guarded" in text
    assert "declare model: P(declared)=" in text and "cell guarded:reqs" in text
    text = explain_report(infer_offline(root), "flake8")
    assert "not written" in text and "where=ci,tool-config" in text


CI_INSTALLS_PYTEST = {
    "requirements.txt": "requests\n",
    "app/__init__.py": "",
    "app/client.py": "import requests\n",
    "tests/test_client.py": "import pytest\n\nfrom app.client import requests\n",
    ".github/workflows/ci.yml": "jobs:\n  t:\n    steps:\n"
    "      - run: pip install -r requirements.txt pytest\n      - run: pytest -q\n",
}


def test_a_test_import_the_ci_installs_is_the_models_to_decide(tmp_path, monkeypatch):
    """Tests import pytest, the CI line installs it too, the folder keeps one requirements
    file: its own cell (test-installed) says whether maintainers list it there too."""
    root = write_tree(tmp_path / "repo", CI_INSTALLS_PYTEST)
    high = {"threshold": 0.5, "cells": {"test-installed:sole": {"declared": 8, "seen": 10}}}
    monkeypatch.setattr(python_declare, "model", lambda: high)
    written = {(r.name, r.manifest) for r in infer_offline(root).requirements}
    assert ("pytest", "requirements.txt") in written
    low = {"threshold": 0.5, "cells": {"test-installed:sole": {"declared": 1, "seen": 10},
                                       "test-import:sole": {"declared": 9, "seen": 10}}}  # fmt: skip
    monkeypatch.setattr(python_declare, "model", lambda: low)
    written = {(r.name, r.manifest) for r in infer_offline(root).requirements}
    assert ("pytest", "requirements.txt") not in written


def test_a_test_import_the_ci_installs_stays_out_of_a_dev_group(tmp_path, monkeypatch):
    files = {**CI_INSTALLS_PYTEST, "requirements-dev.txt": "-r requirements.txt\n"}
    root = write_tree(tmp_path / "repo", files)
    high = {"threshold": 0.5, "cells": {"test-installed:reqs": {"declared": 8, "seen": 10}}}
    monkeypatch.setattr(python_declare, "model", lambda: high)
    written = {r.name for r in infer_offline(root).requirements}
    assert "pytest" not in written  # the tooling environment installs it (check agrees)


def test_an_import_shipped_code_guards_elsewhere_is_the_models_to_decide(tmp_path, monkeypatch):
    root = write_tree(
        tmp_path / "repo",
        {
            "requirements.txt": "requests\n",
            "app/__init__.py": "",
            "app/client.py": "import requests\n",
            "app/frames.py": "import pandas\n",
            "app/view.py": "try:\n    import pandas\nexcept ImportError:\n    pandas = None\n",
        },
    )
    low = {"threshold": 0.5, "cells": {"partly-guarded:sole": {"declared": 0, "seen": 7}}}
    monkeypatch.setattr(python_declare, "model", lambda: low)
    written = {r.name for r in infer_offline(root).requirements}
    assert "pandas" not in written and "requests" in written
    high = {"threshold": 0.5, "cells": {"partly-guarded:sole": {"declared": 7, "seen": 7}}}
    monkeypatch.setattr(python_declare, "model", lambda: high)
    assert "pandas" in {r.name for r in infer_offline(root).requirements}


def test_an_import_a_tested_module_makes_unguarded_is_kept_whatever_the_model_says(
    tmp_path, monkeypatch
):
    # tests/test_frames.py loads app.frames (through app.shapes), which imports pandas at top
    # level, unguarded: the tests cannot be collected without pandas
    files = {
        "requirements.txt": "requests\n",
        "app/__init__.py": "",
        "app/client.py": "import requests\n",
        "app/shapes.py": "from app.frames import table\n",
        "app/frames.py": "import pandas\n\ndef table():\n    return pandas.DataFrame()\n",
        "app/view.py": "try:\n    import pandas\nexcept ImportError:\n    pandas = None\n",
        "tests/test_frames.py": "from app.shapes import table\n\ndef test_table():\n    table()\n",
    }
    low = {"threshold": 0.5, "cells": {"partly-guarded:sole": {"declared": 0, "seen": 7}}}
    monkeypatch.setattr(python_declare, "model", lambda: low)
    root = write_tree(tmp_path / "repo", files)
    result = infer_offline(root)
    assert "pandas" in {r.name for r in result.requirements}
    features = next(dependency_facts(c).declare for c in result.candidates if c.name == "pandas")
    assert features.tested and python_declare.cell_of(features) is None
    # a test that loads only the guarded module leaves the decision to the model
    files["tests/test_frames.py"] = "from app.view import pandas\n\ndef test_view():\n    pass\n"
    result = infer_offline(write_tree(tmp_path / "repo2", files))
    assert "pandas" not in {r.name for r in result.requirements}
