"""Question records from blocks: types, options, keys, validation flags."""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field, replace

from pipeline import PIPELINE_VERSION
from pipeline.diagnostics import Code, Diagnostic, diagnose, has_code
from pipeline.extract import ExtractedDocument
from pipeline.acquire import ManifestEntry
from pipeline.parse import keymatch
from pipeline.parse import keys as key_formats
from pipeline.parse.cloze import point_at_cloze_items
from pipeline.parse.blocks import Block, Numbering, dropped_section_starts, link_contexts, split_blocks
from pipeline.parse.certainty import STEM, judge_unused_entries, read_by_ocr, unsure_key_entries
from pipeline.parse.draft import Draft
from pipeline.parse.implied import flag_implied_missing
from pipeline.parse.keying import apply_key, read_sheet_keys
from pipeline.parse.losses import (
    flag_numbering,
    flag_undeclared_types,
    flag_unkeyed_entries,
    ids_kept_apart,
    note_trailing_dropped,
    note_unclaimed,
    report_stop,
    restarts_with_options,
    shown_numbers,
)
from pipeline.parse.labels import canonical_label, fold, matched_label, number_key, option_start_regex
from pipeline.parse.ocrpasses import BlocksWork, DraftsWork, OptionsWork, recovery_for
from pipeline.parse.options import bare_label_run, find_options
from pipeline.parse.recovery import Point, Recovery
from pipeline.parse.stream import StreamLine, document_text, plain_text, streams_kept
from pipeline.parse.shortentries import unsure_short_key_entries
from pipeline.parse.truefalse import find_statements
from pipeline.parse.underwords import under_word_options
from pipeline.infra import per_file
from pipeline.patterns import held_bound, spec_pattern
from pipeline.records import CLOSED_TYPES, ImageRef, Question, QuestionType, Region, question_id
from pipeline.specs import PAIRING_GROUPS, SourceSpec

_YEAR = keymatch.YEAR


@dataclass
class ParseResult:
    questions: list[Question]
    problems: list[Diagnostic] = field(default_factory=list)
    # Why no answer key could be applied to this sheet (none paired, none readable, none belonging to
    # it); None when a key was applied or the key is inside the sheet. The season run keeps a sheet's
    # earlier curated answers when this is set.
    key_unusable: str | None = None
    # What the curator should know that is no loss: questions the key annuls, where stop_at ended the sheet.
    notes: list[Diagnostic] = field(default_factory=list)


def _clean_text(parts: list[str]) -> str:
    return "\n".join(p for p in parts if p and p.strip()).strip()


def _take_points(parts: list[str], pattern: str | None) -> tuple[list[str], float | None]:
    if not pattern:
        return parts, None
    regex = spec_pattern(pattern)
    points = None
    kept = []
    for part in parts:
        match = regex.search(part)
        if match:
            try:
                points = float(match.group("points").replace(",", "."))
            except (IndexError, ValueError):
                pass
            part = (part[: match.start()] + part[match.end():]).strip()
        kept.append(part)
    return kept, points


# Text after the last option with at least this many letters is flagged; shorter leftovers are taken for page
# furniture the extract stage did not recognise ("Verte", "Strona 3"), not kept, and said at info
# (`parse.trailing_dropped` on the question, one note per sheet). At 26 letters a stem's
# "2019. rok wydania tekstu" (17) went unreported.
TRAILING_FLAG_MIN_LETTERS = 12


def _bare_min_run(layout) -> int | None:
    """How many bare labels in a run make them labels, where the spec's styles include bare ones."""
    return bare_label_run(layout.options.styles, layout.options.min_count)


def _type_from_rules(text: str, spec: SourceSpec) -> QuestionType | None:
    for rule in spec.layout.type_rules:
        if spec_pattern(rule.pattern, re.IGNORECASE | re.DOTALL).search(text):
            return QuestionType(rule.type)
    return None


