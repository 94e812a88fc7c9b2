"""Light text on a filled panel (a banner, a dark table row) becomes dark text on white before the page is
read; dark text on a tint, heavy type and dark pictures are no panels and stay as they are. Measured on
a generated page scanned at 200 dpi and rendered at 300 dpi, as OCR renders it."""
from __future__ import annotations

import io

import numpy as np
import pypdfium2 as pdfium
import pytest
from PIL import Image

from pipeline.devkit.sample.pdfgen import ImageBox, Line, PageSpec, Rect, TextBox, build_pdf, rasterize_pdf, text_height
from pipeline.extract.ocr.engine import render_page
from pipeline.extract.ocr.panels import FILL_BELOW, MARGIN_LOW_SHARE, light_on_dark_inverted, reversed_panels

DPI = 300
MM = DPI / 25.4  # pixels per millimetre
WHITE = (255, 255, 255)
# name: (text box, whether it is a panel of light text)
ITEMS = {
    "white on black": (TextBox("Pregunta 12", 20, 20, 40, bold=True, color=WHITE, highlight=(15, 15, 15)), True),
    "white on grey": (TextBox("Pregunta 13", 120, 20, 40, bold=True, color=WHITE, highlight=(150, 150, 150)), True),
    "black on a grey tint": (TextBox("Texto sobre una trama gris", 20, 60, 80, highlight=(150, 150, 150)), False),
    "heavy type": (TextBox("EEIIEE", 20, 100, 120, size=40, bold=True), False),
}


def _dark_picture() -> ImageBox:
    """A dark photograph-like block with light specks, taller than any banner."""
    pixels = np.random.default_rng(3).integers(0, 90, size=(300, 400), dtype=np.uint8)
    pixels[::17, ::13] = 255
    buffer = io.BytesIO()
    Image.fromarray(pixels, mode="L").save(buffer, format="PNG")
    return ImageBox(20, 150, 60, buffer.getvalue())


@pytest.fixture(scope="module")
def scanned_page(tmp_path_factory) -> np.ndarray:
    folder = tmp_path_factory.mktemp("panels")
    sheet = build_pdf(folder / "panels.pdf", [PageSpec((*(box for box, _ in ITEMS.values()), _dark_picture()))])
    scan = rasterize_pdf(sheet, folder / "scan.pdf", dpi=200, noise=0.02, blur=0.4, seed=1)
    document = pdfium.PdfDocument(str(scan))
    try:
        return np.asarray(render_page(document, 0, DPI)[0].convert("L"))
    finally:
        document.close()


def _holds(panel, box: TextBox) -> bool:
    cx, cy = (box.x + box.width / 2) * MM, (box.y + 2) * MM
    return panel.left <= cx < panel.right and panel.top <= cy < panel.bottom


def test_only_light_text_on_a_fill_makes_a_panel(scanned_page):
    panels = [box for box, _ in reversed_panels(scanned_page, DPI)]
    for name, (box, is_panel) in ITEMS.items():
        assert sum(_holds(p, box) for p in panels) == int(is_panel), name
    assert len(panels) == 2  # nor the dark picture


def test_a_panel_comes_out_white_with_dark_letters(scanned_page):
    inverted = light_on_dark_inverted(scanned_page, DPI)
    for box, _ in reversed_panels(scanned_page, DPI):
        before = scanned_page[box.top : box.bottom, box.left : box.right]
        after = inverted[box.top : box.bottom, box.left : box.right]
        assert (before < 170).mean() > 0.6  # mostly fill
        assert 0.03 < (after < 128).mean() < 0.4  # mostly paper, letters dark


def test_everything_outside_the_panels_is_left_as_it_was(scanned_page):
    inverted = light_on_dark_inverted(scanned_page, DPI)
    outside = np.ones(scanned_page.shape, dtype=bool)
    for box, _ in reversed_panels(scanned_page, DPI):
        outside[box.top - 4 : box.bottom + 4, box.left - 4 : box.right + 4] = False
    assert np.array_equal(inverted[outside], scanned_page[outside])


def test_a_page_without_panels_is_the_same_array(polish_question_scan):
    grey = np.asarray(polish_question_scan[0].convert("L"))
    assert light_on_dark_inverted(grey, DPI) is grey


def test_a_panels_blurred_edge_leaves_no_grey_rule_beside_its_letters(scanned_page):
    """The scan blurs a panel's edge into greys between fill and paper; inverted, they made a faint dashed
    rule under the letters, and Tesseract dropped a heading with such a rule under it ("Questão 35" of
    an OAB scan). Above and below the letters the panel comes out as paper."""
    inverted = light_on_dark_inverted(scanned_page, DPI)
    for box, _ in reversed_panels(scanned_page, DPI):
        after = inverted[box.top : box.bottom, box.left : box.right]
        rows = np.flatnonzero((after < 128).any(axis=1))
        assert rows.size
        above, below = after[: max(0, rows[0] - 3)], after[rows[-1] + 4 :]
        assert (above == 255).all() and (below == 255).all()


