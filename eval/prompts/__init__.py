"""How a question becomes a request, in the question's own language.

Input: question records and a protocol name (`mcq`, `mcq@1`, ...); for the judge, a rubric name.
Output: `Prompt`s (messages, continuations, labels, key) whose frozen text is checked by SHA-256, and
the judge's versioned rubric files (`rubrics/<subject>.<language>.v<N>.md`).

Public:
- `protocols`: `get_protocol`, `Protocol`, `PromptBuilder`, `Prompt`, `is_scorable`, `check_frozen`, `prompt_sha256`,
  `reviewed_figure_texts`, `materialise_images`
"""
