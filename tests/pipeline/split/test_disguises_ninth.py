"""Disguises the earlier sweeps did not try, each a real `examcorpus split` run on Parquet with a disguised copy of a
private question in a public record: Latin letters drawn as symbols Unicode gives no decomposition (negative squared
🅰, negative circled 🅐, regional indicators 🇦, which a reader and a model read as letters), and a text stored
reversed behind a right-to-left override, which every renderer shows in its reading order. Before (`3fa8f0e`) each was
published: the symbols were dropped as punctuation, and the override's text was compared in its stored order.
Measured in `docs/results.md`, "Trust at the seams a ninth time"."""
from __future__ import annotations

import pytest

from pipeline.split.canonical import joined_text
from tests.pipeline.split.test_disguised_leaks import assert_disguised_copy_fails_split, corpus  # noqa: F401


def drawn_as(first: int):
    """Each ASCII letter as the symbol at `first` + its place in the alphabet (capitals and small letters alike)."""
    return lambda text: "".join(chr(first + ord(c.lower()) - ord("a")) if c.isascii() and c.isalpha() else c for c in text)


def reversed_behind_override(text: str) -> str:
    """Each line stored backwards inside U+202E … U+202C: shown as the line itself."""
    return "\n".join(f"\u202e{line[::-1]}\u202c" for line in text.split("\n"))


DISGUISES = {
    "negative squared Latin letters (🅰)": drawn_as(0x1F170),
    "negative circled Latin letters (🅐)": drawn_as(0x1F150),
    "regional indicator letters (🇦)": drawn_as(0x1F1E6),
    "a line stored reversed behind a right-to-left override": reversed_behind_override,
    "one word stored reversed behind an override": lambda t: t.replace(t.split(" ")[2], f"\u202e{t.split(' ')[2][::-1]}\u202c", 1),
}


@pytest.mark.parametrize("disguise", DISGUISES)
def test_a_disguised_copy_fails_the_split(tmp_path, corpus, capsys, disguise):  # noqa: F811
    assert_disguised_copy_fails_split(tmp_path, corpus, capsys, DISGUISES[disguise], disguise)


def test_symbols_named_after_no_letter_and_text_outside_an_override_keep_their_reading():
    """What the mends leave alone: a keycap, a check mark, a flag of two indicators read as its two letters only, and
    an override's text compared in its stored order too (a word written forwards inside one is still found)."""
    assert joined_text("Zadanie ✓ 1⃣ ok") == joined_text("Zadanie 1 ok")
    assert joined_text("\u202eabc\u202c def", rendered=True) == "cbadef"
    assert joined_text("\u202eabc\u202c def") == "abcdef"
    assert joined_text("\u202eab\u202dcd\u202cef\u202c", rendered=True) == "fecdba"  # an LRO inside keeps its order
