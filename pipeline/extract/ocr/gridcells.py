"""Grid answer keys read cell by cell: a row of question numbers over a row of answer letters (the
FGV and INEP keys), often white digits on a dark fill over pale letters in boxes. Tesseract reads such
a row as one glued word ("BABCBDADCDCBABBÃD") and the number row as junk ("1121314150 16017118/9");
nothing then pairs an answer with its number.

A Tesseract line made mostly of the option labels and at least `GRID_MIN_CELLS` letters long is an
answer row. Its band of the page is cut into letters by the white between them, and the letters are
read again together, with the option labels as the only allowed output. The line above it, where it
sits over the same columns, is its number row: inverted when it is dark (white digits on a fill), its
cell rules erased, cut into numbers by the white between them and read with digits only. Each row comes
back as one word per cell at the cell's place, so the parse stage pairs numbers and answers by x as
it does on a text layer; a cell that stays unreadable comes back as `UNREAD_CELL` ("?"), which keeps
the cells after it in their places and is reported for its question.
"""
from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import numpy as np
from PIL import Image

from pipeline.extract.document import UNREAD_CELL
from pipeline.extract.ocr.bandspecks import band_specks, with_halo
from pipeline.extract.ocr.cellreads import SHAPE_SURE
from pipeline.extract.ocr.cellshapes import match_own_shapes, unlike_their_own
from pipeline.extract.ocr.engine import read_strip
from pipeline.extract.ocr.numbering import anchored_mends
from pipeline.extract.ocr.widegaps import sets_no_word_spaces
from pipeline.extract.ocr.words import Word, ink_runs, words_by_line

GRID_MIN_CELLS = 8  # letters in a row before it is taken for a grid key's answer row
# Share of its letters (accents folded: "Ã" is a misread "A") that are labels: a glued row of pale
# letters came back as "DDADBEBBÃLCÃOÕOZC…", 67 % labels; prose has about 22 % a–d.
GRID_MIN_LABEL_SHARE = 0.5
RUN_MIN_SHARE = 0.7  # of a filled bar's neighbouring cells that count up by one for it to be a number row
GRID_MIN_CAPITALS = 0.8  # where the labels are capitals, of the row's letters
# Where the labels are letters of a script without case (kana `ア`–`エ`), no capitals tell a key's row from text, and
# labels must be this share of the row's letters: an option row `ア ７１０年 イ ７９４年 …` is half labels.
GRID_MIN_CASELESS_SHARE = 0.8
ROW_LABEL_WIDTH = 2.5  # median cell widths: a wider glyph group in a row is the row's label
CELL_GAP = 0.12  # band heights of white that part two letters (or two numbers) of a row
NUMBER_GAP = 0.25  # band heights of white that part two numbers (digits of one number sit closer)
DARK_BAND = 128  # median grey under which a band is a dark fill with light text
VOIDED_MARKS = "-*"  # what an answer cell may hold besides a label: the mark of an annulled question
GLYPH_CONTRAST = 30  # grey levels under the ground a pixel needs to count toward the glyphs' ink level
RULE_SHARE = 0.85  # a column inked over this share of the band's height is a cell rule, not a glyph
SPECK_COLUMN_PX = 1  # ink pixels a column of a band may hold and still count as white between glyphs
RULE_EDGE = 0.1  # band heights beside a rule its blurred edge may reach (`_without_rules`)
ROW_RULE_SHARE = 0.6  # a row inked over this share of the band's width is a table rule
BOXED_ROW_SHARE = 0.5  # of the band's height: table rules at least this far apart are the top and bottom of a row of boxes
STRIP_GAP = 3.0  # band heights of white between crops in the strip Tesseract reads
# An annulled question's "-" in an answer cell, which Tesseract reads as nothing: the cell's one stroke
# of ink (specks aside) is flat, wider than tall, and stands in the middle of the row's glyph height.
DASH_MAX_HEIGHT = 0.3  # of the row's glyph height
DASH_MIN_PIXELS = 6
DASH_MIN_WIDTH = 0.25  # of the row's glyph height: narrower flat ink is a speck of the scan
DASH_SPECKS = 0.25  # other ink in the cell, as a share of the stroke's pixels, that still counts as specks
# An annulled question's mark ("-", "*") is a small glyph: its largest stroke is no taller than this share of
# the row's typical glyph. A cell read as a mark whose ink stands as tall as the row's letters is a letter
# Tesseract misread with the marks allowed (a pale "C" read as "*" at 200 dpi): it is read again against the
# labels alone, and stays unread (reported for its question) where they name none: never an annulment.
MARK_MAX_HEIGHT = 0.7
ONE_GLYPH_WIDTH = 1.4  # of an answer row's median cell width: a cell no wider holds one glyph, so one label at most


