"""The drawn text read in place is read from the extract stage's own open document (no second open of the
file), and the masked image's erase rectangles are chosen by one array test: the same rectangles, in the
same order, as testing each against every pasted box, and the same words as a read that opens the file."""
from __future__ import annotations

import numpy as np
import pypdfium2 as pdfium
import pytest

from pipeline.extract import ExtractOptions, extract_document, patches
from pipeline.extract.glyphs import page_glyphs
from pipeline.extract.ocr import OcrSettings, masked
from tests.fixtures import drawn_sheets as ds
from tests.pipeline.extract.ocr.builders import needs_tesseract

CELLS = [f"{n}. {'ABCD'[(n * 5) % 4]}" for n in range(1, 13)]


def _one_by_one(erase, scale, pasted):
    """Each rectangle (a pixel wider each way) tested against every pasted box, as the masked page did."""
    found = []
    for x0, y0, x1, y1 in erase:
        rectangle = (x0 * scale, y0 * scale, x1 * scale, y1 * scale)
        if any(rectangle[0] - 1 < b[2] and b[0] < rectangle[2] + 1 and rectangle[1] - 1 < b[3] and b[1] < rectangle[3] + 1 for b in pasted):
            found.append(rectangle)
    return found


@pytest.mark.parametrize("dpi", [150, 200, 300])
def test_the_erase_rectangles_are_those_that_reach_a_pasted_box_in_their_order(dpi):
    rng = np.random.default_rng(dpi)
    scale = dpi / 72.0
    pasted = masked.pasted_boxes(((40.0, 60.0, 300.0, 90.0), (100.0, 400.0, 180.0, 420.5)), scale, int(595 * scale), int(842 * scale))
    erase = [tuple(float(v) for v in (x, y, x + w, y + h)) for x, y, w, h in zip(
        rng.uniform(0, 595, 4000), rng.uniform(0, 842, 4000), rng.uniform(0, 12, 4000), rng.uniform(0, 12, 4000))]
    # and rectangles whose edges fall a pixel off a box's edge, either side: where `<` and `≤` part
    for b in pasted:
        for edge in (-1.0, -0.5, 0.0, 0.5, 1.0):
            erase.append(((b[2] + 1 + edge) / scale, b[1] / scale, (b[2] + 5) / scale, b[3] / scale))
            erase.append((b[0] / scale, (b[3] + 1 + edge) / scale, b[2] / scale, (b[3] + 9) / scale))
    found = masked._erased(tuple(erase), scale, pasted)
    assert found == _one_by_one(erase, scale, pasted)
    assert 0 < len(found) < len(erase)
    assert masked._erased((), scale, pasted) == [] and masked._erased(tuple(erase), scale, []) == []


@needs_tesseract("eng")
def test_reading_from_the_stages_open_document_reads_what_opening_the_file_reads(tmp_path, monkeypatch):
    path = ds.drawn_key(tmp_path / "key.pdf", "Answer key, form B", CELLS, text_face=ds.dejavu(), drawn_face=ds.dejavu())
    settings = OcrSettings(languages=("eng",))
    opened: list[str] = []
    real_document = pdfium.PdfDocument

    def counted(source, *args, **kwargs):
        opened.append(str(source))
        return real_document(source, *args, **kwargs)

    masked.REMEMBERED.clear()
    try:
        monkeypatch.setattr(pdfium, "PdfDocument", counted)
        extracted = extract_document(path, "0" * 64, ExtractOptions(ocr=settings))
        assert opened == [str(path)]  # the stage's open, and none by the read in place
        read = [line.text for page in extracted.pages for line in page.lines if line.ocr]
        assert any("10." in text for text in read), read  # the drawn cells, read
        monkeypatch.undo()
        # The same requests read with the file opened by the read, and with a document held open by the caller.
        document = real_document(str(path))
        try:
            page = document[0]
            textpage = page.get_textpage()
            patch = patches.find_patch(page, page_glyphs(page, textpage, False), 1)
            textpage.close()
            page.close()
            assert patch is not None
            requests = patch.requests(settings.languages)
            masked.REMEMBERED.clear()
            shared = masked.read_masked(path, requests, settings, document=document)
            assert len(document) == 1  # left open for the caller
        finally:
            document.close()
        masked.REMEMBERED.clear()
        alone = masked.read_masked(path, requests, settings)
        assert shared == alone and shared[1]
    finally:
        masked.REMEMBERED.clear()
