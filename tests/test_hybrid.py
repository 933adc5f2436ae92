import json

import pytest
from conftest import FIXTURES
from werkzeug import Response

from depinfer.context import Context, Options
from depinfer.hybrid import arbitrate, parse_answers
from depinfer.hybrid.client import AnswerCache, LLMClient
from depinfer.hybrid.questions import Option, Question
from depinfer.model import Candidate, Ecosystem, Evidence, Inference, Project, Requirement
from depinfer.registries import Registries


def _result(tmp_path, n=1) -> Inference:
    (tmp_path / "app.py").write_text("import jose\n" * n)
    project = Project(root=tmp_path)
    cands, reqs = [], []
    for i in range(n):
        name = "python-jose" if i == 0 else f"pkg{i}"
        alt = "jose" if i == 0 else f"alt{i}"
        cands.append(
            Candidate(
                Ecosystem.PYPI,
                name,
                "pyproject.toml",
                import_names=[f"jose{i}"],
                evidence=[Evidence("import", "app.py", i + 1)],
                alternatives=[alt],
                ambiguous=True,
            )
        )
        reqs.append(Requirement(Ecosystem.PYPI, name, "pyproject.toml"))
    return Inference(project=project, requirements=reqs, candidates=cands)


def _ctx(url, **kw) -> Context:
    opts = Options(llm=True, llm_url=url, llm_model="m", **kw)
    return Context(options=opts, registries=Registries(offline=True))


def _client(ctx, tmp_path, **kw):
    o = ctx.options
    return LLMClient(
        url=o.llm_url,
        model=o.llm_model,
        cmd=None,
        api_key=None,
        max_calls=o.llm_max_calls,
        max_tokens=o.llm_max_tokens,
        cache=AnswerCache(tmp_path / "cache"),
        timeout=kw.get("timeout", 2),
        retries=kw.get("retries", 1),
        backoff=0,
    )


def _completion(content: str) -> dict:
    return {"choices": [{"message": {"content": content}}]}


def _answer_with(choice_of):
    """A fake endpoint that answers every question in the prompt via `choice_of(question)`."""

    def handler(request):
        body = json.loads(request.data)
        prompt = json.loads(body["messages"][1]["content"])
        answers = [{"id": q["id"], "choice": choice_of(q)} for q in prompt["questions"]]
        return Response(
            json.dumps(_completion(json.dumps({"answers": answers}))),
            content_type="application/json",
        )

    return handler


def test_model_choice_among_candidates_replaces_rule_choice_and_is_recorded(httpserver, tmp_path):
    httpserver.expect_request("/v1/chat/completions").respond_with_handler(
        _answer_with(lambda q: "jose")
    )
    ctx = _ctx(httpserver.url_for("/v1"))
    result = _result(tmp_path)
    reqs = arbitrate(result.project, result, ctx, _client(ctx, tmp_path))
    assert [r.name for r in reqs] == ["jose"]
    assert reqs[0].llm.rule_choice == "python-jose"
    assert reqs[0].alternatives == ["python-jose"]
    assert result.llm["calls"] == 1 and result.llm["changed"] == 1


@pytest.mark.parametrize(
    "content",
    [
        "not json",
        json.dumps({"answers": [{"id": "x", "choice": "jose"}]}),
        json.dumps({"answers": "jose"}),
    ],
)
def test_malformed_or_unmatched_answers_keep_rule_choice(httpserver, tmp_path, content):
    httpserver.expect_request("/v1/chat/completions").respond_with_json(_completion(content))
    ctx = _ctx(httpserver.url_for("/v1"))
    result = _result(tmp_path)
    assert [r.name for r in arbitrate(result.project, result, ctx, _client(ctx, tmp_path))] == [
        "python-jose"
    ]


def test_a_name_outside_the_candidates_is_never_written(httpserver, tmp_path):
    httpserver.expect_request("/v1/chat/completions").respond_with_handler(
        _answer_with(lambda q: "totally-invented-package")
    )
    ctx = _ctx(httpserver.url_for("/v1"))
    result = _result(tmp_path)
    assert [r.name for r in arbitrate(result.project, result, ctx, _client(ctx, tmp_path))] == [
        "python-jose"
    ]


def test_server_errors_fall_back_to_rules_with_one_warning(httpserver, tmp_path):
    httpserver.expect_request("/v1/chat/completions").respond_with_data("boom", status=500)
    ctx = _ctx(httpserver.url_for("/v1"))
    result = _result(tmp_path)
    assert [r.name for r in arbitrate(result.project, result, ctx, _client(ctx, tmp_path))] == [
        "python-jose"
    ]
    assert len([d for d in ctx.diagnostics if "hybrid" in d.message]) == 1
    assert len(httpserver.log) == 2  # one retry


def test_timeout_falls_back_to_rules(httpserver, tmp_path):
    import time

    def slow(request):
        time.sleep(0.8)
        return Response("{}", content_type="application/json")

    httpserver.expect_request("/v1/chat/completions").respond_with_handler(slow)
    ctx = _ctx(httpserver.url_for("/v1"))
    result = _result(tmp_path)
    client = _client(ctx, tmp_path, timeout=0.2, retries=0)
    assert [r.name for r in arbitrate(result.project, result, ctx, client)] == ["python-jose"]
    time.sleep(0.8)  # let the slow handler finish before the shared server serves the next test


