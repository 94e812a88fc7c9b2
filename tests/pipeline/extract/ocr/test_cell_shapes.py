"""A key table's answer cells matched against the table's own surely read cells (`cellshapes`)."""
from __future__ import annotations

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFilter, ImageFont

from pipeline.devkit.keyscans import read_key, same_answer
from pipeline.devkit.sample.keysheets import circled_grid
from pipeline.devkit.sample.pdfgen import build_pdf, cjk_font, rasterize_pdf
from pipeline.extract.ocr.cellshapes import match_own_shapes
from tests.pipeline.extract.ocr.builders import needs_tesseract

needs_cjk = pytest.mark.skipif(cjk_font() is None, reason="fonts-noto-cjk is not installed")
SURE = 80.0


def _cell(text: str, seed: int, *, size: int = 26, blur: float = 1.2) -> np.ndarray:
    """One answer cell as a scan gives it: the glyph at a jittered place, blurred, with scanner specks."""
    rng = np.random.default_rng(seed)
    font = ImageFont.truetype(str(cjk_font()), size)
    image = Image.new("L", (2 * size, 2 * size), 255)
    ImageDraw.Draw(image).text((size // 2 + int(rng.integers(-3, 4)), size // 3 + int(rng.integers(-3, 4))), text, font=font, fill=20)
    grey = np.asarray(image.filter(ImageFilter.GaussianBlur(blur)), dtype=np.float32)
    grey[rng.random(grey.shape) < 0.005] = 90  # specks
    return np.clip(grey + rng.normal(0, 6, grey.shape), 0, 255).astype(np.uint8)


@needs_cjk
def test_an_unread_ring_takes_the_label_its_glyph_is_among_the_tables_sure_cells():
    printed = ["②", "⑤", "③", "⑤", "②", "③", "⑤", "②", "③", "⑤", "①"]
    cells = [_cell(label, seed) for seed, label in enumerate(printed)]
    answers: list[tuple[str, float] | None] = [(label, 95.0) for label in printed]
    answers[3] = None  # a blurred ⑤ the recognisers left unread
    answers[10] = None  # a ① with no other ① in the table: no prototype to match, so it stays unread
    matched = match_own_shapes(cells, answers, SURE)
    assert matched[3] is not None and matched[3][0] == "⑤"
    assert matched[10] is None
    assert [m for i, m in enumerate(matched) if i not in (3, 10)] == [a for i, a in enumerate(answers) if i not in (3, 10)]


@needs_cjk
def test_a_reading_its_glyph_contradicts_is_left_unread_never_changed():
    printed = ["②", "⑤", "③", "⑤", "②", "③", "⑤", "②", "③", "⑤"]
    cells = [_cell(label, seed) for seed, label in enumerate(printed)]
    answers: list[tuple[str, float] | None] = [(label, 95.0) for label in printed]
    answers[6] = ("③", 90.0)  # a ⑤ a recogniser read surely as ③
    answers[1] = ("②", 60.0)  # a ⑤ read unsurely as ②
    matched = match_own_shapes(cells, answers, SURE)
    assert matched[6] is None and matched[1] is None
    assert all(matched[i] == answers[i] for i in range(len(printed)) if i not in (1, 6))


@needs_cjk
def test_plain_letter_cells_are_matched_as_rings_are():
    # Nothing knows the alphabet: a key's capital letters, one of them unread, one misread unsurely.
    printed = ["A", "B", "C", "D", "A", "B", "C", "D", "A", "B", "C", "D"]
    cells = [_cell(label, seed, size=30, blur=0.8) for seed, label in enumerate(printed)]
    answers: list[tuple[str, float] | None] = [(label, 92.0) for label in printed]
    answers[7] = None
    answers[6] = ("O", 45.0)
    matched = match_own_shapes(cells, answers, SURE)
    assert matched[7] is not None and matched[7][0] == "D"
    assert matched[6] == ("O", 45.0)  # "O" has no prototype: a reading is judged only against its own label's glyph
    assert all(matched[i] == answers[i] for i in range(len(printed)) if i not in (6, 7))


def test_a_table_with_fewer_than_two_surely_read_labels_is_left_as_read():
    cells = [np.full((20, 20), 255, dtype=np.uint8) for _ in range(3)]
    answers: list[tuple[str, float] | None] = [("A", 95.0), None, ("A", 40.0)]
    assert match_own_shapes(cells, answers, SURE) == answers


@needs_cjk
@needs_tesseract("eng")
def test_a_scanned_circled_key_gives_no_ring_misread_as_another_digit(tmp_path):
    # 200 dpi, blur 0.8, JPEG 90: a ⑤ was keyed as ③ (read at 80, the digit agreeing) while 14 other ⑤
    # of the table read sure. Its glyph matches the ⑤ of the table, so the cell is reported, not keyed.
    sheet = circled_grid(0)
    source = build_pdf(tmp_path / "circled.pdf", sheet.pages)
    scan = rasterize_pdf(source, tmp_path / "scan.pdf", dpi=200, blur=0.8, jpeg_quality=90, noise=0.01, seed=0)
    table = read_key(scan, sheet)
    wrong = [n for n, a in sheet.truth.items() if n in table.answers and not same_answer(table.answers[n], a)]
    assert wrong == []
    unread = [n for n in sheet.truth if n not in table.answers]
    assert len(unread) <= 1 and all(n in table.unread for n in unread)
