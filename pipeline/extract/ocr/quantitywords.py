"""Quantities printed as one word: a number with its degree sign or its unit, a unit, a gas or a formula.

Medical, pharmacy and engineering exams print, in every language, words a word's shape rules (`certainty.mixed_characters`)
read as confusions: a degree sign among letters (`39°C`, `T°`), a Greek micro before a Latin unit (`/μL`, `μg/kg/min`:
two scripts in one word), a formula glued to an abbreviation (`SatO2`, `SpO2`: digits glued to a word). Such a word is
well formed when it is, whole, one of the shapes below. Where `CertaintyPolicy.spare_quantities` asks (off as shipped),
the rules of a word's shape do not judge it; the evidence that judges every word still does: the second recogniser's
reading and its signs (`°`, `μ` read otherwise: `certainty.sign_contradicted`), Tesseract's confidence. Off, because
such right words were the only flag of misreads beside them: some are judged by their own shape now (`9/24` for
`g/24`: a unit read as digits, `unit_read_as_digits`), others no rule sees (`7,48` for `7.48`, `Otoscopia`).

- a number and a degree sign, with a scale after it or not (`39°`, `38,5°C`, `°C`): a scale is one capital letter;
- a quantity's symbol, one letter, and a degree sign, a number after it or not (`T°`, `t°38`, `T°39`; not a small
  letter alone, `y°`: the end of a word misread);
- neither a scale nor a symbol is a Greek or Cyrillic letter in the shape of a Latin one (`scripts.yaml`'s
  `lookalikes`: `36,6°С`, `Т°` with a Cyrillic С, Т): the shape cannot tell it from the Latin unit read as the page's
  own look-alike, the confusion the pass `companion-words` mends where it can, so the shape rules judge it;
- a unit or a formula of a script's data (`pipeline/languages/scripts.yaml`: `unit_symbols`, `unit_prefixes`,
  `element_symbols`), after a number and a slash or a slash alone (`μL`, `mEq/L`, `12000/μL`, `/mm3`, `HCO3`);
- an abbreviation, a capital and one or two small letters, with a formula glued after it (`SatO2`, `SpO2`, `EtCO2`).

And the other way, a word a scan made of such a quantity (`misread_quantity`), unsure however confident the reading:

- a formula or a gas with a zero where its O stands (`Sp02`, `MgS04`, `C02`: `SpO2`, `MgSO4`, `CO2`);
- a unit with a slash read with one of its script's confusable letters (`scripts.yaml`'s `confusable`: `Ul/kg`,
  `mg/dI` for `UI/kg`, `mg/dl`), or with a mark inside it (`000/mm>3`);
- a degree quantity whose scale was read as a digit (`41,9°6` for `41,9°C`; an angle's minutes carry their prime) or
  whose ring was read as a raised mark between a number of two digits or a decimal one and its scale (`39*C`, `38,5"C`;
  not after a letter: `A*2`, `x'2` are products and variables);
- a unit's letter read as the digit of its shape (`scripts.yaml`'s `digit_shapes`) right after a small letter, in a unit
  with a slash or glued to its number (`mg/d1`, `m9/kg`, `250m1`), or alone right after a number (`5 m1`): no unit prints
  a count of such a digit, and a formula's count (`PCl5`) is none of this; a variable alone (`m1`) stays as read;
- a unit whose micro sign was read as the `u` of its shape, in a unit with a slash (`ug/kg/min`, `000/ul`) or alone right
  after a number (`6 ug`); alone after a word it is a word (`um`, `us`);
- a unit's letter read as the digit of its shape before a slash, right after a number (`2.8 9/24 h` for `2.8 g/24 h`,
  `250 9/6 h`): two numbers in a row where a quantity prints its number and its unit (`unit_read_as_digits`). A mixed
  number prints a number and a fraction too (`2 1/2 h`), so only a fraction no mixed number prints is judged so: one
  not under one or not in its lowest terms (`9/24`, `9/6`), or one after a number with a decimal mark.
  Where no number stands before it (a line's first word: its number ended the line above), such a fraction before a
  unit is judged so too (`9/12 h` for `g/12 h`; `3/4 h` is a share of an hour).

Nothing here is a word list of a sheet: a misread sign is no part of any shape (`T*`, `Sat02`, `/ul`), and such a
word stays judged by the shape rules; so does one whose letters all look like digits (`SO2`, `l2`: `certainty` judges
that, `DIGIT_LOOKALIKES`).
"""
from __future__ import annotations

import re
from math import gcd

from pipeline.extract.ocr.unitwords import EDGE_MARKS, is_formula, is_unit_expression
from pipeline.languages import script_data

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


# A count after a letter that no unit or formula prints: a digit misread or glued (`l0`, `m1`: `10`, `ml`), not a power
# or a formula's count (`m2`, `cm3`, `CO2`, `C6H12O6`).
_NO_COUNT = re.compile(r"[^\W\d_](?:0|1(?!\d))")


