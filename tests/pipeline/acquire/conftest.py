"""Fixtures for the download stage: a live fault-injecting site on 127.0.0.1 and fast network options."""
from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.acquire import DownloadOptions
from pipeline.acquire import RetryPolicy

from .support import Site, fault_site, make_pdf


@pytest.fixture
def site(tmp_path: Path):
    with fault_site(tmp_path / "site") as running:
        yield running


@pytest.fixture
def raw_dir(tmp_path: Path) -> Path:
    return tmp_path / "project" / "raw"


@pytest.fixture
def fast() -> DownloadOptions:
    """Short timeouts and millisecond backoff (no jitter, so waits are predictable); save after every file."""
    return DownloadOptions(
        timeout=0.5,
        retry=RetryPolicy(attempts=4, backoff_base=0.05, backoff_max=0.5, jitter=0.0, retry_after_max=2.0),
        checkpoint_interval=0.0,
    )


# The 2023 year page of the test site: two sheets, one key, and links no rule claims.
SHEETS = {
    "/files/2023/MAT-100-2305.pdf": make_pdf("Matematyka 2023 arkusz"),
    "/files/2023/POL-100-2305.pdf": make_pdf("Język polski 2023 arkusz".replace("ę", "e")),
    "/files/2023/MAT-100-2305-zasady.pdf": make_pdf("Matematyka 2023 zasady oceniania"),
}


@pytest.fixture
def year_site(site: Site) -> Site:
    for path, data in SHEETS.items():
        site.put(path, data)
    site.page(
        "/arkusze/2023/index.html",
        [
            "../../files/2023/MAT-100-2305.pdf",  # relative
            "/files/2023/POL-100-2305.pdf",  # root-relative
            site.url("/files/2023/MAT-100-2305-zasady.pdf") + "#page=1",  # absolute, with a fragment
            "/files/2023/MAT-100-2305.pdf",  # a repeat: fetched once
            "/o-nas/",  # pages no rule claims
            "/files/2023/informator.pdf",
            "mailto:biuro@example.org",
        ],
    )
    return site
