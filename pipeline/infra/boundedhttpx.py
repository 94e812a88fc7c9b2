"""An httpx transport that bounds what one request may cost: its whole time and the bytes of its body.

The google-genai SDK (Gemini, for figure descriptions and for evaluation) sends through httpx, whose timeouts are per
phase and per read: a server that sends a byte before each read would time out (a header line, JSON white space)
holds the request, and the worker, for as long as it likes, and a body is read to its end however long. A client
built with `bounded_transport(seconds, limit)` as its transport (`client_args={"transport": ...}`) has each request's
socket shut down when `seconds` pass since it was sent (`infra.Deadline`), which ends whatever read is waiting, and
refuses a body past `limit` bytes, counted as it decodes: httpx undoes a `Content-Encoding` (gzip, deflate, and chains
of them: `gzip, gzip`) above the transport, where a 1 MB gzip body of white space became 2 GB in memory and 3.5 KB
gzipped twice asked more than a 3 GiB process had, so the transport undoes the encoding itself, a piece at a time,
and hands the library the decoded bytes without the header. Each request has a connection of its own, so the
deadline of one never cuts another's. The transport is of the library the SDK would choose (httpx2 where installed, else httpx), so handing
it over does not switch the SDK's backend.
"""
from __future__ import annotations

import zlib
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from pipeline.infra.deadline import Deadline

MAX_RESPONSE_BYTES = 64 * 1024 * 1024  # a model's answer, a figure's description: far under this


class ResponseTooLarge(Exception):
    """A response body past the transport's limit: not read further (no answer is that long)."""

    def __init__(self, limit: int):
        super().__init__(f"response body larger than {limit} bytes: not read further")


def _backend() -> Any:
    try:
        import httpx2
        return httpx2
    except ImportError:  # the SDK falls back to httpx where httpx2 is not installed
        import httpx
        return httpx


def _chained(first: Callable | None, second: Callable) -> Callable:
    if first is None:
        return second

    def both(event: str, info: dict) -> None:
        first(event, info)
        second(event, info)

    return both


_INFLATE_STEP = 1 << 20  # decoded bytes one call may make: a piece of a bomb never becomes more than this at once
_WBITS = {"gzip": zlib.MAX_WBITS | 16, "x-gzip": zlib.MAX_WBITS | 16, "deflate": zlib.MAX_WBITS}


class UnreadableEncoding(Exception):
    """A body whose `Content-Encoding` names a coding this transport does not undo (and so cannot bound)."""


def _inflated(pieces: Iterable[bytes], coding: str) -> Iterator[bytes]:
    """`pieces` decoded from `coding` (gzip, or deflate: zlib-wrapped, or raw as some servers send it), at most
    `_INFLATE_STEP` bytes a call. A gzip body of several members is read member after member (RFC 1952 2.2;
    httpx's own decoder stopped after the first)."""
    wbits = _WBITS[coding]
    inflater = zlib.decompressobj(wbits)
    first = True
    for piece in pieces:
        data = piece
        while data:
            try:
                out = inflater.decompress(data, _INFLATE_STEP)
            except zlib.error:
                if not (first and coding == "deflate"):
                    raise
                inflater, wbits = zlib.decompressobj(-zlib.MAX_WBITS), -zlib.MAX_WBITS  # raw deflate, no zlib header
                continue
            first = False
            if out:
                yield out
            data = inflater.unconsumed_tail
            if inflater.eof and inflater.unused_data:  # another gzip member follows
                data, inflater = inflater.unused_data, zlib.decompressobj(wbits)
    yield inflater.flush()


def undo_content_coding(pieces: Iterable[bytes], header: str) -> Iterable[bytes]:
    """`pieces` with the codings `header` lists undone, the last applied first (RFC 9110 8.4), each step at most
    `_INFLATE_STEP` bytes, so a caller counting what comes out stops a bomb as it inflates (huggingface_hub's bounded
    client, the acquire client's pages and files); UnreadableEncoding for a coding not undone here, zlib.error for a
    body that does not decode (at iteration)."""
    codings = [c.strip().lower() for c in header.split(",") if c.strip() and c.strip().lower() != "identity"]
    unknown = [c for c in codings if c not in _WBITS]
    if unknown:
        raise UnreadableEncoding(f"response in an encoding not asked for and not read: {', '.join(unknown)}")
    for coding in reversed(codings):
        pieces = _inflated(pieces, coding)
    return pieces


