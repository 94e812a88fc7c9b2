"""The plumbing every HTTP stand-in shares (the tests' and the ones a user runs offline,
`python -m pipeline.devkit.gemini_standin` / `hub_standin`): a real ThreadingHTTPServer on 127.0.0.1
(port chosen by the OS, served from a daemon thread) and a request handler base that speaks
HTTP/1.1 with exact Content-Length, keeps test output quiet, and survives a client that hangs up.

A stand-in (the OpenAI and Gemini model APIs, the Hugging Face Hub, the Gemini describer) subclasses
`StandInHandler` for its routes and starts with `serve(handler_class)`.
"""
from __future__ import annotations

import json
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Protocol

from pipeline.infra import ascii_int


class RequestLog(Protocol):
    """What a stand-in keeps of the requests it handles: each request's record, and how many are handled at once."""

    lock: threading.Lock
    requests: list[dict]
    in_flight: int
    max_in_flight: int


class Scripted:
    """A stand-in that plays a script of actions per request token: each request takes the next action, the last one
    repeats; a token without a script gets `default_action`."""

    lock: threading.Lock
    scripts: dict[str, list[str]]
    default_action: str

    def next_action(self, token: str | None) -> str:
        with self.lock:
            script = self.scripts.get(token or "", [])
            if len(script) > 1:
                return script.pop(0)
            return script[0] if script else self.default_action


@contextmanager
def handling(log: RequestLog, record: dict) -> Iterator[None]:
    """`record` added to `log.requests`, and the request counted in flight (its peak in `max_in_flight`) until the block ends."""
    with log.lock:
        log.requests.append(record)
        log.in_flight += 1
        log.max_in_flight = max(log.max_in_flight, log.in_flight)
    try:
        yield
    finally:
        with log.lock:
            log.in_flight -= 1


MAX_BODY_BYTES = 1 << 30  # a stand-in takes uploads (the Hub's), but never unbounded


class BodyRefused(Exception):
    """A request body the handler will not read; the refusal has been answered."""


LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")


class StandInHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # headers and body go in two writes: without this, 40 ms of delayed ACK each

    def log_message(self, *args) -> None:  # keep test output clean
        pass

    def parse_request(self) -> bool:
        """The request line and headers read; a request addressed to another name than the server's own (`Host`,
        where `answer_only_to_own_names` set them) answered 421 and ended before any route."""
        if not super().parse_request():
            return False
        names: frozenset[str] | None = getattr(self.server, "own_names", None)
        hosts = self.headers.get_all("Host") or []
        host = hosts[0].strip().lower() if len(hosts) == 1 else ", ".join(hosts)
        if names is None or host in names:
            return True
        self.close_connection = True  # its body, if any, is never read as a next request
        self.send_json(421, {"error": f"this stand-in answers only to {', '.join(sorted(names))}, not to Host "
                                      f"{host[:200]!r} (a page on another name may be rebound to this address)"})
        return False

    def handle_one_request(self) -> None:
        try:
            super().handle_one_request()
        except BodyRefused:
            self.close_connection = True  # its answer is sent; the unread body is not read as a next request

    def read_body(self) -> bytes:
        """The request body, by an exact Content-Length of ASCII digits up to MAX_BODY_BYTES. Anything else
        ('-1' read to the end of the stream and hung; '²' or 5000 digits made int() raise mid-request,
        closing the connection with no answer) is answered 400 or 413 here, and the request ends."""
        value = self.headers.get("Content-Length")
        if value is None and self.headers.get("Transfer-Encoding") is None:
            return b""
        length = ascii_int(value, max_digits=12) if len(self.headers.get_all("Content-Length") or []) == 1 else None
        if length is None:
            self.send_json(400, {"error": f"Content-Length must be one number of ASCII digits, not {str(value)[:40]!r}"})
            raise BodyRefused(value)
        if length > MAX_BODY_BYTES:
            self.send_json(413, {"error": f"request body of {length} bytes is over {MAX_BODY_BYTES} bytes"})
            raise BodyRefused(value)
        return self.rfile.read(length)

    def read_json(self):
        """The request body as JSON ({} when empty)."""
        return json.loads(self.read_body() or b"{}")

    def send_body(self, status: int, body: bytes = b"", headers: dict | None = None,
                  content_type: str | None = "application/json") -> None:
        """One whole response; a HEAD gets the headers only. A client that hung up is not an error."""
        try:
            self.send_response(status)
            if content_type:
                self.send_header("Content-Type", content_type)
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def send_json(self, status: int, payload, headers: dict | None = None) -> None:
        self.send_body(status, json.dumps(payload).encode(), headers)


def serve(handler_class: type[BaseHTTPRequestHandler], host: str = "127.0.0.1", port: int = 0) -> ThreadingHTTPServer:
    """Serve `handler_class` on `host` (loopback) until `server.shutdown()`; the URL is `base_url(server)`."""
    server = ThreadingHTTPServer((host, port), handler_class)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def answer_only_to_own_names(server: ThreadingHTTPServer) -> None:
    """Have `server` answer only requests whose Host is its own address or a loopback name, with its port: a stand-in
    a user runs as a program (its private repos, its uploads) is otherwise open to any page whose name is rebound to
    127.0.0.1 (DNS rebinding). The tests' stand-ins, reached only by the tests, are left as they are."""
    host, port = server.server_address[:2]
    own = f"[{host}]" if ":" in host else host
    server.own_names = frozenset(f"{name}:{port}" for name in {*LOOPBACK_NAMES, own.lower()})  # type: ignore[attr-defined]


def base_url(server: ThreadingHTTPServer) -> str:
    host, port = server.server_address[:2]
    return f"http://{host}:{port}"


def stop(server: ThreadingHTTPServer) -> None:
    server.shutdown()
    server.server_close()


def wait_until_stopped(what: str, stop_serving, until_stdin_closes: bool) -> None:
    """A stand-in run as a program: serve until stdin closes (when a parent process drives it) or until
    Ctrl-C, then stop it."""
    try:
        if until_stdin_closes:
            sys.stdin.read()
        else:
            print(f"{what} serving; Ctrl-C stops it", file=sys.stderr, flush=True)
            threading.Event().wait()
    except KeyboardInterrupt:
        pass
    finally:
        stop_serving()

