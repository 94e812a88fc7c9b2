"""Pages scanned upside down or sideways, turned upright before they are read.

A native scan may hold a page fed upside down, or a landscape page (a table) turned on its side. Read as
it lies, such a page gives Tesseract's words of three letters or more a mean confidence around 36
against 85-90 upright (measured on rasterised CKE pages turned by 90° and 180°), and its questions
would be lost. Only such a page pays for Tesseract's orientation detection (`--psm 0`, about 1.2 s); the
page is read again turned as it says, and the turned reading is kept only when it is the more confident
and reads no fewer words the language's word list knows (`known_words`).

A key table on its side gives no such sign: its cells hold numbers and single letters, too few words of three
letters to judge confidence by, and Tesseract reads it as next to nothing (3 words on a landscape grid key of 60
questions at 200 dpi) or as short junk read confidently (`©`, `O`, `U`: 175 words at a mean of 73 on one of 80
number/answer pairs). A table upright reads as numbers. So a page with too few long words is checked too where
glyph-sized ink by the hundred stands under no word (`unread_glyphs`) or where few of its words are numbers
(`sparse_and_unread`), or where most of its words run down the page (`runs_down`); its turned reading is kept only when it reads many times the numbers that count (n beside n ± 1:
`counting_numbers`) of the page as it lay, and those counting numbers are most of the numbers it reads
(`sparse_turned_reading_wins`).
"""
from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from pipeline.extract.ocr.engine import PAGE_TIMEOUT_S, OcrUnavailable, tesseract_command
from pipeline.extract.ocr.lexicon import Lexicon
from pipeline.extract.ocr.words import Word, mean_confidence

# Mean confidence of the page pass's words of 3+ letters under which a page may lie turned.
ROTATION_CHECK_BELOW = 60.0
ROTATION_MIN_WORDS = 10  # fewer words say nothing about the page's orientation (a figure, a blank page)
OSD_MIN_CONFIDENCE = 2.0  # Tesseract's orientation confidence under which its answer is a guess
# ... where the turned reading must then read many times its counting numbers (on a page sent by `sparse_and_unread`,
# and on one sent by `may_lie_turned` when detection is under OSD_MIN_CONFIDENCE): a guess is worth a reading there
# (a landscape key on its side, scanned at 150 and 200 dpi and read at 300: 0.60 and 1.01; at 150 its junk reads as
# 10+ low-confidence words, so `may_lie_turned` sends it).
SPARSE_OSD_MIN_CONFIDENCE = 0.5
_ROTATE = re.compile(r"^Rotate:\s*(\d+)", re.MULTILINE)
_CONFIDENCE = re.compile(r"^Orientation confidence:\s*([\d.]+)", re.MULTILINE)


def may_lie_turned(words: Sequence[Word]) -> bool:
    """Whether the page pass read like a turned page: many words, and little confidence in them."""
    long_words = [w for w in words if sum(ch.isalpha() for ch in w.text) >= 3]
    mean = mean_confidence(long_words)
    return len(long_words) >= ROTATION_MIN_WORDS and mean is not None and mean < ROTATION_CHECK_BELOW


# A page pass that read fewer than ROTATION_MIN_WORDS words of 3+ letters may be a table on its side when at least
# this many glyph-sized ink pieces stand under no word (a landscape grid key of 60 cells leaves ~400, a page of prose
# upright none: its glyphs are in its words) ...
SPARSE_UNREAD_GLYPHS = 120
GLYPH_MM = (0.4, 6.0)  # a glyph's ink, its height or width, from a dot's to a large capital's
# ... or when of at least SPARSE_MIN_WORDS words, under this share are numbers (a key table upright: a third to a half).
SPARSE_MIN_WORDS, SPARSE_NUMBER_SHARE = 20, 0.2
SPARSE_NUMBERS_GAIN = 3  # the turned reading of a sparse page reads at least this many times its counting numbers (and 10)
# ... and its counting numbers are most of the numbers it reads: a key table prints each question number once, so read
# upright its numbers count, each read about once. An upright ruled table read upside down gives digits too, but the
# same few row after row (a Hangul pairs table at 230 dpi: `12` and `13` read 13 and 12 times among 79 numbers,
# 16 of them counting, a share of 0.20), and by chance some of them neighbours.
COUNTING_MIN_SHARE = 0.5
NUMBERS_SHARE = 0.5  # of a turned reading's words numbers: it reads as a table, and its numbers alone decide


