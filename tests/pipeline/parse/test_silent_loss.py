"""No silent loss: lost option labels, numbering gaps and repeats, unused key entries, questions of a type
the family does not have and colliding record ids are each a flag on the record and a problem line."""
from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from pipeline.devkit.sample.pdfgen import PageSpec, TextBox, build_pdf
from pipeline.specs import LayoutSpec, load_spec
from tests.pipeline.parse.conftest import run_family


def _spec(**layout_changes):
    """The vocational spec with "1." numbering, 3+ options, open questions kept."""
    spec = load_spec("pl_cke_zawodowy")
    options = spec.layout.options.model_copy(update={"min_count": 3, "keep_partial": False})
    update = {"question_start": r"^(?P<number>\d{1,2})\.\s+(?=\S)", "options": options, "skip_types": [], **layout_changes}
    return spec.model_copy(update={"layout": spec.layout.model_copy(update=update)})


def _sheet(path: Path, questions: list[tuple[str, str]], x_of: dict[str, float] | None = None) -> Path:
    """Questions as (number, printed option labels): each label becomes one option line."""
    items, y = [], 20.0
    for number, labels in questions:
        items.append(TextBox(f"{number}. Pytanie numer {number} o sieci komputerowe?", (x_of or {}).get(number, 20), y, 170, size=10))
        y += 7
        for label in labels:
            items.append(TextBox(f"{label}. odpowiedź {label.lower()}{number}", 25, y, 120, size=10))
            y += 6
        y += 6
    return build_pdf(path, [PageSpec(tuple(items))])


def _key(path: Path, lines: list[str]) -> Path:
    return build_pdf(path, [PageSpec(tuple(TextBox(t, 20, 20 + 7 * i, 170, size=10) for i, t in enumerate(lines)))])


def _problem(result, words: str) -> list[str]:
    return [p for p in result.problems if words in p]


@pytest.fixture(scope="module")
def lost_labels(tmp_path_factory):
    """Question 2 prints only A. and B. where the family has three options: no options are read."""
    root = tmp_path_factory.mktemp("lost")
    sheet = _sheet(root / "s.pdf", [("1", "ABC"), ("2", "AB"), ("3", "ABC")])
    return sheet, _key(root / "k.pdf", ["1. A", "2. B", "3. C"])


def test_printed_labels_that_end_in_no_option_are_flagged_and_reported(lost_labels):
    result = run_family(_spec(), *[lost_labels[0], [lost_labels[1]]], {"year": "2030"})
    found = {q.number: q for q in result.questions}
    assert found["2"].type == "open" and found["2"].choices == []
    assert "printed option labels ['A', 'B'] but no options were read; kept as open" in found["2"].flags
    assert _problem(result, "print option labels that ended in no option: 2")
    assert not any("option labels" in f for f in found["1"].flags + found["3"].flags)


def test_a_lost_question_is_reported_even_when_its_type_is_skipped(lost_labels):
    result = run_family(_spec(skip_types=["open"]), lost_labels[0], [lost_labels[1]], {"year": "2030"})
    assert [q.number for q in result.questions] == ["1", "3"]
    assert _problem(result, "print option labels that ended in no option: 2")


def test_lowercase_sub_items_of_an_open_task_are_not_lost_labels(tmp_path):
    items = [TextBox("1. Opisz sieć komputerową:", 20, 20, 170, size=10)]
    items += [TextBox(f"{s}) podpunkt {s}", 25, 27 + 6 * i, 120, size=10) for i, s in enumerate("ab")]
    items += [TextBox("2. Pytanie o sieci?", 20, 45, 170, size=10)]
    items += [TextBox(f"{s}. odpowiedź {s}", 25, 52 + 6 * i, 120, size=10) for i, s in enumerate("AB")]
    sheet = build_pdf(tmp_path / "s.pdf", [PageSpec(tuple(items))])
    result = run_family(_spec(), sheet, [_key(tmp_path / "k.pdf", ["2. A"])], {"year": "2030"})
    found = {q.number: q for q in result.questions}
    assert found["1"].type == "open" and not any("option labels" in f for f in found["1"].flags)
    assert any(f.startswith("printed option labels ['A', 'B']") for f in found["2"].flags)


