"""A word Tesseract split in two where the ink shows no space (`certainty.split_words`, `CertaintyPolicy.split_gap`):
its pieces' boxes touch and Tesseract gave them one confidence, for it read them as one word and put a space inside."""
from __future__ import annotations

from dataclasses import replace

from pipeline.devkit.splitscans import DPI, count, invented_words, scanned_page
from pipeline.extract.ocr import OcrSettings, read_page
from pipeline.extract.ocr.certainty import CertaintyPolicy, split_words
from pipeline.extract.ocr.lexicon import Lexicon
from pipeline.extract.ocr.page import lay_out_page
from pipeline.extract.ocr.reading import PageReading, ReadWord
from tests.pipeline.extract.ocr.builders import needs_tesseract

SHARE = CertaintyPolicy().split_gap


def _words(*pieces: tuple[str, int, int, float]) -> list[tuple[str, float, float, float, float | None]]:
    """(text, left, right, confidence) at a line's ink size of 43 px (a Russian sheet at 150 dpi)."""
    return [(text, left, right, 43.2, conf) for text, left, right, conf in pieces]


def test_pieces_that_touch_and_share_one_confidence_are_a_split_word():
    # `Запзах` printed, read `Зап зах` (a Russian sheet at 150 dpi): the boxes meet, both pieces 92.3; word spaces 17-19 px.
    line = _words(("знаниях", 537, 712, 97.0), ("шнека", 731, 869, 93.3), ("Зап", 886, 965, 92.3), ("зах", 965, 1032, 92.3))
    assert split_words(line, SHARE) == [False, False, True, True]


def test_a_word_space_or_two_confidences_is_no_split():
    spaced = _words(("Зап", 886, 965, 92.3), ("зах", 982, 1049, 92.3))  # a space of 17 px: two words
    assert split_words(spaced, SHARE) == [False, False]
    judged_apart = _words(("Conforme", 286, 498, 96.5), ("a", 498, 520, 96.6))  # set close, but read as two words
    assert split_words(judged_apart, SHARE) == [False, False]
    numbers = _words(("12", 286, 330, 92.0), ("34", 330, 374, 92.0))  # no letters: a number's gaps are judged elsewhere
    assert split_words(numbers, SHARE) == [False, False]


def test_two_known_words_that_joined_are_none_are_not_judged_but_pieces_of_a_known_word_or_of_no_word_are():
    lexicon = Lexicon({w: w for w in ("cuanto", "a", "sal", "sala", "que", "знаниях")})
    assert split_words(_words(("cuanto", 286, 420, 96.6), ("a", 418, 440, 96.6)), SHARE, lexicon) == [False, False]
    assert split_words(_words(("sal", 286, 350, 96.6), ("a", 350, 372, 96.6)), SHARE, lexicon) == [True, True]  # `sala`
    assert split_words(_words(("q", 286, 306, 93.3), ("ue", 306, 350, 93.3)), SHARE, lexicon) == [True, True]  # `que`
    # The spelling dictionaries judge where the language has them (Tesseract's lists hold fragments: `зап`, `зах`).
    spelled = {"зап", "шнека"}.__contains__
    line = _words(("Зап", 886, 965, 92.3), ("зах", 965, 1032, 92.3))
    assert split_words(line, SHARE, Lexicon({"зап": "зап", "зах": "зах"}), spelled) == [True, True]


def test_pieces_of_wide_glyphs_are_left_to_their_pitch():
    # Hangul words read apart at a narrow space: `wide-glyph-gaps` told them apart by the syllables' pitch.
    assert split_words(_words(("만채", 286, 380, 97.0), ("능동적", 380, 520, 97.0)), SHARE) == [False, False]


def test_off_judges_nothing():
    line = _words(("Зап", 886, 965, 92.3), ("зах", 965, 1032, 92.3))
    assert split_words(line, 0.0) == [False, False]


def test_a_laid_out_line_names_both_pieces_among_its_unsure_words():
    def word(text: str, left: int, right: int, conf: float) -> ReadWord:
        return ReadWord(text, left, 2170, right, 2203, size=43.2, line=(9, 1, 1), conf=conf)
    words = (word("водила", 367, 518, 96.8), word("знаниях", 537, 712, 97.0), word("шнека", 731, 869, 93.3),
             word("Зап", 886, 965, 92.3), word("зах", 965, 1032, 92.3))
    settings = OcrSettings(languages=("rus",))
    page = lay_out_page(PageReading(2480, 3508, words, confidence=90.0), settings, page_number=1, width_pt=595.0, height_pt=842.0)
    [line] = page.lines
    assert {"Зап", "зах"} <= set(line.unsure_words) and "шнека" not in line.unsure_words
    spaced = tuple(w if w.text != "зах" else ReadWord("зах", 982, 2170, 1049, 2203, size=43.2, line=(9, 1, 1), conf=92.3)
                   for w in words)
    page = lay_out_page(PageReading(2480, 3508, spaced, confidence=90.0), settings, page_number=1, width_pt=595.0, height_pt=842.0)
    [line] = page.lines
    assert not {"Зап", "зах"} & set(line.unsure_words)


SEED = 2  # a Spanish page of `splitscans` on which Tesseract splits words; any seed's page is judged the same way


@needs_tesseract("spa")
def test_words_tesseract_splits_on_a_generated_scan_are_unsure_and_no_other_word_is(tmp_path):
    """Invented words of two short listed words run together (`splitscans`), printed in Spanish prose type and scanned at
    150 dpi: Tesseract reads some of them as their two halves, touching and of one confidence."""
    printed = invented_words("spa", SEED)
    image = scanned_page(tmp_path, printed, SEED)
    settings = OcrSettings(languages=("spa",), dpi=DPI)
    reading = read_page(image, settings, page_number=1)
    found = count(reading, printed, settings)
    assert found.split >= 2, [w.text for w in reading.words]  # the premise: Tesseract splits words of this page
    assert found.caught == found.split and found.judged_otherwise == 0
    # Without the rule, some piece is no unsure word: it is the rule that catches them.
    assert count(reading, printed, replace(settings, certainty=CertaintyPolicy(split_gap=0.0))).caught < found.split
