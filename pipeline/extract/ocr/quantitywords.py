"""Quantities printed as one word: a number with its degree sign or its unit, a unit, a gas or a formula.

Medical, pharmacy and engineering exams print, in every language, words a word's shape rules (`certainty.mixed_characters`)
read as confusions: a degree sign among letters (`39°C`, `T°`), a Greek micro before a Latin unit (`/μL`, `μg/kg/min`:
two scripts in one word), a formula glued to an abbreviation (`SatO2`, `SpO2`: digits glued to a word). Such a word is
well formed when it is, whole, one of the shapes below; the rules of a word's shape then do not judge it, and the
evidence that judges every word still does: the second recogniser's reading and its signs (`°`, `μ` read otherwise:
`certainty.sign_contradicted`), Tesseract's confidence.

- a number and a degree sign, with a scale after it or not (`39°`, `38,5°C`, `°C`, `36,6°С`): a scale is one capital
  letter in any script;
- a quantity's symbol, one letter, and a degree sign, a number after it or not (`T°`, `t°`, `T°39`);
- a unit or a formula of a script's data (`pipeline/languages/scripts.yaml`: `unit_symbols`, `unit_prefixes`,
  `element_symbols`), after a number and a slash or a slash alone (`μL`, `mEq/L`, `12000/μL`, `/mm3`, `HCO3`);
- an abbreviation, a capital and one or two small letters, with a formula glued after it (`SatO2`, `SpO2`, `EtCO2`).

Nothing here is a word list of a sheet: a misread sign is no part of any shape (`39*C`, `T*`, `Sat02`, `/ul`), and such a
word stays judged by the shape rules.
"""
from __future__ import annotations

import re

from pipeline.extract.ocr.unitwords import EDGE_MARKS, is_formula, is_unit_expression

_NUMBER = r"\d+(?:[.,]\d+)*"
_DEGREES = re.compile(rf"(?:{_NUMBER})?°(?:[^\W\d_])?")  # `39°`, `38,5°C`, `°C`: a scale is one capital (checked below)
_SYMBOL_DEGREE = re.compile(rf"[^\W\d_]°(?:{_NUMBER})?")  # `T°`, `T°39`
_PER_UNIT = re.compile(rf"(?:{_NUMBER})?/(?P<unit>.+)")  # `12000/μL`, `/μl`
_ABBREVIATED_FORMULA = re.compile(r"(?P<head>[A-Z][a-z]{1,2})(?P<formula>[A-Z].*\d.*)")  # `SatO2`
UNIT_SCRIPTS = ("Latin", "Cyrillic")  # the scripts whose data writes units and formulas (`unit_symbols`)
_DEGREE_CHARACTERS = "°\u00ba"
_RAISED = str.maketrans("¹²³", "123")  # the ordinal indicator is the degree sign's twin to a recogniser


def _core(token: str) -> str:
    start, end = 0, len(token)
    while start < end and token[start] in EDGE_MARKS:
        start += 1
    while end > start and token[end - 1] in EDGE_MARKS:
        end -= 1
    # A raised count is a count (`m²`, `mm³`); the ordinal indicator a degree sign.
    return token[start:end].replace("\u00ba", "°").translate(_RAISED)


def _unit(text: str) -> bool:
    return any(is_unit_expression(text, script) for script in UNIT_SCRIPTS)


def well_formed_quantity(token: str) -> bool:
    """Whether the word `token` (marks around it allowed) is, whole, a quantity of one of the module's shapes."""
    core = _core(token)
    if not core or not any(ch.isalpha() or ch in _DEGREE_CHARACTERS for ch in core):
        return False
    if _DEGREES.fullmatch(core):
        scale = core[-1]
        return not scale.isalpha() or scale.isupper()
    if _SYMBOL_DEGREE.fullmatch(core):
        return True
    per_unit = _PER_UNIT.fullmatch(core)
    if per_unit:
        return _unit(per_unit["unit"])
    if _unit(core):
        return True
    abbreviated = _ABBREVIATED_FORMULA.fullmatch(core)
    return bool(abbreviated) and is_formula(abbreviated["formula"])
