"""Word-level OCR repairs, on Tesseract words as its TSV gives them: pieces glued back, pictograms
dropped, question-number dots and Roman numerals restored, the widened pass's readings taken."""
from __future__ import annotations

import numpy as np

from pipeline.extract import Glyph
from pipeline.extract.ocr import Lexicon
from pipeline.extract.ocr.condensed import CONDENSED_BELOW, char_width, wide_readings
from pipeline.extract.ocr.labels import restore_question_numbers, roman_numerals
from pipeline.extract.ocr.noise import without_icons
from pipeline.extract.ocr.spelling import accents_read_twice, as_ellipsis, capital_accents, capitals_read_as_digits, dashes_by_width, join_overlapping_pieces, join_split_words, small_same_shape_capitals, split_glued_words, stray_inverted_marks
from pipeline.extract.ocr.typography import joined_words
from pipeline.extract.ocr.words import Word, line_sizes


def word(text: str, left: int, top: int = 100, *, width: int | None = None, height: int = 40, conf: float = 95.0,
         line: tuple[int, int, int] = (1, 1, 1)) -> Word:
    return Word(text, conf, left, top, left + (width if width is not None else 20 * len(text)), top + height, line)


def opening(first: str, top: int, *, left: int = 238, then: str | None = "Ktorá", then_left: int = 298) -> list[Word]:
    """A Tesseract line of its own at `top`: `first` at `left` (238 px = 57 pt, a question-number
    column at 300 dpi), then a word at `then_left`."""
    line = (top, 1, 1)
    return [word(first, left, top=top, line=line)] + ([word(then, then_left, top=top, line=line)] if then else [])


def texts(words: list[Word]) -> list[str]:
    return [w.text for w in words]


def test_a_closing_mark_read_apart_joins_the_word_before_it_even_from_another_pass():
    number = word("84", 100, line=(30001, 0, 0))  # read again from uncovered ink
    dot = word(".", 143, top=130, width=6, height=8, line=(4, 1, 2))
    stem = word("Gestante", 170, line=(4, 1, 2))
    assert texts(join_split_words([dot, stem, number])) == ["Gestante", "84."]


def test_words_that_touch_or_overlap_stay_apart():
    caron = [word("rozhodnosť", 100), word("a", 100 + 20 * 10 - 22)]  # the caron's box reaches into "a"
    spaced = [word("jazyk", 100), word("a", 104 + 20 * 5)]  # 4 px: a speck widened the box
    assert texts(join_split_words(caron)) == ["rozhodnosť", "a"]
    assert texts(join_split_words(spaced)) == ["jazyk", "a"]


def test_words_of_different_rows_are_never_joined():
    cells = [word("A", 300, top=100), word(".", 305, top=300, width=6, height=8)]
    assert texts(join_split_words(cells)) == ["A", "."]


def test_a_pictogram_read_as_letters_beside_a_heading_is_dropped():
    heading = [word("Zadanie", 295, top=302, height=36), word("4.", 482, top=303, height=34),
               word("(0-1)", 532, top=302, height=45)]
    icon = word("EJ", 658, top=294, height=55, conf=14)
    confident_capital = word("Ż", 700, top=290, height=55, conf=93)
    assert texts(without_icons([*heading, icon])) == ["Zadanie", "4.", "(0-1)"]
    assert texts(without_icons([*heading, confident_capital])) == ["Zadanie", "4.", "(0-1)", "Ż"]
    # With the page's ink: a pictogram fills its box, so it is dropped all the same.
    ink = np.zeros((400, 800), dtype=bool)
    ink[294:349, 658:698] = True
    assert texts(without_icons([*heading, icon], ink)) == ["Zadanie", "4.", "(0-1)"]


