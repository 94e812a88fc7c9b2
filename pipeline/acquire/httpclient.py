"""The HTTP client pieces of the download stage: one request with redirects, retries, per-host pacing.

Built on the standard library's http.client rather than requests/httpx because the download stage
needs exact control over the wire: no transparent decompression (Range offsets must count the bytes
stored on disk), a body that ends before Content-Length must surface as a truncation (http.client
raises IncompleteRead) instead of a short file, conditional and Range headers must travel unchanged
through each redirect hop, and every hop must pass the per-host rate limiter. It also adds no
dependency to the package.
"""
from __future__ import annotations

import http.client
import random
import socket
import ssl
import threading
import time
import urllib.parse
import zlib
from dataclasses import dataclass
from email.message import Message
from email.utils import parsedate_to_datetime
from typing import Callable, TypeVar

from pipeline.infra import Deadline, UnreadableEncoding, ascii_int, undo_content_coding


USER_AGENT = "examcorpus/0.1 (exam-archive downloader for an LLM benchmark; rate-limited, conditional re-fetches)"
REDIRECT_STATUSES = (301, 302, 303, 307, 308)
CHUNK_SIZE = 64 * 1024
LENGTH_DIGITS = 19  # up to 9.9 EB: any larger length is refused as invalid, never passed to int()

T = TypeVar("T")


@dataclass(frozen=True)
class RetryPolicy:
    """How often and how patiently a request is retried after a transient failure.

    Only timeouts, connection errors (resets, refused, truncated bodies), 429 and 5xx are retried;
    the wait doubles from `backoff_base` up to `backoff_max`, spread by +-`jitter` (a fraction) so
    that parallel workers do not retry in lockstep. A server's Retry-After wins over the backoff when
    it asks for longer, up to `retry_after_max`.
    """

    attempts: int = 5
    backoff_base: float = 1.0
    backoff_max: float = 60.0
    jitter: float = 0.25
    retry_after_max: float = 300.0

    def delay(self, attempt: int, retry_after: float | None = None, rng: random.Random | None = None) -> float:
        """Seconds to wait after failed try number `attempt` (1-based)."""
        backoff = min(self.backoff_max, self.backoff_base * 2 ** (attempt - 1))
        if self.jitter:
            backoff *= 1 + (rng or random).uniform(-self.jitter, self.jitter)
        if retry_after is not None:
            backoff = max(backoff, min(retry_after, self.retry_after_max))
        return max(0.0, backoff)


@dataclass(frozen=True)
class RedirectVerdict:
    """What a redirect check says of a target: a problem (refused), and the IP addresses its host name
    was checked by, which the connection then tries in order (keeping the name for Host and TLS)."""

    problem: str | None = None
    connect_to: tuple[str, ...] = ()


class HttpError(Exception):
    """A request that did not give a usable response; the message names the URL and the problem."""

    retryable = False

    def __init__(self, url: str, problem: str, *, retry_after: float | None = None):
        self.url = url
        self.problem = problem
        self.retry_after = retry_after
        super().__init__(f"{url}: {problem}")


class HttpStatusError(HttpError):
    def __init__(self, url: str, status: int, reason: str = "", *, retry_after: float | None = None):
        self.status = status
        self.retryable = status == 429 or status >= 500
        super().__init__(url, f"HTTP {status} {reason}".rstrip(), retry_after=retry_after)


class TransferError(HttpError):
    """Timeout, refused or reset connection, or a body cut short: worth another try."""

    retryable = True


class RefusedError(HttpError):
    """A URL the downloader will not fetch (a file over the size cap, a redirect to an internal address)."""


class HostRateLimiter:
    """At most `rate` requests per second to each host, shared by all worker threads.

    A token bucket holding one token (strict spacing of 1/rate seconds): each caller reserves the next
    free slot under the lock and sleeps outside it, so threads queue fairly without holding the lock.
    """

    def __init__(self, rate: float, *, clock: Callable[[], float] = time.monotonic, sleep: Callable[[float], None] = time.sleep):
        if rate <= 0:
            raise ValueError(f"rate must be positive, not {rate}")
        self.interval = 1.0 / rate
        self._clock = clock
        self._sleep = sleep
        self._next_free: dict[str, float] = {}
        self._lock = threading.Lock()

    def acquire(self, host: str) -> float:
        """Block until a request to `host` may start; returns the seconds waited."""
        with self._lock:
            now = self._clock()
            slot = max(now, self._next_free.get(host, now))
            self._next_free[host] = slot + self.interval
        wait = slot - now
        if wait > 0:
            self._sleep(wait)
        return wait