def test_bold_dark_type_on_a_shaded_bar_is_no_panel(tmp_path):
    """A CKE task heading: bold serif type on a light grey bar is dense enough to pass for fill, but what
    shows between its strokes is the bar's tint, not paper. Taken for a panel, it was inverted and the
    heading's letters erased ("Z:v:1'' 2. Liczby :''rwsze."), and with them the task's questions."""
    heading = TextBox("Zadanie 2. Liczby pierwsze.", 20, 40, 170, size=12, bold=True, font="DejaVuSerif", highlight=(185, 185, 185))
    scan = rasterize_pdf(build_pdf(tmp_path / "heading.pdf", [PageSpec((heading,))]), tmp_path / "scan.pdf", dpi=200, noise=0.02, blur=0.4, seed=1)
    document = pdfium.PdfDocument(str(scan))
    try:
        grey = np.asarray(render_page(document, 0, DPI)[0].convert("L"))
    finally:
        document.close()
    assert reversed_panels(grey, DPI) == []
    assert light_on_dark_inverted(grey, DPI) is grey


@pytest.mark.parametrize("dpi, blur, jpeg", [(150, 0.4, 70), (200, 0.8, 90), (300, 0.8, 70)])
def test_a_blurred_bold_heading_is_no_panel_and_a_banner_beside_it_is(tmp_path, dpi, blur, jpeg):
    """Blurred by the scan, the middle of a line of bold capitals is dense enough to pass for fill, its
    crossbars for a panel's margins and its counters for light letters; inverted, the heading above a key
    printed in the booklet was erased, and the key with it (0 of 40 answers). A panel's edges are straight
    steps to paper; the strokes of heavy letters run on past the dense area. White text on a black banner
    on the same page is still a panel."""
    headings = [TextBox(text, 20, y, 170, size=13, bold=True, align="C") for text, y in (("GABARITO", 30), ("RESPOSTAS", 60), ("ΑΠΑΝΤΗΣΕΙΣ", 90))]
    banner = TextBox("Pregunta 12", 20, 120, 40, bold=True, color=WHITE, highlight=(15, 15, 15))
    grey, panels = _scanned_panels(tmp_path, "headings.pdf", (*headings, banner), dpi, blur, jpeg)
    assert [sum(_holds(p, box) for p in panels) for box in (*headings, banner)] == [0, 0, 0, 1]
    inverted = light_on_dark_inverted(grey, DPI)
    for heading in headings:  # the headings' ink is where it was
        top, bottom = round(heading.y * MM), round((heading.y + 8) * MM)
        assert np.array_equal(inverted[top:bottom], grey[top:bottom])


@pytest.mark.parametrize("dpi, blur, jpeg", [(150, 0.8, 70), (200, 0.8, 90)])
def test_a_banner_on_a_soft_scan_is_a_panel_and_a_tinted_heading_beside_it_is_not(tmp_path, dpi, blur, jpeg):
    """A soft scan greys the white letters of a black banner: their median came out 58-59 grey levels under
    the paper on OAB's "Questão N" banners scanned at 150 dpi with blur 0.8, as dark as the tint between the
    strokes of bold type on a shaded bar, and every header of those pages was lost. The letters' lightest
    part still reaches the paper; the tint is no lighter anywhere."""
    banner = TextBox("Questão 12", 20, 30, 32, size=10, bold=True, color=WHITE, highlight=(10, 10, 10))
    heading = TextBox("Zadanie 2. Liczby pierwsze.", 20, 70, 170, size=12, bold=True, font="DejaVuSerif", highlight=(185, 185, 185))
    _, panels = _scanned_panels(tmp_path, "soft.pdf", (banner, heading), dpi, blur, jpeg)
    assert [sum(_holds(p, box) for p in panels) for box in (banner, heading)] == [1, 0]


# Bold headings in three scripts, as keys and booklets head their parts; at 150/0.8/70 the middle of the Greek one and at
# 300/0.4/90 a letter pair of the Latin one passed every test of a panel's shape (found on a generated page, before
# `DEEP_FILL_SHARE`), as INAP's underlined "Segunda parte" did at 160/0.55/88.
BOLD_HEADINGS = [("Primera parte", "Helvetica", 11), ("Segunda parte", "DejaVuSans", 13),
                 ("Απαντήσεις σύντομης απάντησης", "DejaVuSans", 13), ("정답 및 해설 제2교시", "NotoSansCJK", 13)]