def test_a_short_word_in_a_box_taller_than_its_ink_is_no_pictogram():
    # ④ 31 포항시 루수 on a 150 dpi Korean scan: Tesseract boxed the two-syllable `루수` (confidence 79) 57 px tall with
    # the line's digits; its ink is 41 px, as tall as its line's words. Measured by its box alone it was dropped.
    line = [word("4", 320, top=2695, height=23, conf=97), word("31", 362, top=2683, height=57, conf=96),
            word("포항시", 390, top=2687, height=41, conf=79)]
    tall_box = word("루수", 561, top=2683, height=57, conf=79)
    ink = np.zeros((2800, 700), dtype=bool)
    ink[2687:2728, 565:628] = True
    assert texts(without_icons([*line, tall_box])) == ["4", "31", "포항시"]
    assert texts(without_icons([*line, tall_box], ink)) == ["4", "31", "포항시", "루수"]
    # A ring read as narrow marks in the same tall box (`2:`) is still dropped, whatever its ink.
    ring = word("2:", 561, top=2683, height=57, conf=33)
    assert texts(without_icons([*line, ring], ink)) == ["4", "31", "포항시"]
    # ... and so is a wide glyph read unsurely there (a syllable out of a line Tesseract left out).
    unsure = word("았", 561, top=2683, height=57, conf=12)
    assert texts(without_icons([*line, unsure], ink)) == ["4", "31", "포항시"]


def test_a_question_number_with_a_comma_gets_the_dot_of_its_neighbours():
    # 300 dpi: numbers at 57 pt (238 px), their text indented to 71.5 pt (298 px)
    lines = [
        opening("31.", 100, then="Varón"),
        opening("15,", 150, left=298, then="20", then_left=360),  # a number in wrapped text
        opening("32,", 200, then="¿Cuál"),
        opening("33.", 300, then=None),
        opening("34.", 400, then=None),
    ]
    fixed = texts(restore_question_numbers([w for line in lines for w in line]))
    assert fixed == ["31.", "Varón", "15,", "20", "32.", "¿Cuál", "33.", "34."]
    assert texts(restore_question_numbers([w for line in lines[1:3] for w in line])) == ["15,", "20", "32,", "¿Cuál"]


def test_strokes_read_as_l_become_roman_numerals():
    assert texts(roman_numerals([word(t, 10) for t in ("ll", "Il", "l", "I", "|", "lo", "11")])) == [
        "II", "II", "I", "I", "|", "lo", "11",
    ]


def test_the_widened_pass_mends_words_but_never_labels_or_numbers():
    first = [word("A.", 100), word("Sitaglipina", 150), word("Esofagostom", 400), word("ía", 620)]
    wide = [word("<>..", 98, width=42), word("Sitagliptina", 150), word("Esofagostomía", 400, width=260)]
    assert texts(wide_readings(first, wide)) == ["A.", "Sitagliptina", "Esofagostomía"]


def test_a_widened_word_covering_only_part_of_a_first_pass_word_changes_nothing():
    first = [word("Esofagostomia", 400)]
    wide = [word("Esofagostom", 400), word("ía", 400 + 20 * 11)]
    assert texts(wide_readings(first, wide)) == ["Esofagostomia"]


def test_condensed_type_is_told_by_its_letter_width():
    def line_of(width_per_char: float) -> list[Word]:
        # line ink height 40 px; a 6-letter word width_per_char font sizes per letter
        return [word("palabra", 60 * i, width=round(7 * 40 * width_per_char)) for i in range(12)]

    assert char_width(line_of(0.37)) < CONDENSED_BELOW <= char_width(line_of(0.46))
    assert char_width(line_of(0.37)[:3]) is None  # too few words to tell


def test_a_question_number_read_as_look_alike_letters_is_mended_between_its_neighbours():
    page = opening("49", 100) + opening("so", 200) + opening("51", 300) + opening("58", 400) + opening("s9", 500)
    assert texts(restore_question_numbers(page))[::2] == ["49", "50", "51", "58", "59"]
    # "so" opening a line where no neighbouring number stands is a word
    elsewhere = opening("10", 100) + opening("so", 200) + opening("11", 300) + opening("12", 400)
    assert texts(restore_question_numbers(elsewhere))[2] == "so"


