"""The page passes that read option labels (glued, cased, marked, on discs, in rings), declared like every other
page pass (`passes.page_pass`) and placed in the one ordered registry by `pagepasses.PAGE_PASSES`."""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from pipeline.extract.ocr.labeldiscs import read_label_discs
from pipeline.extract.ocr.labelrings import read_label_rings, ring_alphabet
from pipeline.extract.ocr.loneglyphs import read_lone_glyphs
from pipeline.extract.ocr.labels import (
    drop_label_ghosts, label_case_cells, restore_label_marks, restored_marks_note, script_label_shapes, split_glued_labels,
)
from pipeline.extract.ocr.passes import Cost, PageWork, page_pass
from pipeline.extract.ocr.ringneighbours import read_stretches, restored, stretches
from pipeline.extract.ocr.tablecells import held_apart
from pipeline.extract.ocr.words import overlap_share


def has_labels(work: PageWork) -> bool:
    """the spec names option labels"""
    return bool(work.settings.option_labels)


@page_pass("glued-labels", "1", Cost.CHEAP, when=has_labels)
def _glued_labels(work: PageWork) -> PageWork:
    """An option label glued to its text split off (`labels`)."""
    assert work.settings.option_labels
    return replace(work, words=split_glued_labels(work.words, work.settings.option_labels))


@page_pass("label-ghosts", "1", Cost.CHEAP, when=has_labels)
def _label_ghosts(work: PageWork) -> PageWork:
    """A label in a row of options read with a ghost letter in front (`OB)`) or a ghost word before it (`(o`),
    where the second reader read the label alone and nothing at the ghost: read as the second reader read it (`labels`)."""
    assert work.settings.option_labels
    return replace(work, words=drop_label_ghosts(work.words, work.settings.option_labels))


@page_pass("label-case", "2", Cost.CHEAP, when=has_labels)
def _label_case(work: PageWork) -> PageWork:
    """A lone label letter in a key cell takes the labels' case (`labels`)."""
    assert work.settings.option_labels
    return replace(work, words=label_case_cells(work.words, work.settings.option_labels, script_label_shapes(work.settings.languages)))


@page_pass("label-marks", "2", Cost.CHEAP, when=has_labels)  # 2: the marks given counted in an info note
def _label_marks(work: PageWork) -> PageWork:
    """A label letter alone in its line, option text beside it, gets its mark back (`D` → `D.`; `labels`)."""
    assert work.settings.option_labels
    words = restore_label_marks(work.words, work.settings.option_labels)
    return replace(work, words=words, notes=work.notes + restored_marks_note(work.words, words, "option label(s)"))


@page_pass("label-discs", "7", Cost.REGIONS, when=has_labels)  # 7: no disc on the first glyph of a number of two or more digits (a grid's white "41" on its dark row); 6: a disc glued to a long first word found, a tall ghost over a column of discs dropped, a first word boxed on its disc kept where a second reading past the disc confirms it; 4: a strip that leaves most discs unread read again with the space allowed (Korean labels read at confidence 0 without it); 5: that re-read moved to `keycells.read_label_cells` (every label strip), a word read across a disc re-read past the disc's outline, a run of unread discs after a question's last label opens the next
def _label_discs(work: PageWork) -> PageWork:
    """Labels printed light on dark discs read as labels, unread discs filled from their column's sequence (`labeldiscs`).

    Last of the label passes: a disc's label is printed without a mark, and the marks above would lend it one."""
    settings = work.settings
    assert settings.option_labels
    words, notes = read_label_discs(work.prepared(), work.words, settings.option_labels, work.typical_height, settings.languages,
                                    settings.dpi, work.omp_thread_limit)
    return replace(work, words=words, notes=work.notes + tuple(notes))


def _ringed_labels(work: PageWork) -> bool:
    """the spec's option labels are each a digit or letter in a ring (① … ⑤, Ⓐ … Ⓓ)"""
    return ring_alphabet(work.settings.option_labels or ()) is not None


@page_pass("label-rings", "9", Cost.REGIONS, when=_ringed_labels)  # 9: rings looked for on the page with grey paper lifted to white (`ringshapes.on_white`: on paper at 205 the whole page was one piece of ink and no ring was found); 8: a ring the stacked reading left unread read again alone at two sizes, taken where both read the same glyph
def _label_rings(work: PageWork) -> PageWork:
    """Labels printed as a digit or letter in a ring, found by shape on the page as scanned, read as labels (`labelrings`);
    a key table's cells, read already by `table-cells` the same way, are not read again."""
    settings = work.settings
    cells, others = held_apart(work.words)
    words, notes = read_label_rings(work.image, work.prepared().size, others, settings.option_labels, work.typical_height,
                                    settings.languages, settings.dpi, work.omp_thread_limit, work.ink)
    # A ring read over a table's cell stays the cell's reading (the page read a ⑤ as ② that its cell read right).
    words = [w for w in words if not any(overlap_share(w, cell) > 0.5 for cell in cells)]
    return replace(work, words=cells + words, notes=work.notes + tuple(notes))


@page_pass("ring-neighbours", "2", Cost.REGIONS, when=_ringed_labels)
def _ring_neighbours(work: PageWork) -> PageWork:
    """Ink left unread between a ring's label and the word after it (the glyph Tesseract dropped with the ring) read again
    without the ring, stretches stacked in one call; kept only as letters added before that word as read (`ringneighbours`)."""
    settings = work.settings
    assert settings.option_labels
    height = work.typical_height or (float(np.median([w.bottom - w.top for w in work.words])) if work.words else 0.0)
    if not height or work.ink is None:
        return work
    found = stretches(work.words, work.ink, settings.option_labels, height)
    if not found:
        return work
    readings = read_stretches(work.prepared(), found, height, settings.languages, settings.dpi, work.omp_thread_limit)
    words, _ = restored(work.words, found, readings, height)
    return replace(work, words=words)


@page_pass("lone-glyphs", "2", Cost.CHEAP, when=has_labels)  # 2: glyphs closer than a word space are one word (`II`, never `I I`)
def _lone_glyphs(work: PageWork) -> PageWork:
    """An option cell of a few lone glyphs (`ㄱ, ㄷ` after a ring) read by matching each glyph's ink against the glyphs the
    same page read alone and sure (`ㄱ.` heading a statement), commas by their pieces (`loneglyphs`)."""
    if work.ink is None:
        return work
    words, notes = read_lone_glyphs(work.words, work.ink, tuple(work.settings.option_labels or ()))
    return replace(work, words=words, notes=work.notes + tuple(notes)) if notes else work
