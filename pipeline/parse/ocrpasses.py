"""The registry of parse's OCR recovery passes, in the order parsing meets them (`PARSE_PASSES`).

Each pass is declared here with its name, version, cost, point and condition (`recovery.recovery_pass`);
what it does lives in the module it calls (`pipeline.extract.ocr`'s label repair, `stream`, `blocks`,
`unnumbered`, `lostlabel`, `labelcolumn`, `labelremainder`, `keyruns`, `certainty`, `labels`). `examcorpus ocr passes`, the docs' table, a spec's `ocr.passes.disable` and
the parse cache key (`recovery_key`) are all read from this one list.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from pipeline.extract.ocr import UnknownPass, check_pass_names, normalize_ocr_line, pass_names
from pipeline.extract.ocr import register as register_ocr_command
from pipeline.parse import recovery
from pipeline.parse.blocks import Block, edge_stroke_numbers, restore_first_mark, restore_next_marks, twin_numbers
from pipeline.parse.certainty import judge_drafts
from pipeline.parse.draft import Draft
from pipeline.parse.keymarks import read_without_marks
from pipeline.parse.keyruns import mend_run, runs_down
from pipeline.parse.labels import canonical_label, fold
from pipeline.parse.labelcolumn import restore_label_column
from pipeline.parse.labelremainder import drop_label_remainders
from pipeline.parse.lostdigits import restore_lost_digits
from pipeline.parse.lostlabel import restore_lost_first_label, restore_lost_labels, restore_trailing_labels
from pipeline.parse.options import Option
from pipeline.parse.rowlabels import restore_row_labels
from pipeline.parse.shortrepairs import slash_alternatives
from pipeline.parse.stream import StreamLine
from pipeline.parse.recovery import (
    KeyColumnWork,
    KeyEntryWork,
    LinesWork,
    MarkWork,
    NumberRunsWork,
    OcrLineWork,
    Point,
    Recovery,
    RecoveryPass,
    recovery_pass,
    with_flags,
)
from pipeline.parse.unnumbered import recover_unnumbered

# ---------------------------------------------------------------- the work of the points only build.py runs


@dataclass(frozen=True)
class BlocksWork:
    """The sheet's question blocks, and the matchers their options are found by."""

    blocks: list[Block]
    labels: list[str]
    option_re: re.Pattern
    bare_min_run: int | None


@dataclass(frozen=True)
class OptionsWork:
    """A question's options as found; `ends_block`: nothing follows them in the block; `min_count`: how many
    options a choice question has at least (the spec's, or the sheet's typical count). `flags` go on the
    question whatever it turns out to be; `option_flags` only on it as a choice question."""

    options: list[Option]
    labels: list[str]
    min_count: int
    ends_block: bool
    flags: tuple[str, ...] = ()
    option_flags: tuple[str, ...] = ()


@dataclass(frozen=True)
class DraftsWork:
    """The sheet's questions, keyed; the key entries read from unsure words, and whether a key was OCR'd."""

    drafts: list[Draft]
    key_unsure: dict[str, list[str]]
    key_read_by_ocr: bool
    labels: list[str] = field(default_factory=list)
    language: str | None = None  # the sheet's (ISO 639-1): its one-letter words judge OCR'd texts
    key_inferred: frozenset[str] = frozenset()  # number keys whose entry the key reader inferred (a grid number put back)


# ---------------------------------------------------------------- conditions (their docstrings are what the listing shows)


def _labels_named(work: OcrLineWork) -> bool:
    """the spec names the option labels (the point sees OCR'd lines only)"""
    return bool(work.labels)


def _ocr_line(work: OcrLineWork) -> bool:
    """always (the point sees OCR'd lines only)"""
    return True


def _ocr_row(work: MarkWork) -> bool:
    """the row was read by OCR"""
    return work.ocr


