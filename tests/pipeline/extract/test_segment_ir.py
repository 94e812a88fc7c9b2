"""Layout's segment cuts compiled by llvmlite (`pipeline.extract.segmentir`: the three phases of `layout._segment_rows`)
cut every row as the numpy steps that stay the reference do: the same segments (text, box, rounded box, size,
highlighted, bold, wide gaps, glyphs), on generated text-layer pages (a table, option grids, justified and partly
bold lines, highlighted words, superscripts, Hangul, two columns), on random pages of one-character glyphs and of OCR
words (their own lines, multi-character texts), and phase by phase on random arrays with their edges (zero sizes,
NaN sizes, no word spaces)."""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from fpdf import FPDF

from pipeline.extract import charloop, layout
from pipeline.extract.glypharrays import NO_RUN, Glyph, GlyphArrays
from pipeline.extract.layout import LayoutParams
from tests.fixtures.sheets import two_column_page
from tests.fixtures.small_glyph_sheets import small_glyph_sheet
from tests.pipeline.extract.test_char_loop import glyph_pages
from tests.pipeline.extract.test_layout_jit import DEJAVU, DEJAVU_BOLD, LEFT, RIGHT, SMALL_GLYPH_LINES, _grid_page, _table_and_rotated


@pytest.fixture(scope="module")
def loops():
    pytest.importorskip("llvmlite")
    from pipeline.extract import layoutir

    return layoutir.build()


def _copy(glyphs: GlyphArrays) -> GlyphArrays:
    """A fresh copy (the layout marks overprinted twins bold on the arrays, and caches lists of them)."""
    fields = {f.name: getattr(glyphs, f.name) for f in dataclasses.fields(glyphs)}
    fields.update(bold=glyphs.bold.copy(), objects=None)
    return GlyphArrays(**fields)


def _segments(glyphs: GlyphArrays, width: float, height: float, kernels, monkeypatch, shared_descent: bool = True) -> list:
    monkeypatch.setattr(charloop, "compiled_layout", lambda: kernels)
    found = layout.assemble(_copy(glyphs), width, LayoutParams(), page_height=height, shared_descent=shared_descent)
    return [(s.text, s.x0, s.top, s.x1, s.bottom, s.rounded_box, s.size, s.highlighted, s.bold, list(s.wide_starts),
             s.indices.tolist()) for s in found]


def _cut_both_ways(loops, glyphs, width, height, monkeypatch, shared_descent: bool = True) -> list:
    """The page's segments cut by the compiled phases and by the numpy steps (the rest compiled alike both times)."""
    numpy_steps = dataclasses.replace(loops, segments=None)
    compiled = _segments(glyphs, width, height, loops, monkeypatch, shared_descent)
    reference = _segments(glyphs, width, height, numpy_steps, monkeypatch, shared_descent)
    assert repr(compiled) == repr(reference)  # repr: a -0.0 is not a 0.0, nor a 1 a True
    return compiled


def _justified_and_marked(path):
    """Justified paragraphs (stretched spaces), lines partly bold, a table's cells set far apart, numbered items
    spread across the line, a tab stop, a line whose spaces are all wide, and words highlighted by a marker."""
    pdf = FPDF()
    pdf.add_font("body", "", DEJAVU)
    pdf.add_font("body", "B", DEJAVU_BOLD)
    pdf.add_page()
    pdf.set_font("body", size=10)
    words = "Zdający odpowiada na pytania zgodnie z poleceniem a odpowiedzi zapisuje czytelnie w wyznaczonym miejscu".split()
    pdf.multi_cell(90, 6, " ".join(words * 3), align="J", new_x="LMARGIN", new_y="NEXT")
    pdf.multi_cell(0, 6, "Krótki   wiersz   o   szerokich   odstępach   między   wyrazami", new_x="LMARGIN", new_y="NEXT")
    pdf.multi_cell(0, 6, "Tekst z **pogrubionym fragmentem** w środku i **na końcu**", markdown=True, new_x="LMARGIN", new_y="NEXT")
    pdf.cell(0, 7, "A) pierwsza          B) druga          C) trzecia", new_x="LMARGIN", new_y="NEXT")
    pdf.cell(0, 7, "1.  P   F        2.  P   F        3.  P   F", new_x="LMARGIN", new_y="NEXT")
    pdf.set_fill_color(255, 255, 0)
    pdf.cell(30, 7, "Odpowiedź:", new_x="RIGHT")
    pdf.cell(20, 7, "24", fill=True, new_x="RIGHT")
    pdf.cell(0, 7, " oraz dalszy tekst", new_x="LMARGIN", new_y="NEXT")
    pdf.cell(40, 7, "Nr", border=1)
    pdf.cell(80, 7, "Zdanie w komórce", border=1)
    pdf.cell(20, 7, "P", border=1, new_x="LMARGIN", new_y="NEXT")
    pdf.output(str(path))
    return path


