"""A short word Tesseract read unsure (a key's `①` or `Δ` at 0, a lone `6` in a stem at 27) is read again cut out of the
page, constrained to what can stand there, at 1× and 2× and once free: lifted out of unsure where every reading reads it
so, surely; a damaged entry, or one the readings read otherwise, stays unsure. Real glyphs drawn in Noto Sans CJK and
DejaVu Sans, read by the installed Tesseract, the words as a first reading boxed them."""
from __future__ import annotations

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from pipeline.devkit.sample.pdfgen import cjk_font
from pipeline.extract.ocr import installed_languages
from pipeline.extract.ocr.certainty import DEFAULT_POLICY
from pipeline.extract.ocr.lonereads import LIFT_FROM, plan_for, reread_short_words, ring_around, tesseract_reader
from pipeline.extract.ocr.words import Word

CIRCLED = ("①", "②", "③", "④", "⑤")
GREEK = ("Α", "Β", "Γ", "Δ")
DEJAVU = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


def _need(*languages: str) -> None:
    missing = [name for name in languages if name not in installed_languages()]
    if missing:
        pytest.skip(f"Tesseract data {missing} not installed")


def _sheet(entries: list[tuple[str, str, float]], font: ImageFont.FreeTypeFont, *,
           damage: set[int] = frozenset(), lead: str = "") -> tuple[Image.Image, list[Word]]:
    """A page of key rows `N.` then an entry: each (printed, first reading, its confidence); the entries at `damage`
    have their right half scraped off after printing; `lead`, a word printed before each row's number."""
    image = Image.new("L", (900, 80 + 70 * len(entries)), 255)
    draw = ImageDraw.Draw(image)
    words: list[Word] = []
    for row, (printed, read, conf) in enumerate(entries):
        y = 40 + 70 * row
        number = f"{row + 1}."
        if lead:
            box = draw.textbbox((10, y), lead, font=font)
            draw.text((10, y), lead, font=font, fill=0)
            words.append(Word(lead, 95.0, *box, (row + 1, 1, 0)))
        box = draw.textbbox((100, y) if lead else (60, y), number, font=font)
        draw.text((box[0], y), number, font=font, fill=0)
        words.append(Word(number, 95.0, *box, (row + 1, 1, 1)))
        left, top, right, bottom = draw.textbbox((200, y), printed, font=font)
        draw.text((200, y), printed, font=font, fill=0)
        if row in damage:
            draw.rectangle(((left + right) // 2 - 2, top - 2, right + 2, bottom + 2), fill=255)
        words.append(Word(read, conf, left, top, right, bottom, (row + 1, 1, 2)))
    return image, words


def _korean_font(size: int) -> ImageFont.FreeTypeFont:
    """Noto Sans CJK at `size`, for Korean read by Tesseract (the test skips without either)."""
    _need("kor")
    path = cjk_font()
    if path is None:
        pytest.skip("Noto Sans CJK not installed")
    return ImageFont.truetype(str(path), size)


def _entries(words: list[Word]) -> list[tuple[str, float]]:
    return [(w.text, w.conf) for w in words if w.line[2] == 2]


def test_a_key_of_circled_numbers_read_at_zero_is_lifted_and_a_scraped_ring_stays_unsure():
    font = _korean_font(36)
    reader = tesseract_reader(["kor", "eng"], 300, 1, free=["kor"])
    image, words = _sheet([("③", "③", 0.0), ("⑤", "⑤", 0.0), ("②", "②", 12.0)], font)
    read, notes = reread_short_words(words, image, CIRCLED, DEFAULT_POLICY.unsure_below, reader)
    entries = _entries(read)
    assert [text for text, _ in entries] == ["③", "⑤", "②"]  # nothing rewritten
    assert all(conf >= LIFT_FROM for _, conf in entries), entries
    assert notes and "3 short words" in notes[0]
    # The same key with a fourth ring scraped half away: its readings do not all read ④, so it stays unsure, and so do
    # the page's other rings read unsure (a key's lone labels are judged together: `labels_vouch`).
    image, words = _sheet([("③", "③", 0.0), ("⑤", "⑤", 0.0), ("②", "②", 12.0), ("④", "④", 0.0)], font, damage={3})
    read, notes = reread_short_words(words, image, CIRCLED, DEFAULT_POLICY.unsure_below, reader)
    assert _entries(read) == [("③", 0.0), ("⑤", 0.0), ("②", 12.0), ("④", 0.0)]


def test_a_key_of_greek_capitals_read_at_zero_is_lifted():
    _need("ell")
    image, words = _sheet([("Δ", "Δ", 0.0), ("Β", "Β", 0.0), ("Γ", "Γ", 8.0)], ImageFont.truetype(DEJAVU, 36))
    read, notes = reread_short_words(words, image, GREEK, DEFAULT_POLICY.unsure_below, tesseract_reader(["ell", "eng"], 300, 1, free=["ell"]))
    entries = _entries(read)
    assert [text for text, _ in entries] == ["Δ", "Β", "Γ"]
    assert all(conf >= LIFT_FROM for _, conf in entries), entries


def test_a_misread_key_letter_stays_unsure_with_a_note_and_the_pages_other_unsure_labels_with_it():
    # `Α` read for a printed `Δ`: every reading reads `Δ`, so it is not lifted, and a note says what they read. The
    # page's other lone labels read unsure stay unsure too: parse judges a key's unsure lone labels together
    # (`labels_vouch`), and lifting all but one would make that one stand out.
    _need("ell")
    image, words = _sheet([("Δ", "Δ", 0.0), ("Β", "Β", 0.0), ("Γ", "Γ", 8.0), ("Δ", "Α", 0.0)], ImageFont.truetype(DEJAVU, 36))
    read, notes = reread_short_words(words, image, GREEK, DEFAULT_POLICY.unsure_below, tesseract_reader(["ell", "eng"], 300, 1, free=["ell"]))
    assert _entries(read) == [("Δ", 0.0), ("Β", 0.0), ("Γ", 8.0), ("Α", 0.0)]  # nothing rewritten, nothing lifted
    assert any("'Α'" in note and "read 'Δ'" in note for note in notes), notes
    assert any("3 labels read alike cut out not lifted" in note for note in notes), notes


def test_lone_digits_in_a_stem_are_lifted_and_a_damaged_digit_stays_unsure():
    font = _korean_font(36)
    image = Image.new("L", (1200, 140), 255)
    draw = ImageDraw.Draw(image)
    words: list[Word] = []
    x = 40
    for k, (printed, read, conf) in enumerate([("다음", "다음", 91.0), ("2026", "2026", 32.2), ("년", "년", 88.0),
                                               ("6", "6", 26.8), ("월", "월", 90.0), ("8", "8", 10.0)]):
        left, top, right, bottom = draw.textbbox((x, 40), printed, font=font)
        draw.text((x, 40), printed, font=font, fill=0)
        if k == 5:  # a speck of a digit: its top loop scraped away
            draw.rectangle((left - 2, top - 2, right + 2, (top + bottom) // 2), fill=255)
        words.append(Word(read, conf, left, top, right, bottom, (1, 1, 1)))
        x = right + 24
    read, _ = reread_short_words(words, image, CIRCLED, DEFAULT_POLICY.unsure_below, tesseract_reader(["kor", "eng"], 300, 1, free=["kor"]))
    confs = {w.text: w.conf for w in read}
    assert confs["2026"] >= LIFT_FROM and confs["6"] >= LIFT_FROM
    assert confs["8"] == 10.0
    assert confs["다음"] == 91.0 and confs["년"] == 88.0  # words of letters and sure words are not read again


def test_what_is_read_again_digits_labels_and_rings_of_up_to_four_glyphs():
    assert plan_for("2026", CIRCLED).whitelist == "0123456789"  # type: ignore[union-attr]
    assert plan_for("6.", CIRCLED).whitelist == "0123456789."  # type: ignore[union-attr]
    assert plan_for("③", CIRCLED).ring_digit == "3"  # type: ignore[union-attr]
    assert plan_for("Δ", GREEK).whitelist == "ΑΒΓΔ"  # type: ignore[union-attr]
    assert plan_for("12345", CIRCLED) is None and plan_for("Ε", GREEK) is None and plan_for("ab", GREEK) is None


def _digit_boxed(image: Image.Image, words: list[Word]) -> list[Word]:
    """The key's entries as Tesseract boxed a thin ring's label: the box of the digit's ink alone (what lies within half
    the ring's radius of its centre), the ring outside it."""
    ink = np.asarray(image) < 128
    out = []
    for w in words:
        if w.line[2] != 2:
            out.append(w)
            continue
        cx, cy, r = (w.left + w.right) / 2, (w.top + w.bottom) / 2, (w.bottom - w.top) / 2
        ys, xs = np.nonzero(ink[w.top:w.bottom, w.left:w.right])
        near = np.hypot(ys + w.top - cy, xs + w.left - cx) <= 0.5 * r
        ys, xs = ys[near] + w.top, xs[near] + w.left
        out.append(Word(w.text, w.conf, int(xs.min()), int(ys.min()), int(xs.max()) + 1, int(ys.max()) + 1, w.line))
    return out


def _break_ring(image: Image.Image, word: Word) -> None:
    """The ring around `word` (its whole glyph's box) cut open on its right: a white band across its right edge."""
    draw = ImageDraw.Draw(image)
    height = word.bottom - word.top
    draw.rectangle((word.right - round(0.22 * height), (word.top + word.bottom) // 2 - round(0.2 * height),
                    word.right + 2, (word.top + word.bottom) // 2 + round(0.2 * height)), fill=255)


def test_a_ring_label_boxed_by_its_digit_alone_is_read_inside_its_ring_found_by_shape(monkeypatch):
    # Tesseract boxed a thin ring's `①` by its digit (8 px in a ring of 42): cut out by that box, the crop held the digit
    # and arcs of the ring, and the readings did not agree. The ring, found by its shape around the box, is cut out
    # whole and its digit read inside it.
    import pipeline.extract.ocr.lonereads as lonereads

    font = _korean_font(36)
    reader = tesseract_reader(["kor", "eng"], 300, 1, free=["kor"])
    image, words = _sheet([("①", "①", 0.0), ("⑤", "⑤", 0.0), ("③", "③", 5.0)], font, lead="정답")
    words = _digit_boxed(image, words)
    read, notes = reread_short_words(words, image, CIRCLED, DEFAULT_POLICY.unsure_below, reader)
    entries = _entries(read)
    assert [text for text, _ in entries] == ["①", "⑤", "③"]
    assert all(conf >= LIFT_FROM for _, conf in entries), (entries, notes)
    monkeypatch.setattr(lonereads, "ring_around", lambda *args: None)  # as v2 read them: the box's crop alone
    assert _entries(reread_short_words(words, image, CIRCLED, DEFAULT_POLICY.unsure_below, reader)[0]) == [("①", 0.0), ("⑤", 0.0), ("③", 5.0)]


def test_a_ring_broken_open_or_a_ring_digit_read_otherwise_stays_unsure():
    font = _korean_font(36)
    reader = tesseract_reader(["kor", "eng"], 300, 1, free=["kor"])
    # A ring cut open is no ring: its entry stays unsure, and so do the page's other labels (judged together).
    image, whole = _sheet([("①", "①", 0.0), ("⑤", "⑤", 0.0), ("③", "③", 5.0), ("④", "④", 0.0)], font, lead="정답")
    _break_ring(image, whole[-1])
    words = _digit_boxed(image, whole)
    assert ring_around(np.asarray(image), words[-1], words, 36.0) is None
    read, _ = reread_short_words(words, image, CIRCLED, DEFAULT_POLICY.unsure_below, reader)
    assert _entries(read) == [("①", 0.0), ("⑤", 0.0), ("③", 5.0), ("④", 0.0)]
    # A printed ③ read `②`: its ring is found and its digit read `3`, so it is not lifted, and a note says what was read.
    image, words = _sheet([("①", "①", 0.0), ("⑤", "⑤", 0.0), ("③", "②", 0.0)], font, lead="정답")
    words = _digit_boxed(image, words)
    read, notes = reread_short_words(words, image, CIRCLED, DEFAULT_POLICY.unsure_below, reader)
    assert _entries(read) == [("①", 0.0), ("⑤", 0.0), ("②", 0.0)]
    assert any("'②'" in note and "read '③'" in note for note in notes), notes
