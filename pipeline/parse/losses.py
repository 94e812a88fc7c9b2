"""No silent loss: each loss is a flag on the record it touches and one line in the sheet's problems,
which the season report lists and `--strict` fails on.

Printed option labels in no option, gaps and repeats in the numbering, restarted numbering the spec did
not declare, key entries no question took, questions of a type outside `layout.closed_types`, two records
with one id (each kept under an id of its own, flagged, and an `error:` line), and where `stop_at` ended the sheet (a note).
"""
from __future__ import annotations

import itertools
import re
from dataclasses import replace

from pipeline.diagnostics import Code, Concerns, Diagnostic, diagnose
from pipeline.extract import ExtractedDocument
from pipeline.parse.blocks import Block
from pipeline.parse.draft import Draft
from pipeline.parse.labels import number_key
from pipeline.parse.stream import LineReader, StreamLine, line_stream, plain_text
from pipeline.patterns import spec_pattern
from pipeline.records import CLOSED_TYPES, Question, QuestionType
from pipeline.specs import SourceSpec


def shown_numbers(numbers: list[str], limit: int = 15) -> str:
    shown = ", ".join(numbers[:limit])
    return shown + (f" … (+{len(numbers) - limit})" if len(numbers) > limit else "")


def flag_unkeyed_entries(drafts: list[Draft], answers: dict[str, str], problems: list[str]) -> None:
    """A key entry whose question was read as a type that takes no answer from it (an open question
    whose labels were lost): the answer would vanish unseen."""
    # Closed questions and short answers take their entry (or are flagged for it); an open one never does.
    takes_key = CLOSED_TYPES | {QuestionType.SHORT_ANSWER, QuestionType.FILL_IN}
    used = {number_key(d.number) for d in drafts if d.answer is not None or d.type in takes_key}
    used |= {number_key(d.block.number) for d in drafts if d.type in takes_key}
    unused = []
    for draft in drafts:
        key = number_key(draft.number)
        if key in answers and key not in used and draft.answer is None:
            draft.flags.append(diagnose(Code.KEY_ENTRY_UNUSED, entry=answers[key][:40], type=draft.type.value))
            unused.append(draft.number)
    if unused:
        problems.append(diagnose(Code.KEY_ENTRIES_UNUSED, count=len(unused), numbers=shown_numbers(unused)))


def flag_numbering(blocks: list[Block], drafts: list[Draft], problems: list[str], notes: list | None = None) -> None:
    """A gap or a repeat in the sheet's question numbering (top-level numbers: '3.1' counts as 3); in `notes`, where
    the numbering starts above 1."""
    by_number: dict[str, list[Draft]] = {}
    for draft in drafts:
        by_number.setdefault(number_key(draft.block.number).split(".")[0], []).append(draft)
    tops = [number_key(b.number).split(".")[0] for b in blocks if b.kind == "question"]
    tops = [t for i, t in enumerate(tops) if t.isdecimal() and (i == 0 or t != tops[i - 1])]
    gaps, repeats = [], []
    if tops and int(tops[0]) > 1 and notes is not None:
        # The sequence expects 1 first: questions before the first number read were lost (or the sheet is a later part
        # or an excerpt, which the report then says too: nothing is lost unseen).
        first, missing = int(tops[0]), range(1, int(tops[0]))
        shown = [str(n) for n in missing[:16]]
        if len(missing) > 16:
            shown[-1] = f"… {missing[-1]}"
        # A note of the report, not a flag on the first question (read as printed) nor a problem (an excerpt is a sheet).
        notes.append(diagnose(Code.NUMBERING_LATE_START, first=first, missing=", ".join(shown)))
    for previous, current in itertools.pairwise(tops):
        missing = range(int(previous) + 1, int(current))
        if missing:
            gaps.append(f"{previous}→{current}")
            shown = [str(n) for n in missing[:16]]
            if len(missing) > 16:
                shown[-1] = f"… {missing[-1]}"
            for draft in by_number.get(current, [])[:1]:
                draft.flags.append(diagnose(Code.NUMBERING_JUMP, previous=previous, current=current, missing=", ".join(shown)))
    for draft in drafts:
        if draft.block.duplicate:
            repeats.append(draft.number)
    if gaps:
        problems.append(diagnose(Code.NUMBERING_GAPS, numbers=shown_numbers(gaps)))
    if repeats:
        problems.append(diagnose(Code.NUMBERS_REPEATED, numbers=shown_numbers(repeats)))


TRAILING_SHOWN = 20  # questions whose dropped trailing text the sheet's note shows; the rest are counted


def note_trailing_dropped(drafts: list[Draft], minimum: int, notes: list[Diagnostic]) -> None:
    """One note for the sheet listing each question's text after its options that was set aside as page furniture
    (`parse.trailing_dropped`, at info; `minimum`: the letters that would have made it a flag): nothing dropped unsaid,
    and the report shows what was, escaped as read."""
    dropped = [(d.number, d.dropped_trailing) for d in drafts if d.dropped_trailing]
    if not dropped:
        return
    shown = [f"{number} {text[:80]!r}" for number, text in dropped[:TRAILING_SHOWN]]
    more = f" … (+{len(dropped) - TRAILING_SHOWN})" if len(dropped) > TRAILING_SHOWN else ""
    notes.append(diagnose(Code.TRAILING_DROPPED_QUESTIONS, count=len(dropped), minimum=minimum, items=", ".join(shown) + more))


def _page_ranges(pages: list[int]) -> str:
    """Pages as runs: "1–2, 5"."""
    runs: list[list[int]] = []
    for page in sorted(set(pages)):
        if runs and page == runs[-1][1] + 1:
            runs[-1][1] = page
        else:
            runs.append([page, page])
    return ", ".join(str(a) if a == b else f"{a}–{b}" for a, b in runs)


