"""Ruled answer-key tables read cell by cell from their geometry: grids (a row of question numbers over
a row of answers), lists in ruled columns, and tables with one answer column per booklet type.

Tesseract's page reading glues a grid's cells into one word ("BDBB", "10111213"), drops lone letters
between rules and misreads a circled ① as "D1" or "@"; nothing then pairs an answer with its number.
Here the table's rules say where each cell is, and each cell is read with the alphabet it holds:
1. rules: horizontal rules (straight dark runs, `engine.straight_runs`) bound the table's rows; in each
   row band, columns dark over nearly its whole height are the cell rules (a row with horizontal rules
   only is cut at its white gutters) (`tablebands`);
2. numbers: every inked cell is read against the digits; a row whose cells count up by one is a number
   row (a grid), a column that counts up down the bands is a number column (a list or booklet table).
   Numbers take the run's values (a misread digit in a counting run is the number its place gives:
   `numbering.counting_run`). A column that reads as numbers but does not count (a bold "5" read "9" all down a
   block, 50–59: too many for the count to mend) is read again, unenlarged, then with the plain reader's data
   (`keycells.PLAIN_READER`), and the first reading that counts is taken (`_read_again`);
3. answers: the cells under a number row's cells, or right of a number column's cells, are read
   against the option labels, and once more with no whitelist (a model may lose a letter to one: the
   Greek "Δ"), a reading kept only where all its letters stand for one label; labels that are enclosed
   digits, ①–⑤, by the ring found by its shape on the scan and its inside read as option labels are
   (`labelrings.read_ring_cells`), checked against the digit read with its ring where less sure;
   the bands above a number column are its header (booklet types: "Typ A"), read as text cell by cell
   (`cellreads`);
4. a cell whose answer stays unread (or is blank) comes back as `UNREAD_CELL`, at its place, so no
   answer moves to another question; the parse stage reports it for its question.
Cells are read in strips of at most `engine.MAX_STRIP_WIDTH` pixels, never the table as one image.
"""
from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
from PIL import Image

from pipeline.extract.document import UNREAD_CELL
from pipeline.extract.ocr.cellreads import GLYPH_PX, enlarged, read_answers, read_digits, read_text
from pipeline.extract.ocr.engine import installed_languages
from pipeline.extract.ocr.gridcells import caseless_labels
from pipeline.extract.ocr.keycells import PLAIN_READER
from pipeline.extract.ocr.numbering import MIN_NUMBERS, anchored_mends, chained_columns, counted_blocks, counting_run
from pipeline.extract.ocr.shading import table_ink
from pipeline.extract.ocr.tablebands import RULE_INK_BELOW, Band, Box, cell_under, ink_box, table_bands, table_columns, tables_of
from pipeline.extract.ocr.words import Word

LABEL_CELL_WIDTH = 1.6  # typical cell widths: a wider cell in a number row is the row's label
SINGLE_GLYPH_ASPECT = 1.6  # an answer cell's ink is about one glyph: at most this wide for its height
ANSWER_MIN_SHARE = 0.6  # of a candidate answer line's inked cells that must look like one glyph
PAD_ACROSS, PAD_DOWN = 0.3, 0.15  # white around a cell's ink in its crop, in row heights
BLANK_HALF_HEIGHT = 0.25  # of its row's height: half the height of the word written for a blank cell
# A number cell its run gave a number in place of what was read: (what was read, whether the mend is anchored).
Inferred = tuple[str, bool] | None
# Line numbers of the words this pass writes (one per table row): `held_apart` tells them from the rest. Clear of every
# other pass's line numbers: a page's prose regions read again are numbered 10 000 apart (`segment.REGION_LINE_OFFSET`),
# and at 60 000 a page's sixth region (a sheet's last question) was taken for key cells, its rings left unread.
LINE_BASE = 1_000_000_000
PAGE_LABEL_MIN_CONF = 80.0  # a label the page's reading holds in an answer cell left unread stands at this confidence or more
LINE_SPAN = 1_000_000
TALLER_THAN_ROW = 1.5  # of a row's height: a word this tall inside a ruled table spans rows: no cell's text
RULE_REACH = 0.25  # of a row's height: a word centred this close to the rule between two rows stands on it
AGAIN_MIN_SHARE = 0.5  # of a line's inked cells read as numbers: a line of numbers that does not count is read again


