"""Figure crops: images and vector drawings become PNGs with the right box; tables, frames and grids do not."""
from __future__ import annotations

import hashlib
import io
from pathlib import Path

import numpy as np
import pypdfium2 as pdfium
import pytest
from PIL import Image

from pipeline.extract.figures import (
    FigureError,
    crop_figures,
    extract_figures,
    find_figure_boxes,
)
from pipeline.devkit.sample.figures import bar_chart_png, circuit_png
from pipeline.devkit.sample.rawtext import write_raw_pdf
from pipeline.devkit.sample.pdfgen import (
    PT_PER_MM,
    ImageBox,
    Line,
    PageSpec,
    Rect,
    TextBox,
    rasterize_pdf,
    table_items,
)
from tests.pipeline.extract.ocr.builders import build

from tests.fixtures.corpus import CORPUS  # noqa: E402
BODY = (
    "Zadanie 5. Na wykresie przedstawiono liczbę uczniów w kolejnych latach. Odczytaj z wykresu, "
    "w którym roku liczba uczniów była największa, i uzasadnij odpowiedź."
)
CHART = bar_chart_png(["2019", "2020", "2021"], [30, 45, 40], title="Uczniowie")
CHART_MM = (30.0, 60.0, 100.0)  # x, y, width; the PNG is 900×540, so 60 mm tall


def _mm_box(x: float, y: float, w: float, h: float) -> tuple[float, float, float, float]:
    return (x * PT_PER_MM, y * PT_PER_MM, (x + w) * PT_PER_MM, (y + h) * PT_PER_MM)


def _image_page() -> PageSpec:
    table, _ = table_items(20, 200, [40, 40, 40], [["Rok", "Klasy", "Uczniowie"], ["2019", "4", "30"], ["2020", "5", "45"]])
    logo = circuit_png()
    return PageSpec(
        [
            TextBox(BODY, 20, 25, 170),
            ImageBox(CHART_MM[0], CHART_MM[1], CHART_MM[2], CHART),
            ImageBox(170, 8, 12, logo),  # 12 mm × 6.4 mm: a logo under the area threshold
            *table,
        ]
    )


def _vector_page() -> PageSpec:
    # a triangle with labelled corners (slanted strokes), a bar chart of filled rectangles, an answer grid
    triangle = [Line(30, 90, 70, 30), Line(70, 30, 110, 90), Line(110, 90, 30, 90)]
    labels = [TextBox("A", 26, 91, 6, size=9), TextBox("B", 68, 24, 6, size=9), TextBox("C", 110, 91, 6, size=9)]
    bars = [Rect(130 + 12 * i, 90 - h, 8, h, fill=(90, 120, 200), stroke=None) for i, h in enumerate((20, 45, 30, 55))]
    axes = [Line(127, 90, 180, 90, width=0.4), Line(127, 90, 127, 30, width=0.4)]
    grid = [Line(20, 150 + 5 * i, 190, 150 + 5 * i, width=0.1) for i in range(25)]
    grid += [Line(20 + 5 * i, 150, 20 + 5 * i, 270, width=0.1) for i in range(35)]
    return PageSpec([TextBox("Zadanie 6. Trójkąt i wykres.", 20, 15, 170), *triangle, *labels, *bars, *axes, *grid])


def _frame_page() -> PageSpec:
    return PageSpec([Rect(18, 28, 174, 40), TextBox(BODY, 20, 30, 170), TextBox("Wypełnia egzaminator", 20, 80, 60)])