def test_generated_pages_are_cut_the_same_compiled(tmp_path, loops, monkeypatch):
    pages = [
        *glyph_pages(_table_and_rotated(tmp_path / "table.pdf")),
        *glyph_pages(_justified_and_marked(tmp_path / "justified.pdf")),
        *glyph_pages(small_glyph_sheet(tmp_path / "small.pdf", SMALL_GLYPH_LINES, right=["a área fica em 30 m^{2}"], drop=-0.5)),
        *glyph_pages(two_column_page(tmp_path / "columns.pdf", LEFT, RIGHT, "ARKUSZ EGZAMINACYJNY")),
    ]
    seen = []
    for glyphs, width, height in pages:
        seen.extend(_cut_both_ways(loops, glyphs, width, height, monkeypatch))
    # The pages hold what the phases decide: rows cut at their wide gaps, partly bold text marked, a highlighted
    # word, wide gaps recorded, a superscript read in its word.
    texts = [segment[0] for segment in seen]
    assert "A) pierwsza" in texts and "Tekst z **pogrubionym fragmentem** w środku i **na końcu**" in texts
    assert ("24", True) in [(segment[0], segment[7]) for segment in seen]
    assert any(segment[9] and segment[0].startswith("1) tak") for segment in seen)
    assert any("1012/L" in text for text in texts)


