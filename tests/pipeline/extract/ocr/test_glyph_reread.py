"""The `glyph-reread` pass: a word no spelling dictionary knows, one glyph from a word one knows (a mark lost over a
letter, a confused shape), is read again alone from its crop of the scan, enlarged, and takes the known word only
when that second reading says so; a word printed without its mark stays as printed, a word the second recogniser
read alike is never read again. Lines are drawn in real typefaces at a 150 dpi scan's size, blurred and JPEG'd as
such a scan is, and read by the real Tesseract and the real hunspell dictionaries."""
from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image, ImageDraw, ImageFilter, ImageFont

from pipeline.extract.ocr.glyphreread import glyph_candidates, reread_one_glyph_words, spelling_of
from pipeline.extract.ocr.pagepasses import PAGE_PASSES
from pipeline.extract.ocr.words import Word
from tests.pipeline.extract.ocr.builders import needs_tesseract

FONTS = [Path("/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"), Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"),
         Path("/usr/share/fonts/truetype/liberation/LiberationSerif-Regular.ttf")]
DPI = 150
SIZE = 21  # px: 10 pt at 150 dpi


def scanned_line(tokens: list[str], font_path: Path) -> tuple[Image.Image, list[Word]]:
    """`tokens` printed on one line at 10 pt, scanned at 150 dpi (blur 0.8, JPEG 70); the words' boxes are their ink's
    below the accents (Tesseract's box leaves a lost mark out), as Tesseract gives them."""
    if not font_path.is_file():
        pytest.skip(f"{font_path} not installed")
    font = ImageFont.truetype(str(font_path), SIZE)
    image = Image.new("L", (40 + 16 * sum(len(t) + 1 for t in tokens), 4 * SIZE), 255)
    draw = ImageDraw.Draw(image)
    words, x = [], 20
    for token in tokens:
        left, top, right, bottom = draw.textbbox((x, int(1.5 * SIZE)), token, font=font)
        x_top = draw.textbbox((x, int(1.5 * SIZE)), "x", font=font)[1]
        draw.text((x, int(1.5 * SIZE)), token, font=font, fill=0)
        words.append(Word(token, 90.0, left, max(top, x_top - SIZE // 3), right, bottom, (1, 1, 1)))
        x = right + int(0.3 * SIZE)
    soft = image.filter(ImageFilter.GaussianBlur(0.8))
    data = io.BytesIO()
    soft.save(data, "JPEG", quality=70)
    return Image.open(io.BytesIO(data.getvalue())).convert("L"), words


def read_as(words: list[Word], texts: list[str]) -> list[Word]:
    return [Word(text, w.conf, w.left, w.top, w.right, w.bottom, w.line, w.second) for w, text in zip(words, texts)]


def spanish():
    spelling = spelling_of(["spa"])
    if spelling is None:
        pytest.skip("no Spanish hunspell dictionary")
    return spelling


@needs_tesseract("spa")
@pytest.mark.parametrize("font", FONTS, ids=lambda p: p.stem)
def test_an_accent_lost_over_a_small_letter_comes_back_from_the_crop(font: Path):
    spelling = spanish()
    scan, words = scanned_line(["Síndrome", "de", "la", "física", "en", "días"], font)
    misread = read_as(words, ["Sindrome", "de", "la", "fisica", "en", "dias"])
    mended = reread_one_glyph_words(misread, scan, ["spa"], DPI, 1, spelling)
    assert [w.text for w in mended] == ["Síndrome", "de", "la", "física", "en", "días"]


@needs_tesseract("spa")
@pytest.mark.parametrize("font", FONTS, ids=lambda p: p.stem)
def test_a_word_printed_without_its_accent_stays_as_printed(font: Path):
    """`Constitucion` is no word to the dictionary and `Constitución` is; the crop shows no accent, so it stays."""
    spelling = spanish()
    scan, words = scanned_line(["Constitucion", "Administracion", "publicos"], font)
    assert [w.text for w in reread_one_glyph_words(words, scan, ["spa"], DPI, 1, spelling)] == \
        ["Constitucion", "Administracion", "publicos"]


def test_a_word_the_second_recogniser_read_alike_gets_no_other_shape_but_may_get_its_mark():
    """Both engines read `caiman`: `calman` (another shape) is not tried. Both read `Sindrome`: RapidOCR reads marks
    seldom, so its bare `i` says nothing of the accent, and the crop still decides."""
    spelling = spanish()
    scan, words = scanned_line(["caiman", "Síndrome"], FONTS[0])
    both_alike = [Word(text, 90.0, w.left, w.top, w.right, w.bottom, w.line, second=text)
                  for w, text in zip(words, ["caiman", "Sindrome"])]
    calls: list[Image.Image] = []

    def read(crop: Image.Image) -> str:
        calls.append(crop)
        return "calman" if len(calls) == 1 else "Síndrome"  # the crops are read in the line's order
    mended = reread_one_glyph_words(both_alike, scan, ["spa"], DPI, 1, spelling, read=read)
    assert [w.text for w in mended] == ["caiman", "Síndrome"] and len(calls) == 2
    unread = [Word(w.text, w.conf, w.left, w.top, w.right, w.bottom, w.line) for w in both_alike]
    assert [w.text for w in reread_one_glyph_words(unread, scan, ["spa"], DPI, 1, spelling, read=lambda crop: "calman")][0] == "calman"


def test_a_second_reading_that_is_no_candidate_changes_nothing_and_is_kept_for_the_flag():
    spelling = spanish()
    scan, words = scanned_line(["Sindrome", "agudo"], FONTS[0])
    mended = reread_one_glyph_words(words, scan, ["spa"], DPI, 1, spelling, read=lambda crop: "Sindrorne")
    assert mended[0].text == "Sindrome" and mended[0].second == "Sindrorne"
    same = reread_one_glyph_words(words, scan, ["spa"], DPI, 1, spelling, read=lambda crop: "Sindrome")
    assert same[0].text == "Sindrome" and same[0].second is None


def test_candidates_are_one_mark_or_one_confused_shape_away():
    spelling = spanish()
    from pipeline.extract.ocr.glyphreread import _marked_letters
    marked = _marked_letters(spelling)
    assert "Síndrome" in glyph_candidates("Sindrome", marked)
    assert "sérico" in glyph_candidates("sénco", marked)  # `ri` read as `n`
    assert "calman" in glyph_candidates("caiman", marked)  # `l` read as `i`
    assert all(len(c) >= len("Sindrome") - 1 for c in glyph_candidates("Sindrome", marked))


def test_languages_without_marks_or_dictionaries_do_not_apply():
    assert spelling_of(["kor"]) is None  # a dictionary of jamo: no letter with a mark
    assert spelling_of(["xxx"]) is None


def test_the_pass_is_registered_after_the_word_repairs_with_a_version_and_a_condition():
    names = [p.name for p in PAGE_PASSES]
    found = PAGE_PASSES[names.index("glyph-reread")]
    assert names.index("second-reader") < names.index("glyph-reread") and names.index("capital-accents") < names.index("glyph-reread")
    assert not found.required and found.version and "dictionar" in found.condition


def test_a_mark_is_only_added_or_changed_never_taken_off():
    """`exsanguíneo` read as printed is one mark from `exsanguineo`; the pass never proposes the bare letter."""
    spelling = spelling_of(["por"]) or pytest.skip("no Portuguese hunspell dictionary")
    from pipeline.extract.ocr.glyphreread import _marked_letters
    marked = _marked_letters(spelling)
    assert "i" not in marked.get("í", ()) and "í" in marked["i"]
    assert not any(c == "exsanguineo" for c in glyph_candidates("exsanguíneo", marked))
    scan, words = scanned_line(["exsanguíneo"], FONTS[0])
    assert reread_one_glyph_words(words, scan, ["por"], DPI, 1, spelling, read=lambda crop: "exsanguineo")[0].text == "exsanguíneo"
