"""The misread classes `python -m pipeline.devkit.misreads` counts: a printed stretch of words against what a
scan read, each difference in the one class that says what the scan did to it."""
from __future__ import annotations

from pipeline.devkit.misreads import CLASSES, classify


def counted(printed: str, read: str) -> dict[str, int]:
    return {name: n for name, n in classify(printed.split(), read.split()).items() if n}


def test_a_one_or_two_letter_word_glued_to_its_neighbour_is_a_glued_short_word():
    assert counted("k eufemizmom patrí", "keufemizmom patrí") == {"glued-short": 1}
    assert counted("el 7 de marzo", "el7 de marzo") == {"glued-short": 1}
    assert counted("A un funcionario", "Aun funcionario") == {"glued-short": 1}


def test_two_longer_words_read_as_one_are_glued_and_one_word_read_as_two_is_split():
    assert counted("Menor secreción gástrica", "Menorsecreción gástrica") == {"glued": 1}
    assert counted("la Constitución", "la Constitu ción") == {"split": 1}


def test_letters_of_the_same_shape_swapped_or_joined_are_lookalikes():
    assert counted("Ilustre ley 1978", "lIustre Iey l978") == {"lookalike": 3}
    assert counted("aquí", "agui") == {"other": 1}  # q/g and a lost accent: two things at once
    assert counted("que tenga", "gue tenga") == {"lookalike": 1}
    assert counted("modern form", "modem form") == {"lookalike": 1}
    assert counted("no tenga", "mo tenga") == {"lookalike": 1}


def test_a_letter_lost_is_dropped_and_lost_accents_are_marks():
    assert counted("las tengas", "las tegas") == {"dropped": 1}
    assert counted("el artículo", "el articulo") == {"marks": 1}


def test_words_missed_added_or_read_otherwise_are_other_and_a_right_reading_counts_nothing():
    assert counted("el Rey de España", "el Rey de España") == {}
    assert counted("a b c d", "a b") == {"other": 2}
    assert counted("el Gobierno", "el Gobierno 12") == {"other": 1}
    assert counted("el Gobierno", "el Congreso") == {"other": 1}
    assert set(classify("x y".split(), "xy z".split())) <= set(CLASSES)
