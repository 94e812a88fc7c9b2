"""Option labels printed as a digit or letter in a ring (① ② ③, Ⓐ Ⓑ) read as the labels they are.
Tesseract has no such glyph in most languages' data and reads a ring as a look-alike (`D1`, `@`, `©)`,
`(3)`, `01778`), reads only its digit, or skips it; the options of a Korean CSAT sheet were then not found.

Found by shape, never by what Tesseract made of it, when the spec's labels are all enclosed (`ring_alphabet`):
every connected piece of ink about a text line tall and about as wide whose outline, its holes filled,
is an ellipse filling its box (`RING_MIN_MATCH`), which is thin (`RING_MAX_INK` of the filled ellipse is
ink, ink measured at half the box's darkest, so a blurred 150 dpi ring's grey spread is not), stands apart
from what it encloses (`MOAT`: a round letter's stroke lies where a ring has paper) and has ink at its
centre (`CENTRE_INK`: a bold "O" or "0" has none there, so it is no ring). A piece too wide for a ring
(a ring glued to its word, `①zielonej`) is tried for one at either end, cut from the rest by its circle.
The rings of a page are read stacked, one under another, against the plain alphabet, each with its ring whitened
(only the ink near its centre kept, `RING_KEEP`) and enlarged; a ring whose reading is the plain form of
a label becomes a word of that label, standing where the ring stands, on the line of the words it
was read into (whatever was read across the ring is cut away; what lies past it is kept).
"""
from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
from PIL import Image

from pipeline.diagnostics import Code, diagnose
from pipeline.extract.ocr.engine import installed_languages, parse_tsv, run_tesseract, stacked
from pipeline.extract.ocr.keycells import PLAIN_READER
from pipeline.extract.ocr.words import Word

# Grey level: darker is a ring's ink, on the page as scanned. A thin ring at 150 dpi, blurred, is grey
# (170–200) all round, and preparing the page for Tesseract whitens it, so rings are looked for before that.
RING_INK_BELOW = 215
RING_HEIGHTS = (0.6, 1.9)  # a ring's height in the page's text heights
RING_ASPECT = (0.75, 1.33)  # its width over its height
RING_MIN_MATCH = 0.8  # the overlap (intersection over union) of its filled outline and the ellipse in its box
# Of the filled ellipse that is ink (ring and digit), as its own darkness sets it (`_core_ink`): a printed ring
# measures 0.10–0.25 (Noto CJK) and 0.26–0.51 (DejaVu, ④ the most) at 150–300 dpi, blur 0.4–0.8; a bold "©" or "@"
# 0.54–0.79, a Hangul syllable round enough to pass the other tests 0.60. (Against a fixed grey level, v4 and
# before, a thin ring at 150 dpi, blur 0.8, measured 0.76–0.85, more than a bold "0": no ring was found.)
RING_MAX_INK = 0.53
CORE_DARK = 5  # percentile of a piece's grey levels taken as its darkest ink
GLUED_HEIGHTS = 2.5  # a ring glued to its word: the ink of both is up to this many text heights tall (a letter's ascender)
GLUED_STRAY = 0.03  # of the ring's box's left half past its circle that may be ink (grain, a touching stroke's end)
HOLE_MIN = 0.25  # of the filled ellipse that is light inside the ring: a ring closes around a space
# A ring stands apart from what it encloses: the band between them is paper. A letter as round (o, e, a, d, ę)
# has its stroke there (0.67–1.0 of the band ink at 150–200 dpi), a ring 0–0.21, a Hangul syllable that passes
# the other tests 0.38.
MOAT = (0.6, 0.78)  # the band, in shares of the ring's radius
MOAT_MAX_INK = 0.3
CENTRE = 0.55  # the centre searched for the digit: this share of the ring's radius
CENTRE_INK = (0.04, 0.75)  # of the centre that is ink: none in an "O", a digit's strokes in a ring
RING_KEEP = 0.68  # ink within this share of the ring's radius from its centre is the digit's; beyond, the ring's
GLYPH_HEIGHTS = 2.0  # a ring's inside is enlarged to this many text heights before it is read
# Of the read rings that follow each other in reading order, the share that step to the next label (or
# from the last to the first): options' labels all do, but for a question's end; a key's answers seldom.
SEQUENCE_MIN_STEPS = 0.6
# A word ending less than this many ring widths before a ring sets it in running text (a Korean word space is 0.25–0.35
# of a syllable, a ring a little over one): a mark in a stem (`㉠`), not a label, which opens its line or its row's cell.
INLINE_GAP = 0.5
ALIGNED = 0.25  # ring widths: rings whose left edges lie this close stand in one column of labels
MIN_TEXT_PX = 8
NARROW_GLYPH = 0.55  # a digit's or a Latin letter's width, in ring widths (a wide glyph's is about one)
MIN_RUN_HEIGHTS = 0.12  # a run of ink past a ring narrower than this (in ring heights) is no character
STACK_PSM = 6  # a block of lines: the ring insides stacked one per line
STACK_ROWS = 60  # insides read in one image at most (a page of 12 questions of 5 options: one image)
# What Tesseract reads a ring as, the digit or letter inside aside (`D1`, `@`, `©)`, `(3)`, `01778`, `Q`): its outline as a
# round capital or zero, or as brackets and signs; no character of these opens a word glued to its ring as printed.
RING_LOOKALIKES = frozenset("OQD0CG©®@()[]{}")
LOOKALIKE_MAX = 3  # characters a ring's look-alike takes at most ("(3)")
NARROWEST_GLYPH = 0.2  # the narrowest character's advance ("i", "l"), in ring heights
DIGIT_WIDTH = 0.45  # a digit's advance at the least, in ring heights (0.55-0.6 printed; a ring is a little over an em)


