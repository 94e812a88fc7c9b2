"""Answer keys applied to a sheet's questions: every key file paired with the sheet read in its
format, checked against the sheet's own facts (`keymatch`), merged (two files that disagree leave the
question unkeyed), and each question's answer taken from its entry, or a flag saying why not."""
from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote

from pipeline.acquire import ManifestEntry
from pipeline.diagnostics import Code, Diagnostic, diagnose
from pipeline.extract import ExtractedDocument, PageMethod
from pipeline.parse import keymatch
from pipeline.parse import keys as key_formats
from pipeline.parse.draft import Draft
from pipeline.parse.gridkeys import read_grid
from pipeline.parse.keystrays import place_strays
from pipeline.parse.labels import canonical_label, number_key
from pipeline.parse.recovery import KeyEntryWork, Point, Recovery
from pipeline.parse.shortentries import spelled_in
from pipeline.parse.shortrepairs import mend_short_entries
from pipeline.parse.truefalse import answers_from_key
from pipeline.records import CLOSED_TYPES, QuestionType
from pipeline.specs import SourceSpec


def inferred_numbers(document: ExtractedDocument) -> set[str]:
    """The number keys whose number the OCR read put in from its place in a count rather than read (the pages'
    `ocr.number_inferred` notes, each naming its question)."""
    return {number_key(note.concerns.question) for page in document.pages for note in page.ocr_notes
            if isinstance(note, Diagnostic) and note.code is Code.OCR_NUMBER_INFERRED and note.concerns.question}


