"""Nothing dropped unsaid: text the parser sets aside or misplaces is a diagnostic on what it touches and a line in the
report.

A few letters printed after a question's options, which no furniture rule of the spec or the language data
claimed, are taken for page furniture and not kept: each is `parse.trailing_dropped` (info) on its question and
one note of the sheet lists them, escaped as read. Longer text stays the `parse.trailing_text` warning.
"""
from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

from pipeline.devkit.sample.pdfgen import ImageBox, PageSpec, TextBox, build_pdf
from pipeline.diagnostics import AUDIT_ONLY, Code, Severity
from pipeline.report import FileReport, RunReport
from pipeline.split import load_split_config, split_records
from pipeline.specs import load_spec
from tests.pipeline.parse.conftest import run_family


def _spec():
    """The vocational spec with "1." numbering and 3+ options."""
    spec = load_spec("pl_cke_zawodowy")
    options = spec.layout.options.model_copy(update={"min_count": 3, "keep_partial": False})
    update = {"question_start": r"^(?P<number>\d{1,2})\.\s+(?=\S)", "options": options, "skip_types": []}
    return spec.model_copy(update={"layout": spec.layout.model_copy(update=update)})


def three_question_sheet(path: Path, after: dict[str, str]) -> Path:
    """Three questions of options A-C; `after[number]` printed under that question's options, left of the labels
    and a blank line below them (no option's continuation)."""
    items, y = [], 20.0
    for number in "123":
        items.append(TextBox(f"{number}. Pytanie numer {number} o sieci komputerowe?", 20, y, 170, size=10))
        y += 7
        for label in "ABC":
            items.append(TextBox(f"{label}. odpowiedź {label.lower()}{number}", 25, y, 120, size=10))
            y += 6
        if number in after:
            y += 8
            items.append(TextBox(after[number], 20, y, 170, size=10))
            y += 6
        y += 8
    return build_pdf(path, [PageSpec(tuple(items))])


def three_answer_key(path: Path) -> Path:
    return build_pdf(path, [PageSpec(tuple(TextBox(t, 20, 20 + 7 * i, 170, size=10) for i, t in enumerate(["1. A", "2. B", "3. C"])))])


def _parsed(tmp_path: Path, after: dict[str, str]):
    result = run_family(_spec(), three_question_sheet(tmp_path / "s.pdf", after), [three_answer_key(tmp_path / "k.pdf")], {"year": "2030"})
    return result, {q.number: q for q in result.questions}


def test_a_few_letters_after_the_options_are_an_info_flag_on_the_question_and_a_note_of_the_sheet(tmp_path):
    result, found = _parsed(tmp_path, {"2": "Verte →"})
    assert found["2"].choices == ["odpowiedź a2", "odpowiedź b2", "odpowiedź c2"]  # not kept in the last option
    dropped = [f for f in found["2"].flags if f.code is Code.TRAILING_DROPPED]
    assert [f.message for f in dropped] == [
        "text after the options set aside as page furniture (under 12 letters), not kept: 'Verte →'"]
    assert dropped[0].severity is Severity.INFO
    assert not any(f.code is Code.TRAILING_DROPPED for q in (found["1"], found["3"]) for f in q.flags)
    notes = [n for n in result.notes if n.code is Code.TRAILING_DROPPED_QUESTIONS]
    assert [n.message for n in notes] == [
        "text after the options of 1 question(s) set aside as page furniture (under 12 letters each), not kept: 2 'Verte →'"]
    assert not result.problems  # a note, nothing for --strict to fail on


def test_the_report_shows_the_dropped_text_escaped(tmp_path):
    result, _ = _parsed(tmp_path, {"1": "Dalej 'x'", "3": "Strona 3"})
    file = FileReport(url="file:///s.pdf", role="sheet", status="parsed", sha256="0" * 64)
    file.add_parse(result.questions, result.problems)
    file.notes.extend(result.notes)
    markdown = RunReport(source="t", pipeline_version="0", files=[file]).to_markdown()
    assert "note: text after the options of 2 question(s) set aside as page furniture (under 12 letters each), " \
           "not kept: 1 \"Dalej 'x'\", 3 'Strona 3'" in markdown
    assert "| `parse.trailing_dropped_questions` | info | 1 |" in markdown