def _folded(text: str) -> str:
    return "".join(ch for ch in unicodedata.normalize("NFKD", text) if not unicodedata.combining(ch))


def caseless_labels(labels: Sequence[str], languages: Sequence[str]) -> bool:
    """Every label is one letter of a script without case (kana, Han), on a page in a language set without word spaces
    (`widegaps.sets_no_word_spaces`): nothing but their share tells a row of them. Hangul labels (`가`–`라`, a spaced
    script) keep `GRID_MIN_LABEL_SHARE`: not measured with the stricter share."""
    return bool(labels) and all(len(label) == 1 and label.isalpha() and label.upper() == label.lower() for label in labels) \
        and sets_no_word_spaces(languages)


def _answer_rows(words: list[Word], labels: Sequence[str], caseless: bool = False) -> list[list[Word]]:
    """The words of each answer row: a Tesseract line mostly of label letters (capitals where the labels
    are), with the other lines on its row (Tesseract splits a row at a wide cell: "BB" | "DDADB…")."""
    wanted = {label.casefold() for label in labels if len(label) == 1}
    capitals = all(label.isupper() for label in labels if len(label) == 1 and label.isalpha())
    share = GRID_MIN_CASELESS_SHARE if caseless else GRID_MIN_LABEL_SHARE
    lines = list(words_by_line(words).values())
    rows: list[list[Word]] = []
    for members in lines:
        letters = [ch for ch in _folded("".join(w.text for w in members)) if ch.isalpha()]
        if len(letters) < GRID_MIN_CELLS or sum(ch.casefold() in wanted for ch in letters) < share * len(letters):
            continue
        if capitals and sum(ch.isupper() for ch in letters) < GRID_MIN_CAPITALS * len(letters):
            continue  # prose that happens to be rich in a, b, c, d
        if any(members[0] in row for row in rows):
            continue
        top, bottom = min(w.top for w in members), max(w.bottom for w in members)
        rows.append([w for line in lines for w in line if _shares_row(line, top, bottom)])
    return rows


def _shares_row(line: list[Word], top: int, bottom: int) -> bool:
    line_top, line_bottom = min(w.top for w in line), max(w.bottom for w in line)
    return min(bottom, line_bottom) - max(top, line_top) > 0.5 * min(bottom - top, line_bottom - line_top)


def _cells(band: np.ndarray, gap: float) -> list[tuple[int, int]]:
    """[left, right) of each glyph group of a binary band (True = ink), parted by white of `gap` band
    heights; the table's rules (rows or columns inked nearly end to end) are left out first."""
    return [(left, right) for left, right in _glyph_runs(band, gap) if right - left >= _min_cell_width(band)]


def _glyph_runs(band: np.ndarray, gap: float) -> list[tuple[int, int]]:
    height, width = band.shape
    boxes = _boxed_rows(band)
    ink = band & ~(band.sum(axis=1) > ROW_RULE_SHARE * width)[:, None]
    profile = (_without_rules(ink) if boxes is None else _without_rules(ink[boxes[0]:boxes[1]])).sum(axis=0)
    # A column inked in one row only is a speck or a fill's edge row run on past a rule: no glyph, and left it
    # split the white between two numbers.
    return ink_runs(profile > SPECK_COLUMN_PX, max(1, round(gap * height)))


def _boxed_rows(band: np.ndarray) -> tuple[int, int] | None:
    """[top, bottom) of the rows between a row of ruled boxes' top and bottom rules (rows inked across, at least
    `BOXED_ROW_SHARE` of the band apart), or None. A band under a number fill reaches past ruled answer boxes: the cell
    rules stand as tall as the boxes, not the band, and the glyphs lie between the two rules."""
    ruled = np.flatnonzero(band.sum(axis=1) > ROW_RULE_SHARE * band.shape[1])
    if ruled.size < 2 or ruled[-1] - ruled[0] < BOXED_ROW_SHARE * band.shape[0]:
        return None
    inner = [run for run in ink_runs(~np.isin(np.arange(band.shape[0]), ruled), 0) if ruled[0] < run[0] and run[1] <= ruled[-1]]
    return max(inner, key=lambda run: run[1] - run[0]) if inner else None


