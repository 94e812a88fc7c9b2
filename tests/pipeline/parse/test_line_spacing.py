"""Wrapped stems and options are joined by the sheet's own line pitch, at any line spacing.

A word processor's 1.5 or double spacing widens the gap between the lines of one option far beyond what
single spacing has; the parser must read the spacing from the sheet, not from the font size. Each sheet
holds options wrapping onto a second and third line, a 2x2 grid whose options wrap, a note printed right
under a question's options at the stem margin (not part of the last option), and questions following
one another closely; in one column and in two.
"""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from pipeline.devkit.sample.pdfgen import Margins, PageSpec, Paragraph, QuestionBlock, build_pdf, paginate
from pipeline.records import Question
from pipeline.specs import SourceSpec, parse_spec
from tests.pipeline.parse.conftest import run_family

SINGLE = 1.25  # pdfgen's single spacing: line height 1.25 x the font size

NOTE = "Informacja do pytań 4 i 5. Przeczytaj uważnie przepis i wskaż poprawną odpowiedź na każde pytanie."

# (stem, options as printed, whether they are set in a 2x2 grid)
QUESTIONS: list[tuple[str, tuple[str, ...], bool]] = [
    (
        "Zgodnie z ustawą o adwokaturze odwołanie od uchwały okręgowej rady adwokackiej w sprawie wpisu na "
        "listę adwokatów rozpatruje:",
        (
            "A. Naczelna Rada Adwokacka, działająca w pełnym składzie, po zasięgnięciu opinii komisji "
            "rewizyjnej izby",
            "B. minister właściwy do spraw sprawiedliwości",
            "C. sąd dyscyplinarny izby w składzie trzech członków, wyznaczony przez prezesa sądu spośród "
            "członków, którzy nie orzekali w sprawie w pierwszej instancji ani w postępowaniu wyjaśniającym",
            "D. Sąd Najwyższy",
        ),
        False,
    ),
    (
        "Które z wymienionych pism procesowych wnosi się za pośrednictwem sądu, który wydał zaskarżone orzeczenie?",
        (
            "A. apelację od wyroku sądu pierwszej instancji",
            "B. zażalenie",
            "C. skargę kasacyjną",
            "D. wniosek o sporządzenie uzasadnienia wyroku na piśmie",
        ),
        True,
    ),
    (
        "Termin do wniesienia sprzeciwu od wyroku zaocznego wynosi:",
        (
            "A. tydzień od doręczenia wyroku",
            "B. dwa tygodnie od doręczenia wyroku pozwanemu, a gdy doręczenie nastąpiło przez awizo, od dnia "
            "upływu terminu odbioru",
            "C. miesiąc od ogłoszenia wyroku",
            "D. trzy dni",
        ),
        False,
    ),
    (
        "Przedawnienie roszczenia o zapłatę ceny sprzedaży dokonanej w zakresie działalności przedsiębiorstwa "
        "sprzedawcy następuje z upływem:",
        (
            "A. roku",
            "B. dwóch lat, licząc od końca roku kalendarzowego, w którym roszczenie stało się wymagalne",
            "C. trzech lat",
            "D. sześciu lat",
        ),
        False,
    ),
]


COLUMN_WIDTH = 81.0  # mm: two columns and an 8 mm gutter between 20 mm margins
GUTTER = 8.0
COLUMN = Margins(left=20.0, right=210.0 - 20.0 - COLUMN_WIDTH)


def _blocks(spacing: float, printed: list[tuple[int, int]]) -> list[QuestionBlock | Paragraph]:
    """For each (number, index): question `number` printing QUESTIONS[index]. The note follows the third
    question closely, as a word processor sets the next paragraph."""
    blocks: list[QuestionBlock | Paragraph] = []
    for number, index in printed:
        stem, options, grid = QUESTIONS[index]
        noted = index == 2
        # -1 mm takes back the millimetre pdfgen leaves under each option: the note is the very next line.
        space_after = -1.0 if noted else 4.0
        blocks.append(
            QuestionBlock(f"Pytanie {number}.", stem, options, grid=grid, line_spacing=SINGLE * spacing, space_after=space_after)
        )
        if noted:
            blocks.append(Paragraph(NOTE, space_after=2.0, line_spacing=SINGLE * spacing))
    return blocks


