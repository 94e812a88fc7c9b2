"""The page passes that read answer-key tables and lists: the lone short words that make a page a key table, and the
table read as a block, cut by its rules, by its numbered rows, as a grid or as an unruled list, each cell against the
option labels. Declared like every other page pass (`passes.page_pass`) and placed in the one ordered registry by
`pagepasses.PAGE_PASSES`."""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from pipeline.extract.ocr.gridcells import GRID_MIN_CASELESS_SHARE, caseless_labels, read_grid_cells
from pipeline.extract.ocr.keycells import TABLE_PASS_MIN_ISOLATED, merge_table_pass, read_key_cells, read_table_areas, table_areas
from pipeline.extract.ocr.listcells import read_list_cells
from pipeline.extract.ocr.labelpasses import (
    has_labels,
)
from pipeline.extract.ocr.noise import is_noise
from pipeline.extract.ocr.numbering import inferred_notes
from pipeline.extract.ocr.passes import Cost, PageWork, page_pass, says
from pipeline.extract.ocr.settings import OcrSettings
from pipeline.extract.ocr.stackedcolumns import MIN_STACKED, SHORT, STACKED_HEIGHTS, column_areas, stacked_columns
from pipeline.extract.ocr.tablecells import LINE_BASE, PAGE_LABEL_MIN_CONF, held_apart, read_table_cells
from pipeline.extract.ocr.words import isolated_short_words

# Lines of the grid rows within `tablecells`' held-apart range: clear of its tables' lines (the lower ones) and of
# `listcells`' (`listcells.LINE_OFFSET`, 900 000 on).
GRID_LINE_OFFSET = 800_000


@says(f"the page holds at least {TABLE_PASS_MIN_ISOLATED} short words standing alone (a key table's cells)")
def _table_page(work: PageWork) -> bool:
    return len(work.lone_cells) >= TABLE_PASS_MIN_ISOLATED


def _key_table_with_labels(work: PageWork) -> bool:
    """a key table's cells (as above) and the spec's option labels"""
    return _table_page(work) and has_labels(work)


@says(f"a Tesseract line of at least {MIN_STACKED} words of up to {SHORT} characters stands on end: over {STACKED_HEIGHTS:g} of "
      "its words' heights tall and about one wide (a key's column of answers read as one squashed line)")
def _stacked_column(work: PageWork) -> bool:
    return bool(stacked_columns(work.words))


@page_pass("stacked-column", "3", Cost.REGIONS, when=_stacked_column)  # 3: as table-block 3
def _read_stacked_columns(work: PageWork) -> PageWork:
    """Each such column, widened to its rows' words, read again as a block (`--psm 6`) and merged as `table-block` merges
    (`stackedcolumns`)."""
    settings, grey = work.settings, work.prepared()
    columns = stacked_columns(work.words)
    height = work.typical_height or float(np.median([w.bottom - w.top for w in work.words]))
    areas = column_areas(work.words, columns, height, grey.width, grey.height)
    block_pass = read_table_areas(grey, areas, height, settings.languages, settings.dpi, work.omp_thread_limit)
    return replace(work, words=merge_table_pass(work.words, [w for w in block_pass if not is_noise(w, work.typical_height)]))


@page_pass("lone-cells", "1", Cost.CHEAP, required=True)
def _find_lone_cells(work: PageWork) -> PageWork:
    """The short words standing alone (a key table's cells), which decide whether the table passes apply."""
    return replace(work, lone_cells=isolated_short_words(work.words))


@page_pass("table-block", "3", Cost.REGIONS, when=_table_page)  # 3: a block reading of only part of a word's glyphs does not replace it (`keycells.reads_part_of`)
def _read_table_block(work: PageWork) -> PageWork:
    """A key page whole, elsewhere the areas around lone cells, read again as one block (`--psm 6`) and merged (`keycells`)."""
    settings, grey = work.settings, work.prepared()
    # A key page may have no word of three letters to measure text by: its cells do then.
    cell_height = work.typical_height or float(np.median([w.bottom - w.top for w in work.lone_cells]))
    areas = table_areas(work.words, work.lone_cells, cell_height, grey.width, grey.height)
    if not areas:
        return work
    block_pass = read_table_areas(grey, areas, cell_height, settings.languages, settings.dpi, work.omp_thread_limit)
    return replace(work, words=merge_table_pass(work.words, [w for w in block_pass if not is_noise(w, work.typical_height)]))


