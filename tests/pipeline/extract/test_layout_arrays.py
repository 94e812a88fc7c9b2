"""Layout's page-at-once steps give what their row-by-row references give: the word spaces of every row of a
text-layer page at once (`wordspaces.StreamSpaces`) answer as each row's `WordSpaces` does, a run of a page's
rows reads its glyphs as a slice of the page's arrays (`gutterchecks.band_glyphs`) as from the rows' lists,
and a generated page of two justified columns, an overprinted heading and options set apart lays out the
same with the compiled loops and without them."""
from __future__ import annotations

import dataclasses
from types import SimpleNamespace

import numpy as np
import pytest
from fpdf import FPDF

from pipeline.extract import layout
from pipeline.extract.glypharrays import NO_RUN, GlyphArrays
from pipeline.extract.gutterchecks import band_glyphs
from pipeline.extract.wordspaces import StreamSpaces, WordSpaces
from tests.pipeline.extract.test_char_loop import glyph_pages
from tests.pipeline.extract.test_layout_jit import DEJAVU, DEJAVU_BOLD, _both_ways

PARAGRAPHS = [
    "Nas locações por prazo determinado de imóveis utilizados por estabelecimentos de ensino autorizados e "
    "fiscalizados pelo Poder Público, o contrato poderá ser rescindido por denúncia do locador, a qualquer tempo.",
    "Zadanie polega na tym, żeby przeczytać tekst źródłowy i odpowiedzieć na pytania dotyczące jego treści oraz "
    "kompozycji, uzasadniając odpowiedź przykładami.",
    "Η απάντηση πρέπει να είναι σύντομη και να στηρίζεται στο κείμενο, με παραπομπές στους στίχους που "
    "αναφέρονται στην ερώτηση.",
]


def _justified_columns(path):
    """Two columns of justified paragraphs (short lines spread their words far apart), an overprinted
    (fake bold) heading above them, and a row of options set a few spaces apart below."""
    pdf = FPDF()
    pdf.add_font("body", "", DEJAVU)
    pdf.add_font("body", "B", DEJAVU_BOLD)
    pdf.set_auto_page_break(False)
    pdf.add_page()
    pdf.set_font("body", "B", 13)
    for shift in (0, 0.4):  # the same heading drawn twice, a little apart
        pdf.text(20 + shift, 20, "ARKUSZ DRUGI")
    pdf.set_font("body", size=10)
    for x in (15, 110):
        pdf.set_xy(x, 30)
        for paragraph in PARAGRAPHS * 2:
            pdf.multi_cell(62 if x == 15 else 85, 5, paragraph, align="J", new_x="LEFT", new_y="NEXT")
            pdf.set_xy(x, pdf.get_y() + 3)
    pdf.set_xy(15, 250)
    pdf.cell(0, 7, "A) pierwsza        B) druga        C) trzecia", new_x="LMARGIN", new_y="NEXT")
    pdf.output(str(path))
    return path


def _row_groups(glyphs: GlyphArrays):
    """(rows, kept, flat, row_of) of the whole page, as `_segment_rows` gets them."""
    rows, kept, flat, lengths = layout._kept_rows(glyphs, np.arange(len(glyphs)), True)
    return rows, kept, flat, np.repeat(np.arange(len(rows)), lengths)


def _every_space_agrees(glyphs: GlyphArrays, size: float) -> list[bool]:
    """For every pair of neighbours on a row that one content-stream space parts (what `_segment_rows` asks
    about, and more), the page-at-once answer and the row's own; their answers."""
    rows, kept, flat, row_of = _row_groups(glyphs)
    spaces = StreamSpaces.of(glyphs, flat, row_of)
    assert spaces is not None
    answers = []
    for position in range(1, len(flat)):
        previous, glyph = int(flat[position - 1]), int(flat[position])
        if row_of[position] != row_of[position - 1] or not WordSpaces.may_be_justified(glyphs, previous, glyph, 0.0, size):
            continue
        gap = float(glyphs.x0[glyph] - glyphs.x1[previous])
        reference = WordSpaces.of(glyphs, kept[int(row_of[position])]).justified(previous, glyph, gap, size)
        assert spaces.justified(position, previous, glyph, gap, size) == reference, (position, gap)
        answers.append(reference)
    return answers