def test_a_number_breaking_the_sequence_takes_the_one_confused_digit_that_fits():
    def row(number: str, top: int) -> list[Word]:  # a key table row: number, then its answer cell
        return opening(number, top, left=530, then="B", then_left=990)

    key = row("51", 100) + row("52", 160) + row("93", 220) + row("57", 280) + row("58", 340)
    assert texts(restore_question_numbers(key))[::2] == ["51", "52", "53", "57", "58"]
    # no single confused digit fits between 52 and 54 except 53, which is there: left as read
    crowded = row("52", 100) + row("53", 160) + row("98", 220) + row("54", 280)
    assert texts(restore_question_numbers(crowded))[::2] == ["52", "53", "98", "54"]


def test_a_label_letter_read_in_both_cases_is_the_label():
    from pipeline.extract.ocr.labels import label_case_cells

    cells = [word(t, 10, top=100 + 50 * i, line=(i, 1, 1)) for i, t in enumerate(("Cc", "cC", "c", "Co", "CC", "Ee"))]
    assert texts(label_case_cells(cells, ["A", "B", "C", "D"])) == ["C", "C", "C", "Co", "CC", "Ee"]
    # beside a number it is a key's cell; in running text a one-letter word is read as printed, in either case
    listed = [word("15.", 10, top=400, line=(8, 1, 1)), word("c", 80, top=400, line=(8, 1, 1))]
    assert texts(label_case_cells(listed, ["A", "B", "C", "D"])) == ["15.", "C"]
    prose = [word(t, 10 + 150 * i, top=500, line=(9, 1, 1)) for i, t in enumerate(("opción", "c", "de", "vitamina", "C"))]
    assert texts(label_case_cells(prose, ["A", "B", "C", "D"])) == ["opción", "c", "de", "vitamina", "C"]
    assert texts(label_case_cells(prose, ["a", "b", "c", "d"])) == ["opción", "c", "de", "vitamina", "C"]


def test_one_number_on_a_page_is_enough_to_mend_a_look_alike_beside_it():
    page = opening("49", 100, then="Ktoré") + opening("so", 300)
    assert texts(restore_question_numbers(page))[::2] == ["49", "50"]


def test_an_inverted_mark_on_an_i_without_its_closing_mark_is_the_dot_read_twice():
    line = [word("Cardiopatía", 10), word("¡isquémica", 300)]
    exclaimed = [word("¡increíble", 10, line=(3, 1, 1)), word("final!", 200, line=(3, 1, 1))]
    wrapped = [word("¡Hola", 10, line=(4, 1, 1)), word("amigo", 200, line=(4, 1, 1))]
    assert texts(stray_inverted_marks(line + exclaimed + wrapped)) == [
        "Cardiopatía", "isquémica", "¡increíble", "final!", "¡Hola", "amigo",
    ]


def _ink(width: int, height: int, bars: list[tuple[int, int]]) -> np.ndarray:
    """The ink of a white strip with black letter-sized bars at the given [start, end) columns."""
    ink = np.zeros((height, width), dtype=bool)
    for start, end in bars:
        ink[5 : height - 5, start:end] = True
    return ink


def test_a_one_letter_word_glued_on_is_split_where_the_image_shows_the_space():
    slovak = Lexicon({w: w for w in ("a", "v", "to", "je", "druhom", "ato")})
    # "ato": the "a", a space of 20 px (0.5 of the height), then "t" and "o" 3 px apart
    glued = word("ato", 0, top=0, width=60, height=40)
    image = _ink(200, 40, [(0, 12), (32, 44), (47, 60)])
    assert texts(split_glued_words([glued], image, slovak)) == ["a", "to"]
    # "Vdruhom." and "Jev" likewise, on either side; the boxes part at the space
    left = word("Vdruhom.", 0, top=0, width=120, height=40)
    parts = split_glued_words([left], _ink(200, 40, [(0, 12), (30, 40), (43, 60), (63, 80), (83, 100), (103, 120)]), slovak)
    assert texts(parts) == ["V", "druhom."] and parts[0].right == parts[1].left == 21
    right = word("Jev", 0, top=0, width=60, height=40)
    assert texts(split_glued_words([right], _ink(200, 40, [(0, 12), (15, 28), (48, 60)]), slovak)) == ["Je", "v"]


