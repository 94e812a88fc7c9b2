"""Parts of a text page read in place (`masked`, `OcrSettings.parts_only`) are pdfium's render of the page's own
drawing, not a scan: the passes that undo a scanner's faults (its dark border, dust specks, a soft lens) do not
run on them, though the same pixels handed over as a scan would have them run."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from PIL import Image

from pipeline.extract.ocr import OcrSettings
from pipeline.extract.ocr.pagepasses import PAGE_PASSES
from pipeline.extract.ocr.passes import PageWork
from tests.pipeline.extract.ocr.test_despeckle import _scans, sheet  # noqa: F401 (the fixture)

SCAN_ONLY = ("border", "despeckle", "sharpen")


def test_the_scan_only_passes_run_on_a_scan_and_not_on_parts_of_a_text_page(sheet):  # noqa: F811
    _, speckled = _scans(sheet, 200, 0.6, 80, 0.004)
    grey = speckled.copy()
    grey[:, :40] = 20  # a scanner's lid beyond the sheet's left edge
    image = Image.fromarray(grey, mode="L")
    scan = PageWork(OcrSettings(languages=("pol",), dpi=300), 1, 1, True, Path("."), image, image)
    parts = replace(scan, settings=replace(scan.settings, deskew=False, parts_only=True))
    by_name = {p.name: p for p in PAGE_PASSES}
    assert [by_name[name].applies(scan) for name in SCAN_ONLY] == [True, True, True]
    assert [by_name[name].applies(parts) for name in SCAN_ONLY] == [False, False, False]
    # What the parts are read with besides: prepared and read like any page.
    assert by_name["prepare"].applies(parts) and by_name["recognise"].applies(parts)
