"""What the review server sends besides its JSON: a figure file, and the request handler's own refusals.

A figure's path comes from the annotations file; one naming an HTML or SVG file in the project was served by its
suffix's type (`text/html`, `image/svg+xml`): a page of this origin, or a file's text, where a crop is expected. Now
a figure is served only as a raster image (`.png`, `.jpg`, `.webp`, `.gif`), its type fixed by that suffix.

Before a route runs, http.server refuses a header line over 64 KiB (431), more than 100 headers (431) and a
request line over 64 KiB (414) with its own HTML page, which carried neither the Content-Security-Policy nor
`X-Content-Type-Options: nosniff` every other answer has. Now each is the API's JSON error with those headers.
Before: `d753c64` (measured in `docs/results.md`, "Trust at the seams an eighth time").
"""
from __future__ import annotations

import json
import socket

import pytest

from pipeline.review import ReviewStore, serve_review
from pipeline.review.server import CSP

PAYLOAD = b"<html><body><script>window.__pwned = 1</script>figure</body></html>"


def served_figure(review_project, name: str, data: bytes):
    """The first item's figure path pointed at `name` under raw/figures (a file holding `data`)."""
    root, curated, _ = review_project
    (root / "raw" / "figures" / name).write_bytes(data)
    descriptions = root / "annotations" / "descriptions.jsonl"
    lines = [json.loads(line) for line in descriptions.read_text().splitlines()]
    lines[0]["image_path"] = f"raw/figures/{name}"
    descriptions.write_text("".join(json.dumps(line) + "\n" for line in lines))
    store = ReviewStore.open(root, [curated])
    item_id = next(i for i in store.order if store.get(i).annotation.image_path.endswith(name))
    return store, item_id


@pytest.mark.parametrize("name", ["figure.html", "figure.svg", "figure.txt", "figure.PNG.html", "figure"])
def test_a_figure_path_naming_anything_but_a_raster_image_is_not_served(review_project, name):
    from tests.pipeline.review.builders import review_client

    store, item_id = served_figure(review_project, name, PAYLOAD)
    answer = review_client(store).get(f"/figure/{item_id}")
    assert answer.status_code == 404, (answer.status_code, answer.mimetype)
    assert answer.mimetype == "application/json" and PAYLOAD not in answer.data


def test_a_figure_crop_is_served_as_the_image_its_suffix_names(review_project):
    from tests.pipeline.review.builders import review_client

    root = review_project[0]
    png = next((root / "raw" / "figures").glob("*.png")).read_bytes()
    store, item_id = served_figure(review_project, "crop.JPEG", png)
    answer = review_client(store).get(f"/figure/{item_id}")
    assert answer.status_code == 200 and answer.mimetype == "image/jpeg" and answer.data == png
    assert answer.headers["X-Content-Type-Options"] == "nosniff"


def _raw(port: int, data: bytes) -> tuple[str, dict[str, str], bytes]:
    with socket.create_connection(("127.0.0.1", port), timeout=20) as sock:
        sock.sendall(data)
        out = b""
        while chunk := sock.recv(65536):
            out += chunk
    head, _, body = out.partition(b"\r\n\r\n")
    status, *lines = head.decode("latin-1").split("\r\n")
    return status, {k.strip().lower(): v.strip() for k, v in (line.split(":", 1) for line in lines)}, body


@pytest.mark.parametrize("case, status", [
    ("a header line of 70 kB", 431), ("101 headers", 431), ("a request line of 70 kB", 414),
    ("a request line of four words", 400)])
def test_the_request_handlers_own_refusals_are_json_with_the_pages_headers(store, case, status):
    with serve_review(store) as url:
        port = int(url.rsplit(":", 1)[1])
        host = f"Host: 127.0.0.1:{port}\r\n"
        request = {
            "a header line of 70 kB": f"GET / HTTP/1.1\r\n{host}X-Big: {'a' * 70_000}\r\n\r\n",
            "101 headers": f"GET / HTTP/1.1\r\n{host}" + "".join(f"X-{n}: 1\r\n" for n in range(101)) + "\r\n",
            "a request line of 70 kB": f"GET /{'a' * 70_000} HTTP/1.1\r\n{host}\r\n",
            "a request line of four words": f"GET /<script> <b> HTTP/1.1\r\n{host}\r\n",
        }[case]
        line, headers, body = _raw(port, request.encode())
    assert line.startswith("HTTP/1.") and f" {status} " in line, line
    assert headers["content-type"] == "application/json" and headers["x-content-type-options"] == "nosniff"
    assert headers["content-security-policy"] == CSP
    assert json.loads(body)["error"].startswith(str(status))


@pytest.mark.parametrize("host", ["\u217cocalhost", "locaIhost", "xn--localhost-5b3a", "127.0.0.1\u3002", "ｌｏｃａｌｈｏｓｔ",
                                  "localhost\u200b"])
def test_a_host_that_only_looks_like_a_loopback_name_is_refused(store, host):
    """Look-alikes of `localhost` (a Roman numeral fifty, a capital I, an IDN in punycode, an ideographic full stop,
    fullwidth letters, a zero-width space), sent as UTF-8 with the server's port: held on `d753c64` too."""
    with serve_review(store) as url:
        port = int(url.rsplit(":", 1)[1])
        line, headers, body = _raw(port, f"GET /api/queue HTTP/1.1\r\nHost: {host}:{port}\r\n\r\n".encode())
    assert " 421 " in line or " 400 " in line, line
    assert headers["content-type"] == "application/json" and b'"ids"' not in body
