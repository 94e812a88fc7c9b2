"""The `confused-letters` pass: a word a blurred scan read with two printed letters joined into one (`rn` read `m`,
`ri` read `n`, `cl` read `d`) that no dictionary knows, mended to the one known word the language's confused letters
(language data `text_quality.misread_letters`) or the second reader's reading of its box make, where the box's width
fits it; right words, known words read from a misreading (`diente` for `cliente`), and words two candidates fit stay
as read. Lines are drawn in Debian's faces (Liberation's Times- and Arial-like faces, DejaVu), blurred as a 150, a 200
and a 300 dpi scan are; each word's box is its ink's, as Tesseract gives it, and its text what a scan was read as."""
from __future__ import annotations

import textwrap
from dataclasses import replace
from pathlib import Path

import pytest
from PIL import Image, ImageDraw, ImageFilter, ImageFont

from pipeline.extract.ocr import OcrUnavailable, installed_languages
from pipeline.extract.ocr.certainty import spelled_for
from pipeline.extract.ocr.confusions import group_candidates, mend_confused_letters
from pipeline.extract.ocr.lexicon import load_lexicon
from pipeline.extract.ocr.pagepasses import PAGE_PASSES, read_page
from pipeline.extract.ocr.settings import OcrSettings
from pipeline.extract.ocr.words import Word
from tests.pipeline.extract.ocr.drawnlines import FONT_DIR, drawn_line

FONTS = [FONT_DIR / "liberation/LiberationSerif-Regular.ttf", FONT_DIR / "liberation/LiberationSans-Regular.ttf",
         FONT_DIR / "dejavu/DejaVuSans.ttf", FONT_DIR / "dejavu/DejaVuSerif.ttf"]
# (pixels a 10 pt line's size is, blur): a 150 dpi scan at blur 0.8, a 200 dpi one at 0.6 and a 300 dpi one at 1.6.
SCANS = [(21, 0.8), (28, 0.6), (42, 1.6)]


def language(code: str):
    lexicon, spelled = load_lexicon([code]), spelled_for((code,))
    if lexicon is None or spelled is None or not lexicon.misread_letters:
        pytest.skip(f"no word list or spelling dictionary for {code}")
    return lexicon, spelled


def read_as(words: list[Word], texts: dict[int, str], second: dict[int, str] | None = None) -> list[Word]:
    return [replace(w, text=texts.get(i, w.text), second=(second or {}).get(i)) for i, w in enumerate(words)]


SPANISH = ["El", "gobierno", "aprobó", "el", "régimen", "interno", "de", "la", "materia", "para", "el", "cliente",
           "con", "claridad", "y", "criterio", "moderno"]
PORTUGUESE = ["O", "governo", "federal", "publicou", "o", "primeiro", "relatório", "externo", "com", "clareza",
              "sobre", "a", "matéria", "do", "cliente"]


@pytest.mark.parametrize("scan", SCANS, ids=lambda s: f"{s[0]}px")
@pytest.mark.parametrize("font", FONTS, ids=lambda p: p.stem)
def test_letters_blur_joined_are_put_back_where_one_known_word_fits_the_box(font: Path, scan: tuple[int, float]):
    lexicon, spelled = language("spa")
    _, words = drawn_line(SPANISH, font, *scan)
    misread = read_as(words, {1: "gobiemo", 5: "intemo", 8: "matena", 13: "dandad", 15: "cnterio", 16: "modemo"})
    mended = mend_confused_letters(misread, lexicon, spelled)
    assert [w.text for w in mended.words] == SPANISH[:13] + ["dandad"] + SPANISH[14:]  # two groups lost: not one away
    assert ("intemo", "interno") in mended.changes


@pytest.mark.parametrize("scan", SCANS, ids=lambda s: f"{s[0]}px")
@pytest.mark.parametrize("font", FONTS, ids=lambda p: p.stem)
def test_portuguese_words_are_mended_by_their_language_data(font: Path, scan: tuple[int, float]):
    lexicon, spelled = language("por")
    _, words = drawn_line(PORTUGUESE, font, *scan)
    misread = read_as(words, {1: "govemo", 5: "pnmeiro", 7: "extemo", 9: "dareza"})
    assert [w.text for w in mend_confused_letters(misread, lexicon, spelled).words] == PORTUGUESE


@pytest.mark.parametrize("scan", SCANS, ids=lambda s: f"{s[0]}px")
@pytest.mark.parametrize("font", FONTS[:2], ids=lambda p: p.stem)
def test_right_words_and_known_misreadings_stay_as_read(font: Path, scan: tuple[int, float]):
    lexicon, spelled = language("spa")
    _, words = drawn_line(SPANISH, font, *scan)
    assert mend_confused_letters(words, lexicon, spelled).changes == []
    # `diente` is a word: a known reading is never rewritten, whatever it may be a misreading of
    misread = read_as(words, {11: "diente"})
    assert [w.text for w in mend_confused_letters(misread, lexicon, spelled).words][11] == "diente"