def _ocr_key_entry_unread(work: KeyEntryWork) -> bool:
    """the key was read by OCR and its entry's first token is two letters that are no label"""
    return work.key_read_by_ocr and work.label is None and len(work.token) == 2


def _ocr_lines(work: LinesWork) -> bool:
    """some of the lines were read by OCR"""
    return any(sl.ocr for sl in work.lines)


def _ocr_headers(work: NumberRunsWork) -> bool:
    """some of the headers were read by OCR"""
    return any(item.ocr for run in work.runs for item, _ in run)


def _always(work: object) -> bool:
    """always (it looks only where the numbering leaves a gap)"""
    return True


def _options_end_block(work: OptionsWork) -> bool:
    """the question's options end its block (text after them, an open task's answer lines, says they are no choice question's)"""
    return work.ends_block


def _some_options(work: OptionsWork) -> bool:
    """the question has options"""
    return bool(work.options)


def _column_rows_unread(work: KeyColumnWork) -> bool:
    """OCR'd rows of the column read as no entry"""
    return any(item[0] is None for item in work.items)


def _column_counts_up(work: KeyColumnWork) -> bool:
    """the column's entry numbers run down the rows"""
    return runs_down(work.items)


def _ocr_questions(work: DraftsWork) -> bool:
    """always (a question read from the text layer, keyed from a text key, is left as it is)"""
    return True


# ---------------------------------------------------------------- the passes


@recovery_pass("label-lookalikes", "2", Point.OCR_LINE, _labels_named)
def _label_lookalikes(work: OcrLineWork, passes: Recovery) -> OcrLineWork:
    """An option label at a line's start misread as its look-alike (`c.` for `C.`, `Υ.` for `γ.`, `€.` for `C.`,
    `©` for `(C)`, `{B)` for `(B)`) read as the spec's label (`pipeline.extract.ocr.normalize_ocr_line`)."""
    return replace(work, text=normalize_ocr_line(work.text, work.labels))


@recovery_pass("number-lookalikes", "3", Point.OCR_LINE, _ocr_line)  # 3: key header rows naming a booklet type too
def _number_lookalikes(work: OcrLineWork, passes: Recovery) -> OcrLineWork:
    """Numbers read with letter look-alikes as digits where the numbering, key entries and a key's booklet-type
    headers are matched (`Zadanie 3.l.` is task 3.1, `(I pkt)` one point, `1O.` question 10, `TIPO l` booklet
    type 1; `stream.fold_ocr_digits`, `stream.variant_names`; and after a part's letter, `ΑΙ.` with a Greek
    capital iota is question Α1: `stream._fold_part_number`); the text itself is kept."""
    return replace(work, fold_digits=True)


@recovery_pass("ringed-marks", "1", Point.MARK, _ocr_row)
def _ringed_marks(work: MarkWork, passes: Recovery) -> MarkWork:
    """A true/false answer label read with the circle of its answer box beside it (`Po`, `OF`) read as the
    label (`truefalse`)."""
    bare = work.token.strip("oO0")
    return replace(work, token=bare) if fold(bare) in work.words else work


@recovery_pass("doubled-key-letter", "1", Point.KEY_ENTRY, _ocr_key_entry_unread)
def _doubled_key_letter(work: KeyEntryWork, passes: Recovery) -> KeyEntryWork:
    """A key entry's lone answer letter read twice, in both cases (`Cc` for `C`), read as that label
    (`keying`)."""
    labels = list(work.labels)
    if len({canonical_label(ch, labels) for ch in work.token} - {None}) != 1:
        return work
    return replace(work, label=canonical_label(work.token[0], labels) or canonical_label(work.token[1], labels))


def _marks_given(before: list[StreamLine], after: list[StreamLine]) -> list[str]:
    """The numbers (with the mark given) of the lines a mark pass changed, line for line: for the sheet's info note
    (`parse.marks_restored`). The number itself was read; only its mark was put back."""
    return [b.text.split(maxsplit=1)[0] for a, b in zip(before, after) if a.text != b.text and b.text.strip()]


