"""A two-column page whose right column ends halfway down (the last page of a booklet) is still read
column by column, left column first, when each column holds options in a 2×2 grid and a page number
stands centred far below: a column is judged on its own rows down to where it ends, not on the empty
rows under it (`columns._gutter_run`, and the compiled kernel alike). One-column pages with option grids
and tables (a table's columns may end early, or its headings stand sparse beside long cells) are
not split. Generated text-layer PDFs (fpdf2) in Slovak and Greek."""
from __future__ import annotations

import numpy as np
import pytest

from pipeline.devkit.sample.pdfgen import PageSpec, TextBox, build_pdf, text_height
from pipeline.extract import charloop
from pipeline.extract.glypharrays import GlyphArrays
from pipeline.extract.layout import LayoutParams, assemble
from tests.pipeline.extract.test_char_loop import glyph_pages

SIZE = 9.5
ROW = SIZE * 1.25 / 2.835  # mm per line
LABELS = ("A.", "B.", "C.", "D.")

WORDS = {
    "sk": ("Ktorá z uvedených možností správne dopĺňa vetu o historickom vývoji slovenského jazyka v strednej Európe",
           ("jazykoveda", "pravopis", "nárečie", "spisovný", "hláskoslovie", "tvaroslovie", "skladba", "štylistika")),
    "el": ("Ποια από τις παρακάτω απαντήσεις συμπληρώνει σωστά την πρόταση για την ιστορία της ελληνικής γλώσσας",
           ("γλωσσολογία", "ορθογραφία", "διάλεκτος", "λόγιος", "φωνολογία", "μορφολογία", "σύνταξη", "ύφος")),
}


def question_boxes(number: int, stem: str, words: tuple[str, ...], x: float, y: float, width: float) -> tuple[list[TextBox], float]:
    """A question from (x, y) down: `stem` after its number, then its options in a 2×2 grid of `words` (A B over
    C D, each cell half the column wide). Returns its boxes and the height it takes."""
    items = [TextBox(f"{number}. {stem}", x, y, width, size=SIZE)]
    stem_height = text_height(items[0]) + 1.0
    y += stem_height
    for row, pair in enumerate((("A", "B"), ("C", "D"))):
        for cell, label in enumerate(pair):
            word = words[(number + 2 * row + cell) % len(words)]
            items.append(TextBox(f"{label}. {word}", x + 4 + cell * width / 2, y + row * ROW, width / 2 - 4, size=SIZE))
    return items, stem_height + 2 * ROW + 4.0


def questions_down(question, columns) -> list[TextBox]:
    """The boxes of questions numbered on from 1, `count` of them down each column from (x, y) (`columns`: (x, y,
    count) each); `question(number, x, y)` gives a question's boxes and the height it takes."""
    items: list[TextBox] = []
    number = 1
    for x, y, count in columns:
        for _ in range(count):
            boxes, height = question(number, x, y)
            items += boxes
            y += height
            number += 1
    return items


def _question(number: int, language: str, x: float, y: float, width: float) -> tuple[list[TextBox], float]:
    """A question of the language's stem and option words (`question_boxes`)."""
    return question_boxes(number, *WORDS[language], x, y, width)


def two_columns_right_short(path, language: str, left: int = 9, right: int = 2):
    """`left` questions down the left column, the rest (`right`) at the top of the right one, a centred
    running head and a centred page number at the foot."""
    width, gutter = 80.0, 10.0
    items = [TextBox("- 7 -", 20, 282, 170, size=SIZE, align="C"), TextBox("Skúška 2031 – časť II", 20, 12, 170, size=SIZE, align="C")]
    items += questions_down(lambda number, x, y: _question(number, language, x, y, width),
                            ((20.0, 22.0, left), (20.0 + width + gutter, 22.0, right)))
    return build_pdf(path, [PageSpec(tuple(items))])


def one_column_grids(path, language: str, questions: int = 9):
    """Questions across the page, each stem full width over a 2×2 grid of short options."""
    items = [TextBox("- 3 -", 20, 282, 170, size=SIZE, align="C")]
    y = 20.0
    for number in range(1, questions + 1):
        boxes, height = _question(number, language, 20.0, y, 170.0)
        items += boxes
        y += height
    return build_pdf(path, [PageSpec(tuple(items))])


def table_right_cells_end(path, language: str, rows: int = 30):
    """A four-column table (no rules) whose two right columns are filled only in its first third: a
    table's columns end early as a short page column does, but its cells stand as far apart as the gap."""
    _, words = WORDS[language]
    items = []
    for r in range(rows):
        cells = [f"{r + 1}.", words[r % len(words)], words[(r + 3) % len(words)], words[(r + 5) % len(words)]]
        if r >= rows // 3:
            cells = cells[:2]
        for c, text in enumerate(cells):
            items.append(TextBox(text, 20 + 45 * c, 20 + r * 8.0, 40, size=SIZE))
    return build_pdf(path, [PageSpec(tuple(items))])


def table_headings_beside_long_cells(path, language: str, rows: int = 3):
    """A two-column table (no rules) under a header row: a heading of a few words at the top of each left
    cell, beside a right cell of four wrapped lines (the last one of eight); a full-width line below. Its
    left column is sparse and stops above the right one's end, where a page column that ends early is
    the right one."""
    stem, words = WORDS[language]
    items = [TextBox(words[0], 20, 20, 80, size=SIZE, bold=True), TextBox(words[1], 105, 20, 85, size=SIZE, bold=True)]
    y = 28.0
    for r in range(rows):
        cell = TextBox(" ".join([stem] * (2 if r < rows - 1 else 4)) + f" ({r + 1}).", 105, y, 85, size=SIZE)
        items += [TextBox(_heading(language, r), 20, y, 80, size=SIZE), cell]
        y += text_height(cell) + 3.0
    items.append(TextBox(f"{stem} {stem}", 20, y + 4, 170, size=SIZE))
    return build_pdf(path, [PageSpec(tuple(items))])