def test_letters_evenly_spaced_or_a_rest_the_lexicon_lacks_stay_one_word():
    words = Lexicon({w: w for w in ("a", "to", "s", "merný")})
    monospace = word("ato", 0, top=0, width=60, height=40)  # every gap as wide as the first: a typewriter face
    assert texts(split_glued_words([monospace], _ink(200, 40, [(0, 12), (24, 36), (48, 60)]), words)) == ["ato"]
    unknown = word("azz", 0, top=0, width=60, height=40)  # "zz" is no word
    assert texts(split_glued_words([unknown], _ink(200, 40, [(0, 12), (32, 44), (47, 60)]), words)) == ["azz"]


def test_three_dots_become_an_ellipsis_but_a_dotted_leader_stays():
    words = [word("vojak...?", 100), word("[...].", 300), word("......", 500), word("3.1.", 700)]
    assert texts(as_ellipsis(words)) == ["vojak…?", "[…].", "......", "3.1."]


def _letters(count: int, *, start: int = 0, pitch: int = 12, space_after: dict[int, int] | None = None) -> list[tuple[int, int]]:
    """Bars for `count` letters 9 px wide, `pitch` apart, with extra white after the letters named."""
    bars, x = [], start
    for i in range(count):
        bars.append((x, x + 9))
        x += pitch + (space_after or {}).get(i, 0)
    return bars


def test_two_known_words_glued_together_are_split_where_the_image_shows_the_space():
    spanish = Lexicon({w: w for w in ("menor", "secreción", "mayor", "liberación")})
    # "Menorsecreción" in a narrow face: letters 3 px apart, 10 px of white after the "r" (0.25 of the height)
    glued = word("Menorsecreción", 0, top=0, width=175, height=40)
    parts = split_glued_words([glued], _ink(220, 40, _letters(14, space_after={4: 7})), spanish)
    assert texts(parts) == ["Menor", "secreción"] and parts[0].right == parts[1].left


def test_a_glued_word_stays_whole_when_it_is_known_ambiguous_or_has_no_space():
    slovak = Lexicon({w: w for w in ("na", "navy", "vypracovanie", "pracovanie", "zná", "te", "znáte")})
    spaced = _ink(220, 40, _letters(14, space_after={1: 7}))
    # a two-letter part: "Na vypracovanie" is "Navy pracovanie" one letter off, and letter counts place a space only that well
    assert texts(split_glued_words([word("Navypracovanie", 0, top=0, width=175, height=40)], spaced, slovak)) == ["Navypracovanie"]
    # a known word is not split at a white narrower than a full word space (10 px, 0.25 of the height)
    known = _ink(220, 40, _letters(5, space_after={2: 7}))
    assert texts(split_glued_words([word("znáte", 0, top=0, width=70, height=40)], known, slovak)) == ["znáte"]
    even = _ink(220, 40, _letters(14))
    spanish = Lexicon({w: w for w in ("menor", "secreción")})
    assert texts(split_glued_words([word("Menorsecreción", 0, top=0, width=175, height=40)], even, spanish)) == ["Menorsecreción"]


