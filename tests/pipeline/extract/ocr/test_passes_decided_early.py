"""Two page passes decide before their work where it could change nothing, with the same result.

- `reread-prose` reads a region again only where its words' mean confidence is under `reread_below`: a page
  where no word was read under it has no such region, so its regions are not looked for (`segment.find_regions`)
  and the words stay the page pass's.
- `label-discs` looks for a disc in an area left of (and around) each line's opening word: an area with no ink
  holds no disc, decided before the area is closed (`labeldiscs._disc_in`).

Drawn text (outlines, no text layer) at several sizes, read in place as a text page's drawn lines are
(`masked`, `parts_only`)."""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pypdfium2 as pdfium
import pytest

from pipeline.devkit.sample.outlines import draw_outlined_text
from pipeline.extract.ocr import OcrSettings, labeldiscs, segment
from pipeline.extract.ocr.engine import render_page
from pipeline.extract.ocr.lexicon import load_lexicon
from pipeline.extract.ocr.pagepasses import enabled_passes
from pipeline.extract.ocr.passes import PageWork
from tests.fixtures import drawn_sheets as ds
from tests.pipeline.extract.ocr.builders import needs_tesseract

DPI = 300
LINES = ("The committee meets every second Tuesday of the month.", "Answers are marked in the boxes below the text.",
         "Candidates keep this sheet until the end of the session.")


def _drawn_sheet(path, size: float):
    pdf = ds._pdf()
    for row, text in enumerate(LINES):
        draw_outlined_text(pdf, text, 60, 120 + row * 2.2 * size, size, ds.dejavu().path)
    pdf.output(str(path))
    return path


def _work_before(path, pass_name: str, settings: OcrSettings, tmp_path):
    """The page's work as the passes before `pass_name` leave it, and that pass."""
    document = pdfium.PdfDocument(str(path))
    try:
        image = render_page(document, 0, DPI)[0]
    finally:
        document.close()
    work = PageWork(settings, 1, 1, True, tmp_path, image, image, lexicon=load_lexicon(settings.languages))
    for page_pass in enabled_passes(settings):
        if page_pass.name == pass_name:
            return work, page_pass
        if page_pass.applies(work):
            work = page_pass.run(work)
    raise AssertionError(f"no pass {pass_name}")


def _regions_counted(monkeypatch) -> list[int]:
    calls: list[int] = []
    find_regions = segment.find_regions

    def counted(*args, **kwargs):
        calls.append(1)
        return find_regions(*args, **kwargs)

    monkeypatch.setattr(segment, "find_regions", counted)
    return calls


@needs_tesseract("eng")
@pytest.mark.parametrize("size", [9, 14, 22])
def test_a_page_read_surely_everywhere_keeps_its_words_without_looking_for_regions(tmp_path, monkeypatch, size):
    path = _drawn_sheet(tmp_path / "drawn.pdf", size)
    settings = OcrSettings(languages=("eng",), dpi=DPI, deskew=False, parts_only=True)
    work, reread = _work_before(path, "reread-prose", settings, tmp_path)
    confidences = [w.conf for w in work.parsed if w.conf >= 0]
    assert len(confidences) >= 20  # the three lines were read
    # Sure everywhere: the threshold just under the least sure word.
    sure = replace(work, settings=replace(settings, reread_below=min(confidences)))
    assert reread.applies(sure)
    calls = _regions_counted(monkeypatch)
    after = reread.run(sure)
    assert calls == []
    assert after.words == after.parsed == work.parsed
    # What the regions would have given: nothing read again, the same words.
    assert segment.reread_prose(sure.for_prose(), sure.image.convert("L"), sure.parsed, sure.typical_height,
                                confident_from=min(confidences), languages=("eng",), dpi=DPI, omp_thread_limit=1)[0] == work.parsed


@needs_tesseract("eng")
def test_a_page_with_a_word_under_the_threshold_still_has_its_regions_found(tmp_path, monkeypatch):
    path = _drawn_sheet(tmp_path / "drawn.pdf", 11)
    settings = OcrSettings(languages=("eng",), dpi=DPI, deskew=False, parts_only=True)
    work, reread = _work_before(path, "reread-prose", settings, tmp_path)
    least = min(w.conf for w in work.parsed if w.conf >= 0)
    unsure = replace(work, settings=replace(settings, reread_below=least + 0.01))
    calls = _regions_counted(monkeypatch)
    reread.run(unsure)
    assert calls  # one word under the threshold: its region may be read again, so the regions are found


def test_an_area_with_no_ink_holds_no_disc_and_is_not_closed(monkeypatch):
    grey = np.full((400, 600), 255, dtype=np.uint8)
    grey[100:140, 300:520] = 0  # a line's opening word; paper left of it
    closings: list[int] = []
    box_mean = labeldiscs.box_mean

    def counted(mask, radius):
        closings.append(radius)
        return box_mean(mask, radius)

    monkeypatch.setattr(labeldiscs, "box_mean", counted)
    assert labeldiscs._disc_in(grey, (200, 90, 299, 150), 40.0, (1, 1, 1)) is None
    assert closings == []
    # An area holding ink is closed and judged as before.
    assert labeldiscs._disc_in(grey, (290, 90, 530, 150), 40.0, (1, 1, 1)) is None
    assert closings
