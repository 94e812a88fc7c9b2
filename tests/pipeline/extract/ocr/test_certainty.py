"""Which OCR'd words count as unsure (`extract.ocr.certainty`), and how that reaches the laid-out lines:
Tesseract's confidence kept on each word of a reading, the line's lowest confidence and its unsure words
on every OCR'd line, through the extracted document's JSON and back."""
from __future__ import annotations

from dataclasses import replace

from pipeline.extract import ExtractedDocument, Page, PageMethod
from pipeline.extract.ocr import OcrSettings, PageReading, lay_out_page
from pipeline.extract.ocr.certainty import CertaintyPolicy, mixed_characters, small_digits, unsure_reason, unsure_words
from pipeline.extract.ocr.lexicon import Lexicon
from pipeline.extract.ocr.reading import ReadWord

LEXICON = Lexicon({w: w for w in ("casa", "de", "la", "opción", "μέλλοντα", "книга", "dos")})


def test_a_confident_word_is_sure_and_a_word_under_the_threshold_is_not_unless_the_lexicon_vouches_for_it():
    assert unsure_reason("opción", 95.0, LEXICON) is None
    assert unsure_reason("opcióm,", 30.0, LEXICON) == "low confidence"
    # A known word read unsurely: Tesseract's Greek model says 0 of words it reads right.
    assert unsure_reason("opción,", 30.0, LEXICON) is None and unsure_reason("μέλλοντα", 0.0, LEXICON) is None
    assert unsure_reason("opción", 30.0, LEXICON, CertaintyPolicy(known_sure_from=0)) == "low confidence"
    assert unsure_reason("dos", 30.0, LEXICON, CertaintyPolicy(known_sure_from=4)) == "low confidence"  # too short to vouch for
    assert unsure_reason("—", 5.0, LEXICON) is None  # punctuation carries no text to get wrong
    assert unsure_reason("casa", None, LEXICON) is None and unsure_reason("casa", -1.0, LEXICON) is None  # no confidence given


def test_an_unknown_word_is_unsure_when_read_with_middling_confidence_where_the_policy_says_so():
    judging = CertaintyPolicy(unknown_below=80.0)
    assert unsure_reason("keufemizmo", 70.0, LEXICON, judging) == "unknown word"
    assert unsure_reason("keufemizmo", 70.0, LEXICON) is None  # off by default: names and terms the list lacks
    assert unsure_reason("Kowalski", 96.0, LEXICON, judging) is None  # a name the list lacks, read confidently
    assert unsure_reason("xy", 70.0, LEXICON, judging) is None  # too short to judge by the list
    assert unsure_reason("keufemizmo", 70.0, None, judging) is None  # no word list installed: confidence alone


def test_a_one_letter_word_glued_to_a_known_word_is_unsure_whatever_the_confidence():
    lexicon = Lexicon({"k": "k", "eufemizmom": "eufemizmom", "y": "y", "las": "las", "alas": "alas"})
    assert unsure_reason("keufemizmom", 96.0, lexicon) == "a one-letter word glued to the next"
    assert unsure_reason("ylas", 96.0, lexicon) == "a one-letter word glued to the next"
    assert unsure_reason("alas", 96.0, lexicon) is None  # a known word stays sure however it splits


def test_digits_among_letters_two_scripts_and_symbols_in_a_word_are_confusions_in_any_script():
    assert mixed_characters("pa1abra") == "a digit between letters"
    assert mixed_characters("el7") == "a digit beside a look-alike letter"
    assert mixed_characters("l0") == "a digit beside a look-alike letter"
    assert mixed_characters("5ome") == "digits glued to a word"
    assert mixed_characters("1l") == "a digit beside a look-alike letter"
    assert mixed_characters("εισδοχής2") == "digits glued to a word"
    assert mixed_characters("μέλλoντα") == "two scripts in one word"  # a Latin o inside a Greek word
    assert mixed_characters("кнuга") == "two scripts in one word"  # a Latin u inside a Cyrillic word
    assert mixed_characters("©asa") == "a symbol inside a word"
    assert mixed_characters("194]") == "a bracket without its pair"  # 1941
    assert mixed_characters("[12]") is None and mixed_characters("(b)") is None
    for fine in ("2024", "10km", "x2", "3a", "2do", "R1", "μέλλοντα", "книга", "İstanbul", "Việt"):
        assert mixed_characters(fine) is None, fine
    assert unsure_reason("el7", 96.0, LEXICON) == "a digit beside a look-alike letter"  # whatever Tesseract's confidence
    assert unsure_reason("el7", 96.0, LEXICON, CertaintyPolicy(mixed_characters=False)) is None