def _one_glyph(box: Box | None) -> bool:
    return box is not None and (box[2] - box[0]) <= SINGLE_GLYPH_ASPECT * (box[3] - box[1])


def read_table_cells(
    image: Image.Image,
    prepared: Image.Image,
    words: list[Word],
    labels: Sequence[str],
    languages: Sequence[str],
    dpi: int,
    omp_thread_limit: int | None,
    folder: Path,
) -> list[Word]:
    """`words` with each ruled key table's number, answer and header cells replaced by one word per cell
    (see the module's docstring); pages without such a table come back as they are. The rules are found
    on `image` as scanned; the cells are read from `prepared` (the page Tesseract reads, rules erased)."""
    array = np.asarray(image.convert("L"))
    grey = prepared
    dark = table_ink(array, RULE_INK_BELOW, dpi)
    bands = table_bands(array, dpi, dark)
    if not bands:
        return words
    result = list(words)
    added: list[Word] = []
    for t, table in enumerate(tables_of(bands)):
        placed = _read_table(grey, dark, table, labels, languages, dpi, omp_thread_limit, folder / f"table-{t}", scanned=array,
                             page_words=words if caseless_labels(labels, languages) else None)
        if not placed:
            continue
        # Every page word over the cells read goes, a word glued across two cells' rule included.
        spans = _band_spans(table, [(box, band) for box, _, (band, _), _ in placed])
        # A word of no letter or digit anywhere in the table's rows is a rule's remnant ("|" at a label
        # cell's edge, read between a grid's number row and its answer row, parted the two).
        rows = [(band.cells[0][0], band.top, band.cells[-1][1], band.bottom) for band in table]
        result = [w for w in result if not any(_centre_in(w, span) for span in spans)
                  and not (not any(ch.isalnum() for ch in w.text) and any(_centre_in(w, row) for row in rows))
                  and not _on_a_rule(w, table)]
        for box, text, (band_index, conf), inferred in placed:
            line = LINE_BASE + t * 1000 + band_index
            read_as, anchored = inferred if inferred is not None else (None, False)
            added.append(Word(text, conf, box[0], box[1], box[2], box[3], (line, 0, 0), inferred_from=read_as,
                              inferred_anchored=anchored))
    return result + added


def held_apart(words: list[Word]) -> tuple[list[Word], list[Word]]:
    """(words this pass wrote, the others): the later table passes (`keycells`, `gridcells`) read only
    the others, so a table read cell by cell is not cut up again by white gaps."""
    ours = [w for w in words if LINE_BASE <= w.line[0] < LINE_BASE + LINE_SPAN]
    return ours, [w for w in words if not LINE_BASE <= w.line[0] < LINE_BASE + LINE_SPAN]


def _band_spans(table: list[Band], cells: list[tuple[Box, int]]) -> list[Box]:
    """Per table row, the box from its first cell read to its last, rule to rule, the row's whole height (a
    word Tesseract read off a shaded cell's edge, `NNNÚNL` beside the cell's `D`, goes with the cell)."""
    spans: dict[int, Box] = {}
    for (left, _, right, _), band in cells:
        middle = (left + right) / 2
        left, right = next(((l, r) for l, r in table[band].cells if l <= middle < r), (left, right))
        was = spans.get(band, (left, table[band].top, right, table[band].bottom))
        spans[band] = (min(was[0], left), was[1], max(was[2], right), was[3])
    return list(spans.values())


def _on_a_rule(word: Word, table: list[Band]) -> bool:
    """Whether a page word is a rule read as text: centred on a rule between two of the table's rows
    (nothing is printed there: "| | ㅣ |", and "5 | I" between rows 24 and 25 became a row of its own), or
    spanning several rows inside the table (a junk "616" as tall as four rows chained their cells into one
    line)."""
    x, y = (word.left + word.right) / 2, (word.top + word.bottom) / 2
    row = float(np.median([band.bottom - band.top for band in table]))
    inside = min(b.cells[0][0] for b in table) <= x <= max(b.cells[-1][1] for b in table) and table[0].top <= y <= table[-1].bottom
    if inside and word.bottom - word.top > TALLER_THAN_ROW * row:
        return True
    for upper, lower in zip(table, table[1:]):
        left, right = max(upper.cells[0][0], lower.cells[0][0]), min(upper.cells[-1][1], lower.cells[-1][1])
        reach = RULE_REACH * min(upper.bottom - upper.top, lower.bottom - lower.top)  # a cell's text is centred, far from it
        if left <= x <= right and upper.bottom - reach <= y <= lower.top + reach and word.bottom - word.top <= lower.bottom - upper.top:
            return True
    return False


