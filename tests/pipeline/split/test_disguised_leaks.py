"""The leakage guard sees through disguises: a private question copied into a public record with invisible
characters, look-alike letters of another script or compatibility forms is still caught by a real
`examcorpus split` run on Parquet; so is a private text pasted into any public text field, alone or inside
a longer text. Genuinely different questions are not paired."""
from __future__ import annotations

import dataclasses
import json
import unicodedata

import pytest

from pipeline.cli import main
from pipeline.split.canonical import RELEASE_TEXT_FIELDS, canonical_text
from tests.pipeline.split.conftest import make_corpus, make_record, sentence, write_curated

ZERO_WIDTH_SPACE, SOFT_HYPHEN, ZERO_WIDTH_JOINER = "\u200b", "\u00ad", "\u200d"
# Other default-ignorable code points: word joiner, BOM, variation selector 16, a tag letter, left-to-right
# mark and right-to-left override, Mongolian vowel separator, combining grapheme joiner.
OTHER_IGNORABLES = ["\u2060", "\ufeff", "\ufe0f", "\U000E0041", "\u200e", "\u202e", "\u180e", "\u034f"]
CYRILLIC_FOR_LATIN = str.maketrans("aeopcxyAEOPCXKMTH", "аеорсхуАЕОРСХКМТН")
LATIN_FOR_GREEK = str.maketrans("ΑΒΕΖΗΙΚΜΝΟΡΤΥΧαοινρκχ", "ABEZHIKMNOPTYXaoivpkx")


def between_letters(text: str, mark: str, every: int = 1) -> str:
    """`mark` after every `every`-th letter of each word (inside words only)."""
    out, run = [], 0
    for char in text:
        out.append(char)
        run = run + 1 if char.isalpha() else 0
        if run and run % every == 0:
            out.append(mark)
    return "".join(out)


def fullwidth(text: str) -> str:
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in text)


def mixed(text: str) -> str:
    marks = [ZERO_WIDTH_SPACE, SOFT_HYPHEN, ZERO_WIDTH_JOINER, *OTHER_IGNORABLES]
    words = [between_letters(w, marks[i % len(marks)], every=2) for i, w in enumerate(text.split(" "))]
    return fullwidth(" ".join(words[:3])) + " " + " ".join(words[3:]).translate(CYRILLIC_FOR_LATIN)


DISGUISES = {
    "zero-width spaces between letters": lambda t: between_letters(t, ZERO_WIDTH_SPACE),
    "soft hyphens inside words": lambda t: between_letters(t, SOFT_HYPHEN, every=3),
    "zero-width joiners": lambda t: between_letters(t, ZERO_WIDTH_JOINER, every=2),
    "other invisible characters": lambda t: "".join(between_letters(w, OTHER_IGNORABLES[i % 8]) + " "
                                                    for i, w in enumerate(t.split(" "))).strip(),
    "Cyrillic look-alikes": lambda t: t.translate(CYRILLIC_FOR_LATIN),
    "fullwidth forms": fullwidth,
    "a mix": mixed,
    # Marks that render over the letters: an acute (U+0301) and a strike-through (U+0336) after each one.
    "combining marks over every letter": lambda t: "".join(c + ("\u0301" if i % 2 else "\u0336") if c.isalpha() else c
                                                         for i, c in enumerate(t)),
    "decomposed letters (NFD)": lambda t: unicodedata.normalize("NFD", t),
    # Right-to-left isolates around each word (U+2067 ... U+2069): the copy displays reordered, reads the same.
    "bidi isolates around words": lambda t: " ".join(f"\u2067{w}\u2069" for w in t.split(" ")),
    "mathematical bold letters": lambda t: "".join(chr(0x1D41A + ord(c) - 97) if "a" <= c <= "z" else c for c in t),
    "no-break and ideographic spaces": lambda t: t.replace(" ", "\u00a0", 3).replace(" ", "\u3000"),
}


@pytest.fixture
def corpus():
    return make_corpus({"pl_test": ("pl", [2021, 2022, 2023]), "el_test": ("el", [2022, 2023])})


def run_split(tmp_path, questions) -> tuple[int, dict]:
    """Exit code and, when the split was written, its public and private record counts."""
    out = tmp_path / "split"
    code = main(["split", "--curated", str(write_curated(tmp_path / "curated", questions)), "--out", str(out)])
    files = json.loads((out / "split.json").read_text())["files"] if code == 0 else {}
    counts = {name.removesuffix(".parquet"): f["rows"] for name, f in files.items()}
    return code, counts