@recovery_pass("first-number-mark", "2", Point.STREAM, _ocr_lines)  # 2: the number given its mark counted in the sheet's notes
def _first_number_mark(work: LinesWork, passes: Recovery) -> LinesWork:
    """The first question's number read without its mark (`1` | `Por el arriendo…` | `2. Considera…`): the last
    line at the first header's left edge before it, one less, opens the first question (`blocks`)."""
    assert work.start_re is not None
    lines = restore_first_mark(work.lines, work.start_re)
    return with_flags(work, _marks_given(work.lines, lines), lines=lines)


@recovery_pass("next-number-mark", "3", Point.STREAM, _ocr_lines)  # 3: the numbers given their mark counted in the sheet's notes
def _next_number_mark(work: LinesWork, passes: Recovery) -> LinesWork:
    """A bare OCR'd number at the headers' left edge that is the next number of the run gets the mark
    `question_start` asks for (`3` | `¿A cuál…` → `3. ¿A cuál…`; `blocks`)."""
    assert work.start_re is not None
    lines = restore_next_marks(work.lines, work.start_re)
    return with_flags(work, _marks_given(work.lines, lines), lines=lines)


@recovery_pass("lost-number-digits", "1", Point.STREAM, _ocr_lines)
def _lost_number_digits(work: LinesWork, passes: Recovery) -> LinesWork:
    """An OCR'd line at the headers' left edge that shows a header's prefix and mark but not its digits (`.` |
    `2011 …` for `1. 2011 …`, `Câu .`), where the run leaves it exactly one number (the first header's less one,
    or a gap of one), gets that number; flagged as inferred on its question (`lostdigits`, `blocks`)."""
    assert work.start_re is not None
    lines, flags = restore_lost_digits(work.lines, work.start_re)
    return with_flags(work, tuple(flags), lines=lines)


@recovery_pass("twin-numbers", "1", Point.NUMBER_RUNS, _ocr_headers)
def _twin_numbers(work: NumberRunsWork, passes: Recovery) -> NumberRunsWork:
    """A header number read as its neighbour's beside a gap of exactly one (97, 99, 99, 100), at the headers'
    left edge and as wide, is the missing number: the run must rise; flagged as read and taken (`blocks`)."""
    return replace(work, misread={**work.misread, **twin_numbers(work.runs)})


@recovery_pass("edge-strokes", "1", Point.NUMBER_RUNS, _ocr_headers)
def _edge_strokes(work: NumberRunsWork, passes: Recovery) -> NumberRunsWork:
    """A header number read with one stroke beside it ("2|" as 21: the edge of its box or banner) in a gap of
    exactly one, at the headers' left edge, is the missing number; flagged as read and taken (`blocks`)."""
    return replace(work, misread={**work.misread, **edge_stroke_numbers(work.runs)})


@recovery_pass("unnumbered", "1", Point.BLOCKS, _always, ocr_only=False)
def _unnumbered(work: BlocksWork, passes: Recovery) -> BlocksWork:
    """A question whose number was lost, run on after the previous one's options or at a passage's end, cut
    out and numbered where the gap leaves exactly its numbers; flagged (`unnumbered`)."""
    return replace(work, blocks=recover_unnumbered(work.blocks, work.labels, work.option_re, work.bare_min_run, recovery=passes))


@recovery_pass("lost-first-label", "1", Point.QUESTION_LINES, _ocr_lines)
def _lost_first_label(work: LinesWork, passes: Recovery) -> LinesWork:
    """The first option's lost label taken from the stem's last lines indented to the options' text column,
    or from a label misread as a word (`al` for `a)`) at the label column; flagged (`lostlabel`)."""
    assert work.option_re is not None
    lines, flag = restore_lost_first_label(work.lines, work.labels, work.option_re)
    return with_flags(work, [flag] if flag else [], lines=lines)


