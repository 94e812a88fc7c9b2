"""The sheets of `devkit.scriptlayouts` (other scripts as their exams lay them out: two columns, boxed passages,
enclosed sub-items, lowercase labels in a row, keys as ruled tables of number | answer pairs) print every line
apart, and their text path reads them whole, so a scan's gap is the OCR path's own."""
from __future__ import annotations

import pypdfium2 as pdfium
import pytest

from pipeline.devkit import scriptlayouts
from pipeline.devkit.sample.pdfgen import cjk_font
from pipeline.devkit.scriptscans import _vocabulary, read_records, score
from tests.pipeline.extract.ocr.builders import needs_tesseract

FAMILIES = {f.name: f for f in (*scriptlayouts.TUNING, *scriptlayouts.CHECKING)}


def _overlaps(pdf) -> list[tuple]:
    found = []
    for page in pdfium.PdfDocument(str(pdf)):
        text = page.get_textpage()
        rects = [text.get_rect(i) for i in range(text.count_rects())]
        for i, (l1, b1, r1, t1) in enumerate(rects):
            for l2, b2, r2, t2 in rects[i + 1:]:
                if min(r1, r2) - max(l1, l2) > 1 and min(t1, t2) - max(b1, b2) > 1:
                    found.append(((l1, b1, r1, t1), (l2, b2, r2, t2)))
    return found


@needs_tesseract("ell", "rus", "tur", "vie", "kor")
@pytest.mark.skipif(cjk_font() is None, reason="Noto Sans CJK (fonts-noto-cjk) not installed")
def test_no_printed_line_of_a_laid_out_sheet_overprints_another(tmp_path):
    # Five options in a row wrap a long one ("B) kurşundan 52"): the next question once printed over it.
    for family in FAMILIES.values():
        questions = scriptlayouts.printed_questions(family, _vocabulary(family))
        sheet = scriptlayouts.sheet_pdf(tmp_path / f"{family.name}.pdf", family, questions)
        assert _overlaps(sheet) == [], family.name


@needs_tesseract("tur", "rus")
@pytest.mark.parametrize("name", ["tr-row", "ru-pairs-lower"])
def test_the_text_path_reads_a_laid_out_sheet_and_its_table_key_whole(tmp_path, name):
    family = FAMILIES[name]
    questions, sheet, key = scriptlayouts.write_sheet(tmp_path, family)
    # Turkish capitals as Turkish writes them: a dotted İ, never Python's I for i.
    assert family.name != "tr-row" or any("İ" in q.stem for q in questions)
    result = score(questions, read_records(sheet, key, family, key_entry=scriptlayouts.TABLE_ENTRY), family, "text")
    assert result.percent() == (100.0, 100.0, 100.0)
