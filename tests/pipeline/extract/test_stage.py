"""extract_document: reading order from geometry, page furniture removed, bad files refused by name."""
from __future__ import annotations

import pickle
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from fpdf import FPDF

from pipeline.extract import PageMethod
from pipeline.extract import ExtractError, ExtractOptions, extract_document
from pipeline.extract.document import Line, Page
from pipeline.extract.stage import clean_pages
from pipeline.extract.ocr import OcrSettings
from pipeline.devkit.sample.pdfgen import ImageBox, PageSpec, TextBox, build_pdf, font_dir, rasterize_pdf
from pipeline.specs import load_spec
from tests.fixtures import sheets
from tests.pipeline.extract.ocr.builders import POLISH_OPTIONS, POLISH_PASSAGE, POLISH_STEM, build, needs_tesseract, question_page, tessdata_with_only

SHA = "0" * 64


def _texts(document) -> list[str]:
    return [line.text for page in document.pages for line in page.lines]


def test_content_stream_out_of_order_is_read_top_down_left_to_right(tmp_path):
    lines = ["1. Which protocol assigns IP addresses?", "A. DHCP", "B. HTTP", "C. SMTP", "D. FTP"]
    path = sheets.out_of_order_pdf(tmp_path / "reversed.pdf", lines)
    assert _texts(extract_document(path, SHA, ExtractOptions())) == lines


@pytest.mark.parametrize("gutter_mm", [10.0, 4.0], ids=["gutter-10mm", "gutter-4mm-narrower-than-a-segment-gap"])
def test_two_column_page_reads_the_left_column_first(tmp_path, gutter_mm):
    left = [f"Lewa kolumna akapit {i}: tekst ciągnie się przez dwie linijki w lewej kolumnie." for i in range(8)]
    right = [f"Prawa kolumna akapit {i}: tekst ciągnie się przez dwie linijki w prawej kolumnie." for i in range(8)]
    path = sheets.two_column_page(tmp_path / "columns.pdf", left, right, "Tytuł na całą szerokość strony", gutter_mm=gutter_mm)
    text = " ".join(_texts(extract_document(path, SHA, ExtractOptions())))
    assert text.startswith("Tytuł na całą szerokość strony")
    positions = [text.index(f"Lewa kolumna akapit {i}") for i in range(8)] + [text.index(f"Prawa kolumna akapit {i}") for i in range(8)]
    assert positions == sorted(positions)


def test_option_grid_rows_keep_each_option_as_its_own_line(tmp_path):
    fixture = sheets.peru_grid(tmp_path)
    options = ExtractOptions.from_spec(load_spec("pe_conareme"))
    lines = extract_document(fixture.sheets[0], SHA, options).pages[0].lines
    texts = [line.text for line in lines]
    assert "A. Surfactante" in texts and "D. Vitamina K" in texts
    assert [line.text for line in lines if line.highlighted] == ["A. Surfactante", "E. Empagliflozina",
                                                                 "D. Fasciotomía de pierna derecha", "A. 24"]


def test_running_heads_page_numbers_examiner_boxes_and_scratch_pages_are_removed(tmp_path):
    fixture = sheets.cke_matura(tmp_path)
    document = extract_document(fixture.sheets[0], SHA, ExtractOptions.from_spec(load_spec("pl_cke_matura_informatyka")))
    # Dropped pages (cover, scratch) keep every line for provenance; the parsed pages are clean.
    text = "\n".join(line.text for page in document.pages if not page.dropped_reason for line in page.lines)
    for furniture in ("Strona 2 z 4", "Egzamin maturalny z informatyki – poziom rozszerzony", "Wypełnia egzaminator", "Uzyskana liczba pkt."):
        assert furniture not in text
    assert document.pages[3].dropped_reason and "BRUDNOPIS" in document.pages[3].dropped_reason
    assert document.pages[0].dropped_reason  # the cover with the candidate's instructions
    assert "Zadanie 1.1. (0–1)" in text