@dataclass(frozen=True)
class Ring:
    left: int
    top: int
    right: int
    bottom: int


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


def find_rings(grey: np.ndarray, text_height: float) -> list[Ring]:
    """The rings with ink at their centre on `grey` (a prepared page), top to bottom, left to right; a ring
    whose ink touches the word it labels (`①zielonej`) is cut from it by its outline (`_glued_ring`)."""
    if text_height < MIN_TEXT_PX:
        return []
    from scipy import ndimage  # here, not at import: scipy costs every process a second, OCR or not

    ink = grey < RING_INK_BELOW
    pieces, _ = ndimage.label(ink, structure=np.ones((3, 3), dtype=bool))
    rings = []
    for index, box in enumerate(ndimage.find_objects(pieces), start=1):
        if box is None:
            continue
        height, width = box[0].stop - box[0].start, box[1].stop - box[1].start
        if not RING_HEIGHTS[0] * text_height <= height <= GLUED_HEIGHTS * text_height:
            continue
        piece = pieces[box] == index
        if RING_HEIGHTS[0] * text_height <= height <= RING_HEIGHTS[1] * text_height and RING_ASPECT[0] <= width / height <= RING_ASPECT[1]:
            if _is_ring(piece, grey[box]):
                rings.append(Ring(box[1].start, box[0].start, box[1].stop, box[0].stop))
                continue
        if width / height > RING_ASPECT[1]:
            for mirrored in (False, True):  # a label opens its text, left of it in most scripts, right of it in some
                cut = _glued_ring(piece[:, ::-1] if mirrored else piece, grey[box][:, ::-1] if mirrored else grey[box], text_height)
                if cut is not None:
                    top, left, size = cut
                    left = width - left - size if mirrored else left
                    rings.append(Ring(box[1].start + left, box[0].start + top, box[1].start + left + size, box[0].start + top + size))
    return sorted(rings, key=lambda r: (r.top, r.left))


