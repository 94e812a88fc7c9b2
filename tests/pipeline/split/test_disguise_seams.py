"""More disguises at the leakage guard's seams, each a real `examcorpus split` run on Parquet with a
disguised copy of a private question in a public record: markup a page renders away (HTML character
references and tags, Markdown emphasis, LaTeX wrappers), what may stand between two letters of one word
(a line-end hyphen, thin and no-break spaces, dots, interlinear annotation characters, a braille blank),
look-alike letters of other scripts in both directions, case folding of Turkish and German letters, and
edits that keep the question (options re-ordered or re-labelled, the stem split into the options, one
word changed). A private text pasted into any string of a public record (a subject, a sheet code, a
figure's path) is a leak too."""
from __future__ import annotations

import dataclasses

import pytest

from pipeline.split.canonical import canonical_text, joined_text, latin_look
from tests.pipeline.split.test_disguised_leaks import between_letters, corpus, public_copy, run_split  # noqa: F401


def halves(text: str, glue: str) -> str:
    """Each word of five letters or more cut in two by `glue`."""
    return " ".join(w[:len(w) // 2] + glue + w[len(w) // 2:] if len(w) >= 5 else w for w in text.split(" "))


def each_word(text: str, wrap: str) -> str:
    return " ".join(wrap.format(w) for w in text.split(" "))


def references(text: str) -> str:
    """Every letter as an HTML character reference, decimal and hexadecimal in turn."""
    return "".join((f"&#{ord(c)};" if i % 2 else f"&#x{ord(c):X};") if c.isalpha() else c for i, c in enumerate(text))


# Each caught since this round; on main `ad67599` every one of them was published (split exit 0).
GOT_THROUGH = {
    "a hyphen and line break inside words": lambda t: halves(t, "-\n"),
    "thin spaces inside words": lambda t: halves(t, "\u2009"),
    "no-break spaces inside words": lambda t: halves(t, "\u00a0"),
    "hair spaces every second letter": lambda t: between_letters(t, "\u200a", 2),
    "a braille blank inside words": lambda t: halves(t, "\u2800"),
    "dots inside words": lambda t: halves(t, "."),
    "interlinear annotation anchors": lambda t: between_letters(t, "\ufff9", 2),
    "interlinear annotation terminators": lambda t: between_letters(t, "\ufffb", 3),
    "each word annotated (U+FFF9 word U+FFFA note U+FFFB)": lambda t: each_word(t, "\ufff9{}\ufffax\ufffb"),
    "HTML character references for every letter": references,
    "HTML references read twice (&amp;#…)": lambda t: references(t).replace("&", "&amp;"),
    "named references (&oacute; …)": lambda t: t.replace("ó", "&oacute;").replace("ę", "&#281;").replace("a", "&#x61;"),
    "Markdown emphasis inside words": lambda t: halves(t, "**"),
    "HTML tags inside words": lambda t: " ".join(f"<b>{w[:2]}</b>{w[2:]}" if len(w) > 3 else w for w in t.split(" ")),
    "HTML spans with attributes round each word": lambda t: each_word(t, '<span class="w">{}</span>'),
    "LaTeX \\text{} round each word": lambda t: each_word(t, "\\text{{{}}}"),
    "LaTeX \\textbf{} inside words": lambda t: halves(t, "}\\textbf{"),
}

# Caught on main `ad67599` already (kept here as regression tests of this round's forms).
HELD = {
    "NFD with two combining marks in either order": lambda t: "".join(c + ("\u0323\u0301" if i % 2 else "\u0301\u0323")
                                                                     if c.isalpha() else c for i, c in enumerate(t)),
    "left-to-right and right-to-left marks": lambda t: between_letters(t, "\u200f", 2).replace(" ", " \u200e"),
    "Arabic letter mark": lambda t: between_letters(t, "\u061c", 3),
    "embeddings and pops round words": lambda t: each_word(t, "\u202a{}\u202c"),
    "variation selectors (FE0E, E0100)": lambda t: between_letters(between_letters(t, "\ufe0e", 2), "\U000E0100", 3),
    "tag characters": lambda t: between_letters(t, "\U000E0061"),
    "Mongolian vowel separator and word joiner": lambda t: between_letters(between_letters(t, "\u180e", 2), "\u2060", 3),
    "Armenian look-alikes": lambda t: t.translate(str.maketrans("onuhgq", "օոսհցզ")),
    "Cherokee look-alikes of capitals": lambda t: t.upper().translate(str.maketrans("ABCDEGHJKLMPRSTVWZ", "ᎪᏴᏟᎠᎬᏀᎻᎫᏦᏞᎷᏢᎡᏚᎢᏙᎳᏃ")),
    "dotless ı for i": lambda t: t.replace("i", "ı"),
    "capitals with dotted İ": lambda t: t.upper().replace("I", "İ"),
    "no-break, thin and ideographic spaces between words": lambda t: t.replace(" ", "\u00a0", 2).replace(" ", "\u2009", 2).replace(" ", "\u3000"),
}


@pytest.mark.parametrize("disguise", [*GOT_THROUGH, *HELD])
def test_a_copy_disguised_at_a_seam_fails_the_split(tmp_path, corpus, capsys, disguise):  # noqa: F811
    private = next(q for q in corpus if q.source == "pl_test" and q.year == 2023)
    hide = {**GOT_THROUGH, **HELD}[disguise]
    copy = public_copy(private, 50, question=hide(private.question), choices=[hide(c) for c in private.choices])
    assert copy.question != private.question
    code, _ = run_split(tmp_path, [*corpus, copy])
    assert code == 1, f"{disguise}: the copy was published"
    assert f"private {private.id} ~ public {copy.id}" in capsys.readouterr().err


EDITS = {
    "options re-ordered": lambda q: {"choices": q.choices[::-1]},
    "options re-labelled W–Z, the first last": lambda q: {"choices": q.choices[1:] + q.choices[:1], "choice_labels": ["W", "X", "Y", "Z"]},
    "options written into the stem": lambda q: {"question": q.question + "\n" + "\n".join(f"{l}) {c}" for l, c in zip("ABCD", q.choices)),
                                                "choices": ["tak", "nie"], "choice_labels": ["T", "N"]},
    "the stem split across the options": lambda q: {"question": " ".join(q.question.split(" ")[:6]),
                                                    "choices": [" ".join(q.question.split(" ")[6:]) + " " + c for c in q.choices]},
    "one word of the stem changed": lambda q: {"question": q.question.replace(q.question.split(" ")[3], "zmieniony", 1)},
}


@pytest.mark.parametrize("edit", EDITS)
def test_a_copy_edited_around_the_question_is_a_near_duplicate(tmp_path, corpus, capsys, edit):  # noqa: F811
    """Held on main `ad67599` too (near-duplicate, similarity 0.80–0.93)."""
    private = next(q for q in corpus if q.source == "pl_test" and q.year == 2023)
    copy = public_copy(private, 50, question=private.question, choices=private.choices)
    copy = dataclasses.replace(copy, **EDITS[edit](private))
    code, _ = run_split(tmp_path, [*corpus, copy])
    assert code == 1
    assert f"private {private.id} ~ public {copy.id}" in capsys.readouterr().err


# Greek letters whose small and capital forms look like two different Latin letters: κ like ĸ, its Κ like K;
# ν like v, its Ν like N. A copy that writes κ as k and ν as v matches neither case's look-alikes.
GREEK = "κανόνας κίνησης κινητήρα και νόμος της κινητικής ενέργειας στον κύκλο"


def test_a_greek_question_with_latin_k_and_v_together_fails_the_split(tmp_path, corpus, capsys):  # noqa: F811
    private = next(q for q in corpus if q.source == "el_test" and q.year == 2023)
    private = dataclasses.replace(private, question=GREEK, choices=["κενό", "ναι", "κανένα", "νέο"])
    corpus = [private if q.id == private.id else q for q in corpus]
    latin = str.maketrans("κν", "kv")
    copy = public_copy(private, 50, question=GREEK.translate(latin), choices=[c.translate(latin) for c in private.choices])
    code, _ = run_split(tmp_path, [*corpus, copy])
    assert code == 1
    assert f"text: private {private.id} ~ public {copy.id}" in capsys.readouterr().err


@pytest.mark.parametrize("text, latin", [("Straße", "STRASSE"), ("ẞ", "ss"), ("ıİ", "ii"), ("κν", "kv"), ("КОРОВА", "kopoba")])
def test_letters_fold_to_the_latin_letter_either_case_looks_like(text, latin):
    assert joined_text(text, "latin") == joined_text(latin, "latin")
    assert latin_look("k") == "k" and latin_look("N") == "n"  # a Latin letter is itself, small


@pytest.mark.parametrize("field, path", [("subject", "subject"), ("sheet_code", "sheet_code"), ("exam", "exam")])
def test_a_private_question_pasted_into_any_string_of_a_public_record_fails_the_split(tmp_path, corpus, capsys, field, path):  # noqa: F811
    private = next(q for q in corpus if q.source == "pl_test" and q.year == 2023)
    twin = next(q for q in corpus if q.source == "pl_test" and q.year == 2021)
    pasted = dataclasses.replace(twin, **{field: halves(private.question, "\u2009")})
    corpus = [pasted if q.id == twin.id else q for q in corpus]
    code, _ = run_split(tmp_path, corpus)
    assert code == 1
    err = capsys.readouterr().err
    assert f"contained: private {private.id} ~ public {twin.id}" in err and f"private question inside public {path}" in err


def test_markup_in_a_tag_attribute_is_still_compared_as_text():
    """Dropping a tag drops its attribute, which a model reads: the kept form still holds it."""
    attribute = '<span title="Który przewód ma izolację?">x</span>'
    question = joined_text("Który przewód ma izolację?")
    assert question in joined_text(attribute) and question not in joined_text(attribute, rendered=True)


def test_the_canonical_form_reads_references_and_keeps_genuine_differences():
    assert canonical_text("pr&#122;ew&oacute;d") == canonical_text("przewód")
    assert joined_text("exa-\nmination") == joined_text("examination")
    assert joined_text("Η αγορά") != joined_text("Η προσφορά")