def _drafts(block: Block, spec: SourceSpec, option_re: re.Pattern, recovery: Recovery, typical_options: int = 0) -> list[Draft]:
    """The block's question(s). `typical_options`: how many options the sheet's questions have, where
    nearly all have the same number (a question with fewer gets its lost last labels back)."""
    layout = spec.layout
    labels = layout.options.labels
    all_lines = ([StreamLine(block.start.page, _header_line(block))] if block.header_rest else []) + block.lines
    full_text = "\n".join(plain_text(sl.text)[0] for sl in all_lines)  # type rules read plain text
    ruled = _type_from_rules(full_text, spec)
    common = {"context": block.context, "pages": block.pages, "block": block}
    flags = [diagnose(Code.DUPLICATE_NUMBER, number=block.number)] if block.duplicate else []
    flags += block.flags

    if layout.true_false is not None and ruled in (None, QuestionType.TRUE_FALSE):
        found = find_statements(all_lines, layout.true_false, force=ruled is QuestionType.TRUE_FALSE, recovery=recovery)
        if found is not None:
            tf = layout.true_false
            tf_labels = list(tf.choices)
            stem_parts, points = _take_points(found.stem, layout.points)
            stem = _clean_text(stem_parts)
            # Each record holds its statement alone; the block's instruction ("Oceń, czy…") is context.
            common["context"] = "\n\n".join(t for t in (block.context, stem) if t) or None
            return [
                Draft(
                    number=f"{block.number}.{st.n}",
                    type=QuestionType.TRUE_FALSE,
                    text=_clean_text([st.text]),
                    choices=[tf.choices[label] for label in tf_labels],
                    labels=tf_labels,
                    points=None,
                    flags=list(flags),
                    tf_index=index,
                    tf_count=len(found.statements),
                    **common,
                )
                for index, st in enumerate(found.statements)
            ]

    all_lines, first_restored = recovery.lines(Point.QUESTION_LINES, all_lines, labels=labels, option_re=option_re)
    flags += first_restored
    under_words = (under_word_options(all_lines, labels, layout.options.min_count, block.start if block.header_rest else None)
                   if layout.options.under_words else None)
    found_options = under_words or find_options(all_lines, labels, option_re, _bare_min_run(layout), recovery)
    # Options whose labels OCR lost: the last ones only where the options end the block (text after them,
    # an open task's answer lines "a) 2", "b) (14000, 3014)", says these are no choice question's options).
    mended = recovery.run(Point.OPTIONS, OptionsWork(found_options.options, labels, max(layout.options.min_count, typical_options),
                                                     ends_block=not found_options.trailing))
    found_options.options = mended.options
    flags += mended.flags
    restored = found_options.flags + list(mended.option_flags)
    enough = len(found_options.options) >= layout.options.min_count
    # Two labelled options where the spec expects more: a damaged choice question (an OCR misread
    # label), kept as one and flagged rather than passed off as an open question.
    partial = layout.options.keep_partial and 2 <= len(found_options.options) < layout.options.min_count
    # Sub-items "a) 10 ……… b) 4 ………" are parts of one open task with an answer line each, not options.
    answer_lines = sum(bool(_ANSWER_LINE.search(o.text)) for o in found_options.options)
    sub_items = answer_lines >= 2 and 2 * answer_lines >= len(found_options.options)
    if (enough or partial) and not sub_items and ruled in (None, QuestionType.SINGLE_CHOICE):
        stem_parts, points = _take_points([sl.text for sl in found_options.stem], layout.points)
        options = found_options.options
        # A points line printed under the options ("Μονάδες 3") is not part of the last option.
        choices, option_points = _take_points([o.text for o in options], layout.points)
        points = points if points is not None else option_points
        draft = Draft(
            number=block.number,
            type=QuestionType.SINGLE_CHOICE,
            text=_clean_text(stem_parts),
            choices=choices,
            labels=[o.label for o in options],
            points=block.points if block.points is not None else points,
            flags=list(flags) + restored,
            highlighted=[o.label for o in options if o.highlighted],
            sources={STEM: found_options.stem, **{o.label: o.lines for o in options}},
            **common,
        )
        expected = labels[: len(options)]
        if partial:
            draft.flags.append(
                diagnose(Code.TOO_FEW_OPTIONS, count=len(options), labels=draft.labels, minimum=layout.options.min_count)
            )
        if draft.labels != expected:
            draft.flags.append(diagnose(Code.LABEL_SKIPPED, labels=draft.labels, expected=expected))
        draft.flags += [diagnose(Code.LABEL_REPEATED, label=label, owner=owner, text=plain_text(text)[0][:60])
                        for label, owner, text in found_options.repeated]
        empty = [o.label for o, text in zip(options, choices) if not text]
        if empty:
            draft.flags.append(diagnose(Code.EMPTY_OPTION, labels=empty))
        trailing = _clean_text([sl.text for sl in found_options.trailing])
        if trailing:  # a points line set apart below the options ("Μονάδες 5") gives the question its points
            trailing_parts, trailing_points = _take_points([trailing], layout.points)
            trailing = _clean_text(trailing_parts)
            if draft.points is None:
                draft.points = trailing_points
        if trailing and len(re.findall(r"[^\W\d_]", trailing)) >= TRAILING_FLAG_MIN_LETTERS:
            draft.flags.append(diagnose(Code.TRAILING_TEXT, text=trailing[:80]))
        elif trailing:  # taken for page furniture no rule claimed: not kept, but said (and listed per sheet)
            draft.dropped_trailing = trailing
            draft.flags.append(diagnose(Code.TRAILING_DROPPED, minimum=TRAILING_FLAG_MIN_LETTERS, text=trailing[:80]))
        lost = printed_labels(found_options.trailing, labels, option_re)
        if lost:
            draft.flags.append(diagnose(Code.LOST_LABELS, labels=lost, where="after the options, in no option"))
        return [draft]

    parts, points = _take_points([sl.text for sl in all_lines], layout.points)
    kind = ruled or QuestionType(layout.unlabelled_type)
    lost = printed_labels(all_lines, labels, option_re)
    if lost and kind not in CLOSED_TYPES and not sub_items:
        flags.append(diagnose(Code.LOST_LABELS, labels=lost, where=f"but no options were read; kept as {kind.value}"))
    return [
        Draft(
            number=block.number,
            type=kind,
            text=_clean_text(parts),
            choices=[],
            labels=[],
            points=block.points if block.points is not None else points,
            flags=list(flags),
            **common,
        )
    ]


