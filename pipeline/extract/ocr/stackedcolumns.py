"""A column of short cells that Tesseract's layout analysis made into one text line, found and read again as a block.

A list key prints one answer letter after each row's number (`1: A`, `2: A`, `3: B`, …), the letters a column apart
from the rows' words. Tesseract's page layout (`--psm 3`) may take the letters for one text line standing on end and
read that line squashed into a line's height: nine letters came back as `PO G 0 GO > 0 > >`, each "word" at a
different row. Which scans it happens on is chance (the same generated key, grey at 300 dpi, bilevel at 300 dpi,
with bleed-through, on grey paper), and when fewer than `keycells.TABLE_PASS_MIN_ISOLATED` short words came back
no table pass read the key again: 9 of 12 answers lost. Such a line is unmistakable whatever the scan: its words are
short, lie one under another (the line is several word heights tall) and within a narrow band across. Its box,
widened to the words of its rows, is read again as a block (`--psm 6`, as `table-block` reads a key page) and the
reading merged as `table-block` merges (`keycells.merge_table_pass`).
"""
from __future__ import annotations

from statistics import median

from pipeline.extract.ocr.keycells import CELL_CONTEXT_ACROSS, CELL_CONTEXT_DOWN, take_in_cut_words
from pipeline.extract.ocr.segment import Region
from pipeline.extract.ocr.words import Word, words_by_line

MIN_STACKED = 3  # short words in the line
SHORT = 3  # characters: a cell's letter or number, or a squashed misreading of one
STACKED_HEIGHTS = 2.5  # the line's height over its words' median height: a column, not a row
NARROW_HEIGHTS = 3.0  # the line's width over its words' median height at most: one cell wide


def stacked_columns(words: list[Word]) -> list[list[Word]]:
    """The Tesseract lines of `words` that are columns of short cells standing on end (each a list of its words)."""
    found = []
    for members in words_by_line(words).values():
        if len(members) < MIN_STACKED or any(len(w.text) > SHORT for w in members):
            continue
        height = median(w.bottom - w.top for w in members)
        extent = max(w.bottom for w in members) - min(w.top for w in members)
        span = max(w.right for w in members) - min(w.left for w in members)
        if height > 0 and extent > STACKED_HEIGHTS * height and span <= NARROW_HEIGHTS * height:
            found.append(members)
    return found


def column_areas(words: list[Word], columns: list[list[Word]], text_height: float, width: int, height: int) -> list[Region]:
    """Each column's box widened `CELL_CONTEXT_ACROSS` text heights either side and `CELL_CONTEXT_DOWN` up and down, then
    to take in whole every word it cuts (the rows' numbers and words), clipped to the page."""
    across, down = round(CELL_CONTEXT_ACROSS * text_height), round(CELL_CONTEXT_DOWN * text_height)
    areas = []
    for members in columns:
        left, top, right, bottom = take_in_cut_words((min(w.left for w in members) - across, min(w.top for w in members) - down,
                                                      max(w.right for w in members) + across, max(w.bottom for w in members) + down), words)
        areas.append(Region(max(left, 0), max(top, 0), min(right, width), min(bottom, height)))
    return areas
