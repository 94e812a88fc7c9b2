"""The glyphs Tesseract drops right after a ringed label, read again without the ring.

Tesseract segments a ring (①) and the glyph printed just past it as one blob it cannot read, and drops
both: on scanned Korean sheets at 200 dpi the option `① 마이즈` read `이즈`, `⑤ 청도` read `도`. Once
`label-rings` has put each ring's label where the ring stands, the ink between a label and the word after
it on its row that no word covers is that lost glyph. Each such stretch, from just past the ring to the
end of the word after it, is cut out (the ring left outside it), the stretches are stacked one under
another and read in one Tesseract call (psm 6, the page's languages). A reading is kept only where it
ends with the word as the page read it and adds letters before it: the added letters become the start
of that word (read glued to it) or a word of their own (read apart); a reading that differs in the
word itself changes nothing. Nothing here knows a script or a word: it works from the ring's place and
the uncovered ink.

A word printed glued to its ring (`①zielonej`) was read across it: the ring's outline came out as letters
before the word (`vsłupy`, `Jbrukowana`, `Z2drá`, `S:minusvalía`), or the glued first letter went with the
ring (`czenie` for `uczenie`), and `label-rings` cannot tell from the characters which is which. Such a
word (it starts within `GLUED_GAP` of its ring) is read again the same way, past the ring; the reading is
kept where the two differ only in their first characters (at most `PREFIX_MAX` each, the rest alike and
the most of it) and the reading, one sure word, starts at the stretch's first ink: a first letter Tesseract
skipped in the stretch leaves ink before the word it read, and the page's reading stays.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import numpy as np
from PIL import Image

from pipeline.extract.ocr.engine import parse_tsv, run_tesseract, stacked
from pipeline.extract.ocr.words import Word

MIN_UNCOVERED = 0.4  # in text heights: uncovered ink narrower than this before the next word is a speck or a ring's bleed
NEXT_WORD_WITHIN = 3.0  # text heights from the label's right edge: the word after it starts within this
RING_CLEARANCE = 0.1  # text heights left out past the ring, so none of its ink is in the stretch read
MARGIN = 0.35  # text heights of white above and below a stretch, and between stacked stretches
MIN_CONFIDENCE = 60.0  # the added letters' reading at least this sure
STACK_PSM = 6
GLUED_GAP = 0.15  # text heights between a ring and the word after it below which the two were printed glued (a space is more)
PREFIX_MAX = 3  # first characters in which a glued word's two readings may differ (a ring's look-alike: "(3)", "wW", "S:")
START_SLACK = 0.15  # text heights between the stretch's first ink and where its reading starts: no letter fits in it


@dataclass(frozen=True)
class Stretch:
    label: Word
    after: Word  # the word the page read after the label
    left: int  # where the stretch read starts (past the ring)
    ink_start: int = field(default=-1, compare=False)  # its first inked column, for a word glued to its ring (else -1)


def _same_row(a: Word, b: Word) -> bool:
    overlap = min(a.bottom, b.bottom) - max(a.top, b.top)
    return overlap >= 0.5 * min(a.bottom - a.top, b.bottom - b.top)


def _uncovered_width(ink: np.ndarray, words: list[Word], top: int, bottom: int, left: int, right: int) -> int:
    """Columns in [left, right) with ink between `top` and `bottom` that no word's box covers."""
    if right <= left:
        return 0
    columns: np.ndarray = np.array(np.asarray(ink[max(0, top):bottom, left:right]).any(axis=0), dtype=bool)
    for w in words:
        if w.top < bottom and top < w.bottom:
            columns[max(0, w.left - left):max(0, min(right, w.right) - left)] = False
    return int(columns.sum())


def stretches(words: list[Word], ink: np.ndarray, labels: Sequence[str], text_height: float) -> list[Stretch]:
    """Each label word (one of `labels`, placed where its ring stands) with uncovered ink before the word after it."""
    found = []
    for label in (w for w in words if w.text in labels):
        # A word read from past the ring's middle on (the ring's right edge read with it) is the word after it.
        row = [w for w in words if w is not label and w.left >= (label.left + label.right) / 2 and _same_row(label, w)
               and w.left - label.right <= NEXT_WORD_WITHIN * text_height]
        if not row:
            continue
        after = min(row, key=lambda w: w.left)
        if after.text in labels or not any(ch.isalnum() for ch in after.text):
            continue
        left = label.right + round(RING_CLEARANCE * text_height)
        if after.left - label.right <= GLUED_GAP * text_height and after.right > left:
            columns = np.flatnonzero(np.asarray(ink[max(0, after.top):after.bottom, left:after.right]).any(axis=0))
            if columns.size:
                found.append(Stretch(label, after, left, left + int(columns[0])))
        elif _uncovered_width(ink, words, after.top, after.bottom, left, after.left) >= MIN_UNCOVERED * text_height:
            found.append(Stretch(label, after, left))
    return found