def test_rerun_is_answered_from_cache_without_calls(httpserver, tmp_path):
    httpserver.expect_request("/v1/chat/completions").respond_with_handler(
        _answer_with(lambda q: "jose")
    )
    ctx = _ctx(httpserver.url_for("/v1"))
    first = _result(tmp_path)
    arbitrate(first.project, first, ctx, _client(ctx, tmp_path))
    second = _result(tmp_path)
    client = _client(ctx, tmp_path)
    assert [r.name for r in arbitrate(second.project, second, ctx, client)] == ["jose"]
    assert client.calls == 0 and client.cache_hits == 1 and len(httpserver.log) == 1


def test_call_budget_is_respected(httpserver, tmp_path):
    httpserver.expect_request("/v1/chat/completions").respond_with_handler(
        _answer_with(lambda q: "none")
    )
    ctx = _ctx(httpserver.url_for("/v1"), llm_max_calls=1, llm_batch=1)
    result = _result(tmp_path, n=3)
    reqs = arbitrate(result.project, result, ctx, _client(ctx, tmp_path))
    assert len(httpserver.log) == 1
    assert len(reqs) == 2  # only the first question was answered ("none" drops it)


def test_without_ambiguity_no_call_is_made(httpserver, tmp_path):
    ctx = _ctx(httpserver.url_for("/v1"))
    result = _result(tmp_path)
    result.candidates[0].ambiguous = False
    assert [r.name for r in arbitrate(result.project, result, ctx, _client(ctx, tmp_path))] == [
        "python-jose"
    ]
    assert httpserver.log == []


def test_parse_answers_accepts_only_listed_options():
    q = Question(
        "q1", "package", "m", "jose", "python-jose", [Option("python-jose"), Option("jose")]
    )
    text = json.dumps({"answers": [{"id": "q1", "choice": "jose"}, {"id": "q2", "choice": "x"}]})
    assert parse_answers(text, [q]) == {"q1": "jose"}
    assert parse_answers(json.dumps({"answers": [{"id": "q1", "choice": "evil"}]}), [q]) == {}


def test_local_command_answers(tmp_path):
    script = tmp_path / "llm.py"
    script.write_text(
        "import sys, json\n"
        "data = sys.stdin.read()\n"
        "qs = json.loads(data[data.index('{\\n \"questions'):])['questions']\n"
        "print(json.dumps({'answers': [{'id': q['id'], 'choice': 'jose'} for q in qs]}))\n"
    )
    ctx = _ctx(None, llm_cmd=f"python {script}")
    result = _result(tmp_path)
    o = ctx.options
    client = LLMClient(
        url=None,
        model="local",
        cmd=o.llm_cmd,
        api_key=None,
        max_calls=5,
        max_tokens=10_000,
        cache=None,
    )
    assert [r.name for r in arbitrate(result.project, result, ctx, client)] == ["jose"]


def test_cli_records_the_models_decision_in_json_and_explain(
    httpserver, tmp_path, monkeypatch, capsys
):

    from depinfer.cli import main

    monkeypatch.setenv("DEPINFER_CACHE_DIR", str(tmp_path / "cache"))
    httpserver.expect_request("/v1/chat/completions").respond_with_handler(
        _answer_with(lambda q: [o["name"] for o in q["options"]][1])
    )
    fixture = FIXTURES / "python" / "hybrid-ambiguous"
    args = [
        str(fixture),
        "--offline",
        "--names-only",
        "--llm",
        "--llm-url",
        httpserver.url_for("/v1"),
    ]
    assert main([*args, "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    chosen = {r["name"]: r.get("llm") for r in record["requirements"]}
    assert chosen["opencv-python-headless"]["rule_choice"] == "opencv-python"
    assert record["llm"]["questions"] == 2
    assert main([*args, "--explain", "opencv-python-headless"]) == 0
    assert "decided by the LLM arbiter" in capsys.readouterr().out


def test_an_optional_import_left_out_becomes_an_include_question(httpserver, tmp_path):
    httpserver.expect_request("/v1/chat/completions").respond_with_handler(
        _answer_with(lambda q: q["options"][0]["name"] if q["kind"] == "include" else "none")
    )
    ctx = _ctx(httpserver.url_for("/v1"))
    (tmp_path / "app.py").write_text(
        "try:\n    import ujson\nexcept ImportError:\n    ujson = None\n"
    )
    cand = Candidate(
        Ecosystem.PYPI,
        "ujson",
        "pyproject.toml",
        optional=True,
        evidence=[Evidence("import", "app.py", 2)],
    )
    result = Inference(project=Project(root=tmp_path), requirements=[], candidates=[cand])
    reqs = arbitrate(result.project, result, ctx, _client(ctx, tmp_path))
    assert [(r.name, r.section.value, r.optional) for r in reqs] == [("ujson", "runtime", False)]
    assert reqs[0].llm.rule_choice == "none"


def test_an_ambiguous_python_choice_hands_the_arbiter_its_providers_download_ranks():
    from conftest import FIXTURES

    from depinfer.context import Options
    from depinfer.pipeline import infer

    result = infer(FIXTURES / "python" / "hybrid-ambiguous", Options(offline=True))
    ranks = {c.name: dict(c.ranks) for c in result.candidates if c.ranks}
    assert "opencv-python-headless" in ranks["opencv-python"]
