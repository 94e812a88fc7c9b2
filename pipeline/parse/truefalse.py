"""True/false blocks: statements judged P/F (Σ/Λ …), each statement its own question."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from pipeline.parse.labels import fold
from pipeline.parse.recovery import MarkWork, Point, Recovery
from pipeline.parse.stream import StreamLine, join_wrapped, marked_rest, plain_text, rows
from pipeline.patterns import spec_pattern
from pipeline.specs import TrueFalseSpec


@dataclass
class Statement:
    n: str
    parts: list[str] = field(default_factory=list)

    @property
    def text(self) -> str:
        return join_wrapped(self.parts)


@dataclass
class TrueFalseBlock:
    stem: list[str]
    statements: list[Statement]


def _marker_words(spec: TrueFalseSpec) -> frozenset[str]:
    return frozenset(fold(word) for words in spec.labels.values() for word in words)


def _is_marker(token: str, words: frozenset[str], ocr: bool, recovery: Recovery) -> bool:
    """An answer label, as printed or as the `Point.MARK` passes read it (on a scan, with the circle of its
    answer box read beside it: `ringed-marks`)."""
    return fold(token) in words or fold(recovery.run(Point.MARK, MarkWork(token, ocr, words)).token) in words


def _strip_markers(row: list[StreamLine], words: frozenset[str], recovery: Recovery) -> tuple[list[StreamLine], bool]:
    """The row without its trailing answer-label cells ('P', 'F' or 'P F'); whether any were there."""
    kept = list(row)
    removed = 0
    while kept:
        tokens = plain_text(kept[-1].text)[0].split()
        if tokens and all(_is_marker(t, words, kept[-1].ocr, recovery) for t in tokens):
            kept.pop()
            removed += len(tokens)
        else:
            break
    return kept, removed >= 2


def find_statements(lines: list[StreamLine], spec: TrueFalseSpec, force: bool,
                    recovery: Recovery | None = None) -> TrueFalseBlock | None:
    """Statements of a true/false block, or None when the block is not one.

    With `markers_in_row` a statement row ends with the answer labels; otherwise (or when a type rule
    says so: `force`) statements are lines opening with `statement`.
    """
    words = _marker_words(spec)
    recovery = recovery or Recovery.every()
    statement_re = spec_pattern(spec.statement)
    marked_rows = 0
    stem: list[str] = []
    statements: list[Statement] = []
    by_marks: list[Statement] = []  # one statement per marked row, for tables without numbers
    lead: list[str] = []  # unmarked rows before the first marked one
    for row in rows(lines):
        content, marked = _strip_markers(row, words, recovery) if spec.markers_in_row else (row, False)
        marked_rows += marked
        text = " ".join(sl.text for sl in content).strip()
        match = statement_re.match(plain_text(text)[0])  # numbers match plain text; bold stays in the statement
        if match:
            statements.append(Statement(match.group("n"), [marked_rest(text, match.end())]))
        elif statements:
            statements[-1].parts.append(text)
        else:
            stem.append(text)
        if marked:
            by_marks.append(Statement(str(len(by_marks) + 1), [text]))
        elif by_marks:
            by_marks[-1].parts.append(text)
        else:
            lead.append(text)
    if len(statements) < 2 and spec.markers_in_row and marked_rows >= 2:
        # A table of statements with P/F columns but no numbers: each marked row is a statement. The
        # header row ("P F" alone) is a marked row without text.
        marked_with_text = [Statement(str(i), st.parts) for i, st in enumerate((st for st in by_marks if st.text), 1)]
        if len(marked_with_text) >= 2:
            return TrueFalseBlock(stem=[s for s in lead if s], statements=marked_with_text)
    if len(statements) < 2:
        return None
    if not force and marked_rows < len(statements):
        return None
    return TrueFalseBlock(stem=[s for s in stem if s], statements=statements)


def answers_from_key(text: str, spec: TrueFalseSpec) -> list[str]:
    """Labels in key order: 'FPPF', 'F P P F', '1. F 2. P', 'α Σωστό β Λάθος' all work."""
    aliases = {fold(word): label for label, words in spec.labels.items() for word in words}
    found: list[str] = []
    for token in re.findall(r"\w+", text):
        folded = fold(token)
        if folded in aliases:
            found.append(aliases[folded])
        elif all(fold(ch) in aliases for ch in token) and len(token) > 1:
            found.extend(aliases[fold(ch)] for ch in token)
    return found
