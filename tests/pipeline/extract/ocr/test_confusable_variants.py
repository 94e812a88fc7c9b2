"""A word the spelling dictionaries lack while exactly one variant of it with one confusable run of its script swapped
is a word they know (`certainty.confusable_variant`, `CertaintyPolicy.confusable_letters` and `confusable_marks`; the
runs per script in `pipeline/languages/scripts.yaml`): OCR read a real word's shape as a non-word, confidently, and the
word is an unsure reading; it stays as read. A known word, a word no variant of which is known (a name, a term) and a
word with several known variants are not judged by it. The words here are drawn from the dictionaries by a seed."""
from __future__ import annotations

import random
from dataclasses import replace

import pytest

from pipeline.devkit.sample.pdfgen import PageSpec, TextBox, build_pdf
from pipeline.devkit.sample.raster import rasterize_pdf
from pipeline.extract.ocr import OcrSettings, read_page, word_list
from pipeline.extract.ocr.certainty import CertaintyPolicy, spelled_for, unsure_reason
from pipeline.extract.ocr.confusables import CONFUSABLE_LETTERS, CONFUSABLE_MARKS, confusable_variant, marked_variants, swapped_variants
from pipeline.extract.ocr.lexicon import Lexicon, load_lexicon
from pipeline.extract.ocr.page import lay_out_page
from pipeline.languages import ScriptData, script_data
from tests.pipeline.extract.ocr.builders import first_page, needs_tesseract


def _language(tesseract: str):
    lexicon, spelled = load_lexicon((tesseract,)), spelled_for((tesseract,))
    if lexicon is None or spelled is None:
        pytest.skip(f"no word list or spelling dictionary for {tesseract}")
    return lexicon, spelled


def test_every_script_of_a_language_with_words_to_confuse_has_its_runs_and_they_read_both_ways():
    latin = script_data("Latin")
    assert ("I", "l") in latin.confusable and ("rn", "m") in latin.confusable and latin.marks
    assert script_data("Greek").confusable and script_data("Cyrillic").confusable
    assert script_data("Hangul") == ScriptData()  # no data: its dictionary is never asked
    lexicon = load_lexicon(("spa",))
    if lexicon is None:
        pytest.skip("no Spanish word list")
    assert ("l", "I") in lexicon.confusable and ("m", "rn") in lexicon.confusable  # both ways
    assert "á" in lexicon.marked_letters["a"] and "ñ" in lexicon.marked_letters["n"]
    with pytest.raises(ValueError):
        ScriptData(confusable=[("l", "l")])


def test_variants_swap_one_run_at_one_place_in_the_words_case_and_lose_or_gain_one_diacritic():
    pairs = (("i", "l"), ("l", "i"), ("I", "l"), ("l", "I"), ("m", "rn"))
    assert set(swapped_variants("lima", pairs)) == {"llma", "iima", "Iima", "lirna"}
    assert swapped_variants("IANA", (("i", "l"), ("I", "l"))) == ["lANA"]  # a capital I is no capital L's shape
    assert set(marked_variants("Perú", {"u": ("ú", "ü"), "e": ("é",)})) == {"Pérú", "Peru", "Perü"}


def _chosen(tesseract: str, lexicon: Lexicon, spelled, count: int, seed: int, listed: bool = False) -> tuple[list[str], list[str], list[str]]:
    """From the language's listed words, by `seed`: `count` misreads (a known word with one confusable run swapped into a
    non-word whose only known variant is that word; `listed`: one Tesseract's word list holds, which its language model
    does not read as another word), `count` right words of no known variant, and `count` right words one swap of which
    is another known word."""
    words = [w for w in word_list(tesseract) if w.isalpha() and 5 <= len(w) <= 10 and w == w.lower()]
    random.Random(seed).shuffle(words)
    misreads: list[str] = []
    lone: list[str] = []
    twins: list[str] = []
    for word in words:
        if not spelled(word):
            continue
        variants = [v for v in swapped_variants(word, lexicon.confusable) if v.isalpha()]
        known = [v for v in variants if spelled(v)]
        if known and len(twins) < count:
            twins.append(word)
        elif not known and variants and len(lone) < count:
            lone.append(word)
        if len(misreads) < count:
            misreads += [v for v in variants[:1] if not spelled(v) and (not listed or v in lexicon)
                         and confusable_variant(v, lexicon, spelled) == CONFUSABLE_LETTERS]
        if min(len(misreads), len(lone), len(twins)) >= count:
            break
    return misreads, lone, twins


