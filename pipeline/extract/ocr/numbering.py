"""A key table's number column read as a counted sequence in blocks: a key that lists only a test's closed
questions numbers them in runs with gaps where the open questions stand (NÚCEM: 01–05, 09–13, 17–21, …), so
no single start fits most cells and the column was not taken for a number column at all. Each block counts
up by one from cell to cell, and the blocks follow one another upward; a reading that breaks a block between
two cells of it that fit takes the number its place gives, and a cell left unread where two blocks meet
(which block it ends or starts cannot be told) stays without a number.

A line counted in one run (`counting_run`: a grid's number row, a list's number column) is here too.

A number a run or a block gives in place of what was read (a misread digit, a cell unread) is no reading: the
pass writing it keeps what was read (`Word.inferred_from`) and says which question's number it was in a page note
(`inferred_notes`). Whether the count's number is in doubt is one rule (`anchored_mends`): numbers put in between
neighbours read as the count says, one on each side, alone or a few side by side (as many rows between the two as
numbers), are anchored (their places among read rows are geometry, each answer cell is read on its own; so too where
a cell's ink was read as nothing): they keep the reading's confidence and their notes are info (`ocr.number_anchored`).
One put in at a run's end, or in a longer stretch of mends (which row is which is less sure there) is written at
`INFERRED_CONF` (under any threshold the certainty flag judges by, so the key entry or question resting on it is flagged
unsure) and its note is a warning (`ocr.number_inferred`).
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence

from pipeline.diagnostics import Code, Diagnostic, diagnose
from pipeline.extract.ocr.words import Word

BLOCK_MIN_STEPS = 0.7  # of the steps between neighbouring readings that must be +1 a place for a column of blocks
MEND_MAX_PLACES = 3  # places between two readings of one block across which the readings between are mended
BLOCK_MIN_LENGTH = 3  # cells of a block, at least: shorter runs between jumps are misreadings, not blocks
COUNT_MIN_SHARE = 0.7  # of a line's numbers read that must be the number their place in the run gives
MIN_NUMBERS = 3  # number cells in a run before it is a key's numbering
INFERRED_CONF = 0.0  # the confidence a number put in from its place's count, not anchored, is read with: unsure by any policy


def anchored_mends(read: Sequence[str | None], numbers: Sequence[int | None]) -> set[int]:
    """The places of a run whose number the count gave in place of what was read and whose placement is not in doubt.
    `read`: what was read at each place (its digits; "" where its ink was read as nothing, None where no cell stands, look-alike letters as read);
    `numbers`: the number the count gives each place (None where it gives none). A place is mended where what was read
    is not its number; a mend is anchored where it lies in a stretch of mended places (at most `MEND_MAX_PLACES`), each
    one a cell (its ink read, as something or as nothing: ""), whose places just before and just after were read as the
    count says, the count going up by one across the stretch (a block's jump, `counted_blocks`, is a run's end): the
    rows between two rows read as counted are as many as the numbers between them, so each entry's place among them is
    geometry, whatever its own digits gave (`23`, nothing, `0` for 24, 25, 26 between 22 and 27 read). A mend at a
    run's end, or in a longer stretch, is not (which row is which is in doubt there)."""
    def as_counted(place: int) -> bool:
        if not 0 <= place < len(numbers) or numbers[place] is None:
            return False
        text = read[place] if place < len(read) else None
        return text is not None and text.isdecimal() and int(text) == numbers[place]

    def mended(place: int) -> bool:
        return place < len(read) and read[place] is not None and numbers[place] is not None and not as_counted(place)

    anchored: set[int] = set()
    place = 0
    while place < len(numbers):
        if not mended(place):
            place += 1
            continue
        end = place
        while end + 1 < len(numbers) and mended(end + 1):
            end += 1
        first, last = numbers[place - 1] if place else None, numbers[end + 1] if end + 1 < len(numbers) else None
        if end - place < MEND_MAX_PLACES and as_counted(place - 1) and as_counted(end + 1) and first is not None \
                and last is not None and all(numbers[i] == first + i - place + 1 for i in range(place, end + 1)) \
                and last == first + end - place + 2:
            anchored |= set(range(place, end + 1))
        place = end + 1
    return anchored


def inferred_notes(words: Iterable[Word], where: str) -> tuple[Diagnostic, ...]:
    """One note per word whose number was put in from its place's count, naming the question (its number, without its
    mark) and what was read there; `where`: what counted it ("key table"). An anchored mend (`Word.inferred_anchored`,
    `anchored_mends`) is `ocr.number_anchored` (info, no flag); any other `ocr.number_inferred` (a warning: parse keys
    its entry as inferred, its question flagged)."""
    return tuple(
        diagnose(Code.OCR_NUMBER_ANCHORED if w.inferred_anchored else Code.OCR_NUMBER_INFERRED, where=where,
                 question=w.text.rstrip(".):"), read=f"read as {w.inferred_from!r}" if w.inferred_from else "nothing read")
        for w in words if w.inferred_from is not None
    )


def counting_run(values: list[int | None]) -> list[int] | None:
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


