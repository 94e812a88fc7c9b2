"""The second recogniser where Tesseract is unsure (`pipeline.extract.ocr.secondread`): which words are read
again, how two readings are weighed (agreement, confidence, the language's hunspell dictionary), and that a
language or machine it cannot serve skips it, said in the reading. Real RapidOCR, real Tesseract, real
hunspell, on generated lines."""
from __future__ import annotations

import shutil
from dataclasses import replace

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from pipeline.extract.ocr import OcrSettings, pass_names, pass_versions
from pipeline.extract.ocr.engine import parse_tsv, run_tesseract
from pipeline.extract.ocr.recognisers import RECOGNISERS, CropReading
from pipeline.extract.ocr.secondread import _Known, combine, read_again, readiness, unsure_windows
from pipeline.extract.ocr.words import Word
from pipeline.languages import DATA_DIR, all_languages

needs_hunspell = pytest.mark.skipif(shutil.which("hunspell") is None, reason="the hunspell program is not installed (make setup)")
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"


def _known(language: str) -> _Known:
    spelling, why_not = readiness((language,))
    if spelling is None:
        pytest.skip(why_not or "no second reader")
    return _Known(spelling)


def _line(words: list[tuple[str, float]]) -> list[Word]:
    """Tesseract-like words of one line, 20 px a character, a 20 px space between them."""
    placed, left = [], 10
    for text, conf in words:
        placed.append(Word(text, conf, left, 10, left + 20 * len(text), 40, (1, 1, 1)))
        left += 20 * len(text) + 20
    return placed


def _second(*words: tuple[str, float]) -> CropReading:
    return CropReading(" ".join(t for t, _ in words), min(c for _, c in words), tuple((t, c, 0, 0) for t, c in words))


@needs_hunspell
def test_a_one_letter_word_glued_to_the_next_is_split_where_the_second_reader_shows_the_space() -> None:
    known = _known("pol")
    tesseract = _line([("odnosi", 95), ("keufemizmom", 61), ("autora", 93)])
    words, changed = combine(tesseract, _second(("odnosi", 0.99), ("k", 0.98), ("eufemizmom", 0.99), ("autora", 0.99)), known)
    assert [w.text for w in words] == ["odnosi", "k", "eufemizmom", "autora"]
    assert changed == 1
    k, eufemizmom = words[1], words[2]
    assert tesseract[1].left <= k.left < k.right < eufemizmom.left < eufemizmom.right <= tesseract[1].right


@needs_hunspell
def test_a_number_glued_to_a_word_and_a_confused_letter_take_the_known_reading() -> None:
    known = _known("spa")
    tesseract = _line([("el7", 70), ("de", 96), ("marzo", 96), ("que", 95), ("mo", 62), ("tenga", 90)])
    second = _second(("el", 0.99), ("7", 0.99), ("de", 0.99), ("marzo", 0.99), ("que", 0.99), ("no", 0.97), ("tenga", 0.99))
    words, _ = combine(tesseract, second, known)
    assert " ".join(w.text for w in words) == "el 7 de marzo que no tenga"


@needs_hunspell
def test_a_word_both_engines_read_alike_is_never_rewritten() -> None:
    known = _known("pol")
    tesseract = _line([("Zródłem", 40), ("danych", 96)])  # unknown to the dictionary, and unsure
    words, changed = combine(tesseract, _second(("Zródłem", 0.99), ("danych", 0.99)), known)
    assert [w.text for w in words] == ["Zródłem", "danych"] and changed == 0
    assert words == tesseract


@needs_hunspell
def test_a_reading_the_dictionary_does_not_know_never_replaces_one_it_knows() -> None:
    known = _known("slk")
    # The second reader's model drops Slovak carons now and then: Tesseract's known reading stays.
    tesseract = _line([("s", 90), ("ľútosťou", 55), ("konštatoval", 92)])
    words, changed = combine(tesseract, _second(("s", 0.99), ("lútostou", 0.99), ("konštatoval", 0.99)), known)
    assert [w.text for w in words] == ["s", "ľútosťou", "konštatoval"] and changed == 0


@needs_hunspell
def test_an_unsure_second_reading_or_one_spelling_other_words_is_not_taken() -> None:
    known = _known("spa")
    tesseract = _line([("Segúm", 50), ("el", 95)])
    unsure, _ = combine(tesseract, _second(("Según", 0.5), ("el", 0.99)), known)
    other, _ = combine(tesseract, _second(("Madrid", 0.99), ("el", 0.99)), known)
    assert [w.text for w in unsure] == ["Segúm", "el"]
    assert [w.text for w in other] == ["Segúm", "el"]