def test_overlapping_pieces_of_an_unknown_word_are_one_word_but_a_known_word_keeps_its_neighbour():
    spanish = Lexicon({w: w for w in ("a", "rozhodnosť")})
    # Tesseract's box for the first piece reached over the second ("Coledocoduodenos" 345–728, "tomía" 641–731)
    cut = [word("A.", 297, width=32), word("Coledocoduodenos", 345, width=383), word("tomía", 641, width=90)]
    joined = join_overlapping_pieces(cut, spanish)
    assert texts(joined) == ["A.", "Coledocoduodenostomía"] and (joined[1].left, joined[1].right) == (345, 731)
    caron = [word("rozhodnosť", 100), word("a", 100 + 20 * 10 - 22)]  # a known word: the caron's box reaches on
    assert texts(join_overlapping_pieces(caron, spanish)) == ["rozhodnosť", "a"]
    speck = [word("uuumeuaue", 600, width=1500), word("aaa", 1100, width=80)]  # inside the first box: no word end
    assert texts(join_overlapping_pieces(speck, spanish)) == ["uuumeuaue", "aaa"]


def _word_with_marks(marks: list[tuple[int, int, int, int]]) -> np.ndarray:
    """The ink of "Ulcera" (rows 40–80, 6 letters 9 px wide, 12 px apart) with ink boxes (top, bottom, left, right) above."""
    ink = np.zeros((100, 200), dtype=bool)
    for start, end in _letters(6):
        ink[40:80, start:end] = True
    for top, bottom, left, right in marks:
        ink[top:bottom, left:right] = True
    return ink


def test_an_accent_left_outside_the_word_box_comes_back_on_its_capital():
    spanish = Lexicon({w: w for w in ("ulcera", "úlcera", "duodenal")})
    ulcera = Word("Ulcera", 90.0, 0, 40, 70, 80, (1, 1, 1))  # a line 40 px high: size 42
    accent = _word_with_marks([(30, 35, 3, 7)])  # 5 px above the "U", 5 px tall
    assert texts(capital_accents([ulcera], accent, spanish)) == ["Úlcera"]


def test_a_capital_keeps_its_reading_without_a_lone_mark_above_it_or_a_known_accented_form():
    spanish = Lexicon({w: w for w in ("ulcera", "úlcera", "sportu", "športu")})
    ulcera = Word("Ulcera", 90.0, 0, 40, 70, 80, (1, 1, 1))
    bare = _word_with_marks([])
    descender = _word_with_marks([(20, 35, 3, 7)])  # comes down from the window's top edge: the line above
    wide = _word_with_marks([(30, 35, 3, 40)])  # spans several letters: a rule, not an accent
    for image in (bare, descender, wide):
        assert texts(capital_accents([ulcera], image, spanish)) == ["Ulcera"]
    accented = Word("Športu", 90.0, 0, 40, 70, 80, (1, 1, 1))  # an accented capital is never un-accented
    assert texts(capital_accents([accented], _word_with_marks([(30, 35, 3, 7)]), spanish)) == ["Športu"]
    unknown = Lexicon({w: w for w in ("ulcera",)})
    assert texts(capital_accents([ulcera], _word_with_marks([(30, 35, 3, 7)]), unknown)) == ["Ulcera"]


def test_a_capital_read_as_a_digit_is_mended_only_into_a_known_word():
    slovak = Lexicon({w: w for w in ("ale", "ma", "ešte")})
    words = [word("„4le", 100), word("ma", 200), word("4ma", 300), word("B12", 400), word("5xyz", 500), word("40", 600)]
    assert texts(capitals_read_as_digits(words, slovak)) == ["„Ale", "ma", "4ma", "B12", "5xyz", "40"]


def _glyphs(*words: str) -> list[Glyph]:
    """Word glyphs in a row; a word written **so** is bold."""
    return [Glyph(w.strip("*"), 10.0 * i, 0.0, 10.0 * i + 8, 10.0, 10.0, bold=w.startswith("**")) for i, w in enumerate(words)]


def test_bold_words_in_a_regular_line_are_marked_with_their_punctuation_outside():
    assert joined_words(_glyphs("Neznamená", "to", "**však,", "že", "podoby")) == "Neznamená to **však**, že podoby"
    line = _glyphs("Strieborné", "mesto", "leží", "v", "okolí", "**Medeného", "**mesta", "na", "Slovensku.")
    assert joined_words(line) == "Strieborné mesto leží v okolí **Medeného mesta** na Slovensku."


