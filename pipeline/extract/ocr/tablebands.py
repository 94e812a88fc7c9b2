"""A ruled table's geometry on a scan (`tablecells` reads its cells): horizontal rules (straight dark runs,
`engine.straight_runs`) bound the table's rows; in each row band, columns dark over nearly its whole height
are the cell rules (a row with horizontal rules only is cut at its white gutters). Bands that touch are one
table; cells whose centres line up down the bands are its columns.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from pipeline.extract.ocr.engine import straight_runs
from pipeline.extract.ocr.shading import table_ink
from pipeline.extract.ocr.words import ink_runs

RULE_INK_BELOW = 170  # grey level: a blurred thin rule of a 150 dpi scan stays under it
RULE_MIN_INCHES = 0.3  # a horizontal dark run this long is a rule
RULE_MAX_INCHES = 0.03  # a rule is at most this thick (a filled bar is no rule: `gridcells` reads those)
ROW_INCHES = (0.12, 0.7)  # height of a table row between two rules
CELL_RULE_SHARE = 0.85  # of a band's inner height a column is dark over to be a cell rule
MIN_CELLS = 3  # cells in a band before it is a table row
CELL_MIN_INK = 0.004  # of a cell's inner pixels dark for it to hold a glyph
# A rule broken for at most this long is one rule: dust on the glass (a white speck, a few blurred together) whitens a thin
# rule across its thickness, and its two pieces each spanned too little of the next rule to close a row with it (a speckled
# grid key lost its row 21–40, the number row read in two bands of 14 and 6 cells). Tables side by side stand further apart.
RULE_BREAK_INCHES = 0.1
RULE_GAP_INCHES = 0.45  # a wider break is joined only where the grid's other rules line up across it (`_aligned_joins`)
RULE_END_INCHES = 0.03  # how far apart the ends of two rules of one grid may lie

Box = tuple[int, int, int, int]


@dataclass(frozen=True)
class Band:
    """One table row between two horizontal rules: its inner top and bottom, and its cells' [left, right)."""

    top: int
    bottom: int
    cells: tuple[tuple[int, int], ...]


def _rules(dark: np.ndarray, dpi: int) -> list[tuple[int, int, int, int]]:
    """(top, bottom, left, right) of each horizontal rule: thin rows of long straight dark runs, pieces of one rule
    apart by a wider gap joined where the grid's other rules say they are one (`_aligned_joins`)."""
    covered = straight_runs(dark, max(20, round(RULE_MIN_INCHES * dpi)), axis=1)
    rows: list[tuple[int, int, list[tuple[int, int]]]] = []
    for top, bottom in ink_runs(covered.any(axis=1), 1):
        if bottom - top > max(2, round(RULE_MAX_INCHES * dpi)):
            continue
        rows.append((top, bottom, ink_runs(covered[top:bottom].any(axis=0), max(2, round(RULE_BREAK_INCHES * dpi)))))
    return [(top, bottom, left, right) for top, bottom, pieces in _aligned_joins(rows, dpi) for left, right in pieces]


def _aligned_joins(rows: list[tuple[int, int, list[tuple[int, int]]]], dpi: int) -> list[tuple[int, int, list[tuple[int, int]]]]:
    """Each rule row's pieces, those of one broken rule joined. Dust and a scan's faults whiten a rule for longer than
    `RULE_BREAK_INCHES` (a gap of 0.23 in left a grid's row without its top rule, the row lost): pieces apart by up to
    `RULE_GAP_INCHES` are one rule where another rule of the grid, within a row's height (`ROW_INCHES`), runs unbroken
    across the gap and its ends line up with the joined rule's (`RULE_END_INCHES`): the grid's rules are its alignment,
    not one row's. Tables side by side keep their rules apart: no rule of either spans the white between them."""
    reach, end, widest = round(ROW_INCHES[1] * dpi), max(3, round(RULE_END_INCHES * dpi)), round(RULE_GAP_INCHES * dpi)
    joined = []
    for index, (top, bottom, pieces) in enumerate(rows):
        others = [chain for t, _, pieces_of in (rows[:index] + rows[index + 1:]) if abs(t - top) <= reach
                  for chain in _chains(pieces_of, widest)]
        merged: list[tuple[int, int]] = []
        for chain in _chains(pieces, widest):
            left, right = chain[0][0], chain[-1][1]
            gaps = [(a[1], b[0]) for a, b in zip(chain, chain[1:])]
            lined_up = gaps and any(
                abs(c[0][0] - left) <= end and abs(c[-1][1] - right) <= end
                and all(any(l + end <= g0 and g1 <= r - end for l, r in c) for g0, g1 in gaps)
                for c in others)
            merged += [(left, right)] if lined_up else chain
        joined.append((top, bottom, merged))
    return joined