@pytest.fixture(scope="module")
def sheet(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("figures")
    return build(folder / "sheet.pdf", [_image_page(), _vector_page(), _frame_page()])


def test_embedded_image_is_cropped_with_its_box(sheet, tmp_path):
    figures = crop_figures(sheet, 1, tmp_path / "fig", root=tmp_path)
    assert len(figures) == 1, figures
    figure = figures[0]
    expected = _mm_box(CHART_MM[0], CHART_MM[1], CHART_MM[2], CHART_MM[2] * 540 / 900)
    assert figure.page == 1
    for got, want in zip(figure.bbox, expected):
        assert got == pytest.approx(want, abs=3)


def test_crop_is_a_content_addressed_png_of_the_figure(sheet, tmp_path):
    figure = crop_figures(sheet, 1, tmp_path / "fig", dpi=150, root=tmp_path)[0]
    file = tmp_path / figure.path
    assert figure.path == f"fig/{figure.sha256}.png"
    data = file.read_bytes()
    assert hashlib.sha256(data).hexdigest() == figure.sha256
    crop = Image.open(io.BytesIO(data)).convert("L")
    x0, top, x1, bottom = figure.bbox
    assert crop.size[0] == pytest.approx((x1 - x0) * 150 / 72, abs=2)
    assert crop.size[1] == pytest.approx((bottom - top) * 150 / 72, abs=2)
    # the crop shows the chart: compared at low resolution with the PNG that was placed on the page
    original = Image.open(io.BytesIO(CHART)).convert("L").resize((90, 54))
    difference = np.abs(np.asarray(crop.resize((90, 54)), float) - np.asarray(original, float)).mean()
    assert difference < 20, f"mean grey difference {difference:.1f}"


def test_cropping_again_gives_the_same_file(sheet, tmp_path):
    first = crop_figures(sheet, 1, tmp_path / "fig", root=tmp_path)
    second = crop_figures(sheet, 1, tmp_path / "fig", root=tmp_path)
    assert first == second
    assert len(list((tmp_path / "fig").iterdir())) == 1


def test_figure_path_is_absolute_outside_the_project(sheet, tmp_path):
    figure = crop_figures(sheet, 1, tmp_path / "fig", root=tmp_path / "elsewhere")[0]
    assert Path(figure.path).is_absolute() and Path(figure.path).is_file()


def test_vector_drawings_are_found_but_not_the_answer_grid(sheet):
    document = pdfium.PdfDocument(str(sheet))
    try:
        boxes = find_figure_boxes(document[1])
    finally:
        document.close()
    assert len(boxes) == 2, boxes
    triangle, bars = sorted(boxes)
    # the triangle with its corner labels A, B, C
    assert triangle[0] == pytest.approx(26 * PT_PER_MM, abs=3) and triangle[1] == pytest.approx(24 * PT_PER_MM, abs=3)
    assert triangle[2] == pytest.approx(112 * PT_PER_MM, abs=4) and triangle[3] >= 90 * PT_PER_MM  # "C" is 2 mm wide
    # the bar chart with its axes
    assert bars[0] == pytest.approx(127 * PT_PER_MM, abs=2) and bars[2] == pytest.approx(180 * PT_PER_MM, abs=2)
    assert bars[1] == pytest.approx(30 * PT_PER_MM, abs=2) and bars[3] == pytest.approx(90 * PT_PER_MM, abs=2)
    assert all(box[3] < 150 * PT_PER_MM for box in boxes), "the ruled grid is not a figure"


def test_tables_and_text_frames_are_not_figures(sheet):
    document = pdfium.PdfDocument(str(sheet))
    try:
        assert find_figure_boxes(document[2]) == []
        table_top = 200 * PT_PER_MM
        assert all(box[3] < table_top for box in find_figure_boxes(document[0]))
    finally:
        document.close()


def test_scanned_page_is_not_a_figure(sheet, tmp_path):
    scan = rasterize_pdf(sheet, tmp_path / "scan.pdf", dpi=72)
    assert extract_figures(scan, out_dir=tmp_path / "fig") == []


def test_area_threshold_decides_on_small_images(sheet, tmp_path):
    figures = crop_figures(sheet, 1, tmp_path / "fig", min_area_pt2=500, root=tmp_path)
    assert len(figures) == 2  # the 12 mm logo (about 1300 pt²) now counts


def test_whole_document_figures_carry_their_page_numbers(sheet, tmp_path):
    figures = extract_figures(sheet, out_dir=tmp_path / "fig", root=tmp_path)
    assert [f.page for f in figures] == [1, 2, 2]
    assert len({f.sha256 for f in figures}) == 3


def test_unreadable_pdf_and_bad_page_are_named(sheet, tmp_path):
    bad = tmp_path / "broken.pdf"
    bad.write_bytes(b"%PDF-1.4 nothing else")
    with pytest.raises(FigureError, match="broken.pdf"):
        crop_figures(bad, 1, tmp_path / "fig")
    with pytest.raises(FigureError, match=r"sheet\.pdf: page 9 out of range"):
        crop_figures(sheet, 9, tmp_path / "fig")


@pytest.mark.corpus
@pytest.mark.skipif(not CORPUS.is_dir(), reason="real exam material (../shared/corpus) not present")
def test_real_sheets_chart_found_and_answer_grid_skipped():
    scheme = CORPUS / "pl_cke_matura_informatyka" / "2016-05_PP_F2007" / "Zasady.pdf"
    sheet = CORPUS / "pl_cke_matura_informatyka" / "2016-05_PP_F2007" / "Arkusz_cz1.pdf"
    with pdfium.PdfDocument(str(scheme)) as document:
        charts = find_figure_boxes(document[6])  # "Liczba urodzeń w powiatach", a vector bar chart
    assert len(charts) == 1
    x0, top, x1, bottom = charts[0]
    assert 300 < (x1 - x0) < 400 and 180 < (bottom - top) < 260
    with pdfium.PdfDocument(str(sheet)) as document:
        assert find_figure_boxes(document[4]) == []  # a page of squared answer paper: 2611 rectangles


@pytest.mark.parametrize("box", [(100, 200, 700, 560), (0, 0, 1241, 300), (1200, 1700, 1241, 1754), (1100, 1600, 1300, 1800)])
def test_a_crop_cut_from_the_render_holds_the_pixels_of_the_whole_page_image(sheet, box):
    """The crop is cut from pdfium's buffer without making a PIL image of the whole page first: the same
    pixels as cropping that image, at the page's edges too and for a box running off the page."""
    from pipeline.extract.figures import _crop_bitmap

    document = pdfium.PdfDocument(str(sheet))
    try:
        bitmap = document[0].render(scale=150 / 72)
        whole_page = bitmap.to_pil().convert("RGB")
        assert (bitmap.width, bitmap.height) == (1241, 1754)
        crop = _crop_bitmap(bitmap, box)
        assert crop.mode == "RGB" and crop.size == whole_page.crop(box).size
        assert crop.tobytes() == whole_page.crop(box).tobytes()
        if box[0] < 1200:  # the boxes left of the margin hold text or the chart, not only paper
            assert crop.getextrema() != ((255, 255), (255, 255), (255, 255))
    finally:
        document.close()


@pytest.mark.parametrize("scale", [150 / 72, 1.0, 300 / 72])
def test_the_render_a_crop_is_cut_from_is_pdfiums_own_render_pixel_for_pixel(sheet, scale):
    """Crops are cut from a render on a buffer numpy filled white (not a zeroed one pdfium fills): the
    same pixels as `page.render`, on every page of the sheet (image, drawings, a grid, a scan) and at each
    resolution, so a crop's bytes and name do not change."""
    from pipeline.extract.rendering import render_on_white as _render

    document = pdfium.PdfDocument(str(sheet))
    try:
        for index in range(len(document)):
            page = document[index]
            expected, ours = page.render(scale=scale), _render(page, scale)
            assert (ours.width, ours.height, ours.mode) == (expected.width, expected.height, expected.mode)
            assert np.array_equal(ours.to_numpy(), expected.to_numpy()), f"page {index + 1}"
    finally:
        document.close()


def _pdf_with_forms(path: Path) -> Path:
    """One page: a line of text, a curve drawn straight on the page, and a drawing inside a Form XObject
    placed by `cm` and scaled by the form's own /Matrix, holding a nested form with a slanted arrow of
    its own (the nested form moved by its matrix again)."""
    page = b"BT /F1 11 Tf 56 780 Td (Zadanie 1. Obwod i wykres.) Tj ET\n" \
           b"q 1 w 60 600 m 100 680 140 520 200 600 c S Q\n" \
           b"q 1 0 0 1 300 400 cm /Fm1 Do Q\n"
    outer = b"q 1 w 0 0 m 40 0 l 40 30 l 0 30 l h S Q\nq 0.5 w 5 5 m 20 40 35 -10 40 20 c S Q\n/Fm2 Do\n"
    inner = b"q 1 w 0 0 m 30 25 l S 30 25 m 26 25 l 30 21 l h f Q\n"
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> /XObject << /Fm1 6 0 R >> >> >>",
        b"<< /Length %d >>\nstream\n" % len(page) + page + b"endstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        b"<< /Type /XObject /Subtype /Form /BBox [-10 -20 60 60] /Matrix [2 0 0 2 0 0] "
        b"/Resources << /XObject << /Fm2 7 0 R >> >> /Length %d >>\nstream\n" % len(outer) + outer + b"endstream",
        b"<< /Type /XObject /Subtype /Form /BBox [0 0 40 40] /Matrix [1 0 0 1 50 40] /Length %d >>\nstream\n"
        % len(inner) + inner + b"endstream",
    ]
    return write_raw_pdf(path, objects)


