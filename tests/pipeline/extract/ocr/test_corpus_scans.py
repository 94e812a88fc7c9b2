"""Real sheets of the development corpus, rasterised as the fidelity bench scans them (200 dpi, colour,
noise, blur, JPEG): what the text layer prints, the OCR path must read. Skipped without the corpus."""
from __future__ import annotations

import json
import re

import numpy as np
import pypdfium2 as pdfium
import pytest

from pipeline.devkit.sample.pdfgen import rasterize_pdf
from pipeline.devkit.sample.scansetting import ScanSetting
from pipeline.extract import ExtractOptions, extract_document
from pipeline.extract.ocr import OcrSettings, ocr_pages
from pipeline.parse import read_grid
from pipeline.extract.ocr.engine import render_page
from pipeline.extract.ocr.panels import reversed_panels
from pipeline.specs import load_spec
from tests.fixtures.corpus import CORPUS
from tests.pipeline.extract.ocr.builders import needs_tesseract

TASK_HEADING = re.compile(r"Zadanie \d+\.(?:\d+\.?)?")


@pytest.mark.corpus
@needs_tesseract("pol")
def test_cke_task_headings_on_shaded_bars_read_as_on_the_text_layer(tmp_path):
    """CKE prints each task heading ("Zadanie 3.") in bold on a light grey bar. Taken for a light-on-dark
    panel, the bar was inverted and the heading's letters erased, which lost every question of the task
    (recall 0-40 % on the four CKE scans)."""
    sheet = CORPUS / "pl_cke_matura_informatyka" / "2017-05_PP_F2007" / "Arkusz_cz1.pdf"
    if not sheet.is_file():
        pytest.skip(f"{sheet} is not in the development corpus")
    pages = [5, 7]  # "Zadanie 2." and "Zadanie 3." with their subtasks
    trimmed = tmp_path / "pages.pdf"
    with pdfium.PdfDocument(str(sheet)) as document, pdfium.PdfDocument.new() as out:
        printed = [TASK_HEADING.findall(document[n - 1].get_textpage().get_text_range()) for n in pages]
        out.import_pages(document, pages=[n - 1 for n in pages])
        out.save(str(trimmed))
    scan = rasterize_pdf(trimmed, tmp_path / "scan.pdf", dpi=200, noise=0.02, blur=0.4, seed=1, jpeg_quality=85, colour=True)
    read = ocr_pages(scan, [1, 2], OcrSettings.from_spec(load_spec("pl_cke_matura_informatyka")), progress=False)
    for number, headings in zip((1, 2), printed):
        assert headings and TASK_HEADING.findall(read[number].text) == headings


@pytest.mark.corpus
@needs_tesseract("slk")
def test_nucem_key_numbers_in_bold_cells_are_read_as_numbers(tmp_path):
    """NÚCEM 2024's key prints each question number in bold in its cell. Taken for a label disc, the bold
    "49" was read against the option labels and came back as "B", which left question 49 without a key."""
    key = CORPUS / "sk_nucem_maturita_sjl" / "kluc_2024.pdf"
    if not key.is_file():
        pytest.skip(f"{key} is not in the development corpus")
    scan = rasterize_pdf(key, tmp_path / "scan.pdf", dpi=200, noise=0.02, blur=0.4, seed=1, jpeg_quality=85, colour=True)
    with pdfium.PdfDocument(str(key)) as document:
        printed = set(re.findall(r"(?m)^\s*(\d{2})\b", document[0].get_textpage().get_text_range()))
    read = ocr_pages(scan, [1], OcrSettings.from_spec(load_spec("sk_maturita_sjl")), progress=False)[1]
    numbers = {line.text.split()[0] for line in read.lines if line.text.split() and line.text.split()[0].isdigit()}
    assert "49" in printed and "49" in numbers
    assert printed <= numbers | {"46", "47", "48"}, sorted(printed - numbers)


@pytest.mark.corpus
@needs_tesseract("por")
def test_fgv_grid_key_rows_keep_every_answer_beside_the_cell_rules(tmp_path):
    """The OAB key prints pale letters in ruled cells under white numbers on dark bars. On a 200 dpi scan
    the thin rule right of some letters was cut as a cell of its own, read as nothing, and took the
    letter's column: rows 21–40 and 61–80 were no answer rows and 40 of the 80 Tipo 1 entries were lost."""
    key = CORPUS / "br_fgv_oab" / "2017-22" / "2017-22-as.pdf"
    if not key.is_file():
        pytest.skip(f"{key} is not in the development corpus")
    spec = load_spec("br_fgv_oab")
    trimmed = tmp_path / "page1.pdf"
    with pdfium.PdfDocument(str(key)) as document, pdfium.PdfDocument.new() as out:
        out.import_pages(document, pages=[0])
        out.save(str(trimmed))
    scan = rasterize_pdf(trimmed, tmp_path / "scan.pdf", dpi=200, noise=0.02, blur=0.6, seed=1, jpeg_quality=80, colour=True)
    settings = OcrSettings.from_spec(spec)
    document = extract_document(scan, "oab-key-scan", ExtractOptions(ocr=settings, ocr_workers=1, layout=settings.layout))
    printed = {json.loads(line)["number"]: json.loads(line)["answer"] for line in (key.parent / "truth.jsonl").read_text().splitlines() if line.strip()}
    table = read_grid(document, spec.key, key.name, labels=spec.layout.options.labels)[spec.key.variant]
    assert {n: table.answers.get(n) for n in printed} == printed
