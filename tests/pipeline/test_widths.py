"""Full-width forms are folded where text is compared, never where it is stored (`pipeline.widths`): a spec pattern
written with plain digits and stops finds `問１`, `１．`, `Ａ．`; what it gives back is the printed text."""
from __future__ import annotations

import re

import pytest

from pipeline.parse.labels import canonical_label, number_key, option_start_regex
from pipeline.patterns import SpecPattern
from pipeline.widths import fold_pattern, fold_width, plain_number


def test_fold_is_one_character_for_one_and_leaves_other_compatibility_forms_alone():
    printed = "問１．（２）Ａ　ｱ、。①²ﬁ"
    folded = fold_width(printed)
    assert folded == "問1.(2)A ア、。①²ﬁ" and len(folded) == len(printed)
    plain = "Zadanie 3. Wybierz A."
    assert fold_width(plain) is plain  # nothing to fold: the same object


@pytest.mark.parametrize("pattern, folded", [
    ("^第１問", "^第1問"),
    ("（(?P<n>\\d)）", "\\((?P<n>\\d)\\)"),  # a full-width bracket is a literal, never a group
    ("[Ａ-Ｄ]", "[A-D]"),
    ("\\．", "\\."),  # already escaped: escaped once
    ("\\Ａ", "A"),  # the letter, never the anchor \A
    ("^Zadanie\\s+(?P<number>\\d+)", "^Zadanie\\s+(?P<number>\\d+)"),
])
def test_a_pattern_is_folded_as_its_literals_read(pattern, folded):
    assert fold_pattern(pattern) == folded
    re.compile(fold_pattern(pattern))


def test_a_spec_pattern_finds_either_width_and_gives_the_printed_text():
    header = SpecPattern(r"^問\s*(?P<number>\d{1,2})\s*(?P<rest>.*)$")
    found = header.search("問１２　（　）に入る語を選べ。")
    assert found.group("number") == "１２" and found.group("rest") == "（　）に入る語を選べ。"
    assert found.groupdict()["number"] == "１２" and found.groups() == ("１２", "（　）に入る語を選べ。")
    assert found.span("rest") == (4, 15) and found.string.startswith("問１２")
    written_wide = SpecPattern(r"^第１問")
    assert written_wide.search("第1問") and written_wide.search("第１問")
    entries = SpecPattern(r"(?P<number>\d{1,2})\.\s*(?P<answer>[A-D])")
    assert [m.group("answer") for m in entries.finditer("1．B　2．Ｄ 3. A")] == ["B", "Ｄ", "A"]
    assert entries.findall("1．B　2．Ｄ") == [("1", "B"), ("2", "Ｄ")]
    assert SpecPattern(r"\d+\.").sub("#", "１．x 2.y") == "#x #y"


def test_numbers_are_plain_digits_and_labels_compare_across_widths():
    assert plain_number("１２") == "12" and plain_number("١٢") == "12" and plain_number("3") == "3"
    assert number_key("１．") == "1"
    assert canonical_label("Ａ", ["A", "B", "C", "D"]) == "A"
    option = option_start_regex(["A", "B", "C", "D"], ["A."])
    for printed, text in [("A．{1，2}", "{1，2}"), ("Ｂ．８", "８"), ("C. 5 cm", "5 cm")]:
        found = option.match(printed)
        assert found and found.group("text") == text, printed
    assert option.match("A.5") is None  # a plain stop before a digit is still a number's
