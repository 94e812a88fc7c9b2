"""A word printed before each entry's number (`Στεφάνη 7: δ`) leads the entry (`listcells._number_tail`): the word
space before the number is judged in the number's own height, not the line's, which a word's accents and descenders
make a third taller than its digits."""
from __future__ import annotations

import pypdfium2 as pdfium

from pipeline.devkit import scriptscans
from pipeline.devkit.sample.scansetting import ScanSetting
from pipeline.extract.ocr.deskew import deskewed
from pipeline.extract.ocr.engine import prepare_for_tesseract, render_page
from pipeline.extract.ocr.listcells import _entries, list_entries
from tests.pipeline.extract.ocr.builders import needs_tesseract


def test_a_word_space_as_wide_as_half_the_digits_parts_a_leading_word_from_its_number():
    # One row of a Greek key as the 200 dpi scan gave it (pixels at 300 dpi): `Στεφάνη` reaching 45 px from its accent
    # to its descenders, `6:` 35 px tall 20 px after it, `δ`. Measured in the line's 45 px the space was under
    # `LEAD_GAP` and word and number were taken for one number too wide to be one: no entry.
    pieces = [(241, 703, 433, 748), (453, 704, 490, 739), (513, 704, 536, 739)]
    entries = _entries(pieces, 45, 703)
    assert [(e.lead, e.number, e.answer) for e in entries] == [(pieces[0], pieces[1], pieces[2])]
    # Digits apart by less than a word space stay one number: `1` and `0:` of `10:` are not a word and its number.
    pieces = [(241, 703, 433, 748), (456, 704, 472, 739), (480, 704, 519, 739), (541, 704, 563, 748)]
    assert [(e.lead, e.number) for e in _entries(pieces, 45, 703)] == [(pieces[0], (456, 704, 519, 739))]


@needs_tesseract("ell")
def test_every_entry_of_a_tilted_greek_key_with_a_word_before_each_number_is_found(tmp_path):
    # `el-pairs`' key scanned at 200 dpi, turned 1.5° with grain: four of its ten rows were no entry (the word space
    # 19–20 px, under 0.45 of the 45 px line), so the list pass left the key to the page reading, which lost five `δ`.
    family = next(f for f in scriptscans.CHECKING if f.name == "el-pairs")
    _, _, key = scriptscans.write_sheet(tmp_path, family)
    scan = ScanSetting(200, 0.6, 80, 1.5, 0.03).rasterise(key, tmp_path / "scan.pdf", seed=family.seed)
    image, _, _ = render_page(pdfium.PdfDocument(str(scan)), 0, 300)
    straight, turned = deskewed(image.convert("L"))
    assert abs(turned) > 1  # the page reading straightens the page first, as here
    columns = list_entries(prepare_for_tesseract(straight, 300), [], 300)
    assert [len(column) for column in columns] == [10]
    assert all(e.lead is not None for e in columns[0])
