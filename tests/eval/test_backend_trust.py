"""The API key and the run's own record against a hostile or broken endpoint, on 127.0.0.1.

Each endpoint here is a real HTTP server whose answers are scripted per question (the [Qnn] token in
the prompt): redirects to another origin, bodies that echo the key, a Retry-After of a day, a body
shorter than its Content-Length, a `content` that is a list. The run is the real `eval run`.
"""
from __future__ import annotations

import email.utils
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tests.fixtures.http import StandInHandler, serve, stop

from eval.log.runfolder import read_jsonl
from tests.eval.conftest import SECRET, TOKEN, answer_word, run_cli

REPO = Path(__file__).resolve().parents[2]


class Endpoint:
    """A chat-completions endpoint playing, for each question token, a list of actions (one per request;
    the last repeats). An action is a function (handler, token, body) -> None that writes the response."""

    def __init__(self, answers: dict[str, str]):
        self.answers = answers
        self.scripts: dict[str, list] = {}
        self.requests: list[dict] = []
        self.lock = threading.Lock()
        endpoint = self

        class Handler(StandInHandler):
            def _handle(self):
                body = json.loads(self.read_body() or b"{}")
                tokens = TOKEN.findall(json.dumps(body, ensure_ascii=False))
                token = tokens[-1] if tokens else None
                with endpoint.lock:
                    endpoint.requests.append({"method": self.command, "path": self.path, "headers": dict(self.headers),
                                              "token": token, "t": time.monotonic()})
                    script = endpoint.scripts.get(token or "", [])
                    action = script.pop(0) if len(script) > 1 else (script[0] if script else answer)
                try:
                    action(self, token, body)
                except (BrokenPipeError, ConnectionResetError):
                    pass

            do_POST = do_GET = _handle

        self.server = serve(Handler)
        self.base_url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def close(self):
        stop(self.server)


def send(handler, status: int, data: bytes, headers: dict | None = None, *, content_type="application/json", length=None):
    handler.send_response(status)
    for k, v in (headers or {}).items():
        handler.send_header(k, v)
    handler.send_header("Content-Type", content_type)
    handler.send_header("Content-Length", str(len(data) if length is None else length))
    handler.end_headers()
    handler.wfile.write(data)
    handler.wfile.flush()


def completion(content) -> bytes:
    return json.dumps({"id": "x", "object": "chat.completion", "model": "standin",
                       "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
                       "usage": {"prompt_tokens": 5, "completion_tokens": 2}}).encode()


def answer(handler, token, body):
    right = handler.server.endpoint.answers[token]
    send(handler, 200, completion(f"{answer_word(body)}: {right}"))


@pytest.fixture
def endpoint(questions):
    ep = Endpoint({TOKEN.search(q.question).group(1): q.answer for q in questions})
    ep.server.endpoint = ep
    yield ep
    ep.close()


def eval_run(data, base_url, out, *extra) -> int:
    return run_cli("eval", "run", "--data", data, "--model", "openai:standin", "--base-url", base_url,
                   "--api-key-env", "STANDIN_KEY", "--protocol", "mcq", "--out", out, "--no-progress",
                   "--retry-base-delay", "0.01", "--concurrency", "2", *extra)


def final_attempts(out: Path) -> dict[str, dict]:
    return {a["qid"]: a for a in read_jsonl(out / "attempts.jsonl")}


def attempts_of(out: Path, token: str) -> list[dict]:
    qid_by_token = {}
    for p in read_jsonl(out / "prompts.jsonl"):
        found = TOKEN.findall(json.dumps(p, ensure_ascii=False))
        qid_by_token[found[-1]] = p["qid"]
    return [a for a in read_jsonl(out / "attempts.jsonl") if a["qid"] == qid_by_token[token]]


# --- case 7: credentials never go to another origin -------------------------------------------------

def test_a_redirect_to_another_origin_is_refused_and_the_key_never_reaches_it(tmp_path, curated, endpoint, standin_key):
    elsewhere = Endpoint(endpoint.answers)  # another port on the same host: another origin
    elsewhere.server.endpoint = elsewhere
    target = f"{elsewhere.base_url}/chat/completions"
    try:
        for code in (302, 307):
            endpoint.scripts[f"Q0{code % 10}"] = [lambda h, t, b, code=code: send(h, code, b"", {"Location": target})]
        out = tmp_path / "run"
        assert eval_run(curated, endpoint.base_url, out, "--max-attempts", "2") == 2  # two answers missing
    finally:
        elsewhere.close()
    assert not any("Authorization" in r["headers"] or "authorization" in r["headers"] for r in elsewhere.requests)
    for token, code in (("Q02", 302), ("Q07", 307)):
        tries = attempts_of(out, token)
        assert [a["status"] for a in tries] == ["technical_failure", "technical_failure"]
        assert all(target in a["error"] and "another origin" in a["error"] and a["http_status"] == code for a in tries)


