"""Each file is read once: extract loads every page once for its text, finds the page's figures while it
is loaded, and loads again only the pages that hold a figure, to render its crop. The crops are the
ones a separate figure pass over the file gives."""
from __future__ import annotations

import io

import pypdfium2 as pdfium
from PIL import Image

from pipeline.devkit.sample.pdfgen import ImageBox, PageSpec, TextBox, build_pdf
from pipeline.extract import ExtractOptions, extract_document, extract_figures

SHA = "0" * 64


def _photo() -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (300, 200), (30, 120, 200)).save(buffer, format="PNG")
    return buffer.getvalue()


def _sheet(path, pages: int, figure_on: int):
    specs = []
    for number in range(1, pages + 1):
        boxes = [TextBox(f"Zadanie {number}. Ile wynosi {number} + {number}?", 20, 20, 170, size=11),
                 TextBox("A. jeden  B. dwa  C. trzy  D. cztery", 20, 30, 170, size=11)]
        if number == figure_on:
            boxes.append(ImageBox(40, 45, 90, _photo()))
        specs.append(PageSpec(tuple(boxes)))
    return build_pdf(path, specs)


class _PageLoads:
    """How many times each page of any document is loaded (pypdfium2's PdfDocument.__getitem__)."""

    def __init__(self, monkeypatch):
        self.counts: dict[int, int] = {}
        load = pdfium.PdfDocument.__getitem__

        def counted(document, index):
            self.counts[index + 1] = self.counts.get(index + 1, 0) + 1
            return load(document, index)

        monkeypatch.setattr(pdfium.PdfDocument, "__getitem__", counted)


def test_every_page_is_loaded_once_and_a_page_with_a_figure_once_more_for_its_crop(tmp_path, monkeypatch):
    sheet = _sheet(tmp_path / "sheet.pdf", pages=6, figure_on=3)
    options = ExtractOptions(figures_dir=str(tmp_path / "raw" / "figures"), figures_root=str(tmp_path))
    loads = _PageLoads(monkeypatch)
    document = extract_document(sheet, SHA, options)
    assert loads.counts == {1: 1, 2: 1, 3: 2, 4: 1, 5: 1, 6: 1}
    assert [len(page.figures) for page in document.pages] == [0, 0, 1, 0, 0, 0]

    monkeypatch.undo()
    separate = extract_figures(sheet, out_dir=tmp_path / "separate", root=tmp_path)
    assert [(f.page, f.bbox, f.sha256) for f in separate] == [(f.page, f.bbox, f.sha256) for f in document.pages[2].figures]


def test_a_file_without_figures_is_not_opened_again(tmp_path, monkeypatch):
    sheet = _sheet(tmp_path / "plain.pdf", pages=4, figure_on=0)
    opened: list[str] = []
    open_document = pdfium.PdfDocument.__init__

    def counted(document, source, *args, **kwargs):
        opened.append(str(source))
        open_document(document, source, *args, **kwargs)

    monkeypatch.setattr(pdfium.PdfDocument, "__init__", counted)
    options = ExtractOptions(figures_dir=str(tmp_path / "raw" / "figures"), figures_root=str(tmp_path))
    document = extract_document(sheet, SHA, options)
    assert opened == [str(sheet)] and document.page_count == 4
    assert all(page.figures == [] for page in document.pages)
