"""End-to-end `eval run` through the google-genai SDK against the Gemini stand-in."""
from __future__ import annotations

import json

from eval.log.runfolder import read_jsonl
from tests.eval.conftest import SECRET, run_cli


def test_gemini_faults_map_to_statuses_and_the_key_travels_only_in_the_header(tmp_path, curated, gemini_server, monkeypatch):
    monkeypatch.setenv("GEMINI_TEST_KEY", SECRET)
    gemini_server.hang_s = 3.0
    gemini_server.scripts.update({
        "Q02": ["429", "correct"], "Q03": ["500", "correct"], "Q04": ["timeout", "correct"],
        "Q05": ["refusal"], "Q06": ["length"], "Q07": ["noletter"], "Q08": ["wrong"],
    })
    out = tmp_path / "run"
    code = run_cli("eval", "run", "--data", curated, "--model", "gemini:gemini-standin", "--base-url", gemini_server.base_url,
                   "--api-key-env", "GEMINI_TEST_KEY", "--protocol", "mcq", "--out", out, "--no-progress",
                   "--timeout", "2", "--retry-base-delay", "0.01", "--max-tokens", "64", "--temperature", "0.3")
    assert code == 3
    attempts = read_jsonl(out / "attempts.jsonl")
    final = {a["qid"]: a for a in attempts}
    assert sorted(a["status"] for a in final.values()) == sorted(
        ["correct"] * 4 + ["refusal", "truncated", "extraction_failure", "wrong"])
    technical = [a for a in attempts if a["status"] == "technical_failure"]
    assert len(technical) == 3
    assert sorted(a["http_status"] for a in technical if a["http_status"]) == [429, 500]
    first, second = [r["t"] for r in gemini_server.requests if r["token"] == "Q02"]
    assert second - first >= 0.95  # RetryInfo's retryDelay "1s" was honoured
    correct = next(a for a in final.values() if a["status"] == "correct")
    assert correct["usage"] == {"prompt_tokens": 40, "completion_tokens": 6, "total_tokens": 46}
    assert correct["model_revision"] == "gemini-standin-001"
    # the real wire format went out: generateContent with the generation settings
    request = next(r for r in gemini_server.requests if r["token"] == "Q01")
    assert request["path"] == "/v1beta/models/gemini-standin:generateContent"
    assert request["body"]["generationConfig"]["maxOutputTokens"] == 64
    assert request["body"]["generationConfig"]["temperature"] == 0.3
    assert request["body"]["contents"][0]["role"] == "user" and "tools" not in request["body"]
    assert request["headers"].get("x-goog-api-key") == SECRET
    for file in out.iterdir():
        assert SECRET not in file.read_text(encoding="utf-8"), file
    assert json.loads((out / "run.json").read_text())["state"] == "complete"


def test_a_gzip_bomb_from_gemini_is_a_technical_failure_of_that_question(tmp_path, curated, questions, gemini_server,
                                                                        monkeypatch):
    """128 MiB of white space before a right answer, gzipped twice: before (`d753c64`) the library decoded it whole
    and the answer was scored; the transport now refuses it at the 64 MiB bound as it decodes, and the run records
    that attempt as a technical failure, retries, and goes on (`tests/pipeline/infra/test_bounded_encodings.py`)."""
    monkeypatch.setenv("GEMINI_TEST_KEY", SECRET)
    gemini_server.scripts.update({"Q02": ["gzipbomb", "correct"]})
    out = tmp_path / "run"
    code = run_cli("eval", "run", "--data", curated, "--model", "gemini:gemini-standin", "--base-url", gemini_server.base_url,
                   "--api-key-env", "GEMINI_TEST_KEY", "--protocol", "mcq", "--out", out, "--no-progress",
                   "--timeout", "10", "--retry-base-delay", "0.01")
    assert code == 0
    bombed = next(q.id for q in questions if "[Q02]" in q.question)
    attempts = [a for a in read_jsonl(out / "attempts.jsonl") if a["qid"] == bombed]
    assert [a["status"] for a in attempts] == ["technical_failure", "correct"], attempts
    assert "larger than" in attempts[0]["error"]
