"""A native scan's faults in the scan generator: each is one optional part of the `--scans` syntax, does to the page
what a scanner or an archive does (measured on the scanned page's pixels), and leaves a setting without faults
exactly as it was."""
import hashlib
from pathlib import Path

import numpy as np
import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
import pytest

from pipeline.devkit.sample.pdfbase import new_fpdf
from pipeline.devkit.sample.raster import rasterize_pdf
from pipeline.devkit.sample.scanfaults import ScanFaults
from pipeline.devkit.sample.scansetting import ScanSetting

DPI = 100


@pytest.fixture
def leaf(tmp_path) -> Path:
    """A leaf of two A4 pages: the recto a full-width black bar across its lower half, the verso a black block in its
    top-left quarter (so that, mirrored, it lies behind the recto's top-right quarter)."""
    pdf = new_fpdf()
    pdf.add_page()
    pdf.rect(10, 230, 190, 4, style="F")
    pdf.add_page()
    pdf.rect(10, 20, 80, 100, style="F")
    return Path(pdf.output(str(tmp_path / "leaf.pdf")) or tmp_path / "leaf.pdf")


def _pages(path: Path) -> list[np.ndarray]:
    document = pdfium.PdfDocument(str(path))
    try:
        return [np.asarray(document[i].render(scale=DPI / 72, grayscale=True).to_pil().convert("L"), dtype=np.int16)
                for i in range(len(document))]
    finally:
        document.close()


def _scan(leaf: Path, tmp_path: Path, text: str) -> list[np.ndarray]:
    setting = ScanSetting.parse(text)
    return _pages(setting.rasterise(leaf, tmp_path / f"{setting.folder()}.pdf", seed=1))


@pytest.mark.parametrize(("text", "faults"), [
    ("200/0.6/80/0/b140", ScanFaults(bilevel=140)),
    ("300/0.5/85/0/d", ScanFaults(bilevel=-1)),
    ("200/0.6/80/0/i0.4/v0.2", ScanFaults(illumination=0.4, bleed=0.2)),
    ("200/0.6/80/1.0/s0.002/e0.3/c0.1/p200", ScanFaults(border=0.3, curve=0.1, paper=200)),
    ("200/0.6/80/0/g0.03/s0.001/b128/i0.3/v0.1/e0.2/c0.05/p210",
     ScanFaults(bilevel=128, illumination=0.3, bleed=0.1, border=0.2, curve=0.05, paper=210)),
])
def test_each_fault_is_a_part_of_the_syntax_that_is_written_back_the_same(text, faults):
    setting = ScanSetting.parse(text)
    assert setting.faults == faults
    assert ScanSetting.parse(str(setting)) == setting
    assert setting.folder() != ScanSetting(setting.dpi, setting.blur, setting.jpeg, setting.tilt, setting.noise, setting.speckle).folder()


def test_the_faults_show_in_the_label_a_tool_prints():
    assert ScanSetting.parse("300/0.5/85/0/b140/i0.4").label() == "300dpi blur 0.5 q85 bilevel 140 lit 0.4"
    assert ScanSetting.parse("300/0.5/85/0/d/v0.2/p200").label() == "300dpi blur 0.5 q85 dithered bleed 0.2 paper 200"
    assert ScanSetting.parse("300/0.5/85/0/d").folder() == "300-0.5-85-d"


@pytest.mark.parametrize(("text", "message"), [
    ("200/0.6/80/0/b140/b120", "bilevel given twice"),
    ("200/0.6/80/0/b140/d", "bilevel given twice"),
    ("200/0.6/80/0/b0", "threshold must be 1 to 255"),
    ("200/0.6/80/0/b300", "threshold must be 1 to 255"),
    ("200/0.6/80/0/d3", "not 'd3'"),
    ("200/0.6/80/0/i1.5", "shares from 0 to below 1"),
    ("200/0.6/80/0/vx", "not 'vx'"),
    ("200/0.6/80/0/e-0.2", "not negative"),
    ("200/0.6/80/0/p100", "paper grey must be 129 to 255"),
    ("200/0.6/80/0/g0.1/s0.1/g0.2/b140", "expected dpi/blur/jpeg"),
])
def test_a_fault_that_is_not_one_is_refused_with_the_reason(text, message):
    with pytest.raises(ValueError, match=message) as refused:
        ScanSetting.parse(text)
    assert "scan " in str(refused.value)


