"""pdfium's per-character calls in loops compiled by llvmlite alone (`pipeline.extract.charloopir`) give every
character what the ctypes calls give it, and a page the same glyphs; a process reads its characters through
them from its first page, without loading numba (whose loops still wait until they repay their load)."""
from __future__ import annotations

import time

import numpy as np
import pypdfium2 as pdfium
import pytest

from pipeline.extract import ExtractOptions, charloop, extract_document, pagechars, pdfiumtext

from .loopspies import spy_on_loops
from .test_char_loop import _glyphs, _marked_sheet, _same, _sheet


@pytest.fixture
def loops():
    pytest.importorskip("llvmlite")
    built = charloop.char_loops()
    assert built is not None
    return built


def _answers(textpage, count: int):
    handle = pdfiumtext.handle(textpage.raw)
    everything = list(range(count))
    return pagechars.loose_boxes(handle, everything), pagechars.font_weights(handle, everything), pagechars.map_errors(handle, count)


def test_the_ir_loops_give_what_pdfium_gives_each_character(tmp_path, monkeypatch, loops):
    """Every character index of a page of scripts, rotated text, bold runs and spaces, call for call."""
    doc = pdfium.PdfDocument(str(_sheet(tmp_path / "scripts.pdf")))
    page = doc[0]
    textpage = page.get_textpage()
    count = pdfium.raw.FPDFText_CountChars(textpage.raw)
    monkeypatch.setenv(charloop.ENV_SWITCH, "0")  # neither compiled loop: the ctypes maps
    (found0, boxes0), weights0, errors0 = _answers(textpage, count)
    monkeypatch.setenv(charloop.ENV_SWITCH, "")
    monkeypatch.setattr(charloop, "_READER", charloop._Once(lambda: None, tried=True))  # numba's never asked
    (found1, boxes1), weights1, errors1 = _answers(textpage, count)
    textpage.close()
    page.close()
    doc.close()
    assert count > 100 and found0.any()
    assert np.array_equal(found0, found1) and np.array_equal(boxes0, boxes1, equal_nan=True)
    assert np.array_equal(weights0, weights1) and (weights0 >= 600).any() and ((weights0 > 0) & (weights0 < 600)).any()
    assert np.array_equal(errors0, errors1)


@pytest.mark.parametrize("sheet", [_sheet, _marked_sheet])
def test_a_page_read_through_the_ir_loops_has_the_glyphs_the_ctypes_calls_read(tmp_path, monkeypatch, loops, sheet):
    path = sheet(tmp_path / "sheet.pdf")
    by_ctypes = _glyphs(path, monkeypatch, "0")
    monkeypatch.setattr(charloop, "_READER", charloop._Once(lambda: None, tried=True))
    by_loops = _glyphs(path, monkeypatch, "")
    assert all(_same(a, b) for a, b in zip(by_ctypes, by_loops, strict=True))


def test_a_short_run_reads_its_characters_through_the_ir_loops_without_numba(tmp_path, monkeypatch, loops):
    """Below `COMPILED_AFTER_CHARACTERS` numba's loops are not loaded (they would cost the run more than they
    save), yet every character is read in a compiled loop: the llvmlite ones, from the first page."""
    calls, asked = spy_on_loops(monkeypatch, loops, ("map_errors", "loose_boxes", "font_weights"))
    path = _sheet(tmp_path / "scripts.pdf")
    lines = [line.text for page in extract_document(path, "0" * 64, ExtractOptions()).pages for line in page.lines]
    assert asked == [] and "C) Türkçe ığüşöç" in lines
    assert calls.count("map_errors") == 2 and calls.count("loose_boxes") == 2 and calls.count("font_weights") == 2


def test_the_ir_loops_load_in_a_small_part_of_numbas_time(loops):
    """What they exist for: built again, they cost a process hundredths of a CPU second (numba's loops, 0.6 s or
    more after a run's imports); a loose bound, the machine may be loaded."""
    from pipeline.extract import charloopir

    started = time.process_time()
    charloopir.build()
    assert time.process_time() - started < 0.25