def test_a_line_mostly_bold_is_a_bold_line_without_marks():
    # "v" and "Spáč" measured regular in a bold title: too short, or a stem thinner than the rest
    assert joined_words(_glyphs("**Jean", "**Arthur", "**Rimbaud:", "Spáč", "v", "**údolí")) == "Jean Arthur Rimbaud: Spáč v údolí"


def test_a_glued_part_of_two_letters_is_split_only_at_the_white_of_a_space_between_words():
    spanish = Lexicon({w: w for w in ("en", "las", "es", "una")})
    # "Enlas": letters 3 px apart, 16 px of white after "En" (0.4 of the height, as on the Spanish scan)
    parts = split_glued_words([word("Enlas", 0, top=0, width=70, height=40)], _ink(220, 40, _letters(5, space_after={1: 13})), spanish)
    assert texts(parts) == ["En", "las"] and parts[0].right == parts[1].left
    # 10 px (0.25 of the height) is enough between two long words, not beside a two-letter one
    narrow = _ink(220, 40, _letters(5, space_after={1: 7}))
    assert texts(split_glued_words([word("Esuna", 0, top=0, width=70, height=40)], narrow, spanish)) == ["Esuna"]


def test_a_known_word_is_split_only_where_every_letter_stands_apart_and_one_white_is_a_word_space():
    spanish = Lexicon({w: w for w in ("en", "el", "enel")})  # "Enel" is a name in Tesseract's Spanish list
    # letters 3 px apart, 20 px of white after "En" (0.5 of the height, as Tesseract glued "En el")
    spaced = _ink(220, 40, _letters(4, space_after={1: 17}))
    parts = split_glued_words([word("Enel", 0, top=0, width=64, height=40)], spaced, spanish)
    assert texts(parts) == ["En", "el"] and parts[0].right == parts[1].left
    # 12 px (0.3 of the height) would split an unknown pair, not a known word
    narrower = _ink(220, 40, _letters(4, space_after={1: 9}))
    assert texts(split_glued_words([word("Enel", 0, top=0, width=56, height=40)], narrower, spanish)) == ["Enel"]
    # "e" and "l" touching: the white's place among the letters is no longer known
    touching = _ink(220, 40, [(0, 9), (12, 21), (41, 50), (50, 59)])
    assert texts(split_glued_words([word("Enel", 0, top=0, width=59, height=40)], touching, spanish)) == ["Enel"]


def test_a_number_is_parted_from_its_sign_or_unit_only_where_the_print_shows_a_word_space():
    nothing = Lexicon({})
    # "64,15%": glyphs 3-5 px apart, 15 px of white before the "%" (0.47 of a 32 px height)
    spaced_unit = _ink(220, 32, [(0, 9), (12, 21), (24, 26), (30, 39), (42, 51), (66, 80)])
    parts = split_glued_words([word("64,15%", 0, top=0, width=80, height=32)], spaced_unit, nothing)
    assert texts(parts) == ["64,15", "%"] and (parts[0].right, parts[1].left) == (51, 66)  # boxes end at the ink
    # "-1,93": 16 px after the sign, whose box keeps the hyphen's own width (not a dash's)
    spaced_sign = _ink(220, 32, [(0, 8), (24, 30), (35, 37), (41, 50), (54, 63)])
    parts = split_glued_words([word("-1,93", 0, top=0, width=63, height=32)], spaced_sign, nothing)
    assert texts(parts) == ["-", "1,93"] and texts(dashes_by_width(parts)) == ["-", "1,93"]
    # "50%" printed tight (English typography) stays one word; so does a gap no wider than the number's own
    tight = _ink(220, 32, [(0, 9), (12, 21), (25, 39)])
    assert texts(split_glued_words([word("50%", 0, top=0, width=39, height=32)], tight, nothing)) == ["50%"]
    uneven = _ink(220, 32, [(0, 9), (23, 32), (46, 60)])  # 14 px before "%", but 14 px inside the number too
    assert texts(split_glued_words([word("41%", 0, top=0, width=60, height=32)], uneven, nothing)) == ["41%"]


