"""Typed diagnostics: every flag on a record, problem in the report, note and OCR note, defined once.

A `Diagnostic` has a stable `code` from the one registry below (`Code`), where each code is defined
once with its severity and the template of its message; what it concerns (the source file, a page, a
question); and its rendered message. Code that needs to know what a diagnostic says compares codes,
never the message's opening words.

A diagnostic *is* its rendered message for every reader that reads text (it subclasses `str`): the
curated Parquet's `flags` column, the report's Markdown, a joined line, and `"…" in q.flags` read it
unchanged, so curated data and reports from before read the same. Text from elsewhere (curated
Parquet written before codes existed, a line another module still builds as a string) becomes a
diagnostic with `as_diagnostic`: the registry's templates are matched against the whole text, and
what matches none gets the fallback code the caller names (an unclassified problem, flag or note).

Severity: `error` is a problem that `--strict` fails on (something lost, not keyed, not read);
`warning` is a record a curator should look at (a flag) or a reading extraction had to guess;
`info` is worth knowing and no loss (annulled questions, where `stop_at` ended the sheet).
"""
from __future__ import annotations

import re
from dataclasses import asdict, dataclass, fields, replace
from enum import Enum
from functools import cache
from typing import Iterable


class Severity(str, Enum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


ERROR, WARNING, INFO = Severity.ERROR, Severity.WARNING, Severity.INFO


class Code(Enum):
    """The registry: (stable code, severity, message template). The template's `{fields}` are filled
    by `diagnose`; a code's string never changes once released (filters and saved reports use it)."""

    # -- flags on a record (parse): the record is kept, a curator should look at it
    DUPLICATE_NUMBER = ("parse.duplicate_number", WARNING, "question number {number} is printed more than once")
    ID_SHARED = ("parse.id_shared", WARNING,
                 "record id {id} is also produced by question(s) {others} of this sheet; this one is {kept}")
    NUMBER_INFERRED = ("parse.number_inferred", WARNING,
                       "question number {read}, taken as {number}: the only number the numbering allows there")
    NUMBERING_JUMP = ("parse.numbering_jump", WARNING,
                      "question numbering jumps from {previous} to {current}: {missing} not found")
    NUMBERING_LATE_START = ("parse.numbering_late_start", INFO,
                            "question numbering starts at {first}: {missing} not found before it")
    LABEL_RESTORED = ("parse.label_restored", WARNING, "option {label}: its label {how}")
    LABELS_FROM_COLUMN = ("parse.labels_from_column", WARNING,
                          "option labels {labels}: read without their marks (OCR); taken from the column they stand in")
    TOO_FEW_OPTIONS = ("parse.too_few_options", WARNING,
                       "only {count} options found (labels {labels}); the spec expects at least {minimum}")
    LABEL_SKIPPED = ("parse.label_skipped", WARNING, "option labels {labels} skip a label (expected {expected})")
    EMPTY_OPTION = ("parse.empty_option", WARNING, "option(s) {labels} have no text")
    TRAILING_TEXT = ("parse.trailing_text", WARNING, "text after the options was not kept: {text!r}")
    LOST_LABELS = ("parse.lost_labels", WARNING, "printed option labels {labels} {where}")
    UNDECLARED_TYPE = ("parse.undeclared_type", WARNING,
                       "read as {type}, a type the family does not have (layout.closed_types {declared})")
    NO_HIGHLIGHT = ("key.no_highlight", WARNING, "no highlighted option (key.kind highlight)")
    SEVERAL_HIGHLIGHTS = ("key.several_highlights", WARNING, "several options highlighted: {labels}")
    NO_KEY_ENTRY = ("key.no_entry", WARNING, "no key entry for this {what}")
    KEY_ENTRY_EMPTY = ("key.entry_empty", WARNING, "key entry is empty")
    KEY_ENTRY_NOT_LABEL = ("key.entry_not_label", WARNING, "key entry {entry!r} is not an option label")
    KEY_ENTRY_SEVERAL_LABELS = ("key.entry_several_labels", WARNING, "key entry {entry!r} names more than one label")
    KEY_ANSWER_NOT_OPTION = ("key.answer_not_option", WARNING, "key answer {label} is not among the options {labels}")
    KEY_ENTRY_NOT_TRUE_FALSE = ("key.entry_not_true_false", WARNING, "key entry {entry!r} is not one true/false answer")
    KEY_TRUE_FALSE_COUNT = ("key.true_false_count", WARNING, "key for {number} gives {count} true/false answers{detail}")
    MATCHING_UNVALIDATED = ("key.matching_unvalidated", WARNING, "matching task: key kept as text, not validated")
    KEY_ENTRY_NO_ANSWER = ("key.entry_no_answer", WARNING, "key entry {entry!r} holds no answer (an annulled item?)")
    KEY_OF_ANOTHER_SHEET = ("key.of_another_sheet", WARNING, "not keyed: the paired answer key belongs to another sheet")
    KEY_ENTRY_UNUSED = ("key.entry_unused", WARNING,
                        "key entry {entry!r} was not used: the question was read as {type}")
    BROKEN = ("review.broken", WARNING, "broken_by_curator")  # a curator marked the record broken on the audit page
    FLAG = ("flag.unclassified", WARNING, "{text}")  # a flag no code was given (curated data of before)

    # -- problems of a sheet or a run (the report; --strict fails on them)
    NUMBERING_RESTARTS = ("parse.numbering_restarts", ERROR,
                          "question numbering restarts at 1 ({where}) and the questions after it were read as text: "
                          "declare the parts in layout.sections")
    SECTION_ON_DROPPED_PAGE = ("parse.section_on_dropped_page", ERROR,
                               "section {prefix!r} starts on page {page}, a dropped page ({why}): its heading {line!r} "
                               "was not read, so the questions after it keep the numbers of the part before; narrow "
                               "layout.drop_pages so the heading's page is parsed")
    LOST_LABEL_QUESTIONS = ("parse.lost_label_questions", ERROR,
                            "{count} question(s) print option labels that ended in no option: {numbers}")
    NUMBERING_GAPS = ("parse.numbering_gaps", ERROR, "gap(s) in the question numbering: {numbers}")
    NUMBERS_REPEATED = ("parse.numbers_repeated", ERROR, "question number(s) printed more than once: {numbers}")
    UNDECLARED_TYPES = ("parse.undeclared_types", ERROR,
                        "{count} question(s) read as a type outside layout.closed_types {declared}: {numbers}")
    TYPES_SKIPPED = ("parse.types_skipped", ERROR, "skipped {count} question(s) of type {types} (layout.skip_types): {numbers}")
    NO_QUESTIONS = ("parse.no_questions", ERROR, "no questions found on this sheet")
    NO_YEAR = ("parse.no_year", ERROR, "no year in the file rule's facts nor on the sheet; year set to 0")
    ID_COLLISION = ("parse.id_collision", ERROR,
                    "error: record id {id} is produced by {count} questions (pages {pages}); curation would keep only one")
    IDS_KEPT_APART = ("parse.ids_kept_apart", ERROR,
                      "error: record id {id} is produced by {count} questions (numbers {numbers}, pages {pages}); "
                      "each kept under an id of its own: {ids}")
    NO_VARIANT = ("key.no_variant", ERROR, "no variant code found on the sheet (key.variant_pattern {pattern!r})")
    KEY_TABLE = ("key.table", ERROR, "key {name}: {detail}")
    KEY_NO_VARIANT_COLUMN = ("key.no_variant_column", ERROR, "key {name} has no column for variant {variant} (it has {columns})")
    KEY_NO_ANSWERS = ("key.no_answers", ERROR, "key {name}: no answers found")
    KEY_NOT_THIS_SHEET = ("key.not_this_sheet", ERROR,
                          "key {name} does not belong to this sheet: {reasons}; it was not applied")
    NO_KEY_IN_BOOKLET = ("key.not_in_booklet", ERROR,
                         "no answer key in the booklet: no line matches key.in_sheet {pattern!r}")
    NO_KEY_PAIRED = ("key.not_paired", ERROR, "no answer key paired with this sheet; closed questions are flagged")
    KEY_EXTRA_ANSWERS = ("key.extra_answers", ERROR,
                         "key lists {answers} answers, sheet has {closed} closed questions; no question for {unused}")
    KEY_ENTRIES_UNUSED = ("key.entries_unused", ERROR,
                          "{count} key entr(y/ies) left unused, their questions read as not closed: {numbers}")
    UNKEYED_QUESTIONS = ("key.unkeyed_questions", ERROR, "{count} question(s) have no entry in the key: {numbers}")
    KEY_MATCHES_NO_SHEET = ("pairing.key_without_sheet", ERROR, "answer key matches no sheet ({facts})")
    SHEET_WITHOUT_KEY = ("pairing.sheet_without_key", ERROR,
                         "no answer key found for this sheet (looked for a key with {facts})")
    FILE_FAILED = ("acquire.file_failed", ERROR, "{text}")  # the file could not be fetched or stored (the manifest's error)
    INDEX_UNREAD = ("acquire.index_unread", ERROR, "{spec}: index page {url} could not be read: {why}")
    LINK_REFUSED = ("acquire.link_refused", ERROR, "{spec}: link {link} on {url} not followed: {why}")
    NEEDS_YEARS = ("acquire.needs_years", ERROR, "{spec}: {what} {template!r} needs {{year}} but no years were given{detail}")
    TEMPLATE_FAILED = ("acquire.template_failed", ERROR, "{spec}: {why}")
    TEMPLATE_UNMATCHED = ("acquire.template_unmatched", ERROR, "{spec}: URL template gives {url}, which no `links` rule matches")
    EXTRACT_REJECTED = ("extract.rejected", ERROR, "{text}")  # the file's bytes are unusable: quarantined
    STAGE_UNAVAILABLE = ("extract.unavailable", ERROR, "{text}")  # OCR could not run this time; the file is not bad
    KEYS_FAILED = ("season.keys_failed", ERROR, "every answer key of this sheet failed to extract")
    KEPT_EARLIER = ("season.kept_earlier", ERROR, "its records curated earlier are kept unchanged")
    KEY_UNUSABLE_KEPT = ("season.key_unusable_kept", ERROR,
                         "answer key not usable in this run ({why}): kept the {count} records curated earlier, {found}")
    PATTERN_TIMEOUT = ("spec.pattern_timeout", ERROR, "{where}: {error}; {consequence}")
    FOLDER_ENTRY_SKIPPED = ("acquire.folder_entry_skipped", ERROR, "{path}: {why}")  # an entry of the --from folder
    PROBLEM = ("problem.unclassified", ERROR, "{text}")

    # -- notes: what extraction and parsing did in place of the usual, and what is no loss
    OCR_PAGES = ("extract.ocr_pages", WARNING, "{pages}: text layer not usable ({why}); read by OCR")
    OCR_DOUBTFUL = ("extract.ocr_doubtful", WARNING,
                    "page {page}: read by OCR with a mean word confidence of {confidence:.0f} (under {threshold:.0f}): "
                    "the scan may lie turned, be faint, or be in a script outside ocr.languages; check its questions")
    SCANNED_FIGURES = ("extract.scanned_figures", WARNING,
                       "page {page}: {count} figure(s) found on the scan at {boxes} pt{set_aside}")
    OCR_INFERRED = ("ocr.inferred", WARNING,
                    "{count} option label disc(s) not read, taken from their column's sequence: {labels}")
    FIGURES_NOT_CROPPED = ("extract.figures_not_cropped", WARNING, "figures not cropped: {why}")
    EXTRACT_NOTE = ("extract.note", WARNING, "{text}")
    STOP_AT = ("parse.stop_at", INFO,
               "layout.stop_at ended the sheet at page {page} ({line!r}): {count} line(s) on pages {first}–{last} not parsed")
    VOIDED = ("key.voided", INFO, "{count} question(s) annulled by the key (recorded as voided): {numbers}")
    NOTE = ("note.unclassified", INFO, "{text}")
    # -- appended later (codes keep their place once released)
    ANSWER_KEPT_FROM_EARLIER = ("season.answer_kept_from_earlier", WARNING,
                                "answer curated by an earlier run, kept: this run's answer key could not be used")
    # curated work (corrections, figure descriptions) stored under an id no record has any more (`renames.carried_ids`)
    WORK_CARRIED = ("season.work_carried", INFO,
                    "{kinds} stored under {old} carried to {new}: the same sheet's record, its id read with letters of another script")
    WORK_NOT_CARRIED = ("season.work_not_carried", WARNING, "{kinds} stored under {old} {why}; kept stored, applied to none")
    CLOZE_MARKER_NOT_FOUND = ("parse.cloze_marker_not_found", WARNING,
                              "no stem of its own, and its passage holds no marker of item {number} (layout.cloze_marker)")

    # -- answer keys read by position (issue 26): a problem, and what a curator should know of evidence
    KEY_KEYED_TWICE = ("key.keyed_twice", ERROR,
                       "key {name}: question {number} keyed twice ({answers}); left unkeyed, as the key gives no one answer")
    KEY_WEAK_EVIDENCE = ("key.weak_evidence", WARNING,
                         "key {name} applied although {reasons}: weak evidence, the sheet prints no year of its own")
    KEY_EVIDENCE_UNCHECKED = ("key.evidence_unchecked", WARNING,
                              "key {name} applied although {reasons}: not checked (key.checks {checks})")
    KEY_MARK_CELL = ("key.mark_cell", ERROR,
                     "key {name}: {where}: the answer cell of question(s) {numbers} holds only a mark ({marks}), "
                     "no answer and none of key.voided; left unkeyed")

    # -- text the text layer leaves out, read by OCR in place (issue 26)
    DRAWN_TEXT_READ = ("extract.drawn_text_read", WARNING,
                       "page {page}: {count} region(s) of drawn text (ink the text layer does not explain) read by OCR")
    DRAWN_TEXT_UNREAD = ("extract.drawn_text_unread", WARNING,
                         "page {page}: {count} region(s) of ink the text layer does not explain look like drawn text, "
                         "but OCR read nothing sure there (kept out of the text): {where} pt")
    UNMAPPED_READ = ("extract.unmapped_read", WARNING,
                     "page {page}: {count} span(s) of glyphs without a Unicode map read by OCR; the rest of the page is its text layer")
    UNMAPPED_UNREAD = ("extract.unmapped_unread", WARNING,
                       "page {page}: {count} span(s) of glyphs without a Unicode map that OCR could not read, kept as "
                       "U+FFFD or private-use characters, at {where} pt")

    # -- a flag on a record (parse), appended here to keep the registry's order
    OCR_UNCERTAIN = ("ocr.uncertain", WARNING, "read by OCR unsurely: {parts} (resting on {words})")
    # -- a note of the report: the questions above, listed per file
    OCR_UNSURE_QUESTIONS = ("ocr.uncertain_questions", WARNING,
                            "{count} question(s) read by OCR unsurely, first in the audit queue: {numbers}")

    # -- key cells a scan left unread (issue 27)
    KEY_CELL_UNREAD = ("key.cell_unread", WARNING,
                       "key {name}: the answer cell of question {question} could not be read (OCR); not keyed from a neighbour")
    # -- questions of the sheet no key line accounts for (issue 27: nothing lost silently)
    KEY_ENTRIES_UNACCOUNTED = ("key.entries_unaccounted", WARNING,
                               "key {name}: no entry read for question(s) {numbers} ({count} of the sheet's), and no "
                               "other line says why (a table, row or number the key reader did not find)")

    # -- a label's look-alike left in its option's text (issue 27)
    LABEL_REMAINDER = ("parse.label_remainder", WARNING,
                       "option {label}: {marks!r} standing alone in its text as read ({read!r}) is what OCR left of the label's "
                       "ring or mark; taken out")

    # -- a key entry keyed by inference, reported on its question (issue 27: nothing put back silently)
    KEY_NUMBER_RESTORED = ("key.number_restored", WARNING,
                           "key {name}: {where}: question {question}'s number was not read; put back where the row's pitch "
                           "places it, and keyed with the answer under that place")

    # -- what OCR repairs put back rather than read (nothing put back silently). A number is the question's identity:
    # one taken from its neighbours' count is a warning on its question (and its key entry counts as inferred).
    # A mark (`.`, `)`) put back after a label or number that was itself read changes no question's identity or
    # answer, only how the line is cut: an info note per page or sheet that counts them, not a line per question.
    OCR_NUMBER_INFERRED = ("ocr.number_inferred", WARNING,
                           "{where}: question {question}'s number not read as printed ({read}); taken as the number its "
                           "place in the count gives")
    OCR_MARKS_RESTORED = ("ocr.marks_restored", INFO,
                          "{count} {what} read without the mark the page's others carry, given it: {words}")
    MARKS_RESTORED = ("parse.marks_restored", INFO,
                      "{count} question number(s) read without the mark question_start asks for, given it: {numbers}")
    # A number a count put in between two neighbours read as the count says (one on each side: its place among read
    # rows is geometry, its answer cell read on its own) is said, at info, and flags nothing (`numbering.anchored_mends`);
    # parse keys its entry as read, whether its cell read a wrong number or nothing. One put in at a run's end or next to
    # another mended number stays `ocr.number_inferred` (a warning, its question flagged).
    OCR_NUMBER_ANCHORED = ("ocr.number_anchored", INFO,
                           "{where}: question {question}'s number not read as printed ({read}); taken as the number its "
                           "place in the count gives, between neighbours read as the count says")
    # Option labels parse took from where they stand (their column, their row's sequence and gaps) rather than as read:
    # each a warning on its question (`parse.label_restored`), counted once on the sheet.
    LABELS_RESTORED = ("parse.labels_restored", INFO,
                       "{count} option label(s) not read as printed, taken from where they stand: questions {numbers}")
    # -- key entries on scans (issue 27: nothing lost silently). A key entry read without the mark after its number (its
    # dot smoothed away) is the entry as printed, mark aside: counted per key part, at info, flagging nothing.
    KEY_MARKS_RESTORED = ("key.marks_restored", INFO,
                          "key {name}: {count} entr(y/ies) read without the mark after their number (OCR), taken as the "
                          "key's entries in their column's run: {numbers}")
    # A key entry read with a number that is no question of the sheet, standing in the run of its neighbours where the
    # sheet's questions lack their entries (`55` misread `95`): a line per such entry and per question left unkeyed,
    # the question flagged; put in its place only where the gap allows one reading (`keystrays`), its question unsure.
    # A line among a key's entries read as none: each question whose number it shows and that no entry keys has a line.
    KEY_LINE_UNREAD = ("key.line_unread", WARNING,
                       "key {name}: key line {line!r} among the entries could not be read as one (OCR): question {question}'s "
                       "entry is in it, not keyed")
    # A row of a key's columns whose entries run evenly (11, 21, …, 61): the place before, between or after them where the
    # run puts a question's entry holds a piece read as no entry (its number unread) or nothing at all (a column lost).
    KEY_PIECE_IN_PLACE = ("key.piece_in_place", WARNING,
                          "key {name}: {pieces} read where question {question}'s entry stands in its row (the row's entries "
                          "{row} run every {step}); its number unread or misread: not keyed")
    KEY_PLACE_EMPTY = ("key.place_empty", WARNING,
                       "key {name}: nothing read where question {question}'s entry stands in its row (the row's entries {row} "
                       "run every {step}): a column of the key not read")
    KEY_ENTRY_STRAY = ("key.entry_stray", WARNING,
                       "key {name}: entry read {read!r} between {before} and {after} is no question of the sheet: not used "
                       "(question(s) {gap} of that gap left unkeyed)")
    KEY_GAP_UNKEYED = ("key.gap_unkeyed", WARNING,
                       "key {name}: question {question} left unkeyed: the key's entries between {before} and {after} read "
                       "{read}, no question of the sheet")
    # A text-layer row of a key table with one column per variant that has not one cell under each column's header
    # (or, headers unplaced, not one word a column): which answer is whose cannot be told, so none is taken, never one
    # shifted to a neighbour's column; the line is the report's and its question's (`keys.read_variant_table`).
    KEY_ROW_UNREAD = ("key.row_unread", WARNING,
                      "key {name}: row {question} reads {read!r}, not one answer under each of its {columns} column(s) "
                      "({variants}); none taken")
    KEY_STRAY_PLACED = ("key.stray_placed", WARNING,
                        "key {name}: entry read {read!r} between {before} and {after} taken as question {question}: the gap "
                        "leaves as many questions as it holds entries out of the run, in order, each one digit from its "
                        "place (unsure)")
    MARGIN_NOTES_DROPPED = ("extract.margin_notes_dropped", INFO,
                            "{count} line(s) of small print wholly in a side margin dropped as margin notes "
                            "(layout.drop_margin_notes): {lines}")
    # -- text after a question's options too short to be flagged (issue 27/29: nothing dropped unsaid). Extract has
    # taken away the furniture the spec and the language data name (running heads, page numbers, `drop_lines`); a few
    # letters left after the last option ("Verte", "– 3 –" read askew) are taken for furniture no rule claimed and not
    # kept, each said on its question and listed per sheet, escaped as read.
    TRAILING_DROPPED = ("parse.trailing_dropped", INFO,
                        "text after the options set aside as page furniture (under {minimum} letters), not kept: {text!r}")
    TRAILING_DROPPED_QUESTIONS = ("parse.trailing_dropped_questions", INFO,
                                  "text after the options of {count} question(s) set aside as page furniture (under "
                                  "{minimum} letters each), not kept: {items}")
    # A question number's letters read in another script than its page's (`Al.` for `Α1.` on a Greek scan), written as
    # their twins of the same shape in the page's (`parse.numberscript`): the same number, in its sheet's script.
    # A line opening with an option label already taken, read into an option's text (a label printed twice, or OCR's
    # misreading of the next label as an earlier one): the options are kept, the question flagged, the sheet's notes
    # name it.
    LABEL_REPEATED = ("parse.label_repeated", WARNING,
                      "option label {label} printed again, its line read into option {owner}: {text!r}")
    LABELS_REPEATED = ("parse.labels_repeated", WARNING,
                       "{count} question(s) print an option label again, its line read into an option's text: {numbers}")
    # What the sheet holds that went to no question (issue 27/29: nothing dropped unsaid): lines before its first question
    # (a cover, instructions, or a first question whose number was not read) or between a part's heading and its first
    # question; figures above the first question; pages `layout.drop_pages` set aside.
    LINES_BEFORE_QUESTIONS = ("parse.lines_before_questions", INFO,
                              "{count} line(s) on page(s) {pages} stand before any question of their part and were parsed "
                              "as no question's text (first: {first!r})")
    FIGURES_UNATTACHED = ("parse.figures_unattached", INFO,
                          "{count} figure(s) above the first question, attached to no question: {where}")
    PAGES_DROPPED = ("parse.pages_dropped", INFO, "{count} page(s) not parsed: {pages}")
    NUMBER_SCRIPT = ("parse.number_script", INFO,
                     "{count} question number(s) read with letters of another script than their page's, written in "
                     "the page's: {numbers}")
    # a crawl's links of years the run was not asked for (`--years`), found and claimed by a rule, not fetched
    YEARS_NOT_ASKED = ("acquire.years_not_asked", INFO,
                       "{spec}: {count} linked file(s) of year(s) {years} not fetched (years asked: {asked}): {examples}")

    def __init__(self, code: str, severity: Severity, template: str):
        self.code = code
        self.severity = severity
        self.template = template

    @classmethod
    def _missing_(cls, value):
        return _BY_CODE.get(value) if isinstance(value, str) else None

    @classmethod
    def parse(cls, code: str) -> "Code":
        """The registered code for its string ("key.no_entry"); ValueError for one not registered."""
        return cls(code)  # type: ignore[call-arg]  # by value: _missing_ finds the member of this code string


# Flags that send a question to the audit queue without saying anything is wrong with it: the split
# does not withhold a record for them (docs/guides/publishing.md). An unsure OCR reading is a reason to
# check a question first (the audit queue opens with them), not evidence that it is wrong, and a
# curator's correction does not clear it: withheld for it, a question could never reach a release. So is a
# few letters after the options set aside as furniture (`parse.trailing_dropped`): said, and nothing of the
# question's stem or options changed by it.
AUDIT_ONLY: frozenset[Code] = frozenset({Code.OCR_UNCERTAIN, Code.TRAILING_DROPPED})


_BY_CODE: dict[str, Code] = {member.code: member for member in Code}
if len(_BY_CODE) != len(Code):  # a code string given twice would make filters and saved reports ambiguous
    raise RuntimeError("pipeline.diagnostics: a code string is registered twice")


@dataclass(frozen=True)
class Concerns:
    """What a diagnostic is about; every part optional (a run note concerns no file)."""

    source_url: str | None = None
    source_sha256: str | None = None
    page: int | None = None
    question: str | None = None  # the number printed on the sheet ("12", "Α1", "3.2")
    question_id: str | None = None

    def merged(self, **more) -> "Concerns":
        """These concerns with the parts given filled in where still empty."""
        return replace(self, **{k: v for k, v in more.items() if v is not None and getattr(self, k) is None})

    def to_dict(self) -> dict:
        return {k: v for k, v in asdict(self).items() if v is not None}


_CONCERN_FIELDS = frozenset(f.name for f in fields(Concerns))


class Diagnostic(str):
    """One diagnostic; its string value is its rendered message (see the module docstring)."""

    code: Code
    concerns: Concerns

    def __new__(cls, code: Code, message: str, concerns: Concerns | None = None) -> "Diagnostic":
        self = super().__new__(cls, message)
        self.code = code
        self.concerns = concerns or Concerns()
        return self

    @property
    def severity(self) -> Severity:
        return self.code.severity

    @property
    def message(self) -> str:
        return str.__str__(self)

    def about(self, **concerns) -> "Diagnostic":
        """The same diagnostic, also concerning what is given (kept where already set)."""
        return Diagnostic(self.code, self.message, self.concerns.merged(**concerns))

    def on_page(self, number: int) -> "Diagnostic":
        """The same diagnostic said of one page of a document: "page 3: …"."""
        return Diagnostic(self.code, f"page {number}: {self.message}", self.concerns.merged(page=number))

    def to_dict(self) -> dict:
        return {"code": self.code.code, "severity": self.severity.value, "concerns": self.concerns.to_dict(),
                "message": self.message}

    @classmethod
    def from_dict(cls, data: dict) -> "Diagnostic":
        concerns = {k: v for k, v in (data.get("concerns") or {}).items() if k in _CONCERN_FIELDS}
        return cls(Code.parse(data["code"]), data["message"], Concerns(**concerns))

    def __reduce__(self):  # pickled across worker processes with its code and concerns
        return (_rebuild, (self.code.code, self.message, self.concerns))

    def __repr__(self) -> str:
        return f"Diagnostic({self.code.code}, {self.message!r})"


def _rebuild(code: str, message: str, concerns: Concerns) -> Diagnostic:
    return Diagnostic(Code.parse(code), message, concerns)


def diagnose(code: Code, *, concerns: Concerns | None = None, **values) -> Diagnostic:
    """A diagnostic of `code`, its message the code's template filled with `values`; the values named
    like a `Concerns` part (page, question, …) also say what it concerns."""
    message = code.template.format(**values)
    about = {k: v for k, v in values.items() if k in _CONCERN_FIELDS}
    return Diagnostic(code, message, (concerns or Concerns()).merged(**about))


_FIELD = re.compile(r"\{[^{}]*\}")
_MIN_LITERAL = 8  # a template with less fixed text than this ("{text}", "key {name}: {detail}") matches too much


@cache
def _template_pattern(code: Code) -> re.Pattern:
    """The code's template as a pattern of its whole message, any value in each field."""
    return re.compile("(?:.*?)".join(re.escape(p) for p in _FIELD.split(code.template)), re.DOTALL)


def fits(message: str, code: Code) -> bool:
    """Whether the message is what the code's template says, whatever its values."""
    return _template_pattern(code).fullmatch(message) is not None


@cache
def _recognisers() -> list[tuple[re.Pattern, Code]]:
    found = []
    for code in Code:
        literal = _FIELD.sub("", code.template)
        if len(literal) >= _MIN_LITERAL:
            found.append((len(literal), _template_pattern(code), code))
    found.sort(key=lambda item: -item[0])  # the most specific template first
    return [(pattern, code) for _, pattern, code in found]


def recognise(text: str) -> Code | None:
    """The registered code whose whole template the text is, if any (for text written before codes)."""
    for pattern, code in _recognisers():
        if pattern.fullmatch(text):
            return code
    return None


def as_diagnostic(item: str, fallback: Code) -> Diagnostic:
    """A diagnostic as it is, or a line of text typed: the code whose template it fills, else `fallback`.
    Where text is put says how grave it is (a line among a file's problems is an error): a recognised
    code of another severity than the fallback's is not taken."""
    if isinstance(item, Diagnostic):
        return item
    code = recognise(item)
    return Diagnostic(code if code is not None and code.severity is fallback.severity else fallback, str(item))


def as_diagnostics(items: Iterable[str], fallback: Code) -> list[Diagnostic]:
    return [as_diagnostic(item, fallback) for item in items]


def with_codes(messages: Iterable[str], codes: Iterable[str] | None, fallback: Code) -> list[Diagnostic]:
    """Diagnostics back from a stored form: rendered messages and, when stored beside them, their codes.
    A stored code is taken when its message fits the code's template; otherwise (no codes, as in curated
    Parquet of before; a code not registered; a code left over beside other text) the text is recognised."""
    messages = list(messages)
    codes = list(codes or [])
    typed = []
    for i, message in enumerate(messages):
        if isinstance(message, Diagnostic):
            typed.append(message)
            continue
        stored = codes[i] if i < len(codes) else None
        try:
            code = Code.parse(stored) if stored else None
        except ValueError:
            code = None
        typed.append(Diagnostic(code, message) if code and fits(message, code) else as_diagnostic(message, fallback))
    return typed


def to_records(items: Iterable[str], fallback: Code) -> list[dict]:
    """The stored form (JSON caches, the report's JSON): code, severity, concerns, message."""
    return [as_diagnostic(item, fallback).to_dict() for item in items]


def from_records(items: Iterable[dict | str], fallback: Code) -> list[Diagnostic]:
    """Back from `to_records`; a plain string (a cache or file written before codes) is typed as text."""
    typed = []
    for item in items:
        if isinstance(item, dict):
            try:
                typed.append(Diagnostic.from_dict(item))
                continue
            except (KeyError, ValueError, TypeError):
                item = str(item.get("message", ""))
        typed.append(as_diagnostic(item, fallback))
    return typed


def codes_of(items: Iterable[str]) -> set[Code]:
    return {item.code for item in items if isinstance(item, Diagnostic)}


def flag_codes_in_order(items: Iterable[str]) -> list[Code]:
    """Each code once, in the order its first diagnostic stands in `items` (`codes_of`, ordered)."""
    return list(dict.fromkeys(item.code for item in items if isinstance(item, Diagnostic)))


def has_code(items: Iterable[str], *codes: Code) -> bool:
    return any(isinstance(item, Diagnostic) and item.code in codes for item in items)


def registry_table() -> list[dict]:
    """Every registered code with its severity and template (for the docs and the audit page's filter)."""
    return [{"code": c.code, "severity": c.severity.value, "template": c.template} for c in Code]


def registry_markdown() -> str:
    """The registry as a Markdown table (the docs' reference page is generated from this)."""
    rows = [f"| `{r['code']}` | {r['severity']} | {r['template'].replace('|', chr(92) + '|')} |" for r in registry_table()]
    return "\n".join(["| code | severity | message |", "|---|---|---|", *rows])


if __name__ == "__main__":  # python -m pipeline.diagnostics: the table of codes
    print(registry_markdown())