def test_twelve_letters_or_more_stay_a_warning_not_the_info_flag(tmp_path):
    _, found = _parsed(tmp_path, {"2": "Zapamiętaj tę informację"})
    codes = [f.code for f in found["2"].flags]
    assert Code.TRAILING_TEXT in codes and Code.TRAILING_DROPPED not in codes


def test_a_question_whose_only_flag_is_dropped_furniture_is_not_withheld_from_a_release(tmp_path):
    _, found = _parsed(tmp_path, {"2": "Verte"})
    assert [f.code for f in found["2"].flags] == [Code.TRAILING_DROPPED] and Code.TRAILING_DROPPED in AUDIT_ONLY
    result = split_records(list(found.values()), load_split_config())
    released = {q.number for q in result.public + result.private}
    assert released == {"1", "2", "3"} and result.withheld == []


def _lines_sheet(path: Path, lines: list[str]) -> Path:
    """One line a row; option lines (a label and a dot) indented under their stem, a line opening with spaces further."""
    def x(text: str) -> float:
        return 30 if text.startswith(" ") else 25 if text[1:3] == ". " and text[0] in "ABCD" else 20

    boxes = [TextBox(t.strip(), x(t), 20 + 7 * i, 170, size=10) for i, t in enumerate(lines)]
    return build_pdf(path, [PageSpec(tuple(boxes))])


@pytest.mark.parametrize(("lines", "number", "flag"), [
    (["1. Pytanie o sieci?", "A. odpowiedź a1", "B. odpowiedź b1", "B. odpowiedź powtórzona", "C. odpowiedź c1"], "1",
     "option label B printed again, its line read into option B: 'B. odpowiedź powtórzona'"),
    (["2. Pytanie drugie?", "A. a2", "B. b2", "C. c2", "D. d2", "A. znowu a2"], "2",
     "option label A printed again, its line read into option D: 'A. znowu a2'"),
], ids=["label-twice", "first-label-after-the-last"])
def test_a_line_opening_with_a_label_already_taken_is_flagged_where_it_went(tmp_path, lines, number, flag):
    # Question 3's option B holds a lowercase sub-item "a.": no second "A.".
    sheet = _lines_sheet(tmp_path / "s.pdf", [*lines, "3. Pytanie trzecie?", "A. a3", "B. b3 z punktami:", "   a. pierwszy", "C. c3"])
    result = run_family(_spec(), sheet, [three_answer_key(tmp_path / "k.pdf")], {"year": "2030"})
    found = {q.number: q for q in result.questions}
    assert [f.message for f in found[number].flags if f.code is Code.LABEL_REPEATED] == [flag]
    assert found["3"].choices == ["a3", "b3 z punktami: a. pierwszy", "c3"]
    assert not any(f.code is Code.LABEL_REPEATED for f in found["3"].flags)
    assert [n.message for n in result.notes if n.code is Code.LABELS_REPEATED] == [
        f"1 question(s) print an option label again, its line read into an option's text: {number}"]



def _greek_sheet(path: Path) -> Path:
    lines = []
    for n in (1, 2, 3):
        lines += [f"Α{n}. Ποια είναι η σωστή απάντηση στην ερώτηση {n};", "α. πρώτη", "β. δεύτερη", "γ. τρίτη", "δ. τέταρτη"]
    boxes = [TextBox(t, 30 if t[1:2] == "." else 20, 20 + 8 * i, 170, size=11) for i, t in enumerate(lines)]
    return build_pdf(path, [PageSpec(tuple(boxes))])


