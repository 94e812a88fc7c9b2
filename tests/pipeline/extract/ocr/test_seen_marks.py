"""Marks the second reader saw where Tesseract read a word no dictionary knows (`pipeline.extract.ocr.seenmarks`, page
pass `seen-marks`): the rules on words, and a generated Spanish sheet in small type scanned soft (150 dpi, blur 1.0,
JPEG 70) read by the whole page path with real Tesseract, RapidOCR and hunspell, printed with its marks and without."""
from __future__ import annotations

from dataclasses import replace


from pipeline.devkit.aftercache import with_seen_marks
from pipeline.extract.ocr import OcrSettings, read_page
from pipeline.extract.ocr.lexicon import Lexicon
from pipeline.extract.ocr.seenmarks import Evidence, marked_reading, seen_marks, take_seen_marks
from pipeline.extract.ocr.words import Word
from tests.pipeline.extract.ocr.builders import needs_readers, scanned_line

SPELLED = {"días", "período", "periodo", "sí", "si", "análisis", "sanguíneo", "simpatías"}
LISTED = {"dias", "metaanálisis", "sanguíneo", "simpatías", "análisis"}


def _evidence() -> Evidence:
    lexicon = Lexicon({w: w for w in LISTED})
    endings = {w[i:] for w in LISTED for i, ch in enumerate(w) if ch in "áéíóú"}
    return Evidence(lambda word: word in SPELLED or word.lower() in SPELLED, lexicon, set("abcdefghijklmnopqrstuvwxyzáéíóúñü"), endings)


def _mended(text: str, second: str | None) -> tuple[str, bool] | None:
    found = seen_marks(text, second, _evidence())
    return None if found is None else (found.text, found.known)


def test_a_word_no_dictionary_knows_takes_the_marks_the_second_reader_saw() -> None:
    assert _mended("dias,", "días") == ("días,", True)  # Tesseract's punctuation kept; the dictionary knows the word
    assert _mended("Metaanalisis", "Metaanálisis") == ("Metaanálisis", True)  # Tesseract's list knows it
    # Neither dictionary knows it nor the word as read, but the language's words end so from the mark on (`sanguíneo`).
    assert _mended("tendineo.", "tendíneo.") == ("tendíneo.", False)
    assert _mended("adenopatias", "adenopatías") == ("adenopatías", False)


def test_a_known_word_is_never_rewritten_and_no_mark_is_taken_off() -> None:
    assert _mended("periodo", "período") is None  # both are words: a disagreement for the flag, not a rewrite
    assert _mended("si", "sí") is None
    assert _mended("análisis", "analisis") is None  # a mark taken off
    assert _mended("analisis", "anâlisis") is None  # â is no letter of the page's languages


def test_only_marks_added_letter_for_letter_count() -> None:
    assert _mended("Sifilitica", "Sifilíitica") is None  # a letter more
    assert _mended("tendineo", "tendineo") is None  # read alike
    assert _mended("tendineo", None) is None  # not read again
    assert _mended("tendineo", "tendíneos") is None
    assert _mended("Tendineo", "tendíneo") is None  # another case
    assert marked_reading("condicoes", "condições") == "condições"
    assert marked_reading("condições", "condiçôes") is None  # one mark for another
    assert marked_reading("각", "가") is None and marked_reading("가", "각") is None  # Hangul jamo are no marks


def test_a_mark_where_the_language_writes_none_is_not_taken() -> None:
    # A mark the second reader added where no word of the language's list ends so (`vesículoampollosas`, printed bare).
    assert _mended("vesiculoampollosas", "vesículoampollosas") is None


def test_mended_words_say_whether_they_stay_unsure() -> None:
    words = [Word("tendineo,", 90.0, 0, 0, 50, 10, (1, 1, 1), second="tendíneo,"),
             Word("dias", 95.0, 60, 0, 90, 10, (1, 1, 1), second="días"),
             Word("periodo", 95.0, 100, 0, 150, 10, (1, 1, 1), second="período")]
    mended, changes = take_seen_marks(words, _evidence())
    assert [w.text for w in mended] == ["tendíneo,", "días", "periodo"]
    assert [w.unsure_mark for w in mended] == [True, False, False]
    assert changes == [("tendineo,", "tendíneo,"), ("dias", "días")]


PRINTED = ("Se indicó densitometría y toracoscopía; las adenopatías y linfadenopatías del tendón tendíneo, según el "
           "metaanálisis, fueron mediastinoscopía.")
BARE = ("Se indico densitometria y toracoscopia; las adenopatias y linfadenopatias del tendon tendineo, segun el "
        "metaanalisis, fueron mediastinoscopia.")
DPI, SIZE, BLUR, JPEG = 150, 8, 1.0, 70


@needs_readers
def test_acutes_tesseract_lost_on_a_soft_scan_come_back_from_the_second_reading(tmp_path, spanish) -> None:
    image = scanned_line(tmp_path, PRINTED, size=SIZE, dpi=DPI, blur=BLUR, jpeg=JPEG)
    settings = OcrSettings(languages=("spa",), dpi=DPI)
    without = read_page(image, replace(settings, disabled_passes=("seen-marks",)), page_number=1)
    alone = [w.text.strip(".,;") for w in without.words]
    # Tesseract loses the acute of two words the dictionaries do not know; the second reader reads it.
    assert "tendineo" in alone and "mediastinoscopia" in alone, alone
    reading = read_page(image, settings, page_number=1)
    read = [w.text.strip(".,;") for w in reading.words]
    assert "tendíneo" in read and "mediastinoscopía" in read, read
    assert all(w.unsure_mark for w in reading.words if w.text.strip(".,;") in ("tendíneo", "mediastinoscopía"))
    assert any("seen marks" in str(note) for note in reading.notes)
    # Every other word reads as without the pass; and the pass applied to the reading made without it gives the same
    # words (what `pipeline.devkit.aftercache` measures by).
    assert [a for a, b in zip(alone, read) if a != b] == ["tendineo", "mediastinoscopia"]
    assert [w.text for w in with_seen_marks(without, settings).words] == [w.text for w in reading.words]


@needs_readers
def test_a_sheet_printed_without_marks_gains_none(tmp_path, spanish) -> None:
    image = scanned_line(tmp_path, BARE, size=SIZE, dpi=DPI, blur=BLUR, jpeg=JPEG)
    settings = OcrSettings(languages=("spa",), dpi=DPI)
    without = read_page(image, replace(settings, disabled_passes=("seen-marks",)), page_number=1)
    reading = read_page(image, settings, page_number=1)
    assert [w.text for w in reading.words] == [w.text for w in without.words]
