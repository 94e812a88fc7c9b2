"""The extract stage's summaries and parse's results are written atomically but without an fsync each: an
entry a power cut left unreadable (renamed into place, its bytes never on disk: empty, cut short or zeroed)
is taken as absent, worked out again and written whole. The documents they stand on, the downloaded files
and the curated output stay durable."""
from __future__ import annotations

import json
import os
from pathlib import Path

from pipeline.devkit.sample.archive import build_archive_site
from pipeline.devkit.serve import serve_directory
from pipeline.season import RunOptions, run_source
from pipeline.specs import load_spec


def _entries(root: Path, stage: str) -> list[Path]:
    return sorted((root / "raw" / "cache" / stage).rglob("*.json"))


def test_an_entry_a_power_cut_left_unreadable_is_worked_out_again(tmp_path):
    build_archive_site(tmp_path / "site", 2, scanned_share=0.0)
    spec = load_spec("sample_pl")
    root = tmp_path / "root"
    with serve_directory(tmp_path / "site") as base_url:
        options = RunOptions(root=root, base_url=base_url, executor="inline", show_progress=False)
        first = run_source(spec, options)
        summaries, parsed = _entries(root, "extract"), _entries(root, "parse")
        whole = {path: path.read_bytes() for path in [*summaries, *parsed]}
        assert len(summaries) == 4 and len(parsed) == 2  # two sheets and their keys; a parse a sheet
        # What a power cut leaves of entries renamed into place before their bytes reached the disk.
        summaries[0].write_bytes(b"")
        summaries[1].write_bytes(whole[summaries[1]][: len(whole[summaries[1]]) // 2])
        parsed[0].write_bytes(b"\0" * len(whole[parsed[0]]))
        parsed[1].write_bytes(whole[parsed[1]][:-1])
        first.curated_path.unlink()  # so the next run reads its caches instead of finding nothing new
        again = run_source(spec, options)
    assert [q.to_row() for q in again.questions] == [q.to_row() for q in first.questions]
    for path, data in whole.items():  # each written whole again, as the first run wrote it
        assert json.loads(path.read_bytes()) == json.loads(data)


def test_a_run_fsyncs_its_downloads_and_documents_but_not_summaries_or_parse_results(tmp_path, monkeypatch):
    synced: list[str] = []
    fsync = os.fsync

    def counted(fd: int) -> None:
        synced.append(os.readlink(f"/proc/self/fd/{fd}"))
        fsync(fd)

    monkeypatch.setattr(os, "fsync", counted)
    build_archive_site(tmp_path / "site", 2, scanned_share=0.0)
    root = tmp_path / "root"
    with serve_directory(tmp_path / "site") as base_url:
        run_source(load_spec("sample_pl"), RunOptions(root=root, base_url=base_url, executor="inline", show_progress=False))
    cache = root / "raw" / "cache"

    def under(folder: Path) -> int:
        return sum(1 for path in synced if Path(path).is_relative_to(folder))

    assert under(cache / "documents") == 4  # one a file read
    assert under(cache / "extract") == 0 and under(cache / "parse") == 0
    assert under(root / "raw") - under(cache) >= 4  # the downloaded files, and the manifest
    assert under(root / "curated") >= 1
