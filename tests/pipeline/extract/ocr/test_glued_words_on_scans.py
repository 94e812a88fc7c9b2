"""`glued-words` on a blurred scan: a one-letter word whose narrow space Tesseract lost (`Alos` for `A los`, `Aescola`
for `A escola`) split where the white is most of its own line's word space, though the blur left it under
`GLUED_GAP_RATIO` letter gaps, and the spelling dictionaries know the rest and not the glued whole; words printed whole
(`face`, `acesso`, whose round letters leave wide letter gaps; `ley`, `Rey`) keep their letters together. Tesseract's
own word lists and hunspell's dictionaries are the installed ones. Lines are drawn in Liberation Sans (Arial's metrics), the space
after a capital A kerned narrower as Arial's kern table sets it, at a 165 dpi scan's size, blurred, stored as JPEG and
read at 300 dpi, as `softscans` scans a sheet; the words' boxes are their ink's, as Tesseract gives them."""
from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFilter, ImageFont

from pipeline.extract.ocr.lexicon import load_lexicon
from pipeline.extract.ocr.spelling import split_glued_words
from pipeline.extract.ocr.wordpasses import narrow_spaces
from pipeline.extract.ocr.words import INK_BELOW, Word

FONT = Path("/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf")
KERN_AFTER_A = 0.09  # em taken from the space after a capital A (a kern pair; Arial's is 0.055–0.074 em at text sizes)


def scanned_line(words: list[str], dpi: int, blur: float, quality: int, *, points: float = 9.0) -> tuple[np.ndarray, list[Word]]:
    """`words` drawn as one line at `dpi`, blurred and stored as JPEG, then read at 300 dpi: the ink as `prepare` leaves
    it (darker than INK_BELOW) and each word's box, its ink's."""
    if not FONT.is_file():
        pytest.skip(f"{FONT} not installed")
    size = points / 72 * dpi
    font = ImageFont.truetype(str(FONT), round(size))
    space = font.getlength(" ")
    image = Image.new("L", (int(40 + sum(font.getlength(w) + space for w in words)), round(3 * size)), 255)
    draw = ImageDraw.Draw(image)
    x, spans = 20.0, []
    for text in words:
        draw.text((x, 2 * size), text, font=font, fill=0, anchor="ls")
        spans.append((x, x + font.getlength(text)))
        x += font.getlength(text) + space - (KERN_AFTER_A * size if text == "A" else 0.0)
    stored = io.BytesIO()
    image.filter(ImageFilter.GaussianBlur(blur)).save(stored, "JPEG", quality=quality)
    scale = 300 / dpi
    read = Image.open(stored).resize((round(image.width * scale), round(image.height * scale)), Image.Resampling.BICUBIC)
    ink = np.asarray(read) < INK_BELOW
    boxes = []
    for text, (left, right) in zip(words, spans):
        columns = np.flatnonzero(ink[:, int(left * scale) : int(right * scale) + 2].any(axis=0)) + int(left * scale)
        rows = np.flatnonzero(ink[:, columns[0] : columns[-1] + 1].any(axis=1))
        boxes.append(Word(text, 90.0, int(columns[0]), int(rows[0]), int(columns[-1]) + 1, int(rows[-1]) + 1, (1, 1, 1)))
    return ink, boxes


def glued(words: list[Word], at: int) -> list[Word]:
    """The words with `at` and the one after it read as one word, as Tesseract boxes a lost space."""
    left, right = words[at], words[at + 1]
    one = Word(left.text + right.text, 60.0, left.left, min(left.top, right.top), right.right, max(left.bottom, right.bottom), left.line)
    return [*words[:at], one, *words[at + 2 :]]


def read_glued(printed: list[str], glued_at: list[int], scan: tuple[int, float, int], language: str) -> list[str]:
    """`printed` scanned at `scan`, the words at each of `glued_at` read glued to the next, then `glued-words`' split."""
    lexicon, narrow = load_lexicon((language,)), narrow_spaces((language,))
    if lexicon is None or narrow is None:
        pytest.skip(f"no Tesseract word list or hunspell dictionary for {language}")
    ink, words = scanned_line(printed, *scan)
    read = words
    for at in glued_at:  # right to left, so that each index is still the printed one
        read = glued(read, at)
    assert len(read) == len(printed) - len(glued_at)
    return [w.text for w in split_glued_words(read, ink, lexicon, narrow)]


# (scan dpi, blur px, JPEG quality): settings no tuning used, where the narrow space is under GLUED_GAP_RATIO letter gaps
@pytest.mark.parametrize("scan", [(150, 0.45, 90), (165, 0.65, 78), (200, 0.6, 80)], ids=lambda s: f"{s[0]}-{s[1]}-{s[2]}")
def test_a_portuguese_one_letter_word_glued_across_a_blurred_narrow_space_is_split_and_whole_words_stay(scan):
    printed = ["A", "escola", "de", "face", "e", "acesso", "ao", "O", "ensino", "médico"]
    assert read_glued(printed, [0], scan, "por") == printed


@pytest.mark.parametrize("scan", [(150, 0.45, 90)], ids=lambda s: f"{s[0]}-{s[1]}-{s[2]}")
def test_a_spanish_one_letter_word_glued_across_a_blurred_narrow_space_is_split_and_whole_words_stay(scan):
    printed = ["A", "los", "tres", "años", "del", "Gobierno", "Alas", "y", "la", "ley", "del", "Rey", "vicepresidente"]
    assert read_glued(printed, [0], scan, "spa") == printed


@pytest.mark.parametrize("scan", [(165, 0.65, 78), (200, 0.6, 80), (300, 0.4, 90)], ids=lambda s: f"{s[0]}-{s[1]}-{s[2]}")
def test_a_one_letter_word_glued_to_a_form_only_the_dictionary_knows_is_split(scan):
    # Tesseract's Slovak list lacks the inflected `eufemizmom`; hunspell's dictionary knows it and not `keufemizmom`
    printed = ["Prirovnanie", "k", "eufemizmom", "v", "texte", "a", "iné", "slová"]
    assert read_glued(printed, [1], scan, "slk") == printed
