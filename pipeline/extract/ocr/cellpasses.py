"""The page passes for scripts whose glyphs stand on square cells (`glyphcells`), declared like every other page
pass (`passes.page_pass`) and placed in the one ordered registry by `pagepasses.PAGE_PASSES`. The script's facts
come from its language data (`glyph_cells`); a page in no such language runs neither pass."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from pipeline.extract.ocr.glyphcells import CellFacts, dropped_glyphs, measure_cells, mend_dropped, read_dropped, split_by_spaces
from pipeline.extract.ocr.passes import Cost, PageWork, page_pass
from pipeline.extract.ocr.settings import OcrSettings
from pipeline.languages import language_for_tesseract


def cell_facts(languages: Sequence[str]) -> CellFacts | None:
    """The square-cell facts of the first of `languages` whose data declares them; None when none does."""
    for name in languages:
        found = language_for_tesseract(name)
        if found is not None and found.glyph_cells is not None:
            return CellFacts(found.glyph_cells.word_space, found.glyph_cells.glyph_from)
    return None


def _cell_script(work: PageWork) -> bool:
    """a language of the page sets its glyphs on square cells (language data `glyph_cells`: Korean)"""
    return cell_facts(work.settings.languages) is not None


def _facts_inputs(settings: OcrSettings) -> str:
    facts = cell_facts(settings.languages)
    return f"{facts.word_space}/{facts.glyph_from}" if facts is not None else "none"


# 2: a word holding a word space's white that is not cut is marked unsure (confidence 0)
@page_pass("cell-spaces", "2", Cost.CHEAP, when=_cell_script, inputs=_facts_inputs)
def _cell_spaces(work: PageWork) -> PageWork:
    """A word of wide glyphs holding a word space's white, measured in the page's cells, cut there, or marked unsure
    where its box or its cells do not bear the cut out (`glyphcells`)."""
    facts = cell_facts(work.settings.languages)
    cells = measure_cells(work.words)
    if facts is None or cells is None or work.ink is None:
        return work
    words, count, marked = split_by_spaces(work.words, work.ink, cells, facts)
    if not count and not marked:
        return work
    notes = (f"glyph cells: {marked} words holding a word space's white not cut, marked unsure",) if marked else ()
    return replace(work, words=words, notes=work.notes + notes)


@page_pass("dropped-glyphs", "1", Cost.REGIONS, when=_cell_script, inputs=_facts_inputs)
def _dropped_glyphs(work: PageWork) -> PageWork:
    """Ink of a glyph's cells beside a word of wide glyphs that no word covers, or a box wider than its text by a cell,
    or narrower (a glyph read twice), read again with the word in one stacked call; kept where it adds (takes out) those
    glyphs, else the word is marked unsure (`glyphcells`)."""
    facts = cell_facts(work.settings.languages)
    cells = measure_cells(work.words)
    if facts is None or cells is None or work.ink is None:
        return work
    found = dropped_glyphs(work.words, work.ink, cells, facts)
    if not found:
        return work
    settings = work.settings
    readings = read_dropped(work.prepared(), found, cells, settings.languages, settings.dpi, work.omp_thread_limit)
    words, mended, marked = mend_dropped(work.words, found, readings, cells)
    return replace(work, words=words, notes=work.notes + (f"glyph cells: {mended} words read again, {marked} marked unsure",))
