"""Archives and odd entries an exam site or a season folder hands over: never unpacked, never blocking.

The attacks: a ZIP bomb (200 MiB of zeros in 200 KiB, and a ZIP holding ZIPs) and a TAR whose members are
named `../../escaped.pdf`, `/tmp/…` and a symbolic link to `/etc/passwd`, each served under a sheet's name
by the fault server and put in a `--from` folder; a named pipe and a link to `/dev/zero` under a sheet's
name in a `--from` folder. The pipeline reads PDFs only: an archive is refused by its first bytes,
quarantined as it came (not expanded), and nothing is written outside raw/.
"""
from __future__ import annotations

import io
import os
import tarfile
import threading
import zipfile
from pathlib import Path

import pytest

from pipeline.acquire import download_source, ingest_local

from .support import make_pdf, make_spec

RULES = [{"role": "sheet", "pattern": r"^(?:.*/)?(?P<year>\d{4})_(?P<sheet_code>[A-Z]+)\.pdf$"}]


def zip_bomb() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        with archive.open("2024_MAT.pdf", "w", force_zip64=True) as member:
            for _ in range(200):
                member.write(b"\0" * (1 << 20))
    return buffer.getvalue()


def nested_zip(inner: bytes, depth: int = 3) -> bytes:
    for level in range(depth):
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
            for copy in range(4):
                archive.writestr(f"level{level}-{copy}.zip", inner)
        inner = buffer.getvalue()
    return inner


def traversal_tar(escaped: Path) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as archive:
        for name in (f"../../{escaped.name}", str(escaped)):
            data = make_pdf("escaped")
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
        link = tarfile.TarInfo("2024_LNK.pdf")
        link.type, link.linkname = tarfile.SYMTYPE, "/etc/passwd"
        archive.addfile(link)
    return buffer.getvalue()


@pytest.fixture
def archives(tmp_path: Path) -> dict[str, bytes]:
    return {"2024_ZIP.pdf": zip_bomb(), "2024_NEST.pdf": nested_zip(zip_bomb()),
            "2024_TAR.pdf": traversal_tar(tmp_path / "escaped.pdf")}


def _nothing_escaped(tmp_path: Path) -> None:
    assert not (tmp_path / "escaped.pdf").exists() and not (tmp_path.parent / "escaped.pdf").exists()


def test_archives_in_a_season_folder_are_quarantined_as_they_came(tmp_path, archives):
    folder = tmp_path / "season"
    folder.mkdir()
    for name, data in archives.items():
        (folder / name).write_bytes(data)
    (folder / "2024_MAT.pdf").write_bytes(make_pdf("MAT 2024"))

    result = ingest_local(make_spec(local_files=RULES), folder, tmp_path / "project" / "raw", progress=False)

    by_name = {e.url.rsplit("/", 1)[-1]: e for e in result.entries}
    assert by_name["2024_MAT.pdf"].status == "local"
    assert "ZIP archive (or Office document), not a PDF" in by_name["2024_ZIP.pdf"].error
    assert "ZIP archive" in by_name["2024_NEST.pdf"].error and "not a PDF" in by_name["2024_TAR.pdf"].error
    quarantine = tmp_path / "project" / "raw" / "quarantine"
    kept = sorted(p.stat().st_size for p in quarantine.iterdir() if p.suffix != ".json")
    assert kept == sorted(len(data) for data in archives.values())  # as they came: nothing expanded
    _nothing_escaped(tmp_path)


def test_archives_served_under_a_sheets_url_are_refused_unexpanded(site, tmp_path, fast, archives):
    paths = []
    for name, data in archives.items():
        paths.append(f"/files/2023/{name[5:-4]}-100-2305.pdf")  # the sheet rule's URL
        site.put(paths[-1], data)
    spec = make_spec(url_templates=["{base_url}" + p for p in paths])

    entries = download_source(spec, tmp_path / "raw", base_url=site.base_url, progress=False, options=fast).entries

    assert [e.status for e in entries] == ["rejected"] * 3
    assert sum(p.stat().st_size for p in (tmp_path / "raw").rglob("*") if p.is_file() and p.suffix != ".json") \
        < 2 * sum(len(d) for d in archives.values())
    _nothing_escaped(tmp_path)


def test_a_named_pipe_under_a_sheets_name_is_said_and_not_read(tmp_path):
    """Before: skipped without a word (`is_file` is false for a pipe), the sheet silently missing from the run."""
    folder = tmp_path / "season"
    folder.mkdir()
    (folder / "2024_MAT.pdf").write_bytes(make_pdf("MAT 2024"))
    os.mkfifo(folder / "2024_FIZ.pdf")
    (folder / "2024_DEV.pdf").symlink_to("/dev/zero")

    done: list = []
    worker = threading.Thread(target=lambda: done.append(
        ingest_local(make_spec(local_files=RULES), folder, tmp_path / "project" / "raw", progress=False)), daemon=True)
    worker.start()
    worker.join(60)
    assert done, "the ingest blocked"
    [result] = done
    assert [e.url.rsplit("/", 1)[-1] for e in result.entries] == ["2024_MAT.pdf"]
    notes = sorted(str(n) for n in result.notes)
    assert notes == [f"{folder / '2024_DEV.pdf'}: symbolic link to /dev/zero, outside the --from folder {folder}; not read",
                     f"{folder / '2024_FIZ.pdf'}: not a regular file (a named pipe, a device or a socket); not read"]
