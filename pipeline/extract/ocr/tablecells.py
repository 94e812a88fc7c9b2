"""Ruled answer-key tables read cell by cell from their geometry: grids (a row of question numbers over
a row of answers), lists in ruled columns, and tables with one answer column per booklet type.

Tesseract's page reading glues a grid's cells into one word ("BDBB", "10111213"), drops lone letters
between rules and misreads a circled ① as "D1" or "@"; nothing then pairs an answer with its number.
Here the table's rules say where each cell is, and each cell is read with the alphabet it holds:
1. rules: horizontal rules (straight dark runs, `engine.straight_runs`) bound the table's rows; in each
   row band, columns dark over nearly its whole height are the cell rules (a row with horizontal rules
   only is cut at its white gutters);
2. numbers: every inked cell is read against the digits; a row whose cells count up by one is a number
   row (a grid), a column that counts up down the bands is a number column (a list or booklet table).
   Numbers take the run's values (a misread digit in a counting run is the number its place gives);
3. answers: the cells under a number row's cells, or right of a number column's cells, are read
   against the option labels, and once more with no whitelist (a model may lose a letter to one: the
   Greek "Δ"), a reading kept only where all its letters stand for one label; labels that are enclosed
   digits, ①–⑤, by the ring found by its shape on the scan and its inside read as option labels are
   (`labelrings.read_ring_cells`), checked against the digit read with its ring where less sure;
   the bands above a number column are its header (booklet types: "Typ A"), read as text cell by cell;
4. a cell whose answer stays unread (or is blank) comes back as `UNREAD_CELL`, at its place, so no
   answer moves to another question; the parse stage reports it for its question.
Cells are read in strips of at most `engine.MAX_STRIP_WIDTH` pixels, never the table as one image.
"""
from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from PIL import Image

from pipeline.extract.document import UNREAD_CELL
from pipeline.extract.ocr.cellshapes import match_own_shapes
from pipeline.extract.ocr.engine import KEY_CELL_PSM, parse_tsv, read_strip, run_tesseract, straight_runs, strip_groups
from pipeline.extract.ocr.keycells import read_cells_free, read_label_cells
from pipeline.extract.ocr.labelrings import read_ring_cells
from pipeline.extract.ocr.labels import script_label_shapes
from pipeline.extract.ocr.numbering import chained_columns, counted_blocks
from pipeline.extract.ocr.shading import table_ink
from pipeline.extract.ocr.words import INK_BELOW, Word, ink_runs

RULE_INK_BELOW = 170  # grey level: a blurred thin rule of a 150 dpi scan stays under it
RULE_MIN_INCHES = 0.3  # a horizontal dark run this long is a rule
RULE_MAX_INCHES = 0.03  # a rule is at most this thick (a filled bar is no rule: `gridcells` reads those)
ROW_INCHES = (0.12, 0.7)  # height of a table row between two rules
CELL_RULE_SHARE = 0.85  # of a band's inner height a column is dark over to be a cell rule
MIN_CELLS = 3  # cells in a band before it is a table row
CELL_MIN_INK = 0.004  # of a cell's inner pixels dark for it to hold a glyph
COUNT_MIN_SHARE = 0.7  # of a line's numbers read that must be the number their place in the run gives
LABEL_CELL_WIDTH = 1.6  # typical cell widths: a wider cell in a number row is the row's label
MIN_NUMBERS = 3  # number cells in a run before it is a key's numbering
SINGLE_GLYPH_ASPECT = 1.6  # an answer cell's ink is about one glyph: at most this wide for its height
ANSWER_MIN_SHARE = 0.6  # of a candidate answer line's inked cells that must look like one glyph
VOIDED_MARKS = "-*"  # an answer cell may hold an annulled question's mark instead of a label
GLYPH_PX = 150  # an answer cell's crop is enlarged to about this height before it is read
PAD_ACROSS, PAD_DOWN = 0.3, 0.15  # white around a cell's ink in its crop, in row heights
RING_KEEP = 0.7
# A ring's inside read at least this sure by shape stands; less sure, its digit is read with the ring
# too (300 dpi, blur 0.8: ⑤ read by shape as ② at 62, right as ⑤ at 31-51; 97 where right and clear).
RING_SURE = 80.0
SHAPE_SURE = 80.0  # a cell read at least this sure is a prototype of its label's glyph (`cellshapes`), and is not judged by shape
FREE_MIN_CONF = 60.0  # an answer cell read with no whitelist: a label read at least this sure is taken (Greek cells: 86–93)
RING_MIN_CONF = 80.0  # a digit read with its ring whitened is taken only this sure (it misread ④ as 3 on blurred scans)
ONE_STROKE_ASPECT = 0.45  # a 1 inside a ring: its ink at most this wide for its height  # of an enclosed label's ring radius: the ink inside is its digit
# Line numbers of the words this pass writes (one per table row): `held_apart` tells them from the rest.
BLANK_HALF_HEIGHT = 0.25  # of its row's height: half the height of the word written for a blank cell
STACK_PSM = 6  # number cells are read stacked, one per line, as one block
LINE_BASE = 60_000
LINE_SPAN = 1_000_000
TALLER_THAN_ROW = 1.5  # of a row's height: a word this tall inside a ruled table spans rows: no cell's text
RULE_REACH = 0.25  # of a row's height: a word centred this close to the rule between two rows stands on it