# Words of 2+ characters whose box is this much taller than wide run down the page: Tesseract read them on their side.
RUNS_DOWN_RATIO, RUNS_DOWN_MIN = 1.2, 5


def runs_down(words: Sequence[Word]) -> bool:
    """Whether most words of 2+ characters (at least RUNS_DOWN_MIN) run down the page, their boxes taller than wide:
    Tesseract reads some lines of a page on its side turned, and its boxes say so (a key table at 300 dpi: 61
    numbers read so, then lost to the passes that read its cells across)."""
    long = [w for w in words if len(w.text.strip()) >= 2]
    down = sum(_down(w) for w in long)
    return down >= RUNS_DOWN_MIN and 2 * down > len(long)


def _down(word: Word) -> bool:
    return len(word.text.strip()) >= 2 and word.bottom - word.top > RUNS_DOWN_RATIO * (word.right - word.left)


def _number(text: str) -> str | None:
    """`text`'s digits when it is a number ("12", "12.", "(3)"), else None. `isdecimal`, not `isdigit`: a
    superscript "²" is a digit `int` refuses."""
    digits = text.strip("().:;,-")
    return digits if digits.isdecimal() else None


def numbers_read(texts: Sequence[str]) -> int:
    """How many of `texts` are numbers ("12", "12.", "(3)"): what a key table's cells read upright."""
    return sum(_number(t) is not None for t in texts)


def sparse_and_unread(words: Sequence[Word], ink: np.ndarray | None, dpi: int) -> bool:
    """Whether the page pass read too few long words to judge the page by, and its ink or its words look unread:
    much glyph-sized ink under no word, or many words and few of them numbers."""
    read = [w for w in words if w.text.strip()]
    if sum(sum(ch.isalpha() for ch in w.text) >= 3 for w in read) >= ROTATION_MIN_WORDS:
        return False
    if len(read) >= SPARSE_MIN_WORDS and numbers_read([w.text for w in read]) < SPARSE_NUMBER_SHARE * len(read):
        return True
    if runs_down(read):
        return True
    return ink is not None and unread_glyphs(ink, read, dpi) >= SPARSE_UNREAD_GLYPHS