def _grid_inputs(settings: OcrSettings) -> str | None:
    """What the grid and table passes do differently where the labels are letters of a caseless script on a page of a
    language without word spaces (`gridcells.caseless_labels`); None elsewhere, so every other page keeps its cached reading."""
    return f"caseless labels {GRID_MIN_CASELESS_SHARE} {PAGE_LABEL_MIN_CONF}" if settings.option_labels and caseless_labels(settings.option_labels, settings.languages) else None


@page_pass("table-cells", "18", Cost.REGIONS, when=has_labels, inputs=_grid_inputs)  # 18: rings looked for with grey paper lifted to white (`ringshapes.on_white` in `labelrings.read_ring_cells`); 17: pieces of a rule apart by up to `tablebands.RULE_GAP_INCHES` joined where another rule of the grid runs across the gap with its ends lined up (`tablebands._aligned_joins`); 16: a rule broken by dust for up to `tablebands.RULE_BREAK_INCHES` is one rule (a speckled grid key's row no longer cut in two bands); 15: its words' line numbers clear of the prose regions read again (a page's sixth region was held apart as key cells), a cell's ring found around its box where the cell's crop cuts it, a ring the stacked reading left unread read again alone at two sizes (`labelrings.read_ring_cells`); 14: a ring read by its digit with its ring and alone, a contested one unsure (`cellreads._ring_digit`); 13: mends side by side between two cells read as the run counts are anchored too (`numbering.anchored_mends`); 12: a number column that reads as numbers but does not count read again, unenlarged and with the plain reader's data, until a reading counts (`tablecells._read_again`); 11: number cells read with the companion script too (`companions`; a branch's 9); 10: a mend between cells read as the run counts is anchored (`numbering.anchored_mends`): its confidence kept, its note info; 9: a number its run gave in place of what was read is inferred: read unsure, a page note names its question; 8: a band under a number row that counts up too is no grid's answers (`_counts_too`), and number columns too short to count alone chained across pairs (`_chained_columns`); 4: answer cells matched against the table's sure cells (`cellshapes`); 5: ink inside a mid-grey fill measured against the fill's own level (`shading`), a number column counted in blocks (`numbering`); 6: a reading its neighbour counts on from is never mended, nor mends (`numbering._counted_on`), and a page word anywhere in a cell read goes with it (`_band_spans`: rule to rule); 7: a label strip that reads some cells and leaves most unread read again with the space allowed (`keycells.read_label_cells`)
def _read_table_cells(work: PageWork) -> PageWork:
    """A ruled key table's cells found from its rules, each read with its alphabet: numbers as digits, answers as labels; with
    labels of a caseless script an answer cell left unread keeps the page's sure reading of a label in it (`tablecells`)."""
    settings = work.settings
    assert settings.option_labels
    # Unprepared: preparing erases the rules that say where the cells are.
    words = read_table_cells(work.image, work.prepared(), work.words, settings.option_labels, settings.languages, settings.dpi,
                             work.omp_thread_limit, work.folder)
    return replace(work, words=words, notes=work.notes + inferred_notes(held_apart(words)[0], "key table"))


@page_pass("key-cells", "2", Cost.REGIONS, when=_key_table_with_labels)  # 2: a label strip that reads some cells and leaves most unread read again with the space allowed
def _read_key_cells(work: PageWork) -> PageWork:
    """In a table of numbered rows, the answer cells read together against the option labels (`keycells`)."""
    settings = work.settings
    assert settings.option_labels  # the condition says so
    read, words = held_apart(work.words)  # a table read from its rules is not read again
    words = read + read_key_cells(work.prepared(), words, settings.option_labels, settings.languages, settings.dpi,
                           work.omp_thread_limit, work.folder)
    return replace(work, words=words)


