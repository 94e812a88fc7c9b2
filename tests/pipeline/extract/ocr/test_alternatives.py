"""Words written as alternatives, `a/b`, judged and read again alternative by alternative (`alternatives`, through the
second recogniser's `secondread`): a short-answer key's `sonet/znelka` that Tesseract misreads in one alternative takes
the second reading's where the dictionary knows it and not Tesseract's, and only there. Real hunspell, real RapidOCR,
real Tesseract on generated lines."""
from __future__ import annotations

from dataclasses import replace

import pytest
from PIL import Image, ImageDraw, ImageFont

from pipeline.extract.ocr.alternatives import alternatives, alternatives_reading, known_alternatives, same_alternatives
from pipeline.extract.ocr.engine import parse_tsv, run_tesseract
from pipeline.extract.ocr.secondread import combine, read_again, unsure_windows
from tests.pipeline.extract.ocr.test_second_reader import _known, _line, _second, needs_hunspell  # the same line builders

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


def test_a_token_parts_into_its_alternatives_and_a_lone_slash_is_none() -> None:
    assert alternatives("sonet/znelka") == ["sonet", "znelka"]
    assert alternatives("(slovníkom)/výkladový") == ["slovníkom", "výkladový"]
    assert alternatives("predmet/") == ["predmet", ""]  # a slash ending a wrapped cell's line
    assert alternatives("/") is None and alternatives("sonet") is None


def test_alternatives_are_taken_only_where_the_dictionary_knows_the_second_and_not_the_first() -> None:
    words = {"sonet", "znelka", "interview", "Interview", "ti", "ťa", "ta", "ty", "3", "tri"}
    known = words.__contains__
    assert alternatives_reading("soneť/znelka", "sonet/znelka", known) == "sonet/znelka"
    assert alternatives_reading("lnterview/interviu", "Interview/interviu", known) == "Interview/interviu"
    # Two letters or fewer are no dictionary's to judge: a number is taken there only where Tesseract was unsure.
    assert alternatives_reading("Šš/tri", "3/tri", known, unsure=True) == "3/tri"
    assert alternatives_reading("Šš/tri", "3/tri", known) is None
    assert alternatives_reading("ti/ťz/ty", "ti/ta/ty", known, unsure=True) is None
    assert alternatives_reading("ti/ťa/ty", "ti/ta/ty", known) is None  # both known: Tesseract's stays
    assert alternatives_reading("soneť/znelka", "sonef/znelka", known) is None  # neither known
    assert alternatives_reading("soneť/znelka", "sonet", known) is None  # not as many alternatives
    assert alternatives_reading("predmet/", "predmet/sonet", known) is None  # an empty alternative is not filled
    assert known_alternatives("sonet/znelka", known) is True and known_alternatives("soneť/znelka", known) is False
    assert same_alternatives("soneť/znelka", "sonet/znelka") and not same_alternatives("tťťa/ty", "ti/ta/ty")


@needs_hunspell
def test_a_token_of_known_alternatives_is_a_known_word_and_not_read_again_for_it() -> None:
    known = _known("slk")
    assert known("sonet/znelka") and known("3/tri") and known("(slovníkom)/výkladový") and known("predmet/")
    assert not known("soneť/znelka") and not known("milýfúbostný")
    # Notes written with `veľkých/malých` no longer spend the page's budget for second readings.
    confident = _line([("Na", 96), ("použití", 93), ("veľkých/malých", 92), ("písmen", 96), ("nezáleží.", 96)])
    assert unsure_windows(confident, known) == []
    assert [(w.start, w.end) for w in unsure_windows(_line([("14", 96), ("soneť/znelka", 82)]), known)] == [(0, 2)]


@needs_hunspell
def test_the_second_reading_mends_an_alternative_and_never_one_the_dictionary_knows() -> None:
    known = _known("slk")
    words, changed = combine(_line([("soneť/znelka", 50)]), _second(("sonet/znelka", 0.97)), known)
    assert [w.text for w in words] == ["sonet/znelka"] and changed == 1
    words, _ = combine(_line([("interview/lnterview/interviu", 91)]), _second(("interview/Interview/interviu", 0.95)), known)
    assert [w.text for w in words] == ["interview/Interview/interviu"]
    # A reading that lost or added an alternative is not taken (`ti/ťa/ty` printed, the second reader's caron lost).
    words, changed = combine(_line([("tťťa/ty", 60)]), _second(("ti/ta/ty", 0.97)), known)
    assert [w.text for w in words] == ["tťťa/ty"] and changed == 0
    # The second reader's model drops a caron now and then: a known alternative stays as Tesseract read it.
    for ours, theirs in (("ti/ťa/ty", "ti/ta/ty"), ("začať/začal/si", "začat/začal/si")):
        words, changed = combine(_line([(ours, 75)]), _second((theirs, 0.97)), known)
        assert [w.text for w in words] == [ours] and changed == 0
    # An unsure second reading is not taken, whatever the dictionary says.
    words, changed = combine(_line([("soneť/znelka", 50)]), _second(("sonet/znelka", 0.5)), known)
    assert [w.text for w in words] == ["soneť/znelka"] and changed == 0


@needs_hunspell
def test_read_again_mends_an_alternative_misread_from_real_rapidocr() -> None:
    pytest.importorskip("rapidocr")
    font = ImageFont.truetype(FONT, 36)
    text = "14 sonet/znelka"
    image = Image.new("L", (int(font.getlength(text)) + 40, 72), 255)
    ImageDraw.Draw(image).text((20, 12), text, font=font, fill=0)
    words = parse_tsv(run_tesseract(image, ["slk"], 300, omp_thread_limit=1, psm=7))
    assert [w.text for w in words] == ["14", "sonet/znelka"]
    # The error Tesseract makes on a blurred scan, put into its own words: a letter given a caron, unsure.
    misread = [words[0], replace(words[1], text="soneť/znelka", conf=49.5)]
    result = read_again(image, misread, ["slk"])
    assert [w.text for w in result.words] == ["14", "sonet/znelka"]
    assert "1 word(s) changed" in result.note
