"""Disguises the earlier sweeps did not try, each a real `examcorpus split` run on Parquet with a disguised copy of a
private question in a public record: ligatures, mathematical alphanumerics mixed with look-alikes of other scripts,
combining marks that are no accents (the grapheme joiner, enclosing circles), case, punctuation and white space
changed together, and a private question cut in two across two public records."""
from __future__ import annotations

import dataclasses
import unicodedata

import pytest

from tests.pipeline.split.test_disguised_leaks import (  # noqa: F401
    assert_disguised_copy_fails_split, between_letters, corpus, public_copy, run_split,
)

LIGATURES = {"ff": "ﬀ", "fi": "ﬁ", "fl": "ﬂ", "st": "ﬆ", "ſt": "ﬅ", "Ĳ": "Ĳ"}


def ligatures(text: str) -> str:
    for pair, ligature in LIGATURES.items():
        text = text.replace(pair, ligature)
    return text


def math_bold(text: str) -> str:
    """Latin letters as MATHEMATICAL BOLD (U+1D400…), every third one a Cyrillic look-alike instead."""
    cyrillic = str.maketrans("aeopcxy", "аеорсху")
    out = []
    for index, char in enumerate(text):
        if "a" <= char <= "z" and index % 3:
            out.append(chr(0x1D41A + ord(char) - ord("a")))
        elif "A" <= char <= "Z":
            out.append(chr(0x1D400 + ord(char) - ord("A")))
        else:
            out.append(char.translate(cyrillic))
    return "".join(out)


def shouted(text: str) -> str:
    """Capitals, each space a no-break or thin space, commas and full stops dropped, a question mark and quotes added."""
    spaced = text.upper().replace(",", "").replace(".", "")
    return "«" + "".join("\u00a0" if c == " " and i % 2 else "\u2009" if c == " " else c for i, c in enumerate(spaced)) + "»?!"


DISGUISES = {
    "ligatures (ﬁ ﬂ ﬀ ﬆ)": ligatures,
    "mathematical bold with Cyrillic look-alikes": math_bold,
    "combining grapheme joiner between letters": lambda t: between_letters(t, "\u034f"),
    "enclosing circle marks between letters": lambda t: between_letters(t, "\u20dd", 3),
    "tag characters and variation selectors together": lambda t: between_letters(between_letters(t, "\U000E0041", 2),
                                                                                 "\ufe0f", 3),
    "right-to-left override round each word": lambda t: " ".join(f"\u202e{w}\u202c" for w in t.split(" ")),
    "case, punctuation and white space changed together": shouted,
    "NFKD with fullwidth letters": lambda t: unicodedata.normalize("NFKD", "".join(
        chr(ord(c) + 0xFEE0) if "a" <= c <= "z" else c for c in t)),
}


@pytest.mark.parametrize("disguise", DISGUISES)
def test_a_disguised_copy_fails_the_split(tmp_path, corpus, capsys, disguise):  # noqa: F811
    assert_disguised_copy_fails_split(tmp_path, corpus, capsys, DISGUISES[disguise], disguise)


def test_a_private_question_cut_in_two_across_two_public_records_fails_the_split(tmp_path, corpus, capsys):  # noqa: F811
    """The stem's first half and two options in one public record, the second half and the other two in another."""
    private = next(q for q in corpus if q.source == "pl_test" and q.year == 2023)
    words = private.question.split(" ")
    half = len(words) // 2
    first = public_copy(private, 50, question=" ".join(words[:half]), choices=private.choices[:2] + ["tak", "nie"])
    second = public_copy(private, 51, question=" ".join(words[half:]), choices=["tak", "nie"] + private.choices[2:])
    code, _ = run_split(tmp_path, [*corpus, first, second])
    assert code == 1, "the halves were published"
    err = capsys.readouterr().err
    assert f"private {private.id}" in err and (first.id in err or second.id in err)


def test_a_stem_two_exams_share_is_no_piece_of_a_private_question(tmp_path, corpus):  # noqa: F811
    """A public question whose whole stem opens a longer private question (a stem exams share), its options its own:
    a small part of the private text, published (split exit 0)."""
    private = next(q for q in corpus if q.source == "pl_test" and q.year == 2023)
    words = private.question.split(" ")
    shared = " ".join(words[:6])
    longer = dataclasses.replace(private, question=private.question + " " + " ".join(reversed(words)) * 2)
    corpus = [longer if q.id == private.id else q for q in corpus]
    public = public_copy(private, 50, question=shared)
    code, counts = run_split(tmp_path, [*corpus, public])
    assert code == 0 and counts["public"] > 0
