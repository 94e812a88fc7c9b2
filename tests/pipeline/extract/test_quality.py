"""The text-layer check: clean pages pass, scans and broken encodings go to OCR."""
from __future__ import annotations

import re
from pathlib import Path

import pypdfium2 as pdfium
import pytest

from pipeline.extract import ExtractOptions, extract_document, text_layer_usable
from pipeline.devkit.sample.figures import bar_chart_png
from pipeline.devkit.sample.pdfgen import ImageBox, Line, PageSpec, TextBox, rasterize_pdf
from pipeline.extract.quality import (
    assess_text_layer,
    curved_path_count,
    image_coverage,
)
from tests.pipeline.extract.ocr.builders import (
    POLISH_OPTIONS,
    POLISH_PASSAGE,
    POLISH_STEM,
    build,
    question_page,
)

from tests.fixtures.corpus import CORPUS  # noqa: E402
CLEAN_POLISH = " ".join([POLISH_STEM, POLISH_PASSAGE, *POLISH_OPTIONS])


def _page_signals(path: Path, index: int = 0) -> tuple[str, float, int]:
    document = pdfium.PdfDocument(str(path))
    try:
        page = document[index]
        text = page.get_textpage().get_text_range()
        return text, image_coverage(page), curved_path_count(page)
    finally:
        document.close()


