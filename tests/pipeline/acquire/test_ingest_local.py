"""ingest_local: `--from DIR` into the same content-addressed raw/ and manifest as downloads."""
from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from pipeline.acquire import ingest_local
from pipeline.acquire import Manifest

from .support import make_pdf, make_spec

LOCAL_RULES = [
    {"role": "key", "pattern": r"^(?P<year>\d{4})/(?P<sheet_code>[A-Z]+)_klucz\.pdf$"},
    {"role": "sheet", "pattern": r"^(?P<year>\d{4})/(?P<sheet_code>[A-Z]+)\.pdf$"},
    {"role": "sheet", "pattern": r"^archiwum/(?P<sheet_code>[A-Z]+)\.pdf$", "facts": {"year": "2010"}},
]


@pytest.fixture
def archive(tmp_path: Path) -> Path:
    folder = tmp_path / "archive"
    files = {
        "2024/MAT.pdf": make_pdf("MAT 2024"),
        "2024/MAT_klucz.pdf": make_pdf("MAT 2024 key"),
        "archiwum/FIZ.pdf": make_pdf("FIZ 2010"),
        "2024/notes.txt": b"not claimed by any rule",
        "README.md": b"# archive",
        "2024/POL.pdf": b"<html><body>saved login page</body></html>",
    }
    for name, data in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(data)
    return folder


def test_matching_files_are_copied_content_addressed_with_file_uris(archive, tmp_path):
    raw_dir = tmp_path / "project" / "raw"
    spec = make_spec(local_files=LOCAL_RULES)

    result = ingest_local(spec, archive, raw_dir, progress=False)

    assert result.unmatched == 2
    ok = {Path(e.url.removeprefix("file://")).relative_to(archive.resolve()).as_posix(): e for e in result.ok}
    assert sorted(ok) == ["2024/MAT.pdf", "2024/MAT_klucz.pdf", "archiwum/FIZ.pdf"]
    mat = ok["2024/MAT.pdf"]
    data = (archive / "2024/MAT.pdf").read_bytes()
    assert mat.status == "local" and mat.url == (archive / "2024/MAT.pdf").resolve().as_uri()
    assert mat.path == f"raw/{hashlib.sha256(data).hexdigest()}.pdf" and (raw_dir.parent / mat.path).read_bytes() == data
    assert ok["2024/MAT_klucz.pdf"].role == "key"
    assert ok["archiwum/FIZ.pdf"].facts == {"year": "2010", "sheet_code": "FIZ"}
    manifest = Manifest.load(raw_dir / "manifest.jsonl")
    assert len(manifest) == 4 and manifest.get(mat.url) == mat


def test_a_local_file_that_is_not_a_pdf_is_rejected_and_quarantined(archive, tmp_path):
    raw_dir = tmp_path / "raw"
    result = ingest_local(make_spec(local_files=LOCAL_RULES), archive, raw_dir, progress=False)

    [bad] = result.problems
    assert bad.status == "rejected" and str(archive / "2024/POL.pdf") in bad.error and "HTML page, not a PDF" in bad.error
    assert len(list((raw_dir / "quarantine").glob("*.html"))) == 1


def test_ingesting_twice_keeps_one_copy_and_one_entry_per_file(archive, tmp_path):
    raw_dir = tmp_path / "raw"
    spec = make_spec(local_files=LOCAL_RULES)
    ingest_local(spec, archive, raw_dir, progress=False)
    ingest_local(spec, archive, raw_dir, progress=False)
    assert len(list(raw_dir.glob("*.pdf"))) == 3
    assert len(Manifest.load(raw_dir / "manifest.jsonl")) == 4


def test_a_spec_without_local_rules_or_a_missing_folder_is_a_clear_error(archive, tmp_path):
    with pytest.raises(ValueError, match="no `local` section"):
        ingest_local(make_spec(), archive, tmp_path / "raw")
    with pytest.raises(NotADirectoryError, match="nowhere"):
        ingest_local(make_spec(local_files=LOCAL_RULES), tmp_path / "nowhere", tmp_path / "raw")


CORPUS = Path("/work/shared/corpus")


@pytest.mark.corpus
@pytest.mark.parametrize(("spec_name", "folder"), [("pl_cke_matura_informatyka", "pl_cke_matura_informatyka"), ("sk_maturita_sjl", "sk_nucem_maturita_sjl")])
def test_real_exam_folders_ingest_byte_for_byte(tmp_path, spec_name, folder):
    if not (CORPUS / folder).is_dir():
        pytest.skip("the shared exam corpus is not on this machine")
    from pipeline.specs import load_spec

    sums = {}
    for line in (CORPUS / "MANIFEST.sha256").read_text().splitlines():
        digest, _, name = line.partition("  ")
        sums[name.strip().removeprefix("./")] = digest.strip().lower()

    result = ingest_local(load_spec(spec_name), CORPUS / folder, tmp_path / "raw", progress=False)

    assert result.ok and not result.problems
    roles = {e.role for e in result.ok}
    assert roles == {"sheet", "key"}
    for entry in result.ok:
        relative = Path(entry.url.removeprefix("file://")).relative_to(CORPUS.resolve()).as_posix()
        assert entry.sha256 == sums[relative], relative
        assert entry.facts["year"].isdigit()
