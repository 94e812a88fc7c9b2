"""Generated exam pages for the OCR, figure and text-layer tests: real PDFs (pdfgen), real scans of them."""
from __future__ import annotations

import difflib
import re
import shutil
import subprocess
from pathlib import Path

import pypdfium2 as pdfium
import pytest

from pipeline.extract.ocr import OcrSettings, OcrUnavailable, PageReading, installed_languages, lay_out_page
from pipeline.devkit.sample.pdfgen import (
    PageSpec,
    TextBox,
    build_pdf,
    item_bottom,
    rasterize_pdf,
)

POLISH_STEM = (
    "Zadanie 3. Który z wymienionych protokołów służy do przesyłania poczty elektronicznej "
    "między serwerami? Zaznacz właściwą odpowiedź spośród podanych."
)
POLISH_PASSAGE = (
    "Źródłem danych jest plik tekstowy, w którym każdy wiersz zawiera nazwę miejscowości "
    "oraz liczbę ludności. Należy wyznaczyć największą gęstość zaludnienia."
)
POLISH_OPTIONS = ("A. HTTP", "B. SMTP", "C. żaden z powyższych", "D. DNS")
GREEK_STEM = (
    "Θέμα Α1. Να γράψετε στο τετράδιό σας τον αριθμό της πρότασης και δίπλα το γράμμα "
    "που αντιστοιχεί στη σωστή απάντηση."
)
GREEK_PASSAGE = "Η ταχύτητα ενός σώματος που εκτελεί ομαλή κυκλική κίνηση έχει σταθερό μέτρο."
GREEK_OPTIONS = ("α. μηδέν", "β. σταθερή", "γ. αυξανόμενη", "δ. μειούμενη")
COLUMN_RIGHT_X = 110.0  # mm


def question_page(stem: str, passage: str, options: tuple[str, ...], *, highlight: int | None = None) -> PageSpec:
    """One A4 page: a stem, a passage and options one per line; option `highlight` on a yellow fill."""
    items = [TextBox(stem, 20, 30, 170, size=12), TextBox(passage, 20, 58, 170, size=12)]
    y = 85.0
    for index, option in enumerate(options):
        items.append(TextBox(option, 25, y, 120, size=12, highlight=(255, 240, 0) if index == highlight else None))
        y += 11
    return PageSpec(items)


def expected_text(stem: str, passage: str, options: tuple[str, ...]) -> str:
    return " ".join([stem, passage, *options])


def two_column_page(left: list[str], right: list[str]) -> PageSpec:
    """Running text in two columns of 80 mm with a 10 mm gutter, one paragraph per list item."""
    items = [TextBox("Tekst źródłowy do zadań 1–4", 20, 20, 170, size=12, bold=True)]
    for x, paragraphs in ((20.0, left), (COLUMN_RIGHT_X, right)):
        y = 32.0
        for paragraph in paragraphs:
            box = TextBox(paragraph, x, y, 80, size=11, align="J")
            items.append(box)
            y = item_bottom(box) + 3
    return PageSpec(items)


def normalised(text: str) -> str:
    return " ".join(text.split())


def char_accuracy(expected: str, got: str) -> float:
    """difflib's similarity of the two texts with whitespace runs collapsed (1.0 = identical)."""
    return difflib.SequenceMatcher(None, normalised(expected), normalised(got), autojunk=False).ratio()


def colour_scan(
    src: Path, dst: Path, *, dpi: int = 200, noise: float = 0.0, blur: float = 0.0, seed: int = 0, quality: int = 85
) -> Path:
    """An image-only PDF of `src` in colour, so a yellow key marking survives the scan."""
    return rasterize_pdf(src, dst, dpi=dpi, noise=noise, blur=blur, seed=seed, jpeg_quality=quality, colour=True)


def build(path: Path, pages: list[PageSpec]) -> Path:
    return build_pdf(path, pages)


def needs_tesseract(*languages: str) -> pytest.MarkDecorator:
    """Skip unless Tesseract and the data for `languages` are installed (`make setup` installs them)."""
    try:
        present = set(languages) <= installed_languages()
    except OcrUnavailable:
        present = False
    return pytest.mark.skipif(not present, reason=f"Tesseract with {'+'.join(languages)} data not installed (make setup)")


needs_readers = pytest.mark.skipif(shutil.which("hunspell") is None, reason="the hunspell program is not installed (make setup)")


def require_second_reader(language: str) -> None:
    """Skip unless RapidOCR, Tesseract's data and a spelling dictionary for `language` are installed: the second
    reader's tests read a real scan with both engines and choose by the dictionary."""
    from pipeline.extract.ocr.secondread import readiness

    pytest.importorskip("rapidocr")
    if language not in installed_languages() or readiness((language,))[0] is None:
        pytest.skip(f"no Tesseract data or spelling dictionary for {language}")