def _helper_walk_objects(page: pdfium.PdfPage, form=None, matrix=None, level: int = 0):
    """(type, page-space bounds) of every object as pypdfium2's own helper objects walk them, forms
    opened and their matrices applied: what `find_figure_boxes` must see through its typed calls."""
    for obj in page.get_objects(max_depth=1, form=form, level=level):
        bounds = obj.get_bounds() if matrix is None else matrix.on_rect(*obj.get_bounds())
        if obj.type == pdfium.raw.FPDF_PAGEOBJ_FORM and level < 8:
            inner = obj.get_matrix() if matrix is None else obj.get_matrix().multiply(matrix)
            yield from _helper_walk_objects(page, obj, inner, level + 1)
        else:
            yield obj.type, bounds


def test_drawings_inside_form_xobjects_are_found_where_the_forms_place_them(tmp_path):
    from pipeline.extract.figureboxes import _page_objects

    pdf = _pdf_with_forms(tmp_path / "forms.pdf")
    with pdfium.PdfDocument(str(pdf)) as document:
        page = document[0]
        height = page.get_size()[1]
        graphics, texts = _page_objects(page)
        walked = list(_helper_walk_objects(page))
        # every path the helper walk finds (the nested form's too), at the same page-space box
        expected = sorted((round(left, 3), round(height - top, 3), round(right, 3), round(height - bottom, 3))
                          for kind, (left, bottom, right, top) in walked if kind == pdfium.raw.FPDF_PAGEOBJ_PATH)
        assert sorted(tuple(round(v, 3) for v in g.box) for g in graphics) == expected
        assert len(graphics) == 5 and len(texts) == 1
        boxes = find_figure_boxes(page)
    # the form's drawing 300 pt right and 400 up, doubled (its box -10..60 clips nothing drawn), and the
    # nested form's arrow moved 50/40 form units more, doubled too: two figures where the forms put them
    # (a lone stroke, like the page's own curve, is a frame by the rules above, not a figure)
    assert len(boxes) == 2
    drawing, arrow = sorted(boxes)
    assert drawing[0] == pytest.approx(300 - 2, abs=1) and drawing[2] == pytest.approx(300 + 2 * 40 + 2, abs=1)
    assert drawing[3] == pytest.approx(height - 400 + 20, abs=2)
    assert arrow[0] == pytest.approx(300 + 2 * 50, abs=4) and arrow[2] == pytest.approx(300 + 2 * 80, abs=4)
    assert arrow[1] == pytest.approx(height - 400 - 2 * (40 + 25), abs=4)


