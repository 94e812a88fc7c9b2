"""The interface of parse's OCR recovery passes: what a pass is, where in parsing it runs, and the runner.

Parse mends what OCR lost or misread (a question number's mark, a label, a key entry's number) and
judges how sure an OCR'd question is. Each such step is a declared pass, the same shape as a page's
OCR passes (`pipeline.extract.ocr.passes`): a `name` (what a spec's `ocr.passes.disable` names, page and
parse passes alike), a `version` (the parse cache key holds every enabled pass's name and version), a
`cost` (`Cost`), a declared condition `applies(work) -> bool` whose docstring is what the listing shows,
and `run(work, recovery) -> work` with a typed, frozen work value in and out. Unlike a page pass, a parse
pass runs at a `Point` of parsing (an OCR'd line as the stream reads it, the line stream before it is cut
into questions, a question's option lines, a true/false row's answer boxes, a key entry, …), and each
point has its own work type; `ocr_only` says the pass changes nothing on lines the
text layer gave (its version then keys only sheets read by OCR, `recovery_key`).

`pipeline.parse.ocrpasses.PARSE_PASSES` is the one ordered registry; a `Recovery` is the registry less what
a spec disables, and every point runs its passes through `Recovery.run(point, work)`, in the registry's order.
`stream.line_stream` cannot import this module (its `StreamLine` is the lines' type here): it is handed
`Recovery.line_reader(labels)`, the `Point.OCR_LINE` passes as a function of an OCR'd line's text.
"""
from __future__ import annotations

import enum
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, Generic, TypeVar

from pipeline.extract.ocr import Cost, DocumentedPass
from pipeline.parse.keyruns import ColumnRow
from pipeline.parse.stream import StreamLine


class Point(enum.Enum):
    """Where in parsing a pass runs, and what its work value holds."""

    OCR_LINE = "an OCR'd line, as the stream reads it"  # `OcrLineWork` (`stream.line_stream`, `Recovery.line_reader`)
    STREAM = "the sheet's lines, before they are cut into questions"  # `LinesWork` (`start_re`)
    NUMBER_RUNS = "the sheet's runs of question numbers"  # `NumberRunsWork` (`blocks`)
    BLOCKS = "the sheet's question blocks"  # `ocrpasses.BlocksWork`
    MARK = "a true/false statement row's trailing token"  # `MarkWork` (`truefalse`)
    QUESTION_LINES = "a question's lines, before its options are found"  # `LinesWork` (`labels`, `option_re`)
    OPTION_LINES = "a question's lines, while its options are found"  # `LinesWork` (`labels`, `option_re`)
    OPTIONS = "a question's options"  # `ocrpasses.OptionsWork`
    KEY_COLUMN = "a key column's rows"  # `KeyColumnWork`
    KEY_ENTRY = "a choice question's key entry, as its answer label is read"  # `KeyEntryWork` (`keying`)
    DRAFTS = "the sheet's questions, keyed"  # `ocrpasses.DraftsWork`
    KEY_TEXT = "a short-answer key entry read by OCR"  # `shortrepairs.KeyTextWork`


W = TypeVar("W")


@dataclass(frozen=True)
class LinesWork:
    """Lines of a sheet or a question, the matchers the passes read them by, and the flags they raised."""

    lines: list[StreamLine]
    start_re: re.Pattern | None = None  # the spec's `question_start` (Point.STREAM)
    labels: list[str] = field(default_factory=list)  # the spec's option labels
    option_re: re.Pattern | None = None
    flags: tuple[str, ...] = ()  # a flag per repair, for the question's record


@dataclass(frozen=True)
class OcrLineWork:
    """An OCR'd line's text as `line_stream` reads it, the spec's option labels, and whether a number in it
    is read with letter look-alikes as digits (`stream.match_number_line`)."""

    text: str
    labels: tuple[str, ...] = ()
    fold_digits: bool = False


@dataclass(frozen=True)
class MarkWork:
    """A token at a true/false row's end, whether the row was read by OCR, and the answer words (folded) a
    marker cell holds; `token` is what the marker test reads."""

    token: str
    ocr: bool
    words: frozenset[str]


@dataclass(frozen=True)
class KeyEntryWork:
    """A key entry's first token, the spec's option labels, whether the key was read by OCR, and the label
    it is read as (None until a reading gives one)."""

    token: str
    labels: tuple[str, ...]
    key_read_by_ocr: bool
    label: str | None = None


@dataclass(frozen=True)
class NumberRunsWork:
    """The sheet's header lines and their numbers, in runs (a declared section starts one), and the numbers
    misread: `id(line)` -> the number it must be, or None (text, not a header)."""

    runs: list[list[tuple[StreamLine, int]]]
    misread: dict[int, str | None]


