"""Version rules end to end: fixture repositories, recorded registry answers, the pipeline.

Each fixture fails without its rule: without the API lifecycle table the v1 project would
get pydantic 2 (its BaseSettings import breaks) and the v2 project an unbounded pre-2 pick
when the date is early."""

from pathlib import Path

import test_registries_support as support

from depinfer.context import Context, Options
from depinfer.pipeline import infer

registry_server = support.registry_server
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "python"


def _spec(server, tmp_path, fixture: str, as_of: str | None) -> str:
    opts = Options(as_of=as_of)
    ctx = Context(opts, server.registries(tmp_path / "cache"))
    result = infer(FIXTURES / fixture, opts, ctx=ctx)
    (req,) = [r for r in result.requirements if r.name == "pydantic"]
    return req.spec


def test_code_using_a_removed_api_keeps_the_old_major(registry_server, tmp_path):
    assert _spec(registry_server, tmp_path, "res-api-bounds", None).endswith(",<2.0")


def test_code_using_a_new_api_gets_at_least_that_major(registry_server, tmp_path):
    spec = _spec(registry_server, tmp_path, "res-api-bounds-v2", "2024-06-01")
    assert spec.startswith(">=2.") and spec.endswith(",<3")


def test_as_of_date_picks_what_existed_then(registry_server, tmp_path):
    assert _spec(registry_server, tmp_path, "res-api-bounds", "2022-06-01") == ">=1.9,<2.0"