def test_a_setting_without_faults_scans_byte_identically_with_or_without_the_faults_argument(leaf, tmp_path):
    plain = rasterize_pdf(leaf, tmp_path / "plain.pdf", dpi=DPI, blur=0.5, noise=0.02, rotate_deg=0.4, speckle=0.002, seed=3)
    none = rasterize_pdf(leaf, tmp_path / "none.pdf", dpi=DPI, blur=0.5, noise=0.02, rotate_deg=0.4, speckle=0.002, seed=3,
                         faults=ScanFaults())
    faulted = rasterize_pdf(leaf, tmp_path / "lit.pdf", dpi=DPI, blur=0.5, noise=0.02, rotate_deg=0.4, speckle=0.002, seed=3,
                            faults=ScanFaults(illumination=0.3))
    digests = [hashlib.sha256(p.read_bytes()).hexdigest() for p in (plain, none, faulted)]
    assert digests[0] == digests[1] != digests[2]


def _image_objects(path: Path) -> list[tuple[int, list[str]]]:
    """(bits per pixel, filters) of every image on every page of `path`."""
    document = pdfium.PdfDocument(str(path))
    try:
        found = []
        for page in document:
            for image in page.get_objects(filter=(pdfium_c.FPDF_PAGEOBJ_IMAGE,)):
                found.append((image.get_metadata().bits_per_pixel, image.get_filters()))
        return found
    finally:
        document.close()


def test_a_bilevel_page_is_stored_as_a_one_bit_ccitt_image_and_a_grey_one_as_jpeg(leaf, tmp_path):
    bilevel = ScanSetting.parse("100/0.6/80/0/b140").rasterise(leaf, tmp_path / "bilevel.pdf", seed=1)
    dithered = ScanSetting.parse("100/0.6/80/0/d/i0.5").rasterise(leaf, tmp_path / "dithered.pdf", seed=1)
    grey = ScanSetting.parse("100/0.6/80/0/i0.3").rasterise(leaf, tmp_path / "grey.pdf", seed=1)
    assert _image_objects(bilevel) == [(1, ["CCITTFaxDecode"])] * 2
    assert _image_objects(dithered) == [(1, ["CCITTFaxDecode"])] * 2
    assert _image_objects(grey) == [(8, ["DCTDecode"])] * 2
    page = _pages(dithered)[0]
    # Dithered, the darkened paper by the spine is a mix of black and white dots, not grey and not all white.
    spine = page[50:250, 5:60]
    assert set(np.unique(spine)) <= {0, 255} and 0.1 < (spine == 0).mean() < 0.9


def test_uneven_light_darkens_the_paper_towards_the_spine_which_alternates_sides(leaf, tmp_path):
    recto, verso = _scan(leaf, tmp_path, "100/0.4/90/0/g0/i0.4")
    # The recto's spine on the left, the verso's on the right; the paper at the outer edge stays nearly white.
    assert recto[400:600, 2:12].mean() < 170 and recto[400:600, -12:-2].mean() > 215
    assert verso[400:600, -12:-2].mean() < 170 and verso[600:800, 2:12].mean() > 215


def test_bleed_through_is_the_verso_mirrored_and_faint(leaf, tmp_path):
    recto, _ = _scan(leaf, tmp_path, "100/0.4/90/0/g0/v0.25")
    behind_block = recto[150:350, 560:700]  # the verso's block, mirrored, lies behind the recto's top right
    elsewhere = recto[150:350, 100:240]
    assert 170 < behind_block.mean() < 215 and elsewhere.mean() > 245


def test_a_border_darkens_the_outer_edge_and_grey_paper_lowers_the_contrast(leaf, tmp_path):
    recto, _ = _scan(leaf, tmp_path, "100/0.4/90/0/g0/e0.3")
    assert recto[300:900, -20:-5].mean() < 60 and recto[300:900, 5:20].mean() > 245
    grey, _ = _scan(leaf, tmp_path, "100/0.4/90/0/g0/p190")
    bar = grey[int(232 / 25.4 * DPI) - 1: int(232 / 25.4 * DPI) + 2, 100:700]
    assert abs(grey[100:300, 100:700].mean() - 190) < 4 and abs(bar.mean() - 65) < 12


def test_bent_lines_move_a_straight_bar_near_the_spine_and_not_far_from_it(leaf, tmp_path):
    straight, _ = _scan(leaf, tmp_path, "100/0.4/90/0/g0")
    bent, _ = _scan(leaf, tmp_path, "100/0.4/90/0/g0/c0.1")

    def bar_row(page: np.ndarray, column: int) -> float:
        dark = np.flatnonzero(page[:, column] < 128)
        return float(dark.mean())

    near, far = round(0.5 * DPI), round(7.0 * DPI)  # inches from the recto's spine (its left edge)
    # The bar lies below the page's middle: near the spine it moves down (away from the middle).
    assert bar_row(bent, near) - bar_row(straight, near) > 2
    assert abs(bar_row(bent, far) - bar_row(straight, far)) < 0.5
