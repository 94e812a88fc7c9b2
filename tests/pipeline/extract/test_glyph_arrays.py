"""The text layer's glyphs are laid out as arrays, a page at a time, and give what the per-glyph rules
give: rows grouped run by run equal rows grouped glyph by glyph, a row's ink spans found for the page
at once equal those found glyph by glyph, a gutter searched in each row's open free intervals narrows as
it did in the intervals bounded by the first row, and a page's segments come without a Glyph object
per character (`test_text_page_glyphs.py`)."""
from __future__ import annotations

import math
import random

import numpy as np
import pytest

from pipeline.extract import Glyph, assemble
from pipeline.extract import columns, layout
from pipeline.extract.glypharrays import GlyphArrays

def _rows_glyph_by_glyph(glyphs: list[Glyph], shared_descent: bool) -> list[list[int]]:
    """The row rule as written for one glyph at a time: a glyph joins the row when its centre lies in
    the row's anchor box; a glyph over 1.25 times the row's largest re-anchors it."""
    order = sorted(range(len(glyphs)), key=lambda i: (glyphs[i].bottom, glyphs[i].x0) if shared_descent
                   else ((glyphs[i].top + glyphs[i].bottom) / 2, glyphs[i].x0))
    rows: list[list[int]] = []
    top = bottom = largest = 0.0
    for i in order:
        g = glyphs[i]
        if rows and top <= (g.top + g.bottom) / 2 <= bottom:
            rows[-1].append(i)
            if g.size > 1.25 * largest:
                top, bottom = g.top, g.bottom
            largest = max(largest, g.size)
        else:
            rows.append([i])
            top, bottom, largest = g.top, g.bottom, g.size
    return rows


def _random_page(seed: int) -> list[Glyph]:
    """Lines of glyphs in a few fonts and sizes (runs of equal boxes), sub- and superscripts, small
    labels, and a few boxes upside down, shuffled as a content stream may hold them."""
    rng = random.Random(seed)
    glyphs = []
    for line in range(rng.randint(1, 30)):
        baseline = 60 + line * rng.choice([11.0, 12.5, 14.0]) + rng.choice([0, 0, 0, 0.3])
        x = 40.0
        for _ in range(rng.randint(1, 60)):
            size = rng.choice([10.0, 10.0, 10.0, 7.0, 14.0])
            shift = rng.choice([0, 0, 0, 0, -3.0, 2.0])
            top, bottom = baseline - size * 0.9 + shift, baseline + size * 0.25 + shift
            if rng.random() < 0.02:
                top, bottom = bottom, top
            width = size * rng.uniform(0.3, 0.7)
            glyphs.append(Glyph(rng.choice("abcXY1."), x, top, x + width, bottom, size, seq=len(glyphs)))
            x += width + rng.choice([0.0, 0.0, 0.5, 3.0, 25.0])
    rng.shuffle(glyphs)
    return glyphs


@pytest.mark.parametrize("shared_descent", [True, False])
def test_rows_grouped_run_by_run_are_the_rows_grouped_glyph_by_glyph(shared_descent, monkeypatch):
    # The walk alone: on the text layer's rows `smallrows.join_small_rows` then joins the raised and lowered
    # small glyphs these pages hold to their lines (`test_small_rows.py`), which the glyph-by-glyph walk does not.
    monkeypatch.setattr(layout, "join_small_rows", lambda source, order, opened, edges: (order, opened, edges, []))
    for seed in range(60):
        glyphs = _random_page(seed)
        expected = _rows_glyph_by_glyph(glyphs, shared_descent)
        rows = layout.group_rows(glyphs, shared_descent)
        assert [row.members for row in rows] == expected, seed
        assert all(row.glyphs == [glyphs[i] for i in row.members] for row in rows)


def test_spans_found_for_the_page_at_once_are_the_spans_found_glyph_by_glyph():
    rng = random.Random(7)
    for case in range(80):
        glyphs = _random_page(case)
        if case % 4 == 0:  # a glyph that ends left of where it starts sends the page the per-row way
            glyphs.append(Glyph("z", 300.0, 60.0, 280.0, 70.0, 10.0))
        source = GlyphArrays.from_glyphs(glyphs)
        rows = layout.group_rows(source, shared_descent=True)
        gap = rng.choice([2.0, 9.0, 20.0])
        by_glyph = [columns._spans(row.by_x, source.x0s, source.x1s, gap) for row in rows]
        assert columns._row_spans(source, rows, gap) == by_glyph, case


def _narrowed_as_bounded(spans, lo, hi, row_x0, row_x1, current, min_gutter):
    """One row's step of the gutter walk with the row's free intervals bounded by the first row."""
    widest, widest_width = None, 0.0
    for a, b in columns._free_intervals(spans, min(lo, row_x0) - 1, max(hi, row_x1) + 1):
        free = (max(a, current[0]), min(b, current[1]))
        width = free[1] - free[0]
        if width >= min_gutter and (widest is None or width > widest_width):
            widest, widest_width = free, width
    return widest


def test_a_gutter_narrows_alike_in_open_free_intervals_and_in_those_bounded_by_the_first_row():
    rng = random.Random(3)
    for _ in range(3000):
        spans, x = [], rng.uniform(0, 100)
        for _ in range(rng.randint(1, 5)):
            width = rng.uniform(1, 150)
            spans.append((x, x + width))
            x += width + rng.uniform(9.0, 80.0)
        lo, hi = rng.uniform(0, 120), rng.uniform(400, 700)
        c0 = rng.uniform(lo + 0.01, hi - 10)
        current = (c0, rng.uniform(c0 + 0.01, hi - 0.01))
        row_x0, row_x1 = spans[0][0] + rng.choice([0.0, 0.0, 3.0]), spans[-1][1]
        widest, widest_width = None, 0.0
        for a, b in columns._open_free_intervals(spans, 9.0):
            a, b = max(a, current[0]), min(b, current[1])
            if b - a >= 9.0 and (widest is None or b - a > widest_width):
                widest, widest_width = (a, b), b - a
        assert widest == _narrowed_as_bounded(spans, lo, hi, row_x0, row_x1, current, 9.0)
    assert columns._open_free_intervals([(10.0, 20.0), (25.0, 40.0)], 9.0) == [(-math.inf, 10.0), (40.0, math.inf)]


def test_segments_of_glyph_objects_hand_back_those_objects_with_what_layout_marked():
    # A heading printed twice, a little apart (fake bold): one copy is kept, marked bold on its object.
    word = [Glyph(ch, 20 + 6 * i, 10, 26 + 6 * i, 22, 10, seq=i) for i, ch in enumerate("Title")]
    twins = [Glyph(g.text, g.x0 + 0.4, g.top, g.x1 + 0.4, g.bottom, g.size, seq=10 + i) for i, g in enumerate(word)]
    [segment] = assemble(word + twins, 595.0)
    assert segment.text == "Title" and segment.bold
    assert segment.glyphs == word and all(g.bold for g in word)
    assert np.array_equal(segment.indices, np.arange(5))