def _without_rules(ink: np.ndarray) -> np.ndarray:
    """The band's ink less its cell rules: columns inked over `RULE_SHARE` of its height, with the blurred
    edge each keeps beside it. A scan's blur leaves a rule (or a white gutter between dark number boxes, ink
    once the band is inverted) a column or two of grey on each side, inked in some rows only; left, they
    stood as 1 px stubs in the white between two numbers and halved it, so neighbours joined into one cell
    ("1213", 594 px cells on a blurred INEP key). A column beside a rule whose every inked pixel touches the
    rule's ink on the same row is part of the rule; a glyph standing clear of the rule is never touched."""
    height = ink.shape[0]
    rule = ink.sum(axis=0) > RULE_SHARE * height
    cleared = ink & ~rule[None, :]
    reach = max(1, round(RULE_EDGE * height))
    for step in (-1, 1):
        edge = rule.copy()
        for _ in range(reach):
            beside = np.roll(edge, step)  # columns right (step 1) or left (step -1) of the rule so far
            beside[0 if step == 1 else -1] = False
            inner = np.roll(ink & edge[None, :], step, axis=1)  # the rule side's ink, shifted onto those columns
            inner[:, 0 if step == 1 else -1] = False
            stub = beside & ~edge & cleared.any(axis=0) & ~(cleared & ~inner).any(axis=0)
            if not stub.any():
                break
            cleared[:, stub] = False
            edge |= stub
    return cleared


ROW_GAP = 0.1  # band heights of white rows that part the row's glyphs from a line above or below


def _one_glyph_row(band: np.ndarray) -> np.ndarray:
    """The band's inkiest run of glyph rows alone: a note printed just under a key's last row ("- Anulada",
    under the row's label and its first cell) reaches into its band, and its ink would join the label and
    the first letter into one group too wide for a cell. Table rules (rows inked across) are no glyphs."""
    glyphs = band & ~(band.sum(axis=1) > ROW_RULE_SHARE * band.shape[1])[:, None]
    runs = ink_runs(glyphs.any(axis=1), max(1, round(ROW_GAP * band.shape[0])))
    if len(runs) < 2:
        return band
    upper, lower = max(runs, key=lambda run: int(glyphs[run[0]:run[1]].sum()))
    kept = np.zeros_like(band)
    kept[upper:lower] = band[upper:lower]
    return kept


def _min_cell_width(band: np.ndarray) -> int:
    return max(2, round(0.12 * band.shape[0]))  # narrower ink is a speck, or a dash (`_dashes`)


def _band(grey: np.ndarray, top: int, bottom: int, left: int, right: int) -> tuple[np.ndarray, int, int, bool]:
    """The binary ink of a band (inverted first when it is a dark fill, cut to the fill's rows), its
    top and bottom, and whether it was a dark fill."""
    patch = grey[top:bottom, left:right]
    dark = float(np.median(patch)) < DARK_BAND
    if dark:
        fill = np.flatnonzero(np.median(patch, axis=1) < DARK_BAND)
        top, bottom = top + int(fill[0]), top + int(fill[-1]) + 1
        patch = 255 - grey[top:bottom, left:right]
    # Halfway between the glyphs' ink (the median of the pixels clearly darker than the ground) and
    # the ground (the fill on a dark band; white or a light cell fill on a light one): pale grey letters
    # count as ink, a light blue cell does not, however little of the band the glyphs cover. Rows of a neighbouring
    # dark fill caught in a light band (the number row above) are no glyphs.
    glyph_rows = np.ones(patch.shape[0], dtype=bool) if dark else np.median(patch, axis=1) >= DARK_BAND
    ground = float(np.median(patch[glyph_rows] if glyph_rows.any() else patch))  # white, or a light cell fill
    candidates = patch[(patch < ground - GLYPH_CONTRAST) & glyph_rows[:, None]]
    ink = float(np.median(candidates)) if candidates.size else ground - 2 * GLYPH_CONTRAST
    return (patch < (ink + ground) / 2) & glyph_rows[:, None], top, bottom, dark


