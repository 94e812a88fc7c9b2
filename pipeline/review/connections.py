"""What one connection may hold of the review server: a slot among `MAX_CONNECTIONS`, and a few seconds for its request.

The server answers each connection in a thread of its own (werkzeug's threaded server, one request a connection).
Unbounded, 4,000 half-sent requests held 4,003 threads; a socket's timeout bounds one read only, so a header sent a
byte a second held its thread for as long as the sender liked (slowloris). Here:

- a connection takes a slot before its thread starts; with every slot taken it is answered 503 at once, with
  `Retry-After`, and closed (the accepting loop writes that small answer itself, and never reads from the socket);
- a connection that sends nothing within `IDLE_SECONDS` is closed;
- from its first byte, the request line and headers must be in within `HEAD_SECONDS`, and a request with a body has
  `BODY_SECONDS` more for it (1 MiB, the largest body taken, is then 35 KB/s), counted until the application answers.
  When the time is up the socket's reading side is shut down (`infra.Deadline`), which ends the read waiting on it,
  and the request is answered 408 (its partial headers never reach a route);
- with every slot taken, a new connection first closes the one that has waited longest for its client without its
  whole request (silent, or its head or body still coming) where it has waited `EVICTABLE_AFTER_SECONDS` at least,
  and takes its slot (the closed one is answered 408 where it sent part of a request). The deadlines are seconds
  long and the slots few: without this, connections sending a byte a second, bodies that never end or silent sockets,
  reopened as they are cut off, kept every legitimate request answered 503. Only a server whose every slot is
  answering a request (or waiting less than that) answers 503.
"""
from __future__ import annotations

import json
import socket
import threading
import time
from typing import Any

from werkzeug.serving import ThreadedWSGIServer, WSGIRequestHandler

from pipeline.infra import Deadline

MAX_CONNECTIONS = 64  # a handful of annotators' browsers open six connections each at most
IDLE_SECONDS = 20.0
HEAD_SECONDS = 10.0
BODY_SECONDS = 30.0
RETRY_AFTER_SECONDS = 2
EVICTABLE_AFTER_SECONDS = 2.0  # a browser's whole request takes milliseconds; a slow client's seconds
EVICTION_WAIT_SECONDS = 2.0  # how long a new connection waits for the slot of the one it closed
DEADLINE_KEY = "examcorpus.request_deadline"
WHOLE_KEY = "examcorpus.request_whole"  # called once the app answers: the request (its body too) is in


def json_answer(code: int, reason: str, problem: str, field: str | None, headers: dict[str, str]) -> bytes:
    """A whole HTTP/1.1 answer closing its connection: the API's JSON error with `headers`."""
    body = json.dumps({"error": problem, "field": field}).encode()
    lines = [f"HTTP/1.1 {code} {reason}", "Content-Type: application/json", f"Content-Length: {len(body)}",
             "Connection: close", *(f"{name}: {value}" for name, value in headers.items())]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body


class SlotServer(ThreadedWSGIServer):
    """werkzeug's threaded server with at most `max_connections` connections answered at once; `busy_headers` go on
    each 503 (the app's security headers)."""

    def __init__(self, host: str, port: int, app: Any, handler: type[WSGIRequestHandler], *,
                 max_connections: int | None = None, busy_headers: dict[str, str] | None = None) -> None:
        super().__init__(host, port, _answering_in_time(app), handler)
        self.slots = threading.BoundedSemaphore(max_connections or MAX_CONNECTIONS)
        self.busy_headers = dict(busy_headers or {})
        self.refused = 0  # connections answered 503, for a test or a probe to read
        self.closed_for_others = 0  # connections closed to make room, likewise
        self._waiting: dict[TimedRequestHandler, None] = {}  # connections whose request is not yet whole
        self._waiting_lock = threading.Lock()

    def waiting(self, handler: TimedRequestHandler, whether: bool) -> None:
        """`handler`'s connection is (or is no longer) among those `evict_longest_waiting` may close."""
        with self._waiting_lock:
            if whether:
                self._waiting[handler] = None
            else:
                self._waiting.pop(handler, None)

    def evict_longest_waiting(self) -> bool:
        """Close the connection that has waited longest without its whole request, where one has waited
        `EVICTABLE_AFTER_SECONDS`; whether one was. Under the lock a connection leaves the waiting by, so a request
        that has come whole is never cut off."""
        with self._waiting_lock:
            ages = [(handler.waiting_since, handler) for handler in self._waiting if handler.waiting_since is not None]
            oldest = min(ages, key=lambda age: age[0], default=None)
            if oldest is None or time.monotonic() - oldest[0] < EVICTABLE_AFTER_SECONDS:
                return False
            self._waiting.pop(oldest[1])
            oldest[1].evict()
        self.closed_for_others += 1
        return True

    def process_request(self, request: Any, client_address: Any) -> None:
        if not self.slots.acquire(blocking=False) and not (
                self.evict_longest_waiting() and self.slots.acquire(timeout=EVICTION_WAIT_SECONDS)):
            self.refused += 1
            self._answer_busy(request)
            self.shutdown_request(request)
            return
        try:
            super().process_request(request, client_address)  # starts the connection's thread
        except BaseException:
            self.slots.release()
            raise

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self.slots.release()

    def _answer_busy(self, request: socket.socket) -> None:
        answer = json_answer(503, "Service Unavailable", "the review server is answering as many connections as it "
                             "takes at once; try again in a moment", None,
                             {"Retry-After": str(RETRY_AFTER_SECONDS), **self.busy_headers})
        try:
            request.settimeout(1.0)  # a fresh socket's send buffer takes these few hundred bytes at once
            request.sendall(answer)
            request.shutdown(socket.SHUT_WR)
        except OSError:
            pass  # the client has gone: nothing to answer


