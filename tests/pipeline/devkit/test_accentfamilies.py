"""`accentfamilies` scores a page by words and by marked letters read as printed, and prints no page a face cannot draw."""
from __future__ import annotations

from pipeline.devkit.accentfamilies import FACES, FAMILIES, MARKED_SHARE, is_marked, missing_letters, prose, score


def test_a_marked_letter_is_one_with_a_combining_mark_or_a_stroke():
    assert [is_marked(ch) for ch in "éąçłđıe"] == [True, True, True, True, True, True, False]


def test_a_marked_letter_counts_right_where_its_word_is_read_so_or_only_that_letter_is():
    printed = "La física del período es útil".split()
    read = "La fisica del período es útil".split()
    page, wrong = score(printed, read)
    assert (page.words, page.words_right) == (6, 5)
    assert (page.marked, page.marked_right, page.lost, page.added) == (3, 2, 1, 0)
    assert wrong == [("física", "fisica")]


def test_a_mark_read_where_none_is_printed_is_added_and_a_word_not_aligned_loses_its_marks():
    page, _ = score("el dia de hoy".split(), "el día de hoy".split())
    assert (page.added, page.lost, page.words_right) == (1, 0, 3)
    page, wrong = score("el día de hoy".split(), "el diade hoy".split())
    assert (page.marked, page.marked_right) == (1, 0)
    assert ("día", "") in wrong


def test_the_prose_is_accent_dense_and_real_words_of_the_language():
    words = prose("spa", 11).replace(".", "").replace(",", "").split()
    share = sum(any(is_marked(ch) for ch in w) for w in words) / len(words)
    assert abs(share - MARKED_SHARE) < 0.1


def test_a_face_that_cannot_draw_a_language_is_said_and_skipped():
    assert missing_letters("người Việt", FACES["serif"]) == "ưệờ"  # Liberation draws no Vietnamese letter with a horn or two marks
    assert missing_letters("người Việt", FACES["dvserif"]) == ""
    assert {f.face.name for f in FAMILIES} == {"serif", "sans", "dvserif", "narrow"}