_ANSWER_LINE = re.compile(r"(?:[.…_·] ?){4,}")  # dot leaders or underscores left for the candidate to write on


# A sheet's questions have a typical number of options when this share of its choice questions (and
# at least TYPICAL_MIN_QUESTIONS of them) have it.
TYPICAL_SHARE = 0.8
TYPICAL_MIN_QUESTIONS = 8


def _sheet_drafts(blocks: list[Block], spec: SourceSpec, option_re: re.Pattern, recovery: Recovery) -> list[Draft]:
    """Every block's drafts; a choice question with fewer options than the sheet's typical number is
    read again knowing that number, so that labels OCR lost at its end are looked for."""
    per_block = [_drafts(block, spec, option_re, recovery) for block in blocks]
    counts = Counter(len(d.labels) for drafts in per_block for d in drafts if d.type is QuestionType.SINGLE_CHOICE)
    if counts:
        typical, count = counts.most_common(1)[0]
        if count >= TYPICAL_SHARE * sum(counts.values()) and count >= TYPICAL_MIN_QUESTIONS:
            for k, drafts in enumerate(per_block):
                if any(d.type is QuestionType.SINGLE_CHOICE and len(d.labels) < typical for d in drafts):
                    per_block[k] = _drafts(blocks[k], spec, option_re, recovery, typical)
    return [d for drafts in per_block for d in drafts]


def printed_labels(lines: list[StreamLine], labels: list[str], option_re: re.Pattern) -> list[str]:
    """The spec's option labels that open any of `lines`, printed in the spec's own case ("a)" sub-items
    are not options "A." - "B."), in label order."""
    found = set()
    for sl in lines:
        match = option_re.match(plain_text(sl.text)[0])
        if not match:
            continue
        printed = matched_label(match)
        label = canonical_label(printed, labels)
        if label is not None and fold(printed) == fold(label) and printed.isupper() == label.isupper():
            found.add(label)
    return [label for label in labels if label in found]


def _header_line(block: Block):
    """The header's own line, holding only the text after the question number."""
    return replace(block.start.line, text=block.header_rest)


# --------------------------------------------------------------------------- keys


# --------------------------------------------------------------------------- records


