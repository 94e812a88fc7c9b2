"""Layout's row steps compiled by llvmlite (`pipeline.extract.rowir`) answer as the numpy references that stay for the
pure layout: the rows that may hold superscripts or subscripts (`smallrows.small_row_candidates`: each row's largest
size and ink extent, NaNs kept as numpy keeps them) and a band's typical inner gap (`gutterchecks._typical_inner_gap`:
each row's widest gap on either side of a gutter, row by row where a gap is NaN). Whole generated pages (two columns,
superscripts, a table, an option grid) are laid out the same with and without them, and random rows and bands are
compared step by step."""
from __future__ import annotations

import dataclasses
import struct

import numpy as np
import pytest

from pipeline.extract import charloop, gutterchecks, layout, smallrows
from pipeline.extract.glypharrays import NO_RUN, GlyphArrays
from pipeline.extract.layout import LayoutParams
from tests.fixtures.sheets import two_column_page
from tests.fixtures.small_glyph_sheets import small_glyph_sheet
from tests.pipeline.extract.test_char_loop import glyph_pages
from tests.pipeline.extract.test_layout_jit import LEFT, RIGHT, SMALL_GLYPH_LINES, _table_and_rotated
from tests.pipeline.extract.test_segment_ir import _copy, _random_text_layer


@pytest.fixture(scope="module")
def loops():
    pytest.importorskip("llvmlite")
    from pipeline.extract import layoutir

    return layoutir.build()


class _Counted:
    """The compiled row loops, counting the calls each gets (so a comparison cannot pass without them)."""

    def __init__(self, rows):
        self.rows, self.calls = rows, {"walk_rows": 0, "small_row_candidates": 0, "inner_gaps": 0, "overprint_rows": 0}

    def walk_rows(self, *args):
        self.calls["walk_rows"] += 1
        return self.rows.walk_rows(*args)

    def small_row_candidates(self, *args):
        self.calls["small_row_candidates"] += 1
        return self.rows.small_row_candidates(*args)

    def inner_gaps(self, *args):
        self.calls["inner_gaps"] += 1
        return self.rows.inner_gaps(*args)

    def overprint_rows(self, *args):
        self.calls["overprint_rows"] += 1
        return self.rows.overprint_rows(*args)


def _arrays(x0, top, x1, bottom, size) -> GlyphArrays:
    count = len(x0)
    return GlyphArrays(text=["x"] * count, x0=x0, top=top, x1=x1, bottom=bottom, size=size, highlighted=np.zeros(count, dtype=bool),
                       seq=np.arange(count), space_after=np.zeros(count, dtype=bool), bold=np.zeros(count, dtype=bool),
                       unmapped=np.zeros(count, dtype=bool), run=np.full(count, NO_RUN))


def _laid_out(glyphs, width, height, kernels, monkeypatch) -> str:
    monkeypatch.setattr(charloop, "compiled_layout", lambda: kernels)
    found = layout.assemble(_copy(glyphs), width, LayoutParams(), page_height=height, shared_descent=True)
    return repr([(s.text, s.x0, s.top, s.x1, s.bottom, s.rounded_box, s.size, s.highlighted, s.bold, list(s.wide_starts),
                  s.indices.tolist()) for s in found])


def test_generated_pages_are_laid_out_the_same_with_the_row_loops(tmp_path, loops, monkeypatch):
    pages = [
        *glyph_pages(_table_and_rotated(tmp_path / "table.pdf")),
        *glyph_pages(small_glyph_sheet(tmp_path / "small.pdf", SMALL_GLYPH_LINES, right=["a área fica em 30 m^{2}"], drop=-0.5)),
        *glyph_pages(two_column_page(tmp_path / "columns.pdf", LEFT, RIGHT, "ARKUSZ EGZAMINACYJNY")),
        *glyph_pages(two_column_page(tmp_path / "narrow.pdf", LEFT, RIGHT, "EXAMEN", gutter_mm=4.0)),
    ]
    counted = _Counted(loops.rows)
    with_loops = dataclasses.replace(loops, rows=counted)
    without = dataclasses.replace(loops, rows=None)
    texts = []
    for glyphs, width, height in pages:
        compiled = _laid_out(glyphs, width, height, with_loops, monkeypatch)
        assert compiled == _laid_out(glyphs, width, height, without, monkeypatch)
        texts.append(compiled)
    assert counted.calls["small_row_candidates"] >= len(pages) and counted.calls["overprint_rows"] >= len(pages)
    assert counted.calls["walk_rows"] >= len(pages)
    assert counted.calls["inner_gaps"] >= 1
    assert "1012/L" in texts[1]  # a superscript joined to its row (a candidate found and placed)


