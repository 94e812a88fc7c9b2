"""Parse stage: an extracted sheet and its key(s) become curated `Question` records.

Small strategies chosen by the spec: numbering (`blocks`), options (`options`), true/false blocks
(`truefalse`), key formats (`keys`); `build` assembles and validates the records. Nothing exam-specific
lives here: every rule comes from the spec's `layout` and `key` sections.
"""
from pipeline.parse.build import ParseResult, parse_sheet

__all__ = ["ParseResult", "parse_sheet"]