def _centre_in(word: Word, box: Box) -> bool:
    x, y = (word.left + word.right) / 2, (word.top + word.bottom) / 2
    return box[0] <= x <= box[2] and box[1] <= y <= box[3]


def _read_table(grey: Image.Image, dark: np.ndarray, table: list[Band], labels: Sequence[str], languages, dpi, omp,
                path: Path, *, scanned: np.ndarray | None = None, page_words: list[Word] | None = None,
                ) -> list[tuple[Box, str, tuple[int, float], Inferred]]:
    """(cell box, text, (band index, confidence), where the text is a number its run gave instead of what was read:
    (what was read, "" for nothing; whether the mend is anchored, `numbering.anchored_mends`), None where read as
    written) of each number, answer and header cell of one table. `page_words` (labels of a caseless script,
    `gridcells.caseless_labels`): an answer cell the cell reading leaves unread keeps the page's own sure reading of a
    label inside it (Tesseract's Japanese data reads a lone kana cropped from its cell as nothing, and read it in the
    page at 89–93)."""
    inks = {(b, c): ink_box(dark, band, cell) for b, band in enumerate(table) for c, cell in enumerate(band.cells)}
    inked = [key for key, box in inks.items() if box is not None]
    if not inked:
        return []
    height = int(np.median([band.bottom - band.top for band in table]))
    gap = max(8, height)
    canvas, boxes = enlarged(grey, [_padded(inks[k], height, grey.size) for k in inked])
    texts = dict(zip(inked, read_digits(canvas, boxes, GLYPH_PX, languages, dpi, omp, path.with_suffix(".numbers.pgm"))))
    values = {key: int(text) for key, text in texts.items() if text}
    numbers: dict[tuple[int, int], int] = {}
    anchored: set[tuple[int, int]] = set()  # number cells mended between cells read as their run counts
    answers: list[tuple[int, int]] = []
    header: list[tuple[int, int]] = []
    # A grid: number rows, their answers in the band below, cell under cell.
    for b, band in enumerate(table):
        run = counting_run([values.get((b, c)) for c in range(len(band.cells))]) if b + 1 < len(table) else None
        first = _first_numbered(values, b, len(band.cells))
        if run is None or first is None:
            continue
        # The row's own cells: a cell far wider than the row's typical one is its label ("Questão", "문항").
        typical = float(np.median([r - l for l, r in band.cells]))
        row = [(b, c) for c in range(first, len(band.cells)) if band.cells[c][1] - band.cells[c][0] <= LABEL_CELL_WIDTH * typical]
        run = counting_run([values.get(k) for k in row])
        under = [cell_under(table, b + 1, band.cells[c]) for _, c in row]
        if run is None or _counts_too(table, b + 1, values) or not _answer_like([inks.get((b + 1, c)) if c is not None else None for c in under]):
            continue
        anchored |= {row[i] for i in anchored_mends([texts.get(k) for k in row], run)}
        for (key, value, below) in zip(row, run, under):
            numbers[key] = value
            if below is not None:
                answers.append((b + 1, below))
    if not numbers:
        # A list or booklet table: number columns, each with its answers right of it up to the next number
        # column in each band (pairs of "Nr | Odp." side by side), a header above.
        runs: list[tuple[list[tuple[int, int]], list[int]]] = []
        column_anchors: set[tuple[int, int]] = set()
        for column in table_columns(table):
            column.sort()
            # The bands above its first number are the table's header ("Nr", "Typ A").
            first = next((i for i, k in enumerate(column) if values.get(k) is not None), len(column))
            column = column[first:]
            readings = [values.get(k) for k in column]
            if counting_run(readings) is None and counted_blocks(readings) is None and _numbers_that_miscount(readings, column, inks):
                again = _read_again(grey, column, inks, height, languages, dpi, omp, path)  # a reading that counts, or None
                if again is not None:
                    texts.update(again)
                    values.update({k: int(t) for k, t in again.items() if t})
                    readings = [values.get(k) for k in column]
            run = counting_run(readings) or counted_blocks(readings)  # a key of the closed questions only: blocks
            if run is not None:
                column_anchors |= {column[i] for i in anchored_mends([texts.get(k) for k in column], run)}
                runs.append(([k for k, n in zip(column, run) if n is not None], [n for n in run if n is not None]))
        if not runs:  # each column of a chain counted alone: a mend at its top or foot is at a run's end
            runs = _chained_columns(table, values)
            column_anchors = {column[i] for column, run in runs for i in anchored_mends([texts.get(k) for k in column], run)}
        runs.sort(key=lambda found: table[found[0][0][0]].cells[found[0][0][1]][0])
        for index, (column, run) in enumerate(runs):
            after = runs[index + 1][0] if index + 1 < len(runs) else []
            candidates = [(b, d) for b, c in column for d in range(c + 1, _next_number_cell(table, b, after))]
            if not candidates or not _answer_like([inks.get(k) for k in candidates]):
                continue
            numbers.update(dict(zip(column, run)))
            anchored |= column_anchors & set(column)
            answers += candidates
            top_band = min(b for b, _ in column)
            header += [(b, c) for b in range(top_band) for c in range(len(table[b].cells))
                       if inks.get((b, c)) and (b, c) not in header]
    if not numbers:
        return []
    placed: list[tuple[Box, str, tuple[int, float], Inferred]] = []
    # A number keeps its printed form ("01"); one the run mended is written as its neighbours are, and keeps what was
    # read in its place: it is inferred, not read (`numbering.inferred_notes`).
    padded = [len(text) for key in numbers if (text := texts.get(key)) and text.startswith("0")]
    width = max(set(padded), key=padded.count) if padded else 0
    for (b, c), value in numbers.items():
        read_as = texts.get((b, c))
        as_read = bool(read_as) and int(read_as or 0) == value
        text = read_as if as_read and read_as else str(value).zfill(width)
        placed.append((_cell_box(table[b], c, inks.get((b, c))), text, (b, 95.0),
                       None if as_read else (read_as or "", (b, c) in anchored)))
    answer_inked = [k for k in answers if inks.get(k) is not None]
    read = dict(zip(answer_inked, read_answers(grey, [_padded(inks[k], height, grey.size) for k in answer_inked], labels, gap,
                                                languages, dpi, omp, path.with_suffix(".answers.pgm"), scanned=scanned))) if answer_inked else {}
    for b, c in answers:
        reading = read.get((b, c)) or (_page_label(page_words, _cell_box(table[b], c, inks.get((b, c))), labels) if page_words else None)
        placed.append((_cell_box(table[b], c, inks.get((b, c))), reading[0] if reading else UNREAD_CELL, (b, reading[1] if reading else -1.0),
                       None))
    if header:
        texts = read_text(grey, [_padded(inks[k], height, grey.size) for k in header], gap, languages, dpi, omp, path.with_suffix(".header.pgm"))
        placed += [(_cell_box(table[b], c, inks.get((b, c))), text, (b, 90.0), None) for (b, c), text in zip(header, texts) if text]
    return placed