@pytest.fixture
def repeated(tmp_path) -> Path:
    """Three pages: the same chart at the same place on pages 1 and 3, another chart on page 2."""
    other = bar_chart_png(["2019", "2020", "2021"], [10, 20, 50], title="Klasy")

    def page(png: bytes) -> PageSpec:
        return PageSpec([TextBox(BODY, 20, 25, 170), ImageBox(CHART_MM[0], CHART_MM[1], CHART_MM[2], png)])

    return build(tmp_path / "repeated.pdf", [page(CHART), page(other), page(CHART)])


def _counting_encoder(monkeypatch) -> list[int]:
    from pipeline.extract import figures

    encoded: list[int] = []
    real = figures._png

    def counted(crop):
        encoded.append(crop.size[0])
        return real(crop)

    monkeypatch.setattr(figures, "_png", counted)
    monkeypatch.setattr(figures, "_ENCODED", {})  # nothing this test process cropped before
    return encoded


def test_a_figure_met_again_gets_its_address_without_encoding_again(repeated, tmp_path, monkeypatch):
    encoded = _counting_encoder(monkeypatch)
    found = extract_figures(repeated, out_dir=tmp_path / "fig", root=tmp_path)
    assert [f.page for f in found] == [1, 2, 3]
    assert found[0].sha256 == found[2].sha256 != found[1].sha256
    assert found[0].path == found[2].path
    assert len(encoded) == 2  # the two charts; page 3's crop is page 1's pixels
    for figure in found:
        assert hashlib.sha256((tmp_path / figure.path).read_bytes()).hexdigest() == figure.sha256