def test_an_identifier_of_capitals_and_digits_is_printed_so_in_any_script_but_a_misread_stays_unsure():
    for identifier in ("FAT32", "FAT16", "MP3", "COVID19", "IPv6", "H2O", "C6H12O6", "CO2", "ISO9001", "W3C",
                       "ΦΕΚ12", "ΑΔΑ2", "СССР2", "ГОСТ7"):
        assert mixed_characters(identifier) is None, identifier
        assert unsure_reason(identifier + ",", 95.0, LEXICON) is None, identifier
    # What the rule exists for, in capitals too: a digit for a letter or a mark, a number misread as letters.
    assert mixed_characters("ΕΙΣΔΟΧΗΣ2") == "digits glued to a word"  # a word set in capitals, not an acronym
    assert mixed_characters("PR0BLEM") == "a digit between letters"
    assert mixed_characters("ZO19") == "a digit beside a look-alike letter"  # 2019
    assert mixed_characters("SO2") == "a digit beside a look-alike letter"  # both capitals look like digits
    assert mixed_characters("B12") == "a digit beside a look-alike letter"  # one capital is no acronym
    assert mixed_characters("Il2") == "a digit beside a look-alike letter"
    assert mixed_characters("IPl6") == "digits glued to a word"  # a small l among capitals is a 1 or an I
    assert mixed_characters("el7") == "a digit beside a look-alike letter"
    assert mixed_characters("εισδοχής2") == "digits glued to a word"


def test_a_word_the_lexicon_knows_with_i_and_l_swapped_is_unsure():
    lexicon = Lexicon({"lśniącej": "lśniącej", "ile": "ile"})
    assert unsure_reason("Iśniącej", 96.0, lexicon) == "I and l confused"
    assert unsure_reason("lśniącej", 96.0, lexicon) is None


def test_an_acronym_of_capitals_is_not_an_i_and_l_confusion_but_the_second_reader_still_reads_it_again():
    """`IANA` (INAP 2024) is `lana` with its I swapped, but a small l among capitals is no word's spelling."""
    lexicon = Lexicon({"lana": "lana", "lśniącej": "lśniącej"})
    assert unsure_reason("(IANA).", 96.0, lexicon) is None
    assert unsure_reason("IANA", 96.0, lexicon, CertaintyPolicy(swap_in_capitals=True)) == "I and l confused"
    assert unsure_reason("Iśniącej", 96.0, lexicon) == "I and l confused"  # a capital I before small letters


def test_a_glued_one_letter_word_needs_a_rest_the_spelling_dictionaries_know_where_they_are_asked():
    """`accb` (INAP 2024, a code printed so) is `a` and `ccb`, a fragment of Tesseract's Spanish list; the dictionaries
    know no `ccb`. `afiguram` is `a figuram`, a word they know."""
    from pipeline.extract.ocr.certainty import spelled_for
    from pipeline.languages import language

    spelled = spelled_for(("spa",))
    assert spelled is not None
    letters = tuple(language("es").text_quality.misread_letters.items())
    lexicon = Lexicon({w: w for w in ("a", "ccb", "figuran", "casa")}, letters)
    glued = "a one-letter word glued to the next"
    assert unsure_reason("accb", 96.0, lexicon, spelled=spelled) is None
    assert unsure_reason("afiguran", 96.0, lexicon, spelled=spelled) == glued
    assert unsure_reason("accb", 96.0, lexicon) == glued  # no dictionary asked: the lexicon alone
    assert unsure_reason("accb", 96.0, Lexicon(dict(lexicon.words)), spelled=spelled) == glued  # a language no rule asks one for


