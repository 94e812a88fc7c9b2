"""Ink Tesseract dropped: lines of text on a scan that its page reading returned no word for (or only
junk), found from the ink itself and read by a second recogniser in place.

Tesseract's layout analysis now and then leaves out a whole block (an option grid in small type inside
boxes, a row of table cells, a heading beside a rule); `noise.read_orphans` reads back what is a short
word alone, not a line. Here:
1. what is left: the prepared page's ink less every word's box (grown a little) and less the words read
   surely; the ink under junk words (confidence under `JUNK_BELOW`, no letter or digit pair) counts as
   left;
2. lines of text: what is left is cut into rows by its horizontal projection, and rows into pieces at
   white wider than `PIECE_GAP` row heights; a piece is a line of text when it looks like one
   (`looks_like_text`): a text line's height next to the page's, glyph-sized blobs close side by side
   and most standing on one baseline, not all of one shape (a dotted line, ticks, hatching repeat one;
   glyphs differ), neither a hairline nor a filled bar; a chart, a hatched area, a figure are not;
3. reading: each piece, with white round it, is read by RapidOCR's recogniser (`recognisers`; the
   crops are its text lines, no detection needed) where it serves the page's languages
   (`secondread.readiness`), else by Tesseract as one text line (`--psm 7`, where the page pass used
   `--psm 3`); pieces are read top to bottom within a budget (`BUDGET_LINES` text-line heights of
   crop width a page);
4. words kept: read with confidence (RapidOCR ≥ `SURE_FROM` a word; Tesseract ≥ `TESSERACT_SURE`),
   at least two letters or digits in the piece; they replace the junk words under them and stand on
   lines of their own. The page's notes say how many pieces were read, and by which recogniser.
"""
from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from PIL import Image

from pipeline.extract.ocr.recognisers import RECOGNISERS, CropReading
from pipeline.extract.ocr.secondread import SECOND_RECOGNISER, readiness
from pipeline.extract.ocr.words import INK_BELOW, Word, ink_runs, overlap_share

JUNK_BELOW = 40.0  # a word read under this confidence with under two letters or digits in a row is junk
COVER_PAD = 0.2  # text-line heights round a word's box that its ink may spread over
PIECE_GAP = 0.9  # text-line heights of white that part two pieces of a row (table cells, columns; a word space is ~0.35)
LINE_HEIGHTS = (0.6, 2.0)  # a piece's ink height in the page's text-line heights (a box side or bracket spanning ascenders to descenders beside a line reaches ~1.8)
MIN_BLOBS = 3  # glyph blobs in a line of text
MIN_DENSITY, MAX_DENSITY = 0.08, 0.6  # share of a piece's box that is ink: a hairline / a filled bar
MAX_BLOB_WIDTH = 2.5  # line heights: a wider blob is a drawing or a rule, not touching glyphs
ALIKE_SHARE = 0.7  # a piece whose blobs are this much one shape is a pattern (dots, ticks), not text
MAX_GAP = 0.6  # line heights: the median white between a text piece's blobs (letters and word spaces)
BASELINE_SHARE = 0.6  # of a text piece's blobs end within `BASELINE_SLACK` line heights of one line
BASELINE_SLACK = 0.12
PAD = 0.35  # line heights of white round a piece's crop
BUDGET_LINES = 60.0  # text-line heights of crop width the pass may read on one page
SURE_FROM = 0.85  # RapidOCR's mean character confidence a word needs to be kept
TESSERACT_SURE = 60.0
LINE_BASE = 40_000  # the lines of the words this pass adds

Box = tuple[int, int, int, int]


@dataclass(frozen=True)
class DroppedInk:
    words: list[Word]
    note: str | None  # what the pass read, for the page's notes; None when it found nothing to read


def _is_junk(word: Word) -> bool:
    return 0 <= word.conf < JUNK_BELOW and sum(ch.isalnum() for ch in word.text) < 2


def uncovered_ink(grey: Image.Image, words: Sequence[Word], line_height: float) -> np.ndarray:
    """The page's ink that no word read (junk aside) covers."""
    ink = np.asarray(grey) < INK_BELOW
    pad = max(2, round(COVER_PAD * line_height))
    for w in words:
        if not _is_junk(w):
            ink[max(0, w.top - pad):w.bottom + pad, max(0, w.left - pad):w.right + pad] = False
    return ink