def _attach_images(drafts: list[Draft], sheet: ExtractedDocument) -> tuple[dict[int, list[ImageRef]], list]:
    """Each figure goes to the question that starts last above it (reading order across pages); and the figures above
    the first question, which go to none (a cover's logo, or a figure of a question whose number was not read)."""
    starts = [((d.block.start.page, d.block.start.line.top), i) for i, d in enumerate(drafts) if d.block.start]
    images: dict[int, list[ImageRef]] = {}
    unattached = []
    for page in sheet.pages:
        if page.dropped_reason:
            continue
        for figure in page.figures:
            where = (figure.page, figure.bbox[1])
            owners = [i for pos, i in starts if pos <= where]
            if owners:
                ref = ImageRef(path=figure.path, page=figure.page, bbox=tuple(figure.bbox), sha256=figure.sha256)
                images.setdefault(owners[-1], []).append(ref)
            else:
                unattached.append(figure)
    return images, unattached


def _regions(draft: Draft) -> list[Region]:
    """The box around the question's own lines on each of its pages (its shared passage left out)."""
    block = draft.block
    lines = ([block.start] if block.start else []) + block.lines
    boxes: dict[int, list[float]] = {}
    for sl in lines:
        line, box = sl.line, boxes.get(sl.page)
        if box is None:
            boxes[sl.page] = [line.x0, line.top, line.x1, line.bottom]
            continue
        # As min() and max() keep the box's edge unless the line's is strictly beyond it.
        if line.x0 < box[0]:
            box[0] = line.x0
        if line.top < box[1]:
            box[1] = line.top
        if line.x1 > box[2]:
            box[2] = line.x1
        if line.bottom > box[3]:
            box[3] = line.bottom
    return [Region(page, tuple(round(v, 1) for v in box)) for page, box in sorted(boxes.items())]


def _sheet_facts(sheet: ExtractedDocument, entry: ManifestEntry, spec: SourceSpec, problems: list[str]):
    text = document_text(sheet)
    year = entry.facts.get("year")
    if year is None:
        match = _YEAR.search(text)
        year = match.group(1) if match else None
    if year is None:
        problems.append(diagnose(Code.NO_YEAR))
    sheet_code = entry.facts.get("sheet_code")
    if sheet_code is None and spec.layout.sheet_code:
        match = spec_pattern(spec.layout.sheet_code, re.MULTILINE).search(text)
        if match:
            sheet_code = match.group("code")
    return int(year or 0), entry.facts.get("session"), sheet_code


# The file rule's facts that tell apart sheets of one year and session (a qualification, a subject folder,
# a form, a variant): in record ids where the sheet's code is not found.
IDENTITY_FACTS = tuple(name for name in PAIRING_GROUPS if name not in ("sheet_code", "year", "session"))


def _sheet_identity(sheet_code: str | None, entry: ManifestEntry) -> str | None:
    """The sheet's part of its records' ids: its code, or where the spec finds none, the facts its file
    rule gave it. Always the same for one file whatever else a run holds, so an id never changes when
    another sheet is added; two sheets that still agree are an error at curation (pipeline.season)."""
    if sheet_code:
        return sheet_code
    facts = [str(entry.facts[name]) for name in IDENTITY_FACTS if entry.facts.get(name)]
    return "-".join(facts) or None


def _read_by_ocr_anywhere(documents: list[ExtractedDocument]) -> bool:
    """Whether OCR read any of `documents`: a whole page, or words on a text page (drawn text, glyphs
    without a Unicode map: their lines are marked, and the document warns of them)."""
    return read_by_ocr(documents) or any(
        has_code(document.warnings, Code.DRAWN_TEXT_READ, Code.UNMAPPED_READ)
        or any(line.ocr for page in document.pages for line in page.lines)
        for document in documents
    )


@per_file  # the collector held back while the sheet is parsed, one collection after (`infra.collector`)
def parse_sheet(
    sheet: ExtractedDocument,
    sheet_entry: ManifestEntry,
    keys: list[tuple[ExtractedDocument, ManifestEntry]],
    spec: SourceSpec,
) -> ParseResult:
    """The sheet's questions with their keys; every spec pattern bounded by one reading of the bound, each
    document's line stream read once (`stream.streams_kept`)."""
    with held_bound(), streams_kept():
        return _parse_sheet(sheet, sheet_entry, keys, spec)