def _unit(text: str) -> bool:
    return not _NO_COUNT.search(text) and any(is_unit_expression(text, script) for script in UNIT_SCRIPTS)


def well_formed_quantity(token: str) -> bool:
    """Whether the word `token` (marks around it allowed) is, whole, a quantity of one of the module's shapes."""
    core = _core(token)
    if not core or not any(ch.isalpha() or ch in _DEGREE_CHARACTERS for ch in core):
        return False
    if _DEGREES.fullmatch(core):
        scale = core[-1]
        return not scale.isalpha() or (scale.isupper() and not _latin_lookalike(scale))
    if _SYMBOL_DEGREE.fullmatch(core):
        # `T°`, `t°38`; a small letter alone is a word's (`y°`: `yo`)
        return (core[0].isupper() or core[-1].isdigit()) and not _latin_lookalike(core[0])
    per_unit = _PER_UNIT.fullmatch(core)
    if per_unit:
        return _unit(per_unit["unit"])
    if _unit(core):
        return True
    abbreviated = _ABBREVIATED_FORMULA.fullmatch(core)
    return bool(abbreviated) and not _NO_COUNT.search(core) and is_formula(abbreviated["formula"])


def _latin_lookalike(letter: str) -> bool:
    """Whether `letter` is a Greek or Cyrillic letter printed in the shape of a Latin one (`scripts.yaml`'s `lookalikes`)."""
    return any(letter in script_data(script).lookalikes for script in _LOOKALIKE_SCRIPTS)


_LOOKALIKE_SCRIPTS = ("Greek", "Cyrillic")  # the scripts whose data names their letters of a Latin letter's shape

ZERO_FOR_O = "a zero where a formula's O stands"
CONFUSED_UNIT = "a unit read with a confusable letter"
MARK_IN_UNIT = "a mark inside a unit"
RING_AS_MARK = "a degree sign read as a mark"
SCALE_AS_DIGIT = "a degree sign's scale read as a digit"
UNIT_LETTER_AS_DIGIT = "a unit's letter read as the digit of its shape"
MICRO_AS_LETTER = "a micro sign read as the letter of its shape"
# A sign read as the letter of its shape (the micro sign's open tail lost: `ug/kg/min` for `μg/kg/min`): the same glyph
# in every script's texts, no language's knowledge.
_SIGN_AS_LETTER = {"u": "μ"}
# What a recogniser reads a degree sign's small raised ring as between a number and its scale (`39*C`, `38,5"C`): raised
# marks of a few strokes. Not a caret (`2^N`: a power), and not after a letter (`A*2`, `x'2`: a product, a variable).
_RING_MARKS = "*\"'?"
_RING_READ_AS_MARK = re.compile(rf"(?P<number>\d{{2,}}(?:[.,]\d+)*|\d+[.,]\d+)[{re.escape(_RING_MARKS)}](?P<scale>[^\W\d_])")
# A number, its degree sign and digits where the scale stands (`41,9°6`: the C read as a 6). An angle's minutes carry their
# prime (`45°30'`), which the word keeps: no such word is judged.
_SCALE_DIGITS = re.compile(rf"{_NUMBER}°\d+")
_PRIMES = "'′\"″"


def misread_quantity(token: str) -> str | None:
    """Why the word `token` reads as a quantity a scan misread (module docstring), or None."""
    core = _core(token)
    if _ring_read_as_mark(core):
        return RING_AS_MARK
    if _SCALE_DIGITS.fullmatch(core) and not any(mark in token for mark in _PRIMES):
        return SCALE_AS_DIGIT
    if not any(ch.isalpha() for ch in core):
        return None
    if "/" in core and _letter_read_as_digit(core):  # `mg/d1`, `m9/kg`: a unit's own count is never a 1, a 5 or a 9
        return UNIT_LETTER_AS_DIGIT
    if "/" in core and _sign_read_as_letter(core):  # `ug/kg/min`, `000/ul`
        return MICRO_AS_LETTER
    glued = _GLUED_NUMBER.fullmatch(core)  # `250m1`: a number and its unit, glued
    if glued and _letter_read_as_digit(glued["unit"]):
        return UNIT_LETTER_AS_DIGIT
    if well_formed_quantity(core):
        return None
    if "0" in core and well_formed_quantity(core.replace("0", "O")):
        return ZERO_FOR_O
    if "/" not in core:
        return None
    per_unit = _PER_UNIT.fullmatch(core)
    if per_unit and per_unit.start("unit") > 1 and any(not (ch.isalnum() or ch in "/·-") for ch in per_unit["unit"]):
        return MARK_IN_UNIT  # after a number and a slash (`000/mm>3`)
    return CONFUSED_UNIT if _confused_unit(core) else None