def test_the_address_of_a_repeated_figure_is_that_of_encoding_it_afresh(repeated, tmp_path, monkeypatch):
    _counting_encoder(monkeypatch)
    remembered = extract_figures(repeated, out_dir=tmp_path / "a", root=tmp_path)
    # a fresh process: nothing remembered, every crop encoded
    from pipeline.extract import figures

    monkeypatch.setattr(figures, "_ENCODED", {})
    for figure in remembered:
        fresh = crop_figures(repeated, figure.page, tmp_path / "b", root=tmp_path)
        assert [f.sha256 for f in fresh] == [figure.sha256]
        assert (tmp_path / fresh[0].path).read_bytes() == (tmp_path / figure.path).read_bytes()


def test_a_remembered_figure_is_written_again_where_its_file_is_missing(repeated, tmp_path, monkeypatch):
    encoded = _counting_encoder(monkeypatch)
    first = crop_figures(repeated, 1, tmp_path / "fig", root=tmp_path)[0]
    (tmp_path / first.path).unlink()
    again = crop_figures(repeated, 3, tmp_path / "fig", root=tmp_path)[0]
    elsewhere = crop_figures(repeated, 3, tmp_path / "other", root=tmp_path)[0]
    assert again.sha256 == elsewhere.sha256 == first.sha256
    assert (tmp_path / again.path).is_file() and (tmp_path / elsewhere.path).is_file()
    assert hashlib.sha256((tmp_path / elsewhere.path).read_bytes()).hexdigest() == first.sha256
    assert len(encoded) == 3  # a crop is encoded wherever its file is not there to be named


def test_the_memo_of_addresses_is_bounded(repeated, tmp_path, monkeypatch):
    from pipeline.extract import figures

    _counting_encoder(monkeypatch)
    monkeypatch.setattr(figures, "ENCODED_MAX", 1)
    found = extract_figures(repeated, out_dir=tmp_path / "fig", root=tmp_path)  # two charts, three crops
    assert len(figures._ENCODED) == 1
    assert [f.sha256 for f in found] == [f.sha256 for f in extract_figures(repeated, out_dir=tmp_path / "fig", root=tmp_path)]


@pytest.mark.parametrize("dpi", [150, 100, 300])
def test_crops_drawn_without_what_lies_apart_hold_the_whole_pages_pixels(sheet, dpi, tmp_path, monkeypatch):
    """A figure page is drawn for its crops from the page loaded again with the objects far from every crop
    taken out (the body text, the table, the answer grid): each crop's pixels are those of the whole page's
    render, labels and text over or beside the figure included, and the page the text was read from keeps
    every object."""
    from pipeline.extract import figures
    from pipeline.extract.rendering import drop_objects_apart, render_on_white

    monkeypatch.setattr(figures, "_ENCODED", {})  # every crop encoded here, none taken from an earlier test's memo
    document = pdfium.PdfDocument(str(sheet))
    try:
        cut_pages = 0
        for index in range(len(document)):
            page = document[index]
            boxes = find_figure_boxes(page)
            if not boxes:
                continue
            objects = len(list(page.get_objects()))
            cuts = figures.cut_page(page, index + 1, boxes, tmp_path / f"{dpi}", dpi=dpi)
            assert len(list(page.get_objects())) == objects
            scale = dpi / 72
            whole = render_on_white(page, scale)
            for cut in cuts:
                x0, top, x1, bottom = cut.bbox
                expected = figures._crop_bitmap(whole, (round(x0 * scale), round(top * scale), round(x1 * scale), round(bottom * scale)))
                assert Image.open(io.BytesIO(cut.data)).tobytes() == expected.tobytes()
            again = document[index]
            try:  # the page had objects apart from its crops to leave undrawn
                assert drop_objects_apart(again, [c.bbox for c in cuts], figures.APART_MARGIN_PT) > 0
            finally:
                again.close()
            cut_pages += 1
        assert cut_pages == 2  # the photo page and the drawings page
    finally:
        document.close()


def _rules_page() -> PageSpec:
    """Text with two rules under it, 2 mm apart: graphics no figure can be made of (a rule is
    under `MIN_SIDE_PT` tall however long, so every cluster of them is too)."""
    return PageSpec([TextBox(BODY, 20, 25, 170), Line(20, 60, 190, 60, width=0.5), Line(20, 62, 60, 62, width=0.3)])