def scanned_line(folder: Path, text: str, *, size: float, dpi: int, blur: float, jpeg: int):
    """One line of `text` printed at `size` pt, scanned soft (`dpi`, `blur`, JPEG `jpeg`, light noise) and rendered
    at the scan's dpi as OCR renders it: the RGB image."""
    pdf = build_pdf(folder / "line.pdf", [PageSpec([TextBox(text, 20, 30, 180, size=size)])])
    return first_page(rasterize_pdf(pdf, folder / "scan.pdf", dpi=dpi, blur=blur, noise=0.01, jpeg_quality=jpeg, seed=dpi + round(size)), dpi)


def printed_grey(pdf: Path, folder: Path, dpi: int):
    """The first page of `pdf` as a clean print scanned grey at `dpi` (poppler's `pdftoppm`, no blur, no noise): a PIL
    image in mode `L`, for tests that damage a known-good page themselves."""
    from PIL import Image

    subprocess.run(["pdftoppm", "-r", str(dpi), "-gray", "-png", "-singlefile", str(pdf), str(folder / "page")], check=True)
    return Image.open(folder / "page.png").convert("L")


def first_page(scan: Path, dpi: int):
    """The first page of the PDF `scan` rendered at `dpi` as OCR renders it: the RGB image."""
    import pypdfium2 as pdfium

    from pipeline.extract.ocr.engine import render_page

    with pdfium.PdfDocument(str(scan)) as document:
        return render_page(document, 0, dpi)[0]


def tessdata_with_only(folder: Path, *languages: str) -> Path:
    """A tessdata folder in `folder` holding only `languages` (and Tesseract's output configs), linked
    from the installed one: point $TESSDATA_PREFIX at it to run without the rest (e.g. without `osd`)."""
    listing = subprocess.run([shutil.which("tesseract") or "tesseract", "--list-langs"], capture_output=True, text=True, check=True)
    installed = Path(re.search(r'"([^"]+)"', listing.stdout + listing.stderr).group(1))
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "configs").symlink_to(installed / "configs")
    for language in languages:
        (folder / f"{language}.traineddata").symlink_to(installed / f"{language}.traineddata")
    return folder


def read_scanned_lines(folder: Path, lines: tuple[str, ...], *, dpi: int, blur: float, jpeg: int,
                       languages: tuple[str, ...] = ("spa",)) -> tuple[PageReading, OcrSettings, float, float]:
    """`lines` printed one under another at 11 pt, scanned, and read through every page pass: the reading, its
    settings and the page's size in points."""
    from pipeline.extract.ocr.engine import render_page
    from pipeline.extract.ocr.pagepasses import read_page

    items = [TextBox(text, 20, 20 + 12 * i, 170, size=11) for i, text in enumerate(lines)]
    scan = rasterize_pdf(build_pdf(folder / "sheet.pdf", [PageSpec(items)]), folder / "scan.pdf", dpi=dpi, blur=blur,
                         jpeg_quality=jpeg, seed=5)
    image, width, height = render_page(pdfium.PdfDocument(str(scan)), 0, dpi)
    settings = OcrSettings(languages=languages, dpi=dpi)
    return read_page(image, settings, page_number=1), settings, width, height


def unsure_words(reading: PageReading, settings: OcrSettings, width: float, height: float) -> list[str]:
    """The words the laid-out page's lines hold as unsure."""
    laid_out = lay_out_page(reading, settings, page_number=1, width_pt=width, height_pt=height).lines
    return [word for line in laid_out for word in line.unsure_words]


def read_as(reading: PageReading, printed: str, read: str) -> PageReading:
    """The reading with the word `printed` read as `read`: its box (the printed ink) and its second reading kept."""
    from dataclasses import replace

    at = next(i for i, w in enumerate(reading.words) if w.text == printed)
    return replace(reading, words=reading.words[:at] + (replace(reading.words[at], text=read),) + reading.words[at + 1:])


def read_scanned_prose(tmp_path: Path, text: str, face, scan: str, language: str, disabled: tuple[str, ...] = ()) -> list[str]:
    """The words a season run reads from `text` set in `face` (`devkit.accentfamilies`) on one page, rasterised at
    `scan` (`ScanSetting`, seed 7) and read at 300 dpi in `language` with every pass but `disabled` (bold marks
    dropped); skipped where the face is not installed. One scan per face and setting, shared by the calls."""
    from pipeline.devkit.accentfamilies import page_pdf
    from pipeline.devkit.sample.scansetting import ScanSetting
    from pipeline.extract.ocr import ocr_pages
    from pipeline.infra import sha256_file

    font = Path("/usr/share/fonts/truetype") / face.path
    if not font.is_file():
        pytest.skip(f"{font} not installed")
    folder = tmp_path / f"{face.name}-{scan.replace('/', '_')}"
    folder.mkdir(exist_ok=True)
    pdf = folder / "scan.pdf"
    if not pdf.is_file():
        ScanSetting.parse(scan).rasterise(page_pdf(folder / "text.pdf", text, face), pdf, seed=7)
    settings = OcrSettings(languages=(language,), dpi=300, disabled_passes=disabled)
    page = ocr_pages(pdf, [1], settings, workers=1, cache_dir=tmp_path / "cache", sha256=sha256_file(pdf), progress=False)[1]
    return [w for line in page.lines for w in line.text.replace("**", "").split()]