def _random_walk(rng, rows: int, nan_share: float):
    """A walk's rows: glyph sizes and edges with ties, signed zeros and NaNs, each row opened somewhere in `order`,
    anchor boxes near the rows' own."""
    count = int(rng.integers(rows, rows * 8 + 1))
    centre = np.sort(rng.uniform(0, 400, rows))[np.sort(rng.integers(0, rows, count))]
    size = rng.choice([10.0, 10.0, 6.0, 7.5, 12.0, 0.0, -0.0], count)
    top = centre - rng.choice([2.0, 5.0, 0.0, -0.0], count)
    bottom = centre + rng.choice([2.0, 3.0, 5.0], count)
    for values in (size, top, bottom):
        values[rng.random(count) < nan_share] = np.nan
    opened = np.concatenate(([0], np.sort(rng.choice(np.arange(1, count), rows - 1, replace=False)))) if rows > 1 else np.zeros(1)
    order = rng.permutation(count).astype(np.int64)
    anchor_top = centre[np.minimum(opened.astype(np.int64), count - 1)] - rng.choice([3.0, 6.0, 0.0], rows)
    anchor_bottom = anchor_top + rng.choice([4.0, 9.0, 12.0, np.nan if nan_share else 5.0], rows)
    return _arrays(np.zeros(count), top, np.ones(count), bottom, size), order, opened.astype(np.int64), anchor_top, anchor_bottom


@pytest.mark.parametrize("nan_share", [0.0, 0.05])
def test_small_row_candidates_are_the_numpy_ones(loops, nan_share):
    """Each row's largest size, top and bottom (NaN kept, as numpy's reductions keep it) and the candidates: a row
    `SMALL` of a row up to `HOST_REACH` rows on either side whose anchor box it overlaps."""
    rng = np.random.default_rng(31)
    candidates = 0
    for _ in range(400):
        source, order, opened, anchor_top, anchor_bottom = _random_walk(rng, int(rng.integers(2, 12)), nan_share)
        expected = smallrows.small_row_candidates(source, order, opened, anchor_top, anchor_bottom)
        found = loops.rows.small_row_candidates(source.size, source.top, source.bottom, order, opened,
                                                np.column_stack((anchor_top, anchor_bottom)), smallrows.HOST_REACH, smallrows.SMALL)
        assert [value.tobytes() for value in found] == [value.tobytes() for value in expected]
        candidates += int(expected[3].sum())
    assert candidates > 100  # the rows tried hold candidates and others


def _band(seed: int, nan_share: float):
    """A random text layer's rows (their `by_x` on the page's arrays) with some x0 and x1 edges NaN."""
    source = _random_text_layer(seed)
    if nan_share:
        rng = np.random.default_rng(seed)
        source.x0[rng.random(len(source)) < nan_share] = np.nan
        source.x1[rng.random(len(source)) < nan_share] = np.nan  # a glyph right of the gutter, its end NaN
    return source, layout.group_rows(source, shared_descent=True)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("nan_share", [0.0, 0.002])
def test_a_bands_inner_gap_is_the_numpy_one(seed, nan_share, loops, monkeypatch):
    """`_typical_inner_gap` over runs of rows and gutters at many places: the median of each row's widest gap left of the
    gutter and right of it, compiled and by numpy (and row by row where a gap is NaN), to the last bit."""
    source, rows = _band(seed, nan_share)
    rng = np.random.default_rng(100 + seed)
    without = dataclasses.replace(loops, rows=None)
    answers = set()
    for _ in range(60):
        start = int(rng.integers(0, len(rows) - 1))
        band = rows[start:start + int(rng.integers(1, 15))]
        left = float(rng.uniform(0, 450))
        gutter = (left, left + float(rng.choice([0.0, 5.0, 20.0, 60.0])))
        answer = []
        for kernels in (loops, without):
            monkeypatch.setattr(charloop, "compiled_layout", lambda kernels=kernels: kernels)
            answer.append(struct.pack("d", gutterchecks._typical_inner_gap(source, band, gutter)))
        assert answer[0] == answer[1], (start, gutter)
        answers.add(answer[0])
    assert len(answers) > 20  # bands of many widths of gaps, not one answer


def test_a_gutter_with_no_ink_beside_it_has_no_inner_gap(loops):
    """Rows whose glyphs all stand inside the gutter: no gap on either side (the median of none is 0.0), a row's
    single glyph on a side gives no gap, and a NaN gap gives no answer (the band is measured row by row)."""
    source = _arrays(np.array([10.0, 20.0, 300.0]), np.zeros(3), np.array([15.0, 25.0, 305.0]), np.full(3, 10.0), np.full(3, 10.0))
    flat, row_of = np.array([0, 1, 2]), np.array([0, 0, 0])
    assert loops.rows.inner_gaps(source.x0, source.x1, flat, row_of, (0.0, 400.0)).tolist() == []
    assert loops.rows.inner_gaps(source.x0, source.x1, flat, row_of, (100.0, 200.0)).tolist() == [5.0]
    assert loops.rows.inner_gaps(source.x0, source.x1, flat, np.array([0, 1, 1]), (100.0, 200.0)).tolist() == []
    # A glyph right of the gutter whose end is NaN: the gap after it is NaN, and the band is measured row by row.
    source.x1[:] = [15.0, np.nan, 305.0]
    assert loops.rows.inner_gaps(source.x0, source.x1, flat, row_of, (0.0, 18.0)) is None
    assert loops.rows.inner_gaps(source.x0, source.x1, flat, row_of, (0.0, 5.0)) is None