@pytest.mark.parametrize("font", FONTS[:2], ids=lambda p: p.stem)
def test_a_candidate_the_box_has_no_room_for_is_refused(font: Path):
    lexicon, spelled = language("spa")
    _, words = drawn_line(SPANISH, font, *SCANS[1])
    # a box as narrow as the word read: four letters of ink cannot hold the seven letters of `interno`
    narrow = replace(words[5], text="intemo", right=words[5].left + (words[5].right - words[5].left) * 4 // 7)
    misread = [*words[:5], narrow, *words[6:]]
    assert mend_confused_letters(misread, lexicon, spelled).changes == []


@pytest.mark.parametrize("font", FONTS[:2], ids=lambda p: p.stem)
def test_the_second_readers_reading_is_a_candidate_and_two_known_ones_leave_the_word(font: Path):
    lexicon, spelled = language("spa")
    _, words = drawn_line(SPANISH, font, *SCANS[0])
    # `aprobé` is a word: the second reader's `aprobó` does not rewrite it
    assert mend_confused_letters(read_as(words, {2: "aprobé"}, {2: "aprobó"}), lexicon, spelled).words[2].text == "aprobé"
    unknown = mend_confused_letters(read_as(words, {7: "Ia"}, {}), lexicon, spelled)
    assert unknown.changes == []  # too short to judge
    second = mend_confused_letters(read_as(words, {12: "cqn"}, {12: "con"}), lexicon, spelled)
    assert second.changes == []  # three letters: under the pass's length
    mixed = mend_confused_letters(read_as(words, {3: "elx"}, {}), lexicon, spelled)
    assert mixed.changes == []
    # two known candidates (the group's `interno` and the second reader's `intenso`): the word stays as read
    two = mend_confused_letters(read_as(words, {5: "intemo"}, {5: "intenso"}), lexicon, spelled)
    assert two.words[5].text == "intemo"
    # the second reader's word only: taken where it spells mostly the same characters
    one = mend_confused_letters(read_as(words, {13: "claridod"}, {13: "claridad"}), lexicon, spelled)
    assert one.words[13].text == "claridad"
    # a known reading stays, whatever the second reader read (`modero`, I moderate, for `moderno`)
    assert mend_confused_letters(read_as(words, {16: "modero"}, {16: "moderno"}), lexicon, spelled).words[16].text == "modero"


def test_a_group_is_put_back_at_each_of_its_places_in_the_words_case():
    groups = (("rn", "m"), ("ri", "n"))
    assert group_candidates("GOBIEMO", groups) == ["GOBIERNO"]
    assert group_candidates("Mano", groups) == ["Rnano", "Mario"]
    assert group_candidates("intemo", groups) == ["interno", "iritemo"]


def test_the_pass_is_registered_after_the_accent_lines():
    names = [p.name for p in PAGE_PASSES]
    assert names.index("confused-letters") > names.index("accent-lines") > names.index("second-reader")


NARROW = FONT_DIR / "liberation/LiberationSansNarrow-Regular.ttf"
PROSE = ("El gobierno aprobó el régimen interno de la materia para el cliente con claridad y criterio moderno. "
         "La empresa externa presentó un informe superior sobre el turno de noche, la cláusula del contrato, "
         "el proceso clínico, la eficiencia del sistema eléctrico y la historia del barrio. "
         "Los periodos anteriores fueron comprobados por el ministerio y el auditor externo; "
         "el alumno eligió la carrera de ingeniería en un instituto moderno, con horario nocturno.")


@pytest.fixture(scope="module")
def narrow_scan() -> Image.Image:
    """The prose set in a narrow sans (as CONAREME sets its sheets) at 10 pt, scanned at 150 dpi and blurred: Tesseract
    reads `rn` as `m` there."""
    if not NARROW.is_file():
        pytest.skip(f"{NARROW} not installed")
    dpi = 150
    font = ImageFont.truetype(str(NARROW), round(10 / 72 * dpi))
    image = Image.new("L", (int(8.27 * dpi), 3 * dpi), 255)
    draw = ImageDraw.Draw(image)
    for at, line in enumerate(textwrap.wrap(PROSE, 85)):
        draw.text((int(0.8 * dpi), int(0.5 * dpi) + at * round(1.5 * font.size)), line, font=font, fill=0)
    return image.filter(ImageFilter.GaussianBlur(1.0))


def test_on_a_blurred_narrow_scan_words_read_with_rn_as_m_are_read_as_printed(narrow_scan: Image.Image):
    try:
        if "spa" not in installed_languages():
            pytest.skip("Tesseract's Spanish data is not installed")
    except OcrUnavailable as exc:
        pytest.skip(str(exc))
    language("spa")
    settings = OcrSettings(languages=("spa",), dpi=150)
    without = [w.text for w in read_page(narrow_scan, replace(settings, disabled_passes=("confused-letters",)), page_number=1).words]
    reading = read_page(narrow_scan, settings, page_number=1)
    mended = [w.text for w in reading.words]
    assert {"modemo.", "noctumo"} <= set(without)  # the fault, as the scan reads without the pass
    assert "moderno." in mended and "nocturno" in mended and not {"modemo.", "noctumo"} & set(mended)
    assert len(mended) == len(without)
    changed = {(a, b) for a, b in zip(without, mended) if a != b}
    assert changed == {("modemo.", "moderno."), ("noctumo", "nocturno")}  # every other word as the pass found it
    assert any(note.startswith("confused letters: 2 word(s)") for note in reading.notes)
