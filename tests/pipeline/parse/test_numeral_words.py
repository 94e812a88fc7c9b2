"""A number written twice in a short-answer key entry, in digits and as a numeral word of the sheet's language
(`5/πέντε`, `12 / dvanásť`), must name one value: where a scan misreads the digit (`9/πέντε`) or loses it (`Šš/tri`),
the entry is unsure and its flag says why in words; it is never rewritten (`shortentries.numeral_disagreements`)."""
from __future__ import annotations

from dataclasses import replace

import pytest

from pipeline.devkit.keyscans import read_key
from pipeline.devkit.sample.keysheets import KeySheet
from pipeline.devkit.sample.pdfgen import TextBox, build_pdf, rasterize_pdf
from pipeline.devkit.sample.shortkeysheets import LANGUAGES, short_columns, short_list, short_table
from pipeline.parse.shortentries import numeral_disagreements, numerals_of, unsure_short_entries
from tests.pipeline.extract.ocr.builders import needs_tesseract


@pytest.mark.parametrize("language, entry, reasons", [
    ("el", "5/πέντε", []),
    ("el", "9/πέντε", ["9 and 'πέντε' (5) name different numbers"]),
    ("es", "5 / cinco", []),
    ("es", "8 / cinco", ["8 and 'cinco' (5) name different numbers"]),
    ("sk", "12 / dvanásť", []),
    ("sk", "2/dva (vetné sklady)/2 (sklady)", []),  # brackets are no part of the word
    ("sk", "Šš/tri", ["'Šš' stands where 'tri' (3) has its number: the number unread, not rewritten"]),
    ("sk", "/tri", ["'' stands where 'tri' (3) has its number: the number unread, not rewritten"]),
    ("sk", "3/ri", ["'ri' beside 3 is none of its words (tri, traja)"]),  # the word misread, close to the number's
    ("sk", "sonet/znelka", []),  # no number written
    ("el", "9 πέντε", ["9 and 'πέντε' (5) stand without the slash between them"]),  # the slash lost
    ("pl", "5 pięć", ["5 and 'pięć' (5) stand without the slash between them"]),
    ("sk", "12,5 cm", []), ("sk", "5 m", []),  # a number and its unit
    ("sk", "predmet/", []),  # a slash ending a wrapped line
    ("pl", "3/trzy", []), ("pl", "3/Trzy", []),  # in any case
    ("vi", "11 / mười một", []), ("vi", "12 / mười một", ["12 and 'mười một' (11) name different numbers"]),
    ("ko", "5 / 다섯", []), ("ko", "5 / 오", []), ("ko", "6 / 다섯", ["6 and '다섯' (5) name different numbers"]),
    ("ko", "이/그", []),  # a numeral's syllable beside a word as long: no number was written there
])
def test_a_number_and_its_word_must_name_the_same_value(language, entry, reasons):
    assert numeral_disagreements(entry, numerals_of(language)) == reasons


def test_without_the_languages_numerals_nothing_is_judged():
    assert numeral_disagreements("9/πέντε", None) == [] and numerals_of("xx") == {}


@pytest.mark.parametrize("make", [short_table, short_list, short_columns])
@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_every_number_and_word_a_generated_key_prints_agree(make, language):
    sheet = make(language, 3)
    assert any("/" in a and a.split("/")[0].strip().isdigit() for a in sheet.truth.values())
    unsure = unsure_short_entries(sheet.truth, {}, sheet.labels, None, True, numerals=numerals_of(language))
    assert not [w for words in unsure.values() for w in words if "number" in w], unsure


def _misprinted_digits() -> tuple[KeySheet, dict[str, str]]:
    """A generated Greek key (two columns of `n) answer`) whose number-and-word entries print a digit the word does
    not name: read right by OCR, they are what a scan that misreads the digit gives."""
    sheet = short_columns("el", 0)
    wrong = {n: f"{(int(a.split('/')[0]) + 4) % 10}/{a.split('/', 1)[1]}" for n, a in sheet.truth.items()
             if "/" in a and a.split("/")[0].strip().isdigit()}
    texts = {f"{n}) {sheet.truth[n]}": f"{n}) {a}" for n, a in wrong.items()}
    pages = [replace(page, items=[replace(item, text=texts[item.text]) if isinstance(item, TextBox) and item.text in texts
                                  else item for item in page.items]) for page in sheet.pages]
    return KeySheet(sheet.name, pages, {**sheet.truth, **wrong}, sheet.key, sheet.labels, sheet.languages), wrong


@needs_tesseract("ell")
def test_a_scanned_key_whose_digit_disagrees_with_its_word_is_flagged_and_kept_as_read(tmp_path):
    sheet, wrong = _misprinted_digits()
    assert len(wrong) >= 2
    numerals = numerals_of("el")
    source = build_pdf(tmp_path / "key.pdf", sheet.pages)
    right = short_columns("el", 0)
    text = read_key(build_pdf(tmp_path / "right.pdf", right.pages), right)
    assert text.answers == right.truth
    assert unsure_short_entries(text.answers, text.sources, right.labels, None, True, numerals=numerals) == {}  # sure
    as_if_read = unsure_short_entries(text.answers, {}, right.labels, None, True, numerals=numerals)
    assert not [w for words in as_if_read.values() for w in words if "number" in w]  # its numbers and words agree

    scan = rasterize_pdf(source, tmp_path / "scan.pdf", dpi=300, blur=0.4, jpeg_quality=90, noise=0.0, seed=0)
    table = read_key(scan, sheet)
    read_as_printed = [n for n in wrong if table.answers.get(n, "").replace(" ", "") == wrong[n].replace(" ", "")]
    assert len(read_as_printed) >= 2, {n: table.answers.get(n) for n in wrong}
    unsure = unsure_short_entries(table.answers, table.sources, sheet.labels, None, True, numerals=numerals)
    for number in read_as_printed:
        assert any("name different numbers" in w for w in unsure.get(number, [])), (number, unsure)
        assert table.answers[number].replace(" ", "") == wrong[number].replace(" ", "")  # never rewritten
    agreeing = [n for n, a in table.answers.items() if n not in wrong and a == right.truth.get(n) and "/" in a]
    assert not [n for n in agreeing if any("number" in w for w in unsure.get(n, []))]