def _numbers_that_miscount(readings: list[int | None], cells: list[tuple[int, int]], inks: dict) -> bool:
    """Whether a line of cells reads as numbers (most of its inked cells: a number column's, not an answer column's
    letters read against the digits) that do not count: a digit misread all down the line (a bold "5" read "9"
    from 50 to 59, too many for the count to mend)."""
    inked = [k for k in cells if inks.get(k) is not None]
    return len(inked) >= MIN_NUMBERS and sum(v is not None for v in readings) >= AGAIN_MIN_SHARE * len(inked)


def _read_again(grey: Image.Image, cells: list[tuple[int, int]], inks: dict, height: int, languages, dpi, omp,
                path: Path) -> dict[tuple[int, int], str | None] | None:
    """A number line that did not count read again, each way in turn until one counts: at its scanned size (the
    glyphs enlarged to `GLYPH_PX` are what Tesseract misread: Slovak data read a clear bold "51" as "91", and read it
    right unenlarged), then with `PLAIN_READER`'s data at that size and enlarged (ASCII digits are its script). The
    texts of the reading that counts, or None: the line stays unnumbered, as it was."""
    inked = [k for k in cells if inks.get(k) is not None]
    native = [_padded(inks[k], height, grey.size) for k in inked]
    canvas, boxes = enlarged(grey, native)
    ways = [(grey, native, max(8, height), languages)]
    if list(languages) != [PLAIN_READER] and PLAIN_READER in installed_languages():
        ways += [(grey, native, max(8, height), [PLAIN_READER]), (canvas, boxes, GLYPH_PX, [PLAIN_READER])]
    for n, (image, crops, gap, reader) in enumerate(ways):
        texts: dict[tuple[int, int], str | None] = dict(zip(inked, read_digits(image, crops, gap, reader, dpi, omp,
                                                                               path.with_suffix(f".again-{n}.pgm"))))
        readings = [int(t) if (t := texts.get(k)) else None for k in cells]
        if counting_run(readings) is not None or counted_blocks(readings) is not None:
            return texts
    return None


