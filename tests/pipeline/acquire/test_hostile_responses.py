"""A server is an adversary too: lying or malformed Content-Length and Retry-After headers, and redirects
that would carry the curator's credentials elsewhere. Each attack is sent byte for byte by a real
server on 127.0.0.1 (`raw` writes the header lines exactly as given)."""
from __future__ import annotations

import base64
import http.client

import pytest

from pipeline.acquire import download_source
from pipeline.acquire.httpclient import HttpError, RetryPolicy, TransferError, open_url, retry_after_seconds
from pipeline.infra import ascii_int

from .support import fault_site, make_pdf, make_spec, raw, status

BODY = b"%PDF-1.4 " + b"x" * 91  # 100 bytes
MAT = "/files/2023/MAT-100-2305.pdf"


def fetch_one(site, raw_dir, options):
    spec = make_spec(url_templates=["{base_url}" + MAT])
    [entry] = download_source(spec, raw_dir, base_url=site.base_url, progress=False, options=options).entries
    return entry


def _wire(text: str) -> str:
    """`text` as a server would put it on the wire in UTF-8, read back as http.client reads headers (latin-1)."""
    return text.encode("utf-8").decode("latin-1")


def _read(url: str) -> bytes:
    with open_url(url, timeout=2) as resp:
        return b"".join(resp.iter_chunks())


@pytest.mark.parametrize(
    "head",
    [
        ["Content-Length: 1_0"],  # int() reads 10: the body would be cut at byte 10
        ["Content-Length: +10"],
        ["Content-Length: -10"],
        ["Content-Length: 0x64"],
        ["Content-Length: 1e2"],
        ["Content-Length: 10, 100"],
        ["Content-Length: 10", "Content-Length: 100"],  # two lengths: http.client takes the first
        ["Content-Length: \xb9\xb2"],  # superscript ¹² (latin-1 bytes B9 B2): isdigit() says yes
        [f"Content-Length: {_wire('١٠٠')}"],  # Arabic-Indic 100, as UTF-8 on the wire
        ["Content-Length: " + "9" * 5000],  # past int()'s 4300 digits: a ValueError, not an HTTP error
    ],
    ids=["underscore", "plus", "negative", "hex", "exponent", "list", "duplicates", "superscript", "arabic-indic", "5000-digits"],
)
def test_a_content_length_that_is_not_one_ascii_number_refuses_the_response(site, head):
    site.inject("/a.pdf", raw(200, ["Content-Type: application/pdf", *head], BODY))
    with pytest.raises(HttpError, match="invalid Content-Length") as caught:
        _read(site.url("/a.pdf"))
    assert not isinstance(caught.value, TransferError)  # not retried: the server would say it again


def test_the_same_length_said_twice_frames_the_body(site):
    site.inject("/a.pdf", raw(200, ["Content-Length: 100", "Content-Length: 100"], BODY))
    assert _read(site.url("/a.pdf")) == BODY


def test_a_content_length_shorter_than_the_body_ends_it_there(site):
    """The message ends where Content-Length says (RFC 9112 6.3); the rest is never read as anything."""
    site.inject("/a.pdf", raw(200, ["Content-Length: 10"], BODY))
    assert _read(site.url("/a.pdf")) == BODY[:10]


def test_a_content_length_longer_than_the_body_is_a_truncation(site):
    site.inject("/a.pdf", raw(200, ["Content-Length: 1000"], BODY))
    with pytest.raises(TransferError, match="got 100 of 1000 bytes"):
        _read(site.url("/a.pdf"))


def test_a_huge_content_length_is_refused_by_the_size_cap_before_the_body(site, raw_dir, fast):
    pdf = make_pdf("MAT 2023")
    site.put(MAT, pdf)
    site.inject(MAT, raw(200, ["Content-Length: 9999999999999999999"], pdf))
    entry = fetch_one(site, raw_dir, fast)
    assert entry.status == "rejected" and "announced 9999999999999999999 bytes" in entry.error
    assert not list(raw_dir.glob("*.pdf"))


def test_a_download_with_a_malformed_length_fails_that_file_with_its_reason(site, raw_dir, fast):
    site.put(MAT, make_pdf("MAT 2023"))
    site.inject(MAT, raw(200, ["Content-Length: " + "9" * 5000], BODY))
    entry = fetch_one(site, raw_dir, fast)
    assert entry.status != "downloaded" and "invalid Content-Length" in entry.error
    assert len(site.to(MAT)) == 1  # refused, not retried
    assert not list(raw_dir.glob("*.pdf"))


