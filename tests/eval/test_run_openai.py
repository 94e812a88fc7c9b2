"""End-to-end `eval run` against the OpenAI-compatible stand-in, faults included."""
from __future__ import annotations

import json

from eval.log.runfolder import read_jsonl
from eval.log.scoring import score_folder
from tests.eval.conftest import SECRET, run_cli


def _args(curated, server, out, *extra):
    return ["eval", "run", "--data", curated, "--model", "openai:standin-model", "--base-url", server.base_url,
            "--api-key-env", "STANDIN_KEY", "--protocol", "mcq", "--out", out, "--no-progress",
            "--timeout", "1.5", "--retry-base-delay", "0.01", *extra]


def test_faults_get_one_status_each_and_only_technical_failures_are_retried(tmp_path, curated, openai_server, monkeypatch):
    monkeypatch.setenv("STANDIN_KEY", SECRET)
    openai_server.scripts.update({
        "Q02": ["429", "correct"], "Q03": ["500", "500", "correct"], "Q04": ["timeout", "correct"],
        "Q05": ["refusal"], "Q06": ["length"], "Q07": ["noletter"], "Q08": ["wrong"],
    })
    out = tmp_path / "run"
    code = run_cli(*_args(curated, openai_server, out))
    assert code == 3  # finished, but a truncated answer blocks publication
    attempts = read_jsonl(out / "attempts.jsonl")
    final = {}
    for a in attempts:
        final[a["qid"]] = a
    statuses = sorted(a["status"] for a in final.values())
    assert statuses == sorted(["correct", "correct", "correct", "correct", "refusal", "truncated", "extraction_failure", "wrong"])
    technical = [a for a in attempts if a["status"] == "technical_failure"]
    assert sorted(a["http_status"] for a in technical if a["http_status"]) == [429, 500, 500]
    assert any("timeout" in a["error"] for a in technical)
    assert len(attempts) == 8 + 4  # every try kept
    assert openai_server.calls_for("Q05") == 1 and openai_server.calls_for("Q06") == 1  # not retried
    first, second = [r["t"] for r in openai_server.requests if r["token"] == "Q02"]
    assert second - first >= 0.95  # the 429's Retry-After: 1 was honoured
    scores = score_folder(out)
    group = scores.groups[0]
    assert group.accuracy_pct == 50.0
    assert group.counts.refusal == 1 and group.counts.extraction_failure == 1 and group.counts.truncated == 1
    state = json.loads((out / "run.json").read_text())
    assert state["state"] == "complete" and not state["publishable"]
    assert any("truncated" in r for r in state["reasons"])


def test_concurrency_is_bounded_by_the_plan(tmp_path, curated, openai_server, monkeypatch):
    monkeypatch.setenv("STANDIN_KEY", SECRET)
    openai_server.default_action = "slow"
    openai_server.slow_s = 0.1
    assert run_cli(*_args(curated, openai_server, tmp_path / "run", "--concurrency", "3", "--repeats", "2")) == 0
    assert openai_server.max_in_flight == 3
    assert len(openai_server.requests) == 16


def test_the_request_carries_the_plan_settings_and_the_key_only_in_its_header(tmp_path, curated, openai_server, monkeypatch):
    monkeypatch.setenv("STANDIN_KEY", SECRET)
    assert run_cli(*_args(curated, openai_server, tmp_path / "run", "--temperature", "0.6", "--max-tokens", "300")) == 0
    request = openai_server.requests[0]
    assert request["path"] == "/v1/chat/completions"
    assert request["headers"]["Authorization"] == f"Bearer {SECRET}"
    body = request["body"]
    assert body["model"] == "standin-model" and body["temperature"] == 0.6 and body["max_tokens"] == 300
    assert body["stream"] is False and "seed" not in body and "reasoning_effort" not in body


def test_an_unknown_model_or_bad_key_stops_the_run_at_once(tmp_path, curated, openai_server, monkeypatch, capsys):
    monkeypatch.setenv("STANDIN_KEY", SECRET)
    bad = openai_server.base_url.replace("/v1", "/v2")  # the stand-in answers 404 there
    code = run_cli("eval", "run", "--data", curated, "--model", "openai:m", "--base-url", bad, "--api-key-env", "STANDIN_KEY",
                   "--protocol", "mcq", "--out", tmp_path / "run", "--no-progress", "--concurrency", "1")
    assert code == 1
    assert "HTTP 404" in capsys.readouterr().err
    assert len(openai_server.requests) <= 2  # stopped, not one failure per question


def test_the_token_limit_field_can_be_the_newer_max_completion_tokens(tmp_path, curated, openai_server, monkeypatch):
    monkeypatch.setenv("STANDIN_KEY", SECRET)
    assert run_cli(*_args(curated, openai_server, tmp_path / "run", "--max-tokens", "99",
                          "--max-tokens-field", "max_completion_tokens")) == 0
    body = openai_server.requests[0]["body"]
    assert body["max_completion_tokens"] == 99 and "max_tokens" not in body
