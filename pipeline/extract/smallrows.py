"""Raised and lowered small glyphs (superscripts, subscripts) joined to the row they belong to.

`layout._group` walks glyphs sorted by the descent line they share and opens a row wherever a run's centre
leaves the row's anchor box. A superscript set high (`10¹²/L`, `kg/m²`: a smaller glyph whose bottom stands
over the line's descent) sorts before its line and opens a row of its own, whose small box the line's glyphs
do not centre in: the text path would write `10 /L` with a line `12` just above it, and where that line stands
in the side band `clean_pages` would take it for a margin note. The walk itself stays as it is (it is compiled
twice, `layoutjit.anchor_rows` and `layoutir`); this pass runs on its result, for the text layer's rows.

Each cluster of a small row's glyphs (glyphs a small gap apart, by x) joins a nearby row (its host, within
`HOST_REACH` rows in the sort order; a row may hold the subscripts of one line and a superscript of the next)
where it
 - is markedly smaller (`SMALL` of the size or less) than the host glyph it touches,
 - overlaps the host's anchor box vertically by `OVERLAP` of its own height at least (its upper or lower part),
 - touches a host glyph horizontally (the gap at its left or right edge under `TOUCH` of that glyph's size),
 - and no glyph of the row at the host's height stands over a host glyph (a line of small print over a line
   overlaps its glyphs in x: none of its words joins it).
The joined row keeps the host's anchor box; its glyphs are read in the host's reading order by x, so
`10¹²/L` reads `1012/L` and `kg/m²` reads `kg/m2`, as pdfium orders the characters (docs/concepts/extract-and-parse.md).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from pipeline.extract import charloop
from pipeline.extract.glypharrays import GlyphArrays

if TYPE_CHECKING:  # llvmlite is imported only where layout's loops are built (`charloop.compiled_layout`)
    from pipeline.extract.rowir import RowLoops

__all__ = ["join_small_rows", "shifted_pairs", "small_row_candidates"]

SMALL = 0.8  # a cluster's largest glyph size at most this share of the host glyph it touches
OVERLAP = 0.2  # share of the cluster's height that overlaps the host's anchor box, at least
TOUCH = 0.3  # host glyph sizes: the widest gap between a cluster and the host glyph it touches
CLUSTER_GAP = 0.5  # cluster sizes: a wider gap between two small glyphs starts another cluster
ABOVE = 0.5  # share of a small glyph's width over a host glyph that makes it stand over it (not beside it)
HOST_REACH = 2  # rows in the sort order a host may stand from the small row (a row of another column between)
SHIFTED = 0.15  # sizes of the larger glyph: a raised (lowered) glyph's top and bottom stand this far over (under) the other's


def small_row_candidates(source: GlyphArrays, order: np.ndarray, opened: np.ndarray, anchor_top: np.ndarray,
                         anchor_bottom: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(row_max, row_top, row_bottom, candidate): each walked row's largest glyph size and ink extent (its glyphs
    `order[opened[r]:opened[r + 1]]`), and whether it is `SMALL` of a row within `HOST_REACH` and overlaps that row's
    anchor box (`anchor_top`, `anchor_bottom`): the rows `join_small_rows` looks at. (`rowir` compiles the same.)"""
    count = len(opened)
    row_max = np.maximum.reduceat(source.size[order], opened)
    row_top = np.minimum.reduceat(source.top[order], opened)
    row_bottom = np.maximum.reduceat(source.bottom[order], opened)
    candidate = np.zeros(count, dtype=bool)
    for reach in range(1, min(HOST_REACH, count - 1) + 1):
        for these, those in ((slice(0, count - reach), slice(reach, count)), (slice(reach, count), slice(0, count - reach))):
            candidate[these] |= (row_max[these] <= SMALL * row_max[those]) & (row_bottom[these] > anchor_top[those]) \
                & (row_top[these] < anchor_bottom[those])
    return row_max, row_top, row_bottom, candidate


def join_small_rows(source: GlyphArrays, order: np.ndarray, opened: list[int], edges: list[tuple[float, float]]
                    ) -> tuple[np.ndarray, list[int], list[tuple[float, float]], list[tuple[int, int]]]:
    """(order, opened, edges, joins): the walk's rows (`order` sorted glyphs, each row's start in it and its
    anchor box) with the small rows joined to their hosts (`joins`: (small row, host row) in the walk's
    numbering). Pages without a candidate (nearly all) come back as they came, at the cost of a few sums
    (`small_row_candidates`, compiled where layout's loops are llvmlite's: `rowir`)."""
    count = len(opened)
    if count < 2:
        return order, opened, edges, []
    starts = np.array(opened, dtype=np.int64)
    anchor = np.array(edges, dtype=np.float64)
    loops: RowLoops | None = getattr(charloop.compiled_layout(), "rows", None)
    if loops is not None:
        row_max, row_top, row_bottom, candidate = loops.small_row_candidates(
            source.size, source.top, source.bottom, order, starts, anchor, HOST_REACH, SMALL)
    else:
        row_max, row_top, row_bottom, candidate = small_row_candidates(source, order, starts, anchor[:, 0], anchor[:, 1])
    if not candidate.any():
        return order, opened, edges, []
    ends = [*opened[1:], len(order)]
    members = [order[opened[row]:ends[row]] for row in range(count)]
    kept: dict[int, np.ndarray] = {}  # what a row that gave clusters away keeps
    guests: dict[int, list[np.ndarray]] = {}  # the clusters each host row was given
    joins: list[tuple[int, int]] = []
    for row in np.flatnonzero(candidate).tolist():
        if row in guests:  # a row given clusters keeps its glyphs
            continue
        small = members[row][np.argsort(source.x0[members[row]], kind="stable")]
        clusters = _clusters(source, small)
        placed = np.zeros(len(clusters), dtype=bool)
        near = [h for h in range(row - HOST_REACH, row + HOST_REACH + 1) if 0 <= h < count and h != row and len(kept.get(h, members[h]))]
        for host in sorted(near, key=lambda h: abs(h - row)):
            if source.size[small].min() > SMALL * row_max[host]:  # no glyph of the row small beside it
                continue
            found = _placed_on(source, clusters, members[host], edges[host])
            fresh = [k for k in found if not placed[k]]
            if fresh:
                placed[fresh] = True
                guests.setdefault(host, []).extend(clusters[k] for k in fresh)
                joins.append((row, host))
            if placed.all():
                break
        if placed.any():
            kept[row] = np.concatenate([clusters[k] for k in np.flatnonzero(~placed).tolist()] or [np.zeros(0, dtype=order.dtype)])
    if not joins:
        return order, opened, edges, []
    pieces, new_opened, new_edges = [], [], []
    at = 0
    for row in range(count):
        own = kept.get(row, members[row])
        if not len(own):
            continue
        new_opened.append(at)
        new_edges.append(edges[row])
        for piece in (own, *guests.get(row, ())):
            pieces.append(piece)
            at += len(piece)
    return np.concatenate(pieces), new_opened, new_edges, joins