@pytest.mark.parametrize("dpi, blur, jpeg", [(150, 0.8, 70), (160, 0.55, 88), (200, 0.8, 70), (300, 0.4, 90)])
def test_bold_headings_in_three_scripts_underlined_or_not_are_no_panels_and_banners_beside_them_are(tmp_path, dpi, blur, jpeg):
    """Blurred together, a bold heading's strokes are dense and its counters light, and an underline gives it a solid
    lower margin and a straight edge; taken for a panel, the heading was inverted and erased, and a key's part with it.
    A heading's fill is its strokes, each pixel within a stroke's half-width of paper; a banner's is a background,
    mostly deeper than its letters' strokes are wide. White text on dark banners, wide and tight, stays a panel."""
    headings, underlines = [], []
    for row, (text, font, size) in enumerate(BOLD_HEADINGS):
        for x in (15, 110):  # the right one underlined, touching its descenders
            headings.append(TextBox(text, x, 15 + 14 * row, 92, size=size, bold=True, font=font))
        drop = 15 + 14 * row + size * 0.3528 * 1.05
        underlines.append(Line(110, drop, 110 + min(88, len(text) * size * 0.3528 * 0.55), drop, width=size * 0.3528 * 0.08))
    banners = [TextBox("Questão 12", 15, 80, 32, size=10, bold=True, color=WHITE, highlight=(10, 10, 10)),
               TextBox("QUESTÃO 5", 60, 80, 40, size=12, bold=True, color=WHITE, highlight=(120, 120, 120)),
               TextBox("Ερώτηση 3", 110, 80, 35, size=11, bold=True, color=WHITE, highlight=(20, 20, 20)),
               TextBox("12 13 14 15", 15, 100, 30, size=8, bold=True, color=WHITE, highlight=(10, 10, 10)),
               TextBox("Θέμα Α", 110, 100, 20, size=8, bold=True, font="DejaVuSerif", color=WHITE, highlight=(10, 10, 10))]
    _, panels = _scanned_panels(tmp_path, "headings.pdf", (*headings, *underlines, *banners), dpi, blur, jpeg)
    assert [p for p in panels if p.top < 75 * MM] == []  # nothing on the headings' rows
    assert [sum(_holds(p, box) for p in panels) for box in banners] == [1] * len(banners)


def _scanned_panels(tmp_path, name, items, dpi, blur, jpeg):
    """The page of `items` printed, scanned at `dpi`/`blur`/`jpeg`, rendered grey at `DPI`, and the panels found on it."""
    sheet = build_pdf(tmp_path / name, [PageSpec(tuple(items))])
    scan = rasterize_pdf(sheet, tmp_path / "scan.pdf", dpi=dpi, blur=blur, jpeg_quality=jpeg, noise=0.01, seed=0)
    document = pdfium.PdfDocument(str(scan))
    try:
        grey = np.asarray(render_page(document, 0, DPI)[0].convert("L"))
    finally:
        document.close()
    return grey, [box for box, _ in reversed_panels(grey, DPI)]


def test_a_banner_whose_box_stops_a_row_short_of_its_blurred_edge_is_a_panel(tmp_path):
    """A soft scan (160 dpi, blur 0.55, JPEG 88) blurs a grey banner's lower edge over a row that is half fill: the
    panel's box stops above it, and that row, counted as what lies beyond the panel, with the dark ornament at the
    banner's end reaching a hair below the bar, carried the banner past the edge test (Revalida's "QUESTÃO 8": 0.2547
    against 0.25), and the question was lost. The edge test looks beyond the edge's own row."""
    banners, ornaments = [], []
    for x in (15, 110):
        banner = TextBox("QUESTÃO 8", x, 15 + (0.017 if x > 100 else 0), 45, size=12, bold=True, color=WHITE, highlight=(120, 120, 120))
        end, width = banner.x + banner.width + 0.8, 0.16 * (banner.width + 1.6)
        banners.append(banner)
        ornaments.append(Rect(end - width, banner.y, width, text_height(banner) + 0.3 + 0.12, fill=(60, 60, 60)))
    grey, panels = _scanned_panels(tmp_path, "soft-edge.pdf", (*banners, *ornaments), 160, 0.55, 88)
    assert [sum(_holds(p, box) for p in panels) for box in banners] == [1, 1]
    fill = grey < FILL_BELOW
    for panel in panels:  # the row under each box is the edge's blurred half, not paper: the case this test is about
        assert 0.3 < fill[panel.bottom, panel.left : panel.right].mean() < MARGIN_LOW_SHARE
