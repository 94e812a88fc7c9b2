"""What `--from DIR` will not read (symbolic links leading out of it), and the note every rejected file gets."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from pipeline.acquire import download_source, ingest_local

from .support import make_pdf, make_spec

RULES = [{"role": "sheet", "pattern": r"^(?:.*/)?(?P<year>\d{4})_(?P<sheet_code>[A-Z]+)\.pdf$"}]


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    folder = tmp_path / "season"
    (folder / "2024").mkdir(parents=True)
    (folder / "2024" / "2024_MAT.pdf").write_bytes(make_pdf("MAT 2024"))
    return folder


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """Files beside the season folder, not in it: a private sheet and a folder of them."""
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / "secret").mkdir(parents=True)
    (elsewhere / "2024_FIZ.pdf").write_bytes(make_pdf("not part of the season"))
    (elsewhere / "secret" / "2024_CHE.pdf").write_bytes(make_pdf("nor this"))
    return elsewhere


def ingest(folder: Path, tmp_path: Path):
    return ingest_local(make_spec(local_files=RULES), folder, tmp_path / "project" / "raw", progress=False)


def names(result) -> list[str]:
    return sorted(e.url.rsplit("/", 1)[-1] for e in result.entries)


def test_a_symlink_to_a_file_outside_the_folder_is_refused_and_said(folder, outside, tmp_path):
    link = folder / "2024" / "2024_FIZ.pdf"
    link.symlink_to(outside / "2024_FIZ.pdf")

    result = ingest(folder, tmp_path)

    assert names(result) == ["2024_MAT.pdf"]
    assert result.notes == [f"{link}: symbolic link to {outside / '2024_FIZ.pdf'}, outside the --from folder {folder}; not read"]


def test_a_symlinked_folder_is_not_entered(folder, outside, tmp_path):
    (folder / "more").symlink_to(outside / "secret", target_is_directory=True)

    result = ingest(folder, tmp_path)

    assert names(result) == ["2024_MAT.pdf"]
    assert result.notes == [f"{folder / 'more'}: symbolic link to a folder ({outside / 'secret'}) not followed"]
    assert [note.code.code for note in result.notes] == ["acquire.folder_entry_skipped"]


def test_a_symlink_that_stays_inside_the_folder_is_read_under_its_own_name(folder, tmp_path):
    (folder / "2023").mkdir()
    os.symlink("../2024/2024_MAT.pdf", folder / "2023" / "2023_MAT.pdf")  # one file shelved under two years

    result = ingest(folder, tmp_path)

    assert names(result) == ["2023_MAT.pdf", "2024_MAT.pdf"] and result.notes == []
    assert {e.facts["year"] for e in result.entries} == {"2023", "2024"}


def test_a_file_rejected_at_ingest_gets_a_json_note_beside_its_quarantined_copy(folder, tmp_path):
    bad = folder / "2024" / "2024_POL.pdf"
    bad.write_bytes(b"<html><body>saved login page</body></html>")

    [entry] = ingest(folder, tmp_path).problems

    quarantine = tmp_path / "project" / "raw" / "quarantine"
    note = json.loads((quarantine / f"{entry.sha256}.json").read_text(encoding="utf-8"))
    assert note == {
        "url": bad.resolve().as_uri(), "sha256": entry.sha256, "bytes": entry.bytes, "content_type": None,
        "reason": "HTML page, not a PDF", "stage": "acquire", "file": f"{entry.sha256}.html",
    }
    assert (quarantine / note["file"]).read_bytes() == bad.read_bytes()


def test_a_download_rejected_as_not_a_pdf_gets_a_json_note_too(site, tmp_path, fast):
    path = "/files/2023/MAT-100-2305.pdf"
    site.put(path, b"<!DOCTYPE html><html><body>Przerwa techniczna</body></html>")
    spec = make_spec(url_templates=["{base_url}" + path])

    [entry] = download_source(spec, tmp_path / "raw", base_url=site.base_url, progress=False, options=fast).entries

    assert entry.status == "rejected"
    note = json.loads((tmp_path / "raw" / "quarantine" / f"{entry.sha256}.json").read_text(encoding="utf-8"))
    assert note["url"] == site.url(path) and note["reason"].startswith("HTML page, not a PDF")
    assert note["content_type"] == entry.content_type