def _read_row(
    grey: Image.Image, box: tuple[int, int, int, int], gap: float, whitelist: str, languages, dpi, omp, path: Path
) -> list[Word]:
    left, top, right, bottom = box
    array = np.asarray(grey)
    band, top, bottom, dark = _band(array, top, bottom, left, right)
    specks = band_specks(band)
    band = _one_glyph_row(band & ~specks)
    cells = _cells(band, gap)
    if len(cells) < GRID_MIN_CELLS:
        return []
    # A row's label ("Questão", "Gabarito") is a group far wider than the cells: not a cell.
    typical = float(np.median([r - l for l, r in cells]))
    cells = [(l, r) for l, r in cells if r - l <= ROW_LABEL_WIDTH * typical]
    source = Image.fromarray(255 - array[top:bottom, left:right]) if dark else grey.crop(box)
    if dark:
        source = source.point(lambda v: 0 if v < 128 else 255)  # the fill's grain would read as ink
    if specks.any():  # read without the specks: a speck beside a glyph reads as a mark
        pixels = np.array(source)
        pixels[with_halo(specks)] = 255 if dark else int(np.median(pixels))
        source = Image.fromarray(pixels)
    upper, lower = _glyph_rows(band, dark)
    crops = [(l, upper, r, lower) for l, r in cells]
    strip_gap = round(STRIP_GAP * (lower - upper))
    offsets, read = read_strip(source, crops, strip_gap, languages, dpi, omp, path, whitelist, binarise=False)
    readings = [_one_reading(crop, offset, read) for crop, offset in zip(crops, offsets)]
    letter_sized = _letter_sized([band[upper:lower, l:r] for l, r in cells]) if set(whitelist) & set(VOIDED_MARKS) else [False] * len(cells)
    labels_only = "".join(ch for ch in whitelist if ch not in VOIDED_MARKS)
    black_on_white = Image.fromarray(np.where(band, 0, 255).astype(np.uint8))
    for index, crop in enumerate(crops):
        reading = readings[index]
        if reading is not None and letter_sized[index] and reading.text in VOIDED_MARKS:
            readings[index] = None  # a letter read as a mark: read again against the labels alone
        if readings[index] is None:
            # Two cells read as one word, or a pale letter read as nothing: the cell is read on its own.
            # Grey first, then black on white at the band's own threshold (pale letters survive it,
            # where the strip's fixed threshold of 140 drops a grey 165).
            for image in (source, black_on_white):
                alone, alone_read = read_strip(
                    image, [crop], strip_gap, languages, dpi, omp, path.with_name(f"{path.stem}-{index}.pgm"),
                    labels_only if letter_sized[index] else whitelist, binarise=False
                )
                readings[index] = _one_reading(crop, alone[0], alone_read)
                if readings[index] is not None:
                    break
        if readings[index] is None and "-" in whitelist and _is_dash(band[upper:lower, crop[0]:crop[2]]):
            readings[index] = Word("-", 0.0, 0, 0, 0, 0, (0, 0, 0))  # a cell wide enough, read as nothing
    if set(whitelist) & set(VOIDED_MARKS):
        readings = _one_glyph_one_label(readings, crops)
    words = [
        Word(r.text if r else UNREAD_CELL, r.conf if r else -1.0, left + crop[0], top + crop[1], left + crop[2], top + crop[3], (0, 0, 0))
        for crop, r in zip(crops, readings)
    ]
    if "-" in whitelist:
        dashes = _dashes(band[upper:lower], gap, _min_cell_width(band))
        words += [Word("-", 0.0, left + l, top + upper, left + r, top + lower, (0, 0, 0)) for l, r in dashes]
        words.sort(key=lambda w: w.left)
    return words


def _glyph_rows(band: np.ndarray, dark: bool = False) -> tuple[int, int]:
    """[upper, lower) of the rows a row's cells are cropped to: the inkiest run of the band's rows once its rules are
    out, a little margin kept. Crops reach only as high as the glyphs: a neighbouring fill's edge, or a table rule
    above or below the letters, misleads Tesseract. The rules go first, the rows inked across (`ROW_RULE_SHARE`) and
    the cell rules with their blur (`_without_rules`): a box's cell rules ink every row of the band, so a rule across
    (or a fill's soft edge caught in the band's first row, inked over only half its width) stood joined to the letters
    by them, and a scanned key's last row (no bar below to end its band) was read with its box's rules in every crop:
    `B ? B A D A ? …` for `D B B A D A B …` at 205 dpi. Between a row of boxes' two rules the glyphs are looked for
    between them (`_boxed_rows`), and a band without any rule across is cropped to its inked rows, both as before; a
    band with one rule across (a box's rule below, the one above missing or only partly inked) is looked at between its
    first and last inked rows, so that cell rules which end with the table (white below a key's last row) still stand
    over their share of its height. A band with no rule across is looked at the same way where, its cell rules out, its
    ink stands in runs apart (a tilted scan's box rules cross the band's rows, inked over short pieces only, joined to
    the letters by the cell rules: a "C" cropped with a rule's piece above and below it was read "E" at 255 dpi, tilted
    0.7°, sure); a band whose ink is one run is cropped to its inked rows, as before, and so is a `dark` one (a number
    row on a fill, inverted: `_band` cut it to the fill's own rows, and no box rule crosses them; cropped to its
    inkiest run, a filled key's first number row at 165 dpi lost a number and its answers)."""
    inked = np.flatnonzero(band.any(axis=1))
    boxes = _boxed_rows(band)
    if boxes is None and not (band.sum(axis=1) > ROW_RULE_SHARE * band.shape[1]).any():
        extent = (int(inked[0]), int(inked[-1]) + 1)
        glyphs = _without_rules(band[extent[0]:extent[1]])
        runs = ink_runs(glyphs.any(axis=1), max(1, round(ROW_GAP * band.shape[0])))
        if len(runs) > 1 and not dark:  # pieces of rules apart from the letters once the cell rules are out
            first, last = max(runs, key=lambda run: int(glyphs[run[0]:run[1]].sum()))
            return max(extent[0], extent[0] + first - 2), min(extent[1], extent[0] + last + 2)
        return max(0, int(inked[0]) - 2), min(band.shape[0], int(inked[-1]) + 3)  # no rule across: the glyphs' rows, as inked
    if boxes is None:
        boxes = (int(inked[0]), int(inked[-1]) + 1)
        inside = band[boxes[0]:boxes[1]]
        glyphs = _without_rules(inside & ~(inside.sum(axis=1) > ROW_RULE_SHARE * band.shape[1])[:, None])
    else:
        glyphs = _without_rules(band[boxes[0]:boxes[1]])
    runs = ink_runs(glyphs.any(axis=1), max(1, round(ROW_GAP * band.shape[0])))
    if not runs:
        return max(0, int(inked[0]) - 2), min(band.shape[0], int(inked[-1]) + 3)
    first, last = max(runs, key=lambda run: int(glyphs[run[0]:run[1]].sum()))
    return max(boxes[0], boxes[0] + first - 2), min(boxes[1], boxes[0] + last + 2)


