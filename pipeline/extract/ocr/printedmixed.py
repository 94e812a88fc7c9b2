"""Words of a class printed with the characters `certainty.mixed_characters` reads as confusions, told by their layout:

- a web or mail address: a scheme (`https://`) or `www.` before a host, or a name, an `@` and a host whose top-level
  domain is letters (`https://sede.telefono060.es`, `ana.k2@uni.edu`): digits among letters and an `@` are its print;
- a well-formed quantity (`quantitywords.well_formed_quantity`: a unit of the script data after a number and a slash or a
  slash alone) whose only letters outside the Latin script are Greek small mus (`000/μL`, `μmol/L.`, `μg/kg/min`): the
  micro sign, which a recogniser reads as its twin, the Greek mu (one glyph), not a Greek letter inside a Latin word.

Such a word that the second recogniser read alike is not judged by its shape (`certainty.unsure_reason`): both read
each glyph the class prints. Read otherwise, or not read again, it is judged as any word. Nothing here names a sheet's
word: a Greek word with a Latin letter in it (`μέλλoντα`), a mu inside a Latin word (`μnder`), a unit glued to its number
with no slash (`36μL`: no shape of the data) and an `@` with no host after it (`c@sa`) stay judged by their shape.
"""
from __future__ import annotations

import re
import unicodedata

from pipeline.extract.ocr.quantitywords import well_formed_quantity

# A web or mail address: a scheme or `www.` before it, or a name, an `@` and a host with a top-level domain of letters.
_ADDRESS = re.compile(r"(?:[^\W\d_][\w+.-]*://|www\.)[^\s/]+\S*|[\w.+-]+@[\w-]+(?:\.[\w-]+)*\.[^\W\d_]{2,}", re.IGNORECASE)
# Marks a sentence sets around an address (brackets, quotation marks, a closing stop): not the address's own.
_EDGES = "([{<\"'«“„)]}>\"'»”.,;:!?"
# The micro sign's twin: a recogniser reads the micro sign (U+00B5) as the Greek small mu, one glyph to it.
GREEK_MU = "\u03bc"


def printed_mixed(token: str) -> bool:
    """Whether `token` is an address or a well-formed quantity with a micro prefix read as the Greek mu (module doc)."""
    core = token.strip(_EDGES)
    if _ADDRESS.fullmatch(core):
        return True
    foreign = {ch for ch in core if ch.isalpha() and ch != "\u00b5" and not unicodedata.name(ch, "").startswith("LATIN")}
    return foreign == {GREEK_MU} and well_formed_quantity(token)