def _glued_ring(piece: np.ndarray, grey: np.ndarray, text_height: float) -> tuple[int, int, int] | None:
    """(top, left, size) of a ring at the left end of `piece` (ink of a ring and the letters it touches), or None.
    The columns of the piece's left half-height hold only the ring's ink whatever glyph is glued past it (the ring
    is at least that wide), and they reach its top and bottom: its size is their rows' span; the square of that
    size at the piece's left is the ring's box, and its ink within the ring's circle (the glued letter's is
    outside, but where they touch) is tested as a lone ring is."""
    height = piece.shape[0]
    rows = np.flatnonzero(piece[:, : max(1, height // 2)].any(axis=1))
    if not rows.size:
        return None
    top, size = int(rows[0]), int(rows[-1] - rows[0] + 1)
    if not RING_HEIGHTS[0] * text_height <= size <= RING_HEIGHTS[1] * text_height or size > piece.shape[1]:
        return None
    box = piece[top : top + size, :size]
    ys, xs = np.mgrid[0:size, 0:size]
    centre = (size - 1) / 2
    circle = np.hypot(ys - centre, xs - centre) <= size / 2 + 0.5
    # Past the circle, the box's left half holds no ink of the ring's neighbour: a ring is round at its left as well.
    if (box & ~circle)[:, : size // 2].mean() > GLUED_STRAY:
        return None
    return (top, 0, size) if _is_ring(box & circle, np.where(circle, grey[top : top + size, :size], 255)) else None


def _is_ring(piece: np.ndarray, grey: np.ndarray) -> bool:
    """Whether `piece` (one piece of ink, its box) is a thin ring around a digit or letter, by its outline and by its
    ink as the ring's own darkness sets it (`_core_ink`), so that a blur's grey spread is not counted as ink."""
    from scipy import ndimage

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
    ink = _core_ink(grey)
    if ink[inside].mean() > RING_MAX_INK or (inside & ~ink).sum() < HOLE_MIN * inside.sum():
        return False
    if ink[(distance > MOAT[0]) & (distance < MOAT[1])].mean() > MOAT_MAX_INK:
        return False
    centre = ink[distance <= CENTRE].mean()
    return bool(CENTRE_INK[0] <= centre <= CENTRE_INK[1])


def _core_ink(grey: np.ndarray) -> np.ndarray:
    """The box's pixels darker than halfway between its darkest ink (`CORE_DARK`, of the ring's and its digit's,
    which may be a piece of its own) and white: a stroke's width as printed, however far the scan's blur spread its
    grey (a thin ring at 150 dpi, blur 0.8, was 0.76–0.85 ink under the fixed `RING_INK_BELOW`, as full as a bold "0";
    0.24–0.46 at half its darkness). A ring printed lighter than its digit (Noto CJK's at 150 dpi) is then its digit."""
    values = grey[grey < RING_INK_BELOW]
    if not values.size:
        return np.zeros(grey.shape, dtype=bool)
    dark = float(np.percentile(values, CORE_DARK))
    return grey < (dark + 255) / 2


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
    pixels = np.asarray(scanned.convert("L"))
    scale_x, scale_y = prepared_size[0] / scanned.width, prepared_size[1] / scanned.height
    rings = find_rings(pixels, text_height / scale_y)
    if not rings:
        return words, []
    glyph = round(GLYPH_HEIGHTS * text_height / scale_y)
    insides = [_enlarged(_inside(pixels[r.top : r.bottom, r.left : r.right]), glyph) for r in rings]
    readings = _read_stacked(insides, "".join(alphabet), _plain_reader(alphabet, languages), dpi, omp_thread_limit)
    labelled = [(alphabet.get(text, ""), conf) for text, conf in readings]
    gutters = _gutters(rings, [(w.left / scale_x, w.top / scale_y, w.right / scale_x, w.bottom / scale_y) for w in words])
    worded = [(w.left / scale_x, w.top / scale_y, w.right / scale_x, w.bottom / scale_y) for w in words if _letters_only(w.text)]
    inline = [_in_running_text(ring, worded) for ring in rings]
    filled = by_sequence(rings, labelled, list(alphabet.values()), gutters, inline)
    inferred = [label for (label, _), (read_as, _) in zip(filled, labelled) if label and label != read_as]
    notes: list[str] = [diagnose(Code.OCR_INFERRED, count=len(inferred), labels=", ".join(inferred))] if inferred else []
    read = [
        (Ring(round(ring.left * scale_x), round(ring.top * scale_y), round(ring.right * scale_x), round(ring.bottom * scale_y)), label, conf)
        for ring, (label, conf) in zip(rings, filled) if label
    ]
    return _placed(words, read, ink), notes


def by_sequence(rings: list[Ring], read: list[tuple[str, float]], labels: Sequence[str],
                gutters: Sequence[float] = (), inline: Sequence[bool] = ()) -> list[tuple[str, float]]:
    """`read` (a label or "" per ring, and its confidence) with the rings the labels' sequence pins down
    given their label, confidence 0, where the rings read are mostly such a sequence (`SEQUENCE_MIN_STEPS`): in reading order
    (rows top to bottom, each left to right; or, where `gutters` cut the page into columns, column by column, when more
    of the read rings step in that order: `_steps`), a run of
    rings unread, or read (however surely: ⑤ read as ② at 96) as a label that follows neither the ring before nor leads to the one after,
    takes the labels between a read label and the read label after it when exactly that many are
    missing (between ② and ⑤, two: ③ ④), or the labels from one read label to the last when the run
    ends where a question's ① or the page's rings come next (after ③, two: ④ ⑤), or the labels
    before a read label when the run starts the page's rings or follows the last label (two before ③: ① ②).
    Where the rings are such a sequence, a ring `inline` says stands in running text (`_in_running_text`: a mark printed
    in a stem, `㉠` read as ④) takes no place in it, and its reading is dropped, ("", 0). A run after a question's
    last read label holding more rings than the labels left to it (⑤ read as ②, then a stem's mark before the next ①)
    gives those labels to the rings whose left edges line up with that last label's (`ALIGNED`), when exactly as many
    do, and drops the others' readings."""
    index = {label: at for at, label in enumerate(labels)}
    marks = {i for i, flag in enumerate(inline) if flag}
    orders = [[i for i in _reading_order(rings) if i not in marks]]
    if gutters:
        orders.append([i for i in _column_order(rings, gutters) if i not in marks])
    order = max(orders, key=lambda o: _steps([index.get(read[i][0]) for i in o], len(labels))[0])  # rows first on a tie
    position = [index.get(read[i][0]) for i in order]
    steps, known_at = _steps(position, len(labels))
    if len(known_at) < 2 or steps < SEQUENCE_MIN_STEPS * (len(known_at) - 1):
        return read  # rings that are no run of labels (a key's answers, ③ ① ④ …): nothing to infer from

    def fits(k: int) -> bool:
        here, before = position[k], position[k - 1] if k > 0 else None
        after = position[k + 1] if k + 1 < len(position) else None
        follows = before is None or here == 0 or here == before + 1
        # Before a question's first label only the last label leads (③ ④ ② ① is ⑤ misread); so does it
        # before the page's rings end (③ ④ ② at the end is ⑤ misread too).
        leads = after == (here or 0) + 1 or (after in (0, None) and here == len(labels) - 1)
        return here is not None and (follows or leads)

    known = [fits(k) for k in range(len(position))]
    result = [("", 0.0) if i in marks else reading for i, reading in enumerate(read)]
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
        elif k > 0 and before is not None and after in (None, 0) and 0 < len(labels) - 1 - before < run:
            # More rings than the question's labels left: those standing under its last read label (a column's labels
            # share their left edge) take them; the others, a stem's marks, are no labels.
            edge = rings[order[k - 1]].left
            aligned = [i for i in order[k:end] if abs(rings[i].left - edge) <= ALIGNED * (rings[i].right - rings[i].left)]
            if len(aligned) == len(labels) - 1 - before:
                for offset, i in enumerate(aligned):
                    result[i] = (labels[before + 1 + offset], 0.0)
                for i in set(order[k:end]) - set(aligned):
                    result[i] = ("", 0.0)
        k = end
    return result


def _letters_only(text: str) -> bool:
    """Whether `text` holds a letter and no digit: a word of running text, not a key entry's number (`1:`, `정답1:`)."""
    return any(ch.isalpha() for ch in text) and not any(ch.isdigit() for ch in text)


def _in_running_text(ring: Ring, boxes: list[tuple[float, float, float, float]]) -> bool:
    """Whether a word of `boxes` (left, top, right, bottom, in the ring's coordinates: the page's words of letters
    without a digit, `_letters_only`) on the ring's row starts well left of the ring and ends less than `INLINE_GAP` ring widths before it, or
    runs into it: the ring stands in a line of text at a word space from what precedes it, as a mark in a stem does
    (`㉠`), not where a label stands (a line's start, or past the wide gap between a row's options), nor where a key's
    answer does, after its number (`1: ③`)."""
    width = ring.right - ring.left
    return any(top < (ring.top + ring.bottom) / 2 < bottom and left < ring.left - width / 2 and right >= ring.left - INLINE_GAP * width
               for left, top, right, bottom in boxes)


def _steps(position: list[int | None], count: int) -> tuple[int, list[int]]:
    """How many of the read rings (`position`: each ring's label's place, None unread, in one order) step to the next
    read one (two read rings with unread ones between: a step when the labels between them are exactly missing), and
    where the read ones stand."""
    known_at = [k for k, p in enumerate(position) if p is not None]
    steps = sum(position[j] == (position[i] + j - i) % count for i, j in zip(known_at, known_at[1:]))  # type: ignore[operator]
    return steps, known_at


def _gutters(rings: list[Ring], boxes: list[tuple[float, float, float, float]]) -> list[float]:
    """Where the page's columns part, among its rings: in each gap between the rings' boxes, side by side, at least a
    ring wide, the middle of its widest stretch (half a ring wide at least) that no word of the page between the first ring's top
    and the last one's bottom (`boxes`: left, top, right, bottom, in the rings' coordinates; a heading above them may
    span the columns) reaches across. None on a page of one column: its stems run over every gap."""
    if len(rings) < 2:
        return []
    width = float(np.median([r.right - r.left for r in rings]))
    top, bottom = min(r.top for r in rings), max(r.bottom for r in rings)
    spans = [(left, right) for left, upper, right, lower in boxes if top <= (upper + lower) / 2 <= bottom]
    cuts = []
    edges = sorted((r.left, r.right) for r in rings)
    reach = edges[0][1]
    for left, right in edges[1:]:
        if left - reach >= width:
            middle = _widest_white(reach, left, spans, width / 2)
            if middle is not None:
                cuts.append(middle)
        reach = max(reach, right)
    return cuts


def _widest_white(low: float, high: float, spans: list[tuple[float, float]], least: float) -> float | None:
    """The middle of the widest stretch of `low`..`high` that no span reaches into, when it is at least `least` wide."""
    best: tuple[float, float] | None = None
    at = low
    for a, b in sorted((max(a, low), min(b, high)) for a, b in spans if a < high and b > low):
        if a > at and (best is None or a - at > best[1] - best[0]):
            best = (at, a)
        at = max(at, b)
    if high > at and (best is None or high - at > best[1] - best[0]):
        best = (at, high)
    return (best[0] + best[1]) / 2 if best is not None and best[1] - best[0] >= least else None


def _column_order(rings: list[Ring], gutters: Sequence[float]) -> list[int]:
    """Indices of `rings` column by column (parted at `gutters`, left to right), each in reading order (`_reading_order`)."""
    bounds = [float("-inf"), *sorted(gutters), float("inf")]
    order: list[int] = []
    for low, high in zip(bounds, bounds[1:]):
        members = [i for i, r in enumerate(rings) if low < (r.left + r.right) / 2 < high]
        order += [members[i] for i in _reading_order([rings[i] for i in members])]
    return order


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
    return readings


def _inside(box: np.ndarray) -> np.ndarray:
    """The ring's box with the ring whitened: only the ink near its centre, its digit, is kept."""
    height, width = box.shape
    ys, xs = np.mgrid[0:height, 0:width]
    distance = np.hypot((ys - (height - 1) / 2) / (height / 2), (xs - (width - 1) / 2) / (width / 2))
    return np.where(distance <= RING_KEEP, box, 255).astype(np.uint8)


def _placed(words: list[Word], read: list[tuple[Ring, str, float]], ink: np.ndarray | None = None) -> list[Word]:
    """`words` with each read ring a word of its label: on the line of the words read across it or, where
    Tesseract read nothing there, of the nearest word right of it on its row, else left of it; a ring with
    no word near on its row is left out (no line to stand on)."""
    result = list(words)
    for ring, label, conf in read:
        height = ring.bottom - ring.top
        across = [w for w in result if w.left < ring.right and ring.left < w.right and w.top < ring.bottom and ring.top < w.bottom]
        crossed = {id(w) for w in across}
        if across:
            line = across[0].line
        else:
            # The option's text right of it, else what stands left of it on its row (a key's "4:" before its answer).
            beside = [w for w in result if w.top < ring.bottom and ring.top < w.bottom
                      and (ring.right <= w.left <= ring.right + 2 * height or ring.left - 3 * height <= w.right <= ring.left)]
            if not beside:
                continue
            line = min(beside, key=lambda w: (w.left < ring.left, abs(w.left - ring.right))).line
        kept: list[Word] = []
        for word in result:
            if id(word) in crossed:
                # Tesseract's box of a ring's look-alike may reach over the next word's ink ("(5)" over "61").
                others = [(w.left, w.right) for w in result if w is not word and w.top < word.bottom and word.top < w.bottom]
                kept += _outside(word, ring, ink, others, label)
            else:
                kept.append(word)
        at = next((i for i, w in enumerate(kept) if w.line == line and w.left >= ring.left), None)
        if at is None:
            at = max((i + 1 for i, w in enumerate(kept) if w.line == line), default=len(kept))
        kept.insert(at, Word(label, conf, ring.left, ring.top, ring.right, ring.bottom, line))
        result = kept
    return result


def _outside(word: Word, ring: Ring, ink: np.ndarray | None, others: list[tuple[int, int]], label: str = "") -> list[Word]:
    """What of a word read across a ring lies outside it, left and right. Its characters are shared out
    by the ink: glyphs that stand apart (digits, letters of alphabets) one to each run of ink past the
    ring; with wide glyphs (Hangul, Han) among them, as many from the end as fill the ink's span; the
    ring's look-alike ("01" of "01778") is what is left."""
    count = len(word.text)
    parts = []
    before = round(count * max(0, ring.left - word.left) / max(1, word.right - word.left))
    if before:
        parts.append(replace(word, text=word.text[:before], right=ring.left))
    runs = _ink_runs_past(word, ring, ink, others)
    # A run narrower than a stroke is the bleed of a neighbour's ink, no character.
    runs = [(a, b) for a, b in runs if b - a >= MIN_RUN_HEIGHTS * (ring.bottom - ring.top)]
    if not runs:
        return parts
    start = runs[0][0]
    if any(unicodedata.east_asian_width(ch) in "WF" for ch in word.text):
        # From the word's end, as many characters as fill the inked span past the ring: a wide glyph
        # about a ring's width, any other about half (a ring read as "(1)" is three narrow ones).
        span, filled, after = word.right - start, 0.0, 0
        for ch in reversed(word.text[before:]):
            width = (ring.bottom - ring.top) * (1.0 if unicodedata.east_asian_width(ch) in "WF" else NARROW_GLYPH)
            if filled + width / 2 > span:
                break
            filled += width
            after += 1
        after = max(after, 1)
    else:
        # A word whose box only reaches into the ring's right half holds no reading of it: all of it is text.
        fit = max(len(runs), _fitting(word.text[before:], word.right - start, ring.bottom - ring.top))
        after = _past_lookalike(word.text[before:], label, len(runs), fit) if word.left < (ring.left + ring.right) / 2 else count - before
    after = min(after, count - before)
    if after > 0:
        parts.append(replace(word, text=word.text[count - after:], left=start))
    return parts


def _fitting(text: str, span: int, height: int) -> int:
    """How many of `text`'s last characters the ink's span past a ring can hold at the least, each at its
    narrowest: a digit `DIGIT_WIDTH` ring heights (figures print at one width), any other `NARROWEST_GLYPH`."""
    used, count = 0.0, 0
    for ch in reversed(text):
        used += (DIGIT_WIDTH if ch.isdigit() else NARROWEST_GLYPH) * height
        if used > span:
            break
        count += 1
    return count


def _past_lookalike(text: str, label: str, runs: int, fit: int) -> int:
    """How many of `text`'s characters (a word read from over a ring on: `Qodstawiłam`, `©Qczujka`, `(3)`, `096`)
    are the text printed past the ring. Its look-alike is what opens the word in the shapes a ring and its
    inside are read as (`RING_LOOKALIKES`, the label's own plain character once), at most `LOOKALIKE_MAX`
    characters, and never so many that fewer characters than the runs of ink past the ring are left, nor so
    few that more are left than the ink's span past the ring can hold (`fit`: "01778" read for a ring and "78").
    Counting characters by the runs alone dropped the first letters of a word glued to its ring, wherever
    letters touch (`①zielonej` read `④ elonej`): a run may hold two letters, never less than one."""
    plain = unicodedata.normalize("NFKC", label)
    taken, own = 0, False
    for ch in text[:LOOKALIKE_MAX]:
        if ch in RING_LOOKALIKES or (not ch.isalnum() and not ch.isspace()):
            taken += 1
        elif ch == plain and not own:
            taken, own = taken + 1, True
        else:
            break
    if taken == len(text):  # all of it the ring's look-alike ("(3)"): the ink past it is the ring's own or the next word's
        return 0
    return min(max(len(text) - taken, min(runs, len(text))), fit)


def _ink_runs_past(word: Word, ring: Ring, ink: np.ndarray | None, others: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Runs of columns with ink in the word's box right of the ring and in no other word's box (`others`:
    their columns), in page columns (all of the box past the ring as one run when the page's ink is not at hand)."""
    left = ring.right + 1
    if word.right <= left:
        return []
    if ink is None:
        return [(left, word.right)]
    columns = [bool(dark) for dark in np.asarray(np.asarray(ink[max(0, word.top):word.bottom, left:word.right]).any(axis=0), dtype=bool)]
    for first, last in others:
        for at in range(max(0, first - left), min(len(columns), max(0, last - left))):
            columns[at] = False
    runs: list[tuple[int, int]] = []
    start: int | None = None
    for at, dark in enumerate(columns):
        if dark and start is None:
            start = at
        elif not dark and start is not None:
            runs.append((left + start, left + at))
            start = None
    if start is not None:
        runs.append((left + start, left + len(columns)))
    return runs


def read_ring_cells(grey: np.ndarray, boxes: Sequence[tuple[int, int, int, int]], labels: Sequence[str], languages: Sequence[str],
                    dpi: int, omp_thread_limit: int | None) -> list[tuple[str, float] | None]:
    """Each box of `grey` (a key table's answer cell, ink and a margin of white) that holds one ring found
    by its shape (`find_rings`, the ink's height for the text height), read as its label the way option
    labels are: ring whitened, inside enlarged, all insides stacked and read against the plain alphabet
    (one Tesseract call); None for a box without one ring, or whose inside reads as no label."""
    alphabet = ring_alphabet(labels)
    found: dict[int, Ring] = {}
    for index, (left, top, right, bottom) in enumerate(boxes):
        crop = grey[top:bottom, left:right]
        rows = np.flatnonzero((crop < RING_INK_BELOW).any(axis=1))
        rings = find_rings(crop, float(rows[-1] - rows[0] + 1)) if rows.size else []
        if len(rings) == 1:
            ring = rings[0]
            found[index] = Ring(left + ring.left, top + ring.top, left + ring.right, top + ring.bottom)
    if alphabet is None or not found:
        return [None] * len(boxes)
    glyph = round(GLYPH_HEIGHTS * float(np.median([r.bottom - r.top for r in found.values()])))
    insides = [_enlarged(_inside(grey[r.top : r.bottom, r.left : r.right]), glyph) for r in found.values()]
    readings = dict(zip(found, _read_stacked(insides, "".join(alphabet), _plain_reader(alphabet, languages), dpi, omp_thread_limit)))
    return [(alphabet[readings[i][0]], readings[i][1]) if readings.get(i, ("", 0.0))[0] in alphabet else None for i in range(len(boxes))]
