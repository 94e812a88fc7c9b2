"""Misreads both spellings of which are words (`mark-checks`): a word read without the mark print may leave off where its
ink shows the mark (`веселые` for a printed `весёлые`) is unsure, and one read as printed (`все`, `всё`) is not; a mark
monotonic Greek never writes (`Εὐκρατη`) and a letter read twice that its box has no room for (`Αιχμμαλώτισαν`) are
unsure too. The pass marks words unsure and rewrites none."""
from __future__ import annotations

import difflib
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from pipeline.devkit import aftercache
from pipeline.devkit.sample.pdfgen import PageSpec, TextBox, build_pdf, rasterize_pdf
from pipeline.extract.ocr import OcrSettings, read_page
from pipeline.extract.ocr.certainty import spelled_for
from pipeline.extract.ocr.lexicon import load_lexicon
from pipeline.extract.ocr.markchecks import check_marks, dictionaries_to_ask, mark_facts, optional_twins, unwritten_marks
from pipeline.extract.ocr.pagepasses import PAGE_PASSES
from pipeline.extract.ocr.words import Word
from tests.pipeline.extract.ocr.builders import first_page, needs_tesseract


def _dictionaries(languages: tuple[str, ...]):
    spelled = spelled_for(languages)
    if spelled is None:
        pytest.skip(f"no spelling dictionary for {languages}")
    return spelled


def test_the_languages_say_which_marks_print_may_leave_off_and_which_they_write():
    russian, greek = mark_facts(("rus",)), mark_facts(("ell",))
    assert russian.optional == {"ё": "е"} and not russian.written
    assert set(optional_twins("всё", russian)) == {(2, "все")}
    assert set(optional_twins("весёлые", russian)) == {(1, "вёсёлые"), (3, "веселые"), (6, "весёлыё")}
    assert optional_twins("Ёж", russian) == [(0, "Еж")]  # the capital's mark too
    assert greek.written["GREEK"] >= set("άέήίόύώϊϋΐΰ") and not greek.optional
    assert not mark_facts(("spa",))  # a language that says neither is not judged by them


def test_a_mark_monotonic_greek_never_writes_is_a_misread_and_its_own_marks_are_not():
    greek = mark_facts(("ell",))
    assert unwritten_marks("Εὐκρατη", greek) == "ὐ"  # a breathing read for the tonos of `Εύκρατη`
    assert unwritten_marks("ὁδός", greek) == "ὁ"
    assert unwritten_marks("Εύκρατη", greek) is None and unwritten_marks("ὃ", greek) is None  # a lone letter: a label
    assert unwritten_marks("Ϊουλιανός", greek) is None and unwritten_marks("προϋπόθεση", greek) is None
    assert unwritten_marks("Müller", greek) is None  # another script's letters: the Greek list says nothing of them
    assert unwritten_marks("Εὐκρατη", mark_facts(("rus",))) is None


def test_a_mark_the_word_list_knows_or_the_page_prints_is_no_misread():
    """`μὲ` and `αἱ` are words of Tesseract's Greek list with those marks (a quotation in polytonic Greek); a page that
    holds two of them prints such marks, so a word of it the list lacks (`Εὐκρατη`) is not judged by them either."""
    greek, lexicon = mark_facts(("ell",)), load_lexicon(("ell",))
    grey = np.full((200, 600), 255, dtype=np.uint8)
    line = (1, 1, 1)
    misread = Word("Εὐκρατη", 90.0, 10, 20, 120, 50, line)
    quoted = [Word("μὲ", 90.0, 130, 20, 160, 50, line), Word("αἱ", 90.0, 170, 20, 200, 50, line)]
    checked, _ = check_marks([misread], grey, greek, None, lexicon)
    assert [w.unsure_mark for w in checked] == [True]
    checked, _ = check_marks([misread, quoted[0]], grey, greek, None, lexicon)
    assert [w.unsure_mark for w in checked] == [True, False]
    checked, _ = check_marks([misread, *quoted], grey, greek, None, lexicon)
    assert [w.unsure_mark for w in checked] == [False, False, False]