def test_a_marking_scheme_answering_one_task_twice_differently_keys_neither_and_says_so(tmp_path):
    """The sample's Greek marking scheme gives each task's answer on its line ("Α1 → β"); a second line for Α1 with
    another answer was ignored, the first kept as if the key were sure."""
    key = build_pdf(tmp_path / "apant.pdf", [PageSpec(tuple(
        TextBox(t, 20, 20 + 8 * i, 170, size=11) for i, t in enumerate(["Α1 → β", "Α2 → γ", "Α1 → δ", "Α3 → α", "Α2 → γ"])))])
    result = run_family(load_spec("sample_el"), _greek_sheet(tmp_path / "them.pdf"), [key], {"year": "2030", "folder": "x"})
    assert [(q.number, q.answer) for q in result.questions] == [("Α1", None), ("Α2", "γ"), ("Α3", "α")]  # Α2 twice alike
    assert [f.code for f in result.questions[0].flags] == [Code.NO_KEY_ENTRY]
    assert [p.message for p in result.problems if p.code is Code.KEY_KEYED_TWICE] == [
        "key apant.pdf: question Α1 keyed twice (β, δ); left unkeyed, as the key gives no one answer"]


def _marker_scheme_run(tmp_path: Path, tasks: list[tuple[str, list[str]]]):
    """The vocational sheet of three questions keyed by a scheme whose answers follow a marker: each task printed as
    `Zadanie N. (0-1)`, then its marker and answer lines, then the scoring rules (`answer_end`)."""
    spec = _spec()
    scheme = spec.key.model_copy(update={"kind": "marking_scheme", "task_start": r"^Zadanie\s+(?P<number>\d{1,2})\.",
                                         "answer_marker": r"^Poprawna odpowiedź", "answer_end": r"^Zasady oceniania"})
    spec = spec.model_copy(update={"key": scheme})
    lines = []
    for number, answer_lines in tasks:
        lines += [f"Zadanie {number}. (0-1)", *answer_lines, "Zasady oceniania", "1 pkt za odpowiedź"]
    key = build_pdf(tmp_path / "zasady.pdf", [PageSpec(tuple(TextBox(t, 20, 20 + 7 * i, 170, size=10) for i, t in enumerate(lines)))])
    sheet = _lines_sheet(tmp_path / "s.pdf", ["1. Pytanie?", "A. a1", "B. b1", "C. c1", "2. Pytanie drugie?", "A. a2", "B. b2",
                                              "C. c2", "3. Pytanie trzecie?", "A. a3", "B. b3", "C. c3"])
    return run_family(spec, sheet, [key], {"year": "2030"})


def test_a_marking_scheme_answering_a_task_twice_after_its_marker_keys_neither_and_says_so(tmp_path):
    """Task 2 printed again with another answer after its marker: the second was ignored and the first kept as if the
    key were sure. The same answer twice (task 3) is no conflict."""
    tasks = [(n, ["Poprawna odpowiedź", a]) for n, a in [("1", "A"), ("2", "B"), ("3", "C"), ("2", "C"), ("3", "C")]]
    result = _marker_scheme_run(tmp_path, tasks)
    assert [(q.number, q.answer) for q in result.questions] == [("1", "A"), ("2", None), ("3", "C")]
    assert [p.message for p in result.problems if p.code is Code.KEY_KEYED_TWICE] == [
        "key zasady.pdf: question 2 keyed twice (B, C); left unkeyed, as the key gives no one answer"]


def test_an_answer_on_the_markers_own_line_is_kept_when_the_rules_follow_at_once(tmp_path):
    """`Poprawna odpowiedź: B` and then the scoring rules: the answer read on the marker's line was not kept unless
    another answer line followed it (the question was left unkeyed)."""
    result = _marker_scheme_run(tmp_path, [(n, [f"Poprawna odpowiedź: {a}"]) for n, a in [("1", "A"), ("2", "B"), ("3", "C")]])
    assert [(q.number, q.answer) for q in result.questions] == [("1", "A"), ("2", "B"), ("3", "C")]
    assert not result.problems


def test_a_question_keyed_twice_is_not_also_called_unaccounted_for(tmp_path):
    sheet = _lines_sheet(tmp_path / "s.pdf", ["1. Pytanie?", "A. a1", "B. b1", "C. c1", "2. Pytanie drugie?", "A. a2", "B. b2",
                                              "C. c2", "3. Pytanie trzecie?", "A. a3", "B. b3", "C. c3"])
    key = build_pdf(tmp_path / "k.pdf", [PageSpec(tuple(TextBox(t, 20, 20 + 7 * i, 170, size=10)
                                                        for i, t in enumerate(["1. A", "2. B", "2. C", "3. C"])))])
    result = run_family(_spec(), sheet, [key], {"year": "2030"})
    codes = [p.code for p in result.problems]
    assert Code.KEY_KEYED_TWICE in codes and Code.KEY_ENTRIES_UNACCOUNTED not in codes