def test_a_key_entry_for_a_question_read_as_open_is_flagged_not_dropped(lost_labels):
    result = run_family(_spec(), *[lost_labels[0], [lost_labels[1]]], {"year": "2030"})
    found = {q.number: q for q in result.questions}
    assert "key entry 'B' was not used: the question was read as open" in found["2"].flags
    assert _problem(result, "key entr(y/ies) left unused, their questions read as not closed: 2")
    assert found["1"].answer == "A" and found["3"].answer == "C"


def test_a_family_declared_single_choice_flags_a_question_that_lost_its_labels(lost_labels):
    result = run_family(_spec(closed_types=["single_choice"]), lost_labels[0], [lost_labels[1]], {"year": "2030"})
    found = {q.number: q for q in result.questions}
    assert (
        "read as open, a type the family does not have (layout.closed_types ['single_choice'])" in found["2"].flags
    )
    assert _problem(result, "1 question(s) read as a type outside layout.closed_types ['single_choice']: 2")
    assert found["1"].flags == [] and found["3"].flags == []
    assert not any("1" in p.split(":")[-1] or "3" in p.split(":")[-1] for p in result.problems)


def test_a_gap_in_the_numbering_is_flagged_on_the_question_after_it(tmp_path):
    sheet = _sheet(tmp_path / "s.pdf", [("1", "ABC"), ("2", "ABC"), ("5", "ABC")])
    result = run_family(_spec(), sheet, [_key(tmp_path / "k.pdf", ["1. A", "2. B", "5. C"])], {"year": "2030"})
    found = {q.number: q for q in result.questions}
    assert found["5"].flags == ["question numbering jumps from 2 to 5: 3, 4 not found"]
    assert found["1"].flags == [] and found["2"].flags == []
    assert result.problems == ["gap(s) in the question numbering: 2→5"]


def test_a_repeated_number_is_reported_and_its_id_collision_is_an_error(tmp_path):
    sheet = _sheet(tmp_path / "s.pdf", [("1", "ABC"), ("2", "ABC"), ("2", "ABC"), ("3", "ABC")])
    result = run_family(_spec(), sheet, [_key(tmp_path / "k.pdf", ["1. A", "2. B", "3. C"])], {"year": "2030"})
    assert [q.number for q in result.questions] == ["1", "2", "2", "3"]
    assert _problem(result, "question number(s) printed more than once: 2")
    [collision] = _problem(result, "error: record id")
    assert "pl_cke_zawodowy:2030:-:-:2" in collision and "produced by 2 questions" in collision


def test_closed_types_names_known_types():
    with pytest.raises(ValidationError, match="unknown question type"):
        LayoutSpec(question_start=r"^(?P<number>\d+)\.", closed_types=["multiple_choice"])


def test_sub_items_with_answer_lines_are_one_open_task_not_options(tmp_path):
    """'a) 10 ……… b) 4 ……… c) 0 ………': parts of a task to fill in, with no printed choice."""
    items = [TextBox("1. Podaj wartości wyrażeń w systemie dwójkowym.", 20, 20, 170, size=10)]
    items += [TextBox(f"{label}. {value} " + "…" * 30, 25, 27 + 6 * i, 150, size=10) for i, (label, value) in enumerate(zip("ABC", ("10", "4", "0")))]
    items += [TextBox("2. Pytanie o sieci komputerowe?", 20, 60, 170, size=10)]
    items += [TextBox(f"{label}. odpowiedź {label.lower()}", 25, 67 + 6 * i, 120, size=10) for i, label in enumerate("ABC")]
    sheet = build_pdf(tmp_path / "s.pdf", [PageSpec(tuple(items))])
    result = run_family(_spec(), sheet, [_key(tmp_path / "k.pdf", ["2. B"])], {"year": "2030"})
    found = {q.number: q for q in result.questions}
    assert found["1"].type == "open" and found["1"].choices == [] and found["1"].flags == []
    assert "10" in found["1"].question and "0" in found["1"].question
    assert found["2"].type == "single_choice" and found["2"].answer == "B"
