"""The drawn-text check's walk over a page's objects in one compiled loop (`charloopjit.ink_objects`)
finds what the ctypes walk finds (`pagechars.object_tree`): the same text objects (made invisible where
the page is rendered), images, paths that could be glyphs and long glyph paths, inside form XObjects
two levels down and no deeper, on pages of more objects than its first arrays hold."""
from __future__ import annotations

import numpy as np
import pypdfium2 as pdfium
import pytest
from PIL import Image

from pipeline.extract import charloop, inked
from tests.fixtures import drawn_sheets as ds

CELLS = [f"{n}. {'ABCD'[(n * 3) % 4]}" for n in range(1, 29)]


def _crowded(path, photo):
    """300 text objects, photos, a drawn key line, rules and a bar."""
    pdf = ds._pdf()
    for number in range(300):
        ds._text(pdf, f"w{number}", 40 + (number % 15) * 34, 40 + (number // 15) * 22, ds.dejavu(), 9)
    Image.fromarray(np.full((20, 30, 3), 90, dtype=np.uint8)).save(photo)
    for at in range(3):
        pdf.image(str(photo), x=60 + at * 150, y=770, w=60, h=40)
    pdf.line(40, 760, 500, 760)
    pdf.rect(40, 20, 80, 10, style="F")
    ds.drawn_paragraph(pdf, ["Drawn: 1 A 2 B 3 C", "Drawn at last"], 60, 560, ds.dejavu())
    pdf.output(str(path))
    return path


def _wrapped(source, path, times):
    """`source`'s page drawn as a form XObject on a new page, `times` times over (forms inside forms)."""
    inner = pdfium.PdfDocument(str(source))
    for _ in range(times):
        outer = pdfium.PdfDocument.new()
        width, height = inner[0].get_size()
        page = outer.new_page(width, height)
        page.insert_obj(inner.page_as_xobject(0, outer).as_pageobject())
        page.gen_content()
        inner = outer
    inner.save(str(path))
    return path


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    folder = tmp_path_factory.mktemp("walk")
    key = ds.drawn_key(folder / "key.pdf", "Answer key", CELLS, text_face=ds.dejavu(), drawn_face=ds.dejavu())
    crowded = _crowded(folder / "crowded.pdf", folder / "photo.png")
    return [key, crowded, *(_wrapped(crowded, folder / f"wrapped{n}.pdf", n) for n in (1, 2, 3))]


def _walk(path, monkeypatch, switch):
    monkeypatch.setenv(charloop.ENV_SWITCH, switch)
    document = pdfium.PdfDocument(str(path))
    try:
        objects = inked._walk_objects(document[0])
        return sorted(objects.texts), objects.images, objects.shapes, objects.long_shapes
    finally:
        document.close()


def test_the_compiled_walk_finds_what_the_ctypes_walk_finds(pages, monkeypatch):
    pytest.importorskip("numba")
    walked = [(_walk(path, monkeypatch, "0"), _walk(path, monkeypatch, "1")) for path in pages]
    assert charloop.compiled_reader() is not None
    for by_ctypes, by_compiled in walked:
        assert by_ctypes[1:] == by_compiled[1:] and len(by_ctypes[0]) == len(by_compiled[0])
    key, crowded, once, twice, thrice = (by_ctypes for by_ctypes, _ in walked)
    assert key[2] >= inked.MIN_BLOBS and not key[1]  # the drawn cells' glyph paths
    assert len(crowded[0]) >= 300 and len(crowded[1]) == 3  # more objects than the loop's first arrays hold
    assert once[2:] == twice[2:] == crowded[2:] and len(twice[0]) == len(crowded[0]) and len(twice[1]) == 3
    assert thrice[0] == [] and thrice[1] == [] and thrice[2] == 0  # three forms down: not opened


def test_the_compiled_walk_reads_the_same_drawn_lines(pages, monkeypatch):
    pytest.importorskip("numba")
    found = {}
    for switch in ("0", "1"):
        monkeypatch.setenv(charloop.ENV_SWITCH, switch)
        found[switch] = []
        for path in pages:
            document = pdfium.PdfDocument(str(path))
            page = document[0]
            page.get_textpage().close()
            found[switch].append(inked.drawn_text_boxes(page))
            document.close()
    assert found["0"] == found["1"] and all(found["0"][:4]) and not found["0"][4]  # three forms down: not looked at
