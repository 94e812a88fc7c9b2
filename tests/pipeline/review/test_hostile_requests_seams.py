"""The review and audit server under attacks not tried before, over raw HTTP to the same real `examcorpus
review` process on 127.0.0.1 as `test_hostile_requests`: Host names a rebinding page or a confused
client may send (a loopback name with a suffix or a userinfo, a trailing dot, IPv6 spellings, numeric
forms of 127.0.0.1, two Host headers), Origins and Referers that start like this server's, CORS
preflights, bodies whose framing or content is ambiguous (two Content-Lengths, a negative one, chunked
and sized at once, an integer of 5,000 digits, objects nested 100,000 deep), many half-sent requests at
once, and more paths that try to leave the static folder."""
from __future__ import annotations

import json
import socket
import time

import pytest

from tests.pipeline.review.test_hostile_requests import TIMEOUT_S, Response, _pending_decision, _read_response, server  # noqa: F401


def raw(server, head: str, body: bytes = b"") -> Response:  # noqa: F811
    """One request written byte for byte (header lines as given, repeated ones included)."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=TIMEOUT_S) as sock:
        sock.sendall(head.encode("latin-1") + b"\r\n" + body)
        return Response(_read_response(sock))


# --- Host: only the names the server was started for, spelled as a browser spells them -----------------

@pytest.mark.parametrize("host", [
    "127.0.0.1.evil.test:{port}", "localhost.evil.test:{port}", "localhost:{port}@evil.test", "evil.test@localhost:{port}",
    "localhost.:{port}", "127.0.0.1.:{port}", "[::1]", "[::1]:{other}", "[0:0:0:0:0:0:0:1]:{port}", "[::ffff:127.0.0.1]:{port}",
    "127.1:{port}", "2130706433:{port}", "0x7f.0.0.1:{port}", "localhost:{port}:{port}", "localhost :{port}", "",
    "localhost:{port}/", "localhost:0{port}", "localhost:{port}#",
])
def test_a_host_that_only_starts_like_a_loopback_name_is_refused(server, host):  # noqa: F811
    forged = host.format(port=server.port, other=server.port + 1)
    answer = server.get("/api/queue", Host=forged)
    assert answer.status in (400, 421), (forged, answer.status)
    if answer.status == 421:
        assert answer.json()["field"] == "Host"


@pytest.mark.parametrize("name", ["LocalHost", "LOCALHOST", "127.0.0.1", "[::1]"])
def test_the_loopback_names_in_any_case_are_answered(server, name):  # noqa: F811
    assert server.get("/api/queue", Host=f"{name}:{server.port}").status == 200


@pytest.mark.parametrize("order", ["good-first", "evil-first"])
def test_two_host_headers_are_refused(server, order):  # noqa: F811
    hosts = [f"127.0.0.1:{server.port}", "evil.test"]
    if order == "evil-first":
        hosts.reverse()
    head = f"GET /api/queue HTTP/1.1\r\nHost: {hosts[0]}\r\nHost: {hosts[1]}\r\n"
    answer = raw(server, head)
    assert answer.status in (400, 421), answer.status


# --- writes: an Origin or Referer must be this server's, exactly -----------------------------------------

@pytest.mark.parametrize("headers", [
    {"Origin": "http://127.0.0.1:{port}.evil.test"}, {"Origin": "http://127.0.0.1:{port}@evil.test"},
    {"Origin": "http://evil.test@127.0.0.1:{port}"}, {"Origin": "https://127.0.0.1:{port}"},
    {"Origin": "http://127.0.0.1:{port}/"}, {"Origin": "http://localhost.:{port}"}, {"Origin": "http://127.0.0.1"},
    {"Origin": None, "Referer": "http://127.0.0.1:{port}.evil.test/audit"},
    {"Origin": None, "Referer": "http://127.0.0.1:{port}@evil.test/audit"},
    {"Origin": None, "Referer": "//127.0.0.1:{port}/audit"},
    {"Sec-Fetch-Site": "CROSS-SITE"}, {"Sec-Fetch-Site": " same-site "},
])
def test_a_write_whose_origin_only_starts_like_this_servers_is_refused(server, headers):  # noqa: F811
    url, body = _pending_decision(server)
    headers = {k: v.format(port=server.port) if v else v for k, v in headers.items()}
    before = server.logs()
    answer = server.post(url, body, headers)
    assert answer.status == 403 and answer.json()["field"] == "Origin", (headers, answer.status, answer.body[:200])
    assert server.logs() == before


# --- CORS: no answer lets another origin read or write ----------------------------------------------------

@pytest.mark.parametrize("method, path", [("OPTIONS", "/api/items/x/decision"), ("OPTIONS", "/api/queue"), ("GET", "/api/queue")])
def test_no_answer_grants_another_origin_cors_access(server, method, path):  # noqa: F811
    head = (f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nOrigin: http://evil.test\r\n"
            "Access-Control-Request-Method: POST\r\nAccess-Control-Request-Headers: content-type\r\n")
    answer = raw(server, head)
    assert not [k for k in answer.headers if k.startswith("access-control-allow")], answer.headers


# --- bodies whose framing or content is ambiguous --------------------------------------------------------

def _write_head(server, url: str, *lines: str) -> str:  # noqa: F811
    return (f"POST {url} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nOrigin: http://127.0.0.1:{server.port}\r\n"
            "Content-Type: application/json\r\n" + "".join(f"{line}\r\n" for line in lines))


@pytest.mark.parametrize("framing", [
    ["Content-Length: 5", "Content-Length: {n}"], ["Content-Length: {n}, 5"], ["Content-Length: -1"],
    ["Content-Length: +{n}"], ["Transfer-Encoding: chunked", "Content-Length: {n}"],
])
def test_a_body_of_ambiguous_length_is_refused_and_stores_nothing(server, framing):  # noqa: F811
    url, payload = _pending_decision(server)
    body = json.dumps(payload).encode()
    before = server.logs()
    answer = raw(server, _write_head(server, url, *(line.format(n=len(body)) for line in framing)), body)
    assert 400 <= answer.status < 500, (framing, answer.status, answer.body[:200])
    assert server.logs() == before


@pytest.mark.parametrize("data", [
    pytest.param(b'{"version": ' + b"9" * 5000 + b"}", id="an-integer-of-5000-digits"),
    pytest.param(b'{"a": ' * 100_000 + b"1" + b"}" * 100_000, id="objects-nested-100000-deep"),
    pytest.param(b'{"version": 1e999999}', id="a-float-past-infinity"),
    pytest.param(b'{"version": NaN, "action": "accept", "annotator": "Ala"}', id="NaN"),
    pytest.param('{"version": 0}'.encode("utf-16"), id="utf-16"),
])
def test_a_json_body_that_would_trouble_the_parser_is_a_400_naming_the_body(server, data):  # noqa: F811
    url, _ = _pending_decision(server)
    before = server.logs()
    answer = server.send("POST", url, {}, data)
    assert answer.status == 400 and answer.json()["field"], (answer.status, answer.body[:300])
    assert server.logs() == before


def test_many_half_sent_requests_do_not_keep_others_waiting(server):  # noqa: F811
    sockets = []
    try:
        for n in range(60):  # half a header block, half a body: the slowloris shapes
            sock = socket.create_connection(("127.0.0.1", server.port), timeout=TIMEOUT_S)
            sock.sendall(f"GET /api/queue HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nX-Slow-{n}: ".encode() if n % 2 else
                         _write_head(server, "/api/items/x/decision", "Content-Length: 1000").encode() + b"\r\n{\"ver")
            sockets.append(sock)
        started = time.monotonic()
        assert server.get("/api/queue").status == 200
        assert time.monotonic() - started < 5
    finally:
        for sock in sockets:
            sock.close()


@pytest.mark.parametrize("target", [
    "/static/%2e%2e%2f%2e%2e%2fserver.py", "/static//etc/passwd", "/static/..;/server.py", "/static/.%00./server.py",
    "/static/%252e%252e%252fserver.py", "/static/..%c0%afserver.py", "/static/..%e0%80%afserver.py", "/static/....//server.py",
    "http://evil.test/static/../server.py", "/static/..\\server.py", "/figure/..%00/x", "/page/%2e%2e/1.png",
])
def test_more_paths_reach_no_file_outside_the_static_folder(server, target):  # noqa: F811
    answer = raw(server, f"GET {target} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n")
    if answer.status == 308:  # werkzeug merges doubled slashes by a redirect to the same server's /static/
        assert answer.headers["location"].removeprefix(f"http://127.0.0.1:{server.port}").startswith("/static/")
        return
    assert answer.status in (400, 404, 421), (target, answer.status)
    assert b"import " not in answer.body and b"root:" not in answer.body
