"""`accentscans` counts a word read with other marks than printed as lost, added or moved, and nothing else."""
from __future__ import annotations

from collections import Counter

from pipeline.devkit.accentscans import compare, mark_kind, unmarked


def test_every_combining_mark_comes_off_a_bare_page_and_letters_that_do_not_decompose_stay():
    assert unmarked("período łódź Nguyễn") == "periodo łodz Nguyen"


def test_a_word_read_with_fewer_marks_lost_them_and_with_more_gained_them():
    assert mark_kind("período", "periodo") == "lost"
    assert mark_kind("periodo", "período") == "added"
    assert mark_kind("título", "titúlo") == "moved"
    assert mark_kind("período", "período") is None
    assert mark_kind("período", "periodos") is None  # another letter: not a mark's difference


def test_only_words_aligned_one_for_one_are_judged():
    printed = "La física del período es útil".split()
    read = "La fisica del período es util".split()
    counts, shown = compare(printed, read)
    assert counts == Counter({"lost": 2})
    assert shown == [("lost", "física", "fisica"), ("lost", "útil", "util")]
    counts, _ = compare("el día de hoy".split(), "el diade hoy".split())  # glued: not counted as a mark
    assert counts == Counter()