def _random_text_layer(seed: int) -> GlyphArrays:
    """A row grid (`test_layout_jit._grid_page`) with runs of the content stream shuffled, spaces after a third of
    the glyphs, glyphs raised or lowered and smaller, zero sizes, bold and highlighted runs, and wide gaps."""
    rng = np.random.default_rng(seed)
    page = _grid_page(seed)
    count = len(page)
    size = page.size.copy()
    small = rng.random(count) < 0.05
    size[small] *= 0.6
    shift = np.where(small, rng.choice([-3.0, 3.0], count), 0.0)
    size[rng.random(count) < 0.02] = 0.0
    size[rng.random(count) < 0.04] *= 0.3  # tiny glyphs: a gap measured by half the segment's size
    gaps = np.where(rng.random(count) < 0.04, rng.uniform(10, 80, count), 0.0).cumsum() % 400.0
    jitter = rng.uniform(0.0, 0.12, count) * page.size  # word gaps around `word_gap` of either measure
    x0 = page.x0 + gaps + jitter
    seq = np.arange(count)
    cut = rng.random(count) < 0.03
    seq = np.where(cut, seq + 5, seq)
    return GlyphArrays(
        text=page.text, x0=x0, top=page.top + shift, x1=page.x1 + gaps + jitter, bottom=page.bottom + shift, size=size,
        highlighted=np.repeat(rng.random(count // 8 + 1) < 0.2, 8)[:count], seq=seq, space_after=rng.random(count) < 0.3,
        bold=np.repeat(rng.random(count // 5 + 1) < 0.3, 5)[:count], unmapped=np.zeros(count, dtype=bool),
        run=np.full(count, NO_RUN), code_points=np.array([ord(t) for t in page.text], dtype=np.uint32),
    )


@pytest.mark.parametrize("seed", range(10))
def test_random_text_layers_are_cut_the_same_compiled(seed, loops, monkeypatch):
    _cut_both_ways(loops, _random_text_layer(seed), 595.0, 842.0, monkeypatch)


def _random_ocr_words(seed: int) -> list[Glyph]:
    """Words of several letters (OCR's glyphs), each line's words one Tesseract line, lines side by side on a row
    (a table), some spread wide (a justified line), labels opening cells, sizes from boxes."""
    rng = np.random.default_rng(seed)
    glyphs: list[Glyph] = []
    y = 30.0
    for line in range(int(rng.integers(10, 40))):
        size = float(rng.choice([9.0, 11.0, 14.0]))
        x = float(rng.uniform(20, 60))
        for part in range(int(rng.integers(1, 4))):
            run = (line, part)
            spread = float(rng.choice([0.3, 0.3, 1.2, 2.5]))
            for _ in range(int(rng.integers(1, 9))):
                word = str(rng.choice(["ala", "B)", "12.", "kot", "Ż", "między", "x", "A", "dom"]))
                width = size * 0.5 * len(word)
                glyphs.append(Glyph(word, x, y, x + width, y + size * float(rng.uniform(0.9, 1.1)), size, bool(rng.random() < 0.1),
                                    bold=bool(rng.random() < 0.2), run=run, conf=float(rng.uniform(40, 99))))
                x += width + size * spread
            x += float(rng.uniform(20, 90))
        y += size * float(rng.uniform(1.2, 2.0))
    return glyphs


@pytest.mark.parametrize("seed", range(6))
def test_random_ocr_words_are_cut_the_same_compiled(seed, loops, monkeypatch):
    glyphs = GlyphArrays.from_glyphs(_random_ocr_words(seed))
    assert glyphs.codes is None  # words of several letters: the texts are joined in Python
    _cut_both_ways(loops, glyphs, 595.0, 842.0, monkeypatch, shared_descent=False)


@pytest.mark.parametrize("seed", range(6))
def test_rows_with_nan_and_signed_zero_edges_are_cut_the_same_compiled(seed, loops, monkeypatch):
    """`_segment_rows` on rows of random glyphs (not sorted, overlapping) whose edges hold NaNs, signed zeros and
    ties: the boxes are reduced as numpy's `minimum`/`maximum` reduce them, NaN sizes sorted as numpy sorts them."""
    rng = np.random.default_rng(40 + seed)
    count = 300
    edges = [rng.choice([0.0, -0.0, 1.5, 2.0, 7.25, 30.0, np.nan], count) + rng.choice([0.0, 0.0, 5.0, 11.0], count)
             for _ in range(4)]
    glyphs = GlyphArrays(
        text=[chr(0x61 + k % 26) for k in range(count)], x0=edges[0], top=edges[1], x1=edges[2], bottom=edges[3],
        size=rng.choice([0.0, 8.0, 10.0, np.nan], count), highlighted=rng.random(count) < 0.3, seq=np.arange(count),
        space_after=rng.random(count) < 0.3, bold=rng.random(count) < 0.3, unmapped=np.zeros(count, dtype=bool),
        run=np.full(count, NO_RUN), code_points=np.array([0x61 + k % 26 for k in range(count)], dtype=np.uint32))
    lengths = rng.integers(1, 25, 40)
    lengths = lengths[np.cumsum(lengths) <= count]
    flat = rng.permutation(count)[:int(lengths.sum())].astype(np.int64)
    kept = [chunk.tolist() for chunk in np.split(flat, np.cumsum(lengths)[:-1])]

    def cut(kernels) -> str:
        monkeypatch.setattr(charloop, "compiled_layout", lambda: kernels)
        source = _copy(glyphs)
        rows = [layout.Row(source, list(k), 0.0, 1.0) for k in kept]
        layout._segment_rows(source, rows, kept, flat, lengths, LayoutParams())
        return repr([[(s.text, s.x0, s.top, s.x1, s.bottom, s.rounded_box, s.size, s.highlighted, s.bold, list(s.wide_starts),
                       s.indices.tolist()) for s in row.segments] for row in rows])

    assert cut(loops) == cut(dataclasses.replace(loops, segments=None))


def test_row_medians_are_the_numpy_medians(loops):
    """Phase one's row sizes against `layout._group_medians` (odd and even rows, zero medians made 1.0, NaN sizes
    sorted last as numpy sorts them), and its gaps: NaN at each row's first glyph."""
    rng = np.random.default_rng(5)
    for trial in range(200):
        lengths = rng.integers(1, 9, int(rng.integers(1, 20)))
        count = int(lengths.sum())
        size = rng.choice([0.0, 0.0, 8.0, 10.0, 10.5, 12.0, np.nan if trial % 3 == 0 else 9.0], count)
        x0 = rng.uniform(0, 500, count)
        flat = rng.permutation(count)
        found = loops.segments.segment_starts(x0, x0 + 3.0, size, np.arange(count), np.zeros(count, dtype=bool), flat, lengths,
                                              True, 1.6, 4.0)
        row_starts = np.concatenate(([0], np.cumsum(lengths)[:-1]))
        row_of = np.repeat(np.arange(len(lengths)), lengths)
        expected = layout._group_medians(size[flat], row_of, row_starts, lengths)
        assert np.array_equal(found.row_size, expected, equal_nan=True)
        assert np.isnan(found.gap[row_starts]).all() and found.starts[row_starts].all()


def test_wide_gap_starts_are_the_numpy_ones(loops):
    """Phase three against `layout._wide_gap_starts`: segments with no word space, one, several, gaps tied, sizes
    rounded to zero."""
    rng = np.random.default_rng(6)
    for _ in range(300):
        lengths = rng.integers(1, 12, int(rng.integers(1, 15)))
        count = int(lengths.sum())
        first = np.concatenate(([0], np.cumsum(lengths)))
        gap = rng.choice([0.0, 0.5, 1.0, 2.0, 2.5, 3.0, 6.0, 9.0], count)
        gap[first[:-1]] = np.nan
        sizes = rng.choice([0.0, 3.0, 10.0], len(lengths))
        x0 = rng.uniform(0, 500, count).round(3)
        seg_of = np.repeat(np.arange(len(lengths)), lengths)
        expected = layout._wide_gap_starts(gap, x0, seg_of, first[:-1], sizes)
        scratch_keys, scratch_work = np.empty(2 * count), np.empty(3 * count + 1, dtype=np.int64)
        pairs = loops.segments.wide_gap_starts(gap, first, sizes, layout.WORD_SPACE_MIN, layout.WIDE_GAP, layout.WIDE_SPREAD,
                                               scratch_keys, scratch_work)
        found: list[list[float]] = [[] for _ in lengths]
        for segment, glyph in pairs.tolist():
            found[segment].append(round(float(x0[glyph]), 2))
        assert found == [list(entry) for entry in expected]
