"""Option cells of lone glyphs are read by the glyphs the same page read alone and sure: a Korean `<보기>` box's
`ㄱ. ㄴ. ㄷ.` statement heads are the templates; an option `① ㄱ, ㄴ` that Tesseract read `7 ㄴ` (the ㄱ as a 7, the
comma lost) reads `ㄱ, ㄴ`. Real glyphs drawn in Noto Sans CJK, the words as Tesseract boxed them."""
from __future__ import annotations

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from pipeline.devkit.sample.pdfgen import cjk_font
from pipeline.extract.ocr.loneglyphs import read_lone_glyphs
from pipeline.extract.ocr.words import INK_BELOW, Word

LABELS = ("①", "②", "③", "④", "⑤")


def _page(cells: list[tuple[str, list[str]]]) -> tuple[np.ndarray, list[Word]]:
    """Ink and words of a page: three statement heads `ㄱ.` `ㄴ.` `ㄷ.` read sure, then one row of options, each
    (its printed text, what Tesseract read in it, word by word)."""
    path = cjk_font()
    if path is None:
        pytest.skip("Noto Sans CJK not installed")
    font = ImageFont.truetype(str(path), 42)
    image = Image.new("L", (1400, 420), 255)
    draw = ImageDraw.Draw(image)
    words: list[Word] = []

    def put(text: str, x: int, y: int, read: str | None, conf: float, line: int) -> int:
        left, top, right, bottom = draw.textbbox((x, y), text, font=font)
        draw.text((x, y), text, font=font, fill=0)
        if read is not None:
            words.append(Word(read, conf, left, top, right, bottom, (line, 1, 1)))
        return right

    for row, head in enumerate(("ㄱ.", "ㄴ.", "ㄷ.")):
        put(head, 40, 20 + 70 * row, head, 88.0, row + 1)
    x = 40
    for at, (printed, read) in enumerate(cells):
        x = put(LABELS[at], x, 300, LABELS[at], 96.0, 9) + 20
        glyphs = printed.split(" ")
        for k, glyph in enumerate(glyphs):
            x = put(glyph, x, 300, read[k] if k < len(read) else None, 40.0, 9) + 16
        x += 120
    return np.asarray(image) < INK_BELOW, words


def _cells(words: list[Word]) -> list[str]:
    row = sorted((w for w in words if w.top > 250), key=lambda w: w.left)
    text = " ".join(w.text for w in row)
    return [part.strip() for part in text.split("①")[-1].replace("②", "|").replace("③", "|").split("|")]


def test_a_cell_of_lone_glyphs_reads_as_the_page_reads_them_alone_its_commas_from_their_ink():
    ink, words = _page([("ㄱ, ㄴ", ["7", "ㄴ"]), ("ㄷ", ["ㄷ"]), ("ㄱ, ㄴ, ㄷ", ["ㄱ", "ㄴ,", "ㄷ"])])
    mended, notes = read_lone_glyphs(words, ink, LABELS)
    assert _cells(mended) == ["ㄱ, ㄴ", "ㄷ", "ㄱ, ㄴ, ㄷ"]
    assert len(notes) == 2 and "'7 ㄴ' after ① read 'ㄱ, ㄴ'" in notes[0]


def test_a_cell_with_ink_no_template_reads_is_left_as_read():
    # A syllable of two pieces (ㄱ and ㅏ: 가) is no lone glyph; a letter the page never read alone (ㄹ) matches none.
    ink, words = _page([("가", ["기"]), ("ㄹ", ["2"])])
    mended, notes = read_lone_glyphs(words, ink, LABELS)
    assert mended == words and notes == []


def test_a_page_with_no_glyph_read_alone_and_sure_is_left_as_read():
    ink, words = _page([("ㄱ, ㄴ", ["7", "ㄴ"])])
    unsure = [w if w.top > 250 else Word(w.text, 50.0, w.left, w.top, w.right, w.bottom, w.line) for w in words]
    assert read_lone_glyphs(unsure, ink, LABELS) == (unsure, [])


def test_a_latin_options_words_of_lone_letters_stay_words():
    # A Portuguese sheet reads its statements `I.` and the conjunction `e` alone and sure: they are templates. Its options
    # `A) I e II`, `B) ao` are words of those letters set close: read as printed, never spaced glyph by glyph (`I I`).
    font = ImageFont.truetype("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", 40)
    image = Image.new("L", (1400, 420), 255)
    draw = ImageDraw.Draw(image)
    words: list[Word] = []

    def put(text: str, x: int, y: int, conf: float, line: int) -> int:
        left, top, right, bottom = draw.textbbox((x, y), text, font=font)
        draw.text((x, y), text, font=font, fill=0)
        words.append(Word(text, conf, left, top, right, bottom, (line, 1, 1)))
        return right

    put("I.", 40, 20, 92.0, 1)
    put("e", put("estudo", 40, 90, 91.0, 2) + 20, 90, 93.0, 2)
    put("a", 40, 160, 90.0, 3)
    put("o", 100, 160, 90.0, 3)
    x = put("A)", 40, 300, 96.0, 9) + 20
    for word in ("I", "e", "II"):
        x = put(word, x, 300, 60.0, 9) + 18
    put("ao", put("B)", x + 100, 300, 96.0, 9) + 20, 300, 60.0, 9)
    mended, notes = read_lone_glyphs(words, np.asarray(image) < INK_BELOW, ("A)", "B)", "C)", "D)"))
    assert sorted(w.text for w in mended if w.top > 250) == sorted(["A)", "I", "e", "II", "B)", "ao"]) and notes == []