def unread_glyphs(ink: np.ndarray, words: Sequence[Word], dpi: int) -> int:
    """How many glyph-sized connected pieces of `ink` (`GLYPH_MM`) have their centre outside every word's box."""
    from scipy import ndimage  # here, not at import: scipy costs every process a second

    labels, count = ndimage.label(ink)
    if not count:
        return 0
    low, high = (mm * dpi / 25.4 for mm in GLYPH_MM)
    covered = np.zeros(ink.shape, dtype=bool)
    for w in words:
        if w.text.strip():
            covered[max(w.top, 0):w.bottom + 1, max(w.left, 0):w.right + 1] = True
    found = 0
    for piece in ndimage.find_objects(labels):
        if piece is None:
            continue
        height, width = piece[0].stop - piece[0].start, piece[1].stop - piece[1].start
        if max(height, width) > high or max(height, width) < low:
            continue
        if not covered[(piece[0].start + piece[0].stop) // 2, (piece[1].start + piece[1].stop) // 2]:
            found += 1
    return found


def counting_numbers(texts: Sequence[str]) -> int:
    """How many different numbers among `texts` have their neighbour (one less or one more) read too: a key table's
    question numbers count 1, 2, 3 …; digits read from junk do not."""
    values = {int(digits) for digits in map(_number, texts) if digits is not None and len(digits) <= 4}
    return sum(v - 1 in values or v + 1 in values for v in values)


def sparse_turned_reading_wins(turned: Sequence[str], read: Sequence[Word]) -> bool:
    """Whether a sparse page's turned reading is the page: many times the counting numbers of the page as it lay
    (its words that run down left out: they were read turned already), and those counting numbers most of the numbers
    it reads (`COUNTING_MIN_SHARE`: a few digit pairs read again and again are junk of a table upside down, however
    many of them happen to neighbour). Confidence is no judge here: the junk a table on its side reads as is read
    confidently (73 against 53 turned)."""
    before = counting_numbers([w.text for w in read if not _down(w)])
    counting = counting_numbers(turned)
    return counting >= max(SPARSE_NUMBERS_GAIN * before, ROTATION_MIN_WORDS) and counting >= COUNTING_MIN_SHARE * numbers_read(turned)


def sparse_turned_reading_loses(turned: Sequence[str], read: Sequence[Word]) -> bool:
    """Whether a sparse page's turned reading has fewer counting numbers than the page as it lay (its words that run
    down left out): a sparse page is a table, and a table's question numbers do not vanish when it is turned the right
    way. An upright key table of booklet columns at 165 dpi read `20 21 22 …` as it lay; turned upside down it read
    junk letters (`a`, `Q`, `ETA`) at a higher confidence, a known word as many, and the whole key was lost."""
    return counting_numbers(turned) < counting_numbers([w.text for w in read if not _down(w)])


def reads_as_numbers(texts: Sequence[str]) -> bool:
    """Whether at least half of a reading's words are numbers (`NUMBERS_SHARE`): a page read so is judged by its
    numbers alone (`sparse_turned_reading_wins`), never by its confidence: an upright table read upside down gave
    digits read at a higher mean confidence than the table as it lay (79 numbers of 86 words)."""
    read = [t for t in texts if t.strip()]
    return bool(read) and numbers_read(read) >= NUMBERS_SHARE * len(read)


def known_words(texts: Sequence[str], lexicon: Lexicon | None) -> int:
    """How many words of 3+ letters the lexicon knows (0 without one): what a reading of the page upright
    has and a reading of it turned the wrong way lacks. Confidence alone misleads where the model gives
    right words low confidences: a Greek key page upright (62, 10 known words) lost to its reading
    upside down (71, 3 known words of junk)."""
    if lexicon is None:
        return 0
    return sum(lexicon.knows(text) for text in texts if sum(ch.isalpha() for ch in text) >= 3)


def detect_rotation(image_path: Path, omp_thread_limit: int | None, min_confidence: float = OSD_MIN_CONFIDENCE) -> int:
    """Degrees (0, 90, 180, 270) to turn the image clockwise to set its text upright, by Tesseract's
    orientation detection; 0 when it is unsure or cannot run (the `osd` data missing: the page is then
    read as it lies, as before)."""
    degrees, confidence = detected_orientation(image_path, omp_thread_limit)
    return degrees if confidence >= min_confidence else 0


def detected_orientation(image_path: Path, omp_thread_limit: int | None) -> tuple[int, float]:
    """(degrees to turn the image clockwise to set it upright, Tesseract's confidence in it) by its orientation
    detection; (0, 0.0) when it says upright or cannot run."""
    env = dict(os.environ)
    if omp_thread_limit is not None:
        env["OMP_THREAD_LIMIT"] = str(omp_thread_limit)
    try:
        result = subprocess.run(
            [tesseract_command(), str(image_path), "stdout", "--psm", "0"],
            capture_output=True, timeout=PAGE_TIMEOUT_S, env=env, check=False,
        )
    except (OSError, subprocess.TimeoutExpired, OcrUnavailable):
        return 0, 0.0
    output = result.stdout.decode("utf-8", errors="replace")
    rotate, confidence = _ROTATE.search(output), _CONFIDENCE.search(output)
    if result.returncode != 0 or rotate is None or confidence is None:
        return 0, 0.0
    degrees = int(rotate.group(1)) % 360
    if degrees not in (90, 180, 270):
        return 0, 0.0
    return degrees, float(confidence.group(1))
