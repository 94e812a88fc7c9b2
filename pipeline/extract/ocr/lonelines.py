"""Lines no word was read for: a short word alone on its line (`são`, `Nie`, `2`) that Tesseract returned no line for,
and `dropped-ink` did not take (it asks a piece for three glyph blobs, and keeps nothing it read unsurely). Nothing
read says so, and `loose-ink` cannot see it: it judges ink inside a line's band, and here no line is there.

1. what is left (`lone_pieces`): the prepared page's ink less every word's box (grown by `COVER_PAD` text heights)
   and every figure, cut into connected pieces; those of a glyph's size (`GLYPH_HEIGHTS` of the page's text height
   high, at most `GLYPH_WIDTH` wide, at least `MIN_AREA` of its square in ink, neither a hairline nor a filled
   patch) are joined along their row into pieces of a line (glyphs within `JOIN_GAP` text heights of each other, their
   middles within `ROW_SLACK`). A piece stands for a dropped line when it stands in a text block (a word's box within
   `BLOCK_REACH` text heights above or below it, overlapping it along the row) and in no line's band near a word
   (ink in a line's band beside its words is `loose-ink`'s);
2. each such piece, with white round it, is read again, top to bottom, at most `MAX_PIECES` a page: by RapidOCR
   where it serves the page's languages (`secondread.readiness`), else by Tesseract as one text line (`--psm 7`).
   A reading that is sure (`SURE_FROM`, `TESSERACT_SURE`), holds a letter or a digit and no more characters than
   the piece's width holds (`MIN_CHAR_WIDTH`) stands in its place as a line of its own;
3. a piece read as nothing sure is kept with the reading (`PageReading.unread_lines`) and named in a page note
   (the page's band in pixels); laid out, the line nearest above it in its column (below when none is) is unsure
   (`nearest_line`): never silent.

Everything is measured in the page's text height, so it holds at any resolution and type size; nothing knows a script.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from PIL import Image

from pipeline.extract.ocr.droppedink import _recogniser
from pipeline.extract.ocr.recognisers import RECOGNISERS
from pipeline.extract.ocr.words import INK_BELOW, Word

Box = tuple[int, int, int, int]  # left, top, right, bottom (image pixels)

COVER_PAD = 0.2  # text heights round a word's box its ink may spread over (blur)
GLYPH_HEIGHTS = (0.35, 1.3)  # a glyph's height in text heights (a word's box, ascender to descender: `x` is ~0.45)
GLYPH_WIDTH = 3.0  # text heights: a wider piece of ink is a rule, an underline or a drawing (glued glyphs of `são` ~1.5)
MIN_AREA = 0.03  # the text height squared: the least ink of a glyph (a stop is a mark, `loose-ink`'s)
DENSITY = (0.08, 0.75)  # share of a glyph's box that is ink: a hairline's frame / a filled patch
JOIN_GAP = 0.9  # text heights of white between two glyphs of one piece (a word space is ~0.35; columns are wider)
ROW_SLACK = 0.35  # text heights between the middles of two glyphs of one row
PIECE_HEIGHTS = (0.45, 1.5)  # a piece's height in text heights
BLOCK_REACH = 2.5  # text heights up or down to a word of the text block a piece stands in
BAND_NEAR = 1.5  # text heights along the row from a word whose band holds the piece's middle: that line's own ink
MAX_PIECES = 12  # pieces read a page; past it the page is a drawing or noise, and the rest are kept unread
PAD = 0.35  # text heights of white round a piece's crop
MIN_CHAR_WIDTH = 0.25  # text heights: a reading holds no more characters than the piece is wide in these
LINE_BASE = 45_000  # the lines of the words this pass adds


@dataclass(frozen=True)
class LoneLines:
    words: list[Word]
    unread: tuple[Box, ...]  # pieces read as nothing sure
    note: str | None


def _glyphs(ink: np.ndarray, height: float) -> list[Box]:
    """The glyph-sized connected pieces of `ink` (step 1)."""
    from scipy import ndimage  # here, not at the top: only scanned pages need it, and a season run starts without it

    labels, count = ndimage.label(ink)
    if not count:
        return []
    sizes = np.bincount(labels.ravel(), minlength=count + 1)
    kept = []
    for index, found in enumerate(ndimage.find_objects(labels), start=1):
        if found is None:
            continue
        rows, columns = found
        tall, wide = rows.stop - rows.start, columns.stop - columns.start
        if not GLYPH_HEIGHTS[0] * height <= tall <= GLYPH_HEIGHTS[1] * height or wide > GLYPH_WIDTH * height:
            continue
        if sizes[index] < MIN_AREA * height ** 2 or not DENSITY[0] <= sizes[index] / (tall * wide) <= DENSITY[1]:
            continue
        kept.append((columns.start, rows.start, columns.stop, rows.stop))
    return kept


def _joined(glyphs: list[Box], height: float) -> list[Box]:
    """Glyphs of one row within `JOIN_GAP` of each other joined into pieces."""
    pieces: list[list[int]] = []
    for left, top, right, bottom in sorted(glyphs):
        middle = (top + bottom) / 2
        for piece in pieces:
            if left - piece[2] <= JOIN_GAP * height and abs(middle - (piece[1] + piece[3]) / 2) <= ROW_SLACK * height:
                piece[:] = [piece[0], min(piece[1], top), max(piece[2], right), max(piece[3], bottom)]
                break
        else:
            pieces.append([left, top, right, bottom])
    return [(a, b, c, d) for a, b, c, d in pieces]


def _in_text_block(box: Box, words: Sequence[Word], height: float) -> bool:
    """A word's box overlaps the piece along the row within `BLOCK_REACH` text heights up or down, and no word whose band
    holds the piece's middle stands within `BAND_NEAR` along the row (that line's own ink)."""
    left, top, right, bottom = box
    middle = (top + bottom) / 2
    if any(w.top <= middle <= w.bottom and max(w.left - right, left - w.right) < BAND_NEAR * height for w in words):
        return False
    reach = BLOCK_REACH * height
    return any(w.left < right and left < w.right and (0 <= top - w.bottom <= reach or 0 <= w.top - bottom <= reach) for w in words)


def lone_pieces(grey: Image.Image, words: Sequence[Word], height: float, figures: Sequence[Box]) -> list[Box]:
    """The pieces of ink that stand for a line no word was read for, top to bottom (step 1)."""
    if not height or not words:
        return []
    ink = np.asarray(grey) < INK_BELOW
    pad = max(2, round(COVER_PAD * height))
    for w in words:
        ink[max(0, w.top - pad):w.bottom + pad, max(0, w.left - pad):w.right + pad] = False
    for left, top, right, bottom in figures:
        ink[max(0, top):bottom, max(0, left):right] = False
    pieces = _joined(_glyphs(ink, height), height)
    kept = [p for p in pieces if PIECE_HEIGHTS[0] * height <= p[3] - p[1] <= PIECE_HEIGHTS[1] * height
            and _in_text_block(p, words, height)]
    return sorted(kept, key=lambda p: (p[1], p[0]))


def _sure_words(reading, box: Box, crop_left: int, least: float, height: float, line: int) -> list[Word]:
    """The reading's words placed in the piece when the reading is sure and fits it (step 2); [] otherwise."""
    read = reading.words or (((reading.text, reading.confidence, 0, box[2] - box[0]),) if reading.text.strip() else ())
    kept = [(text, conf, left, right) for text, conf, left, right in read if text.strip()]
    if not kept or any(conf < least for _, conf, _, _ in kept):
        return []
    characters = sum(len(text) for text, _, _, _ in kept)
    if not any(ch.isalnum() for text, _, _, _ in kept for ch in text) or characters > (box[2] - box[0]) / (MIN_CHAR_WIDTH * height) + 1:
        return []
    placed = []
    for text, conf, left, right in kept:
        x0 = max(box[0], crop_left + left)
        placed.append(Word(text, round(100 * conf, 2), x0, box[1], max(x0 + 1, min(box[2], crop_left + right)), box[3], (line, 0, 0)))
    return placed


