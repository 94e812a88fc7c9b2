"""The describe stage against a Gemini stand-in on 127.0.0.1: what is sent, what is stored, which
faults are retried and which are recorded once."""
from __future__ import annotations

import hashlib
import json
import time
from dataclasses import replace

import pyarrow.parquet as pq
import pytest

from pipeline.describe import (
    DescribeInputError,
    RetryPolicy,
    describe_curated,
    load_annotations,
    read_jsonl,
)
from pipeline.records import table_to_questions
from pipeline.renames import record_renames
from tests.pipeline.describe.builders import figure_question, write_curated
from tests.pipeline.describe.conftest import SECRET
from pipeline.devkit.gemini_standin import GeminiStandIn


def curated_questions(project):
    return table_to_questions(pq.read_table(project / "curated" / "pl_test.parquet"))


def test_every_figure_is_sent_once_with_its_question_and_a_response_schema(options, gemini, api_key, project):
    summary = describe_curated(options, api_key=api_key)

    assert summary.figures == 7 and summary.counts == {"pending": 7} and not summary.failures
    assert len(gemini.requests) == 7  # the text-only question is not sent
    questions = {q.id: q for q in curated_questions(project)}
    sent_images = sorted(sha for r in gemini.requests for sha in r["image_sha256"])
    assert sent_images == sorted(img.sha256 for q in questions.values() for img in q.images)
    request = gemini.requests[0]
    assert request["path"] == "/v1beta/models/gemini-2.5-pro:generateContent"
    assert request["headers"]["x-goog-api-key"] == SECRET
    config = request["body"]["generationConfig"]
    assert config["responseMimeType"] == "application/json"
    assert set(config["responseSchema"]["required"]) == {"description", "transcription"}
    prompt = "".join(p.get("text", "") for p in request["body"]["contents"][0]["parts"])
    assert "Oblicz długość przeciwprostokątnej" in prompt and "C. 5 cm" in prompt and "Zwróć obiekt JSON" in prompt

    annotations = load_annotations(project / "annotations" / "descriptions.jsonl")
    assert len(annotations) == 7
    first = annotations[0]
    assert first.record_id in questions and first.status == "pending" and first.model == "gemini-2.5-pro"
    assert first.prompt_version == "v1" and first.description.startswith("Figure F") and "3 cm" in first.transcription
    assert first.usage == {"prompt_tokens": 300, "completion_tokens": 80, "total_tokens": 380}
    assert first.latency_s is not None and first.created_at.endswith("+00:00") and first.model_version == "gemini-2.5-pro-standin-001"


