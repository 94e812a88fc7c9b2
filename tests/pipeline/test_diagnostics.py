"""Typed diagnostics: one registry of codes, each with its severity and message template; a diagnostic
is its rendered message for every reader of text, and carries its code and what it concerns for the
report, the audit page and --strict. Curated Parquet keeps the readable `flags` and adds `flag_codes`;
Parquet written before codes still reads, its flags typed again from their text."""
from __future__ import annotations

import json
import pickle
from concurrent.futures import ProcessPoolExecutor

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from pipeline.diagnostics import (
    Code,
    Concerns,
    Diagnostic,
    Severity,
    as_diagnostic,
    diagnose,
    from_records,
    has_code,
    recognise,
    registry_markdown,
    registry_table,
    to_records,
)
from pipeline.records import Question, conform_to_schema, questions_to_table, table_to_questions
from pipeline.report import FileReport, RunReport
from tests.pipeline.test_records import make_question


def test_every_code_is_defined_once_with_a_severity_and_a_template():
    codes = [row["code"] for row in registry_table()]
    assert len(codes) == len(set(codes)) == len(Code)
    for code in Code:
        assert isinstance(code.severity, Severity) and code.template
        assert Code.parse(code.code) is code
    with pytest.raises(ValueError):
        Code.parse("no.such_code")
    table = registry_markdown()  # the docs' reference page
    assert all(f"| `{code.code}` | {code.severity.value} |" in table for code in Code)


def test_a_diagnostic_renders_its_template_and_says_what_it_concerns():
    flag = diagnose(Code.KEY_ANSWER_NOT_OPTION, label="E", labels=["A", "B", "C", "D"])
    assert flag == "key answer E is not among the options ['A', 'B', 'C', 'D']"  # the text readers always saw
    assert (flag.code, flag.severity) == (Code.KEY_ANSWER_NOT_OPTION, Severity.WARNING)
    about = flag.about(question="12", page=3, source_sha256="a" * 64)
    assert about == flag and about.concerns == Concerns(source_sha256="a" * 64, page=3, question="12")
    assert about.about(page=9).concerns.page == 3  # what is known is kept
    assert about.to_dict() == {"code": "key.answer_not_option", "severity": "warning",
                               "concerns": {"source_sha256": "a" * 64, "page": 3, "question": "12"},
                               "message": "key answer E is not among the options ['A', 'B', 'C', 'D']"}
    assert Diagnostic.from_dict(json.loads(json.dumps(about.to_dict()))).concerns == about.concerns


def _crossed(diagnostic):  # runs in a worker process: what it gets and gives back must keep the code
    return diagnostic.about(page=7)


def test_a_diagnostic_keeps_its_code_across_processes_and_caches():
    note = diagnose(Code.OCR_INFERRED, count=2, labels="B, C")
    with ProcessPoolExecutor(max_workers=1) as pool:
        back = pool.submit(_crossed, note).result()
    assert (back.code, back.concerns.page, back) == (Code.OCR_INFERRED, 7, note)
    assert pickle.loads(pickle.dumps(note)).code is Code.OCR_INFERRED
    stored = json.loads(json.dumps(to_records([back, "some line from elsewhere"], Code.EXTRACT_NOTE)))
    typed = from_records(stored, Code.EXTRACT_NOTE)
    assert [d.code for d in typed] == [Code.OCR_INFERRED, Code.EXTRACT_NOTE] and typed[0].concerns.page == 7


def test_text_written_before_codes_is_typed_by_its_whole_template_not_its_opening_words():
    assert recognise("no key entry for this statement") is Code.NO_KEY_ENTRY
    assert recognise("printed option labels ['B', 'C'] after the options, in no option") is Code.LOST_LABELS
    # Same opening words, another text: no code of this registry (a prefix match would have taken it).
    assert recognise("matching task: key kept as text, not validated; and then lost") is None
    assert recognise("printed option labels") is None
    # Where untyped text is put says how grave it is: a problem line never becomes a mere flag.
    assert as_diagnostic("no key entry for this question", Code.PROBLEM).code is Code.PROBLEM
    assert as_diagnostic("no key entry for this question", Code.FLAG).code is Code.NO_KEY_ENTRY
    assert has_code([as_diagnostic("no key entry for this question", Code.FLAG)], Code.NO_KEY_ENTRY)
    assert not has_code(["no key entry for this question"], Code.NO_KEY_ENTRY)  # text alone is not a code


