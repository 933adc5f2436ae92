"""The C# declare model (rules/csharp_declare.py, data/csharp/declare_model.toml): template
companions no code names — coverlet.collector beside a test framework — written when the
maintainers of the fitting corpus mostly keep them, with --explain showing the features."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from conftest import copy_fixture, manifest_names

from depinfer.context import Options
from depinfer.data import load_table
from depinfer.facts.csharp import CompanionFeatures
from depinfer.pipeline import infer
from depinfer.rules import csharp_declare

TESTS = "tests/Shapes.Tests/Shapes.Tests.csproj"
LIB = "src/Shapes/Shapes.csproj"
NUNIT = """using NUnit.Framework;
using Shapes;

namespace Shapes.Tests;

public class CircleTests
{
    [Test]
    public void Area() => Assert.That(new Circle(1).Area, Is.EqualTo(System.Math.PI));
}
"""


def _names(root, manifest):
    return set(manifest_names(infer(root, Options(offline=True)), manifest))


def _fixture(tmp_path):
    root = copy_fixture("csharp", "buildtooling", tmp_path / "repo")
    (root / ".github" / "workflows" / "ci.yml").write_text("jobs: {}\n")
    return root


def test_the_table_names_its_corpus_and_each_companion_its_source():
    table = load_table(csharp_declare.TABLE)
    assert "csharp-train.jsonl" in table["source"] and "validation" not in table["source"]
    assert 0 < table["threshold"] < 1
    assert table["companions"] and all(r["source"] for r in table["companions"].values())
    for cell, v in table["cells"].items():
        assert len(cell.split(":")) == 5 and 0 <= v["declared"] <= v["seen"]


def test_estimate_smooths_towards_role_and_evidence():
    table = {
        "threshold": 0.5,
        "cells": {
            "coverage:xunit:vstest:none:apps": {"declared": 9, "seen": 10},
            "coverage:nunit:vstest:none:apps": {"declared": 1, "seen": 10},
        },
    }
    f = CompanionFeatures("coverlet.collector", "coverage", "test", "xunit", "vstest", "none")
    assert csharp_declare.estimate(f, table).keep
    nunit = CompanionFeatures("coverlet.collector", "coverage", "test", "nunit", "vstest", "none")
    assert not csharp_declare.estimate(nunit, table).keep
    # an unseen framework takes its group's rate (10 of 20 here)
    tunit = CompanionFeatures("coverlet.collector", "coverage", "test", "tunit", "vstest", "none")
    assert csharp_declare.estimate(tunit, table).probability == 0.5
    # no information at all: even odds
    ci = CompanionFeatures("coverlet.collector", "coverage", "test", "xunit", "vstest", "ci")
    assert csharp_declare.estimate(ci, table).probability == 0.5


def test_template_companion_follows_the_framework_without_evidence(tmp_path):
    root = _fixture(tmp_path)
    # xunit test projects in the corpus mostly keep the template's coverlet.collector
    assert "coverlet.collector" in _names(root, TESTS)
    assert "coverlet.collector" not in _names(root, LIB)
    # ... unless the repository publishes NuGet packages: library maintainers mostly strip it
    lib = root / LIB
    plain = lib.read_text()
    lib.write_text(
        plain.replace("</PropertyGroup>", "<PackageId>Acme.Shapes</PackageId></PropertyGroup>", 1)
    )
    assert "coverlet.collector" not in _names(root, TESTS)
    lib.write_text(plain)
    # NUnit ones mostly do not: no evidence, no package
    (root / "tests/Shapes.Tests/CircleTests.cs").write_text(NUNIT)
    assert "coverlet.collector" not in _names(root, TESTS)
    # CI collecting coverage is evidence the cell weighs
    (root / ".github" / "workflows" / "ci.yml").write_text(
        'jobs:\n  t:\n    steps:\n      - run: dotnet test --collect:"XPlat Code Coverage"\n'
    )
    assert "coverlet.collector" in _names(root, TESTS)


def test_explain_shows_features_and_probability(tmp_path):
    root = _fixture(tmp_path)
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "depinfer",
            "--offline",
            "--explain",
            "coverlet.collector",
            str(root),
        ],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert "P(declared)=" in out.stdout and "framework=xunit" in out.stdout, out.stdout
    (root / "tests/Shapes.Tests/CircleTests.cs").write_text(NUNIT)
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "depinfer",
            "--offline",
            "--explain",
            "coverlet.collector",
            str(root),
        ],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert "declare model leaves it out" in out.stdout and "framework=nunit" in out.stdout, (
        out.stdout
    )