def test_annotations_are_one_sorted_json_object_a_line(options, api_key, project):
    describe_curated(options, api_key=api_key)
    lines = (project / "annotations" / "descriptions.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 7
    for line in lines:
        record = json.loads(line)
        assert list(record) == sorted(record)
        assert SECRET not in line


def test_a_rerun_sends_nothing_and_a_new_model_or_prompt_version_sends_again(options, gemini, api_key, project):
    describe_curated(options, api_key=api_key)
    path = project / "annotations" / "descriptions.jsonl"
    before = path.read_bytes()

    again = describe_curated(options, api_key=api_key)
    assert again.already_done == 7 and again.counts == {} and len(gemini.requests) == 7
    assert path.read_bytes() == before

    describe_curated(replace(options, model="gemini-2.5-flash"), api_key=api_key)
    assert len(gemini.requests) == 14
    assert {a.model for a in load_annotations(path)} == {"gemini-2.5-pro", "gemini-2.5-flash"}


def test_a_record_renamed_since_it_was_described_is_not_sent_again(options, gemini, api_key, project):
    describe_curated(options, api_key=api_key)
    questions = curated_questions(project)
    renamed = [replace(q, id=f"{q.id}:file-2024") for q in questions]
    write_curated(project, renamed)
    record_renames(project, {old.id: new.id for old, new in zip(questions, renamed)})

    again = describe_curated(options, api_key=api_key)

    assert again.already_done == 7 and again.counts == {} and len(gemini.requests) == 7
    assert len(load_annotations(project / "annotations" / "descriptions.jsonl")) == 7


def test_429_waits_the_retry_delay_the_server_names(options, gemini, api_key, project):
    gemini.scripts = {"F01": ["429", "ok"]}
    gemini.retry_delay = "0.3s"
    describe_curated(options, api_key=api_key)
    calls = gemini.calls_for("F01")
    assert [c["action"] for c in calls] == ["429", "ok"]
    assert calls[1]["t"] - calls[0]["t"] >= 0.29
    annotation = next(a for a in load_annotations(project / "annotations" / "descriptions.jsonl") if a.attempts == 2)
    assert annotation.status == "pending"


def test_server_errors_and_timeouts_are_retried(options, gemini, api_key):
    gemini.scripts = {"F01": ["500", "ok"], "F02": ["503", "500", "ok"], "F03": ["hang", "ok"]}
    summary = describe_curated(options, api_key=api_key)
    assert summary.counts == {"pending": 7} and not summary.failures
    assert [c["action"] for c in gemini.calls_for("F03")] == ["hang", "ok"]
    assert len(gemini.calls_for("F02")) == 3


def test_persistent_failure_is_reported_not_recorded_and_retried_by_the_next_run(options, gemini, api_key, project):
    gemini.scripts = {"F01": ["500"]}
    summary = describe_curated(options, api_key=api_key)
    assert len(gemini.calls_for("F01")) == 3  # max_attempts
    assert len(summary.failures) == 1 and "gave up after 3 attempts" in summary.failures[0] and "HTTP 500" in summary.failures[0]
    assert len(load_annotations(project / "annotations" / "descriptions.jsonl")) == 6

    gemini.scripts = {}
    second = describe_curated(options, api_key=api_key)
    assert second.counts == {"pending": 1} and second.already_done == 6


def test_safety_blocks_and_useless_answers_are_recorded_once(options, gemini, api_key, project):
    gemini.scripts = {"F01": ["block"], "F02": ["safety"], "F03": ["empty"], "F04": ["badjson"]}
    summary = describe_curated(options, api_key=api_key)
    assert summary.counts == {"blocked": 2, "empty": 1, "malformed": 1, "pending": 3}
    for token in ("F01", "F02", "F03", "F04"):
        assert len(gemini.calls_for(token)) == 1, token  # not retried
    by_token = {a.image_path.split("-")[1]: a for a in load_annotations(project / "annotations" / "descriptions.jsonl")}
    assert by_token["0001"].finish_reason == "SAFETY" and by_token["0001"].description is None
    assert by_token["0004"].raw_text.startswith('{"description": "A circuit')

    describe_curated(options, api_key=api_key)
    assert len(gemini.requests) == 7  # recorded outcomes are final for this model and prompt version


def test_a_body_that_is_not_json_fails_that_figure_without_retrying(options, gemini, api_key):
    gemini.scripts = {"F02": ["garbage"]}
    summary = describe_curated(options, api_key=api_key)
    assert len(gemini.calls_for("F02")) == 1
    assert len(summary.failures) == 1 and "unreadable response" in summary.failures[0]


def test_the_key_never_appears_even_when_the_server_echoes_it(options, gemini, api_key, project):
    gemini.scripts = {"F01": ["badkey"]}
    summary = describe_curated(options, api_key=api_key)
    assert len(gemini.calls_for("F01")) == 1  # a 400 is not retried
    report = "\n".join(summary.lines())
    assert "HTTP 400" in report and "[redacted]" in report and SECRET not in report
    assert SECRET not in (project / "annotations" / "descriptions.jsonl").read_text(encoding="utf-8")


def test_a_redirect_to_another_origin_is_refused_and_the_key_never_reaches_it(options, gemini, api_key, project):
    elsewhere = GeminiStandIn().start()
    try:
        gemini.redirect_to = elsewhere.base_url
        gemini.scripts = {"F01": ["redirect"]}
        summary = describe_curated(options, api_key=api_key)
    finally:
        elsewhere.stop()
    assert elsewhere.requests == []  # the SDK left alone would have sent x-goog-api-key there
    assert len(gemini.calls_for("F01")) == 1  # a redirect is not retried: it would be refused again
    assert len(summary.failures) == 1 and f"redirect to {elsewhere.base_url}" in summary.failures[0]
    assert SECRET not in "\n".join(summary.lines())


def test_concurrency_is_bounded(options, gemini, api_key, project):
    write_curated(project, [figure_question(project, i) for i in range(1, 25)])
    gemini.default_action = "slow"
    gemini.slow_s = 0.1
    describe_curated(replace(options, concurrency=3), api_key=api_key)
    assert gemini.max_in_flight == 3


def test_a_changed_figure_file_is_not_sent(options, gemini, api_key, project):
    (project / "raw" / "figures" / "pl_test-0002-0.png").write_bytes(b"\x89PNG not the extracted figure")
    summary = describe_curated(options, api_key=api_key)
    assert len(gemini.requests) == 6
    assert "pl_test-0002-0.png changed since extraction" in summary.failures[0]


def test_a_language_without_prompt_stops_before_any_request(options, gemini, api_key, project):
    write_curated(project, [figure_question(project, 1, language="xx")])
    with pytest.raises(DescribeInputError, match=r"no prompt for language 'xx'.*xx\.txt is missing"):
        describe_curated(options, api_key=api_key)
    assert gemini.requests == [] and not (project / "annotations").exists()


def test_an_unreadable_curated_file_is_named(options, api_key, project):
    bad = project / "curated" / "broken.parquet"
    bad.write_bytes(b"not parquet")
    with pytest.raises(DescribeInputError, match="broken.parquet: not a curated questions file"):
        describe_curated(options, api_key=api_key)


def test_limit_sends_only_that_many_and_says_how_many_it_left(options, gemini, api_key):
    summary = describe_curated(replace(options, limit=2, retry=RetryPolicy(max_attempts=1)), api_key=api_key)
    assert summary.counts == {"pending": 2} and len(gemini.requests) == 2
    assert summary.left_by_limit == summary.figures - 2 > 0
    assert summary.lines()[0].endswith(f", 0 failed, {summary.figures - 2} left for a later run (--limit)")


def test_stored_figure_hashes_match_the_files(options, api_key, project):
    describe_curated(options, api_key=api_key)
    for record in read_jsonl(project / "annotations" / "descriptions.jsonl"):
        assert hashlib.sha256((project / record["image_path"]).read_bytes()).hexdigest() == record["image_sha256"]


def test_an_answer_trickled_a_byte_at_a_time_is_cut_at_the_timeout_and_retried(options, gemini, api_key):
    # Each byte comes within the 0.5 s a read may wait, so only a deadline on the whole exchange ends it: the
    # headers alone take about 9 s at this pace.
    gemini.scripts = {"F01": ["trickle", "ok"]}
    started = time.monotonic()
    summary = describe_curated(options, api_key=api_key)
    assert summary.counts == {"pending": 7} and not summary.failures
    assert [c["action"] for c in gemini.calls_for("F01")] == ["trickle", "ok"]
    assert time.monotonic() - started < 6


def test_an_answer_past_the_size_bound_fails_that_figure_unread(options, gemini, api_key):
    # 96 MiB of JSON white space before a right answer: read whole, it would be taken. A read may wait 5 s here,
    # not the fixture's 0.5: on a loaded machine a stalled chunk timed out and the figure was retried (2 calls),
    # which is the timeout's behaviour, not the size bound's this test is about.
    gemini.scripts = {"F01": ["huge"]}
    summary = describe_curated(replace(options, timeout_s=5.0), api_key=api_key)
    assert len(summary.failures) == 1 and "larger than" in summary.failures[0]
    assert len(gemini.calls_for("F01")) == 1


def test_a_gzip_bomb_from_gemini_fails_its_figure_unread(options, gemini, api_key):
    # 128 MiB of JSON white space before a right answer, gzipped twice (a few KB on the wire): the library decoded it
    # whole above the transport's count, and the answer was taken (`tests/pipeline/infra/test_bounded_encodings.py`).
    gemini.scripts = {"F01": ["gzipbomb"]}
    gemini.huge_bytes = 128 * 1024 * 1024
    summary = describe_curated(replace(options, timeout_s=5.0), api_key=api_key)
    assert len(summary.failures) == 1 and "larger than" in summary.failures[0], summary.failures
    assert len(gemini.calls_for("F01")) == 1