def bounded_transport(seconds: float, limit: int) -> Any:
    """A transport whose requests each end within `seconds` (as a read timeout of the library) and whose bodies are
    read to `limit` bytes at most (`ResponseTooLarge`)."""
    backend = _backend()

    class BoundedStream(backend.SyncByteStream):  # type: ignore[misc, name-defined]
        def __init__(self, inner: Iterable[bytes], deadline: Deadline, request: Any, raw: Any):
            self._inner, self._deadline, self._request, self._raw = inner, deadline, request, raw

        def __iter__(self) -> Iterator[bytes]:
            received = 0
            try:
                for chunk in self._inner:
                    received += len(chunk)
                    if received > limit:
                        raise ResponseTooLarge(limit)
                    yield chunk
            except (ResponseTooLarge, UnreadableEncoding):
                raise
            except zlib.error as exc:
                raise backend.DecodingError(f"the response's Content-Encoding does not decode: {exc}",
                                            request=self._request) from None
            except Exception:
                if self._deadline.expired:
                    raise backend.ReadTimeout(f"no complete response within {seconds:g}s", request=self._request) from None
                raise
            if self._deadline.expired:  # the shut-down socket read as the body's end
                raise backend.ReadTimeout(f"no complete response within {seconds:g}s", request=self._request)

        def close(self) -> None:
            self._deadline.cancel()
            self._raw.close()

    class BoundedTransport(backend.BaseTransport):  # type: ignore[misc, name-defined]
        def __init__(self) -> None:
            # No connection is kept alive: each request opens its own, so that its socket is the one watched.
            self._inner = backend.HTTPTransport(limits=backend.Limits(max_keepalive_connections=0))

        def handle_request(self, request: Any) -> Any:
            deadline = Deadline(seconds)

            def watch(event: str, info: dict) -> None:
                if event == "connection.connect_tcp.complete" and info.get("return_value") is not None:
                    sock = info["return_value"].get_extra_info("socket")
                    if sock is not None:
                        deadline.watch(sock)

            request.extensions["trace"] = _chained(request.extensions.get("trace"), watch)
            try:
                response = self._inner.handle_request(request)
            except Exception:
                deadline.cancel()
                if deadline.expired:
                    raise backend.ReadTimeout(f"no complete response within {seconds:g}s", request=request) from None
                raise
            encoding = response.headers.get("content-encoding")
            stream: Iterable[bytes] = response.stream
            if encoding is not None:
                # Decoded here, counted by BoundedStream, so the library has nothing left to decode.
                del response.headers["content-encoding"]
                stream = undo_content_coding(response.stream, encoding)
            response.stream = BoundedStream(stream, deadline, request, response.stream)
            return response

        def close(self) -> None:
            self._inner.close()

    return BoundedTransport()


# --------------------------------------------------------------------------- the Hub client's bodies

MAX_INFLATION = 100  # decoded bytes per byte on the wire past FREE_INFLATION: text gzips 5–20×, a gzip bomb 1000×
FREE_INFLATION = 64 * 1024 * 1024  # decoded bytes any body may reach, however well it compressed


class BodyInflatesTooFar(ResponseTooLarge):
    """A `Content-Encoding` body decoding past `FREE_INFLATION` bytes and `MAX_INFLATION` times its bytes on the wire."""

    def __init__(self, decoded: int, wire: int):
        Exception.__init__(self, f"a response body (Content-Encoding) decoded to more than {decoded} bytes from {wire} "
                                 f"bytes on the wire, past {MAX_INFLATION} times: a decompression bomb, not read further")


