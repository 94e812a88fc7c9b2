"""Split: curated records into a public and a private (held-out) part by year, with a leakage guard.

Input: curated Parquet (`pipeline.records.Question`). Output: the two splits and the rule that made them,
in a split folder (`build/split/` by default): `public.parquet`, `private.parquet`, `split.json`.

Public functions:
- `load_split_config(path=None)`: the rule from YAML (`default_split.yaml` here when None) → `SplitConfig`.
- `split_records(questions, config)` → `SplitResult` (public, private, withheld, rule); raises
  `LeakageError` (with `.pairs` and a Markdown `.report`) when a private question reaches the public side.
- `find_leaks(private, public, settings)` → `LeakPair`s by id, canonical text (`canonical_text`: invisible
  characters, look-alikes, case and accents folded), a private text inside a public field, near-duplicate
  (MinHash LSH, verified by exact shingle Jaccard) and figure SHA-256; `question_text` is the normalised
  text the guard compares.
- `run_split(curated_dir, out_dir, config)`: read, split, write the folder; `read_split(dir)` → `SplitFolder`
  (whose `questions(split)` refuses a file changed since the split).
- `register(subparsers)`: the `examcorpus split` command.
"""
from pipeline.split.assign import SPLITS, LeakageError, SplitInputError, SplitResult, SplitRule, Withheld, split_records
from pipeline.split.config import DEFAULT_CONFIG, LeakageSettings, SplitConfig, SplitConfigError, load_split_config, parse_split_config
from pipeline.split.leakage import LeakPair, find_leaks, normalise_text, question_text
from pipeline.split.cli import register
from pipeline.split.store import SplitDataError, SplitFolder, read_curated, read_split, run_split

__all__ = [
    "DEFAULT_CONFIG", "SPLITS", "LeakPair", "LeakageError", "LeakageSettings", "SplitConfig", "SplitConfigError",
    "SplitDataError", "SplitFolder", "SplitInputError", "SplitResult", "SplitRule", "Withheld", "find_leaks",
    "load_split_config", "normalise_text", "parse_split_config", "question_text", "read_curated",
    "read_split", "register", "run_split", "split_records",
]
