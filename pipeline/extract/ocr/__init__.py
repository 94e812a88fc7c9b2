"""OCR for pages without a usable text layer: render with pypdfium2, read with Tesseract, repair what
it misreads, and return `Page`s laid out like the text path's.

Public functions and types:
- `ocr_pages(pdf_path, page_numbers, settings, *, workers=2)` -> {page number: Page} (`page`)
- `ocr_image(image, settings, *, page_number, width_pt, height_pt)` -> Page, one rendered page (`page`);
  it is `read_page` (the page's passes -> `PageReading`) then `lay_out_page` (lines by the layout)
- `PAGE_PASSES`, `pass_names()`, `enabled_passes(settings)`, `pass_versions(settings)`: the ordered
  registry of page passes `read_page` runs (`pagepasses`); `PagePass`, `PageWork`, `Cost`, `page_pass`,
  `UnknownPass`: what a pass is (`passes`; `DocumentedPass`: its listing's condition and summary, read from its
  functions' docstrings, which parse's recovery passes share); `check_pass_names(names)`: a spec's `ocr.passes.disable`
  checked; `register(subparsers)`, `passes_markdown()`: `examcorpus ocr passes` and the docs' table (`cli`)
- `ReadingCache(cache_dir)`, `reading_key(sha256, page, settings)`, `PageReading`, `READING_VERSION`: per-page readings
  cached by what they depend on, so a layout edit never re-runs Tesseract (`cache`; `ocr_pages(...,
  cache_dir=, sha256=)` uses it)
- `OcrSettings`: languages, dpi, layout, option labels, ellipsis and the prose re-read
  (`reread_prose`, `reread_below`), built once with `OcrSettings.from_spec(spec)` (`settings`)
- `find_regions(grey, text_height)` -> [Region], `classify_region(words, text_height, rules)` ->
  RegionKind, `reread_prose(...)` -> (words, [RegionReading]): the page cut into columns and blocks by
  its white space, and prose regions read again as uniform text (`--psm 6`) where that is at least as
  confident (`segment`; `read_page` applies it)
- `normalize_ocr_line(text, labels)`, `normalize_ocr_lines(lines, labels)`: label repairs of one
  line (`labels`; the parse stage applies them to OCR'd lines); `LABEL_TOKEN`, the shape of a lone
  option label token ("a)", "(B)", "C.")
- `require_languages(languages)`, `installed_languages()`, `tesseract_command()`: raise
  `OcrUnavailable` before any work starts when Tesseract or a language is missing (`engine`)
- `reading_languages(languages, installed)`: the languages and the companion scripts their language data names
  (`codes.companions`: Latin on a Greek page), which number cells and the pass `companion-words` read with (`companions`)
- `prepare_for_tesseract(image, dpi)`, `prepared_before_whitening(image, dpi)` (the same page before its light greys
  are made paper: `accentlines` reads lines again from it), `render_page(document, index, dpi)`, `straight_rules(dark, length)`:
  the pixels of rules and frames (`engine`)
- `read_masked(pdf_path, [MaskedRequest], settings, …)` -> {page: [PlacedWord]}: the ink inside boxes of
  a text page read on white, everything else painted out (`masked`; the stage reads drawn text and
  unmapped glyphs with it); `KEEP_PAD_PT`, the points kept around each box
- `load_lexicon(languages)`, `Lexicon`, `word_list(language)`, `word_core(token)`: Tesseract's own word
  lists, for word repairs and for judging words (`lexicon`)
- `CertaintyPolicy`, `unsure_reason(text, conf, lexicon)`: when a read word counts as unsure; laid-out
  OCR lines carry their lowest word confidence and unsure words (`certainty`)
- `confusable_variant(core, lexicon, spelled)`, `swapped_variants(core, pairs)`, `marked_variants(core, marked)`: a word
  one confusable run of its script (`pipeline/languages/scripts.yaml`) from exactly one known word (`confusables`)
- `RECOGNISERS` (`recognisers`: Tesseract and RapidOCR behind one interface, reading crops), `read_again`
  (`secondread`: the `second-reader` pass's windows of unsure words read by RapidOCR and combined),
  `spelling_for(languages)` (`hunspell`: the language files' hunspell dictionaries)
- `measure_softness(image)` -> `Softness` (edge width over line height), `sharpening(softness, dpi)`: how soft a
  scan is and the unsharp mask the `sharpen` pass reads its prose with (`softness`)
- `OcrUnavailable`, `OcrError`

Pages come back as `PageMethod.OCR` pages of `Line`s in reading order with coordinates in PDF points
(top-left origin, like the text path), `ocr_confidence` = mean Tesseract word confidence (0–100), and
`highlighted=True` on lines that sit on a yellow fill (how the Peruvian sheets mark their key). A page
on which Tesseract finds no text comes back as `PageMethod.EMPTY`. Headers/footers are not removed
here: the extract stage cleans OCR pages and text pages the same way.

Modules (the passes that call them, in order, are listed in `pagepasses`): `engine` (Tesseract, images, TSV; `tessapi` runs it in process) and `words` (the
words' geometry); `segment` (regions by layout, prose read again as blocks); `condensed` (narrow type read again, widened); `noise` (junk dropped, dropped words
read again); `keycells` (answer-key tables); `tablecells` (ruled key tables cut by their rules, read cell by cell; their geometry in `tablebands`, the cells' reading in `cellreads`); `labels` (option labels, question numbers); `spelling`
(words and accents, with `lexicon`); `typography` (bold, highlights); `page` puts them together.
"""
from pipeline.extract.ocr.engine import (
    OcrError,
    OcrUnavailable,
    installed_languages,
    prepare_for_tesseract,
    prepared_before_whitening,
    render_page,
    require_languages,
    straight_rules,
    tesseract_command,
)
from pipeline.extract.ocr.companions import reading_languages
from pipeline.extract.ocr.labels import LABEL_TOKEN, normalize_ocr_line, normalize_ocr_lines
from pipeline.extract.ocr.lexicon import Lexicon, LexiconUnavailable, load_lexicon, word_core, word_list
from pipeline.extract.ocr.certainty import CertaintyPolicy, spelled_for, unsure_reason
from pipeline.extract.ocr.confusables import confusable_variant, marked_variants, swapped_variants
from pipeline.extract.ocr.confusions import known_candidate as confused_letters_candidate
from pipeline.extract.ocr.seenmarks import evidence_for as seen_marks_evidence, seen_marks, seen_marks_note
from pipeline.extract.ocr.secondletters import Box as LetterBox, mend_words, take_second_letters
from pipeline.extract.ocr.markchecks import mark_facts, optional_twins
from pipeline.extract.ocr.cache import READING_VERSION, PageReading, ReadingCache, reading_key
from pipeline.extract.ocr.page import lay_out_page, ocr_image, ocr_pages, read_page
from pipeline.extract.ocr.pagepasses import PAGE_PASSES, check_pass_names, enabled_passes, pass_names, pass_versions
from pipeline.extract.ocr.cli import passes_markdown, register
from pipeline.extract.ocr.passes import Cost, DocumentedPass, PagePass, PageWork, UnknownPass, first_paragraph, page_pass
from pipeline.extract.ocr.segment import Region, RegionKind, RegionReading, classify_region, find_regions, reread_prose
from pipeline.extract.ocr.settings import OcrSettings
from pipeline.extract.ocr.masked import KEEP_PAD_PT, MaskedRequest, PlacedWord, read_masked
from pipeline.extract.ocr.hunspell import SpellingUnavailable, spelling_for
from pipeline.extract.ocr.recognisers import RECOGNISERS
from pipeline.extract.ocr.secondread import read_again, would_read_again
from pipeline.extract.ocr.agreement import second_readings
from pipeline.extract.ocr.reading import ReadWord
from pipeline.extract.ocr.softness import Softness, measure_softness, sharpening
from pipeline.extract.ocr.signshapes import is_candidate as is_sign_candidate
from pipeline.extract.ocr.words import Word, words_by_line

