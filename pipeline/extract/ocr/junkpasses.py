"""The page passes that drop junk and read lost words again: specks, rule fragments and pictograms dropped, ink no
word covers read again from a strip, and lines Tesseract dropped read in place by a second recogniser. Declared like
every other page pass (`passes.page_pass`) and placed in the one ordered registry by `pagepasses.PAGE_PASSES`."""
from __future__ import annotations

from dataclasses import replace

from pipeline.extract.ocr.droppedink import read_dropped_ink
from pipeline.extract.ocr.noise import is_noise, read_orphans, without_icons
from pipeline.extract.ocr.passes import Cost, PageWork, page_pass
from pipeline.extract.ocr.widegaps import lost_glyph_ends, sets_no_word_spaces, unspaced_inputs
from pipeline.extract.ocr.secondread import second_reader_version


@page_pass("noise", "4", Cost.CHEAP, inputs=unspaced_inputs)
def _drop_noise(work: PageWork) -> PageWork:
    """Specks, rule fragments and pictograms (a one- or two-character unsure word taller than its line) dropped (`noise`);
    in a script without word spaces a glyph Tesseract read apart inside a word's box first given back to that word
    (`widegaps.lost_glyph_ends`)."""
    words = lost_glyph_ends(work.words) if sets_no_word_spaces(work.settings.languages) else work.words
    return replace(work, words=without_icons([w for w in words if not is_noise(w, work.typical_height)], work.ink))


@page_pass("orphans", "6", Cost.REGIONS)  # 3: re-readings of one unsure word count together; 4: a number read unsurely in the strip read alone; 5: a word's own glyph left outside its box not read again as a word, its box grown over it; 6: solid patches (dark squares) in a strip of their own
def _read_orphans(work: PageWork) -> PageWork:
    """Ink no word covers (a question number in its box, a lone answer letter) and unsure short words read again from a strip (`noise`)."""
    settings = work.settings
    words = read_orphans(work.prepared(), work.words, work.parsed, work.typical_height, settings.languages, settings.dpi,
                         work.omp_thread_limit, work.folder, work.stretch)
    return replace(work, words=words)


def _whole_page_with_text(work: PageWork) -> bool:
    """a whole page (not parts of a text page, whose drawn regions were chosen as text and read already) with words of
    3+ letters to measure its text height by"""
    return bool(work.typical_height) and not work.settings.parts_only


@page_pass("dropped-ink", f"2+{second_reader_version()}", Cost.REGIONS, when=_whole_page_with_text)  # 2: a line beside a box side up to 2 line heights
def _dropped_ink(work: PageWork) -> PageWork:
    """Lines of text Tesseract returned no word (or only junk) for, found from the ink no word covers, read in place by
    RapidOCR (Tesseract as one text line where RapidOCR has no model for the language), the sure words kept and noted (`droppedink`)."""
    dropped = read_dropped_ink(work.prepared(), work.words, work.typical_height, work.settings.languages)
    return replace(work, words=dropped.words, notes=work.notes + ((dropped.note,) if dropped.note else ()))
