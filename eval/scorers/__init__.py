"""From a model's output to a verdict.

Input: a response (or option log-likelihoods) with the protocol's extraction rule; for structured
and open answers, the reply and the key (or a reference answer for the judge).
Output: an attempt status and extracted label (`Status`), a named structured-match decision, judge
grades with agreement and a score table, similarity scores beside them.

Public:
- `answers`: `Status`, `get_rule`, `classify_generation`, `looks_like_refusal`, `first_argmax`, `norm_argmax`,
  `token_norm_argmax`, `ExtractionRule`
- `structured`: `match_answer`, `spec_for`, `MatchSpec`, `StructuredResult`, `KeyFormatError`
- `judge`: `Judge`, `judge_items`, `judge_command`, `read_items`, `load_rubric`, `agreement`, `make_backend`
- `judge_scores`: `score_judges`, `scores_markdown`, `spread_report`, `report_markdown`
- `similarity`: `token_f1`, `chrf`, `BertScorer`
"""
