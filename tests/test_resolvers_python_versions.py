import pytest
from conftest import FIXTURES, load_script, offline_context, utc_date
from packaging.version import Version

from depinfer.context import Context, Options
from depinfer.model import Ecosystem, Requirement
from depinfer.pipeline import infer
from depinfer.registries import Registries
from depinfer.registries.base import VersionInfo
from depinfer.resolvers import python_versions as pv

RELEASES = {
    "pydantic": [
        VersionInfo("1.10.2", utc_date(2022, 9)),
        VersionInfo("2.0", utc_date(2023, 7), runtime=">=3.7"),
        VersionInfo("2.9.0", utc_date(2024, 9), runtime=">=3.8"),
        VersionInfo("3.0.0b1", utc_date(2025, 1), prerelease=True),
    ],
    "mcp": [
        VersionInfo("1.8.0", utc_date(2025, 5), runtime=">=3.10"),
        VersionInfo("1.9.0", utc_date(2025, 6), runtime=">=3.10"),
    ],
    "numpy": [
        VersionInfo("1.24.4", utc_date(2023, 6), runtime=">=3.8"),
        VersionInfo("1.26.4", utc_date(2024, 2), runtime=">=3.9"),
        VersionInfo("2.2.0", utc_date(2024, 12), runtime=">=3.10"),
        VersionInfo(
            "2.2.1",
            utc_date(
                2024,
                12,
            ),
            yanked=True,
        ),
    ],
}


class FakeRegistries(Registries):
    """A resolvelib-style fake provider: the resolver only sees this interface."""

    def versions(self, ecosystem, name):
        return RELEASES.get(name, [])


@pytest.fixture(autouse=True)
def table(monkeypatch):
    monkeypatch.setattr(
        pv,
        "lifecycles",
        lambda: {
            "pydantic": {
                "added": {"pydantic.field_validator": "2.0"},
                "removed": {"pydantic.BaseSettings": "2.0"},
            },
            "numpy": {"added": {}, "removed": {"numpy.float": "1.24.0"}},
        },
    )


def _run(name, python="3.10", as_of=None, used=(), spec=""):
    req = Requirement(Ecosystem.PYPI, name, "pyproject.toml", spec=spec)
    ctx = Context(Options(), FakeRegistries())
    pv.select_versions([req], ctx, python, as_of, {name: set(used)})
    return req


def test_now_gives_a_lower_bound_on_the_newest_release():
    assert _run("pydantic").spec == ">=2.9"


def test_past_date_keeps_the_major_the_code_was_written_for():
    assert _run("pydantic", as_of=utc_date(2022, 12)).spec == ">=1.10,<2"


def test_runtime_excludes_releases_needing_a_newer_python():
    assert _run("numpy", python="3.8").spec == ">=1.24"


def test_a_cap_leaves_room_for_what_newer_pythons_need():
    # 1.24 is the newest numpy for 3.8 by then; 3.10+ could take 2.2 (same date): the cap
    # must not shut newer interpreters out
    assert _run("numpy", python="3.8", as_of=utc_date(2025, 1)).spec == ">=1.24,<3"
    assert _run("numpy", python="3.10", as_of=utc_date(2025, 1)).spec == ">=2.2,<3"
    assert _run("numpy", python="3.8", as_of=utc_date(2023, 12)).spec == ">=1.24,<2"


def test_yanked_and_prereleases_are_never_chosen():
    assert _run("numpy", python="3.12", as_of=utc_date(2025, 6)).spec == ">=2.2,<3"


def test_api_usage_raises_the_floor():
    assert (
        _run("pydantic", as_of=utc_date(2025, 6), used={"pydantic.field_validator"}).spec
        == ">=2.9,<3"
    )


def test_removed_api_caps_the_major():
    assert _run("pydantic", used={"pydantic.BaseSettings"}).spec == ">=1.10,<2.0"


def test_unsatisfiable_api_bounds_are_ignored_and_said():
    req = _run("numpy", python="3.12", used={"numpy.float"})
    assert req.spec == ">=2.2"
    assert any("ignored" in e.detail for e in req.evidence)


