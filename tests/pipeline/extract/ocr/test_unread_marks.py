"""The `unread-marks` pass: a period, comma, colon or semicolon printed right after a word that Tesseract read without
it (`(STF)` then a comma, a web address's dot taken for a word space, a line's last full stop) put back from its ink,
and nothing put where no mark is printed (a word space, a quotation mark or a dash after the word, scanner grain).
Lines are drawn in Debian's faces (Liberation's Times- and Arial-like faces, DejaVu) at 10 pt, scanned at 150 dpi with
blur 0.8 and at 200 dpi with blur 0.6, and rendered at OCR's 300 dpi, as a scanned page is; each word's box is its letters' ink, as Tesseract gives it when it leaves the mark unread, and its text what
the scan was read as."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFilter, ImageFont

from pipeline.extract.ocr.pagepasses import PAGE_PASSES
from pipeline.extract.ocr.unreadmarks import unread_marks
from pipeline.extract.ocr.words import Word

FONT_DIR = Path("/usr/share/fonts/truetype")
FONTS = [FONT_DIR / "liberation/LiberationSerif-Regular.ttf", FONT_DIR / "liberation/LiberationSans-Regular.ttf",
         FONT_DIR / "dejavu/DejaVuSans.ttf", FONT_DIR / "dejavu/DejaVuSerif.ttf"]
# (dpi, blur) of a scan; the page is read rendered at 300 dpi, where a 10 pt line is 42 pixels.
SCANS = [(150, 0.8), (200, 0.6)]
SIZE = 42
MARKS = ".,:;"


def drawn_line(texts: list[str], font_path: Path, dpi: int, blur: float, space: float = 0.3,
               grain: bool = False) -> tuple[np.ndarray, list[Word]]:
    """`texts` drawn as one line of words `space` font sizes apart, scanned at `dpi` with `blur` and rendered at 300 dpi
    (`SIZE` pixels a font size). Each word is read without its last
    mark where that is a period, comma, colon or semicolon: its box is its letters' ink and its text theirs."""
    if not font_path.is_file():
        pytest.skip(f"{font_path} not installed")
    size = SIZE
    font = ImageFont.truetype(str(font_path), size)
    image = Image.new("L", (60 + 2 * size * sum(len(t) + 1 for t in texts), 4 * size), 255)
    draw = ImageDraw.Draw(image)
    words, x = [], 20
    for text in texts:
        letters = text.rstrip(MARKS) or text
        box = [int(v) for v in draw.textbbox((x, 2 * size), letters, font=font, anchor="ls")]
        whole = [int(v) for v in draw.textbbox((x, 2 * size), text, font=font, anchor="ls")]
        draw.text((x, 2 * size), text, font=font, fill=0, anchor="ls")
        words.append(Word(letters, 90.0, box[0], box[1], box[2], box[3], (1, 1, 1)))
        x = whole[2] + int(space * size)
    scanned = image.resize((image.width * dpi // 300, image.height * dpi // 300), Image.Resampling.BOX)
    pixels = np.asarray(scanned.filter(ImageFilter.GaussianBlur(blur))).astype(float)
    if grain:
        pixels = pixels + np.random.default_rng(7).normal(0, 0.03 * 255, pixels.shape)
    scanned = Image.fromarray(np.clip(pixels, 0, 255).astype(np.uint8))
    return np.asarray(scanned.resize(image.size, Image.Resampling.BILINEAR)), words


def read(scanned: np.ndarray, words: list[Word]) -> list[str]:
    return [w.text for w in unread_marks(words, scanned)[0]]


@pytest.mark.parametrize("scan", SCANS, ids=lambda s: f"{s[0]}dpi")
@pytest.mark.parametrize("font", FONTS, ids=lambda p: p.stem)
def test_a_period_and_a_comma_left_unread_after_a_word_are_put_back(font: Path, scan: tuple[int, float]):
    printed = ["decidido", "pelo", "Supremo", "(STF),", "ao", "julgar", "a", "ação", "direta.", "Depois", "veio", "o", "fim."]
    scanned, words = drawn_line(printed, font, *scan, space=1.2)  # a justified line's wide word spaces
    assert read(scanned, words) == printed


@pytest.mark.parametrize("scan", SCANS, ids=lambda s: f"{s[0]}dpi")
@pytest.mark.parametrize("font", FONTS, ids=lambda p: p.stem)
def test_a_colon_and_a_semicolon_left_unread_are_told_apart_by_the_lower_dots_tail(font: Path, scan: tuple[int, float]):
    printed = ["Tema:", "el", "orden;", "la", "ley:", "nada;", "fin"]
    scanned, words = drawn_line(printed, font, *scan, space=0.8)
    assert read(scanned, words) == printed


@pytest.mark.parametrize("scan", SCANS, ids=lambda s: f"{s[0]}dpi")
@pytest.mark.parametrize("font", FONTS[:2], ids=lambda p: p.stem)
def test_a_dot_read_as_a_word_space_joins_the_two_pieces_of_an_address(font: Path, scan: tuple[int, float]):
    scanned, words = drawn_line(["https://sede.", "telefono060.es"], font, *scan, space=0.0)
    assert read(scanned, words) == ["https://sede.telefono060.es"]


@pytest.mark.parametrize("scan", SCANS, ids=lambda s: f"{s[0]}dpi")
@pytest.mark.parametrize("font", FONTS, ids=lambda p: p.stem)
def test_words_with_no_mark_after_them_stay_as_read(font: Path, scan: tuple[int, float]):
    # A word space, a quotation mark, a hyphen, a bracket or scanner grain after a word is no period or comma.
    printed = ["A", "lei", "diz", "“isto”", "e", "o", "auto-", "(STF)", "julga", "o", "caso", "sem", "ponto"]
    scanned, words = drawn_line(printed, font, *scan, grain=True)
    assert read(scanned, words) == printed
    assert not any(w.unsure_mark for w in unread_marks(words, scanned)[0])


@pytest.mark.parametrize("scan", SCANS, ids=lambda s: f"{s[0]}dpi")
@pytest.mark.parametrize("font", FONTS, ids=lambda p: p.stem)
def test_a_small_letter_left_out_of_the_box_before_it_is_no_mark(font: Path, scan: tuple[int, float]):
    # A table cell `4,0 x 10`: Tesseract read `4,0x` with a box over `4,0` alone, and the `x` on the baseline is in the gap.
    scanned, words = drawn_line(["4,0", "x", "10", "e", "3,5", "x", "20"], font, *scan)
    as_read = [replace(words[0], text="4,0x"), words[2], words[3], replace(words[4], text="3,5x"), words[6]]
    assert read(scanned, as_read) == ["4,0x", "10", "e", "3,5x", "20"]
    assert not any(w.unsure_mark for w in unread_marks(as_read, scanned)[0])


@pytest.mark.parametrize("font", FONTS[:1], ids=lambda p: p.stem)
def test_a_mark_tesseract_read_is_not_read_again(font: Path):
    scanned, words = drawn_line(["fin.", "de", "todo,", "ya"], font, 200, 0.6)
    as_read = [Word(t, w.conf, w.left, w.top, w.right, w.bottom, w.line) for t, w in zip(["fin.", "de", "todo,", "ya"], words)]
    assert read(scanned, as_read) == ["fin.", "de", "todo,", "ya"]


def test_the_pass_runs_after_the_comma_tails_and_before_the_blank_strokes():
    names = [p.name for p in PAGE_PASSES]
    assert names.index("comma-tails") < names.index("unread-marks") < names.index("blank-strokes")
