"""A masked page is drawn without what of its form XObjects lies apart from the kept boxes
(`rendering.drop_objects_apart` opens forms `FORM_LEVELS` deep): a form that reaches a box keeps the objects
of it that reach one, each object's bounds mapped onto the page by the form's matrix (a form placed scaled and
shifted, a form inside it with a matrix of its own), and a form left with none of its objects (a full-page
background of ornaments in a transparency group, none of them near the text read) is taken out whole. The
masked image's pixels, and so its digest and reading, stay the whole page's crops pasted on white
(`test_masked_render`'s reference) at 150-300 dpi."""
from __future__ import annotations

import numpy as np
import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
import pytest

from pipeline.extract import rendering
from pipeline.extract.ocr import masked
from tests.pipeline.extract.ocr.test_masked_render import _whole_page_masked

WIDTH, HEIGHT = 600.0, 800.0


def _stream(dictionary: str, content: str) -> bytes:
    data = content.encode()
    return f"<< {dictionary} /Length {len(data)} >>\nstream\n".encode() + data + b"\nendstream"


def _ornaments(points: list[tuple[float, float]], size: float) -> str:
    """Filled diamonds and rings (curved paths of more than a rectangle's segments) at `points`."""
    out = []
    for x, y in points:
        half = size / 2
        out.append(f"{x} {y - half} m {x + half} {y} l {x} {y + half} l {x - half} {y} l h f")
        k = half * 0.55
        out.append(f"{x + half} {y} m {x + half} {y + k} {x + k} {y + half} {x} {y + half} c "
                   f"{x - k} {y + half} {x - half} {y + k} {x - half} {y} c S")
    return "\n".join(out)


def _glyph_row(x: float, baseline: float, count: int) -> str:
    """A row of small filled shapes standing on one baseline, as a line of drawn glyphs would."""
    shapes = []
    for i in range(count):
        left = x + i * 9
        shapes.append(f"{left} {baseline} m {left + 6} {baseline} l {left + 3} {baseline + 9} l h f")
        shapes.append(f"{left + 1} {baseline + 10} 2 2 re f")
    return "\n".join(shapes)


def _pdf(path, objects: list[bytes]) -> None:
    out = b"%PDF-1.4\n"
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{offset:010d} 00000 n \n".encode() for offset in offsets)
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    path.write_bytes(out)


# PDF space (origin bottom-left); the drawn text the requests keep is in rows at y 700 and 420.
KEPT_ROWS = [(80.0, 700.0, 20), (300.0, 420.0, 14)]
INNER_NEAR = (390.0, 730.0)  # in the inner form's space: (310, 425) on the page through both matrices


def _on_page(x: float, y: float) -> tuple[float, float]:
    """Where a point of the inner form prints: its /Matrix, then the placed form's `cm`; top-left origin."""
    return 100 + (x + 30) / 2, HEIGHT - (50 + (y + 20) / 2)


@pytest.fixture(scope="module")
def formed(tmp_path_factory):
    """A page of drawn rows, a full-page background form (transparency group) of ornaments none of which
    is near the rows, a form placed at half size holding ornaments near and far and a form of its own with
    a shifting matrix, and a form far from everything."""
    background = _ornaments([(40, 40), (560, 40), (40, 760), (560, 760), (300, 60), (50, 400), (550, 400)], 14)
    near_and_far = _ornaments([(40, 40), (500, 300)], 16) + "\nq 1 0 0 1 0 0 cm /Inner Do Q"
    # Inner's own matrix shifts it by (30, 20) inside Placed's space, which is placed at half size from
    # (100, 50): its first ornament lands on the second row's start (310, 425), its second far below.
    inner = _ornaments([INNER_NEAR, (100, 100)], 12)
    far = _ornaments([(500, 150), (520, 170)], 10)
    page = "\n".join([
        "q /Bg Do Q",
        "q 0.5 0 0 0.5 100 50 cm /Placed Do Q",  # Placed's space (x, y) lands on the page at (100 + x/2, 50 + y/2)
        "q /Far Do Q",
        *(f"0 0 0 rg {_glyph_row(x, y, n)}" for x, y, n in KEPT_ROWS),
    ])
    group = "/Group << /S /Transparency /CS /DeviceRGB >>"
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        (f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {WIDTH:g} {HEIGHT:g}] /Contents 4 0 R "
         "/Resources << /XObject << /Bg 5 0 R /Placed 6 0 R /Far 7 0 R >> >> >>").encode(),
        _stream("", page),
        _stream(f"/Type /XObject /Subtype /Form /BBox [0 0 {WIDTH:g} {HEIGHT:g}] {group}", "0.2 0.4 0.8 rg 0.1 0.2 0.5 RG\n" + background),
        _stream("/Type /XObject /Subtype /Form /BBox [0 0 800 800] /Resources << /XObject << /Inner 8 0 R >> >>",
                "0.6 0.1 0.1 rg 0.6 0.1 0.1 RG\n" + near_and_far),
        _stream(f"/Type /XObject /Subtype /Form /BBox [0 0 {WIDTH:g} {HEIGHT:g}]", "0 0 0 rg\n" + far),
        _stream("/Type /XObject /Subtype /Form /BBox [0 0 800 800] /Matrix [1 0 0 1 30 20]", "0.1 0.5 0.1 rg 0.1 0.5 0.1 RG\n" + inner),
    ]
    path = tmp_path_factory.mktemp("forms") / "forms.pdf"
    _pdf(path, objects)
    return path


