"""Questions the sheet implies but the parser did not produce: a question lost whole (its number misread
by OCR, its header taken as text) leaves a hole in what the numbering, the sheet's other parts or the
key say is there. Each hole is a flag on the question beside it and one problem line naming the numbers.

A number is read as a stem and a counter, the counter being its last run of digits: "12" is ("", 12),
"3.2" is ("3.", 2), "Α4" is ("Α", 4), a declared section's "II.3" is ("II.", 3). Numbers of one stem
count up from 1 without holes, so
- a gap inside a stem's run is a hole ("Α2", "Α4": Α3; "3.1", "3.3": 3.2). Gaps in plain top-level
  numbers are `losses.flag_numbering`'s, not repeated here;
- a part that starts above 1 while another part of the same shape starts at 1 lost its first
  questions ("Α2" … "Α5" beside "Β1" …: Α1). Plain top-level numbers may start anywhere (a second
  booklet goes on from 41), so they have no start to lose;
- a key entry whose stem the sheet uses but whose number no question has is a hole ("Α1 → γ" in the
  marking scheme). Keys of other kinds report their unused entries themselves (`build`).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from pipeline.parse.blocks import Block
from pipeline.parse.draft import Draft
from pipeline.parse.labels import number_key
from pipeline.parse.losses import shown_numbers

_COUNTER = re.compile(r"(?P<stem>.*?)(?P<n>\d+)")


@dataclass(frozen=True)
class _Number:
    stem: str  # as printed: "Α", "3.", ""
    stem_key: str  # compared across scripts and printings: number_key of the stem
    counter: int

    def with_counter(self, counter: int) -> str:
        return f"{self.stem}{counter}"

    @property
    def printed(self) -> str:
        return self.with_counter(self.counter)


def _read(number: str | None) -> _Number | None:
    match = _COUNTER.fullmatch((number or "").strip(" ."))
    if match is None:
        return None
    stem = match.group("stem")
    return _Number(stem, number_key(stem) if stem.strip(" .") else "", int(match.group("n")))


def _shape(stem_key: str) -> str:
    """What parts of one kind share: "a" and "b" (Α, Β), "3" and "4" (3.x, 4.x)."""
    return re.sub(r"[^\W\d_]+", "a", re.sub(r"\d+", "9", stem_key))


def flag_implied_missing(blocks: list[Block], drafts: list[Draft], marking_scheme: dict[str, str] | None,
                         problems: list[str]) -> list[str]:
    """Flags the question after each hole, appends one problem line naming every missing number, and
    returns those numbers. `marking_scheme`: the key's entries (number key -> answer) when the key is a
    marking scheme, whose entries the key check does not compare with the sheet."""
    runs: dict[str, list[_Number]] = {}  # stem key -> its numbers in reading order, each once
    for block in blocks:
        read = _read(block.number) if block.kind == "question" else None
        if read is not None and all(n.counter != read.counter for n in runs.get(read.stem_key, [])):
            runs.setdefault(read.stem_key, []).append(read)
    by_number: dict[str, Draft] = {}
    for draft in drafts:
        by_number.setdefault(number_key(draft.block.number or draft.number), draft)

    missing: list[str] = []

    def hole(numbers: list[str], beside: _Number, why: str) -> None:
        missing.extend(n for n in numbers if n not in missing)
        draft = by_number.get(number_key(beside.printed))
        if draft is not None:
            draft.flags.append(f"{why}: {shown_numbers(numbers)} not found")

    starts: dict[str, set[int]] = {}
    for stem_key, run in runs.items():
        starts.setdefault(_shape(stem_key), set()).add(min(n.counter for n in run))
    for stem_key, run in runs.items():
        first = min(run, key=lambda n: n.counter)  # a number misread high (Α11 for Α1) is not the start
        if stem_key and first.counter > 1 and 1 in starts[_shape(stem_key)]:
            hole([first.with_counter(k) for k in range(1, first.counter)], first,
                 f"part {first.stem.strip(' .') or first.stem} starts at {first.printed}")
        if not stem_key:
            continue  # top-level gaps: losses.flag_numbering
        for previous, current in zip(run, run[1:]):
            if current.counter > previous.counter + 1:
                hole([current.with_counter(k) for k in range(previous.counter + 1, current.counter)], current,
                     f"question numbering jumps from {previous.printed} to {current.printed}")

    produced = {number_key(b.number) for b in blocks if b.kind == "question" and b.number}
    produced |= {number_key(d.number) for d in drafts}
    for entry in marking_scheme or {}:
        read = _read(entry)
        if read is not None and read.stem_key and read.stem_key in runs and entry not in produced:
            printed = runs[read.stem_key][0].with_counter(read.counter)
            if number_key(printed) not in {number_key(m) for m in missing}:
                after = [n for n in runs[read.stem_key] if n.counter > read.counter]
                if after:  # flagged on the question that follows it, where its text most likely went
                    hole([printed], min(after, key=lambda n: n.counter), "the answer key lists a question before this one")
                else:
                    missing.append(printed)

    if missing:
        problems.append(
            f"{len(missing)} question(s) the numbering, the sheet's parts or the key imply were not found: "
            f"{shown_numbers(missing)}"
        )
    return missing
