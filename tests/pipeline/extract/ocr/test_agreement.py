"""The two recognisers' agreement as evidence of how sure an OCR'd word is (`extract.ocr.agreement`, judged
by `extract.ocr.certainty`): a word both engines read alike is sure even at a low Tesseract confidence; a
word they read differently, which the combine step did not settle by the dictionary, is unsure however
confident Tesseract was; a question resting on such a word is flagged; and the evidence rewrites nothing.
Real RapidOCR, real Tesseract and real hunspell on generated lines; a parsed question from a laid-out reading."""
from __future__ import annotations

import resource
import shutil
from dataclasses import replace
from pathlib import Path

import pytest
from PIL import Image, ImageDraw, ImageFont

from pipeline.diagnostics import Code
from pipeline.extract import ExtractedDocument, Line, Page, PageMethod
from pipeline.extract.ocr import OcrSettings, PageReading, lay_out_page
from pipeline.extract.ocr.agreement import (
    NOTHING_READ,
    STRETCH_MAX_WORDS,
    alike,
    contradicts,
    held_in_stretch,
    keep_second_readings,
    mark_settled,
    second_alphabet,
    second_readings,
    unwritable_marks_lost,
)
from pipeline.extract.ocr.certainty import (
    SECOND_READER_DIFFERS,
    SECOND_READER_SIGN,
    CertaintyPolicy,
    sign_contradicted,
    unsure_reason,
    unsure_words,
)
from pipeline.extract.ocr.engine import parse_tsv, run_tesseract
from pipeline.extract.ocr.lexicon import Lexicon
from pipeline.extract.ocr.reading import ReadWord
from pipeline.extract.ocr.recognisers import CropReading
from pipeline.extract.ocr.secondread import _Known, combine, read_again, readiness
from pipeline.extract.ocr.words import Word

needs_hunspell = pytest.mark.skipif(shutil.which("hunspell") is None, reason="the hunspell program is not installed (make setup)")
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"
LEXICON = Lexicon({w: w for w in ("la", "casa", "de", "nombre")})
NO_AGREEMENT = CertaintyPolicy(agreement=False)


# --------------------------------------------------------------------------- what the second reader read, word by word

def test_each_tesseract_word_keeps_what_the_second_reader_read_at_its_place():
    assert second_readings(["el", "mombre", "de"], ["el", "nombre", "de"]) == ["el", "nombre", "de"]
    # A space one engine sees and the other does not: the whole stretch, so the word never reads alike.
    assert second_readings(["sak", "tomu"], ["sa", "k", "tomu"]) == ["sa k", "tomu"]
    assert second_readings(["k", "eufemizmom"], ["keufemizmom"]) == ["keufemizmom", "keufemizmom"]
    # Punctuation split off or left out is no difference of words.
    assert second_readings(["84", "."], ["84."]) == ["84.", None]
    assert second_readings(["casa", ","], ["casa"]) == ["casa", None]
    # A label's mark spaced otherwise is no difference: parse cuts the label off either way.
    assert second_readings(["b)cantó", "c)scada"], ["b)", "cantó", "c)", "scada"]) == ["b)cantó", "c)scada"]
    assert second_readings(["D)1904lice"], ["D)", "1904", "lice"]) == ["D) 1904 lice"]  # a space between a number and a word is one
    # A word the second reader read nothing at, in a window it read.
    assert second_readings(["la", "xq", "casa"], ["la", "casa"]) == ["la", NOTHING_READ, "casa"]


def test_a_row_the_second_reader_read_as_one_window_holds_each_of_tesseracts_segment_words_alike():
    # A row of options (`a) … b) … c) … d) …`) Tesseract cut into segments and RapidOCR read as one window: each word of a
    # segment gets the whole differing stretch (`second_readings`), which holds them word by word, in order, with the
    # next segment's `d) 78` after them (calibration `es-row-150`, 150 dpi).
    stretch = "b) tetera c) 56 salvadores d) 78"
    texts, seconds = ["a)", "1943", "b)tetera", "c)56", "salvadores"], [None, "1943", stretch, stretch, stretch]
    assert [held_in_stretch(texts, seconds, i) for i in range(len(texts))] == [False, False, True, True, True]
    assert held_in_stretch(["d)78", "patrañas"], [stretch, "patrañas"], 0)  # the next segment's words, after the others
    # A word of the run read otherwise, or a word of the stretch between two of the run's (one Tesseract lost), leaves
    # the stretch a reading that differs, for every word given it.
    assert not any(held_in_stretch(["b)tetera", "c)56", "salvadotes"], [stretch] * 3, i) for i in range(3))
    assert not any(held_in_stretch(["b)tetera", "salvadores"], [stretch] * 2, i) for i in range(2))
    assert not held_in_stretch(["tetera", "salvadores"], ["tetera salvadores"] * 2, 0)  # no more words than the run's



