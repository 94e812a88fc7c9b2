"""A small real HTTP server for a folder of files: ETag, Last-Modified, conditional GET, Range, HEAD.

The runner serves the embedded sample archive with it (`make extract` with no arguments), so the
download stage runs exactly as against a real exam site; tests serve generated fixtures with it.
It is a local tool, not a production web server: one file per request, no compression.
"""
from __future__ import annotations

import contextlib
import html
import mimetypes
import posixpath
import re
import threading
import time
import urllib.parse
from email.utils import formatdate, parsedate_to_datetime
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Iterator

_CHUNK = 64 * 1024
_RANGE = re.compile(r"^bytes=([0-9]{0,19})-([0-9]{0,19})$")  # ASCII, bounded: int() of 5000 digits raises


class StaticFileHandler(BaseHTTPRequestHandler):
    """Serves files under `server.root`; a folder serves its index.html or a generated link list."""

    server: "StaticFileServer"
    protocol_version = "HTTP/1.1"
    server_version = "examcorpus-serve/1.0"

    def log_message(self, format: str, *args) -> None:  # noqa: A002 - signature of the base class
        pass  # quiet: tests and the runner would otherwise print one line per request

    def do_GET(self) -> None:
        self._simulate_latency()
        self.serve_path(self.url_path(), head=False)

    def do_HEAD(self) -> None:
        self._simulate_latency()
        self.serve_path(self.url_path(), head=True)

    def _simulate_latency(self) -> None:
        if self.server.latency > 0:
            time.sleep(self.server.latency)

    def url_path(self) -> str:
        return urllib.parse.unquote(urllib.parse.urlsplit(self.path).path)

    def resolve(self, url_path: str) -> Path | None:
        """The file for a URL path, or None when it is missing or escapes the root."""
        parts = [p for p in posixpath.normpath(url_path).split("/") if p not in ("", ".", "..")]
        candidate = self.server.root.joinpath(*parts)
        try:
            candidate.resolve().relative_to(self.server.root.resolve())
        except ValueError:
            return None
        return candidate if candidate.exists() else None

    def serve_path(self, url_path: str, *, head: bool) -> None:
        target = self.resolve(url_path)
        if target is None:
            self.send_simple(HTTPStatus.NOT_FOUND, f"not found: {url_path}", head=head)
            return
        if target.is_dir():
            if not url_path.endswith("/"):
                self.send_response(HTTPStatus.MOVED_PERMANENTLY)
                self.send_header("Location", url_path + "/")
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            index = target / "index.html"
            if index.is_file():
                target = index
            else:
                self.send_simple(HTTPStatus.OK, directory_listing(target, url_path), head=head, html_page=True)
                return
        self.serve_file(target, head=head)

    def serve_file(self, target: Path, *, head: bool) -> None:
        stat = target.stat()
        etag = f'"{stat.st_mtime_ns:x}-{stat.st_size:x}"'
        last_modified = formatdate(stat.st_mtime, usegmt=True)
        if self._not_modified(etag, stat.st_mtime):
            self.send_response(HTTPStatus.NOT_MODIFIED)
            self.send_header("ETag", etag)
            self.send_header("Last-Modified", last_modified)
            self.end_headers()
            return
        size = stat.st_size
        start, end = 0, size - 1
        status = HTTPStatus.OK
        wanted = self._requested_range(size, etag, last_modified)
        if wanted == "unsatisfiable":
            self.send_response(HTTPStatus.REQUESTED_RANGE_NOT_SATISFIABLE)
            self.send_header("Content-Range", f"bytes */{size}")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if wanted is not None:
            start, end = wanted
            status = HTTPStatus.PARTIAL_CONTENT
        length = max(0, end - start + 1)
        self.send_response(status)
        self.send_header("Content-Type", mimetypes.guess_type(target.name)[0] or "application/octet-stream")
        self.send_header("Content-Length", str(length))
        self.send_header("ETag", etag)
        self.send_header("Last-Modified", last_modified)
        self.send_header("Accept-Ranges", "bytes")
        if status == HTTPStatus.PARTIAL_CONTENT:
            self.send_header("Content-Range", f"bytes {start}-{end}/{size}")
        self.end_headers()
        if not head:
            self.send_body(target, start, length)

    def send_body(self, target: Path, start: int, length: int) -> None:
        """Write `length` bytes of the file from `start`; subclasses cut this short to inject faults."""
        with target.open("rb") as handle:
            handle.seek(start)
            remaining = length
            while remaining > 0:
                chunk = handle.read(min(_CHUNK, remaining))
                if not chunk:
                    break
                self.wfile.write(chunk)
                remaining -= len(chunk)

    def _not_modified(self, etag: str, mtime: float) -> bool:
        # RFC 9110 13.2.2: If-None-Match takes precedence; If-Modified-Since counts only without it.
        if_none_match = self.headers.get("If-None-Match")
        if if_none_match is not None:
            if if_none_match.strip() == "*":
                return True
            tags = [t.strip().removeprefix("W/") for t in if_none_match.split(",")]
            return etag in tags  # weak comparison
        since = _parse_http_date(self.headers.get("If-Modified-Since"))
        return since is not None and int(mtime) <= since

    def _requested_range(self, size: int, etag: str, last_modified: str) -> tuple[int, int] | str | None:
        """(start, end) for a satisfiable single byte range; None to send the whole file."""
        header = self.headers.get("Range")
        if not header:
            return None
        if_range = self.headers.get("If-Range")
        if if_range is not None:
            if_range = if_range.strip()
            # Only a strong, exactly equal validator keeps the range (RFC 9110 13.1.5).
            if if_range.startswith("W/") or if_range != (etag if if_range.startswith('"') else last_modified):
                return None
        match = _RANGE.match(header.strip())
        if not match or match.group(1) == match.group(2) == "":
            return None  # several ranges or a malformed one: ignoring Range is allowed
        first, last = match.groups()
        if first == "":
            suffix = int(last)
            if suffix == 0:
                return "unsatisfiable"
            return max(0, size - suffix), size - 1
        start = int(first)
        end = min(int(last), size - 1) if last else size - 1
        if start >= size or end < start:
            return "unsatisfiable"
        return start, end

    def send_simple(self, status: int, text: str, *, head: bool, html_page: bool = False) -> None:
        body = text.encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "text/html; charset=utf-8" if html_page else "text/plain; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if not head:
            self.wfile.write(body)