@recovery_pass("row-labels", "2", Point.QUESTION_LINES, _ocr_lines)  # 2: look-alikes from the languages' data; a label's mark read doubled
def _row_labels(work: LinesWork, passes: Recovery) -> LinesWork:
    """A row of options side by side whose later labels OCR misread (`B)` or `ϐ)` for `β)`/`δ)`, `}γ)`, `1969(C)1917`):
    a token of the first label's printed form at a place of the row's gaps, or read as a look-alike of the next label
    that the languages' data names (`6)` for `б)`), is the label the sequence leaves there, a mark read doubled is cut,
    a label read with a speck or glued to a word is cut off it, and the row is cut at its labels; flagged where a
    label was mended (`rowlabels`)."""
    assert work.option_re is not None
    lines, flags = restore_row_labels(work.lines, work.labels, work.option_re)
    return with_flags(work, flags, lines=lines)


# 2: the tab stops of an evenly spaced row of labels count as its columns; 3: an option grid read across its rows
@recovery_pass("label-column", "3", Point.OPTION_LINES, _ocr_lines)
def _label_column(work: LinesWork, passes: Recovery) -> LinesWork:
    """A token that is no word (`0`, `©)`, `1)`) or a lone letter at the column where the labels stand becomes the
    label the sequence leaves there (in an option grid read across its rows: a lone letter the label it is, which
    the block lacks, where its column's labels run in order through it); a column of lone letters is the labels in
    order; flagged (`labelcolumn`)."""
    assert work.option_re is not None
    lines, flags = restore_label_column(work.lines, work.labels, work.option_re)
    return with_flags(work, flags, lines=lines)


@recovery_pass("trailing-labels", "1", Point.OPTIONS, _options_end_block)
def _trailing_labels(work: OptionsWork, passes: Recovery) -> OptionsWork:
    """Fewer options than a choice question has, read in order from the first: the last one's sentences after
    its first are the options whose labels were lost; flagged (`lostlabel`)."""
    options, flags = restore_trailing_labels(work.options, work.labels, work.min_count)
    return with_flags(work, flags, options=options)


@recovery_pass("lost-labels", "1", Point.OPTIONS, _some_options)
def _lost_labels(work: OptionsWork, passes: Recovery) -> OptionsWork:
    """A label skipped between two read ones: its option cut from the paragraph break in the option before it,
    or from where the labels' grid puts it; flagged (`lostlabel`)."""
    options, flags = restore_lost_labels(work.options, work.labels)
    return replace(work, options=options, option_flags=work.option_flags + tuple(flags))


def _some_options_read_by_ocr(work: OptionsWork) -> bool:
    """some of the question's options were read by OCR"""
    return any(o.first.ocr for o in work.options)


@recovery_pass("label-remainders", "1", Point.OPTIONS, _some_options_read_by_ocr)
def _label_remainders(work: OptionsWork, passes: Recovery) -> OptionsWork:
    """What OCR left of a label's ring or mark in its option's text, read after the first word (`③ 밭은 ) 없어지면`,
    `⑤ 신이나 . 지대지`): a closing bracket that closes nothing, or a lone full stop between two words, taken
    out; flagged, an unsure reading (`labelremainder`)."""
    options, flags = drop_label_remainders(work.options)
    return replace(work, options=options, option_flags=work.option_flags + tuple(flags))


@recovery_pass("key-marks", "1", Point.KEY_COLUMN, _column_rows_unread)
def _key_marks(work: KeyColumnWork, passes: Recovery) -> KeyColumnWork:
    """OCR'd key rows that read as entries once the mark after their numbers (`1  A` for `1. A`) is put back,
    where the whole row is entries, each number follows on in the column's run and the column is key lines;
    reported per key part (`keymarks`)."""
    items, numbers = read_without_marks([list(item) for item in work.items], work.rows, work.entry_re)
    return replace(work, items=items, markless=work.markless + tuple(numbers)) if numbers else work