def _ring_read_as_mark(core: str) -> bool:
    """Whether `core` is a number of two digits or a decimal one, a mark a ring is read as, and a scale (`39*C`, `38,5"C`),
    that with a degree sign for the mark is a degree quantity of the module's shapes (`39°C`); `3*X` is a product."""
    found = _RING_READ_AS_MARK.fullmatch(core)
    return bool(found) and well_formed_quantity(f"{found['number']}°{found['scale']}")


def _sign_read_as_letter(text: str) -> bool:
    """Whether `text`, no unit expression as read, is one with a letter read for a sign of its shape (`_SIGN_AS_LETTER`)
    put back, where the letter begins a term (`ug/kg/min` as `μg/kg/min`, `000/ul` as `000/μl`; not `u/L`: `μ/L` is none)."""
    if well_formed_quantity(text):
        return False
    for at, letter in enumerate(text):
        sign = _SIGN_AS_LETTER.get(letter)
        if sign and (at == 0 or not text[at - 1].isalpha()) and well_formed_quantity(text[:at] + sign + text[at + 1:]):
            return True
    return False


_GLUED_NUMBER = re.compile(rf"{_NUMBER}(?P<unit>[^\W\d_].*)")


def _letter_read_as_digit(text: str) -> bool:
    """Whether `text` is a unit expression (or a number and one after a slash) once one digit standing right after a small
    letter is read as the unit letter of its shape (`scripts.yaml`'s `digit_shapes`: `m1` as `ml`, `mg/d1` as `mg/dl`,
    `m9/kg` as `mg/kg`), while as read it is no formula (`PCl5`): no unit prints a count of a digit of such a shape."""
    if is_formula(text):
        return False
    for at in range(1, len(text)):
        digit, before = text[at], text[at - 1]
        if not (before.isalpha() and before.islower()) or text[at + 1:at + 2].isdigit():
            continue
        for script in UNIT_SCRIPTS:
            letter = script_data(script).digit_shapes.get(digit)
            if letter and well_formed_quantity(text[:at] + letter + text[at + 1:]):
                return True
    return False


def _confused_unit(core: str) -> bool:
    """Whether `core` (a word with a slash) is a unit expression once one letter of a confusable pair of one letter
    each is swapped for the other (`Ul/kg` → `UI/kg`). Not runs of two letters: `mg/kg/d` (a day) is no `mg/kg/cl`."""
    for a, b in script_data("Latin").confusable:
        if len(a) != 1 or len(b) != 1:
            continue
        for this, that in ((a, b), (b, a)):
            at = core.find(this)
            while at >= 0:
                if _unit(core[:at] + that + core[at + len(this):]):
                    return True
                at = core.find(this, at + 1)
    return False


UNIT_AS_DIGITS = "a unit's letter read as a digit after a number"
_NUMBER_WORD = re.compile(rf"{_NUMBER}")
_FRACTION = re.compile(r"(?P<over>\d)/(?P<under>\d+)")


def unit_read_as_digits(previous: str | None, token: str, following: str | None = None) -> str | None:
    """Why the word `token`, read right after the word `previous` of its line and before `following`, reads as a quantity's
    unit whose letter was read as a digit (`2.8 9/24 h` for `2.8 g/24 h`, `5 m1` for `5 ml`) or whose sign was read as a
    letter of its shape (`6 ug` for `6 μg`: module docstring), or None. Where no number stands before it (a line's first
    word: its number ended the line above), a fraction no number prints before a unit (`9/12 h` for `g/12 h`: over one or
    not in its lowest terms) is judged so too; `3/4 h`, `1/2 h` are a share of an hour."""
    core = _core(token)
    fraction = _FRACTION.fullmatch(core)
    number = _core(previous) if previous is not None else ""
    if not _NUMBER_WORD.fullmatch(number):
        if fraction and following is not None and _unit(_core(following)) and _unit_digit(fraction["over"]) \
                and not _simple_fraction(int(fraction["over"]), int(fraction["under"])):
            return UNIT_AS_DIGITS
        return None
    if not fraction:
        if not any(ch.isalpha() for ch in core):
            return None
        if _letter_read_as_digit(core):
            return UNIT_AS_DIGITS
        return MICRO_AS_LETTER if _sign_read_as_letter(core) else None  # `6 ug` for `6 μg`; `um` after a word is a word
    if not _unit_digit(fraction["over"]):
        return None
    over, under = int(fraction["over"]), int(fraction["under"])
    mixed_number = not any(mark in number for mark in ".,") and _simple_fraction(over, under)
    return None if mixed_number else UNIT_AS_DIGITS


def _unit_digit(digit: str) -> bool:
    """Whether `digit` is read for a unit letter of its shape (`scripts.yaml`'s `digit_shapes`: a `g` with its open tail
    read as a 9)."""
    return any(_unit(letter) for script in UNIT_SCRIPTS for letter in (script_data(script).digit_shapes.get(digit),) if letter)


def _simple_fraction(over: int, under: int) -> bool:
    """A fraction a mixed number or a share prints: under one and in its lowest terms (`1/2`, `3/4`)."""
    return 0 < over < under and gcd(over, under) == 1