@page_pass("grid-cells", "13", Cost.REGIONS, when=has_labels, inputs=_grid_inputs)  # 13: the rows on held-apart lines (`figures` took a row of pale letters for a figure's junk); a sure cell whose glyph stands apart from its label's other sure cells is left unread (`cellshapes.unlike_their_own`: a "C" read "E" at 95), and a cell is taken for a light letter on a dark fill by the row around it, not its own crop (a bold letter cropped to its ink was turned); 12: a light band with no rule across whose ink, cell rules out, stands in runs apart (a tilted box rule's pieces) is cropped to its inkiest run (a dark one keeps its inked rows); 11: a row's cells cropped to its glyphs' rows with the rules out (a cell rule inks every row: a box's rules above and below the letters stood in the crops, `gridcells._glyph_rows`); 10: specks (small pieces of ink, `bandspecks`) taken out of a row's band before it is cut into cells and read; 9: a cell read as the row counts is never mended by its neighbours, a run's end cell with its place's units digit takes the count's number ("77 18 19 20" for 77–80); 8: mends side by side anchored, as table-cells 13; 7: an anchored mend said at info, as table-cells 10; 6: a number the row's run gave in place of what was read is inferred: read unsure, a page note names its question; 2: a column's read letter before a piece read as nothing; 3: neighbours misread together renumbered; 4: a letter-sized cell read as an annulment mark is read again against the labels; 5: a rule's blurred edge is part of the rule (number boxes apart by white gutters)
def _read_grid_cells(work: PageWork) -> PageWork:
    """A grid key's answer rows under their number rows read cell by cell (`gridcells`)."""
    settings = work.settings
    assert settings.option_labels
    # Unprepared grey: preparing erases a number row's dark fill with the table rules, digits and all.
    read, words = held_apart(work.words)
    # The rows stand on lines of the held-apart range (`tablecells.held_apart`), as a ruled table's cells do: `figures`
    # no longer takes a row of pale letters read at a whitelist's low confidence for a figure's junk (it dropped every "C"
    # read at 0–59, 41 answers of a grid key at 220 dpi). They are not put among the lone cells, which the second reader
    # skips: its reading of a grid cell is what flags a low-confidence or contested answer.
    words = read + read_grid_cells(work.image.convert("L"), words, settings.option_labels, settings.languages, settings.dpi,
                                   work.omp_thread_limit, work.folder, LINE_BASE + GRID_LINE_OFFSET)
    before = {id(w) for w in work.words}
    added = [w for w in words if id(w) not in before]
    return replace(work, words=words, notes=work.notes + inferred_notes(added, "key grid"))


@page_pass("list-cells", "16", Cost.REGIONS, when=has_labels)  # 16: rings looked for with grey paper lifted to white, as table-cells 18; 15: ringed answers found by their shape on the page before its light greys were whitened and read as option labels are (`labelrings.read_ring_cells`), as table-cells reads them (a branch's 13, h-koring); 14: a row's unread cell no longer shrinks its line's size (`words.line_sizes`: the entry beside it was dropped as a margin note); 13: a branch's (h-koring), not merged then; 12: a ring read by its digit with its ring and alone, a contested one unsure (`cellreads._ring_digit`); 11: mends side by side anchored, as table-cells 13; 10: the word space before an entry's number measured in the number's height, not its line's (a branch's 7); 9: an anchored mend said at info, as table-cells 10; 8 (7 was a version tried and dropped): a number its run gave in place of what was read is inferred, as table-cells 9; 2: a word may lead an entry; 3: answers matched as table-cells 4; 4: a label strip that reads some cells and leaves most unread read again with the space allowed; 5: an answer at a tab stop or past a dotted leader, the pitch fitted, blocks counted apart; 6: an unsure answer whose ink reaches like another label's is left unread;
def _read_list_cells(work: PageWork) -> PageWork:
    """An unruled list key's entries (`1. B`, `1 – C`, in columns) found from its white space, numbers read as digits and
    answers as labels, an answer unread kept as unread at its place (`listcells`)."""
    settings = work.settings
    assert settings.option_labels
    read, words = held_apart(work.words)
    words = read_list_cells(work.prepared(), words, read, settings.option_labels, settings.languages, settings.dpi,
                            work.omp_thread_limit, work.folder, scanned=work.unwhitened_page())
    return replace(work, words=read + words, notes=work.notes + inferred_notes(held_apart(words)[0], "key list"))