def _next_number_cell(table: list[Band], band: int, column: list[tuple[int, int]]) -> int:
    """Where a number column's answers end in `band`: at the next number column's cell there (the band's
    end when there is none)."""
    return min((c for b, c in column if b == band), default=len(table[band].cells))


def _first_numbered(values, band: int, count: int) -> int | None:
    """The first cell of a band that reads as a number (a grid row's label cell comes before it)."""
    return next((c for c in range(count) if values.get((band, c)) is not None), None)


def _counts_too(table: list[Band], band: int, values: dict[tuple[int, int], int]) -> bool:
    """Whether a band counts up by one across: no grid's answer row does, but both rows of a number | answer pairs
    table two rows deep do ("1 | в | 3 | г" over "2 | б | 4 | г"), place for place with every other cell unread."""
    return counting_run([values.get((band, c)) for c in range(len(table[band].cells))]) is not None


def _chained_columns(table: list[Band], values: dict[tuple[int, int], int]) -> list[tuple[list[tuple[int, int]], list[int]]]:
    """`numbering.chained_columns` over the table's columns, left to right, below its header (the bands above the
    first number read)."""
    top = min((b for b, _ in values), default=len(table))
    columns = [sorted(k for k in column if k[0] >= top)
               for column in sorted(table_columns(table), key=lambda col: table[col[0][0]].cells[col[0][1]][0])]
    return chained_columns(columns, values, MIN_NUMBERS)


def _page_label(words: list[Word], cell: Box, labels: Sequence[str]) -> tuple[str, float] | None:
    """The one page word centred in `cell`, where it is a label read at `PAGE_LABEL_MIN_CONF` or more: (text, confidence)."""
    inside = [w for w in words if _centre_in(w, cell)]
    if len(inside) == 1 and inside[0].text in labels and inside[0].conf >= PAGE_LABEL_MIN_CONF:
        return inside[0].text, inside[0].conf
    return None


def _answer_like(boxes: list[Box | None]) -> bool:
    """Whether the inked cells of a candidate answer line each hold about one glyph (a label), as a key's do."""
    inked = [b for b in boxes if b is not None]
    return bool(inked) and sum(_one_glyph(b) for b in inked) >= ANSWER_MIN_SHARE * len(boxes)


def _padded(box: Box | None, height: int, size: tuple[int, int]) -> Box:
    """A cell's ink with white around it (Tesseract misreads a glyph cropped tight), inside the page (a
    crop past its edge is black)."""
    assert box is not None
    across, down = max(2, round(PAD_ACROSS * height)), max(2, round(PAD_DOWN * height))
    return max(0, box[0] - across), max(0, box[1] - down), min(size[0], box[2] + across), min(size[1], box[3] + down)


def _cell_box(band: Band, cell: int, ink: Box | None) -> Box:
    """Where a cell's word stands: across, the middle half of the cell (whole cells touch, and touching
    words are joined into one); down, its ink (a blank cell: the middle of the row), so that the line's
    size is its glyphs' and the layout parts a row's label from its cells as it parts any wide gap."""
    left, right = band.cells[cell]
    quarter = (right - left) // 4
    if ink is not None:
        return left + quarter, ink[1], right - quarter, ink[3]
    middle, half = (band.top + band.bottom) // 2, max(1, round(BLANK_HALF_HEIGHT * (band.bottom - band.top)))
    return left + quarter, middle - half, right - quarter, middle + half
