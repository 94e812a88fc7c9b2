"""Options printed side by side on one row, scanned: whether a row whose labels OCR misreads stays a row of options.

    python -m pipeline.devkit.rowscans --out /tmp/rows [--set tuning|checking|all] [--families el-row-sans,...]
        [--scans 150/0.8/70,200/0.6/80,300/0.4/90] [--seeds 0,1] [--disable PASS,...] [--show]

Each family is a `scriptscans` sheet whose options all stand on one row (`α) … β) … γ) … δ) …`, `(A) … (B) …`,
`A. … B. …`), in Greek, Turkish, Russian, Portuguese and Vietnamese, each in its own font, label case and label
style. A scan misreads such labels (Greek `δ)` as `β)` or `ὃ)`, `γ)` as `y)`, a Turkish `(C)` glued to the word
before it); the row must still be read as its options. Scored as `scriptscans` does (recall, options exact,
answers, each scan beside the text path). `tuning` families are the ones the row mechanisms were built on;
`checking` families (other languages, styles and fonts) only report.
"""
from __future__ import annotations

import sys

from pipeline.devkit.scriptscans import Family, family_arguments, measure, run_families

TUNING = (
    Family("el-row-sans", "el", "ell", ("α", "β", "γ", "δ"), "A)", "row", "DejaVuSans", 301, questions=12),
    Family("el-row-caps", "el", "ell", ("Α", "Β", "Γ", "Δ"), "(A)", "row", "DejaVuSerif", 302, questions=12),
    Family("tr-row-paren", "tr", "tur", ("A", "B", "C", "D", "E"), "(A)", "row", "DejaVuSerif", 303, questions=12),
    Family("ru-row-lower", "ru", "rus", ("а", "б", "в", "г"), "A)", "row", "DejaVuSerif", 304, questions=12),
    # Issue 27's misreads left: Greek small labels in other faces, Cyrillic small labels in pairs, a Latin row of small labels.
    Family("el-row-serif", "el", "ell", ("α", "β", "γ", "δ"), "A)", "row", "DejaVuSerif", 321, questions=12),
    Family("el-pairs-sans", "el", "ell", ("α", "β", "γ", "δ"), "A)", "pairs", "DejaVuSans", 322, questions=12),
    Family("ru-pairs-serif", "ru", "rus", ("а", "б", "в", "г"), "A)", "pairs", "DejaVuSerif", 323, questions=12),
    Family("ru-pairs-mono", "ru", "rus", ("а", "б", "в", "г"), "A)", "pairs", "DejaVuSansMono", 324, questions=12),
    Family("pl-row-lower", "pl", "pol", ("a", "b", "c", "d"), "A)", "row", "DejaVuSerif", 325, questions=12),
    Family("ru-pairs-caps", "ru", "rus", ("А", "Б", "В", "Г"), "A)", "pairs", "DejaVuSerif", 326, questions=12),
    Family("el-row-doubled", "el", "ell", ("α", "β", "γ", "δ"), "A)", "row", "DejaVuSansMono", 327, questions=12),
)
CHECKING = (
    Family("pt-row-dot", "pt", "por", ("A", "B", "C", "D", "E"), "A.", "row", "DejaVuSans", 311, questions=12),
    Family("el-row-dot", "el", "ell", ("α", "β", "γ", "δ"), "A.", "row", "DejaVuSansMono", 312, questions=12),
    Family("vi-row", "vi", "vie", ("A", "B", "C", "D"), "A.", "row", "DejaVuSerif", 313, questions=12),
    Family("tr-row-lower", "tr", "tur", ("a", "b", "c", "d"), "A)", "row", "DejaVuSans", 314, questions=12),
)
SETS = {"tuning": TUNING, "checking": CHECKING}
GROUPS = {"all": ("tuning", "checking")}


def main(argv: list[str] | None = None) -> int:
    parser = family_arguments("python -m pipeline.devkit.rowscans", __doc__ or "", [*SETS, *GROUPS], "150/0.8/70,200/0.6/80,300/0.4/90")
    args = parser.parse_args(argv)
    return run_families(args, SETS, GROUPS.get(args.set, (args.set,)), measure)


if __name__ == "__main__":
    sys.exit(main())
