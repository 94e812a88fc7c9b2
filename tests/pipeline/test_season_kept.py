"""Curated work a re-run must keep: a sheet is known by its content, not by the folder it came from
(issue 25, case 14), and accepted figure descriptions are carried by every run (case 15).

Real generated PDFs, real `examcorpus extract` runs, the review store's real decision log."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pyarrow.parquet as pq
import yaml

from pipeline.cli import main as examcorpus
from pipeline.describe import ANNOTATIONS_FILE, AppendLog, Annotation
from pipeline.review import ReviewStore
from tests.pipeline.season_sheets import KEY_NAME, SHEET_NAME, key_pdf, questions_about, sheet_pdf
from tests.pipeline.test_season import curated, run_extract

SOURCES = Path(__file__).resolve().parents[2] / "pipeline" / "sources"
SHEET = SHEET_NAME.format(q="ele02", year=2023, session="czerwiec")
KEY = KEY_NAME.format(q="ele02", year=2023, session="czerwiec")


def spec_with_annulled_entries(folder: Path) -> Path:
    """sample_pl whose key entries may also read '-': the question was annulled (recorded as voided)."""
    data = yaml.safe_load((SOURCES / "sample_pl.yaml").read_text(encoding="utf-8"))
    data["key"]["entry"] = r"(?<![\w.])(?P<number>\d{1,3})\.\s*(?P<answer>[ABCD]|-)(?!\w)"
    path = folder / "sample_pl.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return path


def extract(spec: Path, root: Path, folder: Path, *extra: str) -> int:
    return examcorpus(["extract", "--source", str(spec), "--from", str(folder), "--root", str(root),
                       "--no-progress", "--workers", "2", *extra])


def rows(root: Path) -> list[dict]:
    return pq.read_table(root / "curated" / "sample_pl.parquet").to_pylist()


KEPT_FLAG = "season.answer_kept_from_earlier"


def without_kept_flag(row: dict) -> dict:
    keep = [i for i, code in enumerate(row["flag_codes"]) if code != KEPT_FLAG]
    return row | {"flags": [row["flags"][i] for i in keep], "flag_codes": [row["flag_codes"][i] for i in keep]}


def run_report(root: Path) -> dict:
    return json.loads((root / "curated" / "reports" / "sample_pl.json").read_text(encoding="utf-8"))


def test_the_same_sheet_from_another_folder_with_a_broken_key_keeps_answers_flags_and_voided_marks(tmp_path, project_root):
    spec = spec_with_annulled_entries(tmp_path)
    numbers = [str(n) for n in range(1, 13) if n != 7]  # question 7 not printed: question 8 is flagged
    first = tmp_path / "from-usb-stick"
    first.mkdir()
    sheet_pdf(first / SHEET, "EGZAMIN ZAWODOWY · Arkusz ELE.02-X-23.06", questions_about("prąd", numbers))
    key_pdf(first / KEY, [(n, "-" if n == "10" else "ABCD"[int(n) % 4]) for n in numbers])
    assert extract(spec, project_root, first) == 0
    before = rows(project_root)
    assert len(before) == 11
    assert sum(r["answer"] is not None for r in before) == 10
    assert [r["number"] for r in before if r["voided"]] == ["10"]
    assert [r["number"] for r in before if r["flags"]] == ["8"]

    second = tmp_path / "from-the-archive"
    shutil.copytree(first, second)
    key = second / KEY
    key.write_bytes(key.read_bytes()[:300])  # a truncated download of the same key
    assert extract(spec, project_root, second) == 0

    after = rows(project_root)
    # every answer, flag and voided mark, from the first folder; each kept answer flagged as not this run's
    assert [without_kept_flag(r) for r in after] == before
    assert [r["number"] for r in after if KEPT_FLAG in r["flag_codes"]] == [r["number"] for r in before if r["answer"]]
    [sheet] = [f for f in run_report(project_root)["files"] if f["url"].endswith(f"from-the-archive/{SHEET}")]
    [kept] = [e for e in sheet["errors"] if "kept the 11 records curated earlier" in e]
    assert "matched by the sheet's content" in kept and f"from-usb-stick/{SHEET}" in kept


def test_the_same_sheet_from_another_folder_with_its_key_replaces_its_records_without_duplicates(tmp_path, project_root, season_folder):
    assert run_extract(project_root, season_folder) == 0
    before = {q.id: q for q in curated(project_root)}
    moved = tmp_path / "moved"
    shutil.copytree(season_folder, moved)
    assert run_extract(project_root, moved) == 0
    after = {q.id: q for q in curated(project_root)}
    assert after.keys() == before.keys()
    assert all(q.source_url.startswith(moved.resolve().as_uri()) for q in after.values())
    assert [q.answer for q in after.values()] == [q.answer for q in before.values()]


# ------------------------------------------------------------------------------------------ accepted descriptions

def describe_figures(root: Path) -> list[Annotation]:
    """What `examcorpus describe` writes for every figure of the curated records: a pending description."""
    annotations = [
        Annotation(record_id=q.id, image_sha256=image.sha256, image_path=image.path, model="gemini-test", prompt_version="v1",
                   status="pending", description=f"Schemat do pytania {q.number}.", transcription="R1 R2",
                   created_at="2026-12-01T09:00:00Z")
        for q in curated(root) for image in q.images
    ]
    log = AppendLog(root / ANNOTATIONS_FILE)
    for annotation in annotations:
        log.append(annotation.to_dict())
    return annotations


def test_accepted_descriptions_are_carried_by_every_run_and_counted_in_the_report(project_root, season_folder):
    assert run_extract(project_root, season_folder) == 0
    [annotation] = describe_figures(project_root)  # the sample's ELE.02 sheet has one figure
    store = ReviewStore.open(project_root, [project_root / "curated" / "sample_pl.parquet"])
    store.decide(annotation.item_id, action="accept", annotator="Ala", version=0,
                 description="Schemat obwodu: dwa oporniki połączone szeregowo.")

    for _ in range(2):  # with no `review --merge`, and again with nothing new
        assert run_extract(project_root, season_folder) == 0
        described = {q.id: q for q in curated(project_root)}[annotation.record_id]
        assert described.image_description == "Schemat obwodu: dwa oporniki połączone szeregowo."
        assert (described.reviewed_by, described.description_model) == ("Ala", "gemini-test")
        report = run_report(project_root)
        assert report["descriptions_applied"] == 1 and report["totals"]["problems"] == 0
        markdown = (project_root / "curated" / "reports" / "sample_pl.md").read_text(encoding="utf-8")
        assert "accepted figure descriptions applied: 1 records carry them" in markdown

    reopened = ReviewStore.open(project_root, [project_root / "curated" / "sample_pl.parquet"])
    reopened.decide(annotation.item_id, action="reject", annotator="Basia", version=1, reason="the resistors are parallel")
    assert run_extract(project_root, season_folder) == 0
    assert {q.id: q for q in curated(project_root)}[annotation.record_id].image_description is None
    assert run_report(project_root)["descriptions_applied"] == 0


def test_an_accepted_description_of_a_figure_no_record_has_now_is_said_not_dropped_unseen(project_root, season_folder):
    """A figure described and accepted, then cropped otherwise (another SHA-256) or its question gone: no record can carry
    the description, and the run said nothing of it."""
    from dataclasses import replace

    assert run_extract(project_root, season_folder) == 0
    questions = {q.id: q for q in curated(project_root)}
    [figured] = [q for q in questions.values() if q.images]
    earlier_crop = replace(figured, images=[replace(image, sha256="e" * 64) for image in figured.images])
    [annotation] = [replace(a, image_sha256="e" * 64) for a in describe_figures(project_root)]
    AppendLog(project_root / ANNOTATIONS_FILE).append(annotation.to_dict())
    gone = replace(annotation, record_id=figured.id.rsplit(":", 1)[0] + ":99")
    AppendLog(project_root / ANNOTATIONS_FILE).append(gone.to_dict())
    earlier = {**questions, earlier_crop.id: earlier_crop, gone.record_id: replace(earlier_crop, id=gone.record_id, number="99")}
    store = ReviewStore.over(project_root, earlier)
    for item in (annotation, gone):
        store.decide(item.item_id, action="accept", annotator="Ala", version=0, description="Schemat obwodu.")

    assert run_extract(project_root, season_folder, "--strict") == 0  # lines to read, no problem
    assert {q.id: q for q in curated(project_root)}[figured.id].image_description is None
    assert run_report(project_root)["descriptions"] == [
        f"{figured.id}: accepted description of figure eeeeeeeeeeee… not applied: its figure changed since it was described "
        "(describe and review it again)",
        f"{gone.record_id}: accepted description of figure eeeeeeeeeeee… not applied: its question is not curated now"]
    decisions = (project_root / "annotations" / "reviews.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(decisions) == 2  # kept stored


def test_an_unreadable_review_log_is_a_problem_and_fails_strict(project_root, season_folder):
    assert run_extract(project_root, season_folder) == 0
    [annotation] = describe_figures(project_root)
    torn = {"item_id": annotation.item_id, "version": 1}  # a decision without its annotator, time and outcome
    (project_root / "annotations" / "reviews.jsonl").write_text(json.dumps(torn) + "\n", encoding="utf-8")
    assert run_extract(project_root, season_folder, "--strict") == 1
    [note] = run_report(project_root)["notes"]
    assert note.startswith("accepted figure descriptions not applied:") and "reviews.jsonl" in note


# ------------------------------------------------------------------------------------------ ids that change

def curated_as_an_older_id_rule_named_it(root: Path) -> dict[str, str]:
    """Rewrites the curated records under the ids an older rule gave them (the sheet part '-'), as a
    project curated before the rule changed holds them; returns old id -> id of this rule."""
    from pipeline.records import Question, questions_to_table

    path = root / "curated" / "sample_pl.parquet"
    renamed = {}
    questions = []
    for row in rows(root):
        source, year, session, _sheet, number = row["id"].split(":")
        old = ":".join([source, year, session, "-", number])
        renamed[old] = row["id"]
        questions.append(Question.from_row({**row, "id": old}))
    pq.write_table(questions_to_table(questions), path)
    return renamed


def test_reviews_and_corrections_made_under_an_older_id_follow_the_question_to_its_new_id(project_root, season_folder):
    from pipeline.review import OVERRIDES_FILE

    assert run_extract(project_root, season_folder) == 0
    renamed = curated_as_an_older_id_rule_named_it(project_root)
    [annotation] = describe_figures(project_root)  # made, reviewed and corrected under the old ids
    store = ReviewStore.open(project_root, [project_root / "curated" / "sample_pl.parquet"])
    store.decide(annotation.item_id, action="accept", annotator="Ala", version=0, description="Dwa oporniki szeregowo.")
    corrected = next(q for q in curated(project_root) if q.id != annotation.record_id)
    override = {"question_id": corrected.id, "sheet_sha256": corrected.source_sha256, "question": "Poprawiona treść",
                "choices": list(corrected.choices), "answer": corrected.answer, "broken": False, "annotator": "Ola",
                "at": "2026-12-01T10:00:00Z", "version": 1, "note": "", "before": {}}
    with (project_root / OVERRIDES_FILE).open("a", encoding="utf-8") as handle:
        handle.write(json.dumps(override, ensure_ascii=False) + "\n")

    for _ in range(2):  # the run that finds the new ids, and one after it
        assert run_extract(project_root, season_folder) == 0
        now = {q.id: q for q in curated(project_root)}
        assert set(now) == set(renamed.values())
        assert now[renamed[annotation.record_id]].image_description == "Dwa oporniki szeregowo."
        assert now[renamed[corrected.id]].question == "Poprawiona treść"
        assert run_report(project_root)["descriptions_applied"] == 1
    recorded = [json.loads(line) for line in (project_root / "annotations" / "id_renames.jsonl").read_text(encoding="utf-8").splitlines()]
    assert {r["old_id"]: r["new_id"] for r in recorded} == renamed  # recorded once, not again on the second run
    assert len(recorded) == len(renamed)
    reopened = ReviewStore.open(project_root, [project_root / "curated" / "sample_pl.parquet"])
    assert reopened.get(annotation.item_id).question.id == renamed[annotation.record_id]  # the review page finds it too
