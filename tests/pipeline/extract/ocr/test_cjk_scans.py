"""Japanese sheets scanned (`pipeline.devkit.sample.cjksheets`, 200 dpi, blur 0.6, JPEG 80) read by their specs through
OCR: what a script set solid, without word spaces, loses to passes built for spaced scripts, put back in general form
(language data `word_spaces: false`, the labels' script), never by the words printed.

- a Latin mark put after a wide glyph (`unread-marks`): the key's heading `第１問` read `第.1 問` (no part found, no
  answer keyed), sentences ending `。.`;
- a glyph read apart inside its word's box dropped as a pictogram (`noise`; `利根` for `利根川`);
- full-width digits read as plain ones (`710 年` for `７１０年`; `wide-glyph-gaps`);
- an option row labelled ア–エ read as a key's answer row and its digits replaced by unread cells (`grid-cells`);
- a ruled key's kana answers read cell by cell as nothing, over the page's sure reading of them (`table-cells`).
"""
from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.devkit.sample.cjksheets import CJK_SPECS, KANA, CjkSet, japanese_center
from pipeline.devkit.sample.pdfgen import cjk_font
from pipeline.devkit.sample.scansetting import ScanSetting
from pipeline.specs import load_spec
from tests.pipeline.parse.conftest import run_family

pytestmark = [pytest.mark.slow, pytest.mark.skipif(cjk_font() is None, reason="fonts-noto-cjk is not installed")]

FAMILIES = {"ja": ("ja_center_test", {}), "ja-kana": ("ja_center_kana_test", {"labels": KANA})}


def _scanned(root: Path, family: str) -> tuple[CjkSet, dict]:
    from pipeline.extract.ocr.engine import installed_languages

    if "jpn" not in installed_languages():
        pytest.skip("Tesseract data jpn is not installed")
    name, printing = FAMILIES[family]
    printed = japanese_center(root / "text" / "2031", **printing)
    scanned = root / "scan" / "2031"
    scanned.mkdir(parents=True)
    for clean in (printed.sheet, printed.key):
        ScanSetting.parse("200/0.6/80").rasterise(clean, scanned / clean.name, seed=0)
    result = run_family(load_spec(str(CJK_SPECS / f"{name}.yaml")), scanned / "sheet.pdf", [scanned / "key.pdf"], {"year": "2031"})
    return printed, {q.number: q for q in result.questions}


@pytest.fixture(scope="module")
def ja(tmp_path_factory):
    return _scanned(tmp_path_factory.mktemp("ja"), "ja")


@pytest.fixture(scope="module")
def kana(tmp_path_factory):
    return _scanned(tmp_path_factory.mktemp("ja-kana"), "ja-kana")


def test_the_keys_part_headings_are_read_and_every_answer_keyed(ja):
    printed, found = ja
    assert {n: found[n].answer for n in printed.expected() if n in found} == {n: q.answer for n, q in printed.expected().items()}


def test_no_latin_mark_is_put_after_a_sentences_full_stop(ja):
    _, found = ja
    assert not [c for q in found.values() for c in q.choices if "。." in c or "、." in c]


def test_a_glyph_read_apart_at_a_words_end_stays_in_the_word(ja):
    _, found = ja
    assert found["1.1"].choices == ["利根川", "信濃川", "石狩川", "北上川"]


def test_digits_set_full_width_are_read_full_width(ja):
    _, found = ja
    assert found["1.2"].choices == ["７１０年", "７９４年", "１１９２年", "１６０３年"]


def test_an_option_row_labelled_in_kana_keeps_its_digits(kana):
    _, found = kana
    assert "1.2" in found and not [c for c in found["1.2"].choices if "?" in c]


def test_a_ruled_keys_kana_answers_are_all_keyed(kana):
    # Each answer cell read alone against the labels came back as nothing; the page's own reading of it, sure, stands.
    printed, found = kana
    keyed = {n: found[n].answer for n in printed.expected() if n in found}
    assert {n: a for n, a in keyed.items() if a is not None} == {n: printed.expected()[n].answer for n in keyed}
    assert sum(a is not None for a in keyed.values()) == len(keyed)