QUESTION_HEADER = re.compile(r"Questão \d+")


@pytest.mark.corpus
@needs_tesseract("por")
def test_oab_question_headers_on_black_banners_read_from_a_soft_scan(tmp_path):
    """OAB prints each "Questão N" white on a black banner. On a soft scan (150 dpi, blur 0.8, JPEG 70) the
    banners' letters came out too grey to count as paper showing through, the banners were not inverted, and
    Tesseract read none of the headers: every question of those pages was lost or merged."""
    sheet = CORPUS / "br_fgv_oab" / "2016-19" / "2016-19.pdf"
    if not sheet.is_file():
        pytest.skip(f"{sheet} is not in the development corpus")
    trimmed = tmp_path / "page.pdf"
    with pdfium.PdfDocument(str(sheet)) as document, pdfium.PdfDocument.new() as out:
        printed = QUESTION_HEADER.findall(document[1].get_textpage().get_text_range())
        out.import_pages(document, pages=[1])
        out.save(str(trimmed))
    scan = rasterize_pdf(trimmed, tmp_path / "scan.pdf", dpi=150, noise=0.01, blur=0.8, seed=220, jpeg_quality=70)
    spec = load_spec("br_fgv_oab")
    read = ocr_pages(scan, [1], OcrSettings.from_spec(spec), progress=False)[1]
    # Each header a line of its own, as the spec's question_start asks: no banner edge read as "[" or "|" beside it.
    headers = [line.text.strip() for line in read.lines if re.match(spec.layout.question_start, line.text.strip())]
    assert len(printed) == 3 and headers == printed


@pytest.mark.corpus
def test_inap_keys_underlined_bold_headings_on_a_soft_scan_are_no_panels(tmp_path):
    """INAP's key heads its columns "Primera parte" / "Segunda parte", bold and underlined. On a soft scan
    (150 dpi, blur 0.8, JPEG 70) the middle of each heading is dense, the underline a solid margin and the
    counters' cores paper: judged by its letters' lightest part alone it passed for a panel, was inverted, and
    the key under it was lost (0 of 120 answers). Such an area is no taller than the letters."""
    key = CORPUS / "es_inap_auxiliar_administrativo" / "2024" / "Plantilla definitiva respuestas AUXLI MODELO A.pdf"
    if not key.is_file():
        pytest.skip(f"{key} is not in the development corpus")
    scan = rasterize_pdf(key, tmp_path / "scan.pdf", dpi=150, noise=0.01, blur=0.8, seed=220, jpeg_quality=70)
    with pdfium.PdfDocument(str(scan)) as document:
        grey = np.asarray(render_page(document, 0, 300)[0].convert("L"))
    assert reversed_panels(grey, 300) == []


@pytest.mark.corpus
def test_inap_keys_underlined_bold_heading_is_no_panel_at_an_untuned_setting(tmp_path):
    """Scanned at 160 dpi, blur 0.55, JPEG 88 (a setting no rule was tuned at), "Segunda parte" passed every test of a
    panel's shape by a hair (its underline a solid margin and a straight edge, its counters light letters), was
    inverted and erased, and the key's second part was read as the first's (51 % of answers). Its fill is the
    heading's strokes, nowhere deeper than a stroke is wide: no panel's background."""
    key = CORPUS / "es_inap_auxiliar_administrativo" / "2024" / "Plantilla definitiva respuestas AUXLI MODELO A.pdf"
    if not key.is_file():
        pytest.skip(f"{key} is not in the development corpus")
    scan = ScanSetting.parse("160/0.55/88").rasterise(key, tmp_path / "scan.pdf")
    with pdfium.PdfDocument(str(scan)) as document:
        grey = np.asarray(render_page(document, 0, 300)[0].convert("L"))
    assert reversed_panels(grey, 300) == []


@pytest.mark.corpus
def test_revalidas_banner_whose_box_stops_a_row_short_of_its_blurred_edge_is_a_panel(tmp_path):
    """Scanned at 160 dpi, blur 0.55, JPEG 88, the grey "QUESTÃO 8" banner of Revalida 2023's booklet (page 3) has its
    lower edge blurred over a row half fill, under which its dark end ornament reaches two rows further: with that row
    counted as beyond the panel, the banner failed the edge test by a hair (0.2547 against 0.25), was not inverted, and
    question 8 was lost (recall 88.9 %). The edge test looks beyond the edge's own row."""
    booklet = CORPUS / "br_inep_revalida" / "2023-1" / "revalida_2023_1_prova.pdf"
    if not booklet.is_file():
        pytest.skip(f"{booklet} is not in the development corpus")
    trimmed = tmp_path / "pages.pdf"
    with pdfium.PdfDocument(str(booklet)) as document, pdfium.PdfDocument.new() as out:
        out.import_pages(document, pages=[0, 1, 2])  # the cover and pages 2-3, as `softscans` samples them
        out.save(str(trimmed))
    scan = ScanSetting.parse("160/0.55/88").rasterise(trimmed, tmp_path / "scan.pdf")
    with pdfium.PdfDocument(str(scan)) as document:
        grey = np.asarray(render_page(document, 2, 300)[0].convert("L"))
    banner = (1600, 1230)  # a point inside the banner (x, y in pixels at 300 dpi), between its letters' rows
    panels = [box for box, _ in reversed_panels(grey, 300)]
    assert sum(box.left <= banner[0] < box.right and box.top <= banner[1] < box.bottom for box in panels) == 1
