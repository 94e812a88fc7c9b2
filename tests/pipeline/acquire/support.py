"""A fault-injecting HTTP server for download tests, plus small builders for sites, PDFs and specs.

The server is pipeline.devkit.serve's static file server (so ETag, 304 and Range behave as a real site's)
with a queue of faults per path: each request to a path takes the next fault, and once its queue is
empty the path is served normally. Every request is logged (headers, status, body bytes sent) so a
test can count server-side what the client really did.
"""
from __future__ import annotations

import contextlib
import socket
import struct
import threading
import time
from collections import defaultdict, deque
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Iterator

from fpdf import FPDF

from pipeline.devkit.serve import StaticFileHandler, StaticFileServer
from pipeline.specs import SourceSpec, parse_spec


# --------------------------------------------------------------------------- faults


@dataclass(frozen=True)
class Fault:
    kind: str  # status | hang | reset | truncate | trickle | endless | raw
    status: int = 0
    head: tuple[str, ...] = ()  # raw: the header lines, exactly as sent (duplicates, odd bytes and all)
    body: bytes = b""
    retry_after: str | None = None
    after_bytes: int = 0
    seconds: float = 0.0
    chunk: int = 0


def status(code: int, retry_after: str | None = None) -> Fault:
    return Fault("status", status=code, retry_after=retry_after)


def hang(seconds: float) -> Fault:
    """Accept the request, then say nothing for `seconds` (longer than the client's timeout)."""
    return Fault("hang", seconds=seconds)


def reset_after(n: int) -> Fault:
    """Send headers and `n` body bytes, then reset the connection (TCP RST)."""
    return Fault("reset", after_bytes=n)


def truncate_after(n: int) -> Fault:
    """Send the full Content-Length header but only `n` body bytes, then close normally."""
    return Fault("truncate", after_bytes=n)


def trickle(chunk: int, seconds: float) -> Fault:
    """Send the body `chunk` bytes at a time, `seconds` apart (a slow transfer to kill mid-way)."""
    return Fault("trickle", chunk=chunk, seconds=seconds)


def endless(up_to: int = 64 * 1024 * 1024) -> Fault:
    """A 200 PDF body with no Content-Length that streams until the client hangs up (or `up_to` bytes)."""
    return Fault("endless", after_bytes=up_to)


def raw(status_code: int, head: tuple[str, ...] | list[str], body: bytes = b"", *, chunk: int = 0, seconds: float = 0.0) -> Fault:
    """A response written byte for byte: `head` lines as given (latin-1), then `body`, then the
    connection closes. For headers no well-behaved server sends: a lying or doubled Content-Length,
    a Retry-After in another script's digits. With `seconds`, head and body go out `chunk` bytes at
    a time, `seconds` apart (a slow-loris server, inside the header block too)."""
    return Fault("raw", status=status_code, head=tuple(head), body=body, chunk=chunk, seconds=seconds)


@dataclass
class Request:
    path: str
    at: float  # time.monotonic() on arrival
    headers: dict[str, str]
    status: int | None = None
    body_bytes: int = 0
    fault: str | None = None


@dataclass
class ServerState:
    faults: dict[str, deque[Fault]] = field(default_factory=lambda: defaultdict(deque))
    always: dict[str, Fault] = field(default_factory=dict)  # a fault on every request to the path
    redirects: dict[str, tuple[int, str]] = field(default_factory=dict)
    content_types: dict[str, str] = field(default_factory=dict)
    requests: list[Request] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def take(self, path: str) -> Fault | None:
        with self.lock:
            queue = self.faults.get(path)
            if queue:
                return queue.popleft()
            return self.always.get(path)

    def log(self, path: str, headers: dict[str, str]) -> Request:
        record = Request(path, time.monotonic(), headers)
        with self.lock:
            self.requests.append(record)
        return record

    def to(self, path: str) -> list[Request]:
        with self.lock:
            return [r for r in self.requests if r.path == path]