def looks_like_text(piece: np.ndarray, line_height: float) -> bool:
    """Whether one row's piece of ink is a line of text (see the module's docstring, step 2)."""
    height, width = piece.shape
    if not LINE_HEIGHTS[0] * line_height <= height <= LINE_HEIGHTS[1] * line_height:
        return False
    density = float(piece.mean())
    if not MIN_DENSITY <= density <= MAX_DENSITY:
        return False
    blobs = ink_runs(np.asarray(piece.any(axis=0)), 0)
    if len(blobs) < MIN_BLOBS:
        return False
    widths = [right - left for left, right in blobs]
    if max(widths) > MAX_BLOB_WIDTH * line_height or statistics.median(widths) < 0.15 * line_height:
        return False
    shapes = [(right - left, int(piece[:, left:right].sum()) // 3) for left, right in blobs]
    if max(shapes.count(shape) for shape in set(shapes)) >= ALIKE_SHARE * len(blobs):
        return False
    gaps = [b[0] - a[1] for a, b in zip(blobs, blobs[1:])]
    if statistics.median(gaps) > MAX_GAP * line_height:
        return False
    bottoms = [int(np.flatnonzero(piece[:, left:right].any(axis=1))[-1]) for left, right in blobs]
    slack = max(2.0, BASELINE_SLACK * line_height)
    on_line = max(sum(abs(b - line) <= slack for b in bottoms) for line in bottoms)
    return on_line >= BASELINE_SHARE * len(blobs)


def text_pieces(ink: np.ndarray, line_height: float) -> list[Box]:
    """(left, top, right, bottom) of each piece of `ink` that looks like a line of text, top to bottom."""
    pieces: list[Box] = []
    gap = max(3, round(PIECE_GAP * line_height))
    for top, bottom in ink_runs(ink.sum(axis=1) > 1, 0):
        if bottom - top < LINE_HEIGHTS[0] * line_height:
            continue
        band = ink[top:bottom]
        for left, right in ink_runs(band.sum(axis=0) > 0, gap):
            rows = np.flatnonzero(band[:, left:right].any(axis=1))
            up, down = top + int(rows[0]), top + int(rows[-1]) + 1
            if looks_like_text(ink[up:down, left:right], line_height):
                pieces.append((left, up, right, down))
    return pieces


def _recogniser(languages: Sequence[str]) -> tuple[str, float]:
    """The recogniser that reads the pieces and the confidence (0–1) a word it reads needs."""
    spelling, _ = readiness(tuple(languages))
    if spelling is not None:
        return SECOND_RECOGNISER, SURE_FROM
    return "tesseract", TESSERACT_SURE / 100


def _words_of(reading: CropReading, box: Box, crop_left: int, least: float, line: int) -> list[Word]:
    """The sure words of one piece's reading, placed in the piece by their columns in the crop."""
    kept = []
    read = reading.words or (((reading.text, reading.confidence, 0, box[2] - box[0]),) if reading.text else ())
    for text, conf, left, right in read:
        if conf < least or not text.strip():
            continue
        x0 = max(box[0], crop_left + left)
        kept.append(Word(text, round(100 * conf, 2), x0, box[1], max(x0 + 1, min(box[2], crop_left + right)), box[3], (line, 0, 0)))
    return kept if sum(ch.isalnum() for w in kept for ch in w.text) >= 2 else []


def read_dropped_ink(grey: Image.Image, words: list[Word], line_height: float, languages: Sequence[str]) -> DroppedInk:
    """`words` with the lines of text Tesseract dropped read in place (see the module's docstring)."""
    if not line_height:
        return DroppedInk(words, None)
    ink = uncovered_ink(grey, words, line_height)
    pieces = text_pieces(ink, line_height)
    if not pieces:
        return DroppedInk(words, None)
    name, least = _recogniser(languages)
    recogniser = RECOGNISERS[name]
    if (missing := recogniser.unavailable()) is not None:
        return DroppedInk(words, f"dropped ink: {len(pieces)} line piece(s) left unread ({name}: {missing})")
    pixels = np.asarray(grey)
    pad = max(2, round(PAD * line_height))
    chosen, crops, lefts, spent = [], [], [], 0.0
    for box in pieces:
        cost = (box[2] - box[0] + 2 * pad) / line_height
        if spent + cost > BUDGET_LINES:
            continue
        spent += cost
        left = max(0, box[0] - pad)
        chosen.append(box)
        lefts.append(left)
        crops.append(np.ascontiguousarray(pixels[max(0, box[1] - pad):box[3] + pad, left:box[2] + pad]))
    readings = recogniser.read(crops, languages)
    added: list[Word] = []
    for index, (box, reading, left) in enumerate(zip(chosen, readings, lefts)):
        added += _words_of(reading, box, left, least, LINE_BASE + index)
    if not added:
        return DroppedInk(words, f"dropped ink: {len(chosen)} line piece(s) read by {name}, none surely")
    kept = [w for w in words if not (_is_junk(w) and any(overlap_share(w, a) > 0.3 for a in added))]
    lines = len({w.line for w in added})
    shown = "; ".join(" ".join(w.text for w in added if w.line == line) for line in sorted({w.line for w in added})[:6])
    return DroppedInk(kept + added, f"dropped ink: {lines} line(s) Tesseract left out read by {name}: {shown}")
