"""Telling text from noise, and finding text the first pass dropped.

Specks, pictograms and scanner grain come back from Tesseract as low-confidence junk words; they are
dropped. Short words it skipped (a lone option label, a one-letter word) leave ink that no word
covers; those patches are read again in a strip of their own.
"""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import numpy as np
from PIL import Image

from pipeline.extract.ocr.engine import read_strip
from pipeline.extract.ocr.words import INK_BELOW, Word, ink_runs, words_by_line

# Words made only of punctuation with confidence below NOISE_PUNCT_MAX_CONF are specks, rules and figure
# edges; small one- or two-character words below NOISE_WORD_MIN_CONF are specks read as letters. Other
# words are kept whatever their confidence: on a CONAREME scan "obstrucción" came back right with
# confidence 0.
# A page needs one legible word (LEGIBLE_MIN_CONF, three letters or digits) to count as text: a blank
# page with scanner noise gives only low-confidence fragments.
NOISE_PUNCT_MAX_CONF = 60.0
# A word of one or two characters this many times the height of the other words of its line is a
# pictogram unless read with ICON_MAX_CONF (a pictogram beside a CKE task heading came back as "E]" and
# "F)", 1.4 times the heading's words, confidence 14–74; parentheses and accented capitals stay under 1.2).
ICON_MIN_HEIGHT = 1.3
ICON_MAX_CONF = 80.0
NOISE_WORD_MIN_CONF = 20.0
LEGIBLE_MIN_CONF = 60.0


def is_noise(word: Word, typical_height: float) -> bool:
    """Specks, rules, figure edges and scanner noise that Tesseract reads as text.

    Confidence alone is not enough: real question numbers ("25.", "34") came back with confidence under
    20 on a CONAREME scan. A low-confidence one- or two-character word is noise only when it is also
    small next to the page's typical word height.
    """
    alnum = sum(ch.isalnum() for ch in word.text)
    height = word.bottom - word.top
    if 0 <= word.conf < NOISE_WORD_MIN_CONF and alnum <= 2 and height < 0.5 * typical_height:
        return True
    if typical_height and height > 2.5 * typical_height and word.conf < NOISE_PUNCT_MAX_CONF:
        return True  # a "word" several lines tall: a column of cells or a figure read as one token
    return alnum == 0 and word.conf < NOISE_PUNCT_MAX_CONF


