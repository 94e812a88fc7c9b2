"""The labels a page's rings stand for, pinned down by the labels' sequence (`by_sequence`): rings unread, or read as
a label that breaks the run, take the labels between the read ones; the rings' reading order (rows, or columns cut
by the page's gutters) is the one in which more of them step on; a ring in running text (a stem's mark) is no label.
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from pipeline.extract.ocr.ringshapes import Ring

# Of the read rings that follow each other in reading order, the share that step to the next label (or
# from the last to the first): options' labels all do, but for a question's end; a key's answers seldom.
SEQUENCE_MIN_STEPS = 0.6
# A word ending less than this many ring widths before a ring sets it in running text (a Korean word space is 0.25–0.35
# of a syllable, a ring a little over one): a mark in a stem (`㉠`), not a label, which opens its line or its row's cell.
INLINE_GAP = 0.5
ALIGNED = 0.25  # ring widths: rings whose left edges lie this close stand in one column of labels


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
    Where the rings are such a sequence, a ring `inline` says stands in running text (`in_running_text`: a mark printed
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


def letters_only(text: str) -> bool:
    """Whether `text` holds a letter and no digit: a word of running text, not a key entry's number (`1:`, `정답1:`)."""
    return any(ch.isalpha() for ch in text) and not any(ch.isdigit() for ch in text)


def in_running_text(ring: Ring, boxes: list[tuple[float, float, float, float]]) -> bool:
    """Whether a word of `boxes` (left, top, right, bottom, in the ring's coordinates: the page's words of letters
    without a digit, `letters_only`) on the ring's row starts well left of the ring and ends less than `INLINE_GAP` ring widths before it, or
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


def ring_gutters(rings: list[Ring], boxes: list[tuple[float, float, float, float]]) -> list[float]:
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
