"""Words compared ignoring case hold for every script (`languages.caseless`): Turkish capitals `İ` and `I` fold to the
lower-case words a language file gives (`str.casefold` makes `İPTAL` `i̇ptal` and `YANLIŞ` `yanliş`), Greek final
sigma and German `ß` fold as `str.casefold` folds them."""
from __future__ import annotations

import pytest

from eval.scorers.structured import _truth_values
from pipeline.languages import caseless
from pipeline.parse.keys import is_voided
from pipeline.specs import default_voided


@pytest.mark.parametrize("printed", ["İPTAL", "İptal", "iptal", "IPTAL"])
def test_a_turkish_key_annuls_a_question_in_any_case(printed):
    assert is_voided(printed, default_voided())


@pytest.mark.parametrize("reply, values", [("DOĞRU, YANLIŞ, DOĞRU", [True, False, True]), ("Yanlış Doğru", [False, True]),
                                           ("1. YANLIŞ 2. DOĞRU", {1: False, 2: True})])
def test_turkish_true_false_replies_in_capitals_are_read(reply, values):
    assert _truth_values(reply, "tr")[0] == values


@pytest.mark.parametrize("a, b", [("ΛΑΘΟΣ", "λάθος".replace("ά", "α")), ("ΣΩΣΤΌ".lower(), "σωστό"), ("STRASSE", "straße"),
                                  ("KIRMIZI", "kırmızı"), ("İSTANBUL", "istanbul")])
def test_caseless_pairs(a, b):
    assert caseless(a) == caseless(b)


def test_caseless_keeps_other_letters_apart():
    assert caseless("Ağaç") != caseless("Agac")
    assert caseless("ş") != caseless("s")