@pytest.mark.parametrize(
    ("value", "seconds"),
    [
        ("120", 120.0),
        (" 7 ", 7.0),
        ("١٢", None),  # Arabic-Indic 12: isdecimal() says yes and float() reads it
        ("\xb2", None),  # superscript two
        ("-5", None),
        ("+5", None),
        ("1_0", None),
        ("9" * 5000, None),  # no credible wait; the backoff applies
        ("Sun, 06 Nov 1994 08:49:37 GMT", 0.0),  # a date in the past: retry now
        ("Sun, 06 Nov 99999 08:49:37 GMT", None),
    ],
)
def test_retry_after_reads_only_ascii_seconds_or_a_date(value, seconds):
    assert retry_after_seconds(value, now=1_000_000_000) == seconds


def test_a_far_future_retry_after_waits_only_up_to_the_policys_cap(site):
    policy = RetryPolicy(backoff_base=0.05, jitter=0.0, retry_after_max=2.0)
    site.inject("/x", raw(503, ["Retry-After: Fri, 31 Dec 9999 23:59:59 GMT", "Retry-After: 1", "Content-Length: 0"]))
    with open_url(site.url("/x"), timeout=2) as resp:
        wait = retry_after_seconds(resp.header("Retry-After"))
    assert wait is not None and wait > 1e9 and policy.delay(1, wait) == 2.0  # the first header, capped


@pytest.mark.parametrize("text", ["١٢", "\xb2", "1_0", "-1", "+1", "1.0", "", "9" * 19, "٠"])
def test_ascii_int_refuses_what_int_would_read(text):
    assert ascii_int(text) is None


def _secret() -> str:
    return "Basic " + base64.b64encode(b"curator:s3cret").decode()


def test_credentials_do_not_follow_a_redirect_to_another_host_or_port(site, tmp_path):
    with fault_site(tmp_path / "other", host="127.0.0.2") as other:
        other.put("/a.pdf", BODY)
        site.state.redirects["/a.pdf"] = (302, other.url("/a.pdf"))
        origin = site.base_url
        with open_url(site.url("/a.pdf"), timeout=2, authorization=(origin, _secret())) as resp:
            assert resp.read() == BODY
        [first] = site.to("/a.pdf")
        [second] = other.to("/a.pdf")
    assert first.headers.get("Authorization") == _secret()
    assert "Authorization" not in second.headers


def test_credentials_for_https_are_not_sent_when_a_redirect_goes_down_to_http(site, monkeypatch):
    """The first hop is https (here a plain connection standing in for TLS, so the same loopback server
    answers both); the server redirects to http:// on the same host and port. Before: the credentials
    matched by host:port alone and went out in clear text."""
    monkeypatch.setattr(http.client, "HTTPSConnection", lambda host, port, timeout, context: http.client.HTTPConnection(host, port, timeout=timeout))
    site.put("/a.pdf", BODY)
    host_port = site.base_url.removeprefix("http://")
    site.state.redirects["/start"] = (302, f"http://{host_port}/a.pdf")
    with open_url(f"https://{host_port}/start", timeout=2, authorization=(f"https://{host_port}", _secret())) as resp:
        assert resp.read() == BODY
    [start] = site.to("/start")
    [plain] = site.to("/a.pdf")
    assert start.headers.get("Authorization") == _secret()
    assert "Authorization" not in plain.headers


def test_credentials_stay_on_their_origin_across_a_same_origin_redirect(site):
    site.put("/a.pdf", BODY)
    site.state.redirects["/start"] = (301, "/a.pdf")
    with open_url(site.url("/start"), timeout=2, authorization=(site.base_url, _secret())) as resp:
        assert resp.read() == BODY
    assert [r.headers.get("Authorization") for r in site.state.requests] == [_secret(), _secret()]


def test_a_status_error_with_a_retry_after_in_arabic_digits_falls_back_to_the_backoff(site):
    site.inject("/x", raw(503, [f"Retry-After: {_wire('٣٦٠٠')}", "Content-Length: 0"]), status(200))
    with open_url(site.url("/x"), timeout=2) as resp:
        assert resp.status == 503 and retry_after_seconds(resp.header("Retry-After")) is None
