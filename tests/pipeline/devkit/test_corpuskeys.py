"""corpuskeys: a question left without an answer counts as reported only when a line of the key reader names it."""
from __future__ import annotations

from pipeline.devkit.corpuskeys import CHECKING, TUNING, KeyTally, _names


def test_a_report_line_names_a_question_alone_or_inside_a_span():
    line = "key k.pdf (page 1): no entry read for question(s) 1–20, 81–100 (40 of the sheet's)"
    assert _names(line, "7") and _names(line, "81") and _names(line, "100")
    assert not _names(line, "21") and not _names(line, "60")
    assert not _names(line, "40")  # the count of questions names none, nor does the page
    assert not _names(line.replace("1–20, ", ""), "1")
    assert not _names("80 question(s) have no entry in the key: 1, 2, 3 … (+65)", "65")
    prefixed = "no entry read for question(s) 1.6, 1.52, 1.r1, 2.11 (4 of the sheet's)"
    assert _names(prefixed, "1.R1") and _names(prefixed, "2.11") and not _names(prefixed, "1.5") and not _names(prefixed, "2.1")
    assert _names("the answer cell of question 53 could not be read (OCR)", "53")
    assert not _names("the answer cell of question 53 could not be read (OCR)", "5")


def test_tuning_and_checking_families_are_apart_and_the_line_counts_text_misreads_apart():
    assert not {s.spec for s in TUNING} & {s.spec for s in CHECKING}  # whole families kept aside
    tally = KeyTally(keyed=10, read=9, right=8, wrong=1, wrong_text=1, wrong_flagged=1, text_read=3, text_flagged=2, reported=1)
    assert "wrong  1 (text  1, flagged  1)" in tally.line() and "text entries flagged 2/3" in tally.line() and "reported   1" in tally.line() and "silent  0" in tally.line()