def test_a_redirect_within_the_same_origin_is_followed_with_the_key(tmp_path, curated, endpoint, standin_key):
    moved = f"{endpoint.base_url}/moved/chat/completions"
    endpoint.scripts["Q03"] = [lambda h, t, b: send(h, 307, b"", {"Location": moved}), answer]
    out = tmp_path / "run"
    assert eval_run(curated, endpoint.base_url, out) == 0
    followed = [r for r in endpoint.requests if r["path"] == "/v1/moved/chat/completions"]
    assert len(followed) == 1 and followed[0]["method"] == "POST"
    assert followed[0]["headers"]["Authorization"] == f"Bearer {SECRET}"
    assert [a["status"] for a in attempts_of(out, "Q03")] == ["correct"]


# --- case 8: the key is in no stored or printed string ----------------------------------------------

def echo_key_as_text(handler, token, body):
    send(handler, 200, f"debug proxy: you sent {handler.headers['Authorization']}".encode(), content_type="text/plain")


def echo_key_in_error(handler, token, body):
    send(handler, 502, f"<html>bad gateway for x-goog-api-key={SECRET} {handler.headers['Authorization']}</html>".encode(),
         content_type="text/html")


def echo_key_in_answer(handler, token, body):
    send(handler, 200, completion(f"Your key is {SECRET}. {answer_word(body)}: {handler.server.endpoint.answers[token]}"))


def test_a_key_echoed_by_the_service_is_stored_and_printed_nowhere(tmp_path, curated, endpoint, standin_key, capsys):
    endpoint.scripts.update({"Q01": [echo_key_as_text, answer], "Q02": [echo_key_in_error, answer],
                             "Q03": [echo_key_in_answer], "Q04": [echo_key_as_text]})
    out = tmp_path / "run"
    code = eval_run(curated, endpoint.base_url, out, "--max-attempts", "2")
    printed = capsys.readouterr()
    assert code == 2  # Q04 never got an answer: the run stays open
    errors = [a["error"] for a in read_jsonl(out / "attempts.jsonl") if a["status"] == "technical_failure"]
    assert len(errors) == 4 and all("[redacted]" in e for e in errors)  # what happened is still told
    leaked = [p.name for p in out.rglob("*") if p.is_file() and SECRET.encode() in p.read_bytes()]
    assert leaked == []
    assert SECRET not in printed.out and SECRET not in printed.err
    assert {"attempts.jsonl", "sessions.jsonl", "run.json"} <= {p.name for p in out.iterdir()}  # all were searched


# --- case 9: a password in --base-url is not printed -------------------------------------------------

def test_a_password_in_the_base_url_is_not_echoed_by_the_validation_error(tmp_path, curated):
    password = "hunter2-pass-XYZ"
    result = subprocess.run(
        [sys.executable, "-m", "pipeline.cli", "eval", "run", "--data", str(curated), "--model", "openai:m",
         "--base-url", f"http://user:{password}@127.0.0.1:9/v1", "--protocol", "mcq", "--out", str(tmp_path / "run")],
        capture_output=True, text=True, cwd=REPO, env={**os.environ, "PYTHONPATH": str(REPO)}, timeout=120,
    )
    assert result.returncode == 1
    assert "base_url must not carry credentials" in result.stderr
    assert password not in result.stdout + result.stderr
    assert not (tmp_path / "run").exists()


# --- case 10: Retry-After is capped, and the attempt says so -----------------------------------------

def test_a_retry_after_of_a_day_is_cut_to_the_cap_and_the_attempt_says_so(tmp_path, curated, endpoint, standin_key):
    a_day_later = email.utils.formatdate(time.time() + 86_400, usegmt=True)
    endpoint.scripts.update({
        "Q01": [lambda h, t, b: send(h, 429, b'{"error": "slow down"}', {"Retry-After": "100000"}), answer],
        "Q02": [lambda h, t, b: send(h, 503, b'{"error": "busy"}', {"Retry-After": a_day_later}), answer],
        "Q03": [lambda h, t, b: send(h, 429, b'{"error": "slow down"}', {"Retry-After": "0"}), answer],
    })
    out = tmp_path / "run"
    started = time.monotonic()
    assert eval_run(curated, endpoint.base_url, out, "--max-retry-after", "0.2") == 0
    assert time.monotonic() - started < 60  # not a day
    [first, second] = attempts_of(out, "Q01")
    assert first["retry_after_s"] == 100000 and first["retry_after_capped"] is True and first["retry_wait_s"] == 0.2
    assert second["status"] == "correct"
    dated = attempts_of(out, "Q02")[0]
    assert dated["retry_after_capped"] is True and dated["retry_after_s"] > 80_000 and dated["retry_wait_s"] == 0.2
    honoured = attempts_of(out, "Q03")[0]
    assert honoured["retry_after_capped"] is False and honoured["retry_wait_s"] == 0


# --- case 11: a cut body and a malformed content are technical failures, recorded and retried --------

