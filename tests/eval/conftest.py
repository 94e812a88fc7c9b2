"""Shared fixtures for the evaluation tests: curated Parquet built from real Question records, and
stand-in servers on 127.0.0.1 that speak the real OpenAI chat-completions and Gemini
generateContent wire formats, with scripted faults.

Each test question carries a token like [Q07] in its text. A stand-in reads the last token in the
request (few-shot examples come earlier) and plays that token's script of actions, one per request
(the last action repeats): correct, wrong, 429, 500, timeout, refusal, length, noletter, slow, hostile
(markup in the response).
"""
from __future__ import annotations

import dataclasses

import json
import re
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from pipeline.records import Question, question_id, questions_to_table
from tests.fixtures.http import Scripted, StandInHandler, base_url, handling, serve, stop
from pipeline.devkit.hub_standin import Repo, start_hub
from pipeline.devkit.gemini_standin import gzip_bomb

TOKEN = re.compile(r"\[(Q\d+)\]")
LABELS = ["A", "B", "C", "D"]
SECRET = "sk-test-SECRET-do-not-store-1234567890"
HOSTILE_RESPONSE = ('</script><script>window.__pwned = "script"</script><img src=x onerror="window.__pwned = \'img\'">'
                    '<b>bold?</b> \u2028 &amp; "quoted"')


def make_question(i: int, *, language: str = "pl", source: str = "pl_test", year: int = 2020, answer_index: int | None = None,
                  number: str | None = None, labels: list[str] | None = None) -> Question:
    labels = labels or LABELS
    answer_index = i % len(labels) if answer_index is None else answer_index
    number = number or str(i)
    return Question(
        id=question_id(source, year, "maj", "T-1", number), source=source, country="PL", language=language,
        exam="matura", level="podstawowy", subject="informatyka", year=year, session="maj", sheet_code="T-1",
        number=number, type="single_choice", question=f"[Q{i:02d}] Ile bitów ma bajt? (wariant {i})", context=None,
        choices=[f"opcja {l} {i}" for l in labels], choice_labels=labels, answer=labels[answer_index],
        answer_index=answer_index, points=1.0, images=[], source_url=f"https://example.org/{source}/{year}.pdf",
        source_sha256="0" * 64, pages=[1], pipeline_version="test",
    )


def questions_of_varied_lengths(n: int, filler: str) -> list[Question]:
    """`make_question(1..n)` with 0-3 copies of `filler` appended, so that a batch of them is really padded."""
    return [dataclasses.replace(make_question(i), question=make_question(i).question + filler * (i % 4)) for i in range(1, n + 1)]


