"""Comparing curated questions with the sample truth: what counts as found, right and wrong."""
import dataclasses

import pyarrow.parquet as pq

from pipeline.records import Question, questions_to_table
from pipeline.devkit.sample.check import compare_with_truth, main, number_key

BASE_URL = "http://127.0.0.1:8000/"


def as_question(sheet, q, **changes) -> Question:
    question = Question(
        id=f"sample:{sheet.sheet}:{q.number}",
        source=sheet.spec,
        country="PL",
        language=sheet.language,
        exam="sample",
        level=None,
        subject="sample",
        year=sheet.year,
        session=sheet.session,
        sheet_code=sheet.sheet_code,
        number=q.number,
        type=q.type,
        question=q.question,
        context=q.context,
        choices=list(q.choices),
        choice_labels=list(q.choice_labels),
        answer=q.answer,
        answer_index=q.answer_index,
        points=q.points,
        images=[],
        source_url=BASE_URL + sheet.sheet,
        source_sha256="0" * 64,
        pages=[q.page],
        pipeline_version="test",
    )
    return dataclasses.replace(question, **changes)


def perfect(sample_site) -> list[Question]:
    return [as_question(t, q) for t in sample_site.truth.values() for q in t.questions]


def test_the_truth_itself_agrees_fully(sample_site):
    for agreement in compare_with_truth(perfect(sample_site), sample_site.truth):
        assert agreement.found == agreement.expected
        assert agreement.same_type == agreement.expected
        assert agreement.same_answer == agreement.same_choices == agreement.closed
        assert agreement.text_similarity == 1.0
        assert not (agreement.missing or agreement.unexpected or agreement.wrong_answers)


def test_greek_numbers_read_as_latin_letters_still_match():
    assert number_key("Α5.β") == number_key("A5.β") == "a5.β"
    assert number_key("Β1") == number_key("B1.") == "b1"


def test_missing_wrong_and_unexpected_questions_are_named(sample_site):
    sheet = sample_site.truth["zawodowy/ele02-2023-czerwiec-egzamin-zawodowy-pisemny.pdf"]
    first, second = sheet.questions[0], sheet.questions[1]
    questions = [as_question(sheet, q) for q in sheet.questions[2:]]
    questions.append(as_question(sheet, second, answer="D", answer_index=3, choices=["x", "y", "z", "w"]))
    questions.append(as_question(sheet, first, number="99"))
    agreement = next(a for a in compare_with_truth(questions, sample_site.truth) if a.sheet == sheet.sheet)
    assert agreement.missing == [first.number]
    assert agreement.unexpected == ["99"]
    assert agreement.wrong_answers == [f"{second.number}: D (expected {second.answer})"]
    assert agreement.found == len(sheet.closed_questions) - 1
    assert agreement.same_choices == agreement.found - 1


def test_questions_from_other_files_are_ignored(sample_site):
    sheet = next(iter(sample_site.truth.values()))
    stray = as_question(sheet, sheet.questions[0], source_url="http://elsewhere/other.pdf")
    assert all(a.found == 0 for a in compare_with_truth([stray], sample_site.truth))


def test_the_command_reads_parquet_and_reports_each_sheet(sample_site, tmp_path, capsys):
    path = tmp_path / "curated.parquet"
    pq.write_table(questions_to_table(perfect(sample_site)), path)
    assert main([str(path), "--truth", str(sample_site.dest / "truth.json")]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == len(sample_site.truth)
    assert all("found" in line and "missing" not in line for line in out)


def test_the_command_names_a_missing_file(sample_site, tmp_path, capsys):
    assert main([str(tmp_path / "nope.parquet"), "--truth", str(sample_site.dest / "truth.json")]) == 2
    assert "nope.parquet" in capsys.readouterr().err
