"""Restarted numbering (issue 26, item 5): one convention for the numbers of a restarted part (the part's
declared prefix, then the printed number: question 2 of the part with prefix '2.' is 2.2), a first part
printed without a heading, a part heading on a dropped page reported, and `score-extraction` matching a
truth that names each question's section."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from pipeline.devkit.fidelity import read_truth, score_sheet
from pipeline.diagnostics import Code, has_code
from pipeline.devkit.sample.pdfgen import TextBox
from pipeline.records import Question
from pipeline.specs import SpecError
from tests.pipeline.parse.repertoire_sheets import LEFT, SIZE, by_number, item, lines_at, pdf, question_rows, run, spec

PART_TWO = "SEGUNDA PARTE"
ANSWERS = {"1.1": "A", "1.2": "B", "1.3": "C", "2.1": "D", "2.2": "A", "2.3": "B"}
IMPLICIT_FIRST = {
    "layout": [{"prefix": "1."}, {"start": "^SEGUNDA PARTE", "prefix": "2."}],
    "key": [{"prefix": "1."}, {"start": "(?i)^segunda parte", "prefix": "2."}],
}


def _part(part: int, y: float = 20.0) -> list[TextBox]:
    boxes = []
    for n in range(1, 4):
        found, y = question_rows(item(n, stem=f"Pregunta {n} de la parte {part}"), y)
        boxes += found
    return boxes


def _unheaded_first_part_sheet(path: Path) -> Path:
    """Part 1 from the top of page 1 with no heading; page 2 opens with "SEGUNDA PARTE"."""
    return pdf(path, _part(1), [TextBox(PART_TWO, LEFT, 20, 170, size=12, bold=True), *_part(2, 29.0)])


def _key(path: Path) -> Path:
    """The key's part 1 unheaded too, "Segunda parte" below it in the same column."""
    entries = [f"{n.split('.')[1]}. {a}" for n, a in ANSWERS.items()]
    return pdf(path, lines_at([*entries[:3], "Segunda parte", *entries[3:]], 20, 20))


@pytest.fixture(scope="module")
def implicit(tmp_path_factory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("implicit") / "2031"
    return _unheaded_first_part_sheet(root / "sheet.pdf"), _key(root / "key.pdf")


def test_a_first_part_without_a_heading_gets_its_declared_prefix_in_sheet_and_key(implicit):
    result = run(spec(layout={"sections": IMPLICIT_FIRST["layout"]}, key={"sections": IMPLICIT_FIRST["key"]}), *implicit)
    assert {q.number: q.answer for q in result.questions} == ANSWERS
    assert by_number(result)["1.2"].question == "Pregunta 2 de la parte 1"
    assert by_number(result)["2.2"].question == "Pregunta 2 de la parte 2"
    assert [q.id.rsplit(":", 1)[1] for q in result.questions] == list(ANSWERS)
    assert result.problems == []


@pytest.mark.parametrize("sections", [
    [{"start": "^PRIMERA", "prefix": "1."}, {"prefix": "2."}],  # not first
    [{"prefix": "R", "nested": True}],  # nested
])
def test_only_the_first_top_level_section_may_have_no_heading(sections):
    with pytest.raises(SpecError, match="no start"):
        spec(layout={"sections": sections})


def test_a_part_heading_on_a_dropped_page_is_reported(tmp_path):
    """Page 2, an instructions page the spec drops, carries part 2's heading: the parser never reads it,
    and says so instead of numbering part 2 silently as the part before."""
    instructions = [TextBox(PART_TWO, LEFT, 20, 170, size=12, bold=True), TextBox("Instrucciones de la segunda parte", LEFT, 30, 170, size=SIZE)]
    sheet = pdf(tmp_path / "2031" / "sheet.pdf", _part(1), instructions, _part(2))
    the_spec = spec(layout={"sections": IMPLICIT_FIRST["layout"], "drop_pages": ["(?m)^Instrucciones"]})
    result = run(the_spec, sheet)
    assert has_code(result.problems, Code.SECTION_ON_DROPPED_PAGE)
    problem = next(p for p in result.problems if has_code([p], Code.SECTION_ON_DROPPED_PAGE))
    assert "section '2.' starts on page 2" in problem and "SEGUNDA PARTE" in problem


def test_a_part_heading_on_a_parsed_page_is_no_problem(tmp_path):
    sheet = pdf(tmp_path / "2031" / "sheet.pdf", _part(1), [TextBox(PART_TWO, LEFT, 20, 170, size=12, bold=True), *_part(2, 29.0)])
    result = run(spec(layout={"sections": IMPLICIT_FIRST["layout"]}), sheet)
    assert not has_code(result.problems, Code.SECTION_ON_DROPPED_PAGE)
    assert [q.number for q in result.questions] == list(ANSWERS)


def test_score_extraction_matches_a_truth_naming_each_questions_section(implicit, tmp_path):
    records = run(spec(layout={"sections": IMPLICIT_FIRST["layout"]}, key={"sections": IMPLICIT_FIRST["key"]}), *implicit).questions
    truth = tmp_path / "truth.jsonl"
    lines = [{"section": n.split(".")[0], "number": n.split(".")[1], "answer": a,
              "choices": [f"opción {x} de {n.split('.')[1]}" for x in "abcd"]} for n, a in ANSWERS.items()]
    lines[-1] = {**{k: v for k, v in lines[-1].items() if k != "section"}, "number": "2.3"}  # written whole: the same record
    truth.write_text("\n".join(json.dumps(line, ensure_ascii=False) for line in lines), encoding="utf-8")
    [sheet] = read_truth(f"{truth}=sheet.pdf")
    score = score_sheet(sheet, records)
    assert (score.truth, score.matched, score.extra) == (6, 6, [])
    assert score.answer_accuracy == 1.0 and score.option_exact == 1.0 and score.passed


def test_a_truths_reserve_section_matches_the_nested_prefix(tmp_path):
    """A reserve part nested in part 1 (prefix '1.' + 'R') numbers its questions 1.R1, 1.R2: a truth
    names that section "1.R"."""
    [sheet] = read_truth(_write(tmp_path / "t.jsonl", [{"section": "1.R", "number": "2", "answer": "B"}]) + "=x.pdf")
    assert [q.number for q in sheet.questions] == ["1.R.2"]
    score = score_sheet(sheet, [_record("1.R2", "B")])
    assert score.matched == 1 and score.answers_right == 1


def _write(path: Path, items: list[dict]) -> str:
    path.write_text("\n".join(json.dumps(i) for i in items), encoding="utf-8")
    return str(path)


def _record(number: str, answer: str) -> Question:
    return Question(
        id=f"t:2031:-:-:{number}", source="t", country="ES", language="es", exam="e", level=None, subject="s",
        year=2031, session=None, sheet_code=None, number=number, type="single_choice", question="?", context=None,
        choices=["a", "b"], choice_labels=["A", "B"], answer=answer, answer_index=["A", "B"].index(answer), points=None,
        images=[], source_url="file:///x.pdf", source_sha256="0" * 64, pages=[1], pipeline_version="0",
    )