def test_a_package_no_release_of_which_fits_the_oldest_python_still_gets_a_range():
    # every release needs 3.10; the project says >=3.8: the range is the one of the
    # newest release of the date (the resolve gate adds the python_version marker)
    req = Requirement(Ecosystem.PYPI, "mcp", "pyproject.toml")
    ctx = Context(Options(), FakeRegistries())
    pv.select_versions([req], ctx, "3.8", utc_date(2025, 5), {"mcp": set()})
    assert req.spec == ">=1.8,<2"
    assert any("no release fits Python 3.8" in d.message for d in ctx.diagnostics)
    assert any(e.rule == "runtime" and "newer Python" in e.detail for e in req.evidence)


def test_consistent_pin_found_elsewhere_wins():
    req = _run("pydantic", spec="==1.10.2")
    assert req.spec == ">=1.10"
    assert any(e.rule == "pin-elsewhere" for e in req.evidence)


def test_a_pin_elsewhere_is_never_excluded_by_an_api_bound_it_contradicts():
    # the table saw `field_validator` first in 2.0; the repository runs 1.10.2 (a blind
    # spot of the table, as numpy.bool was an alias before 1.24): the range keeps the pin
    req = _run(
        "pydantic", as_of=utc_date(2022, 12), spec="==1.10.2", used={"pydantic.field_validator"}
    )
    assert req.spec == ">=1.10,<2"
    assert any("ignored" in e.detail for e in req.evidence)
    # a bound the pin satisfies stays
    req = _run(
        "pydantic", as_of=utc_date(2022, 12), spec="==1.10.2", used={"pydantic.BaseSettings"}
    )
    assert req.spec == ">=1.10,<2.0"


def test_api_bounds_report_their_evidence():
    lower, upper, ev = pv.api_bounds("pydantic", {"pydantic.field_validator"})
    assert lower == Version("2.0") and upper is None and "field_validator" in ev[0].detail


def test_offline_keeps_only_what_the_code_proves():
    req = Requirement(Ecosystem.PYPI, "pydantic", "pyproject.toml")
    ctx = offline_context()
    pv.select_versions([req], ctx, "3.10", None, {"pydantic": {"pydantic.BaseSettings"}})
    assert req.spec == "<2.0"


@pytest.mark.parametrize(
    ("dist", "used", "lower", "upper"),
    [
        ("pydantic", {"pydantic.field_validator"}, "2.0", None),
        ("pydantic", {"pydantic.BaseSettings"}, None, "2.0"),
        ("pandas", {"pandas.DataFrame.append"}, None, "2.0.0"),
        ("numpy", {"numpy.float"}, None, "1.24.0"),
        ("sqlalchemy", {"sqlalchemy.orm.DeclarativeBase"}, "2.0.0", None),
        ("werkzeug", {"werkzeug.urls.url_quote"}, None, "3.0.0"),
    ],
)
def test_shipped_lifecycle_table_knows_the_famous_breaks(monkeypatch, dist, used, lower, upper):
    monkeypatch.undo()  # the real table, not the fixture above
    pv.lifecycles.cache_clear()
    lo, up, _ = pv.api_bounds(dist, used)
    assert (str(lo) if lo else None, str(up) if up else None) == (lower, upper)


def test_a_removed_module_takes_everything_under_it(monkeypatch):
    monkeypatch.setattr(
        pv, "lifecycles", lambda: {"lib": {"added": {}, "removed": {"lib.contrib": "2.0"}}}
    )
    lo, up, ev = pv.api_bounds("lib", {"lib.contrib.slim.fully_connected"})
    assert (lo, up) == (None, Version("2.0")) and "lib.contrib gone" in ev[0].detail
    assert pv.api_bounds("lib", {"lib.contributors"})[1] is None  # a prefix of a name is not one


