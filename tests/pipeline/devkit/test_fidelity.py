"""score-extraction: recall, precision, option text and answers per sheet against each truth format."""
from __future__ import annotations

import csv
import json
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from pipeline.devkit.fidelity import (
    FidelityError,
    main,
    normalize_text,
    read_truth,
    score_sheet,
)
from pipeline.records import Question, questions_to_table


def _q(number: str, url: str, choices: list[str], answer: str | None, year: int = 2023, kind: str = "single_choice") -> Question:
    labels = list("ABCDE")[: len(choices)]
    return Question(
        id=f"t:{url}:{number}", source="t", country="PL", language="pl", exam="e", level=None, subject="s",
        year=year, session=None, sheet_code=None, number=number, type=kind, question="?", context=None,
        choices=choices, choice_labels=labels, answer=answer,
        answer_index=labels.index(answer) if answer in labels else None, points=None, images=[],
        source_url=url, source_sha256="0" * 64, pages=[1], pipeline_version="0",
    )


@pytest.fixture
def records(tmp_path) -> Path:
    rows = [
        _q("01", "file:///c/test_2023.pdf", ["jeden", "dwa  ", "trzy", "cztery"], "B"),
        _q("02", "file:///c/test_2023.pdf", ["a", "b", "c", "d"], "C"),
        _q("03", "file:///c/test_2023.pdf", [], "x", kind="short_answer"),
        _q("1", "file:///p/PRUEBA%20A.pdf", ["Surfactante", "Corticoide", "Óxido nítrico", "Vitamina K", "Tetraciclina"], "A", year=2018),
        _q("2", "file:///p/PRUEBA%20A.pdf", ["u", "v", "w", "x", "y"], "B", year=2018),
    ]
    path = tmp_path / "curated.parquet"
    pq.write_table(questions_to_table(rows), path)
    return path


@pytest.fixture
def nucem_truth(tmp_path) -> Path:
    data = {"contexts": [], "questions": [
        {"id": "01", "task_type": "mcq", "options": {"A": "jeden", "B": "dwa", "C": "trzy", "D": "cztery"}, "answer": {"correct_option": "B"}},
        {"id": "02", "task_type": "mcq", "options": {"A": "a", "B": "b", "C": "c", "D": "d"}, "answer": {"correct_option": "D"}},
        {"id": "03", "task_type": "short_text", "options": None, "answer": {"accepted": ["x"]}},
        {"id": "04", "task_type": "mcq", "options": {"A": "1", "B": "2", "C": "3", "D": "4"}, "answer": {"correct_option": "A"}},
    ]}
    path = tmp_path / "processed_2023.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@pytest.fixture
def peru_truth(tmp_path) -> Path:
    path = tmp_path / "PRUEBA A.csv"
    with open(path, "w", encoding="utf-8-sig", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["questions", "option_A", "option_B", "option_C", "option_D", "option_E", "correct_answer"])
        writer.writerow(["Recién nacido…", "Surfactante", "Corticoide", "Óxido nítrico", "Vitamina K", "Tetraciclina", "A"])
        writer.writerow(["Pregunta 2", "u", "v", "w", "x", "y", "B"])
    return path


def test_nucem_truth_scores_recall_answers_and_options(records, nucem_truth):
    [sheet] = read_truth(str(nucem_truth))
    from pipeline.devkit.fidelity import load_records

    score = score_sheet(sheet, load_records(records))
    assert (score.truth, score.extracted, score.matched) == (4, 3, 3)
    assert score.missing == ["04"]
    assert score.recall == 0.75 and score.precision == 1.0
    assert score.option_exact == 1.0  # "dwa  " equals "dwa" after whitespace normalisation
    assert (score.answers_right, score.answers_total) == (1, 2)
    assert score.wrong_answers == ["02: 'C' != 'D'"]
    assert not score.passed


def test_csv_truth_pairs_with_the_sheet_of_the_same_name_and_passes(records, peru_truth, capsys):
    assert main([str(records), str(peru_truth)]) == 0
    out = capsys.readouterr().out
    assert "PRUEBA A.pdf" in out and "PASS" in out and "100.0%" in out


def test_failing_sheet_makes_the_command_exit_1_and_lists_what_is_wrong(records, nucem_truth, capsys):
    assert main([str(records), str(nucem_truth)]) == 1
    out = capsys.readouterr().out
    assert "FAIL" in out and "missing: 04" in out and "wrong answers: 02" in out


def test_sheets_truth_with_no_questions_demands_an_empty_sheet(records, tmp_path, capsys):
    truth = tmp_path / "negative.yaml"
    truth.write_text("sheets:\n  - sheet: PRUEBA%20A.pdf\n    questions: []\n", encoding="utf-8")
    assert main([str(records), str(truth)]) == 1  # that sheet has two questions
    truth.write_text("sheets:\n  - sheet: praktyczny.pdf\n    questions: []\n", encoding="utf-8")
    assert main([str(records), str(truth)]) == 0


def test_sheets_truth_scores_true_false_numbers(tmp_path):
    rows = [_q("1.2.1", "file:///x/Arkusz.pdf", ["Prawda", "Fałsz"], None, kind="true_false")]
    rows[0] = Question(**{**rows[0].__dict__, "choice_labels": ["P", "F"], "answer": "F", "answer_index": 1})
    path = tmp_path / "r.parquet"
    pq.write_table(questions_to_table(rows), path)
    truth = tmp_path / "t.json"
    truth.write_text(json.dumps({"sheets": [{"sheet": "x/Arkusz.pdf", "types": ["true_false"],
                                             "questions": [{"number": "1.2.1", "type": "true_false", "answer": "F"}]}]}))
    assert main([str(path), str(truth)]) == 0


@pytest.mark.parametrize(
    "content, message",
    [("not json", "cannot read the truth file"), ('{"other": 1}', "unknown truth format"), ('{"sheets": [{}]}', "has no 'sheet'")],
)
def test_bad_truth_files_are_named_with_the_problem(tmp_path, records, content, message, capsys):
    path = tmp_path / "truth.json"
    path.write_text(content, encoding="utf-8")
    assert main([str(records), str(path)]) == 2
    err = capsys.readouterr().err
    assert str(path) in err and message in err


def test_missing_records_are_reported(tmp_path, nucem_truth, capsys):
    assert main([str(tmp_path / "none"), str(nucem_truth)]) == 2
    assert "no such file or folder" in capsys.readouterr().err
    (tmp_path / "empty").mkdir()
    assert main([str(tmp_path / "empty"), str(nucem_truth)]) == 2
    assert "no Parquet files found" in capsys.readouterr().err


def test_truth_without_year_needs_a_sheet_name(tmp_path):
    path = tmp_path / "processed.json"
    path.write_text('{"questions": []}', encoding="utf-8")
    with pytest.raises(FidelityError, match="name the sheet"):
        read_truth(str(path))


def test_normalisation_is_nfc_and_whitespace_only():
    assert normalize_text("a\u0301  b\n") == normalize_text("á b")
    assert normalize_text("A") != normalize_text("a")
