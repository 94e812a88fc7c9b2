"""Each file is read once: extract loads every page once for its text, and finds and cuts the page's
figures while the file is open (a page with a figure is loaded a second time from the open file, to be
drawn without what lies apart from its crops; the file is never opened again for them). The crops are the
ones a separate figure pass over the file gives, and they are written only once the whole file has been read."""
from __future__ import annotations

import io

import pypdfium2 as pdfium
import pytest
from PIL import Image

from pipeline.devkit.sample.pdfgen import ImageBox, PageSpec, TextBox, build_pdf
from pipeline.extract import ExtractError, ExtractOptions, extract_document, extract_figures
from pipeline.extract import stage

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


def _opened_files(monkeypatch) -> list[str]:
    """The files pdfium opens from now on, in order."""
    opened: list[str] = []
    open_document = pdfium.PdfDocument.__init__

    def counted(document, source, *args, **kwargs):
        opened.append(str(source))
        open_document(document, source, *args, **kwargs)

    monkeypatch.setattr(pdfium.PdfDocument, "__init__", counted)
    return opened


def test_every_page_is_loaded_once_for_its_text_and_a_page_with_a_figure_once_more_to_draw_it(tmp_path, monkeypatch):
    sheet = _sheet(tmp_path / "sheet.pdf", pages=6, figure_on=3)
    options = ExtractOptions(figures_dir=str(tmp_path / "raw" / "figures"), figures_root=str(tmp_path))
    loads = _PageLoads(monkeypatch)
    opened = _opened_files(monkeypatch)
    document = extract_document(sheet, SHA, options)
    assert loads.counts == {1: 1, 2: 1, 3: 2, 4: 1, 5: 1, 6: 1} and opened == [str(sheet)]
    assert [len(page.figures) for page in document.pages] == [0, 0, 1, 0, 0, 0]

    monkeypatch.undo()
    separate = extract_figures(sheet, out_dir=tmp_path / "separate", root=tmp_path)
    assert [(f.page, f.bbox, f.sha256) for f in separate] == [(f.page, f.bbox, f.sha256) for f in document.pages[2].figures]


def test_a_file_without_figures_is_not_opened_again(tmp_path, monkeypatch):
    sheet = _sheet(tmp_path / "plain.pdf", pages=4, figure_on=0)
    opened = _opened_files(monkeypatch)
    options = ExtractOptions(figures_dir=str(tmp_path / "raw" / "figures"), figures_root=str(tmp_path))
    document = extract_document(sheet, SHA, options)
    assert opened == [str(sheet)] and document.page_count == 4
    assert all(page.figures == [] for page in document.pages)


def test_a_file_whose_later_page_fails_leaves_no_crop_written(tmp_path, monkeypatch):
    """The figure on page 2 is cut while page 2 is loaded; page 4 then cannot be read, so the file is
    refused whole, and no crop of it is on disk (the next run, or another file, finds nothing half done)."""
    sheet = _sheet(tmp_path / "sheet.pdf", pages=4, figure_on=2)
    figures_dir = tmp_path / "raw" / "figures"
    options = ExtractOptions(figures_dir=str(figures_dir), figures_root=str(tmp_path))
    read = stage.page_glyphs
    pages_read: list[int] = []

    def failing_on_the_last(page, textpage, highlights):
        pages_read.append(len(pages_read) + 1)
        if len(pages_read) == 4:
            raise pdfium.PdfiumError("page content cannot be parsed")
        return read(page, textpage, highlights)

    monkeypatch.setattr(stage, "page_glyphs", failing_on_the_last)
    with pytest.raises(ExtractError, match="page 4 cannot be read"):
        extract_document(sheet, SHA, options)
    assert pages_read == [1, 2, 3, 4]
    assert not figures_dir.exists() or list(figures_dir.iterdir()) == []

    monkeypatch.undo()
    document = extract_document(sheet, SHA, options)  # read whole, its crop is written
    (figure,) = document.pages[1].figures
    assert (tmp_path / figure.path).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_crop_cut_in_the_text_pass_shows_the_text_printed_over_the_figure(tmp_path):
    """The drawn-text check makes a page's text objects invisible once the text is read; the figure is cut
    before it, so a label printed over a photo is in the crop, as a separate figure pass renders it."""
    specs = [PageSpec((TextBox("Zadanie 1. Co przedstawia zdjęcie?", 20, 20, 170, size=11),
                       ImageBox(40, 35, 90, _photo()),
                       TextBox("Rys. 1 ABCDEFGH", 50, 50, 60, size=14, bold=True)))]
    labelled = build_pdf(tmp_path / "labelled.pdf", specs)
    options = ExtractOptions(figures_dir=str(tmp_path / "raw" / "figures"), figures_root=str(tmp_path))
    (figure,) = extract_document(labelled, SHA, options).pages[0].figures
    (separate,) = extract_figures(labelled, out_dir=tmp_path / "separate", root=tmp_path)
    assert (figure.bbox, figure.sha256) == (separate.bbox, separate.sha256)
    pixels = Image.open(tmp_path / figure.path).convert("L")
    assert pixels.getextrema()[0] < 60  # the label's black letters over the blue photo (the photo's own grey is about 100)
