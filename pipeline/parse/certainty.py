"""How sure the reading of an OCR'd question is, and a flag where a part of it rests on an unsure reading.

Extract judges each OCR'd word (`pipeline.extract.ocr.certainty`) and keeps, on every OCR'd line, its
lowest word confidence and the words it is unsure of. Here each question part (the stem, each option,
its key entry) is traced to the lines it was read from (`Draft.sources`; a draft without them, a
true/false statement or an open task, takes its block's lines); an unsure word of those lines that the
part's text holds makes the part unsure. A question with an unsure part gets one `ocr.uncertain` flag
naming the parts and the words, so a curator checks those few questions against the page instead of
rereading every scanned one; its `reading_confidence` is the lowest word confidence of its lines.

A key entry is unsure when the key line it was read from holds an unsure word in the entry: a list
key's line that matches `key.entry` there, or a key cell read alone beside its number (a grid's cell
under its number cell); a line that names no entry alone passes its unsure words on by its place (an answer
cell beside its number cell, a grid's row of answers under its numbers, a table's row led by its number). Text-layer questions and keys carry no confidence and are never flagged here.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Mapping

from pipeline.diagnostics import Code, codes_of, diagnose, flag_codes_in_order, has_code
from pipeline.extract import ExtractedDocument, Line, PageMethod
from pipeline.extract.ocr import spelled_for, word_core
from pipeline.languages import GluedWords, find_language
from pipeline.parse.draft import Draft
from pipeline.parse.labels import number_key
from pipeline.parse.misreadsigns import (MIN_SIBLINGS, MarkedForms, casing_signs, mark_signs, marked_forms, option_signs, repeated_spellings,
                                        sheet_opens_capital, stem_ending_signs, text_signs, usual_option_count, usual_stem_ending)
from pipeline.parse.stream import StreamLine, plain_text
from pipeline.records import QuestionType
from pipeline.patterns import SpecPattern, spec_pattern

STEM = "stem"
KEY_ENTRY = "key entry"
SHOWN_WORDS = 6  # unsure words named in a flag; the rest are counted

# Flags by which parse says it took a part of an OCR'd question from where it stands rather than from
# what was read (a number from the numbering, a label from its column) or found it incomplete: on an
# OCR'd question each means the reading there is unsure too, so the question gets `ocr.uncertain` with
# the part named, and comes first in the audit queue with the rest.
RECOVERED_PARTS = {
    Code.NUMBER_INFERRED: "number", Code.DUPLICATE_NUMBER: "number", Code.NUMBERING_JUMP: "number",
    Code.TOO_FEW_OPTIONS: "options", Code.LABEL_SKIPPED: "options", Code.EMPTY_OPTION: "options",
    Code.TRAILING_TEXT: "options", Code.LOST_LABELS: "options", Code.LABEL_REMAINDER: "options",
}
# Not a label restored from its column (`parse.label_restored`, `parse.labels_from_column`): on the
# generated checking sheets (`pipeline.devkit.ocrcertainty`) those options came out right 3 times in 4;
# they keep their own flag.
# Flags saying a key entry could not be used: on a key read by OCR, an unsure reading of the entry.
KEY_ENTRY_PROBLEMS = frozenset({
    Code.NO_KEY_ENTRY, Code.KEY_ENTRY_EMPTY, Code.KEY_ENTRY_NOT_LABEL, Code.KEY_ENTRY_SEVERAL_LABELS,
    Code.KEY_ANSWER_NOT_OPTION, Code.KEY_ENTRY_NOT_TRUE_FALSE, Code.KEY_TRUE_FALSE_COUNT, Code.KEY_OF_ANOTHER_SHEET,
})


def draft_lines(draft: Draft) -> dict[str, list[StreamLine]]:
    """The lines each part of the draft was read from: `Draft.sources`, else the block's lines as the stem's."""
    if draft.sources:
        return draft.sources
    block = draft.block
    return {STEM: ([block.start] if block.start else []) + list(block.lines)}


# A word's core shorter than this is held only where it stands as a word of its own: a label `γ)` or a `de` read unsurely
# is no part of `γεγονός` or `desde` beside it on the line (a row of options).
HELD_INSIDE_FROM = 3


def _holds(text: str, word: str) -> bool:
    """Whether `text` holds the OCR'd `word`, or a piece of it parse cut off (a glued label: `b)imitador45`); a word of
    marks alone (unsure only where the second recogniser read a sign there) is held where the text holds it. A short
    word (`HELD_INSIDE_FROM`) is held only as a word of its own, not inside another."""
    core = word_core(word)[1]
    plain = plain_text(text)[0]
    if not core:  # a sign alone (`<` the second recogniser read `≤`), not a stop alone: the text holds it as read
        mark = word.strip()
        return bool(mark) and not set(mark) <= set(CLOSING_MARKS) and mark in plain
    if len(core) < HELD_INSIDE_FROM:
        return re.search(rf"(?<!\w){re.escape(core)}(?!\w)", plain) is not None
    return core in plain or any(len(piece) >= HELD_INSIDE_FROM and piece in plain for piece in re.split(r"[^\w]+", core))


def unsure_in(text: str, lines: Iterable[StreamLine]) -> list[str]:
    """The unsure words of `lines` that `text` holds, each once, in order."""
    found: list[str] = []
    for sl in lines:
        for word in sl.line.unsure_words:
            if word not in found and _holds(text, word):
                found.append(word)
    return found


CLOSING_MARKS = ".,:;"  # the marks `commas` reads from the ink at a word's end


def settled_by_siblings(word: str, text: str, siblings: list[str], lines: Iterable[StreamLine]) -> bool:
    """Whether `word`, unsure by nothing but the unclear ink of its mark (`Line.unclear_marks`), closes the option
    `text` with the mark every one of its `siblings` (at least `MIN_SIBLINGS`) closes with: a question's options end
    alike, so the period of `corrientes.` among options ending in periods is no comma whatever its ink. A mark
    inside an option (`Dos. el`) or a number's decimal mark (`92.55%`, the mark `commas` judges in a number) is not
    settled so."""
    if len(siblings) < MIN_SIBLINGS or not any(word in sl.line.unclear_marks for sl in lines):
        return False
    closing = plain_text(text.replace("**", ""))[0].rstrip()
    mark = word[-1:]
    return closing.endswith(word) and mark in CLOSING_MARKS and any(ch.isalpha() for ch in word) and all(
        plain_text(other.replace("**", ""))[0].rstrip().endswith(mark) for other in siblings)


def settled_by_stems(word: str, text: str, usual_ending: str | None, continued: bool, lines: Iterable[StreamLine]) -> bool:
    """Whether `word`, unsure by nothing but the unclear ink of its mark (`Line.unclear_marks`), closes the stem `text`
    with the mark most of the sheet's stems close with (`misreadsigns.usual_stem_ending`): a stem whose options do not
    go on with its sentence (`continued`) ends a sentence, where no comma stands, so its period is no comma whatever
    its ink (`경제사.` among stems ending in periods). A mark inside the stem is not settled so."""
    if usual_ending is None or continued or not any(word in sl.line.unclear_marks for sl in lines):
        return False
    closing = plain_text(text.replace("**", ""))[0].rstrip()
    return closing.endswith(word) and word[-1:] == usual_ending and any(ch.isalpha() for ch in word)


def settled_key_entry(word: str, answer: str | None, number: str) -> bool:
    """Whether the key's `word` reads as the entry's label alone, or its number and its label (`δ`, `7:γ`, `①`), the
    answer parse took (`answer`): a glyph alone gives the recogniser no word to weigh, so its confidence on it says
    little (Tesseract's Greek model gives every lone letter 0), and the sheet's labels vouch for it as the lexicon
    vouches for a known word; a glyph misread mostly reads as no label, which the key's own checks flag."""
    if not answer:
        return False
    pieces = [p.casefold() for p in re.split(r"[^\w]+", word_core(word)[1]) if p]
    return pieces == [answer.casefold()] or len(pieces) == 2 and number_key(pieces[0]) == number and pieces[1] == answer.casefold()


# Double quotation marks come in pairs within a stem or an option, in every language's style ("…",
# “…”, „…”, „…“, «…»): an odd count means OCR lost or invented one (`"Picos más altos de España.`).
_DOUBLE_QUOTES = re.compile('["\u201c\u201d\u201e\u00ab\u00bb]')


def _unpaired_quotes(text: str) -> bool:
    return len(_DOUBLE_QUOTES.findall(text)) % 2 == 1


def _unsure_reason(word: str, lines: Iterable[StreamLine]) -> str:
    """How the flag names an unsure word: the word, or the ink beside it no word accounts for (`Line.unaccounted_ink`)."""
    if any(word in sl.line.unaccounted_ink for sl in lines):
        return f"ink beside {word!r} no word accounts for"
    return repr(word)


def reading_confidence(draft: Draft) -> float | None:
    """The lowest word confidence of the lines the draft was read from; None for a question not OCR'd."""
    given = [sl.line.ocr_confidence for lines in draft_lines(draft).values() for sl in lines if sl.line.ocr_confidence is not None]
    return min(given) if given else None


MISREAD_LABELS = "no option read, its lines open like the labels"


def judge_drafts(drafts: list[Draft], key_unsure: dict[str, list[str]], key_read_by_ocr: bool, labels: list[str],
                 language: str | None = None, key_inferred: Collection[str] = ()) -> None:
    """`judge_draft` for each of a sheet's drafts; `labels`: the spec's option labels; `language`: the sheet's
    (ISO 639-1), whose `glued_words` judge the OCR'd texts (`misreadsigns`); `key_inferred`: the number keys
    whose key entry the key reader inferred (`KeyTable.inferred`)."""
    usual = usual_option_count([len(d.choices) for d in drafts if d.type is not QuestionType.TRUE_FALSE])
    found = find_language(language) if language else None
    glued = found.glued_words if found else None
    read = [d for d in drafts if reading_confidence(d) is not None]
    marked = marked_forms(text for d in read for text in (d.text, *d.choices))
    repeated = repeated_spellings(text for d in read for text in (d.text, *d.choices))
    spelled = spelled_for(tuple(found.codes.tesseract)) if found and found.spelling and marked else None
    capital_stems = sheet_opens_capital(d.text for d in read)
    stem_ending = usual_stem_ending(d.text for d in read if not _continued(d))
    vouched = labels_vouch(drafts, key_unsure)
    for draft in drafts:
        judge_draft(draft, key_unsure, key_read_by_ocr, labels, usual=usual, glued=glued, marked=marked, spelled=spelled, repeated=repeated,
                    key_inferred=key_inferred, capital_stems=capital_stems, stem_ending=stem_ending, labels_vouched=vouched)


# More than this share of a key's entries unsure by a lone glyph alone: the recogniser gives lone glyphs no confidence
# on that key (Greek's model gave 7 of 16 right letters 0), not one glyph an unsure reading among sure ones.
LONE_GLYPHS_UNINFORMATIVE = 0.25


def labels_vouch(drafts: list[Draft], key_unsure: dict[str, list[str]]) -> bool:
    """Whether the recogniser's confidence on a key entry read as its label alone says nothing on this sheet's key:
    more than `LONE_GLYPHS_UNINFORMATIVE` of its keyed entries are unsure by such a lone glyph alone
    (`settled_key_entry`). Where nearly all entries read sure, the one that did not stands out, and a letter misread
    as another label (`c` for `e`) is caught by nothing else: it stays unsure."""
    return lone_glyphs_uninformative([(number_key(d.number), d.answer) for d in drafts if d.answer is not None], key_unsure)


def lone_glyphs_uninformative(keyed: list[tuple[str, str]], key_unsure: dict[str, list[str]]) -> bool:
    """`labels_vouch` of the keyed entries ((number key, answer) each) of a key."""
    lone = sum(1 for number, answer in keyed if key_unsure.get(number)
               and all(settled_key_entry(w, answer, number) for w in key_unsure[number]))
    return bool(keyed) and lone > LONE_GLYPHS_UNINFORMATIVE * len(keyed)


def flagged_key_entries(key_unsure: dict[str, list[str]], answers: Mapping[str, str]) -> dict[str, list[str]]:
    """{number key: unsure words} of the keyed entries whose question `judge_draft` flags for its key entry: each of
    `key_unsure` (`unsure_key_entries`) less the words its label alone settles where the labels vouch (`labels_vouch`);
    for a measure of a key alone (`pipeline.devkit.keyscans`), as a sheet's parse judges its questions."""
    vouched = lone_glyphs_uninformative(list(answers.items()), key_unsure)
    flagged = {number: [w for w in words if not (vouched and settled_key_entry(w, answers[number], number))]
               for number, words in key_unsure.items() if number in answers}
    return {number: words for number, words in flagged.items() if words}


def _continued(draft: Draft) -> bool:
    """Whether the draft's options go on with its stem's sentence: one of them opens with a small letter."""
    return any(c.strip()[:1].islower() for c in draft.choices)


def _misread_label_run(lines: list[StreamLine], labels: list[str]) -> bool:
    """Whether consecutive lines open with the labels' first characters in order, all but one of them
    (`Aj`, `8)`, `Ci`, `Di` for `A)` to `D)`): options whose labels OCR misread, so none was found."""
    want = [label[:1].casefold() for label in labels]
    firsts = [plain_text(sl.text)[0][:1].casefold() for sl in lines]
    needed = max(2, len(want) - 1)
    return any(sum(a == b for a, b in zip(firsts[start:start + len(want)], want)) >= needed for start in range(len(firsts)))


def judge_draft(draft: Draft, key_unsure: dict[str, list[str]], key_read_by_ocr: bool, labels: list[str] | None = None, *,
                usual: int | None = None, glued: GluedWords | None = None, marked: MarkedForms | None = None,
                spelled: Callable[[str], bool] | None = None, repeated: frozenset[str] | None = None,
                key_inferred: Collection[str] = (), capital_stems: bool = False,
                stem_ending: str | None = None, labels_vouched: bool = False) -> None:
    """Set the draft's `reading_confidence` and, where a part rests on an unsure reading, add its `ocr.uncertain` flag.
    `key_unsure`: {number key: the unsure words its key entry was read from} (`unsure_key_entries`);
    `key_read_by_ocr`: a key of the sheet was read by OCR (its entries' problems are then unsure readings);
    `labels`: the spec's option labels (an OCR'd question without options whose lines open like them is unsure);
    `usual`: the option count most of the sheet's questions have; `glued`: the language's one-letter words and
    their followers (`misreadsigns`: signs of a misreading no word's confidence shows); `marked`: the spellings with
    diacritics the sheet's OCR'd texts read, and `spelled` the language's spelling dictionaries (`mark_signs`);
    `key_inferred`: number keys whose key entry rests on an inference (a number the key reader put back);
    `capital_stems`: the sheet's stems open with capitals (`casing_signs`); `stem_ending`: the mark most of the sheet's
    stems end with (`usual_stem_ending`); `labels_vouched`: a key entry read as its label alone is settled by the labels
    (`labels_vouch`)."""
    draft.reading_confidence = reading_confidence(draft)
    parts: dict[str, list[str]] = {}
    if draft.reading_confidence is not None:
        texts = {STEM: draft.text, **dict(zip(draft.labels, draft.choices))}
        for part, lines in draft_lines(draft).items():
            text = texts.get(part, "")
            siblings = [choice for label, choice in zip(draft.labels, draft.choices) if label != part] if part != STEM else []
            continued = part == STEM and _continued(draft)
            unsure = [w for w in unsure_in(text, lines) if not settled_by_siblings(w, text, siblings, lines)
                      and not (part == STEM and settled_by_stems(w, text, stem_ending, continued, lines))]
            words = [_unsure_reason(w, lines) for w in unsure] + (["an unpaired quotation mark"] if _unpaired_quotes(text) else [])
            words += text_signs(text, glued, continued=continued, option=part != STEM, labels=labels or draft.labels)
            if part == STEM:
                words += stem_ending_signs(text, stem_ending, continued)
            words += mark_signs(text, marked or {}, spelled, repeated)
            words += casing_signs(text, siblings, option=part != STEM, capital_stems=capital_stems)
            if words:
                parts[STEM if part == STEM else f"option {part}"] = words
        signs = option_signs(draft.labels, draft.choices, usual) if draft.type is not QuestionType.TRUE_FALSE else []
        if signs:
            parts.setdefault("options", []).extend(signs)
        for code in flag_codes_in_order(draft.flags):  # the flags' order, not a set's: the message is the same on every run
            if code in RECOVERED_PARTS:
                parts.setdefault(RECOVERED_PARTS[code], [])
        lines = [sl for found in draft_lines(draft).values() for sl in found][1:]
        if labels and not draft.labels and draft.type is not QuestionType.TRUE_FALSE and _misread_label_run(lines, labels):
            parts.setdefault("options", []).append(MISREAD_LABELS)
    entry = [w for w in key_unsure.get(number_key(draft.number), [])
             if not (labels_vouched and settled_key_entry(w, draft.answer, number_key(draft.number)))]
    if entry and draft.answer is not None:
        parts[KEY_ENTRY] = [repr(w) for w in entry]
    elif key_read_by_ocr and codes_of(draft.flags) & KEY_ENTRY_PROBLEMS:
        parts.setdefault(KEY_ENTRY, [])
    if draft.answer is not None and number_key(draft.number) in key_inferred:
        parts.setdefault(KEY_ENTRY, [])  # "resting on what parse had to infer"
    if not parts:
        return
    words = [w for found in parts.values() for w in found]
    shown = ", ".join(words[:SHOWN_WORDS]) + (f" and {len(words) - SHOWN_WORDS} more" if len(words) > SHOWN_WORDS else "")
    draft.flags.append(diagnose(Code.OCR_UNCERTAIN, parts=", ".join(parts), words=shown or "what parse had to infer"))


UNUSED_ENTRY = "a key entry no part of the reading took"


def judge_unused_entries(drafts: list[Draft]) -> None:
    """An OCR'd question its key answers though it was read as a type that takes no answer (`key.entry_unused`: a
    question of options read as open, its option lines lost to a faded or smeared scan) rests on an unsure reading
    of its options: it gets `ocr.uncertain` too, so it comes first in the audit queue. Run after the key's entries
    are matched (`losses.flag_unkeyed_entries`); a question flagged already keeps its one flag."""
    for draft in drafts:
        if draft.reading_confidence is not None and has_code(draft.flags, Code.KEY_ENTRY_UNUSED) \
                and not has_code(draft.flags, Code.OCR_UNCERTAIN):
            draft.flags.append(diagnose(Code.OCR_UNCERTAIN, parts="options", words=UNUSED_ENTRY))


# --------------------------------------------------------------------------- key entries


def _ocr_lines(documents: Iterable[ExtractedDocument]) -> Iterable[tuple[int, list[Line]]]:
    for document in documents:
        for page in document.pages:
            if page.method is PageMethod.OCR and not page.dropped_reason:
                yield page.number, page.lines


_NUMBER_CELL = re.compile(r"^\(?(?P<number>\d{1,3})[.)]?$")


def _number_above(cell: Line, lines: list[Line]) -> str | None:
    """The number printed in the cell right above `cell` (the nearest number-only line overlapping it across)."""
    above = [
        line for line in lines
        if line.bottom <= cell.top + 1 and min(line.x1, cell.x1) - max(line.x0, cell.x0) > 0 and _NUMBER_CELL.match(line.text.strip())
    ]
    if not above:
        return None
    nearest = max(above, key=lambda line: line.bottom)
    match = _NUMBER_CELL.match(nearest.text.strip())
    return match.group("number") if match else None


def read_by_ocr(documents: Iterable[ExtractedDocument]) -> bool:
    """Whether any page of `documents` was read by OCR."""
    return any(page.method is PageMethod.OCR for document in documents for page in document.pages)


def unsure_key_entries(documents: Iterable[ExtractedDocument], entry_pattern: str | None,
                       answers: Mapping[str, str] | None = None) -> dict[str, list[str]]:
    """{number key: unsure words} of the key entries read from unsure words on the keys' OCR'd pages.

    A line matching `entry_pattern` (a list key) is unsure for each entry whose match holds an unsure
    word; a line that is one unsure word alone (a table's answer cell) is unsure for the number in the
    cell above it. An unsure line that is neither, whose words a key reader still reads as entries, passes its
    unsure words on by its place (`_row_entries`, `_under_numbers`, `_row_number`): an answer cell printed in a
    cell of its own beside its number ("7" | "B" in a ruled list), a grid's row of answers under its row of
    numbers, a table's row led by its number. A key entry's unsure reading is never lost on its way to the flag.
    `answers` ({number key: answer}, the key read): a word passed on by its place goes to an entry whose answer holds
    it (a row's other cells, another variant's answers, are not this entry's reading); None: every such word."""
    entry_re = spec_pattern(entry_pattern) if entry_pattern else None
    found: dict[str, list[str]] = {}
    for _, lines in _ocr_lines(documents):
        for line in lines:
            if not line.unsure_words:
                continue
            text = plain_text(line.text)[0]
            matched = False
            for match in entry_re.finditer(text) if entry_re else ():
                matched = True
                words = [w for w in line.unsure_words if _holds(match.group(0), w)]
                if words:
                    found.setdefault(number_key(match.group("number")), []).extend(words)
            if matched:
                continue
            number = _number_above(line, lines) if len(text.split()) == 1 else None
            if number is not None:
                found.setdefault(number_key(number), []).extend(line.unsure_words)
                continue
            placed = (_row_entries(line, lines, entry_re) if entry_re else {}) or _under_numbers(line, lines) \
                or _row_number(line, lines)
            for key, words in placed.items():
                number = number_key(key)
                words = [w for w in words if answers is None or _holds(answers.get(number, ""), w)]
                if words:
                    found.setdefault(number, []).extend(words)
    return found


def _row(line: Line, lines: list[Line]) -> list[Line]:
    """The lines sharing `line`'s row (each overlapping the other by half the lower one's height, as `stream.same_row`
    groups a row), left to right, `line` among them."""
    return sorted((other for other in lines if min(other.bottom, line.bottom) - max(other.top, line.top)
                   > 0.5 * min(other.bottom - other.top, line.bottom - line.top)), key=lambda other: other.x0)


def _row_entries(line: Line, lines: list[Line], entry_re: SpecPattern) -> dict[str, list[str]]:
    """{number: unsure words} of the entries that `line`'s row, its cells joined as the list reader joins them
    (`keys.row_entries`: "7" | "B" in cells of their own), reads across `line`: each entry whose match covers the
    line and holds its unsure word."""
    row = _row(line, lines)
    texts = [plain_text(other.text)[0] for other in row]
    at = row.index(line)
    start = sum(len(t) + 2 for t in texts[:at])
    end = start + len(texts[at])
    found: dict[str, list[str]] = {}
    for match in entry_re.finditer("  ".join(texts)):
        if match.start() < end and match.end() > start:
            words = [w for w in line.unsure_words if _holds(match.group(0), w)]
            if words:
                found.setdefault(match.group("number"), []).extend(words)
    return found


def _spread(line: Line, count: int) -> list[float]:
    """Where the `count` cells of a grid's row stand across `line` (evenly spaced, as a grid's cells are)."""
    step = (line.x1 - line.x0) / count
    return [line.x0 + step * (i + 0.5) for i in range(count)]


def _under_numbers(line: Line, lines: list[Line]) -> dict[str, list[str]]:
    """{number: unsure words} of a grid's answers (`line`: a row of cells, or one cell) under its row of numbers (the
    nearest line above overlapping it across whose every word is a number): each answer cell standing nearest a number
    takes that number, and an unsure word goes to every cell it reads as (a line keeps which of two alike cells was
    unsure by text alone: both are judged unsure rather than either lost)."""
    cells = plain_text(line.text)[0].split()
    above = [other for other in lines if other.bottom <= line.top + 1 and min(other.x1, line.x1) - max(other.x0, line.x0) > 0
             and other.text.split() and all(_NUMBER_CELL.match(word) for word in other.text.split())]
    if not cells or not above:
        return {}
    numbers_line = max(above, key=lambda other: other.bottom)
    numbers = [_NUMBER_CELL.match(word).group("number") for word in numbers_line.text.split()]  # type: ignore[union-attr]
    places = _spread(numbers_line, len(numbers))
    found: dict[str, list[str]] = {}
    for cell, x in zip(cells, _spread(line, len(cells))):
        words = [w for w in dict.fromkeys(line.unsure_words) if _holds(cell, w)]
        if words:
            nearest = min(range(len(numbers)), key=lambda i: abs(places[i] - x))
            found.setdefault(numbers[nearest], []).extend(words)
    return found


_ROW_LEAD = re.compile(r"^\(?(?P<number>\d{1,3})[.)]?(?:\s|$)")


def _row_number(line: Line, lines: list[Line]) -> dict[str, list[str]]:
    """{number: unsure words} of a table's row led by its number ("12 | B | C | A": a variant table's row, its
    number first): the row's unsure words are its number's, which of its cells they stand in aside."""
    row = _row(line, lines)
    lead = _ROW_LEAD.match(plain_text(row[0].text)[0])
    if lead is None or row[0] is line and len(line.text.split()) < 2 or all(_NUMBER_CELL.match(w) for w in line.text.split()):
        return {}  # no number leads the row, or the unsure line is its number alone or a grid's row of numbers
    return {lead.group("number"): list(line.unsure_words)}