class Response:
    """An open response whose body is read in chunks; close it (or use `with`)."""

    def __init__(self, raw: http.client.HTTPResponse, conn: http.client.HTTPConnection, url: str, final_url: str,
                 deadline: Deadline | None = None):
        self._raw = raw
        self._conn = conn
        self._deadline = deadline
        self.url = url
        self.final_url = final_url
        self.status = raw.status
        self.reason = raw.reason
        self.headers: Message = raw.headers

    def header(self, name: str) -> str | None:
        return self.headers.get(name)

    @property
    def content_length(self) -> int | None:
        """The body's announced length; None when it has none (chunked, or read until the close).
        `open_url` refused any response whose Content-Length is not one ASCII number."""
        if self.header("Transfer-Encoding") is not None:
            return None
        return ascii_int(self.header("Content-Length"), max_digits=LENGTH_DIGITS)

    def iter_chunks(self, size: int = CHUNK_SIZE):
        """The body in chunks; a timeout, reset or early end raises TransferError naming the URL.

        http.client returns b"" when the connection closes before Content-Length bytes came
        (it only raises for chunked bodies), so the byte count is checked here.
        """
        expected = self.content_length
        received = 0
        while True:
            try:
                # read1: whatever has arrived (one socket read). read(n) would wait for all n bytes
                # and lose the ones it holds if the connection is reset meanwhile.
                chunk = self._raw.read1(size)
            except http.client.IncompleteRead as exc:
                if exc.partial:
                    yield exc.partial
                self._check_deadline(received + len(exc.partial))
                raise TransferError(self.final_url, "body cut short: connection closed mid chunked body") from None
            except (TimeoutError, socket.timeout):
                raise TransferError(self.final_url, f"timed out while reading the body after {received} bytes") from None
            except (ConnectionError, http.client.HTTPException, OSError) as exc:
                self._check_deadline(received)
                raise TransferError(
                    self.final_url, f"connection lost after {received} bytes of the body ({_describe(exc)})"
                ) from None
            if not chunk:
                self._check_deadline(received)
                if expected is not None and received < expected:
                    raise TransferError(
                        self.final_url, f"truncated body: got {received} of {expected} bytes (Content-Length)"
                    )
                return
            received += len(chunk)
            yield chunk

    @property
    def content_coding(self) -> str | None:
        """The codings the server applied to the body (`Content-Encoding`) though `identity` was asked, or None."""
        value = (self.header("Content-Encoding") or "").strip()
        return value if value and value.lower() != "identity" else None

    def decoded_chunks(self, limit: int | None = None):
        """The body with its `Content-Encoding` undone (gzip, deflate): a server that encodes though `identity` was
        asked is read as it meant, not as the encoded bytes (an index page's links, a PDF's header). Past `limit`
        decoded bytes a RefusedError (a compression bomb stops as it inflates, each step at most 1 MiB); a coding not
        undone here, or a body that does not decode, is a RefusedError naming it."""
        coding = self.content_coding
        if coding is None:
            yield from self.iter_chunks()
            return
        total = 0
        try:
            for piece in undo_content_coding(self.iter_chunks(), coding):
                total += len(piece)
                if limit is not None and total > limit:
                    raise RefusedError(self.final_url, f"body sent with Content-Encoding {coding!r} inflates past "
                                       f"{limit:,} bytes (a compression bomb?); not read further")
                yield piece
        except UnreadableEncoding:
            raise RefusedError(self.final_url, f"body sent with Content-Encoding {coding!r} (identity was asked), "
                               "a coding not read here") from None
        except zlib.error as exc:
            raise RefusedError(self.final_url, f"body sent with Content-Encoding {coding!r} does not decode ({exc})") from None

    def _check_deadline(self, received: int) -> None:
        if self._deadline is not None and self._deadline.expired:
            raise TransferError(self.final_url, f"no complete response within {self._deadline.seconds:g}s (the "
                                f"request's deadline), {received} bytes of the body received")

    def read(self, limit: int = 50 * 1024 * 1024) -> bytes:
        """The whole body, its `Content-Encoding` undone, at most `limit` bytes (on the wire and decoded)."""
        parts, total = [], 0
        for chunk in self.decoded_chunks(limit):
            parts.append(chunk)
            total += len(chunk)
            if total > limit:
                raise HttpError(self.final_url, f"body larger than {limit} bytes")
        return b"".join(parts)

    def close(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
        self._raw.close()
        self._conn.close()

    def __enter__(self) -> "Response":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _connect_to(addresses: tuple[str, ...]):
    """http.client's connection factory, connecting to `addresses` (in order, the first that answers)
    whatever name it was given, as socket.create_connection does with the addresses of a lookup."""

    def create_connection(target, timeout=socket._GLOBAL_DEFAULT_TIMEOUT, source_address=None):
        error: OSError | None = None
        for address in addresses:
            try:
                return socket.create_connection((address, target[1]), timeout, source_address)
            except OSError as exc:
                error = exc
        raise error

    return create_connection


def _describe(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


def content_length_problem(headers: Message) -> str | None:
    """Why a response's Content-Length cannot frame its body, or None (RFC 9112 6.3: a user agent
    must discard a response with an invalid Content-Length). Valid: ASCII digits, or several
    headers all saying the same number. http.client reads `int()` of the first header, which takes
    '1_000', '+5' and a second, different header silently: the body would be cut where it says."""
    if headers.get("Transfer-Encoding") is not None:
        return None  # the chunked framing wins; Content-Length is ignored (RFC 9112 6.3, 3.)
    values = headers.get_all("Content-Length") or []
    numbers = {ascii_int(v, max_digits=LENGTH_DIGITS) for v in values}
    if not values or (len(numbers) == 1 and None not in numbers):
        return None
    shown = ", ".join(repr(v[:40]) for v in values[:4])
    return f"invalid Content-Length ({shown}): not one number of ASCII digits, so where the body ends is unknown"


def retry_after_seconds(value: str | None, *, now: float | None = None) -> float | None:
    """Retry-After as seconds: either delta-seconds (ASCII digits) or an HTTP date (RFC 9110 10.2.3);
    None for anything else (other scripts' digits, a sign, a date that does not parse)."""
    if not value:
        return None
    value = value.strip()
    seconds = ascii_int(value)
    if seconds is not None:
        return float(seconds)
    try:
        when = parsedate_to_datetime(value).timestamp()
    except (TypeError, ValueError, IndexError, OverflowError):
        return None
    return max(0.0, when - (time.time() if now is None else now))


def _origin(url: str) -> tuple[str, str, int | None]:
    parts = urllib.parse.urlsplit(url)
    try:
        port = parts.port or {"http": 80, "https": 443}.get(parts.scheme)
    except ValueError:
        port = None
    return parts.scheme.lower(), (parts.hostname or "").lower(), port


def _may_carry_credentials(origin: str, url: str) -> bool:
    """Whether credentials given for `origin` may go to `url`: the same scheme, host and port, or
    the same host upgraded from http to https on the default ports. Never to another host or port,
    and never from https down to http (a network observer would read them)."""
    scheme, host, port = _origin(origin if "://" in origin else f"http://{origin}")
    to_scheme, to_host, to_port = _origin(url)
    if to_host != host or not host:
        return False
    if (to_scheme, to_port) == (scheme, port):
        return True
    return (scheme, port, to_scheme, to_port) == ("http", 80, "https", 443)


def open_url(
    url: str,
    headers: dict[str, str] | None = None,
    *,
    timeout: float,
    limiter: HostRateLimiter | None = None,
    user_agent: str = USER_AGENT,
    max_redirects: int = 10,
    redirect_check: Callable[[str], RedirectVerdict | str | None] | None = None,
    authorization: tuple[str, str] | None = None,
    deadline: float | None = None,
) -> Response:
    """GET `url`, following redirects; returns the final response whatever its status (not a redirect).

    Request headers (conditional, Range) are re-sent on every hop because they concern the final file.
    `redirect_check(url)` may refuse a redirect target (a problem string, or a RedirectVerdict with a
    problem, raises RefusedError); a verdict's `connect_to` address is where the connection goes;
    `authorization` (origin, value) is sent only to that origin (scheme://host:port; a bare host:port
    means http), or to its https upgrade, never where a redirect leads elsewhere or down to http.
    `deadline` bounds the whole exchange, every hop and the body, where `timeout` bounds each socket
    read: when it passes, the socket is shut down and the read waiting on it ends in a TransferError
    (a server sending a byte before each read would time out is no longer a connection held forever).
    Raises TransferError for network problems and HttpError for unusable URLs, redirect loops and a
    response whose Content-Length cannot frame its body.
    """
    watch = Deadline(deadline) if deadline is not None else None
    try:
        return _open_url(url, headers, timeout=timeout, limiter=limiter, user_agent=user_agent, max_redirects=max_redirects,
                         redirect_check=redirect_check, authorization=authorization, watch=watch)
    except BaseException:
        if watch is not None:
            watch.cancel()
        raise


def _past_deadline(url: str, watch: Deadline | None) -> TransferError | None:
    if watch is None or not (watch.expired or watch.remaining() <= 0):
        return None
    return TransferError(url, f"no complete response within {watch.seconds:g}s (the request's deadline)")


def _open_url(url: str, headers: dict[str, str] | None, *, timeout: float, limiter: HostRateLimiter | None, user_agent: str,
              max_redirects: int, redirect_check: Callable[[str], RedirectVerdict | str | None] | None,
              authorization: tuple[str, str] | None, watch: Deadline | None) -> Response:
    current = url
    seen: list[str] = []
    for _ in range(max_redirects + 1):
        parts = urllib.parse.urlsplit(current)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise HttpError(url, f"cannot fetch {current!r}: only http and https URLs are supported")
        connect_to: tuple[str, ...] = ()
        if seen and redirect_check is not None:
            verdict = redirect_check(current)
            if isinstance(verdict, RedirectVerdict):
                problem, connect_to = verdict.problem, verdict.connect_to
            else:
                problem = verdict
            if problem is not None:
                raise RefusedError(url, problem)
        if limiter is not None:
            limiter.acquire(parts.hostname)
        late = _past_deadline(current, watch)
        if late is not None:
            raise late
        conn_class = http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
        kwargs = {"context": ssl.create_default_context()} if parts.scheme == "https" else {}
        hop_timeout = timeout if watch is None else min(timeout, watch.remaining())
        conn = conn_class(parts.hostname, parts.port, timeout=hop_timeout, **kwargs)
        if connect_to:
            # The checked addresses, not a second DNS answer; the name stays the Host header and TLS name.
            conn._create_connection = _connect_to(connect_to)
        target = urllib.parse.urlunsplit(("", "", parts.path or "/", parts.query, ""))
        request_headers = {
            "User-Agent": user_agent,
            "Accept": "application/pdf, text/html;q=0.9, */*;q=0.5",
            "Accept-Encoding": "identity",  # byte offsets for Range must match the stored bytes
            "Connection": "close",
            **(headers or {}),
        }
        if authorization is not None and _may_carry_credentials(authorization[0], current):
            request_headers["Authorization"] = authorization[1]
        try:
            conn.connect()
            if watch is not None:
                watch.watch(conn.sock)
            conn.request("GET", target, headers=request_headers)
            raw = conn.getresponse()
        except ssl.SSLCertVerificationError as exc:
            conn.close()
            raise HttpError(current, f"TLS certificate rejected ({exc.verify_message})") from None
        except (TimeoutError, socket.timeout):
            conn.close()
            raise _past_deadline(current, watch) or TransferError(current, f"timed out after {timeout:g}s waiting for the server") from None
        except (ConnectionError, http.client.HTTPException, OSError) as exc:
            conn.close()
            raise _past_deadline(current, watch) or TransferError(current, f"connection failed ({_describe(exc)})") from None
        framing = content_length_problem(raw.headers)
        if framing is not None:
            raw.close()
            conn.close()
            raise HttpError(current, framing)
        if raw.status not in REDIRECT_STATUSES:
            return Response(raw, conn, url, current, watch)
        location = raw.getheader("Location")
        raw.close()
        conn.close()
        if not location:
            raise HttpError(current, f"HTTP {raw.status} redirect without a Location header")
        seen.append(current)
        current = urllib.parse.urljoin(current, location)
        if current in seen:
            raise HttpError(url, f"redirect loop: {' -> '.join(seen + [current])}")
    raise HttpError(url, f"more than {max_redirects} redirects: {' -> '.join(seen)}")


def retrying(
    attempt_once: Callable[[int], T],
    policy: RetryPolicy,
    *,
    on_retry: Callable[[int, HttpError, float], None] | None = None,
    sleep: Callable[[float], None] = time.sleep,
    rng: random.Random | None = None,
) -> T:
    """Call `attempt_once(n)` for n = 1.. until it returns, retrying only retryable HttpErrors."""
    attempt = 1
    while True:
        try:
            return attempt_once(attempt)
        except HttpError as exc:
            if not exc.retryable or attempt >= policy.attempts:
                raise
            wait = policy.delay(attempt, exc.retry_after, rng)
            if on_retry is not None:
                on_retry(attempt, exc, wait)
            sleep(wait)
            attempt += 1
