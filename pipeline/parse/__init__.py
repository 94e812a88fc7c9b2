"""Parse stage: an extracted sheet and its key(s) become curated `Question` records.

Input: the sheet's `ExtractedDocument` and manifest entry, its keys' documents and entries, the spec.
Output: a `ParseResult` (records, and the problems found while parsing and matching the key).

Public functions and types:
- `parse_sheet(sheet, sheet_entry, keys, spec)` -> ParseResult (`build`)
- `number_key(number)`: question numbers compared across sheet, key and truth files (`labels`)
- `column_edges(lines)`, `indent(x0, edges)`: where a line stands in its column (`geometry`; `inspect` and `layout.question_max_indent`)
- `under_word_options(lines, labels, min_count, header)`: options read from a label row under a sentence (`underwords`)
- `STAGE_VERSION`: part of every parse cache key; `recovery_key(disabled, read_by_ocr)`: the (name, version)
  of each OCR recovery pass a sheet's parsing runs, the rest of it (`ocrpasses`)
- parse's OCR recovery as declared passes: `PARSE_PASSES` (the ordered registry, `ocrpasses`), `Recovery`,
  `Point`, `RecoveryPass` (the interface, `recovery`), `recovery_for(disabled)`, `parse_pass_names()`,
  `check_ocr_pass_names(names)` (a spec's `ocr.passes.disable`: page and parse passes), `register_ocr`
  (`examcorpus ocr passes`, both kinds listed)
- the parser's own matchers, for tools that show what it sees (`pipeline.devkit.inspect`): `line_stream`,
  `plain_text` (`stream`), `split_blocks`, `Numbering` (`blocks`), `option_start_regex`, `matched_label`,
  `canonical_label` (`labels`), `find_options` and `bare_label_run` (`options`); for a key: `key_stream`,
  `place_parts`, `split_booklet` (`keyparts`: its region and parts by position) and `row_entries` (`keys`)
- the key formats, for tools that read a key alone (`pipeline.devkit.keyscans`): `read_list`,
  `read_variant_table`, `KeyTable`, `unaccounted_line` (`keys`: the questions no line accounts for; `place_lines` first, those its rows' runs place), `read_grid` (`gridkeys`);
  `mend_short_entries` (`shortrepairs`) and `unsure_short_entries` (`shortentries`): a short-answer key's entries
  mended and judged as `parse_sheet` does; `KEY_ENTRY`, the name of a key entry in an `ocr.uncertain` flag,
  `unsure_key_entries` and `flagged_key_entries` (`certainty`: the key entries read unsurely, and those whose question
  `parse_sheet` flags for them)
- the signs of a misreading no word shows, judged on OCR'd questions (`misreadsigns`): `MISREAD_SIGNS`, and
  `enable_signs(names)` for the measurement that weighs each (`pipeline.devkit.ocrcertainty --signs`)

Small strategies chosen by the spec: numbering (`blocks`), options (`options`, joining wrapped lines by the
sheet's own line pitch from `geometry`), true/false blocks
(`truefalse`), key formats (`keys`), whether a key belongs to the sheet (`keymatch`); `build`
assembles and validates the records. Nothing exam-specific lives here: every rule comes from the
spec's `layout` and `key` sections.

Patterns (`question_start`, option labels, key entries, type rules) match a line's plain text: bold
marks removed, any whitespace one space, a number split from its text by a wide gap joined back (`stream`
`plain_text`, `blocks`); the records keep the bold. Nothing is lost silently: printed option labels in
no option, gaps and repeats in the numbering, questions the numbering, the sheet's parts or a marking scheme
imply but no block has (`implied`), key entries no question took, questions of a type outside
`layout.closed_types` are flags on the records and lines in `ParseResult.problems`; two records with one
id are an `error:` problem line. A record id is source:year:session:sheet:number, the sheet being its code,
or where the spec finds none, the file rule's facts (qualification, folder, form, variant).
"""
from pipeline import PIPELINE_VERSION
from pipeline.parse.build import ParseResult, parse_sheet
from pipeline.parse.blocks import Numbering, split_blocks
from pipeline.parse.keyparts import key_stream, place_parts, split_booklet
from pipeline.parse.keys import row_entries
from pipeline.parse.geometry import column_edges, indent
from pipeline.parse.labels import canonical_label, matched_label, number_key, option_start_regex
from pipeline.parse.options import bare_label_run, find_options
from pipeline.parse.stream import line_stream, plain_text
from pipeline.parse.underwords import under_word_options
from pipeline.parse.ocrpasses import PARSE_PASSES, check_ocr_pass_names, parse_pass_names, recovery_for, recovery_key, register_ocr
from pipeline.parse.recovery import Point, Recovery, RecoveryPass
from pipeline.parse.gridkeys import read_grid
from pipeline.parse.keying import inferred_numbers
from pipeline.parse.misreadsigns import SIGNS as MISREAD_SIGNS, enable_signs
from pipeline.parse.keys import KeyTable, place_lines, read_list, read_variant_table, unaccounted_line
from pipeline.parse.certainty import KEY_ENTRY, flagged_key_entries, unsure_key_entries
from pipeline.parse.shortentries import unsure_short_entries
from pipeline.parse.shortrepairs import mend_short_entries

