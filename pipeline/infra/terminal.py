"""Text someone else wrote, made safe to print on a terminal or into a report a person reads there.

A file name from an archive, a folder's entry or a PDF's text layer can hold control sequences: ESC
(`\\x1b[2J` clears the screen, `\\x1b]0;…` sets the window title, `\\x1b]52;…` writes the clipboard, `\\x1b]8;;URL`
makes a link), C1 controls (U+009B is CSI to some terminals), and bidi overrides that print a name in
another order than it reads (U+202E). `printable` shows each as its escape (`\\x1b`, `\\u202e`), so what is
printed is what is there, inert. `rich` reads `[...]` in printed text as markup (a folder named `[/red]`
made the run summary raise `MarkupError`): `console_text` is `printable` with the markup escaped too.
"""
from __future__ import annotations

import re

# C0 controls but tab and newline, DEL, C1 controls, and the bidi embeddings, overrides and isolates
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def _escaped(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str, *, newlines: bool = True) -> str:
    """`text` with every control character and bidi control shown as its escape; newlines (and tabs)
    kept unless `newlines` is False."""
    shown = _UNSAFE.sub(_escaped, text)
    return shown if newlines else shown.replace("\n", "\\n").replace("\t", "\\t")


def console_text(text: str, *, newlines: bool = True) -> str:
    """`printable(text)` for a `rich` console's markup: square brackets read as text, not as tags."""
    from rich.markup import escape

    return escape(printable(text, newlines=newlines))
