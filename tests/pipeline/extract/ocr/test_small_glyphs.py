"""The `small-glyphs` pass: raised and lowered small glyphs (a degree ring, primes, sub- and superscript digits) read by
their shape in the ink of a word, where Tesseract read another mark or none; a mark the ink shows no such glyph for
stays as read. Lines are drawn in real typefaces, softened as a 150 dpi scan with blur 0.8 is, and the small digits
read by the real Tesseract."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFilter, ImageFont

from pipeline.extract.ocr import installed_languages
from pipeline.extract.ocr.pagepasses import PAGE_PASSES
from pipeline.extract.ocr.smallglyphs import Glyph, char_spans, mend_word, small_glyphs
from pipeline.extract.ocr.words import Word

FONTS = [Path("/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"), Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")]
SIZE = 42  # px: a 10 pt line at 300 dpi
# A token: pieces of (text, place): "" on the line, "sup" raised, "sub" lowered, both at SMALL of the size.
SMALL = 0.6
Token = list[tuple[str, str]]
# How far each place moves a piece's top (px): "high" a superscript set high, its top 1.4 cap heights over the baseline
# (Revalida's `kg/m²`); "thin" a subscript narrowed as a condensed face prints it (CONAREME's `SatO₂` in Arial Narrow).
PLACES = {"": 0.0, "sup": -0.05 * SIZE, "high": -0.2 * SIZE, "sub": 0.42 * SIZE, "thin": 0.42 * SIZE}
NARROW = Path("/usr/share/fonts/truetype/liberation/LiberationSansNarrow-Regular.ttf")


def drawn_line(tokens: list[Token], font_path: Path, *, blur: float = 1.6) -> tuple[Image.Image, list[Word]]:
    """`tokens` drawn as one line, small pieces raised or lowered as a typesetter's super- and subscripts, and blurred
    (a 150 dpi scan at blur 0.8, rendered at 300 dpi); the words' boxes are their ink's, as Tesseract gives them."""
    if not font_path.is_file():
        pytest.skip(f"{font_path} not installed")
    font, small = ImageFont.truetype(str(font_path), SIZE), ImageFont.truetype(str(font_path), round(SMALL * SIZE))
    image = Image.new("L", (80 + 40 * sum(len(text) + 1 for token in tokens for text, _ in token), 3 * SIZE), 255)
    draw = ImageDraw.Draw(image)
    words, x = [], 30
    for token in tokens:
        boxes = []
        for text, place in token:
            face = font if not place else small
            y = SIZE + PLACES[place]
            if place == "thin":  # a condensed face's subscript: the small glyph drawn, then narrowed to 0.7 of its width
                box = draw.textbbox((0, 0), text, font=face)
                glyph = Image.new("L", (box[2] + 2, box[3] + 2), 255)
                ImageDraw.Draw(glyph).text((0, 0), text, font=face, fill=0)
                glyph = glyph.resize((max(1, round(0.7 * glyph.width)), glyph.height), Image.Resampling.LANCZOS)
                image.paste(glyph, (x, int(y)))
                inked = Image.eval(glyph, lambda v: 255 - v).getbbox() or (0, 0, 1, 1)
                boxes.append((x + inked[0], int(y) + inked[1], x + inked[2], int(y) + inked[3]))
            else:
                boxes.append(draw.textbbox((x, y), text, font=face))
                draw.text((x, y), text, font=face, fill=0)
            x = boxes[-1][2] + 3
        left, top = min(b[0] for b in boxes), min(b[1] for b in boxes)
        right, bottom = max(b[2] for b in boxes), max(b[3] for b in boxes)
        words.append(Word("".join(t for t, _ in token), 90.0, left, top, right, bottom, (1, 1, 1)))
        x = right + int(0.3 * SIZE)
    return image.filter(ImageFilter.GaussianBlur(blur)), words


def read_as(words: list[Word], texts: dict[int, str]) -> list[Word]:
    return [Word(texts.get(i, w.text), w.conf, w.left, w.top, w.right, w.bottom, w.line) for i, w in enumerate(words)]


def mended(page: Image.Image, words: list[Word], tmp_path: Path) -> list[str]:
    if "spa" not in installed_languages():
        pytest.skip("Tesseract's Spanish data is not installed")
    read, _ = small_glyphs(words, np.asarray(page), page, ("spa",), 300, 1, tmp_path)
    return [w.text for w in read]


def plain(*texts: str) -> list[Token]:
    return [[(t, "")] for t in texts]


@pytest.mark.parametrize("font", FONTS, ids=lambda p: p.stem)
def test_a_degree_ring_read_as_a_quote_an_asterisk_or_a_question_mark_is_a_ring(font: Path, tmp_path: Path):
    page, words = drawn_line(plain("Examen:", "T°39°C,", "presenta", "fiebre", "de", "38°C", "o", "40°C"), font)
    misread = read_as(words, {1: 'T"39*C,', 5: "38?C", 7: "40ºC"})
    assert mended(page, misread, tmp_path) == ["Examen:", "T°39°C,", "presenta", "fiebre", "de", "38°C", "o", "40°C"]


@pytest.mark.parametrize("font", FONTS, ids=lambda p: p.stem)
def test_an_ordinal_standing_on_its_bar_is_no_ring(font: Path, tmp_path: Path):
    page, words = drawn_line(plain("el", "10º", "lugar", "y", "el", "2º", "puesto"), font)
    assert mended(page, words, tmp_path) == ["el", "10º", "lugar", "y", "el", "2º", "puesto"]


@pytest.mark.parametrize("font", FONTS, ids=lambda p: p.stem)
def test_primes_dropped_after_a_count_are_put_back(font: Path, tmp_path: Path):
    page, words = drawn_line(plain("frecuencia", "FC", "110X',", "FR", "24X\";", "luego"), font)
    misread = read_as(words, {2: "110X,", 4: "24X;"})
    assert mended(page, misread, tmp_path) == ["frecuencia", "FC", "110X',", "FR", "24X\";", "luego"]


@pytest.mark.parametrize("font", FONTS, ids=lambda p: p.stem)
def test_a_lowered_digit_read_as_a_comma_or_a_slash_is_the_digit_written_plain(font: Path, tmp_path: Path):
    tokens = [[("con", "")], [("SatO", ""), ("2", "sub")], [("de", "")], [("94%", "")], [("y", "")], [("H", ""), ("2", "sub"), ("O", "")],
              [("normal", "")]]
    page, words = drawn_line(tokens, font)
    misread = read_as(words, {1: "SatO,", 5: "H/O"})
    assert mended(page, misread, tmp_path) == ["con", "SatO2", "de", "94%", "y", "H2O", "normal"]


@pytest.mark.parametrize("font", FONTS, ids=lambda p: p.stem)
def test_a_raised_digit_read_as_a_mark_is_the_digit(font: Path, tmp_path: Path):
    tokens = [[("un", "")], [("área", "")], [("de", "")], [("12", "")], [("m", ""), ("2", "sup")], [("cerca", "")]]
    page, words = drawn_line(tokens, font)
    assert mended(page, read_as(words, {4: "m?"}), tmp_path) == ["un", "área", "de", "12", "m2", "cerca"]


@pytest.mark.parametrize("font", FONTS, ids=lambda p: p.stem)
def test_marks_read_right_and_marks_with_no_small_glyph_stay_as_read(font: Path, tmp_path: Path):
    """Quotation marks, an apostrophe, an accent, an i's dot, a question mark, commas and a real asterisk: nothing is
    rewritten; a mark read where the ink has no raised glyph (`dijo"` over a plain word) stays too."""
    texts = ("dijo:", '"Qué', 'día!"', "l'eau", "año?", "nota*", "ñandú,", "Óscar", "Ítaca")
    page, words = drawn_line(plain(*texts), font)
    assert mended(page, words, tmp_path) == list(texts)
    assert mended(page, read_as(words, {6: 'ñandú"'}), tmp_path)[6] == 'ñandú"'


def test_the_pass_is_registered_after_the_comma_tails_with_a_version_and_a_condition():
    names = [p.name for p in PAGE_PASSES]
    assert "small-glyphs" in names and names.index("comma-tails") < names.index("small-glyphs")
    small = PAGE_PASSES[names.index("small-glyphs")]
    assert not small.required and small.version and "raised mark" in small.condition


def test_a_ring_read_as_a_digit_takes_its_place_and_a_letter_beside_ticks_stays():
    """Where a word holds more letters and digits than pieces of letters' height, a ring stands where a digit was read
    (`40.77C`: the ring read `7`); ticks never take a letter's place (`54X,`: the 5 and 4 touch, one piece)."""
    spans = char_spans("40.77C", 0, 120)
    at = (spans[4][0] + spans[4][1]) / 2
    ring = Glyph(int(at) - 4, 0, int(at) + 4, 8, True, "ring")
    assert mend_word("40.77C", 0, 120, [ring], letters=4) == "40.7°C"
    spans = char_spans("54X,", 0, 80)
    ticks = Glyph(int(spans[2][1]) - 3, 0, int(spans[2][1]) + 5, 8, True, "ticks")
    assert mend_word("54X,", 0, 80, [ticks], letters=2) == '54X",'