__all__ = [
    "LABEL_TOKEN", "READING_VERSION", "Lexicon", "LexiconUnavailable", "OcrError", "OcrSettings", "OcrUnavailable", "PageReading", "ReadingCache",
    "Region", "RegionKind", "RegionReading", "classify_region", "find_regions", "reread_prose",
    "installed_languages", "reading_languages", "lay_out_page", "load_lexicon", "normalize_ocr_line", "normalize_ocr_lines", "ocr_image",
    "ocr_pages", "prepare_for_tesseract", "prepared_before_whitening", "read_page", "reading_key", "render_page", "require_languages",
    "tesseract_command", "PAGE_PASSES", "Cost", "DocumentedPass", "first_paragraph", "PagePass", "PageWork", "UnknownPass", "enabled_passes", "page_pass",
    "pass_names", "pass_versions", "check_pass_names", "passes_markdown", "register",
    "straight_rules", "KEEP_PAD_PT", "MaskedRequest", "PlacedWord", "read_masked",
    "CertaintyPolicy", "spelled_for", "unsure_reason", "word_core", "word_list", "confusable_variant", "marked_variants", "swapped_variants",
    "mark_facts", "optional_twins",
    "RECOGNISERS", "read_again", "would_read_again", "second_readings", "ReadWord", "spelling_for", "SpellingUnavailable", "Softness", "measure_softness", "sharpening",
    "is_sign_candidate", "Word", "words_by_line", "confused_letters_candidate", "seen_marks_evidence", "seen_marks", "seen_marks_note",
    "LetterBox", "mend_words", "take_second_letters",
]
