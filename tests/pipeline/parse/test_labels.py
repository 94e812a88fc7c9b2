"""Labels and numbers compare across scripts, cases and printing styles."""
from __future__ import annotations

import re

import pytest

from pipeline.parse.labels import (
    ENCLOSED_CLASS,
    canonical_label,
    fold,
    is_enclosed,
    matched_label,
    number_key,
    option_start_regex,
    plain_enclosed,
)


@pytest.mark.parametrize("printed", ["A", "a", "\u0410", "\u0391", "\u03b1"])
def test_lookalike_letters_of_other_scripts_fold_to_latin(printed):
    assert canonical_label(printed, ["A", "B", "C", "D"]) == "A"


def test_greek_labels_stay_greek_when_the_spec_uses_greek():
    assert canonical_label("γ", ["α", "β", "γ", "δ"]) == "γ"
    assert canonical_label("Γ", ["α", "β", "γ", "δ"]) == "γ"


@pytest.mark.parametrize(
    "text, label, rest",
    [
        ("A. Surfactante", "A", "Surfactante"),
        ("(b)\u2002Hevier sa od útleho detstva", "B", "Hevier sa od útleho detstva"),
        ("( D ) Diela", "D", "Diela"),
        ("\u0421) trzecia", "C", "trzecia"),
        ("C.FTP", "C", "FTP"),
    ],
)
def test_option_regex_reads_every_printing_style(text, label, rest):
    regex = option_start_regex(["A", "B", "C", "D"], ["A.", "A)", "(A)"])
    match = regex.match(text)
    assert match is not None
    assert canonical_label(matched_label(match), ["A", "B", "C", "D"]) == label
    assert match.group("text").strip() == rest


@pytest.mark.parametrize("text", ["A.1 Wstęp", "Ala ma kota", "12. Zadanie", "D.5"])
def test_option_regex_rejects_ordinary_text(text):
    assert option_start_regex(["A", "B", "C", "D"], ["A.", "A)", "(A)"]).match(text) is None


@pytest.mark.parametrize(
    "text, label, rest",
    [("1)Gama", "1", "Gama"), ("1)46 cortezas", "1", "46 cortezas"), ("(3)67 rajdowych", "3", "67 rajdowych"),
     ("( 2 )1909", "2", "1909"), ("①Alfa", "①", "Alfa"), ("④87 pieśni", "④", "87 pieśni")],
)
def test_a_label_glued_to_its_text_keeps_the_texts_first_character(text, label, rest):
    # Issue 27: a label with no space after it, as printed or as OCR read it. After a closing bracket or a
    # ring a digit may follow (no number is written "1)46"); after a dot it may not ("1.5" is a number).
    labels = ["1", "2", "3", "4"] if label.isascii() else ["①", "②", "③", "④"]
    match = option_start_regex(labels, ["A)", "(A)", "A."]).match(text)
    assert match is not None and canonical_label(matched_label(match), labels) == label
    assert match.group("text") == rest
    assert option_start_regex(["1", "2", "3", "4"], ["A)", "(A)", "A."]).match("1.5 metra") is None


@pytest.mark.parametrize("a, b", [("Α1", "A1"), ("03", "3"), (["Zadanie", "3.1."][1], "3.1"), ("Β1.α", "B1.a")])
def test_number_keys_match_across_sheet_and_key(a, b):
    assert number_key(a) == number_key(b)


def test_fold_is_case_insensitive_and_nfc():
    assert fold("Ŝ") == fold("s\u0302".upper())


@pytest.mark.parametrize(
    "printed, plain",
    [
        ("Ⓐ opción", "A opción"), ("ⓑ texto", "b texto"), ("① uno", "1 uno"), ("⑳", "20"), ("❶ ❿", "1 10"),
        ("➀ ➊", "1 1"), ("⓫ ⓿", "11 0"), ("🅐 🅩", "A Z"), ("🅰 🄰", "A A"), ("⒜ ⑴ ⒈", "(a) (1) 1."),
        ("texto sin nada", "texto sin nada"), ("→ ■ ✓ 𝑥 Ⓑ", "→ ■ ✓ 𝑥 B"), ("■ ✓ 😀 ★", "■ ✓ 😀 ★"), ("", ""),
    ],
)
def test_enclosed_letters_and_digits_read_as_the_plain_ones(printed, plain):
    assert plain_enclosed(printed) == plain
    assert plain_enclosed(printed, frozenset("Ⓑ")) == (plain.replace("B", "Ⓑ") if "Ⓑ" in printed else plain)


def test_the_enclosed_class_holds_exactly_the_enclosed_letters_and_digits():
    """Written as ranges of consecutive code points, the class is still the table's characters, no more."""
    members = re.compile(f"[{ENCLOSED_CLASS}]")
    near = [chr(c) for c in (*range(0x2300, 0x2900), *range(0x1F000, 0x1F300))] + list("aZ09 ()[]-\\^")
    assert sum(map(is_enclosed, near)) >= 200
    assert [ch for ch in near if bool(members.fullmatch(ch)) != is_enclosed(ch)] == []