def _requests() -> list[masked.MaskedRequest]:
    rows = tuple((x - 2, HEIGHT - y - 14, x + 9 * n + 2, HEIGHT - y + 2) for x, y, n in KEPT_ROWS)
    return [
        masked.MaskedRequest(1, keep=rows),
        masked.MaskedRequest(1, keep=rows[1:]),
        masked.MaskedRequest(1, keep=((20.0, 20.0, 70.0, 70.0),)),  # a corner of the background's
    ]


def _top_level(page) -> list[int]:
    return [pdfium_c.FPDFPageObj_GetType(pdfium_c.FPDFPage_GetObject(page.raw, i)) for i in range(pdfium_c.FPDFPage_CountObjects(page.raw))]


def test_forms_lose_what_lies_apart_and_an_emptied_form_goes(formed):
    document = pdfium.PdfDocument(str(formed))
    try:
        page = document[0]
        forms_before = _top_level(page).count(pdfium_c.FPDF_PAGEOBJ_FORM)
        dropped = rendering.drop_objects_apart(page, _requests()[1].keep, masked.APART_MARGIN_PT)
        kinds = _top_level(page)
        placed = next(pdfium_c.FPDFPage_GetObject(page.raw, i) for i, kind in enumerate(kinds) if kind == pdfium_c.FPDF_PAGEOBJ_FORM)
        left_in_placed = pdfium_c.FPDFFormObj_CountObjects(placed)
        page.close()
    finally:
        document.close()
    assert forms_before == 3
    # The background (every ornament apart: taken out whole) and the far form go; the placed form stays,
    # holding only its inner form (whose ornament reaches the second row), not its own ornaments.
    assert kinds.count(pdfium_c.FPDF_PAGEOBJ_FORM) == 1
    assert left_in_placed == 1
    assert dropped > 2 + 4  # the far form and the background, and objects inside forms


@pytest.mark.parametrize("dpi", [150, 200, 300])
def test_a_masked_image_of_a_page_of_forms_is_the_whole_pages_crops(formed, dpi):
    document = pdfium.PdfDocument(str(formed))
    try:
        for request in _requests():
            ours = masked._masked_image(document, request, dpi)
            image, digest, origin = _whole_page_masked(document, request, dpi)
            assert ours.digest == digest and ours.origin == origin
            assert np.array_equal(np.asarray(ours.image), np.asarray(image))
            assert np.asarray(ours.image).min() < 128  # the kept ink is there
    finally:
        document.close()


def test_a_forms_objects_are_placed_by_its_matrix(formed):
    """An ornament of the inner form lands beside the second row only through both forms' matrices: a box
    around where it prints keeps it (so its form stays), a box where it would print unmapped does not."""
    x, y = _on_page(*INNER_NEAR)
    printed = (x - 4, y - 4, x + 4, y + 4)
    unmapped = (INNER_NEAR[0] - 7, HEIGHT - INNER_NEAR[1] - 7, INNER_NEAR[0] + 7, HEIGHT - INNER_NEAR[1] + 7)
    for box, stays in ((printed, True), (unmapped, False)):
        document = pdfium.PdfDocument(str(formed))
        try:
            page = document[0]
            rendering.drop_objects_apart(page, [box], masked.APART_MARGIN_PT)
            assert (pdfium_c.FPDF_PAGEOBJ_FORM in _top_level(page)) is stays
            page.close()
        finally:
            document.close()