def read_sheet_keys(
    keys: list[tuple[ExtractedDocument, ManifestEntry]],
    spec: SourceSpec,
    facts: keymatch.SheetFacts,
    drafts: list[Draft],
    problems: list[str],
    notes: list[Diagnostic],
    recovery: Recovery | None = None,
) -> tuple[key_formats.KeyTable | None, list[str]]:
    """(the merged table of every key file that belongs to this sheet, or None when the key is the
    highlighting inside the sheet; the reasons keys were rejected as another sheet's)."""
    kind = spec.key.kind
    if kind == "highlight":
        return None, []
    closed = [d for d in drafts if d.type in CLOSED_TYPES]
    closed_numbers = {number_key(d.number) for d in closed} | {number_key(d.block.number) for d in closed}
    questions = list(dict.fromkeys(number_key(d.number) for d in drafts))
    known = set(questions) | {number_key(d.block.number) for d in drafts}
    choice_labels = {number_key(d.number): d.labels for d in closed if d.type is QuestionType.SINGLE_CHOICE}
    merged = key_formats.KeyTable("keys")
    rejected: list[str] = []
    by_variant = kind == "variant_table" or (kind == "grid" and spec.key.variant_header)
    variant = (facts.variant or spec.key.variant) if by_variant else None
    if by_variant and variant is None:
        problems.append(diagnose(Code.NO_VARIANT, pattern=spec.key.variant_pattern))
    said: set[str] = set()  # questions a line of an applied key file names (unread cell, lost row)
    whole = False  # a line already speaks for a whole key file (rejected, no answers, no variant column)
    names: list[str] = []
    for document, entry in keys:
        name = unquote(Path(entry.url).name) or Path(document.path).name
        pages = [page.number for page in document.pages]
        names.append(f"{name} (page {pages[0]})" if len(pages) == 1 else f"{name} (pages {pages[0]}–{pages[-1]})" if pages else name)
        if kind == "marking_scheme":
            table = key_formats.read_marking_scheme(document, spec.key, name, recovery)
        elif kind == "list":
            table = key_formats.read_list(document, spec.key, name, recovery)
        else:
            if kind == "grid":
                tables = read_grid(document, spec.key, name, labels=spec.layout.options.labels, recovery=recovery, variant=variant)
            else:
                tables = key_formats.read_variant_table(document, spec.key, name, recovery, variant=variant)
            if not by_variant:
                table = tables.get("") or key_formats.KeyTable(name)
            elif not tables:
                problems.append(diagnose(Code.KEY_TABLE, name=name,
                                         detail=f"no variant column header found (key.variant_header {spec.key.variant_header!r})"))
                whole = True
                continue
            elif variant is None:
                whole = True
                continue
            elif variant not in tables:
                problems.append(diagnose(Code.KEY_NO_VARIANT_COLUMN, name=name, variant=variant, columns=sorted(tables)))
                whole = True
                continue
            else:
                table = tables[variant]
        if kind in ("list", "variant_table"):  # short-answer entries mended where the dictionary decides (`shortrepairs`)
            mend_short_entries(table, spec.layout.options.labels, spelled_in(spec.metadata.language),
                               all(page.method is PageMethod.OCR for page in document.pages), recovery)
        # A number the OCR key reader put in from its table's count keys its answer by inference: its question is unsure
        # (the page note `ocr.number_inferred` is the report's line on it).
        table.inferred |= inferred_numbers(document) & set(table.answers)
        if any(page.method is PageMethod.OCR for page in document.pages):  # entries read with no question's number (`keystrays`)
            place_strays(table, questions, known)
        problems += [p if isinstance(p, Diagnostic) else diagnose(Code.KEY_TABLE, name=name, detail=p) for p in table.problems]
        problems += [diagnose(Code.KEY_CELL_UNREAD, name=name, question=number) for number in table.unread]
        if not table.answers:
            problems.append(diagnose(Code.KEY_NO_ANSWERS, name=name))
            whole = True
            continue
        key_formats.mark_voided(table, spec.key)
        said |= table.named | set(table.twice) | {number_key(n) for n in table.unread}  # keyed twice: its own line says why
        scored = {n: a for n, a in table.answers.items() if n not in table.voided}
        evidence = keymatch.printed_mismatches(document, facts, spec)
        evidence += keymatch.content_mismatches(scored, closed_numbers, choice_labels, spec)
        reasons, weighed = keymatch.weigh(evidence, spec, name)
        notes += weighed
        if reasons:
            message = diagnose(Code.KEY_NOT_THIS_SHEET, name=name, reasons="; ".join(reasons))
            problems.append(message)
            rejected.append(message)
            whole = True
            continue
        for number, flag in table.flags.items():
            merged.flags.setdefault(number, flag)
        for number, line in table.empty_places.items():
            merged.empty_places.setdefault(number, line)
        for number, answer in table.answers.items():
            if merged.answers.get(number, answer) != answer or number in merged.twice:  # two key files disagree
                merged.twice.setdefault(number, [merged.answers.pop(number, "")]).append(answer)
                merged.voided.discard(number)
            elif number not in merged.answers:
                merged.answers[number] = answer
                if number in table.sources:
                    merged.sources[number] = table.sources[number]
                if number in table.number_lines:
                    merged.number_lines[number] = table.number_lines[number]
                if number in table.repaired:
                    merged.repaired[number] = table.repaired[number]
                merged.voided |= {number} & table.voided
                merged.pilot |= {number} & table.pilot
                merged.inferred |= {number} & table.inferred
    problems += [key_formats.keyed_twice("keys", number, [a for a in answers if a]) for number, answers in merged.twice.items()]
    if keys and not whole:  # every closed question has its entry or one line saying why it has none
        merged.named |= said
        expected = [number_key(d.number) for d in closed if number_key(d.block.number) not in merged.answers]
        problems += key_formats.place_lines(expected, merged)
        line = key_formats.unaccounted_line(expected, merged, ", ".join(names))
        if line is not None:
            problems.append(line)
    return merged, rejected


def single_label(answer_text: str, labels: list[str], recovery: Recovery | None = None,
                 key_read_by_ocr: bool = False) -> tuple[str | None, Diagnostic | None]:
    """The one option label a key entry answers, or why it answers none; a first token that is no label is
    read again by the `Point.KEY_ENTRY` passes (an OCR'd key's `Cc` for `C`: `doubled-key-letter`)."""
    first = answer_text.strip().splitlines()[0].strip() if answer_text.strip() else ""
    tokens = re.findall(r"\w+", first)
    if not tokens:
        return None, diagnose(Code.KEY_ENTRY_EMPTY)
    label = canonical_label(tokens[0], labels)
    if label is None:
        entry = KeyEntryWork(tokens[0], tuple(labels), key_read_by_ocr)
        label = (recovery or Recovery.every()).run(Point.KEY_ENTRY, entry).label
    if label is None:
        return None, diagnose(Code.KEY_ENTRY_NOT_LABEL, entry=first[:40])
    if len(tokens) > 1 and all(canonical_label(t, labels) for t in tokens[1:3]):
        return None, diagnose(Code.KEY_ENTRY_SEVERAL_LABELS, entry=first[:40])
    return label, None