def _clusters(source: GlyphArrays, small: np.ndarray) -> list[np.ndarray]:
    """A row's glyphs (sorted by x) cut wherever the gap between two is wider than `CLUSTER_GAP` of its size."""
    size = max(float(source.size[small].max()), 0.01)
    cuts = np.flatnonzero(source.x0[small][1:] - source.x1[small][:-1] > CLUSTER_GAP * size) + 1
    return np.split(small, cuts)


def _placed_on(source: GlyphArrays, clusters: list[np.ndarray], host: np.ndarray, anchor: tuple[float, float]) -> list[int]:
    """The clusters that sit beside a glyph of the `host` row, on its upper or lower part, markedly smaller than
    it (the module's rules); none where a cluster at the host's height stands over one of its glyphs (a line of
    small print over the host's line, not a superscript)."""
    top, bottom = anchor
    hx0, hx1, hsize = source.x0[host], source.x1[host], source.size[host]
    level = []
    for at, cluster in enumerate(clusters):
        ctop, cbottom = float(source.top[cluster].min()), float(source.bottom[cluster].max())
        if min(cbottom, bottom) - max(ctop, top) >= OVERLAP * max(cbottom - ctop, 0.01):
            level.append(at)
    if not level:
        return []
    glyphs = np.concatenate([clusters[at] for at in level])
    sx0, sx1 = source.x0[glyphs], source.x1[glyphs]
    over = np.minimum(sx1[:, None], hx1[None, :]) - np.maximum(sx0[:, None], hx0[None, :])
    if (over > ABOVE * np.maximum(sx1 - sx0, 0.01)[:, None]).any():
        return []
    found = []
    for at in level:
        cluster = clusters[at]
        x0, x1, size = float(source.x0[cluster].min()), float(source.x1[cluster].max()), float(source.size[cluster].max())
        # The host glyph it touches: the nearest ending at its left edge, or starting at its right edge.
        gaps = []
        left = np.flatnonzero(hx0 < x0)
        if len(left):
            k = int(left[np.argmax(hx1[left])])
            gaps.append((x0 - float(hx1[k]), float(hsize[k])))
        right = np.flatnonzero(hx1 > x1)
        if len(right):
            k = int(right[np.argmin(hx0[right])])
            gaps.append((float(hx0[k]) - x1, float(hsize[k])))
        if any(gap <= TOUCH * host_size and size <= SMALL * host_size for gap, host_size in gaps):
            found.append(at)
    return found


def shifted_pairs(source: GlyphArrays, flat: np.ndarray, sizes: np.ndarray, smaller: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(sizes, shifted): the size each pair of neighbours in `flat` (rows' glyphs one after the other, `sizes`
    theirs) measures its word gap by, and which pairs are a glyph and a raised or lowered small one. A pair's
    size is `smaller`, the smaller of the two, but the larger where the smaller is markedly smaller (`SMALL`)
    and raised or lowered (its top and its bottom both `SHIFTED` over or under the other's): a superscript's side bearings and its lift are no word space,
    nor is the space pdfium makes up where the baseline moves (`kg/m²,` reads `kg/m2,`, not `kg/m 2 ,`);
    small print beside small print keeps its own measure."""
    first_smaller = sizes[:-1] < sizes[1:]
    larger = np.where(first_smaller, sizes[1:], sizes[:-1])
    top, bottom = source.top[flat], source.bottom[flat]
    # The small glyph's top and bottom less the other's: both up (raised) or both down (lowered). A glyph
    # sized smaller for its box alone (an `a` beside a `p`, whose box reaches lower) shares one edge.
    sign = np.where(first_smaller, 1.0, -1.0)
    rise_top, rise_bottom = sign * (top[:-1] - top[1:]), sign * (bottom[:-1] - bottom[1:])
    reach = SHIFTED * larger
    raised = (rise_bottom < -reach) & (rise_top < -reach)
    lowered = (rise_top > reach) & (rise_bottom > reach)
    shifted = (smaller <= SMALL * larger) & (raised | lowered)
    return np.where(shifted, larger, smaller), shifted
