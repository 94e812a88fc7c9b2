"""Curated work stored under an id that a re-run no longer produces (issue 27/29, nothing lost silently).

A Greek sheet's numbers read in Latin (`A1`, the embedded sample's scan before numbers were written in their page's
script) gave ids `…:A1`; the same sheet now curates `…:Α1`. A curator's correction stored under the old id follows
the question to the id that is the same with look-alike letters folded, from the same sheet; one whose id folds to
no record is said in the report and stays stored. Real `examcorpus extract` runs over the embedded sample's
text-layer Greek sheet and its key.
"""
from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from pipeline.cli import main as examcorpus
from pipeline.languages import in_script
from pipeline.records import questions_to_table
from pipeline.renames import OVERRIDES_FILE, RENAMES_FILE
from tests.pipeline.test_season import curated

GREEK_SHEET = "panellinies/2023/GEL/pliroforiki/them_plir_gel_2023.pdf"
GREEK_KEY = "panellinies/2023/GEL/pliroforiki/apant_plir_gel_2023.pdf"


@pytest.fixture
def greek_folder(tmp_path, sample_site) -> Path:
    folder = tmp_path / "season_el"
    for name in (GREEK_SHEET, GREEK_KEY):
        target = folder / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(sample_site / name, target)
    return folder


def extract(root: Path, folder: Path) -> int:
    """A strict run: a correction carried or left stored is a note to read, no problem that fails it."""
    return examcorpus(["extract", "--source", "sample_el", "--from", str(folder), "--root", str(root), "--no-progress",
                       "--workers", "1", "--strict"])


def in_latin(text: str) -> str:
    return in_script(text, "Latin")


def curated_in_latin(root: Path) -> dict[str, str]:
    """Rewrites the curated file as a run that read the numbers in Latin left it (numbers and ids); new id -> old id."""
    path = root / "curated" / "sample_el.parquet"
    questions = curated(root, "sample_el")
    pq.write_table(questions_to_table(replace(q, id=in_latin(q.id), number=in_latin(q.number)) for q in questions), path)
    return {q.id: in_latin(q.id) for q in questions if in_latin(q.id) != q.id}


BY = "Ola (2026-12-01T10:00:00Z)"  # who made `store_correction`'s corrections, when


def store_correction(root: Path, question_id: str, sheet_sha256: str, text: str) -> None:
    record = {"question_id": question_id, "sheet_sha256": sheet_sha256, "question": text, "choices": ["α", "β"], "answer": "α",
              "broken": False, "annotator": "Ola", "at": "2026-12-01T10:00:00Z", "version": 1, "note": "", "before": {}}
    path = root / OVERRIDES_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as handle:
        handle.write(json.dumps(record, ensure_ascii=False) + "\n")


def notes(root: Path) -> list[str]:
    return json.loads((root / "curated" / "reports" / "sample_el.json").read_text(encoding="utf-8"))["notes"]


@pytest.mark.parametrize("earlier", ["curated in Latin", "no curated file"])
def test_a_correction_stored_under_the_latin_id_follows_its_question_to_the_greek_id(project_root, greek_folder, earlier):
    assert extract(project_root, greek_folder) == 0
    first = curated(project_root, "sample_el")
    greek_id = next(q.id for q in first if q.number == "Α1")
    sha = next(q.source_sha256 for q in first if q.number == "Α1")
    if earlier == "curated in Latin":
        assert curated_in_latin(project_root)[greek_id] == in_latin(greek_id)
    else:  # the curated file lost: only the stored work's own ids and sheet tell where it goes
        (project_root / "curated" / "sample_el.parquet").unlink()
    latin_id = in_latin(greek_id)
    assert latin_id != greek_id and latin_id.endswith(":A1")
    store_correction(project_root, latin_id, sha, "Διορθωμένη εκφώνηση")
    orphan = greek_id.rsplit(":", 1)[0] + ":Ω9"
    store_correction(project_root, orphan, sha, "Για ερώτηση που δεν υπάρχει")

    for _ in range(2):  # the run that carries it, and one after it
        assert extract(project_root, greek_folder) == 0
        now = {q.id: q for q in curated(project_root, "sample_el")}
        assert now[greek_id].question == "Διορθωμένη εκφώνηση"
        assert latin_id not in now
        said = notes(project_root)
        assert f"correction by {BY} stored under {orphan} matches no curated record; kept stored, applied to none" in said
    renames = [json.loads(line) for line in (project_root / RENAMES_FILE).read_text(encoding="utf-8").splitlines()]
    assert {"old_id": latin_id, "new_id": greek_id} in renames
    stored = [json.loads(line)["question_id"] for line in (project_root / OVERRIDES_FILE).read_text(encoding="utf-8").splitlines()]
    assert stored == [latin_id, orphan]  # nothing rewritten, nothing dropped


