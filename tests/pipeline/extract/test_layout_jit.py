"""Layout's compiled loops (`charloop.compiled_layout`: llvmlite's `pipeline.extract.layoutir`, or numba's
`pipeline.extract.layoutjit` where those cannot be built; `test_layout_ir.py` holds the two to each other)
lay a page out exactly as the pure-Python layout does, which stays the reference: the same segments (text,
box, size, flags, wide gaps, glyphs) in the same reading order, on generated pages of two columns, a table,
rotated and mixed-script text, and on random row grids. With the switch off, the pure path runs."""
from __future__ import annotations

import numpy as np
import pytest
from fpdf import FPDF

from pipeline.extract import charloop
from pipeline.extract.glypharrays import NO_RUN, GlyphArrays
from pipeline.extract import columns, layout
from pipeline.extract.layout import LayoutParams, assemble
from tests.fixtures.sheets import two_column_page
from tests.fixtures.small_glyph_sheets import printed, small_glyph_sheet
from tests.pipeline.extract.test_char_loop import glyph_pages

DEJAVU = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
DEJAVU_BOLD = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
NOTO_CJK = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"

LEFT = [f"{n}. Pytanie numer {n} o długości kilku wierszy, żeby kolumna była wysoka i pełna tekstu." for n in range(1, 13)]
RIGHT = [f"{n}. Ερώτηση {n}: το κείμενο της δεξιάς στήλης συνεχίζει εδώ με αρκετές λέξεις." for n in range(13, 25)]