def test_bold_words_inside_a_line_are_marked(tmp_path):
    pdf = FPDF(unit="mm")
    pdf.add_page()
    pdf.add_font("DejaVu", "", str(font_dir() / "DejaVuSans.ttf"))
    pdf.add_font("DejaVu", "B", str(font_dir() / "DejaVuSans-Bold.ttf"))
    pdf.set_xy(20, 20)
    for text, style in (("Które z ", ""), ("wyróżnionych", "B"), (" słów jest przysłówkiem?", "")):
        pdf.set_font("DejaVu", style, 11)
        pdf.cell(pdf.get_string_width(text), 6, text)
    path = tmp_path / "bold.pdf"
    pdf.output(str(path))
    assert _texts(extract_document(path, SHA, ExtractOptions())) == ["Które z **wyróżnionych** słów jest przysłówkiem?"]


def test_pages_without_text_layer_go_to_ocr(tmp_path):
    src = build_pdf(tmp_path / "clean.pdf", [PageSpec((
        TextBox("Zadanie 7.", 20, 20, 170, size=14, bold=True),
        TextBox("Ile bitów ma jeden bajt?", 20, 32, 170, size=14),
        TextBox("A. osiem", 25, 44, 100, size=14),
    ))])
    scan = rasterize_pdf(src, tmp_path / "scan.pdf", dpi=200)
    document = extract_document(scan, SHA, ExtractOptions(ocr=OcrSettings(languages=("pol",), dpi=200)))
    page = document.pages[0]
    assert page.method is PageMethod.OCR
    text = page.text
    assert "Zadanie 7" in text and "bajt" in text


@needs_tesseract("pol")
def test_pages_read_by_ocr_are_named_once_and_a_doubtful_page_asks_for_a_look(tmp_path, monkeypatch):
    """Without Tesseract's orientation data a page scanned upside down is read as it lies: the document
    names it, with its mean word confidence, beside one line for the pages that went to OCR."""
    monkeypatch.setenv("TESSDATA_PREFIX", str(tessdata_with_only(tmp_path / "tessdata", "pol")))
    page = question_page(POLISH_STEM, POLISH_PASSAGE, POLISH_OPTIONS)
    scan = pdfium.PdfDocument(str(rasterize_pdf(build(tmp_path / "clean.pdf", [page, page]), tmp_path / "scan.pdf", dpi=200)))
    upright, turned = (scan[i].render(scale=200 / 72).to_pil().convert("L") for i in range(2))
    upright.save(tmp_path / "turned.pdf", save_all=True, append_images=[turned.rotate(180)], resolution=200)
    document = extract_document(tmp_path / "turned.pdf", SHA, ExtractOptions(ocr=OcrSettings(languages=("pol",), dpi=200)))
    assert document.warnings[0].startswith("pages 1–2: text layer not usable (scanned page")
    doubtful = [w for w in document.warnings if "mean word confidence" in w]
    assert len(doubtful) == 1 and doubtful[0].startswith("page 2: read by OCR with a mean word confidence of ")
    assert document.pages[0].ocr_confidence > 80 > 60 > document.pages[1].ocr_confidence


def test_extract_options_come_from_the_spec_and_survive_pickling(tmp_path):
    spec = load_spec("pe_conareme")
    options = ExtractOptions.from_spec(spec, figures_dir=tmp_path)
    assert options.detect_highlights and options.ocr.languages == ("spa",)
    assert not options.ocr.ellipsis and ExtractOptions.from_spec(load_spec("sk_maturita_sjl")).ocr.ellipsis
    assert options.figures_dir == str(tmp_path)
    in_project = ExtractOptions.from_spec(spec, figures_dir=tmp_path / "raw" / "figures")
    assert in_project.figures_root == str(tmp_path)  # records hold paths relative to the project root
    assert pickle.loads(pickle.dumps(options)) == options


# --------------------------------------------------------------------------- unreadable input


@pytest.fixture
def good_pdf(tmp_path) -> Path:
    return build_pdf(tmp_path / "good.pdf", [PageSpec((TextBox("Zadanie 1.", 20, 20, 100),)), PageSpec((TextBox("Zadanie 2.", 20, 20, 100),))])