class FaultHandler(StaticFileHandler):
    server: "FaultServer"

    def setup(self) -> None:
        super().setup()
        self._record: Request | None = None
        self._fault: Fault | None = None

    def do_GET(self) -> None:
        path = self.url_path()
        state = self.server.state
        self._record = state.log(path, {k: v for k, v in self.headers.items()})
        self._fault = state.take(path)
        if self._fault is not None:
            self._record.fault = self._fault.kind
        if path in state.redirects:
            code, location = state.redirects[path]
            self.send_response(code)
            self.send_header("Location", location)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        fault = self._fault
        if fault is not None and fault.kind == "status":
            body = f"<html><body>error {fault.status}</body></html>".encode()
            self.send_response(fault.status)
            if fault.retry_after is not None:
                self.send_header("Retry-After", fault.retry_after)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        if fault is not None and fault.kind == "raw":
            self._record.status = fault.status
            lines = [f"HTTP/1.1 {fault.status} Hostile", *fault.head, "Connection: close", "", ""]
            head = "\r\n".join(lines).encode("latin-1")
            if fault.seconds:
                self._trickle_raw(head, fault)
            else:
                self.wfile.write(head)
                self._write(fault.body)
            self.wfile.flush()
            self.close_connection = True
            return
        if fault is not None and fault.kind == "endless":
            self._stream_endlessly(fault.after_bytes)
            return
        if fault is not None and fault.kind == "hang":
            time.sleep(fault.seconds)
            self.close_connection = True
            return
        self.serve_path(path, head=False)

    def send_response(self, code: int, message: str | None = None) -> None:
        if self._record is not None:
            self._record.status = code
        super().send_response(code, message)

    def send_header(self, keyword: str, value: str) -> None:
        override = self.server.state.content_types.get(self.url_path())
        if keyword.lower() == "content-type" and override is not None:
            value = override
        super().send_header(keyword, value)

    def send_body(self, target: Path, start: int, length: int) -> None:
        data = target.read_bytes()[start : start + length]
        fault = self._fault
        if fault is None or fault.kind not in ("reset", "truncate", "trickle"):
            self._write(data)
            return
        if fault.kind == "trickle":
            for at in range(0, len(data), fault.chunk):
                self._write(data[at : at + fault.chunk])
                self.wfile.flush()
                time.sleep(fault.seconds)
            return
        self._write(data[: fault.after_bytes])
        self.wfile.flush()
        self.close_connection = True
        if fault.kind == "reset":
            time.sleep(0.2)  # let the client read what was sent: an RST discards unread received data
            # SO_LINGER with a zero timeout makes close() send RST instead of FIN.
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self.connection.close()
        else:
            self.connection.shutdown(socket.SHUT_WR)

    def _stream_endlessly(self, up_to: int) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "application/pdf")
        self.send_header("Connection", "close")  # no Content-Length: the body ends when the connection does
        self.end_headers()
        self.close_connection = True
        block = b"%PDF-1.4\n" + b"0" * (64 * 1024 - 9)
        try:
            while self._record is None or self._record.body_bytes < up_to:
                self._write(block)
                block = b"0" * len(block)
        except OSError:
            pass  # the client stopped reading: what the test wants

    def _trickle_raw(self, head: bytes, fault: Fault) -> None:
        """The head, then the body, `fault.chunk` bytes at a time, `fault.seconds` apart."""
        try:
            for data, write in ((head, self.wfile.write), (fault.body, self._write)):
                for at in range(0, len(data), fault.chunk):
                    write(data[at : at + fault.chunk])
                    self.wfile.flush()
                    time.sleep(fault.seconds)
        except OSError:
            pass  # the client hung up: what the test wants

    def _write(self, data: bytes) -> None:
        self.wfile.write(data)
        if self._record is not None:
            self._record.body_bytes += len(data)

    def finish(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            super().finish()


class FaultServer(StaticFileServer):
    def __init__(self, root: Path, host: str = "127.0.0.1"):
        self.state = ServerState()
        super().__init__((host, 0), FaultHandler, root)

    def handle_error(self, request, client_address) -> None:
        pass  # clients hanging up mid-body are the point of these tests


@dataclass
class Site:
    """A running fault server over `root`; paths are URL paths like /files/2023/a.pdf."""

    root: Path
    base_url: str
    state: ServerState

    def url(self, path: str) -> str:
        return self.base_url + path

    def put(self, path: str, data: bytes) -> Path:
        target = self.root / path.lstrip("/")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        return target

    def page(self, path: str, hrefs: list[str], extra: str = "") -> None:
        links = "".join(f'<li><a href="{h}">{h.rsplit("/", 1)[-1] or h}</a></li>' for h in hrefs)
        self.put(path, f"<!DOCTYPE html><html><body>{extra}<ul>{links}</ul></body></html>".encode())

    def inject(self, path: str, *faults: Fault) -> None:
        with self.state.lock:
            self.state.faults[path].extend(faults)

    def to(self, path: str) -> list[Request]:
        return self.state.to(path)


@contextlib.contextmanager
def fault_site(root: Path, host: str = "127.0.0.1") -> Iterator[Site]:
    """`host` may be another loopback address (127.0.0.2) to stand for a second machine."""
    root.mkdir(parents=True, exist_ok=True)
    server = FaultServer(root, host)
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)  # quick shutdown
    thread.start()
    try:
        host, port = server.server_address[:2]
        yield Site(root, f"http://{host}:{port}", server.state)
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