# Words whose other spelling with ё or е is a word the Russian dictionary knows, each printed as it is spelt here.
RUSSIAN = ("Весёлые дети всё поняли, но все ушли. Зверь жрёт мясо, его жена пошла домой. Ещё одна весёлая песня: "
           "она ещё поёт, а мы все молчим. Всё это было весело.")


def _scan_words(tmp_path: Path, text: str, language: str, dpi: int, blur: float, jpeg: int, font: str = "DejaVuSerif"):
    pdf = build_pdf(tmp_path / "page.pdf", [PageSpec([TextBox(text, 20, 30, 170, size=10, font=font)])])
    scan = rasterize_pdf(pdf, tmp_path / f"scan-{dpi}.pdf", dpi=dpi, blur=blur, jpeg_quality=jpeg, seed=5)
    image = first_page(scan, 300)
    reading = read_page(image, OcrSettings(languages=(language,), dpi=300, disabled_passes=("mark-checks",)), page_number=1)
    words = [Word(w.text, w.conf, w.left, w.top, w.right, w.bottom, w.line, w.second) for w in reading.words]
    return words, np.asarray(image.convert("L")), image


def _bare(text: str) -> str:
    return text.replace("ё", "е").replace("Ё", "Е")


@needs_tesseract("rus")
@pytest.mark.parametrize("dpi,blur,jpeg", [(150, 0.8, 70), (300, 0.5, 85)])
def test_a_word_read_without_the_dots_its_ink_shows_is_unsure_and_one_read_as_printed_is_not(tmp_path, dpi, blur, jpeg):
    """Each printed word of `RUSSIAN` at its box as Tesseract read it, given both spellings: the one printed stays sure,
    the other (`веселые` over the dots of `Весёлые`, `всё` over the bare `е` of `все`) is unsure."""
    spelled = _dictionaries(("rus",))
    lexicon = load_lexicon(("rus",))
    words, grey, _ = _scan_words(tmp_path, RUSSIAN, "rus", dpi, blur, jpeg)
    printed = RUSSIAN.split()
    assert len(words) == len(printed)
    judged = 0
    for word, token in zip(words, printed):
        right = token.strip(".,:")
        if "ё" not in right.lower() and right.lower() not in {"все", "его", "еще"}:
            continue
        if _bare(word.text) != _bare(token):
            continue  # a word Tesseract read with another letter wrong: no place to put either spelling
        other = right.replace("ё", "е") if "ё" in right else right.replace("е", "ё", 1)
        as_printed, misread = replace(word, text=token), replace(word, text=token.replace(right, other))
        checked, found = check_marks([as_printed, misread], grey, mark_facts(("rus",)), spelled, lexicon)
        assert [w.unsure_mark for w in checked] == [False, True], (right, other, found)
        judged += 1
    assert judged >= 6


@needs_tesseract("rus")
def test_the_pass_marks_unsure_the_words_tesseract_read_without_their_dots_and_no_other(tmp_path):
    """A soft scan (150 dpi, blur 0.8, JPEG 70) read with every pass: a word read with `е` where `ё` is printed is
    unsure; every word read as printed is not."""
    _dictionaries(("rus",))
    pdf = build_pdf(tmp_path / "page.pdf", [PageSpec([TextBox(RUSSIAN, 20, 30, 170, size=10, font="DejaVuSerif")])])
    scan = rasterize_pdf(pdf, tmp_path / "scan.pdf", dpi=150, blur=0.8, jpeg_quality=70, seed=5)
    image = first_page(scan, 300)
    settings = OcrSettings(languages=("rus",), dpi=300)
    reading = read_page(image, settings, page_number=1)
    printed = RUSSIAN.split()
    # Each read word paired with the printed word it reads, spellings with ё and е alike (Tesseract may read a line late).
    pairs = difflib.SequenceMatcher(a=[_bare(w.text) for w in reading.words], b=[_bare(w) for w in printed], autojunk=False)
    matched = [(reading.words[block.a + k], printed[block.b + k]) for block in pairs.get_matching_blocks() for k in range(block.size)]
    assert len(matched) >= 0.9 * len(printed)
    for read, right in matched:
        if read.text == right:
            assert not read.unsure_mark, read.text
        elif "ё" in right.lower():
            assert read.unsure_mark, (read.text, right)
    # The pass applied to the reading made without it, the page rendered again from the scan, marks the same words
    # (what `pipeline.devkit.aftercache --after mark-checks` measures by).
    without = read_page(image, replace(settings, disabled_passes=("mark-checks",)), page_number=1)
    aftercache._READING["pdf"] = scan
    applied = aftercache.with_mark_checks(without, settings, 1)
    assert [w.unsure_mark for w in applied.words] == [w.unsure_mark for w in reading.words]