def counted_blocks(values: list[int | None]) -> list[int | None] | None:
    """The numbers of a column whose readings count up by one in blocks that follow one another upward, each
    cell's as its place in its block gives (None where no block can claim an unread cell); or None when the
    readings are no such column (too few, a step down, too many jumps, a block shorter than `BLOCK_MIN_LENGTH`)."""
    read = [(i, v) for i, v in enumerate(values) if v is not None]
    if len(read) < 2 * BLOCK_MIN_LENGTH:
        return None
    # Misreadings between two readings of one block ("23" between 24 and 26; "20 91" between 49 and 52: no more
    # than `MEND_MAX_PLACES` apart) take their places' numbers. A reading its neighbour counts on from (12 under
    # 13) is no misreading: it is never mended, and a misreading ("14" for 11 above "12 13") mends nothing.
    mended = dict(read)
    counted = _counted_on(dict(read))
    for a, (i0, v0) in enumerate(read):
        for i2, v2 in read[a + 2:]:
            if i2 - i0 > MEND_MAX_PLACES:
                break
            between = [i1 for i1 in range(i0 + 1, i2) if i1 in mended]
            if v2 - v0 == i2 - i0 and not any(i1 in counted for i1 in between):
                for i1 in between:
                    mended[i1] = v0 + (i1 - i0)
    steps = [(i1 - i0, mended[i1] - mended[i0]) for i0, i1 in zip(sorted(mended), sorted(mended)[1:])]
    if any(dv <= 0 or dv < di for di, dv in steps):
        return None  # a step down, or fewer numbers than places: no counted column
    if sum(dv == di for di, dv in steps) < BLOCK_MIN_STEPS * len(steps):
        return None
    # Blocks: runs of readings whose steps are one a place; each must be long enough to be a block.
    numbers: list[int | None] = [None] * len(values)
    places = sorted(mended)
    blocks: list[tuple[int, int]] = []  # (first place, last place) of each block
    start = 0
    for k in range(1, len(places) + 1):
        if k < len(places) and mended[places[k]] - mended[places[k - 1]] == places[k] - places[k - 1]:
            continue
        blocks.append((places[start], places[k - 1]))
        start = k
    if not _regular(blocks, mended):
        return None
    for first_place, last_place in blocks:
        for place in range(first_place, last_place + 1):
            numbers[place] = mended[first_place] + place - first_place
    # Unread cells before the first reading or after the last follow their block.
    first, last = places[0], places[-1]
    for place in range(first):
        numbers[place] = mended[first] - (first - place)
    for place in range(last + 1, len(values)):
        numbers[place] = mended[last] + (place - last)
    if any(n is not None and n < 0 for n in numbers):
        return None
    return numbers


def _counted_on(values: dict[int, int]) -> set[int]:
    """The places whose reading the cell just above or just below counts on from by one (`9 10`: both)."""
    return {i for i, v in values.items() if values.get(i - 1) == v - 1 or values.get(i + 1) == v + 1}


def _regular(blocks: list[tuple[int, int]], values: dict[int, int]) -> bool:
    """Whether the blocks are a key's: each at least `BLOCK_MIN_LENGTH` numbers, those between the first and
    the last all equally long (the first and last, which a page may cut, no longer), every jump between two
    the same. A misreading where two blocks meet ("12 13" read "15 16" after 9 10 11) shifts a block's end and
    breaks that pattern, so the column is not numbered at all rather than numbered wrong."""
    lengths = [values[last] - values[first] + 1 for first, last in blocks]
    if min(lengths) < BLOCK_MIN_LENGTH:
        return False
    inner = lengths[1:-1] or [max(lengths)]
    if len(set(inner)) > 1 or lengths[0] > inner[0] or lengths[-1] > inner[0]:
        return False
    jumps = {values[next_first] - values[last] for (_, last), (next_first, _) in zip(blocks, blocks[1:])}
    return len(jumps) <= 1


Cell = tuple[int, int]  # (band, cell) of a key table


def chained_columns(columns: list[list[Cell]], values: dict[Cell, int], min_numbers: int) -> list[tuple[list[Cell], list[int]]]:
    """Number columns too short to count alone (a key of few questions in number | answer pairs: "1 2" down the
    first pair, "3 4" down the next), from `columns` (left to right, each top to bottom, header left out) and the
    numbers read in their cells: columns one step apart (a pair's width), each counting down by one from the number
    the one before ended at, all its readings but one that number's place gives (a misread or unread digit takes its
    place's). The chain holding the most numbers, when it has at least two columns and `min_numbers` numbers; []
    otherwise. An answer column may count by chance (`б` read as 6 under `в`), but not on, a step on."""
    starts: list[set[int]] = []
    for column in columns:
        offsets = [values[k] - i for i, k in enumerate(column) if k in values]
        starts.append({o for o in offsets if offsets.count(o) >= max(1, len(column) - 1)})
    best: list[tuple[list[Cell], list[int]]] = []
    for at, column in enumerate(columns):
        for start in sorted(starts[at]):
            for step in (1, 2, 3):
                chain = [(column, [start + i for i in range(len(column))])]
                for later in range(at + step, len(columns), step):
                    following = chain[-1][1][-1] + 1
                    if following not in starts[later]:
                        break
                    chain.append((columns[later], [following + i for i in range(len(columns[later]))]))
                if len(chain) >= 2 and sum(len(run) for _, run in chain) > sum(len(run) for _, run in best):
                    best = chain
    return best if sum(len(run) for _, run in best) >= min_numbers else []