def _chains(pieces: list[tuple[int, int]], widest: int) -> list[list[tuple[int, int]]]:
    """`pieces` (left to right) in runs apart by at most `widest` pixels."""
    chains: list[list[tuple[int, int]]] = []
    for piece in pieces:
        if chains and piece[0] - chains[-1][-1][1] <= widest:
            chains[-1].append(piece)
        else:
            chains.append([piece])
    return chains


def table_bands(grey: np.ndarray, dpi: int, dark: np.ndarray | None = None) -> list[Band]:
    """The row bands of the page's ruled tables, top to bottom, each with its cells (`dark`: the page's
    table ink, `shading.table_ink`, when the caller has it)."""
    dark = table_ink(grey, RULE_INK_BELOW, dpi) if dark is None else dark
    rules = sorted(_rules(dark, dpi))
    low, high = (round(v * dpi) for v in ROW_INCHES)
    bands: list[Band] = []
    for index, (_top, bottom, left, right) in enumerate(rules):
        # The next rule below that spans the same columns closes this row.
        below = next((r for r in rules[index + 1:] if r[0] > bottom and min(right, r[3]) - max(left, r[2]) > 0.8 * (right - left)), None)
        if below is None or not low <= below[0] - bottom <= high:
            continue
        # A little past the rules' ends: the table's outer cell rules stand on them.
        reach = max(3, dpi // 50)
        inner_left, inner_right = max(0, max(left, below[2]) - reach), min(dark.shape[1], min(right, below[3]) + reach)
        band = dark[bottom:below[0], inner_left:inner_right]
        cells = _cells(band, dpi)
        if len(cells) >= MIN_CELLS:
            bands.append(Band(bottom, below[0], tuple((inner_left + l, inner_left + r) for l, r in cells)))
    return bands


def _cells(band: np.ndarray, dpi: int) -> list[tuple[int, int]]:
    """[left, right) of the cells of one row band: between its cell rules, or else between white gutters."""
    height = band.shape[0]
    margin = max(1, height // 8)
    inner = band[margin:height - margin]
    rule_columns = inner.mean(axis=0) >= CELL_RULE_SHARE
    rules = ink_runs(rule_columns, 1)
    if len(rules) >= MIN_CELLS:
        edges = [r for _, r in rules[:-1]], [l for l, _ in rules[1:]]
        return [(l, r) for l, r in zip(*edges) if r - l > max(4, dpi // 50)]
    # Rules across only: the row's glyph groups, parted by white at least half the row's height wide.
    groups = ink_runs(inner.any(axis=0), max(2, height // 2))
    return [(max(0, l - height // 4), min(band.shape[1], r + height // 4)) for l, r in groups]


def ink_box(dark: np.ndarray, band: Band, cell: tuple[int, int]) -> Box | None:
    """The ink of a cell, inside its rules (a pixel row and column of each rule left out), or None."""
    pad = max(1, (band.bottom - band.top) // 12)
    top, bottom, left, right = band.top + pad, band.bottom - pad, cell[0] + pad, cell[1] - pad
    if bottom <= top or right <= left:
        return None
    inside = dark[top:bottom, left:right]
    if inside.mean() < CELL_MIN_INK:
        return None
    rows, columns = np.flatnonzero(inside.any(axis=1)), np.flatnonzero(inside.any(axis=0))
    return left + int(columns[0]), top + int(rows[0]), left + int(columns[-1]) + 1, top + int(rows[-1]) + 1


def table_columns(bands: list[Band]) -> list[list[tuple[int, int]]]:
    """(band index, cell index) of each column: cells whose centres lie within half a cell of each other."""
    columns: list[list[tuple[int, int]]] = []
    centres: list[float] = []
    for b, band in enumerate(bands):
        for c, (left, right) in enumerate(band.cells):
            middle = (left + right) / 2
            at = next((k for k, x in enumerate(centres) if abs(x - middle) < (right - left) / 2), None)
            if at is None:
                columns.append([(b, c)])
                centres.append(middle)
            else:
                columns[at].append((b, c))
    return columns


def tables_of(bands: list[Band]) -> list[list[Band]]:
    """Bands grouped into tables: a band joins the table above when it starts where that table's last band ends."""
    tables: list[list[Band]] = []
    for band in bands:
        last = tables[-1][-1] if tables else None
        if last is not None and band.top - last.bottom <= max(4, (last.bottom - last.top) // 3):
            tables[-1].append(band)
        else:
            tables.append([band])
    return tables


def cell_under(table: list[Band], band: int, cell: tuple[int, int]) -> int | None:
    """The cell of `band` under `cell` (its centre within the cell's span), or None."""
    middle = (cell[0] + cell[1]) / 2
    return next((c for c, (l, r) in enumerate(table[band].cells) if l <= middle < r), None)
