"""scripts/compare_bench_runs.py: what two benchmark runs wrote differently, per instance."""

import json

from conftest import load_script


def _run(root, instance, **fields):
    path = root / "python" / f"{instance}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"status": "ok", **fields}))


def test_same_output_in_other_scratch_folders_is_no_difference(tmp_path):
    compare = load_script("compare_bench_runs")
    a, b = tmp_path / "a", tmp_path / "b"
    _run(a, "x", diagnostics=["/tmp/depinfer-bench-x-1/repo/setup.py: warning"])
    _run(b, "x", diagnostics=["/tmp/depinfer-bench-x-2/repo/setup.py: warning"])
    assert compare.differences(a, b) == (1, [])


def test_a_changed_manifest_text_is_named(tmp_path):
    compare = load_script("compare_bench_runs")
    a, b = tmp_path / "a", tmp_path / "b"
    _run(a, "x", written_text={"pyproject.toml": "requests"})
    _run(b, "x", written_text={"pyproject.toml": "requests\nclick"})
    _run(a, "only-in-a")
    assert compare.differences(a, b) == (1, ["python/x.json: written_text differs"])
    assert compare.main([str(a), str(b)]) == 1
