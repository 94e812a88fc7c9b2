"""A question before it becomes a record: what the block, the options and the key made of it."""
from __future__ import annotations

from dataclasses import dataclass, field

from pipeline.parse.blocks import Block
from pipeline.parse.stream import StreamLine
from pipeline.records import QuestionType


@dataclass
class Draft:
    """A question before it becomes a record."""

    number: str
    type: QuestionType
    text: str
    context: str | None
    choices: list[str]
    labels: list[str]
    pages: list[int]
    points: float | None
    block: Block
    answer: str | None = None
    flags: list[str] = field(default_factory=list)
    highlighted: list[str] = field(default_factory=list)
    tf_index: int | None = None  # position of a true/false statement in its block
    tf_count: int = 0  # statements in that block
    voided: bool = False  # the key annuls it
    pilot: bool = False  # the key marks it as a pilot item
    # The lines each part was read from: "stem" and each option label (`certainty`; empty: the block's lines).
    sources: dict[str, list[StreamLine]] = field(default_factory=dict)
    reading_confidence: float | None = None  # OCR: the lowest word confidence of those lines (`certainty`)
    # Text after its options taken for page furniture and not kept (`parse.trailing_dropped`), as read.
    dropped_trailing: str | None = None
