"""Answer-key tables: a second, block-mode pass around a page's one-letter cells (over the whole page
of a key), and each key cell read again on its own against the option labels when the page passes lost it.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import numpy as np
from PIL import Image

from pipeline.extract.ocr.engine import KEY_CELL_PSM, installed_languages, read_strip, run_tesseract, strip_groups
from pipeline.extract.ocr.segment import Region, read_stacked
from pipeline.extract.layout import clusters
from pipeline.extract.ocr.words import INK_BELOW, Word, isolated_short_words, overlap_share

# A page with this many one-word lines of up to three characters is read a second time around them, as blocks.
TABLE_PASS_MIN_ISOLATED = 8
# Around each cell the block pass sees this many text heights of its row on either side (a key's
# "15." beside its letter) and a text height above and below.
CELL_CONTEXT_ACROSS = 3.0
CELL_CONTEXT_DOWN = 1.0
# A page whose words are mostly this short is a key (numbers and letters: 0.71-0.92 of the words on the
# development keys, 0.27-0.39 on question and cover pages): its block pass reads the whole page, where
# a key's rows give psm 6 the context a cell's crop lacks (a "c" the crop read as "Cc").
KEY_PAGE_SHORT_SHARE = 0.6
TABLE_PASS_MIN_CONF = 60.0  # a block-pass word where the first pass saw nothing needs this confidence
TABLE_PASS_TRUST_CONF = 60.0  # a block-pass reading of a cell at least this confident replaces the first
# A block-pass word wider than this many of the cell's widths (or heights, for a narrow cell) spans its
# neighbours too: the heading "ΤΥΠΟΣ Β" read as the one word "ΤΥΠΟΣ" took the place of its lone "Β".
TABLE_PASS_RIVAL_WIDTH = 2.0
# A block-pass word that reads only part of a cell's word (its text inside the word's) and leaves at least this many of the
# word's heights of its box unread on one side lost glyphs the first pass read: an option grid's short words beside their
# rings (`② 계좌` block-read `좌`, `④ 대진대` `진대`). A glyph is about one height wide in wide scripts, half in Latin: a
# cell's stray mark beside its letter (`|A` read `A`) leaves less than this.
TABLE_PASS_UNREAD_HEIGHTS = 0.6


def table_areas(words: list[Word], cells: list[Word], text_height: float, width: int, height: int) -> list[Region]:
    """Where the block pass reads, on a page with at least TABLE_PASS_MIN_ISOLATED isolated short words
    (`cells`, from `isolated_short_words`): the whole page when it is a key (KEY_PAGE_SHORT_SHARE);
    elsewhere around each cell,
    CELL_CONTEXT_ACROSS text heights of its row either side and CELL_CONTEXT_DOWN above and below,
    widened to take in whole every word it cuts (psm 6 should see words, not slices of them); areas
    that meet are one (a table's cells become the table)."""
    if len(cells) < TABLE_PASS_MIN_ISOLATED:
        return []
    if sum(len(w.text) <= 3 for w in words) >= KEY_PAGE_SHORT_SHARE * len(words):
        return [Region(0, 0, width, height)]
    across, down = round(CELL_CONTEXT_ACROSS * text_height), round(CELL_CONTEXT_DOWN * text_height)
    boxes = [take_in_cut_words((c.left - across, c.top - down, c.right + across, c.bottom + down), words) for c in cells]
    merged: list[tuple[int, int, int, int]] = []
    for box in sorted(boxes):
        # A box that meets an area joins it; the grown area may then meet another.
        while True:
            meeting = next((m for m in merged if m[0] <= box[2] and box[0] <= m[2] and m[1] <= box[3] and box[1] <= m[3]), None)
            if meeting is None:
                break
            merged.remove(meeting)
            box = (min(box[0], meeting[0]), min(box[1], meeting[1]), max(box[2], meeting[2]), max(box[3], meeting[3]))
        merged.append(box)
    return [Region(max(l, 0), max(t, 0), min(r, width), min(b, height)) for l, t, r, b in sorted(merged, key=lambda m: (m[1], m[0]))]


def take_in_cut_words(box: tuple[int, int, int, int], words: list[Word]) -> tuple[int, int, int, int]:
    """`box` grown to take in whole every word it cuts (up to three rounds: a word taken in may cut another)."""
    left, top, right, bottom = box
    for _ in range(3):
        cut = [w for w in words if w.left < right and w.right > left and w.top < bottom and w.bottom > top]
        grown = (min([left] + [w.left for w in cut]), min([top] + [w.top for w in cut]),
                 max([right] + [w.right for w in cut]), max([bottom] + [w.bottom for w in cut]))
        if grown == (left, top, right, bottom):
            break
        left, top, right, bottom = grown
    return left, top, right, bottom


def read_table_areas(
    grey: Image.Image,
    areas: list[Region],
    text_height: float,
    languages: Sequence[str],
    dpi: int,
    omp_thread_limit: int | None,
) -> list[Word]:
    """The block-mode (psm 6) reading of the table areas, in page coordinates, in one Tesseract call.
    Only the areas: the same pass over the whole page cost 1.3–1.9 s on prose pages whose "cells" were
    a margin's instruction numbers and a few stray marks."""
    return [w for area in read_stacked(grey, areas, text_height, languages, dpi, omp_thread_limit) for w in area]


def merge_table_pass(page_pass: list[Word], block_pass: list[Word]) -> list[Word]:
    """Re-read table cells: Tesseract's automatic layout isolates each cell letter and misreads it
    ("A" as ">", "D" as "U" in the NÚCEM key table); reading the page as one block (psm 6) gets them
    right. An isolated short word takes the block reading at its place when that one is a letter or
    digit read with more confidence and no wider than the cell (`TABLE_PASS_RIVAL_WIDTH`); confident block-pass words where the first pass found nothing
    (letters on a coloured column) are added, each as its own line."""
    isolated = {id(w) for w in isolated_short_words(page_pass)}
    merged = []
    for word in page_pass:
        if id(word) in isolated:
            rivals = [
                b for b in block_pass
                if overlap_share(word, b) > 0.5 and b.text.isalnum() and (b.conf > word.conf or b.conf >= TABLE_PASS_TRUST_CONF)
                and b.right - b.left <= TABLE_PASS_RIVAL_WIDTH * max(word.right - word.left, word.bottom - word.top)
                and not reads_part_of(b, word)
            ]
            if rivals:
                best = max(rivals, key=lambda b: b.conf)
                word = replace(word, text=best.text, conf=best.conf, left=best.left, top=best.top, right=best.right, bottom=best.bottom)
            else:
                word = _glued_answer(word, block_pass) or word
        merged.append(word)
    extra_line = 10_000
    for b in block_pass:
        if b.text.isalnum() and b.conf >= TABLE_PASS_MIN_CONF and not any(overlap_share(b, w) > 0 for w in page_pass):
            extra_line += 1
            merged.append(replace(b, line=(extra_line, 0, 0)))
    return merged


def reads_part_of(rival: Word, word: Word) -> bool:
    """`rival` reads fewer of `word`'s glyphs and nothing else: its text lies inside `word`'s, and its box leaves a
    glyph's width of `word`'s unread (`TABLE_PASS_UNREAD_HEIGHTS`). Taking it would drop glyphs, not mend a misread."""
    if rival.text == word.text or rival.text not in word.text:
        return False
    unread = max(rival.left - word.left, word.right - rival.right)
    return unread >= TABLE_PASS_UNREAD_HEIGHTS * (word.bottom - word.top)


# A block-pass word that glued a row's number to its answer cell (`1:b`, `Số4:a`, `12.C`): the answer is what follows
# the number's mark, the word's last characters.
_GLUED_ANSWER = re.compile(r"\d[:.)]\s*(?P<answer>[^\W_]{1,3})$")
GLUED_END = 0.5  # the cell's right edge within this many cell heights of the glued word's


def _glued_answer(cell: Word, block_pass: list[Word]) -> Word | None:
    """The isolated short word `cell` read as the answer a block-pass word glued to its row's number, where that word
    covers the cell and ends where the cell ends (its answer is the cell) and is read with more confidence (or with
    `TABLE_PASS_TRUST_CONF`); the cell keeps its box. Tighter spacing than the page's makes psm 6 read a key's row
    `Số 1: b` as `Số`, `1:b`; the answer letter is then no rival of its own."""
    height = max(cell.bottom - cell.top, 1)
    for b in block_pass:
        found = _GLUED_ANSWER.search(b.text)
        if (found and b.left < cell.left and abs(b.right - cell.right) <= GLUED_END * height and overlap_share(cell, b) > 0.5
                and (b.conf > cell.conf or b.conf >= TABLE_PASS_TRUST_CONF) and found["answer"] != cell.text):
            return replace(cell, text=found["answer"], conf=b.conf)
    return None


_CELL_NUMBER = re.compile(r"^\d{1,3}\.?$")
KEY_CELL_MIN_ROWS = 5  # a key table has at least this many numbered rows
KEY_CELL_MIN_COLUMN = 3  # a key column has at least this many label cells read by the page passes
KEY_CELL_MAX_JUNK = 4  # a cell reading this short that is no label is a misread letter
KEY_CELL_MIN_INK = 0.01  # share of dark pixels a cell crop needs to hold a letter at all
FREE_STACK = 40  # crops read one under another in one image by `read_cells_free`
KEY_CELL_MIN_CONF = 15.0  # the whitelist leaves only labels; "C" comes back at 23–53 when right
# A word of several cells' letters read under this is placed by its character boxes, not one letter per
# cell it spans: read at 0, a 37-letter word of 37 cells had one letter dropped and another doubled, and
# every answer between them went to the next question.
KEY_CELL_SURE_WORD = 50.0


def _key_grid(words: list[Word], labels: Sequence[str]) -> tuple[list[Word], list[float], float] | None:
    """(row numbers, answer column centres, cell height) of an answer-key table on the page, or None.

    Rows are the numbers of a left-aligned column of isolated numbers ("01", "02", …); answer columns are
    x positions where several isolated label letters stand, right of the numbers."""
    isolated = isolated_short_words(words)
    numbers = [w for w in isolated if _CELL_NUMBER.match(w.text)]
    if len(numbers) < KEY_CELL_MIN_ROWS:
        return None
    height = sorted(w.bottom - w.top for w in numbers)[len(numbers) // 2]
    # Right edges: a speck glued to a number's left widens its box there ("01" from x=108, not 128).
    rights = max(clusters([w.right for w in numbers], height), key=len)
    if len(rights) < KEY_CELL_MIN_ROWS:
        return None
    # A speck on both sides ("61" from x=107 to 161, the others 128–141) still spans the common edge.
    edge = rights[len(rights) // 2]
    rows = [w for w in numbers if rights[0] <= w.right <= rights[-1] or w.left < edge < w.right]
    right_of_numbers = max(rights)
    centres = [(w.left + w.right) / 2 for w in isolated if len(w.text) == 1 and w.text in labels and w.left > right_of_numbers]
    columns = [sum(c) / len(c) for c in clusters(centres, height) if len(c) >= KEY_CELL_MIN_COLUMN]
    return (rows, columns, float(height)) if columns else None


def read_label_cells(
    grey: Image.Image,
    crops: list[tuple[int, int, int, int]],
    labels: Sequence[str],
    gap: int,
    languages: Sequence[str],
    dpi: int,
    omp_thread_limit: int | None,
    path: Path,
    *,
    retry: bool = True,
    psm: int = KEY_CELL_PSM,
) -> dict[int, tuple[str, float]]:
    """{crop index: (label, confidence)} for crops of `grey` that each hold one label letter, read side by
    side in one strip against the labels alone; ("", 0) for a crop two readings claimed. With `retry`,
    crops left unread get one more strip of their own: in company, Tesseract skipped a clear "A" of a
    key and a clear "C" of a row of label discs.

    A strip that leaves most of its crops unread (`AGAIN_BELOW`) is read again, and the reading that reads
    the most crops kept. Where it read some, with the space allowed besides the labels: under a whitelist
    without the space, Tesseract's Korean model reports every word of a line after its first at confidence
    0 ("가" 90, "나" 0, "다" 0: read right, all refused); allowed every time, the space cost a Spanish 150 dpi
    sheet's discs (options 80 -> 30 %). And labels that are all ASCII digits or Latin letters with the
    Latin data (`PLAIN_READER`), as `labelrings` reads a ring's inside: Turkish data read 3 of 20 digits
    1-5 on 150 dpi squares under the whitelist, where the Latin data read 15."""
    groups = strip_groups(crops, gap)
    if len(groups) > 1:
        # One strip at a time: the character boxes asked for below are the strip's in `path`.
        readings, start = {}, 0
        for group in groups:
            part = read_label_cells(grey, group, labels, gap, languages, dpi, omp_thread_limit, path, retry=retry, psm=psm)
            readings.update({start + i: reading for i, reading in part.items()})
            start += len(group)
        return readings
    whitelist = "".join(sorted(set("".join(labels))))
    readings = _read_label_strip(grey, crops, labels, whitelist, gap, languages, dpi, omp_thread_limit, path, retry, psm)
    read = sum(bool(label) for label, _ in readings.values())
    if read >= AGAIN_BELOW * len(crops):
        return readings
    again: list[tuple[str, Sequence[str]]] = []
    if " " not in whitelist and read:
        again.append((whitelist + " ", languages))
    if all(ch.isascii() for ch in whitelist) and list(languages) != [PLAIN_READER] and PLAIN_READER in installed_languages():
        again.append((whitelist, [PLAIN_READER]))
    for other_whitelist, other_languages in again:
        other = _read_label_strip(grey, crops, labels, other_whitelist, gap, other_languages, dpi, omp_thread_limit, path, retry, psm)
        if sum(bool(label) for label, _ in other.values()) > sum(bool(label) for label, _ in readings.values()):
            readings = other
    return readings


# A strip that reads fewer than this share of its crops is read again: with the space allowed (where it read some),
# and, for labels that are ASCII digits or Latin letters, with `PLAIN_READER`'s data.
AGAIN_BELOW = 0.5
PLAIN_READER = "eng"  # Tesseract's data for ASCII digits and Latin letters, installed with Tesseract itself


def _read_label_strip(
    grey: Image.Image,
    crops: list[tuple[int, int, int, int]],
    labels: Sequence[str],
    whitelist: str,
    gap: int,
    languages: Sequence[str],
    dpi: int,
    omp_thread_limit: int | None,
    path: Path,
    retry: bool,
    psm: int,
) -> dict[int, tuple[str, float]]:
    """`read_label_cells` for crops that fit one strip, read against `whitelist`."""
    offsets, read = read_strip(grey, crops, gap, languages, dpi, omp_thread_limit, path, whitelist, binarise=False, psm=psm)

    def crop_at(x: float) -> int | None:
        return next((i for i, ((left, _, right, _), offset) in enumerate(zip(crops, offsets)) if offset <= x < offset + right - left), None)

    # Tesseract may join neighbouring cells into one word ("CCBD…"): a word of as many letters as the
    # crops its box spans, read surely, gives one letter to each; any other word is placed letter by letter from
    # Tesseract's character boxes (a cell read as nothing shifted a 27-letter word off its crops).
    readings: dict[int, tuple[str, float]] = {}
    misaligned: list[Word] = []
    for r in read:
        if (r.conf < KEY_CELL_MIN_CONF and len(r.text) == 1) or not all(ch in labels for ch in r.text):
            continue
        spanned = [
            i for i, ((left, _, right, _), offset) in enumerate(zip(crops, offsets))
            if r.left < offset + (right - left) and r.right > offset
        ]
        if len(spanned) != len(r.text) or (len(r.text) > 1 and r.conf < KEY_CELL_SURE_WORD):
            misaligned.append(r)
            continue
        for i, ch in zip(spanned, r.text):
            readings[i] = (ch, r.conf) if i not in readings else ("", 0.0)  # read twice: trust neither
    if misaligned:
        boxes = run_tesseract(path, languages, dpi, omp_thread_limit=omp_thread_limit, psm=psm, whitelist=whitelist, output="makebox")
        for row in boxes.splitlines():
            fields = row.split()
            if len(fields) < 5 or fields[0] not in labels:
                continue
            centre = (int(fields[1]) + int(fields[3])) / 2
            owner = next((r for r in misaligned if r.left <= centre <= r.right), None)
            at = crop_at(centre)
            if owner is not None and at is not None:
                readings[at] = (fields[0], owner.conf) if at not in readings else ("", 0.0)
    missing = [i for i in range(len(crops)) if not readings.get(i, ("", 0.0))[0]]
    if retry and missing and len(missing) < len(crops):
        again = _read_label_strip(grey, [crops[i] for i in missing], labels, whitelist, gap, languages, dpi, omp_thread_limit, path,
                                  False, psm)
        readings.update({missing[j]: reading for j, reading in again.items() if reading[0]})
    return readings


def read_cells_free(
    grey: Image.Image,
    crops: list[tuple[int, int, int, int]],
    readable: dict[str, str],
    languages: Sequence[str],
    dpi: int,
    omp_thread_limit: int | None,
) -> dict[int, tuple[str, float]]:
    """{crop index: (label, confidence)} for crops of `grey` that each hold one label, read one under
    another (`segment.read_stacked`, `FREE_STACK` crops an image) with no whitelist: a language's model
    may lose a letter to a whitelist (Tesseract's Greek model reads a lone "Δ" at 91 without one, and
    nothing or "Α" with one, even with "Δ" the only character allowed); side by side in a line, it glued
    the letters of neighbouring cells. `readable` maps what may be read to its label (the labels in both
    cases, the script's look-alikes). A crop's one word whose letters all stand for one label is that
    label: a letter read twice ("Αα", "ὁὃ" for a lone "Δ") is one; marks of the cell's rules ("[", "|")
    are passed over. A crop read as two words, or as letters of two labels, stays unread."""
    readings: dict[int, tuple[str, float]] = {}
    height = float(np.median([bottom - top for _, top, _, bottom in crops])) if crops else 0.0
    for start in range(0, len(crops), FREE_STACK):
        group = [Region(*crop) for crop in crops[start : start + FREE_STACK]]
        for index, words in enumerate(read_stacked(grey, group, height, languages, dpi, omp_thread_limit), start):
            meant = {readable.get(ch) for word in words for ch in word.text if ch.isalnum()}
            if len(words) == 1 and len(meant) == 1 and None not in meant:
                readings[index] = (meant.pop() or "", words[0].conf)
    return readings


def read_key_cells(
    grey: Image.Image,
    words: list[Word],
    labels: Sequence[str],
    languages: Sequence[str],
    dpi: int,
    omp_thread_limit: int | None,
    folder: Path,
) -> list[Word]:
    """Re-read the answer cells of a key table one letter at a time, allowing only the option labels.

    Tesseract's page passes drop lone letters in table cells or read them as look-alikes ("A" as ">",
    "D" as "0"). Where a row's number is read, each answer column's cell that holds no label letter is
    cropped; the crops are stacked in one strip and read once with `tessedit_char_whitelist` set to the
    labels, so every reading is a label or nothing. A cell crop without ink (an empty cell) is never read.
    """
    grid = _key_grid(words, labels)
    if grid is None:
        return words
    rows, columns, height = grid
    ink = np.asarray(grey) < INK_BELOW
    crops: list[tuple[int, int, int, int]] = []
    replaced: set[int] = set()
    for row in rows:
        top, bottom = row.top - 0.35 * height, row.bottom + 0.35 * height
        for centre in columns:
            inside = [
                w for w in words
                if abs((w.left + w.right) / 2 - centre) < 1.2 * height and w.top < bottom and w.bottom > top
            ]
            if any(w.text in labels for w in inside):
                continue
            if any(len(w.text) > KEY_CELL_MAX_JUNK for w in inside):
                continue  # a word, not a misread cell letter ("ej", "E46"): leave it to the page passes
            box = (round(centre - 1.2 * height), round(top), round(centre + 1.2 * height), round(bottom))
            left, up, right, down = max(box[0], 0), max(box[1], 0), min(box[2], grey.width), min(box[3], grey.height)
            if right <= left or down <= up or ink[up:down, left:right].mean() < KEY_CELL_MIN_INK:
                continue
            crops.append((left, up, right, down))
            replaced.update(id(w) for w in inside)
    if not crops:
        return words
    readings = read_label_cells(grey, crops, labels, round(height), languages, dpi, omp_thread_limit, folder / "key-cells.pgm")
    result = [w for w in words if id(w) not in replaced]
    line = 20_000
    for i, (left, up, right, down) in enumerate(crops):
        text, conf = readings.get(i, ("", 0.0))
        if not text:
            continue
        line += 1
        result.append(Word(text=text, conf=conf, left=left, top=up, right=right, bottom=down, line=(line, 0, 0)))
    return result