def test_the_carried_correction_is_a_note_of_the_run_that_carries_it(project_root, greek_folder):
    assert extract(project_root, greek_folder) == 0
    first = {q.number: q for q in curated(project_root, "sample_el")}
    (project_root / "curated" / "sample_el.parquet").unlink()
    store_correction(project_root, in_latin(first["Α1"].id), first["Α1"].source_sha256, "Διορθωμένη εκφώνηση")
    assert extract(project_root, greek_folder) == 0
    assert (f"correction by {BY} stored under {in_latin(first['Α1'].id)} carried to {first['Α1'].id}: the same sheet's record, its id "
            f"read with letters of another script") in notes(project_root)


def test_a_correction_made_on_another_sheet_is_not_carried(project_root, greek_folder):
    """The id folds alike, but the correction names other bytes: a correction for another file would be wrong."""
    assert extract(project_root, greek_folder) == 0
    first = {q.number: q for q in curated(project_root, "sample_el")}
    (project_root / "curated" / "sample_el.parquet").unlink()
    latin_id = in_latin(first["Α1"].id)
    store_correction(project_root, latin_id, "f" * 64, "Διορθωμένη εκφώνηση")
    assert extract(project_root, greek_folder) == 0
    now = {q.id: q for q in curated(project_root, "sample_el")}
    assert now[first["Α1"].id].question != "Διορθωμένη εκφώνηση"
    assert f"correction by {BY} stored under {latin_id} matches no curated record; kept stored, applied to none" in notes(project_root)


def test_a_correction_that_matches_no_record_is_one_line_of_the_report_saying_who_made_it_and_why(project_root, greek_folder):
    assert extract(project_root, greek_folder) == 0
    first = curated(project_root, "sample_el")
    orphan = first[0].id.rsplit(":", 1)[0] + ":Ω9"
    store_correction(project_root, orphan, first[0].source_sha256, "Για ερώτηση που δεν υπάρχει")
    assert extract(project_root, greek_folder) == 0
    report = (project_root / "curated" / "reports" / "sample_el.md").read_text(encoding="utf-8")
    assert report.count(orphan) == 1  # not also "override of … not applied: no such question in this run"
    assert f"correction by {BY} stored under {orphan} matches no curated record; kept stored, applied to none" in report
    assert not any(orphan in line for line in json.loads((project_root / "curated" / "reports" / "sample_el.json")
                                                         .read_text(encoding="utf-8"))["overrides"])


def test_stored_work_whose_id_folds_to_two_records_of_its_sheet_is_carried_to_neither_and_said():
    """A sheet whose `Α1` is read once in Greek and once in Cyrillic (`А1`): a correction stored under `A1` folds to
    both; which question it was made for cannot be told, so it moves to neither."""
    from pipeline.diagnostics import Code, has_code
    from pipeline.renames import StoredWork, carried_ids
    from tests.pipeline.test_records import make_question

    sheet = "e" * 64
    greek, cyrillic = (make_question(id=f"sample_el:2023:x:{n}", number=n, source_sha256=sheet) for n in ("Α1", "А1"))
    other_sheet = make_question(id="sample_el:2023:y:A2", number="A2", source_sha256="d" * 64)
    work = [StoredWork("correction", "sample_el:2023:x:A1", sheet, "Ola (2026-12-01T10:00:00Z)")]
    carried, lines = carried_ids(work, [greek, cyrillic, other_sheet], {greek.id, cyrillic.id, other_sheet.id}, {})
    assert carried == {}
    [line] = lines
    assert has_code([line], Code.WORK_NOT_CARRIED) and line.concerns.question_id == "sample_el:2023:x:A1"
    assert line == (f"correction by Ola (2026-12-01T10:00:00Z) stored under sample_el:2023:x:A1 not carried: 2 records "
                    f"fold to its id ({', '.join(sorted([greek.id, cyrillic.id]))}); kept stored, applied to none")