def _one_column(spacing: float, questions: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The first of `questions` that fit in one column (a question noted below keeps its note)."""
    blocks = _blocks(spacing, questions)
    on_page = [block for block, page in zip(blocks, paginate(blocks, margins=COLUMN).block_pages) if page == 0]
    count = sum(isinstance(block, QuestionBlock) for block in on_page)
    if questions[count - 1][1] == 2 and isinstance(on_page[-1], QuestionBlock):
        count -= 1  # its note went over: both go to the next column
    return questions[:count]


def _sheet(spacing: float, columns: int) -> tuple[list[PageSpec], list[int]]:
    """Pages holding each of QUESTIONS at least once, and the QUESTIONS index of questions 1, 2, ...

    In two columns each page's right column repeats its left column's questions (numbered on), so that
    both columns stand on the same rows: columns whose rows drift apart are a matter of extraction
    (column detection), not of joining lines."""
    if columns == 1:
        order = list(range(len(QUESTIONS)))
        return paginate(_blocks(spacing, [(n + 1, i) for n, i in enumerate(order)])).pages, order
    pages: list[PageSpec] = []
    order: list[int] = []
    while len(set(order)) < len(QUESTIONS):
        # A full column of the questions from the next one on, cycling through the list.
        start, first_index = len(order) + 1, len(order) // 2
        left = _one_column(spacing, [(start + k, (first_index + k) % len(QUESTIONS)) for k in range(3 * len(QUESTIONS))])
        right = [(number + len(left), index) for number, index in left]
        left_page, right_page = (paginate(_blocks(spacing, part), margins=COLUMN).pages[0] for part in (left, right))
        shifted = tuple(replace(item, x=item.x + COLUMN_WIDTH + GUTTER) for item in right_page.items)
        pages.append(PageSpec(tuple(left_page.items) + shifted))
        order += [index for _, index in left] * 2
    return pages, order


def _spec() -> SourceSpec:
    return parse_spec(
        {
            "name": "line_spacing_test",
            "description": "generated single-choice sheets at several line spacings",
            "metadata": {"country": "PL", "language": "pl", "exam": "test", "subject": "prawo", "license_note": "generated"},
            "ocr": {"languages": ["pol"]},
            "local": {"files": [{"role": "sheet", "pattern": r"(?P<year>\d{4})\.pdf$"}]},
            "pairing": {"on": ["year"], "key_required": False},
            "layout": {
                "question_start": r"^Pytanie (?P<number>\d+)\.\s*",
                "options": {"labels": ["A", "B", "C", "D"], "styles": ["A."]},
            },
            "key": {"kind": "highlight"},
        },
        "line_spacing_test.yaml",
    )


def _flat(text: str) -> str:
    return " ".join(text.split())


def _parse(tmp_path: Path, spacing: float, columns: int) -> tuple[dict[str, Question], list[int]]:
    """The sheet's questions by number, and the QUESTIONS index each printed number shows."""
    pages, order = _sheet(spacing, columns)
    sheet = build_pdf(tmp_path / "2031.pdf", pages)
    result = run_family(_spec(), sheet, [], {"year": "2031"})
    return {q.number: q for q in result.questions}, order


@pytest.mark.parametrize("columns", [1, 2])
@pytest.mark.parametrize("spacing", [1.0, 1.15, 1.5, 2.0])
def test_wrapped_options_are_whole_and_a_following_note_is_not_taken_in(tmp_path, spacing, columns):
    parsed, order = _parse(tmp_path, spacing, columns)
    assert sorted(set(order)) == list(range(len(QUESTIONS)))  # every layout is on the sheet
    assert sorted(parsed, key=int) == [str(n) for n in range(1, len(order) + 1)]
    for number, index in enumerate(order, start=1):
        stem, options, _ = QUESTIONS[index]
        question = parsed[str(number)]
        assert question.type == "single_choice", f"question {number}: {question.type}"
        assert _flat(question.question) == stem, f"question {number}"
        assert [_flat(c) for c in question.choices] == [o[3:] for o in options], f"question {number}"
    # The note printed under the third question's options, at the stem margin, is not part of option D.
    assert not any("Informacja" in choice for q in parsed.values() for choice in q.choices)