def note_unclaimed(sheet: ExtractedDocument, unclaimed: list[StreamLine], unattached: list, notes: list[Diagnostic]) -> None:
    """What of the sheet went to no question, one info note each: lines before any question of their part (`unclaimed`),
    figures above the first question (`unattached`, `extract.Figure`s), and pages `layout.drop_pages` set aside."""
    if unclaimed:
        notes.append(diagnose(Code.LINES_BEFORE_QUESTIONS, count=len(unclaimed), pages=_page_ranges([sl.page for sl in unclaimed]),
                              first=plain_text(unclaimed[0].text)[0][:60]))
    if unattached:
        where = "; ".join(f"page {f.page} at {tuple(round(v) for v in f.bbox)} pt" for f in unattached[:10])
        notes.append(diagnose(Code.FIGURES_UNATTACHED, count=len(unattached),
                              where=where + (f" … (+{len(unattached) - 10})" if len(unattached) > 10 else "")))
    dropped = [page for page in sheet.pages if page.dropped_reason]
    if dropped:
        pages = "; ".join(f"page {page.number} ({page.dropped_reason})" for page in dropped[:10])
        notes.append(diagnose(Code.PAGES_DROPPED, count=len(dropped),
                              pages=pages + (f" … (+{len(dropped) - 10})" if len(dropped) > 10 else "")))


def flag_undeclared_types(drafts: list[Draft], spec: SourceSpec, problems: list[str]) -> None:
    declared = spec.layout.closed_types
    if not declared:
        return
    odd = [d for d in drafts if d.type.value not in declared]
    for draft in odd:
        draft.flags.append(diagnose(Code.UNDECLARED_TYPE, type=draft.type.value, declared=declared))
    if odd:
        problems.append(
            diagnose(Code.UNDECLARED_TYPES, count=len(odd), declared=declared, numbers=shown_numbers([d.number for d in odd]))
        )


# Joins a record id to its place among the records of one sheet that would share it: `~` is no character a slugged id
# part holds (`records.question_id` keeps word characters and dots), so no printed number can make the id it makes.
ID_APART = "~"


def ids_kept_apart(questions: list[Question]) -> tuple[list[Question], list[Diagnostic]]:
    """Record ids unique by construction: questions of one sheet that would share an id (a number printed twice,
    or printed as `1`, `１`, `١`, `¹` and `①`, which records and ids read as one number) would overwrite each other at
    curation. The first in the sheet's order keeps the id, the n-th is `<id>~n`; each of them is flagged (naming
    the others by their numbers as printed) and the sheet's report has an `error:` line: nothing lost, nothing
    merged, and `withhold_flagged` keeps them out of a release until a curator has looked."""
    seen: dict[str, list[int]] = {}
    for index, question in enumerate(questions):
        seen.setdefault(question.id, []).append(index)
    kept, problems = list(questions), []
    for qid, indices in seen.items():
        if len(indices) < 2:
            continue
        ids = [qid if n == 0 else f"{qid}{ID_APART}{n + 1}" for n in range(len(indices))]
        for n, index in enumerate(indices):
            question = questions[index]
            others = ", ".join(repr(questions[i].number) for i in indices if i != index)
            flag = diagnose(Code.ID_SHARED, id=qid, others=others, kept=ids[n], concerns=Concerns(question_id=ids[n]))
            kept[index] = replace(question, id=ids[n], flags=[*question.flags, flag], flag_codes=[])
        numbers = ", ".join(repr(questions[i].number) for i in indices)
        pages = sorted({p for i in indices for p in questions[i].pages})
        problems.append(diagnose(Code.IDS_KEPT_APART, id=qid, count=len(indices), numbers=numbers, pages=pages,
                                 ids=", ".join(ids), concerns=Concerns(question_id=qid)))
    return kept, problems


RESTART_LOOKAHEAD = 40  # lines after a restarted "1." searched for option labels


def restarts_with_options(
    stream: list[StreamLine], restarts: list[StreamLine], option_re: re.Pattern, question_start: str
) -> list[StreamLine]:
    """Restarted "1." headers taken as text that open items with printed options: questions of an
    undeclared part, not a numbered list or endnotes."""
    if not restarts:
        return []
    start_re = spec_pattern(question_start)
    position = {id(sl): i for i, sl in enumerate(stream)}
    found = []
    for restart in restarts:
        index = position.get(id(restart))
        if index is None:
            continue
        for sl in stream[index + 1:index + 1 + RESTART_LOOKAHEAD]:
            text = plain_text(sl.text)[0]
            if start_re.match(text):
                break
            if option_re.match(text):
                found.append(restart)
                break
    return found


def report_stop(sheet: ExtractedDocument, stream: list[StreamLine], stop_at: list[str], key_start: list[str], notes: list[str],
                reader: LineReader) -> None:
    """`stop_at` ends the sheet early: say where, and how much was left unread, so nothing goes unseen.
    `reader`: parse's OCR line passes, as the sheet's stream was read."""
    if not stop_at:
        return  # the sheet's stream already ran to its end (or to the key printed in it)
    full = line_stream(sheet, reader=reader)
    if len(full) <= len(stream):
        return
    rest = full[len(stream):]
    first = rest[0]
    if key_start and any(spec_pattern(p).search(first.text) for p in key_start):
        return  # the key printed in the booklet: read as the key
    notes.append(diagnose(Code.STOP_AT, page=first.page, line=plain_text(first.text)[0][:50], count=len(rest),
                          first=first.page, last=rest[-1].page))