@needs_hunspell
def test_two_unknown_readings_give_the_one_known_word_their_differences_make() -> None:
    known = _known("pol")
    tesseract = _line([("Źródtem", 50)])  # Ź right, t for ł wrong
    words, _ = combine(tesseract, _second(("Zródłem", 0.95)), known)  # ł right, Z wrong
    assert [w.text for w in words] == ["Źródłem"]


@needs_hunspell
def test_a_word_tesseract_missed_is_put_in_only_where_the_image_leaves_room_and_no_word_stands() -> None:
    known = _known("pol")
    tesseract = [Word("7.", 95, 10, 10, 40, 40, (1, 1, 1)), Word("tekście", 60, 120, 10, 260, 40, (1, 1, 1))]
    second = _second(("7.", 0.99), ("W", 0.99), ("tekście", 0.99))
    found, _ = combine(tesseract, second, known)
    assert [w.text for w in found] == ["7.", "W", "tekście"]
    assert 40 < found[1].left < found[1].right < 120
    read_elsewhere = Word("W", 80, 60, 12, 90, 40, (1, 2, 1))  # Tesseract read it into another line
    kept, _ = combine(tesseract, second, known, [read_elsewhere])
    assert [w.text for w in kept] == ["7.", "tekście"]


@needs_hunspell
def test_only_unsure_words_are_read_again_each_with_its_neighbours() -> None:
    known = _known("spa")
    words = _line([("La", 96), ("Constitución", 95), ("españoia", 91), ("reconoce", 96), ("el", 96), ("derecho", 40), ("a", 96),
                   ("la", 96), ("vivienda", 96)])
    windows = unsure_windows(words, known)
    # A word the dictionary rejects first (its reading decides how sure it is), then the least confident.
    assert [(w.start, w.end, w.decides) for w in windows] == [(1, 4, True), (4, 7, False)]
    judged = unsure_windows(words, known, judged_unsure=lambda w: w.text == "derecho")
    assert [(w.start, w.end) for w in judged if w.decides] == [(4, 7), (1, 4)]  # the certainty rules' verdict decides too
    # An acronym or code in capitals, read confidently, is no word a dictionary lists: not read again for that.
    assert unsure_windows(_line([("protokół", 95), ("SMTP", 93), ("służy", 96)]), _known("pol")) == []