def _one_glyph_one_label(readings: list[Word | None], crops: list[tuple[int, int, int, int]]) -> list[Word | None]:
    """`readings` of an answer row with each reading of several letters in a cell no wider than one glyph's
    (`ONE_GLYPH_WIDTH` of the row's median cell) left unread: a speck grown onto a letter's stroke reads as a second
    letter ("DB" for a specked "D"), and which of the two was printed no reading says."""
    typical = float(np.median([right - left for left, _, right, _ in crops]))
    return [None if r is not None and len(r.text) > 1 and crop[2] - crop[0] <= ONE_GLYPH_WIDTH * typical else r
            for r, crop in zip(readings, crops)]


def _dashes(glyph_band: np.ndarray, gap: float, min_cell_width: int) -> list[tuple[int, int]]:
    """[left, right) of the annulled questions' dashes in an answer row's glyph band: ink groups too
    narrow for a letter cell whose ink is one flat stroke (Tesseract reads a lone "-" as nothing)."""
    narrow = [(l, r) for l, r in _glyph_runs(glyph_band, gap) if r - l < min_cell_width]
    return [(l, r) for l, r in narrow if _is_dash(glyph_band[:, max(0, l - 2):r + 2])]


def _is_dash(cell: np.ndarray) -> bool:
    """Whether a cell's ink (its rows as high as the row's glyphs) is one dash: its largest stroke flat,
    at least twice as wide as tall, in the middle of the glyph height, and nothing else but specks."""
    strokes = _strokes(cell)
    if not strokes:
        return False
    main = max(strokes, key=len)
    rows, columns = [r for r, _ in main], [c for _, c in main]
    height, width = max(rows) - min(rows) + 1, max(columns) - min(columns) + 1
    middle = (max(rows) + min(rows)) / 2 / cell.shape[0]
    others = sum(len(s) for s in strokes) - len(main)
    return (len(main) >= DASH_MIN_PIXELS and height <= DASH_MAX_HEIGHT * cell.shape[0] and width >= 2 * height
            and width >= DASH_MIN_WIDTH * cell.shape[0] and 0.25 <= middle <= 0.8 and others <= DASH_SPECKS * len(main))


def _letter_sized(cells: list[np.ndarray]) -> list[bool]:
    """For each cell of a row, whether its largest stroke stands taller than `MARK_MAX_HEIGHT` of the row's
    typical glyph (the median over its inked cells): too tall for an annulled question's mark."""
    heights = [_stroke_height(cell) for cell in cells]
    inked = [h for h in heights if h]
    typical = float(np.median(inked)) if inked else 0.0
    return [bool(typical) and h > MARK_MAX_HEIGHT * typical for h in heights]


def _stroke_height(cell: np.ndarray) -> int:
    strokes = _strokes(cell)
    if not strokes:
        return 0
    rows = [r for r, _ in max(strokes, key=len)]
    return max(rows) - min(rows) + 1


def _strokes(ink: np.ndarray) -> list[list[tuple[int, int]]]:
    """The 8-connected groups of ink pixels of a small crop (a cell: a few hundred pixels at most)."""
    seen = np.zeros_like(ink, dtype=bool)
    groups = []
    for start in zip(*np.nonzero(ink)):
        if seen[start]:
            continue
        seen[start] = True
        group, stack = [], [start]
        while stack:
            r, c = stack.pop()
            group.append((int(r), int(c)))
            for dr in (-1, 0, 1):
                for dc in (-1, 0, 1):
                    nr, nc = r + dr, c + dc
                    if 0 <= nr < ink.shape[0] and 0 <= nc < ink.shape[1] and ink[nr, nc] and not seen[nr, nc]:
                        seen[nr, nc] = True
                        stack.append((nr, nc))
        groups.append(group)
    return groups


