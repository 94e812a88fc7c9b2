"""Layout's loops compiled by llvmlite alone (`pipeline.extract.layoutir`) give what numba's (`layoutjit`) and the
pure-Python layout give, on random inputs and their edges (no rows, one row, NaN edges, ties, signed zeros); a
process lays its pages out through them from its first page without loading numba. (`test_layout_jit.py` lays
whole pages out through `charloop.compiled_layout`, which is these loops now, against the pure layout.)"""
from __future__ import annotations

import subprocess
import sys
import time

import numpy as np
import pytest

from pipeline.extract import charloop, columns, layout
from pipeline.extract.layout import LayoutParams

from .test_layout_jit import _grid_page, _rows, _table_and_rotated


@pytest.fixture(scope="module")
def loops():
    pytest.importorskip("llvmlite")
    from pipeline.extract import layoutir

    return layoutir.build()


@pytest.fixture(scope="module")
def numba_loops():
    pytest.importorskip("numba")
    return charloop._build_layout()


def _same(a, b) -> bool:
    """Arrays (or tuples of them) equal value for value, NaN where NaN, of one dtype kind."""
    if isinstance(a, tuple):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return a.dtype.kind == b.dtype.kind and a.shape == b.shape and np.array_equal(a, b, equal_nan=a.dtype.kind == "f")


def test_the_loops_on_nothing_and_on_one_row(loops, numba_loops):
    none, one = np.zeros(0), np.array([3.0])
    for kernels in (loops, numba_loops):
        assert [r.tolist() for r in kernels.anchor_rows(none, none, none)] == [[], [], []]
        assert kernels.lex_order(none, none).tolist() == [] and kernels.lex_order(one, one).tolist() == [0]
        assert kernels.overprint_rows(np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), none, none, none, none, 4, 0).tolist() == []
        assert [r.tolist() for r in kernels.row_spans(none, none, np.zeros(0, dtype=np.int64), 9.0)] == [[0], [], []]
        assert kernels.column_candidates(np.zeros(1, dtype=np.int64), none, none, none, none, none, none, np.array([6, 9, 250, 18, 0.25, 0.25])).shape == (0, 4)
    assert [r.tolist() for r in loops.anchor_rows(one, one + 10, one)] == [[0], [3.0], [13.0]]
    assert [r.tolist() for r in loops.row_spans(one, one + 2, np.array([1]), 9.0)] == [[0, 1], [3.0], [5.0]]


def test_random_keys_sort_as_numpy_and_numba_sort_them(loops, numba_loops):
    rng = np.random.default_rng(21)
    for trial in range(300):
        count = int(rng.integers(0, 200))
        primary = rng.integers(0, 5, count).astype(np.float64)
        secondary = rng.choice([0.0, -0.0, 1.5, 2.0, np.nan, np.inf, -np.inf], count)
        if trial % 3 == 0:
            primary[rng.random(count) < 0.2] = np.nan
        if trial % 4 == 1:
            primary = np.sort(primary)
        expected = np.lexsort((secondary, primary))
        assert loops.lex_order(primary, secondary).tolist() == expected.tolist()
        assert loops.lex_order(primary, secondary).tolist() == numba_loops.lex_order(primary, secondary).tolist()


def test_a_raised_small_run_opens_its_own_row_in_every_walk(loops, numba_loops):
    """A superscript set high (`10¹²/L`: the small run's bottom over its line's, so it sorts first, and the line's
    centre leaves its box) opens a row in the Python walk and both compiled ones alike; `smallrows` joins the two
    after the walk, whichever walked (`test_layout_jit`, `test_small_rows`)."""
    top, bottom, size = np.array([234.96, 237.58]), np.array([238.85, 244.9]), np.array([3.39, 6.36])
    rows, opened = layout._anchor_rows(None, [0, 1], top.tolist(), bottom.tolist(), size.tolist())  # type: ignore[arg-type]
    expected = (np.array(opened), np.array([r.top for r in rows]), np.array([r.bottom for r in rows]))
    assert opened == [0, 1]
    assert _same(loops.anchor_rows(top, bottom, size), expected) and _same(numba_loops.anchor_rows(top, bottom, size), expected)


