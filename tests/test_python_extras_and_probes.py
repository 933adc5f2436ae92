"""Extras that ask for a dependency's features; broad try blocks that only probe imports."""

from __future__ import annotations

import shutil
from pathlib import Path

from depinfer.analyzers.python import analyze_text
from depinfer.context import Options
from depinfer.pipeline import infer

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "python"


def test_featured_extra_entry_keeps_its_distribution_runtime(tmp_path):
    root = tmp_path / "crawler"
    shutil.copytree(FIXTURES / "res-featured-extras", root)
    result = infer(root, Options(offline=True, versions=False))
    runtime = {r.name for r in result.requirements if r.group is None and not r.optional}
    assert runtime == {"twisted", "huggingface-hub"}


def test_an_extra_named_for_a_dependencys_feature_holds_what_that_feature_requires(
    metadata_context,
):
    from depinfer.model import Ecosystem, Manifest
    from depinfer.resolvers.python import _feature_names

    # recorded Requires-Dist of Twisted and visions (trimmed)
    recorded = {
        "twisted": {
            "requires_dist": [
                "attrs>=22.2.0",
                'h2<5.0,>=3.2; extra == "http2"',
                'priority<2.0,>=1.1.0; extra == "http2"',
                'pyopenssl>=21.0.0; extra == "tls"',
            ]
        },
        "visions": {"requires_dist": ['imagehash; extra == "type-image-path"']},
    }

    pyproject = Manifest(
        "pyproject.toml",
        Ecosystem.PYPI,
        "pyproject",
        declared={
            "optional-dependencies.twisted-http2": ["Twisted"],
            "optional-dependencies.spark": ["visions"],
        },
        data={
            "featured_extras": [
                ["twisted-http2", "Twisted", ["http2"]],
                ["spark", "visions", ["type_image_path"]],
            ]
        },
    )
    names = _feature_names([pyproject], metadata_context(recorded), {})
    # h2 and priority come with the extra; twisted's own requirements and its other
    # features do not, and the spark extra is not named for visions' image feature
    assert {"h2", "priority"} <= names
    assert not {"attrs", "pyopenssl", "imagehash", "twisted"} & names


def test_isinstance_checks_do_not_make_a_probe_real_work():
    path = FIXTURES / "an-probe-guards" / "probe" / "console.py"
    refs = {r.module: r.optional for r in analyze_text(path.read_text(), "probe/console.py")}
    assert refs["ipykernel"] is True and refs["IPython"] is True
    assert refs["dateutil.parser"] is False
