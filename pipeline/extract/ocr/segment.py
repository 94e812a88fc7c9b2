"""Page segmentation by layout, and a second reading of prose regions as uniform text blocks.

Tesseract's automatic page segmentation (`--psm 3`) keeps columns and grids apart, but on blurred
200 dpi scans it reads ordinary question text worse than `--psm 6` (one uniform block of text): on the
Spanish development pages psm 6 had about 63 % fewer misread characters. Over a whole page psm 6
merges columns and turns answer grids into junk, so it is only used where it fits:

1. `find_regions`: the page's text regions, by a recursive XY cut of the ink — a region splits at a
   vertical white gutter that runs through its whole height (columns) or at a white band across its
   whole width that is taller than a text line (blocks within a column);
2. `classify_region`: a region is `PROSE` when the psm-3 words in it are several words of ordinary text
   (mostly words of two letters or more, few digits or lone letters, no wide cell gaps inside a line, no ruled box);
   otherwise `GRID` (aligned short cells, tables, ruled boxes) or `SPARSE` (little text: figures,
   headings, page numbers), which keep their psm-3 reading;
3. `reread_prose`: the prose regions that psm 3 was unsure of (mean confidence below a threshold) are
   pasted one under another into one image — one Tesseract call per page, not one per region —
   read with psm 6, mapped back to page coordinates, and replace the psm-3 words of a region only when
   the re-read is at least as confident and keeps at least as much text. Where psm 6 fails nothing
   gets worse. A region classed `GRID` only by its tokens' shape (no line with a cell gap, no ruled
   box) and read unsurely is read again the same way and kept by the same rule: psm 3 can break a
   block of text into lone signs and digits (a dense Korean option column at 300 dpi: `」`, `0`, `}` at
   49 % confidence), which look like a grid's cells; a true grid keeps its cells apart.

Nothing here knows a sheet's words: the thresholds are in units of the page's own text height.
"""
from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
from PIL import Image

from pipeline.extract.ocr.engine import parse_tsv, run_tesseract, straight_runs
from pipeline.extract.ocr.words import INK_BELOW, Word, ink_runs, mean_confidence

SEGMENTATION_VERSION = "xy-cut/3"  # part of the reading cache key: bump when regions or their reading change
REREAD_PSM = 6
# A grid-shaped region (lone signs, digits, short pieces) is read again as a block only when psm 3 was this
# unsure of it: Korean options psm 3 broke into fragments read at 49; a key's rows of "9.A" entries, one
# entry unsure, read at 79, and psm 6 read them as "9A", an entry the key no longer recognised.
FRAGMENTS_BELOW = 60.0
# A vertical gutter at least this many text heights wide separates columns; word spaces (0.3) and
# justified gaps (up to ~1) are narrower.
GUTTER_HEIGHTS = 1.5
# A white band across a region taller than this many text heights separates blocks (line spacing is
# 0.2–0.5 of a text height, so lines of one paragraph stay together).
BAND_HEIGHTS = 1.0
MAX_DEPTH = 8
# Prose: ordinary words. A line of a grid or table has cells far apart; prose words are a space apart.
PROSE_MIN_WORDS = 4
# Share of tokens with fewer than two letters (digits, lone letters, marks: what grid cells hold) above
# which a region is a grid. Counting letters, not length: Spanish prose is a third short words
# ("a", "y", "de", "la").
PROSE_MAX_NONWORD_SHARE = 0.4
CELL_GAP_HEIGHTS = 3.0  # a gap this wide between two words of a line is a cell boundary
PROSE_MAX_CELL_LINES = 0.3  # share of lines with a cell gap above which the region is a grid
RULES_FOR_BOX = 3  # this many straight rules (frame sides, table lines) make a region ruled; an underline is 1
RULE_MIN_TEXT_HEIGHTS = 6.0  # a rule at least this long (in text heights) inside the region
REGION_LINE_OFFSET = 10_000  # re-read words get line ids clear of psm 3's (block numbers are small)
STACK_GAP_HEIGHTS = 1.5  # white between stacked regions, so psm 6 never joins lines of two regions


class RegionKind(enum.Enum):
    PROSE = "prose"
    GRID = "grid"
    SPARSE = "sparse"


@dataclass(frozen=True)
class Region:
    """A rectangle of the page image in pixels, [left, right) × [top, bottom)."""

    left: int
    top: int
    right: int
    bottom: int

    def holds(self, word: Word) -> bool:
        cx, cy = (word.left + word.right) / 2, (word.top + word.bottom) / 2
        return self.left <= cx < self.right and self.top <= cy < self.bottom


@dataclass(frozen=True)
class RegionReading:
    """What became of one region: its kind, psm 3's and psm 6's mean confidence, whether psm 6 was kept."""

    region: Region
    kind: RegionKind
    words: int
    psm3_confidence: float | None
    psm6_confidence: float | None = None
    replaced: bool = False