def _cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def test_a_stretch_longer_than_its_cap_is_a_difference_and_a_stretch_of_marks_is_searched_in_bounded_time():
    # A row whose words run to the cap holds its segments' words; one word more and the stretch is judged unsearched,
    # a reading that differs, however well it would hold them.
    words = [f"w{n}" for n in range(STRETCH_MAX_WORDS)]
    row = " ".join(words)
    texts = words[:-1]
    assert held_in_stretch(texts, [row] * len(texts), 0)
    longer = row + " w"
    assert not held_in_stretch(texts, [longer] * len(texts), 0)
    # A stretch of marks between the words (`x - x - x …`) lets each word be read as itself or with the marks beside it:
    # searched path by path, a long line's run costs exponentially many joins (seconds at a dozen words, hours at
    # thirty); each place searched once, it is judged at once. The last word `z` is read nowhere: no run holds.
    for count in (STRETCH_MAX_WORDS // 2 - 1, 40):
        run = ["x"] * count + ["z"]
        stretch = " ".join(["x", "-"] * (count + 1))
        spent = _cpu_seconds()
        assert not held_in_stretch(run, [stretch] * len(run), 0)
        assert _cpu_seconds() - spent < 0.5  # CPU seconds, whatever else the machine runs


def test_a_word_held_in_a_longer_second_reading_is_judged_read_alike_on_its_line():
    stretch = "b) tetera c) 56 salvadores d) 78"
    line = [("a)", 90.0, None), ("b)tetera", 74.5, stretch), ("c)56", 80.0, stretch), ("salvadores", 27.4, stretch)]
    assert unsure_words(line, LEXICON) == []  # `salvadores` at 27: read alike, its confidence no longer counts
    assert unsure_words(line, LEXICON, CertaintyPolicy(stretches=False)) == ["b)tetera", "c)56", "salvadores"]
    misread = [*line[:3], ("salvadotes", 96.0, stretch)]
    assert unsure_words(misread, LEXICON) == ["b)tetera", "c)56", "salvadotes"]


def test_a_space_the_second_reader_lost_between_two_known_words_whose_join_is_none_is_settled_for_tesseract():
    # `A los seis meses`: RapidOCR read `Alos` (corpus `es-inap-2024` 1.20); the language knows `a` and `los`, not `alos`.
    lexicon = Lexicon({w: w for w in ("a", "los", "seis", "de", "delante", "un", "aun")})
    line = [("A", 53.3, "Alos"), ("los", 28.2, "Alos"), ("seis", 96.5, "seis")]
    assert unsure_words(line, lexicon) == []
    assert unsure_words(line, lexicon, CertaintyPolicy(settled_spaces=False)) == ["los"]
    # Run together they are a word (`delante`, `aun`), or a piece is no word (`sa k`): the space is what differs.
    assert unsure_words([("de", 90.0, "delante"), ("lante", 90.0, "delante")], lexicon) == ["de", "lante"]
    assert unsure_words([("A", 90.0, "Aun"), ("un", 90.0, "Aun")], lexicon) == ["un"]
    assert unsure_words([("sa", 90.0, "sak"), ("k", 90.0, "sak")], lexicon) == ["sa"]
    assert unsure_words([("A", 90.0, "Alas"), ("los", 90.0, "Alas")], lexicon) == ["los"]  # a letter read otherwise


def test_alike_compares_letters_and_digits_exactly_but_not_the_punctuation_around_them():
    assert alike("casa,", "casa.") and alike("(1941)", "1941") and alike("ca\u0301sa", "cása")
    assert not alike("Índice", "índice")  # a capital is a difference a reader of the text sees
    assert not alike("ľúbosť", "lúbost") and not alike("mombre", "nombre") and not alike("casa", NOTHING_READ)


# --------------------------------------------------------------------------- judged at layout

def test_a_word_both_engines_read_alike_is_sure_even_at_a_low_tesseract_confidence():
    assert unsure_reason("Kowalska", 12.0, LEXICON, NO_AGREEMENT) == "low confidence"
    assert unsure_reason("Kowalska", 12.0, LEXICON, second="Kowalska") is None
    assert unsure_reason("Kowalska,", 12.0, None, second="Kowalska") is None  # no word list either
    # A word's shape still counts: both engines can glue a digit, or read a capital I for a small l, alike.
    assert unsure_reason("el7", 30.0, LEXICON, second="el7") == "a digit beside a look-alike letter"
    lexicon = Lexicon({"lśniącej": "lśniącej"})
    assert unsure_reason("Iśniącej", 92.0, lexicon, second="Iśniącej") == "I and l confused"


def test_a_word_the_engines_read_differently_is_unsure_however_confident_tesseract_was():
    assert unsure_reason("mombre", 96.0, LEXICON, NO_AGREEMENT) is None  # what slipped through before
    assert unsure_reason("mombre", 96.0, LEXICON, second="nombre") == SECOND_READER_DIFFERS
    assert unsure_reason("casa", 96.0, LEXICON, second=NOTHING_READ) == SECOND_READER_DIFFERS
    assert unsure_reason("mombre", 96.0, LEXICON, NO_AGREEMENT, second="nombre") is None
    assert unsure_reason("—", 96.0, LEXICON, second="-") is None  # punctuation alone carries no text
    # A lone character gives the second reader too little to read: a differing reading of it is no evidence...
    assert unsure_reason("C", 96.0, LEXICON, second="201") is None and unsure_reason("C", 20.0, LEXICON, second="201") == "low confidence"
    assert unsure_reason("C", 20.0, LEXICON, second="C") is None  # ...but reading it alike is
    # The second reader loses accents it seldom saw (Slovak carons): that alone says nothing against Tesseract's word...
    assert unsure_reason("zaťažovateľ", 96.0, LEXICON, second="zatažovatel") is None
    assert unsure_reason("poď", 96.0, LEXICON, second="pod'") is None
    assert unsure_reason("zaťažovateľ", 20.0, None, second="zatažovatel") == "low confidence"  # nor for it
    # ...but an accent it reads that Tesseract lacks, or another one, does.
    assert unsure_reason("Indice", 96.0, LEXICON, second="Índice") == SECOND_READER_DIFFERS
    assert unsure_reason("Condiçôes", 96.0, LEXICON, second="Condições") == SECOND_READER_DIFFERS


def test_a_word_without_a_second_reading_is_judged_by_the_other_rules_alone():
    # Greek, Hangul, Cyrillic: no second recogniser serves them, so no word carries a second reading.
    assert unsure_reason("αριθμός", 20.0, None) == "low confidence"
    assert unsure_reason("αριθμός", 96.0, None) is None


@needs_hunspell
def test_a_confident_word_the_second_reader_reads_otherwise_and_the_dictionary_does_not_settle_is_unsure():
    spelling, why_not = readiness(("spa",))
    if spelling is None:
        pytest.skip(why_not or "no second reader")
    known = _Known(spelling)
    tesseract = [Word("Segúm", 96.0, 10, 10, 110, 40, (1, 1, 1)), Word("el", 40.0, 130, 10, 170, 40, (1, 1, 1))]
    second = CropReading("Según el", 0.5, (("Según", 0.5, 0, 0), ("el", 0.99, 0, 0)))  # too unsure to be taken
    keep_second_readings(tesseract, ["Según", "el"])
    words, changed = combine(tesseract, second, known)
    assert [w.text for w in words] == ["Segúm", "el"] and changed == 0  # the dictionary rejects Tesseract's, nothing taken
    assert unsure_reason(words[0].text, words[0].conf, None, second=words[0].second) == SECOND_READER_DIFFERS
    assert unsure_reason(words[1].text, words[1].conf, None, second=words[1].second) is None


@needs_hunspell
def test_a_contradiction_the_dictionary_settles_for_tesseracts_word_is_no_evidence_against_it():
    spelling, why_not = readiness(("pol",))
    if spelling is None:
        pytest.skip(why_not or "no second reader")
    known = _Known(spelling)
    # The second reader took a speck for a letter; the dictionary knows only Tesseract's reading.
    tesseract = [Word("się", 90.0, 10, 10, 70, 40, (1, 1, 1)), Word("zawala", 30.0, 90, 10, 210, 40, (1, 1, 1)),
                 Word("dom", 92.0, 230, 10, 290, 40, (1, 1, 1))]
    theirs = (("się", 0.99), ("ezawala", 0.99), ("dym", 0.99))
    keep_second_readings(tesseract, [t for t, _ in theirs])
    words, _ = combine(tesseract, CropReading(" ".join(t for t, _ in theirs), 0.99, tuple((t, c, 0, 0) for t, c in theirs)), known)
    mark_settled(tesseract, words, known)
    assert [w.text for w in words] == ["się", "zawala", "dom"]
    assert words[1].second is None and unsure_reason(words[1].text, words[1].conf, None, second=words[1].second) == "low confidence"
    # Two words of the language for one: the dictionary cannot settle it, the word stays unsure.
    assert words[2].second == "dym" and unsure_reason(words[2].text, 92.0, None, second=words[2].second) == SECOND_READER_DIFFERS


def _text_image(text: str, size: int = 36) -> Image.Image:
    font = ImageFont.truetype(FONT, size)
    image = Image.new("L", (int(font.getlength(text)) + 40, size * 2), 255)
    ImageDraw.Draw(image).text((20, size // 3), text, font=font, fill=0)
    return image


@needs_hunspell
def test_real_rapidocr_vouches_for_a_word_read_unsurely_and_contradicts_one_misread_confidently_rewriting_neither():
    pytest.importorskip("rapidocr")
    image = _text_image("Autor odnosi się do eufemizmów w tekście")
    words = parse_tsv(run_tesseract(image, ["pol"], 300, omp_thread_limit=1, psm=7))
    assert " ".join(w.text for w in words) == "Autor odnosi się do eufemizmów w tekście"
    at = {w.text: i for i, w in enumerate(words)}
    unsure = replace(words[at["eufemizmów"]], conf=22.0)  # read right, but Tesseract says it is unsure
    misread = replace(words[at["tekście"]], text="tekstem", conf=95.0)  # a known word for another, read confidently
    given = [unsure if i == at["eufemizmów"] else misread if i == at["tekście"] else w for i, w in enumerate(words)]
    given[at["w"]] = replace(given[at["w"]], conf=30.0)  # its window holds the confident misreading too
    result = read_again(image, given, ["pol"])
    assert [w.text for w in result.words] == [w.text for w in given]  # both readings known: none rewritten
    by_text = {w.text: w for w in result.words}
    assert by_text["eufemizmów"].second == "eufemizmów" and by_text["tekstem"].second == "tekście"
    judge = {text: unsure_reason(text, w.conf, None, second=w.second) for text, w in by_text.items()}
    assert judge["eufemizmów"] is None and judge["tekstem"] == SECOND_READER_DIFFERS
    assert unsure_reason("eufemizmów", 22.0, None) == "low confidence"  # what the present rules alone say
    assert by_text["Autor"].second is None  # no window reached it: no evidence either way


# --------------------------------------------------------------------------- kept in the reading, flagged in parse

def _read_word(text: str, left: int, top: int, conf: float, second: str | None) -> ReadWord:
    return ReadWord(text, left, top, left + 24 * len(text), top + 40, size=40.0, line=(1, top, 1), conf=conf, second=second)


def _sheet_reading(*misread: tuple[str, float, str | None]) -> PageReading:
    """A scanned question with four options; option C's words are `misread` (text, confidence, second reading)."""
    rows = [["1.", "¿Cuál", "es", "la", "capital?"], ["A)", "Madrid"], ["B)", "Lisboa"], ["C)", *misread], ["D)", "Roma"]]
    words = []
    for r, row in enumerate(rows):
        left = 200 if r == 0 else 260
        for token in row:
            text, conf, second = token if isinstance(token, tuple) else (token, 95.0, None)
            words.append(_read_word(text, left, 300 + 80 * r, conf, second))
            left += 24 * len(text) + 24
    return PageReading(2480, 3508, tuple(words), confidence=90.0)


def _parsed(reading: PageReading):
    from pipeline.parse import parse_sheet
    from tests.pipeline.parse.conftest import entry
    from tests.pipeline.parse.repertoire_sheets import spec

    page = lay_out_page(reading, OcrSettings(languages=("spa",)), page_number=1, width_pt=595.0, height_pt=842.0)
    sheet = ExtractedDocument("0" * 64, "sheet.pdf", 1, [page], "test")
    key = ExtractedDocument("1" * 64, "key.pdf", 1, [Page(1, 595, 842, PageMethod.OCR, [
        Line(text="Clave", x0=60, top=80, x1=120, bottom=90, font_size=10, ocr_confidence=95.0, unsure_words=[]),
        Line(text="1. A", x0=60, top=100, x1=100, bottom=110, font_size=10, ocr_confidence=95.0, unsure_words=[])])], "test")
    the_spec = spec(key={"entry": r"(?<![\d.])(?P<number>\d{1,3})\.\s*(?P<answer>[A-D])\b"})
    path, facts = Path("/exams/2031/sheet.pdf"), {"year": "2031"}
    [record] = parse_sheet(sheet, entry(path, "sheet", the_spec, facts), [(key, entry(path, "key", the_spec, facts))], the_spec).questions
    return record


def test_a_question_whose_option_the_engines_read_differently_is_flagged_and_one_they_agree_on_is_not():
    contradicted = _parsed(_sheet_reading(("Vilaxora", 96.0, "Vilaxona")))
    assert contradicted.choices == ["Madrid", "Lisboa", "Vilaxora", "Roma"]  # judged, not rewritten
    assert [f for f in contradicted.flags if f.code is Code.OCR_UNCERTAIN] == ["read by OCR unsurely: option C (resting on 'Vilaxora')"]
    vouched = _parsed(_sheet_reading(("Vilaxora", 15.0, "Vilaxora")))
    assert vouched.choices == contradicted.choices
    assert [f for f in vouched.flags if f.code is Code.OCR_UNCERTAIN] == []
    alone = _parsed(_sheet_reading(("Vilaxora", 15.0, None)))  # no second reading: Tesseract's confidence decides
    assert [f for f in alone.flags if f.code is Code.OCR_UNCERTAIN] == ["read by OCR unsurely: option C (resting on 'Vilaxora')"]


def test_a_sign_the_second_reader_reads_otherwise_makes_the_word_unsure_even_a_mark_alone():
    # Real pairs from `ocrcertainty`'s symbol families (200 dpi, blur 0.6): Tesseract read the relation, the degree and
    # the superscript as marks, confidently; RapidOCR read the signs.
    assert unsure_reason("<", 91.5, LEXICON, second="≤") == SECOND_READER_SIGN
    assert unsure_reason("101*", 87.7, LEXICON, second="101°") == SECOND_READER_SIGN
    assert unsure_reason("m?", 92.1, LEXICON, second="m²") == SECOND_READER_SIGN
    assert unsure_reason("×86", 99.9, LEXICON, second="x86") == SECOND_READER_SIGN  # the other way round too
    assert unsure_reason("<", 91.5, LEXICON, NO_AGREEMENT, second="≤") is None  # the second reading is not asked
    assert unsure_reason("<", 91.5, LEXICON, CertaintyPolicy(signs_agree=False), second="≤") is None
    # Read alike, or a twin a reader does not tell apart (the ordinal indicator and the degree sign).
    assert unsure_reason("×86", 99.9, LEXICON, second="×86") is None
    assert unsure_reason("µg", 95.0, LEXICON, second="µg") is None  # the micro sign is no Greek letter among Latin ones
    assert not sign_contradicted("5º", "5°")  # no sign read otherwise (the letter º differs: `agreement` judges that)
    assert unsure_reason("<", 91.5, LEXICON, second=None) is None and unsure_reason("<", 91.5, LEXICON, second=NOTHING_READ) is None


def test_a_question_whose_relation_the_second_reader_reads_as_a_sign_is_flagged_and_one_read_alike_is_not():
    misread = _parsed(_sheet_reading(("x", 92.9, "x"), ("<", 92.9, "≤"), ("25", 96.7, "25")))
    assert misread.choices == ["Madrid", "Lisboa", "x < 25", "Roma"]  # judged, not rewritten
    assert [f for f in misread.flags if f.code is Code.OCR_UNCERTAIN] == ["read by OCR unsurely: option C (resting on '<')"]
    alike = _parsed(_sheet_reading(("x", 92.9, "x"), ("<", 92.9, "<"), ("25", 96.7, "25")))
    assert [f for f in alike.flags if f.code is Code.OCR_UNCERTAIN] == []


def test_the_second_reading_is_cached_with_each_word_and_an_older_reading_has_none():
    reading = _sheet_reading(("Vilaxora", 96.0, "Vilaxona"))
    assert PageReading.from_json(reading.to_json()) == reading
    old = PageReading.from_json('{"image_width": 100, "image_height": 100, "confidence": 90, "words": [{"text": "casa", '
                                '"left": 1, "top": 1, "right": 40, "bottom": 20, "size": 19.0, "line": [1, 1, 1], "conf": 96.0}]}')
    assert old.words[0].second is None


# --------------------------------------------------------------------------- which windows the budget reads

@needs_hunspell
def test_windows_that_decide_a_words_certainty_are_read_first_and_on_a_budget_of_their_own(monkeypatch):
    pytest.importorskip("rapidocr")
    from pipeline.extract.ocr import secondread
    from pipeline.extract.ocr.recognisers import RECOGNISERS

    read_widths: list[int] = []

    class Recording:  # the real RapidOCR, counting what it is given to read
        name = "recording"

        def unavailable(self):
            return RECOGNISERS["rapidocr"].unavailable()

        def alphabet(self):
            return RECOGNISERS["rapidocr"].alphabet()

        def read(self, crops, languages):
            read_widths.extend(crop.shape[1] for crop in crops)
            return RECOGNISERS["rapidocr"].read(crops, languages)

    monkeypatch.setitem(RECOGNISERS, "recording", Recording())
    text = "la casa de la playa tiene una puerta roja y una ventana azul que da al mar"
    image = _text_image(text)
    words = parse_tsv(run_tesseract(image, ["spa"], 300, omp_thread_limit=1, psm=7))
    assert " ".join(w.text for w in words) == text
    # Two words read at a middling confidence (worth reading again, but known words, sure by the rules),
    # and one the dictionary rejects and the certainty rules judge unsure, at the line's far end.
    middling = [replace(w, conf=70.0 if w.text in ("de", "roja") else 96.0) for w in words]
    middling[-1] = replace(middling[-1], text="mor", conf=60.0)
    monkeypatch.setattr(secondread, "BUDGET_FLOOR", 0.0)
    monkeypatch.setattr(secondread, "BUDGET_SHARE", 0.0)  # no budget but the deciding windows'
    monkeypatch.setattr(secondread, "DECIDING_SHARE", 0.3)  # a third of this one line: one window's worth
    result = read_again(image, middling, ["spa"], recogniser_name="recording", judged_unsure=lambda w: w.text == "mor")
    assert len(read_widths) == 1 and "1 window(s) read again" in result.note, result.note  # only the deciding window
    by_text = {w.text: w for w in result.words}
    assert result.words[-1].second == "mar", result.words[-1]  # what the second reader read there: evidence either way
    assert by_text["de"].second is None and by_text["roja"].second is None  # windows that decide nothing: over the budget
    monkeypatch.setattr(secondread, "DECIDING_SHARE", 0.0)
    read_widths.clear()
    assert "no unsure word within the budget" in read_again(image, middling, ["spa"], recogniser_name="recording").note
    assert read_widths == []


# --------------------------------------------------------------------------- letters the second reader cannot write

# A stand-in for the second reader's alphabet: the base letters with one mark each, none of Vietnamese's stacked ones.
ONE_MARK = frozenset("abcdeghiklmnopqrstuvxyđăâêôơưàáãèéìíòóõùúýıç")
UNWRITABLE = CertaintyPolicy(unwritable_marks=True)  # off as shipped (`CertaintyPolicy.unwritable_marks`)


def test_a_second_reading_lacking_only_marks_of_a_letter_the_second_reader_cannot_write_is_no_contradiction():
    # `ừ`, `ớ`, `ề` stack two marks it cannot write together: it reads the base with one of them.
    for printed, read in (("sừng", "sùng"), ("hứng", "húng"), ("nhiều", "nhiêu"), ("vớ", "vó"), ("vớ", "vơ")):
        assert unwritable_marks_lost(printed, read, ONE_MARK)
        assert not contradicts(printed, read, ONE_MARK, unwritable=True)
        assert contradicts(printed, read, ONE_MARK)  # off, as shipped: what the flag says
    assert not contradicts("lực", "lục", ONE_MARK, unwritable=True)  # the dot below read, the horn it cannot stack on it lost


def test_a_mark_the_letter_lacks_or_a_mark_lost_on_a_letter_it_can_write_still_contradicts():
    assert contradicts("sừng", "súng", ONE_MARK, unwritable=True)  # another tone: the acute is no mark of `ừ`
    assert contradicts("sứng", "sùng", ONE_MARK, unwritable=True)
    assert contradicts("pornosı", "pornosi", ONE_MARK, unwritable=True)  # it writes `ı`: its `i` is a reading, not a lack
    assert not contradicts("ươn", "uon", ONE_MARK, unwritable=True)  # every mark lost: as before (`_accents_lost`), whatever the alphabet
    assert contradicts("mừng", "nùng", ONE_MARK, unwritable=True)  # another letter besides
    assert not unwritable_marks_lost("sừng", "sùngg", ONE_MARK)


def test_the_second_readers_alphabet_is_its_models_own_character_dictionary():
    pytest.importorskip("rapidocr")
    alphabet = second_alphabet()
    assert alphabet is not None and {"ư", "ơ", "ù", "ó", "ê", "ı"} <= alphabet
    assert not {"ừ", "ớ", "ề", "ặ"} & alphabet
    assert unsure_reason("sừng", 96.0, None, UNWRITABLE, second="sùng") is None
    assert unsure_reason("sừng", 96.0, None, UNWRITABLE, second="súng") == SECOND_READER_DIFFERS
    assert unsure_reason("sừng", 96.0, None, second="sùng") == SECOND_READER_DIFFERS  # as shipped


def test_a_letter_the_second_reader_cannot_write_and_writes_nothing_for_is_no_contradiction_either():
    assert not contradicts("nhiều", "nhiu", ONE_MARK, unwritable=True) and not contradicts("về", "v", ONE_MARK, unwritable=True)
    assert contradicts("nhiều", "nhu", ONE_MARK, unwritable=True)  # a letter it can write, lost
    assert contradicts("về", NOTHING_READ, ONE_MARK, unwritable=True)  # nothing read at all is no reading of the word
    assert not unwritable_marks_lost("sừng", "sùng", frozenset())  # no alphabet known: no letter is taken for unwritable


@needs_hunspell
def test_real_rapidocr_reading_vietnamese_stacked_marks_without_one_of_them_does_not_contradict_tesseract_with_the_rule_on():
    """A generated line of Vietnamese words whose vowels stack two marks: the second reader, whose model has no
    character for them, reads them with one mark or none; that is no evidence against Tesseract's right reading."""
    pytest.importorskip("rapidocr")
    if readiness(("vie",))[0] is None:
        pytest.skip("no Vietnamese dictionary for the second reader")
    stacked = {"sừng", "hứng", "nhiều", "vớ"}
    for text in ("Con trâu có sừng và hứng nước", "Tôi nghe nhiều chuyện về cái vớ"):
        image = _text_image(text)
        words = parse_tsv(run_tesseract(image, ["vie"], 300, omp_thread_limit=1, psm=7))
        assert " ".join(w.text for w in words) == text
        result = read_again(image, [replace(w, conf=30.0) for w in words], ["vie"])
        read = {w.text: w.second for w in result.words if w.text in stacked}
        assert read and all(second is not None and second != text for text, second in read.items())  # each read otherwise
        assert all(unsure_reason(text, 96.0, None, UNWRITABLE, second=second) is None for text, second in read.items())
        assert all(unsure_reason(text, 96.0, None, second=second) == SECOND_READER_DIFFERS for text, second in read.items())