def test_a_disabled_policy_judges_no_word_unsure():
    assert unsure_words([("casa", 10.0), ("el7", 90.0)], LEXICON, CertaintyPolicy(enabled=False)) == []
    assert unsure_words([("cosa", 10.0), ("el7", 90.0), ("dos", 96.0)], LEXICON) == ["cosa", "el7"]


def _word(text: str, left: int, conf: float | None) -> ReadWord:
    return ReadWord(text, left, 100, left + 20 * len(text), 140, size=40.0, line=(1, 1, 1), conf=conf)


def test_laid_out_lines_keep_their_lowest_confidence_and_unsure_words_through_the_document_json():
    reading = PageReading(2000, 2800, (_word("1.", 100, 91.0), _word("Casa", 160, 96.0), _word("dc1", 260, 35.5),
                                       _word("la", 340, 93.0)), confidence=80.0)
    page = lay_out_page(reading, OcrSettings(languages=("spa",)), page_number=1, width_pt=595.0, height_pt=842.0)
    [line] = page.lines
    assert line.text == "1. Casa dc1 la"
    assert (line.ocr_confidence, line.unsure_words) == (35.5, ["dc1"])
    document = ExtractedDocument("0" * 64, "scan.pdf", 1, [page, Page(2, 595, 842, PageMethod.TEXT)], "test")
    again = ExtractedDocument.from_json(document.to_json())
    assert again.pages[0].lines[0].ocr_confidence == 35.5 and again.pages[0].lines[0].unsure_words == ["dc1"]
    assert PageReading.from_json(reading.to_json()) == reading  # the confidence is cached with each word


def test_a_reading_cached_before_confidences_were_kept_judges_no_word_by_confidence():
    old = PageReading.from_json('{"image_width": 100, "image_height": 100, "confidence": 90, "words": [{"text": "casa", '
                                '"left": 1, "top": 1, "right": 40, "bottom": 20, "size": 19.0, "line": [1, 1, 1]}]}')
    page = lay_out_page(old, OcrSettings(languages=("spa",)), page_number=1, width_pt=100.0, height_pt=100.0)
    assert (page.lines[0].ocr_confidence, page.lines[0].unsure_words) == (None, [])


def test_a_word_of_small_letters_no_dictionary_knows_is_unsure_only_where_the_policy_asks_it():
    """Both engines read `supenores` alike on INAP 2024 at 150 dpi; the rule ships off (`unknown_to_all_from`: it
    flagged a medical sheet's terms), and on it judges only small-letter words neither list knows."""
    from pipeline.extract.ocr.certainty import spelled_for

    spelled = spelled_for(("spa",))
    assert spelled is not None and spelled("superiores") and not spelled("supenores")
    lexicon = Lexicon({"superiores": "superiores"})
    on = CertaintyPolicy(unknown_to_all_from=4)
    assert unsure_reason("supenores.", 91.8, lexicon, on, second="supenores.", spelled=spelled) == "no dictionary knows it"
    assert unsure_reason("supenores.", 91.8, lexicon, CertaintyPolicy(), second="supenores.", spelled=spelled) is None
    assert unsure_reason("superiores.", 91.8, lexicon, on, spelled=spelled) is None
    assert unsure_reason("Gutiérrez", 91.8, lexicon, on, spelled=spelled) is None  # a name: capitalised


