"""The tests' HTTP stand-ins share one server and handler plumbing (tests.fixtures.http): a real
HTTP/1.1 server on 127.0.0.1, exact Content-Length, HEAD without a body, a hung-up client harmless."""
from __future__ import annotations

import ast
import http.client
import socket
from pathlib import Path

from tests.fixtures.http import StandInHandler, base_url, serve, stop

ROOT = Path(__file__).resolve().parents[1]


class Echo(StandInHandler):
    def do_POST(self):
        self.send_json(201, {"got": self.read_json(), "path": self.path}, {"X-Seen": "yes"})

    def do_GET(self):
        self.send_body(200, b"x" * 100_000, content_type="application/octet-stream")

    def do_HEAD(self):
        self.do_GET()


def test_a_stand_in_answers_real_http_on_loopback_and_survives_a_client_hanging_up():
    server = serve(Echo)
    try:
        host, port = server.server_address[:2]
        assert base_url(server) == f"http://127.0.0.1:{port}"
        connection = http.client.HTTPConnection(host, port, timeout=5)
        connection.request("POST", "/v1/x", body=b'{"a": "\\u0105"}', headers={"Content-Type": "application/json"})
        response = connection.getresponse()
        assert response.status == 201 and response.getheader("X-Seen") == "yes"
        body = response.read()
        assert int(response.getheader("Content-Length")) == len(body) and b'"got": {"a": "\\u0105"}' in body
        connection.request("HEAD", "/big")  # the same keep-alive connection: HTTP/1.1
        head = connection.getresponse()
        assert head.getheader("Content-Length") == "100000" and head.read() == b""
        with socket.create_connection((host, port)) as rude:  # asks for 100 kB and hangs up at once
            rude.sendall(b"GET /big HTTP/1.1\r\nHost: x\r\n\r\n")
        connection.request("GET", "/big")
        assert len(connection.getresponse().read()) == 100_000
    finally:
        stop(server)


def test_no_test_module_builds_its_own_http_handler_or_server():
    offenders = []
    for path in sorted((ROOT / "tests").rglob("*.py")):
        if path == ROOT / "tests" / "fixtures" / "http.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and any(getattr(b, "id", getattr(b, "attr", "")) == "BaseHTTPRequestHandler"
                                                      for b in node.bases):
                offenders.append(f"{path.relative_to(ROOT)}: class {node.name}")
            if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) == "ThreadingHTTPServer":
                offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}: ThreadingHTTPServer(...)")
    assert offenders == []


def _raw_post(port: int, head: str, body: bytes = b"") -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        sock.sendall(f"POST /v1/x HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n{head}\r\n".encode("latin-1") + body)
        sock.shutdown(socket.SHUT_WR)  # a server that waited for more would wait for ever; this ends its read
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    return answer


def test_a_stand_in_answers_a_body_length_it_will_not_read_with_400_or_413_and_goes_on_serving():
    """Before: '-1' read the body to the end of the stream (a client keeping the connection open hung
    the handler), and '²' or 5000 digits made int() raise mid-request: the connection closed unanswered."""
    server = serve(Echo)
    try:
        port = server.server_address[1]
        for head, status in [("Content-Length: -1\r\n", b"400"), ("Content-Length: \xb2\r\n", b"400"),
                             ("Content-Length: " + "9" * 5000 + "\r\n", b"400"), ("Content-Length: 1_0\r\n", b"400"),
                             ("Content-Length: 2\r\nContent-Length: 9\r\n", b"400"), ("Content-Length: 99999999999\r\n", b"413")]:
            answer = _raw_post(port, head, b"{}")
            assert answer.split(b" ", 2)[1] == status, (head[:40], answer[:200])
        assert b'"got": {}' in _raw_post(port, "Content-Length: 2\r\n", b"{}")
    finally:
        stop(server)
