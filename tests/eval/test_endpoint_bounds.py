"""A model server that never finishes its answer: a body without end, an answer trickled a byte at a time.

The endpoint is a real HTTP server on 127.0.0.1 (`Endpoint` of test_backend_trust) and the run is the real
`eval run`. `--timeout` is the seconds a request may take, the whole exchange: a server that keeps
sending a byte before each socket read would time out must not hold a worker past it, and a body is
read only up to `MAX_RESPONSE_BYTES`, whatever its framing says, not into memory to its end.
"""
from __future__ import annotations

import time

from eval.models.openai_compat import MAX_RESPONSE_BYTES
from tests.eval.test_backend_trust import answer, attempts_of, completion, endpoint, eval_run  # noqa: F401 (fixture)
from tests.eval.conftest import answer_word

MIB = 1024 * 1024


def endless_whitespace(total: int):
    """A 200 whose chunked body is `total` bytes of JSON white space, then a right answer: read to its end,
    the answer is valid JSON, so only a bound on what is read tells the attack from an answer."""

    def action(handler, token, body):
        handler.send_response(200)
        handler.send_header("Content-Type", "application/json")
        handler.send_header("Transfer-Encoding", "chunked")
        handler.end_headers()
        piece = b" " * MIB
        sent = 0
        while sent < total:
            handler.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece))
            sent += len(piece)
        data = completion(f"{answer_word(body)}: {handler.server.endpoint.answers[token]}")
        handler.wfile.write(b"%x\r\n%s\r\n0\r\n\r\n" % (len(data), data))
        handler.wfile.flush()

    return action


def trickled(where: str, seconds: float, every: float = 0.25):
    """A 200 that sends one byte every `every` seconds for `seconds` (in the header block, or in the body
    as JSON white space under an exact Content-Length), then a right answer: each socket read gets a byte
    long before `--timeout`, so only a deadline on the whole request ends it."""

    def action(handler, token, body):
        data = completion(f"{answer_word(body)}: {handler.server.endpoint.answers[token]}")
        n = int(seconds / every)
        out = handler.wfile
        out.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n")
        if where == "headers":
            out.write(b"Content-Length: %d\r\n" % len(data))
            for _ in range(n):
                out.write(b"X-Pad: ")
                out.flush()
                time.sleep(every)
                out.write(b"a\r\n")
            out.write(b"\r\n" + data)
        else:
            out.write(b"Content-Length: %d\r\n\r\n" % (n + len(data)))
            for _ in range(n):
                out.write(b" ")
                out.flush()
                time.sleep(every)
            out.write(data)
        out.flush()
        handler.close_connection = True

    return action


def test_a_body_without_end_is_read_only_to_the_bound(tmp_path, curated, endpoint, standin_key):  # noqa: F811
    endpoint.scripts["Q01"] = [endless_whitespace(MAX_RESPONSE_BYTES + 32 * MIB), answer]
    out = tmp_path / "run"
    assert eval_run(curated, endpoint.base_url, out) == 0
    first, second = attempts_of(out, "Q01")
    assert first["status"] == "technical_failure" and first["retryable"] is True
    assert f"larger than {MAX_RESPONSE_BYTES} bytes" in first["error"]
    assert second["status"] == "correct"


def test_an_answer_trickled_a_byte_at_a_time_ends_at_the_requests_timeout(tmp_path, curated, endpoint, standin_key):  # noqa: F811
    endpoint.scripts["Q01"] = [trickled("headers", 20), answer]
    endpoint.scripts["Q02"] = [trickled("body", 20), answer]
    out = tmp_path / "run"
    started = time.monotonic()
    assert eval_run(curated, endpoint.base_url, out, "--timeout", "2") == 0
    assert time.monotonic() - started < 15  # the trickle lasts 20 s
    for token in ("Q01", "Q02"):
        first, second = attempts_of(out, token)
        assert first["status"] == "technical_failure" and first["retryable"] is True
        assert "no complete answer within 2" in first["error"], first["error"]
        assert second["status"] == "correct"
