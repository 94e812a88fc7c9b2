"""A page in one script prints another beside it: Latin units, codes and digits on a Greek page. The words the page's
own model was unsure of are read again with the companion script the language data names (`codes.companions`, pass
`companion-words`), so `cm` comes back `cm`, not the Greek look-alikes `επῃ`; a table's digits are read with the
companion's model too. The page itself stays read by its own model: its Greek labels never turn Latin."""
from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium

import hashlib
import unicodedata

from pipeline.devkit import scriptlayouts, scriptscans
from pipeline.devkit.keyscans import read_key, same_answer
from pipeline.devkit.sample.pdfgen import build_pdf
from pipeline.devkit.sample.scansetting import ScanSetting
from pipeline.devkit.sample.shortkeysheets import short_list
from pipeline.extract import ExtractOptions, extract_document
from pipeline.extract.ocr.companions import reading_languages
from pipeline.extract.ocr.companionwords import _a_word, _candidate, _in_script
from pipeline.extract.ocr.engine import prepare_for_tesseract, render_page
from pipeline.extract.ocr.tablecells import LINE_BASE, read_table_cells
from pipeline.extract.ocr.words import Word
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


def test_a_companion_reading_is_taken_only_in_the_companions_script_and_not_in_capitals_alone():
    assert _in_script("cm", "LATIN") and _in_script("m/s", "LATIN") and _in_script("Test", "LATIN")
    assert not _in_script("KAI", "LATIN")  # Greek capitals read by the Latin model: the same shapes, letter for letter
    assert not _in_script("cμ", "LATIN") and not _in_script("26", "LATIN")

    def word(text: str, conf: float) -> Word:
        return Word(text, conf, 0, 0, 10, 10, (1, 1, 1))
    known = {"σονέτο"}.__contains__
    assert _candidate(word("επῃ", 40), known)
    assert not _candidate(word("επῃ", 90), known)  # read surely by the page's own model
    assert not _candidate(word("σονέτο", 40), known)  # a word of the page's language its dictionary knows
    assert not _candidate(word("γ", 0), known)  # a lone glyph: a label, read by the label and cell passes
    assert _candidate(word("πῃ", 35), known, after_number=True)  # `m` after `41,60`
    assert not _candidate(word("β)", 40), known, after_number=True)  # a label after an option ending in a number
    assert not _candidate(word("4127", 30), known)  # no letter
    # At a unit's place, a word the page's dictionary does not know is read again however sure (`kg` read `κο` at 88);
    # a word it knows is not (`και` after a number is the page's own word).
    assert _candidate(word("κο", 88), known, after_number=True) and not _candidate(word("κο", 88), known)
    assert not _candidate(word("σονέτο"[:3], 88), {"σον"}.__contains__, after_number=True)


def test_away_from_a_units_place_a_companion_reading_is_taken_only_as_a_word_of_the_companion():
    english = {"Test", "tiles"}.__contains__
    assert _a_word("Test", english) and _a_word("tiles,", english)
    # An unknown Greek word the Latin model read with a digit among its letters (`Υδρπαρ` read `Y6pnap`), or as a
    # string of Latin letters no English dictionary knows, stays as the page's own model read it (unsure, so flagged).
    assert not _a_word("Y6pnap", english) and not _a_word("Ynpnap", english)
    assert _a_word("Ynpnap", None)  # a companion without a dictionary: letters alone are all that is asked
    assert not _a_word("Y6pnap", None)


@needs_tesseract("ell", "eng")
def test_a_scanned_greek_sheet_keeps_its_greek_labels_and_words_greek(tmp_path):
    # Read with `ell+eng` at once, Tesseract took Latin for Greek glyphs: `Α.` read `A.`, `γ` `y`, `δ` `6`, and this
    # sheet's options read exactly fell from 100 to 20 %, its answers from 100 to 0 %.
    family = next(f for f in scriptscans.TUNING if f.name == "el-column")
    _, sheet, _ = scriptscans.write_sheet(tmp_path, family)
    scan = ScanSetting(200, 0.6, 80).rasterise(sheet, tmp_path / "scan.pdf", seed=family.seed)
    options = ExtractOptions.from_spec(scriptscans.family_spec(family))
    document = extract_document(scan, hashlib.sha256(scan.read_bytes()).hexdigest(), options)
    text = "\n".join(page.text for page in document.pages)
    assert sum(unicodedata.name(ch, "").startswith("GREEK") for ch in text) > 500
    assert [ch for ch in text if unicodedata.name(ch, "").startswith("LATIN")] == []


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
