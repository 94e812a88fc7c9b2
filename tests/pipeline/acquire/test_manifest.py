"""Manifest: JSON Lines at raw/manifest.jsonl, keyed by URL, saved atomically."""
from __future__ import annotations

import json
import multiprocessing
import os
import signal
import time
from pathlib import Path

import pytest

from pipeline.acquire import Manifest, ManifestEntry, ManifestError


def entry(url: str, spec: str = "cke_e8_mat", status: str = "downloaded", sha: str = "ab" * 32) -> ManifestEntry:
    return ManifestEntry(
        url=url,
        final_url=url,
        spec=spec,
        role="sheet",
        facts={"year": "2024", "sheet_code": "OMAP"},
        status=status,  # type: ignore[arg-type]
        sha256=sha,
        bytes=1234,
        path=f"raw/{sha}.pdf",
        fetched_at="2026-11-29T12:00:00+00:00",
    )


def test_a_missing_manifest_loads_empty(tmp_path: Path):
    manifest = Manifest.load(tmp_path / "raw" / "manifest.jsonl")
    assert len(manifest) == 0 and manifest.get("https://x/a.pdf") is None


def test_entries_round_trip_through_the_file(tmp_path: Path):
    path = tmp_path / "raw" / "manifest.jsonl"
    manifest = Manifest.load(path)
    manifest.upsert(entry("https://cke.gov.pl/a.pdf"))
    manifest.upsert(entry("file:///data/ząb.pdf", spec="local_spec", status="local"))
    manifest.save()

    again = Manifest.load(path)

    assert [e.url for e in again] == ["https://cke.gov.pl/a.pdf", "file:///data/ząb.pdf"]
    assert again.get("https://cke.gov.pl/a.pdf") == manifest.get("https://cke.gov.pl/a.pdf")
    assert [e.url for e in again.entries(spec="local_spec")] == ["file:///data/ząb.pdf"]
    assert all(json.loads(line) for line in path.read_text(encoding="utf-8").splitlines())


def test_upsert_replaces_the_entry_for_the_same_url_in_place(tmp_path: Path):
    manifest = Manifest(tmp_path / "m.jsonl", [entry("u1"), entry("u2"), entry("u3")])
    manifest.upsert(entry("u2", status="not_modified"))
    assert [e.url for e in manifest] == ["u1", "u2", "u3"]
    assert manifest.get("u2").status == "not_modified" and len(manifest) == 3


def test_unknown_fields_from_a_newer_version_are_ignored(tmp_path: Path):
    path = tmp_path / "m.jsonl"
    data = entry("u1").to_dict() | {"added_later": 1}
    path.write_text(json.dumps(data) + "\n")
    assert Manifest.load(path).get("u1").sha256 == "ab" * 32


@pytest.mark.parametrize(
    ("line", "problem"),
    [("{not json", "not a JSON object"), ("[1, 2]", "expected a JSON object"), ('{"url": "u"}', "not a manifest entry")],
)
def test_a_damaged_line_is_an_error_naming_file_and_line(tmp_path: Path, line: str, problem: str):
    path = tmp_path / "m.jsonl"
    path.write_text(json.dumps(entry("u1").to_dict()) + "\n" + line + "\n")
    with pytest.raises(ManifestError, match=rf"m\.jsonl:2: {problem}"):
        Manifest.load(path)


def test_save_leaves_no_temporary_files_and_ignores_stale_ones(tmp_path: Path):
    path = tmp_path / "m.jsonl"
    (tmp_path / ".m.jsonl.stale.tmp").write_text("half a line")  # left by a killed writer
    manifest = Manifest(path, [entry("u1")])
    manifest.save()
    assert Manifest.load(path).get("u1") is not None
    assert sorted(p.name for p in tmp_path.iterdir()) == [".m.jsonl.stale.tmp", "m.jsonl"]


def _save_forever(path: str) -> None:
    manifest = Manifest(Path(path))
    number = 0
    while True:
        number += 1
        manifest.upsert(entry(f"https://example.org/{number}.pdf"))
        manifest.save()


def test_a_writer_killed_at_any_moment_leaves_a_whole_manifest(tmp_path: Path):
    path = tmp_path / "m.jsonl"
    for delay in (0.05, 0.13, 0.21):
        writer = multiprocessing.get_context("spawn").Process(target=_save_forever, args=(str(path),))
        writer.start()
        deadline = time.monotonic() + 60  # spawn start-up takes seconds on a loaded machine
        while not path.exists() and time.monotonic() < deadline:
            time.sleep(0.01)
        time.sleep(delay)  # then some saves
        os.kill(writer.pid, signal.SIGKILL)
        writer.join()
        loaded = Manifest.load(path)  # raises on any half-written line
        urls = [e.url for e in loaded]
        assert urls == [f"https://example.org/{n}.pdf" for n in range(1, len(urls) + 1)] and urls