def write_parquet(path: Path, questions: list[Question]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(questions_to_table(questions), path)
    return path


@pytest.fixture
def questions() -> list[Question]:
    return [make_question(i) for i in range(1, 9)]


@pytest.fixture
def curated(tmp_path, questions) -> Path:
    return write_parquet(tmp_path / "curated" / "pl_test.parquet", questions)


@dataclass
class StandIn(Scripted):
    """Scripted behaviour shared by both wire formats."""

    answers: dict[str, str] = field(default_factory=dict)  # token -> correct label
    scripts: dict[str, list[str]] = field(default_factory=dict)  # token -> actions
    hang_s: float = 3.0  # how long "timeout" stalls (the client's timeout must be shorter)
    slow_s: float = 0.05
    default_action: str = "correct"
    in_flight: int = 0
    max_in_flight: int = 0
    requests: list[dict] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    base_url: str = ""

    def wrong(self, token: str) -> str:
        right = self.answers.get(token, "A")
        return next(l for l in LABELS if l != right)

    def calls_for(self, token: str) -> int:
        return sum(1 for r in self.requests if r.get("token") == token)


def _handler(standin: StandIn, respond):
    class Handler(StandInHandler):
        def do_POST(self):
            body = self.read_json()
            text = json.dumps(body, ensure_ascii=False)
            tokens = TOKEN.findall(text)
            token = tokens[-1] if tokens else None
            action = standin.next_action(token)
            with handling(standin, {"path": self.path, "headers": dict(self.headers), "body": body, "token": token, "action": action,
                                    "t": time.monotonic()}):
                if action == "timeout":
                    time.sleep(standin.hang_s)
                if action == "slow":
                    time.sleep(standin.slow_s)
                    action = "correct"
            if action == "gzipbomb":  # a right answer after 128 MiB of JSON white space, gzipped twice (a few KB)
                payload = respond(standin, "correct", token, body, self.path)[2]
                data = gzip_bomb(128 << 20, json.dumps(payload).encode())
                self.send_response(200)
                for name, value in (("Content-Type", "application/json"), ("Content-Encoding", "gzip, gzip"),
                                    ("Content-Length", str(len(data)))):
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(data)
                return
            if action == "echo_key_401":  # a careless proxy that echoes the credentials it got
                status, headers, payload = 401, {}, {"error": {"message": f"invalid key {self.headers.get('Authorization')}"}}
            else:
                status, headers, payload = respond(standin, action, token, body, self.path)
            self.send_json(status, payload, headers)

    return Handler


ANSWER_WORD = re.compile(r"[„“«]([^\W\d_]+): X[”»]")


def answer_word(body: dict) -> str:
    """Answer in the language the prompt asks for, as a well-behaved model would."""
    found = ANSWER_WORD.findall(json.dumps(body, ensure_ascii=False))
    return found[-1] if found else "Odpowiedź"


def _openai_respond(standin: StandIn, action: str, token: str | None, body: dict, path: str):
    if path != "/v1/chat/completions":
        return 404, {}, {"error": {"message": f"no route {path}", "type": "invalid_request_error"}}
    if action == "429":
        return 429, {"Retry-After": "1"}, {"error": {"message": "Rate limit reached", "type": "rate_limit_error", "code": "rate_limit_exceeded"}}
    if action == "500":
        return 500, {}, {"error": {"message": "internal error", "type": "server_error"}}
    right = standin.answers.get(token or "", "A")
    word = answer_word(body)
    message: dict = {"role": "assistant", "content": None}
    finish = "stop"
    if action in ("correct", "timeout"):
        message["content"] = f"Bajt to osiem bitów.\n{word}: {right}"
    elif action == "wrong":
        message["content"] = f"{word}: {standin.wrong(token)}"
    elif action == "refusal":
        message["refusal"] = "I'm sorry, but I can't help with that."
    elif action == "length":
        message["content"] = "Zastanówmy się krok po kroku. Najpierw"
        finish = "length"
    elif action == "noletter":
        message["content"] = "Trudno powiedzieć, wszystkie wyglądają podobnie."
    elif action == "hostile":  # markup a page showing the response must print, never run
        message["content"] = HOSTILE_RESPONSE + f"\n{word}: {right}"
    else:
        raise AssertionError(f"unknown action {action}")
    payload = {
        "id": "chatcmpl-standin", "object": "chat.completion", "created": int(time.time()), "model": body.get("model"),
        "system_fingerprint": "fp_standin_1",
        "choices": [{"index": 0, "message": message, "logprobs": None, "finish_reason": finish}],
        "usage": {"prompt_tokens": 42, "completion_tokens": 7, "total_tokens": 49},
    }
    return 200, {}, payload


def _gemini_respond(standin: StandIn, action: str, token: str | None, body: dict, path: str):
    if not re.fullmatch(r"/v1beta/models/[^/:]+:generateContent", path):
        return 404, {}, {"error": {"code": 404, "message": f"no route {path}", "status": "NOT_FOUND"}}
    if action == "429":
        # As the Gemini API does: when to retry is in the body (google.rpc.RetryInfo), not a header.
        return 429, {}, {"error": {"code": 429, "message": "Resource has been exhausted", "status": "RESOURCE_EXHAUSTED",
                                   "details": [{"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "1s"}]}}
    if action == "500":
        return 500, {}, {"error": {"code": 500, "message": "An internal error has occurred", "status": "INTERNAL"}}
    usage = {"promptTokenCount": 40, "candidatesTokenCount": 6, "totalTokenCount": 46}
    right = standin.answers.get(token or "", "A")
    if action == "refusal":
        return 200, {}, {"promptFeedback": {"blockReason": "SAFETY"}, "usageMetadata": usage, "modelVersion": "gemini-standin-001"}
    text, finish = {
        "correct": (f"Odpowiedź: {right}", "STOP"),
        "timeout": (f"Odpowiedź: {right}", "STOP"),
        "wrong": (f"Odpowiedź: {standin.wrong(token)}" if token else "Odpowiedź: B", "STOP"),
        "length": ("Zastanówmy się krok po kroku. Najpierw", "MAX_TOKENS"),
        "noletter": ("Trudno powiedzieć.", "STOP"),
    }[action]
    return 200, {}, {
        "candidates": [{"content": {"role": "model", "parts": [{"text": text}]}, "finishReason": finish, "index": 0}],
        "usageMetadata": usage,
        "modelVersion": "gemini-standin-001",
    }


def _standin(respond, suffix: str, questions: list[Question]):
    standin = StandIn(answers={TOKEN.search(q.question).group(1): q.answer for q in questions})
    server = serve(_handler(standin, respond))
    standin.base_url = base_url(server) + suffix
    return standin, server


@pytest.fixture
def openai_server(questions):
    standin, server = _standin(_openai_respond, "/v1", questions)
    yield standin
    stop(server)


@pytest.fixture
def gemini_server(questions):
    standin, server = _standin(_gemini_respond, "", questions)
    yield standin
    stop(server)


class ReleaseRepo:
    """One public dataset repo on the shared Hub stand-in (pipeline.devkit.hub_standin), as a release
    reader sees it: commits (oid -> path -> bytes) and tags set directly by the test."""

    def __init__(self, hub, repo_id: str):
        self._hub, self.repo = hub, repo_id
        hub.repos[repo_id] = Repo(private=False)

    @property
    def files(self) -> dict[str, dict[str, bytes]]:
        return self._hub.repos[self.repo].commits

    @files.setter
    def files(self, commits: dict[str, dict[str, bytes]]) -> None:
        self._hub.repos[self.repo].commits = commits

    @property
    def tags(self) -> dict[str, str]:
        return self._hub.repos[self.repo].tags

    @tags.setter
    def tags(self, tags: dict[str, str]) -> None:
        self._hub.repos[self.repo].tags = tags

    @property
    def endpoint(self) -> str:
        return self._hub.endpoint

    @property
    def log(self) -> list[str]:
        return self._hub.log


@pytest.fixture
def hub_server():
    hub, server = start_hub(token="hub-token-unused-by-public-reads")
    yield ReleaseRepo(hub, "examcorpus/test-release")
    stop(server)


def release_files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def run_cli(*argv: str) -> int:
    from eval.cli import main

    return main([str(a) for a in argv])


def run_standin(data, server, out, *extra) -> int:
    """`eval run` against the OpenAI-compatible stand-in, key in STANDIN_KEY (set it with `standin_key`)."""
    return run_cli("eval", "run", "--data", data, "--model", "openai:standin", "--base-url", server.base_url,
                   "--api-key-env", "STANDIN_KEY", "--protocol", "mcq", "--out", out, "--no-progress",
                   "--retry-base-delay", "0.01", *extra)


@pytest.fixture
def standin_key(monkeypatch):
    monkeypatch.setenv("STANDIN_KEY", SECRET)


@pytest.fixture(scope="session")
def _hash_cache_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("hash-cache")


@pytest.fixture(autouse=True)
def _hash_cache_in_tmp(_hash_cache_dir, monkeypatch):
    """Whole-file hashes are cached per user (eval.run.provenance); tests keep theirs out of ~/.cache,
    in one cache per session so that a model's weights are hashed once."""
    monkeypatch.setenv("EXAMCORPUS_CACHE_DIR", str(_hash_cache_dir))


# --- a vLLM-style /v1/completions stand-in: echo with logprobs, for log-likelihood scoring --------

_WORDS = re.compile(r"\s*\S+")


def _completion_choice(index: int, prompt: str, preferred: str) -> dict:
    """vLLM's legacy-completions choice for `echo: true, logprobs: 1, max_tokens: 1`: every prompt
    token with its log-probability (None for the first) and top-1, then one generated token."""
    tokens = _WORDS.findall(prompt)
    if "".join(tokens) != prompt:  # trailing whitespace: its own token, as real tokenizers keep it
        tokens.append(prompt[len("".join(tokens)):])
    values: list[float | None] = [None]
    tops: list[dict | None] = [None]
    for i in range(1, len(tokens)):
        token = tokens[i]
        if tokens[i - 1].endswith(":") and token.strip() in LABELS:  # an option label after the answer word
            value = -0.25 if token.strip() == preferred else -1.5 - 0.1 * LABELS.index(token.strip())
            best = f" {preferred}"
            top = {token: value, best: -0.25}
        else:
            value = -1.0 - 0.1 * (len(token) % 3)
            top = {token: value}
        values.append(value)
        tops.append(top)
    tokens.append(" .")
    values.append(-0.5)
    tops.append({" .": -0.5})
    offsets, at = [], 0
    for token in tokens:
        offsets.append(at)
        at += len(token)
    return {"index": index, "text": prompt + " .", "finish_reason": "length", "stop_reason": None, "prompt_logprobs": None,
            "logprobs": {"text_offset": offsets, "token_logprobs": values, "tokens": tokens, "top_logprobs": tops}}


def _completions_respond(standin: StandIn, action: str, token: str | None, body: dict, path: str):
    if path != "/v1/completions":
        return 404, {}, {"object": "error", "message": f"Not Found: {path}", "type": "NotFoundError", "code": 404}
    prompts = body.get("prompt")
    prompts = [prompts] if isinstance(prompts, str) else prompts
    bad = (not isinstance(prompts, list) or not all(isinstance(p, str) for p in prompts) or not isinstance(body.get("max_tokens"), int)
           or not isinstance(body.get("echo", False), bool) or not isinstance(body.get("logprobs"), int) or not 0 <= body["logprobs"] <= 20)
    if bad:
        return 400, {}, {"object": "error", "message": "invalid request", "type": "BadRequestError", "code": 400}
    if action == "429":
        return 429, {"Retry-After": "0"}, {"object": "error", "message": "too many requests", "type": "RateLimitError", "code": 429}
    if action == "500":
        return 500, {}, {"object": "error", "message": "engine error", "type": "InternalServerError", "code": 500}
    right = standin.answers.get(token or "", "A")
    preferred = standin.wrong(token) if action == "wrong" else right
    choices = [_completion_choice(i, p, preferred) for i, p in enumerate(prompts)]
    if action == "noecho":  # a server that ignores echo: log-probabilities of the generated token only
        for c in choices:
            c["logprobs"] = {"text_offset": [0], "token_logprobs": [-0.5], "tokens": [" ."], "top_logprobs": [{" .": -0.5}]}
            c["text"] = " ."
    usage = {"prompt_tokens": sum(len(_WORDS.findall(p)) for p in prompts), "completion_tokens": len(prompts)}
    usage["total_tokens"] = usage["prompt_tokens"] + usage["completion_tokens"]
    return 200, {}, {"id": "cmpl-standin", "object": "text_completion", "created": int(time.time()), "model": body.get("model"),
                     "choices": choices, "usage": usage}


@pytest.fixture
def completions_server(questions):
    standin, server = _standin(_completions_respond, "/v1", questions)
    yield standin
    stop(server)