def _white_runs(profile: np.ndarray, min_length: int) -> list[tuple[int, int]]:
    """[start, end) runs of zeros in `profile` at least `min_length` long, between two runs of ink."""
    ink = ink_runs(profile, 0)
    return [(end, start) for (_, end), (start, _) in zip(ink, ink[1:]) if start - end >= min_length]


def _split(ink: np.ndarray, region: Region, gutter: int, band: int, depth: int) -> list[Region]:
    """Recursive XY cut of `region`, trimmed to its ink; regions without ink are dropped."""
    crop = ink[region.top : region.bottom, region.left : region.right]
    rows, cols = np.flatnonzero(crop.any(axis=1)), np.flatnonzero(crop.any(axis=0))
    if rows.size == 0:
        return []
    trimmed = Region(region.left + int(cols[0]), region.top + int(rows[0]), region.left + int(cols[-1]) + 1, region.top + int(rows[-1]) + 1)
    crop = ink[trimmed.top : trimmed.bottom, trimmed.left : trimmed.right]
    if depth >= MAX_DEPTH:
        return [trimmed]
    # Columns first: a gutter through the whole height; else blocks: a band across the whole width.
    for axis, min_run in ((0, gutter), (1, band)):
        runs = _white_runs(crop.sum(axis=axis), min_run)
        if not runs:
            continue
        edges = [0, *[(a + b) // 2 for a, b in runs], crop.shape[1 - axis]]
        pieces = []
        for start, end in zip(edges, edges[1:]):
            if axis == 0:
                piece = Region(trimmed.left + start, trimmed.top, trimmed.left + end, trimmed.bottom)
            else:
                piece = Region(trimmed.left, trimmed.top + start, trimmed.right, trimmed.top + end)
            pieces.extend(_split(ink, piece, gutter, band, depth + 1))
        return pieces
    return [trimmed]


def find_regions(grey: Image.Image, text_height: float) -> list[Region]:
    """The text regions of a prepared page image (rules already erased), top to bottom within columns."""
    return regions_of_ink(np.asarray(grey) < INK_BELOW, text_height)


def regions_of_ink(ink: np.ndarray, text_height: float) -> list[Region]:
    """The regions of an ink mask by the XY cut `find_regions` makes."""
    if text_height <= 0:
        return []
    whole = Region(0, 0, ink.shape[1], ink.shape[0])
    return _split(ink, whole, max(2, round(GUTTER_HEIGHTS * text_height)), max(2, round(BAND_HEIGHTS * text_height)), 0)


def ruled_lines(raw_grey: Image.Image, text_height: float) -> tuple[np.ndarray, np.ndarray]:
    """Pixels of straight dark rules in the page as rendered (before they are erased): (horizontal, vertical)."""
    dark = np.asarray(raw_grey) < INK_BELOW
    length = max(20, round(RULE_MIN_TEXT_HEIGHTS * text_height))
    return straight_runs(dark, length, axis=1), straight_runs(dark, length, axis=0)


def _rule_count(rules: tuple[np.ndarray, np.ndarray], region: Region, margin: int) -> int:
    """How ruled `region` is: its horizontal plus its vertical rules, counting a margin around it (a frame
    sits just outside its text). An underline is 1, a box 4, a table more."""
    top, left = max(0, region.top - margin), max(0, region.left - margin)
    horizontal, vertical = (mask[top : region.bottom + margin, left : region.right + margin] for mask in rules)
    across = len(ink_runs(horizontal.any(axis=1), 2))
    down = len(ink_runs(vertical.any(axis=0), 2))
    return across + down


def classify_region(words: Sequence[Word], text_height: float, rules: int = 0) -> RegionKind:
    """PROSE, GRID or SPARSE from the psm-3 words of a region and the rules around it."""
    if len(words) < PROSE_MIN_WORDS:
        return RegionKind.SPARSE
    if rules >= RULES_FOR_BOX:
        return RegionKind.GRID
    nonword = sum(1 for w in words if sum(ch.isalpha() for ch in w.text) < 2) / len(words)
    lines, cell_lines = _cell_lines(words, text_height)
    if nonword > PROSE_MAX_NONWORD_SHARE or cell_lines > PROSE_MAX_CELL_LINES * lines:
        return RegionKind.GRID
    return RegionKind.PROSE


def _cell_lines(words: Sequence[Word], text_height: float) -> tuple[int, int]:
    """(lines, lines with a cell gap: two words further apart than `CELL_GAP_HEIGHTS` text heights)."""
    lines: dict[tuple[int, int, int], list[Word]] = {}
    for word in words:
        lines.setdefault(word.line, []).append(word)
    cell_lines = 0
    for members in lines.values():
        members = sorted(members, key=lambda w: w.left)
        if any(b.left - a.right > CELL_GAP_HEIGHTS * text_height for a, b in zip(members, members[1:])):
            cell_lines += 1
    return len(lines), cell_lines


def _block_of_lines(words: Sequence[Word], text_height: float, rules: int) -> bool:
    """Lines of words a space apart, no cell gap in any, no ruled box: a region psm 6 reads as it reads prose,
    whatever psm 3 made of its tokens. psm 3 can turn a block of text into fragments (lone signs, digits,
    one-letter pieces), which look like a grid's cells by their shape; a true grid has its cells apart."""
    return len(words) >= PROSE_MIN_WORDS and rules < RULES_FOR_BOX and _cell_lines(words, text_height)[1] == 0


def _letters(words: Sequence[Word]) -> int:
    return sum(sum(ch.isalnum() for ch in w.text) for w in words)


def reread_prose(
    grey: Image.Image,
    raw_grey: Image.Image,
    words: list[Word],
    text_height: float,
    *,
    confident_from: float,
    languages: Sequence[str],
    dpi: int,
    omp_thread_limit: int | None,
) -> tuple[list[Word], list[RegionReading]]:
    """`words` (psm 3) with the words of re-read prose regions replaced by psm 6's, and what each region got.

    A prose region is read again only when psm 3's mean confidence there is below `confident_from`;
    psm 6's words are kept when their mean confidence is at least psm 3's and they hold at least as
    many letters and digits (a line psm 6 lost would otherwise go unnoticed).
    """
    regions = find_regions(grey, text_height)
    if not regions:
        return words, []
    margin = max(2, round(text_height))
    inside: list[list[Word]] = [[] for _ in regions]
    for word in words:
        for index, region in enumerate(regions):
            if region.holds(word):
                inside[index].append(word)
                break
    readings: list[RegionReading] = []
    chosen: list[int] = []
    rules = None  # found only when a region would be read again: a full-page pass costs ~0.1 s
    for index, region in enumerate(regions):
        members = inside[index]
        kind = classify_region(members, text_height)
        confidence = mean_confidence(members)
        if kind is RegionKind.PROSE and confidence is not None and confidence < confident_from:
            if rules is None:
                rules = ruled_lines(raw_grey, text_height)
            kind = classify_region(members, text_height, _rule_count(rules, region, margin))
            if kind is RegionKind.PROSE:
                chosen.append(index)
        elif kind is RegionKind.GRID and confidence is not None and confidence < min(confident_from, FRAGMENTS_BELOW):
            if rules is None:
                rules = ruled_lines(raw_grey, text_height)
            if _block_of_lines(members, text_height, _rule_count(rules, region, margin)):
                chosen.append(index)  # still GRID in the readings unless psm 6 reads it better
        readings.append(RegionReading(region, kind, len(members), confidence))
    if not chosen:
        return words, readings
    reread = read_stacked(grey, [regions[i] for i in chosen], text_height, languages, dpi, omp_thread_limit)
    replaced: set[int] = set()
    for index, new_words in zip(chosen, reread):
        old, new = inside[index], new_words
        old_conf, new_conf = readings[index].psm3_confidence, mean_confidence(new)
        keep = new_conf is not None and old_conf is not None and new_conf >= old_conf and _letters(new) >= _letters(old)
        readings[index] = replace(readings[index], psm6_confidence=new_conf, replaced=keep)
        if keep:
            replaced.add(index)
    if not replaced:
        return words, readings
    # The new words go where the region's first old word was: repairs that look at neighbouring words
    # (split words, question numbers) see them in reading order.
    owner = {id(w): i for i in replaced for w in inside[i]}
    new_by_region = dict(zip(chosen, reread))
    result, emitted = [], set()
    for word in words:
        index = owner.get(id(word))
        if index is None:
            result.append(word)
        elif index not in emitted:
            emitted.add(index)
            result.extend(new_by_region[index])
    return result, readings


def read_stacked(
    grey: Image.Image,
    regions: Sequence[Region],
    text_height: float,
    languages: Sequence[str],
    dpi: int,
    omp_thread_limit: int | None,
) -> list[list[Word]]:
    """Each region's words read by psm 6, in page coordinates: the crops one under another in one image,
    so a page pays for one Tesseract call however many regions it has."""
    gap = max(4, round(STACK_GAP_HEIGHTS * text_height))
    width = max(r.right - r.left for r in regions) + 2 * gap
    offsets, y = [], gap
    for region in regions:
        offsets.append(y)
        y += (region.bottom - region.top) + gap
    stack = Image.new("L", (width, y), 255)
    for region, offset in zip(regions, offsets):
        stack.paste(grey.crop((region.left, region.top, region.right, region.bottom)), (gap, offset))
    read = parse_tsv(run_tesseract(stack, languages, dpi, omp_thread_limit=omp_thread_limit, psm=REREAD_PSM))
    per_region: list[list[Word]] = [[] for _ in regions]
    for word in read:
        cy = (word.top + word.bottom) / 2
        for index, (region, offset) in enumerate(zip(regions, offsets)):
            if offset - gap / 2 <= cy < offset + (region.bottom - region.top) + gap / 2:
                dx, dy = region.left - gap, region.top - offset
                block, paragraph, line = word.line
                per_region[index].append(
                    replace(
                        word,
                        left=word.left + dx,
                        right=word.right + dx,
                        top=word.top + dy,
                        bottom=word.bottom + dy,
                        line=(REGION_LINE_OFFSET * (index + 1) + block, paragraph, line),
                    )
                )
                break
    return per_region