def _answering_in_time(app: Any) -> Any:
    """`app` with the request's deadline cancelled once it answers (its body is read by then), and a request whose
    body was cut off by the deadline answered 408."""

    def guarded(environ: dict, start_response: Any) -> Any:
        deadline: Deadline | None = environ.get(DEADLINE_KEY)

        def answering(status: str, headers: list, exc_info: Any = None) -> Any:
            whole = environ.get(WHOLE_KEY)
            if whole is not None:
                whole()
            if deadline is not None:
                deadline.cancel()
                if deadline.expired:
                    status = "408 Request Timeout"
            return start_response(status, headers, exc_info)

        return app(environ, answering)

    return guarded


class TimedRequestHandler(WSGIRequestHandler):
    """A request handler whose request must arrive in time (the module's docstring); `timed_out()` answers 408."""

    _deadline: Deadline | None = None
    waiting_since: float | None = None  # since when the connection has waited for its request; None: it has it
    evicted = False  # closed to make room for another connection (`SlotServer.evict_longest_waiting`)

    def handle_one_request(self) -> None:
        # Each read's bound: reached only while waiting for the first byte, as the deadlines after it are shorter.
        self.connection.settimeout(IDLE_SECONDS)
        self._wait_for_request(True)
        try:
            if not self.rfile.peek(1):  # type: ignore[attr-defined]  # the request's first byte, or the client gone
                self.close_connection = True
                return
        except (OSError, ValueError):  # idle past IDLE_SECONDS, reset, or closed to make room
            self.close_connection = True
            return
        finally:
            if self.evicted:
                self.close_connection = True
        self._deadline = Deadline(HEAD_SECONDS)
        self._deadline.watch(self.connection, socket.SHUT_RD)  # the answer can still be written
        try:
            super().handle_one_request()
        finally:
            self._wait_for_request(False)
            if self._deadline is not None:
                self._deadline.cancel()

    def _wait_for_request(self, waiting: bool) -> None:
        self.waiting_since = time.monotonic() if waiting else None
        if isinstance(self.server, SlotServer):
            self.server.waiting(self, waiting)

    def evict(self) -> None:
        """Cut the request off as its deadline would (answered 408 where part of it came), now."""
        self.evicted = True
        if self._deadline is not None:
            self._deadline.expired = True
        try:
            self.connection.shutdown(socket.SHUT_RD)
        except OSError:
            pass  # already closed

    def head_in_time(self) -> bool:
        """After the headers are parsed: whether they came in time. A request with a body gets `BODY_SECONDS` for it."""
        if self._deadline is None:
            return True
        if self.expired():
            self.timed_out()
            return False
        self._deadline.cancel()
        has_body = self.headers.get("Transfer-Encoding") is not None or (self.headers.get("Content-Length") or "0").strip() != "0"
        self._deadline = Deadline(BODY_SECONDS) if has_body else None
        if self._deadline is not None:
            self._deadline.watch(self.connection, socket.SHUT_RD)
        else:
            self._wait_for_request(False)  # whole: the body's wait, where one comes, ends when the app answers
        return True

    def expired(self) -> bool:
        return self.evicted or (self._deadline is not None and self._deadline.expired)

    def timed_out(self) -> None:
        """Answer 408: overridden by the server's handler to answer in the API's form."""
        self.close_connection = True

    def make_environ(self) -> dict:
        environ = super().make_environ()
        environ[DEADLINE_KEY] = self._deadline
        environ[WHOLE_KEY] = lambda: self._wait_for_request(False)
        return environ