@pytest.mark.parametrize(
    ("used", "lower", "upper"),
    [
        ({"tensorflow.Session"}, None, "2.0.0"),
        ({"tensorflow.placeholder", "tensorflow.get_variable"}, None, "2.0.0"),
        ({"tensorflow.contrib", "tensorflow.contrib.slim.fully_connected"}, None, "2.0.0"),
        ({"tensorflow.train.AdamOptimizer"}, None, "2.0.0"),
        ({"tensorflow.compat.v1.Session", "tensorflow.compat.v1.placeholder"}, None, None),
        ({"tensorflow.function", "tensorflow.keras.layers.Dense"}, None, None),
        ({"tensorflow.summary.create_file_writer"}, "2.0.0", None),
        ({"tensorflow.estimator.Estimator"}, None, "2.16.1"),
        # tf.keras is Keras 3 from 2.16 (read from the keras release TF 2.16 requires)
        ({"tensorflow.keras.layers.experimental.preprocessing.Rescaling"}, "2.4.0", "2.16.1"),
        ({"tensorflow.keras.layers.Dense", "tensorflow.keras.Sequential"}, None, None),
        ({"tensorflow.keras.ops"}, "2.16.1", None),
        # modules that stop being importable
        ({"tensorflow.examples.tutorials.mnist.input_data"}, None, "2.0.0"),
        ({"tensorflow.python.keras.engine.network.Network"}, None, "2.4.0"),
        # 1.x tf.losses functions; 2.x tf.losses/tf.optimizers are Keras's
        ({"tensorflow.losses.sparse_softmax_cross_entropy"}, None, "2.0.0"),
        ({"tensorflow.optimizers.Adam", "tensorflow.losses.MeanSquaredError"}, "2.0.0", None),
    ],
)
def test_shipped_table_knows_tensorflow_1_to_2(monkeypatch, used, lower, upper):
    monkeypatch.undo()
    pv.lifecycles.cache_clear()
    lo, up, _ = pv.api_bounds("tensorflow", used)
    assert (str(lo) if lo else None, str(up) if up else None) == (lower, upper)


def _offline_spec(fixture: str, dist: str) -> str:
    opts = Options(offline=True)
    result = infer(FIXTURES / "python" / fixture, opts, ctx=Context(opts, Registries(offline=True)))
    (req,) = [r for r in result.requirements if r.name == dist]
    return req.spec


@pytest.mark.parametrize(
    ("fixture", "spec"),
    [
        ("res-api-bounds-tf1", "<2.0.0"),  # tf.Session, tf.placeholder, tf.contrib
        ("res-api-bounds-tf2", ">=2.0.0"),  # tf.summary.create_file_writer; no cap
        ("res-api-bounds-tf-compat", ""),  # tf.compat.v1 exists in 1.15 and every 2.x
    ],
)
def test_tensorflow_code_gets_the_bounds_its_api_proves(monkeypatch, fixture, spec):
    monkeypatch.undo()
    pv.lifecycles.cache_clear()
    assert _offline_spec(fixture, "tensorflow") == spec


def test_wheel_reader_lists_what_a_generated_api_module_binds(monkeypatch):
    script = load_script("build_api_lifecycles", monkeypatch)
    source = """
import sys as _sys
from . _api.v1 import nn
from tensorflow.python.ops.array_ops import placeholder
from tensorflow.python.util.lazy_loader import LazyLoader
contrib = LazyLoader("contrib", globals(), "tensorflow.contrib")
del LazyLoader
try:
    from tensorboard.summary._tf import summary
    setattr(_current_module, "summary", summary)
except ImportError:
    pass
_current_module.app.flags = flags
from .python.keras.api._v2 import keras
losses = keras.losses
"""
    bound = script.module_bindings(source, "tensorflow_core")
    assert bound["nn"] == "tensorflow_core._api.v1.nn"
    assert bound["placeholder"] == "tensorflow.python.ops.array_ops.placeholder"
    assert "contrib" in bound and bound["contrib"] is None and "LazyLoader" not in bound
    assert bound["summary"] == "tensorboard.summary._tf.summary"
    assert "app.flags" not in bound
    assert bound["losses"] == "tensorflow_core.python.keras.api._v2.keras.losses"


def test_lifecycle_claims_no_bound_for_a_name_that_comes_back(monkeypatch):
    script = load_script("build_api_lifecycles", monkeypatch)
    added, removed = script.lifecycle(
        [("1", {"a", "b"}), ("2", {"a"}), ("3", {"a", "b", "c"}), ("4", {"b", "c"})]
    )
    assert added == {"c": "3"} and removed == {"a": "4"}


