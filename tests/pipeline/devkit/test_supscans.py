"""The unit sheets' families: tuning and checking kept apart, and the text convention the OCR path is held to (a raised
or lowered digit plain, in its word) is what the text path gives for the families' real raised digits."""
from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest

from pipeline.devkit import supscans
from pipeline.devkit.supscans import CHECKING, TUNING, Family, family_sentences, page_pdf, score, token_text
from pipeline.extract.stage import ExtractOptions, extract_document


def test_no_family_is_both_tuning_and_checking():
    assert not set(TUNING) & set(CHECKING)
    tuned = {(f.tesseract, f.font) for f in TUNING.values()}
    assert not tuned & {(f.tesseract, f.font) for f in CHECKING.values()}
    assert not {f.seed for f in TUNING.values()} & {f.seed for f in CHECKING.values()}


def test_families_cover_the_scripts_faces_and_scans_asked_for():
    families = [*TUNING.values(), *CHECKING.values()]
    assert {"spa", "por", "pol", "tur", "vie", "ell", "rus"} <= {f.tesseract for f in families}
    assert {"NotoSerif", "NotoSans", "DejaVuSerif", "DejaVuSans", "LiberationSans", "LiberationSerif"} <= {f.font for f in families}
    scans = [s for f in families for s in f.scan_settings()]
    assert {s.dpi for s in scans} == {150, 200, 300}
    assert all(0.4 <= s.blur <= 0.8 and 70 <= s.jpeg <= 90 for s in scans)
    assert any(s.tilt for s in scans) and any(s.faults.paper < 255 for s in scans)


def test_each_family_prints_every_kind_of_unit():
    for family in [*TUNING.values(), *CHECKING.values()]:
        if family.units != "mixed":
            continue
        tokens = [token for sentence in family_sentences(family) for token in sentence]
        places = {vpos for token in tokens for _, vpos in token}
        text = " ".join(token_text(t) for t in tokens)
        assert {"SUP", "SUB"} <= places and "°" in text and "′" in text, family


def test_the_seventeenth_rounds_families_print_raised_minus_signs_and_latin_units_on_other_scripts_split_apart():
    """Raised minus signs (`10⁻³`, `m·s⁻²`) and Latin units inside Greek and Cyrillic prose, each kind tuned on one
    family per script and checked on others (Turkish and Vietnamese pages with Latin units as checking only)."""
    minus = {n: f for n, f in {**TUNING, **CHECKING}.items() if f.units == "minus"}
    latin = {n: f for n, f in {**TUNING, **CHECKING}.items() if f.units == "latin"}
    for family in minus.values():
        tokens = [token for sentence in family_sentences(family) for token in sentence]
        raised = [token_text(t) for t in tokens if any(vpos == "SUP" and text.startswith("-") for text, vpos in t)]
        assert len(raised) >= 8 and any("·" in t for t in raised), family
    for family in latin.values():
        units = [token_text(t) for sentence in family_sentences(family) for t in sentence if supscans.is_unit(t)]
        assert len(units) >= 15 and any("/" in u for u in units) and any(u[:1].isupper() or u.startswith("pH") for u in units), family
    for kinds in (minus, latin):
        assert {f.tesseract for n, f in kinds.items() if n in TUNING} & {"ell", "rus"}
        assert {f.tesseract for n, f in kinds.items() if n in CHECKING} & {"ell", "rus"}
    assert {"tur", "vie"} <= {f.tesseract for n, f in latin.items() if n in CHECKING}


def _glyphs(text: str) -> str:
    return "".join(text.split())


@pytest.mark.parametrize("name", ["es-dejavuserif", "ru-notoserif", "pt-minus-dejavuserif", "ru-latin-dejavuserif"])
def test_the_text_path_writes_a_raised_or_lowered_digit_plain_in_its_word(name: str, tmp_path: Path):
    """The convention: `kg/m2`, `SatO2`, `109/L`, the degree sign and the prime as printed. The text path's gap rule
    puts a space now and then beside a small digit (`109 /L`, `x 2`) and inside a word: spaces aside, its characters
    are the printed text's, in order."""
    family: Family = {**TUNING, **CHECKING}[name]
    sentences = family_sentences(family)
    pdf = page_pdf(tmp_path / "page.pdf", family, sentences)
    lines = [line.text for page in extract_document(pdf, "0" * 64, ExtractOptions()).pages for line in page.lines]
    printed = " ".join(token_text(token) for sentence in sentences for token in sentence)
    assert _glyphs(" ".join(lines)) == _glyphs(printed)
    assert any(ch in printed for ch in "°′") or family.units != "mixed"


def test_a_unit_is_right_only_where_every_word_of_it_was_read():
    sentences = [[[("Mide", "LINE")], [("12", "LINE")], [("m", "LINE"), ("2", "SUP")], [("y", "LINE")], [("SatO", "LINE"), ("2", "SUB"), (".", "LINE")]]]
    right = score(sentences, ["Mide", "12", "m2", "y", "SatO2", "."])
    assert (right.units, right.units_right, right.words_right, right.sentences_right) == (2, 2, 5, 1)
    wrong = score(sentences, ["Mide", "12", "m\"", "y", "SatO,."])  # `m" y` compares as `m"y`: no space beside a mark
    assert (wrong.units_right, wrong.words_right, wrong.sentences_right) == (0, 2, 0)
    # as the flag's measure compares: no space beside a mark, a prime a quote
    assert supscans.compared(["kg/m2", ",", "y", "109", "/L", "5′"]) == ["kg/m2,y", "109/L", '5"']


def test_a_russian_page_of_its_own_units_prints_them_in_cyrillic_for_checking_only():
    """The check that a companion's Latin reading never replaces a page's own units (`см` read `cm`)."""
    cyrillic = {n: f for n, f in {**TUNING, **CHECKING}.items() if f.units == "cyrillic"}
    assert cyrillic and set(cyrillic) <= set(CHECKING)
    for family in cyrillic.values():
        units = [token_text(t) for sentence in family_sentences(family) for t in sentence if supscans.is_unit(t)]
        assert len(units) >= 15 and any("/" in u for u in units) and any(u[-1:] in "23" for u in units)
        assert all(any("CYRILLIC" in unicodedata.name(ch, "") for ch in u) for u in units), units
