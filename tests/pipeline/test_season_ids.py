"""Record ids are unique across sheets by construction (issue 25, case 16): where the spec finds no
sheet code, the file rule's facts (here the qualification) tell the sheets' records apart; two sheets
whose records still get the same ids are an error in the report, never one sheet written over another.

Real generated text-layer PDFs and real `examcorpus extract` runs."""
from __future__ import annotations

import json
from pathlib import Path

import pyarrow.parquet as pq

from pipeline.cli import main as examcorpus
from tests.pipeline.season_sheets import KEY_NAME, SHEET_NAME, key_pdf, questions_about, sheet_pdf

QUALIFICATIONS = [f"kw{n:02d}" for n in range(1, 21)]
NUMBERS = [str(n) for n in range(1, 41)]
TITLE = "EGZAMIN ZAWODOWY · styczeń 2024 · część pisemna"  # no sheet code printed: the spec finds none


def extract(root: Path, folder: Path, *extra: str) -> int:
    return examcorpus(["extract", "--source", "sample_pl", "--from", str(folder), "--root", str(root),
                       "--no-progress", "--workers", "2", *extra])


def curated_rows(root: Path) -> list[dict]:
    return pq.read_table(root / "curated" / "sample_pl.parquet").to_pylist()


def report_files(root: Path) -> dict[str, dict]:
    data = json.loads((root / "curated" / "reports" / "sample_pl.json").read_text(encoding="utf-8"))
    return {f["url"]: f for f in data["files"]}


def test_twenty_sheets_without_a_sheet_code_keep_all_800_questions_under_unique_ids(tmp_path, project_root):
    folder = tmp_path / "season"
    folder.mkdir()
    for qualification in QUALIFICATIONS:
        sheet_pdf(folder / SHEET_NAME.format(q=qualification, year=2024, session="styczen"), TITLE,
                  questions_about(qualification, NUMBERS))
        key_pdf(folder / KEY_NAME.format(q=qualification, year=2024, session="styczen"),
                [(n, "ABCD"[int(n) % 4]) for n in NUMBERS])
    assert extract(project_root, folder, "--strict") == 0

    rows = curated_rows(project_root)
    assert len(rows) == 800 and len({r["id"] for r in rows}) == 800
    assert all(r["answer"] == "ABCD"[int(r["number"]) % 4] for r in rows)
    kw07 = [r for r in rows if r["source_url"].endswith(SHEET_NAME.format(q="kw07", year=2024, session="styczen"))]
    assert {r["id"] for r in kw07} == {f"sample_pl:2024:styczen:kw07:{n}" for n in NUMBERS}
    assert all("o temacie kw07" in r["question"] for r in kw07) and all(r["sheet_code"] is None for r in kw07)


def test_an_id_does_not_change_when_another_sheet_is_added_later(tmp_path, project_root):
    folder = tmp_path / "season"
    folder.mkdir()
    sheet_pdf(folder / SHEET_NAME.format(q="kw01", year=2024, session="styczen"), TITLE, questions_about("kw01", ["1", "2"]))
    assert extract(project_root, folder) == 0
    before = {r["id"] for r in curated_rows(project_root)}
    sheet_pdf(folder / SHEET_NAME.format(q="kw02", year=2024, session="styczen"), TITLE, questions_about("kw02", ["1", "2"]))
    assert extract(project_root, folder) == 0
    after = {r["id"] for r in curated_rows(project_root)}
    assert before == {"sample_pl:2024:styczen:kw01:1", "sample_pl:2024:styczen:kw01:2"} and before < after


def test_two_sheets_whose_ids_still_agree_are_an_error_and_neither_is_written_over(tmp_path, project_root):
    """The same file name in two subfolders: the same facts, other questions."""
    folder = tmp_path / "season"
    name = SHEET_NAME.format(q="kw01", year=2024, session="styczen")
    sheet_pdf(folder / "first" / name, TITLE, questions_about("pierwszy", NUMBERS[:5]))
    sheet_pdf(folder / "second" / name, TITLE, questions_about("drugi", NUMBERS[:5]))

    assert extract(project_root, folder, "--strict") == 1
    assert not (project_root / "curated" / "sample_pl.parquet").exists()

    assert extract(project_root, folder) == 0
    rows = curated_rows(project_root)
    assert len(rows) == 5 and all("o temacie pierwszy" in r["question"] for r in rows)
    files = report_files(project_root)
    [second] = [f for url, f in files.items() if url.endswith(f"second/{name}")]
    [error] = [e for e in second["errors"] if e.startswith("error: ")]
    assert "5 record id(s) of this sheet are also produced by" in error and f"first/{name}" in error
    assert "left out of curated data" in error
    [first] = [f for url, f in files.items() if url.endswith(f"first/{name}")]
    assert not any(e.startswith("error: ") for e in first["errors"])


def test_a_copy_of_a_sheet_in_another_subfolder_is_curated_once_with_a_note(tmp_path, project_root):
    folder = tmp_path / "season"
    name = SHEET_NAME.format(q="kw01", year=2024, session="styczen")
    sheet_pdf(folder / "a-original" / name, TITLE, questions_about("pierwszy", NUMBERS[:5]))
    (folder / "b-copy").mkdir()
    (folder / "b-copy" / name).write_bytes((folder / "a-original" / name).read_bytes())
    assert extract(project_root, folder) == 0
    rows = curated_rows(project_root)
    assert len(rows) == 5 and all(f"a-original/{name}" in r["source_url"] for r in rows)
    [copy] = [f for url, f in report_files(project_root).items() if url.endswith(f"b-copy/{name}")]
    assert not any(e.startswith("error: ") for e in copy["errors"])
    assert any(n.startswith("the same file as ") and f"a-original/{name}" in n for n in copy["notes"])


def test_records_that_take_the_ids_of_another_files_earlier_records_say_so(tmp_path, project_root):
    name = SHEET_NAME.format(q="kw01", year=2024, session="styczen")
    sheet_pdf(tmp_path / "first" / name, TITLE, questions_about("pierwszy", NUMBERS[:3]))
    sheet_pdf(tmp_path / "second" / name, TITLE, questions_about("drugi", NUMBERS[:3]))
    assert extract(project_root, tmp_path / "first") == 0
    assert extract(project_root, tmp_path / "second") == 0
    assert all("o temacie drugi" in r["question"] for r in curated_rows(project_root))
    [second] = report_files(project_root).values()
    [note] = [n for n in second["notes"] if n.startswith("replaces 3 record(s) curated earlier from another file")]
    assert f"first/{name}" in note
