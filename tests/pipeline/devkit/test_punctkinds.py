"""The punctuation classes `misreads --punct` and `punctscans` count: each differing piece that holds a mark, once."""
from __future__ import annotations

from pipeline.devkit.punctkinds import classify, classify_words


def test_each_confusion_of_marks_counts_in_its_class():
    assert classify("Exterior, los", "Exterior. los") == {"comma→period": 1}
    assert classify("veršov; oboma", "veršov: oboma") == {"colon↔semicolon": 1}
    assert classify("experti; kamenia", "experti, kamenia") == {"colon/semicolon halved": 1}
    assert classify("„şubemizin”", ",şubemizin”") == {"quote↔comma": 1}
    assert classify("banana”", 'banana"') == {"quote style": 1}
    assert classify("ahoj – svet", "ahoj - svet") == {"dash style": 1}
    assert classify("1978?", "19787") == {"?/7": 1}
    assert classify("Vez!", "Vez1") == {"!/l/1": 1}
    assert classify("(STF), ao", "(STF) ao") == {"comma lost": 1}


def test_a_space_beside_a_mark_is_spacing_and_letters_alone_are_no_punctuation():
    assert classify("Civil, tendo", "Civil,tendo") == {"spacing": 1}
    assert classify("A los", "Alos") == {}
    assert classify("síndrome", "sindrome") == {}


def test_words_are_aligned_first_so_each_difference_counts_where_it_is():
    printed = "Prišiel domov, Peter ho čakal; koniec.".split()
    read = "Prišiel domov. Peter ho čakal: koniec".split()
    assert classify_words(printed, read) == {"comma→period": 1, "colon↔semicolon": 1, "period lost": 1}
