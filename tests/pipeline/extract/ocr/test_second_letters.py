"""Thin letters the second reader saw where Tesseract dropped, added or confused one, in a word no dictionary knows
(`pipeline.extract.ocr.secondletters`, page pass `second-letters`): the rules on words with the page's letter widths
given, the widths fitted from a page's boxes, and a generated Spanish sheet of drug and bacterium names in small type
scanned soft (150 dpi, blur 1.0, JPEG 70) read by the whole page path with real Tesseract, RapidOCR and hunspell."""
from __future__ import annotations

from dataclasses import replace

from pipeline.devkit.aftercache import with_second_letters
from pipeline.devkit.thinletters import PROSE, printed_at, scan
from pipeline.extract.ocr import OcrSettings, read_page
from pipeline.extract.ocr.lexicon import Lexicon, word_core
from pipeline.extract.ocr.secondletters import Box, Widths, blur_edits, fit_widths, second_letters, take_second_letters
from tests.pipeline.extract.ocr.builders import needs_readers

# A page's letters in font sizes, as a serif face sets them: i, l, r, t, f thin; m, w wide.
LETTERS = {"a": 0.45, "b": 0.5, "c": 0.45, "d": 0.5, "e": 0.45, "g": 0.5, "h": 0.5, "i": 0.28, "l": 0.28, "m": 0.78,
           "n": 0.5, "o": 0.5, "p": 0.5, "r": 0.33, "s": 0.39, "t": 0.28, "u": 0.5, "v": 0.5, "w": 0.72, "y": 0.5,
           "f": 0.33, "P": 0.56, "N": 0.72, "I": 0.33, ",": 0.25, "q": 0.5, "j": 0.28, "k": 0.5, "z": 0.45}
WIDTHS = Widths(LETTERS, sides=0.05, median=0.5)
SIZE = 40.0
GROUPS = (("ri", "n"), ("rn", "m"), ("cl", "d"), ("li", "h"))
SPELLED = {"normal"}
LISTED = {"sérico"}  # Tesseract's word list
# A page's sure words, every letter above among them.
PAGE = ("amigo pared bulto hinchas sueño vivir fuerza campo tiempo lengua Nuevo Pero Isla ciudad, whisky cantar libro "
        "mundo puerta verde rojo largo corto mesa silla techo suelo ventana camino ruta fiesta huevo pluma gato perro "
        "lobo oveja trigo harina pan leche queso miel sal aceite vino agua fruta pera uva limón").split()


def _box(text: str, second: str | None, printed: str | None = None, conf: float = 60.0) -> Box:
    """A word read `text` whose box is as wide as `printed` set on the page (as `text` where none is given)."""
    return Box(text, conf, WIDTHS.predict(printed or text) * SIZE, SIZE, second)


def _known(word: str) -> bool:
    return word in SPELLED or word in LISTED


def _mended(box: Box) -> list[tuple[str, bool]]:
    """What the rules make of `box` on a page of `WIDTHS`."""
    text = second_letters(box, WIDTHS, _known, GROUPS)
    return [] if text is None else [(text, _known(word_core(text)[1]))]


def test_the_page_letters_widths_are_fitted_from_its_sure_words() -> None:
    page = [_box(w, None, conf=96.0) for w in PAGE]
    widths = fit_widths(page)
    assert widths is not None
    assert abs(widths.letters["i"] - LETTERS["i"]) < 0.08 and abs(widths.letters["m"] - LETTERS["m"]) < 0.08
    assert widths.thin("i") and widths.thin("l") and widths.thin("t") and not widths.thin("m") and not widths.thin("a")
    assert fit_widths(page[:10]) is None  # too few words to fit


def test_the_page_pass_mends_by_the_widths_of_the_page_it_reads() -> None:
    page = [_box(w, None, conf=96.0) for w in PAGE]
    words = [*page, _box("Ilvermectina", "Ivermectina", "Ivermectina"), _box("sénco", "sérico", "serico")]
    found = take_second_letters(words, Lexicon({w: w for w in LISTED}, GROUPS), lambda w: w in SPELLED)
    assert [(m.index, m.text, m.known) for m in found] == [(len(page), "Ivermectina", False), (len(page) + 1, "sérico", True)]
    assert take_second_letters(words[-2:], Lexicon({}), lambda w: False) == []  # a page too short to fit widths on


