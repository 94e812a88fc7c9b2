"""A key table's answer cells matched against the table's own surely read cells: one printer, one font,
one size, so a label's glyph looks alike in every cell that holds it, whatever a recogniser makes of
one blurred copy of it (a ringed ⑤ read by Tesseract as ② or as nothing, while twenty other ⑤ of the
same table read sure).

Each cell's glyph is framed by its ink (the pieces of ink at least `PIECE_SHARE` of the cell's largest,
so scanner specks are left out), padded to a square and scaled to `SIDE` pixels; the prototype of a
label is the mean of the glyphs read as it at least `sure` (leaving the cell itself out). A cell is
compared with every prototype by normalised correlation:
- a cell left unread takes the label whose prototype it matches best, where that match is at least
  `MATCH_MIN` and beats every other label's by `MARGIN`;
- a read cell whose glyph matches another label's prototype at least `MATCH_MIN` and by `MARGIN` better
  than its own label's is left unread (reported for its question): two readings that differ are no
  answer, and a recogniser's sure misreading (a blurred ⑤ read as ③ at 90) is no prototype of the rest.
Nothing here knows a script or an alphabet: a label no cell reads surely has no prototype, and a cell
that matches none clearly stays as it was read.
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from PIL import Image

SIDE = 32  # a glyph's square, in pixels, once framed and scaled
PIECE_SHARE = 0.03  # of the cell's largest piece of ink: smaller pieces are specks, not the glyph's
FRAME_CUT = 0.75  # of the way from the cell's darkest pixel to its paper: lighter is paper when the glyph is framed (a thin ring scans pale)
MIN_PROTOTYPE = 2  # surely read cells of a label before its prototype stands
MATCH_MIN = 0.5  # a cell's correlation with the label it takes, at least
MARGIN = 0.3  # by which the best label's correlation beats the next one's
MATCHED_CONF = 50.0  # the confidence a cell read by its shape alone gets (less than any recogniser's sure reading)


def glyph(grey: np.ndarray, piece_share: float = PIECE_SHARE) -> np.ndarray | None:
    """The cell's glyph as a `SIDE`×`SIDE` vector of ink (0 paper, 1 black), framed by its ink (the pieces at least
    `piece_share` of its largest), or None for a cell without ink. The cut between ink and paper is `FRAME_CUT` of the
    way from the cell's darkest pixel to its paper (its median), so a pale, blurred scan frames its glyph as a dark one
    does."""
    from scipy import ndimage  # here, not at import: scipy costs every process a second

    if grey.size == 0:
        return None
    darkest, paper = float(grey.min()), float(np.median(grey))
    if paper - darkest < 40:
        return None
    ink = grey < darkest + FRAME_CUT * (paper - darkest)
    pieces, count = ndimage.label(ink, structure=np.ones((3, 3), dtype=bool))
    sizes = np.bincount(pieces.ravel())[1:]
    kept = np.isin(pieces, 1 + np.flatnonzero(sizes >= piece_share * sizes.max()))
    rows, columns = np.flatnonzero(kept.any(axis=1)), np.flatnonzero(kept.any(axis=0))
    top, bottom, left, right = rows[0], rows[-1] + 1, columns[0], columns[-1] + 1
    side = max(bottom - top, right - left)
    square = np.full((side, side), paper, dtype=np.float32)
    y, x = (side - (bottom - top)) // 2, (side - (right - left)) // 2
    square[y:y + bottom - top, x:x + right - left] = grey[top:bottom, left:right]
    scaled = np.asarray(Image.fromarray(square).resize((SIDE, SIDE), Image.Resampling.BILINEAR), dtype=np.float32)
    return np.clip((paper - scaled) / max(1.0, paper - darkest), 0.0, 1.0).ravel()


def _correlation(a: np.ndarray, b: np.ndarray) -> float:
    norm = float(np.linalg.norm(a) * np.linalg.norm(b))
    return float(a @ b) / norm if norm else 0.0


def match_own_shapes(cells: Sequence[np.ndarray], answers: list[tuple[str, float] | None], sure: float) -> list[tuple[str, float] | None]:
    """`answers` (each cell's label and confidence, or None) completed and checked against the cells'
    own glyphs (`cells`: each cell's grey crop, as scanned): see the module's docstring."""
    shapes = {i: shape for i, cell in enumerate(cells) if (shape := glyph(cell)) is not None}
    by_label: dict[str, list[int]] = {}
    for index, answer in enumerate(answers):
        if answer is not None and answer[1] >= sure and index in shapes:
            by_label.setdefault(answer[0], []).append(index)
    if len(by_label) < 2:
        return answers
    # What every label's glyph shares (a ring, a cell's shape) tells none apart: compared are the glyphs'
    # differences from the table's mean glyph.
    common = np.mean([shapes[i] for members in by_label.values() for i in members], axis=0)
    shapes = {i: shape - common for i, shape in shapes.items()}
    total = {label: np.sum([shapes[i] for i in members], axis=0) for label, members in by_label.items()}
    result = list(answers)
    for index, shape in shapes.items():
        answer = answers[index]
        scores = {}
        for label, members in by_label.items():
            own = index in members
            if len(members) - own < MIN_PROTOTYPE:
                continue
            scores[label] = _correlation(shape, (total[label] - (shape if own else 0)) / (len(members) - own))
        if len(scores) < 2:
            continue
        ranked = sorted(scores, key=lambda label: -scores[label])
        best, second = scores[ranked[0]], scores[ranked[1]]
        if answer is None:
            if best >= MATCH_MIN and best - second >= MARGIN:
                result[index] = (ranked[0], MATCHED_CONF)
        elif answer[0] != ranked[0] and answer[0] in scores and best >= MATCH_MIN and best - scores[answer[0]] >= MARGIN:
            result[index] = None
    return result


# A label's surely read cells judged against each other: a recogniser that reads a glyph surely as a label whose own
# glyph is unlike it (a bold "C" cropped between box rules read "E" at 95, where no "C" of the table was read sure, so
# no "C" prototype could outbid the "E"s) leaves one cell standing apart from the label's other cells.
OWN_MIN_CELLS = 5  # surely read cells of a label before its cells are judged against each other
OWN_SPREAD = 5.0  # times the label's typical distance from its own prototype (1 − correlation) a cell may stand
OWN_PIECE_SHARE = 1.0  # of the cell's largest piece of ink: only that piece frames the glyph judged
OWN_MIN_DISTANCE = 0.12  # and at least this distance: cells of one glyph scanned alike sit near 0 (up to 0.064 on the tuning grids, their misread cells 0.18–0.24)


def unlike_their_own(cells: Sequence[np.ndarray], answers: Sequence[tuple[str, float] | None], sure: float) -> set[int]:
    """The indices of the surely read cells (`answers[i]` at least `sure`) whose glyph stands apart from every other
    cell read surely as the same label: its distance from the mean of their glyphs (1 − correlation, the cell left
    out) is more than `OWN_SPREAD` times the label's median such distance and at least `OWN_MIN_DISTANCE`. Labels with
    fewer than `OWN_MIN_CELLS` sure cells are not judged: a handful of cells sets no typical glyph."""
    # Each glyph framed by its largest piece of ink alone: a crop that holds a piece of its box's rules above and below
    # the letter (a blurred row at 235 dpi) frames the rules with it, and stood apart from its label's tightly cropped cells
    # though read right. Labels are judged only against cells framed the same way.
    shapes = {i: shape for i, cell in enumerate(cells) if (shape := glyph(cell, OWN_PIECE_SHARE)) is not None}
    by_label: dict[str, list[int]] = {}
    for index, answer in enumerate(answers):
        if answer is not None and answer[1] >= sure and index in shapes:
            by_label.setdefault(answer[0], []).append(index)
    apart: set[int] = set()
    for members in by_label.values():
        if len(members) < OWN_MIN_CELLS:
            continue
        total = np.sum([shapes[i] for i in members], axis=0)
        distance = {i: 1.0 - _correlation(shapes[i], (total - shapes[i]) / (len(members) - 1)) for i in members}
        typical = float(np.median(list(distance.values())))
        apart |= {i for i, d in distance.items() if d > max(OWN_SPREAD * typical, OWN_MIN_DISTANCE)}
    return apart
