"""A lone option label misread as its script's look-alike (a key's answer cell) takes the label, from the
language data's `label_shapes`: Cyrillic small letters printed as small capitals (г for Г), Greek
polytonic omicrons for a δ whose ascender was read as a breathing mark. Running text is left alone."""
from __future__ import annotations

import pytest
from pydantic import ValidationError

from pipeline.extract.ocr.labels import label_case_cells, script_label_shapes
from pipeline.extract.ocr.words import Word
from pipeline.languages import label_lookalikes
from pipeline.languages.model import LabelShapes


def _line(*texts: str) -> list[Word]:
    return [Word(text, 90.0, 100 * i, 0, 100 * i + 60, 30, (1, 1, 1)) for i, text in enumerate(texts)]


def test_a_key_cell_read_as_a_look_alike_takes_its_label():
    greek = script_label_shapes(["ell"])
    assert [w.text for w in label_case_cells(_line("Στεφάνη", "5:", "ὃ"), ["α", "β", "γ", "δ"], greek)][-1] == "δ"
    assert [w.text for w in label_case_cells(_line("Στεφάνη", "5:", "ὃ"), ["Α", "Β", "Γ", "Δ"], greek)][-1] == "Δ"
    russian = script_label_shapes(["rus"])
    assert [w.text for w in label_case_cells(_line("Ответы", "1:", "г"), ["А", "Б", "В", "Г"], russian)][-1] == "Г"


def test_running_text_and_letters_of_other_shapes_are_left_alone():
    russian = script_label_shapes(["rus"])
    assert [w.text for w in label_case_cells(_line("живу", "в", "городе"), ["А", "Б", "В", "Г"], russian)] == ["живу", "в", "городе"]
    # а and б are no small capitals of А and Б: a lone "б" stays what it is.
    assert [w.text for w in label_case_cells(_line("1:", "б"), ["А", "Б", "В", "Г"], russian)] == ["1:", "б"]
    assert [w.text for w in label_case_cells(_line("1:", "ὃ"), ["A", "B", "C", "D"], script_label_shapes(["eng"]))] == ["1:", "ὃ"]


def test_label_shapes_map_one_character_to_another():
    with pytest.raises(ValidationError):
        LabelShapes(lookalikes={"ὃ": "δδ"})
    with pytest.raises(ValidationError):
        LabelShapes(same_shape="Г")


def test_a_label_alphabets_look_alikes_come_from_the_languages_that_print_its_letters():
    cyrillic = label_lookalikes(("а", "б", "в", "г"))
    assert cyrillic["6"] == "б" and cyrillic["B"] == "в"  # ru.yaml: `6)` for `б)`, a Latin `B)` for `в)`
    assert cyrillic["Г"] == "г"  # a same-shape small letter read as its capital
    assert label_lookalikes(("α", "β", "γ", "δ"))["ϐ"] == "δ"
    # Latin labels have none of them: a `6` or a `B` is no look-alike of `b` there.
    assert label_lookalikes(("a", "b", "c", "d")) == {}
    capitals = label_lookalikes(("А", "Б", "В", "Г"))
    assert capitals["6"] == "Б"  # б's look-alike is its capital's too
    assert "Г" not in capitals  # a capital label read as itself is no look-alike
    with pytest.raises(ValidationError):
        LabelShapes(marked_lookalikes={"6": "бб"})
