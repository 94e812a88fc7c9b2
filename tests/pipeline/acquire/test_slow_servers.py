"""A server that answers a byte before each read would time out (slow loris): the header block and the
body trickled. `timeout` bounds one socket read, so only a deadline on the whole request ends it; each
attack is sent by a real server on 127.0.0.1 (`raw` with `seconds`: the response written `chunk`
bytes at a time) to the real `download_source`."""
from __future__ import annotations

import dataclasses
import time

from pipeline.acquire import RetryPolicy, download_source
from pipeline.acquire.httpclient import TransferError, open_url

import pytest

from .support import make_pdf, make_spec, raw, trickle

MAT = "/files/2023/MAT-100-2305.pdf"
PDF = make_pdf("MAT 2023")


def trickled(chunk: int, *, every: float = 0.2):
    return raw(200, ["Content-Type: application/pdf", f"Content-Length: {len(PDF)}"], PDF, chunk=chunk, seconds=every)


@pytest.mark.parametrize("chunk, where", [(1, "header block"), (8, "body")])
def test_a_response_trickled_before_each_timeout_ends_at_the_requests_deadline(site, raw_dir, fast, chunk, where):
    """One byte every 0.2 s (a header block of about 80 bytes: 16 s), or 8 bytes every 0.2 s (the PDF:
    over a minute), each under the 1 s timeout; the deadline is 2 s, two tries."""
    site.put(MAT, PDF)
    site.inject(MAT, trickled(chunk), trickled(chunk))
    options = dataclasses.replace(fast, timeout=1.0, deadline=2.0,
                                  retry=RetryPolicy(attempts=2, backoff_base=0.05, jitter=0.0))
    spec = make_spec(url_templates=["{base_url}" + MAT])
    started = time.monotonic()
    [entry] = download_source(spec, raw_dir, base_url=site.base_url, progress=False, options=options).entries
    assert time.monotonic() - started < 10
    assert entry.status == "failed"
    assert "no complete response within 2s (the request's deadline)" in entry.error
    assert [r.fault for r in site.to(MAT)] == ["raw", "raw"]


def test_a_transfer_cut_by_the_deadline_is_tried_again_and_the_file_is_whole(site, raw_dir, fast):
    """The deadline is a transient failure like a timeout: the next try (the server well again) gets the file."""
    site.put(MAT, PDF)
    site.inject(MAT, trickled(64, every=0.1))
    options = dataclasses.replace(fast, timeout=1.0, deadline=1.5,
                                  retry=RetryPolicy(attempts=2, backoff_base=0.05, jitter=0.0))
    spec = make_spec(url_templates=["{base_url}" + MAT])
    [entry] = download_source(spec, raw_dir, base_url=site.base_url, progress=False, options=options).entries
    assert entry.status == "downloaded" and (raw_dir / entry.path.split("/")[-1]).read_bytes() == PDF
    assert [r.fault for r in site.to(MAT)] == ["raw", None]


def test_open_url_alone_keeps_its_deadline_across_the_body(site):
    # the header block whole, the body 4 bytes every 0.1 s: the deadline falls inside the body, however slow the
    # machine (a header block trickled too ended the request before its body under load: no body bytes to count)
    site.put("/a.pdf", PDF)
    site.inject("/a.pdf", trickle(4, 0.1))
    started = time.monotonic()
    with pytest.raises(TransferError, match=r"no complete response within 1s .* bytes of the body received"):
        with open_url(site.url("/a.pdf"), timeout=1.0, deadline=1.0) as resp:
            b"".join(resp.iter_chunks())
    assert time.monotonic() - started < 5