@pytest.mark.parametrize("tesseract", ["spa", "por", "pol", "rus"])
def test_a_non_word_one_confusable_run_from_a_word_is_unsure_and_the_words_beside_it_are_not(tesseract):
    lexicon, spelled = _language(tesseract)
    misreads, lone, twins = _chosen(tesseract, lexicon, spelled, 6, seed=7)
    assert len(misreads) == len(lone) == len(twins) == 6
    for word in misreads:
        assert confusable_variant(word, lexicon, spelled) == CONFUSABLE_LETTERS, word
        # Unsure however confident Tesseract was, and read alike by the second recogniser too: both read the one shape.
        assert unsure_reason(word, 96.0, lexicon, second=word, spelled=spelled) is not None, word
    for word in lone + twins:
        assert confusable_variant(word, lexicon, spelled) is None, word  # known words are read as printed
    assert all(confusable_variant(word, lexicon, spelled, letters=False) is None for word in misreads)


def test_a_name_no_variant_of_which_is_known_and_a_word_of_two_known_variants_are_not_judged():
    lexicon, spelled = _language("spa")
    names = [w for w in ("Xqvorth", "Zbrynkowa") if not spelled(w)]
    for name in names:
        assert confusable_variant(name, lexicon, spelled) is None
    # A non-word two of whose variants are known names no one word.
    lexicon_words = [w for w in word_list("spa") if w.isalpha() and 5 <= len(w) <= 9 and w == w.lower() and "l" in w][:4000]
    crowded = next((v for w in lexicon_words if spelled(w) for v in swapped_variants(w, lexicon.confusable)
                    if v.isalpha() and not spelled(v) and len({x.casefold() for x in swapped_variants(v, lexicon.confusable) if spelled(x)}) > 1),
                   None)
    if crowded is not None:
        assert confusable_variant(crowded, lexicon, spelled) != CONFUSABLE_LETTERS


def test_a_word_one_diacritic_from_a_known_word_is_unsure_only_where_the_policy_asks_for_marks():
    lexicon, spelled = _language("spa")
    words = [w for w in word_list("spa") if w.isalpha() and 5 <= len(w) <= 10 and w == w.lower() and any(c in w for c in "áéíóú")]
    random.Random(3).shuffle(words)
    lost = next(bare for w in words if spelled(w)
                for bare in [w.translate(str.maketrans("áéíóú", "aeiou"))]
                if not spelled(bare) and len({m.casefold() for m in marked_variants(bare, lexicon.marked_letters) if spelled(m)}) == 1
                and not any(spelled(v) for v in swapped_variants(bare, lexicon.confusable)))
    assert confusable_variant(lost, lexicon, spelled, marks=True) == CONFUSABLE_MARKS
    assert confusable_variant(lost, lexicon, spelled) is None
    off_as_shipped = CertaintyPolicy()  # sheets and dictionaries differ on accents (`cardiaco`, names)
    assert not off_as_shipped.confusable_marks and unsure_reason(lost, 96.0, lexicon, off_as_shipped, spelled=spelled) != CONFUSABLE_MARKS
    assert unsure_reason(lost, 96.0, lexicon, CertaintyPolicy(confusable_marks=True), spelled=spelled) is not None


DPI = 300


@needs_tesseract("spa")
def test_on_a_generated_scan_the_printed_non_words_are_unsure_and_the_right_words_are_not(tmp_path):
    """A Spanish sheet printing, among right words, non-words one confusable run from a word (a misread's result, and
    words of Tesseract's list, so that a clean 300 dpi scan reads them as they stand, as it reads `caiman` for
    `calman`), read by OCR and laid out: each non-word is among its line's unsure words, and without the rule none is."""
    lexicon, spelled = _language("spa")
    misreads, lone, twins = _chosen("spa", lexicon, spelled, 4, seed=11, listed=True)
    lines = [" ".join((lone[i], misreads[i], twins[i])) for i in range(4)]
    pdf = build_pdf(tmp_path / "sheet.pdf", [PageSpec(tuple(TextBox(line, 20, 30 + 12 * i, 170, size=12) for i, line in enumerate(lines)))])
    image = first_page(rasterize_pdf(pdf, tmp_path / "scan.pdf", dpi=DPI, blur=0.3, noise=0.0, jpeg_quality=92, seed=1), DPI)
    settings = OcrSettings(languages=("spa",), dpi=DPI)
    reading = read_page(image, settings, page_number=1)

    def unsure(policy: CertaintyPolicy) -> set[str]:
        page = lay_out_page(reading, replace(settings, certainty=policy), page_number=1, width_pt=595.0, height_pt=842.0)
        return {w for line in page.lines for w in line.unsure_words}

    read = {w.text for w in reading.words}
    printed_as_read = [w for w in misreads if w in read]
    assert len(printed_as_read) >= 3, (read, misreads)  # the premise: OCR read them as printed
    flagged = unsure(CertaintyPolicy())
    assert set(printed_as_read) <= flagged
    assert not flagged & set(lone + twins)
    assert not set(printed_as_read) & unsure(CertaintyPolicy(confusable_letters=False, confusable_marks=False))
