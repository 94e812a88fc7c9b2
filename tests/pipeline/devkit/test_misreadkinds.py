"""Each run of words where an OCR'd question differs from the printed one is named by what a reader sees
in it: a space lost or added, a hyphen joined, a mark, a case, an accent, a punctuation mark, a digit or a
letter; a question whose options split otherwise, or whose answer differs, says so."""
from __future__ import annotations

import pytest

from pipeline.devkit.misreadkinds import (ACCENT, ANSWER, CASE, DIGIT, GLUED, HYPHENATION, LETTER, NORMALISATION, as_read,
                                          OPTION_BOUNDARY, PUNCTUATION, question_kinds, text_kinds)


@pytest.mark.parametrize(("printed", "read", "kind"), [
    ("A los efectos de", "Alos efectos de", GLUED),
    ("el 7 de marzo", "el7 de marzo", GLUED),
    ("la adminis- tración", "la administración", HYPHENATION),
    ("la ﬁrma", "la firma", NORMALISATION),
    ("de 5–10 días", "de 5-10 días", NORMALISATION),
    ("los órgãos", "los Órgãos", CASE),
    ("la Secretaría de", "la Secretaria de", ACCENT),
    ("Dos, el Tribunal", "Dos. el Tribunal", PUNCTUATION),
    ("de 1978?", "de 19787?", DIGIT),
    ("los superiores.", "los supenores.", LETTER),
    ("mo tenga", "no tenga", LETTER),
])
def test_a_differing_run_is_named_by_what_differs_in_it(printed, read, kind):
    assert [k for k, _, _ in text_kinds(printed, read)] == [kind]


def test_the_same_text_has_no_run_and_each_differing_run_is_named_apart():
    assert text_kinds("Cinco días hábiles.", "Cinco días hábiles.") == []
    runs = text_kinds("Ministerio de la Presidencia, y de Sanidad", "Ministeno de la Presidencia. y de Sanidad")
    assert [(k, a, b) for k, a, b in runs] == [(LETTER, "Ministerio", "Ministeno"), (PUNCTUATION, "Presidencia,", "Presidencia.")]


def test_a_question_counts_its_options_boundaries_and_its_answer():
    printed = ("¿Cuántos?", ("Dos.", "Cuatro.", "Cinco."), "B")
    same = lambda a, b: a == b  # noqa: E731
    assert question_kinds(printed, printed, same) == []
    assert [k for k, _, _ in question_kinds(printed, ("¿Cuántos?", ("Dos. Cuatro.", "Cinco."), "B"), same)] == [OPTION_BOUNDARY]
    assert [k for k, _, _ in question_kinds(printed, ("¿Cuántos?", ("Dos.", "Cuatro.", "Cinco."), "C"), same)] == [ANSWER]
    # What the measure already forgives is no run.
    assert question_kinds(printed, ("¿Cuántos ?", ("Dos.", "Cuatro.", "Cinco."), "B"), lambda a, b: a.replace(" ", "") == b.replace(" ", "")) == []


@pytest.mark.parametrize(("printed", "read"), [
    ("la ﬁrma", "la firma"),  # a ligature of the text layer
    ("adminis\u00adtración", "administración"),  # a soft hyphen
    ("FR 28X´, T° 39", 'FR 28X", T° 39'),  # a prime typed as an accent, read as a quotation mark
    ("“Cordilleras asiáticas”", '"Cordilleras asiáticas"'),
    ("de 5–10 días", "de 5-10 días"),
    ("entre 6 - 8 horas", "entre 6-8 horas"),  # spaces beside a mark part no words
    ("de 12,50 %", "de 12,50%"),
    ("(RDC) .", "(RDC)."),
    ("**acceso** a la", "acceso a la"),
])
def test_what_a_reader_cannot_tell_apart_is_the_same_text(printed, read):
    assert as_read(printed) == as_read(read)


@pytest.mark.parametrize(("printed", "read"), [
    ("A los efectos", "Alos efectos"),  # a space between letters parts words
    ("el 7 de marzo", "el7 de marzo"),
    ("la Secretaría", "la Secretaria"),
    ("Dos, el", "Dos. el"),
    ("T° 39°C", 'T" 39*C'),
    ("de 1978?", "de 19787?"),
    ("los órgãos", "los Órgãos"),
    ("4,0 × 10", "4,0 x 10"),
])
def test_a_misreading_still_differs(printed, read):
    assert as_read(printed) != as_read(read)


def test_a_mark_lost_between_words_the_measure_spaces_alike_is_punctuation():
    assert [k for k, _, _ in text_kinds(as_read("o Código Civil, tendo"), as_read("o Código Civil tendo"))] == [PUNCTUATION]