def apply_key(draft: Draft, key: key_formats.KeyTable | None, spec: SourceSpec, tf_cache: dict,
              recovery: Recovery | None = None, key_read_by_ocr: bool = False) -> None:
    """The draft's answer from its key entry, or a flag saying why it has none; `key_read_by_ocr`: a key
    page was read by OCR (the `Point.KEY_ENTRY` passes read its entries)."""
    answers = key.answers if key is not None else None
    number = number_key(draft.number)
    if key is not None and number in key.flags:  # a line on its entry (a stray entry placed here, or none for it)
        draft.flags.append(key.flags[number])
    if key is not None and number in key.pilot:
        draft.pilot = True
    if key is not None and number in key.voided:
        draft.voided = True  # annulled: no answer, and no flag for the lack of one
        return
    if draft.type is QuestionType.SINGLE_CHOICE:
        if answers is None:  # highlighted inside the sheet
            if len(draft.highlighted) == 1:
                draft.answer = draft.highlighted[0]
            elif not draft.highlighted:
                draft.flags.append(diagnose(Code.NO_HIGHLIGHT))
            else:
                draft.flags.append(diagnose(Code.SEVERAL_HIGHLIGHTS, labels=draft.highlighted))
            return
        text = answers.get(number_key(draft.number))
        if text is None:
            draft.flags.append(diagnose(Code.NO_KEY_ENTRY, what="question"))
            return
        label, problem = single_label(text, spec.layout.options.labels, recovery, key_read_by_ocr)
        if problem:
            draft.flags.append(problem)
        elif label not in draft.labels:
            draft.flags.append(diagnose(Code.KEY_ANSWER_NOT_OPTION, label=label, labels=draft.labels))
        else:
            draft.answer = label
    elif draft.type is QuestionType.TRUE_FALSE:
        tf = spec.layout.true_false
        own = answers.get(number_key(draft.number)) if answers else None
        if own is not None:
            found = answers_from_key(own, tf)
            if len(found) == 1:
                draft.answer = found[0]
            else:
                draft.flags.append(diagnose(Code.KEY_ENTRY_NOT_TRUE_FALSE, entry=own[:40]))
            return
        block_number = number_key(draft.block.number)
        if answers is None or block_number not in answers:
            draft.flags.append(diagnose(Code.NO_KEY_ENTRY, what="statement"))
            return
        sequence = tf_cache.setdefault(block_number, answers_from_key(answers[block_number], tf))
        if len(sequence) != draft.tf_count:
            draft.flags.append(diagnose(Code.KEY_TRUE_FALSE_COUNT, number=draft.block.number, count=len(sequence),
                                        detail=f" for {draft.tf_count} statements"))
        elif draft.tf_index is not None:
            draft.answer = sequence[draft.tf_index]
        else:
            draft.flags.append(diagnose(Code.KEY_TRUE_FALSE_COUNT, number=draft.block.number, count=len(sequence),
                                        detail="; this statement has none"))
    elif draft.type is QuestionType.MATCHING:
        text = answers.get(number_key(draft.number)) if answers else None
        if text:
            draft.answer = text
        draft.flags.append(diagnose(Code.MATCHING_UNVALIDATED))
    elif answers is not None:
        text = answers.get(number_key(draft.number))
        if text and draft.type in (QuestionType.SHORT_ANSWER, QuestionType.FILL_IN):
            if re.search(r"\w", text):
                draft.answer = text
            else:
                draft.flags.append(diagnose(Code.KEY_ENTRY_NO_ANSWER, entry=text))