def _error(path: Path, **options) -> str:
    with pytest.raises(ExtractError) as err:
        extract_document(path, SHA, ExtractOptions(**options))
    assert err.value.path == str(path)
    assert str(path) in str(err.value)
    return err.value.message


def test_empty_file_is_refused(tmp_path):
    path = tmp_path / "empty.pdf"
    path.write_bytes(b"")
    assert "empty file" in _error(path)


def test_html_saved_as_pdf_is_refused(tmp_path):
    path = tmp_path / "page.pdf"
    path.write_text("<html><body>Not found</body></html>")
    assert "not a PDF" in _error(path)


def test_truncated_download_is_refused(tmp_path, good_pdf):
    path = tmp_path / "cut.pdf"
    path.write_bytes(good_pdf.read_bytes()[: good_pdf.stat().st_size // 2])
    assert "truncated" in _error(path)


def test_corrupt_body_is_refused(tmp_path, good_pdf):
    data = good_pdf.read_bytes()
    path = tmp_path / "corrupt.pdf"
    path.write_bytes(b"%PDF-1.4\n" + b"\x00garbage" * 200 + b"\n%%EOF\n")
    assert "corrupt PDF" in _error(path)
    assert data  # the good file itself is fine
    assert extract_document(good_pdf, SHA, ExtractOptions()).page_count == 2


def test_password_protected_pdf_is_refused(tmp_path):
    pdf = FPDF()
    pdf.set_encryption(owner_password="owner", user_password="secret")
    pdf.add_page()
    pdf.set_font("helvetica", size=12)
    pdf.cell(40, 10, "secret sheet")
    path = tmp_path / "locked.pdf"
    pdf.output(str(path))
    assert "password" in _error(path)


def test_zero_page_pdf_is_refused(tmp_path):
    body = b"%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\n"
    xref = len(body)
    body += b"xref\n0 3\n0000000000 65535 f \n0000000009 00000 n \n0000000058 00000 n \n"
    body += b"trailer\n<< /Size 3 /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % xref
    path = tmp_path / "zero.pdf"
    path.write_bytes(body)
    message = _error(path)
    assert "zero pages" in message or "corrupt PDF: pdfium cannot load it" in message


def test_too_many_pages_is_refused_with_the_limit(good_pdf):
    assert "2 pages is over the limit of 1" in _error(good_pdf, max_pages=1)


def test_missing_file_is_refused(tmp_path):
    assert "cannot read the file" in _error(tmp_path / "nowhere.pdf")


def test_figures_are_cropped_per_page_with_paths_under_the_root(tmp_path):
    import io

    from PIL import Image

    from pipeline.devkit.sample.pdfgen import ImageBox

    buffer = io.BytesIO()
    Image.new("RGB", (300, 200), (30, 120, 200)).save(buffer, format="PNG")
    path = build_pdf(tmp_path / "fig.pdf", [PageSpec((
        TextBox("Zadanie 1. Co przedstawia rysunek?", 20, 20, 170, size=11),
        ImageBox(40, 35, 90, buffer.getvalue()),
    ))])
    options = ExtractOptions(figures_dir=str(tmp_path / "raw" / "figures"), figures_root=str(tmp_path))
    page = extract_document(path, SHA, options).pages[0]
    assert len(page.figures) == 1
    figure = page.figures[0]
    assert figure.page == 1 and figure.path.startswith("raw/figures/") and (tmp_path / figure.path).is_file()
    assert figure.bbox[1] > 90  # below the question line, in points from the top


def _chart_png() -> bytes:
    """A line chart as a scanned booklet prints one: axes, a thin coloured trace, two tick labels."""
    import io

    from PIL import Image, ImageDraw

    chart = Image.new("RGB", (600, 300), "white")
    draw = ImageDraw.Draw(chart)
    draw.line([(40, 20), (40, 270), (580, 270)], fill="black", width=3)
    trace = [(40 + 9 * i, 150 + int(90 * ((i * 37) % 11 - 5) / 5)) for i in range(60)]
    draw.line(trace, fill=(180, 30, 40), width=3)
    buffer = io.BytesIO()
    chart.save(buffer, format="PNG")
    return buffer.getvalue()


@needs_tesseract("pol")
def test_a_figure_on_a_scanned_page_is_cropped_and_what_was_read_in_it_set_aside(tmp_path):
    """On a scan the chart is part of the page's one image: it is found as ink the words do not cover,
    cropped like a text page's figure, left out of the text, and named in the warnings."""
    stem = "Zadanie 4. Wykres przedstawia zużycie energii w ciągu doby. Oblicz średnią wartość."
    page = PageSpec((TextBox(stem, 20, 20, 170, size=12), ImageBox(40, 45, 110, _chart_png()),
                     TextBox("A. rośnie   B. maleje   C. jest stałe   D. nie da się ustalić", 20, 110, 170, size=12)))
    scan = rasterize_pdf(build_pdf(tmp_path / "clean.pdf", [page]), tmp_path / "scan.pdf", dpi=200, noise=0.02, blur=0.4, seed=2)
    options = ExtractOptions(ocr=OcrSettings(languages=("pol",), dpi=300), figures_dir=str(tmp_path / "raw" / "figures"),
                             figures_root=str(tmp_path))
    document = extract_document(scan, SHA, options)
    read = document.pages[0]
    assert len(read.figures) == 1 and (tmp_path / read.figures[0].path).is_file()
    x0, top, x1, bottom = read.figures[0].bbox
    mm = 72 / 25.4
    # the chart's ink: 47-147 mm across, 49-95 mm down (its straight axes are erased as rules before reading)
    assert 40 * mm < x0 < 50 * mm and 140 * mm < x1 < 150 * mm and 45 * mm < top < 52 * mm and 85 * mm < bottom < 100 * mm
    assert "Wykres przedstawia" in read.text and "nie da się ustalić" in read.text
    assert [w for w in document.warnings if w.startswith("page 1: 1 figure(s) found on the scan at (")]
    # a page of text alone has no figure
    text_only = rasterize_pdf(build_pdf(tmp_path / "text.pdf", [PageSpec((TextBox(stem, 20, 20, 170, size=12),))]), tmp_path / "text_scan.pdf", dpi=200)
    assert extract_document(text_only, SHA, options).pages[0].figures == []


def test_scanned_marking_scheme_keeps_its_answer_letter_at_the_left_edge(tmp_path):
    """A lone capital at the left edge of a scanned key: its ink-height font size must not pass for the
    small print of a margin note (the answer "A" under "Poprawna odpowiedź" was dropped that way)."""
    body = [
        "Zadanie 3.1. (0–1)",
        "Zdający zna terminologię związaną z sieciami komputerowymi: protokoły sieciowe.",
        "Poprawna odpowiedź",
        "A",
        "Schemat punktowania",
        "1 p. – za wybranie poprawnej odpowiedzi.",
        "0 p. – za odpowiedź błędną albo brak odpowiedzi.",
    ]
    items = [TextBox(text, 15, 30 + 8 * i, 180, size=12) for i, text in enumerate(body)]
    source = build_pdf(tmp_path / "key.pdf", [PageSpec(items)])
    scan = rasterize_pdf(source, tmp_path / "scan.pdf", dpi=200, noise=0.02, seed=2)
    options = ExtractOptions.from_spec(load_spec("pl_cke_matura_informatyka"))
    document = extract_document(scan, SHA, options)
    assert document.pages[0].method is PageMethod.OCR
    texts = _texts(document)
    assert "Poprawna odpowiedź" in texts
    assert texts[texts.index("Poprawna odpowiedź") + 1] == "A", texts


def _ocr_page(lines: list[Line]) -> Page:
    return Page(number=1, width=595.0, height=842.0, method=PageMethod.OCR, lines=lines)


def test_an_option_label_tabbed_apart_from_its_text_is_no_margin_note():
    """Spanish options print "a)" at the left edge and the text a tab further on: the label becomes a
    segment of its own inside the margin band, and its ink-height size on a scan (8.7 against a body of
    10.9) passed for small print, which dropped the label and lost the question's options."""
    body = [Line(f"Texto de la pregunta número {i} con su enunciado completo.", 50, 100 + 12 * i, 540, 108 + 12 * i, font_size=10.9) for i in range(8)]
    label = Line("a)", 50.0, 200.0, 57.6, 208.3, font_size=8.7)
    text = Line("En Pleno exclusivamente.", 71.6, 200.0, 173.9, 206.5, font_size=8.7)
    lone_label = Line("b)", 50.0, 230.0, 57.6, 238.3, font_size=8.7)  # nothing beside it: margin small print
    score_box = Line("1", 20.0, 260.0, 26.0, 268.0, font_size=8.0)
    page = _ocr_page([*body, label, text, lone_label, score_box])
    clean_pages([page], ExtractOptions(ocr=OcrSettings(option_labels=("A", "B", "C", "D"))))
    kept = [line.text for line in page.lines]
    assert "a)" in kept and "En Pleno exclusivamente." in kept
    assert "b)" not in kept and "1" not in kept
    # without option labels in the spec nothing is a label
    page = _ocr_page([*body, label, text])
    clean_pages([page], ExtractOptions())
    assert "a)" not in [line.text for line in page.lines]


JUSTIFIED_OPTION = (
    "D) Nas locações por prazo determinado de imóveis utilizados por estabelecimentos de ensino autorizados e "
    "fiscalizados pelo Poder Público, o contrato poderá ser rescindido por denúncia do locador, a qualquer tempo, "
    "independentemente de notificação ou aviso."
)


def test_a_justified_line_stays_one_line_across_its_wide_spaces_on_the_text_layer_and_on_a_scan(tmp_path):
    """A short justified line spreads its words far apart ("de   imóveis   utilizados   por"); cut at each
    space, an option ended at its first piece and the parser lost the rest (OAB 2017-22 question 49, on
    both paths)."""
    source = build_pdf(tmp_path / "justified.pdf", [PageSpec((TextBox(JUSTIFIED_OPTION, 20, 30, 80, size=11, align="J"),))])
    options = ExtractOptions.from_spec(load_spec("br_fgv_oab"))
    printed = _texts(extract_document(source, SHA, options))
    assert "de imóveis utilizados por" in printed and len(printed) == 8
    scan = rasterize_pdf(source, tmp_path / "scan.pdf", dpi=200, noise=0.02, blur=0.4, seed=1)
    read = _texts(extract_document(scan, SHA, options))
    assert len(read) == 8 and any(line.startswith("de imóveis") and line.endswith("por") for line in read), read


def test_a_stems_last_word_on_a_line_of_its_own_is_no_margin_note():
    """A scanned two-column booklet whose column starts inside the side band (31.7 pt on a 595 pt page) ends a stem
    with `são` alone on its line: wholly in the band and, measured by its ink (no ascender), small print. It was
    dropped as a margin note, and the question lost its last word without a word said (Revalida 2023, question 60 at
    300 dpi). A score box beside the column and small print apart from any paragraph still go."""
    body = [Line(f"Com relação ao caráter decisório e à composição proporcional, linha {i}", 31.7, 100 + 11.3 * i, 285.5,
                 108.8 + 11.3 * i, font_size=10.9) for i in range(8)]
    last_word = Line("são", 31.7, 190.6, 45.3, 197.6, font_size=8.0)  # 2.4 pt under the paragraph's last line
    score_box = Line("1", 8.0, 150.0, 14.0, 158.0, font_size=8.0)  # beside the column, not under it
    apart = Line("pkt", 31.7, 230.0, 45.0, 237.0, font_size=8.0)  # a line's white and more under any body line
    page = _ocr_page([*body, last_word, score_box, apart])
    clean_pages([page], ExtractOptions())
    kept = [line.text for line in page.lines]
    assert "são" in kept
    assert "1" not in kept and "pkt" not in kept