# Bumped whenever parsing changes, so cached parse results of earlier code are never reused.
# +14: an option whose label OCR lost is cut from the paragraph break in the option before it.
# +13: OCR'd key rows among the entries that read as none are reported; a key keyed twice is reported.
# +12: OCR'd key entries mended from their column's run; grid cells read as "?" reported.
# +11: numbers out of the run, lost numbers recovered from the gaps, labels at the label column.
# +10: sections, grid keys, voided/reserve/pilot items, key in the booklet, notes.
# +17: enclosed letters and digits (Ⓐ, ①, ❶, 🅐) read as the plain labels they enclose.
# +18: a first option whose label OCR lost is taken from the stem's indented last lines.
# +19: a scanned number read as its neighbour's beside a gap of one (97, 99, 99, 100) is the missing one.
# +20: options after the last label read cut from its sentence breaks when OCR lost their labels.
# +24: ids of sheets whose code is not found carry the file rule's facts; questions the numbering, the
#      sheet's parts or a marking scheme imply but no block has are flagged and reported.
# +25: options side by side on one line split at each label (any alphabet, enclosed ① kept as printed).
# +26: key parts by position (column, then row); stop_at and key.in_sheet end only their column; a question
#      keyed twice is left unkeyed; overlay marks are grid cells of their own; weak year evidence.
# +27: glued labels split ('a tableB) a cat'); question_max_indent, options.under_words, cloze_marker.
# +29: a scanned header number read with its box's edge ("2|" as 21, "Questão 2]") is the number (edge-strokes);
#      a key's booklet-type header read with a look-alike ("TIPO l") names its type.
# +30: short-answer key entries read by OCR mended where the dictionary decides a slash (`shortrepairs`), and
# flagged where their reading is unsure (`shortentries`).
# +31: two signs of a misreading (`misreadsigns.casing_signs`: an option or stem opening small among capitals, a
# letter O in a number's digits) flag OCR'd questions a sheet parsed before did not.
# +32: a key number the OCR read put in from its table's count (`ocr.number_inferred`) keys its entry by inference
# (its question flagged unsure); question numbers given their lost mark are counted in an info note.
# +33: a key number put in between neighbours read as the count says is anchored (`ocr.number_anchored`, info): its
# entry is keyed as read, not by inference; only `ocr.number_inferred` flags its question.
# +34: a stem ending without the mark the sheet's stems end with is a sign (`misreadsigns.stem_ending_signs`); a stem's
# unclear closing mark that is the sheet's stems' is settled, and so is a key entry read as its label alone where the
# key's lone glyphs are mostly unsure (`certainty.labels_vouch`).
# +35: the labels vouch for a key's lone glyphs where more than a quarter of its entries are so unsure, not half.
# +36: a key line's unsure word that names no entry alone reaches its entry by its place (`certainty.unsure_key_entries`:
# an answer cell beside its number, a grid's answers under its numbers, a table's row led by its number).
# +37: a line in the cell of an option of the labels' last row (a graph's axis letters under its label) is that
# option's, as lines between rows of labels are (`options._in_last_row_cell`), not text after the options.
# +38: a variant table's text-layer row is read cell by cell under its variants' headers, a row without one cell under
# each is keyed for none (`key.row_unread`); points printed on a line of their own below the options are the question's.
STAGE_VERSION = f"parse/{PIPELINE_VERSION}+38"
# How sure OCR'd questions are read (`certainty`): the `ocr.uncertain` flag and `reading_confidence`.
STAGE_VERSION += "/certainty-1"
# A key letter read twice ("Cc" for "C") is read as one label only where the key was read by OCR (the
# `doubled-key-letter` pass): a text key's "Cc" is reported, so text-layer parses are redone once.
STAGE_VERSION += "/ocr-only-key-letter"
# A grid row's label OCR read as a smaller number ("문항" as "2" before 21, 22, …, in its own column) opens no question.
STAGE_VERSION += "/grid-label-number"
# A short-answer key entry whose alternatives write a number and a numeral word of other values (`9/πέντε` read for
# `5/πέντε`), or a numeral word beside a lost number, is unsure (`shortentries.numeral_disagreements`).
STAGE_VERSION += "/numeral-words"
# +28: grid keys: answers printed as the digits of ringed labels (①–⑤), a row label OCR read with digits.
# A variant table's answer cell stops where the next column its rows' cells show begins (`tablecolumns`): a row's
# note beside its answer is no part of it, on the text layer too.
STAGE_VERSION += "/table-columns"
# An OCR'd word beside ink no word accounts for (`Line.unaccounted_ink`) is named so in `ocr.uncertain`.
STAGE_VERSION += "/loose-ink"
# A key header's booklet type read as a look-alike of a declared one (`유형 4` for `유형 A`) is that one, a name none
# matches is reported (`bookletlabels`; spec `key.variants`, language data `label_shapes.header_lookalikes`).
STAGE_VERSION += "/booklet-lookalikes"
# Text after a question's options too short to flag, set aside as furniture, is said: `parse.trailing_dropped` (info) on
# its question and a note per sheet.
STAGE_VERSION += "/trailing-dropped"
# A question number's letters are written in its page's script (`numberscript`: `Al.` read on a Greek scan is `Α1`).
STAGE_VERSION += "/number-script"
# A line opening with an option label already taken, read into an option, is flagged (`parse.label_repeated`).
STAGE_VERSION += "/label-repeated"
# A marking scheme's task answered again on its own line with another answer is keyed twice (unkeyed, reported), not the
# first kept unsaid; a question keyed twice is no longer also called unaccounted for.
STAGE_VERSION += "/scheme-twice"
# What went to no question is said in the sheet's notes: lines before any question of their part, figures above the first
# question, pages `drop_pages` set aside (`losses.note_unclaimed`).
STAGE_VERSION += "/unclaimed-notes"
# A marking scheme's task answered again after its `answer_marker` with another answer is keyed twice (unkeyed, reported);
# an answer on the marker's own line is kept when the scoring rules follow at once. Questions `skip_types` left out are
# named in the problem line.
STAGE_VERSION += "/scheme-marker-twice"
# An OCR row naming fewer booklet types than its block has is read again with its word spaces out, a match standing on
# word edges (`stream.variant_names`: "ТИ П А" for "ТИП А").
STAGE_VERSION += "/split-header-words"

__all__ = [
    "STAGE_VERSION", "Numbering", "ParseResult", "canonical_label", "line_stream", "matched_label", "number_key",
    "option_start_regex", "parse_sheet", "plain_text", "split_blocks", "find_options", "bare_label_run",
    "key_stream", "place_parts", "row_entries", "split_booklet",
    "column_edges", "indent", "under_word_options",
    "KeyTable", "read_grid", "read_list", "read_variant_table", "unaccounted_line", "place_lines", "inferred_numbers",
    "KEY_ENTRY", "unsure_short_entries", "mend_short_entries", "unsure_key_entries", "flagged_key_entries",
    "PARSE_PASSES", "Point", "Recovery", "RecoveryPass", "check_ocr_pass_names", "parse_pass_names", "recovery_for",
    "recovery_key", "register_ocr",
    "MISREAD_SIGNS", "enable_signs",
]
