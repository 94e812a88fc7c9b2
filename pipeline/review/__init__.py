"""Review: a page where annotators accept, edit or reject figure descriptions beside the figure and
its question, and the merge that puts accepted descriptions into curated records.

Input: curated records and annotations from `pipeline.describe`. Output: decisions appended to
`annotations/reviews.jsonl` (who, when, before, after; each fsync'ed before it is acknowledged), and
with `--merge` the description fields of the curated records.

Public functions:
- `ReviewStore.open(root, curated_files)`: items, their state, `decide(...)` (a version check turns a
  decision on a stale view into `ConflictError`), `undo(...)` (puts back what the latest decision
  replaced, as a new log entry), `query(...)` (filters and a text search), `table(...)` (sorted rows),
  `progress()`.
- `DoubleReview.open(store)` (`double`): blind judgements by two annotators per figure
  (`annotations/blind_reviews.jsonl`), matching ones decide, the others queue for adjudication;
  `report()` with Cohen's kappa per annotator pair (`agreement`: `cohen_kappa`, `pair_agreements`).
- `checked_key(type, labels, answer)` (`keys`): a curator's key checked against the question's
  labels and type.
- `create_app(store)`, `serve_review(store, port=, allowed_hosts=)`: the Flask app and a background
  server on 127.0.0.1. Before any route (`guard`): only the Host names it was started for (421),
  writes only from its own page's Origin (403), bodies up to 1 MiB (413); every POST body is read
  through a strict schema (`schemas`: a 400 naming the field); every error is JSON.
- `merge_descriptions(rows, accepted)`, `accepted_figures(store)`, `merge_curated_file(path, store)`:
  only accepted descriptions go into records; the merge is idempotent. `apply_accepted_descriptions(questions,
  root)`: the same on records in memory, which every season run does before it writes curated data.
- `apply_overrides(questions, overrides)`, `load_overrides(path)`, `CorrectionStore`: the extraction
  audit (page `/audit`): curators' corrections keyed by question id and sheet SHA-256, appended to
  `annotations/overrides.jsonl`; applied by the extract stage, dropped with a report line when the
  sheet changed. `render_page_png(root, sheet_sha256, page, box=)` (`pages`) renders a raw sheet page
  within a pixel budget, one at a time (PDFium is not thread-safe), with a box checked against the page.
- `renamed_ids(earlier, fresh)`, `record_renames(root, renames)`, `load_renames(root)`: record ids
  that changed (found by the sheet's bytes and the printed number), so reviewed work follows them.
- `register(subparsers)`: the `examcorpus review` subcommand.
"""
import importlib

from pipeline.review.agreement import PairAgreement, cohen_kappa, pair_agreements
from pipeline.review.command import register
from pipeline.review.double import AGREEMENT_FILE, BLIND_FILE, DoubleReview, Vote, VoteRefused
from pipeline.review.merge import (
    DESCRIPTION_FIELDS,
    AcceptedFigure,
    AppliedDescriptions,
    accepted_figures,
    apply_accepted_descriptions,
    merge_curated_file,
    merge_descriptions,
)
from pipeline.renames import RENAMES_FILE, current_id, load_renames, record_renames, renamed_ids
from pipeline.review.overrides import (
    OVERRIDES_FILE,
    CorrectionStore,
    Override,
    OverrideConflict,
    OverrideError,
    apply_overrides,
    load_overrides,
)
from pipeline.review.keys import KeyMismatch, checked_key
from pipeline.review.pages import RenderBusy, page_text, render_page_png
from pipeline.review.store import DECISIONS_FILE, ConflictError, ReviewInputError, ReviewItem, ReviewStore

# The web page's names (Flask, its request schemas) are loaded on first use: every season run applies
# reviewed work through this package but serves no page, and importing Flask was a tenth of its start.
_WEB_NAMES = {
    "MAX_BODY_BYTES": "guard", "LocalOrigins": "guard", "parse_allowed_host": "guard",
    "ApiError": "schemas", "CorrectionBody": "schemas", "DecisionBody": "schemas", "UndoBody": "schemas", "VoteBody": "schemas",
    "create_app": "server", "serve_review": "server",
}


def __getattr__(name: str):
    module = _WEB_NAMES.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


__all__ = [
    "DECISIONS_FILE", "DESCRIPTION_FIELDS", "MAX_BODY_BYTES", "OVERRIDES_FILE", "AcceptedFigure", "ApiError", "ConflictError",
    "CorrectionBody", "CorrectionStore", "DecisionBody", "LocalOrigins", "Override", "OverrideConflict", "OverrideError", "RenderBusy",
    "ReviewInputError", "ReviewItem", "ReviewStore", "accepted_figures", "apply_overrides", "create_app", "load_overrides",
    "merge_curated_file", "merge_descriptions", "parse_allowed_host", "register", "render_page_png", "serve_review",
    "AppliedDescriptions", "apply_accepted_descriptions",
    "RENAMES_FILE", "current_id", "load_renames", "record_renames", "renamed_ids",
    "AGREEMENT_FILE", "BLIND_FILE", "DoubleReview", "KeyMismatch", "PairAgreement", "UndoBody", "Vote", "VoteBody", "VoteRefused",
    "checked_key", "cohen_kappa", "page_text", "pair_agreements",
]