def test_a_page_of_justified_columns_lays_out_the_same_compiled_and_not(tmp_path, monkeypatch):
    pytest.importorskip("numba")
    (glyphs, width, height), = glyph_pages(_justified_columns(tmp_path / "justified.pdf"))
    pure, compiled = _both_ways(glyphs, width, height, monkeypatch)
    assert pure == compiled
    texts = [segment[0] for segment in pure]
    assert any(segment[7] and "ARKUSZ DRUGI" in segment[0] for segment in pure)  # the twin dropped, marked bold
    # Read as two columns: every line of the left column before the first of the right one.
    body = [(at, segment[1]) for at, segment in enumerate(pure) if 60 < segment[2] < 700]
    assert max(at for at, x0 in body if x0 < 290) < min(at for at, x0 in body if x0 >= 290)
    assert "A) pierwsza" in texts and "B) druga" in texts  # options set far apart: segments of their own


def test_the_word_spaces_of_a_page_at_once_answer_as_each_rows_own(tmp_path):
    (glyphs, _, _), = glyph_pages(_justified_columns(tmp_path / "justified.pdf"))
    answers = _every_space_agrees(glyphs, 10.0 * 0.35)  # a size at which a stretched line's spaces pass as justified
    assert True in answers and False in answers


def _shuffled_stream_page(seed: int) -> GlyphArrays:
    """Rows of glyphs whose content-stream order is shuffled in runs (text written out of reading order,
    so a row's lines break and join again), spaces after a random share of them, words of labels and capitals."""
    rng = np.random.default_rng(seed)
    texts, boxes = [], []
    y = 20.0
    for _ in range(30):
        x = 30.0
        for _ in range(int(rng.integers(5, 60))):
            texts.append(str(rng.choice(list("abcdeXYZ12)."))))
            width = float(rng.uniform(3, 6))
            boxes.append((x, y, x + width, y + 10))
            x += width + float(rng.choice([0.2, 3.0, 6.0, 12.0]))
        y += 14
    count = len(texts)
    seq = np.arange(count)
    for _ in range(count // 10):  # move a few runs of the stream elsewhere
        a, b = sorted(rng.integers(0, count, 2).tolist())
        seq[a:b] = seq[a:b][::-1] if rng.random() < 0.5 else np.roll(seq[a:b], int(rng.integers(1, 5)))
    box = np.array(boxes)
    return GlyphArrays(
        text=texts, x0=box[:, 0], top=box[:, 1], x1=box[:, 2], bottom=box[:, 3], size=np.full(count, 10.0),
        highlighted=np.zeros(count, dtype=bool), seq=seq, space_after=rng.random(count) < 0.4,
        bold=np.zeros(count, dtype=bool), unmapped=np.zeros(count, dtype=bool), run=np.full(count, NO_RUN),
    )


@pytest.mark.parametrize("seed", range(8))
def test_word_spaces_at_once_agree_on_rows_written_out_of_order(seed):
    answers = _every_space_agrees(_shuffled_stream_page(seed), 4.0)
    assert answers  # spaces were asked about


def test_word_spaces_at_once_are_left_to_the_rows_where_ocr_read_words_or_a_row_repeats_a_stream_place():
    glyphs = _shuffled_stream_page(0)
    rows, kept, flat, row_of = _row_groups(glyphs)
    fields = {field.name: getattr(glyphs, field.name) for field in dataclasses.fields(GlyphArrays)}
    repeated = GlyphArrays(**{**fields, "seq": np.zeros(len(glyphs), dtype=np.int64)})
    assert StreamSpaces.of(repeated, flat, row_of) is None
    read = GlyphArrays(**{**fields, "run": np.zeros(len(glyphs), dtype=np.int64), "runs": ["a line"]})
    assert StreamSpaces.of(read, flat, row_of) is None
    assert StreamSpaces.of(glyphs, flat, row_of) is not None


def test_a_run_of_rows_reads_its_glyphs_as_the_rows_lists_give_them(tmp_path):
    (glyphs, _, _), = glyph_pages(_justified_columns(tmp_path / "justified.pdf"))
    rows = _row_groups(glyphs)[0]

    def from_lists(chosen, name):
        plain = [SimpleNamespace(**{name: getattr(row, name)}) for row in chosen]  # no page arrays: the lists are read
        return band_glyphs(plain, name)

    runs = [rows[a:b] for a in range(0, len(rows), 3) for b in (a + 1, a + 4, len(rows))]
    for chosen in [*runs, [rows[0], rows[2]], [rows[1], rows[0]], rows[::-1], []]:
        for name in ("members", "by_x"):
            sliced, expected = band_glyphs(chosen, name), from_lists(chosen, name)
            assert sliced[0].tolist() == expected[0].tolist() and sliced[1].tolist() == expected[1].tolist()
    assert band_glyphs(rows[2:5], "by_x")[0].base is not None  # a view of the page's arrays, not a copy
