"""Each exam family's real spec reads a generated sheet the way a person reads the printed page."""
from __future__ import annotations

from pipeline.diagnostics import Severity
from pipeline.records import CLOSED_TYPES, QuestionType, question_id
from tests.pipeline.parse.conftest import run_family


def _check_against_expected(parsed) -> None:
    found = parsed.by_number()
    assert sorted(found) == sorted(e.number for e in parsed.expected)
    for item in parsed.expected:
        question = found[item.number]
        assert question.type == item.type, item.number
        if item.options:
            assert dict(zip(question.choice_labels, question.choices)) == item.options, item.number
        if QuestionType(item.type) in CLOSED_TYPES:
            assert question.answer == item.answer, item.number
            assert question.answer_index == question.choice_labels.index(item.answer)
            # Info flags say what was set aside and is no fault of the record (a footer after the options, `parse.trailing_dropped`).
            assert [f for f in question.flags if f.severity is not Severity.INFO] == [], (item.number, question.flags)


def test_cke_marking_scheme_keys_choice_and_true_false_tasks(cke_parsed):
    _check_against_expected(cke_parsed)
    assert cke_parsed.result.problems == []


def test_cke_answer_pushed_to_the_next_page_by_a_footer_is_still_found(cke_parsed):
    assert cke_parsed.by_number()["1.2"].answer == "B"


def test_cke_group_intro_becomes_the_shared_context_of_its_parts(cke_parsed):
    found = cke_parsed.by_number()
    for number in ("1.1", "1.2", "1.3"):
        assert found[number].context.startswith("Zadanie 1. Test")
        assert "Zaznacz jedną poprawną odpowiedź" in found[number].context
    # A true/false block is no group: its statements share only its instruction, as context.
    assert found["2.1"].context.startswith("Oceń prawdziwość podanych zdań")


def test_true_false_records_hold_the_statement_alone(cke_parsed):
    statements = [q for q in cke_parsed.result.questions if q.type == "true_false"]
    assert statements
    for question in statements:
        assert "Oceń prawdziwość" not in question.question and question.context.startswith("Oceń prawdziwość")


def test_cke_examiner_boxes_running_heads_and_scratch_page_never_reach_a_question(cke_parsed):
    text = "\n".join(q.question + " " + " ".join(q.choices) + (q.context or "") for q in cke_parsed.result.questions)
    for furniture in ("Wypełnia egzaminator", "Maks. liczba pkt", "Strona 2 z 4", "BRUDNOPIS", "Egzamin maturalny z informatyki"):
        assert furniture not in text


def test_cke_open_task_stays_open_without_options_or_answer(cke_parsed):
    task = cke_parsed.by_number()["3"]
    assert (task.type, task.choices, task.answer, task.points) == ("open", [], None, 3.0)
    assert "sumę cyfr" in task.question


def test_cke_records_carry_provenance_and_sheet_code(cke_parsed, cke_set):
    question = cke_parsed.by_number()["1.3"]
    assert question.source_url == cke_set.sheets[0].as_uri()
    assert question.pages == [3] and question.points == 1.0
    assert question.sheet_code == "MINP-R0-100-3005"
    assert question.id == question_id("pl_cke_matura_informatyka", 2030, None, "MINP-R0-100-3005", "1.3")


def test_peru_grid_options_in_label_order_and_highlighted_key(peru_parsed):
    _check_against_expected(peru_parsed)


def test_peru_option_wrapping_inside_its_column_keeps_its_second_line(peru_parsed):
    assert peru_parsed.by_number()["3"].choices[4].endswith("de sus ramas distales en la pierna")


def test_slovak_variant_column_chosen_by_the_code_on_the_cover(slovak_parsed):
    _check_against_expected(slovak_parsed)
    assert slovak_parsed.result.problems == []


def test_slovak_lookalike_and_lowercase_labels_are_read_as_latin_capitals(slovak_parsed):
    assert slovak_parsed.by_number()["01"].choice_labels == ["A", "B", "C", "D"]


def test_slovak_passages_are_linked_to_the_questions_after_them(slovak_parsed):
    found = slovak_parsed.by_number()
    assert found["01"].context.startswith("Ukážka 1") and "romány" in found["01"].context
    assert found["03"].context == found["01"].context
    assert found["04"].context.startswith("Ukážka 2")


def test_slovak_short_answer_cell_spanning_two_lines_around_its_number(slovak_parsed):
    assert slovak_parsed.by_number()["03"].answer == "píš/napíš/ píšte"


def test_slovak_key_without_the_sheet_variant_is_reported(slovak_set, tmp_path):
    from pipeline.specs import load_spec

    spec = load_spec("sk_maturita_sjl")
    other = spec.model_copy(update={"key": spec.key.model_copy(update={"variant_pattern": r"^(?P<variant>\d{4})$"})})
    # A sheet without a findable code: every closed question is flagged, the file gets a problem line.
    result = run_family(other, slovak_set.sheets[0], slovak_set.keys, {"year": "2031"})
    assert any("no variant code found" in p for p in result.problems)
    assert all(q.flags for q in result.questions if q.type == "single_choice")


def test_greek_numbering_true_false_block_and_alpha_delta_options(greek_parsed):
    _check_against_expected(greek_parsed)
    found = greek_parsed.by_number()
    assert found["Α2"].points == 5.0
    assert found["Α1.β"].choices == ["Σωστό", "Λάθος"]
    assert "Μονάδες" not in found["Α2"].choices[-1]


def test_vocational_two_column_pages_and_answer_table(vocational_set):
    sheet, _practical = vocational_set.sheets
    result = run_family("pl_cke_zawodowy", sheet, vocational_set.keys, {"year": "2031"})
    found = {q.number: q for q in result.questions}
    assert sorted(found, key=int) == [e.number for e in vocational_set.expected]
    for item in vocational_set.expected:
        assert found[item.number].answer == item.answer
        assert found[item.number].choices == list(item.options.values())
    assert result.problems == []


def test_vocational_practical_sheet_yields_no_questions_and_says_so(vocational_set):
    result = run_family("pl_cke_zawodowy", vocational_set.sheets[1], [], {"year": "2031"})
    assert result.questions == []
    assert "no questions found on this sheet" in result.problems


def test_parsed_questions_carry_the_box_of_their_lines(cke_parsed):
    for question in cke_parsed.result.questions[:5]:
        assert [r.page for r in question.regions] == question.pages
        for region in question.regions:
            x0, top, x1, bottom = region.bbox
            assert 0 <= x0 < x1 <= 600 and 0 <= top < bottom <= 850