def directory_listing(folder: Path, url_path: str) -> str:
    items = []
    for child in sorted(folder.iterdir()):
        name = child.name + ("/" if child.is_dir() else "")
        items.append(f'<li><a href="{urllib.parse.quote(name)}">{html.escape(name)}</a></li>')
    title = html.escape(url_path)
    return f"<!DOCTYPE html><html><head><title>{title}</title></head><body><h1>{title}</h1><ul>{''.join(items)}</ul></body></html>"


def _parse_http_date(value: str | None) -> int | None:
    if not value:
        return None
    try:
        return int(parsedate_to_datetime(value).timestamp())
    except (TypeError, ValueError, IndexError):
        return None


class StaticFileServer(ThreadingHTTPServer):
    daemon_threads = True  # a hung test client must not keep the process alive
    allow_reuse_address = True

    def __init__(self, address: tuple[str, int], handler: type[StaticFileHandler], root: Path, latency: float = 0.0):
        self.root = Path(root)
        self.latency = latency
        super().__init__(address, handler)


@contextlib.contextmanager
def serve_directory(
    root: Path | str,
    host: str = "127.0.0.1",
    port: int = 0,
    *,
    latency: float = 0.0,
    handler: type[StaticFileHandler] = StaticFileHandler,
) -> Iterator[str]:
    """Serve `root` over HTTP in a background thread; yields the base URL, e.g. http://127.0.0.1:38211.

    `latency` (seconds) delays every response, to mimic a remote site in benchmarks.
    """
    root = Path(root)
    if not root.is_dir():
        raise NotADirectoryError(f"{root}: cannot serve, not a folder")
    server = StaticFileServer((host, port), handler, root, latency)
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), name=f"serve:{root.name}", daemon=True)
    thread.start()
    try:
        bound_host, bound_port = server.server_address[:2]
        yield f"http://{bound_host}:{bound_port}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


__all__ = ["serve_directory", "StaticFileHandler", "StaticFileServer", "directory_listing"]
