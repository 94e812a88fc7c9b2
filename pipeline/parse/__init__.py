"""Parse stage: an extracted sheet and its key(s) become curated `Question` records.

Small strategies chosen by the spec: numbering (`blocks`), options (`options`), true/false blocks
(`truefalse`), key formats (`keys`); `build` assembles and validates the records. Nothing exam-specific
lives here: every rule comes from the spec's `layout` and `key` sections.
"""
from pipeline import PIPELINE_VERSION
from pipeline.parse.build import ParseResult, parse_sheet

# Bumped whenever parsing changes, so cached parse results of earlier code are never reused.
STAGE_VERSION = f"parse/{PIPELINE_VERSION}+7"

__all__ = ["STAGE_VERSION", "ParseResult", "parse_sheet"]
