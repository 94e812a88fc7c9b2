"""score-extraction: recall, precision, option text and answers per sheet against each truth format."""
from __future__ import annotations

import csv
import json
import subprocess
import sys
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
from pipeline.records import Question, questions_to_table, table_to_questions


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


@pytest.fixture
def jsonl_sheet(tmp_path) -> tuple[Path, Path]:
    """A sheet folder as ../shared/corpus lays it out: the PDF (here only its name matters) and truth.jsonl."""
    folder = tmp_path / "br" / "2017-22"
    folder.mkdir(parents=True)
    (folder / "2017-22.pdf").write_bytes(b"%PDF-1.4 placeholder")
    rows = [
        _q("1", "file:///data/br/2017-22/2017-22.pdf", ["um", "dois", "três", "quatro"], "D"),
        _q("2", "file:///data/br/2017-22/2017-22.pdf", ["a", "b", "c", "d"], "B"),  # voided in the truth
        _q("9", "file:///data/br/2017-22/2017-22.pdf", ["x", "y", "z", "w"], "A"),  # not in the truth
        _q("1", "file:///data/other.pdf", ["p", "q", "r", "s"], "A"),  # another sheet
    ]
    records = tmp_path / "r.parquet"
    pq.write_table(questions_to_table(rows), records)
    lines = [
        {"number": "1", "answer": "D", "question": None, "choices": ["um", "dois", "três", "quatro"]},
        {"number": "2", "answer": None, "voided": True, "question": None, "choices": None},
    ]
    (folder / "truth.jsonl").write_text("\n".join(json.dumps(line) for line in lines) + "\n", encoding="utf-8")
    return records, folder / "truth.jsonl"


def test_jsonl_truth_pairs_with_the_pdf_beside_it_and_reads_choices_as_a_list(jsonl_sheet):
    records, truth = jsonl_sheet
    [sheet] = read_truth(str(truth))
    [one, two] = sheet.questions
    assert one.options == {"A": "um", "B": "dois", "C": "três", "D": "quatro"} and two.voided
    score = score_sheet(sheet, table_to_questions(pq.read_table(records)))
    assert (score.truth, score.matched, score.options_total, score.options_exact) == (2, 2, 4, 4)
    # the voided question's answer is not scored; the other sheet's "1" is not this sheet's
    assert (score.answers_total, score.answers_right, score.voided) == (1, 1, 1)


def test_records_the_truth_does_not_list_are_counted_apart_and_do_not_fail_the_bar(jsonl_sheet, capsys):
    records, truth = jsonl_sheet
    assert main([str(records), str(truth)]) == 0
    out = capsys.readouterr().out
    assert "PASS" in out and "extra: 9" in out
    header, row = out.splitlines()[:2]
    assert header.split()[3] == "extra" and row.split()[3] == "1"


def test_choices_as_a_label_map_are_scored_and_an_unknown_field_is_an_error(records, tmp_path, capsys):
    truth = tmp_path / "t.yaml"
    truth.write_text("sheets:\n  - sheet: PRUEBA%20A.pdf\n    questions:\n"
                     "      - {number: '1', answer: A, choices: {A: Surfactante, B: Corticoide, C: Óxido nítrico, D: Vitamina K, E: Tetraciclina}}\n"
                     "      - {number: '2', answer: B, choices: [u, v, w, x, 'not y']}\n", encoding="utf-8")
    [sheet] = read_truth(str(truth))
    score = score_sheet(sheet, table_to_questions(pq.read_table(records)))
    assert (score.options_total, score.options_exact) == (10, 9)
    truth.write_text("sheets:\n  - sheet: x.pdf\n    questions:\n      - {number: '1', answer: A, optoins: [a, b]}\n", encoding="utf-8")
    assert main([str(records), str(truth)]) == 2
    err = capsys.readouterr().err
    assert "optoins" in err and "sheets[0].questions[0]" in err and "'choices'" in err


def test_the_installed_command_exits_1_when_a_sheet_fails_its_bar(records, nucem_truth):
    command = Path(sys.executable).parent / "examcorpus"
    failing = subprocess.run([str(command), "score-extraction", str(records), str(nucem_truth)], capture_output=True, text=True)
    assert failing.returncode == 1 and "FAIL" in failing.stdout
    as_json = subprocess.run([str(command), "score-extraction", str(records), str(nucem_truth), "--json"], capture_output=True, text=True)
    assert as_json.returncode == 1 and json.loads(as_json.stdout)[0]["passed"] is False


def test_score_extraction_help_is_its_own_usage():
    done = subprocess.run([sys.executable, "-m", "pipeline.cli", "score-extraction", "--help"], capture_output=True, text=True)
    assert done.returncode == 0 and "usage: examcorpus score-extraction" in done.stdout, done.stderr
