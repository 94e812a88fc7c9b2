"""serve_directory: a real threaded HTTP server with validators, conditional GET, Range and HEAD."""
from __future__ import annotations

import http.client
import time
import urllib.parse
from pathlib import Path

import pytest

from pipeline.devkit.serve import serve_directory

DATA = bytes(range(256)) * 40  # 10240 bytes


@pytest.fixture
def served(tmp_path: Path):
    (tmp_path / "files").mkdir()
    (tmp_path / "files" / "a.pdf").write_bytes(DATA)
    (tmp_path / "secret.txt").write_text("outside")
    root = tmp_path / "files"
    with serve_directory(root) as base:
        yield base


def request(base: str, path: str, headers: dict[str, str] | None = None, method: str = "GET"):
    parts = urllib.parse.urlsplit(base)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=5)
    conn.request(method, path, headers=headers or {})
    resp = conn.getresponse()
    body = resp.read()
    conn.close()
    return resp, body


def test_serves_files_with_validators_on_loopback(served):
    assert served.startswith("http://127.0.0.1:")
    resp, body = request(served, "/a.pdf")
    assert resp.status == 200 and body == DATA
    assert resp.getheader("Content-Type") == "application/pdf"
    assert resp.getheader("Content-Length") == str(len(DATA))
    assert resp.getheader("ETag").startswith('"') and resp.getheader("Last-Modified").endswith("GMT")
    assert resp.getheader("Accept-Ranges") == "bytes"


def test_if_none_match_gives_304_without_a_body(served):
    etag = request(served, "/a.pdf")[0].getheader("ETag")
    resp, body = request(served, "/a.pdf", {"If-None-Match": etag})
    assert resp.status == 304 and body == b"" and resp.getheader("ETag") == etag
    assert request(served, "/a.pdf", {"If-None-Match": '"other"'})[0].status == 200


def test_if_modified_since_gives_304_only_when_unchanged(served):
    last_modified = request(served, "/a.pdf")[0].getheader("Last-Modified")
    assert request(served, "/a.pdf", {"If-Modified-Since": last_modified})[0].status == 304
    assert request(served, "/a.pdf", {"If-Modified-Since": "Mon, 01 Jan 2001 00:00:00 GMT"})[0].status == 200


def test_if_none_match_takes_precedence_over_if_modified_since(served):
    last_modified = request(served, "/a.pdf")[0].getheader("Last-Modified")
    resp, _ = request(served, "/a.pdf", {"If-None-Match": '"stale"', "If-Modified-Since": last_modified})
    assert resp.status == 200


@pytest.mark.parametrize(
    ("header", "start", "end"),
    [("bytes=100-", 100, len(DATA) - 1), ("bytes=0-9", 0, 9), ("bytes=-16", len(DATA) - 16, len(DATA) - 1), ("bytes=10000-99999", 10000, len(DATA) - 1)],
)
def test_a_byte_range_gives_206_with_just_those_bytes(served, header, start, end):
    resp, body = request(served, "/a.pdf", {"Range": header})
    assert resp.status == 206
    assert body == DATA[start : end + 1]
    assert resp.getheader("Content-Range") == f"bytes {start}-{end}/{len(DATA)}"


def test_a_range_past_the_end_is_416(served):
    resp, _ = request(served, "/a.pdf", {"Range": f"bytes={len(DATA)}-"})
    assert resp.status == 416 and resp.getheader("Content-Range") == f"bytes */{len(DATA)}"


def test_if_range_with_the_current_validator_keeps_the_range_and_a_stale_one_gets_the_whole_file(served):
    first = request(served, "/a.pdf")[0]
    etag, last_modified = first.getheader("ETag"), first.getheader("Last-Modified")
    assert request(served, "/a.pdf", {"Range": "bytes=5-", "If-Range": etag})[0].status == 206
    assert request(served, "/a.pdf", {"Range": "bytes=5-", "If-Range": last_modified})[0].status == 206
    resp, body = request(served, "/a.pdf", {"Range": "bytes=5-", "If-Range": '"old-version"'})
    assert resp.status == 200 and body == DATA
    assert request(served, "/a.pdf", {"Range": "bytes=5-", "If-Range": "W/" + etag})[0].status == 200


def test_head_sends_headers_only(served):
    resp, body = request(served, "/a.pdf", method="HEAD")
    assert resp.status == 200 and body == b"" and resp.getheader("Content-Length") == str(len(DATA))


def test_missing_files_and_paths_outside_the_root_are_404(served):
    assert request(served, "/nope.pdf")[0].status == 404
    assert request(served, "/../secret.txt")[0].status == 404
    assert request(served, "/%2e%2e/secret.txt")[0].status == 404


def test_a_folder_without_index_html_lists_its_files_as_links(tmp_path: Path):
    (tmp_path / "2024").mkdir()
    (tmp_path / "2024" / "arkusz ą.pdf").write_bytes(b"%PDF-1.4")
    with serve_directory(tmp_path) as base:
        redirect, _ = request(base, "/2024")
        resp, body = request(base, "/2024/")
    assert redirect.status == 301 and redirect.getheader("Location") == "/2024/"
    assert resp.status == 200 and 'href="arkusz%20%C4%85.pdf"' in body.decode()


def test_a_folder_with_index_html_serves_it(tmp_path: Path):
    (tmp_path / "index.html").write_text("<a href='x.pdf'>x</a>")
    with serve_directory(tmp_path) as base:
        resp, body = request(base, "/")
    assert resp.status == 200 and b"x.pdf" in body and resp.getheader("Content-Type") == "text/html"


def test_latency_delays_every_response(tmp_path: Path):
    (tmp_path / "a.pdf").write_bytes(b"%PDF-1.4")
    with serve_directory(tmp_path, latency=0.2) as base:
        started = time.monotonic()
        request(base, "/a.pdf")
        assert time.monotonic() - started >= 0.19


def test_serving_a_missing_folder_is_an_error_naming_it(tmp_path: Path):
    with pytest.raises(NotADirectoryError, match="nowhere"):
        with serve_directory(tmp_path / "nowhere"):
            pass


@pytest.mark.parametrize("path", [
    "/..%2fsecret.txt", "/%2e%2e%2fsecret.txt", "/..%5csecret.txt", "/%252e%252e/secret.txt",  # doubly encoded
    "/%E2%80%A4%E2%80%A4/secret.txt",  # one-dot leaders
    "/..%EF%BC%8Fsecret.txt", "/%EF%BC%8E%EF%BC%8E/secret.txt",  # a full-width solidus, full-width dots
    "/%c0%ae%c0%ae/secret.txt",  # an over-long UTF-8 dot
    "/a.pdf%00.txt", "/%00",  # NUL: a ValueError in the file system calls
])
def test_encoded_and_look_alike_dots_and_slashes_stay_inside_the_root(served, path):
    resp, body = request(served, path)
    assert resp.status == 404 and b"outside" not in body


@pytest.mark.parametrize("header", [
    "bytes=" + "9" * 5000 + "-",  # int() raises past 4300 digits: before, the handler died with no answer
    "bytes=-" + "9" * 5000,
    "bytes=\xb9\xb2-",  # superscript ¹² (latin-1): isdigit() says yes
    "bytes=1_0-20",
    "bytes=+10-20",
])
def test_a_malformed_range_is_ignored_and_the_whole_file_sent(served, header):
    resp, body = request(served, "/a.pdf", {"Range": header})
    assert resp.status == 200 and body == DATA
