"""A page in one script prints another beside it: Latin units, codes and digits on a Greek page. Tesseract reads them
with the companion script the language data names (`codes.companions`, `companions.reading_languages`), so `cm` comes
back `cm`, not the Greek look-alikes `επῃ`, and a table's digits are read by the model that reads digits well."""
from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium

from pipeline.devkit import scriptlayouts
from pipeline.devkit.keyscans import read_key, same_answer
from pipeline.devkit.sample.pdfgen import build_pdf
from pipeline.devkit.sample.scansetting import ScanSetting
from pipeline.devkit.sample.shortkeysheets import short_list
from pipeline.extract.ocr.companions import reading_languages
from pipeline.extract.ocr.engine import prepare_for_tesseract, render_page
from pipeline.extract.ocr.tablecells import LINE_BASE, read_table_cells
from pipeline.languages import language
from tests.pipeline.extract.ocr.builders import needs_tesseract


def test_a_language_is_read_with_the_companion_script_its_data_names_and_no_other():
    assert language("el").codes.companions == ["eng"]
    assert reading_languages(("ell",)) == ("ell", "eng")
    assert reading_languages(("ell", "eng")) == ("ell", "eng")  # a spec naming it already: not twice
    assert reading_languages(("pol",)) == ("pol",)  # a Latin-script language prints no other script
    # A machine without the companion's data reads as before rather than failing.
    assert reading_languages(("ell",), frozenset({"ell", "pol"})) == ("ell",)
    assert reading_languages(("ell",), frozenset({"ell", "eng"})) == ("ell", "eng")


@needs_tesseract("ell", "eng")
def test_latin_units_of_a_scanned_greek_short_answer_key_are_read_as_latin(tmp_path):
    # Read with `ell` alone, every measure of this key lost its unit to Greek look-alikes (`cm` as `«πῃ`, `m` as `πῃ`,
    # `km` as `ΚΠι`): 3 of its 24 entries wrong on every scan for that alone.
    sheet = short_list("el", 0)
    scan = ScanSetting(200, 0.8, 70).rasterise(build_pdf(tmp_path / "key.pdf", sheet.pages), tmp_path / "scan.pdf", seed=0)
    table = read_key(scan, sheet)
    measures = {n: a for n, a in sheet.truth.items() if a.split()[-1] in ("cm", "kg", "km", "m")}
    assert len(measures) >= 3
    assert {n: table.answers.get(n) for n in measures if not same_answer(table.answers.get(n, ""), measures[n])} == {}


@needs_tesseract("ell", "eng")
def test_the_numbers_of_a_greek_table_key_at_150_dpi_are_read_in_every_cell(tmp_path):
    # Five `Ερ. | Απ.` pairs, two rows deep. The Greek model read the clear `6` of the third pair `0` and its `5` `2`, so
    # the chained number columns ended after two pairs and questions 5–10 were keyed nothing (answers 30 of 100).
    family = next(f for f in scriptlayouts.TUNING if f.name == "el-row-lower")
    _, _, key = scriptlayouts.write_sheet(tmp_path, family)
    scan = ScanSetting(150, 0.8, 70).rasterise(key, tmp_path / "scan.pdf", seed=family.seed)
    image, _, _ = render_page(pdfium.PdfDocument(str(scan)), 0, 300)
    words = read_table_cells(image, prepare_for_tesseract(image, 300), [], family.labels, (family.tesseract,), 300, 1, Path(tmp_path))
    numbers = sorted(int(w.text) for w in words if w.line[0] >= LINE_BASE and w.text.isdigit())
    assert numbers == list(range(1, 11))
