"""Option labels printed as a digit or letter in a ring (① ② ③, Ⓐ Ⓑ) read as the labels they are.
Tesseract has no such glyph in most languages' data and reads a ring as a look-alike (`D1`, `@`, `©)`,
`(3)`, `01778`), reads only its digit, or skips it; the options of a Korean CSAT sheet were then not found.

Found by shape, never by what Tesseract made of it, when the spec's labels are all enclosed (`ring_alphabet`):
every connected piece of ink about a text line tall and about as wide whose outline, its holes filled,
is an ellipse filling its box (`RING_MIN_MATCH`), which is thin (`RING_MAX_INK` of the filled ellipse is
ink) and has ink at its centre (`CENTRE_INK`: a bold "O" or "0" has none there, so it is no ring).
The rings of a page are read in one strip against the plain alphabet, each with its ring whitened
(only the ink near its centre kept, `RING_KEEP`) and enlarged; a ring whose reading is the plain form of
a label becomes a word of that label, standing where the ring stands, on the line of the words it
was read into (whatever was read across the ring is cut away; what lies past it is kept).
"""
from __future__ import annotations

import tempfile
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
from PIL import Image
from scipy import ndimage

from pipeline.diagnostics import Code, diagnose
from pipeline.extract.ocr.keycells import read_label_cells
from pipeline.extract.ocr.words import Word

# Grey level: darker is a ring's ink, on the page as scanned. A thin ring at 150 dpi, blurred, is grey
# (170–200) all round, and preparing the page for Tesseract whitens it, so rings are looked for before that.
RING_INK_BELOW = 215
RING_HEIGHTS = (0.6, 1.9)  # a ring's height in the page's text heights
RING_ASPECT = (0.75, 1.33)  # its width over its height
RING_MIN_MATCH = 0.8  # the overlap (intersection over union) of its filled outline and the ellipse in its box
RING_MAX_INK = 0.62  # of the filled ellipse that is ink (ring and digit): a disc printed solid is more
HOLE_MIN = 0.25  # of the filled ellipse that is light inside the ring: a ring closes around a space
CENTRE = 0.55  # the centre searched for the digit: this share of the ring's radius
CENTRE_INK = (0.04, 0.75)  # of the centre that is ink: none in an "O", a digit's strokes in a ring
RING_KEEP = 0.68  # ink within this share of the ring's radius from its centre is the digit's; beyond, the ring's
GLYPH_HEIGHTS = 2.0  # a ring's inside is enlarged to this many text heights before it is read
MIN_TEXT_PX = 8  # below this text height (pixels) nothing is looked for: too small to tell a ring


@dataclass(frozen=True)
class Ring:
    left: int
    top: int
    right: int
    bottom: int


def ring_alphabet(labels: Sequence[str]) -> dict[str, str] | None:
    """{plain character: label} when every label is one enclosed character (① → "1", Ⓐ → "A", ❶ → "1",
    ⒜ → "a"), else None: what a ring's inside is read against."""
    found = {}
    for label in labels:
        if len(label) != 1 or label.isascii():
            return None
        decomposition = unicodedata.decomposition(label).split()
        if decomposition and decomposition[0] == "<circle>" and len(decomposition) == 2:
            plain = chr(int(decomposition[1], 16))
        elif unicodedata.digit(label, None) is not None and "CIRCLED" in unicodedata.name(label, ""):
            plain = str(unicodedata.digit(label))
        else:
            return None
        found[plain] = label
    return found


def find_rings(grey: np.ndarray, text_height: float) -> list[Ring]:
    """The rings with ink at their centre on `grey` (a prepared page), top to bottom, left to right."""
    if text_height < MIN_TEXT_PX:
        return []
    ink = grey < RING_INK_BELOW
    pieces, _ = ndimage.label(ink, structure=np.ones((3, 3), dtype=bool))
    rings = []
    for index, box in enumerate(ndimage.find_objects(pieces), start=1):
        if box is None:
            continue
        height, width = box[0].stop - box[0].start, box[1].stop - box[1].start
        if not RING_HEIGHTS[0] * text_height <= height <= RING_HEIGHTS[1] * text_height:
            continue
        if not RING_ASPECT[0] <= width / height <= RING_ASPECT[1]:
            continue
        if _is_ring(pieces[box] == index, ink[box]):
            rings.append(Ring(box[1].start, box[0].start, box[1].stop, box[0].stop))
    return sorted(rings, key=lambda r: (r.top, r.left))