def _png() -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (300, 200), (200, 60, 60)).save(buffer, format="PNG")
    return buffer.getvalue()


def test_what_went_to_no_question_is_named_in_the_sheets_notes(tmp_path):
    """A cover page that `drop_pages` sets aside, instructions and a figure above the first question: kept out of every
    record as before, and each said once."""
    cover = PageSpec((TextBox("ARKUSZ PRÓBNY", 20, 20, 170, size=14), TextBox("Instrukcja dla zdającego", 20, 40, 170)))
    first = [TextBox("Rozwiąż zadania.", 20, 20, 170, size=10), TextBox("Odpowiedzi zaznacz w karcie.", 20, 27, 170, size=10),
             ImageBox(40, 35, 60, _png()), TextBox("1. Pytanie o sieci?", 20, 90, 170, size=10)]
    first += [TextBox(f"{label}. odpowiedź {label.lower()}1", 25, 97 + 6 * i, 120, size=10) for i, label in enumerate("ABC")]
    first += [TextBox("2. Pytanie drugie?", 20, 125, 170, size=10)]
    first += [TextBox(f"{label}. odpowiedź {label.lower()}2", 25, 132 + 6 * i, 120, size=10) for i, label in enumerate("ABC")]
    sheet = build_pdf(tmp_path / "s.pdf", [cover, PageSpec(tuple(first))])
    key = build_pdf(tmp_path / "k.pdf", [PageSpec((TextBox("1. A", 20, 20, 170), TextBox("2. B", 20, 27, 170)))])
    spec = _spec()
    spec = spec.model_copy(update={"layout": spec.layout.model_copy(update={"drop_pages": ["(?m)^ARKUSZ PRÓBNY"]})})
    result = run_family(spec, sheet, [key], {"year": "2030"}, figures_root=tmp_path)
    assert [q.number for q in result.questions] == ["1", "2"] and not any(q.images for q in result.questions)
    notes = {n.code: n.message for n in result.notes}
    assert notes[Code.LINES_BEFORE_QUESTIONS] == ("2 line(s) on page(s) 2 stand before any question of their part and were "
                                                  "parsed as no question's text (first: 'Rozwiąż zadania.')")
    assert notes[Code.FIGURES_UNATTACHED].startswith("1 figure(s) above the first question, attached to no question: page 2 at (")
    assert notes[Code.PAGES_DROPPED] == "1 page(s) not parsed: page 1 (matches layout.drop_pages rule '(?m)^ARKUSZ PRÓBNY')"
    assert all(n.severity is Severity.INFO for n in result.notes if n.code in (Code.LINES_BEFORE_QUESTIONS,
                                                                               Code.FIGURES_UNATTACHED, Code.PAGES_DROPPED))


def test_questions_skipped_by_type_are_named_not_only_counted(tmp_path):
    """`layout.skip_types` leaves open tasks out of the records; the problem line counted them and named none, so a
    closed question read as open (its labels lost) could not be found from the report."""
    spec = _spec()
    spec = spec.model_copy(update={"layout": spec.layout.model_copy(update={"skip_types": ["open"]})})
    sheet = _lines_sheet(tmp_path / "s.pdf", ["1. Pytanie?", "A. a1", "B. b1", "C. c1", "2. Opisz działanie sieci komputerowej.",
                                              "3. Pytanie trzecie?", "A. a3", "B. b3", "C. c3", "4. Wyjaśnij pojęcie protokołu."])
    key = build_pdf(tmp_path / "k.pdf", [PageSpec((TextBox("1. A", 20, 20, 170), TextBox("3. C", 20, 27, 170)))])
    result = run_family(spec, sheet, [key], {"year": "2030"})
    assert [q.number for q in result.questions] == ["1", "3"]
    assert [p.message for p in result.problems if p.code is Code.TYPES_SKIPPED] == [
        "skipped 2 question(s) of type ['open'] (layout.skip_types): 2, 4"]
