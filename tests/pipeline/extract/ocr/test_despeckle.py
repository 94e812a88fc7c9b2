"""Specks of dust on a scan are turned to paper by where they lie, not by their size: the i-dots, accents,
dots below, periods and leader dots of a clean page, as small as any speck, all stay, and a clean scan is
left exactly as scanned."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pypdfium2 as pdfium
import pytest
from scipy import ndimage

from pipeline.devkit.sample.pdfgen import CJK_FONT, PageSpec, TextBox, cjk_font, rasterize_pdf
from pipeline.extract.ocr import OcrSettings
from pipeline.extract.ocr.engine import render_page
from pipeline.extract.ocr.pagepasses import PAGE_PASSES
from pipeline.extract.ocr.passes import PageWork
from pipeline.extract.ocr.specks import SPECK_INK_BELOW, find_specks
from tests.pipeline.extract.ocr.builders import build, needs_tesseract

# Diacritic-dense lines: Vietnamese marks stacked on marks and dots below, Polish dots above and ogoneks,
# Slovak carons, Greek tonos and dialytika, Turkish dotted and dotless i, and option labels whose period
# lies a letter's width from the stem ("Γ.", "T.", "7.").
LINES = (
    "Câu 7. Những người dân địa phương đã giữ gìn truyền thống, nghệ thuật và tiếng nói của mình.",
    "Việc học tập suốt đời giúp mỗi người phát triển kỹ năng; điều đó được khẳng định rõ ràng.",
    "Zadanie 3. Źródłem danych jest plik, w którym każdy wiersz zawiera nazwę miejscowości.",
    "Żółć, gęś, jaźń i pięść: należy wyznaczyć największą gęstość zaludnienia województwa.",
    "Úloha 12. Ktorá z možností vyjadruje ľudskú dôstojnosť? Vyberte správnu odpoveď.",
    "Θέμα Α1. Να γράψετε στο τετράδιό σας τον αριθμό της πρότασης· ΐ, ϋ, άυλος, προϊόν.",
    "Γ. στήριξη    T. İstanbul'da ışık ağır değil    7. Öğrenci sınıfta çalışıyor.",
)
LEADER = "Nazwisko i imię " + "." * 60


@pytest.fixture(scope="module")
def sheet(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("specks")
    boxes = [TextBox(text, 15, 20 + 10 * i, 185, size=11, font="DejaVuSerif" if i % 2 else "DejaVuSans") for i, text in enumerate(LINES)]
    boxes.append(TextBox(LEADER, 15, 20 + 10 * len(LINES), 185, size=11))
    boxes.append(TextBox("." * 40, 60, 120, 120, size=11))  # a dotted answer line standing alone
    # A bold heading: its letters fill their boxes as a cell's white does, and their small counters are no light specks.
    boxes.append(TextBox("Políticas Públicas en Alimentación y Nutrición 2023", 15, 135, 185, size=13, bold=True))
    return build(folder / "sheet.pdf", [PageSpec(tuple(boxes))])


def _grey(scan: Path) -> np.ndarray:
    document = pdfium.PdfDocument(str(scan))
    try:
        return np.asarray(render_page(document, 0, 300)[0].convert("L"))
    finally:
        document.close()


def _scans(sheet: Path, dpi: int, blur: float, jpeg: int, speckle: float) -> tuple[np.ndarray, np.ndarray]:
    """The clean scan and the same scan with specks (the same grain: one seed)."""
    def scan(amount: float) -> np.ndarray:
        target = sheet.with_name(f"scan-{dpi}-{amount}.pdf")
        return _grey(rasterize_pdf(sheet, target, dpi=dpi, blur=blur, jpeg_quality=jpeg, speckle=amount, seed=dpi + jpeg))

    return scan(0.0), scan(speckle)


SCANS = [(150, 0.8, 70), (200, 0.6, 80), (300, 0.4, 90)]


@pytest.mark.parametrize(("dpi", "blur", "jpeg"), SCANS)
def test_a_clean_scan_has_no_specks_and_is_left_as_scanned(sheet, dpi, blur, jpeg):
    clean, _ = _scans(sheet, dpi, blur, jpeg, 0.004)
    specks = find_specks(clean, 300)
    assert specks.letter_height > 0
    assert specks.small_marks >= 100  # the dots and accents are there, all kept
    assert specks.count == 0 and not specks.speckled(300)
    # The pass's condition stops at the first, cheap step (its paper never labelled) and decides the same.
    cheap = find_specks(clean, 300, settle=False)
    assert not cheap.settled and not cheap.speckled(300)
    despeckle = next(p for p in PAGE_PASSES if p.name == "despeckle")
    work = _work(clean)
    assert not despeckle.applies(work)


@pytest.mark.parametrize(("dpi", "blur", "jpeg"), SCANS)
def test_specks_are_taken_and_no_mark_of_the_clean_page_with_them(sheet, dpi, blur, jpeg):
    clean, speckled = _scans(sheet, dpi, blur, jpeg, 0.004)
    specks = find_specks(speckled, 300)
    assert specks.speckled(300)
    cheap = find_specks(speckled, 300, settle=False)  # the pass's condition: a speckled page is measured to the end
    assert cheap.settled and cheap.count == specks.count and np.array_equal(cheap.mask, specks.mask)
    # The specks that stood apart from the writing are gone: the dark pixels left on the white between the
    # lines below the text are a few percent of those the scan had.
    below = slice(round((20 + 10 * len(LINES) + 12) / 25.4 * 300), round(132 / 25.4 * 300))
    dark_before = int((speckled[below] < SPECK_INK_BELOW).sum()) - int((clean[below] < SPECK_INK_BELOW).sum())
    after = np.where(specks.mask, 255, speckled)
    dark_after = int((after[below] < SPECK_INK_BELOW).sum()) - int((clean[below] < SPECK_INK_BELOW).sum())
    assert dark_before > 1000 and dark_after < 0.05 * dark_before
    # Not one component of the clean page's ink (a dot, an accent, a leader's dot) has any pixel taken.
    labels, count = ndimage.label(clean < SPECK_INK_BELOW, structure=np.ones((3, 3), dtype=bool))
    taken = np.bincount(labels[specks.mask], minlength=count + 1)[1:]
    assert count > 500 and int((taken > 0).sum()) == 0


def test_the_pass_turns_the_specks_of_the_page_every_later_pass_reads_to_paper(sheet):
    _, speckled = _scans(sheet, 200, 0.6, 80, 0.004)
    despeckle = next(p for p in PAGE_PASSES if p.name == "despeckle")
    names = [p.name for p in PAGE_PASSES]
    assert names.index("despeckle") < names.index("prepare") < names.index("sharpen")  # prepared, sharpened, cells: all clean
    work = _work(speckled)
    assert despeckle.applies(work)
    cleaned = np.asarray(despeckle.run(work).image)
    changed = cleaned != speckled
    assert changed.any() and (cleaned[changed] == 255).all()


def _work(grey: np.ndarray) -> PageWork:
    from PIL import Image

    image = Image.fromarray(grey, mode="L")
    return PageWork(OcrSettings(languages=("pol",), dpi=300), 1, 1, True, Path("."), image, image)


@needs_tesseract("spa")
def test_a_sheet_scanned_at_150_dpi_with_specks_reads_every_option_and_answer(tmp_path):
    # Without the pass this scan read 13 of 32 options and 4 of 8 answers: specks beside the letters became
    # letters and marks of their own.
    from pipeline.devkit import scriptscans

    family = scriptscans.Family("es-specks", "es", "spa", ("A", "B", "C", "D"), "A.", "column", "DejaVuSans", 71, 8)
    vocabulary = scriptscans._vocabulary(family)
    questions = scriptscans.printed_questions(family, vocabulary)
    text, scanned = tmp_path / "text", tmp_path / "scan"
    text.mkdir()
    scanned.mkdir()
    sheet = scriptscans.sheet_pdf(text / "sheet.pdf", family, questions)
    key = scriptscans.key_pdf(text / "key.pdf", family, questions, vocabulary)
    for clean in (sheet, key):
        rasterize_pdf(clean, scanned / clean.name, dpi=150, blur=0.8, jpeg_quality=70, noise=0.01, speckle=0.003, seed=220)
    assert find_specks(_grey(scanned / "sheet.pdf"), 300).speckled(300)
    records = scriptscans.read_records(scanned / "sheet.pdf", scanned / "key.pdf", family)
    score = scriptscans.score(questions, records, family, "150 dpi, specks 0.003")
    assert (score.found, score.options_exact, score.answers) == (8, 32, 8), score.text()


@pytest.mark.corpus
@needs_tesseract("spa")
def test_a_question_number_tesseract_drops_on_a_despeckled_page_is_still_read(tmp_path):
    """PAES L 2023's question "1." stands far left of its stem; Tesseract's page layout drops it and the orphans
    pass reads it from a strip of the page's uncovered patches. On the despeckled page that strip read it at
    confidence 39 ("1." beside "- 6 -", which read "06."), under what is taken: the question was lost (recall
    100 -> 66.7 %). Read alone, every patch read surely (94-97)."""
    from dataclasses import replace

    from pipeline.devkit.ocrcertainty import _pages_of
    from pipeline.devkit.sample.scansetting import ScanSetting
    from pipeline.extract import ExtractOptions
    from pipeline.extract.ocr.pagepasses import read_page
    from pipeline.specs import load_spec
    from tests.fixtures.corpus import CORPUS

    booklet = CORPUS / "cl_demre_paes" / "L-2023-1" / "L-2023-1.pdf"
    if not booklet.is_file():
        pytest.skip(f"{booklet} is not in the development corpus")
    stretch = _pages_of(booklet, tmp_path / "text" / booklet.name, (3, 6))  # softscans' stretch: the cover and pages 3-6
    scan = tmp_path / "scan.pdf"
    ScanSetting.parse("200/0.6/80/0/s0.003").rasterise(stretch, scan)
    document = pdfium.PdfDocument(str(scan))
    try:
        image = render_page(document, 4, 300)[0]  # the booklet's page 6: questions 1 to 3
    finally:
        document.close()
    assert find_specks(np.asarray(image.convert("L")), 300).speckled(300)
    settings = ExtractOptions.from_spec(load_spec("cl_demre_paes")).ocr
    words = read_page(image, settings, page_number=5).words
    numbers = sorted((w.top, w.text) for w in words if w.text in ("1.", "2.", "3.") and w.left < image.width / 4)
    assert [text for _, text in numbers] == ["1.", "2.", "3."]
    # Without the pass (the specks left) it read as well: the pass costs this page nothing.
    plain = read_page(image, replace(settings, disabled_passes=(*settings.disabled_passes, "despeckle")), page_number=5).words
    assert {"1.", "2.", "3."} <= {w.text for w in plain}


@pytest.mark.skipif(cjk_font() is None, reason="Noto Sans CJK (fonts-noto-cjk) not installed")
@pytest.mark.parametrize(("dpi", "blur", "jpeg"), [(150, 0.6, 72), (150, 0.8, 70)])
def test_a_light_rings_darkest_spots_are_no_specks_and_every_ring_stays_whole(tmp_path, dpi, blur, jpeg):
    """A ring label printed thin (Noto CJK's ①, as Korean CSAT sheets print them) scanned soft at 150 dpi is grey all
    round, darker than a speck's ink only in spots a few pixels long; taken for specks, they were whitened and the rings
    cut open, so the label-rings pass no longer found them (at 150/0.6/72 with specks, 11 of 30 rings a page were left
    and a Korean sheet read 38 % of its options). The specks on the paper round them still go."""
    from pipeline.extract.ocr.ringshapes import find_rings
    from pipeline.extract.ocr.specks import without_specks

    boxes = [TextBox(f"{n}. 다음 중 옳은 것은 무엇인가.", 20, 15 + 45 * (n - 1), 170, size=10.5, font=CJK_FONT) for n in (1, 2, 3, 4, 5)]
    boxes += [TextBox(f"{label} {word}", 26, 22 + 45 * (n - 1) + 6.5 * i, 60, size=10.5, font=CJK_FONT)
              for n in (1, 2, 3, 4, 5) for i, (label, word) in enumerate(zip("①②③④⑤", ("사과", "바다 72", "포도", "하늘", "1950")))]
    sheet = build(tmp_path / "sheet.pdf", [PageSpec(tuple(boxes))])
    clean, speckled = (_grey(rasterize_pdf(sheet, tmp_path / f"scan-{amount}.pdf", dpi=dpi, blur=blur, jpeg_quality=jpeg,
                                           noise=0.01, speckle=amount, seed=dpi + jpeg)) for amount in (0.0, 0.002))
    height = 10.5 / 72 * 300 * 0.9
    assert len(find_rings(clean, height)) == 25
    specks = find_specks(speckled, 300)
    assert specks.speckled(300)
    # No pixel of a ring's or a letter's ink on the clean scan is taken: the rings are as printed.
    labels, count = ndimage.label(clean < SPECK_INK_BELOW, structure=np.ones((3, 3), dtype=bool))
    assert int((np.bincount(labels[specks.mask], minlength=count + 1)[1:] > 0).sum()) == 0
    from PIL import Image

    cleaned = np.asarray(without_specks(Image.fromarray(speckled, mode="L"), specks))
    # Every ring the specks themselves left whole (a white speck on a ring's stroke opens it: one or two of 25) is whole
    # after the pass too.
    as_scanned = find_rings(speckled, height)
    assert len(as_scanned) >= 23 and find_rings(cleaned, height) == as_scanned
    # The specks on the paper between the questions' rows are still turned to paper.
    assert specks.count > 500