@dataclass(frozen=True)
class KeyColumnWork:
    """A key column's rows and its items ([number or None, answer, row index, read as, pilot]), in order;
    `mended`: (number, report line) per entry a pass mended; `markless`: the entries read without their number's mark."""

    rows: list[ColumnRow]
    items: list[list]
    entry_re: re.Pattern
    mended: tuple[tuple[str, str], ...] = ()
    markless: tuple[str, ...] = ()  # numbers of the entries read without the mark after their number (`keymarks`)


@dataclass(frozen=True)
class RecoveryPass(DocumentedPass, Generic[W]):
    """One declared pass: `when` is its condition (its docstring says it in words), `step` what it does."""

    name: str
    version: str
    cost: Cost
    point: Point
    step: Callable[[W, Recovery], W]
    when: Callable[[W], bool]
    ocr_only: bool = True
    required: bool = False  # none is: parsing stands without every one of them (`passes.check_disabled` reads it)

    def applies(self, work: W) -> bool:
        return self.when(work)

    def run(self, work: W, recovery: Recovery) -> W:
        return self.step(work, recovery)


def recovery_pass(name: str, version: str, point: Point, when: Callable[[Any], bool], *, cost: Cost = Cost.CHEAP,
                  ocr_only: bool = True) -> Callable[[Callable[[Any, Recovery], Any]], RecoveryPass]:
    """Declare a function `(work, recovery) -> work` as a pass (listed, in its place, in `PARSE_PASSES`)."""

    def declare(step: Callable[[Any, Recovery], Any]) -> RecoveryPass:
        return RecoveryPass(name, version, cost, point, step, when, ocr_only)

    return declare


_REGISTRY: list[tuple[RecoveryPass, ...]] = []  # filled once by `pipeline.parse.ocrpasses` (the ordered registry)


def install(passes: tuple[RecoveryPass, ...]) -> None:
    """Set the registry (`ocrpasses` calls it as it is imported: this module cannot import it back)."""
    _REGISTRY[:] = [passes]


def registered() -> tuple[RecoveryPass, ...]:
    if not _REGISTRY:
        raise RuntimeError("parse's OCR recovery passes are not registered: import pipeline.parse")
    return _REGISTRY[0]


@dataclass(frozen=True)
class Recovery:
    """The passes a sheet's parsing runs: the registry, in its order, less the ones a spec disables."""

    passes: tuple[RecoveryPass, ...]

    @classmethod
    def every(cls) -> Recovery:
        """Every registered pass (what a caller that names no spec gets)."""
        return cls(registered())

    @classmethod
    def without(cls, disabled: tuple[str, ...] | list[str] | set[str] | frozenset[str]) -> Recovery:
        """The registry less the passes named in `disabled` (names of page passes among them are not ours)."""
        return cls(tuple(p for p in registered() if p.name not in disabled))

    def for_text_layer(self) -> Recovery:
        """The passes that can change a sheet whose every file the text layer gave (no page, drawn text or
        unmapped glyph read by OCR): those not `ocr_only`. The others change nothing there, which the
        parse cache key already counts on (`recovery_key`), so their conditions are not even asked."""
        return Recovery(tuple(p for p in self.passes if not p.ocr_only))

    def run(self, point: Point, work: W) -> W:
        """`work` after every enabled pass of `point` whose condition holds, in the registry's order."""
        for recovery_pass_ in self.passes:
            if recovery_pass_.point is point and recovery_pass_.applies(work):
                work = recovery_pass_.run(work, self)
        return work

    def line_reader(self, labels: list[str] | tuple[str, ...] | None) -> Callable[[str], tuple[str, bool]]:
        """What `stream.line_stream` makes of an OCR'd line's text: (its text after the `Point.OCR_LINE`
        passes, whether its numbers are read with letter look-alikes as digits)."""
        wanted = tuple(labels or ())

        def read(text: str) -> tuple[str, bool]:
            done = self.run(Point.OCR_LINE, OcrLineWork(text, wanted))
            return done.text, done.fold_digits

        return read

    def lines(self, point: Point, lines: list[StreamLine], **matchers: Any) -> tuple[list[StreamLine], list[str]]:
        """The `LinesWork` points: `lines` after the point's passes, and the flags they raised."""
        done = self.run(point, LinesWork(lines, **matchers))
        return done.lines, list(done.flags)


def with_flags(work: Any, flags: list[str] | tuple[str, ...], **changes: Any) -> Any:
    """`work` (a frozen work value with a `flags` field) with `changes`, and `flags` added to its own."""
    return replace(work, flags=tuple(work.flags) + tuple(flags), **changes)
