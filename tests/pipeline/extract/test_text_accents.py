"""Accents a text layer writes as glyphs of their own come out on their letters, in NFC (`extract.accents`).

Producers write `é` as one glyph, as `e` and a combining-mark glyph (a decomposed string drawn glyph by glyph), or as
`e` and a spacing accent `´` drawn over it (TeX's `\\accent`, emitted before its letter). The layout orders a row by x,
so before `accents` a mark over a narrow letter (`ì`) or a spacing accent centred over its letter came out beside it:
`nh̀in`, `Θυ΄ματα`, `gu¨lse`. Written here glyph by glyph (`sample.rawtext`), in stream order and out of it.
"""
from __future__ import annotations

import hashlib
import unicodedata
from pathlib import Path

import pytest

from pipeline.devkit.sample.pdfgen import FONT_FILES, font_dir
from pipeline.devkit.sample.rawtext import Placed, line_width, set_line, write_pdf
from pipeline.devkit.textquirks import _decomposed, _spacing_accents
from pipeline.extract import ExtractOptions, extract_document

FONT = font_dir() / FONT_FILES[("DejaVuSans", False)]


def _lines(path: Path) -> list[str]:
    document = extract_document(path, hashlib.sha256(path.read_bytes()).hexdigest(), ExtractOptions())
    return [line.text for page in document.pages for line in page.lines]


def _sheet(tmp_path: Path, texts: list[str], quirk, order=lambda glyphs: glyphs) -> Path:
    glyphs: list[Placed] = []
    for row, text in enumerate(texts):
        glyphs += quirk(set_line(FONT, text, 60, 80 + 20 * row, 11))
    return write_pdf(tmp_path / "sheet.pdf", [order(glyphs)], FONT)


VIETNAMESE = ["Câu 3. Nhìn về phía trước, điều gì xảy ra?", "A. Chỉ một lần nữa", "B. Đồi núi và sông ngòi"]
GREEK = ["1. Ποιο είναι το αποτέλεσμα της πράξης;", "Α. Θύματα και ήρωες", "Β. Η επιστήμη του αιώνα"]
TURKISH = ["5. Aşağıdakilerden hangisi doğrudur?", "A) Gülse de küçük öğütler", "B) Yüreğimizi düşündü"]
POLISH = ["7. Które zdanie jest prawdziwe?", "A. Żółć gęślą jaźń", "B. Łódź i Kraków są miastami"]


@pytest.mark.parametrize("texts", [VIETNAMESE, GREEK, TURKISH], ids=["vi", "el", "tr"])
@pytest.mark.parametrize("order", ["stream", "reversed", "columns"])
def test_combining_mark_glyphs_come_out_composed_on_their_letters(tmp_path, texts, order, request):
    if order == "reversed" and texts is VIETNAMESE:
        # Known limit: two marks of one class on one letter (`ề`: ̂ then ̀), the line emitted backwards. The text page
        # reorders such a line itself, so neither the stream nor the page's order tells which mark came first.
        request.applymarker(pytest.mark.xfail(strict=True, reason="stacked marks of one class in a line emitted backwards"))
    arrange = {"stream": lambda g: g, "reversed": lambda g: g[::-1], "columns": lambda g: sorted(g, key=lambda p: (round(p.x, 1), p.y))}
    lines = _lines(_sheet(tmp_path, texts, lambda line: _decomposed(FONT, line), arrange[order]))
    assert lines == texts
    assert all(unicodedata.is_normalized("NFC", line) for line in lines)


@pytest.mark.parametrize("texts", [GREEK, TURKISH, POLISH], ids=["el", "tr", "pl"])
def test_spacing_accents_drawn_over_letters_become_their_marks(tmp_path, texts):
    lines = _lines(_sheet(tmp_path, texts, lambda line: _spacing_accents(FONT, line)))
    assert lines == texts


def test_spacing_accent_between_letters_or_alone_stays_itself(tmp_path):
    """An acute printed as an apostrophe, a caret and a tilde in a formula, a diaeresis quoted alone: none sits over a
    letter, so none becomes a mark."""
    texts = ["D´Artagnan et l´homme", "x^2 + y^2 = r^2 and a ~ b", "the sign ¨ alone, and ` too"]
    assert _lines(_sheet(tmp_path, texts, lambda line: line)) == texts


def test_accent_emitted_before_its_letter_leaves_no_space_inside_the_word(tmp_path):
    """The text page puts a space after an accent emitted out of place where the next glyph follows its letter; no
    space is printed there (`ιδρώ τας` before)."""
    word = "ιδρώτας διπλωματών"
    glyphs = _spacing_accents(FONT, set_line(FONT, word, 60, 80, 11))
    assert any(g.glyph == "\u0384" for g in glyphs)
    assert _lines(write_pdf(tmp_path / "sheet.pdf", [glyphs], FONT)) == [word]


def test_a_letter_wider_than_its_accent_keeps_it_whatever_its_width(tmp_path):
    narrow, wide = "ìí", "ώẂ"
    for text in (narrow, wide):
        glyphs = _spacing_accents(FONT, set_line(FONT, f"A {text} B", 60, 80, 11))
        assert line_width(FONT, text, 11) > 0
        assert _lines(write_pdf(tmp_path / f"{text}.pdf", [glyphs], FONT)) == [f"A {text} B"]
