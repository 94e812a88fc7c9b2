"""Evaluation: models run on curated or published records under versioned protocols, scored with
intervals, compared pairwise, and set against human exam results (see eval/README.md and `eval.cli`)."""
