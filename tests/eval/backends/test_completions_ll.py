"""Log-likelihood through an OpenAI-compatible /v1/completions endpoint (vLLM's echo + logprobs),
against a stand-in on 127.0.0.1 that answers as vLLM does."""
from __future__ import annotations

import json

import pytest

from eval.models.base import ChoiceRequest
from eval.models.completions_ll import CompletionsLoglikelihoodBackend, MalformedLogprobs
from eval.log.runfolder import read_jsonl
from tests.eval.conftest import SECRET, run_cli


def _run(data, server, out, *extra):
    return run_cli("eval", "run", "--data", data, "--model", "openai:standin-32b", "--scoring", "loglikelihood",
                   "--base-url", server.base_url, "--api-key-env", "STANDIN_KEY", "--protocol", "mcq", "--out", out, "--no-progress",
                   "--retry-base-delay", "0.01", *extra)


def test_each_option_is_scored_from_the_echoed_prompt_tokens_after_the_context(completions_server):
    backend = CompletionsLoglikelihoodBackend("m", base_url=completions_server.base_url)
    context = "[Q03] Ile bitów ma bajt?\n\nA. 4\nB. 8\nC. 16\nD. 2\n\nOdpowiedź:"
    [result] = backend.score_choices([ChoiceRequest("q3", context, (" A", " B", " C", " D"))])
    right = completions_server.answers["Q03"]  # "D"
    expected = [-0.25 if label == right else -1.5 - 0.1 * i for i, label in enumerate("ABCD")]
    assert result.logprobs == pytest.approx(expected)
    assert result.chosen == "ABCD".index(right)
    assert result.is_greedy == tuple(label == right for label in "ABCD")
    assert result.token_counts == (1, 1, 1, 1)  # " A" … " D": one echoed token each after the context
    body = completions_server.requests[0]["body"]
    assert body["echo"] is True and body["logprobs"] == 1 and body["max_tokens"] == 1 and body["temperature"] == 0
    assert body["prompt"] == [context] + [context + f" {label}" for label in "ABCD"]


def test_a_server_that_does_not_echo_is_refused_with_the_reason(completions_server):
    completions_server.default_action = "noecho"
    backend = CompletionsLoglikelihoodBackend("m", base_url=completions_server.base_url)
    with pytest.raises(MalformedLogprobs, match="no echoed prompt log-probabilities"):
        backend.score_choices([ChoiceRequest("q", "[Q01] x\n\nOdpowiedź:", (" A", " B"))])


def test_a_run_scores_by_log_likelihood_through_the_server_with_retries(tmp_path, curated, completions_server, monkeypatch):
    monkeypatch.setenv("STANDIN_KEY", SECRET)
    completions_server.scripts.update({"Q02": ["500", "correct"], "Q04": ["429", "correct"], "Q05": ["wrong"]})
    out = tmp_path / "run"
    assert _run(curated, completions_server, out, "--concurrency", "3") == 0
    assert completions_server.requests[0]["headers"]["Authorization"] == f"Bearer {SECRET}"
    attempts = read_jsonl(out / "attempts.jsonl")
    assert sorted(a["http_status"] for a in attempts if a["status"] == "technical_failure") == [429, 500]
    final = [a for a in attempts if a["status"] != "technical_failure"]
    assert len(final) == 8 and all(a["extraction_method"] == "loglikelihood" and len(a["logprobs"]) == 4 for a in final)
    scores = json.loads((out / "scores.json").read_text())
    assert scores["groups"][0]["accuracy_pct"] == 87.5  # Q05's server preferred a wrong option
    plan = json.loads((out / "plan.json").read_text())
    assert plan["backend_kind"] == "loglikelihood" and plan["plan"]["model"]["scoring"] == "loglikelihood"
    assert all(r["path"] == "/v1/completions" for r in completions_server.requests)
    assert run_cli("eval", "rescore", out) == 0  # statuses recomputed from the stored log-probabilities
    for file in out.iterdir():
        assert SECRET not in file.read_text(encoding="utf-8")


def test_a_server_that_cannot_give_log_probabilities_leaves_the_run_open(tmp_path, curated, completions_server, monkeypatch):
    monkeypatch.setenv("STANDIN_KEY", SECRET)
    completions_server.scripts["Q03"] = ["noecho"]
    out = tmp_path / "run"
    assert _run(curated, completions_server, out) == 2
    failed = [a for a in read_jsonl(out / "attempts.jsonl") if a["status"] == "technical_failure"]
    assert len(failed) == 1 and "no echoed prompt log-probabilities" in failed[0]["error"] and failed[0]["retryable"] is False


def test_log_likelihood_scoring_is_refused_for_a_backend_that_cannot_do_it(tmp_path, curated, capsys):
    assert run_cli("eval", "run", "--data", curated, "--model", "gemini:gemini-2.5-flash", "--scoring", "loglikelihood",
                   "--protocol", "mcq", "--out", tmp_path / "run", "--no-progress") == 1
    assert "gemini: backend cannot score by loglikelihood; it is generative only" in capsys.readouterr().err
    assert not (tmp_path / "run").exists()