def _one_reading(crop: tuple[int, int, int, int], offset: int, read: list[Word]) -> Word | None:
    inside = [r for r in read if offset - 2 <= (r.left + r.right) / 2 <= offset + (crop[2] - crop[0]) + 2]
    return inside[0] if len(inside) == 1 else None


def _under_numbers(letters: list[Word], numbers: list[Word]) -> list[Word]:
    """One answer cell under each number: the letter whose centre lies in the number's column, or
    `UNREAD_CELL` where none does (a blank or unreadable box), so that no answer slides onto the next
    question when the parse stage pairs them; letters under no number are kept, for the parse stage
    to report."""
    centres = [(n.left + n.right) / 2 for n in numbers]
    pitch = float(np.median(np.diff(centres))) if len(centres) > 1 else float(numbers[0].right - numbers[0].left)
    owner = {id(w): min(range(len(numbers)), key=lambda i: abs(centres[i] - (w.left + w.right) / 2)) for w in letters}
    placed: dict[int, Word] = {}
    # A column holds one answer: the letter read nearest its centre, before a dash, before any piece read
    # as nothing (a cell rule the row's cut took for a cell of its own, a speck); a dash or a piece read as
    # nothing is dropped where its column has its answer. Taken in the row's order, the rule right of a
    # letter had replaced it ("?" for 4 of every 20 answers of a scanned FGV key, the letters left over,
    # a rule's blurred stub read as a dash beside them) and the row was no answer row.
    for w in sorted(letters, key=lambda w: (w.text == UNREAD_CELL, w.text in VOIDED_MARKS, abs(centres[owner[id(w)]] - (w.left + w.right) / 2))):
        i = owner[id(w)]
        if abs(centres[i] - (w.left + w.right) / 2) <= pitch / 2 and i not in placed:
            placed[i] = w
    aligned = [
        placed.get(i) or Word(UNREAD_CELL, -1.0, round(c - pitch / 4), letters[0].top, round(c + pitch / 4), letters[0].bottom, (0, 0, 0))
        for i, c in enumerate(centres)
    ]
    unplaced = [w for w in letters if w not in placed.values()]
    # Within the row's columns every column now has its word, so a dash or a piece read as nothing left
    # over there (a rule between two columns: as far from either as half their pitch) is dropped.
    span = (centres[0] - pitch / 2, centres[-1] + pitch / 2)
    return aligned + [w for w in unplaced if not ((w.text == UNREAD_CELL or w.text in VOIDED_MARKS)
                                                  and span[0] <= (w.left + w.right) / 2 <= span[1])]


def _counts_up(numbers: list[Word]) -> bool:
    """Whether a row read as numbers is a grid's number row: enough cells, most one more than the last."""
    values = [int(w.text) if w.text.isdecimal() else None for w in numbers]
    steps = sum(1 for a, b in zip(values, values[1:]) if a is not None and b == a + 1)
    return len(values) >= GRID_MIN_CELLS and steps >= RUN_MIN_SHARE * (len(values) - 1)


