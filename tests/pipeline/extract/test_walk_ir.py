"""The page walks written as LLVM IR for llvmlite alone (`pipeline.extract.walkir`: the drawn-text check's walk and
the marker search's path walk) find what the ctypes walks and numba's loops find, and a process that reads past
`COMPILED_AFTER_CHARACTERS` (or plans to) walks its pages through them without ever loading numba."""
from __future__ import annotations


import numpy as np
import pypdfium2 as pdfium
import pytest

from pipeline.extract import ExtractOptions, charloop, extract_document, inked, pagechars

from .loopspies import spy_on_loops
from .test_char_loop import _marked_sheet, _sheet
from .test_ink_walk import pages  # noqa: F401 - the fixture: a drawn key, a crowded page, forms one to three deep

@pytest.fixture
def loops():
    pytest.importorskip("llvmlite")
    built = charloop.char_loops()
    assert built is not None and built.ink_objects is not None and built.path_fills is not None
    return built


def _by(way: str, monkeypatch, loops) -> None:
    """Which walk serves: "ctypes" (neither compiled), "ir" (llvmlite's), "numba" (numba's, llvmlite's loops absent)."""
    monkeypatch.setenv(charloop.ENV_SWITCH, {"ctypes": "0", "ir": "", "numba": "1"}[way])
    built = None if way == "numba" else loops
    monkeypatch.setattr(charloop, "_CHAR_LOOPS", charloop._Once(lambda: built, tried=True, built=built))


def _answers(path):
    document = pdfium.PdfDocument(str(path))
    try:
        page = document[0]
        objects = inked._walk_objects(page)
        fills = [(f.color, f.bounds) for depth in (1, 2) for f in pagechars.filled_paths(page.raw, depth, lambda c: np.ones(len(c), dtype=bool))]
        return sorted(objects.texts), objects.images, objects.shapes, objects.long_shapes, fills
    finally:
        document.close()


def test_the_ir_walks_find_what_the_ctypes_walks_and_numbas_find(pages, tmp_path, monkeypatch, loops):  # noqa: F811
    pytest.importorskip("numba")
    every = [*pages, _marked_sheet(tmp_path / "marked.pdf")]
    found = {}
    for way in ("ctypes", "ir", "numba"):
        _by(way, monkeypatch, loops)
        found[way] = [_answers(path) for path in every]
    assert charloop.compiled_reader() is not None  # numba's loops were there to compare with
    for by_ctypes, by_ir, by_numba in zip(found["ctypes"], found["ir"], found["numba"], strict=True):
        assert by_ctypes[1:] == by_ir[1:] == by_numba[1:] and len(by_ctypes[0]) == len(by_ir[0]) == len(by_numba[0])
    key, crowded, once, twice, thrice, marked = found["ir"]
    assert key[2] >= inked.MIN_BLOBS and len(crowded[0]) >= 300 and len(crowded[1]) == 3  # past the first arrays' room
    assert once[2:4] == twice[2:4] == crowded[2:4] and len(twice[0]) == len(crowded[0]) and thrice[0] == []
    colours = [color[:3] for color, _ in marked[4]]
    assert (255, 240, 0) in colours and (20, 20, 20) in colours


def test_the_ir_walk_reads_the_same_drawn_lines_and_marks(pages, tmp_path, monkeypatch, loops):  # noqa: F811
    marked = _marked_sheet(tmp_path / "marked.pdf")
    found = {}
    for way in ("ctypes", "ir"):
        _by(way, monkeypatch, loops)
        found[way] = []
        for path in [*pages, marked]:
            document = pdfium.PdfDocument(str(path))
            page = document[0]
            page.get_textpage().close()
            found[way].append(inked.drawn_text_boxes(page))
            document.close()
        found[way].append([(line.text, line.highlighted) for page in extract_document(marked, "0" * 64, ExtractOptions(detect_highlights=True)).pages
                           for line in page.lines])
    assert found["ctypes"] == found["ir"] and all(found["ir"][:4]) and any(h for _, h in found["ir"][-1])


@pytest.mark.parametrize("plan", [False, True])
def test_a_long_run_walks_its_pages_without_ever_loading_numba(tmp_path, monkeypatch, loops, plan):
    """Past `COMPILED_AFTER_CHARACTERS` read, or with a plan of files that forecasts as many, a process whose llvmlite
    loops built reads characters and walks pages through them: numba's reader is never asked for (its load, 0.7-1.0
    CPU s, fell inside a corpus run's drawn-text check); every walk goes through the IR loops."""
    calls, asked = spy_on_loops(monkeypatch, loops, ("ink_objects", "path_fills"))
    path = _marked_sheet(tmp_path / "marked.pdf")
    if plan:
        pagechars.plan_files(10 ** 6)
    else:
        monkeypatch.setattr(pagechars._Characters, "read", charloop.COMPILED_AFTER_CHARACTERS)
    for _ in range(3):
        extract_document(path, "0" * 64, ExtractOptions(detect_highlights=True))
    assert asked == []
    assert calls.count("ink_objects") == 3 and calls.count("path_fills") == 3


def test_without_llvmlites_loops_numba_still_walks_past_the_threshold(tmp_path, monkeypatch, loops):
    """Where the IR loops could not be built, numba's reader is loaded once a process has read enough, as before."""
    asked: list[bool] = []
    monkeypatch.setattr(charloop, "_CHAR_LOOPS", charloop._Once(lambda: None, tried=True))
    monkeypatch.setattr(charloop, "compiled_reader", lambda: asked.append(True))
    monkeypatch.delenv(charloop.ENV_SWITCH, raising=False)
    monkeypatch.setattr(pagechars._Characters, "repaid", False)
    monkeypatch.setattr(pagechars._Characters, "read", charloop.COMPILED_AFTER_CHARACTERS)
    extract_document(_sheet(tmp_path / "scripts.pdf"), "0" * 64, ExtractOptions())
    assert asked