@pytest.mark.parametrize("font", [*FONTS, NARROW], ids=lambda p: p.stem)
def test_a_superscript_set_high_read_as_a_quote_is_the_digit(font: Path, tmp_path: Path):
    """A superscript whose top reaches 1.4 cap heights over the baseline (v1 looked no higher than 1.3)."""
    tokens = [[("índice", "")], [("de", "")], [("30", "")], [("kg/m", ""), ("2", "high")], [("e", "")], [("10", ""), ("9", "high")]]
    page, words = drawn_line(tokens, font)
    assert mended(page, read_as(words, {3: 'kg/m"', 5: '10"'}), tmp_path) == ["índice", "de", "30", "kg/m2", "e", "109"]


@pytest.mark.xfail(strict=True, reason="left disabled (LOWERED_WIDE_TO_CAP at v1's 0.3): the narrower bound read commas "
                   "after capitals as digits on the corpus tuning set")
@pytest.mark.parametrize("font", FONTS[1:], ids=lambda p: p.stem)
def test_a_narrow_subscript_read_as_a_comma_is_the_digit(font: Path, tmp_path: Path):
    """A condensed face's subscript, softened as a 150 dpi scan: narrower than v1's 0.3 cap heights."""
    tokens = [[("con", "")], [("SatO", ""), ("2", "thin")], [("de", "")], [("94%", "")]]
    page, words = drawn_line(tokens, font)
    assert mended(page, read_as(words, {1: "SatO,"}), tmp_path) == ["con", "SatO2", "de", "94%"]


