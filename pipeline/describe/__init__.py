"""Describe: figure descriptions and transcriptions written by an LLM (Gemini), for human review.

Input: curated records with figure crops (`pipeline.records.Question.images`). Output: pending
annotations in `annotations/` (JSONL), one per image, model and prompt version.
"""
