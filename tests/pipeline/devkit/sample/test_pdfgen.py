import hashlib
from pathlib import Path

import pdfplumber
import pypdf
import pytest

from pipeline.devkit.sample.figures import bar_chart_png
from pipeline.devkit.sample.pdfgen import (
    ImageBox,
    PageSpec,
    PdfGenError,
    QuestionBlock,
    TextBox,
    build_pdf,
    flow_blocks,
    rasterize_pdf,
    table_items,
)
from tests.pipeline.devkit.sample.conftest import UNICODE_LINE


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def page_texts(path: Path) -> list[str]:
    return [page.extract_text() or "" for page in pypdf.PdfReader(path).pages]


def test_polish_greek_and_slovak_text_round_trips_through_pypdf_and_pdfplumber(tmp_path):
    pdf = build_pdf(tmp_path / "u.pdf", [PageSpec([TextBox(UNICODE_LINE, 20, 20, 170)])])
    assert UNICODE_LINE in page_texts(pdf)[0]
    with pdfplumber.open(pdf) as doc:
        assert UNICODE_LINE in doc.pages[0].extract_text()


def test_same_pages_give_byte_identical_pdfs(tmp_path, booklet_pages):
    first = build_pdf(tmp_path / "a.pdf", booklet_pages, title="T")
    second = build_pdf(tmp_path / "b.pdf", booklet_pages, title="T")
    assert sha256(first) == sha256(second)


def test_different_text_gives_different_bytes(tmp_path):
    a = build_pdf(tmp_path / "a.pdf", [PageSpec([TextBox("Zadanie 1.", 20, 20, 170)])])
    b = build_pdf(tmp_path / "b.pdf", [PageSpec([TextBox("Zadanie 2.", 20, 20, 170)])])
    assert sha256(a) != sha256(b)


def test_exam_pages_number_every_page_but_the_cover(booklet_pdf):
    texts = page_texts(booklet_pdf)
    total = len(texts)
    assert total >= 4  # cover + at least two question pages + scratch page
    assert "Strona" not in texts[0]
    for number, text in enumerate(texts[1:], start=2):
        assert f"Strona {number} z {total}" in text
        assert "XX.01-X-24.06" in text
    assert "BRUDNOPIS" in texts[-1]


def test_flowed_questions_keep_their_order_and_are_never_split_across_pages(booklet_pdf):
    texts = page_texts(booklet_pdf)
    seen = []
    for text in texts:
        for number in range(1, 9):
            if f"Zadanie {number}." in text:
                assert f"Pytanie numer {number}:" in text
                assert text.index(f"Zadanie {number}.") < text.index(f"Pytanie numer {number}:")
                seen.append(number)
    assert seen == list(range(1, 9))


def test_grid_options_print_two_per_line(booklet_pdf):
    with pdfplumber.open(booklet_pdf) as doc:
        lines = [line for page in doc.pages for line in (page.extract_text() or "").splitlines()]
    assert "A. pierwsza B. druga" in lines
    assert "C. trzecia D. czwarta" in lines


def test_highlight_draws_a_filled_rectangle_behind_the_text(tmp_path):
    pdf = build_pdf(tmp_path / "h.pdf", [PageSpec([TextBox("C. poprawna", 20, 30, 80, highlight=(255, 255, 0))])])
    with pdfplumber.open(pdf) as doc:
        page = doc.pages[0]
        word = page.extract_words()[0]
        yellow = [r for r in page.rects if r.get("fill") and tuple(r["non_stroking_color"]) == (1, 1, 0)]
    assert yellow, "no yellow rectangle drawn"
    rect = yellow[0]
    assert rect["x0"] <= word["x0"] and rect["x1"] >= word["x1"]
    assert rect["top"] <= word["top"] and rect["bottom"] >= word["bottom"]


def test_figures_and_tables_land_on_the_page(tmp_path):
    png = bar_chart_png(["a", "b", "c"], [3, 5, 2], title="T")
    items, bottom = table_items(20, 120, [20, 30], [["Nr", "Odp."], ["1", "B"], ["2", "D"]])
    pdf = build_pdf(tmp_path / "f.pdf", [PageSpec([ImageBox(20, 20, 80, png), *items])])
    assert bottom > 120
    with pdfplumber.open(pdf) as doc:
        page = doc.pages[0]
        assert len(page.images) == 1
        assert page.extract_text().split() == ["Nr", "Odp.", "1", "B", "2", "D"]


