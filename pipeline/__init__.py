"""examcorpus: national exam archives to versioned LLM benchmark datasets."""

__version__ = "0.1.0"
# Bumped whenever a stage's output for the same input may change; part of every cache key and record.
PIPELINE_VERSION = "0.1.0"
