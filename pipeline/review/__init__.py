"""Review: a page where annotators accept, edit or reject figure descriptions beside the figure and
its question, and the merge that puts accepted descriptions into curated records.

Input: curated records and annotations from `pipeline.describe`. Output: decisions appended to
`annotations/reviews.jsonl` (who, when, before, after; each fsync'ed before it is acknowledged), and
with `--merge` the description fields of the curated records.

Public functions:
- `ReviewStore.open(root, curated_files)`: items, their state, `decide(...)` (a version check turns a
  decision on a stale view into `ConflictError`), `query(...)` (filters), `progress()`.
- `create_app(store)`, `serve_review(store, port=)`: the Flask app and a background server on 127.0.0.1.
- `merge_descriptions(rows, accepted)`, `accepted_figures(store)`, `merge_curated_file(path, store)`:
  only accepted descriptions go into records; the merge is idempotent.
- `apply_overrides(questions, overrides)`, `load_overrides(path)`, `CorrectionStore`: the extraction
  audit (page `/audit`): curators' corrections keyed by question id and sheet SHA-256, appended to
  `annotations/overrides.jsonl`; applied by the extract stage, dropped with a report line when the
  sheet changed. `render_page_png(root, sheet_sha256, page)` renders a raw sheet page.
- `register(subparsers)`: the `examcorpus review` subcommand.
"""
from pipeline.review.command import register
from pipeline.review.merge import DESCRIPTION_FIELDS, AcceptedFigure, accepted_figures, merge_curated_file, merge_descriptions
from pipeline.review.overrides import (
    OVERRIDES_FILE,
    CorrectionStore,
    Override,
    OverrideConflict,
    OverrideError,
    apply_overrides,
    load_overrides,
)
from pipeline.review.pages import render_page_png
from pipeline.review.server import create_app, serve_review
from pipeline.review.store import DECISIONS_FILE, ConflictError, ReviewInputError, ReviewItem, ReviewStore

__all__ = [
    "DECISIONS_FILE", "DESCRIPTION_FIELDS", "OVERRIDES_FILE", "AcceptedFigure", "ConflictError", "CorrectionStore",
    "Override", "OverrideConflict", "OverrideError", "ReviewInputError", "ReviewItem", "ReviewStore", "accepted_figures",
    "apply_overrides", "create_app", "load_overrides", "merge_curated_file", "merge_descriptions", "register", "render_page_png",
    "serve_review",
]
