"""Review: a page where annotators accept, edit or reject figure descriptions and curators correct
extraction errors beside the page image the question came from.

Input: curated records and pending annotations. Output: review decisions in `annotations/`.
"""
