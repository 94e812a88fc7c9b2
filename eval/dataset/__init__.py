"""The data a run scores, and the examples shown before it.

Input: curated Parquet (a file or folder), a release folder, or a Hub release `hf://OWNER/NAME@TAG`;
a few-shot pool (the public split, a split folder, a Parquet or JSONL file).
Output: `PinnedData` (the questions and every file's SHA-256, checked again before use) and few-shot
prompts drawn from the pool, never from the scored questions.

Public:
- `loading`: `load_data`, `check_pin`, `PinnedData`, `PinnedFile`, `DataError`
- `fewshot`: `load_pool`, `choose_fewshot`, `build_fewshot_prompts`, `Pool`, `FewshotChoice`, `FewshotError`
"""
