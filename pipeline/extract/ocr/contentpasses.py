"""The page passes that say what a read page holds: a page with no legible word read as empty, its mean word confidence
taken otherwise, the figures on a scan set apart with the junk read inside them, and the ink no word covers kept. Declared like every other page
pass (`passes.page_pass`) and placed in the one ordered registry by `pagepasses.PAGE_PASSES`."""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from pipeline.extract.document import ScannedFigure
from pipeline.extract.ocr.looseink import loose_pieces, text_height
from pipeline.extract.ocr.noise import is_legible
from pipeline.extract.ocr.orientation import may_lie_turned
from pipeline.extract.ocr.passes import Cost, PageWork, page_pass
from pipeline.extract.ocr.reading import PageReading
from pipeline.extract.ocr.scanfigures import CONFIDENT_WORD, figure_regions
from pipeline.extract.ocr.tablecells import held_apart
from pipeline.extract.ocr.words import mean_confidence


def _upright_page(work: PageWork) -> bool:
    """the page lies as scanned (a page read turned keeps its words), does not read as if it lay turned, and is a whole page"""
    return work.turn_upright and not may_lie_turned(work.parsed) and not work.settings.parts_only


@page_pass("legibility", "2", Cost.CHEAP, required=True)
def _legibility(work: PageWork) -> PageWork:
    """A page with no legible word and no key cell read reads as empty (parts of a text page with any word do not); otherwise its mean word
    confidence is taken, figures' junk included."""
    cells, _ = held_apart(work.words)  # a key read cell by cell ("10)", "a") is text, though no word has three letters
    if not any(is_legible(w) for w in work.words) and not cells and not (work.settings.parts_only and work.words):
        grey = work.prepared()
        return replace(work, outcome=PageReading(grey.width, grey.height))
    return replace(work, confidence=mean_confidence(work.words))


@page_pass("figures", "2", Cost.CHEAP, when=_upright_page)  # 2: a figure's own rules (a chart's axes) in its box
def _figures(work: PageWork) -> PageWork:
    """Figures found on the scan, the unsure words read inside each set aside with it (`scanfigures`)."""
    words, figures = work.words, list(work.figures)
    cells, _ = held_apart(words)
    for region in figure_regions(work.prepared(), words, work.typical_height, work.settings.dpi, work.image):
        if any(region.holds(w) for w in cells):
            continue  # a key table read cell by cell (its letters at a whitelist's low confidence), no figure
        junk = {id(w): w.text for w in words if region.holds(w) and w.conf < CONFIDENT_WORD}
        figures.append(ScannedFigure((region.left, region.top, region.right, region.bottom), tuple(junk.values())))
        words = [w for w in words if id(w) not in junk]
    return replace(work, words=words, figures=tuple(figures))


def _whole_page_with_words(work: PageWork) -> bool:
    """the page is a whole scanned page (not parts of a text page) with words read on it"""
    return not work.settings.parts_only and bool(work.words)


@page_pass("loose-ink", "1", Cost.CHEAP, when=_whole_page_with_words)
def _loose_ink(work: PageWork) -> PageWork:
    """The glyph- and mark-sized pieces of the prepared page's ink that no word's box covers, outside the figures, kept with
    the reading: laid out, the word beside such ink in its line is unsure (`looseink`)."""
    figures = [(int(left), int(top), int(right), int(bottom)) for left, top, right, bottom in (f.bbox for f in work.figures)]
    return replace(work, loose_ink=loose_pieces(np.asarray(work.prepared()), work.words, text_height(work.words), figures))
