"""A label inside a row of options that Tesseract read with a ghost letter in front of it (`OB)`, `oC)`, `(oC)`),
or a ghost word in the white before it (`(o`), is read as the label alone where the evidence says the ghost has no
ink: the second recogniser read the label alone (or nothing at the ghost word), or the word's box is no wider than
the page's other readings of that label. A word whose text or width says otherwise stays as read."""
from __future__ import annotations

from dataclasses import replace

from pipeline.extract.ocr.labels import drop_label_ghosts
from pipeline.extract.ocr.words import Word

LABELS = ["A", "B", "C", "D", "E"]


def _row(*cells: tuple[str, int, int], line: int = 1, second: dict[str, str] | None = None) -> list[Word]:
    """Words of one line: (text, left, right); `second`: what the second reader read at a word."""
    return [Word(text, 90.0, left, 10 * line, right, 10 * line + 30, (line, 1, 1), second=(second or {}).get(text))
            for text, left, right in cells]


def _texts(words: list[Word]) -> list[str]:
    return [w.text for w in words]


def test_a_ghost_glued_to_a_label_goes_where_the_second_reader_read_the_label_alone():
    row = _row(("A)", 300, 350), ("plazmadaki", 370, 616), ("OB)", 699, 739), ("84", 757, 809),
               second={"OB)": "B)"})
    assert _texts(drop_label_ghosts(row, LABELS)) == ["A)", "plazmadaki", "B)", "84"]


def test_a_ghost_word_before_a_label_goes_where_the_second_reader_read_nothing_there():
    row = _row(("ornekler", 827, 1007), ("(o", 1040, 1063), ("C)", 1084, 1127), ("bitişiği", 1147, 1284),
               second={"(o": ""})
    assert _texts(drop_label_ghosts(row, LABELS)) == ["ornekler", "C)", "bitişiği"]


def test_a_ghost_goes_where_the_word_is_no_wider_than_the_label_read_alone():
    page = (_row(("A)", 308, 352), ("baygınlık", 371, 564), ("C)", 1084, 1127), line=1)
            + _row(("A)", 308, 352), ("jile", 367, 430), ("C)", 1084, 1126), line=2)
            + _row(("A)", 308, 352), ("fraksiyon", 757, 953), ("oC)", 1085, 1126), ("sözcüsü", 1145, 1316), line=3))
    assert _texts(drop_label_ghosts(page, LABELS))[-2:] == ["C)", "sözcüsü"]


def test_what_the_evidence_does_not_clear_stays_as_read():
    # No second reading and no other reading of the label to measure against: the letters alone decide nothing.
    assert _texts(drop_label_ghosts(_row(("x", 0, 20), ("oC)", 100, 141)), LABELS)) == ["x", "oC)"]
    # A word as wide as a letter and the label together has ink of its own, as an acronym's letters do.
    page = _row(("A)", 0, 44), ("x", 60, 90), ("A)", 200, 244), ("HB)", 300, 372), ("y", 400, 430))
    assert _texts(drop_label_ghosts(page, LABELS)) == ["A)", "x", "A)", "HB)", "y"]
    # The second reader read the word otherwise, or read a real word before the label: both stay.
    row = _row(("OB)", 0, 40), ("o", 60, 80), ("C)", 100, 141), second={"OB)": "OB)", "o": "o"})
    assert _texts(drop_label_ghosts(row, LABELS)) == ["OB)", "o", "C)"]
    # Two letters before the label are no ghost; nor is a label not of the sheet's labels.
    row = _row(("abC)", 0, 40), ("oF)", 100, 141), second={"abC)": "C)", "oF)": "F)"})
    assert _texts(drop_label_ghosts(row, LABELS)) == ["abC)", "oF)"]


def test_a_ghost_word_is_dropped_only_right_before_a_label_on_its_own_line():
    row = _row(("(o", 0, 20), ("sözcüsü", 40, 200), second={"(o": ""})
    assert _texts(drop_label_ghosts(row, LABELS)) == ["(o", "sözcüsü"]
    split = [replace(w, line=(9, 1, 1)) if w.text == "C)" else w
             for w in _row(("(o", 0, 20), ("C)", 40, 80), second={"(o": ""})]
    assert _texts(drop_label_ghosts(split, LABELS)) == ["(o", "C)"]