def test_a_line_of_capitals_or_of_small_letters_alone_is_sized_by_the_height_those_letters_have():
    # A key's rows "2." and "a" read as lines of their own: 26 px of digits (cap height) and 21 px of
    # an "a" (x-height) are one font size, not an "a" a fifth smaller (dropped as a margin note).
    sizes = line_sizes([word("2.", 100, height=26, line=(1, 1, 1)), word("a", 200, height=21, line=(2, 1, 1)),
                        word("do", 300, height=28, line=(3, 1, 1))])
    assert 0.85 < sizes[(2, 1, 1)] / sizes[(1, 1, 1)] < 1.25
    assert sizes[(3, 1, 1)] == 28 / 0.95  # "d" has an ascender: measured as any line of text


def test_a_same_shape_capital_no_taller_than_the_small_letters_mid_sentence_becomes_small():
    def letters(tops: list[int]) -> np.ndarray:
        """A word box of 40 px: letters 14 px wide, 4 px apart, their ink from `top` down to the baseline."""
        ink = np.zeros((40, 300), dtype=bool)
        for at, top in enumerate(tops):
            ink[top:35, 100 + 18 * at : 114 + 18 * at] = True
        return ink

    para = word("para", 0, top=0, width=80)
    same_height = letters([15, 15])  # "Os" as read, both letters x-height high: printed "os"
    assert texts(small_same_shape_capitals([para, word("Os", 100, top=0, width=32)], same_height)) == ["para", "os"]
    capital = letters([5, 15])  # the O a cap height tall: printed "Os"
    assert texts(small_same_shape_capitals([para, word("Os", 100, top=0, width=32)], capital)) == ["para", "Os"]
    # a sentence's first word, a word after a full stop, or one with a letter above the x-height stay as read
    assert texts(small_same_shape_capitals([word("Os", 100, top=0, width=32)], same_height)) == ["Os"]
    assert texts(small_same_shape_capitals([word("fim.", 0, top=0, width=80), word("Os", 100, top=0, width=32)], same_height)) == ["fim.", "Os"]
    assert texts(small_same_shape_capitals([para, word("Ol", 100, top=0, width=32)], same_height)) == ["para", "Ol"]


def test_a_number_glued_to_a_word_is_split_where_the_image_shows_the_space():
    lexicon = Lexicon({w: w for w in ("questão",)})
    # "QUESTÃO77": seven letters 14 px wide and 3 px apart, a 20 px space (0.5 of the height), two digits
    letters = [(17 * i, 17 * i + 14) for i in range(7)]
    spaced = _ink(300, 40, letters + [(136, 150), (153, 167)])
    parts = split_glued_words([word("QUESTÃO77", 0, top=0, width=167, height=40)], spaced, lexicon)
    assert texts(parts) == ["QUESTÃO", "77"] and parts[0].right == 116 and parts[1].left == 136
    # a code printed tight keeps its digits
    tight = _ink(300, 40, letters + [(119, 133), (136, 150)])
    assert texts(split_glued_words([word("ADAMTS13", 0, top=0, width=150, height=40)], tight, lexicon)) == ["ADAMTS13"]


def test_an_accented_vowel_read_again_bare_after_itself_loses_the_bare_one():
    lexicon = Lexicon({"fíi": "fíi"})  # a made-up known word with the doubled vowel
    words = [word("Colposcopíia", 0), word("Ultrasonografía", 300), word("zoólogo", 600), word("idée", 900), word("Fíi", 1200)]
    # "oó" (bare then accented), a French "ée" and a word the lexicon knows stay as read
    assert texts(accents_read_twice(words, lexicon)) == ["Colposcopía", "Ultrasonografía", "zoólogo", "idée", "Fíi"]
    assert texts(accents_read_twice([word("Sandíia", 0), word("Tomográafo", 300)], None)) == ["Sandía", "Tomográfo"]