@pytest.fixture(scope="module")
def sheet(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("quality")
    return build(folder / "sheet.pdf", [question_page(POLISH_STEM, POLISH_PASSAGE, POLISH_OPTIONS), PageSpec([])])


def test_clean_generated_page_is_usable(sheet):
    text, coverage, curved = _page_signals(sheet)
    verdict = assess_text_layer(text, image_coverage=coverage, curved_paths=curved)
    assert verdict.usable and verdict.reason is None
    assert verdict.letters > 200 and verdict.bad_glyph_share == 0 and verdict.split_share == 0


def test_scanned_page_needs_ocr(sheet, tmp_path):
    scan = rasterize_pdf(sheet, tmp_path / "scan.pdf", dpi=100)
    text, coverage, curved = _page_signals(scan)
    assert text.strip() == "" and coverage > 0.95
    verdict = assess_text_layer(text, image_coverage=coverage, curved_paths=curved)
    assert not verdict.usable and verdict.reason.startswith("scanned page")


def test_scan_with_a_printed_page_number_still_needs_ocr():
    verdict = assess_text_layer("Strona 3 z 12", image_coverage=1.0)
    assert not verdict.usable and "scanned page" in verdict.reason


def test_blank_page_without_images_is_not_sent_to_ocr(sheet):
    text, coverage, curved = _page_signals(sheet, 1)
    assert assess_text_layer(text, image_coverage=coverage, curved_paths=curved).usable


def test_page_with_a_small_picture_is_usable(tmp_path):
    png = bar_chart_png(["a", "b"], [1, 2])
    path = build(tmp_path / "pic.pdf", [PageSpec([TextBox(CLEAN_POLISH, 20, 20, 170), ImageBox(20, 80, 60, png)])])
    text, coverage, curved = _page_signals(path)
    assert 0.02 < coverage < 0.2
    assert assess_text_layer(text, image_coverage=coverage, curved_paths=curved).usable


def test_missing_unicode_maps_need_ocr():
    garbage = " ".join(f"(cid:{n})(cid:{n + 3})(cid:{n + 7})" for n in range(40))
    verdict = assess_text_layer("Zadanie 1. " + garbage)
    assert not verdict.usable and "(cid:NN)" in verdict.reason and verdict.bad_glyph_share > 0.5


def test_private_use_glyphs_need_ocr():
    text = "".join(chr(0xF000 + (i % 90)) for i in range(200)) + " Strona 2"
    verdict = assess_text_layer(text)
    assert not verdict.usable and "Unicode mapping" in verdict.reason


def test_a_few_symbol_glyphs_on_a_real_page_are_fine():
    # Wingdings check boxes come through as private-use characters; a page with a handful is normal.
    text = CLEAN_POLISH + " \uf0a8 tak \uf0a8 nie \ufffd"
    assert assess_text_layer(text).usable


def test_diacritics_split_from_their_words_need_ocr():
    broken = (
        "Ka ż dy wiersz zawiera nazw ę miejscowo ś ci oraz liczb ę ludno ś ci . Nale ż y wyznaczy ć najwi ę ksz ą "
        "g ę sto ść zaludnienia . Plik zawieraj ą cy dane jest zapisany w j ę zyku polskim , a ka ż da warto ść "
        "jest oddzielona ś rednikiem ."
    )
    verdict = assess_text_layer(broken)
    assert not verdict.usable and verdict.reason.startswith("broken glyph spacing")
    assert verdict.split_share >= 0.1


def test_an_occasional_split_like_pypdfs_is_tolerated():
    # pypdf's text of the 2016 CKE sheet splits a few words per page ("protoko łem", "zawieraj ą"): 5% at worst.
    text = CLEAN_POLISH + " Plik zawieraj ą cy dane jest protoko łem " + " ".join(["słowo"] * 60)
    verdict = assess_text_layer(text)
    assert verdict.usable and 0 < verdict.split_share < 0.1


def test_greek_single_letter_words_are_not_split_diacritics():
    text = "Να επιλέξετε τη σωστή απάντηση ή να γράψετε τη λέξη Σωστό ή Λάθος δίπλα σε κάθε πρόταση ή αριθμό. " * 3
    assert assess_text_layer(text).usable


def test_mostly_punctuation_needs_ocr():
    verdict = assess_text_layer("!#$%&'()*+,-./:;<=>?@[]^_`{|}~" * 4 + " ab")
    assert not verdict.usable and verdict.reason.startswith("mostly non-letters")


def test_text_drawn_as_outlines_needs_ocr():
    verdict = assess_text_layer("", curved_paths=900)
    assert not verdict.usable and "outlines" in verdict.reason


def test_ruled_answer_grid_counts_no_curved_paths(tmp_path):
    rules = [Line(20, 40 + 5 * i, 190, 40 + 5 * i, width=0.1) for i in range(40)]
    rules += [Line(20 + 5 * i, 40, 20 + 5 * i, 235, width=0.1) for i in range(35)]
    slanted = [Line(20, 250, 60, 280), Line(60, 280, 100, 250)]
    path = build(tmp_path / "grid.pdf", [PageSpec([TextBox("Brudnopis", 20, 20, 100), *rules, *slanted])])
    text, coverage, curved = _page_signals(path)
    assert curved == 0  # straight strokes only, slanted ones included: glyph outlines need Bézier curves
    assert assess_text_layer(text, image_coverage=coverage, curved_paths=curved).usable


def test_ocr_module_exposes_the_check_for_the_extract_stage():
    assert text_layer_usable(CLEAN_POLISH)
    assert not text_layer_usable("", image_coverage=1.0)


@pytest.mark.corpus
@pytest.mark.skipif(not CORPUS.is_dir(), reason="real exam material (../shared/corpus) not present")
def test_every_real_exam_page_is_read_from_its_text_layer():
    """Every development sheet is born digital: the stage, which maps Symbol-font glyphs before judging
    the layer, keeps every page's text layer (a page sent to OCR says so in a warning)."""
    checked = 0
    for pdf in sorted(CORPUS.rglob("*.pdf")):
        document = extract_document(pdf, "0" * 64, ExtractOptions())
        assert not [w for w in document.warnings if "text layer not usable" in w], pdf.relative_to(CORPUS)
        checked += document.page_count
    assert checked > 100


def test_answer_lines_drawn_as_dot_leaders_do_not_make_a_page_look_like_garbage():
    leaders = "Zadanie 1. Oblicz: a) 10 " + "." * 80 + " b) 4 " + "… " * 40 + " c) 0 " + "_" * 60
    assert assess_text_layer(leaders).usable
    assert not assess_text_layer("!#$%&'()*+,-/:;<=>?@[]^`{|}~" * 4 + " ab").usable  # real symbol soup still fails


def test_the_verdict_counts_every_script_and_space_as_a_glyph_by_glyph_reading_does():
    """The counts behind a verdict are taken by C loops; they are the glyph-by-glyph counts on text of
    any script, every kind of space (no-break, ideographic, line separators) and unmapped glyphs."""
    import random

    from pipeline.extract.quality import assess_text_layer, is_bad_glyph

    rng = random.Random(3)
    pieces = ["Zadanie", "Ποια", "다음", "Câu", "İğ", "Ёж", "١٢٣", "x²", "\ufffd", "\ue001", "\U000f0001", "(cid:12)",
              "ą", "ę", "........", "_ _ _ _", " ", "\u00a0", "\u3000", "\u2028", "\t", "\n", "\x85", "—", "½"]
    for _ in range(200):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 120)))
        verdict = assess_text_layer(text)
        plain = re.sub(r"(?:[.…_·‥] ?){4,}", " ", re.sub(r"\(cid:\d+\)", "", text))
        glyphs = [ch for ch in plain if not ch.isspace()]
        cids = len(re.findall(r"\(cid:\d+\)", text))
        total = len(glyphs) + cids
        assert verdict.letters == sum(ch.isalpha() for ch in glyphs)
        assert verdict.bad_glyph_share == round((cids + sum(is_bad_glyph(ch) for ch in glyphs)) / total if total else 0.0, 4)
        assert verdict.alnum_share == round(sum(ch.isalnum() for ch in glyphs) / total if total else 1.0, 4)


