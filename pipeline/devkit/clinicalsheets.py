"""Clinical and scientific text in generated questions: lab values, dosages, temperatures, gases and formulas.

`pipeline.devkit.ocrcertainty`'s `clinical` families (`FAMILIES`) print, among their language's words, what medical,
pharmacy and engineering licensing exams print in every language: a lab value with its unit (`4,2 mEq/L`,
`11.5 g/dL`, `12 000/μL`), a dosage (`2,5 mg/kg`, `500 mg/8 h`, `5 μg/kg/min`), a temperature (`38,5 °C`, `T° 39`),
a pressure (`140/90 mmHg`), a gas or a formula with its digits on the line as text layers give them (`SatO2 92%`,
`FiO2 0,21`, `CO2`, `NaHCO3`), a decimal number (`0,25`) and a share (`0,9 %`). Decimal commas and points both, as
sheets print either. Every sign is typed as a typesetter would (`°`, `μ`, `³`), so what a scan reads otherwise is a
misreading the flag should name, and a question read exactly that the flag names is a right one flagged.

Half the questions (`SHARE`) are of this kind, the others words alone. `FAMILIES` tune the word rules for such text;
`HELD_OUT` (other languages, fonts and scans, chosen before any rule was tuned) only report.
"""
from __future__ import annotations

import random
from collections.abc import Callable

from pipeline.devkit import symbolsheets
from pipeline.devkit.sample.scansetting import ScanSetting

SHARE = 0.5  # of a family's questions, those that print clinical expressions

# (name, language, Tesseract language, labels, layout, font, scan, seed, symbols): `ocrcertainty.Family`'s fields.
FAMILIES = (
    ("es-clin-column", "es", "spa", ("A", "B", "C", "D"), "column", "DejaVuSans", ScanSetting(200, 0.6, 80, noise=0.0), 81, True),
    ("pt-clin-pairs-150", "pt", "por", ("A", "B", "C", "D", "E"), "pairs", "DejaVuSerif", ScanSetting(150, 0.7, 75, noise=0.02), 82, True),
    ("pl-clin-column", "pl", "pol", ("A", "B", "C", "D"), "column", "DejaVuSerif", ScanSetting(300, 0.5, 85, noise=0.0), 83, True),
    ("tr-clin-pairs", "tr", "tur", ("A", "B", "C", "D"), "pairs", "DejaVuSans", ScanSetting(200, 0.8, 70, noise=0.0), 84, True),
    ("el-clin-column-150", "el", "ell", ("α", "β", "γ", "δ"), "column", "DejaVuSans", ScanSetting(150, 0.6, 80, noise=0.0), 85, True),
    ("ru-clin-pairs", "ru", "rus", ("А", "Б", "В", "Г"), "pairs", "DejaVuSerif", ScanSetting(250, 0.7, 80, tilt=0.3, noise=0.0), 86, True),
)
HELD_OUT = (
    ("cs-clin-column-150", "cs", "ces", ("A", "B", "C", "D"), "column", "DejaVuSerif", ScanSetting(150, 0.8, 70, noise=0.0), 91, True),
    ("en-clin-pairs", "en", "eng", ("A", "B", "C", "D"), "pairs", "DejaVuSans", ScanSetting(200, 0.5, 75, noise=0.02), 92, True),
    ("vi-clin-column", "vi", "vie", ("A", "B", "C", "D"), "column", "DejaVuSans", ScanSetting(300, 0.7, 80, noise=0.0), 93, True),
)
NAMES = frozenset(f[0] for f in FAMILIES + HELD_OUT)

_Expression = Callable[[random.Random], str]


def _int(rng: random.Random, low: int, high: int) -> str:
    return str(rng.randint(low, high))


def _decimal(rng: random.Random, low: int, high: int, places: int = 1) -> str:
    """A decimal number with a comma or a point, as sheets print either."""
    return f"{rng.randint(low, high)}{rng.choice(',.')}{rng.randint(0, 10 ** places - 1):0{places}d}"


def _value(rng: random.Random, low: int, high: int) -> str:
    return _decimal(rng, low, high) if rng.random() < 0.5 else _int(rng, low, high)


_CONCENTRATIONS = ("mEq/L", "mg/dL", "g/dL", "mmol/L", "UI/L", "ng/mL", "mg/dl", "μmol/L", "pg/mL", "mOsm/kg")
_DOSES = ("mg/kg", "mg/kg/d", "μg/kg/min", "mL/h", "UI/kg", "mg/m²", "g/24 h", "mL/kg")
_GASES = ("SatO2", "SpO2", "FiO2", "PaO2", "PaCO2", "HCO3", "EtCO2")
_FORMULAS = ("CO2", "H2O", "O2", "NaCl", "NaHCO3", "CaCO3", "H2SO4", "KCl", "MgSO4", "Na2CO3", "NH3", "CH4", "C6H12O6")

EXPRESSIONS: tuple[tuple[str, _Expression], ...] = (
    ("temperature", lambda r: f"{_value(r, 35, 41)} °C"),
    ("temperature glued", lambda r: f"{_value(r, 35, 41)}°C"),
    ("temperature sign", lambda r: f"T° {_value(r, 35, 41)}"),
    ("concentration", lambda r: f"{_value(r, 1, 300)} {r.choice(_CONCENTRATIONS)}"),
    ("count", lambda r: f"{_int(r, 2, 450)} 000/{r.choice(('μL', 'mm³', 'μl'))}"),
    ("dose", lambda r: f"{_value(r, 1, 50)} {r.choice(_DOSES)}"),
    ("dose every", lambda r: f"{r.choice(('250', '500', '1', '2'))} {r.choice(('mg', 'g'))}/{r.choice(('6', '8', '12', '24'))} h"),
    ("pressure", lambda r: f"{_int(r, 90, 180)}/{_int(r, 50, 110)} mmHg"),
    ("gas", lambda r: f"{r.choice(_GASES)} {_int(r, 80, 99)}%"),
    ("gas fraction", lambda r: f"FiO2 0{r.choice(',.')}{_int(r, 21, 60)}"),
    ("formula", lambda r: r.choice(_FORMULAS)),
    ("acidity", lambda r: f"pH 7{r.choice(',.')}{_int(r, 10, 55)}"),
    ("share", lambda r: f"{_decimal(r, 0, 9)} %"),
    ("decimal", lambda r: _decimal(r, 0, 99, 2)),
)


def stem(rng: random.Random, words: str) -> str:
    """A stem's words with two or three expressions among them (a case's vital signs and lab values)."""
    return symbolsheets.with_expressions(rng, words, rng.randint(2, 3), EXPRESSIONS)


def option(rng: random.Random, words: str) -> str:
    """An option as `symbolsheets` prints one, of this module's expressions."""
    return symbolsheets.option(rng, words, EXPRESSIONS)
