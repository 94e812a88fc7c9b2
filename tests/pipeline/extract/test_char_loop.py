"""pdfium's per-character calls read in one compiled loop (numba, `pipeline.extract.charloop`) give a page
the same glyphs and the same lines as the ctypes calls they stand for: every script, rotated text, bold
runs, spaces, text off the page. Without numba (or before a process has read enough characters to repay
loading it) the ctypes path reads the page, and the page reads the same."""
from __future__ import annotations

import numpy as np
import pypdfium2 as pdfium
import pytest
from fpdf import FPDF

from pipeline.extract import ExtractOptions, charloop, extract_document, pagechars
from pipeline.extract.glyphs import page_glyphs

DEJAVU = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
DEJAVU_BOLD = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
NOTO_CJK = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"
FIELDS = ("x0", "top", "x1", "bottom", "size", "bold", "unmapped", "space_after", "highlighted", "seq")


def _sheet(path):
    """Two pages: Latin, Greek, Cyrillic and Hangul lines, a bold run, a line rotated by 90 and one by 30
    degrees, options set apart, text placed off the page."""
    pdf = FPDF()
    pdf.add_font("body", "", DEJAVU)
    pdf.add_font("body", "B", DEJAVU_BOLD)
    pdf.add_font("cjk", "", NOTO_CJK)
    for page in range(2):
        pdf.add_page()
        pdf.set_font("body", size=11)
        pdf.cell(0, 8, f"Zadanie {page + 1}. Który z poniższych zapisów jest poprawny?", new_x="LMARGIN", new_y="NEXT")
        pdf.cell(0, 8, "Ζήτημα Α1. Ποιο από τα παρακάτω ισχύει;  Съешь же ещё", new_x="LMARGIN", new_y="NEXT")
        pdf.set_font("body", "B", 11)
        pdf.cell(0, 8, "A) prawda      B) fałsz      C) Türkçe ığüşöç", new_x="LMARGIN", new_y="NEXT")
        pdf.set_font("cjk", size=12)
        pdf.cell(0, 8, "다음 중 옳은 것은? 日本語の文", new_x="LMARGIN", new_y="NEXT")
        pdf.set_font("body", size=9)
        with pdf.rotation(90, x=190, y=200):
            pdf.text(190, 200, "Miejsce na obliczenia (rotated margin note)")
        with pdf.rotation(30, x=60, y=150):
            pdf.text(60, 150, "Σχήμα 2: κεκλιμένο κείμενο")
        pdf.text(-80, 20, "off the page")
    pdf.output(str(path))
    return path


def glyph_pages(path) -> list[tuple[list, float, float]]:
    """Each page of the PDF at `path` read as layout reads it: its glyphs (highlights detected), width, height."""
    doc = pdfium.PdfDocument(str(path))
    try:
        pages = []
        for index in range(len(doc)):
            page = doc[index]
            textpage = page.get_textpage()
            pages.append((page_glyphs(page, textpage, detect_highlights=True), *page.get_size()))
            textpage.close()
            page.close()
        return pages
    finally:
        doc.close()


def _glyphs(path, monkeypatch, switch: str):
    monkeypatch.setenv(charloop.ENV_SWITCH, switch)
    return [glyphs for glyphs, _, _ in glyph_pages(path)]


def _same(a, b) -> bool:
    return a.text == b.text and all(np.array_equal(getattr(a, f), getattr(b, f), equal_nan=True) for f in FIELDS)


def test_the_compiled_loop_reads_the_glyphs_the_ctypes_calls_read(tmp_path, monkeypatch):
    pytest.importorskip("numba")
    path = _sheet(tmp_path / "scripts.pdf")
    by_ctypes = _glyphs(path, monkeypatch, "0")
    by_compiled = _glyphs(path, monkeypatch, "1")
    assert charloop.compiled_reader() is not None
    texts = "".join(by_ctypes[0].text)
    assert "Ζήτημα" in texts and "다음" in texts and "obliczenia" in texts and "κεκλιμένο" in texts and "off" not in texts
    assert by_ctypes[0].bold.any() and not by_ctypes[0].bold.all()
    assert all(_same(a, b) for a, b in zip(by_ctypes, by_compiled, strict=True))