def test_a_thin_letter_the_box_holds_comes_back_from_the_second_reading() -> None:
    # Tesseract lost an `i` into its neighbours; the box is as wide as the printed word: the second reading is taken,
    # unsure (no dictionary knows the drug).
    assert _mended(_box("Permetrna", "Permetrina", "Permetrina")) == [("Permetrina", False)]
    assert _mended(_box("tisomia", "trisomía", "trisomia")) == [("trisomía", False)]
    # One stroke read as two, a thin letter read as another, a blur-joined group.
    assert _mended(_box("Ilvermectina", "Ivermectina", "Ivermectina")) == [("Ivermectina", False)]
    assert _mended(_box("Nersseria", "Neisseria", "Neisseria")) == [("Neisseria", False)]
    assert _mended(_box("supraestemal,", "supraesternal,", "supraesternal,")) == [("supraesternal,", False)]
    assert _mended(_box("sénco", "sérico", "serico")) == [("sérico", True)]  # known to Tesseract's word list: sure


def test_a_letter_more_only_where_the_box_holds_it() -> None:
    assert _mended(_box("Permetrna", "Permetrina", "Permetrna")) == []  # the box as narrow as the reading
    assert _mended(_box("Permetrna", "Permetrmna", "Permetrmna")) == []  # an `m` is no thin letter blur loses
    # At the word's ends the second reader's window reads the neighbour glued on.
    assert _mended(_box("Permetryna", "Permetrynai", "Permetrynai")) == []
    assert _mended(_box("Permetrynai", "Permetryna", "Permetryna")) == []
    # A marked vowel read again bare beside itself is a mark read twice, not a letter the ink holds.
    assert _mended(_box("Sifilitica", "Sifilíitica", "Sifilíitica")) == []


def test_a_known_word_a_sure_word_and_a_word_read_alike_stay() -> None:
    assert _mended(_box("normal", "norrnal", "normal")) == []  # a dictionary knows Tesseract's reading
    assert _mended(_box("Permetrna", "Permetrina", "Permetrina", conf=92.0)) == []  # Tesseract was sure
    assert _mended(_box("Permetrna", "Permetrna")) == []
    assert _mended(_box("Permetrna", None)) == []
    assert _mended(_box("Permetrna", "Permetrina solar", "Permetrina")) == []  # two words


def test_only_blur_edits_count_and_few_of_them() -> None:
    assert blur_edits("Permetrna", "Permetrina", WIDTHS, GROUPS) == 1
    assert blur_edits("supraestemal", "supraesternal", WIDTHS, GROUPS) == 1
    assert blur_edits("ntampicina", "rifampicina", WIDTHS, GROUPS) == 2  # `ri` read `n`, `f` read `t`
    assert blur_edits("Nerssería", "Neisseria", WIDTHS, GROUPS) == 1  # a mark is no letter
    assert blur_edits("campana", "compana", WIDTHS, GROUPS) is None  # `a` for `o`: no thin letters
    assert blur_edits("tlrltl", "iiiiii", WIDTHS, GROUPS) is None  # more than `MAX_EDITS`
    # One edit in four letters at most: a short word is not rebuilt.
    assert _mended(_box("tira", "tiro", "tiro")) == [] and _mended(_box("flti", "fiii", "fiii")) == []


@needs_readers
def test_drug_names_tesseract_misread_on_a_soft_scan_come_back_from_the_second_reading(spanish) -> None:
    image = scan(PROSE["spa"], "dejavu/DejaVuSerif.ttf", 150, 1.0, 70)
    settings = OcrSettings(languages=("spa",), dpi=150)
    without = read_page(image, replace(settings, disabled_passes=("second-letters",)), page_number=1)
    reading = read_page(image, settings, page_number=1)
    before, after = [w.text for w in without.words], [w.text for w in reading.words]
    printed = printed_at(PROSE["spa"].split() * 2, before)
    changed = [(j, a, b) for j, (a, b) in enumerate(zip(before, after)) if a != b]
    # Tesseract read `rifampicina` and `clindamicina` otherwise; the second reader read them as printed.
    assert {b for _, _, b in changed} >= {"rifampicina", "clindamicina,"}, changed
    assert all(printed.get(j) == b for j, _, b in changed), changed  # every change makes the printed word
    assert all(reading.words[j].unsure_mark for j, _, b in changed if b == "clindamicina,")  # no dictionary knows it
    assert any("second letters" in str(note) for note in reading.notes)
    # The pass applied to the reading made without it gives the same words (what `pipeline.devkit.aftercache` measures by).
    assert [w.text for w in with_second_letters(without, settings).words] == after