def test_curated_parquet_keeps_readable_flags_and_their_codes(tmp_path):
    flags = [diagnose(Code.NO_KEY_ENTRY, what="question"), diagnose(Code.TRAILING_TEXT, text="Strona 3 z 20")]
    question = make_question(flags=flags)
    assert question.flag_codes == ["key.no_entry", "parse.trailing_text"]
    pq.write_table(questions_to_table([question]), tmp_path / "q.parquet")
    table = pq.read_table(tmp_path / "q.parquet")
    assert table.schema.field("flags").type == pa.list_(pa.string())
    assert table.column("flags").to_pylist() == [["no key entry for this question", "text after the options was not kept: 'Strona 3 z 20'"]]
    assert table.column("flag_codes").to_pylist() == [["key.no_entry", "parse.trailing_text"]]
    [back] = table_to_questions(table)
    assert back == question and [f.code for f in back.flags] == [Code.NO_KEY_ENTRY, Code.TRAILING_TEXT]


def test_parquet_written_before_flag_codes_still_reads_with_codes_recognised(tmp_path):
    table = questions_to_table([make_question(flags=["no key entry for this question", "broken_by_curator", "a flag of old"])])
    pq.write_table(table.drop_columns(["flag_codes"]), tmp_path / "old.parquet")
    [question] = table_to_questions(conform_to_schema(pq.read_table(tmp_path / "old.parquet")))
    assert question.flags == ["no key entry for this question", "broken_by_curator", "a flag of old"]
    assert question.flag_codes == ["key.no_entry", "review.broken", "flag.unclassified"]


def test_a_stored_code_is_taken_only_for_the_message_it_fits():
    row = make_question(flags=[diagnose(Code.NO_KEY_ENTRY, what="question")]).to_row()
    assert Question(**row).flag_codes == ["key.no_entry"]  # a row read back: its codes type its flags
    row["flags"] = ["text after the options was not kept: 'x'"]  # new text beside a code left over
    assert Question(**row).flag_codes == ["parse.trailing_text"]
    row["flags"] = ["a curator's own words"]
    assert Question(**row).flag_codes == ["flag.unclassified"]


def test_the_report_carries_each_diagnostic_typed_and_strict_counts_the_errors():
    sheet = FileReport(url="http://127.0.0.1/a/sheet.pdf", role="sheet", status="ok", sha256="b" * 64)
    sheet.errors.append(diagnose(Code.NO_KEY_PAIRED))
    sheet.errors.append("a problem line another module built as text")
    sheet.notes.append(diagnose(Code.OCR_PAGES, pages="pages 1–2", why="no text"))
    sheet.notes.append(diagnose(Code.VOIDED, count=1, numbers="7"))
    report = RunReport(source="x", pipeline_version="0", files=[sheet], notes=["index page down"])
    assert report.problem_count == 3  # the two problems and the run note; a warning or a note is no failure
    assert report.problem_lines() == ["index page down", "sheet.pdf: no answer key paired with this sheet; closed questions are flagged",
                                      "sheet.pdf: a problem line another module built as text"]
    data = json.loads(report.to_json())
    assert data["files"][0]["errors"][0] == "no answer key paired with this sheet; closed questions are flagged"
    assert [(d["code"], d["severity"]) for d in data["files"][0]["diagnostics"]] == [
        ("key.not_paired", "error"), ("problem.unclassified", "error"), ("extract.ocr_pages", "warning"), ("key.voided", "info")]
    assert data["files"][0]["diagnostics"][0]["concerns"] == {"source_url": sheet.url, "source_sha256": "b" * 64}
    assert data["diagnostics"] == [{"code": "problem.unclassified", "severity": "error", "concerns": {}, "message": "index page down"}]
    assert (data["totals"]["problems"], data["totals"]["warnings"]) == (3, 1)
    markdown = report.to_markdown()
    assert "| `key.not_paired` | error | 1 |" in markdown and "| `extract.ocr_pages` | warning | 1 |" in markdown
    # A typed error said as a note still counts: strict goes by severity, not by which list holds it.
    sheet.notes.append(diagnose(Code.NO_QUESTIONS))
    assert report.problem_count == 4