# --------------------------------------------------------------------------- fixtures


def make_pdf(text: str, *, pages: int = 1, padding: int = 0) -> bytes:
    """A small real PDF; `padding` adds uncompressed filler text so a test can have a bigger body."""
    pdf = FPDF()
    pdf.set_compression(False)
    pdf.set_creation_date(datetime(2024, 1, 1, tzinfo=timezone.utc))  # deterministic bytes
    for number in range(pages):
        pdf.add_page()
        pdf.set_font("helvetica", size=11)
        pdf.multi_cell(0, 6, f"{text} - page {number + 1}", new_x="LMARGIN", new_y="NEXT")
        if padding:
            pdf.set_font("helvetica", size=4)
            pdf.multi_cell(0, 2, ("filler " * (padding // 7 + 1))[:padding], new_x="LMARGIN", new_y="NEXT")
    return bytes(pdf.output())


SHEET_RULE = r"/files/(?P<year>\d{4})/(?P<sheet_code>[A-Z]+)-100-\d+\.pdf$"
KEY_RULE = r"/files/(?P<year>\d{4})/(?P<sheet_code>[A-Z]+)-100-\d+-zasady\.pdf$"


def make_spec(
    base_url: str = "https://exams.example.org",
    *,
    name: str = "testexam",
    index_pages: list[str] | None = None,
    url_templates: list[str] | None = None,
    variables: dict[str, list[str]] | None = None,
    years: list[int] | None = None,
    links: list[dict] | None = None,
    local_files: list[dict] | None = None,
    rate: float = 1000.0,
    concurrency: int = 4,
    download_extra: dict | None = None,
) -> SourceSpec:
    """A complete, valid spec through the real parser, with download rules for the test site."""
    download: dict = {
        "base_url": base_url,
        "years": years if years is not None else [2023],
        "links": links
        if links is not None
        else [{"role": "key", "pattern": KEY_RULE}, {"role": "sheet", "pattern": SHEET_RULE}],
        "rate_limit_per_host": rate,
        "concurrency": concurrency,
        **(download_extra or {}),
    }
    if index_pages is None and url_templates is None:
        index_pages = ["{base_url}/arkusze/{year}/"]
    if index_pages:
        download["index_pages"] = index_pages
    if url_templates:
        download["url_templates"] = url_templates
    if variables:
        download["variables"] = variables
    data = {
        "name": name,
        "description": "test exam family served by a local fault-injecting server",
        "metadata": {"country": "PL", "language": "pl", "exam": "test", "subject": "matematyka"},
        "ocr": {"languages": ["pol"]},
        "download": download,
        "pairing": {"on": ["year", "sheet_code"]},
        "layout": {"question_start": r"^Zadanie (?P<number>\d+)"},
        "key": {"kind": "list", "entry": r"(?P<number>\d+)\.\s*(?P<answer>[A-D])"},
    }
    if local_files is not None:
        data["local"] = {"files": local_files}
    return parse_spec(data, f"{name}.yaml")
