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
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

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


@dataclass(frozen=True)
class Stretch:
    label: Word
    after: Word  # the word the page read after the label
    left: int  # where the stretch read starts (past the ring)


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
        row = [w for w in words if w is not label and w.left >= label.right and _same_row(label, w)
               and w.left - label.right <= NEXT_WORD_WITHIN * text_height]
        if not row:
            continue
        after = min(row, key=lambda w: w.left)
        if after.text in labels or not any(ch.isalnum() for ch in after.text):
            continue
        left = label.right + round(RING_CLEARANCE * text_height)
        if _uncovered_width(ink, words, after.top, after.bottom, left, after.left) >= MIN_UNCOVERED * text_height:
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