@recovery_pass("key-runs", "4", Point.KEY_COLUMN, _column_counts_up)  # 2: a column counted by twos is rows of pairs read across, no run; 3: each mended entry's number kept with its line; 4: a run whose numbers carry a digit before them mended from another run
def _key_runs(work: KeyColumnWork, passes: Recovery) -> KeyColumnWork:
    """OCR'd key rows between two entry numbers as far apart as their rows take the numbers their places give;
    an answer read as a look-alike no answer allows (`e` for `c`) mended; each reported on its question, its entry
    inferred (its question flagged unsure: `keyruns`)."""
    items = [list(item) for item in work.items]  # mended in place: the work given stays as it was
    mended = mend_run(items, work.rows, work.entry_re)
    return replace(work, items=items, mended=work.mended + tuple(mended))


@recovery_pass("uncertainty", "5", Point.DRAFTS, _ocr_questions)  # 5: a short unsure word held only as a word of its own (a label `γ)` no letter of `γεγονός`); 4: a key entry keyed by inference is unsure
def _uncertainty(work: DraftsWork, passes: Recovery) -> DraftsWork:
    """Each OCR'd question's `reading_confidence`, and an `ocr.uncertain` flag where its stem, an option or its
    key entry rests on an unsure reading or on what parse had to infer (`certainty`)."""
    judge_drafts(work.drafts, work.key_unsure, work.key_read_by_ocr, work.labels, work.language, work.key_inferred)
    return work


PARSE_PASSES: tuple[RecoveryPass, ...] = (
    _label_lookalikes, _number_lookalikes, _first_number_mark, _next_number_mark, _lost_number_digits, _twin_numbers, _edge_strokes, _unnumbered, _ringed_marks,
    _lost_first_label, _row_labels, _label_column, _trailing_labels, _lost_labels, _label_remainders, _key_marks, _key_runs, slash_alternatives,
    _doubled_key_letter, _uncertainty,
)  # fmt: skip
recovery.install(PARSE_PASSES)


def parse_pass_names() -> list[str]:
    """Every registered parse pass's name, in order."""
    return [p.name for p in PARSE_PASSES]


def check_ocr_pass_names(disabled: list[str]) -> list[str]:
    """`disabled` as given when each names a page pass that may be disabled or a parse pass; else `UnknownPass`
    (a ValueError) naming every name no pass of either kind has."""
    ours = set(parse_pass_names())
    page = [name for name in disabled if name not in ours]
    unknown = [name for name in page if name not in pass_names()]
    if unknown:
        raise UnknownPass(f"unknown OCR pass(es) {unknown}; the passes are {pass_names()} (pages) and "
                          f"{parse_pass_names()} (parse; `examcorpus ocr passes` lists them)")
    check_pass_names(page)  # a required page pass among them
    return disabled


def recovery_for(disabled: list[str] | tuple[str, ...]) -> Recovery:
    """The parse passes a spec's `ocr.passes.disable` leaves."""
    return Recovery.without(frozenset(disabled))


def recovery_key(disabled: list[str] | tuple[str, ...], read_by_ocr: bool) -> list[tuple[str, str]]:
    """(name, version) of each parse pass a sheet's parsing runs: part of its parse cache key. A pass that
    changes nothing on text-layer lines counts only for a sheet (or key) read by OCR, so bumping its
    version parses again only those."""
    return [(p.name, p.version) for p in recovery_for(disabled).passes if read_by_ocr or not p.ocr_only]


def register_ocr(subparsers) -> None:
    """`examcorpus ocr passes`: the page passes, then these (`pipeline.extract.ocr.register` lists both)."""
    register_ocr_command(subparsers, sections=(("parse passes (parse: at their point of parsing, in this order)", PARSE_PASSES),))
