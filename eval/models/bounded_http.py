"""Bounds on what a model server may make one request cost: its whole time and the bytes read.

urllib's `timeout` is per socket operation: a server that sends a byte before each read would time out
(a header line, or JSON white space, a byte at a time) holds the request, and the worker, for as long
as it likes. And `response.read()` reads a body to its end, however long: a chunked body that never
ends fills memory. Here a request has a deadline for the whole exchange (connect, headers, body): when
it passes, the connection's socket is shut down, which ends whatever read is waiting; and a body is
read in pieces, refused once it passes `limit` bytes. A loopback model server is reached directly, never through
the environment's proxy.
"""
from __future__ import annotations

import http.client
import ipaddress
import urllib.parse
import urllib.request

from pipeline.infra import Deadline

CHUNK = 64 * 1024


def _connection(base: type[http.client.HTTPConnection], deadline: Deadline):
    class Connection(base):  # type: ignore[valid-type, misc]
        def connect(self) -> None:
            remaining = deadline.remaining()
            if remaining <= 0:
                deadline.expired = True
                raise TimeoutError("the request's deadline passed before it could connect")
            timeout = getattr(self, "timeout", None)
            if not isinstance(timeout, (int, float)) or timeout > remaining:  # None, or the default-timeout sentinel
                self.timeout = remaining
            super().connect()
            deadline.watch(self.sock)

    return Connection


class _HTTPHandler(urllib.request.HTTPHandler):
    def __init__(self, deadline: Deadline):
        super().__init__()
        self.deadline = deadline

    def http_open(self, req):
        return self.do_open(_connection(http.client.HTTPConnection, self.deadline), req)


class _HTTPSHandler(urllib.request.HTTPSHandler):
    def __init__(self, deadline: Deadline):
        super().__init__()
        self.deadline = deadline

    def https_open(self, req):
        return self.do_open(_connection(http.client.HTTPSConnection, self.deadline), req, context=self._context)


class _LoopbackDirect(urllib.request.ProxyHandler):
    """The environment's proxies (urllib's default), but never for a loopback host: a proxy reaches its own
    127.0.0.1, not this machine's, so a request for a model server here went to the proxy with its API key
    (`http_proxy` set for pip behind a company proxy sent `Authorization: Bearer …` of a local vLLM to it)."""

    def proxy_open(self, req, proxy, type):  # noqa: A002 - urllib's own parameter name
        if is_loopback(req.host):
            return None  # the next handler opens it directly
        return super().proxy_open(req, proxy, type)


def is_loopback(host: str) -> bool:
    """Whether `host` (a URL's host, with or without its port) names this machine: localhost, 127.0.0.0/8, ::1."""
    name = urllib.parse.urlsplit(f"//{host}").hostname or ""
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def opener(deadline: Deadline, *handlers) -> urllib.request.OpenerDirector:
    """An opener whose connections are shut down when `deadline` passes (besides `handlers`), through the
    environment's proxies except for a loopback host."""
    return urllib.request.build_opener(_LoopbackDirect(), *handlers, _HTTPHandler(deadline), _HTTPSHandler(deadline))


class BodyTooLarge(Exception):
    def __init__(self, limit: int):
        super().__init__(f"response body larger than {limit} bytes: not read further")


class BodyCutShort(Exception):
    def __init__(self, received: int, missing: int):
        super().__init__(f"body cut short: {received} bytes received, {missing} still expected (Content-Length)")


def read_bounded(response, limit: int) -> bytes:
    """The whole body of `response` (an http.client response), at most `limit` bytes whatever its framing."""
    parts: list[bytes] = []
    received = 0
    while True:
        piece = response.read(CHUNK)
        if not piece:
            break
        received += len(piece)
        if received > limit:
            raise BodyTooLarge(limit)
        parts.append(piece)
    missing = getattr(response, "length", None)
    if missing:  # read(n) returns b"" at an early close where read() would raise IncompleteRead
        raise BodyCutShort(received, missing)
    return b"".join(parts)