def _text_image(text: str, size: int = 36) -> Image.Image:
    font = ImageFont.truetype(FONT, size)
    width = int(font.getlength(text)) + 40
    image = Image.new("L", (width, size * 2), 255)
    ImageDraw.Draw(image).text((20, size // 3), text, font=font, fill=0)
    return image


@needs_hunspell
def test_read_again_mends_a_misread_word_from_real_rapidocr_and_leaves_the_rest() -> None:
    pytest.importorskip("rapidocr")
    image = _text_image("Autor odnosi się k eufemizmom w tekście")
    words = parse_tsv(run_tesseract(image, ["pol"], 300, omp_thread_limit=1, psm=7))
    assert " ".join(w.text for w in words) == "Autor odnosi się k eufemizmom w tekście"
    # The error Tesseract makes on worse scans, put into its own words: the preposition glued on, unsure.
    at = next(i for i, w in enumerate(words) if w.text == "k")
    glued = replace(words[at], text="keufemizmom", conf=58.0, right=words[at + 1].right)
    misread = words[:at] + [glued] + words[at + 2 :]
    result = read_again(image, misread, ["pol"])
    assert " ".join(w.text for w in result.words) == "Autor odnosi się k eufemizmom w tekście"
    assert "1 window(s) read again" in result.note and "1 word(s) changed" in result.note


@needs_hunspell
def test_a_language_the_second_reader_has_no_model_for_skips_it_and_says_so() -> None:
    pytest.importorskip("rapidocr")
    image = _text_image("Η ταχύτητα ενός σώματος")
    words = parse_tsv(run_tesseract(image, ["ell"], 300, omp_thread_limit=1, psm=7))
    unsure = [replace(w, conf=30.0) for w in words]
    result = read_again(image, unsure, ["ell"])
    assert result.words == unsure
    assert "skipped" in result.note and "ell" in result.note


def test_a_machine_without_rapidocr_skips_the_pass_and_says_why(monkeypatch) -> None:
    from pipeline.extract.ocr import recognisers

    def not_installed():
        raise ImportError("No module named 'rapidocr'")

    monkeypatch.setattr(recognisers, "_engine", not_installed)
    readiness.cache_clear()
    try:
        words = _line([("keufemizmom", 40)])
        result = read_again(Image.new("L", (400, 60), 255), words, ["pol"])
    finally:
        readiness.cache_clear()
    assert result.words == words
    assert "rapidocr skipped" in result.note and "not installed" in result.note


def test_the_pass_is_registered_and_its_cache_key_holds_the_recognisers_version() -> None:
    assert "second-reader" in pass_names()
    version = dict(pass_versions(OcrSettings(languages=("pol",))))["second-reader"]
    assert "rapidocr" in version
    assert "second-reader" not in dict(pass_versions(OcrSettings(languages=("pol",), disabled_passes=("second-reader",))))


def test_every_language_names_its_spelling_dictionaries_and_their_packages() -> None:
    """Or says in its file that it has none (`spelling: null`: Japanese and Chinese, for which Debian ships no hunspell
    dictionary), never by leaving the field out."""
    for code, language in all_languages().items():
        if language.spelling is None:
            assert "\nspelling: null" in (DATA_DIR / f"{code}.yaml").read_text(encoding="utf-8"), code
            continue
        assert len(language.spelling.debian_packages) >= 1


@pytest.mark.parametrize("name", sorted(RECOGNISERS))
def test_each_recogniser_reads_a_line_crop_with_its_words_in_order_and_place(name: str) -> None:
    if name == "rapidocr":
        pytest.importorskip("rapidocr")  # its weights are in the wheel: nothing is fetched (this machine has no internet)
    recogniser = RECOGNISERS[name]
    assert recogniser.unavailable() is None
    image = _text_image("El 7 de marzo")
    [reading] = recogniser.read([np.asarray(image)], ["spa"])
    assert reading.text == "El 7 de marzo" and reading.confidence > 0.8
    assert [w[0] for w in reading.words] == ["El", "7", "de", "marzo"]
    lefts = [w[2] for w in reading.words]
    assert lefts == sorted(lefts) and all(0 <= w[2] < w[3] <= image.width for w in reading.words)


@needs_hunspell
def test_a_second_reader_failing_mid_page_keeps_tesseracts_words_and_says_what_failed(monkeypatch) -> None:
    known = _known("pol")  # the pass is ready: dictionary and recogniser there

    class Broken:
        name = "broken"

        def unavailable(self):
            return None

        def alphabet(self):
            return None

        def read(self, crops, languages):
            raise RuntimeError("onnxruntime: out of memory")

    monkeypatch.setitem(RECOGNISERS, "broken", Broken())
    words = _line([("keufemizmom", 40), ("autora", 95)])
    assert known.spelling is not None
    result = read_again(Image.new("L", (400, 60), 255), words, ["pol"], recogniser_name="broken")
    assert result.words == words
    assert "broken failed" in result.note and "out of memory" in result.note


@needs_hunspell
def test_a_reading_cached_without_the_dictionary_is_read_again_once_it_is_installed_and_back(tmp_path, monkeypatch) -> None:
    """The attack: a page read while the Polish dictionary was missing (the second reader skipped), then the
    dictionary installed. The cached reading must not be reused, and the other way round."""
    from pipeline.extract.ocr import ReadingCache, ocr_pages, reading_key
    from pipeline.extract.ocr import hunspell, secondread
    from tests.pipeline.extract.ocr.builders import POLISH_OPTIONS, POLISH_PASSAGE, POLISH_STEM, build, colour_scan, question_page

    pytest.importorskip("rapidocr")
    scan = colour_scan(build(tmp_path / "sheet.pdf", [question_page(POLISH_STEM, POLISH_PASSAGE, POLISH_OPTIONS)]),
                       tmp_path / "scan.pdf", dpi=150)
    settings, cache, sha = OcrSettings(languages=("pol",), dpi=150), tmp_path / "cache", "cd" * 32
    installed = hunspell.DICTIONARY_DIR

    def dictionaries(folder):
        monkeypatch.setattr(hunspell, "DICTIONARY_DIR", folder)
        for cached in (hunspell._affix_file, hunspell._checker, readiness):
            cached.cache_clear()

    def read() -> tuple[str, int]:
        ocr_pages(scan, [1], settings, workers=1, cache_dir=cache, sha256=sha)
        reading = ReadingCache(cache).get(reading_key(sha, 1, settings))
        assert reading is not None
        return reading.second_reading or "", len(list(ReadingCache(cache).folder.rglob("*.json")))

    (tmp_path / "no-dictionaries").mkdir()
    dictionaries(tmp_path / "no-dictionaries")
    hidden_note, entries = read()
    assert "skipped" in hidden_note and "pl_PL" in hidden_note and entries == 1
    dictionaries(installed)
    visible_note, entries = read()
    assert "skipped" not in visible_note and entries == 2  # read again: not the reading made without it
    assert read() == (visible_note, 2)  # and cached as it is now
    dictionaries(tmp_path / "no-dictionaries")
    assert read() == (hidden_note, 2)  # the dictionary gone again: the reading made without it
    assert "pl_PL" in secondread.second_reader_inputs(("pol",))
