"""Key cells read from their crops, each with the alphabet it holds (`tablecells` and `listcells` read their
cells so): numbers as digits, the crops stacked one per line; answers against the option labels, enlarged,
in both cases, and once more with no whitelist (a model may lose a letter to one: the Greek "Δ"), a reading
kept only where all its letters stand for one label; labels that are enclosed digits, ①–⑤, by the ring found
by its shape on the scan and its inside read as option labels are (`labelrings.read_ring_cells`), checked
against the digit read with its ring where less sure; then matched against the table's own surely read
cells (`cellshapes.match_own_shapes`); header cells as text.
"""
from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from PIL import Image

from pipeline.extract.ocr.cellshapes import match_own_shapes
from pipeline.extract.ocr.companions import reading_languages
from pipeline.extract.ocr.engine import KEY_CELL_PSM, installed_languages, parse_tsv, read_strip, run_tesseract, stacked, strip_groups
from pipeline.extract.ocr.keycells import read_cells_free, read_label_cells
from pipeline.extract.ocr.labelrings import read_ring_cells
from pipeline.extract.ocr.labels import script_label_shapes
from pipeline.extract.ocr.words import INK_BELOW

VOIDED_MARKS = "-*"  # an answer cell may hold an annulled question's mark instead of a label
GLYPH_PX = 150  # an answer cell's crop is enlarged to about this height before it is read
RING_KEEP = 0.7  # of an enclosed label's ring radius: the ink inside is its digit
# A ring's inside read at least this sure by shape stands; less sure, its digit is read with the ring
# too (300 dpi, blur 0.8: ⑤ read by shape as ② at 62, right as ⑤ at 31-51; 97 where right and clear).
RING_SURE = 80.0
SHAPE_SURE = 80.0  # a cell read at least this sure is a prototype of its label's glyph (`cellshapes`), and is not judged by shape
FREE_MIN_CONF = 60.0  # an answer cell read with no whitelist: a label read at least this sure is taken (Greek cells: 86–93)
RING_MIN_CONF = 80.0  # a digit read with its ring whitened is taken only this sure (it misread ④ as 3 on blurred scans)
RING_READ_CONF = 80.0  # the confidence of a ring read by its digit where nothing contradicts the digit
# A ring's digit read with its ring (`rings`) and again with the ring whitened (`alone`): where they differ, the digit
# read with its ring stands where Tesseract read it at least `DIGIT_SURE`, and the digit alone replaces it where that
# was read at least `RING_MIN_CONF`, unsure (`CONTESTED_CONF`: its question is flagged). Generated list keys, tuning
# families (ko-row, ko-column, pl-ring-glued; 150-300 dpi, blur 0.4-0.8, 30 entries a key), 15 cells read as two
# labels: read under 90 with the ring and at 80 or more alone (4), the digit alone was right each time (a ringed ⑤
# read 1, 2 or 4 at 0-39, the ring's arc taken for a stroke; alone 81-97); read at 95-97 with the ring (8), the
# ring's digit was right each time (whitening cut a 150 dpi ③ into a "4" at 84-94); both under (3), the ring's digit
# was right 2 times in 3, so that disagreement makes no flag.
DIGIT_SURE = 90.0
CONTESTED_CONF = 0.0  # a ring whose digit alone replaced the one read with its ring: unsure by any policy, so its question is flagged
ONE_STROKE_ASPECT = 0.45  # a 1 inside a ring: its ink at most this wide for its height
STACK_PSM = 6  # number cells are read stacked, one per line, as one block

Box = tuple[int, int, int, int]


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


def _read_numbers(grey: Image.Image, boxes: list[Box], gap: int, languages, dpi, omp,
                  digits: str = "0123456789") -> list[tuple[int, float] | None]:
    """Each crop's number and Tesseract's confidence in it, or None (see `read_digits`)."""
    return [(int(read[0]), read[1]) if read else None for read in read_digit_confs(grey, boxes, gap, languages, dpi, omp, digits)]


