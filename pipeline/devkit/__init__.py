"""Developer tooling, apart from the product: generated exam material, the local site that serves it,
and the scorer that measures extraction against ground truth.

- `sample/`: a PDF toolkit (`sample.pdfgen`: pages, question blocks, scans), figure drawings, and the
  embedded sample archive (`sample.site.build_sample_site`, `sample.stamp.ensure_sample_site`) that
  `make extract` downloads from a local server; `sample.check` compares curated output with its truth.
- `serve`: `serve_directory(folder)`, a static HTTP server on 127.0.0.1 with conditional GETs and
  ranges, used by the sample run and the tests.
- `fidelity`: `examcorpus score-extraction`, curated records against a hand-made truth file.

Public functions used by the product: `ensure_sample_site`, `serve_directory`, `score_extraction`.
"""
from pipeline.devkit.fidelity import main as score_extraction
from pipeline.devkit.sample.stamp import ensure_sample_site
from pipeline.devkit.serve import serve_directory

__all__ = ["ensure_sample_site", "score_extraction", "serve_directory"]
