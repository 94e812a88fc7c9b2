"""The spelling dictionaries (`hunspell`) asked about words as a language prints them: a word the language writes
two ways (Vietnamese tone marks on either vowel of oa, oe, uy) is a word whichever way it is printed, where
Debian's dictionary lists only one. Real hunspell, and real Tesseract on a generated scan."""
from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pytest

from pipeline.devkit.sample.pdfgen import PageSpec, TextBox, build_pdf, rasterize_pdf
from pipeline.extract import ExtractOptions, extract_document
from pipeline.extract.ocr import OcrSettings
from pipeline.extract.ocr.hunspell import spelling_for
from tests.pipeline.extract.ocr.builders import needs_tesseract

needs_vietnamese = pytest.mark.skipif(shutil.which("hunspell") is None or not Path("/usr/share/hunspell/vi_VN.dic").exists(),
                                      reason="hunspell or its Vietnamese dictionary (hunspell-vi) is not installed (make setup)")
MODERN = ["hòa", "hóa", "thủy", "khỏe", "Hóa", "THỦY"]  # the tone on the first vowel, as most papers print it


@needs_vietnamese
def test_a_vietnamese_word_is_known_with_its_tone_on_either_vowel_and_a_misspelling_stays_unknown():
    spelling = spelling_for(["vie"])
    assert spelling.knows(["hoà", "hoá", "thuỷ", "khoẻ"]) == [True] * 4  # as the dictionary lists them
    assert spelling.knows(MODERN) == [True] * len(MODERN)
    assert spelling.knows(["hòax", "thủyy", "luc", "hóá"]) == [False] * 4  # no spelling of a non-word becomes a word


@needs_vietnamese
def test_the_language_data_alone_says_which_spellings_are_one_word():
    # Polish has no such pairs: a Polish dictionary is asked each word as read, and nothing else.
    assert spelling_for(["pol"]).same_words == ()
    assert ("òa", "oà") in spelling_for(["vie"]).same_words and ("oà", "òa") in spelling_for(["vie"]).same_words


@needs_vietnamese
@needs_tesseract("vie")
def test_words_of_a_scanned_vietnamese_line_read_as_printed_are_words_of_the_language(tmp_path):
    text = "Hòa bình và thủy điện, hóa học cho sức khỏe của mọi người"
    source = build_pdf(tmp_path / "line.pdf", [PageSpec((TextBox(text, 20, 30, 170, size=12),))])
    scan = rasterize_pdf(source, tmp_path / "scan.pdf", dpi=200, blur=0.6, jpeg_quality=80, noise=0.01, seed=0)
    options = ExtractOptions(ocr=OcrSettings(languages=("vie",), dpi=300), ocr_workers=1)
    document = extract_document(scan, hashlib.sha256(scan.read_bytes()).hexdigest(), options)
    read = " ".join(line.text for page in document.pages for line in page.lines).replace(",", " ").split()
    modern = [w for w in read if w.lower() in {"hòa", "thủy", "hóa", "khỏe"}]
    assert len(modern) >= 3, read  # Tesseract read most of them as printed
    assert spelling_for(["vie"]).knows(modern) == [True] * len(modern)
