"""The data a run scores: curated Parquet, a release folder or a Hub release, loaded and pinned by
SHA-256 (`loading`), and the few-shot pools drawn from outside the scored questions (`fewshot`)."""
