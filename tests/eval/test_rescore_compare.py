"""Rescoring from the folder alone, secrets kept out, and paired comparisons that check alignment."""
from __future__ import annotations

import json
import shutil

import pytest

from eval.analysis.compare import AlignmentError, Side, compare
from tests.eval.conftest import SECRET, make_question, run_cli, run_standin, write_parquet




@pytest.fixture
def key(monkeypatch):
    monkeypatch.setenv("STANDIN_KEY", SECRET)


def test_rescore_reproduces_scores_byte_for_byte_with_no_server(tmp_path, curated, openai_server, key, capsys):
    openai_server.scripts.update({"Q02": ["wrong", "correct"], "Q05": ["refusal"], "Q07": ["noletter", "wrong"]})
    out = tmp_path / "run"
    assert run_standin(curated, openai_server, out, "--repeats", "2") == 0
    stored = (out / "scores.json").read_bytes()
    moved = tmp_path / "elsewhere" / "run"
    shutil.copytree(out, moved)  # no server, no data: only the folder
    curated.unlink()
    assert run_cli("eval", "rescore", moved, "--out", tmp_path / "rescored.json") == 0
    assert "reproduced byte for byte" in capsys.readouterr().err
    assert (tmp_path / "rescored.json").read_bytes() == stored
    scores = json.loads(stored)
    group = scores["groups"][0]
    # Q02: one of two repeats right; Q07: none; Q05 refused twice; the rest right: (5 + 0.5) / 8
    assert group["accuracy_pct"] == pytest.approx(100 * 5.5 / 8)
    assert group["per_repeat_accuracy_pct"] == [pytest.approx(500 / 8), pytest.approx(600 / 8)]
    assert group["counts"]["refusal"] == 2 and group["counts"]["extraction_failure"] == 1
    assert group["ci_low"] < group["accuracy_pct"] < group["ci_high"]


def test_rescore_notices_a_tampered_attempt(tmp_path, curated, openai_server, key, capsys):
    out = tmp_path / "run"
    assert run_standin(curated, openai_server, out) == 0
    attempts = out / "attempts.jsonl"
    attempts.chmod(0o644)
    attempts.write_text(attempts.read_text().replace('"status": "correct"', '"status": "wrong"', 1))
    assert run_cli("eval", "rescore", out) == 1
    assert "differs from the recomputed scores" in capsys.readouterr().err


def test_api_keys_and_transport_headers_never_reach_the_run_folder(tmp_path, curated, openai_server, key):
    openai_server.scripts.update({"Q02": ["429", "correct"], "Q03": ["500", "correct"]})
    out = tmp_path / "run"
    assert run_standin(curated, openai_server, out) == 0
    assert openai_server.requests[0]["headers"]["Authorization"] == f"Bearer {SECRET}"
    for file in out.iterdir():
        text = file.read_text(encoding="utf-8")
        assert SECRET not in text and "Bearer" not in text and "Authorization" not in text, file
        assert "Retry-After" not in text and "Content-Type" not in text, file


def test_a_key_echoed_back_in_an_error_is_redacted_before_it_is_recorded(tmp_path, curated, openai_server, key):
    openai_server.scripts["Q01"] = ["echo_key_401"]
    out = tmp_path / "run"
    assert run_standin(curated, openai_server, out, "--concurrency", "1") == 1  # a 401 stops the run
    attempts = (out / "attempts.jsonl").read_text()
    assert "HTTP 401" in attempts and "[redacted]" in attempts
    for file in out.iterdir():
        assert SECRET not in file.read_text(encoding="utf-8"), file


def test_requests_are_independent_with_no_history_and_no_tools(tmp_path, curated, openai_server, key):
    out = tmp_path / "run"
    assert run_standin(curated, openai_server, out, "--shots", "2", "--max-tokens", "77", "--seed", "5", "--repeats", "2",
                "--reasoning-effort", "low") == 0
    for request in openai_server.requests:
        body = request["body"]
        assert len(body["messages"]) == 1 and body["messages"][0]["role"] == "user"
        assert "tools" not in body and "tool_choice" not in body
        assert body["max_tokens"] == 77 and body["reasoning_effort"] == "low"
        assert body["messages"][0]["content"].count("Pytanie:") == 3  # two fixed shots and the question
    seeds = sorted({r["body"]["seed"] for r in openai_server.requests})
    assert seeds == [5, 6]  # repeat r sends seed + r


