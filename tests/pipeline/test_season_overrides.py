"""Curators' corrections from the extraction audit survive re-runs of `examcorpus extract`, and are
dropped with a report line when the sheet they were made on changes."""
from __future__ import annotations

import json
from pathlib import Path

from pipeline.review import OVERRIDES_FILE
from tests.pipeline.conftest import PL_TEXT_SHEET
from tests.pipeline.test_season import curated, run_extract

SHEET_NAME = Path(PL_TEXT_SHEET).name


def _correct(root: Path, question, *, text: str, answer: str) -> None:
    """One line of annotations/overrides.jsonl as the audit page writes it."""
    record = {
        "question_id": question.id, "sheet_sha256": question.source_sha256, "question": text,
        "choices": list(question.choices), "answer": answer, "broken": False, "annotator": "Ala",
        "at": "2026-12-01T10:00:00Z", "version": 1, "note": "stem typo",
        "before": {"question": question.question, "answer": question.answer},
    }
    path = root / OVERRIDES_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(record, ensure_ascii=False) + "\n", encoding="utf-8")


def _report(root: Path) -> dict:
    return json.loads((root / "curated" / "reports" / "sample_pl.json").read_text(encoding="utf-8"))


def test_a_correction_is_applied_on_every_run_until_the_sheet_changes(project_root, season_folder):
    assert run_extract(project_root, season_folder) == 0
    first = curated(project_root)[0]
    other = "B" if first.answer != "B" else "C"
    _correct(project_root, first, text="Poprawiona treść pytania", answer=other)

    assert run_extract(project_root, season_folder) == 0
    corrected = {q.id: q for q in curated(project_root)}[first.id]
    assert (corrected.question, corrected.answer) == ("Poprawiona treść pytania", other)
    assert corrected.answer_index == corrected.choice_labels.index(other)
    report = _report(project_root)
    assert report["overrides"] == [f"override of {first.id} by Ala (2026-12-01T10:00:00Z) applied"]
    assert report["totals"]["problems"] == 0

    assert run_extract(project_root, season_folder) == 0  # a re-run with nothing new keeps it
    assert {q.id: q for q in curated(project_root)}[first.id].question == "Poprawiona treść pytania"

    sheet = season_folder / SHEET_NAME
    sheet.write_bytes(sheet.read_bytes() + b"\n% a reissued file: other bytes\n")
    assert run_extract(project_root, season_folder) == 0
    again = {q.id: q for q in curated(project_root)}[first.id]
    assert (again.question, again.answer) == (first.question, first.answer)
    [line] = _report(project_root)["overrides"]
    assert line.startswith(f"override of {first.id} by Ala (2026-12-01T10:00:00Z) dropped: the sheet changed")


def test_an_unreadable_corrections_file_is_a_problem_and_changes_nothing(project_root, season_folder):
    assert run_extract(project_root, season_folder) == 0
    before = curated(project_root)
    (project_root / OVERRIDES_FILE).parent.mkdir(parents=True, exist_ok=True)
    (project_root / OVERRIDES_FILE).write_text('{"question_id": "x"}\n', encoding="utf-8")
    assert run_extract(project_root, season_folder) == 0
    assert curated(project_root) == before
    [note] = _report(project_root)["notes"]
    assert "overrides.jsonl" in note and "not applied" in note and "lacks" in note


# A season run's program, in a fresh interpreter: which of the review and describe packages it imported.
_RUN_AND_LIST = """
import sys
from pipeline.cli import main
code = main(["extract", "--source", "sample_pl", "--from", sys.argv[1], "--root", sys.argv[2], "--no-progress", "--workers", "1"])
print(code, sorted(m for m in sys.modules if m.startswith(("pipeline.review", "pipeline.describe"))))
"""


def _run_fresh(root: Path, folder: Path) -> str:
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", _RUN_AND_LIST, str(folder), str(root)], capture_output=True, text=True,
                          check=True, cwd=Path(__file__).resolve().parents[2])
    return done.stdout.strip().splitlines()[-1]


def test_a_run_with_no_reviewed_work_does_not_import_the_review_or_describe_packages(project_root, season_folder):
    # Nothing under annotations/: no correction, decision or description to apply, and the ~35 CPU ms of importing
    # the review page's and the describe stage's packages is spared in every process.
    assert _run_fresh(project_root, season_folder) == "0 []"
    assert curated(project_root)
    # With a correction on file, the run reads it through the review package and applies it.
    first = curated(project_root)[0]
    other = "B" if first.answer != "B" else "C"
    _correct(project_root, first, text="Poprawiona treść pytania", answer=other)
    code, imported = _run_fresh(project_root, season_folder).split(" ", 1)
    assert code == "0" and "'pipeline.review'" in imported
    assert {q.id: q for q in curated(project_root)}[first.id].answer == other
