"""The flag's generated sheets (`ocrcertainty`) print what a real sheet prints: lines that never overlap.

A stem's line count was once guessed from its characters; where a wider script wrapped sooner (Cyrillic, Greek),
option A was printed over the stem's last line, and the measure then blamed OCR for a sheet no reader could read.
"""
from __future__ import annotations

import random
from pathlib import Path

import pypdfium2
import pytest

from pipeline.devkit import ocrcertainty

FAMILIES = [*ocrcertainty.CALIBRATION, *ocrcertainty.HELD_OUT, *ocrcertainty.SYMBOLS, *ocrcertainty.SYMBOLS_HELD_OUT,
            *ocrcertainty.SETS["clinical"], *ocrcertainty.SETS["clinical-held-out"]]


def _overlapping_runs(path: Path) -> list[tuple[int, str, str]]:
    """Pairs of text runs whose boxes overlap, with their page."""
    overlaps = []
    document = pypdfium2.PdfDocument(str(path))
    for number, page in enumerate(document, 1):
        text = page.get_textpage()
        runs = [(text.get_rect(i), text.get_text_bounded(*text.get_rect(i))) for i in range(text.count_rects())]
        for i, (a, a_text) in enumerate(runs):
            for b, b_text in runs[i + 1:]:
                high = min(a[3], b[3]) - max(a[1], b[1])
                wide = min(a[2], b[2]) - max(a[0], b[0])
                if high > 1.0 and wide > 1.0:
                    overlaps.append((number, a_text, b_text))
    document.close()
    return overlaps


@pytest.mark.parametrize("family", FAMILIES, ids=lambda family: family.name)
def test_no_printed_line_overlaps_another(family: ocrcertainty.Family, tmp_path: Path) -> None:
    try:
        vocabulary = ocrcertainty._vocabulary(family.tesseract, random.Random(family.seed))
    except ocrcertainty.LexiconUnavailable:
        pytest.skip(f"no word list for {family.tesseract}")
    questions = ocrcertainty.printed_questions(family, vocabulary)
    sheet = ocrcertainty._sheet_pdf(tmp_path / "sheet.pdf", family, questions)
    assert _overlapping_runs(sheet) == []