def test_the_compiled_calls_give_what_pdfium_gives_for_each_character(tmp_path, monkeypatch):
    """Every character index, spaces and the rotated ones included, call for call."""
    pytest.importorskip("numba")
    from pipeline.extract import pdfiumtext

    doc = pdfium.PdfDocument(str(_sheet(tmp_path / "scripts.pdf")))
    page = doc[0]
    textpage = page.get_textpage()
    handle = pdfiumtext.handle(textpage.raw)
    count = pdfium.raw.FPDFText_CountChars(textpage.raw)
    everything = list(range(count))
    answers = {}
    for switch in ("0", "1"):
        monkeypatch.setenv(charloop.ENV_SWITCH, switch)
        answers[switch] = (pagechars.loose_boxes(handle, everything), pagechars.font_weights(handle, everything),
                           pagechars.map_errors(handle, count))
    (found0, boxes0), weights0, errors0 = answers["0"]
    (found1, boxes1), weights1, errors1 = answers["1"]
    assert count > 100
    assert np.array_equal(found0, found1) and np.array_equal(boxes0, boxes1)
    assert np.array_equal(weights0, weights1) and (weights0 >= 600).any() and ((weights0 > 0) & (weights0 < 600)).any()
    assert np.array_equal(errors0, errors1)
    textpage.close()
    page.close()
    doc.close()


def test_without_numba_the_ctypes_calls_read_the_page(tmp_path, monkeypatch):
    path = _sheet(tmp_path / "scripts.pdf")
    expected = _glyphs(path, monkeypatch, "0")
    expected_lines = [line.text for page in extract_document(path, "0" * 64, ExtractOptions()).pages for line in page.lines]
    monkeypatch.setattr(charloop, "_READER", charloop._Once(lambda: None, tried=True))  # as compiled_reader leaves it where numba is missing
    assert all(_same(a, b) for a, b in zip(expected, _glyphs(path, monkeypatch, "1"), strict=True))
    lines = [line.text for page in extract_document(path, "0" * 64, ExtractOptions()).pages for line in page.lines]
    assert lines == expected_lines and "C) Türkçe ığüşöç" in lines


def test_a_short_run_does_not_load_the_compiled_reader(tmp_path, monkeypatch):
    """Where llvmlite's loops are not built: below `COMPILED_AFTER_CHARACTERS` a process reads through ctypes
    (loading numba would cost it more than it saves); past it, it asks for the compiled reader."""
    asked = []
    monkeypatch.setattr(charloop, "_CHAR_LOOPS", charloop._Once(lambda: None, tried=True))  # llvmlite's loops absent
    monkeypatch.setattr(charloop, "compiled_reader", lambda: asked.append(True))
    monkeypatch.delenv(charloop.ENV_SWITCH, raising=False)
    monkeypatch.setattr(pagechars._Characters, "read", 0)
    monkeypatch.setattr(pagechars._Characters, "repaid", False)
    path = _sheet(tmp_path / "scripts.pdf")
    extract_document(path, "0" * 64, ExtractOptions())
    assert asked == [] and 0 < pagechars._Characters.read < charloop.COMPILED_AFTER_CHARACTERS
    monkeypatch.setattr(pagechars._Characters, "read", charloop.COMPILED_AFTER_CHARACTERS)
    extract_document(path, "0" * 64, ExtractOptions())
    assert asked