def test_unknown_font_is_a_clear_error(tmp_path):
    with pytest.raises(PdfGenError, match="unknown font 'Comic'"):
        build_pdf(tmp_path / "x.pdf", [PageSpec([TextBox("x", 20, 20, 50, font="Comic")])])
    assert not any(tmp_path.iterdir()), "a failed build must leave no file behind"


def test_a_block_taller_than_a_page_is_a_clear_error():
    with pytest.raises(PdfGenError, match="'Zadanie 9.' is .* mm tall"):
        flow_blocks([QuestionBlock("Zadanie 9.", "słowo " * 3000)])


def test_rasterised_pdf_has_no_text_layer_and_the_same_page_count(tmp_path, booklet_pdf):
    scan = rasterize_pdf(booklet_pdf, tmp_path / "scan.pdf", dpi=100, noise=0.03, rotate_deg=0.5, seed=3)
    reader = pypdf.PdfReader(scan)
    assert len(reader.pages) == len(pypdf.PdfReader(booklet_pdf).pages)
    assert all((page.extract_text() or "").strip() == "" for page in reader.pages)
    original = pypdf.PdfReader(booklet_pdf).pages[0].mediabox
    assert abs(float(reader.pages[0].mediabox.width) - float(original.width)) < 0.5
    assert abs(float(reader.pages[0].mediabox.height) - float(original.height)) < 0.5


def test_rasterising_is_deterministic_for_a_seed(tmp_path, booklet_pdf):
    a = rasterize_pdf(booklet_pdf, tmp_path / "a.pdf", dpi=72, noise=0.05, seed=7)
    b = rasterize_pdf(booklet_pdf, tmp_path / "b.pdf", dpi=72, noise=0.05, seed=7)
    c = rasterize_pdf(booklet_pdf, tmp_path / "c.pdf", dpi=72, noise=0.05, seed=8)
    assert sha256(a) == sha256(b)
    assert sha256(a) != sha256(c)


def test_rasterising_something_that_is_not_a_pdf_names_the_file(tmp_path):
    bogus = tmp_path / "bogus.pdf"
    bogus.write_text("not a pdf")
    with pytest.raises(PdfGenError, match="bogus.pdf: cannot open as PDF"):
        rasterize_pdf(bogus, tmp_path / "out.pdf")
    assert not (tmp_path / "out.pdf").exists()


def test_headers_and_footers_can_number_pages_in_words_of_any_language(tmp_path):
    from pipeline.devkit.sample.pdfgen import with_running_text

    pages = [PageSpec([TextBox(f"σελίδα {n}", 20, 40, 100)]) for n in range(3)]
    pages = with_running_text(pages, header="ΑΡΧΗ {page}ΗΣ ΣΕΛΙΔΑΣ", footer="ΤΕΛΟΣ {page}ΗΣ ΑΠΟ {pages} ΣΕΛΙΔΕΣ", header_align="C")
    texts = page_texts(build_pdf(tmp_path / "g.pdf", pages))
    for number, text in enumerate(texts, start=1):
        assert f"ΑΡΧΗ {number}ΗΣ ΣΕΛΙΔΑΣ" in text
        assert f"ΤΕΛΟΣ {number}ΗΣ ΑΠΟ 3 ΣΕΛΙΔΕΣ" in text


def test_inline_numbers_and_trailers_sit_where_greek_papers_print_them(tmp_path):
    from pipeline.devkit.sample.pdfgen import paginate

    block = QuestionBlock("Α1.", "Η στοίβα ακολουθεί τη μέθοδο", ("α. FIFO.", "β. LIFO."), number_inline=True, trailer="Μονάδες 3")
    flow = paginate([block, block])
    assert flow.block_pages == [0, 0]
    pdf = build_pdf(tmp_path / "q.pdf", flow.pages)
    with pdfplumber.open(pdf) as doc:
        lines = (doc.pages[0].extract_text() or "").splitlines()
        words = doc.pages[0].extract_words()
    assert lines[:4] == ["Α1. Η στοίβα ακολουθεί τη μέθοδο", "α. FIFO.", "β. LIFO.", "Μονάδες 3"]
    trailer = next(w for w in words if w["text"] == "Μονάδες")
    assert trailer["x0"] > 120 * 72 / 25.4, "the points line is right-aligned"
