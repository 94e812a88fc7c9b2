"""The bomb check's walk over the pages kept inside object streams parses only the objects that may be pages.

A real sheet's object stream holds its fonts, resources and annotations by the thousand and its pages by the ten; the
walk (run when a form draws, to count each page's XObject draws) parsed every one of them to ask its /Type (on the
corpus, one 14-page sheet's 2,725 packed objects took 70 CPU ms a check). An object's bytes say first whether it can
be a page at all: `/Page` written plain, /Type given by reference, an escaped name byte or a comment (either can hide
the two), or the object a reference to follow. Every page written those ways is still found and its draws counted.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.extract import bombs
from pipeline.extract import streamfilters as sf
from pipeline.extract.bombs import file_bomb

from .test_pdf_inline_bombs import nested_forms
from .test_pdf_object_streams import objects_of, packed_pdf

FONTS = 2000
FONT = b"<< /Type /Font /Subtype /TrueType /BaseFont /F%d /FirstChar 32 /LastChar 126 /Encoding /WinAnsiEncoding >>"


def _objects_parsed(monkeypatch, path: Path) -> tuple[str | None, int]:
    """(the file's refusal, objects parsed from their first byte, nested values not counted) in one check."""
    parsed = 0
    parse = sf.parse_object

    def counted(data, at, end, depth=0):
        nonlocal parsed
        parsed += depth == 0
        return parse(data, at, end, depth)

    monkeypatch.setattr(sf, "parse_object", counted)
    return file_bomb(path), parsed


def test_a_page_walk_over_an_object_stream_of_fonts_parses_only_what_may_be_pages(tmp_path, monkeypatch):
    # Forms draw forms (100 drawings, a sheet's kind, not refused), so the pages are walked; the fonts are never drawn.
    objects = objects_of(nested_forms, tmp_path, 3) + [FONT % i for i in range(FONTS)]
    found, parsed = _objects_parsed(monkeypatch, packed_pdf(tmp_path / "fonts.pdf", objects))
    assert found is None
    assert parsed < FONTS / 10, parsed  # before: every font parsed to ask its /Type (over 2,000)


@pytest.mark.parametrize("written", [
    b"/Type 30 0 R",  # /Type by reference (object 30: /Page)
    b"/T#79pe /Page",  # the key's byte escaped
    b"/Type /P#61ge",  # the name's byte escaped
    b"/Type %a comment\n/Page",
])
def test_a_packed_page_whose_type_a_plain_search_misses_is_still_walked(tmp_path, written):
    objects = objects_of(nested_forms, tmp_path)
    objects[2] = objects[2].replace(b"/Type /Page", written)
    objects += [FONT % i for i in range(30 - len(objects) - 1)] + [b"/Page"]  # object 30 the name /Page
    assert objects[29] == b"/Page" and objects[2] != objects_of(nested_forms, tmp_path)[2]
    found = file_bomb(packed_pdf(tmp_path / "hidden.pdf", objects))
    assert found is not None and f"draws more than {bombs.MAX_DRAWS} XObjects" in found and "11111111 counted" in found, found


def test_a_packed_reference_to_a_page_is_walked_as_the_page(tmp_path):
    # Object 3 (the page tree's kid) holds only a reference to the page dictionary, object 30.
    objects = objects_of(nested_forms, tmp_path)
    page = objects[2]
    objects[2] = b"30 0 R"
    objects += [FONT % i for i in range(30 - len(objects) - 1)] + [page]
    found = file_bomb(packed_pdf(tmp_path / "referred.pdf", objects))
    assert found is not None and "11111111 counted" in found, found
