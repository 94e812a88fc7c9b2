"""What the review server checks before any route runs: that the request is addressed to this server
(DNS rebinding), that a state-changing request comes from this server's own page (cross-origin
writes), and that its body is small enough to read (a huge or endless upload).

Why each check:
- **Host**: a page on `evil.example` whose name is rebound to 127.0.0.1 talks to the server as its
  own origin, so the browser lets it read the queue and POST decisions. Such requests still carry
  `Host: evil.example:PORT`; only the names the server was started for are answered (421).
- **Origin**: browsers send `Origin` on every POST (same-origin fetches included) and on every
  cross-origin request; a write whose Origin (or, lacking one, Referer) is not this server's, or
  that the browser marks `Sec-Fetch-Site: cross-site`/`same-site`, is refused (403). A write with
  neither header is refused too: every browser sends one, and a script can send `Origin` itself.
- **Body size**: a declared Content-Length over the cap is refused (413) before a byte of it is read;
  a chunked body is cut off (413) as soon as it passes the cap.
- **Framing**: a request whose body length is ambiguous (two Content-Length headers, or Content-Length
  with Transfer-Encoding) is refused (400) by the request handler before any route, as RFC 9112 6.3
  asks: werkzeug keeps the last Content-Length, another reader the first (`framing_problem`).

Every refusal is a JSON object `{"error": ..., "field": ...}` naming the header at fault, like every
other error of the API.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import urlsplit

from flask import Flask, Request, jsonify, request

MAX_BODY_BYTES = 1024 * 1024  # the largest legitimate body (a question with its options) is well under 200 KB
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
FOREIGN_FETCH_SITES = frozenset({"cross-site", "same-site"})  # same-site: another port or subdomain, still not this page
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")
ORIGINS_CONFIG_KEY = "EXAMCORPUS_LOCAL_ORIGINS"
HOST_NAME = re.compile(r"^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::(\d{1,5}))?$")


def parse_allowed_host(text: str) -> str:
    """A host name (or `[IPv6]`) with an optional port, as a browser writes it in a Host header, for
    a server reached under another name or port (an SSH tunnel `-L 9000:127.0.0.1:8765` is
    `localhost:9000`); ValueError for anything else (no wildcards)."""
    value = text.strip().lower()
    match = HOST_NAME.match(value)
    if not match or (match.group(1) and not 0 < int(match.group(1)) < 65536):
        raise ValueError(f"not a host name with an optional port: {text!r} (e.g. localhost:9000)")
    return value


def _authority(host: str) -> str:
    """A host as it appears in a Host header: IPv6 addresses in brackets, names in lower case."""
    host = host.strip().lower()
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


@dataclass(frozen=True)
class LocalOrigins:
    """The addresses a review server answers to: the loopback names and the address it is bound to,
    each with the port it listens on (and without it on port 80, as browsers then omit it)."""

    bound_host: str = "127.0.0.1"
    port: int = 80  # what Flask's test client and a server on the default port are addressed as
    extra_hosts: tuple[str, ...] = ()  # parse_allowed_host values; one without a port gets the server's

    @property
    def hosts(self) -> frozenset[str]:
        names = {*LOOPBACK_NAMES, _authority(self.bound_host)}
        hosts = {f"{name}:{self.port}" for name in names}
        if self.port == 80:
            hosts |= names
        for extra in self.extra_hosts:
            has_port = (match := HOST_NAME.match(extra)) is not None and match.group(1) is not None
            hosts.add(extra if has_port else f"{extra}:{self.port}")
        return frozenset(hosts)

    @property
    def origins(self) -> frozenset[str]:
        return frozenset(f"http://{host}" for host in self.hosts)

    def host_problem(self, req: Request) -> str | None:
        host = (req.headers.get("Host") or "").strip().lower()
        if host in self.hosts:
            return None
        return (f"this review server answers only to {', '.join(sorted(self.hosts))}, not to Host {host!r} "
                "(a page on another name may be rebound to this address)")

    def origin_problem(self, req: Request) -> str | None:
        """Why a state-changing request is not from this server's own page, or None when it is."""
        site = (req.headers.get("Sec-Fetch-Site") or "").strip().lower()
        if site in FOREIGN_FETCH_SITES:
            return f"the browser marks this request Sec-Fetch-Site: {site}; only this server's own page may change data"
        origin = req.headers.get("Origin")
        if origin is None:
            referer = req.headers.get("Referer")
            if referer is None:
                return (f"a request that changes data must carry an Origin header naming this server "
                        f"(e.g. Origin: http://127.0.0.1:{self.port})")
            parts = urlsplit(referer)
            origin = f"{parts.scheme}://{parts.netloc}"
        if origin.strip().lower() in self.origins:
            return None
        return f"requests that change data are accepted only from this server's page, not from origin {origin!r}"


def framing_problem(content_lengths: list[str], transfer_encodings: list[str]) -> str | None:
    """Why a request's body length is ambiguous (RFC 9112 6.3), or None: the header values as sent."""
    if len(content_lengths) > 1 and len({v.strip() for v in content_lengths}) > 1:
        return f"the request has {len(content_lengths)} different Content-Length headers ({', '.join(map(repr, content_lengths))})"
    if content_lengths and transfer_encodings:
        return "the request has both Content-Length and Transfer-Encoding: its body's length is ambiguous"
    return None


def install_request_guards(app: Flask, origins: LocalOrigins) -> None:
    """Adds the Host, Origin and body-size checks to `app`, run before every route. The allowed
    origins are read on every request from the app's config, so a server can set its real port
    once it is bound (`set_local_origins`)."""
    app.config[ORIGINS_CONFIG_KEY] = origins
    app.config["MAX_CONTENT_LENGTH"] = MAX_BODY_BYTES  # werkzeug cuts a chunked body off there (413)

    @app.before_request
    def guard():
        allowed: LocalOrigins = app.config[ORIGINS_CONFIG_KEY]
        problem = allowed.host_problem(request)
        if problem:
            return jsonify({"error": problem, "field": "Host"}), 421
        if request.content_length is not None and request.content_length > MAX_BODY_BYTES:
            return jsonify({"error": f"the request body ({request.content_length:,} bytes) is over the limit of {MAX_BODY_BYTES:,} bytes",
                            "field": "Content-Length"}), 413
        if request.method in SAFE_METHODS:
            return None
        problem = allowed.origin_problem(request)
        if problem:
            return jsonify({"error": problem, "field": "Origin"}), 403
        return None


def set_local_origins(app: Flask, origins: LocalOrigins) -> None:
    app.config[ORIGINS_CONFIG_KEY] = origins
