"""Extract: a PDF becomes pages of positioned lines in reading order, from the text layer where it is
usable and by OCR where it is not, cleaned of page furniture, with its figures cropped.

Input: a stored PDF (path + SHA-256) and `ExtractOptions` built from the source spec.
Output: an `ExtractedDocument` (pages of `Line`s, figures, warnings), the model the parse stage reads.

Public functions and types:
- `extract_document(pdf_path, sha256, options)` -> ExtractedDocument (`stage`); `ExtractOptions`,
  `ExtractError` (the file is bad), `StageUnavailable` (OCR could not run: not cached), `STAGE_VERSION`;
  `plan_files(n)`: the files a process is about to extract, which tells it when the compiled character
  loops repay loading (`pagechars`)
- `ExtractedDocument`, `Page`, `Line`, `Figure`, `PageMethod`: the extracted-document model (`document`);
  `UNREAD_CELL`, what OCR writes for a table cell it found but could not read
- `search_rule(pattern, text, ocr=)`: a spec pattern matched with room for OCR misreadings (`tolerant`)
- `LayoutParams`, `Glyph`, `assemble`: rows, segments and columns from positioned glyphs, shared by the
  text and OCR paths (`layout`); `clusters(values, tolerance)`: positions grouped into the columns they
  stand in; `merge_spans(spans, min_gap)`: x ranges joined where no gutter parts them (`columns`)
- `assess_text_layer`, `text_layer_usable`: whether a page's text layer can be trusted (`quality`)
- `extract_figures`, `FigureError`: figure crops as PNG (`figures`)
- `ocr`: the OCR sub-package (`ocr_pages`, `OcrSettings`, `normalize_ocr_line`, …)
"""
from pipeline.extract.document import UNREAD_CELL, ExtractedDocument, Figure, Line, Page, PageMethod
from pipeline.extract.columns import merge_spans
from pipeline.extract.layout import Glyph, LayoutParams, assemble, clusters
from pipeline.extract.quality import assess_text_layer, text_layer_usable
from pipeline.extract.figures import FigureError, extract_figures
from pipeline.extract.pagechars import plan_files
from pipeline.extract.stage import STAGE_VERSION, ExtractError, ExtractOptions, StageUnavailable, extract_document
from pipeline.extract.tolerant import search_rule

__all__ = [
    "STAGE_VERSION", "UNREAD_CELL", "ExtractError", "ExtractOptions", "ExtractedDocument", "Figure", "FigureError", "Glyph",
    "LayoutParams", "Line", "Page", "PageMethod", "StageUnavailable", "assemble", "assess_text_layer", "clusters", "extract_document",
    "extract_figures", "merge_spans", "plan_files", "search_rule", "text_layer_usable",
]
