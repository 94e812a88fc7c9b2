"""The measurement of question sheets in other scripts (`devkit.scriptscans`), run on one Korean CSAT-like
sheet (ringed ①–⑤ options all on one row, a list key of ringed answers): the same sheet scanned reads
within reach of its text layer, end to end through extract and parse."""
from __future__ import annotations

import re

import pytest

from pipeline.devkit import scriptscans
from pipeline.devkit.sample.pdfgen import cjk_font
from tests.pipeline.extract.ocr.builders import needs_tesseract


def _figures(line: str) -> tuple[float, float, float]:
    match = re.search(r"recall\s+([\d.]+)\s+options\s+([\d.]+)\s+answers\s+([\d.]+)", line)
    assert match, line
    recall, options, answers = (float(v) for v in match.groups())
    return recall, options, answers


@needs_tesseract("kor", "eng")
@pytest.mark.skipif(cjk_font() is None, reason="Noto Sans CJK (fonts-noto-cjk) not installed")
def test_a_scanned_korean_sheet_with_ringed_labels_reads_near_its_text_layer(tmp_path):
    family = next(f for f in scriptscans.TUNING if f.name == "ko-row")
    text, scan = scriptscans.measure(tmp_path, family, [scriptscans.Scan(200, 0.6, 80)])
    assert _figures(text) == (100.0, 100.0, 100.0)
    recall, options, answers = _figures(scan)
    # Before ringed labels were found by shape, no option and no key answer of this sheet was read (0 %).
    assert recall == 100.0 and answers == 100.0
    assert options >= 90.0