def test_a_word_no_dictionary_knows_that_is_known_with_letters_blur_joins_put_back_is_unsure():
    """`Ministeno`, `supenores`, `difendas`: INAP 2024 at 150 dpi, `ri` read `n` by both engines and confidently. The
    letters come from the language data (`text_quality.misread_letters`); the spelling dictionaries judge the word as
    read (Tesseract's lists hold odd spellings), the lexicon or the dictionaries the word it would be."""
    from pipeline.extract.ocr.certainty import spelled_for
    from pipeline.languages import language

    spelled = spelled_for(("spa",))
    assert spelled is not None
    letters = tuple(language("es").text_quality.misread_letters.items())
    assert ("ri", "n") in letters
    lexicon = Lexicon({w: w for w in ("ministerio", "superiores", "de")}, letters)
    reason = "known with letters blur joins apart"
    assert unsure_reason("Ministeno", 96.0, lexicon, spelled=spelled) == reason
    assert unsure_reason("supenores.", 91.8, lexicon, second="supenores.", spelled=spelled) == reason  # read alike: still
    assert unsure_reason("difendas.", 89.3, lexicon, spelled=spelled) == reason  # `diferidas`: the dictionary knows it
    assert unsure_reason("Ministerio", 96.0, lexicon, spelled=spelled) is None
    assert unsure_reason("Ministeno", 96.0, lexicon, CertaintyPolicy(misread_letters=False), spelled=spelled) is None
    assert unsure_reason("Ministeno", 96.0, Lexicon(dict(lexicon.words)), spelled=spelled) is None  # a language without them
    assert unsure_reason("tiroiditis", 96.0, lexicon, spelled=spelled) is None  # a term no list knows, no confusion in it
    # A word Tesseract's list knows is no misreading, though the dictionaries lack it and know it with `cl` for `d`.
    english = spelled_for(("eng",))
    assert english is not None and english("clonk") and not english("donk")
    assert unsure_reason("donk", 96.0, Lexicon({"de": "de"}, letters), spelled=english) == reason
    assert unsure_reason("donk", 96.0, Lexicon({"donk": "donk"}, letters), spelled=english) is None


def test_a_word_known_with_a_diacritic_more_is_unsure_only_where_the_policy_asks_it():
    """`Geografia`, `fisica` (INAP 2024 at 150 dpi): off as shipped, for a sheet may print words without their accents."""
    from pipeline.extract.ocr.certainty import spelled_for

    spelled = spelled_for(("spa",))
    lexicon = Lexicon({w: w for w in ("geografía", "geografia", "física", "theo")})
    on = CertaintyPolicy(lost_marks=True)
    assert unsure_reason("Geografia", 73.6, lexicon, on, spelled=spelled) == "known with a diacritic more"
    assert unsure_reason("Geografia", 73.6, lexicon, spelled=spelled) is None
    assert unsure_reason("Geografía", 73.6, lexicon, on, spelled=spelled) is None
    assert unsure_reason("Théo", 96.9, lexicon, on, spelled=spelled) is None  # a mark more than the known word: a name
    assert unsure_reason("FISICA", 96.0, lexicon, on, spelled=spelled) is None  # capitals are often printed without them


def test_an_ordinal_indicator_is_no_second_script():
    assert mixed_characters("nº") is None and mixed_characters("1ª") is None
    assert mixed_characters("κaι") == "two scripts in one word"


def test_a_language_without_misread_letters_asks_no_spelling_dictionary():
    """Korean's dictionary (hunspell-ko) knows every word of Latin letters, the checker's sentinel among them, so it is
    asked nothing where no rule needs it; the word rules as shipped need it only for `misread_letters`."""
    asked: list[str] = []

    def spelled(word: str) -> bool:
        asked.append(word)
        return False
    korean = Lexicon({"학교": "학교"})
    assert unsure_reason("학교에서는", 96.0, korean, spelled=spelled) is None
    assert unsure_reason("Ministeno", 96.0, korean, spelled=spelled) is None
    assert asked == []
    unsure_reason("Ministeno", 96.0, Lexicon({"de": "de"}, (("ri", "n"),)), spelled=spelled)
    assert asked  # a language with them asks


# --------------------------------------------------------------------------- a digit smaller than its line's words

# The heights (pixels at 300 dpi) of a line of INAP 2024 rasterised at 200 dpi (blur 0.6, JPEG 80, grain 0.02), where a
# speck between two words was read as `1` (printed: `conforme a la legislación`).
INAP_LINE = [("a)", 35), ("Los", 28), ("documentos", 28), ("que,", 28), ("conforme", 29), ("a", 45), ("1", 19), ("la", 28),
             ("legislación", 36), ("sectorial", 28), ("vigente,", 36), ("deban", 28), ("ser", 21), ("sometidos", 28)]