def read_stretches(grey: Image.Image, found: list[Stretch], text_height: float, languages: Sequence[str], dpi: int,
                   omp_thread_limit: int | None) -> list[list[Word]]:
    """Each stretch's words as read alone (in stretch coordinates, left to right): one Tesseract call."""
    margin = round(MARGIN * text_height)
    crops = []
    for s in found:
        top = min(s.label.top, s.after.top) - margin
        bottom = max(s.label.bottom, s.after.bottom) + margin
        crops.append(grey.crop((s.left, max(0, top), s.after.right + margin, min(grey.height, bottom))))
    stack, tops = stacked(crops, margin)
    read = parse_tsv(run_tesseract(stack, languages, dpi, omp_thread_limit=omp_thread_limit, psm=STACK_PSM))
    result = []
    for crop, top in zip(crops, tops):
        inside = [w for w in read if top <= (w.top + w.bottom) / 2 < top + crop.height and w.text.strip()]
        result.append(sorted(inside, key=lambda w: w.left))
    return result


def restored(words: list[Word], found: list[Stretch], readings: list[list[Word]], text_height: float) -> tuple[list[Word], int]:
    """`words` with the letters each stretch's reading adds before the word after its label; and how many were restored."""
    result = list(words)
    count = 0
    for s, read in zip(found, readings):
        if not read:
            continue
        joined = "".join(w.text for w in read)
        known = s.after.text
        if s.ink_start >= 0 and not joined.endswith(known):
            mended = _glued_reading(s, read, known, text_height)
            at = next((i for i, w in enumerate(result) if w is s.after), None)
            if mended is not None and at is not None:
                result[at] = mended
                count += 1
            continue
        if not joined.endswith(known) or len(joined) == len(known):
            continue
        added = joined[: len(joined) - len(known)]
        # The reading's words that hold the added letters, and how sure they are.
        holders, length = [], 0
        for w in read:
            if length >= len(added):
                break
            holders.append(w)
            length += len(w.text)
        if not any(ch.isalpha() for ch in added) or min(w.conf for w in holders) < MIN_CONFIDENCE:
            continue
        at = next((i for i, w in enumerate(result) if w is s.after), None)
        if at is None:  # the word was mended already, from another label's stretch
            continue
        apart = read[-1].text == known and len(read) >= 2
        start = s.left + holders[0].left - round(MARGIN * text_height)  # the stack's column as the page's
        start = max(s.label.right, min(start, s.after.left - 1))
        conf = min(w.conf for w in holders)
        if apart:
            result.insert(at, Word(added, conf, start, s.after.top, s.after.left - 1, s.after.bottom, s.after.line))
        else:
            result[at] = replace(s.after, text=added + known, left=start, conf=min(s.after.conf, conf))
        count += 1
    return result, count


def _glued_reading(s: Stretch, read: list[Word], known: str, text_height: float) -> Word | None:
    """The word glued to its ring as its stretch reads it alone, where that reading is one sure word that starts at
    the stretch's first ink and differs from the page's (`known`) only in its first characters; else None."""
    if len(read) != 1 or read[0].conf < MIN_CONFIDENCE:
        return None
    text = read[0].text
    start = s.left + read[0].left - round(MARGIN * text_height)  # the stack's column as the page's
    if start - s.ink_start > START_SLACK * text_height:
        return None
    tail = 0
    while tail < min(len(text), len(known)) and text[-1 - tail] == known[-1 - tail]:
        tail += 1
    if max(len(text), len(known)) - tail > PREFIX_MAX or tail < max(2, (len(known) + 1) // 2):
        return None
    return replace(s.after, text=text, left=max(s.label.right, min(start, s.after.left)), conf=min(s.after.conf, read[0].conf))
