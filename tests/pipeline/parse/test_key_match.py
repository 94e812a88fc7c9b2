"""A key is applied only when what it prints fits the sheet: sheet code, year, number of entries,
option labels. Real generated PDFs through the real extract and parse stages, with the sample_pl spec."""
from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.devkit.sample.pdfgen import PageSpec, TextBox, build_pdf, item_bottom
from pipeline.specs import load_spec
from tests.pipeline.parse.conftest import run_family

FACTS = {"qualification": "inf02", "year": "2024", "session": "styczen"}
ANSWERS = "BAD"


def _page(path: Path, lines: list[str]) -> Path:
    items, y = [], 20.0
    for text in lines:
        box = TextBox(text, 20, y, 170, size=12)
        items.append(box)
        y = item_bottom(box) + 2
    return build_pdf(path, [PageSpec(tuple(items))])


@pytest.fixture(scope="module")
def sheet(tmp_path_factory) -> Path:
    """INF.02 January 2024: three four-option questions; the cover prints a copyright year too."""
    lines = ["EGZAMIN ZAWODOWY · styczeń 2024 · Układ graficzny © CKE 2020", "Arkusz INF.02-X-24.01 · część pisemna"]
    for number in (1, 2, 3):
        lines += [f"Zadanie {number}.", f"Treść zadania {number}?"] + [f"{label}. wariant {label}" for label in "ABCD"]
    return _page(tmp_path_factory.mktemp("key_match") / "sheet.pdf", lines)


def key(tmp_path: Path, header: list[str], answers: str = ANSWERS) -> Path:
    return _page(tmp_path / "key.pdf", ["Odpowiedzi", *header] + [f"{n}. {a}" for n, a in enumerate(answers, 1)])


def parse(sheet: Path, key_path: Path, spec="sample_pl"):
    result = run_family(spec, sheet, [key_path], FACTS)
    return result, {q.number: q.answer for q in result.questions}


def test_the_sheets_own_key_is_applied(sheet, tmp_path):
    result, answers = parse(sheet, key(tmp_path, ["INF.02-X-24.01 · klucz · styczeń 2024 · © CKE 2020"]))
    assert answers == {"1": "B", "2": "A", "3": "D"}
    assert result.problems == [] and result.key_unusable is None


def test_a_key_printing_another_sheet_code_is_not_applied(sheet, tmp_path):
    result, answers = parse(sheet, key(tmp_path, ["INF.02-X-23.01 · klucz"]))
    assert set(answers.values()) == {None}
    assert result.problems == [
        "key key.pdf does not belong to this sheet: it prints sheet code INF.02-X-23.01, the sheet is INF.02-X-24.01; "
        "it was not applied"
    ]
    assert result.key_unusable == result.problems[0]
    assert all("belongs to another sheet" in " ".join(q.flags) for q in result.questions)


def test_a_key_printing_only_another_year_is_not_applied(sheet, tmp_path):
    result, answers = parse(sheet, key(tmp_path, ["Klucz odpowiedzi · styczeń 2023"]))
    assert set(answers.values()) == {None}
    # The sheet prints its own year (2024): strong evidence, and the report names the key's line.
    assert "it prints year 2023 (key line 'Klucz odpowiedzi · styczeń 2023'), the sheet is 2024" in result.key_unusable


def test_a_year_both_print_is_no_evidence(sheet, tmp_path):
    """A copyright year on both (and no exam year on the key) does not make the key another year's."""
    result, answers = parse(sheet, key(tmp_path, ["Układ graficzny © CKE 2020"]))
    assert answers == {"1": "B", "2": "A", "3": "D"} and result.key_unusable is None


def test_a_key_with_far_more_entries_than_the_sheet_has_questions_is_not_applied(sheet, tmp_path):
    result, answers = parse(sheet, key(tmp_path, [], answers="BADCBADC"))
    assert set(answers.values()) == {None}
    assert "it lists 8 answers for a sheet of 3 closed question numbers (5 with no question)" in result.key_unusable


def test_a_key_naming_labels_the_sheet_does_not_have_is_not_applied(sheet, tmp_path):
    spec = load_spec("sample_pl")
    wider = spec.model_copy(update={"key": spec.key.model_copy(update={"entry": r"(?<![\w.])(?P<number>\d{1,3})\.\s*(?P<answer>[A-F])\b"})})
    result, answers = parse(sheet, key(tmp_path, [], answers="EFA"), spec=wider)
    assert set(answers.values()) == {None}
    assert "2 of its 3 answers name option labels the sheet does not have (['E', 'F'])" in result.key_unusable
    # One stray label is a misread entry, flagged on its question, not a wrong key.
    result, answers = parse(sheet, key(tmp_path, [], answers="EAD"), spec=wider)
    assert answers == {"1": None, "2": "A", "3": "D"} and result.key_unusable is None


def test_no_key_at_all_is_a_reason_the_season_run_can_act_on(sheet):
    result = run_family("sample_pl", sheet, [], FACTS)
    assert result.key_unusable == "no answer key paired with this sheet"
