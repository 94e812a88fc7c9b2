"""Diagnostics end to end through a real `examcorpus extract`: the sheet's problems reach the report's
JSON typed (code, severity, concerns, message), each curated record's flags keep their codes in the
Parquet and say which question and page they concern, a re-run served from the stage caches gives
the same codes, and --strict fails on the error-severity ones."""
from __future__ import annotations

import json
from pathlib import Path

import pyarrow.parquet as pq

from pipeline.cli import main as examcorpus
from pipeline.records import table_to_questions
from tests.pipeline.conftest import PL_TEXT_KEY, PL_TEXT_SHEET

SHEET = Path(PL_TEXT_SHEET).name


def _extract(root: Path, folder: Path, *extra: str) -> int:
    return examcorpus(["extract", "--source", "sample_pl", "--from", str(folder), "--root", str(root),
                       "--no-progress", "--workers", "1", *extra])


def _sheet_report(root: Path) -> tuple[dict, dict]:
    data = json.loads((root / "curated" / "reports" / "sample_pl.json").read_text(encoding="utf-8"))
    return data, next(f for f in data["files"] if f["url"].endswith("/" + SHEET))


def test_a_sheet_without_its_key_is_reported_and_flagged_by_code(project_root, season_folder):
    (season_folder / Path(PL_TEXT_KEY).name).unlink()
    assert _extract(project_root, season_folder) == 0

    data, sheet = _sheet_report(project_root)
    errors = [d for d in sheet["diagnostics"] if d["severity"] == "error"]
    assert [d["code"] for d in errors] == ["pairing.sheet_without_key", "key.not_paired"]
    assert [d["message"] for d in errors] == sheet["errors"]
    assert all(d["concerns"] == {"source_url": sheet["url"], "source_sha256": sheet["sha256"]} for d in errors)
    assert data["totals"]["problems"] == 2

    questions = table_to_questions(pq.read_table(project_root / "curated" / "sample_pl.parquet"))
    closed = [q for q in questions if q.type == "single_choice"]
    assert closed and all(q.flag_codes == ["key.no_entry"] for q in closed)
    assert all(q.flags == ["no key entry for this question"] for q in closed)  # the readable form, unchanged
    columns = pq.read_table(project_root / "curated" / "sample_pl.parquet", columns=["flag_codes"]).column(0).to_pylist()
    assert ["key.no_entry"] in columns
    flag = closed[0].flags[0]  # read back from Parquet, it still says which record it concerns
    assert (flag.concerns.question_id, flag.concerns.page, flag.concerns.source_sha256) == (
        closed[0].id, closed[0].pages[0], sheet["sha256"])

    # Served from the extract and parse caches, the codes and what they concern are the same.
    first = sheet["diagnostics"]
    assert _extract(project_root, season_folder) == 0
    assert _sheet_report(project_root)[1]["diagnostics"] == first

    assert _extract(project_root, season_folder, "--strict") == 1


def test_parse_flags_say_which_question_page_and_sheet_they_concern(project_root, season_folder):
    from pipeline.acquire import ingest_local
    from pipeline.extract import ExtractOptions, extract_document
    from pipeline.parse import parse_sheet
    from pipeline.specs import load_spec

    (season_folder / Path(PL_TEXT_KEY).name).unlink()
    spec = load_spec("sample_pl")
    [entry] = [e for e in ingest_local(spec, season_folder, project_root / "raw").entries if e.ok]
    document = extract_document(project_root / entry.path, entry.sha256, ExtractOptions.from_spec(spec))
    result = parse_sheet(document, entry, [], spec)
    assert [p.code.code for p in result.problems] == ["key.not_paired"]
    question = next(q for q in result.questions if q.type == "single_choice")
    [flag] = question.flags
    assert (flag.concerns.question, flag.concerns.question_id, flag.concerns.page) == (question.number, question.id, question.pages[0])
    assert flag.concerns.source_sha256 == entry.sha256