def _parse_sheet(sheet: ExtractedDocument, sheet_entry: ManifestEntry, keys: list[tuple[ExtractedDocument, ManifestEntry]],
                 spec: SourceSpec) -> ParseResult:
    layout = spec.layout
    problems: list[Diagnostic] = []
    notes: list[Diagnostic] = []
    option_re = option_start_regex(layout.options.labels, layout.options.styles)
    recovery = recovery_for(spec.ocr.passes.disable)
    if not _read_by_ocr_anywhere([sheet, *(document for document, _ in keys)]):
        recovery = recovery.for_text_layer()
    key_start = [spec.key.in_sheet] if spec.key.in_sheet else []
    # A key printed in the booklet starts at its heading's column: questions printed beside it stay the sheet's.
    stream, tail = key_formats.split_booklet(sheet, layout.stop_at, spec.key.in_sheet, layout.options.labels, recovery)
    report_stop(sheet, stream, layout.stop_at, key_start, notes, recovery.line_reader(None))
    numbering = Numbering(sections=list(layout.sections), max_indent=layout.question_max_indent)
    problems += dropped_section_starts(sheet, layout.sections)
    blocks = split_blocks(stream, layout.question_start, layout.context_start, numbering, recovery)
    if numbering.scripts_followed:
        notes.append(diagnose(Code.NUMBER_SCRIPT, count=len(numbering.scripts_followed),
                              numbers=shown_numbers(numbering.scripts_followed)))
    if numbering.marks_restored:
        notes.append(diagnose(Code.MARKS_RESTORED, count=len(numbering.marks_restored), numbers=", ".join(numbering.marks_restored)))
    restarts = restarts_with_options(stream, numbering.restarts, option_re, layout.question_start)
    if restarts:
        where = ", ".join(f"page {sl.page}" for sl in restarts[:5])
        problems.append(diagnose(Code.NUMBERING_RESTARTS, where=where))
    blocks = recovery.run(Point.BLOCKS, BlocksWork(blocks, layout.options.labels, option_re, _bare_min_run(layout))).blocks
    questions_blocks = link_contexts(blocks, layout.group_headers)
    drafts = _sheet_drafts(questions_blocks, spec, option_re, recovery)
    point_at_cloze_items(drafts, layout.cloze_marker)
    # Before skip_types: a question lost to a wrong type is reported even when its type is not curated.
    lost = [d.number for d in drafts if has_code(d.flags, Code.LOST_LABELS)]
    if lost:
        problems.append(diagnose(Code.LOST_LABEL_QUESTIONS, count=len(lost), numbers=shown_numbers(lost)))
    repeated = [d.number for d in drafts if has_code(d.flags, Code.LABEL_REPEATED)]
    if repeated:
        notes.append(diagnose(Code.LABELS_REPEATED, count=len(repeated), numbers=shown_numbers(repeated)))
    restored = [d.number for d in drafts for f in d.flags if isinstance(f, Diagnostic) and f.code is Code.LABEL_RESTORED]
    if restored:
        notes.append(diagnose(Code.LABELS_RESTORED, count=len(restored), numbers=shown_numbers(list(dict.fromkeys(restored)))))
    flag_undeclared_types(drafts, spec, problems)
    note_trailing_dropped(drafts, TRAILING_FLAG_MIN_LETTERS, notes)

    skipped = [d for d in drafts if d.type.value in layout.skip_types]
    if skipped:
        kinds = sorted({d.type.value for d in skipped})
        problems.append(diagnose(Code.TYPES_SKIPPED, count=len(skipped), types=kinds, numbers=shown_numbers([d.number for d in skipped])))
    drafts = [d for d in drafts if d.type.value not in layout.skip_types]

    if not drafts:
        # Nothing to key (a practical-part sheet, a cover-only file): say so once, not per key file.
        problems.append(diagnose(Code.NO_QUESTIONS))
        return ParseResult(questions=[], problems=problems, notes=notes)
    year, session, sheet_code = _sheet_facts(sheet, sheet_entry, spec, problems)
    sheet_identity = _sheet_identity(sheet_code, sheet_entry)
    variant = key_formats.find_variant(sheet, spec.key) if spec.key.variant_pattern else None
    facts = keymatch.SheetFacts(year=year, sheet_code=sheet_code, variant=variant, text=document_text(sheet))
    key_unusable = None
    rejected: list[str] = []
    if spec.key.in_sheet:
        if tail is None:
            problems.append(diagnose(Code.NO_KEY_IN_BOOKLET, pattern=spec.key.in_sheet))
        else:
            keys = [(tail, sheet_entry), *keys]
    key = None
    if keys or spec.key.kind == "highlight":
        key, rejected = read_sheet_keys(keys, spec, facts, drafts, problems, notes, recovery)
        if key is not None and not key.answers:
            key_unusable = "; ".join(rejected) or "no answers could be read from the paired answer key"
    else:
        problems.append(diagnose(Code.NO_KEY_PAIRED))
        key = key_formats.KeyTable("none")
        key_unusable = "no answer key paired with this sheet"
    answers = key.answers if key is not None else None
    tf_cache: dict = {}
    key_ocr = read_by_ocr(document for document, _ in keys)
    for draft in drafts:
        if rejected and not answers and draft.type in CLOSED_TYPES:
            draft.flags.append(diagnose(Code.KEY_OF_ANOTHER_SHEET))
            continue
        apply_key(draft, key, spec, tf_cache, recovery, key_ocr)
    key_documents = [document for document, _ in keys]
    key_unsure = unsure_key_entries(key_documents, spec.key.entry, key.answers if key is not None else None)
    for number, words in unsure_short_key_entries(key, key_documents, layout.options.labels, spec.metadata.language).items():
        key_unsure[number] = list(dict.fromkeys([*key_unsure.get(number, []), *words]))
    recovery.run(Point.DRAFTS, DraftsWork(drafts, key_unsure, read_by_ocr(key_documents), layout.options.labels,
                                              spec.metadata.language, frozenset(key.inferred) if key is not None else frozenset()))

    closed = [d for d in drafts if d.type in CLOSED_TYPES]
    if answers:
        closed_numbers = {number_key(d.number) for d in closed} | {number_key(d.block.number) for d in closed}
        unused = [n for n in answers if n not in closed_numbers and n not in {number_key(d.number) for d in drafts}]
        # Marking schemes also key open tasks of other sheet parts; lists and tables key only this sheet.
        if unused and spec.key.kind != "marking_scheme":
            problems.append(diagnose(Code.KEY_EXTRA_ANSWERS, answers=len(answers), closed=len(closed), unused=unused[:10]))
        if spec.key.kind != "marking_scheme":
            flag_unkeyed_entries(drafts, answers, problems)
            judge_unused_entries(drafts)
        unkeyed = [d.number for d in drafts if has_code(d.flags, Code.NO_KEY_ENTRY)]
        if unkeyed:
            problems.append(diagnose(Code.UNKEYED_QUESTIONS, count=len(unkeyed), numbers=shown_numbers(unkeyed)))
        voided = [d.number for d in drafts if d.voided]
        if voided:
            notes.append(diagnose(Code.VOIDED, count=len(voided), numbers=shown_numbers(voided)))
    flag_numbering(blocks, drafts, problems, notes)
    flag_implied_missing(blocks, drafts, answers if spec.key.kind == "marking_scheme" else None, problems)

    images, unattached = _attach_images(drafts, sheet)
    note_unclaimed(sheet, numbering.unclaimed, unattached, notes)
    meta = spec.metadata
    questions = []
    for i, d in enumerate(drafts):
        answer_index = d.labels.index(d.answer) if d.answer in d.labels and d.type in CLOSED_TYPES else None
        questions.append(
            Question(
                id=question_id(spec.name, year, session, sheet_identity, d.number),
                source=spec.name,
                country=meta.country,
                language=meta.language,
                exam=meta.exam,
                level=meta.level,
                subject=meta.subject,
                year=year,
                session=session,
                sheet_code=sheet_code,
                number=d.number,
                type=d.type.value,
                question=d.text,
                context=d.context,
                choices=d.choices,
                choice_labels=d.labels,
                answer=d.answer,
                answer_index=answer_index,
                points=d.points,
                images=images.get(i, []),
                source_url=sheet_entry.final_url,
                source_sha256=sheet_entry.sha256 or sheet.sha256,
                pages=d.pages,
                pipeline_version=PIPELINE_VERSION,
                flags=d.flags,
                voided=d.voided,
                reserve=d.block.reserve,
                pilot=d.pilot,
                regions=_regions(d),
                reading_confidence=d.reading_confidence,
            )
        )
    questions, kept_apart = ids_kept_apart(questions)
    problems += kept_apart
    return ParseResult(questions=questions, problems=problems, key_unusable=key_unusable, notes=notes)