def inflation_bounded(inner: Any) -> Any:
    """`inner` (a transport of httpx or httpx2) with each `Content-Encoding` body decoded here, a piece at a time, and
    refused (`BodyInflatesTooFar`) once it passes `FREE_INFLATION` bytes and `MAX_INFLATION` times the bytes read for
    it; no time or size bound otherwise (a Hub download may be gigabytes). The library is handed the decoded bytes
    without the `Content-Encoding` and `Content-Length` headers (the length was the encoded one's)."""
    backend = _backend()

    class InflationBoundedStream(backend.SyncByteStream):  # type: ignore[misc, name-defined]
        def __init__(self, raw: Any, encoding: str, request: Any):
            self._raw, self._request, self.wire = raw, request, 0
            self._decoded = undo_content_coding(self._counted(), encoding)

        def _counted(self) -> Iterator[bytes]:
            for chunk in self._raw:
                self.wire += len(chunk)
                yield chunk

        def __iter__(self) -> Iterator[bytes]:
            produced = 0
            try:
                for chunk in self._decoded:
                    produced += len(chunk)
                    if produced > FREE_INFLATION and produced > MAX_INFLATION * self.wire:
                        raise BodyInflatesTooFar(produced, self.wire)
                    yield chunk
            except zlib.error as exc:
                raise backend.DecodingError(f"the response's Content-Encoding does not decode: {exc}",
                                            request=self._request) from None

        def close(self) -> None:
            self._raw.close()

    class InflationBoundedTransport(backend.BaseTransport):  # type: ignore[misc, name-defined]
        def handle_request(self, request: Any) -> Any:
            response = inner.handle_request(request)
            encoding = response.headers.get("content-encoding")
            if encoding is None:
                return response
            try:
                stream = InflationBoundedStream(response.stream, encoding, request)
            except UnreadableEncoding:
                response.stream.close()
                raise
            del response.headers["content-encoding"]
            if "content-length" in response.headers:
                del response.headers["content-length"]
            response.stream = stream
            return response

        def close(self) -> None:
            inner.close()

    return InflationBoundedTransport()


_HUB_CLIENT_BOUNDED = False


def bound_hub_client() -> None:
    """Have huggingface_hub (publish, verify, the Hub datasets and models of `eval`) send through a client whose every
    transport, a proxy's included, is `inflation_bounded`: its downloads ask `identity`, but a mirror may gzip a body
    anyway, and its own decoder wrote whatever that became to disk. Its client's other settings are its own.

    Xet is turned off, at every call (a caller's settings may have turned it on since): with `hf_xet` installed,
    huggingface_hub uploads through it, and downloads through it any file a server says is on Xet, in a client of its
    own (Rust) that none of these bounds or redirect rules reach, keeping a cache of blobs shared across repos by the
    hash a server names. `HF_HUB_DISABLE_XET=1` does this in a shell; a user's shell may not have it."""
    global _HUB_CLIENT_BOUNDED
    from huggingface_hub import constants

    constants.HF_HUB_DISABLE_XET = True  # read at each use (`is_xet_available`, the shared blob store)
    if _HUB_CLIENT_BOUNDED:
        return
    from huggingface_hub import set_client_factory
    from huggingface_hub.utils import _http

    backend = _backend()

    class BoundedClient(backend.Client):  # type: ignore[misc, name-defined]
        def __init__(self, **options: Any) -> None:
            super().__init__(**options)
            self._bounded: dict[int, Any] = {}

        def _transport_for_url(self, url: Any) -> Any:
            transport = super()._transport_for_url(url)
            if id(transport) not in self._bounded:
                self._bounded[id(transport)] = (transport, inflation_bounded(transport))
            return self._bounded[id(transport)][1]

    def factory() -> Any:
        library_default = _http.default_client_factory()  # its hooks: offline mode, request ids, download counts
        hooks, library_default_redirects = library_default.event_hooks, library_default.follow_redirects
        library_default.close()
        return BoundedClient(event_hooks=hooks, follow_redirects=library_default_redirects, timeout=None)

    set_client_factory(factory)
    _HUB_CLIENT_BOUNDED = True