def public_copy(private, number: int, **fields):
    """A public (2021) record of the private question's exam family carrying the given texts."""
    base = make_record(number, source=private.source, year=2021, language=private.language)
    return dataclasses.replace(base, **fields)


@pytest.mark.parametrize("disguise", DISGUISES)
def test_a_disguised_copy_of_a_private_question_fails_the_split(tmp_path, corpus, capsys, disguise):
    private = next(q for q in corpus if q.source == "pl_test" and q.year == 2023)
    hide = DISGUISES[disguise]
    copy = public_copy(private, 50, question=hide(private.question), choices=[hide(c) for c in private.choices])
    assert copy.question != private.question
    code, report = run_split(tmp_path, [*corpus, copy])
    assert code == 1, f"{disguise}: the copy was published"
    assert f"private {private.id} ~ public {copy.id}" in capsys.readouterr().err


@pytest.mark.parametrize("disguise", ["Latin look-alikes", "Latin look-alikes in capitals"])
def test_a_greek_private_question_disguised_with_latin_letters_fails_the_split(tmp_path, corpus, capsys, disguise):
    private = next(q for q in corpus if q.source == "el_test" and q.year == 2023)
    stem = private.question if disguise == "Latin look-alikes" else private.question.upper()
    private = dataclasses.replace(private, question=stem)
    corpus = [private if q.id == private.id else q for q in corpus]
    copy = public_copy(private, 50, question=stem.translate(LATIN_FOR_GREEK),
                       choices=[c.translate(LATIN_FOR_GREEK) for c in private.choices])
    assert sum(a != b for a, b in zip(copy.question, private.question)) > 10
    code, _ = run_split(tmp_path, [*corpus, copy])
    assert code == 1
    assert f"private {private.id} ~ public {copy.id}" in capsys.readouterr().err


def test_a_private_passage_and_question_pasted_into_a_public_context_fail_the_split(tmp_path, corpus, capsys):
    passage = " ".join(sentence(f"passage-{i}", 14) for i in range(4))
    private = dataclasses.replace(next(q for q in corpus if q.source == "pl_test" and q.year == 2023), context=passage)
    corpus = [private if q.id == private.id else q for q in corpus]
    public_twin = next(q for q in corpus if q.source == "pl_test" and q.year == 2021)
    own_text = sentence("a public introduction", 20)
    # The passage, lightly disguised, inside a longer public context, and the private question inside another.
    pasted = public_copy(private, 50, context=f"{own_text}\n{between_letters(passage, SOFT_HYPHEN, 4)}\n{own_text}")
    in_context = dataclasses.replace(public_twin, context=f"Zadanie: {private.question.translate(CYRILLIC_FOR_LATIN)} Koniec.")
    corpus = [in_context if q.id == public_twin.id else q for q in corpus]
    code, _ = run_split(tmp_path, [*corpus, pasted])
    err = capsys.readouterr().err
    assert code == 1
    assert f"contained: private {private.id} ~ public {pasted.id}" in err and "private context inside public context" in err
    assert f"contained: private {private.id} ~ public {in_context.id}" in err and "private question inside public context" in err


@pytest.mark.parametrize("field", ["image_description", "image_transcription"])
def test_a_private_figure_description_inside_a_public_one_fails_the_split(tmp_path, corpus, capsys, field):
    description = sentence("figure of a three-phase transformer with labelled windings", 16)
    private = dataclasses.replace(next(q for q in corpus if q.source == "pl_test" and q.year == 2023), **{field: description})
    corpus = [private if q.id == private.id else q for q in corpus]
    copy = public_copy(private, 50, **{field: "[1] " + description.upper() + "\n\n[2] a second figure"})
    code, _ = run_split(tmp_path, [*corpus, copy])
    assert code == 1 and f"private {field} inside public {field}" in capsys.readouterr().err


def test_genuinely_different_questions_and_passages_are_not_paired(tmp_path, corpus):
    """Different questions of one family, sharing words, a shared instruction line and short options
    such as "Prawda"/"Fałsz", and contexts that share only an opening phrase, split cleanly."""
    instruction = "Oceń prawdziwość podanych zdań. Zaznacz P, jeśli zdanie jest prawdziwe, albo F – jeśli jest fałszywe."
    rewritten = []
    for q in corpus:
        if q.source == "pl_test":
            q = dataclasses.replace(q, question=f"{instruction}\n{q.question}", choices=["Prawda", "Fałsz"],
                                    choice_labels=["P", "F"], answer="P", answer_index=0,
                                    context=f"Przeczytaj tekst. {sentence(q.id + '-context', 30)}")
        rewritten.append(q)
    code, counts = run_split(tmp_path, rewritten)
    assert code == 0 and counts["public"] == 18 and counts["private"] == 12