def read_lone_lines(grey: Image.Image, words: list[Word], height: float, languages: Sequence[str],
                    figures: Sequence[Box]) -> LoneLines:
    """`words` with the lines no word was read for read in place, and the pieces read as nothing (the module's docstring)."""
    pieces = lone_pieces(grey, words, height, figures)
    if not pieces:
        return LoneLines(words, (), None)
    name, least = _recogniser(languages)
    recogniser = RECOGNISERS[name]
    chosen = pieces[:MAX_PIECES] if recogniser.unavailable() is None else []
    pixels = np.asarray(grey)
    pad = max(2, round(PAD * height))
    lefts = [max(0, p[0] - pad) for p in chosen]
    crops = [np.ascontiguousarray(pixels[max(0, p[1] - pad):p[3] + pad, left:p[2] + pad]) for p, left in zip(chosen, lefts)]
    readings = recogniser.read(crops, languages) if crops else []
    added: list[Word] = []
    unread: list[Box] = list(pieces[len(chosen):])
    for index, (piece, reading, left) in enumerate(zip(chosen, readings, lefts)):
        sure = _sure_words(reading, piece, left, least, height, LINE_BASE + index)
        added += sure
        if not sure:
            unread.append(piece)
    notes = []
    if added:
        shown = "; ".join(" ".join(w.text for w in added if w.line == line) for line in sorted({w.line for w in added})[:6])
        notes.append(f"lone lines: {len({w.line for w in added})} line(s) no word was read for read by {name}: {shown}")
    if unread:
        bands = ", ".join(f"({a},{b})-({c},{d})" for a, b, c, d in unread[:6]) + (" …" if len(unread) > 6 else "")
        notes.append(f"lone lines: {len(unread)} piece(s) of text-sized ink no word was read for, read as nothing sure "
                     f"({name}), at {bands} px: the line nearest is marked unsure")
    return LoneLines(words + added, tuple(unread), " ".join(notes))


def nearest_line(box: tuple[float, float, float, float], lines: Sequence[tuple[float, float, float, float]], height: float) -> int | None:
    """The index of the line (left, top, right, bottom) an unread piece belongs with: the nearest above it that overlaps
    it along the row within `BLOCK_REACH` line heights, else the nearest below; None when no line is that near."""
    left, top, right, bottom = box
    reach = BLOCK_REACH * height
    above = [(top - b[3], i) for i, b in enumerate(lines) if b[0] < right + height and left < b[2] + height and 0 <= top - b[3] + height <= reach + height]
    if above:
        return min(above)[1]
    below = [(b[1] - bottom, i) for i, b in enumerate(lines) if b[0] < right + height and left < b[2] + height and -height <= b[1] - bottom <= reach]
    return min(below)[1] if below else None
