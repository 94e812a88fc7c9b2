"""Folding is for comparison only: a full-width sheet's records keep their text as printed (issue 25, the width seam).

Spec patterns, labels, numbers and sheet codes are compared with full-width forms folded (`pipeline.widths`). What
a record stores is the printed text: every full-width letter, digit and mark of a stem, an option and a shared
passage, through the curated Parquet and back. Two fields are identities, not text, and hold a plain form by
design: `number` (`問１２` is `12`, so ids, keys and truth files agree) and `answer` / `choice_labels` (the spec's
own labels: a key's `Ｂ` keys the label `B`). Runs of white space, the ideographic space among them, are one space
from extraction on, in every script (a text layer's words are joined by one space): `（　　）` is stored `（ ）`.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.devkit.sample.cjksheets import CJK_SPECS, WIDE_CAPITALS, CjkSet, chinese_gaokao, japanese_center
from pipeline.devkit.sample.pdfgen import cjk_font
from pipeline.records import questions_to_table, table_to_questions
from pipeline.specs import load_spec
from pipeline.widths import fold_width, has_wide
from tests.pipeline.parse.conftest import run_family

pytestmark = pytest.mark.skipif(cjk_font() is None, reason="fonts-noto-cjk is not installed")

FAMILIES = {
    "ja": ("ja_center_test", japanese_center, {}),
    "zh-wide": ("zh_gaokao_test", chinese_gaokao, {"labels": WIDE_CAPITALS}),
}


def wide_characters(text: str) -> list[str]:
    """The full-width characters of `text` in order, the ideographic space left out (white space, see above)."""
    return [ch for ch in text if ch != "\u3000" and has_wide(ch)]


@pytest.fixture(scope="module", params=sorted(FAMILIES))
def stored(request, tmp_path_factory):
    name, build, printing = FAMILIES[request.param]
    printed: CjkSet = build(Path(tmp_path_factory.mktemp("stored")) / "2031", **printing)
    result = run_family(load_spec(str(CJK_SPECS / f"{name}.yaml")), printed.sheet, [printed.key], {"year": "2031"})
    return printed, table_to_questions(questions_to_table(result.questions))  # as the curated Parquet holds them


def test_every_full_width_character_of_a_stem_and_its_options_is_stored_as_printed(stored):
    printed, questions = stored
    found = {q.number: q for q in questions}
    wide_seen = 0
    for number, truth in printed.expected().items():
        question = found[number]
        assert wide_characters(question.question) == wide_characters(truth.stem), number
        assert " ".join(question.question.split()) == " ".join(truth.stem.split()), number
        for option, text in zip(question.choices, truth.options, strict=True):
            assert wide_characters(option) == wide_characters(text), (number, option)
            assert " ".join(option.split()) == " ".join(text.split()), (number, option)
        wide_seen += len(wide_characters(truth.stem)) + sum(len(wide_characters(t)) for t in truth.options)
    assert wide_seen > 30, "the sheet prints full-width forms for the test to see"


def test_no_stored_text_field_is_its_folded_form_where_the_print_was_wide(stored):
    _, questions = stored
    texts = [text for q in questions for text in (q.question, q.context or "", *q.choices) if wide_characters(text)]
    assert texts and all(fold_width(text) != text for text in texts)


def test_numbers_and_answers_are_identities_in_their_plain_form(stored):
    printed, questions = stored
    found = {q.number: q for q in questions}
    assert all(number.isascii() for number in found), "問１２ is 12"
    for number, truth in printed.expected().items():
        if truth.answer is not None:
            question = found[number]
            assert question.answer in question.choice_labels
            assert fold_width(question.answer) == fold_width(truth.answer) or question.answer == truth.answer, number