def test_every_text_field_of_the_schema_a_model_reads_is_compared():
    assert {"question", "choices", "context", "image_description", "image_transcription"} <= set(RELEASE_TEXT_FIELDS)
    assert "source_url" not in RELEASE_TEXT_FIELDS and "id" not in RELEASE_TEXT_FIELDS


@pytest.mark.parametrize("invisible", [ZERO_WIDTH_SPACE, SOFT_HYPHEN, ZERO_WIDTH_JOINER, *OTHER_IGNORABLES, "\u2064", "\u3164"])
def test_the_canonical_form_drops_default_ignorable_code_points(invisible):
    assert canonical_text(f"prz{invisible}ewód") == canonical_text("przewód") == "przewod"


def test_the_canonical_form_folds_look_alikes_of_both_cases():
    assert canonical_text("серое") == canonical_text("cepoe") and canonical_text("ТОРС") == canonical_text("торс")
    assert canonical_text("ТОРС", "capital") == canonical_text("TOPC", "capital")
    for fold in ("small", "capital"):
        assert canonical_text("Η ΣΤΟΊΒΑ;", fold) == canonical_text("η στοιβα", fold)
    assert canonical_text("Ποιο", "capital") == canonical_text("ΠOIO", "capital")
    assert canonical_text("ναι") == canonical_text("vai")
    assert canonical_text("A1") != canonical_text("A2")


INSTRUCTION = ("Να χαρακτηρίσετε τις προτάσεις που ακολουθούν, γράφοντας στο τετράδιό σας δίπλα στο γράμμα "
               "που αντιστοιχεί σε κάθε πρόταση τη λέξη Σωστό, αν η πρόταση είναι σωστή, ή τη λέξη Λάθος.")


def with_instruction(corpus, year, numbers):
    """The corpus with the Greek questions `numbers` of `year` headed by the sheet's printed instruction."""
    return [dataclasses.replace(q, context=INSTRUCTION) if q.source == "el_test" and q.year == year
            and q.number in numbers else q for q in corpus]


def test_an_instruction_both_sheets_print_over_several_questions_is_no_leak(tmp_path, corpus):
    corpus = with_instruction(with_instruction(corpus, 2022, {"1", "2", "3"}), 2023, {"1", "2", "3"})

    code, counts = run_split(tmp_path, corpus)

    assert code == 0 and counts == {"public": 18, "private": 12}


def test_a_private_sheets_repeated_text_pasted_into_one_public_record_is_still_a_leak(tmp_path, corpus, capsys):
    corpus = with_instruction(corpus, 2023, {"1", "2", "3"})  # private: repeated on its sheet
    public_twin = next(q for q in corpus if q.source == "el_test" and q.year == 2022 and q.number == "4")
    pasted = dataclasses.replace(public_twin, context=INSTRUCTION)  # public: once, not the sheet's own
    corpus = [pasted if q.id == public_twin.id else q for q in corpus]

    code, _ = run_split(tmp_path, corpus)

    assert code == 1
    assert f"~ public {pasted.id}" in capsys.readouterr().err


def test_a_private_passage_several_questions_share_pasted_into_several_public_records_is_still_a_leak(tmp_path, corpus, capsys):
    passage = " ".join(sentence(f"passage-{i}", 14) for i in range(4))
    corpus = [dataclasses.replace(q, context=passage) if q.source == "el_test" and q.number in {"1", "2", "3"}
              else q for q in corpus]  # both years: the private sheet's shared passage, pasted into the public one

    code, _ = run_split(tmp_path, corpus)

    assert code == 1 and "private context inside public context" in capsys.readouterr().err


def assert_disguised_copy_fails_split(tmp_path, corpus, capsys, hide, disguise: str) -> None:  # noqa: F811
    """A public copy of a 2023 `pl_test` question, its stem and options passed through `hide`, makes the split fail
    and is named as the private question's copy."""
    private = next(q for q in corpus if q.source == "pl_test" and q.year == 2023)
    copy = public_copy(private, 50, question=hide(private.question), choices=[hide(c) for c in private.choices])
    assert copy.question != private.question
    code, _ = run_split(tmp_path, [*corpus, copy])
    assert code == 1, f"{disguise}: the copy was published"
    assert f"~ public {copy.id}" in capsys.readouterr().err
