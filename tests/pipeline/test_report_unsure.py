"""The run report lists every question read by OCR unsurely (`ocr.uncertain`), per file, with the parts
and words it rests on: what a curator checks first on the audit page; the JSON carries the same list."""
from __future__ import annotations

import json

from pipeline.diagnostics import Code, diagnose
from pipeline.report import FileReport, RunReport
from tests.pipeline.test_records import make_question


def test_the_report_lists_the_questions_read_unsurely_per_file():
    unsure = diagnose(Code.OCR_UNCERTAIN, parts="option B, key entry", words="'opc1ón', 'C'")
    questions = [
        make_question(number="3", id="q3", flags=[unsure], reading_confidence=41.0),
        make_question(number="4", id="q4", reading_confidence=93.0),
        make_question(number="5", id="q5", flags=[diagnose(Code.NO_KEY_ENTRY, what="question")], reading_confidence=90.0),
        make_question(number="7", id="q7", flags=[diagnose(Code.OCR_UNCERTAIN, parts="stem", words="'dcl'")], reading_confidence=38.0),
    ]
    sheet = FileReport(url="http://127.0.0.1/a/scan.pdf", role="sheet", status="ok", sha256="b" * 64)
    sheet.add_parse(questions, [])
    report = RunReport(source="x", pipeline_version="0", files=[sheet])
    assert sheet.flagged == 3
    assert sheet.unsure == ["3: read by OCR unsurely: option B, key entry (resting on 'opc1ón', 'C')",
                            "7: read by OCR unsurely: stem (resting on 'dcl')"]
    markdown = report.to_markdown()
    assert "**Read by OCR unsurely (2 questions; first in the audit queue):**" in markdown
    assert "- scan.pdf, question 3: read by OCR unsurely: option B, key entry (resting on 'opc1ón', 'C')" in markdown
    assert "- scan.pdf, question 7: read by OCR unsurely: stem (resting on 'dcl')" in markdown
    assert "question 5" not in markdown  # flagged, but not for its reading
    data = json.loads(report.to_json())
    assert data["files"][0]["unsure"] == sheet.unsure
    summary = [d for d in data["files"][0]["diagnostics"] if d["code"] == "ocr.uncertain_questions"]
    assert [d["message"] for d in summary] == ["2 question(s) read by OCR unsurely, first in the audit queue: 3, 7"]
    assert report.problem_count == 0  # a reading to check, not a failure of --strict


def test_a_file_without_unsure_readings_adds_no_list():
    sheet = FileReport(url="http://127.0.0.1/a/text.pdf", role="sheet", status="ok", sha256="c" * 64)
    sheet.add_parse([make_question()], [])
    assert sheet.unsure == [] and sheet.notes == []
    assert "Read by OCR unsurely" not in RunReport(source="x", pipeline_version="0", files=[sheet]).to_markdown()


def test_a_large_runs_terminal_table_lists_the_files_with_problems_and_adds_up_every_file():
    import io

    from rich.console import Console

    from pipeline.report import SUMMARY_FILES, FileReport, RunReport

    def run_of(count: int) -> RunReport:
        files = [FileReport(url=f"http://127.0.0.1/arkusz-{i:04d}.pdf", sha256="0" * 64, role="sheet", status="downloaded",
                            pages=9, questions=40, keyed=40 - (i == 3), flagged=i % 2, errors=["key unreadable"] if i in (3, 77) else [])
                 for i in range(count)]
        return RunReport(source="sample_pl", pipeline_version="x", files=files, curated_path="/tmp/x.parquet")

    def printed(report: RunReport) -> str:
        out = io.StringIO()
        report.print_summary(Console(file=out, width=140))
        return out.getvalue()

    small = printed(run_of(SUMMARY_FILES))
    assert all(f"arkusz-{i:04d}.pdf" in small for i in range(SUMMARY_FILES)) and "all " not in small
    large = printed(run_of(100))
    assert [i for i in range(100) if f"arkusz-{i:04d}.pdf" in large] == [3, 77]  # the rows with a problem
    totals = next(line for line in large.splitlines() if "all 100 files" in line)
    assert [cell.strip() for cell in totals.split("│")[4:10]] == ["900", "0", "4000", "3999", "50", "2"]
    assert "problem arkusz-0077.pdf: key unreadable" in large  # each problem still said in words
