"""Developer tooling, apart from the product: generated exam material, the local site that serves it,
and the scorer that measures extraction against ground truth.

- `sample/`: a PDF toolkit (`sample.pdfgen`: pages, question blocks, scans), figure drawings, and the
  embedded sample archive (`sample.site.build_sample_site`, `sample.stamp.ensure_sample_site`) that
  `make extract` downloads from a local server; `sample.check` compares curated output with its truth;
  `sample.scansetting.ScanSetting`: the one scan setting (`dpi/blur/jpeg[/tilt[/noise]]`) the measuring tools
  (`softscans`, `scriptscans`, `ocrcertainty`, `punctscans`, …) parse, print and rasterise with.
- `serve`: `serve_directory(folder)`, a static HTTP server on 127.0.0.1 with conditional GETs and
  ranges, used by the sample run and the tests.
- `fidelity`: `examcorpus score-extraction`, curated records against a hand-made truth file.
- `inspect`: `examcorpus inspect SHEET --source SPEC`, `inspect_sheet(pdf, spec)`: the line stream the
  spec's patterns run on, and which rule took each line.
- `speccheck`: `spec_findings(spec)`, what `examcorpus specs check` says about a spec's meaning (patterns
  matching every line or backtracking without end, labels, key sections, key files, OCR languages).
- `trial`: `try_spec(spec, sheet, keys)`, `examcorpus specs check SPEC --try SHEET.pdf`: the spec run on one
  sheet, and what it found (questions, keyed, types, flags, problems).
- `specdoc`: `spec_reference_markdown()`, the docs' table of every spec field generated from the spec model
  (`examcorpus specs reference [--write]`, `write_spec_reference()`).
- `gemini_standin`: a Gemini `generateContent` stand-in, `python -m pipeline.devkit.gemini_standin --port N`
  (point `EXAMCORPUS_GEMINI_BASE_URL` at it to run describe and review offline); the describe tests use it.
- `hub_standin`: an in-memory Hugging Face Hub, `python -m pipeline.devkit.hub_standin --port N --token T`
  (point `HF_ENDPOINT` at it to publish, load and verify offline); the publish tests use it.
- `docgen`: the docs site's mkdocs hook: the CLI, record schema and OCR references rendered from the code.

Public functions used by the product: `ensure_sample_site`, `serve_directory`, `score_extraction`,
`inspect_sheet`, `register_inspect` (the `inspect` subcommand), `spec_reference_markdown`, `write_spec_reference`.
"""
from pipeline.devkit.fidelity import main as score_extraction
from pipeline.devkit.inspect import inspect_sheet
from pipeline.devkit.inspect import register as register_inspect
from pipeline.devkit.sample.stamp import ensure_sample_site
from pipeline.devkit.serve import serve_directory
from pipeline.devkit.specdoc import spec_reference_markdown
from pipeline.devkit.specdoc import write_reference as write_spec_reference

__all__ = [
    "ensure_sample_site", "inspect_sheet", "register_inspect", "score_extraction", "serve_directory",
    "spec_reference_markdown", "write_spec_reference",
]
