"""From a model's output to a verdict: answer extraction and attempt statuses (`answers`), structured
answers (`structured`), the LLM judge for open answers (`judge`, `judge_scores`) and lexical and
embedding similarity (`similarity`)."""