def _numbered_run(numbers: list[Word]) -> list[Word]:
    """A grid's number row counts up by one from cell to cell: a number that breaks the run between
    neighbours that fit it ("7" between 70 and 72) is the one number that fits there, and keeps what was read
    (`Word.inferred_from`: inferred, not read; `numbering.inferred_notes`), anchored where the cells either side were
    read as the row counts (`numbering.anchored_mends`). At the row's ends a cell takes the count's number where its
    units digit is its place's ("18" for 78: the leading digit lost or misread); any other reading there stays."""
    values = [int(w.text) if w.text.isdecimal() else None for w in numbers]
    mended = list(numbers)
    # Where most of the row counts from one start, only cells read as it counts vouch for a neighbour: misread
    # neighbours ("18 19" for 78 79) count up among themselves and would mend the 80 after them into 20.
    counted = _row_count(values)
    anchors = values if counted is None else [v if v == counted + i else None for i, v in enumerate(values)]
    for index in range(len(values)):
        if counted is not None and values[index] == counted + index:
            continue  # read as the row counts
        before = anchors[index - 1] if index > 0 else None
        after = anchors[index + 1] if index + 1 < len(values) else None
        far = anchors[index + 2] if index + 2 < len(values) else None
        if before is not None and after is not None and after == before + 2:
            expected = before + 1
        elif before is None and after is not None and far == after + 1:
            expected = after - 1
        elif after is None and before is not None and index >= 2 and anchors[index - 2] == before - 1:
            expected = before + 1
        else:
            continue
        if values[index] != expected:
            values[index] = expected
            mended[index] = replace(numbers[index], text=str(expected), inferred_from=numbers[index].text)  # the run's, not read
    # Neighbours misread together ("13 14" for 73 74): where most cells count up from one start, a cell
    # between two cells that fit it takes the number its place gives. At the row's ends ("77 18 19 20" for
    # 77 78 79 80) only a reading whose units digit is its place's, its leading digit lost or misread, does:
    # the count says which number stands there, the units digit that the cell was read at its place.
    start = _row_count(values)
    if start is not None:
        fits = [v == start + i for i, v in enumerate(values)]
        for index, fit in enumerate(fits):
            inside = any(fits[:index]) and any(fits[index + 1:])
            if not fit and (inside or _leading_digit_lost(numbers[index].text, start + index)):
                mended[index] = replace(numbers[index], text=str(start + index), inferred_from=numbers[index].text)
    # A mend between two cells read as the row counts is anchored (`numbering.anchored_mends`): reported, not flagged.
    anchored = anchored_mends([w.text for w in numbers], [int(w.text) if w.text.isdecimal() else None for w in mended])
    return [replace(w, inferred_anchored=True) if i in anchored and w.inferred_from is not None else w for i, w in enumerate(mended)]


def _row_count(values: list[int | None]) -> int | None:
    """The number a row's first cell holds where most of its cells (`RUN_MIN_SHARE`) count up by one from it; or None."""
    offsets = [v - i for i, v in enumerate(values) if v is not None]
    if not offsets:
        return None
    start = max(set(offsets), key=offsets.count)
    return start if start >= 0 and offsets.count(start) >= RUN_MIN_SHARE * len(values) else None


def _leading_digit_lost(read: str, number: int) -> bool:
    """Whether `read` is `number` with its leading digit lost or misread ("18" or "8" for 78): no longer than it, and
    the same units digit."""
    return read.isdecimal() and len(read) <= len(str(number)) and read[-1] == str(number)[-1] and int(read) != number


Box = tuple[int, int, int, int]  # left, top, right, bottom in pixels
BAR_MIN_SHARE = 0.35  # of a row's pixels dark for it to be part of a filled number row
BAR_HEIGHT = (0.010, 0.06)  # of the page height: a filled number row's height
ANSWER_BELOW = 1.3  # number-row heights below a filled number row where its answers stand
BAR_EDGE_PX = 4  # pixels of a fill's blurred edge left out of the answer row above it
FILL_MIN_SHARE = 0.005  # of the page height: rows dark across at least this thick are a fill, thinner a rule


def _filled_rows(grey: np.ndarray) -> list[tuple[Box, Box]]:
    """(number box, answer box) of each number row printed on a dark fill bar, its answers below it."""
    height = grey.shape[0]
    dark = grey < DARK_BAND
    barred = dark.mean(axis=1) > BAR_MIN_SHARE
    bars = ink_runs(barred, 0)
    found = []
    for top, bottom in bars:
        if not BAR_HEIGHT[0] * height <= bottom - top <= BAR_HEIGHT[1] * height:
            continue
        columns = np.flatnonzero(dark[top:bottom].mean(axis=0) > 0.5)
        left, right = int(columns[0]), int(columns[-1]) + 1
        below = min(height, bottom + round(ANSWER_BELOW * (bottom - top)))
        # The answers end where the next bar (or any fill) begins, less its soft edge; a thin rule is no fill (the top rule
        # of answers in ruled boxes right under the bar closed their row before it began: no answer read).
        following = [start for start, end in ink_runs(barred[bottom:below], 0) if end - start >= FILL_MIN_SHARE * height]
        if following:
            below = bottom + max(1, following[0] - BAR_EDGE_PX)
        found.append(((left, top, right, bottom), (left, bottom, right, below)))
    return found


def _glued_rows(words: list[Word], labels: Sequence[str], width: int, height: int, caseless: bool = False) -> list[tuple[Box | None, Box]]:
    """(number box or None, answer box) of each answer row Tesseract read as glued label letters, its
    number row the Tesseract line right above it over the same columns."""
    by_line = words_by_line(words)
    found: list[tuple[Box | None, Box]] = []
    for answers in _answer_rows(words, labels, caseless):
        top, bottom = min(w.top for w in answers), max(w.bottom for w in answers)
        pad = round(0.25 * (bottom - top))
        left, right = min(w.left for w in answers), max(w.right for w in answers)
        box = (max(0, left - 2 * pad), max(0, top - pad), min(width, right + 2 * pad), min(height, bottom + pad))
        above = [
            members for members in by_line.values()
            if max(w.bottom for w in members) <= top and max(w.right for w in members) > left and min(w.left for w in members) < right
        ]
        number_box = None
        if above:
            header = max(above, key=lambda members: max(w.bottom for w in members))
            h_top, h_bottom = min(w.top for w in header), max(w.bottom for w in header)
            if top - h_bottom < 2 * (bottom - top):
                h_pad = round(0.25 * (h_bottom - h_top))
                number_box = (box[0], max(0, h_top - h_pad), box[2], min(top, h_bottom + h_pad))
        found.append((number_box, box))
    return found