GREEK = ("Οι στρατιώτες αιχμαλώτισαν τους εχθρούς κοντά στη θάλασσα και η γραμματεία έστειλε το γράμμα στην επιτροπή. "
         "Το κλίμα της περιοχής είναι εύκρατο και οι κάτοικοι καλλιεργούν σιτάρι, ελιές και αμπέλια στις πλαγιές των λόφων. "
         "Η ιστορία της πόλης γράφτηκε από τους μαθητές του σχολείου με τη βοήθεια των δασκάλων και των γονέων τους.")


@needs_tesseract("ell")
def test_a_letter_read_twice_that_its_box_has_no_room_for_is_unsure(tmp_path):
    """A Greek page scanned at 200 dpi: each word of five letters or more holding no doubled letter, read as printed,
    given one of its letters twice (`αιχμμαλώτισαν`) is unsure where the dictionary knows it once; the word as printed,
    and a printed doubled letter (`γράμμα`), are not."""
    spelled = _dictionaries(("ell",))
    lexicon = load_lexicon(("ell",))
    words, grey, _ = _scan_words(tmp_path, GREEK, "ell", 200, 0.7, 80, font="DejaVuSans")
    printed = set(GREEK.replace(",", " ").replace(".", " ").split())
    facts = mark_facts(("ell",))
    right = [w for w in words if w.text.strip(".,") in printed]
    assert len(right) >= 30
    checked, found = check_marks(right, grey, facts, spelled, lexicon)
    assert not [w.text for w in checked if w.unsure_mark], found
    doubled = []
    for word in right:
        core = word.text.strip(".,")
        if len(core) < 5 or any(a == b for a, b in zip(core, core[1:])):
            continue
        at = next((i for i, ch in enumerate(core) if ch in "μλτσπνκρ" and i > 0), None)
        if at is None:
            continue
        twice = replace(word, text=word.text.replace(core, core[:at] + core[at] + core[at:]))
        doubled.append(twice)
    assert len(doubled) >= 8
    checked, found = check_marks([*right, *doubled], grey, facts, spelled, lexicon)
    flagged = [w.text for w in checked if w.unsure_mark]
    assert set(flagged) <= {w.text for w in doubled}
    assert len(flagged) >= 0.75 * len(doubled), found
    capitals = [replace(w, text=w.text.upper()) for w in doubled]  # an acronym doubles a letter as printed
    checked, _ = check_marks([*right, *capitals], grey, facts, spelled, lexicon)
    assert not [w.text for w in checked if w.unsure_mark]


def test_a_dictionary_that_knows_every_word_is_never_asked():
    """Korean's hunspell dictionary knows every word, the checker's sentinel too: asked, it never answers."""
    assert dictionaries_to_ask(("kor",)) is None
    assert dictionaries_to_ask(("kor", "eng")) is None


def test_the_pass_runs_after_the_word_repairs_with_a_version_a_cost_and_a_condition():
    names = [p.name for p in PAGE_PASSES]
    assert names.index("mark-checks") > names.index("second-letters") > names.index("second-reader")
    checks = PAGE_PASSES[names.index("mark-checks")]
    assert checks.version and checks.condition and checks.cost.name == "CHEAP"