@pytest.mark.parametrize("font", [*FONTS, NARROW], ids=lambda p: p.stem)
def test_a_ring_read_as_a_small_letter_is_the_ring(font: Path, tmp_path: Path):
    """`T°` read `Te`: no small letter stands over the baseline; a word `Te` printed stays."""
    page, words = drawn_line(plain("Examen:", "T°", "38.5°C;", "Te", "dijo"), font)
    assert mended(page, read_as(words, {1: "Te"}), tmp_path) == ["Examen:", "T°", "38.5°C;", "Te", "dijo"]


@pytest.mark.parametrize("font", [*FONTS, NARROW], ids=lambda p: p.stem)
def test_a_ring_or_a_tick_read_twice_is_read_once(font: Path, tmp_path: Path):
    """`T"°` and `100X'"` for `T°` and `100X'`: a raised mark beside the glyph's own where the ink shows no second
    glyph is dropped; a quotation mark whose ink is there stays."""
    page, words = drawn_line(plain("Examen:", "T°", "37.5°C,", "FC", "100X',", '"37°"'), font)
    misread = read_as(words, {1: 'T"°', 4: "100X'\",", 5: '"37°"'})
    assert mended(page, misread, tmp_path) == ["Examen:", "T°", "37.5°C,", "FC", "100X',", '"37°"']


SANS = Path("/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf")