def _overlaps(a: Box, b: Box) -> bool:
    return min(a[2], b[2]) > max(a[0], b[0]) and min(a[3], b[3]) > max(a[1], b[1])


def _inside(word: Word, box: Box | None) -> bool:
    if box is None:
        return False
    x, y = (word.left + word.right) / 2, (word.top + word.bottom) / 2
    return box[0] <= x <= box[2] and box[1] <= y <= box[3]


def read_grid_cells(
    grey: Image.Image,
    words: list[Word],
    labels: Sequence[str],
    languages: Sequence[str],
    dpi: int,
    omp_thread_limit: int | None,
    folder: Path,
    first_line: int,
) -> list[Word]:
    """`words` with each grid key's answer and number rows replaced by one word per cell (see the
    module's docstring), each row on its own line from `first_line` on; pages without such rows come back as they are."""
    filled = _filled_rows(np.asarray(grey))
    glued = [(n, a) for n, a in _glued_rows(words, labels, grey.width, grey.height, caseless_labels(labels, languages)) if not any(_overlaps(a, f[1]) for f in filled)]
    if not filled and not glued:
        return words
    label_set = "".join(sorted({label for label in labels if len(label) == 1}))
    kept, answer_words = list(words), []
    added: list[list[Word]] = []
    for index, (number_box, answer_box) in enumerate([*filled, *glued]):
        numbers = _numbered_run(
            _read_row(grey, number_box, NUMBER_GAP, "0123456789", languages, dpi, omp_thread_limit, folder / f"grid-{index}-n.pgm")
        ) if number_box else []
        if index < len(filled) and not _counts_up(numbers):
            continue  # a dark bar that is no row of question numbers: a banner, a table heading
        letters = _read_row(grey, answer_box, CELL_GAP, label_set + VOIDED_MARKS, languages, dpi, omp_thread_limit, folder / f"grid-{index}.pgm")
        if not letters:
            continue
        if numbers:
            letters = _under_numbers(letters, numbers)
        answer_words += letters
        kept = [w for w in kept if not _inside(w, answer_box) and not (numbers and _inside(w, number_box))]
        added += [row for row in (numbers, letters) if row]
    unsure = _unlike_their_label(np.asarray(grey), answer_words, label_set)
    rows = [[replace(w, text=UNREAD_CELL, conf=-1.0) if id(w) in unsure else w for w in row] for row in added]
    return kept + [replace(w, line=(first_line + n, 0, 0)) for n, row in enumerate(rows) for w in row]


def _unlike_their_label(page: np.ndarray, answers: list[Word], labels: str) -> set[int]:
    """The ids of the page's answer words (as `_read_row` gave them) whose glyph clearly matches another label's cells
    better than its own's, the labels' glyphs learnt from the page's surely read cells (`cellshapes.match_own_shapes`:
    one printer, one font, so a label looks alike in every cell). A specked "D" read "B" at 58 matched the grid's
    sure "D"s: it is left unread and reported for its question, never kept as another answer. So is a sure cell whose
    glyph stands apart from every other sure cell of its label (`cellshapes.unlike_their_own`): a "C" read "E" at 95
    on a page where no "C" was read sure."""
    read = [w for w in answers if w.text in labels and len(w.text) == 1 and w.right > w.left and w.bottom > w.top]
    cells = []
    for w in read:
        # A light letter on a dark fill is turned dark on light. The fill is told by the row around the cell (its
        # width either side): a bold letter cropped to its ink covers most of its own crop, and was turned as if on a fill.
        around = page[w.top:w.bottom, max(0, 2 * w.left - w.right):2 * w.right - w.left]
        crop = page[w.top:w.bottom, w.left:w.right]
        cells.append(255 - crop if float(np.median(around)) < DARK_BAND else crop)
    answers_read = [(w.text, w.conf) for w in read]
    checked = match_own_shapes(cells, answers_read, SHAPE_SURE)
    apart = unlike_their_own(cells, answers_read, SHAPE_SURE)
    return {id(w) for index, (w, after) in enumerate(zip(read, checked)) if after is None or index in apart}
