"""A file over the size cap is stopped while it streams, stored nowhere, and reported with its URL."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from pipeline.acquire import DownloadOptions, download_source

from .support import endless, make_pdf, make_spec

MAT = "/files/2023/MAT-100-2305.pdf"
MIB = 1024 * 1024


def fetch_one(site, raw_dir, options, **spec_extra):
    spec = make_spec(url_templates=["{base_url}" + MAT], download_extra=spec_extra)
    [entry] = download_source(spec, raw_dir, base_url=site.base_url, progress=False, options=options).entries
    return entry


def stored_files(raw_dir: Path) -> list[str]:
    return sorted(p.relative_to(raw_dir).as_posix() for p in raw_dir.rglob("*") if p.is_file() and p.name != "manifest.jsonl")


def test_a_body_without_content_length_is_cut_off_at_the_spec_cap(site, raw_dir, fast):
    site.inject(MAT, endless())

    entry = fetch_one(site, raw_dir, fast, max_file_mb=0.25)

    assert entry.status == "rejected"
    assert entry.error.startswith(site.url(MAT)) and "larger than the 0.25 MiB cap (download.max_file_mb)" in entry.error
    assert "nothing stored" in entry.error
    assert stored_files(raw_dir) == []  # neither raw/<sha>.pdf nor a partial to resume
    [request] = site.to(MAT)  # refused, not retried
    assert request.body_bytes < 16 * MIB  # the server was cut off long before its 64 MiB


def test_an_announced_content_length_over_the_cap_is_refused_before_the_body(site, raw_dir, fast):
    site.put(MAT, make_pdf("big sheet") + b"%" + b"0" * 200_000)  # trailing comment bytes: still a PDF, 0.2 MiB

    entry = fetch_one(site, raw_dir, fast, max_file_mb=0.05)

    assert entry.status == "rejected" and site.url(MAT) in entry.error
    assert "announced" in entry.error and "Content-Length" in entry.error
    assert stored_files(raw_dir) == []


def test_the_global_cap_applies_when_the_spec_allows_more(site, raw_dir, fast):
    site.inject(MAT, endless())

    entry = fetch_one(site, raw_dir, replace(fast, max_file_bytes=MIB // 4), max_file_mb=100)

    assert entry.status == "rejected" and "larger than the 0.25 MiB cap ($EXAMCORPUS_MAX_DOWNLOAD_MB)" in entry.error
    assert stored_files(raw_dir) == []


def test_the_global_cap_comes_from_the_environment(site, raw_dir, fast, monkeypatch):
    monkeypatch.setenv("EXAMCORPUS_MAX_DOWNLOAD_MB", "0.5")
    options = replace(DownloadOptions(), timeout=fast.timeout, retry=fast.retry, checkpoint_interval=0.0)
    assert options.max_file_bytes == MIB // 2
    site.inject(MAT, endless())

    entry = fetch_one(site, raw_dir, options)

    assert entry.status == "rejected" and "larger than the 0.5 MiB cap ($EXAMCORPUS_MAX_DOWNLOAD_MB)" in entry.error


def test_a_bad_global_cap_is_a_clear_error(monkeypatch):
    monkeypatch.setenv("EXAMCORPUS_MAX_DOWNLOAD_MB", "lots")
    with pytest.raises(ValueError, match=r"EXAMCORPUS_MAX_DOWNLOAD_MB='lots': give a positive number of MiB"):
        DownloadOptions()


def test_a_file_under_the_cap_downloads_whole(site, raw_dir, fast):
    data = make_pdf("small sheet") + b"%" + b"0" * 100_000
    site.put(MAT, data)

    entry = fetch_one(site, raw_dir, fast, max_file_mb=1)

    assert entry.status == "downloaded" and entry.bytes == len(data)