def test_a_run_that_plans_many_files_loads_the_compiled_reader_after_its_first(tmp_path, monkeypatch):
    """A caller that says how many files it is about to read (`plan_files`: a season run's pending extractions)
    has the reader loaded once the characters of the files read, a file, times the files left reach
    `COMPILED_AFTER_CHARACTERS`, long before that many are read; a plan of a few files never loads it (where
    llvmlite's loops are not built: where they are, numba is never loaded, `test_walk_ir.py`)."""
    asked = []
    monkeypatch.setattr(charloop, "_CHAR_LOOPS", charloop._Once(lambda: None, tried=True))  # llvmlite's loops absent
    monkeypatch.setattr(charloop, "compiled_reader", lambda: asked.append(True))
    monkeypatch.delenv(charloop.ENV_SWITCH, raising=False)
    for name in ("read", "files_left", "files_read", "read_at_plan", "read_in_files", "repaid"):
        monkeypatch.setattr(pagechars._Characters, name, 0)
    path = _sheet(tmp_path / "scripts.pdf")
    pagechars.plan_files(2)
    for _ in range(2):
        extract_document(path, "0" * 64, ExtractOptions())
    assert asked == [] and pagechars._Characters.files_left == 0
    a_file = pagechars._Characters.read // 2
    many = -(-charloop.COMPILED_AFTER_CHARACTERS // a_file) + 1
    pagechars.plan_files(many)
    extract_document(path, "0" * 64, ExtractOptions())  # nothing to forecast from before one file is read
    assert asked == []
    extract_document(path, "0" * 64, ExtractOptions())
    assert asked and pagechars._Characters.read < charloop.COMPILED_AFTER_CHARACTERS
    read, asked[:] = pagechars._Characters.read, []
    for _ in range(3):  # kept to the plan's end: no page read through ctypes again
        extract_document(path, "0" * 64, ExtractOptions())
    assert len(asked) >= 3 and pagechars._Characters.read == read


def _marked_sheet(path):
    """Filled rectangles in marker colours under words, pale and dark fills, stroked-only rectangles and
    lines, and a filled and stroked circle: the path objects the marker search walks."""
    pdf = FPDF()
    pdf.add_font("body", "", DEJAVU)
    pdf.add_page()
    pdf.set_font("body", size=11)
    for row, fill in enumerate(((255, 240, 0), (120, 255, 120), (250, 250, 250), (20, 20, 20), (255, 150, 200))):
        pdf.set_fill_color(*fill)
        pdf.rect(18, 20 + 12 * row, 60, 8, style="F" if row % 2 == 0 else "DF")
        pdf.text(20, 26 + 12 * row, f"A) odpowiedź {row + 1}")
    pdf.rect(100, 20, 40, 40, style="D")
    pdf.line(10, 100, 200, 100)
    pdf.set_fill_color(255, 255, 0)
    pdf.ellipse(150, 120, 20, 20, style="DF")
    pdf.output(str(path))
    return path


def test_the_compiled_path_walk_finds_the_filled_paths_the_ctypes_walk_finds(tmp_path, monkeypatch):
    """Every filled path's colour and bounds, in the same order, and the marked glyphs they give."""
    pytest.importorskip("numba")
    path = _marked_sheet(tmp_path / "marked.pdf")
    doc = pdfium.PdfDocument(str(path))
    try:
        page = doc[0]
        found = {}
        for switch in ("0", "1"):
            monkeypatch.setenv(charloop.ENV_SWITCH, switch)
            found[switch] = pagechars.filled_paths(page.raw, 2, lambda colors: np.ones(len(colors), dtype=bool))
        page.close()
    finally:
        doc.close()
    assert charloop.compiled_reader() is not None
    assert found["0"] == found["1"]
    colors = [f.color[:3] for f in found["0"]]
    assert (255, 240, 0) in colors and (20, 20, 20) in colors and len(found["0"]) >= 6  # stroked-only paths are not filled
    by_ctypes = _glyphs(path, monkeypatch, "0")
    by_compiled = _glyphs(path, monkeypatch, "1")
    assert by_ctypes[0].highlighted.any() and _same(by_ctypes[0], by_compiled[0])