def test_compare_two_models_gives_the_gap_and_its_interval(tmp_path, curated, openai_server, key, capsys):
    a, b = tmp_path / "a", tmp_path / "b"
    assert run_standin(curated, openai_server, a) == 0
    openai_server.scripts.update({f"Q0{i}": ["wrong"] for i in (1, 2, 3)})
    assert run_standin(curated, openai_server, b) == 0
    out = tmp_path / "cmp.json"
    assert run_cli("eval", "compare", a, b, "--json", out, "--seed", "7") == 0
    result = json.loads(out.read_text())
    assert result["gap_pp"] == pytest.approx(100 * 3 / 8)
    assert result["n_questions"] == 8 and result["seed"] == 7 and result["resamples"] == 10_000
    assert 0 <= result["ci_low"] <= result["gap_pp"] <= result["ci_high"] <= 100
    assert "gap A-B: +37.50 pp" in capsys.readouterr().out
    assert run_cli("eval", "compare", a, b, "--json", tmp_path / "again.json", "--seed", "7") == 0
    assert (tmp_path / "again.json").read_bytes() == out.read_bytes()


def test_compare_refuses_runs_over_different_questions(tmp_path, questions, openai_server, key, capsys):
    first = write_parquet(tmp_path / "one" / "d.parquet", questions)
    second = write_parquet(tmp_path / "two" / "d.parquet", questions[:6] + [make_question(9)])
    assert run_standin(first, openai_server, tmp_path / "a") == 0
    assert run_standin(second, openai_server, tmp_path / "b") == 0
    assert run_cli("eval", "compare", tmp_path / "a", tmp_path / "b", "--json", tmp_path / "c.json") == 2
    err = capsys.readouterr().err
    assert "comparison refused" in err and "2 only in A" in err and "1 only in B" in err
    assert not (tmp_path / "c.json").exists()


def test_compare_refuses_a_different_answer_key_or_option_count(tmp_path, questions, openai_server, key):
    changed = [make_question(1, answer_index=(questions[0].answer_index + 1) % 4)] + questions[1:]
    fewer = questions[:-1] + [make_question(8, labels=["A", "B", "C"])]
    runs = {}
    for name, qs in (("base", questions), ("key", changed), ("options", fewer)):
        path = write_parquet(tmp_path / name / "d.parquet", qs)
        assert run_standin(path, openai_server, tmp_path / f"run_{name}") == 0
        runs[name] = tmp_path / f"run_{name}"
    with pytest.raises(AlignmentError, match="answer key differs"):
        compare(Side(runs["base"]), Side(runs["key"]))
    with pytest.raises(AlignmentError, match="4 options in A, 3 in B"):
        compare(Side(runs["base"]), Side(runs["options"]))


def test_compare_two_languages_of_the_same_questions_aligned_on_metadata(tmp_path, openai_server, key):
    pl = [make_question(i, language="pl", source="exam_pl") for i in range(1, 9)]
    en = [make_question(i, language="en", source="exam_en") for i in range(1, 9)]
    data = write_parquet(tmp_path / "both" / "d.parquet", pl + en)
    # one request at a time, in id order: exam_en's Q01 comes first and is right, exam_pl's is wrong
    openai_server.scripts.update({"Q01": ["correct", "wrong"]})
    run = tmp_path / "run"
    assert run_standin(data, openai_server, run, "--concurrency", "1") == 0
    result = compare(Side.parse(run, "exam_pl/pl"), Side.parse(run, "exam_en/en"), on=("year", "session", "number"))
    assert result.n_questions == 8
    assert result.gap_pp == pytest.approx(-12.5)
    with pytest.raises(AlignmentError, match="different questions"):
        compare(Side.parse(run, "exam_pl/pl"), Side.parse(run, "exam_en/en"))  # ids differ across languages


def test_compare_refuses_an_incomplete_run(tmp_path, curated, openai_server, key):
    assert run_standin(curated, openai_server, tmp_path / "a") == 0
    openai_server.scripts["Q04"] = ["500"]
    assert run_standin(curated, openai_server, tmp_path / "b", "--max-attempts", "1") == 2
    with pytest.raises(AlignmentError, match="missing answers"):
        compare(Side(tmp_path / "a"), Side(tmp_path / "b"))