def test_a_page_of_rules_has_no_figure_and_its_paths_are_not_looked_into(tmp_path, monkeypatch):
    """All of a page's graphics together smaller than a figure may be: no figure, and neither a path's
    segments read to tell its shape nor a text object's box asked (nor on a page of text alone). A page
    whose graphics together are big enough has its paths and its text looked into."""
    from pipeline.extract import figureboxes

    pdf = build(tmp_path / "rules.pdf", [_rules_page(), _vector_page(), PageSpec([TextBox(BODY, 20, 25, 170)])])
    told: list[int] = []
    real = figureboxes._path_shape
    monkeypatch.setattr(figureboxes, "_path_shape", lambda handle: told.append(handle) or real(handle))
    boxed: list[int] = []
    real_boxes = figureboxes._text_boxes
    monkeypatch.setattr(figureboxes, "_text_boxes", lambda page, texts: boxed.append(len(texts)) or real_boxes(page, texts))
    with pdfium.PdfDocument(str(pdf)) as document:
        graphics, texts = figureboxes._page_objects(document[0])
        assert len(graphics) == 2 and len(told) == 2  # the page's two rules, as a walk of its objects finds them
        assert texts and boxed == [len(texts)]
        told.clear(), boxed.clear()
        assert find_figure_boxes(document[0]) == [] and told == [] and boxed == []
        assert find_figure_boxes(document[2]) == [] and boxed == []
        assert len(find_figure_boxes(document[1])) == 2 and told and boxed


def test_figure_boxes_are_those_of_every_cluster_looked_into(sheet, tmp_path):
    """The union test only skips pages where every cluster would be too small: on each page of the sheets
    (images, drawings, a grid, a frame, rules) the boxes are those found with every path's shape told."""
    from pipeline.extract import figureboxes

    pdf = build(tmp_path / "rules.pdf", [_rules_page(), _frame_page()])
    for path in (sheet, pdf):
        with pdfium.PdfDocument(str(path)) as document:
            for index in range(len(document)):
                page = document[index]
                graphics, texts = figureboxes._page_objects(page)
                union = figureboxes._union([g.box for g in graphics]) if graphics else None
                found = find_figure_boxes(page)
                if union is None or not figureboxes._big_enough(union, 2500):
                    assert found == []
                else:
                    assert found == find_figure_boxes(page, min_area_pt2=2500)


def test_crops_keep_their_pixels_whatever_the_buffer_holds_outside_them(sheet, tmp_path, monkeypatch):
    """A figure page is drawn on a buffer filled white only inside its crops (`render_on_white`'s `read`):
    with the rest of the buffer holding anything (here a grey no render paints), each crop is the whole
    white page's render there, and its PNG the same bytes."""
    from pipeline.extract import figures, rendering

    monkeypatch.setattr(figures, "_ENCODED", {})
    monkeypatch.setattr(rendering, "_unfilled", lambda shape: np.full(shape, 0x5A, dtype=np.uint8))
    document = pdfium.PdfDocument(str(sheet))
    try:
        for index in (0, 1):  # the photo page and the drawings page
            page = document[index]
            boxes = find_figure_boxes(page)
            cuts = figures.cut_page(page, index + 1, boxes, tmp_path / "fig")
            scale = 150 / 72
            whole = rendering.render_on_white(page, scale)
            garbled = rendering.render_on_white(page, scale, read=[(0, 0, 10, 10)])
            assert (garbled.to_numpy()[20:, 20:] == 0x5A).any()  # the grey stays where nothing is drawn
            for cut in cuts:
                x0, top, x1, bottom = cut.bbox
                box = (round(x0 * scale), round(top * scale), round(x1 * scale), round(bottom * scale))
                assert cut.data == figures._png(figures._crop_bitmap(whole, box))
    finally:
        document.close()


def test_a_crop_is_keyed_in_the_render_and_encoded_from_it_as_an_rgb_image(sheet):
    """The memo's key is taken from pdfium's BGR buffer as it is (no image made for a crop already encoded);
    one made for encoding holds the very pixels an RGB cut of the page gives."""
    from pipeline.extract import figures

    document = pdfium.PdfDocument(str(sheet))
    try:
        bitmap = document[0].render(scale=150 / 72)
        box = (100, 200, 700, 560)
        pixels = figures._cut_pixels(bitmap, box)
        assert pixels is not None and pixels.shape == (360, 600, 3)
        assert figures._rgb(pixels).tobytes() == bitmap.to_pil().convert("RGB").crop(box).tobytes()
        assert figures._pixels_key(pixels) == figures._pixels_key(pixels.copy())
        assert figures._pixels_key(pixels) != figures._pixels_key(pixels[:, :-1].copy())  # its size is in the key
        assert figures._cut_pixels(bitmap, (1100, 1600, 1300, 1800)) is None  # off the page: cut by PIL
    finally:
        document.close()