def test_a_lone_digit_shorter_than_its_lines_words_is_unsure_and_one_as_tall_as_they_are_is_not():
    share = CertaintyPolicy().small_digits
    assert [text for (text, _), small in zip(INAP_LINE, small_digits(INAP_LINE, share)) if small] == ["1"]
    printed = [("De", 28), ("acuerdo", 35), ("con", 21), ("el", 28), ("artículo", 35), ("7", 28), ("de", 28), ("la", 28)]
    assert not any(small_digits(printed, share))  # a number as tall as the line's capitals and ascenders
    # A Slovak line of `ocrcertainty`'s symbol families (150 dpi): words with diacritics stand taller than a digit.
    slovak = [("B)", 37), ("44", 31), ("súmerný", 43), ("rajónu", 42), ("platňou", 41), ("skúšobným", 43), ("predposledné", 42)]
    assert not any(small_digits(slovak, share))
    assert not any(small_digits([("artículo", 35), ("7", 19)], share))  # too few words to judge by
    assert not any(small_digits(INAP_LINE, 0.0))  # off
    assert not any(small_digits([(t, h) if t != "1" else ("1.", 19) for t, h in INAP_LINE], share))  # not a number alone


def test_a_laid_out_line_holding_a_small_lone_digit_names_it_among_its_unsure_words():
    def word(text: str, left: int, height: int) -> ReadWord:
        return ReadWord(text, left, 300 + 40 - height, left + 24 * len(text), 340, size=40.0, line=(1, 1, 1), conf=95.0)
    left, words = 100, []
    for text, height in INAP_LINE[1:]:
        words.append(word(text, left, height))
        left += 24 * len(text) + 20
    page = lay_out_page(PageReading(2480, 3508, tuple(words), confidence=90.0), OcrSettings(languages=("spa",)), page_number=1,
                        width_pt=595.0, height_pt=842.0)
    [line] = page.lines
    assert "1" in line.unsure_words
    quiet = replace(OcrSettings(languages=("spa",)), certainty=CertaintyPolicy(small_digits=0.0))
    [line] = lay_out_page(PageReading(2480, 3508, tuple(words), confidence=90.0), quiet, page_number=1, width_pt=595.0,
                          height_pt=842.0).lines
    assert "1" not in line.unsure_words


def test_a_second_reading_that_glues_the_lines_words_where_print_sets_a_space_counts_as_read_alike():
    # The second reader read `Outlook 365.` as one word; aligned, each of Tesseract's two words got the stretch.
    assert unsure_words([("Microsoft", 96.0, "Microsoft"), ("Outlook", 96.4, "Outlook365."), ("365.", 96.0, "Outlook365.")],
                        LEXICON) == []
    assert unsure_words([("el", 96.0, 'el'), ("programa", 96.0, 'informático"Python":'), ("informático", 96.0, 'informático"Python":'),
                         ("“Python”:", 96.8, 'informático"Python":')], LEXICON) == ["programa"]  # not in the stretch read
    # A space lost between two letters, or in a number, is a word or a number split or glued: read otherwise.
    assert unsure_words([("Constitu", 96.0, "Constitución"), ("ción", 96.0, "Constitución")], LEXICON) == ["Constitu", "ción"]
    assert unsure_words([("15.", 96.0, "15.000"), ("000", 96.0, "15.000")], LEXICON) == ["15.", "000"]
    # More letters than the line's words hold: Tesseract lost what the second reader read.
    assert unsure_words([("Outlook", 96.4, "Outlook365."), ("de", 96.0, "de")], LEXICON) == ["Outlook"]
    # A sign the second reader read where Tesseract read a mark is still a sign read otherwise.
    assert unsure_words([("a", 96.0, "a"), ("28", 96.0, "28°C"), ("*C", 96.0, "28°C")], LEXICON) == ["28", "*C"]
    assert unsure_words([("Outlook", 96.4, "Outlook365."), ("365.", 96.0, "Outlook365.")], LEXICON,
                        CertaintyPolicy(agreement=False)) == []