Box = tuple[int, int, int, int]


@dataclass(frozen=True)
class Band:
    """One table row between two horizontal rules: its inner top and bottom, and its cells' [left, right)."""

    top: int
    bottom: int
    cells: tuple[tuple[int, int], ...]


def _rules(dark: np.ndarray, dpi: int) -> list[tuple[int, int, int, int]]:
    """(top, bottom, left, right) of each horizontal rule: thin rows of long straight dark runs."""
    covered = straight_runs(dark, max(20, round(RULE_MIN_INCHES * dpi)), axis=1)
    found = []
    for top, bottom in ink_runs(covered.any(axis=1), 1):
        if bottom - top > max(2, round(RULE_MAX_INCHES * dpi)):
            continue
        for left, right in ink_runs(covered[top:bottom].any(axis=0), 2):
            found.append((top, bottom, left, right))
    return found


def table_bands(grey: np.ndarray, dpi: int, dark: np.ndarray | None = None) -> list[Band]:
    """The row bands of the page's ruled tables, top to bottom, each with its cells (`dark`: the page's
    table ink, `shading.table_ink`, when the caller has it)."""
    dark = table_ink(grey, RULE_INK_BELOW, dpi) if dark is None else dark
    rules = sorted(_rules(dark, dpi))
    low, high = (round(v * dpi) for v in ROW_INCHES)
    bands: list[Band] = []
    for index, (_top, bottom, left, right) in enumerate(rules):
        # The next rule below that spans the same columns closes this row.
        below = next((r for r in rules[index + 1:] if r[0] > bottom and min(right, r[3]) - max(left, r[2]) > 0.8 * (right - left)), None)
        if below is None or not low <= below[0] - bottom <= high:
            continue
        # A little past the rules' ends: the table's outer cell rules stand on them.
        reach = max(3, dpi // 50)
        inner_left, inner_right = max(0, max(left, below[2]) - reach), min(dark.shape[1], min(right, below[3]) + reach)
        band = dark[bottom:below[0], inner_left:inner_right]
        cells = _cells(band, dpi)
        if len(cells) >= MIN_CELLS:
            bands.append(Band(bottom, below[0], tuple((inner_left + l, inner_left + r) for l, r in cells)))
    return bands


def _cells(band: np.ndarray, dpi: int) -> list[tuple[int, int]]:
    """[left, right) of the cells of one row band: between its cell rules, or else between white gutters."""
    height = band.shape[0]
    margin = max(1, height // 8)
    inner = band[margin:height - margin]
    rule_columns = inner.mean(axis=0) >= CELL_RULE_SHARE
    rules = ink_runs(rule_columns, 1)
    if len(rules) >= MIN_CELLS:
        edges = [r for _, r in rules[:-1]], [l for l, _ in rules[1:]]
        return [(l, r) for l, r in zip(*edges) if r - l > max(4, dpi // 50)]
    # Rules across only: the row's glyph groups, parted by white at least half the row's height wide.
    groups = ink_runs(inner.any(axis=0), max(2, height // 2))
    return [(max(0, l - height // 4), min(band.shape[1], r + height // 4)) for l, r in groups]


def _ink_box(dark: np.ndarray, band: Band, cell: tuple[int, int]) -> Box | None:
    """The ink of a cell, inside its rules (a pixel row and column of each rule left out), or None."""
    pad = max(1, (band.bottom - band.top) // 12)
    top, bottom, left, right = band.top + pad, band.bottom - pad, cell[0] + pad, cell[1] - pad
    if bottom <= top or right <= left:
        return None
    inside = dark[top:bottom, left:right]
    if inside.mean() < CELL_MIN_INK:
        return None
    rows, columns = np.flatnonzero(inside.any(axis=1)), np.flatnonzero(inside.any(axis=0))
    return left + int(columns[0]), top + int(rows[0]), left + int(columns[-1]) + 1, top + int(rows[-1]) + 1


def _counting_run(values: list[int | None]) -> list[int] | None:
    """The numbers of a line whose readings count up by one, as its place gives each; or None. Most
    readings (`COUNT_MIN_SHARE`) must be their place's number: a misread digit ("23" for 25) or a number
    unread then takes its place's, and a line of other numbers (a data table's) is no run."""
    read = [(i, v) for i, v in enumerate(values) if v is not None]
    if len(read) < MIN_NUMBERS or len(values) < MIN_NUMBERS:
        return None
    offsets = [v - i for i, v in read]
    start = max(set(offsets), key=offsets.count)
    if offsets.count(start) < max(MIN_NUMBERS, COUNT_MIN_SHARE * len(read)) or start < 0:
        return None
    return [start + i for i in range(len(values))]


def enclosed_digits(labels: Sequence[str]) -> dict[str, str] | None:
    """{digit: label} when every label is a digit in a ring or box (① … ⑤, ❶, ➀), else None."""
    found = {}
    for label in labels:
        if len(label) != 1 or label.isascii():
            return None
        digit = unicodedata.digit(label, None)
        if digit is None:
            return None
        found[str(digit)] = label
    return found


def _inside_ring(grey: Image.Image, box: Box) -> Image.Image | None:
    """The crop at `box` with the ring around an enclosed digit whitened: only the ink within
    `RING_KEEP` of the ring's radius from its centre stays (the digit); None for a crop without ink."""
    crop = np.asarray(grey.crop(box)).copy()
    ink = crop < INK_BELOW
    rows, columns = np.flatnonzero(ink.any(axis=1)), np.flatnonzero(ink.any(axis=0))
    if rows.size == 0:
        return None
    centre_y, centre_x = (rows[0] + rows[-1]) / 2, (columns[0] + columns[-1]) / 2
    radius = max(rows[-1] - rows[0], columns[-1] - columns[0]) / 2
    ys, xs = np.mgrid[0:crop.shape[0], 0:crop.shape[1]]
    crop[np.hypot(ys - centre_y, xs - centre_x) > RING_KEEP * radius] = 255
    return Image.fromarray(crop)


def _read_numbers(grey: Image.Image, boxes: list[Box], gap: int, languages, dpi, omp, path: Path,
                  digits: str = "0123456789", min_conf: float = -1.0) -> list[int | None]:
    """Each crop's number, or None (see `_read_digits`)."""
    return [int(text) if text else None for text in _read_digits(grey, boxes, gap, languages, dpi, omp, path, digits, min_conf)]


def _read_digits(grey: Image.Image, boxes: list[Box], gap: int, languages, dpi, omp, path: Path,
                 digits: str = "0123456789", min_conf: float = -1.0, marks: str = "") -> list[str | None]:
    """Each crop's number, or None: the crops one under another, read as lines of digits (psm 6). Side by
    side in one line, Tesseract glued neighbouring cells' numbers into one ("414243444514…"). `marks`:
    characters a number may end with ("." of "12."), allowed (left out, a "." was read as a digit) and kept in the text."""
    values: list[str | None] = []
    for group in strip_groups(boxes, gap):  # as many crops as one image of `MAX_STRIP_WIDTH` pixels holds, stacked
        width = max(r - l for l, _, r, _ in group) + 2 * gap
        tops, y = [], gap
        for _, top, _, bottom in group:
            tops.append(y)
            y += (bottom - top) + gap
        stack = Image.new("L", (width, y), 255)
        for box, top in zip(group, tops):
            stack.paste(grey.crop(box), (gap, top))
        read = parse_tsv(run_tesseract(stack, languages, dpi, omp_thread_limit=omp, psm=STACK_PSM, whitelist=digits + marks))
        for (_, top, _, bottom), offset in zip(group, tops):
            inside = [w for w in read if offset - gap / 2 <= (w.top + w.bottom) / 2 < offset + (bottom - top) + gap / 2]
            text = inside[0].text if len(inside) == 1 else ""
            sure = text.rstrip(marks).isdigit() and inside[0].conf >= min_conf
            values.append(text if sure else None)
    return values


def _read_answers(grey: Image.Image, boxes: list[Box], labels: Sequence[str], gap: int, languages, dpi, omp,
                  path: Path, psm: int = KEY_CELL_PSM, *, scanned: np.ndarray | None = None) -> list[tuple[str, float] | None]:
    """Each answer cell's label and confidence, or None where it stays unread (`psm`: how the strips of
    labels are taken). Ringed labels are looked for by shape on `scanned` (the page as scanned: preparing
    it whitens a thin ring of a 150 dpi scan). Then the cells are matched against the table's own surely
    read cells (`cellshapes.match_own_shapes`): an unread cell takes the label its glyph clearly is, an
    unsure one that clearly is another label's glyph is left unread."""
    answers = _read_cells(grey, boxes, labels, gap, languages, dpi, omp, path, psm, scanned=scanned)
    page = scanned if scanned is not None else np.asarray(grey)
    return match_own_shapes([page[top:bottom, left:right] for left, top, right, bottom in boxes], answers, SHAPE_SURE)


def _read_cells(grey: Image.Image, boxes: list[Box], labels: Sequence[str], gap: int, languages, dpi, omp,
                path: Path, psm: int = KEY_CELL_PSM, *, scanned: np.ndarray | None = None) -> list[tuple[str, float] | None]:
    """Each answer cell's label and confidence as the recognisers read it, or None (see `_read_answers`)."""
    ringed = enclosed_digits(labels)
    by_shape = read_ring_cells(scanned, boxes, labels, languages, dpi, omp) if ringed and scanned is not None else [None] * len(boxes)
    grey, boxes = _enlarged(grey, boxes)
    gap = GLYPH_PX // 2
    if ringed is None:
        # Both cases: a lone "C", "S" or "Ο" has no x-height to tell its case by, and Tesseract read the
        # small one where only the capital was allowed, which the whitelist turned into nothing.
        as_label = {variant: label for label in labels for variant in (label, label.lower(), label.upper()) if len(variant) == 1}
        as_label.update({mark: mark for mark in VOIDED_MARKS})
        allowed = list(as_label)
        readings = {i: (as_label.get(text, ""), conf) for i, (text, conf) in
                    read_label_cells(grey, boxes, allowed, gap, languages, dpi, omp, path, psm=psm).items()}
        answers = [readings[i] if readings.get(i, ("", 0.0))[0] else None for i in range(len(boxes))]
        _read_free(answers, grey, boxes, as_label, languages, dpi, omp)
        for index, box in enumerate(boxes):
            # A letter the strips left unread, read alone: grey, then black on white at its own threshold.
            for image in ([grey, _own_threshold(grey, box)] if answers[index] is None else []):
                alone = read_label_cells(image, [box], allowed, gap, languages, dpi, omp, path.with_name(f"{path.stem}-{index}.pgm"),
                                         retry=False, psm=psm)
                if alone.get(0, ("", 0.0))[0] in as_label:
                    answers[index] = (as_label[alone[0][0]], alone[0][1])
                    break
        return answers
    # Rings found by shape on the scan are read as option labels are (`labelrings.read_ring_cells`). The
    # others, and rings read so less than `RING_SURE`, read together, stacked, against their digits:
    # Tesseract reads the digit inside a ring it cannot name. Two readings that differ leave the cell
    # unread (reported for its question, never a guess); one alone stands. A ring still unread that
    # holds one upright stroke is a 1.
    rest = [i for i, shaped in enumerate(by_shape) if shaped is None or shaped[1] < RING_SURE]
    answers: list[tuple[str, float] | None] = list(by_shape)
    if not rest:
        return answers
    digits = "".join(sorted(ringed))
    values = _read_numbers(grey, [boxes[i] for i in rest], gap, languages, dpi, omp, path.with_suffix(".rings.pgm"), digits)
    unread = [j for j, v in enumerate(values) if v is None]
    inner = {j: _inside_ring(grey, boxes[rest[j]]) for j in unread}
    bare = [j for j in unread if inner[j] is not None]
    if bare:
        # Unread rings read again with the ring whitened: the digit alone, as a digit is printed.
        canvas, placed = _side_by_side([inner[j] for j in bare])  # type: ignore[misc]
        again = _read_numbers(canvas, placed, gap, languages, dpi, omp, path.with_suffix(".digits.pgm"), digits, min_conf=RING_MIN_CONF)
        values = [v if j not in bare else again[bare.index(j)] for j, v in enumerate(values)]
    for j, value in enumerate(values):
        ring = _inside_ring(grey, boxes[rest[j]]) if value is None else None
        shaped = answers[rest[j]]
        if value is not None and str(value) in ringed:
            agree = shaped is None or shaped[0] == ringed[str(value)]
            answers[rest[j]] = (ringed[str(value)], 80.0) if agree else None
        elif shaped is None and ring is not None and "1" in ringed and _one_stroke(np.asarray(ring) < INK_BELOW):
            answers[rest[j]] = (ringed["1"], 0.0)
    return answers


def _read_free(answers: list[tuple[str, float] | None], grey: Image.Image, boxes: list[Box], as_label: dict[str, str],
               languages, dpi, omp) -> None:
    """`answers` completed by the cells read once more with no whitelist (`keycells.read_cells_free`):
    a reading that is a label, or a look-alike of one in the languages' data (`label_shapes`), at least
    `FREE_MIN_CONF` sure, fills a cell left unread, or replaces another label read less surely (the
    whitelist made Tesseract's Greek model read a lone "Δ" as "Α" or "Γ", or as nothing)."""
    lookalikes = script_label_shapes(languages)[1]
    readable = as_label | {seen: as_label[meant] for seen, meant in lookalikes.items() if meant in as_label}
    free = read_cells_free(grey, boxes, readable, languages, dpi, omp)
    for index, (label, conf) in free.items():
        before = answers[index]
        if label and conf >= FREE_MIN_CONF and (before is None or (before[0] != label and conf > before[1])):
            answers[index] = (label, conf)


def _one_stroke(ink: np.ndarray) -> bool:
    """Whether the ink is one upright stroke (a 1): its columns' span narrow for its rows' span."""
    rows, columns = np.flatnonzero(ink.any(axis=1)), np.flatnonzero(ink.any(axis=0))
    if rows.size == 0:
        return False
    height, width = rows[-1] - rows[0] + 1, columns[-1] - columns[0] + 1
    return height >= 4 and width <= ONE_STROKE_ASPECT * height


def _enlarged(grey: Image.Image, boxes: list[Box]) -> tuple[Image.Image, list[Box]]:
    """The crops side by side on one canvas, each enlarged so that its ink is about `GLYPH_PX` tall, and
    their boxes there: Tesseract left a clear lone "C" 30 pixels tall unread, and read it enlarged."""
    scaled = []
    for left, top, right, bottom in boxes:
        factor = max(1.0, GLYPH_PX / max(1, bottom - top))
        crop = grey.crop((left, top, right, bottom))
        scaled.append(crop.resize((round(crop.width * factor), round(crop.height * factor)), Image.Resampling.LANCZOS))
    return _side_by_side(scaled)


def _side_by_side(scaled: list[Image.Image]) -> tuple[Image.Image, list[Box]]:
    """Images pasted side by side on one white canvas, and their boxes there."""
    canvas = Image.new("L", (sum(c.width for c in scaled), max(c.height for c in scaled)), 255)
    placed, x = [], 0
    for crop in scaled:
        canvas.paste(crop, (x, 0))
        placed.append((x, 0, x + crop.width, crop.height))
        x += crop.width
    return canvas, placed


def _own_threshold(grey: Image.Image, box: Box) -> Image.Image:
    """The crop at `box` black on white, cut halfway between its ink and its paper (a pale or blurred
    letter that the strip's grey lost), pasted on a white page of the same size."""
    crop = np.asarray(grey.crop(box))
    cut = (int(crop.min()) + int(np.median(crop))) / 2
    page = Image.new("L", grey.size, 255)
    page.paste(Image.fromarray(np.where(crop < cut, 0, 255).astype(np.uint8)), box[:2])
    return page


def _read_text(grey: Image.Image, boxes: list[Box], gap: int, languages, dpi, omp, path: Path) -> list[str]:
    offsets, read = read_strip(grey, boxes, gap, languages, dpi, omp, path, binarise=False)
    texts = []
    for (left, _, right, _), offset in zip(boxes, offsets):
        inside = sorted((w for w in read if offset - 2 <= (w.left + w.right) / 2 <= offset + (right - left) + 2), key=lambda w: w.left)
        texts.append(" ".join(w.text for w in inside))
    return texts


def _one_glyph(box: Box | None) -> bool:
    return box is not None and (box[2] - box[0]) <= SINGLE_GLYPH_ASPECT * (box[3] - box[1])


def _columns(bands: list[Band]) -> list[list[tuple[int, int]]]:
    """(band index, cell index) of each column: cells whose centres lie within half a cell of each other."""
    columns: list[list[tuple[int, int]]] = []
    centres: list[float] = []
    for b, band in enumerate(bands):
        for c, (left, right) in enumerate(band.cells):
            middle = (left + right) / 2
            at = next((k for k, x in enumerate(centres) if abs(x - middle) < (right - left) / 2), None)
            if at is None:
                columns.append([(b, c)])
                centres.append(middle)
            else:
                columns[at].append((b, c))
    return columns


def _tables(bands: list[Band]) -> list[list[Band]]:
    """Bands grouped into tables: a band joins the table above when it starts where that table's last band ends."""
    tables: list[list[Band]] = []
    for band in bands:
        last = tables[-1][-1] if tables else None
        if last is not None and band.top - last.bottom <= max(4, (last.bottom - last.top) // 3):
            tables[-1].append(band)
        else:
            tables.append([band])
    return tables


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
    for t, table in enumerate(_tables(bands)):
        placed = _read_table(grey, dark, table, labels, languages, dpi, omp_thread_limit, folder / f"table-{t}", scanned=array)
        if not placed:
            continue
        # Every page word over the cells read goes, a word glued across two cells' rule included.
        spans = _band_spans(table, [(box, band) for box, _, (band, _) in placed])
        # A word of no letter or digit anywhere in the table's rows is a rule's remnant ("|" at a label
        # cell's edge, read between a grid's number row and its answer row, parted the two).
        rows = [(band.cells[0][0], band.top, band.cells[-1][1], band.bottom) for band in table]
        result = [w for w in result if not any(_centre_in(w, span) for span in spans)
                  and not (not any(ch.isalnum() for ch in w.text) and any(_centre_in(w, row) for row in rows))
                  and not _on_a_rule(w, table)]
        for box, text, (band_index, conf) in placed:
            line = LINE_BASE + t * 1000 + band_index
            added.append(Word(text, conf, box[0], box[1], box[2], box[3], (line, 0, 0)))
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
                path: Path, *, scanned: np.ndarray | None = None) -> list[tuple[Box, str, tuple[int, float]]]:
    """(cell box, text, (band index, confidence)) of each number, answer and header cell of one table."""
    inks = {(b, c): _ink_box(dark, band, cell) for b, band in enumerate(table) for c, cell in enumerate(band.cells)}
    inked = [key for key, box in inks.items() if box is not None]
    if not inked:
        return []
    height = int(np.median([band.bottom - band.top for band in table]))
    gap = max(8, height)
    canvas, boxes = _enlarged(grey, [_padded(inks[k], height, grey.size) for k in inked])
    texts = dict(zip(inked, _read_digits(canvas, boxes, GLYPH_PX, languages, dpi, omp, path.with_suffix(".numbers.pgm"))))
    values = {key: int(text) for key, text in texts.items() if text}
    numbers: dict[tuple[int, int], int] = {}
    answers: list[tuple[int, int]] = []
    header: list[tuple[int, int]] = []
    # A grid: number rows, their answers in the band below, cell under cell.
    for b, band in enumerate(table):
        run = _counting_run([values.get((b, c)) for c in range(len(band.cells))]) if b + 1 < len(table) else None
        first = _first_numbered(values, b, len(band.cells))
        if run is None or first is None:
            continue
        # The row's own cells: a cell far wider than the row's typical one is its label ("Questão", "문항").
        typical = float(np.median([r - l for l, r in band.cells]))
        row = [(b, c) for c in range(first, len(band.cells)) if band.cells[c][1] - band.cells[c][0] <= LABEL_CELL_WIDTH * typical]
        run = _counting_run([values.get(k) for k in row])
        under = [_under(table, b + 1, band.cells[c]) for _, c in row]
        if run is None or _counts_too(table, b + 1, values) or not _answer_like([inks.get((b + 1, c)) if c is not None else None for c in under]):
            continue
        for (key, value, below) in zip(row, run, under):
            numbers[key] = value
            if below is not None:
                answers.append((b + 1, below))
    if not numbers:
        # A list or booklet table: number columns, each with its answers right of it up to the next number
        # column in each band (pairs of "Nr | Odp." side by side), a header above.
        runs: list[tuple[list[tuple[int, int]], list[int]]] = []
        for column in _columns(table):
            column.sort()
            # The bands above its first number are the table's header ("Nr", "Typ A").
            first = next((i for i, k in enumerate(column) if values.get(k) is not None), len(column))
            column = column[first:]
            readings = [values.get(k) for k in column]
            run = _counting_run(readings) or counted_blocks(readings)  # a key of the closed questions only: blocks
            if run is not None:
                runs.append(([k for k, n in zip(column, run) if n is not None], [n for n in run if n is not None]))
        runs = runs or _chained_columns(table, values)
        runs.sort(key=lambda found: table[found[0][0][0]].cells[found[0][0][1]][0])
        for index, (column, run) in enumerate(runs):
            after = runs[index + 1][0] if index + 1 < len(runs) else []
            candidates = [(b, d) for b, c in column for d in range(c + 1, _next_number_cell(table, b, after))]
            if not candidates or not _answer_like([inks.get(k) for k in candidates]):
                continue
            numbers.update(dict(zip(column, run)))
            answers += candidates
            top_band = min(b for b, _ in column)
            header += [(b, c) for b in range(top_band) for c in range(len(table[b].cells))
                       if inks.get((b, c)) and (b, c) not in header]
    if not numbers:
        return []
    placed: list[tuple[Box, str, tuple[int, float]]] = []
    # A number keeps its printed form ("01"); one the run mended is written as its neighbours are.
    padded = [len(text) for key in numbers if (text := texts.get(key)) and text.startswith("0")]
    width = max(set(padded), key=padded.count) if padded else 0
    for (b, c), value in numbers.items():
        read_as = texts.get((b, c))
        text = read_as if read_as and int(read_as) == value else str(value).zfill(width)
        placed.append((_cell_box(table[b], c, inks.get((b, c))), text, (b, 95.0)))
    answer_inked = [k for k in answers if inks.get(k) is not None]
    read = dict(zip(answer_inked, _read_answers(grey, [_padded(inks[k], height, grey.size) for k in answer_inked], labels, gap,
                                                languages, dpi, omp, path.with_suffix(".answers.pgm"), scanned=scanned))) if answer_inked else {}
    for b, c in answers:
        reading = read.get((b, c))
        placed.append((_cell_box(table[b], c, inks.get((b, c))), reading[0] if reading else UNREAD_CELL, (b, reading[1] if reading else -1.0)))
    if header:
        texts = _read_text(grey, [_padded(inks[k], height, grey.size) for k in header], gap, languages, dpi, omp, path.with_suffix(".header.pgm"))
        placed += [(_cell_box(table[b], c, inks.get((b, c))), text, (b, 90.0)) for (b, c), text in zip(header, texts) if text]
    return placed


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
    return _counting_run([values.get((band, c)) for c in range(len(table[band].cells))]) is not None


def _chained_columns(table: list[Band], values: dict[tuple[int, int], int]) -> list[tuple[list[tuple[int, int]], list[int]]]:
    """`numbering.chained_columns` over the table's columns, left to right, below its header (the bands above the
    first number read)."""
    top = min((b for b, _ in values), default=len(table))
    columns = [sorted(k for k in column if k[0] >= top)
               for column in sorted(_columns(table), key=lambda col: table[col[0][0]].cells[col[0][1]][0])]
    return chained_columns(columns, values, MIN_NUMBERS)


def _under(table: list[Band], band: int, cell: tuple[int, int]) -> int | None:
    """The cell of `band` under `cell` (its centre within the cell's span), or None."""
    middle = (cell[0] + cell[1]) / 2
    return next((c for c, (l, r) in enumerate(table[band].cells) if l <= middle < r), None)


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