def _table_and_rotated(path):
    """A table with ruled cells, options set apart in a grid, a bold heading, a line rotated by 90 and
    one by 30 degrees, Hangul, and an overprinted (fake bold) heading."""
    pdf = FPDF()
    pdf.add_font("body", "", DEJAVU)
    pdf.add_font("body", "B", DEJAVU_BOLD)
    pdf.add_font("cjk", "", NOTO_CJK)
    pdf.add_page()
    pdf.set_font("body", "B", 13)
    pdf.cell(0, 9, "ZADANIE 7. Tabela wyników", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("body", size=10)
    with pdf.table(col_widths=(20, 60, 30, 30)) as table:
        for row in (("Nr", "Zdanie", "P", "F"), *((str(n), f"Stwierdzenie numer {n} w komórce", "P", "F") for n in range(1, 9))):
            cells = table.row()
            for text in row:
                cells.cell(text)
    pdf.ln(4)
    for line in ("A) pierwsza      B) druga", "C) trzecia      D) czwarta", "1) tak   2) nie   3) może"):
        pdf.cell(0, 7, line, new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("cjk", size=11)
    pdf.cell(0, 8, "다음 중 옳은 것은? 日本語の文", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("body", "B", 12)
    for shift in (0, 0.4):  # the same heading drawn twice, a little apart
        pdf.text(20 + shift, 250, "CZĘŚĆ DRUGA")
    pdf.set_font("body", size=9)
    with pdf.rotation(90, x=195, y=200):
        pdf.text(195, 200, "Miejsce na obliczenia (rotated margin note)")
    with pdf.rotation(30, x=60, y=270):
        pdf.text(60, 270, "Σχήμα 2: κεκλιμένο κείμενο")
    pdf.output(str(path))
    return path


def _laid_out(glyphs: GlyphArrays, width: float, height: float, monkeypatch, switch: str):
    """The page's segments as plain values, laid out with the switch at `switch` (a fresh copy of the
    glyphs each time: the layout marks overprinted twins bold on them)."""
    monkeypatch.setenv(charloop.ENV_SWITCH, switch)
    copy = GlyphArrays(**{**glyphs.__dict__, "bold": glyphs.bold.copy(), "objects": None})
    for cached in ("x0s", "x1s", "text_ids", "codes", "tops", "bottoms", "run_list", "seq_list", "space_after_list"):
        copy.__dict__.pop(cached, None)
    segments = assemble(copy, width, LayoutParams(), page_height=height, shared_descent=True)
    return [(s.text, s.x0, s.top, s.x1, s.bottom, s.size, s.highlighted, s.bold, s.wide_starts, s.indices.tolist()) for s in segments]


def _both_ways(glyphs, width, height, monkeypatch):
    pure = _laid_out(glyphs, width, height, monkeypatch, "0")
    compiled = _laid_out(glyphs, width, height, monkeypatch, "1")
    assert charloop.compiled_layout() is not None
    return pure, compiled


def test_a_two_column_page_reads_the_same_compiled_left_column_first(tmp_path, monkeypatch):
    pytest.importorskip("llvmlite")
    (glyphs, width, height), = glyph_pages(two_column_page(tmp_path / "columns.pdf", LEFT, RIGHT, "ARKUSZ EGZAMINACYJNY"))
    pure, compiled = _both_ways(glyphs, width, height, monkeypatch)
    assert pure == compiled
    texts = [segment[0] for segment in pure]
    # Read as two columns: every left question before the first right one (the test can fail: row by row
    # would interleave them).
    assert max(i for i, t in enumerate(texts) if t.startswith("12.")) < min(i for i, t in enumerate(texts) if t.startswith("13."))


def test_a_table_grid_and_rotated_text_read_the_same_compiled(tmp_path, monkeypatch):
    pytest.importorskip("llvmlite")
    (glyphs, width, height), = glyph_pages(_table_and_rotated(tmp_path / "table.pdf"))
    pure, compiled = _both_ways(glyphs, width, height, monkeypatch)
    assert pure == compiled
    texts = [segment[0] for segment in pure]
    assert "Stwierdzenie numer 8 w komórce" in texts and any("다음" in t for t in texts)
    assert any(segment[7] and "CZĘŚĆ" in segment[0] for segment in pure)  # the overprinted twin dropped, marked bold
    assert "A) pierwsza" in texts and "B) druga" in texts  # options set far apart: segments of their own
    assert any(segment[8] and segment[0].startswith("1) tak") for segment in pure)  # a few spaces apart: wide gaps


SMALL_GLYPH_LINES = ["Hemácias 4,0 x 10^{12}/L e IMC de 30 kg/m^{2} no exame", "Эритроциты 4,0 x 10^{12}/L, ИМТ 30 кг/м^{2}",
                     "Ο ασθενής έχει 4,0 x 10^{12}/L", "água H_{2}O e gás CO_{2} no sangue", "Площадь круга 12 см^{2}"]


def test_raised_and_lowered_small_glyphs_join_their_rows_the_same_compiled(tmp_path, monkeypatch):
    """The walk opens a row for a superscript set high (sorted before its line) both ways; `smallrows` joins it
    to its line after either walk, so both read `1012/L`, also an exponent in the right margin band."""
    pytest.importorskip("llvmlite")
    sheet = small_glyph_sheet(tmp_path / "small.pdf", SMALL_GLYPH_LINES, right=["a área fica em 30 m^{2}"], drop=-0.5)
    (glyphs, width, height), = glyph_pages(sheet)
    pure, compiled = _both_ways(glyphs, width, height, monkeypatch)
    assert pure == compiled
    assert [segment[0] for segment in pure] == [printed(line) for line in [*SMALL_GLYPH_LINES, "a área fica em 30 m^{2}"]]


def _grid_page(seed: int) -> GlyphArrays:
    """Random rows of words on a few column positions (so gutters open, narrow and close), with odd glyph
    widths and sizes, a few glyphs of another size in a row, on a 842-point page."""
    rng = np.random.default_rng(seed)
    texts, boxes, sizes = [], [], []
    y = 20.0
    for _ in range(int(rng.integers(20, 90))):
        size = float(rng.choice([8.0, 10.0, 10.0, 12.5]))
        starts = sorted(rng.choice([40.0, 90.5, 300.25, 320.0, 420.0], size=int(rng.integers(1, 4)), replace=False))
        for start in starts:
            x = float(start)
            for _ in range(int(rng.integers(1, 30))):
                glyph_size = size * float(rng.choice([1.0, 1.0, 1.0, 0.7]))
                width = glyph_size * float(rng.uniform(0.3, 0.7))
                texts.append(chr(int(rng.integers(0x61, 0x7B))))
                boxes.append((x, y + size - glyph_size, x + width, y + size))
                sizes.append(glyph_size)
                x += width + (glyph_size * 0.3 if rng.random() < 0.2 else 0.2)
        y += size * float(rng.uniform(1.1, 2.2) if rng.random() < 0.8 else rng.uniform(2.2, 7.0))
        if y > 820:
            break
    box = np.array(boxes)
    count = len(texts)
    return GlyphArrays(
        text=texts, x0=box[:, 0], top=box[:, 1], x1=box[:, 2], bottom=box[:, 3], size=np.array(sizes),
        highlighted=np.zeros(count, dtype=bool), seq=np.arange(count), space_after=rng.random(count) < 0.15,
        bold=rng.random(count) < 0.05, unmapped=np.zeros(count, dtype=bool), run=np.full(count, NO_RUN),
    )


@pytest.mark.parametrize("seed", range(12))
def test_random_row_grids_read_the_same_compiled(seed, monkeypatch):
    pytest.importorskip("llvmlite")
    pure, compiled = _both_ways(_grid_page(seed), 595.0, 842.0, monkeypatch)
    assert pure == compiled


def _rows(glyphs: GlyphArrays):
    return layout._rows_with_segments(glyphs, np.arange(len(glyphs)), LayoutParams(), True)


@pytest.mark.parametrize("seed", range(12))
def test_every_start_row_tries_the_same_gutters_compiled(seed, monkeypatch):
    """Not only where a page's bands begin: from every start row, the compiled candidates give the
    column run (end and gutter) the Python walks give."""
    pytest.importorskip("llvmlite")
    glyphs, params, height = _grid_page(seed), LayoutParams(), 842.0
    rows = _rows(glyphs)
    spans = columns._row_spans(glyphs, rows, params.min_gutter)
    walks = columns.GutterWalks(spans, params.min_gutter, columns._RowEdges(rows))
    monkeypatch.setenv(charloop.ENV_SWITCH, "1")
    compiled = columns._compiled_column_runs(glyphs, rows, height, params)
    assert compiled is not None
    found = [columns._column_run(glyphs, rows, walks, start, height, params) for start in range(len(rows))]
    assert found == [compiled(start) for start in range(len(rows))]
    assert any(found)  # the grids do hold two-column runs


def test_the_compiled_row_walk_anchors_rows_as_the_python_walk(monkeypatch):
    """Runs of random heights and sizes (small glyphs opening rows, big ones re-anchoring them, boxes
    upside down): the same rows open at the same runs with the same anchor boxes."""
    pytest.importorskip("llvmlite")
    monkeypatch.setenv(charloop.ENV_SWITCH, "1")
    kernels = charloop.compiled_layout()
    rng, source = np.random.default_rng(7), _grid_page(0)
    for _ in range(20):
        count = 400
        centre = np.sort(rng.uniform(0, 800, count))
        height = rng.uniform(-2, 16, count)
        top, bottom = centre - height / 2, centre + height / 2
        size = rng.uniform(0.5, 14, count)
        runs, tops, bottoms = kernels.anchor_rows(top, bottom, size)
        rows, opened = layout._anchor_rows(source, list(range(count)), top.tolist(), bottom.tolist(), size.tolist())
        assert runs.tolist() == opened
        assert tops.tolist() == [row.top for row in rows] and bottoms.tolist() == [row.bottom for row in rows]


def test_the_compiled_two_key_sort_orders_as_numpy_lexsort(monkeypatch):
    """Keys with many ties (rows sharing a baseline, glyphs sharing an edge), NaNs, signed zeros, keys in
    order, nearly in order and reversed: the compiled merge sort gives np.lexsort's permutation (a stable
    sort under numpy's order of floats)."""
    pytest.importorskip("llvmlite")
    monkeypatch.setenv(charloop.ENV_SWITCH, "1")
    kernels = charloop.compiled_layout()
    rng = np.random.default_rng(11)
    for trial in range(400):
        count = int(rng.integers(0, 300))
        primary = rng.integers(0, 6, count).astype(np.float64)
        secondary = rng.integers(0, 5, count).astype(np.float64) * 0.5
        if trial % 4 == 1:  # nearly in order: sorted, a few swapped
            primary, secondary = np.sort(primary), np.sort(rng.uniform(0, 500, count))
            swaps = rng.integers(0, max(count, 1), (3, 2)) if count else np.zeros((0, 2), dtype=np.int64)
            for a, b in swaps:
                secondary[[a, b]] = secondary[[b, a]]
        if trial % 4 == 2:  # reversed
            primary = np.sort(primary)[::-1].copy()
        if trial % 3 == 0:
            primary[rng.random(count) < 0.1] = np.nan
            secondary[rng.random(count) < 0.1] = np.nan
            secondary[rng.random(count) < 0.1] = -0.0
        assert kernels.lex_order(primary, secondary).tolist() == np.lexsort((secondary, primary)).tolist()


def test_the_compiled_overprint_search_finds_the_rows_numpy_finds(monkeypatch):
    """Rows of glyphs drawn twice a little apart (fake bold), once far apart (no twin), repeated letters
    side by side, NaN edges: the compiled search marks the rows the array search marks."""
    pytest.importorskip("llvmlite")
    monkeypatch.setenv(charloop.ENV_SWITCH, "1")
    kernels = charloop.compiled_layout()
    rng = np.random.default_rng(5)
    marked = 0
    for trial in range(300):
        lengths = rng.integers(1, 12, int(rng.integers(1, 20)))
        count = int(lengths.sum())
        row_of = np.repeat(np.arange(len(lengths)), lengths)
        texts = rng.integers(0, 4, count).astype(np.int64)
        x0 = np.cumsum(rng.choice([0.2, 3.0, 6.0], count))  # some glyphs nearly on the one before
        x1 = x0 + rng.uniform(2.0, 6.0, count)
        top = rng.choice([0.0, 0.3, 4.0], count)
        bottom = top + rng.uniform(6.0, 10.0, count)
        if trial % 5 == 0:
            x0[rng.random(count) < 0.1] = np.nan
            bottom[rng.random(count) < 0.1] = np.nan
        expected = layout._overprint_rows(texts, row_of, x0, x1, top, bottom, len(lengths))
        found = kernels.overprint_rows(texts, row_of, x0, x1, top, bottom, layout.OVERPRINT_REACH, len(lengths))
        assert found.tolist() == expected.tolist()
        marked += int(expected.sum())
    assert marked > 0  # the random rows do hold twins


def test_the_compiled_row_spans_are_the_python_spans(monkeypatch):
    """Rows of glyphs with gaps either side of the gutter width, glyphs ending left of where they start
    and glyphs inside others: each row's ink spans as `columns._spans` joins them."""
    pytest.importorskip("llvmlite")
    monkeypatch.setenv(charloop.ENV_SWITCH, "1")
    kernels = charloop.compiled_layout()
    rng = np.random.default_rng(3)
    for _ in range(200):
        lengths = rng.integers(0, 15, int(rng.integers(1, 12)))
        count = int(lengths.sum())
        x0 = np.concatenate([np.sort(rng.choice([0.0, 4.0, 8.99, 9.0, 20.0], n).cumsum()) for n in lengths] or [np.zeros(0)])
        x1 = x0 + rng.uniform(-3.0, 12.0, count)
        first, lo, hi = kernels.row_spans(x0, x1, lengths.astype(np.int64), 9.0)
        at, x0s, x1s = 0, x0.tolist(), x1.tolist()
        for row, n in enumerate(lengths.tolist()):
            expected = columns._spans(list(range(at, at + n)), x0s, x1s, 9.0)
            assert list(zip(lo[first[row]:first[row + 1]].tolist(), hi[first[row]:first[row + 1]].tolist())) == expected
            at += n


def test_the_switch_off_keeps_the_pure_layout(monkeypatch):
    monkeypatch.setenv(charloop.ENV_SWITCH, "0")
    assert charloop.compiled_layout() is None