def cut_short(handler, token, body):
    data = completion(f"{answer_word(body)}: {handler.server.endpoint.answers[token]}")
    send(handler, 200, data[:20], length=len(data) + 500)  # promises more than it sends, then closes
    handler.close_connection = True


@pytest.mark.parametrize("content", [["A"], 7, {"text": "A"}, [{"type": "image", "url": "x"}]])
def test_a_body_cut_short_or_a_content_of_the_wrong_shape_is_a_retried_technical_failure(
        tmp_path, curated, endpoint, standin_key, content, capsys):
    endpoint.scripts.update({
        "Q01": [cut_short, answer],
        "Q02": [lambda h, t, b: send(h, 200, completion(content)), answer],
        "Q03": [lambda h, t, b: send(h, 200, b'{"choices": ["A"]}'), answer],
        "Q04": [lambda h, t, b: send(h, 200, b'[1, 2]'), answer],
    })
    out = tmp_path / "run"
    assert eval_run(curated, endpoint.base_url, out) == 0
    assert "Traceback" not in capsys.readouterr().err
    for token, said in (("Q01", "body cut short"), ("Q02", "content is a"), ("Q03", "no choices[0] object"),
                        ("Q04", "no choices[0] object")):
        first, second = attempts_of(out, token)
        assert first["status"] == "technical_failure" and first["retryable"] is True and said in first["error"]
        assert second["status"] == "correct"


def test_content_as_a_list_of_text_parts_is_read_as_its_text(tmp_path, curated, endpoint, standin_key):
    def parts(h, t, b):
        send(h, 200, completion([{"type": "text", "text": f"{answer_word(b)}: "}, {"type": "text", "text": endpoint.answers[t]}]))

    endpoint.scripts["Q05"] = [parts]
    out = tmp_path / "run"
    assert eval_run(curated, endpoint.base_url, out) == 0
    assert [a["status"] for a in attempts_of(out, "Q05")] == ["correct"]


# --- the same seams through Gemini (google-genai SDK) ------------------------------------------------

def gemini_answer(handler, token, body):
    text = f"Odpowiedź: {handler.server.endpoint.answers[token]}"
    send(handler, 200, json.dumps({"candidates": [{"content": {"role": "model", "parts": [{"text": text}]}, "finishReason": "STOP"}],
                                   "modelVersion": "gemini-standin-001"}).encode())


def test_gemini_bodies_that_are_not_the_apis_shape_are_retried_and_the_key_is_kept_out(tmp_path, curated, endpoint, standin_key,
                                                                                       capsys):
    endpoint.scripts.update({
        "Q01": [lambda h, t, b: send(h, 200, f"echo {h.headers['x-goog-api-key']}".encode(), content_type="text/plain"),
                gemini_answer],
        "Q02": [lambda h, t, b: send(h, 200, json.dumps({"candidates": [{"content": {"parts": [{"text": ["A"]}]}}]}).encode()),
                gemini_answer],
    })
    for token in endpoint.answers:
        endpoint.scripts.setdefault(token, [gemini_answer])
    out = tmp_path / "run"
    code = run_cli("eval", "run", "--data", curated, "--model", "gemini:gemini-standin", "--base-url", endpoint.base_url[:-3],
                   "--api-key-env", "STANDIN_KEY", "--protocol", "mcq", "--out", out, "--no-progress", "--retry-base-delay", "0.01")
    printed = capsys.readouterr()
    assert code == 0 and "Traceback" not in printed.err
    for token in ("Q01", "Q02"):
        first, second = attempts_of(out, token)
        assert first["status"] == "technical_failure" and "malformed response body" in first["error"]
        assert second["status"] == "correct"
    assert [p.name for p in out.rglob("*") if p.is_file() and SECRET.encode() in p.read_bytes()] == []
    assert SECRET not in printed.out + printed.err


def test_gemini_does_not_follow_a_redirect_with_its_key(tmp_path, curated, endpoint, standin_key):
    elsewhere = Endpoint(endpoint.answers)
    elsewhere.server.endpoint = elsewhere
    target = f"{elsewhere.base_url}/models/x:generateContent"
    for token in endpoint.answers:
        endpoint.scripts[token] = [gemini_answer]
    endpoint.scripts["Q03"] = [lambda h, t, b: send(h, 307, b"", {"Location": target})]
    out = tmp_path / "run"
    try:
        assert run_cli("eval", "run", "--data", curated, "--model", "gemini:gemini-standin", "--base-url", endpoint.base_url[:-3],
                       "--api-key-env", "STANDIN_KEY", "--protocol", "mcq", "--out", out, "--no-progress",
                       "--retry-base-delay", "0.01", "--max-attempts", "2") == 2
    finally:
        elsewhere.close()
    assert elsewhere.requests == []
    tries = attempts_of(out, "Q03")
    assert len(tries) == 2 and all(f"redirect to {target} refused" in a["error"] and a["http_status"] == 307 for a in tries)