def _is_ring(piece: np.ndarray, ink: np.ndarray) -> bool:
    filled = ndimage.binary_fill_holes(piece)
    height, width = piece.shape
    ys, xs = np.mgrid[0:height, 0:width]
    cy, cx, ry, rx = (height - 1) / 2, (width - 1) / 2, height / 2, width / 2
    distance = np.hypot((ys - cy) / ry, (xs - cx) / rx)
    ellipse = distance <= 1.0
    match = (filled & ellipse).sum() / max(1, (filled | ellipse).sum())
    if match < RING_MIN_MATCH:
        return False
    inside = filled & ellipse
    if ink[inside].mean() > RING_MAX_INK or (inside & ~piece).sum() < HOLE_MIN * inside.sum():
        return False
    centre = ink[distance <= CENTRE].mean()
    return bool(CENTRE_INK[0] <= centre <= CENTRE_INK[1])


def read_label_rings(
    scanned: Image.Image,
    prepared_size: tuple[int, int],
    words: list[Word],
    labels: Sequence[str],
    text_height: float,
    languages: Sequence[str],
    dpi: int,
    omp_thread_limit: int | None,
) -> tuple[list[Word], list[str]]:
    """`words` (in the coordinates of the prepared page, `prepared_size`) with each ring of `scanned` (the
    page as scanned, upright) read as one of `labels`, standing as a word of its own where it stands (one
    Tesseract call for the page's rings, none for a page without), and a note on the labels taken from
    their sequence rather than read (`by_sequence`)."""
    alphabet = ring_alphabet(labels)
    if alphabet is None or not text_height:
        return words, []
    pixels = np.asarray(scanned.convert("L"))
    scale_x, scale_y = prepared_size[0] / scanned.width, prepared_size[1] / scanned.height
    rings = find_rings(pixels, text_height / scale_y)
    if not rings:
        return words, []
    scale = max(1.0, GLYPH_HEIGHTS * text_height / scale_y / max(r.bottom - r.top for r in rings))
    size = round(max(max(r.bottom - r.top, r.right - r.left) for r in rings) * scale)
    canvas = Image.new("L", (size * len(rings), size), 255)
    crops = []
    for at, ring in enumerate(rings):
        inside = Image.fromarray(_inside(pixels[ring.top : ring.bottom, ring.left : ring.right]))
        width, height = round(inside.width * scale), round(inside.height * scale)
        canvas.paste(inside.resize((width, height), Image.Resampling.LANCZOS), (at * size, (size - height) // 2))
        crops.append((at * size, 0, at * size + size, size))
    with tempfile.TemporaryDirectory(prefix="examcorpus-ocr-") as folder:
        readings = read_label_cells(canvas, crops, list(alphabet), round(text_height / scale_y * scale), languages, dpi, omp_thread_limit,
                                    Path(folder) / "label-rings.pgm")
    labelled = [(alphabet.get(text, ""), conf) for text, conf in (readings.get(at, ("", 0.0)) for at in range(len(rings)))]
    filled = by_sequence(rings, labelled, list(alphabet.values()))
    inferred = [label for (label, _), (read_as, _) in zip(filled, labelled) if label and label != read_as]
    notes = [diagnose(Code.OCR_INFERRED, count=len(inferred), labels=", ".join(inferred))] if inferred else []
    read = [
        (Ring(round(ring.left * scale_x), round(ring.top * scale_y), round(ring.right * scale_x), round(ring.bottom * scale_y)), label, conf)
        for ring, (label, conf) in zip(rings, filled) if label
    ]
    return _placed(words, read), notes


def by_sequence(rings: list[Ring], read: list[tuple[str, float]], labels: Sequence[str]) -> list[tuple[str, float]]:
    """`read` (a label or "" per ring, and its confidence) with the rings the labels' sequence pins down
    given their label, confidence 0: in reading order (rows top to bottom, each left to right), a run of
    rings unread, or read as a label that follows neither the ring before nor leads to the one after,
    takes the labels between a read label and the read label after it when exactly that many are
    missing (between ② and ⑤, two: ③ ④), or the labels from one read label to the last when the run
    ends where a question's ① or the page's rings come next (after ③, two: ④ ⑤), or the labels
    before a read label when the run starts the page's rings or follows the last label (two before ③: ① ②)."""
    order = _reading_order(rings)
    index = {label: at for at, label in enumerate(labels)}
    position = [index.get(read[i][0]) for i in order]

    def fits(k: int) -> bool:
        here, before = position[k], position[k - 1] if k > 0 else None
        after = position[k + 1] if k + 1 < len(position) else None
        follows = before is None or here == 0 or here == before + 1
        leads = after is None or after == 0 or after == (here or 0) + 1
        return here is not None and (follows or leads)

    known = [fits(k) for k in range(len(position))]
    result = list(read)
    k = 0
    while k < len(order):
        if known[k]:
            k += 1
            continue
        end = k
        while end < len(order) and not known[end]:
            end += 1
        run = end - k
        before = position[k - 1] if k > 0 else None
        after = position[end] if end < len(order) else None
        first = None
        if before is not None and after is not None and after == before + run + 1:
            first = before + 1
        elif before is not None and after in (None, 0) and before + run == len(labels) - 1:
            first = before + 1
        elif after is not None and after == run and (before is None or before == len(labels) - 1):
            first = 0
        if first is not None:
            for offset, i in enumerate(order[k:end]):
                result[i] = (labels[first + offset], 0.0)
        k = end
    return result


def _reading_order(rings: list[Ring]) -> list[int]:
    """Indices of `rings` in reading order: rows (rings whose middles lie within half a ring's height) top to bottom, each left to right."""
    rows: list[list[int]] = []
    for i in sorted(range(len(rings)), key=lambda i: (rings[i].top + rings[i].bottom) / 2):
        middle = (rings[i].top + rings[i].bottom) / 2
        last = rows[-1][-1] if rows else None
        if last is not None and abs((rings[last].top + rings[last].bottom) / 2 - middle) <= (rings[i].bottom - rings[i].top) / 2:
            rows[-1].append(i)
        else:
            rows.append([i])
    return [i for row in rows for i in sorted(row, key=lambda i: rings[i].left)]


def _inside(box: np.ndarray) -> np.ndarray:
    """The ring's box with the ring whitened: only the ink near its centre, its digit, is kept."""
    height, width = box.shape
    ys, xs = np.mgrid[0:height, 0:width]
    distance = np.hypot((ys - (height - 1) / 2) / (height / 2), (xs - (width - 1) / 2) / (width / 2))
    return np.where(distance <= RING_KEEP, box, 255).astype(np.uint8)


def _placed(words: list[Word], read: list[tuple[Ring, str, float]]) -> list[Word]:
    """`words` with each read ring a word of its label: on the line of the words read across it or, where
    Tesseract read nothing there, of the nearest word right of it on its row; a ring no line holds is left out."""
    result = list(words)
    for ring, label, conf in read:
        height = ring.bottom - ring.top
        across = [w for w in result if w.left < ring.right and ring.left < w.right and w.top < ring.bottom and ring.top < w.bottom]
        crossed = {id(w) for w in across}
        if across:
            line = across[0].line
        else:
            beside = [w for w in result if ring.right <= w.left <= ring.right + 2 * height and w.top < ring.bottom and ring.top < w.bottom]
            if not beside:
                continue
            line = min(beside, key=lambda w: w.left).line
        kept: list[Word] = []
        for word in result:
            if id(word) in crossed:
                kept += _outside(word, ring)
            else:
                kept.append(word)
        at = next((i for i, w in enumerate(kept) if w.line == line and w.left >= ring.left), None)
        if at is None:
            at = max((i + 1 for i, w in enumerate(kept) if w.line == line), default=len(kept))
        kept.insert(at, Word(label, conf, ring.left, ring.top, ring.right, ring.bottom, line))
        result = kept
    return result


def _outside(word: Word, ring: Ring) -> list[Word]:
    """What of a word read across a ring lies outside it, left and right, its characters shared out by width."""
    width = max(1, word.right - word.left)
    count = len(word.text)
    parts = []
    before = round(count * max(0, ring.left - word.left) / width)
    after = round(count * max(0, word.right - ring.right) / width)
    if before:
        parts.append(replace(word, text=word.text[:before], right=ring.left))
    if after:
        parts.append(replace(word, text=word.text[count - after:], left=ring.right))
    return parts
