"""Reading order of two page columns whose heads are set at different heights, as OCR reads them: a
stray mark beside a head (a banner's remnant read as "é") leaves the columns as columns. A justified
line OCR read as one line stays one line across its wide spaces."""
from __future__ import annotations

import pytest

from pipeline.extract import Glyph, assemble

SIZE = 10.0
LEFT, RIGHT = 30.0, 310.0  # points: the two columns' left edges on an A4 page
BODY = "linha de texto corrido da coluna"


def _words(text: str, x: float, top: float) -> list[Glyph]:
    glyphs, at = [], x
    for word in text.split():
        width = 5.0 * len(word)
        glyphs.append(Glyph(word, at, top, at + width, top + SIZE, SIZE))
        at += width + 3.0
    return glyphs


def _column(head: str, x: float, head_top: float) -> list[Glyph]:
    lines = _words(head, x, head_top)
    for row in range(40):
        lines += _words(f"{BODY} {row}", x, 112 + 12.5 * row)
    return lines


@pytest.mark.parametrize("stray", [False, True])
def test_two_columns_with_heads_at_different_heights_are_read_column_by_column(stray):
    glyphs = _column("QUESTÃO 68", LEFT + 40, 87) + _column("QUESTÃO 70", RIGHT + 40, 99)
    if stray:  # beside each head, as far from it as a word is from the next column
        glyphs += [Glyph("é", 153, 88, 158, 98, SIZE), Glyph("r", 432, 100, 436, 110, SIZE)]
    texts = [segment.text for segment in assemble(glyphs, 595.0) if segment.text not in ("é", "r")]
    column = [f"{BODY} {row}" for row in range(40)]
    assert texts == ["QUESTÃO 68", *column, "QUESTÃO 70", *column]


def _spread(words: list[str], x: float, gap: float, run) -> list[Glyph]:
    glyphs, at = [], x
    for word in words:
        glyphs.append(Glyph(word, at, 100.0, at + 5.0 * len(word), 100.0 + SIZE, SIZE, run=run))
        at += 5.0 * len(word) + gap
    return glyphs


def _lines(glyphs: list[Glyph]) -> list[str]:
    return [segment.text for segment in assemble(glyphs, 595.0)]


def test_a_justified_line_read_as_one_ocr_line_keeps_its_wide_spaces_as_spaces():
    """OAB 2017-22, option D of 49: a short justified line spreads its words 2 font sizes apart; cut at
    each space, the option ended at "denúncia" and the rest was lost."""
    words = ["denúncia", "do", "locador,", "a", "qualquer", "tempo,"]
    assert _lines(_spread(words, LEFT, 2.2 * SIZE, run=(3, 1, 2))) == ["denúncia do locador, a qualquer tempo,"]
    # words of different OCR lines, or of the text layer, are cut as before
    assert len(_lines(_spread(words, LEFT, 2.2 * SIZE, run=None))) == len(words)
    # a label or a number after the gap opens a grid's next cell; a gutter is wider than any space
    assert _lines(_spread(["A)", "10", "B)", "20", "C)", "30"], LEFT, 2.2 * SIZE, run=(1, 1, 1))) == ["A)", "10", "B)", "20", "C)", "30"]
    assert _lines(_spread(["izquierda", "derecha"], LEFT, 5 * SIZE, run=(1, 1, 1))) == ["izquierda", "derecha"]
    # a narrow gutter Tesseract read across: one gap far wider than the line's other spaces
    across = _spread(["tekst", "lewej", "kolumny"], LEFT, 0.3 * SIZE, run=(2, 1, 1)) + _spread(["tekst", "prawej"], 150.0, 0.3 * SIZE, run=(2, 1, 1))
    assert _lines(across) == ["tekst lewej kolumny", "tekst prawej"]