def read_digits(grey: Image.Image, boxes: list[Box], gap: int, languages, dpi, omp, path: Path,
                digits: str = "0123456789", min_conf: float = -1.0, marks: str = "") -> list[str | None]:
    """Each crop's number, or None: the crops one under another, read as lines of digits (psm 6). Side by
    side in one line, Tesseract glued neighbouring cells' numbers into one ("414243444514…"). `marks`:
    characters a number may end with ("." of "12."), allowed (left out, a "." was read as a digit) and kept in the text.
    Digits are read with the companion script of `languages` too (`companions`): the Greek model read a clear `6` as `0`
    and a `5` as `2` where `eng` reads them right."""
    return [read[0] if read and read[1] >= min_conf else None for read in read_digit_confs(grey, boxes, gap, languages, dpi, omp, digits, marks)]


def read_digit_confs(grey: Image.Image, boxes: list[Box], gap: int, languages, dpi, omp, digits: str = "0123456789",
                     marks: str = "") -> list[tuple[str, float] | None]:
    """Each crop's number and Tesseract's confidence in it, or None (`read_digits`)."""
    languages = reading_languages(languages, installed_languages())
    values: list[tuple[str, float] | None] = []
    for group in strip_groups(boxes, gap):  # as many crops as one image of `MAX_STRIP_WIDTH` pixels holds, stacked
        stack, tops = stacked([grey.crop(box) for box in group], gap)
        read = parse_tsv(run_tesseract(stack, languages, dpi, omp_thread_limit=omp, psm=STACK_PSM, whitelist=digits + marks))
        for (_, top, _, bottom), offset in zip(group, tops):
            inside = [w for w in read if offset - gap / 2 <= (w.top + w.bottom) / 2 < offset + (bottom - top) + gap / 2]
            text = inside[0].text if len(inside) == 1 else ""
            values.append((text, inside[0].conf) if text.rstrip(marks).isdigit() else None)
    return values


def read_answers(grey: Image.Image, boxes: list[Box], labels: Sequence[str], gap: int, languages, dpi, omp,
                 path: Path, psm: int = KEY_CELL_PSM, *, scanned: np.ndarray | None = None) -> list[tuple[str, float] | None]:
    """Each answer cell's label and confidence, or None where it stays unread (`psm`: how the strips of
    labels are taken). Ringed labels are looked for by shape on `scanned` (the page as scanned: preparing
    it whitens a thin ring of a 150 dpi scan). Then the cells are matched against the table's own surely
    read cells (`cellshapes.match_own_shapes`): an unread cell takes the label its glyph clearly is, an
    unsure one that clearly is another label's glyph is left unread."""
    answers, overruled = _read_cells(grey, boxes, labels, gap, languages, dpi, omp, path, psm, scanned=scanned)
    page = scanned if scanned is not None else np.asarray(grey)
    cells = [page[top:bottom, left:right] for left, top, right, bottom in boxes]
    matched = match_own_shapes(cells, answers, SHAPE_SURE)
    if overruled:
        # A ring whose digit alone overruled its digit read with the ring: where its glyph, matched as an unread
        # cell, clearly is the label the ring's digit said, two readings of three agree on it and it stands.
        by_shape = match_own_shapes(cells, [None if i in overruled else a for i, a in enumerate(answers)], SHAPE_SURE)
        for index, label in overruled.items():
            if by_shape[index] is not None and by_shape[index][0] == label:  # type: ignore[index]
                matched[index] = (label, RING_READ_CONF)
    return matched