def _heading(language: str, row: int) -> str:
    words = WORDS[language][1]
    return f"{'I' * (row + 1)}. {words[2 + row]} {words[3 + row]} {words[4 + row]}."


def _texts(path, monkeypatch, switch: str) -> list[str]:
    """The page's segments in reading order, laid out with the compiled loops' switch at `switch`."""
    monkeypatch.setenv(charloop.ENV_SWITCH, switch)
    (glyphs, width, height), = glyph_pages(path)
    assert isinstance(glyphs, GlyphArrays)
    return [s.text for s in assemble(glyphs, width, LayoutParams(), page_height=height, shared_descent=True)]


def _both_ways(path, monkeypatch) -> list[str]:
    """The reading, the same pure and compiled (where numba is there)."""
    pure = _texts(path, monkeypatch, "0")
    try:
        import numba  # noqa: F401
    except ImportError:
        return pure
    assert _texts(path, monkeypatch, "1") == pure
    return pure


def _first(texts: list[str], prefix: str) -> int:
    return next(i for i, t in enumerate(texts) if t.startswith(prefix))


@pytest.mark.parametrize("language", ["sk", "el"])
def test_a_short_right_column_of_option_grids_is_read_after_the_whole_left_column(tmp_path, monkeypatch, language):
    texts = _both_ways(two_columns_right_short(tmp_path / "page.pdf", language), monkeypatch)
    # Every left-column line (questions 1-9 and their options) before question 10, which opens the right
    # column level with question 1: row by row they interleave.
    tenth = _first(texts, "10.")
    assert tenth > _first(texts, "9.")
    assert all(not t.startswith(tuple(f"{n}." for n in range(1, 10))) for t in texts[tenth:])
    # The right column reads in its own order: 10, its options A B C D, then 11 and its options.
    eleventh = _first(texts, "11.")
    assert [t[:2] for t in texts[tenth:eleventh] if t[:2] in LABELS] == list(LABELS)
    assert [t[:2] for t in texts[eleventh:] if t[:2] in LABELS] == list(LABELS)
    assert texts.index("- 7 -") > _first(texts, "11.")


@pytest.mark.parametrize("language", ["sk", "el"])
def test_a_one_column_page_of_option_grids_is_not_split(tmp_path, monkeypatch, language):
    texts = _both_ways(one_column_grids(tmp_path / "page.pdf", language), monkeypatch)
    # Question by question down the page, each one's options A B C D before the next stem.
    starts = [_first(texts, f"{n}. ") for n in range(1, 10)]
    assert starts == sorted(starts)
    for start, end in zip(starts, starts[1:]):
        assert [t[:2] for t in texts[start:end] if t[:2] in LABELS] == list(LABELS)


@pytest.mark.parametrize("language", ["sk", "el"])
def test_a_table_whose_right_columns_end_early_is_read_row_by_row(tmp_path, monkeypatch, language):
    texts = _both_ways(table_right_cells_end(tmp_path / "page.pdf", language), monkeypatch)
    _, words = WORDS[language]
    # Row 1's cells come before row 2's number: the table is not read as two page columns.
    assert texts.index(words[5 % len(words)]) < texts.index("2.")
    numbers = [int(t[:-1]) for t in texts if t[:-1].isdigit() and t.endswith(".")]
    assert numbers == list(range(1, 31))
    assert np.all(np.diff(numbers) == 1)


@pytest.mark.parametrize("language", ["sk", "el"])
def test_a_table_of_headings_beside_long_cells_is_read_row_by_row(tmp_path, monkeypatch, language):
    texts = _both_ways(table_headings_beside_long_cells(tmp_path / "page.pdf", language), monkeypatch)
    # Each heading comes right before its own cell's first line, not all headings first.
    for r in range(3):
        heading = texts.index(_heading(language, r))
        assert texts[heading + 1].startswith(WORDS[language][0].split()[0])


def test_a_right_column_ends_at_its_last_ink_before_six_empty_rows_a_page_number_below_is_not_more_of_it():
    from pipeline.extract.columns import GutterWalks

    left, right, number = (30.0, 270.0), (320.0, 560.0), (300.0, 312.0)
    # Rows 0-7: both columns (row 3 a short right line); rows 8-19: the left column alone; row 20: a
    # page number standing right of the narrowed gutter (280-296).
    spans = [[left, right]] * 3 + [[left, (320.0, 400.0)]] + [[left, right]] * 4 + [[(30.0, 280.0)]] * 12 + [[left, number]]
    walks = GutterWalks(spans, 9.0)
    end, gutter, _, right_fill = walks.walk(0, (270.0, 320.0))
    assert (end, gutter) == (21, (280.0, 300.0))
    assert right_fill == 7 * 240.0 + 80.0 + 12.0  # over the band: the page number counts
    assert walks.right_column_end(0, (270.0, 320.0), 6) == (7 * 240.0 + 80.0, 8)
    # A column of fewer rows than a band needs is judged on that many rows.
    short = GutterWalks([[left, right]] * 2 + [[(30.0, 280.0)]] * 10, 9.0)
    short.walk(0, (270.0, 320.0))
    assert short.right_column_end(0, (270.0, 320.0), 6) == (2 * 240.0, 6)