def without_icons(words: list[Word], ink: np.ndarray | None = None) -> list[Word]:
    """The words less pictograms that Tesseract read as a letter or two beside a line of text. Two wide glyphs
    (Unicode East Asian width W or F: Hangul syllables, Han) are a whole word, not a letter or two: with the
    page's `ink`, such a word read with some confidence (`LEGIBLE_MIN_CONF`) is as tall as the ink in its box, and
    a box Tesseract drew taller than its glyphs (`루수`, confidence 79, boxed 57 px with its line's digits over
    41 px of ink) is no pictogram; a pictogram fills its box. Narrow letters, digits and marks stay judged by
    their box (a ring read `2:` in a tall box is still dropped), and so does an unsure wide glyph (a syllable
    read at confidence 0 from a line Tesseract left out: dropped, its line's ink is read again by `dropped-ink`)."""
    per_line = words_by_line(words)
    icons = set()
    for members in per_line.values():
        for word in members:
            others = sorted(w.bottom - w.top for w in members if w is not word)
            if (
                len(others) >= 2
                and word.conf < ICON_MAX_CONF
                and sum(ch.isalnum() for ch in word.text) <= 2
                and word.bottom - word.top > ICON_MIN_HEIGHT * others[len(others) // 2]
                and (ink is None or not _wide_word(word.text) or word.conf < LEGIBLE_MIN_CONF
                     or ink_height(ink, word) > ICON_MIN_HEIGHT * others[len(others) // 2])
            ):
                icons.add(id(word))
    return [w for w in words if id(w) not in icons]


def _wide_word(text: str) -> bool:
    return bool(text) and all(unicodedata.east_asian_width(ch) in "WF" for ch in text)


def ink_height(ink: np.ndarray, word: Word) -> int:
    """From the first to the last row of ink inside `word`'s box, in pixels (0: no ink there)."""
    band = np.asarray(ink[max(0, word.top):max(0, word.bottom), max(0, word.left):max(0, word.right)])
    rows = np.flatnonzero(band.any(axis=1)) if band.size else np.zeros(0, dtype=int)
    return int(rows[-1] - rows[0] + 1) if rows.size else 0


def is_legible(word: Word) -> bool:
    return word.conf >= LEGIBLE_MIN_CONF and sum(ch.isalnum() for ch in word.text) >= 3


ORPHAN_MAX_WIDTH = 4.0  # typical word heights: wider uncovered ink is a figure, not a dropped word
ORPHAN_LINE_HEIGHTS = 1.8  # typical word heights: the tallest band of a text line
ORPHAN_LABEL_WIDTH = 1.5  # typical word heights: an option label's patch ("A)")
ORPHAN_MIN_CONF = 60.0
ORPHAN_MIN_LABEL_CONF = 40.0  # a letter with its mark ("c." at 51 for a dropped "C.") is read less surely
_ORPHAN_LABEL = re.compile(r"^[(\[]?[^\W\d_][.)]$")
# Typical word heights of white between patches in the strip: at 1.5 Tesseract read two dropped labels
# one above the other ("B.", "C.") as one word "BC.".
ORPHAN_GAP = 3.0
ORPHAN_MAX_CHARS = 4
# An unsure word this many text heights tall spans several lines: a column of short tokens stacked
# close ("1." to "5." of a key) that Tesseract read down as one junk word ("NAON=", confidence 0).
ORPHAN_STACK_HEIGHTS = 1.8
# Closer to a word on its row than this (typical word heights) a patch is a letter's space from it, not a word
# space: a glyph of that word whose box Tesseract drew short of it (0.17 measured; word spaces 0.3 and more).
ORPHAN_LETTER_GAP = 0.25
_ORPHAN_NUMBER = re.compile(r"^\d{1,3}[.)]?$")  # a question number, as a strip may read it unsurely
_ORPHAN_TEXT = re.compile(r"^[(\[]?\w{1,3}[.)\]:]?$")


# A patch this much ink (of its box) is a solid mark, not a glyph: a glyph's strokes take 0.2–0.5 of its box
# (a bold "W" 0.55); a dark square or disc with its light letter 0.6–0.85.
ORPHAN_SOLID = 0.6


def _solid(ink: np.ndarray, box: tuple[int, int, int, int]) -> bool:
    left, top, right, bottom = box
    patch = ink[top:bottom, left:right]
    return patch.size > 0 and float(patch.mean()) >= ORPHAN_SOLID


def _reading_in(box: tuple[int, int, int, int], offset: int, read: list[Word], slack: float) -> tuple[Word, int] | None:
    """The one word read inside a patch's place in the strip (with that place's x offset), or None;
    a word reaching more than `slack` beyond the place holds a neighbour's ink too."""
    end = offset + (box[2] - box[0])
    inside = [r for r in read if offset <= (r.left + r.right) / 2 <= end]
    if len(inside) != 1 or inside[0].left < offset - slack or inside[0].right > end + slack:
        return None
    return inside[0], offset


def _overlaps(word: Word, offset: int, box: tuple[int, int, int, int]) -> bool:
    return word.left < offset + (box[2] - box[0]) and word.right > offset


def _orphan_boxes(grey: Image.Image, covered: list[Word], typical_height: float) -> list[tuple[tuple[int, int, int, int], bool]]:
    """Small patches of ink, of a text line's height, that no word Tesseract returned covers, each with
    whether only an option label may be read from it.

    Tesseract's page layout analysis now and then drops a short word standing apart, such as a
    question number in its own box beside the stem ("05" of a NÚCEM sheet), or a whole option line of a
    formula ("A) 9^(k+k²)" of DEMRE M1) or the label beside a figure option. A band too tall for a text
    line (a formula's exponents, a figure beside the label) gives only its label-sized patches that
    stand apart and are a text line's height themselves, and only a label is taken from them."""
    ink = np.asarray(grey) < INK_BELOW
    pad = max(2, round(0.15 * typical_height))
    for w in covered:
        ink[max(w.top - pad, 0) : w.bottom + pad, max(w.left - pad, 0) : w.right + pad] = False
    boxes = []
    for top, bottom in ink_runs(ink.sum(axis=1) > 1, round(0.1 * typical_height)):
        line_high = 0.6 * typical_height <= bottom - top <= ORPHAN_LINE_HEIGHTS * typical_height
        if not line_high and bottom - top < 0.6 * typical_height:
            continue
        band = ink[top:bottom]
        for left, right in ink_runs(band.sum(axis=0), round(0.5 * typical_height)):
            up, down = top, bottom
            if not line_high:  # a formula's band: the patch's own rows, and no wider than a label
                rows = np.flatnonzero(band[:, left:right].any(axis=1))
                up, down = top + int(rows[0]), top + int(rows[-1]) + 1
                if not (0.6 * typical_height <= down - up <= ORPHAN_LINE_HEIGHTS * typical_height and right - left <= ORPHAN_LABEL_WIDTH * typical_height):
                    continue
            if not 0.3 * typical_height <= right - left <= ORPHAN_MAX_WIDTH * typical_height:
                continue
            if ink[up:down, left:right].sum() < 0.08 * (down - up) * (right - left):
                continue  # specks
            boxes.append(((left, up, right, down), not line_high))
    return boxes


def _strip_readings(
    grey: Image.Image, boxes: list[tuple[int, int, int, int]], gap: int, languages: Sequence[str], dpi: int,
    omp_thread_limit: int | None, path: Path, stretch: float,
) -> list[tuple[Word, int] | None]:
    """Each patch's one reading (and its offset in the strip) from one strip of them all, or None."""
    offsets, read = read_strip(grey, boxes, gap, languages, dpi, omp_thread_limit, path, stretch=stretch)
    readings = [_reading_in(box, offset, read, gap / 2) for box, offset in zip(boxes, offsets)]
    for index, box in enumerate(boxes):
        if readings[index] is None and any(_overlaps(r, offsets[index], box) for r in read):
            # Tesseract read this patch and its neighbour in the strip as one word ("1.2" for a lone
            # question number "1" and a "2." far to its right): it is read again on its own.
            alone, alone_read = read_strip(
                grey, [box], gap, languages, dpi, omp_thread_limit, path.with_name(f"{path.stem}-{index}.pgm"), stretch=stretch,
            )
            readings[index] = _reading_in(box, alone[0], alone_read, gap / 2)
            continue
        first = readings[index]
        if first is not None and _unsure(first[0]) and _ORPHAN_NUMBER.match(first[0].text):
            # A number read too unsurely to be taken: a patch's reading hangs on its neighbours in the strip (a
            # question number "1." read at 39 beside the page number's "- 6 -", at 94 with a few specks elsewhere
            # on the page, and at 94 on its own): it is read again on its own, and the surer reading kept. Only a
            # number: with every unsure patch read alone, INAP's clean 200 dpi scan read two option texts worse
            # (options 97.4 -> 95.7 %: "conforme a 1 la", "Alos seis meses").
            alone, alone_read = read_strip(
                grey, [box], gap, languages, dpi, omp_thread_limit, path.with_name(f"{path.stem}-{index}.pgm"), stretch=stretch,
            )
            again = _reading_in(box, alone[0], alone_read, gap / 2)
            if again is not None and again[0].conf > first[0].conf:
                readings[index] = again
    return readings


def _unsure(reading: Word) -> bool:
    """Whether a patch's reading is too unsure to be taken (`ORPHAN_MIN_CONF`, a label's `ORPHAN_MIN_LABEL_CONF`)."""
    return reading.conf < (ORPHAN_MIN_LABEL_CONF if _ORPHAN_LABEL.match(reading.text) else ORPHAN_MIN_CONF)


ORPHAN_REPLACES = 0.6  # of an unsure word's ink its re-readings together must cover to stand for all of it


def _shared_area(a: Word, b: Word) -> int:
    w = min(a.right, b.right) - max(a.left, b.left)
    h = min(a.bottom, b.bottom) - max(a.top, b.top)
    return w * h if w > 0 and h > 0 else 0


def replaces(rereads: Sequence[Word], suspect: Word, ink: np.ndarray) -> bool:
    """Whether the re-readings of an unsure short word's ink stand for the whole word: together they cover
    most of its ink (a glued `BC` whose box spans the gap between its letters, read again as `B` and `C`).
    A re-reading of part of it leaves the word as read: a ring's look-alike read again as `0` took the Hangul
    syllable glued to it in the same word (`0!자` of `① 자연석`) away with it."""
    top, left = max(suspect.top, 0), max(suspect.left, 0)
    inside = ink[top:suspect.bottom, left:suspect.right]
    if not inside.any():
        return False
    kept = np.zeros_like(inside)
    for reread in rereads:
        kept[max(reread.top - top, 0):max(reread.bottom - top, 0), max(reread.left - left, 0):max(reread.right - left, 0)] = True
    return (inside & kept).sum() / inside.sum() >= ORPHAN_REPLACES


def _glyph_of_a_word(text: str, box: tuple[int, int, int, int], covered: Sequence[Word], typical_height: float) -> Word | None:
    """The word on the patch's row, a letter's space from it, that already ends (or begins) with the patch's
    reading `text`: the patch is that word's own glyph, left outside the word's box (OAB 2016's "intervenção",
    its box ending before its final "o", read again as a word: "intervenção o judicial"); None if there is none."""
    left, top, right, bottom = box
    near = ORPHAN_LETTER_GAP * typical_height
    for w in covered:
        if min(w.bottom, bottom) - max(w.top, top) <= 0.5 * min(w.bottom - w.top, bottom - top):
            continue
        word = w.text.strip(".,;:!?)(\"'")
        if 0 <= left - w.right < near and word.endswith(text) or 0 <= w.left - right < near and word.startswith(text):
            return w
    return None


def _spanning(word: Word, box: tuple[int, int, int, int]) -> Word:
    """`word` with its box grown to hold `box` too."""
    left, top, right, bottom = box
    return replace(word, left=min(word.left, left), top=min(word.top, top), right=max(word.right, right),
                   bottom=max(word.bottom, bottom))


def read_orphans(
    grey: Image.Image,
    words: list[Word],
    covered: list[Word],
    typical_height: float,
    languages: Sequence[str],
    dpi: int,
    omp_thread_limit: int | None,
    folder: Path,
    stretch: float = 1.0,
) -> list[Word]:
    """Words Tesseract's layout pass dropped, read again: the uncovered patches side by side in one strip,
    read as one text line (psm 7), widened like the page when its type is condensed ("34" read as "4"
    otherwise). Only confident short tokens (numbers, labels) are taken."""
    if not typical_height:
        return words
    # A short word read with little confidence is read again too ("[e" for a marking scheme's lone "C"),
    # and so is the ink of an unsure word spanning several lines, line by line (`_orphan_boxes` cuts bands).
    suspects = {
        id(w) for w in covered
        if 0 <= w.conf < ORPHAN_MIN_CONF
        and (len(w.text) <= ORPHAN_MAX_CHARS - 1 or w.bottom - w.top > ORPHAN_STACK_HEIGHTS * typical_height)
    }
    found = _orphan_boxes(grey, [w for w in covered if id(w) not in suspects], typical_height)
    if not found:
        return words
    gap = round(ORPHAN_GAP * typical_height)
    # The label patches of formula lines in a strip of their own: added to the others' strip, they
    # changed what Tesseract read of it (a strip of 21 patches read as nothing). So do solid patches, mostly
    # ink (labels printed light on dark squares, which `label-discs` reads): among 21 of them a clean 300 dpi
    # scan's six dropped question numbers "1", "2", … read as "!r", ":", "°"; read apart, as "1", "2", ….
    ink = np.asarray(grey) < INK_BELOW
    kinds = [(only, not only and _solid(ink, box)) for box, only in found]
    boxes, readings, labels_only = [], [], []
    for (label_only, solid), name in (((False, False), "orphans"), ((True, False), "orphan-labels"), ((False, True), "orphan-solids")):
        group = [box for (box, _), kind in zip(found, kinds) if kind == (label_only, solid)]
        if group:
            boxes += group
            readings += _strip_readings(grey, group, gap, languages, dpi, omp_thread_limit, folder / f"{name}.pgm", stretch)
            labels_only += [label_only] * len(group)
    line = 30_000
    rereads: list[Word] = []
    grown: dict[int, Word] = {}  # words whose own glyph a patch was, by id, with their boxes over it
    for (left, up, _right, _down), reading, label_only in zip(boxes, readings, labels_only):
        if reading is None:
            continue
        r, offset = reading
        if _unsure(r) or len(r.text) > ORPHAN_MAX_CHARS or not _ORPHAN_TEXT.match(r.text):
            continue
        if label_only and not _ORPHAN_LABEL.match(r.text):
            continue
        box = (left + r.left - offset, up + r.top - gap, left + r.right - offset, up + r.bottom - gap)
        owner = _glyph_of_a_word(r.text, box, covered, typical_height)
        if owner is not None:
            # Not a word: the owner's box grows over its glyph, so no later pass takes that ink for a dropped word.
            grown[id(owner)] = _spanning(grown.get(id(owner), owner), box)
            continue
        line += 1
        rereads.append(Word(
            text=r.text, conf=r.conf, left=left + r.left - offset, top=up + r.top - gap,
            right=left + r.right - offset, bottom=up + r.bottom - gap, line=(line, 0, 0),
        ))
    unsure = [w for w in words if id(w) in suspects]
    meeting = {id(w): [r for r in rereads if _shared_area(r, w)] for w in unsure}
    whole = {id(w) for w in unsure if meeting[id(w)] and replaces(meeting[id(w)], w, ink)}
    added = list(words)
    replaced: set[int] = set()
    for reread in rereads:
        overlapped = [w for w in unsure if _shared_area(reread, w)]
        if any(id(w) not in whole for w in overlapped):
            continue  # a part of an unsure word read again: the word stays as read, whole
        replaced.update(id(w) for w in overlapped)
        added.append(reread)
    return [grown.get(id(w), w) for w in added if id(w) not in replaced]
