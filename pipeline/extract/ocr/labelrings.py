"""Option labels printed as a digit or letter in a ring (① ② ③, Ⓐ Ⓑ) read as the labels they are.
Tesseract has no such glyph in most languages' data and reads a ring as a look-alike (`D1`, `@`, `©)`,
`(3)`, `01778`), reads only its digit, or skips it; the options of a Korean CSAT sheet were then not found.

Found by shape (`ringshapes.find_rings`), never by what Tesseract made of it, when the spec's labels are all enclosed
(`ring_alphabet`):
every connected piece of ink about a text line tall and about as wide whose outline, its holes filled,
is an ellipse filling its box (`RING_MIN_MATCH`), which is thin (`RING_MAX_INK` of the filled ellipse is
ink, ink measured at half the box's darkest, so a blurred 150 dpi ring's grey spread is not), stands apart
from what it encloses (`MOAT`: a round letter's stroke lies where a ring has paper) and has ink at its
centre (`CENTRE_INK`: a bold "O" or "0" has none there, so it is no ring). A piece too wide for a ring
(a ring glued to its word, `①zielonej`) is tried for one at either end, cut from the rest by its circle.
The rings of a page are read stacked, one under another, against the plain alphabet, each with its ring whitened
(only the ink near its centre kept, `ringshapes.RING_KEEP`) and enlarged (an inside the stack leaves unread is read
again alone at two smaller sizes, and taken only where both read the same glyph); a ring whose reading is the plain form of
a label becomes a word of that label, standing where the ring stands, on the line of the words it
was read into (whatever was read across the ring is cut away; what lies past it is kept: `ringplacing`). Rings
left unread take the label their sequence pins down (`ringsequence.by_sequence`), said in the page's notes.
"""
from __future__ import annotations

import unicodedata
from collections.abc import Sequence

import numpy as np
from PIL import Image

from pipeline.diagnostics import Code, diagnose
from pipeline.extract.ocr.engine import installed_languages, parse_tsv, run_tesseract, stacked
from pipeline.extract.ocr.keycells import PLAIN_READER
from pipeline.extract.ocr.ringplacing import placed_rings
from pipeline.extract.ocr.ringsequence import by_sequence, in_running_text, letters_only, ring_gutters
from pipeline.extract.ocr.ringshapes import RING_INK_BELOW, RING_KEEP, Ring, find_rings, on_white, ring_inside
from pipeline.extract.ocr.words import Word

GLYPH_HEIGHTS = 2.0  # a ring's inside is enlarged to this many text heights before it is read
STACK_PSM = 6  # a block of lines: the ring insides stacked one per line
STACK_ROWS = 60  # insides read in one image at most (a page of 12 questions of 5 options: one image)
# A key cell's box holding no whole ring: the ring holding its centre is looked for this many of its ink heights around
# it (a ring is at most `ringshapes.RING_HEIGHTS` text heights tall, so half that reach holds it whole).
CELL_REACH = 1.0
ALONE_MAX = 12  # insides a stack left unread read again alone, at most (each two Tesseract calls)
ALONE_SCALES = (0.75, 0.5)  # of an inside's enlarged size (`GLYPH_HEIGHTS`): 1.5 and 1 text heights


def ring_alphabet(labels: Sequence[str] | None) -> dict[str, str] | None:
    """{plain character: label} when every label is one enclosed character (① → "1", Ⓐ → "A", ❶ → "1",
    ⒜ → "a"), else None (no labels: None): what a ring's inside is read against."""
    if not labels:
        return None
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