def test_wheel_listing_follows_generated_packages_and_delegates(monkeypatch, tmp_path):
    import zipfile

    script = load_script("build_api_lifecycles", monkeypatch)
    tf_wheel, keras_wheel = tmp_path / "tf.whl", tmp_path / "keras.whl"
    with zipfile.ZipFile(tf_wheel, "w") as zf:
        zf.writestr("tensorflow/__init__.py", "from tensorflow_core import *\n")
        zf.writestr(
            "tensorflow_core/__init__.py",
            "from ._api.v1 import nn\nkeras = _LazyLoader('keras', globals(), 'keras.api')\n",
        )
        zf.writestr("tensorflow_core/_api/v1/nn/__init__.py", "from x.ops import relu\n")
    with zipfile.ZipFile(keras_wheel, "w") as zf:
        zf.writestr("keras/api/_v2/keras/__init__.py", "from keras.api._v2.keras import layers\n")
        zf.writestr("keras/api/_v2/keras/layers/__init__.py", "from keras.src import Dense\n")
    objects = ["tensorflow", "tensorflow.nn", "tensorflow.keras", "tensorflow.keras.layers"]
    roots = {"tensorflow": ["tensorflow_core", "tensorflow"]}
    own = script.wheel_listing([tf_wheel], objects, roots)
    assert own["tensorflow.nn"] == {"tensorflow.nn", "tensorflow.nn.relu"}
    assert "tensorflow.keras" in own["tensorflow"] and own["tensorflow.keras"] is None
    mounted = script.wheel_listing(
        [keras_wheel], objects[2:], mounts={"tensorflow.keras": "keras.api._v2.keras"}
    )
    assert mounted["tensorflow.keras.layers"] == {
        "tensorflow.keras.layers",
        "tensorflow.keras.layers.Dense",
    }


def test_module_removals_keep_modules_that_are_still_public(monkeypatch, tmp_path):
    import zipfile

    script = load_script("build_api_lifecycles", monkeypatch)
    old, new = tmp_path / "old.whl", tmp_path / "new.whl"
    with zipfile.ZipFile(old, "w") as zf:
        zf.writestr("tensorflow/__init__.py", "")
        zf.writestr("tensorflow_core/__init__.py", "")
        for module in [
            "examples/__init__.py",
            "examples/tutorials/__init__.py",
            "examples/tutorials/mnist/input_data.py",
            "keras/__init__.py",
        ]:
            zf.writestr(f"tensorflow_core/{module}", "")
        zf.writestr("tensorflow_core/python/_pywrap.so", "")
    with zipfile.ZipFile(new, "w") as zf:
        zf.writestr("tensorflow/__init__.py", "")
    roots = {"tensorflow": ["tensorflow_core", "tensorflow"]}
    modules = [("1", script.wheel_modules(old, roots)), ("2", script.wheel_modules(new, roots))]
    assert "tensorflow.examples.tutorials.mnist.input_data" in modules[0][1]
    assert not any("_pywrap" in m for m in modules[0][1])
    public = [("1", {"tensorflow", "tensorflow.keras"}), ("2", {"tensorflow", "tensorflow.keras"})]
    assert script.module_removals(modules, public, {}) == {"tensorflow.examples": "2"}


# --- end to end: fixture repositories, recorded registry answers, the pipeline -----------
# Each fixture fails without its rule: without the API lifecycle table the v1 project would
# get pydantic 2 (its BaseSettings import breaks) and the v2 project an unbounded pre-2 pick
# when the date is early.


def _spec(server, tmp_path, fixture: str, as_of: str | None) -> str:
    opts = Options(as_of=as_of)
    ctx = Context(opts, server.registries(tmp_path / "cache"))
    result = infer(FIXTURES / "python" / fixture, opts, ctx=ctx)
    (req,) = [r for r in result.requirements if r.name == "pydantic"]
    return req.spec


def test_code_using_a_removed_api_keeps_the_old_major(registry_server, tmp_path):
    assert _spec(registry_server, tmp_path, "res-api-bounds", None).endswith(",<2.0")


def test_code_using_a_new_api_gets_at_least_that_major(registry_server, tmp_path):
    spec = _spec(registry_server, tmp_path, "res-api-bounds-v2", "2024-06-01")
    assert spec.startswith(">=2.") and spec.endswith(",<3")


def test_as_of_date_picks_what_existed_then(registry_server, tmp_path):
    assert _spec(registry_server, tmp_path, "res-api-bounds", "2022-06-01") == ">=1.9,<2.0"


def test_a_pre_release_only_family_gets_a_bound_that_admits_it():
    # `>=0.59` would exclude 0.59b0 (PEP 440), leaving nothing installable
    assert pv.spec_for(Version("0.59b0"), True, None, None) == ">=0.59b0,<0.60"
    assert pv.spec_for(Version("0.59b0"), False, None, None) == ">=0.59b0"
    assert pv.spec_for(Version("0.59.1"), False, None, None) == ">=0.59"
