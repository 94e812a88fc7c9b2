"""Evaluation: models run on curated or published records under versioned protocols, scored with
intervals, compared pairwise, and set against human exam results (see eval/README.md and `eval.cli`).
Structured answers (words, numbers, matching pairs, gaps, true/false blocks) are matched by
`eval.scorers.structured.match_answer`; open answers are graded by an LLM judge, `eval.scorers.judge.Judge` /
`judge_command`, with kappa agreement and lexical similarity beside the grade."""
