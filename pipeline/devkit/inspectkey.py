"""`examcorpus inspect KEY.pdf --key`: each line of an answer key with what the key reader took from it:
the part it went to (a heading of `key.sections` opens one; parts are found by position, column then row),
the entries `key.entry` read in it, and where `key.stop_at` ended the key. Also used for the key printed
inside a booklet (`key.in_sheet`), from its heading on.
"""
from __future__ import annotations

from pipeline.extract import ExtractedDocument, Line
from pipeline.parse import key_stream, line_stream, number_key, place_parts, plain_text, recovery_for, row_entries
from pipeline.patterns import spec_pattern
from pipeline.specs import SourceSpec


def line_key(page: int, line: Line) -> tuple:
    """A line's identity across extractions of one file (as `pipeline.devkit.inspect` keys lines)."""
    return page, round(line.x0, 1), round(line.top, 1), round(line.x1, 1)


def key_rules(document: ExtractedDocument, spec: SourceSpec) -> dict[tuple, tuple[str, str]]:
    """Rule and plain text of every line of a key document's stream, by line key."""
    key = spec.key
    recovery = recovery_for(spec.ocr.passes.disable)  # the OCR recovery passes the spec leaves, as parse runs them
    every = line_stream(document, reader=recovery.line_reader(None))
    read = key_stream(document, key.stop_at, recovery)
    result: dict[tuple, tuple[str, str]] = {}
    kept = {line_key(sl.page, sl.line) for sl in read}
    stopped = False
    for item in every:
        if line_key(item.page, item.line) not in kept:
            rule = f"key.stop_at {key.stop_at!r} (the key ends here, in this column)" if not stopped else \
                "after key.stop_at (not read)"
            stopped = True
            result[line_key(item.page, item.line)] = (rule, plain_text(item.text)[0])
    texts = {id(sl): plain_text(sl.text)[0] for sl in read}
    entry_re = spec_pattern(key.entry) if key.kind == "list" and key.entry else None
    for placed in place_parts(read, list(key.sections), texts):
        item, part = placed.line, placed.part
        text = texts[id(item)]
        where = f"column {placed.column + 1}, part {part.prefix or '-'}"
        if placed.opens is not None:
            rule = f"key part {part.prefix} opens ({where})"
        elif entry_re is not None:
            entries = [f"{number_key(part.prefix + m.group('number'))} → {m.group('answer').strip()}"
                       for m in row_entries([text], entry_re)]
            rule = f"key entry {', '.join(entries)} ({where})" if entries else f"key text, no entry ({where})"
        else:
            rule = f"key line ({key.kind}; {where})"
        result[line_key(item.page, item.line)] = (rule, text)
    return result
