"""A question the sheet implies but the parser did not produce is never lost silently (issue 25, case
17): a hole in a part's numbering, a part that starts above 1 beside parts that start at 1, a marking
scheme's entry no question has. Each is one problem line naming the numbers, and a flag on the
question beside the hole. Real generated PDFs, extracted and parsed with real specs."""
from __future__ import annotations

from pathlib import Path

from pipeline.devkit.sample.pdfgen import PageSpec, TextBox, build_pdf
from pipeline.specs import load_spec
from tests.pipeline.parse.conftest import run_family
from tests.pipeline.parse.repertoire_sheets import SECTIONS, run, side_by_side_key, spec, two_part_sheet

GREEK_FACTS = {"year": "2031", "folder": "pliroforiki"}


def _greek_sheet(path: Path, numbers: list[str]) -> Path:
    """Panhellenic-style tasks: "Α2. stem", options α.–δ., "Μονάδες 3"; two tasks a page is not needed."""
    pages, items, y = [], [], 20.0
    for number in numbers:
        if y > 230:
            pages.append(PageSpec(tuple(items)))
            items, y = [], 20.0
        lines = [f"{number}. Ερώτηση {number}: ποια από τις παρακάτω απαντήσεις είναι σωστή;"]
        lines += [f"{label}. απάντηση {label} της {number}" for label in "αβγδ"] + ["Μονάδες 3"]
        for text in lines:
            items.append(TextBox(text, 20, y, 170, size=11))
            y += 7
        y += 5
    pages.append(PageSpec(tuple(items)))
    return build_pdf(path, pages)


def _lines(path: Path, lines: list[str]) -> Path:
    return build_pdf(path, [PageSpec(tuple(TextBox(t, 20, 20 + 7 * i, 170, size=10) for i, t in enumerate(lines)))])


def _implied(result) -> list[str]:
    return [p for p in result.problems if "imply were not found" in p]


def test_a_question_lost_at_the_start_of_a_part_and_one_lost_inside_a_part_are_named(tmp_path):
    sheet = _greek_sheet(tmp_path / "them.pdf", ["Α2", "Α3", "Α4", "Β1", "Β2", "Β4"])
    result = run_family("sample_el", sheet, [], GREEK_FACTS)
    found = {q.number: q for q in result.questions}
    assert sorted(found) == ["Α2", "Α3", "Α4", "Β1", "Β2", "Β4"]
    assert _implied(result) == ["2 question(s) the numbering, the sheet's parts or the key imply were not found: Α1, Β3"]
    assert "part Α starts at Α2: Α1 not found" in found["Α2"].flags
    assert "question numbering jumps from Β2 to Β4: Β3 not found" in found["Β4"].flags
    assert not any("not found" in f for n in ("Α3", "Α4", "Β1", "Β2") for f in found[n].flags)


def test_the_marking_scheme_names_a_first_question_no_other_part_could_tell_of(tmp_path):
    sheet = _greek_sheet(tmp_path / "them.pdf", ["Α2", "Α3", "Α4"])
    key = _lines(tmp_path / "apant.pdf", ["ΑΠΑΝΤΗΣΕΙΣ", "Α1 → γ", "Α2 → α", "Α3 → β", "Α4 → δ"])
    result = run_family("sample_el", sheet, [key], GREEK_FACTS)
    assert {q.number: q.answer for q in result.questions} == {"Α2": "α", "Α3": "β", "Α4": "δ"}
    assert _implied(result) == ["1 question(s) the numbering, the sheet's parts or the key imply were not found: Α1"]
    assert result.questions[0].flags == ["the answer key lists a question before this one: Α1 not found"]


def test_a_complete_sheet_implies_nothing_missing(tmp_path):
    sheet = _greek_sheet(tmp_path / "them.pdf", ["Α1", "Α2", "Α3", "Β1", "Β2"])
    key = _lines(tmp_path / "apant.pdf", ["Α1 → γ", "Α2 → α", "Α3 → β", "Β1 → δ", "Β2 → α"])
    result = run_family("sample_el", sheet, [key], GREEK_FACTS)
    assert len(result.questions) == 5 and _implied(result) == []
    assert not any("not found" in f for q in result.questions for f in q.flags)


def _sub_numbered_spec():
    """The vocational spec with "2.1."-style sub-numbered tasks."""
    spec = load_spec("pl_cke_zawodowy")
    options = spec.layout.options.model_copy(update={"min_count": 3, "keep_partial": False})
    update = {"question_start": r"^(?P<number>\d{1,2}\.\d{1,2})\.\s+(?=\S)", "options": options, "skip_types": []}
    return spec.model_copy(update={"layout": spec.layout.model_copy(update=update)})


def test_sub_numbered_tasks_name_a_lost_first_sub_task_and_a_lost_middle_one(tmp_path):
    items, y = [], 20.0
    for number in ["1.1", "1.2", "1.3", "2.2", "2.3", "3.1", "3.3"]:  # 2.1 and 3.2 lost
        items.append(TextBox(f"{number}. Pytanie numer {number} o sieci komputerowe?", 20, y, 170, size=10))
        y += 7
        for label in "ABC":
            items.append(TextBox(f"{label}. odpowiedź {label.lower()}{number}", 25, y, 120, size=10))
            y += 6
        y += 5
    sheet = build_pdf(tmp_path / "s.pdf", [PageSpec(tuple(items))])
    result = run_family(_sub_numbered_spec(), sheet, [], {"year": "2030"})
    found = {q.number: q for q in result.questions}
    assert sorted(found) == ["1.1", "1.2", "1.3", "2.2", "2.3", "3.1", "3.3"]
    assert _implied(result) == ["2 question(s) the numbering, the sheet's parts or the key imply were not found: 2.1, 3.2"]
    assert "part 2 starts at 2.2: 2.1 not found" in found["2.2"].flags
    assert "question numbering jumps from 3.1 to 3.3: 3.2 not found" in found["3.3"].flags


def test_declared_sections_whose_numbering_restarts_at_1_imply_nothing(tmp_path):
    """Two parts and their reserve questions, each numbered from 1 (records 1.1 …, 1.R1 …, 2.1 …)."""
    sheet, key = two_part_sheet(tmp_path / "sheet.pdf"), side_by_side_key(tmp_path / "key.pdf")
    result = run(spec(layout={"sections": SECTIONS["layout"]}, key={"sections": SECTIONS["key"]}), sheet, key)
    assert len(result.questions) == 10 and _implied(result) == []