def _read_cells(grey: Image.Image, boxes: list[Box], labels: Sequence[str], gap: int, languages, dpi, omp,
                path: Path, psm: int = KEY_CELL_PSM, *, scanned: np.ndarray | None = None
                ) -> tuple[list[tuple[str, float] | None], dict[int, str]]:
    """Each answer cell's label and confidence as the recognisers read it, or None (see `read_answers`); and the rings
    whose digit alone overruled the digit read with the ring, each with the label the ring's digit read."""
    ringed = enclosed_digits(labels)
    by_shape = read_ring_cells(scanned, boxes, labels, languages, dpi, omp) if ringed and scanned is not None else [None] * len(boxes)
    grey, boxes = enlarged(grey, boxes)
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
        return answers, {}
    # Rings found by shape on the scan are read as option labels are (`labelrings.read_ring_cells`). The
    # others, and rings read so less than `RING_SURE`, read together, stacked, against their digits:
    # Tesseract reads the digit inside a ring it cannot name; and again with the ring whitened, the digit
    # alone as a digit is printed (`_ring_digit` weighs the two). A reading that differs from the shape's
    # leaves the cell unread (reported for its question, never a guess). A ring still unread that holds
    # one upright stroke is a 1.
    rest = [i for i, shaped in enumerate(by_shape) if shaped is None or shaped[1] < RING_SURE]
    answers: list[tuple[str, float] | None] = list(by_shape)
    if not rest:
        return answers, {}
    digits = "".join(sorted(ringed))
    with_ring = _read_numbers(grey, [boxes[i] for i in rest], gap, languages, dpi, omp, digits)
    inner = {j: _inside_ring(grey, boxes[rest[j]]) for j in range(len(rest))}
    # Read again with the ring whitened, apart (Tesseract reads each digit of a stack in its neighbours' company):
    # the rings left unread, and the rings read under `DIGIT_SURE`, to check them.
    unread = [j for j, read in enumerate(with_ring) if read is None]
    weak = [j for j, read in enumerate(with_ring) if read is not None and str(read[0]) in ringed and read[1] < DIGIT_SURE]
    whitened: dict[int, tuple[int, float] | None] = {}
    for group in (unread, weak):
        bare = [j for j in group if inner[j] is not None]
        if bare:
            canvas, placed = _side_by_side([inner[j] for j in bare])  # type: ignore[misc]
            whitened.update(zip(bare, _read_numbers(canvas, placed, gap, languages, dpi, omp, digits)))
    overruled: dict[int, str] = {}
    for j, index in enumerate(rest):
        read = _ring_digit(with_ring[j], whitened.get(j), ringed)
        shaped = answers[index]
        if read is not None:
            answers[index] = read if shaped is None or shaped[0] == read[0] else None
            ring_label = ringed.get(str(with_ring[j][0])) if with_ring[j] is not None else None  # type: ignore[index]
            if ring_label is not None and ring_label != read[0]:
                overruled[index] = ring_label
        elif with_ring[j] is None and shaped is None and inner[j] is not None and "1" in ringed \
                and _one_stroke(np.asarray(inner[j]) < INK_BELOW):
            answers[index] = (ringed["1"], 0.0)
    return answers, overruled


def _ring_digit(rings: tuple[int, float] | None, alone: tuple[int, float] | None,
                ringed: dict[str, str]) -> tuple[str, float] | None:
    """A ring's label and confidence from its digit read with the ring (`rings`) and with the ring whitened (`alone`;
    each the digit and Tesseract's confidence), or None. A digit read with its ring that is no label (`52`: the ring's
    arc read as a digit) is none. Read with the ring, the label stands at `RING_READ_CONF` unless the digit alone is
    another label read at least `RING_MIN_CONF` and the ring's digit was read under `DIGIT_SURE`: then the digit alone
    is taken, contested (`CONTESTED_CONF`). Not read with the ring, the digit alone stands where read at least
    `RING_MIN_CONF`."""
    alone_label = ringed.get(str(alone[0])) if alone is not None and alone[1] >= RING_MIN_CONF else None
    if rings is None:
        return (alone_label, RING_READ_CONF) if alone_label else None
    label = ringed.get(str(rings[0]))
    if label is None:
        return None
    if alone_label is None or alone_label == label or rings[1] >= DIGIT_SURE:
        return label, RING_READ_CONF
    return alone_label, CONTESTED_CONF


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


def enlarged(grey: Image.Image, boxes: list[Box]) -> tuple[Image.Image, list[Box]]:
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


def read_text(grey: Image.Image, boxes: list[Box], gap: int, languages, dpi, omp, path: Path) -> list[str]:
    offsets, read = read_strip(grey, boxes, gap, languages, dpi, omp, path, binarise=False)
    texts = []
    for (left, _, right, _), offset in zip(boxes, offsets):
        inside = sorted((w for w in read if offset - 2 <= (w.left + w.right) / 2 <= offset + (right - left) + 2), key=lambda w: w.left)
        texts.append(" ".join(w.text for w in inside))
    return texts