def test_random_runs_anchor_and_overprint_as_numba_does(loops, numba_loops):
    rng = np.random.default_rng(22)
    for trial in range(200):
        count = int(rng.integers(0, 120))
        centre = np.sort(rng.uniform(0, 300, count))
        height = rng.uniform(-2, 14, count)
        top, bottom, size = centre - height / 2, centre + height / 2, rng.uniform(0.5, 14, count)
        if trial % 4 == 0:
            top[rng.random(count) < 0.1] = np.nan
        assert _same(loops.anchor_rows(top, bottom, size), numba_loops.anchor_rows(top, bottom, size))
        lengths = rng.integers(1, 9, int(rng.integers(1, 12)))
        glyphs = int(lengths.sum())
        row_of = np.repeat(np.arange(len(lengths)), lengths)
        texts = rng.integers(0, 3, glyphs).astype(np.int64)
        x0 = np.cumsum(rng.choice([0.1, 2.0, 5.0], glyphs))
        x1 = x0 + rng.uniform(1.0, 5.0, glyphs)
        top, bottom = rng.choice([0.0, 0.2, 5.0], glyphs), rng.uniform(6, 9, glyphs)
        if trial % 5 == 0:
            x1[rng.random(glyphs) < 0.15] = np.nan
        for reach in (1, 4):
            found = loops.overprint_rows(texts, row_of, x0, x1, top, bottom, reach, len(lengths))
            assert _same(found, numba_loops.overprint_rows(texts, row_of, x0, x1, top, bottom, reach, len(lengths)))
        assert _same(found, layout._overprint_rows(texts, row_of, x0, x1, top, bottom, len(lengths)))


@pytest.mark.parametrize("seed", range(8))
def test_random_pages_give_numbas_spans_and_gutter_candidates(loops, numba_loops, seed):
    """A page's rows through `row_spans`, then `column_candidates` at the layout's limits and at others (fewer
    rows, narrower gutters, a low fill, a band of one row): every candidate the same, in the same order."""
    glyphs = _grid_page(100 + seed)
    rows = _rows(glyphs)
    flat, row_of = columns.band_glyphs(rows, "by_x")
    x0, x1 = glyphs.x0[flat], glyphs.x1[flat]
    lengths = np.bincount(row_of, minlength=len(rows))
    spans = loops.row_spans(x0, x1, lengths, 9.0)
    assert _same(spans, numba_loops.row_spans(x0, x1, lengths, 9.0))
    edges = [np.array([getattr(row, name) for row in rows], dtype=np.float64) for name in ("top", "bottom", "x0", "x1")]
    tried = 0
    for limits in ([6, 9.0, 252.6, 18, 0.25, 0.25], [3, 4.0, 100.0, 9, 0.05, 0.1], [1, 2.0, 0.0, 1, 0.0, 0.0], [12, 20.0, 400.0, 36, 0.4, 0.3]):
        limit = np.array(limits, dtype=np.float64)
        found = loops.column_candidates(*spans, *edges, limit)
        assert _same(found, numba_loops.column_candidates(*spans, *edges, limit))
        tried += len(found)
    assert tried > 0  # the pages do hold candidates


def test_a_page_laid_out_through_the_ir_loops_is_the_pure_layout(tmp_path, monkeypatch, loops):
    """The table, grid, rotated and overprinted page of `test_layout_jit`, segment for segment."""
    from .test_char_loop import glyph_pages

    (glyphs, width, height), = glyph_pages(_table_and_rotated(tmp_path / "table.pdf"))

    def laid_out(kernels):
        monkeypatch.setattr(charloop, "compiled_layout", lambda: kernels)
        segments = layout.assemble(glyphs, width, LayoutParams(), page_height=height, shared_descent=True)
        return [(s.text, s.x0, s.top, s.x1, s.bottom, s.size, s.highlighted, s.bold, s.wide_starts, s.indices.tolist()) for s in segments]

    assert laid_out(loops) == laid_out(None)


def test_a_fresh_process_lays_its_first_page_out_compiled_without_numba():
    """What they exist for: a short run (numba's loops not loaded, `charloop.COMPILED_AFTER_CHARACTERS`) still lays
    its pages out through compiled loops, from the first, and never imports numba. Fails where the layout waits
    for numba's reader (as it did)."""
    pytest.importorskip("llvmlite")
    script = (
        "import sys, numpy as np\n"
        "from pipeline.extract import charloop, layout\n"
        "from tests.pipeline.extract.test_layout_jit import _grid_page\n"
        "asked = []\n"
        "build = charloop._build_layout_ir\n"
        "charloop._LAYOUT_IR.build = lambda: asked.append(1) or build()\n"
        "layout.assemble(_grid_page(1), 595.0, page_height=842.0, shared_descent=True)\n"
        "print(type(charloop.compiled_layout()).__name__, asked, 'numba' in sys.modules)\n"
    )
    env = {k: v for k, v in __import__("os").environ.items() if k != charloop.ENV_SWITCH}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, check=True)
    assert done.stdout.split() == ["LayoutLoops", "[1]", "False"]


def test_the_loops_build_in_a_small_part_of_numbas_load():
    """Built again: hundredths of a CPU second (numba's import, tables and layout loops: 0.7 s or more); a loose
    bound, the machine may be loaded."""
    pytest.importorskip("llvmlite")
    from pipeline.extract import layoutir

    started = time.process_time()
    layoutir.build()
    assert time.process_time() - started < 0.3