def test_split_diacritics_are_counted_token_by_token():
    """A word holds a letter; a split-off glyph is a lone letter that never stands alone, or a token opening
    with a letter no word starts with: the share is the token-by-token count, on any script and spacing."""
    import random

    from pipeline.extract.quality import split_letter_sets

    lone, initial = split_letter_sets()
    rng = random.Random(5)
    pieces = [*lone[:12], *initial[:12], "a", "Zadanie", "Ποια", "다음", "x²", "½", "12", "(cid:7)", "—", ".", "ą.", " ", "  ", "\n", "\u00a0"]
    shares = set()
    for _ in range(400):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 150)))
        tokens = re.sub(r"(?:[.…_·‥] ?){4,}", " ", re.sub(r"\(cid:\d+\)", "", text)).split()
        words = sum(1 for t in tokens if any(ch.isalpha() for ch in t))
        split = sum(1 for t in tokens if ((t in lone) if len(t) == 1 else (t[0] in initial)))
        expected = round(split / words if words else 0.0, 4)
        assert assess_text_layer(text).split_share == expected
        shares.add(expected)
    assert len(shares) > 50  # the texts were of every mix, not all alike


class _Unwalkable:
    """A page whose objects may not be walked: any walk fails the test."""

    def get_size(self):
        raise AssertionError("the page's objects were walked")

    get_objects = get_size


class _Walked:
    """A page whose walks answer `coverage` (one image) and `curved` paths, counting what was asked."""

    def __init__(self, coverage: float, curved: int):
        self.coverage, self.curved, self.asked = coverage, curved, []

    def get_size(self):
        return 100.0, 100.0

    def get_objects(self, filter, max_depth):  # noqa: A002 - pypdfium2's own name
        import pypdfium2.raw as pdfium_c

        kind = filter[0]
        self.asked.append(kind)
        if kind == pdfium_c.FPDF_PAGEOBJ_IMAGE:
            side = 100.0 * self.coverage ** 0.5
            return [type("Image", (), {"get_bounds": lambda _self: (0.0, 0.0, side, side)})()]
        return []


def test_a_page_of_text_is_judged_without_walking_its_objects():
    from pipeline.extract.quality import assess_page

    assert assess_page(CLEAN_POLISH, _Unwalkable()) == assess_text_layer(CLEAN_POLISH)


def test_a_page_with_few_letters_is_walked_only_for_what_can_change_its_verdict(monkeypatch):
    import pypdfium2.raw as pdfium_c

    from pipeline.extract import quality

    monkeypatch.setattr(quality, "curved_path_count", lambda page: page.asked.append("curved") or page.curved)
    # Images over most of the page make it a scan whatever its paths: the curved paths are not counted.
    scan = _Walked(0.9, 400)
    verdict = quality.assess_page("Strona 3", scan)
    assert verdict == assess_text_layer("Strona 3", image_coverage=0.9, curved_paths=400)
    assert verdict.reason.startswith("scanned page") and scan.asked == [pdfium_c.FPDF_PAGEOBJ_IMAGE]
    # Few letters and no large image: the outline test needs the curved paths.
    drawn = _Walked(0.0, 400)
    verdict = quality.assess_page("Strona 3", drawn)
    assert verdict.reason.startswith("text drawn as outlines") and drawn.asked[-1] == "curved"
    # 20 to 39 letters: the outline test cannot hold, the scan test still can.
    text = "Arkusz egzaminacyjny zadania"  # 26 letters
    between = _Walked(0.1, 400)
    assert quality.assess_page(text, between) == assess_text_layer(text, image_coverage=0.1, curved_paths=400)
    assert between.asked == [pdfium_c.FPDF_PAGEOBJ_IMAGE]
