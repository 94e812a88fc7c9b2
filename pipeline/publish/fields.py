"""What each column of a release means: the card's Data Fields section is made from the release
table's schema and these lines, and a test fails when a column has none (so a new record field
cannot reach a release undocumented)."""
from __future__ import annotations

import pyarrow as pa

from pipeline.publish.layout import FIGURE_TYPE, FIGURES_FIELD
from pipeline.records import questions_to_table

MEANINGS = {
    "id": "stable question id `source:year:session:sheet_code:number`, unchanged by re-runs",
    "source": "the exam family (source spec) the question came from",
    "country": "ISO 3166-1 alpha-2 code of the country whose exam it is",
    "language": "ISO 639-1 code of the question's language",
    "exam": "exam name, from the source spec",
    "level": "exam level (e.g. basic/extended), or null",
    "subject": "exam subject",
    "year": "exam year",
    "session": "exam session as the publisher names it (e.g. `maj`), or null",
    "sheet_code": "the sheet's code as printed on it, or null",
    "number": "question number as printed (`3.1`, `12`, `Α1`)",
    "type": "`single_choice`, `true_false`, `matching`, `fill_in`, `short_answer` or `open`",
    "question": "the question stem, labels and page furniture removed",
    "context": "a shared passage the question refers to, or null",
    "choices": "option texts without their labels (the statements, for true/false blocks)",
    "choice_labels": "the option labels as printed on the sheet, in the question's script (`A`…`D`, `α`…`δ`; "
                     "`Σ`/`Λ` for Greek true/false): the key and the prompts use them",
    "answer": "the official key's answer: a label from `choice_labels`, or the key's text for open questions; "
              "null when the key gives none",
    "answer_index": "position of `answer` in `choices` (script-independent), for single-choice questions",
    "points": "points as printed, or null",
    "images": "the question's figures: `path` where the curator's crop was, `page`, `bbox` (PDF points, "
              "top-left origin) and `sha256` of the PNG",
    "source_url": "where the exam sheet was downloaded from",
    "source_sha256": "SHA-256 of the exam sheet's PDF bytes",
    "pages": "1-based pages of the sheet the question spans",
    "pipeline_version": "version of the examcorpus stages that made the record",
    "flags": "validation problems; in a release only `ocr.uncertain` (a reading to check first) and "
             "`parse.trailing_dropped` (a few letters after the options not kept as furniture); questions with any "
             "other flag are left out",
    "flag_codes": "the stable code of each flag (`key.no_entry`, …), in the order of `flags`; in a release only "
                  "`ocr.uncertain` and `parse.trailing_dropped`",
    "reading_confidence": "read by OCR: the lowest Tesseract word confidence (0–100) of the lines the question was "
                          "read from; null: read from the PDF's text layer",
    "voided": "the official key annuls the question (no answer, not scored)",
    "reserve": "a reserve question, counted only if another is annulled",
    "pilot": "a keyed pilot item the exam itself does not score",
    "regions": "where the question was printed: `page` and `bbox` per page",
    "image_description": "the figures' descriptions accepted by a reviewer (`[1] …`, `[2] …` when several), or null",
    "image_transcription": "the text visible in the figures, accepted with the description, or null",
    "description_model": "the model(s) that drafted the accepted descriptions",
    "reviewed_by": "the reviewer(s) who accepted the descriptions",
    "reviewed_at": "when they were accepted (ISO 8601 UTC)",
    FIGURES_FIELD: "the figures themselves, as images (PNG bytes; `datasets` yields PIL images), in the order of "
                   "`images`; each one's SHA-256 is `images[i].sha256` and is listed in `manifest.json`",
}


def release_fields() -> list[tuple[str, pa.DataType]]:
    """(name, Arrow type) of every column of a release's Parquet, in order."""
    return [(f.name, f.type) for f in questions_to_table([]).schema] + [(FIGURES_FIELD, FIGURE_TYPE)]


def data_fields_table() -> str:
    rows = ["| field | type | meaning |", "|---|---|---|"]
    for name, typ in release_fields():
        shown = "list<image>" if name == FIGURES_FIELD else str(typ).replace("item: ", "").replace("element: ", "")
        # A type as a code span: `list<image>` written bare is an <img> element to a browser.
        rows.append(f"| `{name}` | `{shown.replace('|', '/')}` | {MEANINGS[name]} |")
    return "\n".join(rows)