@pytest.mark.parametrize("blur", [0.6, 1.6])
@pytest.mark.parametrize("font", [*FONTS, SANS, NARROW], ids=lambda p: p.stem)
def test_a_comma_after_a_capital_stays_a_comma(font: Path, blur: float, tmp_path: Path):
    """`A,` and `XYZ,` (a bar exam's parties): a comma hangs under the baseline as a subscript does, and a sharp scan's
    comma is as tall and as wide as a condensed subscript digit; its top stays at the baseline, a digit's stands over it."""
    page, words = drawn_line(plain("entre", "A,", "B", "e", "XYZ,", "que", "OAB,", "fim"), font, blur=blur)
    assert mended(page, words, tmp_path) == ["entre", "A,", "B", "e", "XYZ,", "que", "OAB,", "fim"]


@pytest.mark.parametrize("font", FONTS[1:], ids=lambda p: p.stem)
def test_many_superscripts_on_a_line_are_each_read_though_one_is_not_a_digit(font: Path, tmp_path: Path):
    """Units as a medical exam prints them, ten superscripts on a line, one of them a raised letter (`10ⁿ`) that no
    digit alphabet reads: each digit is read on its own line of the stack. Read side by side in one strip (v1), the
    strip came back as one word that did not hold one digit per crop, and no digit of the line was mended. (DejaVu
    Serif's superscript 3, drawn here, is cut in two and a tick put in after it, `cm3'`: a fault of the shapes, not of
    the reading, left out.)"""
    units = [("m", "2"), ("cm", "3"), ("10", "9"), ("x", "2"), ("10", "n"), ("kg/m", "2"), ("dm", "3"), ("y", "2"), ("10", "6"),
             ("mm", "2")]
    tokens: list[Token] = [[(base, ""), (sup, "sup")] for base, sup in units]
    page, words = drawn_line(tokens, font)
    misread = read_as(words, {0: "m?", 2: '10"', 3: "x?", 5: "kg/m?", 6: "dm*", 7: "y?", 8: '10"', 9: "mm?"})
    assert mended(page, misread, tmp_path) == ["m2", "cm3", "109", "x2", "10n", "kg/m2", "dm3", "y2", "106", "mm2"]


@pytest.mark.parametrize("font", FONTS, ids=lambda p: p.stem)
def test_a_raised_minus_and_its_exponent_are_written_plain_however_they_were_read(font: Path, tmp_path: Path):
    """`10⁻³/L`, `m·s⁻²`, `cm⁻¹` as the text path writes them (`10-3/L`): the flat stroke standing at an exponent's height
    before raised digits is a minus, whether Tesseract dropped it (`103/L`), read it and its digit as marks (`cm'!`) or
    read the pair as one mark (`10"/L`). Blurred as a 300 dpi scan (at 1.6, as a 150 dpi one, the superscript's thin
    minus holds no dark pixel: ink too pale to tell from grain)."""
    tokens = [[("de", "")], [("10", ""), ("-3", "sup"), ("/L", "")], [("y", "")], [("9,8", "")], [("m·s", ""), ("-2", "sup")],
              [("o", "")], [("cm", ""), ("-1", "sup")], [("ahora", "")]]
    page, words = drawn_line(tokens, font, blur=1.0)
    printed = ["de", "10-3/L", "y", "9,8", "m·s-2", "o", "cm-1", "ahora"]
    assert mended(page, read_as(words, {1: "103/L", 4: "m·s2", 6: "cm'!"}), tmp_path) == printed
    assert mended(page, read_as(words, {1: '10"/L', 4: "m·s?", 6: 'cm"'}), tmp_path) == printed
    assert mended(page, words, tmp_path) == printed  # read right: left as read


@pytest.mark.parametrize("font", FONTS, ids=lambda p: p.stem)
def test_a_raised_minus_is_told_from_a_hyphen_on_the_line_and_a_positive_exponent_takes_none(font: Path, tmp_path: Path):
    tokens = [[("bem-estar", "")], [("de", "")], [("10", ""), ("9", "sup"), ("/L", "")], [("e", "")], [("10", ""), ("-9", "sup"), ("/L", "")],
              [("anti-2", "")], [("m", ""), ("2", "sup")]]
    page, words = drawn_line(tokens, font, blur=1.0)
    read = mended(page, read_as(words, {2: '10"/L', 4: '10"/L', 6: "m?"}), tmp_path)
    assert read == ["bem-estar", "de", "109/L", "e", "10-9/L", "anti-2", "m2"]
