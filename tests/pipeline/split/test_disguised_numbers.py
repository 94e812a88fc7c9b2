"""The leakage guard reads a number by its value, whatever script prints its digits (issue 25, the width seam).

A private question is copied into a public release with its numbers in Arabic-Indic, Persian, Devanagari or
full-width digits, its words in full-width forms, ligatures and Roman-numeral forms, invisible characters and
look-alike letters of other scripts: a real `examcorpus split` run still names the pair. And two different
questions printed in another script's digits, alike in all but their numbers, are not paired: before, the UTS #39
skeleton read those digits by their look (`٥` as o, `٠` as a dot), so `٥٠ + ٢٠` and `٥ + ٢` were one text.
"""
from __future__ import annotations

import dataclasses

import pytest

from pipeline.split.canonical import canonical_text
from tests.pipeline.split.conftest import make_corpus
from tests.pipeline.split.test_disguised_leaks import CYRILLIC_FOR_LATIN, SOFT_HYPHEN, ZERO_WIDTH_SPACE, public_copy, run_split

STEM = "Oblicz wartość wyrażenia 12 · 305 − 48 i podaj wynik z tabeli IV, rozdział 7."
CHOICES = ["3612", "3660", "3564", "3608"]


def digits_of(zero: int):
    """Every ASCII digit as the digit of the script whose zero is code point `zero`."""
    return lambda text: text.translate({ord("0") + d: chr(zero + d) for d in range(10)})


ARABIC_INDIC, PERSIAN, DEVANAGARI, FULL_WIDTH_DIGITS = (digits_of(z) for z in (0x0660, 0x06F0, 0x0966, 0xFF10))


def full_width(text: str) -> str:
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in text)


def hostile_mix(text: str) -> str:
    """Full-width words, a ligature, the Roman numeral as one character, Arabic-Indic digits, a zero-width space
    and a soft hyphen inside words, Cyrillic look-alikes."""
    text = text.replace("tabeli IV", "tabeli \u2163").replace("fi", "\ufb01")
    words = [*text.split(" "), "", ""]
    words[0] = full_width(words[0])
    words[1] = words[1][:3] + ZERO_WIDTH_SPACE + words[1][3:]
    words[2] = words[2][:4] + SOFT_HYPHEN + words[2][4:]
    words = words[:-2]
    return ARABIC_INDIC(" ".join(words)).translate(CYRILLIC_FOR_LATIN)


DISGUISES = {
    "Arabic-Indic digits": ARABIC_INDIC,
    "Persian digits": PERSIAN,
    "Devanagari digits": DEVANAGARI,
    "full-width digits": FULL_WIDTH_DIGITS,
    "full-width forms throughout": full_width,
    "all at once": hostile_mix,
}


@pytest.fixture
def corpus():
    corpus = make_corpus({"pl_test": ("pl", [2021, 2022, 2023])})
    return [dataclasses.replace(q, question=STEM, choices=CHOICES) if q.year == 2023 and q.number == "1" else q
            for q in corpus]


@pytest.mark.parametrize("disguise", DISGUISES)
def test_a_copy_with_its_numbers_in_other_digits_fails_the_split(tmp_path, corpus, capsys, disguise):
    private = next(q for q in corpus if q.year == 2023 and q.number == "1")
    hide = DISGUISES[disguise]
    copy = public_copy(private, 50, question=hide(private.question), choices=[hide(c) for c in private.choices])
    assert copy.question != private.question and copy.choices != private.choices

    code, _ = run_split(tmp_path, [*corpus, copy])

    assert code == 1, f"{disguise}: the copy was published"
    assert f"private {private.id} ~ public {copy.id}" in capsys.readouterr().err


@pytest.mark.parametrize("digits", [ARABIC_INDIC, PERSIAN, DEVANAGARI], ids=["Arabic-Indic", "Persian", "Devanagari"])
def test_different_questions_that_differ_only_in_their_numbers_are_not_paired(tmp_path, digits):
    corpus = make_corpus({"pl_test": ("pl", [2022, 2023])})
    stems = {2022: "Ile wynosi 5 + 2 oraz 10 - 1?", 2023: "Ile wynosi 50 + 20 oraz 100 - 10?"}
    choices = {2022: ["7", "9", "3", "1"], 2023: ["70", "90", "30", "10"]}
    corpus = [dataclasses.replace(q, question=digits(stems[q.year]), choices=[digits(c) for c in choices[q.year]])
              if q.number == "1" else q for q in corpus]

    code, counts = run_split(tmp_path, corpus)

    assert code == 0 and counts == {"public": 6, "private": 6}


def test_a_number_is_read_by_its_value_and_a_digit_between_letters_by_its_look():
    assert canonical_text("x = ٣٠٥") == canonical_text("x = 305") == canonical_text("x = ३०५") == canonical_text("x = ３０５")
    assert canonical_text("٥٠") != canonical_text("٥") and canonical_text("٥") != canonical_text("0")
    assert canonical_text("p٥miar") == canonical_text("pomiar")  # Arabic-Indic five for the letter o
    assert canonical_text("٥cm") == canonical_text("5cm")


def test_enclosing_marks_drawn_round_each_letter_are_dropped():
    assert canonical_text("p\u20ddr\u20ddz\u20e3ewód") == canonical_text("przewód")
