"""Split: curated records into a public and a private (held-out) part by year, with a leakage guard.

Input: curated Parquet (`pipeline.records.Question`). Output: the two splits and the rule that made them.
"""
