"""A `--base-url` with user:password@ authenticates to that host and is never echoed or stored."""
from __future__ import annotations

import base64

from pipeline.cli import main as examcorpus

SECRET = "s3cret-pass"
SHEET = "/zawodowy/ele02-2023-czerwiec-egzamin-zawodowy-pisemny.pdf"  # claimed by sample_pl, absent: a 404


def test_credentials_in_base_url_are_sent_as_basic_auth_and_redacted_everywhere(site, tmp_path, capsys):
    site.page("/index.html", [SHEET])
    host_port = site.base_url.removeprefix("http://")
    root = tmp_path / "project"

    examcorpus(["extract", "--source", "sample_pl", "--base-url", f"http://curator:{SECRET}@{host_port}",
                "--root", str(root), "--no-progress", "--workers", "1"])

    out = capsys.readouterr()
    assert SECRET not in out.out + out.err
    assert f"{site.base_url}{SHEET}" in out.out + out.err  # the 404 is reported, by its clean URL
    written = [p for p in root.rglob("*") if p.is_file()]
    assert written and not [p for p in written if SECRET.encode() in p.read_bytes()]
    [index] = site.to("/index.html")
    assert index.headers["Authorization"] == "Basic " + base64.b64encode(f"curator:{SECRET}".encode()).decode()
