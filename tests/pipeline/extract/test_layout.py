"""Reading order of two page columns whose heads are set at different heights, as OCR reads them: a
stray mark beside a head (a banner's remnant read as "é") leaves the columns as columns."""
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
