"""The HTTP client pieces: retry policy, Retry-After, per-host rate limiter, redirects, truncation."""
from __future__ import annotations

import random
import threading
from email.utils import formatdate

import pytest

from pipeline.acquire.httpclient import (
    HostRateLimiter,
    HttpError,
    HttpStatusError,
    RetryPolicy,
    TransferError,
    open_url,
    retry_after_seconds,
    retrying,
)

from .support import make_pdf, status, truncate_after


def test_backoff_doubles_up_to_the_cap():
    policy = RetryPolicy(backoff_base=1.0, backoff_max=5.0, jitter=0.0)
    assert [policy.delay(n) for n in range(1, 6)] == [1.0, 2.0, 4.0, 5.0, 5.0]


def test_jitter_spreads_waits_within_its_fraction():
    policy = RetryPolicy(backoff_base=2.0, jitter=0.25)
    rng = random.Random(7)
    waits = [policy.delay(1, rng=rng) for _ in range(200)]
    assert min(waits) >= 1.5 and max(waits) <= 2.5 and len(set(waits)) > 100


def test_a_longer_retry_after_wins_up_to_its_cap():
    policy = RetryPolicy(backoff_base=1.0, jitter=0.0, retry_after_max=30.0)
    assert policy.delay(1, retry_after=10.0) == 10.0
    assert policy.delay(1, retry_after=0.2) == 1.0
    assert policy.delay(1, retry_after=3600.0) == 30.0


def test_retry_after_reads_seconds_and_http_dates():
    assert retry_after_seconds("120") == 120.0
    assert retry_after_seconds(formatdate(1_000_060, usegmt=True), now=1_000_000) == pytest.approx(60.0)
    assert retry_after_seconds("soon") is None and retry_after_seconds(None) is None


@pytest.mark.parametrize(("error", "retried"), [(HttpStatusError("u", 503), True), (HttpStatusError("u", 429), True), (TransferError("u", "reset"), True), (HttpStatusError("u", 404), False), (HttpStatusError("u", 401), False), (HttpError("u", "bad URL"), False)])
def test_only_transient_failures_are_retried(error, retried):
    calls: list[int] = []
    slept: list[float] = []

    def once(attempt: int) -> str:
        calls.append(attempt)
        if attempt < 3:
            raise error
        return "done"

    policy = RetryPolicy(attempts=5, backoff_base=1.0, jitter=0.0)
    if retried:
        assert retrying(once, policy, sleep=slept.append) == "done"
        assert calls == [1, 2, 3] and slept == [1.0, 2.0]
    else:
        with pytest.raises(type(error)):
            retrying(once, policy, sleep=slept.append)
        assert calls == [1] and slept == []


class FakeClock:
    """Time that only moves when the test says so; sleeps are recorded, not slept."""

    def __init__(self) -> None:
        self.now = 0.0
        self.slept: list[float] = []

    def time(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)


def test_rate_limiter_spaces_requests_per_host_and_not_across_hosts():
    clock = FakeClock()
    limiter = HostRateLimiter(4.0, clock=clock.time, sleep=clock.sleep)
    waits = [limiter.acquire("cke.gov.pl") for _ in range(4)]
    assert waits == [0.0, 0.25, 0.5, 0.75] and clock.slept == [0.25, 0.5, 0.75]
    assert limiter.acquire("static2.cke.gov.pl") == 0.0
    clock.now = 10.0  # long idle: no backlog carried over
    assert limiter.acquire("cke.gov.pl") == 0.0


def test_rate_limiter_hands_threads_distinct_slots():
    clock = FakeClock()
    limiter = HostRateLimiter(50.0, clock=clock.time, sleep=clock.sleep)
    waits: list[float] = []
    lock = threading.Lock()

    def worker() -> None:
        for _ in range(5):
            wait = limiter.acquire("h")
            with lock:
                waits.append(round(wait, 6))

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(waits) == [round(n * 0.02, 6) for n in range(20)]  # one 20 ms slot each, none shared


def test_open_url_follows_relative_and_absolute_redirects(site):
    site.put("/final.pdf", b"%PDF-1.4 x")
    site.state.redirects["/start"] = (307, "/middle")
    site.state.redirects["/middle"] = (308, site.url("/final.pdf"))
    with open_url(site.url("/start"), {"X-Probe": "1"}, timeout=2) as resp:
        assert resp.status == 200 and resp.final_url == site.url("/final.pdf") and resp.read() == b"%PDF-1.4 x"
    assert [r.headers.get("X-Probe") for r in site.state.requests] == ["1", "1", "1"]  # headers travel every hop


def test_open_url_limits_redirects(site):
    for n in range(5):
        site.state.redirects[f"/r{n}"] = (302, f"/r{n + 1}")
    with pytest.raises(HttpError, match="more than 3 redirects"):
        open_url(site.url("/r0"), timeout=2, max_redirects=3)


def test_a_body_shorter_than_content_length_raises_truncation(site):
    data = make_pdf("x")
    site.put("/a.pdf", data)
    site.inject("/a.pdf", truncate_after(100))
    with open_url(site.url("/a.pdf"), timeout=2) as resp:
        received = b""
        with pytest.raises(TransferError, match=f"got 100 of {len(data)} bytes"):
            for chunk in resp.iter_chunks():
                received += chunk
    assert received == data[:100]


def test_refused_connections_are_transfer_errors(site):
    with pytest.raises(TransferError, match="connection failed"):
        open_url("http://127.0.0.1:9/", timeout=1)


def test_only_http_urls_are_fetched():
    with pytest.raises(HttpError, match="only http and https"):
        open_url("ftp://example.org/a.pdf", timeout=1)


def test_the_status_is_returned_for_the_caller_to_judge(site):
    site.inject("/x", status(503, retry_after="7"))
    with open_url(site.url("/x"), timeout=2) as resp:
        assert resp.status == 503 and resp.header("Retry-After") == "7"