def test_signed_zero_gaps_are_kept_as_numpy_keeps_them(loops):
    """Of two equal widest gaps (0.0 and -0.0) numpy's `maximum.at` keeps the later: so do the compiled loops."""
    x0 = np.array([0.0, 0.0, -0.0, 0.0, 0.0, 0.0])
    x1 = np.array([0.0, 0.0, 0.0, 0.0, -0.0, 0.0])
    found = loops.rows.inner_gaps(x0, x1, np.arange(6), np.array([0, 0, 0, 1, 1, 1]), (1.0, 2.0))
    widest = np.full(2, -np.inf)
    np.maximum.at(widest, [0, 0, 1, 1], x0[[1, 2, 4, 5]] - x1[[0, 1, 3, 4]])
    assert found.tobytes() == widest.tobytes() and np.signbit(found).tolist() == [True, False]


@pytest.mark.parametrize("nan_share", [0.0, 0.03])
def test_overprinted_twins_are_found_in_place_as_by_the_gathered_search(loops, nan_share):
    """Rows of a few texts whose boxes overlap their neighbours' by chance (some NaN edges): the rows holding a glyph
    with an overprinted twin among the `OVERPRINT_REACH` before it, read through `flat` in place, are those the numpy
    reference (`layout._overprint_rows`) and the gathered compiled search find."""
    rng = np.random.default_rng(77)
    suspects = 0
    for _ in range(300):
        count = int(rng.integers(2, 60))
        x0 = np.round(rng.uniform(0, 80, count), 1)
        top = rng.choice([10.0, 10.5, 14.0, 30.0], count)
        edges = [x0, x0 + rng.choice([2.0, 4.0, 6.0], count), top, top + rng.choice([8.0, 10.0], count)]
        for values in edges:
            values[rng.random(count) < nan_share] = np.nan
        texts = rng.integers(0, 4, count).astype(np.int64)
        lengths = np.diff(np.concatenate(([0], np.sort(rng.choice(np.arange(1, count), int(rng.integers(0, min(count - 1, 6) + 1)),
                                                                   replace=False)), [count])))
        flat = rng.permutation(count).astype(np.int64)
        row_of = np.repeat(np.arange(len(lengths)), lengths)
        gathered = [values[flat] for values in edges]
        expected = layout._overprint_rows(texts[flat], row_of, *gathered, len(lengths))
        found = loops.rows.overprint_rows(texts, *edges, flat, lengths, layout.OVERPRINT_REACH)
        assert found.tolist() == expected.tolist()
        assert found.tolist() == loops.overprint_rows(texts[flat], row_of, *gathered, layout.OVERPRINT_REACH, len(lengths)).tolist()
        suspects += int(expected.sum())
    assert suspects > 100


@pytest.mark.parametrize("nan_share", [0.0, 0.03])
def test_the_walk_in_place_opens_the_rows_the_run_by_run_walk_opens(loops, nan_share):
    """Sorted glyphs in runs of one box and size (a line's letters), boxes upside down, ties, NaNs, small glyphs
    opening a row a big one re-anchors: `walk_rows` reading `order` in place opens the rows (where in `order`, with
    which anchor box) that `_group`'s numpy runs and the compiled `anchor_rows` over them open."""
    rng = np.random.default_rng(12)
    rows_seen = 0
    for _ in range(300):
        count = int(rng.integers(1, 120))
        line = np.sort(rng.integers(0, 12, count)) * 12.0
        size = rng.choice([10.0, 10.0, 10.0, 6.0, 14.0], count)
        top = line - rng.choice([0.0, 0.0, 0.0, 2.0, 4.0], count)
        bottom = top + rng.choice([10.0, 10.0, 10.0, 5.0, -3.0], count)  # -3: a box upside down
        for values in (size, top, bottom):
            values[rng.random(count) < nan_share] = np.nan
        order = rng.permutation(count + 5)[:count].astype(np.int64)  # indices into arrays with glyphs not walked
        page_top, page_bottom, page_size = (np.full(count + 5, 99.0) for _ in range(3))
        page_top[order], page_bottom[order], page_size[order] = top, bottom, size
        same = (top[1:] == top[:-1]) & (bottom[1:] == bottom[:-1]) & (size[1:] == size[:-1]) & (top[1:] <= bottom[1:])
        starts = np.concatenate(([0], np.flatnonzero(~same) + 1))
        runs, row_tops, row_bottoms = loops.anchor_rows(top[starts], bottom[starts], size[starts])
        opened, found_tops, found_bottoms = loops.rows.walk_rows(order, page_top, page_bottom, page_size)
        assert opened.tolist() == starts[runs].tolist()
        assert found_tops.tobytes() == row_tops.tobytes() and found_bottoms.tobytes() == row_bottoms.tobytes()
        rows_seen += len(opened)
    assert rows_seen > 1000