def read_label_rings(
    scanned: Image.Image,
    prepared_size: tuple[int, int],
    words: list[Word],
    labels: Sequence[str] | None,
    text_height: float,
    languages: Sequence[str],
    dpi: int,
    omp_thread_limit: int | None,
    ink: np.ndarray | None = None,
) -> tuple[list[Word], list[str]]:
    """`words` (in the coordinates of the prepared page, `prepared_size`) with each ring of `scanned` (the
    page as scanned, upright; `ink`: the prepared page's ink) read as one of `labels`, standing as a word of its own where it stands (one
    Tesseract call for the page's rings, none for a page without), and a note on the labels taken from
    their sequence rather than read (`by_sequence`)."""
    alphabet = ring_alphabet(labels)
    if not text_height:
        # A page of short words (Korean options of two syllables) has no 3-letter word to measure: any word with a letter.
        heights = sorted(w.bottom - w.top for w in words if any(ch.isalpha() for ch in w.text))
        text_height = float(heights[len(heights) // 2]) if heights else 0.0
    if alphabet is None or not text_height:
        return words, []
    pixels = on_white(np.asarray(scanned.convert("L")))  # grey paper lifted to white: ring ink is a level on white paper
    scale_x, scale_y = prepared_size[0] / scanned.width, prepared_size[1] / scanned.height
    rings = find_rings(pixels, text_height / scale_y)
    if not rings:
        return words, []
    glyph = round(GLYPH_HEIGHTS * text_height / scale_y)
    insides = [_enlarged(ring_inside(pixels[r.top : r.bottom, r.left : r.right]), glyph) for r in rings]
    readings = _read_stacked(insides, "".join(alphabet), _plain_reader(alphabet, languages), dpi, omp_thread_limit)
    labelled = [(alphabet.get(text, ""), conf) for text, conf in readings]
    gutters = ring_gutters(rings, [(w.left / scale_x, w.top / scale_y, w.right / scale_x, w.bottom / scale_y) for w in words])
    worded = [(w.left / scale_x, w.top / scale_y, w.right / scale_x, w.bottom / scale_y) for w in words if letters_only(w.text)]
    inline = [in_running_text(ring, worded) for ring in rings]
    filled = by_sequence(rings, labelled, list(alphabet.values()), gutters, inline)
    inferred = [label for (label, _), (read_as, _) in zip(filled, labelled) if label and label != read_as]
    notes: list[str] = [diagnose(Code.OCR_INFERRED, count=len(inferred), labels=", ".join(inferred))] if inferred else []
    read = [
        (Ring(round(ring.left * scale_x), round(ring.top * scale_y), round(ring.right * scale_x), round(ring.bottom * scale_y)), label, conf)
        for ring, (label, conf) in zip(rings, filled) if label
    ]
    return placed_rings(words, read, ink), notes


def _plain_reader(alphabet: dict[str, str], languages: Sequence[str]) -> list[str]:
    """The Tesseract data a ring's inside is read with: a ring encloses an ASCII digit or Latin letter, which
    the page's own data reads poorly where its script is another (Korean data read a clean "3" at
    confidence 39, and skipped clear "4"s), so the Latin-script data `PLAIN_READER` when it is installed."""
    if all(ch.isascii() for ch in alphabet) and PLAIN_READER in installed_languages():
        return [PLAIN_READER]
    return list(languages)


def _enlarged(inside: np.ndarray, height: int) -> Image.Image:
    """A ring's inside scaled to `height` pixels tall (never shrunk)."""
    image = Image.fromarray(inside)
    scale = max(1.0, height / max(1, image.height))
    return image.resize((round(image.width * scale), round(image.height * scale)), Image.Resampling.LANCZOS)


def _read_stacked(insides: list[Image.Image], whitelist: str, languages: Sequence[str], dpi: int,
                  omp_thread_limit: int | None) -> list[tuple[str, float]]:
    """Each inside's one character and its confidence, or ("", 0): the insides one under another, read as
    lines (psm 6) against `whitelist`. Side by side in one line, Tesseract read ten ringed digits as one
    number, some twice and some not at all ("2323222243" for 2 3 3 2 2 2 2 4 5 4)."""
    gap = max(image.height for image in insides) // 2
    readings: list[tuple[str, float]] = []
    for first in range(0, len(insides), STACK_ROWS):
        group = insides[first:first + STACK_ROWS]
        stack, tops = stacked(group, gap)
        read = parse_tsv(run_tesseract(stack, languages, dpi, omp_thread_limit=omp_thread_limit, psm=STACK_PSM, whitelist=whitelist))
        for image, top in zip(group, tops):
            inside = [w for w in read if top - gap / 2 <= (w.top + w.bottom) / 2 < top + image.height + gap / 2]
            sure = len(inside) == 1 and len(inside[0].text) == 1
            readings.append((inside[0].text, inside[0].conf) if sure else ("", 0.0))
    # An inside the stack left unread is read again alone, at `ALONE_SCALES` of its enlarged size: Tesseract dropped a
    # clear 300 dpi "5" between two lines it read at 97, and read it alone as "3" at 43 enlarged, "5" at 90 and 97 at
    # three quarters and half that size. It is taken only where both readings are the same one glyph (never a guess:
    # readings that differ leave it unread), as sure as the less sure of the two.
    for at in [i for i, (text, _) in enumerate(readings) if not text][:ALONE_MAX]:
        alone = [_read_alone(insides[at], scale, gap, whitelist, languages, dpi, omp_thread_limit) for scale in ALONE_SCALES]
        if alone[0] is not None and all(other is not None and other[0] == alone[0][0] for other in alone):
            readings[at] = (alone[0][0], min(conf for _, conf in alone))  # type: ignore[misc]
    return readings


def _read_alone(inside: Image.Image, scale: float, gap: int, whitelist: str, languages: Sequence[str], dpi: int,
                omp_thread_limit: int | None) -> tuple[str, float] | None:
    """One inside read alone at `scale` of its size against `whitelist`: its one glyph and confidence, or None."""
    image = inside.resize((max(1, round(inside.width * scale)), max(1, round(inside.height * scale))), Image.Resampling.LANCZOS)
    page, _ = stacked([image], gap)
    read = [w for w in parse_tsv(run_tesseract(page, languages, dpi, omp_thread_limit=omp_thread_limit, psm=STACK_PSM,
                                               whitelist=whitelist)) if w.text.strip()]
    return (read[0].text, read[0].conf) if len(read) == 1 and len(read[0].text) == 1 else None


def read_ring_cells(grey: np.ndarray, boxes: Sequence[tuple[int, int, int, int]], labels: Sequence[str], languages: Sequence[str],
                    dpi: int, omp_thread_limit: int | None) -> list[tuple[str, float] | None]:
    """Each box of `grey` (a key table's answer cell, ink and a margin of white; the whole page as scanned, its paper
    lifted to white first: `ringshapes.on_white`) that holds one ring found
    by its shape (`find_rings`, the ink's height for the text height), read as its label the way option
    labels are: ring whitened, inside enlarged, all insides stacked and read against the plain alphabet
    (one Tesseract call); None for a box without one ring, or whose inside reads as no label."""
    alphabet = ring_alphabet(labels)
    found: dict[int, Ring] = {}
    grey = on_white(grey)  # grey paper lifted to white: ring ink is a level on white paper (as `read_label_rings`)
    for index, (left, top, right, bottom) in enumerate(boxes):
        crop = grey[top:bottom, left:right]
        rows = np.flatnonzero((crop < RING_INK_BELOW).any(axis=1))
        if not rows.size:
            continue
        height = float(rows[-1] - rows[0] + 1)
        rings = find_rings(crop, height)
        if len(rings) == 1:
            ring = rings[0]
            found[index] = Ring(left + ring.left, top + ring.top, left + ring.right, top + ring.bottom)
        else:
            holding = _ring_holding(grey, (left, top, right, bottom), height)
            if holding is not None:
                found[index] = holding
    if alphabet is None or not found:
        return [None] * len(boxes)
    glyph = round(GLYPH_HEIGHTS * float(np.median([r.bottom - r.top for r in found.values()])))
    insides = [_enlarged(ring_inside(grey[r.top : r.bottom, r.left : r.right]), glyph) for r in found.values()]
    readings = dict(zip(found, _read_stacked(insides, "".join(alphabet), _plain_reader(alphabet, languages), dpi, omp_thread_limit)))
    return [(alphabet[readings[i][0]], readings[i][1]) if readings.get(i, ("", 0.0))[0] in alphabet else None for i in range(len(boxes))]


def _ring_holding(grey: np.ndarray, box: tuple[int, int, int, int], height: float) -> Ring | None:
    """The one ring found by its shape within `CELL_REACH` of `height` (the box's ink height) around `box` whose
    circle holds the box's centre, in page pixels; None where none or more than one does. A list key's answer box is
    its digit's ink on the prepared page, where the thin ring was whitened: the crop of it with its margin may cut
    the ring (a ⑤ boxed 15 px wide in a ring of 45), which is then found whole around it."""
    reach = max(2, round(CELL_REACH * height))
    left, top = max(0, box[0] - reach), max(0, box[1] - reach)
    right, bottom = min(grey.shape[1], box[2] + reach), min(grey.shape[0], box[3] + reach)
    centre_x, centre_y = (box[0] + box[2]) / 2 - left, (box[1] + box[3]) / 2 - top
    holding = [r for r in find_rings(grey[top:bottom, left:right], height)
               if np.hypot((centre_x - (r.left + r.right) / 2) / ((r.right - r.left) / 2),
                           (centre_y - (r.top + r.bottom) / 2) / ((r.bottom - r.top) / 2)) <= RING_KEEP]
    if len(holding) != 1:
        return None
    ring = holding[0]
    return Ring(left + ring.left, top + ring.top, left + ring.right, top + ring.bottom)
