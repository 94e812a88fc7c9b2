"""The flag's measure prints arithmetic, relations and units among a family's words (`symbolsheets`, the `symbols` sets
of `ocrcertainty`): half the questions of such a family carry the signs a scan misreads, the others none, and the
families without them print the questions they printed before."""
from __future__ import annotations

import random

import pytest

from pipeline.devkit import ocrcertainty, symbolsheets
from pipeline.extract.ocr import LexiconUnavailable

SIGNS = set("×÷≤≥°²³µ→−")


def _questions(family: ocrcertainty.Family) -> list[ocrcertainty.Printed]:
    try:
        vocabulary = ocrcertainty._vocabulary(family.tesseract, random.Random(family.seed))
    except LexiconUnavailable as exc:
        pytest.skip(str(exc))
    return ocrcertainty.printed_questions(family, vocabulary)


def _signs(question: ocrcertainty.Printed) -> set[str]:
    return {ch for text in (question.stem, *question.options) for ch in text if ch in SIGNS}


def test_every_expression_prints_a_sign_a_scan_misreads_or_a_number_and_a_unit():
    rng = random.Random(7)
    for name, make in symbolsheets.EXPRESSIONS:
        printed = make(rng)
        assert any(ch.isdigit() for ch in printed), name
        assert name == "share" or set(printed) & SIGNS, name


@pytest.mark.parametrize("family", [*ocrcertainty.SYMBOLS, *ocrcertainty.SYMBOLS_HELD_OUT], ids=lambda f: f.name)
def test_a_symbols_family_prints_signs_in_some_questions_and_none_in_others(family):
    questions = _questions(family)
    with_signs = [q for q in questions if _signs(q)]
    assert 4 <= len(with_signs) <= len(questions) - 4
    assert {ch for q in with_signs for ch in _signs(q)} >= {"×", "°"}  # over a sheet, the commonest signs both print
    assert all(len(q.options) == len(family.labels) for q in questions)


def test_a_family_without_symbols_prints_no_sign():
    assert not any(_signs(q) for q in _questions(ocrcertainty.CALIBRATION[0]))
