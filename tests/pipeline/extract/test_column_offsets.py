"""Two page columns whose options stand two a row, as far apart as the gutter, are read column by column,
left column first, whether their lines stand on one baseline or a fraction of a line apart (the right column
set ¼ or ½ a line lower): the two sides' lines do not share baselines, or each side's stems run across its
options' gaps, so the gap is a page gutter, not a grid's (`gutterchecks.gridlike`). Grids (options two a row under
full-width stems, a table whose left cells wrap beside one-line right cells, a table of short aligned cells,
whose next column is a white band no row crosses) are still read row by row. Generated text-layer PDFs
(fpdf2) in Vietnamese and Greek, laid out pure and compiled."""
from __future__ import annotations

import pytest

from pipeline.devkit.sample.pdfgen import PageSpec, TextBox, build_pdf, text_height
from tests.pipeline.extract.test_column_ends import LABELS, ROW, SIZE, _both_ways, _first, question_boxes, questions_down


WORDS = {
    "vi": ("Câu nào sau đây nói đúng về lịch sử phát triển của tiếng Việt trong thời kỳ",
           ("ngữ âm", "từ vựng", "ngữ pháp", "chữ viết", "phương ngữ", "văn bản", "dấu thanh", "thành ngữ")),
    "el": ("Ποια από τις παρακάτω απαντήσεις συμπληρώνει σωστά την πρόταση για την ιστορία της γλώσσας",
           ("γλωσσολογία", "ορθογραφία", "διάλεκτος", "λόγιος", "φωνολογία", "μορφολογία", "σύνταξη", "ύφος")),
}


def _question(number: int, language: str, x: float, y: float, width: float, long: bool = False) -> tuple[list[TextBox], float]:
    """A question from (x, y) down: its stem (a length that varies with the number; `long`, a line and
    more), then its options two a row (A B over C D, each cell half the column wide). Returns its boxes
    and the height it takes."""
    stem, words = WORDS[language]
    stem = (stem + " " if long else "") + " ".join(stem.split()[: 5 + number % 7]) + "?"
    return question_boxes(number, stem, words, x, y, width)


def two_columns_offset(path, language: str, offset: float, per_column: int = 9):
    """`per_column` questions down each column, the right column set `offset` lines lower than the left,
    a centred running head above both and a centred page number below."""
    width, gutter = 80.0, 8.0
    items = [TextBox("- 2 -", 20, 282, 170, size=SIZE, align="C"), TextBox("Đề thi 2031" if language == "vi" else "Εξετάσεις 2031", 20, 12, 170, size=SIZE, align="C")]
    items += questions_down(lambda number, x, y: _question(number, language, x, y, width),
                            ((20.0, 22.0, per_column), (20.0 + width + gutter, 22.0 + offset * ROW, per_column)))
    return build_pdf(path, [PageSpec(tuple(items))])


def one_column_pairs(path, language: str, questions: int = 10):
    """Questions across the page, each stem (a line and more) over its options two a row."""
    items = [TextBox("- 3 -", 20, 282, 170, size=SIZE, align="C")]
    y = 20.0
    for number in range(1, questions + 1):
        boxes, height = _question(number, language, 20.0, y, 170.0, long=True)
        items += boxes
        y += height
    return build_pdf(path, [PageSpec(tuple(items))])


def table_wrapped_left_cells(path, language: str, rows: int = 12):
    """A two-column table (no rules): each left cell wraps to two or three lines, its right cell one line
    at the cell's top. The left cells' later lines have no line beside them; the first lines share the
    right cells' baselines."""
    stem, words = WORDS[language]
    items = []
    y = 20.0
    for r in range(rows):
        left = TextBox(f"{r + 1}. {stem}" + (f" {stem}" if r % 2 else ""), 20, y, 80, size=SIZE)
        items += [left, TextBox(f"{words[r % len(words)]} ({r + 1})", 108, y, 80, size=SIZE)]
        y += text_height(left) + 3.0
    return build_pdf(path, [PageSpec(tuple(items))])


def table_short_cells(path, language: str, rows: int = 30):
    """A three-column table (no rules) of one short word a cell, every cell on its row's baseline."""
    _, words = WORDS[language]
    items = []
    for r in range(rows):
        for c in range(3):
            text = f"{r + 1}." if c == 0 else words[(r + 3 * c) % len(words)]
            items.append(TextBox(text, 20 + 60 * c, 20 + r * 8.0, 50, size=SIZE))
    return build_pdf(path, [PageSpec(tuple(items))])


def _in_order(texts: list[str], numbers: range) -> None:
    """Each question's stem after the one before, its options A B C D between it and the next."""
    starts = [_first(texts, f"{n}. ") for n in numbers]
    assert starts == sorted(starts)
    for start, end in zip(starts, starts[1:] + [len(texts)]):
        assert [t[:2] for t in texts[start:end] if t[:2] in LABELS] == list(LABELS)


@pytest.mark.parametrize("language", ["vi", "el"])
@pytest.mark.parametrize("offset", [0.0, 0.25, 0.5])
def test_columns_level_or_a_fraction_of_a_line_apart_are_read_left_column_first(tmp_path, monkeypatch, language, offset):
    texts = _both_ways(two_columns_offset(tmp_path / "page.pdf", language, offset), monkeypatch)
    # Questions 1-9 and their options (the left column) all before question 10 (the right column's first).
    _in_order(texts, range(1, 19))
    tenth = _first(texts, "10. ")
    assert all(not t.startswith(tuple(f"{n}. " for n in range(1, 10))) for t in texts[tenth:])
    assert texts.index("- 2 -") > _first(texts, "18. ")


@pytest.mark.parametrize("language", ["vi", "el"])
def test_a_one_column_page_of_options_two_a_row_is_not_split(tmp_path, monkeypatch, language):
    texts = _both_ways(one_column_pairs(tmp_path / "page.pdf", language), monkeypatch)
    _in_order(texts, range(1, 11))


@pytest.mark.parametrize("language", ["vi", "el"])
def test_a_table_whose_left_cells_wrap_beside_one_line_cells_is_read_row_by_row(tmp_path, monkeypatch, language):
    texts = _both_ways(table_wrapped_left_cells(tmp_path / "page.pdf", language), monkeypatch)
    _, words = WORDS[language]
    # Each right cell comes before the next row's left cell: row by row, not column by column.
    for r in range(11):
        assert texts.index(f"{words[r % len(words)]} ({r + 1})") < _first(texts, f"{r + 2}. ")


@pytest.mark.parametrize("language", ["vi", "el"])
def test_a_table_of_short_aligned_cells_is_read_row_by_row(tmp_path, monkeypatch, language):
    texts = _both_ways(table_short_cells(tmp_path / "page.pdf", language), monkeypatch)
    numbers = [int(t[:-1]) for t in texts if t[:-1].isdigit() and t.endswith(".")]
    assert numbers == list(range(1, 31))
    # Row 1's last cell before row 2's number.
    _, words = WORDS[language]
    assert texts.index(words[(0 + 6) % len(words)]) < texts.index("2.")
